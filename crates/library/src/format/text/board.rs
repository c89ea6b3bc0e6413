//! A position as text for people: the board with coordinates, pieces as
//! letters (or Unicode, with ANSI colours on a terminal), a legend and the
//! side to move.

use crate::board::game::{Hostile, Sq, ZoneInfo};
use crate::board::{Position, Tables};

/// How a piece is drawn: the side's letter, lower case for the ordinary kind
/// and upper case for the others (with the kind's letter too when a game has
/// more than two kinds).
pub fn piece_glyph(t: &Tables, pos: &Position, sq: Sq) -> String {
    match pos.piece(t, sq) {
        None => String::new(),
        Some((s, k)) => {
            let letter = t
                .game()
                .sides
                .get(usize::from(s.0))
                .map_or('?', |s| s.letter);
            if k.0 == 0 {
                letter.to_ascii_lowercase().to_string()
            } else if t.kinds() <= 2 {
                letter.to_ascii_uppercase().to_string()
            } else {
                let kl = t
                    .game()
                    .kinds
                    .get(usize::from(k.0))
                    .map_or('?', |k| k.letter);
                format!("{}{kl}", letter.to_ascii_uppercase())
            }
        }
    }
}

/// How the board is drawn.
#[derive(Clone, Debug, Default)]
pub struct Style {
    /// Unicode pieces and zone marks (else ASCII letters: `--ascii`, or
    /// when piped).
    pub unicode: bool,
    /// ANSI colours: board squares, sides, the last move.
    pub color: bool,
    /// Squares of the last move (start and landings), highlighted.
    pub last: Vec<Sq>,
    /// Drawn turned round (the top rank at the bottom, the last file on
    /// the left): the board as the side at the top of the board sees it
    /// ([`seen_from_the_top`]).
    pub flip: bool,
    /// The square numbers beside the board (`show --numbers`, `numbers`
    /// at the prompt).
    pub numbers: bool,
}

impl Style {
    /// What suits the terminal: Unicode and colour on a terminal, colour
    /// only without `NO_COLOR`; plain text when piped.
    pub fn for_terminal(is_terminal: bool, no_color: bool) -> Style {
        Style {
            unicode: is_terminal,
            color: is_terminal && !no_color,
            ..Style::default()
        }
    }
}

/// Whether people playing `sides` (and no other) see the board from its
/// top: every one of them moves down the board (forward is south), so the
/// board is drawn turned round for them. False when no side is given.
pub fn seen_from_the_top(t: &Tables, sides: &[usize]) -> bool {
    !sides.is_empty()
        && sides
            .iter()
            .all(|&s| t.game().sides.get(s).is_some_and(|side| side.forward.1 < 0))
}

/// The board, ranks from the top, with coordinates, a legend and the side to
/// move, as plain text.
pub fn render(t: &Tables, pos: &Position) -> String {
    render_styled(t, pos, &Style::default())
}

const SIDE_COLORS: [&str; 8] = ["97", "30", "31", "34", "32", "35", "36", "33"];

fn unicode_piece(t: &Tables, side: u8, kind: u8) -> String {
    if t.kinds() <= 2 && t.sides() <= 2 {
        let glyphs = [["\u{26c0}", "\u{26c1}"], ["\u{26c2}", "\u{26c3}"]];
        return glyphs[usize::from(side)][usize::from(kind)].to_string();
    }
    let letter = t
        .game()
        .sides
        .get(usize::from(side))
        .map_or('?', |s| s.letter);
    if kind == 0 {
        letter.to_ascii_lowercase().to_string()
    } else {
        t.game()
            .kinds
            .get(usize::from(kind))
            .map_or('?', |k| k.letter)
            .to_string()
    }
}

/// The zone mark of an empty square: no-stop squares (`×`, `*`), then the
/// zones that triggers use (`▪` in the owner's colour; plain, the owner's
/// letter in brackets, `(w)`, or `+` for a zone of every side).
fn zone_mark(t: &Tables, sq: Sq, style: &Style) -> Option<(String, Option<usize>)> {
    if t.no_stop().get(usize::from(sq.0)).copied().unwrap_or(false) {
        let mark = if style.unicode { "\u{00d7}" } else { "*" };
        return Some((format!(" {mark} "), None));
    }
    if let Some(mark) = power_mark(t, sq, style) {
        return Some((format!(" {mark} "), None));
    }
    for trig in &t.game().triggers {
        if let Some(z) = t.game().zones.get(usize::from(trig.zone.0)) {
            for (side, set) in z.squares.iter().enumerate() {
                if set.contains(sq) {
                    let owner = z.per_side.then_some(side);
                    return Some((zone_glyph(t, owner, style), owner));
                }
            }
        }
    }
    None
}

