//! Random playouts on the kernels: per ply, the number of legal moves (the
//! quiet moves counted by whole-board shifts), one uniform draw, and only
//! the move drawn built, in the order of the general generator's list, so
//! that a seeded playout plays the same game as one through
//! `movegen::Generator` (`tests/kernel.rs` checks it on every bundled game).
//! Here: what a playout tells its caller (`PlayoutHost`), the one loop of
//! the kernels of steps, flips, slides and lines (`random_plies`, each
//! kernel counting, building and making its moves as a `PlayoutKernel`),
//! and the kernel of jumps' own loop, whose captures are drawn from a list.
//!
//! The general order of the kernel of jumps: the captures by start square (bit order), each
//! start square's chains in the order of the general search (its short
//! jumps in the rule file's order of their directions, then its long jumps
//! by direction and distance, a chain before its continuations; a move
//! found along several paths counts where it is first found); without a
//! capture, the quiet moves piece by piece in bit order, each piece's steps
//! in the order of its directions, then its slides by direction and
//! distance.

use super::{slide_count, KMove, KPos, Kernel, KindK, Shift, Start, Word, MAXD};
use crate::rng::Rng;

/// What a random playout tells its caller after each ply, and how the
/// caller stops it.
pub trait PlayoutHost<W: Word = u64> {
    /// A ply was played: `m`, from `before`, gave `after`. False: stop
    /// there (the caller decides the position by the general rules).
    fn played(&mut self, before: &KPos<W>, m: &KMove<W>, after: &KPos<W>) -> bool;

    /// A ply of a kernel of squares (the kernel of lines) was played: side
    /// `side` placed a piece of kind `kind` (piece code `code`) on square
    /// `sq`, capturing nothing, and the other side is to move. False: stop
    /// there.
    fn placed(&mut self, side: u8, kind: u8, code: u8, sq: u16) -> bool;
}

/// Scratch space of a playout (no allocation once warm; `Default` is
/// empty and allocates nothing).
#[derive(Clone, Debug, Default)]
pub struct PlayoutScratch<W: Word = u64> {
    moves: Vec<KMove<W>>,
    keys: Vec<u128>,
    sorted: Vec<u128>,
}

impl<W: Word> PlayoutScratch<W> {
    /// With room for the captures of nearly every position from the
    /// start, so that a playout rarely has to grow it.
    pub fn with_room() -> Self {
        PlayoutScratch {
            moves: Vec::with_capacity(64),
            keys: Vec::with_capacity(64),
            sorted: Vec::with_capacity(64),
        }
    }
}

impl<W: Word> Kernel<W> {
    /// Plays at most `max` random plies from `p`, drawing `rng.below(n)`
    /// among the `n` legal moves of each position as the general path
    /// would, and moving `p` along. Stops without drawing, `p` the
    /// position reached, where the game may be over by the position, where
    /// the side to move has no move, and where the capture search passes
    /// its limit; and after a ply when `host` says so. The plies played.
    pub fn random_plies<H: PlayoutHost<W>>(
        &self,
        p: &mut KPos<W>,
        rng: &mut Rng,
        max: u32,
        host: &mut H,
        scratch: &mut PlayoutScratch<W>,
    ) -> u32 {
        by_geo!(self, G => self.random_plies_g::<G, H>(p, rng, max, host, scratch))
    }

    fn random_plies_g<G: Shift, H: PlayoutHost<W>>(
        &self,
        p: &mut KPos<W>,
        rng: &mut Rng,
        max: u32,
        host: &mut H,
        scratch: &mut PlayoutScratch<W>,
    ) -> u32 {
        let mut plies = 0;
        while plies < max {
            let Some(m) = self.random_move::<G>(p, rng, scratch) else {
                return plies;
            };
            let after = self.apply(p, &m);
            plies += 1;
            let go_on = host.played(p, &m, &after);
            *p = after;
            if !go_on {
                break;
            }
        }
        plies
    }

