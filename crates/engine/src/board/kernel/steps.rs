//! The kernel of steps: a fast path for rule files whose pieces only step
//! one square (the family of Breakthrough and Hexapawn). Two sides, one or
//! two kinds per side (a piece and what it is crowned to), steps along a
//! fixed set of directions per side and kind onto an empty square, and,
//! along the directions that capture, onto an enemy piece, which is taken
//! by replacement; no slides, jumps or chains; crowning where a move ends;
//! end rules of the position that count pieces (`no-pieces`, `reduced-to`)
//! or look for a piece on a zone (`reach`); a board of at most 64 playable
//! squares.
//!
//! A position is the kernel's `KPos<u64>` (one board per side and kind),
//! the moves of a direction one shift of a board and a mask. Perft walks
//! the tree by copying the position (32 bytes) and counts the last ply by
//! popcounts, with no move list; a random playout counts the moves of each
//! ply, draws one with the same `rng.below(n)` as the general path and
//! builds only that one, in the general generator's order (the captures
//! by start square in bit order, each square's capturing directions in the
//! rule file's order; then the quiet moves the same way), so that a seeded
//! playout is the same game on both paths (`tests/kernel_steps.rs`).
//!
//! It is a module of its own beside the kernel of jumps (`Kernel`), not
//! more of that kernel's gating: the jump kernel's code is written for
//! chains (four direction slots of steps, slides and jumps, the capture
//! search), and captures by replacement there would add a test to every
//! one of its loops, which the draughts family would pay for. This one
//! has none of that: each ply is a few shifts and popcounts.

use super::playout::{self, PlayoutKernel};
use super::sides::CountLimit;
use super::{dir_of, Dir, KMove, KPos, PlayoutHost, NO_KIND};
use crate::board::game::{EndCondition, JumpEffect, Verdict};
use crate::board::position::Position;
use crate::board::tables::Tables;
use crate::rng::Rng;

/// The most directions of one class (quiet steps, capturing steps) of
/// one kind.
const MAXS: usize = 8;

/// Why a rule file has no kernel of steps (the general path plays it, or
/// the kernel of jumps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoSteps {
    /// Not tried: a kernel before it in the order of `Tables::new` plays
    /// the game.
    Other,
    /// Not two sides.
    Sides,
    /// More than two kinds of piece.
    Kinds,
    /// No bitboard layout of at most 64 bits, or a direction that is not
    /// one shift of it.
    Board,
    /// Moves other than steps: slides, jumps, hops, copies, placements,
    /// opening removals, columns, or more than eight directions.
    Moves,
    /// Captures other than by replacement (custodian, neighbours), captured
    /// pieces won over, precedence criteria, pieces that can't be taken.
    Captures,
    /// Squares where no piece may stop, squares with powers, triggers.
    Squares,
    /// End rules other than counting pieces and reaching a zone, or
    /// passes.
    End,
    /// A crowning to another side's kind.
    Crowning,
}

/// The directions of one class of one kind (the first `n` used, in the
/// rule file's order).
#[derive(Clone, Copy, Debug, Default)]
struct StepDirs {
    n: usize,
    d: [Dir<u64>; MAXS],
}

impl StepDirs {
    /// The used directions.
    #[inline(always)]
    fn used(&self) -> &[Dir<u64>] {
        self.d.get(..self.n).unwrap_or(&[])
    }
}

/// The moves of one (side, kind).
#[derive(Clone, Copy, Debug, Default)]
struct StepKind {
    /// Steps onto an empty square.
    quiet: StepDirs,
    /// Steps onto an enemy piece, which they take.
    cap: StepDirs,
    /// Squares where it is crowned.
    promo: u64,
    /// The kind it is crowned to (`NO_KIND`: none).
    promo_to: u8,
}

/// The capturing or the quiet directions of a kind.
#[inline(always)]
fn class(k: &StepKind, capture: bool) -> &StepDirs {
    if capture {
        &k.cap
    } else {
        &k.quiet
    }
}

/// The kernel of steps of one game (see the module comment).
#[derive(Clone, Debug)]
pub struct StepKernel {
    valid: u64,
    nkinds: usize,
    /// `kinds[side][kind]`.
    kinds: [[StepKind; 2]; 2],
    /// A capture must be taken when one can be made.
    compulsory: bool,
    /// `goal[side][kind]`: a piece of that side and kind there ends the
    /// game (a `reach` rule).
    goal: [[u64; 2]; 2],
    /// The end by counting pieces.
    count_limit: CountLimit,
}

