//! Paths shaped like a cross (`layout cross` on a track written as
//! `path` statements): which cells are the loop every seat's path runs
//! round, which are each seat's home column, and which arm of the cross
//! each seat owns, worked out from the paths alone. The checker says why
//! paths have no such shape ([`NotCross`]); the pictures lay the cells out
//! from the shape ([`PathCross`]).
//!
//! The shape: each path runs along a shared loop (entering it at its
//! first cell, the seat's start cell) and then up a run of cells no other
//! path goes through, its home column. A loop cell is a cell of a path up
//! to that path's last cell that another path shares; every loop cell is
//! followed by the same cell on every path that goes on from it, and
//! following them goes once round all of them. Each seat's last loop cell
//! (where its home column leaves the loop) is the tip of its arm: the
//! tips are a quarter of the loop apart, one arm a seat.

use super::race::{Layout, Paths};

/// The cross of paths that have its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathCross {
    /// The loop's cells in the order the paths run round it, from the
    /// cell after the first seat's last loop cell (that one is the loop's
    /// last).
    pub ring: Vec<u16>,
    /// Each seat's arm, in seat order: the quarter turns from the first
    /// seat's (0 to 3).
    pub arms: Vec<u16>,
    /// Each seat's home column, in seat order: its cells after the loop,
    /// in the order of its path.
    pub homes: Vec<Vec<u16>>,
    /// The length of an arm ([`Layout::cross_arm`] of the loop).
    pub arm: u16,
}

/// Why paths have no cross's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotCross {
    /// More seats than the cross has arms.
    Seats {
        /// The seats with paths.
        count: usize,
    },
    /// A seat's path shares no cell with another path: there is no loop.
    NothingShared {
        /// The seat.
        seat: usize,
    },
    /// A loop cell is followed by one cell on a path and by another on
    /// `seat`'s.
    TwoWays {
        /// The cell.
        cell: u16,
        /// The cell after it on an earlier seat's path.
        first: u16,
        /// The cell after it on `seat`'s path.
        second: u16,
        /// The seat whose path goes another way.
        seat: usize,
    },
    /// The loop cells don't close into one loop: no path goes on from
    /// `cell` (the first seat's last loop cell, or one on the way round
    /// from it).
    Open {
        /// The cell.
        cell: u16,
        /// A seat whose path goes through it.
        seat: usize,
    },
    /// A cell before a path's home column that going round the loop
    /// never comes to: a lane of its own into the loop, or a second loop.
    Apart {
        /// The cell.
        cell: u16,
        /// A seat whose path goes through it.
        seat: usize,
    },
    /// The loop can't be shared out among four arms of one length.
    Length {
        /// The loop's cells.
        cells: u16,
    },
    /// A seat's last loop cell is not a whole number of quarters round
    /// the loop from the first seat's.
    Arm {
        /// The seat.
        seat: usize,
        /// Its last loop cell.
        cell: u16,
        /// A quarter of the loop, in cells.
        quarter: u16,
        /// The cell a quarter-multiple from the first seat's that is
        /// nearest `cell` (going round).
        nearest: u16,
    },
    /// Two seats' home columns leave the loop on one arm.
    SameArm {
        /// The earlier seat.
        other: usize,
        /// The later seat.
        seat: usize,
        /// The loop cell both leave it at.
        cell: u16,
        /// A quarter of the loop, in cells.
        quarter: u16,
    },
    /// A seat's home column is longer than its arm holds.
    Home {
        /// The seat.
        seat: usize,
        /// The cells of its home column.
        cells: u16,
        /// The most an arm holds.
        most: u16,
        /// The loop's cells.
        loop_cells: u16,
        /// The length of an arm.
        arm: u16,
    },
}

/// The most home cells an arm of `arm` cells holds, the loop `cells`
/// long: the arm's middle column, less the square the middle takes when
/// a quarter of the loop is odd (the middle is then three squares wide).
pub fn home_room(cells: u16, arm: u16) -> u16 {
    if (cells / 4) % 2 == 1 {
        arm.saturating_sub(1)
    } else {
        arm
    }
}

