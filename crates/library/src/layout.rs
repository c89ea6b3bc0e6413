//! Where each cell of a race track is drawn: the grid position of every
//! cell for the shape the rule file asks for (`layout ...`,
//! [`Layout`]), computed once here so that the SVG picture (and with it
//! the web page and the rules page) and the terminal draw from the same
//! coordinates. Positions are whole grid squares, `(x, y)` from the top
//! left; a picture scales them.
//!
//! - rows (the default): ten cells a row in reading order;
//! - serpentine N: rows of N from the bottom left, back and forth;
//! - spiral: round the outside (along the bottom first) and in, the last
//!   cell in the middle;
//! - cross: a circuit's loop round a cross of four arms three cells wide,
//!   each seat's home cells up the middle of an arm, its pieces out
//!   waiting in the corner beside its start cell; paths round a loop they
//!   share the same way, each seat's home column (its cells after the
//!   loop) up the arm whose tip its path leaves the loop at;
//! - lanes: the cells paths share in a middle row in the first path's
//!   order, each seat's own runs beside it (the first seat's above, the
//!   next below...), turned back where they join the shared row;
//! - tables: the cells of the paths in two rows, the first half of the
//!   first seat's path along the top from the right, the second half back
//!   along the bottom, with a gap (the bar) in the middle of each row.

use crate::race::game::{CellEffect, Layout, RaceGame};
use crate::vocab::race::{Paths, RaceSettings};

/// Cells a row of the default layout.
pub const ROW: u16 = 10;

/// A grid position: column and row from the top left.
pub type Spot = (u16, u16);

/// The drawing plan of a track.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The shape.
    pub layout: Layout,
    /// Columns of the grid.
    pub width: u16,
    /// Rows of the grid.
    pub height: u16,
    /// Where each drawn cell is: `cells[c - 1]` is cell c, for c from 1 to
    /// the last cell drawn ([`last_cell`]).
    pub cells: Vec<Spot>,
    /// On a cross, each seat's home cells, the first one nearest its arm's
    /// tip (in seat order, as the loop's start cells); empty otherwise. On
    /// paths they are cells of the track too (its home column), drawn
    /// where `cells` says.
    pub homes: Vec<Vec<Spot>>,
    /// On a cross, the top left square of each seat's corner, where its
    /// pieces wait out; `arm` squares a side.
    pub yards: Vec<Spot>,
    /// On a cross, the middle square; its arms are `arm` long.
    pub centre: Option<Spot>,
    /// On a cross, the side of the middle drawn as one square, in grid
    /// squares: 3 when the last home cells (the finishes) are its
    /// triangles (a loop with no corner cells, home cells not kept), else
    /// 1.
    pub middle: u16,
    /// The length of a cross's arms (0 for other shapes).
    pub arm: u16,
}

impl Plan {
    /// Where cell `c` (from 1) is drawn.
    pub fn at(&self, c: u16) -> Option<Spot> {
        self.cells.get(usize::from(c.checked_sub(1)?)).copied()
    }
}

/// The last cell of the track drawn: the finish of a plain track, the last
/// cell of the loop of a circuit, the last named cell on paths.
pub fn last_cell(s: &RaceSettings) -> u16 {
    if let Some(paths) = &s.paths {
        return u16::try_from(paths.names.len()).unwrap_or(u16::MAX);
    }
    s.circuit.as_ref().map_or(s.cells, |c| c.cells)
}

/// The plan of a game's track, in the shape its rule file says (the
/// checker made sure the shape fits; a shape that doesn't falls back to
/// rows).
pub fn plan(s: &RaceSettings) -> Plan {
    let last = last_cell(s);
    let shaped = match s.layout {
        Layout::Rows => None,
        Layout::Serpentine(n) => serpentine(last, n),
        Layout::Spiral => Some(spiral(last)),
        Layout::Cross => cross(s),
        Layout::Lanes => lanes(s),
        Layout::Tables => tables(s),
    };
    shaped.unwrap_or_else(|| rows(last))
}

/// A plan of cells only, its grid the cells' extent.
fn of_cells(layout: Layout, cells: Vec<Spot>) -> Plan {
    let width = cells.iter().map(|c| c.0 + 1).max().unwrap_or(1);
    let height = cells.iter().map(|c| c.1 + 1).max().unwrap_or(1);
    Plan {
        layout,
        width,
        height,
        cells,
        homes: Vec::new(),
        yards: Vec::new(),
        centre: None,
        middle: 0,
        arm: 0,
    }
}

