//! A game's rules as one printable HTML page (`rules GAME --html FILE`, the
//! web server's `/rules/GAME`), made from the compiled game alone: its title
//! and description, and for a board game the setup drawn, each kind's moves
//! on a small diagram and in words, the capture rules and their precedence,
//! promotions and the end rules; for a race game the track drawn with its
//! legend, the dice, entering, the cell rules and rules of the roll, and how
//! the game is won; the options with their values. The page is
//! self-contained (inline CSS and SVG, no external asset) and has a print
//! stylesheet for one or two A4 pages. No word is written for a particular
//! game: every sentence is made from the tables.

use std::fmt::Write;

use super::svg::esc;
use crate::board::game::{
    CaptureChoice, DirId, EndCondition, Game, Hostile, JumpEffect, KindId, LongLanding,
    MidChainCrown, Moves, Notation, OpeningMove, PlaceRule, Playable, SquareSet, Verdict, Whose,
    ZoneInfo,
};
use crate::board::position::square_name;
use crate::board::{Position, Tables};
use crate::load::Loaded;
use crate::race::game::{Enter, Extra, Finish, Outcome, RaceGame, Win};
use crate::vocab::{limit, Elimination};

/// The style of the page, on screen and in print (A4).
const STYLE: &str = "body{font-family:Georgia,serif;max-width:60em;margin:1.5em auto;padding:0 1em;color:#111;line-height:1.4}\
h1{font-size:1.8em;margin:0 0 .2em}h2{font-size:1.2em;margin:1em 0 .3em;border-bottom:1px solid #999}\
.description{font-style:italic}.facts td{padding:0 .8em 0 0;vertical-align:top}\
figure{margin:.5em 0}svg{max-width:100%;height:auto}figure.setup svg{max-height:26em}\
.kinds{display:flex;flex-wrap:wrap;gap:1em}.kind{flex:1 1 18em;break-inside:avoid}.kind h3{margin:.2em 0}\
.pics{display:flex;gap:.8em}.pics figure{margin:0;text-align:center;font-size:.8em;color:#444}\
.key{font-size:.85em;color:#444}ul{margin:.2em 0;padding-left:1.3em}\
.chosen{font-weight:bold}\
@page{size:A4;margin:12mm}\
@media print{body{font-size:9pt;max-width:none;margin:0;padding:0;line-height:1.25}h1{font-size:16pt}h2{font-size:11pt;margin:.5em 0 .2em}\
figure.setup svg{max-height:70mm}figure.track svg{max-height:120mm}.kind{flex:1 1 45%}a{color:inherit;text-decoration:none}}";

/// The page of a loaded game. `options` are the options the rule file
/// declares (the default first), `chosen` the values given for some of them
/// (`--option NAME=VALUE`); the others have their default.
pub fn page(
    loaded: &Loaded,
    options: &[(String, Vec<String>)],
    chosen: &[(String, String)],
) -> String {
    let mut o = String::new();
    let title = loaded.title();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} - rules</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        esc(title),
        esc(title)
    );
    for paragraph in loaded
        .description()
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let _ = writeln!(o, "<p class=\"description\">{}</p>", esc(paragraph));
    }
    match loaded {
        Loaded::Board(t) => board(&mut o, t),
        Loaded::Race(game) => race(&mut o, game),
    }
    options_section(&mut o, options, chosen);
    o.push_str("</body>\n</html>\n");
    o
}

/// A list of sentences as `<ul>`.
fn list(o: &mut String, items: &[String]) {
    if items.is_empty() {
        return;
    }
    o.push_str("<ul>\n");
    for item in items {
        let _ = writeln!(o, "<li>{}</li>", esc(item));
    }
    o.push_str("</ul>\n");
}

/// A table of facts: a name and its value each row.
fn facts(o: &mut String, rows: &[(&str, String)]) {
    o.push_str("<table class=\"facts\">\n");
    for (name, value) in rows {
        let _ = writeln!(o, "<tr><td>{}</td><td>{}</td></tr>", esc(name), esc(value));
    }
    o.push_str("</table>\n");
}

/// The options the rule file declares, each value listed and the one in
/// force in bold.
fn options_section(o: &mut String, options: &[(String, Vec<String>)], chosen: &[(String, String)]) {
    if options.is_empty() {
        return;
    }
    o.push_str("<h2>Options</h2>\n<p>Set with <code>--option NAME=VALUE</code>; the first value is the default, the value of this page in bold.</p>\n<ul>\n");
    for (name, values) in options {
        let given = chosen
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .or(values.first().map(String::as_str));
        let shown: Vec<String> = values
            .iter()
            .map(|v| {
                if Some(v.as_str()) == given {
                    format!("<span class=\"chosen\">{}</span>", esc(v))
                } else {
                    esc(v)
                }
            })
            .collect();
        let _ = writeln!(o, "<li>{}: {}</li>", esc(name), shown.join(" | "));
    }
    o.push_str("</ul>\n");
}

/// A list in words: `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// A kind's name in lower case.
fn kind_name(g: &Game, kind: KindId) -> String {
    g.kinds
        .get(usize::from(kind.0))
        .map_or_else(|| "piece".to_string(), |k| k.name.to_lowercase())
}

/// A side's name.
fn side_name(g: &Game, side: usize) -> &str {
    g.sides.get(side).map_or("?", |s| s.name.as_str())
}

/// Whether the diagrams and words turn the board round: the first side
/// moves down the board.
fn turned(g: &Game) -> bool {
    g.sides.first().is_some_and(|s| s.forward.1 < 0)
}

/// A direction vector as the first side sees it (forward up).
fn seen(g: &Game, dir: DirId) -> (i32, i32) {
    let (dx, dy) = g.dirs.get(usize::from(dir.0)).copied().unwrap_or((0, 0));
    let (dx, dy) = (i32::from(dx), i32::from(dy));
    if turned(g) {
        (-dx, -dy)
    } else {
        (dx, dy)
    }
}