/// The cross of `paths`, or why they have none.
pub fn path_cross(paths: &Paths) -> Result<PathCross, NotCross> {
    let seats = &paths.seats;
    if seats.len() > 4 {
        return Err(NotCross::Seats { count: seats.len() });
    }
    let count = paths.names.len();
    // How many paths go through each cell.
    let mut on = vec![0usize; count + 1];
    for path in seats {
        for &c in path {
            if let Some(n) = on.get_mut(usize::from(c)) {
                *n += 1;
            }
        }
    }
    let shared = |c: u16| on.get(usize::from(c)).is_some_and(|&n| n > 1);
    // Each path's last shared cell: its loop ends there.
    let mut ends = Vec::with_capacity(seats.len());
    for (seat, path) in seats.iter().enumerate() {
        match path.iter().rposition(|&c| shared(c)) {
            Some(i) => ends.push(i),
            None => return Err(NotCross::NothingShared { seat }),
        }
    }
    // The cell after each loop cell, the same on every path.
    let mut next: Vec<Option<(u16, usize)>> = vec![None; count + 1];
    let mut looped = vec![false; count + 1];
    for (seat, (path, &end)) in seats.iter().zip(&ends).enumerate() {
        let run = path.get(..=end).unwrap_or(&[]);
        for &c in run {
            if let Some(l) = looped.get_mut(usize::from(c)) {
                *l = true;
            }
        }
        for pair in run.windows(2) {
            let (c, d) = (pair[0], pair[1]);
            let Some(slot) = next.get_mut(usize::from(c)) else {
                continue;
            };
            match *slot {
                Some((first, _)) if first != d => {
                    return Err(NotCross::TwoWays {
                        cell: c,
                        first,
                        second: d,
                        seat,
                    })
                }
                Some(_) => {}
                None => *slot = Some((d, seat)),
            }
        }
    }
    let loop_cells = looped.iter().filter(|&&l| l).count();
    let first_seat = seats.first().ok_or(NotCross::NothingShared { seat: 0 })?;
    let tip = first_seat
        .get(ends.first().copied().unwrap_or(0))
        .copied()
        .unwrap_or(0);
    // Round the loop from the first seat's last loop cell.
    let seat_of = |c: u16| seats.iter().position(|p| p.contains(&c)).unwrap_or(0);
    let mut ring = Vec::with_capacity(loop_cells);
    let mut at = tip;
    loop {
        let Some((c, _)) = next.get(usize::from(at)).copied().flatten() else {
            return Err(NotCross::Open {
                cell: at,
                seat: seat_of(at),
            });
        };
        ring.push(c);
        if c == tip {
            break;
        }
        if ring.len() > loop_cells {
            // A circle that never comes back to the tip: its path's lane
            // into it.
            return Err(NotCross::Apart { cell: tip, seat: 0 });
        }
        at = c;
    }
    if ring.len() < loop_cells {
        let missed = (1..=count as u16)
            .find(|&c| looped.get(usize::from(c)).is_some_and(|&l| l) && !ring.contains(&c))
            .unwrap_or(tip);
        return Err(NotCross::Apart {
            cell: missed,
            seat: seat_of(missed),
        });
    }
    let cells = ring.len() as u16;
    let Some(arm) = Layout::cross_arm(cells) else {
        return Err(NotCross::Length { cells });
    };
    let quarter = cells / 4;
    let mut arms: Vec<u16> = Vec::with_capacity(seats.len());
    let mut homes = Vec::with_capacity(seats.len());
    let most = home_room(cells, arm);
    for (seat, (path, &end)) in seats.iter().zip(&ends).enumerate() {
        let last = path.get(end).copied().unwrap_or(0);
        let index = ring.iter().position(|&c| c == last).unwrap_or(0) as u16;
        // Cells round from the first seat's tip (the ring's last cell).
        let d = (index + 1) % cells;
        if !d.is_multiple_of(quarter) {
            let k = ((d + quarter / 2) / quarter) % 4;
            let near = (k * quarter + cells - 1) % cells;
            return Err(NotCross::Arm {
                seat,
                cell: last,
                quarter,
                nearest: ring.get(usize::from(near)).copied().unwrap_or(last),
            });
        }
        let k = d / quarter;
        if let Some(other) = arms.iter().position(|&a| a == k) {
            return Err(NotCross::SameArm {
                other,
                seat,
                cell: last,
                quarter,
            });
        }
        arms.push(k);
        let home: Vec<u16> = path.get(end + 1..).unwrap_or(&[]).to_vec();
        if home.len() > usize::from(most) {
            return Err(NotCross::Home {
                seat,
                cells: home.len() as u16,
                most,
                loop_cells: cells,
                arm,
            });
        }
        homes.push(home);
    }
    Ok(PathCross {
        ring,
        arms,
        homes,
        arm,
    })
}