/// Ten a row in reading order.
fn rows(last: u16) -> Plan {
    let cells = (0..last).map(|i| (i % ROW, i / ROW)).collect();
    let mut p = of_cells(Layout::Rows, cells);
    p.width = ROW;
    p
}

/// Rows of `n` from the bottom left, back and forth.
fn serpentine(last: u16, n: u16) -> Option<Plan> {
    if n < 2 {
        return None;
    }
    let rows = last.div_ceil(n);
    let cells = (0..last)
        .map(|i| {
            let (r, k) = (i / n, i % n);
            let x = if r % 2 == 0 { k } else { n - 1 - k };
            (x, rows - 1 - r)
        })
        .collect();
    let mut p = of_cells(Layout::Serpentine(n), cells);
    p.width = n;
    p.height = rows;
    Some(p)
}

/// Round the outside of a near-square grid and in: along the bottom from
/// the left, up the right, back along the top, down the left, and so on;
/// the last cell is the spiral's last square, in the middle (the first
/// squares of the outer ring stay empty when the cells don't fill it).
fn spiral(last: u16) -> Plan {
    let n = u32::from(last.max(1));
    let mut w = 1u32;
    while w * w < n {
        w += 1;
    }
    let h = n.div_ceil(w);
    let order = ring_order(w, h);
    let skip = order.len().saturating_sub(usize::from(last));
    let cells: Vec<Spot> = order.into_iter().skip(skip).collect();
    let mut p = of_cells(Layout::Spiral, cells);
    p.width = w as u16;
    p.height = h as u16;
    p
}

/// The squares of a `w` x `h` grid in spiral order, outside in, starting at
/// the bottom left going right.
fn ring_order(w: u32, h: u32) -> Vec<Spot> {
    let mut out = Vec::new();
    let (mut left, mut right, mut top, mut bottom) =
        (0i64, i64::from(w) - 1, 0i64, i64::from(h) - 1);
    let spot = |x: i64, y: i64| (x as u16, y as u16);
    while left <= right && top <= bottom {
        for x in left..=right {
            out.push(spot(x, bottom));
        }
        for y in (top..bottom).rev() {
            out.push(spot(right, y));
        }
        if top < bottom {
            for x in (left..right).rev() {
                out.push(spot(x, top));
            }
        }
        if left < right {
            for y in top + 1..bottom {
                out.push(spot(left, y));
            }
        }
        left += 1;
        right -= 1;
        top += 1;
        bottom -= 1;
    }
    out
}

/// A quarter turn clockwise of square `(x, y)` in a grid of side `n`.
fn turn((x, y): Spot, n: u16) -> Spot {
    (n - 1 - y, x)
}

/// `times` quarter turns.
fn turned(s: Spot, n: u16, times: u16) -> Spot {
    (0..times % 4).fold(s, |s, _| turn(s, n))
}

/// The loop round a cross: a grid of side `2 * arm + 3`, the middle three
/// squares wide. The first start cell is the corner of the left arm's tip
/// (its top side); the loop runs clockwise from it, along the arm to the
/// middle, up the top arm, round its tip, and so on. Each seat's home
/// cells run from the tip of the arm its loop ends at into the middle; its
/// corner is the one beside its start cell.
fn cross(s: &RaceSettings) -> Option<Plan> {
    if let Some(paths) = &s.paths {
        return path_cross(paths);
    }
    let circuit = s.circuit.as_ref()?;
    let arm = Layout::cross_arm(circuit.cells)?;
    let n = 2 * arm + 3;
    let quarter = circuit.cells / 4;
    let first = first_quarter(arm, quarter);
    let start = circuit.starts.first().copied().unwrap_or(1);
    let mut cells = vec![(0, 0); usize::from(circuit.cells)];
    for k in 0..4u16 {
        for (j, &sq) in first.iter().enumerate() {
            let c = (start - 1 + k * quarter + j as u16) % circuit.cells;
            if let Some(slot) = cells.get_mut(usize::from(c)) {
                *slot = turned(sq, n, k);
            }
        }
    }
    let mut homes = Vec::new();
    let mut yards = Vec::new();
    for &st in &circuit.starts {
        let k = (st + circuit.cells - start) % circuit.cells / quarter;
        homes.push(
            (1..=circuit.home)
                .map(|h| turned((h, arm + 1), n, k))
                .collect(),
        );
        yards.push(yard(n, arm, k));
    }
    Some(Plan {
        layout: Layout::Cross,
        width: n,
        height: n,
        cells,
        homes,
        yards,
        centre: Some((arm + 1, arm + 1)),
        middle: if quarter % 2 == 1 && !circuit.kept {
            3
        } else {
            1
        },
        arm,
    })
}