/// A direction in words, forward being up: `forward`, `diagonally
/// backward left`, `2 forward and 1 right`.
fn direction_words(v: (i32, i32)) -> String {
    let (dx, dy) = v;
    let ahead = match dy.signum() {
        1 => "forward",
        -1 => "backward",
        _ => "",
    };
    let side = match dx.signum() {
        1 => "right",
        -1 => "left",
        _ => "",
    };
    if dx.abs() <= 1 && dy.abs() <= 1 {
        return match (ahead, side) {
            ("", s) => s.to_string(),
            (a, "") => a.to_string(),
            (a, s) => format!("diagonally {a} {s}"),
        };
    }
    let mut parts = Vec::new();
    if dy != 0 {
        parts.push(format!("{} {ahead}", dy.abs()));
    }
    if dx != 0 {
        parts.push(format!("{} {side}", dx.abs()));
    }
    parts.join(" and ")
}

/// Directions in words, joined.
fn directions(g: &Game, dirs: &[DirId]) -> String {
    and_list(
        &dirs
            .iter()
            .map(|&d| direction_words(seen(g, d)))
            .collect::<Vec<_>>(),
    )
}

/// A direction vector as the first side sees it (forward up).
fn seen_vector(g: &Game, (dx, dy): (i8, i8)) -> (i32, i32) {
    let (dx, dy) = (i32::from(dx), i32::from(dy));
    if turned(g) {
        (-dx, -dy)
    } else {
        (dx, dy)
    }
}

/// Direction vectors in words, joined; the four diagonals are `the
/// diagonals`, the four straight ways `the ranks and files`, all eight `the
/// ranks, files and diagonals`.
fn vector_words(g: &Game, vs: &[(i8, i8)]) -> String {
    let mut set: Vec<(i32, i32)> = vs.iter().map(|&v| seen_vector(g, v)).collect();
    set.sort_unstable();
    set.dedup();
    match set.as_slice() {
        [(-1, -1), (-1, 1), (1, -1), (1, 1)] => "the diagonals".to_string(),
        [(-1, 0), (0, -1), (0, 1), (1, 0)] => "the ranks and files".to_string(),
        [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)] => {
            "the ranks, files and diagonals".to_string()
        }
        _ => and_list(
            &vs.iter()
                .map(|&v| direction_words(seen_vector(g, v)))
                .collect::<Vec<_>>(),
        ),
    }
}

/// The names of a set of squares, in the board's order: `a1, c1 and e1`.
fn square_list(t: &Tables, set: &SquareSet) -> String {
    and_list(&set.iter().map(|sq| square_name(t, sq)).collect::<Vec<_>>())
}

/// The cells of the board that are holes, by their algebraic names.
fn holes(g: &Game) -> Vec<String> {
    let mut v = Vec::new();
    for rank in 0..i32::from(g.height) {
        for file in 0..i32::from(g.width) {
            if g.hole(file, rank) {
                let letter = u8::try_from(file)
                    .ok()
                    .and_then(|f| b'a'.checked_add(f))
                    .map_or('?', char::from);
                v.push(format!("{letter}{}", rank + 1));
            }
        }
    }
    v
}

/// The sentences of the board's shape: its holes and the lines that join
/// only some squares.
fn shape_words(t: &Tables) -> Vec<String> {
    let g = t.game();
    let mut v = Vec::new();
    let gaps = holes(g);
    if !gaps.is_empty() {
        v.push(format!(
            "{} {} not part of the board: no piece stands there, and no move passes over {}.",
            and_list(&gaps),
            if gaps.len() == 1 { "is" } else { "are" },
            if gaps.len() == 1 { "it" } else { "them" }
        ));
    }
    if let Some(lines) = &g.lines {
        v.push(format!(
            "The board is drawn as lines between points. Along {}, a line joins two neighbouring points only when both are among {}; pieces move and jump that way only along these lines. Every other way, a line joins every two neighbouring points.",
            vector_words(g, &lines.dirs),
            square_list(t, &lines.squares)
        ));
    }
    v
}

/// The opening moves in words: which side removes which of its pieces.
fn opening_section(o: &mut String, t: &Tables) {
    let g = t.game();
    if g.opening.is_empty() {
        return;
    }
    let nsides = g.sides.len().max(1);
    let mut v = Vec::new();
    for (i, rule) in g.opening.iter().enumerate() {
        let side = side_name(g, (usize::from(g.first.0) + i) % nsides);
        let which = match rule {
            OpeningMove::From(set) => {
                format!("from {}", square_list(t, set).replace(" and ", " or "))
            }
            OpeningMove::NextToEmpty(dirs) => format!(
                "that stands next to an empty square (along {})",
                vector_words(g, dirs)
            ),
        };
        let when = if i == 0 {
            "The first move of the game".to_string()
        } else {
            format!("Move {}", i + 1)
        };
        v.push(format!(
            "{when}: {side} removes one of its own pieces {which}, instead of moving."
        ));
    }
    v.push("After these removals, the pieces move as below.".to_string());
    o.push_str("<h2>Opening</h2>\n");
    list(o, &v);
}

