//! The kernel of flips: a fast path for rule files whose moves fill empty
//! squares and win enemy pieces over (the family of Reversi and Ataxx).
//! Two sides, one kind; placements from an unlimited hand (on any empty
//! square, or only where they enclose), copying steps (`clone`) and steps
//! that leave their square, along directions that are one shift of the
//! board's layout (holes allowed); captures that convert, by enclosure
//! (`capture custodian`, one enemy or a run) and by neighbourhood
//! (`capture neighbours`); passes; end rules that count pieces
//! (`no-pieces`, `reduced-to`) or look at the history (`most-pieces`,
//! `repetition`, draw counters); a board of at most 64 playable squares.
//!
//! A position is the kernel's `KPos<u64>` (one board per side). The moves
//! of a ply are counted by shifts and popcounts: the placements that
//! enclose are the squares beyond a run of enemies that starts at a piece
//! of the mover (one shift per direction and run length), the copies the
//! union of the shifted pieces, the steps one popcount per direction.
//! Perft counts the last ply so, with no move list; a random playout
//! counts the moves, draws one with the same `rng.below(n)` as the general
//! path and builds only that one, in the general generator's order (the
//! steps by start square in bit order and, per square, in the rule file's
//! order of directions; then the placements by square; then the copies in
//! the order the general generator first finds their squares: by the
//! square of the piece copied, then by direction), so that a seeded
//! playout is the same game on both paths (`tests/kernel_flips.rs`).
//!
//! Perft counts a pass as the general generator does (one move, where the
//! side to move has none and the other side has one); a random playout
//! stops there without drawing, and the general path plays the pass.
//!
//! A placement or a copy is a `KMove` with no start square (`from` 0) and
//! the converted pieces in `cap`; a step has its start square. Playing a
//! move (`KPos::play_with`) wins the pieces of `cap` over.

use super::playout::{self, PlayoutKernel};
use super::sides::CountLimit;
use super::{dir_of, Dir, KMove, KPos, PlayoutHost};
use crate::board::bitboard::Layout;
use crate::board::game::{EndCondition, JumpEffect, PlaceRule, Verdict};
use crate::board::position::Position;
use crate::board::tables::{Tables, EMPTY, UNLIMITED};
use crate::rng::Rng;

/// The most directions of one class (steps, copies, enclosures,
/// neighbours) of one side.
const MAXF: usize = 16;

/// Why a rule file has no kernel of flips (another kernel or the general
/// path plays it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoFlips {
    /// Not tried: a kernel before it in the order of `Tables::new` plays
    /// the game.
    Other,
    /// Neither placements, copies nor captures that convert by enclosure
    /// or neighbourhood: not a game of this kernel.
    Plain,
    /// Not two sides.
    Sides,
    /// More than one kind of piece.
    Kinds,
    /// No bitboard layout of at most 64 bits, lines that join only some
    /// squares, or a direction that is not one shift of the layout.
    Board,
    /// Moves other than placements, copies and steps: slides, jumps,
    /// hops, captures by replacement, opening removals, columns,
    /// placements next to one's own, a hand that runs out, more than
    /// sixteen directions of a class.
    Moves,
    /// Captures that remove pieces, corners, pieces that can't be taken,
    /// precedence criteria.
    Captures,
    /// Squares where no piece may stop, squares with powers, triggers.
    Squares,
    /// End rules that look at the position other than by counting pieces
    /// (`reach`, `line`, `captured`), or sides that drop out.
    End,
    /// A crowning.
    Crowning,
}

/// Where the side to move may place a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// The game places nothing.
    Never,
    /// On any empty square.
    Anywhere,
    /// Only where the placement wins something over.
    Enclosing,
}

/// The directions of one class of one side (the first `n` used, in the
/// rule file's order), with per direction the bits that have a square
/// before them along it (`from_ok`: where a step back stays on the
/// board).
#[derive(Clone, Copy, Debug, Default)]
struct Class {
    n: usize,
    d: [Dir<u64>; MAXF],
    back_ok: [u64; MAXF],
}

