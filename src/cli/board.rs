//! The board as text, and moves as JSON.

use crate::engine::{make, moves_of, MoveList, Position, Tables};
use crate::game::Sq;

/// How a piece is drawn: the side's letter, lower case for the ordinary kind
/// and upper case for the others (with the kind's letter too when a game has
/// more than two kinds).
pub(crate) fn piece_glyph(t: &Tables, pos: &Position, sq: Sq) -> String {
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

/// The board, ranks from the top, with coordinates, a legend and the side to
/// move.
pub fn render(t: &Tables, pos: &Position) -> String {
    let g = &t.game;
    let mut out = String::new();
    let files: String = (0..g.width)
        .map(|f| format!(" {} ", (b'a' + f) as char))
        .collect();
    out.push_str(&format!("    {files}\n"));
    for rank in (0..g.height).rev() {
        out.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..g.width {
            let cell = match g.square(i32::from(file), i32::from(rank)) {
                None => "   ".to_string(),
                Some(sq) => {
                    let glyph = piece_glyph(t, pos, sq);
                    if !glyph.is_empty() {
                        format!("{glyph:^3}")
                    } else if t.no_stop.get(usize::from(sq.0)).copied().unwrap_or(false) {
                        " * ".to_string()
                    } else {
                        " . ".to_string()
                    }
                }
            };
            out.push_str(&cell);
        }
        out.push_str(&format!(" {}\n", rank + 1));
    }
    out.push_str(&format!("    {files}\n"));
    let mut legend = Vec::new();
    for s in &g.sides {
        let l = s.letter.to_ascii_lowercase();
        legend.push(format!("{l} {}", s.name));
    }
    if t.nkinds == 2 {
        if let Some(k) = g.kinds.get(1) {
            legend.push(format!("upper case: {}", k.name));
        }
    }
    if t.no_stop.iter().any(|&b| b) {
        legend.push("* no-stop square".into());
    }
    out.push_str(&format!("{}\n", legend.join("   ")));
    let mover = g
        .sides
        .get(usize::from(pos.to_move))
        .map_or("?", |s| s.name.as_str());
    out.push_str(&format!("{mover} to move   {}\n", pos.to_fen(t)));
    out
}

/// JSON text of a string.
pub(crate) fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The legal moves as a JSON array of `{notation, path, captured, result}`.
pub(crate) fn moves_json(t: &Tables, pos: &Position, list: &MoveList) -> String {
    let moves = moves_of(t, list);
    let alg = |s: Sq| {
        t.game
            .squares
            .get(usize::from(s.0))
            .map_or_else(String::new, |i| i.algebraic.clone())
    };
    let items: Vec<String> = moves
        .iter()
        .zip(&list.moves)
        .map(|(m, rec)| {
            let mut path: Vec<String> = m.from.iter().map(|&s| json_str(&alg(s))).collect();
            path.extend(m.path.iter().map(|&s| json_str(&alg(s))));
            let mut captured: Vec<String> = m.captured.iter().map(|&s| alg(s)).collect();
            captured.sort();
            let captured: Vec<String> = captured.iter().map(|s| json_str(s)).collect();
            let mut after = pos.clone();
            make(t, &mut after, list, rec);
            format!(
                "{{\"notation\":{},\"path\":[{}],\"captured\":[{}],\"result\":{}}}",
                json_str(&m.notation),
                path.join(","),
                captured.join(","),
                json_str(&after.to_fen(t))
            )
        })
        .collect();
    format!("[{}]", items.join(",\n"))
}