/// A board game's sections.
fn board(o: &mut String, t: &Tables) {
    let g = t.game();
    let sides: Vec<String> = g.sides.iter().map(|s| s.name.clone()).collect();
    let playable = match g.playable {
        Playable::All => "every square",
        Playable::Dark => "the dark squares",
        Playable::Light => "the light squares",
    };
    let playable = if holes(g).is_empty() {
        playable.to_string()
    } else {
        format!("{playable} but the holes")
    };
    let notation = match g.notation {
        Notation::Algebraic => "file letter and rank number (c3)",
        Notation::Numeric => "square numbers, from the top left",
    };
    o.push_str("<h2>The game</h2>\n");
    facts(
        o,
        &[
            (
                "Board",
                format!("{} x {}, played on {playable}", g.width, g.height),
            ),
            ("Sides", and_list(&sides)),
            (
                "First to move",
                side_name(g, usize::from(g.first.0)).to_string(),
            ),
            ("Squares are written by", notation.to_string()),
        ],
    );
    list(o, &shape_words(t));
    o.push_str("<h2>Setup</h2>\n<figure class=\"setup\">\n");
    let start = Position::start(t);
    let picture = crate::format::svg::board::Picture {
        numbers: g.notation == Notation::Numeric,
        ..Default::default()
    };
    o.push_str(&picture.render(t, &start));
    o.push_str("</figure>\n");
    opening_section(o, t);
    moves_section(o, g);
    capture_section(o, t);
    promotion_section(o, t);
    end_section(o, t);
}

/// Each kind's moves: a diagram and words.
fn moves_section(o: &mut String, g: &Game) {
    let side = side_name(g, 0);
    let _ = writeln!(
        o,
        "<h2>Moves</h2>\n<p>As {} plays them, forward up; the other sides move the same way towards their own forward.</p>",
        esc(side)
    );
    o.push_str("<div class=\"kinds\">\n");
    for (k, kind) in g.kinds.iter().enumerate() {
        let moves = kind.moves.first().cloned().unwrap_or_default();
        let _ = writeln!(
            o,
            "<div class=\"kind\" data-kind=\"{}\">\n<h3>{}</h3>",
            esc(&kind.id),
            esc(&kind.name)
        );
        let plain = Moves {
            step: moves.step.clone(),
            slide: moves.slide.clone(),
            ..Moves::default()
        };
        let captures = Moves {
            step: Vec::new(),
            slide: Vec::new(),
            ..moves.clone()
        };
        o.push_str("<div class=\"pics\">\n");
        for (what, m) in [("moves", &plain), ("captures", &captures)] {
            if is_still(m) {
                continue;
            }
            let _ = writeln!(
                o,
                "<figure class=\"{what}\">{}<figcaption>{what}</figcaption></figure>",
                diagram(g, m, k)
            );
        }
        o.push_str("</div>\n");
        let mut words = move_words(g, &moves);
        if let Some(p) = g.placing.as_ref().filter(|p| usize::from(p.kind.0) == k) {
            let hands: Vec<String> = p
                .hand
                .iter()
                .map(|h| {
                    h.map_or_else(
                        || "as many as it needs".to_string(),
                        |n| crate::words::count(u64::from(n), "piece"),
                    )
                })
                .collect();
            let only = p.hand.windows(2).all(|w| w[0] == w[1]);
            words.insert(
                0,
                format!(
                    "Is placed from the hand on an empty square{}; each side has {} in hand at the start.",
                    match p.rule {
                        PlaceRule::Anywhere => String::new(),
                        PlaceRule::Enclosing => ", only where it encloses at least one line of enemies".to_string(),
                        PlaceRule::NextToOwn => format!(
                            ", only next to a piece of its own side (along {})",
                            vector_words(g, &p.next_to)
                        ),
                    },
                    if only { hands.first().cloned().unwrap_or_default() } else { hands.join(" / ") }
                ),
            );
            words.retain(|w| w != "Does not move.");
        }
        list(o, &words);
        o.push_str("</div>\n");
    }
    o.push_str("</div>\n<p class=\"key\">In the diagrams: a dot, a square it may move to; a cross, an enemy it may take by moving there; a grey piece, an enemy it may jump over, to a ringed square.</p>\n");
}

/// The moves of a kind in words.
fn move_words(g: &Game, m: &Moves) -> Vec<String> {
    let mut v = Vec::new();
    let long = |dirs: &[DirId]| {
        dirs.iter().any(|&d| {
            let (dx, dy) = seen(g, d);
            dx.abs() > 1 || dy.abs() > 1
        })
    };
    if !m.step.is_empty() {
        v.push(if long(&m.step) {
            format!(
                "Moves in one leap to an empty square, the squares between not looked at: {}.",
                directions(g, &m.step)
            )
        } else {
            format!(
                "Steps one square to an empty square: {}.",
                directions(g, &m.step)
            )
        });
    }
    if !m.clone.is_empty() {
        v.push(format!(
            "Copies itself onto an empty square next to it, staying where it is (a new piece): {}.",
            directions(g, &m.clone)
        ));
    }
    if !m.slide.is_empty() {
        v.push(format!(
            "Slides any number of empty squares: {}.",
            directions(g, &m.slide)
        ));
    }
    if !m.step_capture.is_empty() {
        v.push(format!(
            "Takes an enemy by stepping onto its square: {}.",
            directions(g, &m.step_capture)
        ));
    }
    if !m.slide_capture.is_empty() {
        v.push(format!(
            "Takes the first enemy met by sliding onto its square: {}.",
            directions(g, &m.slide_capture)
        ));
    }
    if !m.short_jump.is_empty() {
        v.push(format!(
            "Jumps over an adjacent enemy to the empty square just beyond: {}.",
            directions(g, &m.short_jump)
        ));
    }
    if !m.hop.is_empty() {
        v.push(format!(
            "Hops over a piece of its own side next to it onto the empty square just beyond, capturing nothing, and may hop on, never coming back to a square it has been on: {}.",
            directions(g, &m.hop)
        ));
    }
    if !m.long_jump.is_empty() {
        v.push(format!(
            "Jumps from a distance over one enemy, along empty squares, to any empty square beyond: {}.",
            directions(g, &m.long_jump)
        ));
    }
    // Directions with the same limits, one sentence each.
    let mut groups: Vec<(u8, Vec<DirId>)> = Vec::new();
    for &(dir, bits) in &m.limits {
        match groups.iter_mut().find(|(b, _)| *b == bits) {
            Some((_, dirs)) => dirs.push(dir),
            None => groups.push((bits, vec![dir])),
        }
    }
    for (bits, dirs) in groups {
        let mut what = Vec::new();
        if bits & limit::LAND_BEYOND != 0 {
            what.push("lands just beyond the piece taken".to_string());
        }
        if bits & limit::NO_REVERSE != 0 {
            what.push("does not turn back between two jumps".to_string());
        }
        if bits & limit::MUST_CONTINUE != 0 {
            what.push("lands where the capture can go on, when it can".to_string());
        }
        if bits & limit::STRAIGHT != 0 {
            what.push(
                "keeps one direction through a chain of jumps: every jump after the first goes the same way as the first, and the chain may not turn"
                    .to_string(),
            );
        }
        if !what.is_empty() {
            v.push(format!(
                "Jumping {}, it {}.",
                directions(g, &dirs),
                and_list(&what)
            ));
        }
    }
    if v.is_empty() {
        v.push("Does not move.".to_string());
    }
    v
}

