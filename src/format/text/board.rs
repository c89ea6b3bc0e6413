//! A position as text for people: the board with coordinates, pieces as
//! letters (or Unicode, with ANSI colours on a terminal), a legend and the
//! side to move.

use crate::board::game::Sq;
use crate::board::{Position, Tables};

/// How a piece is drawn: the side's letter, lower case for the ordinary kind
/// and upper case for the others (with the kind's letter too when a game has
/// more than two kinds).
pub fn piece_glyph(t: &Tables, pos: &Position, sq: Sq) -> String {
    match pos.piece(t, sq) {
        None => String::new(),
        Some((s, k)) => {
            let letter = t.game.sides.get(usize::from(s.0)).map_or('?', |s| s.letter);
            if k.0 == 0 {
                letter.to_ascii_lowercase().to_string()
            } else if t.nkinds <= 2 {
                letter.to_ascii_uppercase().to_string()
            } else {
                let kl = t.game.kinds.get(usize::from(k.0)).map_or('?', |k| k.letter);
                format!("{}{kl}", letter.to_ascii_uppercase())
            }
        }
    }
}

/// How the board is drawn.
#[derive(Clone, Debug, Default)]
pub struct Style {
    /// Unicode pieces and zone marks (else ASCII letters).
    pub unicode: bool,
    /// ANSI colours: board squares, sides, the last move.
    pub color: bool,
    /// Squares of the last move (start and landings), highlighted.
    pub last: Vec<Sq>,
}

impl Style {
    /// What suits the terminal: Unicode and colour on a terminal, colour
    /// only without `NO_COLOR`; plain text when piped.
    pub fn for_terminal(is_terminal: bool, no_color: bool) -> Style {
        Style {
            unicode: is_terminal,
            color: is_terminal && !no_color,
            last: Vec::new(),
        }
    }
}

/// The board, ranks from the top, with coordinates, a legend and the side to
/// move, as plain text.
pub fn render(t: &Tables, pos: &Position) -> String {
    render_styled(t, pos, &Style::default())
}

const SIDE_COLORS: [&str; 8] = ["97", "30", "31", "34", "32", "35", "36", "33"];

fn unicode_piece(t: &Tables, side: u8, kind: u8) -> String {
    if t.nkinds <= 2 && t.nsides <= 2 {
        let glyphs = [["\u{26c0}", "\u{26c1}"], ["\u{26c2}", "\u{26c3}"]];
        return glyphs[usize::from(side)][usize::from(kind)].to_string();
    }
    let letter = t
        .game
        .sides
        .get(usize::from(side))
        .map_or('?', |s| s.letter);
    if kind == 0 {
        letter.to_ascii_lowercase().to_string()
    } else {
        t.game
            .kinds
            .get(usize::from(kind))
            .map_or('?', |k| k.letter)
            .to_string()
    }
}

/// Zone marks of empty squares: (square, mark, owner side) for no-stop
/// squares and the zones that triggers use.
fn zone_mark(t: &Tables, sq: Sq) -> Option<(&'static str, Option<usize>)> {
    if t.no_stop.get(usize::from(sq.0)).copied().unwrap_or(false) {
        return Some(("\u{00d7}", None));
    }
    for trig in &t.game.triggers {
        if let Some(z) = t.game.zones.get(usize::from(trig.zone.0)) {
            for (side, set) in z.squares.iter().enumerate() {
                if set.contains(sq) {
                    return Some(("\u{25aa}", z.per_side.then_some(side)));
                }
            }
        }
    }
    None
}

/// The board with a style.
pub fn render_styled(t: &Tables, pos: &Position, style: &Style) -> String {
    let g = &t.game;
    let mut out = String::new();
    let files: String = (0..g.width)
        .map(|f| format!(" {} ", (b'a' + f) as char))
        .collect();
    out.push_str(&format!("    {files}\n"));
    for rank in (0..g.height).rev() {
        out.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..g.width {
            let sq = g.square(i32::from(file), i32::from(rank));
            let dark = (file + rank) % 2 == 0;
            let mut fg: Option<&str> = None;
            let text = match sq {
                None => "   ".to_string(),
                Some(sq) => match pos.piece(t, sq) {
                    Some((s, k)) => {
                        fg = SIDE_COLORS.get(usize::from(s.0)).copied();
                        if style.unicode {
                            format!(" {} ", unicode_piece(t, s.0, k.0))
                        } else {
                            format!("{:^3}", piece_glyph(t, pos, sq))
                        }
                    }
                    None => match zone_mark(t, sq) {
                        Some((mark, owner)) if style.unicode => {
                            fg = owner.and_then(|o| SIDE_COLORS.get(o).copied());
                            format!(" {mark} ")
                        }
                        _ if t.no_stop.get(usize::from(sq.0)).copied().unwrap_or(false) => {
                            " * ".to_string()
                        }
                        _ if style.unicode => " \u{00b7} ".to_string(),
                        _ => " . ".to_string(),
                    },
                },
            };
            if style.color {
                let last = sq.is_some_and(|s| style.last.contains(&s));
                let bg = if last {
                    "43"
                } else if sq.is_some() || dark {
                    "48;5;94"
                } else {
                    "48;5;180"
                };
                let fg = fg.unwrap_or("37");
                out.push_str(&format!("\x1b[{bg};{fg}m{text}\x1b[0m"));
            } else {
                out.push_str(&text);
            }
        }
        out.push_str(&format!(" {}\n", rank + 1));
    }
    out.push_str(&format!("    {files}\n"));
    let mut legend = Vec::new();
    for (i, s) in g.sides.iter().enumerate() {
        let glyph = if style.unicode {
            unicode_piece(t, i as u8, 0)
        } else {
            s.letter.to_ascii_lowercase().to_string()
        };
        legend.push(format!("{glyph} {}", s.name));
    }
    if t.nkinds == 2 {
        if let Some(k) = g.kinds.get(1) {
            if style.unicode && t.nsides <= 2 {
                legend.push(format!("{} {}", unicode_piece(t, 0, 1), k.name));
            } else {
                legend.push(format!("upper case: {}", k.name));
            }
        }
    }
    if t.no_stop.iter().any(|&b| b) {
        let mark = if style.unicode { "\u{00d7}" } else { "*" };
        legend.push(format!("{mark} no-stop square"));
    }
    if style.unicode {
        for trig in &g.triggers {
            if let Some(z) = g.zones.get(usize::from(trig.zone.0)) {
                let text = format!("\u{25aa} {}", z.id);
                if !legend.contains(&text) {
                    legend.push(text);
                }
            }
        }
    }
    out.push_str(&format!("{}\n", legend.join("   ")));
    let mover = g
        .sides
        .get(usize::from(pos.to_move))
        .map_or("?", |s| s.name.as_str());
    out.push_str(&format!("{mover} to move   {}\n", pos.to_fen(t)));
    out
}