impl Class {
    /// The used directions.
    #[inline(always)]
    fn used(&self) -> &[Dir<u64>] {
        self.d.get(..self.n).unwrap_or(&[])
    }

    /// The used directions with their masks of steps back.
    #[inline(always)]
    fn used_back(&self) -> impl Iterator<Item = (&Dir<u64>, u64)> {
        self.used().iter().zip(self.back_ok.iter().copied())
    }

    /// The squares one step from a square of `b` along some direction.
    #[inline(always)]
    fn spread(&self, b: u64) -> u64 {
        self.used().iter().fold(0, |a, d| a | d.go(b & d.ok))
    }
}

/// The moves and captures of one side.
#[derive(Clone, Copy, Debug, Default)]
struct SideF {
    /// Steps that leave their square.
    steps: Class,
    /// Steps that leave a copy behind.
    clones: Class,
    /// The directions of enclosure (`capture custodian`).
    cust: Class,
    /// The directions of `capture neighbours`.
    nbrs: Class,
}

/// The kernel of flips of one game (see the module comment).
#[derive(Clone, Debug)]
pub struct FlipKernel {
    /// The board's layout (the game's, or one with its holes left out).
    layout: Layout,
    valid: u64,
    sides: [SideF; 2],
    place: Place,
    /// Enclosure takes a run of enemies (else exactly one).
    multiple: bool,
    /// A side that can't move passes.
    pass: bool,
    /// The end by counting pieces.
    count_limit: CountLimit,
}

/// The side to move, its pieces, the enemies and the empty squares.
type Sides = super::sides::Sides<u64>;