/// Whether a kind has none of these moves.
fn is_still(m: &Moves) -> bool {
    m.step.is_empty()
        && m.slide.is_empty()
        && m.short_jump.is_empty()
        && m.long_jump.is_empty()
        && m.hop.is_empty()
        && m.step_capture.is_empty()
        && m.slide_capture.is_empty()
}

/// The side of a square of the move diagrams, in SVG units.
const D: i32 = 16;

/// A small board with a piece of the kind in the middle and its targets
/// marked, from its move tables.
fn diagram(g: &Game, m: &Moves, kind: usize) -> String {
    let mut reach = 1;
    for list in [
        &m.step,
        &m.slide,
        &m.short_jump,
        &m.long_jump,
        &m.step_capture,
        &m.slide_capture,
    ] {
        for &d in list.iter() {
            let (dx, dy) = seen(g, d);
            let far = dx.abs().max(dy.abs());
            let far = if m.long_jump.contains(&d) {
                4 * far
            } else if m.short_jump.contains(&d) || m.slide_capture.contains(&d) {
                2 * far
            } else if m.slide.contains(&d) {
                4 * far
            } else {
                far
            };
            reach = reach.max(far);
        }
    }
    let half = reach.clamp(2, 4);
    let n = 2 * half + 1;
    let size = n * D;
    let mut o = format!(
        "<svg class=\"moves\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{size}\" height=\"{size}\" viewBox=\"0 0 {size} {size}\">\n"
    );
    for r in 0..n {
        for f in 0..n {
            let fill = if (r + f) % 2 == 0 {
                "#d9b98c"
            } else {
                "#f3e4c8"
            };
            let _ = writeln!(
                o,
                "<rect x=\"{}\" y=\"{}\" width=\"{D}\" height=\"{D}\" fill=\"{fill}\"/>",
                f * D,
                r * D
            );
        }
    }
    // The centre of the square `v` away from the middle (forward up).
    let at = |(dx, dy): (i32, i32)| ((half + dx) * D + D / 2, (half - dy) * D + D / 2);
    let inside = |(dx, dy): (i32, i32)| dx.abs() <= half && dy.abs() <= half;
    let dot = |o: &mut String, v: (i32, i32)| {
        if inside(v) {
            let (x, y) = at(v);
            let _ = writeln!(
                o,
                "<circle class=\"to\" cx=\"{x}\" cy=\"{y}\" r=\"3.5\" fill=\"#2e7d32\"/>"
            );
        }
    };
    let cross = |o: &mut String, v: (i32, i32)| {
        if inside(v) {
            let (x, y) = at(v);
            let _ = writeln!(
                o,
                "<path class=\"take\" d=\"M{} {} L{} {} M{} {} L{} {}\" stroke=\"#c62828\" stroke-width=\"3\"/>",
                x - 5, y - 5, x + 5, y + 5, x - 5, y + 5, x + 5, y - 5
            );
        }
    };
    let enemy = |o: &mut String, v: (i32, i32)| {
        if inside(v) {
            let (x, y) = at(v);
            let _ = writeln!(
                o,
                "<circle class=\"enemy\" cx=\"{x}\" cy=\"{y}\" r=\"6\" fill=\"#9e9e9e\" stroke=\"#424242\"/>"
            );
        }
    };
    let ring = |o: &mut String, v: (i32, i32)| {
        if inside(v) {
            let (x, y) = at(v);
            let _ = writeln!(
                o,
                "<circle class=\"land\" cx=\"{x}\" cy=\"{y}\" r=\"5\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"2.5\"/>"
            );
        }
    };
    let times = |(dx, dy): (i32, i32), k: i32| (dx * k, dy * k);
    for &d in &m.step {
        dot(&mut o, seen(g, d));
    }
    for &d in &m.slide {
        for k in 1..=n {
            dot(&mut o, times(seen(g, d), k));
        }
    }
    for &d in &m.step_capture {
        cross(&mut o, seen(g, d));
    }
    for &d in &m.slide_capture {
        cross(&mut o, times(seen(g, d), 2));
    }
    for &d in &m.short_jump {
        let v = seen(g, d);
        enemy(&mut o, v);
        ring(&mut o, times(v, 2));
    }
    for &d in &m.long_jump {
        let v = seen(g, d);
        let land_beyond = m
            .limits
            .iter()
            .any(|&(ld, bits)| ld == d && bits & limit::LAND_BEYOND != 0);
        enemy(&mut o, times(v, 2));
        if land_beyond {
            ring(&mut o, times(v, 3));
        } else {
            for k in 3..=n {
                ring(&mut o, times(v, k));
            }
        }
    }
    let (cx, cy) = at((0, 0));
    let _ = writeln!(
        o,
        "<circle class=\"piece\" cx=\"{cx}\" cy=\"{cy}\" r=\"6\" fill=\"#f8f8f0\" stroke=\"#202020\" stroke-width=\"2\"/>"
    );
    if kind != 0 {
        let letter = g.kinds.get(kind).map_or('?', |k| k.letter);
        let _ = writeln!(
            o,
            "<text x=\"{cx}\" y=\"{}\" font-family=\"sans-serif\" font-size=\"8\" font-weight=\"bold\" text-anchor=\"middle\">{}</text>",
            cy + 4,
            esc(&letter.to_string())
        );
    }
    o.push_str("</svg>\n");
    o
}

