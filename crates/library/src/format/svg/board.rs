//! `show --svg`: a position as an SVG picture (board, pieces, kings, zones).

use super::esc;
use crate::board::game::{Playable, Sq};
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

/// The colour of each side, as an index into `FILLS` and `STROKES`: a side
/// named after one of their colours (`black`, `Red`) is drawn in it, so
/// that a game whose first side is Black draws Black's pieces black; the
/// others (and every side, when two would share a colour) by seat.
fn palette(t: &Tables) -> Vec<usize> {
    let sides = &t.game().sides;
    let by_name: Vec<usize> = sides
        .iter()
        .enumerate()
        .map(|(i, s)| {
            crate::format::colour::named(&s.name)
                .or_else(|| crate::format::colour::named(&s.id))
                .and_then(|c| FILLS.iter().position(|f| *f == c.fill))
                .unwrap_or(i)
        })
        .collect();
    let distinct = by_name
        .iter()
        .enumerate()
        .all(|(i, a)| !by_name[..i].contains(a));
    if distinct {
        by_name
    } else {
        (0..sides.len()).collect()
    }
}

/// The fill and the outline of a side's pieces.
fn side_colours(palette: &[usize], side: usize) -> (&'static str, &'static str) {
    let i = palette.get(side).copied().unwrap_or(side);
    (
        FILLS.get(i).copied().unwrap_or("#999999"),
        STROKES.get(i).copied().unwrap_or("#000000"),
    )
}

/// The SVG text of a position: squares (playable ones dark), zone tints
/// (no-stop squares hatched, trigger zones in the owner's colour, squares
/// with powers framed and crossed in gold), one circle
/// per piece, a ring and a letter on promoted kinds, coordinates, a legend
/// of the zones, a title.
pub fn render_svg(t: &Tables, pos: &Position) -> String {
    Picture::default().render(t, pos)
}

/// What a picture of a position shows besides the position.
#[derive(Clone, Copy, Debug, Default)]
pub struct Picture {
    /// The number of every playable square, small, in its top left corner
    /// (`show --svg FILE --numbers`).
    pub numbers: bool,
    /// The game has ended: the caption says so instead of whose move it is.
    pub over: bool,
}

/// One line of the zone legend: its swatch and its words.
struct Entry {
    /// `None`: hatched (no-stop); `Some(colour)`: outlined in that colour.
    outline: Option<&'static str>,
    words: String,
}

/// The colour of the squares with powers (`hostile`, `only`).
const POWER: &str = "#d4a017";

/// Whether `sq` is a square with powers: one only some kinds may stop
/// on, or a hostile one.
fn power_square(t: &Tables, sq: Sq) -> bool {
    t.powers().is_some_and(|p| {
        p.only_zone(sq.0).is_some()
            || t.game().zones.iter().any(|z| {
                z.hostile != crate::board::game::Hostile::Not
                    && z.squares.iter().any(|set| set.contains(sq))
            })
    })
}

/// The legend of the zones drawn: the no-stop zones, then each trigger
/// zone (per owner for a zone of each side), with what it does.
fn zone_entries(t: &Tables) -> Vec<Entry> {
    let g = t.game();
    let mut v = Vec::new();
    for z in g.zones.iter().filter(|z| z.no_stop) {
        v.push(Entry {
            outline: None,
            words: format!("{}: no piece may stop there", z.id),
        });
    }
    for z in &g.zones {
        if let Some(words) = crate::format::text::board::power_words(t, z) {
            v.push(Entry {
                outline: Some(POWER),
                words: format!("{}: {words}", z.id),
            });
        }
    }
    let mut seen: Vec<u16> = Vec::new();
    for trig in &g.triggers {
        let Some(z) = g.zones.get(usize::from(trig.zone.0)) else {
            continue;
        };
        if !z.per_side || seen.contains(&trig.zone.0) {
            continue;
        }
        seen.push(trig.zone.0);
        let what = crate::format::text::board::trigger_words(g, trig, &z.id);
        for (side, info) in g.sides.iter().enumerate().take(z.squares.len()) {
            v.push(Entry {
                outline: Some(side_colours(&palette(t), side).0),
                words: format!("{} of {}: {what}", z.id, info.name),
            });
        }
    }
    v
}