impl FlipKernel {
    /// The kernel of flips of a game, or why it has none.
    pub fn new(t: &Tables) -> Result<FlipKernel, NoFlips> {
        let converts = matches!(t.effect, JumpEffect::Convert(_));
        let encloses =
            t.custodian.iter().any(|v| !v.is_empty()) || t.neighbours.iter().any(|v| !v.is_empty());
        if !(t.places || t.clones || converts && encloses) {
            return Err(NoFlips::Plain);
        }
        if t.nsides != 2 {
            return Err(NoFlips::Sides);
        }
        if t.nkinds != 1 {
            return Err(NoFlips::Kinds);
        }
        let other_moves = t.moves.iter().any(|m| {
            !m.slide.is_empty()
                || !m.short_jump.is_empty()
                || !m.long_jump.is_empty()
                || !m.hop.is_empty()
                || !m.step_cap.is_empty()
                || !m.slide_cap.is_empty()
        });
        if other_moves || t.any_jumps || t.stacks || !t.opening.is_empty() {
            return Err(NoFlips::Moves);
        }
        let place = match t.game.placing.as_ref().map(|p| p.rule) {
            None => Place::Never,
            Some(PlaceRule::Anywhere) => Place::Anywhere,
            Some(PlaceRule::Enclosing) => Place::Enclosing,
            Some(PlaceRule::NextToOwn) => return Err(NoFlips::Moves),
        };
        if place != Place::Never && t.hand_start.iter().take(2).any(|&h| h != UNLIMITED) {
            return Err(NoFlips::Moves);
        }
        let converts_to_the_kind = matches!(t.effect, JumpEffect::Convert(k) if k.0 == 0);
        if encloses && !converts_to_the_kind || t.custodian_corners || t.use_criteria {
            return Err(NoFlips::Captures);
        }
        for a in 1..3u8 {
            for v in 1..3u8 {
                if t.can_capture(a, v) != (a != v) {
                    return Err(NoFlips::Captures);
                }
            }
        }
        if t.no_stop.iter().any(|&b| b)
            || t.powers.is_some()
            || t.trigger_to.iter().any(Option::is_some)
        {
            return Err(NoFlips::Squares);
        }
        if t.promo_to.iter().any(|&c| c != 0) {
            return Err(NoFlips::Crowning);
        }
        if t.end.drop_out {
            return Err(NoFlips::End);
        }
        let mut count_limit = CountLimit::default();
        for rule in &t.game.end.rules {
            let other_end = matches!(
                rule.condition,
                EndCondition::Reach { .. } | EndCondition::Line { .. } | EndCondition::Captured(_)
            );
            if !count_limit.take(&rule.condition) && other_end {
                return Err(NoFlips::End);
            }
        }
        // A board with holes has no layout in the tables (the general
        // path plays it square by square); the kernel's leaves them out.
        if t.game.lines.is_some() {
            return Err(NoFlips::Board);
        }
        let layout = match &t.layout {
            Some(l) => l.clone(),
            None => Layout::new(&t.game).ok_or(NoFlips::Board)?,
        };
        let valid = u64::try_from(layout.valid).map_err(|_| NoFlips::Board)?;
        // The general order of moves is by square; the kernel's by bit.
        if layout.bit_of.windows(2).any(|w| w[0] >= w[1]) || layout.bit_of.len() != t.n {
            return Err(NoFlips::Board);
        }
        let class = |v: &[u8]| -> Result<Class, NoFlips> {
            if v.len() > MAXF {
                return Err(NoFlips::Moves);
            }
            let mut out = Class {
                n: v.len(),
                ..Class::default()
            };
            for ((slot, back), &d) in out.d.iter_mut().zip(out.back_ok.iter_mut()).zip(v) {
                *slot = dir_of(t, &layout, usize::from(d)).ok_or(NoFlips::Board)?;
                *back = slot.go(slot.ok);
            }
            Ok(out)
        };
        let mut sides = [SideF::default(); 2];
        for (s, side) in sides.iter_mut().enumerate() {
            let m = t.moves.get(1 + s).ok_or(NoFlips::Moves)?;
            *side = SideF {
                steps: class(&m.step)?,
                clones: class(&m.clone)?,
                cust: class(t.custodian.get(s).map_or(&[][..], Vec::as_slice))?,
                nbrs: class(t.neighbours.get(s).map_or(&[][..], Vec::as_slice))?,
            };
        }
        if place != Place::Never && t.place_code.iter().any(|&c| usize::from(c) > 2 || c == 0) {
            return Err(NoFlips::Moves);
        }
        Ok(FlipKernel {
            layout,
            valid,
            sides,
            place,
            multiple: t.custodian_multiple,
            pass: t.end.no_moves == Verdict::Pass,
            count_limit,
        })
    }

    /// The kernel's layout of the board (its bits, and the square of each).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The kernel's form of a position (None if it doesn't fit: a side
    /// out, a hand that is not unlimited, counts that disagree).
    pub fn position(&self, pos: &Position) -> Option<KPos<u64>> {
        if pos.out != 0 || pos.to_move > 1 || pos.board.len() != self.layout.bit_of.len() {
            return None;
        }
        if self.place != Place::Never && pos.hand.iter().take(2).any(|&h| h != UNLIMITED) {
            return None;
        }
        let mut p: KPos<u64> = KPos {
            side: pos.to_move,
            ..KPos::default()
        };
        for (&code, &bit) in pos.board.iter().zip(&self.layout.bit_of) {
            let b = 1u64.checked_shl(u32::from(bit))?;
            match code {
                EMPTY => {}
                1 => p.pcs[0][0] |= b,
                2 => p.pcs[1][0] |= b,
                _ => return None,
            }
        }
        for s in 0..2 {
            if p.side_pcs(s).count_ones() != u32::from(*pos.count.get(s)?) {
                return None;
            }
        }
        Some(p)
    }