/// The capture rules in words, their precedence in order.
fn capture_section(o: &mut String, t: &Tables) {
    let g = t.game();
    let c = &g.capture;
    let mut v = Vec::new();
    let takes = g.kinds.iter().any(|k| {
        k.moves.iter().any(|m| {
            !is_still(&Moves {
                step: Vec::new(),
                slide: Vec::new(),
                ..m.clone()
            })
        })
    });
    if takes {
        v.push(if c.compulsory {
            "Capturing is compulsory: a side that can capture must capture.".to_string()
        } else {
            "Capturing is optional.".to_string()
        });
        match c.choice {
            CaptureChoice::Free => {
                v.push("Among the captures, the player chooses any.".to_string())
            }
            CaptureChoice::Most => v.push(
                "Among the captures, one that takes the most pieces must be played.".to_string(),
            ),
            CaptureChoice::Criteria => {
                for (i, criterion) in c.criteria.iter().enumerate() {
                    let words = crate::narrate::board::precedence(t, *criterion);
                    v.push(format!("Precedence {}: {words}.", i + 1));
                }
            }
        }
    }
    let jumps = g.kinds.iter().any(|k| {
        k.moves
            .iter()
            .any(|m| !m.short_jump.is_empty() || !m.long_jump.is_empty())
    });
    if jumps {
        v.push(match c.effect {
            JumpEffect::RemoveAtOnce => {
                "A piece jumped over is removed at once.".to_string()
            }
            JumpEffect::RemoveAtEnd => "The pieces jumped over are removed when the move ends; until then they stay on the board and can't be jumped twice.".to_string(),
            JumpEffect::Convert(k) => format!(
                "A piece jumped over is not removed: it goes over to the jumping side as a {}.",
                kind_name(g, k)
            ),
            JumpEffect::Stack => "A piece jumped over is not removed: it goes under the jumping piece, and the column moves as one, owned and moved by its top piece. Of a column jumped over only the top piece is taken, at once; the pieces under it stay, and the one that comes up owns them (it may be jumped again in the same capture).".to_string(),
        });
        v.push(if c.must_continue {
            "A capture goes on while the piece can jump again.".to_string()
        } else {
            "A piece may stop after any jump of a chain.".to_string()
        });
        if g.kinds
            .iter()
            .any(|k| k.moves.iter().any(|m| !m.long_jump.is_empty()))
            && c.long_landing == LongLanding::MustContinue
        {
            v.push(
                "A long jump lands where the capture can go on, when there is such a square."
                    .to_string(),
            );
        }
        if g.kinds.iter().any(|k| k.promotion.is_some()) {
            v.push(match c.mid_chain {
                MidChainCrown::Stay => "A piece that passes its crowning squares during a capture that goes on is not crowned: only where the move ends.".to_string(),
                MidChainCrown::Continue => "A piece that reaches its crowning squares during a capture is crowned at once and goes on as the new kind.".to_string(),
                MidChainCrown::Stop => "A piece that reaches its crowning squares during a capture stops there and is crowned.".to_string(),
            });
        }
    }
    if let Some(cu) = &c.custodian {
        let dirs = cu
            .dirs
            .first()
            .map(|d| directions(g, d))
            .unwrap_or_default();
        let fate = match c.effect {
            JumpEffect::Convert(k) => format!("goes over to that side (as a {})", kind_name(g, k)),
            _ => "is taken".to_string(),
        };
        v.push(format!(
            "Custodian capture: after a move{}, {} enclosed on a line between the piece that moved and another piece of its side {fate} (lines: {dirs}).",
            if g.placing.is_some() { " or a placement" } else { "" },
            if cu.multiple { "a run of enemies" } else { "a single enemy" }
        ));
        if cu.corners {
            v.push("An enemy on a corner is taken when the piece that moved and its friends stand on all its neighbours.".to_string());
        }
    }
    if let Some(dirs) = c.neighbours.iter().find(|d| !d.is_empty()) {
        let fate = match c.effect {
            JumpEffect::Convert(k) => format!("go over to that side (as a {})", kind_name(g, k)),
            _ => "are taken".to_string(),
        };
        v.push(format!(
            "After a move, the enemies next to the square the piece reached {fate} (neighbours: {}).",
            directions(g, dirs)
        ));
    }
    for (k, kind) in g.kinds.iter().enumerate() {
        let by: Vec<String> = (0..g.kinds.len())
            .filter(|&j| j < 32 && kind.immune_to & (1 << j) != 0)
            .filter_map(|j| u8::try_from(j).ok())
            .map(|j| kind_name(g, KindId(j)))
            .collect();
        if !by.is_empty() {
            v.push(format!(
                "A {} can't be taken by a {}.",
                kind_name(g, KindId(u8::try_from(k).unwrap_or(0))),
                by.join(" or a ")
            ));
        }
    }
    for kind in &g.kinds {
        if kind.unarmed {
            v.push(format!(
                "A {} takes no part in captures: it neither encloses an enemy nor closes an enclosure.",
                kind.name.to_lowercase()
            ));
        }
        if let Some(sets) = &kind.surrounded {
            let everywhere = sets.iter().all(|s| s.len() == g.squares.len());
            let at = if everywhere {
                String::new()
            } else {
                let mut all = crate::board::game::SquareSet::default();
                for set in sets {
                    all.union_with(set);
                }
                let names: Vec<String> = all.iter().map(|sq| square_name(t, sq)).collect();
                format!(" on {}", names.join(" "))
            };
            let edge = if c.custodian.as_ref().is_some_and(|cu| cu.edge) {
                "the board's edge counts as a hostile square"
            } else {
                "the board's edge never counts"
            };
            v.push(format!(
                "A {}{at} is taken only when enemies or hostile squares stand on all its sides ({edge}).",
                kind.name.to_lowercase()
            ));
        }
    }
    if c.effect == JumpEffect::Stack && g.kinds.iter().any(|k| k.promotion.is_some()) {
        v.push("A column is crowned through its top piece: only the top piece changes kind; the pieces under it stay as they are.".to_string());
    }
    if v.is_empty() {
        v.push("Nothing is ever captured: a piece stays on the board to the end.".to_string());
    }
    o.push_str("<h2>Captures</h2>\n");
    list(o, &v);
}

