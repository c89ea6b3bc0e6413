//! A race track as text for people: the cells ten a row (a serpentine in
//! its rows, [`crate::layout`]) with the mark of
//! every cell that has a rule and the pieces standing there, a legend of
//! the marks (from the rule file's cell rules, [`crate::narrate::legend`]),
//! each seat's pieces off the track, and whose turn it is. With colour on
//! a terminal (marks by what they do, pieces in their seat's colour),
//! plain when piped.

use crate::format::colour;
use crate::format::text::board::Style;
use crate::narrate::legend::{last_cell, seat_letters, Kind, Legend};
use crate::narrate::race::{position_text, seat_name};
use crate::race::game::{Layout, RaceGame, OUT};
use crate::race::RaceState;

/// Cells in a row of the picture.
const ROW: usize = 10;
/// The most marks drawn on one cell; more show as `+`.
const MARKS: usize = 3;
/// Legend lines are wrapped at this width.
const WIDTH: usize = 78;

/// The ANSI colour of a mark.
fn mark_code(kind: Kind) -> &'static str {
    match kind {
        Kind::Up => "1;32",
        Kind::Down => "1;31",
        Kind::Wait => "1;33",
        Kind::Hit => "1;35",
        Kind::Safe => "1;36",
    }
}

fn paint(text: &str, code: &str, style: &Style) -> String {
    if style.color && !code.is_empty() {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Words wrapped to `WIDTH`, later lines indented by `indent` spaces.
fn wrap(text: &str, indent: usize) -> String {
    let mut out = String::new();
    let mut line = 0usize;
    for word in text.split(' ') {
        let n = word.chars().count();
        if line > indent && line + 1 + n > WIDTH {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            line = indent;
        } else if !out.is_empty() {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += n;
    }
    out
}

/// The track with its marks, the legend, and the pieces of `state` if
/// given (a track with no position shows the marks and the legend only).
pub fn track(game: &RaceGame, state: Option<&RaceState>, style: &Style) -> String {
    track_with(game, state, style, true)
}

/// The legend of a track's marks alone: a line for each mark, then the
/// rules of every cell and of the roll.
pub fn legend(game: &RaceGame, style: &Style) -> String {
    legend_lines(&Legend::of(game), style)
}

/// The legend's lines.
fn legend_lines(legend: &Legend, style: &Style) -> String {
    let mut text = String::new();
    let arrow = if style.unicode { "\u{2192}" } else { "->" };
    for e in &legend.entries {
        let mark = paint(&e.mark.to_string(), mark_code(e.kind), style);
        text.push_str(&format!("{mark} {}\n", wrap(&e.text(arrow), 2)));
    }
    for e in &legend.everywhere {
        text.push_str(&format!("{}\n", wrap(e, 2)));
    }
    for r in &legend.rolls {
        text.push_str(&format!("{}\n", wrap(&format!("rolling {r}"), 2)));
    }
    text
}

/// [`track`], with its legend or without it (a terminal shows the legend
/// once).
pub fn track_with(
    game: &RaceGame,
    state: Option<&RaceState>,
    style: &Style,
    with_legend: bool,
) -> String {
    let legend = Legend::of(game);
    let last = last_cell(game);
    let players = state.map_or(0, RaceState::players);
    let letters = seat_letters(game, players);
    let colours = colour::for_names(&game.seats);
    // The pieces on each drawn cell, as seat numbers; the rest for the
    // seats' lines.
    let mut on: Vec<Vec<usize>> = vec![Vec::new(); usize::from(last) + 1];
    if let Some(state) = state {
        for seat in 0..players {
            for &p in state.pieces(seat) {
                let on_loop = game.circuit.as_ref().is_none_or(|c| p <= c.cells);
                if p != OUT && p < game.cells && on_loop {
                    if let Some(cell) = on.get_mut(usize::from(game.rule_cell(seat, p))) {
                        cell.push(seat);
                    }
                } else if p == game.cells && game.circuit.is_none() && game.paths.is_none() {
                    if let Some(cell) = on.get_mut(usize::from(last)) {
                        cell.push(seat);
                    }
                }
            }
        }
    }
    let marks_width = legend.widest(last).min(MARKS);
    // A cell's name: its number, or on paths the name the paths give it.
    let name = |c: usize| match &game.paths {
        Some(paths) => paths.name(u16::try_from(c).unwrap_or(u16::MAX)).to_string(),
        None => c.to_string(),
    };
    let number_width = (1..=usize::from(last))
        .map(|c| name(c).len())
        .max()
        .unwrap_or(1);
    // A cell: its number, its marks in brackets apart from the number
    // (`10[01]`), a space; ten a row when that fits the width, else five.
    let marks_room = if marks_width > 0 { marks_width + 2 } else { 0 };
    let cell_width = number_width + marks_room + 1;
    let per_row = if cell_width * ROW <= WIDTH + 2 {
        ROW
    } else {
        ROW / 2
    };
    // The rows: the cells in order, `per_row` a row; on paths each seat's
    // path in rows of its own, its name before the first.
    // A serpentine is drawn in its rows, top row first (a 0 is a gap).
    let plan = crate::layout::plan(game);
    let serpentine =
        matches!(plan.layout, Layout::Serpentine(n) if cell_width * usize::from(n) <= WIDTH + 2);
    let rows: Vec<(String, Vec<usize>)> = match &game.paths {
        None if serpentine => (0..plan.height)
            .map(|y| {
                let mut row = vec![0; usize::from(plan.width)];
                for c in 1..=last {
                    let Some((x, _)) = plan.at(c).filter(|&(_, cy)| cy == y) else {
                        continue;
                    };
                    if let Some(slot) = row.get_mut(usize::from(x)) {
                        *slot = usize::from(c);
                    }
                }
                (String::new(), row)
            })
            .collect(),
        None => (1..=usize::from(last))
            .step_by(per_row)
            .map(|start| {
                let end = (start + per_row - 1).min(usize::from(last));
                (String::new(), (start..=end).collect())
            })
            .collect(),
        Some(paths) => {
            let seats: Vec<&str> = (0..paths.seats.len())
                .map(|seat| seat_name(game, seat))
                .collect();
            let width = seats.iter().map(|s| s.chars().count()).max().unwrap_or(0) + 2;
            let mut rows = Vec::new();
            for (seat, path) in paths.seats.iter().enumerate() {
                for (i, chunk) in path.chunks(per_row).enumerate() {
                    let head = match (i, seats.get(seat)) {
                        (0, Some(s)) => format!("{:<width$}", format!("{s}:")),
                        _ => " ".repeat(width),
                    };
                    rows.push((head, chunk.iter().map(|&c| usize::from(c)).collect()));
                }
            }
            rows
        }
    };
    let mut text = String::new();
    // Paths in a shape of their own are drawn in it, each cell once.
    let grid = match (&game.paths, plan.layout) {
        (Some(_), Layout::Cross | Layout::Lanes | Layout::Tables) => {
            paths_grid(game, &plan, &legend, &on, state, style)
        }
        _ => None,
    };
    let rows = if let Some(grid) = grid {
        text.push_str(&grid);
        Vec::new()
    } else {
        rows
    };
    for (head, cells) in &rows {
        let mut line = head.clone();
        // The pieces of the row, under their cells (a line only when some
        // piece stands in the row).
        let mut under = " ".repeat(head.chars().count());
        for &c in cells {
            if c == 0 {
                line.push_str(&" ".repeat(cell_width));
                under.push_str(&" ".repeat(cell_width));
                continue;
            }
            let cell = u16::try_from(c).unwrap_or(u16::MAX);
            line.push_str(&format!("{:>number_width$}", name(c)));
            let marks: Vec<_> = legend.at(cell).collect();
            if marks.is_empty() {
                line.push_str(&" ".repeat(marks_room));
            } else {
                line.push('[');
                for (i, m) in marks.iter().enumerate().take(marks_width) {
                    if i + 1 == marks_width && marks.len() > marks_width {
                        line.push('+');
                    } else {
                        line.push_str(&paint(&m.mark.to_string(), mark_code(m.kind), style));
                    }
                }
                line.push(']');
                line.push_str(&" ".repeat(marks_width.saturating_sub(marks.len())));
            }
            line.push(' ');
            let here = on.get(c).map_or(&[][..], Vec::as_slice);
            // Under the number's first digit.
            let mut used = number_width.saturating_sub(name(c).len());
            under.push_str(&" ".repeat(used));
            let room = cell_width - 1 - used;
            for (i, &seat) in here.iter().enumerate() {
                if i + 1 >= room && here.len() > i + 1 {
                    under.push('+');
                    used += 1;
                    break;
                }
                let letter = letters.get(seat).copied().unwrap_or('?').to_string();
                let code = colours
                    .get(seat)
                    .map(|k| format!("1;{};{}", k.ansi_bg, k.ansi_fg))
                    .unwrap_or_default();
                under.push_str(&paint(&letter, &code, style));
                used += 1;
            }
            under.push_str(&" ".repeat(cell_width - used));
        }
        text.push_str(line.trim_end());
        text.push('\n');
        if !under.trim().is_empty() {
            text.push_str(under.trim_end());
            text.push('\n');
        }
    }
    if with_legend {
        text.push_str(&legend_lines(&legend, style));
    }
    let Some(state) = state else {
        return text;
    };
    for seat in 0..players {
        text.push_str(&seat_line(game, state, seat, &letters, &colours, style));
        text.push('\n');
    }
    if state.is_over() {
        text.push_str(&format!(
            "the game is over   {}\n",
            position_text(game, state)
        ));
    } else {
        text.push_str(&format!(
            "{} to roll   {}\n",
            seat_name(game, state.to_roll()),
            position_text(game, state)
        ));
    }
    text
}

/// Characters each with the colour code it is painted in, line by line:
/// a picture put together out of order.
struct Canvas {
    lines: Vec<Vec<(char, String)>>,
}

impl Canvas {
    fn new(lines: usize, width: usize) -> Canvas {
        Canvas {
            lines: vec![vec![(' ', String::new()); width]; lines],
        }
    }

    /// `text` from column `col` of line `line`, cut at the edge.
    fn put(&mut self, line: usize, col: usize, text: &str, code: &str) {
        let Some(row) = self.lines.get_mut(line) else {
            return;
        };
        for (i, ch) in text.chars().enumerate() {
            if let Some(slot) = row.get_mut(col + i) {
                *slot = (ch, code.to_string());
            }
        }
    }

    /// The lines, painted, trailing blanks cut.
    fn render(&self, style: &Style) -> String {
        let mut out = String::new();
        for row in &self.lines {
            let mut line = String::new();
            let mut run = String::new();
            let mut code = "";
            for (ch, c) in row {
                if c != code && !run.is_empty() {
                    line.push_str(&paint(&run, code, style));
                    run.clear();
                }
                code = c;
                run.push(*ch);
            }
            line.push_str(&paint(&run, code, style));
            let line = line.trim_end();
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

/// The ANSI code of a seat's pieces (its letter on its colour).
fn piece_code(colours: &[colour::Colour], seat: usize) -> String {
    colours
        .get(seat)
        .map(|k| format!("1;{};{}", k.ansi_bg, k.ansi_fg))
        .unwrap_or_default()
}

/// The pieces on a cell in `room` characters: a letter each (`ww`); when
/// they don't fit, a letter and a count for each seat there (`w5`, `w2b1`);
/// when that doesn't fit either, as many letters as fit and `+`. Each
/// part with the seat it is of (`None`: the `+`).
fn pieces_text(here: &[usize], letters: &[char], room: usize) -> Vec<(String, Option<usize>)> {
    let letter = |seat: usize| letters.get(seat).copied().unwrap_or('?').to_string();
    if here.len() <= room {
        return here.iter().map(|&s| (letter(s), Some(s))).collect();
    }
    let mut seats: Vec<(usize, usize)> = Vec::new();
    for &s in here {
        match seats.iter_mut().find(|(t, _)| *t == s) {
            Some((_, n)) => *n += 1,
            None => seats.push((s, 1)),
        }
    }
    let counted: Vec<(String, Option<usize>)> = seats
        .iter()
        .map(|&(s, n)| (format!("{}{n}", letter(s)), Some(s)))
        .collect();
    if counted
        .iter()
        .map(|(t, _)| t.chars().count())
        .sum::<usize>()
        <= room
    {
        return counted;
    }
    let mut out: Vec<(String, Option<usize>)> = here
        .iter()
        .take(room.saturating_sub(1))
        .map(|&s| (letter(s), Some(s)))
        .collect();
    out.push(("+".to_string(), None));
    out
}

/// Paths drawn in their shape ([`crate::layout`]: a cross, lanes,
/// tables): every square of the plan two lines high, the cell's name on
/// the first line, its mark and the pieces on it on the second, each cell
/// once however many paths go through it. On a cross each home column's
/// names (and each start cell's) are in its seat's colour, the pieces out
/// in their seat's corner, the finished ones in the middle by the end of
/// their home column; in the other shapes each seat's pieces out and
/// finished are counted beside the board, on the row where its path
/// begins (`W bar 1, off 3`: `bar` where the rule file starts every piece
/// on the track, so that a piece out was sent off it). None when the
/// shape is wider than the text.
fn paths_grid(
    game: &RaceGame,
    plan: &crate::layout::Plan,
    legend: &Legend,
    on: &[Vec<usize>],
    state: Option<&RaceState>,
    style: &Style,
) -> Option<String> {
    let paths = game.paths.as_ref()?;
    let last = last_cell(game);
    let name_width = (1..=last).map(|c| paths.name(c).chars().count()).max()?;
    let w = name_width + 1;
    let n = usize::from(plan.width);
    // Beside the board (but a cross): each seat's pieces out and finished.
    let beside = if plan.layout == Layout::Cross { 0 } else { 24 };
    if w * n + beside > WIDTH + 1 {
        return None;
    }
    let colours = colour::for_names(&game.seats);
    let players = state.map_or(0, RaceState::players);
    let letters = seat_letters(game, players.max(paths.seats.len()));
    // A seat's colour as the colour of text (the foreground of its
    // pieces' background).
    let ink = |seat: usize| {
        colours
            .get(seat)
            .and_then(|k| k.ansi_bg.parse::<u8>().ok())
            .and_then(|bg| bg.checked_sub(10))
            .map(|fg| format!("1;{fg}"))
            .unwrap_or_default()
    };
    let mut canvas = Canvas::new(2 * usize::from(plan.height), n * w + beside);
    let at = |(x, y): crate::layout::Spot| (2 * usize::from(y), usize::from(x) * w);
    let starts: Vec<u16> = paths
        .seats
        .iter()
        .map(|p| p.first().copied().unwrap_or(0))
        .collect();
    for c in 1..=last {
        let Some(spot) = plan.at(c) else { continue };
        let (line, col) = at(spot);
        let name = paths.name(c);
        let owner = plan
            .homes
            .iter()
            .position(|h| h.contains(&spot))
            .or_else(|| starts.iter().position(|&s| s == c));
        let code = owner.map(ink).unwrap_or_default();
        let pad = name_width - name.chars().count();
        canvas.put(line, col + pad, name, &code);
        // The second line: the cell's mark (`+` for more than one), then
        // the pieces on it (`+` for more than fit).
        let marks: Vec<_> = legend.at(c).collect();
        let mut col2 = col;
        if let Some(m) = marks.first() {
            let (mark, code) = if marks.len() > 1 {
                ("+".to_string(), String::new())
            } else {
                (m.mark.to_string(), mark_code(m.kind).to_string())
            };
            canvas.put(line + 1, col2, &mark, &code);
            col2 += 1;
        }
        let here = on.get(usize::from(c)).map_or(&[][..], Vec::as_slice);
        let room = col + name_width - col2;
        for (text, seat) in pieces_text(here, &letters, room) {
            let code = seat.map(|s| piece_code(&colours, s)).unwrap_or_default();
            canvas.put(line + 1, col2, &text, &code);
            col2 += text.chars().count();
        }
    }
    if let (Some(state), false) = (state, plan.layout == Layout::Cross) {
        // Each seat's count beside the board, on the row its path begins
        // in (a second seat there on the row's second line).
        let mut used: Vec<u16> = Vec::new();
        for seat in 0..players {
            let Some(y) = starts.get(seat).and_then(|&c| plan.at(c)).map(|s| s.1) else {
                continue;
            };
            let before = used.iter().filter(|&&r| r == y).count();
            used.push(y);
            if before > 1 {
                continue;
            }
            let pieces = state.pieces(seat);
            let out = pieces.iter().filter(|&&p| p == OUT).count();
            let done = pieces.iter().filter(|&&p| p >= game.cells).count();
            let place = match crate::narrate::race::waiting_place(game, seat) {
                "on the bar" => "bar",
                _ => "out",
            };
            let letter = letters.get(seat).copied().unwrap_or('?').to_string();
            let line = 2 * usize::from(y) + before;
            canvas.put(line, n * w + 1, &letter, &piece_code(&colours, seat));
            canvas.put(line, n * w + 2, &format!(" {place} {out}, off {done}"), "");
        }
    }
    if let Some(centre) = plan.centre.filter(|_| w >= 4) {
        let (line, col) = at(centre);
        canvas.put(line, col + (w - 4) / 2, "home", "");
    }
    if let Some(state) = state {
        for seat in 0..players {
            let code = piece_code(&colours, seat);
            let letter = letters.get(seat).copied().unwrap_or('?').to_string();
            let pieces = state.pieces(seat);
            let out = pieces.iter().filter(|&&p| p == OUT).count();
            let done = pieces.iter().filter(|&&p| p >= game.cells).count();
            // Out: in the middle of the seat's corner, on the second line
            // of a square.
            if let Some(&(x, y)) = plan.yards.get(seat) {
                let arm = usize::from(plan.arm);
                let (line, col) = at((x, y));
                let middle = col + (arm * w).saturating_sub(out) / 2;
                for i in 0..out {
                    canvas.put(line + arm / 2 * 2 + 1, middle + i, &letter, &code);
                }
            }
            // Finished: in the middle, by the end of the home column.
            let (Some(centre), Some(&end)) =
                (plan.centre, plan.homes.get(seat).and_then(|h| h.last()))
            else {
                continue;
            };
            let toward = |a: u16, b: u16| match b.cmp(&a) {
                std::cmp::Ordering::Less if plan.middle == 3 => a - 1,
                std::cmp::Ordering::Greater if plan.middle == 3 => a + 1,
                _ => a,
            };
            let square = (toward(centre.0, end.0), toward(centre.1, end.1));
            let (line, col) = at(square);
            let taken = canvas
                .lines
                .get(line + 1)
                .and_then(|row| row.get(col..))
                .map_or(0, |row| {
                    row.iter().take(w).filter(|(ch, _)| *ch != ' ').count()
                });
            for i in 0..done.min(name_width.saturating_sub(taken)) {
                canvas.put(line + 1, col + taken + i, &letter, &code);
            }
        }
    }
    Some(canvas.render(style))
}

/// A seat's line: its letter and name, pieces out and finished, home
/// cells, start cell, turns to miss, held pieces.
fn seat_line(
    game: &RaceGame,
    state: &RaceState,
    seat: usize,
    letters: &[char],
    colours: &[colour::Colour],
    style: &Style,
) -> String {
    let (mut out, mut done) = (0, 0);
    let mut home = Vec::new();
    let mut held = Vec::new();
    // Kept home cells are where pieces stay: the last one is a home cell too.
    let kept = game.circuit.as_ref().is_some_and(|c| c.kept);
    for (i, &p) in state.pieces(seat).iter().enumerate() {
        if p == OUT {
            out += 1;
        } else if p >= game.cells && !kept {
            done += 1;
        } else if game.circuit.as_ref().is_some_and(|c| p > c.cells) {
            home.push(game.label(seat, p));
        }
        if state.is_held(seat, i) && p != OUT && p < game.cells {
            held.push(game.label(seat, p));
        }
    }
    let letter = letters.get(seat).copied().unwrap_or('?').to_string();
    let code = colours
        .get(seat)
        .map(|k| format!("1;{};{}", k.ansi_bg, k.ansi_fg))
        .unwrap_or_default();
    let mut s = format!(
        "{} {}: {out} out, {}",
        paint(&letter, &code, style),
        seat_name(game, seat),
        if kept {
            format!("{} home", home.len())
        } else {
            format!("{done} finished")
        }
    );
    if !home.is_empty() {
        s.push_str(&format!(", home cells {}", home.join(" ")));
    }
    if let Some(start) = game.circuit.as_ref().and_then(|c| c.starts.get(seat)) {
        s.push_str(&format!(", starts on {start}"));
    }
    if !held.is_empty() {
        s.push_str(&format!(", held on {}", held.join(" ")));
    }
    if state.owed(seat) > 0 {
        s.push_str(&format!(
            ", misses {}",
            crate::words::count(state.owed(seat).into(), "turn")
        ));
    }
    if !state.is_over() && state.to_roll() == seat {
        s.push_str(", to roll");
    }
    s
}