impl StepKernel {
    /// The kernel of steps of a game, or why it has none.
    pub fn new(t: &Tables) -> Result<StepKernel, NoSteps> {
        if t.nsides != 2 {
            return Err(NoSteps::Sides);
        }
        if t.nkinds == 0 || t.nkinds > 2 {
            return Err(NoSteps::Kinds);
        }
        let other_moves = t.moves.iter().any(|m| {
            !m.slide.is_empty()
                || !m.short_jump.is_empty()
                || !m.long_jump.is_empty()
                || !m.hop.is_empty()
                || !m.clone.is_empty()
                || !m.slide_cap.is_empty()
        });
        if other_moves || t.places || t.clones || t.stacks || !t.opening.is_empty() {
            return Err(NoSteps::Moves);
        }
        if t.custodian.iter().any(|v| !v.is_empty())
            || t.neighbours.iter().any(|v| !v.is_empty())
            || t.use_criteria
            || !matches!(t.effect, JumpEffect::RemoveAtOnce | JumpEffect::RemoveAtEnd)
        {
            return Err(NoSteps::Captures);
        }
        let ncodes = 1 + t.nsides * t.nkinds;
        for a in 1..ncodes {
            for v in 1..ncodes {
                let enemy = t.code_side.get(a) != t.code_side.get(v);
                if t.can_capture(a as u8, v as u8) != enemy {
                    return Err(NoSteps::Captures);
                }
            }
        }
        if t.no_stop.iter().any(|&b| b)
            || t.powers.is_some()
            || t.trigger_to.iter().any(Option::is_some)
        {
            return Err(NoSteps::Squares);
        }
        if t.end.drop_out || t.end.no_moves == Verdict::Pass {
            return Err(NoSteps::End);
        }
        let l = t.layout.as_ref().ok_or(NoSteps::Board)?;
        let valid = u64::try_from(l.valid).map_err(|_| NoSteps::Board)?;
        // The general order of moves is by square; the kernel's by bit.
        if l.bit_of.windows(2).any(|w| w[0] >= w[1]) {
            return Err(NoSteps::Board);
        }
        let mut goal = [[0u64; 2]; 2];
        // The end tables' count limit is only for games whose every rule
        // of the position counts pieces: here, beside `reach`, it is
        // found again.
        let mut count_limit = CountLimit::default();
        for (i, rule) in t.game.end.rules.iter().enumerate() {
            if count_limit.take(&rule.condition) {
                continue;
            }
            match rule.condition {
                EndCondition::Line { .. } | EndCondition::Captured(_) => return Err(NoSteps::End),
                EndCondition::Reach { .. } => {
                    for (s, row) in goal.iter_mut().enumerate() {
                        let (squares, codes) = t.end.reach_of(i, s, t.n).ok_or(NoSteps::End)?;
                        let mut mask = 0u64;
                        for (sq, _) in squares.iter().enumerate().filter(|(_, &on)| on) {
                            let bit = l.bit_of.get(sq).ok_or(NoSteps::Board)?;
                            mask |= 1u64.checked_shl(u32::from(*bit)).ok_or(NoSteps::Board)?;
                        }
                        for &c in codes {
                            let k =
                                usize::from(*t.code_kind.get(usize::from(c)).ok_or(NoSteps::End)?);
                            *row.get_mut(k).ok_or(NoSteps::End)? |= mask;
                        }
                    }
                }
                _ => {}
            }
        }
        let class = |v: &[u8]| -> Result<StepDirs, NoSteps> {
            if v.len() > MAXS {
                return Err(NoSteps::Moves);
            }
            let mut out = StepDirs {
                n: v.len(),
                ..StepDirs::default()
            };
            for (slot, &d) in out.d.iter_mut().zip(v) {
                *slot = dir_of(t, l, usize::from(d)).ok_or(NoSteps::Board)?;
            }
            Ok(out)
        };
        let mut kinds = [[StepKind::default(); 2]; 2];
        for (s, row) in kinds.iter_mut().enumerate() {
            for (k, slot) in row.iter_mut().enumerate().take(t.nkinds) {
                let code = 1 + s * t.nkinds + k;
                let m = t.moves.get(code).ok_or(NoSteps::Moves)?;
                let promo_code = usize::from(*t.promo_to.get(code).ok_or(NoSteps::Crowning)?);
                let (promo_to, promo) = if promo_code == 0 {
                    (NO_KIND, 0)
                } else {
                    if t.code_side.get(promo_code) != Some(&(s as u8)) {
                        return Err(NoSteps::Crowning);
                    }
                    let to = *t.code_kind.get(promo_code).ok_or(NoSteps::Crowning)?;
                    let bb = *t.promo_bb.get(code).ok_or(NoSteps::Crowning)?;
                    (to, u64::try_from(bb).map_err(|_| NoSteps::Board)?)
                };
                *slot = StepKind {
                    quiet: class(&m.step)?,
                    cap: class(&m.step_cap)?,
                    promo,
                    promo_to,
                };
            }
        }
        Ok(StepKernel {
            valid,
            nkinds: t.nkinds,
            kinds,
            compulsory: t.capture_compulsory,
            goal,
            count_limit,
        })
    }

