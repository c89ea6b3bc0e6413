//! `show RACE --svg`: a race track as an SVG picture. The cells where the
//! track's shape puts them ([`crate::layout`]: ten a row in reading order
//! by default; a serpentine with its jumps drawn as ladders and snakes; a
//! spiral; a cross with each seat's corner, home cells and triangle of the
//! middle; lanes; tables), each cell that has a rule tinted by what it
//! does and carrying the same marks as the text picture
//! ([`crate::narrate::legend`]),
//! an arrow from every cell a rule sends the piece from (`go to`) to where
//! it goes, the pieces in their seats' colours ([`crate::format::colour`]),
//! the home cells of a circuit, the legend, and whose turn it is.
//!
//! Each cell is a `<rect class="cell">` with `data-cell`, each mark a
//! `<text class="mark KIND">`, each arrow a `<path class="jump KIND">`, each
//! piece a `<circle class="piece">` with `data-seat`.

use std::fmt::Write;

use super::esc;
use crate::format::colour::{self, Colour};
use crate::layout::{self, Plan, Spot};
use crate::narrate::legend::{last_cell, seat_letters, Kind, Legend};
use crate::narrate::race::{position_text, seat_name};
use crate::race::game::{Layout, RaceGame, OUT};
use crate::race::RaceState;

/// The side of a cell, in SVG units.
pub const CELL: i32 = 60;
/// The margin round the picture.
pub const MARGIN: i32 = 20;
/// Cells a row.
pub const ROW: i32 = 10;
/// The top of the track (below the title).
const TOP: i32 = 44;
/// Legend lines are wrapped at this many characters.
const CHARS: usize = 88;
const LINE: i32 = 18;

/// A cell's tint and its mark's colour, by what its first rule does.
fn tint(kind: Kind) -> (&'static str, &'static str) {
    match kind {
        Kind::Up => ("#dcefd9", "#2e7d32"),
        Kind::Down => ("#f6d5d8", "#c62828"),
        Kind::Wait => ("#fbefc4", "#9a6b00"),
        Kind::Hit => ("#eadcf0", "#7b1fa2"),
        Kind::Safe => ("#d3edf2", "#00838f"),
    }
}