/// The mark of a square with powers: one only some kinds may stop on
/// (`^`, `⌂`), else a hostile one (`!`, `⊗`).
fn power_mark(t: &Tables, sq: Sq, style: &Style) -> Option<&'static str> {
    let p = t.powers()?;
    if p.only_zone(sq.0).is_some() {
        return Some(if style.unicode { "\u{2302}" } else { "^" });
    }
    let hostile = t
        .game()
        .zones
        .iter()
        .any(|z| z.hostile != Hostile::Not && z.squares.iter().any(|set| set.contains(sq)));
    hostile.then_some(if style.unicode { "\u{2297}" } else { "!" })
}

/// What the squares with powers of a zone are, for the legend: `only the
/// king may stop there, hostile`.
pub fn power_words(t: &Tables, zone: &ZoneInfo) -> Option<String> {
    let mut words = Vec::new();
    if !zone.only.is_empty() {
        let kinds: Vec<String> = zone
            .only
            .iter()
            .filter_map(|k| t.game().kinds.get(usize::from(k.0)))
            .map(|k| k.name.to_lowercase())
            .collect();
        let pass = if zone.closed { " or pass" } else { "" };
        words.push(format!(
            "only the {} may stop{pass} there",
            kinds.join(" and ")
        ));
    }
    match zone.hostile {
        Hostile::Always => words.push("hostile".to_string()),
        Hostile::WhenEmpty => words.push("hostile when empty".to_string()),
        Hostile::Not => {}
    }
    (!words.is_empty()).then(|| words.join(", "))
}

/// The three characters of a trigger zone's square owned by `owner`.
fn zone_glyph(t: &Tables, owner: Option<usize>, style: &Style) -> String {
    match owner {
        _ if style.unicode && style.color => " \u{25aa} ".to_string(),
        Some(o) => {
            let letter = t.game().sides.get(o).map_or('?', |s| s.letter);
            format!("({})", letter.to_ascii_lowercase())
        }
        None => " + ".to_string(),
    }
}

/// What each zone drawn on the board means, one entry per zone: its marks,
/// its name and, for the zones of triggers, what the trigger does.
fn zone_legend(t: &Tables, style: &Style) -> Vec<String> {
    let g = t.game();
    let mut legend = Vec::new();
    for z in g.zones.iter().filter(|z| z.no_stop) {
        let mark = if style.unicode { "\u{00d7}" } else { "*" };
        legend.push(format!("{mark} {}: no piece may stop there", z.id));
    }
    if g.zones.iter().all(|z| !z.no_stop) && t.no_stop().iter().any(|&b| b) {
        let mark = if style.unicode { "\u{00d7}" } else { "*" };
        legend.push(format!("{mark} no-stop square"));
    }
    for z in &g.zones {
        let Some(words) = power_words(t, z) else {
            continue;
        };
        let mark = match (z.only.is_empty(), style.unicode) {
            (false, true) => "\u{2302}",
            (false, false) => "^",
            (true, true) => "\u{2297}",
            (true, false) => "!",
        };
        legend.push(format!("{mark} {}: {words}", z.id));
    }
    let mut seen: Vec<u16> = Vec::new();
    for trig in &g.triggers {
        if seen.contains(&trig.zone.0) {
            continue;
        }
        seen.push(trig.zone.0);
        let Some(z) = g.zones.get(usize::from(trig.zone.0)) else {
            continue;
        };
        // Each owner's mark and name when the marks tell them apart.
        let lettered = z.per_side && !(style.unicode && style.color);
        let marks: Vec<String> = if lettered {
            g.sides
                .iter()
                .enumerate()
                .take(z.squares.len())
                .map(|(o, side)| {
                    let mark = zone_glyph(t, Some(o), style);
                    let whose = crate::words::possessive(&side.name);
                    format!("{} {whose} {}", mark.trim(), z.id)
                })
                .collect()
        } else {
            vec![zone_glyph(t, None, style).trim().to_string()]
        };
        let what = trigger_words(g, trig, &z.id);
        let owners = if z.per_side && style.unicode && style.color {
            " (in its side's colour)"
        } else {
            ""
        };
        if lettered {
            legend.push(format!("{}: {what}", marks.join(", ")));
        } else {
            legend.push(format!("{} {}{owners}: {what}", marks.join(" "), z.id));
        }
    }
    legend
}

