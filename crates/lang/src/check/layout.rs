//! `layout ...`: whether the shape a race file asks its pictures to draw
//! fits its track (a serpentine or a spiral for a plain track, a cross for
//! a loop with home cells or for paths round a loop they share, lanes and
//! tables for paths). The layout changes
//! no rule; a shape that can't draw the track is an error all the same, so
//! that a picture never silently falls back to another shape.

use super::merge::Merged;
use crate::ast::LayoutDecl;
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;
use crate::vocab::cross::NotCross;
use crate::vocab::race::{Circuit, Layout, Paths};

/// The track as the layout sees it: what `check::race` found.
pub struct Track<'a> {
    /// The cells of a plain track (the finish included), or of a loop.
    pub cells: Option<u16>,
    /// The loop, when the track is one.
    pub circuit: Option<&'a Circuit>,
    /// The paths, when the track is described by them.
    pub paths: Option<&'a Paths>,
    /// The seats' names, in seat order (the paths' order).
    pub seats: &'a [String],
}

/// The checked layout: the default when the file says none, or when the
/// one it says doesn't fit (with an error).
pub fn check_layout(merged: &Merged, track: &Track<'_>, diags: &mut Vec<Diagnostic>) -> Layout {
    shape(merged, track, diags).unwrap_or_default()
}

/// The layout, or None after an error.
fn shape(merged: &Merged, track: &Track<'_>, diags: &mut Vec<Diagnostic>) -> Option<Layout> {
    let (decl, span) = merged.layout?;
    let here = merged.track.map(|t| (t.span, "the track"));
    Some(match decl {
        LayoutDecl::Rows => Layout::Rows,
        LayoutDecl::Serpentine(n) => {
            plain(track, span, "a serpentine", here, diags)?;
            return serpentine(n.node, n.span, track.cells?, diags);
        }
        LayoutDecl::Spiral => {
            plain(track, span, "a spiral", here, diags)?;
            Layout::Spiral
        }
        LayoutDecl::Cross => return cross(track, span, merged, diags),
        LayoutDecl::Lanes | LayoutDecl::Tables => {
            let Some(paths) = track.paths else {
                let word = if decl == LayoutDecl::Lanes {
                    "lanes"
                } else {
                    "tables"
                };
                let mut d = Diagnostic::new(
                    Code::LayoutShape,
                    format!("`layout {word}` lays out the paths of seats, and this track has none"),
                )
                .primary(span, "needs `path` statements")
                .help(format!(
                    "{word} draw a track written as paths (`path white: a1-a4 m1-m8 a5-a6`); draw a numbered track as `layout serpentine 10` or `layout spiral`, a loop as `layout cross`"
                ));
                if let Some((at, what)) = here {
                    d = d.secondary(at, format!("{what}: no paths"));
                }
                diags.push(d);
                return None;
            };
            if decl == LayoutDecl::Lanes {
                Layout::Lanes
            } else {
                let count = paths.names.len();
                if count % 2 == 1 || count < 4 {
                    diags.push(
                        Diagnostic::new(
                            Code::LayoutShape,
                            format!("`layout tables` lays the cells out in two rows of one length, and the paths have {count} cells"),
                        )
                        .primary(span, "two equal rows needed")
                        .help("tables draw an even number of cells, at least 4 (24 points: two rows of 12); draw other paths as `layout lanes`"),
                    );
                    return None;
                }
                Layout::Tables
            }
        }
    })
}

/// A serpentine or a spiral draws a plain numbered track: not a loop, not
/// paths. `Some(())` when the track is one (or unknown after an error).
fn plain(
    track: &Track<'_>,
    span: Span,
    what: &str,
    here: Option<(Span, &str)>,
    diags: &mut Vec<Diagnostic>,
) -> Option<()> {
    let (is, instead) = if track.circuit.is_some() {
        ("a loop", "draw a loop with home cells as `layout cross`")
    } else if track.paths.is_some() {
        (
            "paths",
            "draw paths as `layout lanes` (a shared middle row) or `layout tables` (two rows)",
        )
    } else {
        return Some(());
    };
    let mut d = Diagnostic::new(
        Code::LayoutShape,
        format!("{what} lays out a numbered track from its first cell to its last, and this track is {is}"),
    )
    .primary(span, format!("{what} can't draw {is}"))
    .help(instead);
    if let Some((at, name)) = here {
        d = d.secondary(at, format!("{name}: {is}"));
    }
    diags.push(d);
    None
}