/// The squares of the first quarter of a cross's loop, from the cell
/// after the left arm's tip (x is the column, y the row): along the top
/// side of the left arm, round the corner (a cell of its own when the
/// quarter is even), up the left side of the top arm to its tip.
fn first_quarter(arm: u16, quarter: u16) -> Vec<Spot> {
    let mut first: Vec<Spot> = (0..arm).map(|x| (x, arm)).collect();
    if quarter.is_multiple_of(2) {
        first.push((arm, arm));
    }
    first.extend((0..arm).rev().map(|y| (arm, y)));
    first.push((arm + 1, 0));
    first
}

/// The top left square of the corner `k` quarter turns from the top left
/// one, in a cross of side `n` with arms `arm` long.
fn yard(n: u16, arm: u16, k: u16) -> Spot {
    let a = turned((0, 0), n, k);
    let b = turned((arm - 1, arm - 1), n, k);
    (a.0.min(b.0), a.1.min(b.1))
}

/// Paths round a cross ([`crate::vocab::cross::path_cross`]): the loop as
/// a circuit's, the first seat's last loop cell the left arm's tip; each
/// seat's home column, cells of the track here, up the middle of its arm
/// from the tip its loop ends at; its corner the one before that arm's
/// tip, beside the cells where the loop comes down the arm.
fn path_cross(paths: &Paths) -> Option<Plan> {
    let shape = crate::vocab::cross::path_cross(paths).ok()?;
    let cells_in_loop = shape.ring.len() as u16;
    let arm = shape.arm;
    let n = 2 * arm + 3;
    let quarter = cells_in_loop / 4;
    let first = first_quarter(arm, quarter);
    let mut cells = vec![(0, 0); paths.names.len()];
    for (i, &c) in shape.ring.iter().enumerate() {
        let i = i as u16;
        let square = first.get(usize::from(i % quarter)).copied()?;
        *cells.get_mut(usize::from(c.checked_sub(1)?))? = turned(square, n, i / quarter);
    }
    let mut homes = Vec::new();
    let mut yards = Vec::new();
    for (home, &k) in shape.homes.iter().zip(&shape.arms) {
        let squares: Vec<Spot> = (1..=home.len() as u16)
            .map(|h| turned((h, arm + 1), n, k))
            .collect();
        for (&c, &sq) in home.iter().zip(&squares) {
            *cells.get_mut(usize::from(c.checked_sub(1)?))? = sq;
        }
        homes.push(squares);
        yards.push(yard(n, arm, k));
    }
    Some(Plan {
        layout: Layout::Cross,
        width: n,
        height: n,
        cells,
        homes,
        yards,
        centre: Some((arm + 1, arm + 1)),
        middle: if quarter % 2 == 1 { 3 } else { 1 },
        arm,
    })
}

/// The lanes of paths: the cells two paths share in a middle row, in the
/// first path's order; each run of a seat's own cells in a row beside it,
/// turned back where it meets the shared row (a run before the shared
/// cells ends beside the first of them, a run after starts beside the
/// last), in the nearest free row on its seat's side.
fn lanes(s: &RaceSettings) -> Option<Plan> {
    let paths = s.paths.as_ref()?;
    let count = paths.names.len();
    let mut seen = vec![0u8; count + 1];
    for path in &paths.seats {
        let mut mine = vec![false; count + 1];
        for &c in path {
            if let Some(m) = mine.get_mut(usize::from(c)) {
                if !*m {
                    *m = true;
                    if let Some(n) = seen.get_mut(usize::from(c)) {
                        *n = n.saturating_add(1);
                    }
                }
            }
        }
    }
    let shared = |c: u16| seen.get(usize::from(c)).is_some_and(|&n| n > 1);
    // Columns (may go below 0 until shifted) and rows (0 the middle).
    let mut at: Vec<Option<(i32, i32)>> = vec![None; count + 1];
    let mut col = 0i32;
    for &c in paths.seats.first()? {
        if shared(c) && at[usize::from(c)].is_none() {
            at[usize::from(c)] = Some((col, 0));
            col += 1;
        }
    }
    for path in &paths.seats {
        for &c in path {
            if shared(c) && at[usize::from(c)].is_none() {
                at[usize::from(c)] = Some((col, 0));
                col += 1;
            }
        }
    }
    for (seat, path) in paths.seats.iter().enumerate() {
        let side = if seat % 2 == 0 { -1 } else { 1 };
        let mut i = 0;
        while i < path.len() {
            if shared(path[i]) || at[usize::from(path[i])].is_some() {
                i += 1;
                continue;
            }
            let begin = i;
            while i < path.len() && !shared(path[i]) && at[usize::from(path[i])].is_none() {
                i += 1;
            }
            let run = &path[begin..i];
            let before = begin.checked_sub(1).and_then(|b| at[usize::from(path[b])]);
            let after = path.get(i).and_then(|&c| at[usize::from(c)]);
            // Columns of the run's cells, in its order.
            let cols: Vec<i32> = match (before, after) {
                (Some((b, _)), _) => (0..run.len() as i32).map(|j| b - j).collect(),
                (None, Some((a, _))) => (0..run.len() as i32)
                    .map(|j| a + run.len() as i32 - 1 - j)
                    .collect(),
                (None, None) => (0..run.len() as i32).collect(),
            };
            let mut row = side;
            while cols
                .iter()
                .any(|&x| at.iter().flatten().any(|&(cx, cy)| cx == x && cy == row))
            {
                row += side;
            }
            for (&c, &x) in run.iter().zip(&cols) {
                at[usize::from(c)] = Some((x, row));
            }
        }
    }
    let placed: Vec<(i32, i32)> = at.iter().skip(1).map(|p| p.unwrap_or((0, 0))).collect();
    let min_x = placed.iter().map(|p| p.0).min()?;
    let min_y = placed.iter().map(|p| p.1).min()?;
    let cells = placed
        .iter()
        .map(|&(x, y)| ((x - min_x) as u16, (y - min_y) as u16))
        .collect();
    Some(of_cells(Layout::Lanes, cells))
}