    /// Writes a kernel position back into a `Position` of the game (its
    /// buffers reused; the hands are left as they are, unlimited).
    pub fn write_position(&self, t: &Tables, p: &KPos<u64>, pos: &mut Position) {
        pos.board.clear();
        pos.board.resize(t.n, EMPTY);
        pos.bb.clear();
        if t.layout.is_some() {
            pos.bb.resize(1 + t.nsides * t.nkinds, 0);
        }
        pos.count = [0; crate::board::position::MAX_SIDES];
        pos.out = 0;
        pos.to_move = p.side;
        for s in 0..2 {
            let code = 1 + s;
            let mut b = p.pcs[s][0];
            while b != 0 {
                let bit = b.trailing_zeros() as usize;
                b &= b - 1;
                let Some(&sq) = self.layout.sq_of.get(bit) else {
                    continue;
                };
                if let Some(x) = pos.board.get_mut(usize::from(sq)) {
                    *x = code as u8;
                    pos.count[s] += 1;
                }
                if let Some(bb) = pos.bb.get_mut(code) {
                    *bb |= 1 << bit;
                }
            }
        }
    }

    /// The side to move, its pieces, the enemies and the empty squares.
    #[inline(always)]
    fn sides_of(&self, p: &KPos<u64>) -> Sides {
        Sides::of(p, self.valid)
    }

    /// Whether the game is over by the position alone.
    #[inline(always)]
    fn over(&self, p: &KPos<u64>) -> bool {
        self.count_limit.over(p)
    }

    /// The enemies a piece of side `x.s` arriving on `to` (from `from`, 0
    /// for a placement or a copy) wins over: the runs it encloses against
    /// a piece of its side (the start square counts as empty), and the
    /// enemies next to it.
    #[inline(always)]
    fn flips(&self, x: &Sides, from: u64, to: u64) -> u64 {
        let sf = &self.sides[x.s];
        let own = x.own & !from;
        let mut won = 0u64;
        for d in sf.cust.used() {
            let mut c = d.go(to & d.ok);
            let mut run = 0u64;
            while c & x.enemy != 0 {
                run |= c;
                c = d.go(c & d.ok);
                if !self.multiple {
                    break;
                }
            }
            if c & own != 0 {
                won |= run;
            }
        }
        won | (sf.nbrs.spread(to) & x.enemy)
    }

    /// The squares where the side to move may place a piece.
    #[inline(always)]
    fn places(&self, x: &Sides) -> u64 {
        match self.place {
            Place::Never => 0,
            Place::Anywhere => x.empty,
            Place::Enclosing => {
                let sf = &self.sides[x.s];
                let mut at = 0u64;
                // Beyond a run of enemies that starts at a piece of the
                // mover, looking back along the direction of enclosure.
                for (d, back_ok) in sf.cust.used_back() {
                    let mut run = d.back(x.own & back_ok) & x.enemy;
                    while run != 0 {
                        at |= d.back(run & back_ok);
                        if !self.multiple {
                            break;
                        }
                        run = d.back(run & back_ok) & x.enemy;
                    }
                }
                // Next to an enemy along a direction of `capture
                // neighbours`.
                for (d, back_ok) in sf.nbrs.used_back() {
                    at |= d.back(x.enemy & back_ok);
                }
                at & x.empty
            }
        }
    }

    /// The number of steps of the side to move.
    #[inline(always)]
    fn step_count(&self, x: &Sides) -> u64 {
        self.sides[x.s]
            .steps
            .used()
            .iter()
            .map(|d| u64::from((d.go(x.own & d.ok) & x.empty).count_ones()))
            .sum()
    }

    /// The squares a copy of a piece of the side to move may go to.
    #[inline(always)]
    fn clone_squares(&self, x: &Sides) -> u64 {
        self.sides[x.s].clones.spread(x.own) & x.empty
    }

    /// The numbers of steps, placements and copies of the side to move
    /// (no pass).
    #[inline(always)]
    fn counts(&self, x: &Sides) -> (u64, u64, u64) {
        (
            self.step_count(x),
            u64::from(self.places(x).count_ones()),
            u64::from(self.clone_squares(x).count_ones()),
        )
    }

