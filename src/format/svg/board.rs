//! `show --svg`: a position as an SVG picture (board, pieces, kings, zones).

use super::esc;
use crate::board::game::Sq;
use crate::board::{Position, Tables};

/// The side of a square, in SVG units (the web page places its highlights with it).
pub const CELL: i32 = 48;
/// The margin round the board, in SVG units.
pub const MARGIN: i32 = 24;
const FILLS: [&str; 8] = [
    "#f8f8f0", "#202020", "#c0392b", "#2e6fb5", "#2e8b57", "#8e44ad", "#16a085", "#d4a017",
];
const STROKES: [&str; 8] = [
    "#202020", "#f0f0f0", "#f0f0f0", "#f0f0f0", "#f0f0f0", "#f0f0f0", "#f0f0f0", "#202020",
];

/// The SVG text of a position: squares (playable ones dark), zone tints
/// (no-stop squares hatched, trigger zones in the owner's colour), one circle
/// per piece, a ring and a letter on promoted kinds, coordinates, a title.
pub fn render_svg(t: &Tables, pos: &Position) -> String {
    let g = &t.game;
    let w = i32::from(g.width);
    let h = i32::from(g.height);
    let width = w * CELL + 2 * MARGIN;
    let height = h * CELL + 2 * MARGIN + 24;
    let mut o = String::new();
    o.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n"
    ));
    o.push_str(&format!("<title>{}</title>\n", esc(&g.title)));
    o.push_str("<defs><pattern id=\"nostop\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\"><path d=\"M0,8 L8,0\" stroke=\"#c0392b\" stroke-width=\"2\"/></pattern></defs>\n");
    o.push_str(&format!(
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n"
    ));
    let xy = |file: i32, rank: i32| (MARGIN + file * CELL, MARGIN + (h - 1 - rank) * CELL);
    o.push_str("<g id=\"squares\">\n");
    for rank in 0..h {
        for file in 0..w {
            let (x, y) = xy(file, rank);
            let sq = g.square(file, rank);
            let fill = if sq.is_some() { "#8b5a2b" } else { "#f0d9b5" };
            o.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>\n"
            ));
            let Some(sq) = sq else { continue };
            if t.no_stop.get(usize::from(sq.0)).copied().unwrap_or(false) {
                o.push_str(&format!(
                    "<rect class=\"zone no-stop\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"url(#nostop)\"/>\n"
                ));
            }
            if let Some(owner) = trigger_owner(t, sq) {
                let c = FILLS.get(owner).copied().unwrap_or("#999999");
                o.push_str(&format!(
                    "<rect class=\"zone base\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"3\"/>\n",
                    x + 3, y + 3, CELL - 6, CELL - 6
                ));
            }
        }
    }
    o.push_str("</g>\n<g id=\"coordinates\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#333333\" text-anchor=\"middle\">\n");
    for file in 0..w {
        let (x, _) = xy(file, 0);
        let letter = char::from(b'a' + u8::try_from(file).unwrap_or(0));
        o.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{letter}</text>\n",
            x + CELL / 2,
            MARGIN + h * CELL + 16
        ));
    }
    for rank in 0..h {
        let (_, y) = xy(0, rank);
        o.push_str(&format!(
            "<text x=\"{}\" y=\"{}\">{}</text>\n",
            MARGIN / 2,
            y + CELL / 2 + 4,
            rank + 1
        ));
    }
    o.push_str("</g>\n<g id=\"pieces\">\n");
    for (i, info) in g.squares.iter().enumerate() {
        let sq = Sq(i as u16);
        let Some((side, kind)) = pos.piece(t, sq) else {
            continue;
        };
        let (x, y) = xy(i32::from(info.file), i32::from(info.rank));
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        let s = usize::from(side.0);
        let fill = FILLS.get(s).copied().unwrap_or("#999999");
        let stroke = STROKES.get(s).copied().unwrap_or("#000000");
        let kind_name = g
            .kinds
            .get(usize::from(kind.0))
            .map_or("", |k| k.id.as_str());
        let side_name = g.sides.get(s).map_or("", |sd| sd.id.as_str());
        o.push_str(&format!(
            "<circle class=\"piece {} {}\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"2\"/>\n",
            esc(side_name),
            esc(kind_name),
            CELL / 2 - 6
        ));
        if kind.0 != 0 {
            let letter = g.kinds.get(usize::from(kind.0)).map_or('?', |k| k.letter);
            o.push_str(&format!(
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"2\"/>\n",
                CELL / 2 - 12
            ));
            o.push_str(&format!(
                "<text x=\"{cx}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"14\" font-weight=\"bold\" fill=\"{stroke}\" text-anchor=\"middle\">{}</text>\n",
                cy + 5,
                esc(&letter.to_string())
            ));
        }
    }
    o.push_str("</g>\n");
    let mover = g
        .sides
        .get(usize::from(pos.to_move))
        .map_or("?", |s| s.name.as_str());
    o.push_str(&format!(
        "<text x=\"{MARGIN}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"13\" fill=\"#000000\">{} to move</text>\n",
        height - 8,
        esc(mover)
    ));
    o.push_str("</svg>\n");
    o
}

/// The side owning the trigger zone square `sq`, if any.
fn trigger_owner(t: &Tables, sq: Sq) -> Option<usize> {
    for trig in &t.game.triggers {
        let z = t.game.zones.get(usize::from(trig.zone.0))?;
        if !z.per_side {
            continue;
        }
        for (side, set) in z.squares.iter().enumerate() {
            if set.contains(sq) {
                return Some(side);
            }
        }
    }
    None
}