/// Promotions and zone rules in words.
fn promotion_section(o: &mut String, t: &Tables) {
    let g = t.game();
    let mut v = Vec::new();
    for kind in &g.kinds {
        let Some((to, squares)) = &kind.promotion else {
            continue;
        };
        let per_side: Vec<String> = squares
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.is_empty())
            .map(|(side, s)| {
                let names: Vec<String> = s.iter().map(|sq| square_name(t, sq)).collect();
                format!("{} on {}", side_name(g, side), names.join(" "))
            })
            .collect();
        v.push(format!(
            "A {} that ends its move on its crowning squares becomes a {}: {}.",
            kind.name.to_lowercase(),
            kind_name(g, *to),
            per_side.join("; ")
        ));
    }
    for z in g.zones.iter().filter(|z| z.no_stop) {
        v.push(format!("No piece may stop on the {} zone.", z.id));
    }
    for z in &g.zones {
        if let Some(words) = zone_power(t, z) {
            v.push(words);
        }
    }
    for trig in &g.triggers {
        if let Some(z) = g.zones.get(usize::from(trig.zone.0)) {
            let words = crate::format::text::board::trigger_words(g, trig, &z.id);
            v.push(format!(
                "{}{}.",
                words.get(..1).unwrap_or("").to_uppercase(),
                words.get(1..).unwrap_or("")
            ));
        }
    }
    if v.is_empty() {
        return;
    }
    o.push_str("<h2>Promotion and zones</h2>\n");
    list(o, &v);
}

/// The powers of a zone's squares in a sentence: the kinds that alone may
/// stop (or pass) there, and whether they count as a captor.
fn zone_power(t: &Tables, z: &ZoneInfo) -> Option<String> {
    let g = t.game();
    let mut parts = Vec::new();
    if !z.only.is_empty() {
        let kinds: Vec<String> = z.only.iter().map(|&k| kind_name(g, k)).collect();
        let kinds = and_list(&kinds);
        parts.push(if z.closed {
            format!("only the {kinds} may stop there or pass over it; the other pieces go round")
        } else {
            format!("only the {kinds} may stop there; the other pieces may pass over it while it is empty")
        });
    }
    match z.hostile {
        Hostile::Always => parts.push(
            "it is hostile: it closes an enclosure like an enemy piece against a piece enclosed between it and an enemy, unless a piece of the enclosed piece's own side stands on it"
                .to_string(),
        ),
        Hostile::WhenEmpty => parts.push(
            "while empty, it is hostile: it closes an enclosure like an enemy piece against a piece enclosed between it and an enemy"
                .to_string(),
        ),
        Hostile::Not => {}
    }
    if parts.is_empty() {
        return None;
    }
    let squares = z
        .squares
        .first()
        .map(|s| square_list(t, s))
        .unwrap_or_default();
    Some(format!(
        "The {} zone ({squares}): {}.",
        z.id,
        parts.join("; ")
    ))
}

/// A sentence of an end rule: when it holds, and what it does to the side
/// it concerns (`who`), or that the game is drawn.
fn end_sentence(when: &str, who: &str, verdict: Verdict) -> String {
    match verdict {
        Verdict::Win => format!("{when}, {who} wins."),
        Verdict::Lose => format!("{when}, {who} loses."),
        Verdict::Draw => format!("{when}, the game is drawn."),
        Verdict::Pass => format!("{when}, {who} passes its turn."),
    }
}