    /// The kernel's form of a position (None if it doesn't fit).
    pub fn position(&self, pos: &Position) -> Option<KPos<u64>> {
        super::kpos_of(pos, self.nkinds)
    }

    /// Writes a kernel position back into a `Position` of the game.
    pub fn write_position(&self, t: &Tables, p: &KPos<u64>, pos: &mut Position) {
        super::write_kpos(t, self.nkinds, p, pos);
    }

    /// Whether a quiet move of the pieces of `kind` of side `s` can never
    /// be undone: all its steps go the same way along the bits.
    pub fn one_way(&self, s: usize, kind: usize) -> bool {
        let Some(k) = self.kinds.get(s & 1).and_then(|r| r.get(kind)) else {
            return false;
        };
        let used: Vec<&Dir<u64>> = k.quiet.used().iter().filter(|d| d.ok != 0).collect();
        used.iter().all(|d| d.l > 0 && d.r == 0) || used.iter().all(|d| d.r > 0 && d.l == 0)
    }

    /// Whether the game is over by the position alone.
    #[inline(always)]
    fn over(&self, p: &KPos<u64>) -> bool {
        let g = &self.goal;
        if (p.pcs[0][0] & g[0][0])
            | (p.pcs[0][1] & g[0][1])
            | (p.pcs[1][0] & g[1][0])
            | (p.pcs[1][1] & g[1][1])
            != 0
        {
            return true;
        }
        self.count_limit.over(p)
    }

    /// The move of a piece of `kind` of side `s` from `from` to `to`,
    /// taking what stands there (`cap`).
    #[inline(always)]
    fn mv(&self, s: usize, kind: usize, from: u64, to: u64, cap: u64) -> KMove<u64> {
        let k = &self.kinds[s & 1][kind & 1];
        let crowned = k.promo & to != 0;
        KMove {
            from,
            to,
            cap,
            kind: kind as u8,
            result: if crowned { k.promo_to } else { kind as u8 },
            turned: false,
            crowned,
        }
    }

    /// The number of legal moves of the side to move: captures and quiet
    /// moves (the quiet ones 0 where a capture must be taken).
    #[inline(always)]
    fn counts(&self, p: &KPos<u64>) -> (u64, u64) {
        let s = usize::from(p.side & 1);
        let enemy = p.side_pcs(s ^ 1);
        let empty = self.valid & !(enemy | p.side_pcs(s));
        let mut caps = 0u64;
        let mut quiets = 0u64;
        for (k, kk) in self.kinds[s].iter().enumerate() {
            let pcs = p.pcs[s][k];
            if pcs == 0 {
                continue;
            }
            for d in kk.cap.used() {
                caps += u64::from((d.go(pcs & d.ok) & enemy).count_ones());
            }
            for d in kk.quiet.used() {
                quiets += u64::from((d.go(pcs & d.ok) & empty).count_ones());
            }
        }
        if self.compulsory && caps > 0 {
            quiets = 0;
        }
        (caps, quiets)
    }

    /// The number of legal moves in `p` (0 where the game is over).
    pub fn count(&self, p: &KPos<u64>) -> u64 {
        if self.over(p) {
            return 0;
        }
        let (c, q) = self.counts(p);
        c + q
    }

    /// All legal moves of `p` in the general generator's order (none
    /// where the game is over).
    pub fn generate(&self, p: &KPos<u64>, out: &mut Vec<KMove<u64>>) {
        out.clear();
        if self.over(p) {
            return;
        }
        let (caps, quiets) = self.counts(p);
        for i in 0..caps + quiets {
            if let Some(m) = self.nth(p, caps, i) {
                out.push(m);
            }
        }
    }

    /// Perft: the number of leaves of the move tree to `depth` plies.
    pub fn perft(&self, p: &KPos<u64>, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.walk(p, depth)
    }