    /// The move drawn at random in `p` (None, nothing drawn: the game may
    /// be over, no move, or the search limit).
    #[inline(always)]
    fn random_move<G: Shift>(
        &self,
        p: &KPos<W>,
        rng: &mut Rng,
        sc: &mut PlayoutScratch<W>,
    ) -> Option<KMove<W>> {
        let mut js = [[W::ZERO; MAXD]; 2];
        let Start {
            s,
            enemy,
            empty,
            cand,
        } = self.start::<G>(p, &mut js)?;
        if cand[0] | cand[1] != W::ZERO {
            sc.moves.clear();
            sc.keys.clear();
            if !self.captures::<G, true>(
                s,
                enemy,
                empty,
                cand,
                &js,
                &mut sc.moves,
                Some(&mut sc.keys),
            ) {
                return None;
            }
            let n = sc.moves.len();
            if n > 0 {
                let i = rng.below(n as u64) as usize;
                if n == 1 {
                    return sc.moves.first().copied();
                }
                // The i-th move by key.
                sc.sorted.clear();
                sc.sorted.extend_from_slice(&sc.keys);
                let (_, &mut key, _) = sc.sorted.select_nth_unstable(i);
                let at = sc.keys.iter().position(|&k| k == key)?;
                return sc.moves.get(at).copied();
            }
        }
        let n = self.quiet_count::<G>(p, s, empty);
        if n == 0 {
            return None;
        }
        let i = rng.below(n);
        self.nth_quiet::<G>(p, s, empty, i)
    }

    /// The number of quiet moves of side `s`.
    #[inline(always)]
    pub(super) fn quiet_count<G: Shift>(&self, p: &KPos<W>, s: usize, empty: W) -> u64 {
        let mut total = 0u64;
        let land = empty & self.stops();
        for k in 0..self.nkinds {
            let m = &self.moves[s][k];
            let pcs = p.pcs[s][k];
            if pcs == W::ZERO {
                continue;
            }
            each_slot!(m.step, j, d, {
                let to = G::go(j, d, pcs & d.ok) & land;
                if to != W::ZERO {
                    total += u64::from(to.ones());
                }
            });
            if m.slide.n > 0 {
                total += slide_count::<G, W>(m, pcs, empty, land);
            }
        }
        total
    }

    /// The quiet move `i` (counted from 0) of side `s` in the general
    /// generator's order.
    fn nth_quiet<G: Shift>(&self, p: &KPos<W>, s: usize, empty: W, mut i: u64) -> Option<KMove<W>> {
        let mut own = p.side_pcs(s);
        let land = empty & self.stops();
        // Per kind and step slot, the pieces that have that step.
        let mut src = [[W::ZERO; MAXD]; 2];
        for (k, sk) in src.iter_mut().enumerate() {
            let pcs = p.pcs[s][k];
            if pcs != W::ZERO {
                each_slot!(self.moves[s][k].step, j, d, {
                    sk[j] = G::back(j, d, G::go(j, d, pcs & d.ok) & land);
                });
            }
        }
        while own != W::ZERO {
            let from = own.lowest();
            own = own.clear_lowest();
            let k = usize::from(p.pcs[s][1] & from != W::ZERO);
            let m = &self.moves[s][k];
            let sk = &src[k];
            let mut c = u64::from(from & sk[0] != W::ZERO)
                + u64::from(from & sk[1] != W::ZERO)
                + u64::from(from & sk[2] != W::ZERO)
                + u64::from(from & sk[3] != W::ZERO);
            if m.slide.n > 0 {
                c += slides_of::<G, W>(m, from, empty, land);
            }
            if i >= c {
                i -= c;
                continue;
            }
            let to = nth_target::<G, W>(m, from, empty, land, i)?;
            return Some(self.quiet(s, k as u8, from, to));
        }
        None
    }
}