impl Picture {
    /// The SVG text of `pos` with what this picture shows.
    pub fn render(&self, t: &Tables, pos: &Position) -> String {
        render(t, pos, self)
    }
}

/// The line height of the zone legend.
const LEGEND_LINE: i32 = 20;

fn render(t: &Tables, pos: &Position, picture: &Picture) -> String {
    let g = t.game();
    let w = i32::from(g.width);
    let h = i32::from(g.height);
    let legend = zone_entries(t);
    let legend_height = LEGEND_LINE * i32::try_from(legend.len()).unwrap_or(0);
    let width = w * CELL + 2 * MARGIN;
    let height = h * CELL + 2 * MARGIN + 24 + legend_height;
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
    // Where every square is played and no lines are drawn, the squares
    // are all one colour: a thin edge around each shows where one ends and
    // the next begins.
    let edge = if g.playable == Playable::All && g.lines.is_none() {
        " stroke=\"#5e3b1a\" stroke-width=\"1\""
    } else {
        ""
    };
    o.push_str("<g id=\"squares\">\n");
    for rank in 0..h {
        for file in 0..w {
            let (x, y) = xy(file, rank);
            let sq = g.square(file, rank);
            if sq.is_none() && g.hole(file, rank) {
                // A hole: no square of the board, a gap in it.
                o.push_str(&format!(
                    "<rect class=\"hole\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#2b2b2b\"/>\n"
                ));
                continue;
            }
            let fill = if sq.is_some() { "#8b5a2b" } else { "#f0d9b5" };
            o.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"{edge}/>\n"
            ));
            let Some(sq) = sq else { continue };
            if t.no_stop().get(usize::from(sq.0)).copied().unwrap_or(false) {
                o.push_str(&format!(
                    "<rect class=\"zone no-stop\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"url(#nostop)\"/>\n"
                ));
            }
            if power_square(t, sq) {
                // A square with powers (a throne, a corner): a cross in a
                // frame.
                let (a, b) = (x + 6, y + 6);
                let (c, d) = (x + CELL - 6, y + CELL - 6);
                o.push_str(&format!(
                    "<g class=\"zone power\" stroke=\"{POWER}\" stroke-width=\"3\" fill=\"none\"><rect x=\"{a}\" y=\"{b}\" width=\"{}\" height=\"{}\"/><path d=\"M{a},{b} L{c},{d} M{c},{b} L{a},{d}\"/></g>\n",
                    CELL - 12,
                    CELL - 12
                ));
            }
            if let Some(owner) = trigger_owner(t, sq) {
                let c = side_colours(&palette(t), owner).0;
                o.push_str(&format!(
                    "<rect class=\"zone base\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"3\"/>\n",
                    x + 3, y + 3, CELL - 6, CELL - 6
                ));
            }
        }
    }
    o.push_str("</g>\n");
    if g.lines.is_some() {
        // A board of lines (`lines`): every line between two points, drawn
        // from centre to centre.
        o.push_str("<g id=\"lines\" stroke=\"#f0d9b5\" stroke-width=\"3\">\n");
        for (i, info) in g.squares.iter().enumerate() {
            for v in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                let Some(to) = g.linked(Sq(i as u16), v) else {
                    continue;
                };
                let Some(other) = g.squares.get(usize::from(to.0)) else {
                    continue;
                };
                let (x1, y1) = xy(i32::from(info.file), i32::from(info.rank));
                let (x2, y2) = xy(i32::from(other.file), i32::from(other.rank));
                o.push_str(&format!(
                    "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n",
                    x1 + CELL / 2,
                    y1 + CELL / 2,
                    x2 + CELL / 2,
                    y2 + CELL / 2
                ));
            }
        }
        o.push_str("</g>\n");
    }
    o.push_str("<g id=\"coordinates\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#333333\" text-anchor=\"middle\">\n");
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
    let colours = palette(t);
    for (i, info) in g.squares.iter().enumerate() {
        let sq = Sq(i as u16);
        let Some((side, kind)) = pos.piece(t, sq) else {
            continue;
        };
        let (x, y) = xy(i32::from(info.file), i32::from(info.rank));
        let (cx, cy) = (x + CELL / 2, y + CELL / 2);
        let s = usize::from(side.0);
        let (fill, stroke) = side_colours(&colours, s);
        let kind_name = g
            .kinds
            .get(usize::from(kind.0))
            .map_or("", |k| k.id.as_str());
        let side_name = g.sides.get(s).map_or("", |sd| sd.id.as_str());
        let height = pos.height(sq);
        if height > 1 {
            // A column: the pieces under the top drawn as rings below it,
            // nearest the top last (four at most), and its height.
            let under = pos.column(t, sq);
            for (depth, (us, _)) in under.iter().enumerate().skip(1).take(4).rev() {
                let (ufill, ustroke) = side_colours(&colours, usize::from(us.0));
                o.push_str(&format!(
                    "<circle class=\"under\" cx=\"{cx}\" cy=\"{}\" r=\"{}\" fill=\"{ufill}\" stroke=\"{ustroke}\" stroke-width=\"2\"/>\n",
                    cy + 3 * i32::try_from(depth).unwrap_or(0),
                    CELL / 2 - 6,
                ));
            }
            o.push_str(&format!(
                "<text class=\"height\" x=\"{}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"11\" font-weight=\"bold\" fill=\"#ffffff\" stroke=\"#000000\" stroke-width=\"2\" paint-order=\"stroke\" text-anchor=\"end\">{height}</text>\n",
                x + CELL - 3,
                y + 12
            ));
        }
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
    if picture.numbers {
        o.push_str("<g id=\"numbers\" font-family=\"sans-serif\" font-size=\"10\" fill=\"#fff8e8\" stroke=\"#3a2410\" stroke-width=\"2\" paint-order=\"stroke\">\n");
        for info in &g.squares {
            let (x, y) = xy(i32::from(info.file), i32::from(info.rank));
            o.push_str(&format!(
                "<text class=\"number\" x=\"{}\" y=\"{}\">{}</text>\n",
                x + 2,
                y + 10,
                info.number
            ));
        }
        o.push_str("</g>\n");
    }
    let mover = g
        .sides
        .get(usize::from(pos.side().0))
        .map_or("?", |s| s.name.as_str());
    if !legend.is_empty() {
        o.push_str(
            "<g id=\"legend\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#000000\">\n",
        );
        let top = MARGIN + h * CELL + 26;
        for (i, e) in legend.iter().enumerate() {
            let y = top + LEGEND_LINE * i32::try_from(i).unwrap_or(0);
            match e.outline {
                None => o.push_str(&format!(
                    "<rect x=\"{MARGIN}\" y=\"{y}\" width=\"14\" height=\"14\" fill=\"#8b5a2b\"/><rect x=\"{MARGIN}\" y=\"{y}\" width=\"14\" height=\"14\" fill=\"url(#nostop)\"/>\n"
                )),
                Some(c) => o.push_str(&format!(
                    "<rect x=\"{MARGIN}\" y=\"{y}\" width=\"14\" height=\"14\" fill=\"#8b5a2b\"/><rect x=\"{}\" y=\"{}\" width=\"8\" height=\"8\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\"/>\n",
                    MARGIN + 3,
                    y + 3
                )),
            }
            o.push_str(&format!(
                "<text x=\"{}\" y=\"{}\">{}</text>\n",
                MARGIN + 22,
                y + 12,
                esc(&e.words)
            ));
        }
        o.push_str("</g>\n");
    }
    let mut caption = if picture.over {
        "game over".to_string()
    } else {
        format!("{} to move", esc(mover))
    };
    if let Some(hands) = crate::format::text::board::hands_line(t, pos) {
        caption.push_str(&format!("; {}", esc(&hands)));
    }
    o.push_str(&format!(
        "<text x=\"{MARGIN}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"13\" fill=\"#000000\">{caption}</text>\n",
        height - 8,
    ));
    o.push_str("</svg>\n");
    o
}

/// The side owning the trigger zone square `sq`, if any.
fn trigger_owner(t: &Tables, sq: Sq) -> Option<usize> {
    for trig in &t.game().triggers {
        let z = t.game().zones.get(usize::from(trig.zone.0))?;
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