    fn walk(&self, p: &KPos<u64>, depth: usize) -> u64 {
        if self.over(p) {
            return 0;
        }
        if depth <= 1 {
            let (c, q) = self.counts(p);
            return c + q;
        }
        let s = usize::from(p.side & 1);
        let enemy = p.side_pcs(s ^ 1);
        let empty = self.valid & !(enemy | p.side_pcs(s));
        let mut total = 0;
        let mut took = false;
        for (k, kk) in self.kinds[s].iter().enumerate() {
            let pcs = p.pcs[s][k];
            if pcs == 0 {
                continue;
            }
            for d in kk.cap.used() {
                let mut to = d.go(pcs & d.ok) & enemy;
                took |= to != 0;
                while to != 0 {
                    let t = to & to.wrapping_neg();
                    to &= to - 1;
                    let m = self.mv(s, k, d.back(t), t, t);
                    total += self.walk(&p.play(&m), depth - 1);
                }
            }
        }
        if self.compulsory && took {
            return total;
        }
        for (k, kk) in self.kinds[s].iter().enumerate() {
            let pcs = p.pcs[s][k];
            if pcs == 0 {
                continue;
            }
            for d in kk.quiet.used() {
                let mut to = d.go(pcs & d.ok) & empty;
                while to != 0 {
                    let t = to & to.wrapping_neg();
                    to &= to - 1;
                    let m = self.mv(s, k, d.back(t), t, 0);
                    total += self.walk(&p.play(&m), depth - 1);
                }
            }
        }
        total
    }

    /// Move `i` of `p` in the general generator's order, given the number
    /// of captures (`caps`): the captures first, then the quiet moves,
    /// each by start square in bit order and, per square, by direction in
    /// the rule file's order.
    #[inline(always)]
    fn nth(&self, p: &KPos<u64>, caps: u64, i: u64) -> Option<KMove<u64>> {
        let s = usize::from(p.side & 1);
        let enemy = p.side_pcs(s ^ 1);
        let empty = self.valid & !(enemy | p.side_pcs(s));
        let (capture, mut i, land) = if i < caps {
            (true, i, enemy)
        } else {
            (false, i - caps, empty)
        };
        // Per kind and direction, the pieces that have that move.
        let mut src = [[0u64; MAXS]; 2];
        let mut any = 0u64;
        for (k, sk) in src.iter_mut().enumerate() {
            let pcs = p.pcs[s][k];
            if pcs == 0 {
                continue;
            }
            for (x, d) in sk.iter_mut().zip(class(&self.kinds[s][k], capture).used()) {
                *x = d.back(d.go(pcs & d.ok) & land);
                any |= *x;
            }
        }
        while any != 0 {
            let from = any & any.wrapping_neg();
            any &= any - 1;
            let k = usize::from(p.pcs[s][1] & from != 0);
            let dirs = class(&self.kinds[s][k], capture);
            let sk = &src[k];
            let c: u64 = sk.iter().map(|&b| u64::from(b & from != 0)).sum();
            if i >= c {
                i -= c;
                continue;
            }
            for (&b, d) in sk.iter().zip(dirs.used()) {
                if b & from == 0 {
                    continue;
                }
                if i == 0 {
                    let to = d.go(from);
                    return Some(self.mv(s, k, from, to, if capture { to } else { 0 }));
                }
                i -= 1;
            }
            return None;
        }
        None
    }

    /// Plays at most `max` random plies from `p` (see
    /// `playout::random_plies`). The plies played.
    // A function of its own, with the host inlined into its loop (inlined
    // into its caller, the host's `played` is a call a ply).
    #[inline(never)]
    pub fn random_plies<H: PlayoutHost<u64>>(
        &self,
        p: &mut KPos<u64>,
        rng: &mut Rng,
        max: u32,
        host: &mut H,
    ) -> u32 {
        playout::random_plies(self, p, rng, max, host)
    }
}

impl PlayoutKernel for StepKernel {
    type W = u64;
    type Pos = KPos<u64>;
    /// The number of captures.
    type Counted = u64;
    type Move = KMove<u64>;

    #[inline(always)]
    fn count_moves(&self, p: &KPos<u64>) -> Option<(u64, u64)> {
        if self.over(p) {
            return None;
        }
        let (caps, quiets) = self.counts(p);
        Some((caps + quiets, caps))
    }

    #[inline(always)]
    fn nth_move(&self, p: &KPos<u64>, caps: &u64, i: u64) -> Option<KMove<u64>> {
        self.nth(p, *caps, i)
    }

    #[inline(always)]
    fn make_move<H: PlayoutHost<u64>>(
        &self,
        p: &mut KPos<u64>,
        m: KMove<u64>,
        host: &mut H,
    ) -> bool {
        let after = p.play(&m);
        playout::moved(host, p, &m, after)
    }
}