/// `serpentine N` on a track of `cells` cells: at least 2 columns, at most
/// the cells; a last row less than half full is a warning naming widths
/// that fill the rows better.
fn serpentine(n: u32, at: Span, cells: u16, diags: &mut Vec<Diagnostic>) -> Option<Layout> {
    if n < 2 || n > u32::from(cells) {
        diags.push(
            Diagnostic::new(
                Code::LayoutShape,
                format!(
                    "a serpentine of {} can't draw a track of {cells} cells",
                    crate::words::count(u64::from(n), "column")
                ),
            )
            .primary(at, format!("from 2 to {cells}"))
            .help(format!(
                "a serpentine runs back and forth in rows of N cells, 2 to the track's {cells}: such as `layout serpentine {}`",
                better(cells, 10).first().copied().unwrap_or(cells)
            )),
        );
        return None;
    }
    let width = n as u16;
    let left = cells % width;
    // A finish alone past full rows (a track whose last cell is "off the
    // board") reads well: the rows are the board.
    let finish_alone = left == 1 && cells > width;
    if left != 0 && 2 * left < width && !finish_alone {
        let widths = better(cells, width);
        let such = widths
            .iter()
            .map(|w| format!("`layout serpentine {w}`"))
            .collect::<Vec<_>>()
            .join(" or ");
        diags.push(
            Diagnostic::new(
                Code::LayoutUneven,
                format!(
                    "a serpentine of {width} columns leaves {left} of the track's {cells} cells alone in its last row"
                ),
            )
            .primary(at, format!("{cells} cells don't share out in rows of {width}"))
            .help(format!(
                "rows of a width that divides {cells}, or leaves a last row at least half full, look like a board: such as {such}"
            )),
        );
    }
    Some(Layout::Serpentine(width))
}

/// Up to two widths near `width` (from half to twice it) that divide
/// `cells`, else the nearest widths whose last row is at least half full.
fn better(cells: u16, width: u16) -> Vec<u16> {
    let near = |w: &u16| (i32::from(*w) - i32::from(width)).abs();
    let low = (width / 2).max(2);
    let high = width.saturating_mul(2).min(cells);
    let mut fits: Vec<u16> = (low..=high).filter(|w| cells.is_multiple_of(*w)).collect();
    if fits.is_empty() {
        fits = (low..=high)
            .filter(|w| cells.is_multiple_of(*w) || 2 * (cells % w) >= *w)
            .collect();
    }
    fits.sort_by_key(near);
    fits.truncate(2);
    fits
}