/// The end rules in words, in the order they are looked at.
fn end_section(o: &mut String, t: &Tables) {
    let g = t.game();
    let mut v = Vec::new();
    for rule in &g.end.rules {
        let (when, who) = match &rule.condition {
            EndCondition::NoPieces => ("When a side has no pieces left".to_string(), "it"),
            EndCondition::NoMoves => ("When the side to move can't move".to_string(), "it"),
            EndCondition::Repetition(n) => (
                format!("When the same position occurs {n} times with the same side to move"),
                "the side that moved",
            ),
            EndCondition::Without(c) => (
                format!("After {}", crate::narrate::board::without(t, c)),
                "the side that moved",
            ),
            EndCondition::Reach { zone, whose, kind } => {
                let rule_zone = *zone;
                let zone = g
                    .zones
                    .get(usize::from(zone.0))
                    .map_or("?", |z| z.id.as_str());
                let piece = kind.map_or_else(|| "piece".to_string(), |k| kind_name(g, k));
                let whose = match whose {
                    Whose::Own => "its own",
                    Whose::Enemy => "an enemy's",
                    Whose::Any => "any",
                };
                let shared = g
                    .zones
                    .get(usize::from(rule_zone.0))
                    .filter(|z| !z.per_side)
                    .and_then(|z| z.squares.first());
                let place = match shared {
                    Some(set) => format!("the {zone} zone ({})", square_list(t, set)),
                    None => format!("{whose} {zone} zone"),
                };
                (
                    format!("When a {piece} of a side ends a move on {place}"),
                    "that side",
                )
            }
            EndCondition::Captured(k) => (
                format!(
                    "When a side that had a {} at the start has none left",
                    kind_name(g, *k)
                ),
                "it",
            ),
            EndCondition::ReducedTo(n) => (
                format!(
                    "When a side is down to {} or fewer",
                    crate::words::count(u64::from(*n), "piece")
                ),
                "it",
            ),
            EndCondition::MostPieces => (
                "When neither side can move, the pieces on the board are counted: \
                 equal counts draw; otherwise"
                    .to_string(),
                "the side with the most pieces",
            ),
            EndCondition::Line {
                length,
                exact,
                dirs,
            } => {
                let some = dirs.first().is_some_and(|d| d.len() < 8);
                let along = match dirs.first() {
                    Some(d) if some => {
                        // A line along a direction is a line along its
                        // opposite too: each way once.
                        let mut ways: Vec<(i8, i8)> = Vec::new();
                        for &(dx, dy) in d {
                            if !ways.contains(&(dx, dy)) && !ways.contains(&(-dx, -dy)) {
                                ways.push((dx, dy));
                            }
                        }
                        format!(" along {}", vector_words(g, &ways))
                    }
                    _ => String::new(),
                };
                (
                    format!(
                        "When a side has {}{} of its pieces in an unbroken line{along}{}",
                        if *exact { "exactly " } else { "" },
                        length,
                        if *exact {
                            " (a longer line does not count)"
                        } else {
                            " (or more)"
                        }
                    ),
                    "that side",
                )
            }
        };
        v.push(end_sentence(&when, who, rule.verdict));
    }
    if g.sides.len() > 2 {
        v.push(match g.end.loser {
            Elimination::DropOut => "A side that loses drops out: its pieces leave the board and the others play on; the last side left wins.".to_string(),
            Elimination::EndsGame => "A side that loses ends the game: the side that played the last move wins.".to_string(),
        });
    }
    o.push_str("<h2>End of the game</h2>\n<p>The rules are looked at in this order; when several hold, the first decides.</p>\n");
    list(o, &v);
}