/// Two rows: the first half of the first seat's path along the top from
/// the right, the rest back along the bottom from the left (cells on no
/// path of the first seat after them), with the bar, an empty column, in
/// the middle of each row when the half is even.
fn tables(s: &RaceSettings) -> Option<Plan> {
    let paths = s.paths.as_ref()?;
    let count = paths.names.len();
    let mut order: Vec<u16> = Vec::new();
    let mut placed = vec![false; count + 1];
    let all = paths
        .seats
        .first()
        .into_iter()
        .flatten()
        .copied()
        .chain(1..=count as u16);
    for c in all {
        if let Some(p) = placed.get_mut(usize::from(c)) {
            if !*p {
                *p = true;
                order.push(c);
            }
        }
    }
    let half = order.len().div_ceil(2);
    if half < 2 {
        return None;
    }
    let bar = u16::from(half.is_multiple_of(2));
    let column = |i: usize| {
        let i = i as u16;
        if bar == 1 && i >= half as u16 / 2 {
            i + 1
        } else {
            i
        }
    };
    let width = half as u16 + bar;
    let mut cells = vec![(0, 0); count];
    for (i, &c) in order.iter().enumerate() {
        let spot = if i < half {
            (width - 1 - column(i), 0)
        } else {
            (column(i - half), 1)
        };
        if let Some(slot) = cells.get_mut(usize::from(c) - 1) {
            *slot = spot;
        }
    }
    let mut p = of_cells(Layout::Tables, cells);
    p.width = width;
    p.height = 2;
    Some(p)
}

/// The jumps of a plain track's cell rules, each from a cell to the cell a
/// rule sends the piece to: `go to N`, `forward N`, `back N` (of the first
/// rule there that moves the piece, by its first moving effect; `out` and
/// `repeat move` draw no jump); on a loop or on
/// paths `go to` only (where `forward` goes depends on the seat). Up the
/// track is a ladder, down a snake.
pub fn jumps(game: &RaceGame) -> Vec<(u16, u16)> {
    let last = last_cell(game);
    let plain = game.circuit.is_none() && game.paths.is_none();
    let mut out = Vec::new();
    for cell in 1..=last {
        for &id in game.landing().at(cell) {
            let Some(rule) = game.rules().get(usize::from(id)) else {
                continue;
            };
            let to = rule.effects.iter().find_map(|e| match *e {
                CellEffect::GoTo(to) => Some(Some(to)),
                CellEffect::Forward(k) if plain => Some(cell.checked_add(k)),
                CellEffect::Back(k) if plain => Some(cell.checked_sub(k)),
                e if e.moves() => Some(None),
                _ => None,
            });
            // The first rule that moves the piece is its jump.
            let Some(to) = to else { continue };
            if let Some(to) = to.filter(|&t| t != cell && (1..=last).contains(&t)) {
                if !out.contains(&(cell, to)) {
                    out.push((cell, to));
                }
            }
            break;
        }
    }
    out
}