/// `cross`: a loop of a multiple of 4 cells (at least 12), at most four
/// start cells, each on an arm of its own, and home cells that fit up the
/// middle of an arm.
fn cross(
    track: &Track<'_>,
    span: Span,
    merged: &Merged,
    diags: &mut Vec<Diagnostic>,
) -> Option<Layout> {
    if let Some(paths) = track.paths {
        return path_cross(paths, track.seats, span, merged, diags);
    }
    let Some(circuit) = track.circuit else {
        if track.cells.is_none() && track.paths.is_none() {
            return None;
        }
        let mut d = Diagnostic::new(
            Code::LayoutShape,
            "`layout cross` draws a loop with home cells, and this track is no loop",
        )
        .primary(span, "needs `track N loop starts ... home H`")
        .help("a cross draws a circuit such as `track 52 loop starts 1 14 27 40 home 6`; draw a numbered track as `layout serpentine 10` or `layout spiral`, paths as `layout lanes`");
        if let Some(t) = merged.track {
            d = d.secondary(t.span, "no `loop` here");
        }
        diags.push(d);
        return None;
    };
    let at = merged.circuit.as_ref().map_or(span, |c| c.cells.span);
    let Some(arm) = Layout::cross_arm(circuit.cells) else {
        diags.push(
            Diagnostic::new(
                Code::LayoutShape,
                format!(
                    "a cross has four arms of one length, and a loop of {} cells doesn't share out among them",
                    circuit.cells
                ),
            )
            .primary(span, "four equal arms needed")
            .secondary(at, format!("{} cells", circuit.cells))
            .help("a cross draws a loop of a multiple of 4 cells, at least 12: 52 cells make arms of 6, 40 cells arms of 4"),
        );
        return None;
    };
    let quarter = circuit.cells / 4;
    let first = circuit.starts.first().copied().unwrap_or(1);
    let mut arms: Vec<Option<usize>> = vec![None; 4];
    for (seat, &s) in circuit.starts.iter().enumerate() {
        let k = usize::from((s + circuit.cells - first) % circuit.cells / quarter);
        if let Some(slot) = arms.get_mut(k) {
            if let Some(other) = *slot {
                let other_cell = circuit.starts.get(other).copied().unwrap_or(first);
                diags.push(
                    Diagnostic::new(
                        Code::LayoutShape,
                        format!(
                            "the start cells {other_cell} and {s} are on one arm of the cross"
                        ),
                    )
                    .primary(span, "one arm per seat")
                    .secondary(at, format!("a quarter of the loop: {quarter} cells"))
                    .help(format!(
                        "a cross gives each seat an arm, its start cells a quarter of the loop ({quarter} cells) apart, such as `starts {}`",
                        (0..circuit.starts.len().min(4))
                            .map(|i| (first - 1 + i as u16 * quarter) % circuit.cells + 1)
                            .map(|c| c.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    )),
                );
                return None;
            }
            *slot = Some(seat);
        }
    }
    if circuit.home > arm {
        let home_at = merged.circuit.as_ref().map_or(span, |c| c.home.span);
        diags.push(
            Diagnostic::new(
                Code::LayoutShape,
                format!(
                    "{} home cells don't fit up an arm of the cross, {arm} cells long",
                    circuit.home
                ),
            )
            .primary(span, format!("arms of {arm} cells"))
            .secondary(home_at, format!("{} home cells", circuit.home))
            .help(format!(
                "a loop of {} cells makes arms of {arm}: at most `home {arm}`, or a longer loop",
                circuit.cells
            )),
        );
        return None;
    }
    Some(Layout::Cross)
}

/// `cross` on paths: they run round one loop they share, each entering it
/// at its own cell and leaving it up a home column of its own, the home
/// columns a quarter of the loop apart, each short enough for its arm
/// ([`crate::vocab::cross::path_cross`]).
fn path_cross(
    paths: &Paths,
    seats: &[String],
    span: Span,
    merged: &Merged,
    diags: &mut Vec<Diagnostic>,
) -> Option<Layout> {
    let Err(why) = crate::vocab::cross::path_cross(paths) else {
        return Some(Layout::Cross);
    };
    let name = |seat: usize| seats.get(seat).map_or("?", String::as_str);
    let cell = |c: u16| paths.name(c).to_string();
    // The `path` statement of a seat.
    let path_of = |seat: usize| {
        merged
            .paths
            .iter()
            .find(|d| d.seat.node == name(seat))
            .map(|d| {
                d.seat
                    .span
                    .to(d.cells.last().map_or(d.seat.span, |c| c.span))
            })
    };
    let such = "such as `path red: c5-c68 r1-r7` and `path blue: c22-c68 c1-c17 b1-b7`";
    let (message, label, at, help) = match why {
        NotCross::Seats { count } => (
            format!("a cross has four arms, and {count} seats have paths"),
            "one arm per seat".to_string(),
            None,
            "draw the paths of more than four seats as `layout lanes`".to_string(),
        ),
        NotCross::NothingShared { seat } => (
            format!(
                "`layout cross` draws paths round a loop they share, and the path of `{}` shares no cell with another",
                name(seat)
            ),
            "needs paths round a shared loop".to_string(),
            path_of(seat).map(|s| (s, "no cell of another path".to_string())),
            format!("a cross draws paths that run round one loop, each entering it at a cell of its own and leaving it up a home column of its own, {such}; draw other paths as `layout lanes`"),
        ),
        NotCross::TwoWays {
            cell: c,
            first,
            second,
            seat,
        } => (
            format!(
                "the paths go two ways from {}: on to {} and on to {}",
                cell(c),
                cell(first),
                cell(second)
            ),
            "needs paths that run round one way".to_string(),
            path_of(seat).map(|s| (s, format!("{} then {}", cell(c), cell(second)))),
            "a cross draws paths that all run round the loop one way; draw paths that run the other way as `layout tables`, others as `layout lanes`".to_string(),
        ),
        NotCross::Open { cell: c, seat } => (
            format!(
                "the paths don't close into a loop: no path goes on from {}",
                cell(c)
            ),
            "needs a loop".to_string(),
            path_of(seat).map(|s| (s, format!("the loop ends at {}", cell(c)))),
            "a cross draws paths round a loop: from each of its cells some path goes on round (`path blue: c22-c68 c1-c17 b1-b7` goes on from c68 to c1); draw paths that share a lane as `layout lanes`".to_string(),
        ),
        NotCross::Apart { cell: c, seat } => (
            format!(
                "{} is on no loop the paths share: going round the loop never comes to it",
                cell(c)
            ),
            "needs paths that begin on the loop".to_string(),
            path_of(seat).map(|s| (s, format!("goes through {}", cell(c)))),
            "a cross draws each path from its start cell on the loop, round it and up a home column of its own; draw paths with a lane of their own into the loop as `layout lanes`".to_string(),
        ),
        NotCross::Length { cells } => (
            format!(
                "a cross has four arms of one length, and a loop of {cells} cells doesn't share out among them"
            ),
            "four equal arms needed".to_string(),
            path_of(0).map(|s| (s, format!("round a loop of {cells} cells"))),
            "a cross draws a loop of a multiple of 4 cells, at least 12: 68 cells make arms of 8, 52 cells arms of 6".to_string(),
        ),
        NotCross::Arm {
            seat,
            cell: c,
            quarter,
            nearest,
        } => (
            format!(
                "the home column of `{}` leaves the loop at {}, not a quarter of the loop ({quarter} cells) round from where the home column of `{}` does",
                name(seat),
                cell(c),
                name(0)
            ),
            "one arm per seat".to_string(),
            path_of(seat).map(|s| (s, format!("leaves the loop at {}", cell(c)))),
            format!(
                "a cross gives each seat an arm: the home columns leave the loop a quarter of it ({quarter} cells) apart, such as at {} for `{}`",
                cell(nearest),
                name(seat)
            ),
        ),
        NotCross::SameArm {
            other,
            seat,
            cell: c,
            quarter,
        } => (
            format!(
                "the home columns of `{}` and `{}` leave the loop at one cell, {}",
                name(other),
                name(seat),
                cell(c)
            ),
            "one arm per seat".to_string(),
            path_of(seat).map(|s| (s, format!("leaves the loop at {}", cell(c)))),
            format!("a cross gives each seat an arm of its own: the home columns leave the loop a quarter of it ({quarter} cells) apart"),
        ),
        NotCross::Home {
            seat,
            cells,
            most,
            loop_cells,
            arm,
        } => (
            format!(
                "the home column of `{}`, {cells} cells, doesn't fit up an arm of the cross, which holds {most}",
                name(seat)
            ),
            format!("arms of {arm} cells"),
            path_of(seat).map(|s| (s, format!("{cells} home cells"))),
            format!("a loop of {loop_cells} cells makes arms of {arm}, room for {most} home cells: a shorter home column, or a longer loop"),
        ),
    };
    let mut d = Diagnostic::new(Code::LayoutShape, message)
        .primary(span, label)
        .help(help);
    if let Some((at, text)) = at {
        d = d.secondary(at, text);
    }
    diags.push(d);
    None
}