/// The number of slides of a piece with the moves `m` on `from` (`land`:
/// the empty squares where it may stop).
#[inline(always)]
pub(super) fn slides_of<G: Shift, W: Word>(m: &KindK<W>, from: W, empty: W, land: W) -> u64 {
    let mut c = 0u64;
    each_slot!(m.slide, j, d, {
        let mut b = from;
        while b & d.ok != W::ZERO {
            b = G::go(j, d, b);
            if b & empty == W::ZERO {
                break;
            }
            c += u64::from(b & land != W::ZERO);
        }
    });
    c
}

/// The target square of quiet move `i` of a piece with the moves `m` on
/// `from`: its steps in the order of their directions, then its slides.
pub(super) fn nth_target<G: Shift, W: Word>(
    m: &KindK<W>,
    from: W,
    empty: W,
    land: W,
    mut i: u64,
) -> Option<W> {
    for r in 0..m.step.n {
        let Some(j) = m.step.slot_of_rank(r) else {
            continue;
        };
        let d = m.step.d[j];
        let to = G::go(j, d, from & d.ok) & land;
        if to != W::ZERO {
            if i == 0 {
                return Some(to);
            }
            i -= 1;
        }
    }
    for r in 0..m.slide.n {
        let Some(j) = m.slide.slot_of_rank(r) else {
            continue;
        };
        let d = m.slide.d[j];
        let mut b = from;
        while b & d.ok != W::ZERO {
            b = G::go(j, d, b);
            if b & empty == W::ZERO {
                break;
            }
            if b & land == W::ZERO {
                continue;
            }
            if i == 0 {
                return Some(b);
            }
            i -= 1;
        }
    }
    None
}

/// What the one loop of random playouts (`random_plies`) asks of a kernel
/// whose moves are drawn by their number: how many moves a position has,
/// the i-th of them in the general generator's order, and how it is made.
pub(super) trait PlayoutKernel {
    /// The board word of the positions the host is told of.
    type W: Word;
    /// A position of the kernel.
    type Pos;
    /// What counting the moves found that building one of them needs.
    type Counted;
    /// A move of the kernel.
    type Move;

    /// The number of legal moves of `p` and what counting them found;
    /// None where the game is over by the position.
    fn count_moves(&self, p: &Self::Pos) -> Option<(u64, Self::Counted)>;

    /// Move `i` (from 0) of `p` in the general generator's order.
    fn nth_move(&self, p: &Self::Pos, c: &Self::Counted, i: u64) -> Option<Self::Move>;

    /// Makes `m` on `p` and tells `host`. False: stop there (the host said
    /// so, or the move ended the game).
    fn make_move<H: PlayoutHost<Self::W>>(
        &self,
        p: &mut Self::Pos,
        m: Self::Move,
        host: &mut H,
    ) -> bool;
}

/// Plays at most `max` random plies of kernel `k` from `p`, drawing
/// `rng.below(n)` among the `n` legal moves of each position as the general
/// path would, and moving `p` along. Stops without drawing where the game
/// is over by the position or the side to move has no move (it may pass:
/// the general path plays that), and after a ply that `make_move` stops
/// at. The plies played.
#[inline(always)]
pub(super) fn random_plies<K: PlayoutKernel, H: PlayoutHost<K::W>>(
    k: &K,
    p: &mut K::Pos,
    rng: &mut Rng,
    max: u32,
    host: &mut H,
) -> u32 {
    let mut plies = 0;
    while plies < max {
        let Some((n, counted)) = k.count_moves(p) else {
            break;
        };
        if n == 0 {
            break;
        }
        let i = rng.below(n);
        let Some(m) = k.nth_move(p, &counted, i) else {
            break;
        };
        plies += 1;
        if !k.make_move(p, m, host) {
            break;
        }
    }
    plies
}

/// `PlayoutKernel::make_move` of a kernel of `KPos` positions: `p` moved on
/// to `after`, the position `m` gives, and `host` told. False: stop there.
#[inline(always)]
pub(super) fn moved<W: Word, H: PlayoutHost<W>>(
    host: &mut H,
    p: &mut KPos<W>,
    m: &KMove<W>,
    after: KPos<W>,
) -> bool {
    let go_on = host.played(p, m, &after);
    *p = after;
    go_on
}