/// A race game's sections.
fn race(o: &mut String, game: &RaceGame) {
    let seats = and_list(&game.seats);
    let players = if game.min_players == game.max_players {
        game.min_players.to_string()
    } else {
        format!("{} to {}", game.min_players, game.max_players)
    };
    let dice = if game.sticks {
        let values = if game.throw_values.is_empty() {
            "the throw is the count of marked sides, and a throw of 0 moves nothing".to_string()
        } else {
            let table: Vec<String> = game
                .throw_values
                .iter()
                .enumerate()
                .map(|(count, value)| format!("{count} marked moves {value}"))
                .collect();
            let nothing = if game.throw_values.contains(&0) {
                "; a throw worth 0 moves nothing"
            } else {
                ""
            };
            format!("{}{nothing}", table.join(", "))
        };
        format!(
            "{} sticks, each with a marked and a plain side; {values}",
            game.dice
        )
    } else if game.dice == 1 {
        format!("one die of {} faces", game.faces)
    } else if game.each_die {
        let doubles = if game.doubles_times > game.dice {
            format!("; a double is played {} times", game.doubles_times)
        } else {
            String::new()
        };
        format!(
            "{} dice of {} faces; each die moves a piece on its own, in the order the player chooses{doubles}",
            game.dice, game.faces
        )
    } else {
        format!(
            "{} dice of {} faces; a piece moves by their sum",
            game.dice, game.faces
        )
    };
    let dice = if game.face_values.is_empty() {
        dice
    } else {
        let table: Vec<String> = (1..=game.faces)
            .map(|f| format!("a {f} moves {}", game.face_value(f)))
            .collect();
        let nothing = if game.face_values.iter().skip(1).any(|&v| v == 0) {
            "; a die worth 0 moves nothing"
        } else {
            ""
        };
        format!(
            "{dice}; the faces are worth: {}{nothing} (rules that name a face, such as entering or rolling again, look at the face)",
            table.join(", ")
        )
    };
    let track = match &game.circuit {
        None if game.paths.is_some() => format!(
            "each player's own path of {} cells (cells named in two paths are shared); a piece finishes one step past its last",
            game.cells.saturating_sub(1)
        ),
        None => format!("{} cells; the last one is the finish", game.cells),
        Some(c) => {
            let starts: Vec<String> = c.starts.iter().map(u16::to_string).collect();
            format!(
                "a loop of {} cells, the players starting on cells {}; after a lap, {} home cells{}",
                c.cells,
                starts.join(", "),
                c.home,
                if c.kept { ", where the pieces stay" } else { ", the last one the finish" }
            )
        }
    };
    o.push_str("<h2>The game</h2>\n");
    facts(
        o,
        &[
            ("Players", format!("{players} ({seats})")),
            ("Pieces", format!("{} per player", game.pieces)),
            ("Dice", dice),
            ("Track", track),
        ],
    );
    let setups: Vec<String> = game
        .setup
        .iter()
        .enumerate()
        .filter(|(_, cells)| !cells.is_empty())
        .map(|(seat, cells)| {
            let mut counts: Vec<(u16, usize)> = Vec::new();
            for &p in cells {
                match counts.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((p, 1)),
                }
            }
            let on: Vec<String> = counts
                .iter()
                .map(|&(p, n)| format!("{n} on {}", game.label(seat, p)))
                .collect();
            let name = game.seats.get(seat).map_or("", String::as_str);
            format!("{name}: {}", on.join(", "))
        })
        .collect();
    if !setups.is_empty() {
        o.push_str("<h2>Setup</h2>\n<p>The pieces start on the track (the others off it):</p>\n");
        list(o, &setups);
    }
    o.push_str("<h2>Track</h2>\n<figure class=\"track\">\n");
    o.push_str(&crate::format::svg::race::render(game, None));
    o.push_str("</figure>\n");
    let mut turn = Vec::new();
    turn.push(
        match game.enter {
            Enter::Always => "A piece off the track may enter on any roll".to_string(),
            Enter::OnFace(f) => {
                format!("A piece off the track may enter only on a roll with a {f}")
            }
        } + if game.enter_at_start {
            ": it is put on its start cell."
        } else if game.each_die {
            ", moving the count of one die."
        } else {
            ", moving the count of the roll."
        },
    );
    if game.enter_first {
        // Where the player's own pieces can close the entry, the rule lapses
        // while they do (else the player could never move again).
        turn.push(if game.own_pieces_close_cells() {
            "A player with a piece off the track must bring it in before any other piece moves, unless the player's own pieces close the cell where it would enter: then the others may move."
                .to_string()
        } else {
            "A player with a piece off the track must bring it in before any other piece moves."
                .to_string()
        });
    }
    if game.enter_compulsory {
        turn.push("When a piece may enter, entering is the only choice.".to_string());
    }
    if game.tries > 1 {
        turn.push(format!(
            "While none of a player's pieces can move, whatever the roll, they roll up to {} times a turn.",
            game.tries
        ));
    }
    if game.leave_start {
        turn.push("While a player has pieces off the track, a piece on their start cell must move away when it can.".to_string());
    }
    turn.push(if game.compulsory {
        "A player who can move must move.".to_string()
    } else {
        "A player may pass instead of moving.".to_string()
    });
    if game.no_landing_own {
        turn.push(
            "A move may not land or come to rest on a cell that holds one of the mover's pieces."
                .to_string(),
        );
    }
    match game.extra {
        Extra::Never => {}
        Extra::Doubles => turn.push("A roll of doubles earns another roll.".to_string()),
        Extra::OnFace(f) => turn.push(format!("A roll with a {f} earns another roll.")),
        Extra::OnValues(mask) => {
            let values: Vec<String> = (0..64)
                .filter(|v| mask & (1u64 << v) != 0)
                .map(|v: u32| v.to_string())
                .collect();
            turn.push(format!(
                "A roll worth {} earns another roll.",
                values.join(" or ")
            ));
        }
    }
    if game.most_dice {
        turn.push(
            "As many dice as can be must be used; when only one can be, the larger one if it can."
                .to_string(),
        );
    }
    if game.point > 0 {
        turn.push(format!(
            "No piece lands on a cell held by {} or more pieces of one opponent.",
            game.point
        ));
    }
    if game.protect_rows > 0 {
        turn.push(format!(
            "A player's pieces on {} or more cells in a row protect each other: no move lands on them.",
            game.protect_rows
        ));
    }
    if game.pass_rows > 0 {
        turn.push(format!(
            "No piece passes {} or more pieces of one opponent on cells in a row.",
            game.pass_rows
        ));
    }
    if game.pass_stack > 0 {
        turn.push(format!(
            "No piece passes a cell holding {} or more pieces of one player.",
            game.pass_stack
        ));
    }
    if !game.no_passing.is_empty() {
        let cells: Vec<String> = (0..game.no_passing.len() as u16)
            .filter(|&c| game.is_no_passing(c))
            .map(|c| game.label(0, game.progress_at(0, c)))
            .collect();
        turn.push(format!(
            "No piece passes {}: a piece must stop there.",
            cells.join(", ")
        ));
    }
    if game.move_back && game.each_die {
        turn.push(
            "A die that can move no piece forward must move one back by its value, if one can."
                .to_string(),
        );
    } else if game.move_back {
        turn.push(
            "A player whose pieces can't move forward must move one back by the roll, if one can."
                .to_string(),
        );
    }
    turn.push(match game.finish {
        Finish::Past => "Reaching or passing the finish finishes a piece.".to_string(),
        Finish::Exact if game.finish_furthest => "The exact count finishes a piece, and a larger count finishes the piece furthest from the finish.".to_string(),
        Finish::Exact => "Only the exact count finishes a piece; a piece that would pass the finish can't move.".to_string(),
        Finish::Bounce => "Only the exact count finishes a piece; the rest of a count that passes the finish goes back from it.".to_string(),
    });
    if game.bear_off_last > 0 {
        turn.push(format!(
            "A piece finishes only when all the player's pieces are on the last {} cells of their path, or finished.",
            game.bear_off_last
        ));
    }
    if game.chain {
        turn.push("Landing rules chain: a piece a landing rule moves onto another rule's cell is subject to that rule too.".to_string());
    }
    o.push_str("<h2>A turn</h2>\n");
    list(o, &turn);
    let legend = crate::narrate::legend::Legend::of(game);
    let mut cells: Vec<String> = legend
        .entries
        .iter()
        .map(|e| format!("{} {}", e.mark, e.text(" to ")))
        .collect();
    cells.extend(legend.everywhere.iter().cloned());
    if !cells.is_empty() {
        o.push_str("<h2>Cell rules</h2>\n");
        list(o, &cells);
    }
    if !legend.rolls.is_empty() {
        o.push_str("<h2>Rules of the roll</h2>\n");
        list(o, &legend.rolls);
    }
    let mut end = Vec::new();
    end.push(match game.win {
        Win::FirstPiece => "A player is home when they bring one piece to the finish.".to_string(),
        Win::AllPieces => {
            "A player is home when they bring all their pieces to the finish.".to_string()
        }
    });
    end.push(
        match game.outcome {
            Outcome::FirstHomeWins => "The first player home wins.",
            Outcome::FirstHomeLoses => {
                "The first player home loses; play goes on until one player is left, who wins."
            }
            Outcome::LastHomeLoses => {
                "The first player home wins; play goes on until one player is left, who loses."
            }
            Outcome::LastHomeWins => "Play goes on until one player is left, who wins.",
        }
        .to_string(),
    );
    if game.order {
        end.push(
            "Play goes on until every player but one is home, and the finishing order is kept."
                .to_string(),
        );
    }
    o.push_str("<h2>End of the game</h2>\n");
    list(o, &end);
}