    /// Whether the side to move has a move of its own (not a pass).
    #[inline(always)]
    fn can_move(&self, x: &Sides) -> bool {
        self.places(x) != 0
            || self.clone_squares(x) != 0
            || self.sides[x.s]
                .steps
                .used()
                .iter()
                .any(|d| d.go(x.own & d.ok) & x.empty != 0)
    }

    /// Whether the side to move, having no move, passes: the game passes,
    /// and the other side has a move.
    #[inline(always)]
    fn passes(&self, x: &Sides) -> bool {
        self.pass && self.can_move(&x.other())
    }

    /// The number of legal moves in `p` as the general generator lists
    /// them: a pass counts as one; 0 where the game is over.
    pub fn count(&self, p: &KPos<u64>) -> u64 {
        if self.over(p) {
            return 0;
        }
        let x = self.sides_of(p);
        let (a, b, c) = self.counts(&x);
        let n = a + b + c;
        if n == 0 && self.passes(&x) {
            return 1;
        }
        n
    }

    /// The position after a pass.
    #[inline(always)]
    pub fn pass(p: &KPos<u64>) -> KPos<u64> {
        KPos {
            pcs: p.pcs,
            side: p.side ^ 1,
        }
    }

    /// The move of a piece from `from` (0: a placement or a copy) to `to`.
    #[inline(always)]
    fn mv(&self, x: &Sides, from: u64, to: u64) -> KMove<u64> {
        KMove {
            from,
            to,
            cap: self.flips(x, from, to),
            kind: 0,
            result: 0,
            turned: false,
            crowned: false,
        }
    }

    /// Plays a move of this kernel (the pieces of `cap` won over).
    #[inline(always)]
    pub fn play(&self, p: &KPos<u64>, m: &KMove<u64>) -> KPos<u64> {
        p.play_with(m, 0)
    }

    /// All legal moves of `p` in the general generator's order, without
    /// a pass (none where the game is over; `count` says 1 where the side
    /// to move passes).
    pub fn generate(&self, p: &KPos<u64>, out: &mut Vec<KMove<u64>>) {
        out.clear();
        if self.over(p) {
            return;
        }
        let x = self.sides_of(p);
        let sf = &self.sides[x.s];
        // Steps, by start square, then direction.
        let mut own = x.own;
        while own != 0 {
            let from = own & own.wrapping_neg();
            own &= own - 1;
            for d in sf.steps.used() {
                let to = d.go(from & d.ok) & x.empty;
                if to != 0 {
                    out.push(self.mv(&x, from, to));
                }
            }
        }
        let mut at = self.places(&x);
        while at != 0 {
            let to = at & at.wrapping_neg();
            at &= at - 1;
            out.push(self.mv(&x, 0, to));
        }
        // Copies, in the order their squares are first found.
        let mut seen = 0u64;
        let mut own = x.own;
        while own != 0 {
            let from = own & own.wrapping_neg();
            own &= own - 1;
            for d in sf.clones.used() {
                let to = d.go(from & d.ok) & x.empty & !seen;
                if to != 0 {
                    seen |= to;
                    out.push(self.mv(&x, 0, to));
                }
            }
        }
    }

