//! Random playouts on the kernel: per ply, the number of legal moves (the
//! quiet moves counted by whole-board shifts), one uniform draw, and only
//! the move drawn built, in the order of the general generator's list, so
//! that a seeded playout plays the same game as one through
//! `movegen::Generator` (`tests/kernel.rs` checks it on every bundled game).
//!
//! The general order: the captures by start square (bit order), each
//! start square's chains in the order of the general search (its short
//! jumps in the rule file's order of their directions, then its long jumps
//! by direction and distance, a chain before its continuations; a move
//! found along several paths counts where it is first found); without a
//! capture, the quiet moves piece by piece in bit order, each piece's steps
//! in the order of its directions, then its slides by direction and
//! distance.

use super::{Diag, Dir, Geo, KMove, KPos, Kernel, KindK, Shift, Var, MAXD};
use crate::rng::Rng;

/// What a random playout tells its caller after each ply, and how the
/// caller stops it.
pub trait PlayoutHost {
    /// A ply was played: `m`, from `before`, gave `after`. False: stop
    /// there (the caller decides the position by the general rules).
    fn played(&mut self, before: &KPos, m: &KMove, after: &KPos) -> bool;
}

/// Scratch space of a playout (no allocation once warm).
#[derive(Clone, Debug, Default)]
pub struct PlayoutScratch {
    moves: Vec<KMove>,
    keys: Vec<u128>,
    sorted: Vec<u128>,
}

impl Kernel {
    /// Plays at most `max` random plies from `p`, drawing `rng.below(n)`
    /// among the `n` legal moves of each position as the general path
    /// would, and moving `p` along. Stops without drawing, `p` the
    /// position reached, where the game may be over by the position, where
    /// the side to move has no move, and where the capture search passes
    /// its limit; and after a ply when `host` says so. The plies played.
    pub fn random_plies<H: PlayoutHost>(
        &self,
        p: &mut KPos,
        rng: &mut Rng,
        max: u32,
        host: &mut H,
        scratch: &mut PlayoutScratch,
    ) -> u32 {
        match self.geo {
            Geo::Var => self.random_plies_g::<Var, H>(p, rng, max, host, scratch),
            Geo::D45 => self.random_plies_g::<Diag<4, 5>, H>(p, rng, max, host, scratch),
            Geo::D56 => self.random_plies_g::<Diag<5, 6>, H>(p, rng, max, host, scratch),
        }
    }

    fn random_plies_g<G: Shift, H: PlayoutHost>(
        &self,
        p: &mut KPos,
        rng: &mut Rng,
        max: u32,
        host: &mut H,
        scratch: &mut PlayoutScratch,
    ) -> u32 {
        let mut plies = 0;
        while plies < max {
            let Some(m) = self.random_move::<G>(p, rng, scratch) else {
                return plies;
            };
            let after = p.play(&m);
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
        p: &KPos,
        rng: &mut Rng,
        sc: &mut PlayoutScratch,
    ) -> Option<KMove> {
        let s = usize::from(p.side & 1);
        let own = p.side_pcs(s);
        let enemy = p.side_pcs(s ^ 1);
        if self.over(own, enemy) {
            return None;
        }
        let empty = self.valid & !(own | enemy);
        let js = self.jump_sets::<G>(p, s, enemy, empty);
        let cand = self.capturers::<G>(p, s, enemy, empty, &js);
        if cand != [0, 0] {
            sc.moves.clear();
            sc.keys.clear();
            if !self.captures::<G, true>(s, enemy, empty, cand, &mut sc.moves, Some(&mut sc.keys)) {
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
        self.nth_quiet(p, s, empty, i)
    }

    /// The number of quiet moves of side `s`.
    #[inline(always)]
    fn quiet_count<G: Shift>(&self, p: &KPos, s: usize, empty: u64) -> u64 {
        let mut total = 0u64;
        for k in 0..self.nkinds {
            let m = &self.moves[s][k];
            let pcs = p.pcs[s][k];
            if pcs == 0 {
                continue;
            }
            each_slot!(m.step, j, d, {
                let to = G::go(j, d, pcs & d.ok) & empty;
                total += u64::from(to.count_ones());
            });
            if m.slide.n > 0 {
                each_slot!(m.slide, j, d, {
                    let mut ray = G::go(j, d, pcs & d.ok) & empty;
                    while ray != 0 {
                        total += u64::from(ray.count_ones());
                        ray = G::go(j, d, ray & d.ok) & empty;
                    }
                });
            }
        }
        total
    }

    /// The quiet move `i` (counted from 0) of side `s` in the general
    /// generator's order.
    fn nth_quiet(&self, p: &KPos, s: usize, empty: u64, mut i: u64) -> Option<KMove> {
        let mut own = p.side_pcs(s);
        while own != 0 {
            let from = own & own.wrapping_neg();
            own &= own - 1;
            let k = usize::from(p.pcs[s][1] & from != 0);
            let m = &self.moves[s][k];
            let c = piece_quiets(m, from, empty);
            if i >= c {
                i -= c;
                continue;
            }
            let to = nth_target(m, from, empty, i)?;
            return Some(KMove {
                from,
                to,
                cap: 0,
                kind: k as u8,
                result: self.finish(s, k as u8, to),
            });
        }
        None
    }
}

/// The number of quiet moves of a piece with the moves `m` on `from`.
#[inline(always)]
fn piece_quiets(m: &KindK, from: u64, empty: u64) -> u64 {
    let mut c = 0u64;
    for d in &m.step.d {
        c += u64::from(d.go(from & d.ok) & empty != 0);
    }
    if m.slide.n > 0 {
        for d in &m.slide.d {
            let mut b = from;
            while b & d.ok != 0 {
                b = d.go(b);
                if b & empty == 0 {
                    break;
                }
                c += 1;
            }
        }
    }
    c
}

/// The target square of quiet move `i` of a piece with the moves `m` on
/// `from`: its steps in the order of their directions, then its slides.
fn nth_target(m: &KindK, from: u64, empty: u64, mut i: u64) -> Option<u64> {
    for r in 0..m.step.n {
        let Some(j) = m.step.slot_of_rank(r) else {
            continue;
        };
        let d = m.step.d[j];
        let to = d.go(from & d.ok) & empty;
        if to != 0 {
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
        while b & d.ok != 0 {
            b = d.go(b);
            if b & empty == 0 {
                break;
            }
            if i == 0 {
                return Some(b);
            }
            i -= 1;
        }
    }
    None
}