/// The board with a style: the ranks from the top (or turned round), with
/// coordinates, the square numbers beside it when asked, a legend of the
/// pieces and zones, and the side to move.
pub fn render_styled(t: &Tables, pos: &Position, style: &Style) -> String {
    let g = t.game();
    let mut out = String::new();
    let order = |n: u8| -> Vec<u8> {
        if style.flip {
            (0..n).rev().collect()
        } else {
            (0..n).collect()
        }
    };
    let files_order = order(g.width);
    // Ranks from the top of the picture: the last rank first, unless turned.
    let ranks_order: Vec<u8> = order(g.height).into_iter().rev().collect();
    let files: String = files_order
        .iter()
        .map(|&f| format!(" {} ", (b'a' + f) as char))
        .collect();
    // The numbers' column width: the largest number and a space.
    let digits = g
        .squares
        .iter()
        .map(|s| s.number.to_string().len())
        .max()
        .unwrap_or(1);
    let numbers_row = |rank: u8| -> String {
        let mut row = String::new();
        for &file in &files_order {
            let cell = match g.square(i32::from(file), i32::from(rank)) {
                Some(sq) => g
                    .squares
                    .get(usize::from(sq.0))
                    .map_or_else(String::new, |i| i.number.to_string()),
                None => String::new(),
            };
            row.push_str(&format!(" {cell:>digits$}"));
        }
        row.trim_end().to_string()
    };
    let gap = "    ";
    out.push_str(&format!("    {files}"));
    if style.numbers {
        let w = g.height.to_string().len();
        out.push_str(&format!("{:w$}{gap} square numbers", ""));
    }
    out.push('\n');
    for (row, &rank) in ranks_order.iter().enumerate() {
        if row > 0 && g.lines.is_some() {
            // A board of lines (`lines`): the diagonals between this rank
            // and the one above, where lines join points.
            if let Some(&above) = ranks_order.get(row - 1) {
                out.push_str(&diagonals_row(g, &files_order, above, rank));
            }
        }
        out.push_str(&format!("{:>3} ", rank + 1));
        for &file in &files_order {
            let sq = g.square(i32::from(file), i32::from(rank));
            let dark = (file + rank) % 2 == 0;
            let mut fg: Option<&str> = None;
            let hole = sq.is_none() && g.hole(i32::from(file), i32::from(rank));
            let text = match sq {
                None if hole => " # ".to_string(),
                None => "   ".to_string(),
                Some(sq) => match pos.piece(t, sq) {
                    // A column: its top piece and its height.
                    Some((s, k)) if pos.height(sq) > 1 => {
                        fg = SIDE_COLORS.get(usize::from(s.0)).copied();
                        let top = if style.unicode {
                            unicode_piece(t, s.0, k.0)
                        } else {
                            piece_glyph(t, pos, sq)
                        };
                        format!("{:>3}", format!("{top}{}", pos.height(sq)))
                    }
                    Some((s, k)) => {
                        fg = SIDE_COLORS.get(usize::from(s.0)).copied();
                        if style.unicode {
                            format!(" {} ", unicode_piece(t, s.0, k.0))
                        } else {
                            format!("{:^3}", piece_glyph(t, pos, sq))
                        }
                    }
                    None => match zone_mark(t, sq, style) {
                        Some((mark, owner)) => {
                            fg = owner.and_then(|o| SIDE_COLORS.get(o).copied());
                            mark
                        }
                        None if style.unicode => " \u{00b7} ".to_string(),
                        None => " . ".to_string(),
                    },
                },
            };
            if style.color {
                let last = sq.is_some_and(|s| style.last.contains(&s));
                let bg = if last {
                    "43"
                } else if hole {
                    // No square: the terminal's own black.
                    "40"
                } else if sq.is_some() || dark {
                    // #af5f5f: white (97) and black (30) pieces both at a
                    // contrast above 4.5:1 on it.
                    "48;5;131"
                } else {
                    "48;5;180"
                };
                let fg = fg.unwrap_or("37");
                out.push_str(&format!("\x1b[{bg};{fg}m{text}\x1b[0m"));
            } else {
                out.push_str(&text);
            }
        }
        if style.numbers {
            let w = g.height.to_string().len();
            out.push_str(&format!(" {:<w$}{gap}{}", rank + 1, numbers_row(rank)));
        } else {
            out.push_str(&format!(" {}", rank + 1));
        }
        out.push('\n');
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
    if t.kinds() == 2 {
        if let Some(k) = g.kinds.get(1) {
            if style.unicode && t.sides() <= 2 {
                legend.push(format!("{} {}", unicode_piece(t, 0, 1), k.name));
            } else {
                legend.push(format!("upper case: {}", k.name));
            }
        }
    }
    if g.holes.iter().any(|&h| h) {
        legend.push("# hole".to_string());
    }
    out.push_str(&format!("{}\n", legend.join("   ")));
    if let Some(columns) = columns_line(t, pos) {
        out.push_str(&format!("{columns}\n"));
    }
    for line in zone_legend(t, style) {
        out.push_str(&format!("{line}\n"));
    }
    if style.flip {
        out.push_str("(drawn turned round: your side at the bottom)\n");
    }
    let mover = g
        .sides
        .get(usize::from(pos.side().0))
        .map_or("?", |s| s.name.as_str());
    if let Some(hands) = hands_line(t, pos) {
        out.push_str(&format!("{hands}\n"));
    }
    out.push_str(&format!("{mover} to move   {}\n", pos.to_fen(t)));
    out
}

/// The columns of more than one piece, each whole, top first: `columns, top
/// first: c3 w b b, e5 W w` (None when there are none: a game without
/// columns never has one).
pub fn columns_line(t: &Tables, pos: &Position) -> Option<String> {
    let parts: Vec<String> = (0..t.squares())
        .filter_map(|i| {
            let sq = Sq(u16::try_from(i).ok()?);
            if pos.height(sq) < 2 {
                return None;
            }
            let pieces: Vec<String> = pos
                .column(t, sq)
                .into_iter()
                .map(|(s, k)| {
                    let letter = t
                        .game()
                        .sides
                        .get(usize::from(s.0))
                        .map_or('?', |s| s.letter);
                    if k.0 == 0 {
                        letter.to_ascii_lowercase().to_string()
                    } else {
                        letter.to_ascii_uppercase().to_string()
                    }
                })
                .collect();
            Some(format!(
                "{} {}",
                crate::board::position::algebraic(t, sq),
                pieces.join(" ")
            ))
        })
        .collect();
    (!parts.is_empty()).then(|| format!("columns, top first: {}", parts.join(", ")))
}

/// Between two ranks of a board of lines (`lines`), one above the other in
/// the picture: `\` where a diagonal line joins a point of the upper rank
/// to the next point down and to the right, `/` the other way, `X` both.
fn diagonals_row(g: &crate::board::game::Game, files: &[u8], above: u8, below: u8) -> String {
    let at = |f: u8, r: u8| g.square(i32::from(f), i32::from(r));
    let joined = |a: Option<Sq>, b: Option<Sq>| match (
        a,
        b,
        a.and_then(|a| g.squares.get(usize::from(a.0))),
        b.and_then(|b| g.squares.get(usize::from(b.0))),
    ) {
        (Some(a), Some(b), Some(ia), Some(ib)) => {
            let v = (
                i8::try_from(i16::from(ib.file) - i16::from(ia.file)).unwrap_or(0),
                i8::try_from(i16::from(ib.rank) - i16::from(ia.rank)).unwrap_or(0),
            );
            g.linked(a, v) == Some(b)
        }
        _ => false,
    };
    let mut row = String::from("    ");
    for pair in files.windows(2) {
        let (left, right) = (pair[0], pair[1]);
        let down = joined(at(left, above), at(right, below));
        let up = joined(at(left, below), at(right, above));
        let mark = match (down, up) {
            (true, true) => 'X',
            (true, false) => '\\',
            (false, true) => '/',
            (false, false) => ' ',
        };
        row.push_str("  ");
        row.push(mark);
    }
    format!("{}\n", row.trim_end())
}

/// The pieces each side has in hand, when the game places them from hands
/// with a limit: `in hand: Black 28 discs, White 28 discs` (None when no
/// side's hand has a limit).
pub fn hands_line(t: &Tables, pos: &Position) -> Option<String> {
    let g = t.game();
    let kind = g
        .placing
        .as_ref()
        .and_then(|p| g.kinds.get(usize::from(p.kind.0)))
        .map_or_else(|| "piece".to_string(), |k| k.name.to_lowercase());
    let parts: Vec<String> = g
        .sides
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let n = pos.hand(t, crate::board::game::SideId(i as u8))?;
            let plural = if n == 1 { "" } else { "s" };
            Some(format!("{} {n} {kind}{plural}", s.name))
        })
        .collect();
    (!parts.is_empty()).then(|| format!("in hand: {}", parts.join(", ")))
}

/// What a zone's trigger does, in words, for the legends of the text and
/// SVG boards: `a piece that ends its move on another side's base goes
/// over to that side as a man`.
pub(crate) fn trigger_words(
    g: &crate::board::game::Game,
    trig: &crate::board::game::Trigger,
    zone: &str,
) -> String {
    let whose = match trig.whose {
        crate::board::game::Whose::Own => "its own side's",
        crate::board::game::Whose::Enemy => "another side's",
        crate::board::game::Whose::Any => "any side's",
    };
    match trig.action {
        crate::board::game::TriggerAction::Convert(k) => {
            let kind = g
                .kinds
                .get(usize::from(k.0))
                .map_or_else(|| "piece".to_string(), |k| k.name.to_lowercase());
            format!(
                "a piece that ends its move on {whose} {zone} goes over to that side as a {kind}"
            )
        }
    }
}