    /// Move `i` of `p` in the general generator's order (see `generate`),
    /// given the numbers of steps and placements.
    #[inline(always)]
    fn nth(&self, x: &Sides, steps: u64, places: u64, mut i: u64) -> Option<KMove<u64>> {
        let sf = &self.sides[x.s];
        if i < steps {
            // Per direction, the pieces that have that step.
            let mut src = [0u64; MAXF];
            let mut any = 0u64;
            for (b, d) in src.iter_mut().zip(sf.steps.used()) {
                *b = d.back(d.go(x.own & d.ok) & x.empty);
                any |= *b;
            }
            while any != 0 {
                let from = any & any.wrapping_neg();
                any &= any - 1;
                let c: u64 = src.iter().map(|&b| u64::from(b & from != 0)).sum();
                if i >= c {
                    i -= c;
                    continue;
                }
                for (&b, d) in src.iter().zip(sf.steps.used()) {
                    if b & from == 0 {
                        continue;
                    }
                    if i == 0 {
                        return Some(self.mv(x, from, d.go(from)));
                    }
                    i -= 1;
                }
                return None;
            }
            return None;
        }
        i -= steps;
        if i < places {
            let mut at = self.places(x);
            for _ in 0..i {
                at &= at.wrapping_sub(1);
            }
            return (at != 0).then(|| self.mv(x, 0, at & at.wrapping_neg()));
        }
        i -= places;
        let mut seen = 0u64;
        let mut own = x.own;
        while own != 0 {
            let from = own & own.wrapping_neg();
            own &= own - 1;
            let new = sf.clones.spread(from) & x.empty & !seen;
            let c = u64::from(new.count_ones());
            if i >= c {
                i -= c;
                seen |= new;
                continue;
            }
            for d in sf.clones.used() {
                let to = d.go(from & d.ok) & x.empty & !seen;
                if to != 0 {
                    if i == 0 {
                        return Some(self.mv(x, 0, to));
                    }
                    i -= 1;
                    seen |= to;
                }
            }
            return None;
        }
        None
    }

    /// Perft: the number of leaves of the move tree to `depth` plies (a
    /// pass is a move).
    pub fn perft(&self, p: &KPos<u64>, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.walk(p, depth)
    }

    fn walk(&self, p: &KPos<u64>, depth: usize) -> u64 {
        if depth <= 1 {
            return self.count(p);
        }
        if self.over(p) {
            return 0;
        }
        let x = self.sides_of(p);
        let sf = &self.sides[x.s];
        let mut total = 0;
        let mut any = false;
        for d in sf.steps.used() {
            let mut to = d.go(x.own & d.ok) & x.empty;
            any |= to != 0;
            while to != 0 {
                let t = to & to.wrapping_neg();
                to &= to - 1;
                let m = self.mv(&x, d.back(t), t);
                total += self.walk(&self.play(p, &m), depth - 1);
            }
        }
        // Placements, then copies: a square may be filled both ways, two
        // moves.
        for mut fill in [self.places(&x), self.clone_squares(&x)] {
            any |= fill != 0;
            while fill != 0 {
                let t = fill & fill.wrapping_neg();
                fill &= fill - 1;
                let m = self.mv(&x, 0, t);
                total += self.walk(&self.play(p, &m), depth - 1);
            }
        }
        if !any && self.passes(&x) {
            return self.walk(&Self::pass(p), depth - 1);
        }
        total
    }

    /// Plays at most `max` random plies from `p` (see
    /// `playout::random_plies`; where the side to move passes, the general
    /// path plays the pass). The plies played.
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

impl PlayoutKernel for FlipKernel {
    type W = u64;
    type Pos = KPos<u64>;
    /// The sides, and the numbers of steps and placements.
    type Counted = (Sides, u64, u64);
    type Move = KMove<u64>;

    #[inline(always)]
    fn count_moves(&self, p: &KPos<u64>) -> Option<(u64, (Sides, u64, u64))> {
        if self.over(p) {
            return None;
        }
        let x = self.sides_of(p);
        let (steps, places, clones) = self.counts(&x);
        Some((steps + places + clones, (x, steps, places)))
    }

    #[inline(always)]
    fn nth_move(
        &self,
        _: &KPos<u64>,
        (x, steps, places): &(Sides, u64, u64),
        i: u64,
    ) -> Option<KMove<u64>> {
        self.nth(x, *steps, *places, i)
    }

    #[inline(always)]
    fn make_move<H: PlayoutHost<u64>>(
        &self,
        p: &mut KPos<u64>,
        m: KMove<u64>,
        host: &mut H,
    ) -> bool {
        let after = self.play(p, &m);
        playout::moved(host, p, &m, after)
    }
}