/// Words wrapped to `CHARS` characters a line.
fn wrap(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > CHARS {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// The top left corner of grid square `(x, y)` of a plan.
fn square((x, y): Spot) -> (i32, i32) {
    (MARGIN + i32::from(x) * CELL, TOP + i32::from(y) * CELL)
}

/// The top left corner of cell `c` (1-based) of the track, where `plan`
/// draws it.
fn corner(plan: &Plan, c: u16) -> (i32, i32) {
    square(plan.at(c).unwrap_or((0, 0)))
}

/// The cell of the track where a piece of `seat` at `p` (progress along
/// its path) is drawn: the finish of a plain track for a piece finished,
/// None for a piece out or in a home cell of a circuit.
pub fn drawn_at(game: &RaceGame, seat: usize, p: u16) -> Option<u16> {
    let on_loop = game.circuit.as_ref().is_none_or(|c| p <= c.cells);
    if p != OUT && p < game.cells && on_loop {
        Some(game.rule_cell(seat, p))
    } else if p == game.cells && game.circuit.is_none() && game.paths.is_none() {
        Some(last_cell(game))
    } else {
        None
    }
}

/// The colour of seat `seat`'s pieces among `colours` (what
/// [`colour::for_names`] gives the game's seats), grey past them.
pub fn seat_colour(colours: &[Colour], seat: usize) -> Colour {
    colours.get(seat).copied().unwrap_or(Colour {
        fill: "#808080",
        ink: "#ffffff",
        ansi_bg: "100",
        ansi_fg: "97",
    })
}

/// One piece: a circle in its seat's colour with the seat's letter.
fn piece(o: &mut String, x: i32, y: i32, seat: usize, letter: char, c: &Colour, name: &str) {
    let _ = writeln!(
        o,
        r#"<circle class="piece" data-seat="{}" cx="{x}" cy="{y}" r="9" fill="{}" stroke="{}" stroke-width="1.5"><title>{}</title></circle>"#,
        esc(name),
        c.fill,
        c.ink,
        esc(name)
    );
    let _ = writeln!(
        o,
        r#"<text x="{x}" y="{}" font-size="10" font-weight="bold" text-anchor="middle" fill="{}">{}</text>"#,
        y + 4,
        c.ink,
        esc(&letter.to_string())
    );
    let _ = seat;
}

/// The centre of grid square `spot`.
fn centre_of(spot: Spot) -> (i32, i32) {
    let (x, y) = square(spot);
    (x + CELL / 2, y + CELL / 2)
}

/// A cross's corners, where each seat's pieces wait out, its home cells up
/// the middle of its arm (the last one the finish, unless they are kept),
/// and the middle, a triangle of each seat's colour at the end of its
/// home cells.
fn cross_homes(
    body: &mut String,
    game: &RaceGame,
    plan: &Plan,
    colour_of: &dyn Fn(usize) -> Colour,
) {
    // On paths the home cells are cells of the track, drawn with them.
    let on_paths = game.paths.is_some();
    if game.circuit.is_none() && !on_paths {
        return;
    }
    let kept = game.circuit.as_ref().is_some_and(|c| c.kept);
    let side = i32::from(plan.arm) * CELL;
    body.push_str("<g id=\"homes\">\n");
    for (seat, &yard) in plan.yards.iter().enumerate() {
        let (x, y) = square(yard);
        let _ = writeln!(
            body,
            r#"<rect class="yard" data-seat="{}" x="{}" y="{}" width="{}" height="{}" rx="12" fill="{}" fill-opacity="0.25" stroke="{}" stroke-width="3"/>"#,
            esc(seat_name(game, seat)),
            x + 6,
            y + 6,
            side - 12,
            side - 12,
            colour_of(seat).fill,
            colour_of(seat).fill
        );
    }
    if let Some(centre) = plan.centre {
        let (cx, cy) = centre_of(centre);
        // A middle of 3 squares has the finishes as its triangles.
        let big = plan.middle == 3;
        let half = i32::from(plan.middle) * CELL / 2;
        for (seat, home) in plan.homes.iter().enumerate() {
            let cells = if on_paths {
                0
            } else if big {
                home.len().saturating_sub(1)
            } else {
                home.len()
            };
            for (i, &spot) in home.iter().enumerate().take(cells) {
                let (x, y) = square(spot);
                let h = i + 1;
                let _ = writeln!(
                    body,
                    r##"<rect class="home" data-seat="{}" data-home="{h}" x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{}" fill-opacity="0.45" stroke="#9a9a9a" stroke-width="1"/>"##,
                    esc(seat_name(game, seat)),
                    colour_of(seat).fill
                );
                let finish = !kept && h == home.len();
                let _ = writeln!(
                    body,
                    r##"<text x="{}" y="{}" font-size="11" fill="#555555">{}</text>"##,
                    x + 4,
                    y + 13,
                    if finish {
                        "finish".to_string()
                    } else {
                        format!("h{h}")
                    }
                );
            }
            // The triangle of the middle that the home cells point at.
            let Some(&last) = home.last() else { continue };
            let (hx, hy) = centre_of(last);
            let (dx, dy) = ((hx - cx).signum(), (hy - cy).signum());
            let (bx, by) = (cx + dx * half, cy + dy * half);
            let _ = writeln!(
                body,
                r##"<polygon class="middle" data-seat="{}" points="{},{} {},{} {cx},{cy}" fill="{}" stroke="#ffffff" stroke-width="1"/>"##,
                esc(seat_name(game, seat)),
                bx - dy * half,
                by + dx * half,
                bx + dy * half,
                by - dx * half,
                colour_of(seat).fill
            );
        }
    }
    body.push_str("</g>\n");
}

/// The pieces a cross shows off the loop: out in their seat's corner, in
/// their home cells (a finished piece on the last one).
fn cross_pieces(
    body: &mut String,
    game: &RaceGame,
    plan: &Plan,
    state: &RaceState,
    letters: &[char],
    colour_of: &dyn Fn(usize) -> Colour,
) {
    let on_paths = game.paths.is_some();
    if game.circuit.is_none() && !on_paths {
        return;
    }
    let side = i32::from(plan.arm) * CELL;
    for seat in 0..state.players() {
        let letter = letters.get(seat).copied().unwrap_or('?');
        let name = seat_name(game, seat);
        let mut out = 0i32;
        let mut finished = 0i32;
        let home_cells = game.circuit.as_ref().map_or(0, |c| c.home);
        let mut stacked = vec![0i32; usize::from(home_cells) + 1];
        for &p in state.pieces(seat) {
            if p == OUT {
                let Some(&yard) = plan.yards.get(seat) else {
                    continue;
                };
                let (x, y) = square(yard);
                // Two a row in the middle of the corner.
                let (col, row) = (out % 2, out / 2);
                out += 1;
                let px = x + side / 2 - 14 + col * 28;
                let py = y + side / 2 - 14 + (row % 4) * 28;
                piece(body, px, py, seat, letter, &colour_of(seat), name);
            } else if on_paths {
                // On paths the home column's cells are the track's; a
                // finished piece is in its triangle of the middle.
                if p < game.cells {
                    continue;
                }
                let (Some(centre), Some(&last)) =
                    (plan.centre, plan.homes.get(seat).and_then(|h| h.last()))
                else {
                    continue;
                };
                let (cx, cy) = centre_of(centre);
                let (hx, hy) = centre_of(last);
                let (dx, dy) = ((hx - cx).signum(), (hy - cy).signum());
                // The middle of the triangle's wide half, and across it.
                let reach = i32::from(plan.middle) * CELL / 3;
                let (mx, my) = (cx + dx * reach, cy + dy * reach);
                let across = -10 + (finished % 2) * 20;
                let along = -(finished / 2 % 2) * 18;
                finished += 1;
                let (px, py) = (
                    mx + dy.abs() * across + dx * along,
                    my + dx.abs() * across + dy * along,
                );
                piece(body, px, py, seat, letter, &colour_of(seat), name);
            } else if let Some(circuit) = game.circuit.as_ref().filter(|c| p > c.cells) {
                let h = p - circuit.cells;
                let Some(&spot) = plan
                    .homes
                    .get(seat)
                    .and_then(|h2| h2.get(usize::from(h) - 1))
                else {
                    continue;
                };
                let Some(n) = stacked.get_mut(usize::from(h)) else {
                    continue;
                };
                let (x, y) = square(spot);
                let (mut px, mut py) =
                    (x + 12 + (*n % 3) * 18, y + CELL - 12 - ((*n / 3) % 3) * 16);
                if plan.middle == 3 && h == circuit.home {
                    // A finished piece, in its triangle of the middle.
                    let (cx, cy) = centre_of(spot);
                    (px, py) = (cx - 12 + (*n % 2) * 24, cy - 12 + ((*n / 2) % 2) * 24);
                }
                *n += 1;
                piece(body, px, py, seat, letter, &colour_of(seat), name);
            }
        }
    }
}

/// A jump of a serpentine: up a ladder (two rails and rungs) or down a
/// snake (a wavy body, its head on the cell it starts from).
fn ladder_or_snake(body: &mut String, from: (i32, i32), to: (i32, i32), a: u16, b: u16) {
    let (x1, y1) = (f64::from(from.0 + CELL / 2), f64::from(from.1 + CELL / 2));
    let (x2, y2) = (f64::from(to.0 + CELL / 2), f64::from(to.1 + CELL / 2));
    let (dx, dy) = (x2 - x1, y2 - y1);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    // The unit vector along the jump and across it.
    let (ux, uy) = (dx / length, dy / length);
    let (px, py) = (-uy, ux);
    let up = b > a;
    let kind = if up { Kind::Up } else { Kind::Down };
    let (_, ink) = tint(kind);
    let mut d = String::new();
    if up {
        let w = 8.0;
        for side in [-w, w] {
            let _ = write!(
                d,
                "M{:.1},{:.1} L{:.1},{:.1} ",
                x1 + px * side,
                y1 + py * side,
                x2 + px * side,
                y2 + py * side
            );
        }
        let rungs = (length / 16.0).floor() as i32;
        for i in 1..rungs {
            let t = f64::from(i) * 16.0;
            let (cx, cy) = (x1 + ux * t, y1 + uy * t);
            let _ = write!(
                d,
                "M{:.1},{:.1} L{:.1},{:.1} ",
                cx - px * w,
                cy - py * w,
                cx + px * w,
                cy + py * w
            );
        }
    } else {
        let waves = (length / 70.0).round().max(1.0);
        let steps = (waves * 12.0) as i32;
        for i in 0..=steps {
            let t = f64::from(i) / f64::from(steps);
            let wiggle = 9.0 * (t * waves * std::f64::consts::TAU).sin() * (1.0 - 0.6 * t);
            let (cx, cy) = (x1 + dx * t + px * wiggle, y1 + dy * t + py * wiggle);
            let _ = write!(d, "{}{cx:.1},{cy:.1} ", if i == 0 { "M" } else { "L" });
        }
    }
    let (class, width) = if up { ("ladder", 3) } else { ("snake", 5) };
    let _ = writeln!(
        body,
        r#"<path class="jump {} {class}" d="{}" stroke="{ink}" stroke-width="{width}" stroke-linecap="round" stroke-linejoin="round"><title>{a} {} {b}</title></path>"#,
        kind.word(),
        d.trim_end(),
        "\u{2192}"
    );
    if !up {
        let _ = writeln!(
            body,
            r#"<circle class="snake-head" cx="{x1:.1}" cy="{y1:.1}" r="7" fill="{ink}"/>"#
        );
    }
}

/// The SVG text of a race track, with the pieces of `state` when given.
pub fn render(game: &RaceGame, state: Option<&RaceState>) -> String {
    let legend = Legend::of(game);
    let last = last_cell(game);
    let plan = layout::plan(game);
    let rows = i32::from(plan.height);
    let width = 2 * MARGIN + i32::from(plan.width) * CELL;
    let players = state.map_or(0, RaceState::players);
    let letters = seat_letters(game, players);
    let colours = colour::for_names(&game.seats);
    let colour_of = |seat: usize| seat_colour(&colours, seat);

    let mut body = String::new();
    let _ = writeln!(
        body,
        r#"<text x="{MARGIN}" y="28" font-size="18" font-weight="bold">{}</text>"#,
        esc(&game.title)
    );
    // Each seat's start cell: a circuit's; on paths drawn as a cross the
    // first cell of each path.
    let starts: Vec<u16> = match (&game.circuit, &game.paths) {
        (Some(k), _) => k.starts.clone(),
        (None, Some(p)) if plan.layout == Layout::Cross => p
            .seats
            .iter()
            .map(|path| path.first().copied().unwrap_or(0))
            .collect(),
        _ => Vec::new(),
    };
    // On paths drawn as a cross, the seat whose home column a cell is.
    let home_of = |c: u16| {
        let spot = plan.at(c)?;
        game.paths.as_ref()?;
        plan.homes.iter().position(|h| h.contains(&spot))
    };
    // The cells, their numbers and marks.
    body.push_str("<g id=\"cells\">\n");
    for c in 1..=last {
        let (x, y) = corner(&plan, c);
        let marks: Vec<_> = legend.at(c).collect();
        let fill = marks.first().map_or("#fafafa", |m| tint(m.kind).0);
        let finish = game.circuit.is_none() && game.paths.is_none() && c == game.cells;
        // On paths a cell is named by them.
        let name = game
            .paths
            .as_ref()
            .map_or_else(|| c.to_string(), |p| p.name(c).to_string());
        // A cell of a home column in its seat's colour.
        let (fill, seat_of) = match home_of(c) {
            Some(seat) if marks.is_empty() => (
                format!(r#"{}" fill-opacity="0.45"#, colour_of(seat).fill),
                format!(r#" data-seat="{}""#, esc(seat_name(game, seat))),
            ),
            _ => (fill.to_string(), String::new()),
        };
        let _ = writeln!(
            body,
            r##"<rect class="cell" data-cell="{c}"{seat_of} x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="{}" stroke-width="{}"/>"##,
            if finish { "#202020" } else { "#9a9a9a" },
            if finish { 3 } else { 1 }
        );
        if plan.layout == Layout::Tables {
            // A point of the tables: a triangle from the table's edge.
            let (gx, gy) = plan.at(c).unwrap_or((0, 0));
            let (edge, tip) = if gy == 0 {
                (y, y + CELL - 8)
            } else {
                (y + CELL, y + 8)
            };
            let _ = writeln!(
                body,
                r#"<polygon class="point" points="{},{edge} {},{edge} {},{tip}" fill="{}" fill-opacity="0.55"/>"#,
                x + 4,
                x + CELL - 4,
                x + CELL / 2,
                if gx % 2 == 0 { "#a1887f" } else { "#d7c4a3" }
            );
        }
        if let Some(seat) = starts.iter().position(|&s| s == c) {
            // On a cross the start cell is in its seat's colour.
            let fill = if plan.layout == Layout::Cross {
                format!(r#"{}" fill-opacity="0.45"#, colour_of(seat).fill)
            } else {
                "none".to_string()
            };
            let _ = writeln!(
                body,
                r#"<rect class="start" data-seat="{}" x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{}" stroke-width="4"/>"#,
                esc(seat_name(game, seat)),
                x + 3,
                y + 3,
                CELL - 6,
                CELL - 6,
                colour_of(seat).fill
            );
        }
        let _ = writeln!(
            body,
            r##"<text x="{}" y="{}" font-size="11" fill="#555555">{}</text>"##,
            x + 4,
            y + 13,
            esc(&name)
        );
        if finish {
            let _ = writeln!(
                body,
                r##"<text x="{}" y="{}" font-size="9" fill="#202020" text-anchor="end">finish</text>"##,
                x + CELL - 4,
                y + 13
            );
        }
        for (i, m) in marks.iter().enumerate() {
            let (_, ink) = tint(m.kind);
            let _ = writeln!(
                body,
                r#"<text class="mark {}" x="{}" y="{}" font-size="13" font-weight="bold" text-anchor="end" fill="{ink}">{}<title>{}</title></text>"#,
                m.kind.word(),
                x + CELL - 4 - 11 * (marks.len() - 1 - i) as i32,
                y + 15,
                esc(&m.mark.to_string()),
                esc(&m.text("\u{2192}"))
            );
        }
    }
    body.push_str("</g>\n");
    if plan.layout == Layout::Cross {
        cross_homes(&mut body, game, &plan, &colour_of);
    }
    // The arrows of `go to` rules; on a serpentine every jump, up a
    // ladder or down a snake.
    body.push_str("<g id=\"jumps\" fill=\"none\" stroke-width=\"3\" opacity=\"0.65\">\n");
    if let Layout::Serpentine(_) = plan.layout {
        for (from, to) in layout::jumps(game) {
            ladder_or_snake(&mut body, corner(&plan, from), corner(&plan, to), from, to);
        }
    }
    let arrows = if let Layout::Serpentine(_) = plan.layout {
        &[][..]
    } else {
        &legend.entries[..]
    };
    for e in arrows {
        for &(from, to) in &e.jumps {
            if from == to || to == 0 || to > last {
                continue;
            }
            let kind = if to > from { Kind::Up } else { Kind::Down };
            let (_, ink) = tint(kind);
            let (fx, fy) = corner(&plan, from);
            let (tx, ty) = corner(&plan, to);
            let (x1, y1) = (fx + CELL / 2, fy + CELL / 2 + 6);
            let (x2, y2) = (tx + CELL / 2, ty + CELL / 2 + 6);
            // A gentle curve, so that arrows along one row stay apart from
            // the cells between.
            let (mx, my) = ((x1 + x2) / 2, (y1 + y2) / 2);
            let (dx, dy) = (x2 - x1, y2 - y1);
            let (cx, cy) = (mx - dy / 5, my + dx / 5);
            let _ = writeln!(
                body,
                r#"<path class="jump {}" d="M{x1},{y1} Q{cx},{cy} {x2},{y2}" stroke="{ink}" marker-end="url(#head-{})"><title>{from} {} {to}</title></path>"#,
                kind.word(),
                kind.word(),
                "\u{2192}"
            );
        }
    }
    body.push_str("</g>\n");
    let mut y = TOP + rows * CELL + 10;
    // The pieces on the track.
    body.push_str("<g id=\"pieces\">\n");
    let mut here: Vec<u16> = vec![0; usize::from(last) + 1];
    if let Some(state) = state {
        for seat in 0..players {
            let letter = letters.get(seat).copied().unwrap_or('?');
            for &p in state.pieces(seat) {
                let Some(cell) = drawn_at(game, seat, p) else {
                    continue;
                };
                let Some(n) = here.get_mut(usize::from(cell)) else {
                    continue;
                };
                let (x, cy) = corner(&plan, cell);
                let i = i32::from(*n);
                *n = n.saturating_add(1);
                let px = x + 12 + (i % 3) * 18;
                let py = cy + CELL - 12 - ((i / 3) % 3) * 16;
                piece(
                    &mut body,
                    px,
                    py,
                    seat,
                    letter,
                    &colour_of(seat),
                    seat_name(game, seat),
                );
            }
        }
        if plan.layout == Layout::Cross {
            cross_pieces(&mut body, game, &plan, state, &letters, &colour_of);
        }
    }
    body.push_str("</g>\n");
    // The home cells of a circuit, a row for each seat (a cross has them
    // up its arms).
    let home_rows = state.filter(|_| plan.layout != Layout::Cross);
    if let (Some(c), Some(state)) = (&game.circuit, home_rows) {
        for seat in 0..players {
            let col = colour_of(seat);
            let _ = writeln!(
                body,
                r#"<text x="{MARGIN}" y="{}" font-size="12">{} home</text>"#,
                y + 20,
                esc(seat_name(game, seat))
            );
            for h in 1..c.home {
                let x = MARGIN + 90 + (i32::from(h) - 1) * 34;
                let _ = writeln!(
                    body,
                    r##"<rect class="home" data-seat="{}" x="{x}" y="{}" width="30" height="30" fill="#fafafa" stroke="{}" stroke-width="2"/>"##,
                    esc(seat_name(game, seat)),
                    y + 4,
                    col.fill
                );
                let _ = writeln!(
                    body,
                    r##"<text x="{}" y="{}" font-size="8" fill="#555555">h{h}</text>"##,
                    x + 2,
                    y + 12
                );
                let count = state
                    .pieces(seat)
                    .iter()
                    .filter(|&&p| p == c.cells + h)
                    .count();
                if count > 0 {
                    piece(
                        &mut body,
                        x + 15,
                        y + 22,
                        seat,
                        letters.get(seat).copied().unwrap_or('?'),
                        &col,
                        seat_name(game, seat),
                    );
                    if count > 1 {
                        let _ = writeln!(
                            body,
                            r#"<text x="{}" y="{}" font-size="9">{count}</text>"#,
                            x + 25,
                            y + 12
                        );
                    }
                }
            }
            y += 36;
        }
        y += 6;
    }
    // The legend.
    body.push_str("<g id=\"legend\" font-size=\"12\">\n");
    for e in &legend.entries {
        let (fill, ink) = tint(e.kind);
        let _ = writeln!(
            body,
            r#"<rect x="{MARGIN}" y="{}" width="16" height="16" fill="{fill}" stroke="{ink}"/><text class="mark {}" x="{}" y="{}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
            y + 4,
            e.kind.word(),
            MARGIN + 8,
            y + 16,
            esc(&e.mark.to_string())
        );
        for line in wrap(&e.text("\u{2192}")) {
            y += LINE;
            let _ = writeln!(
                body,
                r#"<text x="{}" y="{}">{}</text>"#,
                MARGIN + 24,
                y,
                esc(&line)
            );
        }
        y += 4;
    }
    let rules = legend
        .everywhere
        .iter()
        .cloned()
        .chain(legend.rolls.iter().map(|r| format!("rolling {r}")));
    for text in rules {
        for line in wrap(&text) {
            y += LINE;
            let _ = writeln!(body, r#"<text x="{MARGIN}" y="{y}">{}</text>"#, esc(&line));
        }
        y += 4;
    }
    body.push_str("</g>\n");
    // The seats: pieces out and finished, whose turn it is.
    if let Some(state) = state {
        body.push_str("<g id=\"seats\" font-size=\"12\">\n");
        y += 8;
        for seat in 0..players {
            let pieces = state.pieces(seat);
            let out = pieces.iter().filter(|&&p| p == OUT).count();
            let mut text = match &game.circuit {
                // Kept home cells are where pieces stay: pieces on them are home.
                Some(c) if c.kept => {
                    let home = pieces.iter().filter(|&&p| p > c.cells).count();
                    format!("{}: {out} out, {home} home", seat_name(game, seat))
                }
                _ => {
                    let done = pieces.iter().filter(|&&p| p >= game.cells).count();
                    format!("{}: {out} out, {done} finished", seat_name(game, seat))
                }
            };
            if state.owed(seat) > 0 {
                text.push_str(&format!(
                    ", misses {}",
                    crate::words::count(state.owed(seat).into(), "turn")
                ));
            }
            let turn = !state.is_over() && state.to_roll() == seat;
            if turn {
                text.push_str(", to roll");
            }
            y += 22;
            piece(
                &mut body,
                MARGIN + 9,
                y - 4,
                seat,
                letters.get(seat).copied().unwrap_or('?'),
                &colour_of(seat),
                seat_name(game, seat),
            );
            let _ = writeln!(
                body,
                r#"<text x="{}" y="{y}"{}>{}</text>"#,
                MARGIN + 24,
                if turn { r#" font-weight="bold""# } else { "" },
                esc(&text)
            );
        }
        y += LINE + 6;
        let turn = if state.is_over() {
            "the game is over".to_string()
        } else {
            format!("{} to roll", seat_name(game, state.to_roll()))
        };
        let _ = writeln!(
            body,
            r#"<text class="turn" x="{MARGIN}" y="{y}" font-size="13" font-weight="bold">{}</text>"#,
            esc(&turn)
        );
        y += LINE;
        let _ = writeln!(
            body,
            r##"<text class="position" x="{MARGIN}" y="{y}" font-size="11" fill="#555555">{}</text>"##,
            esc(&position_text(game, state))
        );
        body.push_str("</g>\n");
    }
    let height = y + MARGIN;
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(o, "<title>{}</title>", esc(&game.title));
    o.push_str("<defs>\n");
    for kind in [Kind::Up, Kind::Down] {
        let _ = writeln!(
            o,
            r#"<marker id="head-{}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{}"/></marker>"#,
            kind.word(),
            tint(kind).1
        );
    }
    o.push_str("</defs>\n");
    let _ = writeln!(
        o,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    o.push_str(&body);
    o.push_str("</svg>\n");
    o
}
