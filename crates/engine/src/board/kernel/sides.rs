//! What the kernels of one kind per side (flips, slides) read off a
//! position before anything else: the side to move, its pieces, the
//! enemies and the empty squares (`Sides`); and the end by counting pieces
//! that the kernels of steps, flips and slides share (`CountLimit`). One
//! copy for every board word (`Word`).

use super::{KPos, Word};
use crate::board::game::EndCondition;

/// The side to move, its pieces, the enemies and the empty squares of a
/// position of one kind per side.
#[derive(Clone, Copy)]
pub(super) struct Sides<W: Word> {
    pub(super) s: usize,
    pub(super) own: W,
    pub(super) enemy: W,
    pub(super) empty: W,
}

impl<W: Word> Sides<W> {
    /// Of `p`, whose playable squares are `valid`.
    #[inline(always)]
    pub(super) fn of(p: &KPos<W>, valid: W) -> Sides<W> {
        let s = usize::from(p.side & 1);
        let own = p.pcs[s][0];
        let enemy = p.pcs[s ^ 1][0];
        Sides {
            s,
            own,
            enemy,
            empty: valid & !(own | enemy),
        }
    }

    /// The same position seen by the other side.
    #[inline(always)]
    pub(super) fn other(&self) -> Sides<W> {
        Sides {
            s: self.s ^ 1,
            own: self.enemy,
            enemy: self.own,
            empty: self.empty,
        }
    }
}

/// The end by counting pieces (`no-pieces`, `reduced-to N`): the game is
/// over by the position when a side has this many pieces or fewer (none:
/// no such rule).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct CountLimit(Option<u32>);

impl CountLimit {
    /// Takes in an end rule: true if it counts pieces.
    pub(super) fn take(&mut self, c: &EndCondition) -> bool {
        let lim = match c {
            EndCondition::NoPieces => 0,
            EndCondition::ReducedTo(k) => *k,
            _ => return false,
        };
        self.0 = self.0.max(Some(lim));
        true
    }

    /// Whether the game is over by the count of a side's pieces in `p`.
    #[inline(always)]
    pub(super) fn over<W: Word>(self, p: &KPos<W>) -> bool {
        match self.0 {
            None => false,
            Some(0) => p.side_pcs(0) == W::ZERO || p.side_pcs(1) == W::ZERO,
            Some(lim) => p.side_pcs(0).ones() <= lim || p.side_pcs(1).ones() <= lim,
        }
    }
}
