//! The kernel of slides: a fast path for rule files whose pieces slide like
//! rooks (or step) and take by enclosing (the family of Hasami shogi). Two
//! sides, one kind; slides (a ray per direction, as far as the squares are
//! empty) and steps onto empty squares, along at most four directions of
//! each class that are one shift of the board's layout; custodian capture
//! (`capture custodian DIRS`, one enemy or a run with `multiple`, on
//! several lines at once, and in the corners with `corners`), the captured
//! pieces removed; end rules that count pieces (`no-pieces`, `reduced-to`)
//! or look at the history (`repetition`, draw counters: the playout host
//! keeps those); a board of at most 128 playable squares (`u128`).
//!
//! A position is the kernel's `KPos<u128>` (one board per side). The moves
//! of a ply are counted by shifts and popcounts: per slide direction, the
//! ray fill of all the pieces at once through the empty squares (two
//! pieces' rays along one direction never meet), per step direction one
//! shift. Perft counts the last ply so, with no move list; a random playout
//! counts the moves, draws one with the same `rng.below(n)` as the general
//! path and builds only that one, in the general generator's order (by
//! start square in bit order; per square its steps in the rule file's order
//! of directions, then its slides by direction and distance), so that a
//! seeded playout is the same game on both paths (`tests/kernel_slides.rs`).
//! The enemies taken are found for the one move made: per direction of
//! enclosure, the run of enemies next to the square reached and the
//! friendly piece beyond it (the start square counts as empty), and the
//! enemy on a corner next to it whose other neighbours are friendly.
//!
//! Where the directions are the four orthogonals of a board of width 7, 8,
//! 9 or 11 (shifts of 1 and the width), the loops over directions compile
//! to constant shifts (`Diag<1, W>` of the kernel of jumps, whose slots
//! are +A, +B, -A, -B); any other layout reads each direction's shift from
//! its `Dir`.

use super::playout::{self, nth_target, slides_of, PlayoutKernel};
use super::sides::CountLimit;
use super::{
    by_slot, dir_of, slide_count, Diag, Dirs, KMove, KPos, KindK, PlayoutHost, Shift, Var, Word,
    MAXD, NO_KIND,
};
use crate::board::game::{EndCondition, JumpEffect, Verdict};
use crate::board::position::Position;
use crate::board::tables::{Tables, NONE};
use crate::rng::Rng;
use std::marker::PhantomData;

/// The most corners of a board (its four).
const MAXC: usize = 4;

/// Why a rule file has no kernel of slides (another kernel or the general
/// path plays it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoSlides {
    /// Not tried: a kernel before it in the order of `Tables::new` plays
    /// the game.
    Other,
    /// No piece slides: not a game of this kernel (the kernel of steps
    /// says why it doesn't take it).
    Plain,
    /// Squares where no piece may stop, squares with powers (hostile,
    /// only some kinds), kinds with conditions (`captured surrounded`,
    /// `unarmed`), triggers: the tafl games.
    Squares,
    /// Not two sides.
    Sides,
    /// Moves other than slides and steps onto empty squares: jumps,
    /// hops, copies, placements, captures by replacement, opening
    /// removals, columns, or more than four directions of a class.
    Moves,
    /// Captures other than custodian capture that removes: conversions,
    /// `capture neighbours`, precedence criteria, pieces that can't be
    /// taken.
    Captures,
    /// More than one kind of piece.
    Kinds,
    /// A crowning.
    Crowning,
    /// End rules that look at the position other than by counting pieces
    /// (`reach`, `line`, `captured`), passes, sides that drop out.
    End,
    /// No bitboard layout (holes, lines that join only some squares), or
    /// a direction that is not one shift of it.
    Board,
}

/// How the kernel's shifts are made: read from each `Dir` (`Var`), or
/// constant for the orthogonals of a board of width 7, 8, 9 or 11.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Geo {
    Var,
    O7,
    O8,
    O9,
    O11,
}

/// Runs `$e` with `$G` the kernel's `Shift` type (one compiled copy per
/// geometry, chosen once per call).
macro_rules! by_width {
    ($k:expr, $G:ident => $e:expr) => {
        match $k.geo {
            Geo::Var => {
                type $G = Var;
                $e
            }
            Geo::O7 => {
                type $G = Diag<1, 7>;
                $e
            }
            Geo::O8 => {
                type $G = Diag<1, 8>;
                $e
            }
            Geo::O9 => {
                type $G = Diag<1, 9>;
                $e
            }
            Geo::O11 => {
                type $G = Diag<1, 11>;
                $e
            }
        }
    };
}

/// The corners of the board as custodian capture sees them for one side:
/// per corner its bit, the squares from which a piece arriving has it next
/// to it along a direction of enclosure (`adj`), and its neighbours along
/// those directions (`nbr`).
#[derive(Clone, Copy, Debug, Default)]
struct Corners {
    n: usize,
    sq: [u128; MAXC],
    adj: [u128; MAXC],
    nbr: [u128; MAXC],
    /// The union of `adj`: a move ending elsewhere takes no corner.
    near: u128,
}

/// The moves and captures of one side.
#[derive(Clone, Copy, Debug)]
struct SideS {
    /// Its steps and slides (the kernel of jumps' record of a kind; no
    /// jumps, no crowning).
    moves: KindK<u128>,
    /// The directions of enclosure.
    cust: Dirs<u128>,
    corners: Corners,
}

/// The kernel of slides of one game (see the module comment).
#[derive(Clone, Debug)]
pub struct SlideKernel {
    valid: u128,
    sides: [SideS; 2],
    /// Enclosure takes a run of enemies (else exactly one).
    multiple: bool,
    /// The end by counting pieces.
    count_limit: CountLimit,
    geo: Geo,
}

/// The side to move, its pieces, the enemies and the empty squares.
type Sides = super::sides::Sides<u128>;

impl SlideKernel {
    /// The kernel of slides of a game, or why it has none.
    pub fn new(t: &Tables) -> Result<SlideKernel, NoSlides> {
        let slides = t.moves.iter().any(|m| !m.slide.is_empty());
        let k = Self::build(t);
        // A game where nothing slides is the kernel of steps' to explain.
        if k.is_err() && !slides {
            return Err(NoSlides::Plain);
        }
        k
    }

    fn build(t: &Tables) -> Result<SlideKernel, NoSlides> {
        if t.no_stop.iter().any(|&b| b)
            || t.powers.is_some()
            || t.trigger_to.iter().any(Option::is_some)
        {
            return Err(NoSlides::Squares);
        }
        if t.nsides != 2 {
            return Err(NoSlides::Sides);
        }
        let other_moves = t.moves.iter().any(|m| {
            !m.short_jump.is_empty()
                || !m.long_jump.is_empty()
                || !m.hop.is_empty()
                || !m.clone.is_empty()
                || !m.step_cap.is_empty()
                || !m.slide_cap.is_empty()
        });
        if other_moves || t.any_jumps || t.places || t.clones || t.stacks || !t.opening.is_empty() {
            return Err(NoSlides::Moves);
        }
        if !matches!(t.effect, JumpEffect::RemoveAtOnce | JumpEffect::RemoveAtEnd)
            || t.use_criteria
            || t.neighbours.iter().any(|v| !v.is_empty())
        {
            return Err(NoSlides::Captures);
        }
        if t.nkinds != 1 {
            return Err(NoSlides::Kinds);
        }
        for a in 1..3u8 {
            for v in 1..3u8 {
                if t.can_capture(a, v) != (a != v) {
                    return Err(NoSlides::Captures);
                }
            }
        }
        if t.promo_to.iter().any(|&c| c != 0) {
            return Err(NoSlides::Crowning);
        }
        if t.end.drop_out || t.end.no_moves == Verdict::Pass {
            return Err(NoSlides::End);
        }
        let mut count_limit = CountLimit::default();
        for rule in &t.game.end.rules {
            let other_end = matches!(
                rule.condition,
                EndCondition::Reach { .. } | EndCondition::Line { .. } | EndCondition::Captured(_)
            );
            if !count_limit.take(&rule.condition) && other_end {
                return Err(NoSlides::End);
            }
        }
        let l = t.layout.as_ref().ok_or(NoSlides::Board)?;
        // The general order of moves is by square; the kernel's by bit.
        if l.bit_of.windows(2).any(|w| w[0] >= w[1]) || l.bit_of.len() != t.n {
            return Err(NoSlides::Board);
        }
        let class = |v: &[u8]| -> Result<Dirs<u128>, NoSlides> {
            if v.len() > MAXD {
                return Err(NoSlides::Moves);
            }
            let mut out = Dirs {
                n: v.len(),
                ..Dirs::default()
            };
            for (i, &d) in v.iter().enumerate() {
                out.d[i] = dir_of(t, l, usize::from(d)).ok_or(NoSlides::Board)?;
                out.rank[i] = i as u8;
            }
            Ok(out)
        };
        let bit = |sq: usize| -> Result<u128, NoSlides> {
            let b = *l.bit_of.get(sq).ok_or(NoSlides::Board)?;
            1u128.checked_shl(u32::from(b)).ok_or(NoSlides::Board)
        };
        let mut sides = [SideS {
            moves: KindK::default(),
            cust: Dirs::default(),
            corners: Corners::default(),
        }; 2];
        for (s, side) in sides.iter_mut().enumerate() {
            let m = t.moves.get(1 + s).ok_or(NoSlides::Moves)?;
            let cust_dirs = t.custodian.get(s).map_or(&[][..], Vec::as_slice);
            let mut corners = Corners::default();
            if t.custodian_corners {
                for (sq, _) in t.corner.iter().enumerate().filter(|(_, &c)| c) {
                    let c = corners.n;
                    if c == MAXC {
                        return Err(NoSlides::Board);
                    }
                    corners.n += 1;
                    corners.sq[c] = bit(sq)?;
                    for &d in cust_dirs {
                        let nb = t.step(sq as u16, d);
                        if nb != NONE {
                            corners.nbr[c] |= bit(usize::from(nb))?;
                        }
                        for to in 0..t.n {
                            if usize::from(t.step(to as u16, d)) == sq {
                                corners.adj[c] |= bit(to)?;
                            }
                        }
                    }
                    corners.near |= corners.adj[c];
                }
            }
            *side = SideS {
                moves: KindK {
                    step: class(&m.step)?,
                    slide: class(&m.slide)?,
                    short: Dirs::default(),
                    long: Dirs::default(),
                    promo: 0,
                    promo_to: NO_KIND,
                },
                cust: class(cust_dirs)?,
                corners,
            };
        }
        // Constant shifts where every class's directions are the
        // orthogonals of the board's width.
        let w = u32::from(t.game.width);
        let geo = match w {
            7 => Geo::O7,
            8 => Geo::O8,
            9 => Geo::O9,
            11 => Geo::O11,
            _ => Geo::Var,
        };
        let geo = if geo == Geo::Var {
            Geo::Var
        } else {
            let mut slotted = sides;
            let mut all = true;
            for side in &mut slotted {
                for dirs in [&mut side.moves.step, &mut side.moves.slide, &mut side.cust] {
                    match by_slot(dirs, 1, w) {
                        Some(d) => *dirs = d,
                        None => all = false,
                    }
                }
            }
            if all {
                sides = slotted;
                geo
            } else {
                Geo::Var
            }
        };
        Ok(SlideKernel {
            valid: l.valid,
            sides,
            multiple: t.custodian_multiple,
            count_limit,
            geo,
        })
    }

    /// Whether the kernel makes its shifts by constants (the orthogonals
    /// of a board of width 7, 8, 9 or 11) rather than reading them.
    pub fn constant_shifts(&self) -> bool {
        self.geo != Geo::Var
    }

    /// The kernel's form of a position (None if it doesn't fit).
    pub fn position(&self, pos: &Position) -> Option<KPos<u128>> {
        super::kpos_of(pos, 1)
    }

    /// Writes a kernel position back into a `Position` of the game.
    pub fn write_position(&self, t: &Tables, p: &KPos<u128>, pos: &mut Position) {
        super::write_kpos(t, 1, p, pos);
    }

    /// The side to move, its pieces, the enemies and the empty squares.
    #[inline(always)]
    fn sides_of(&self, p: &KPos<u128>) -> Sides {
        Sides::of(p, self.valid)
    }

    /// Whether the game is over by the position alone.
    #[inline(always)]
    fn over(&self, p: &KPos<u128>) -> bool {
        self.count_limit.over(p)
    }

    /// The enemies a piece of side `x.s` moving from `from` to `to`
    /// takes: per direction of enclosure the run of enemies next to `to`
    /// closed by a friendly piece (not the one that left `from`), and the
    /// enemies on corners next to `to` whose other neighbours are all
    /// friendly.
    #[inline(always)]
    fn taken<G: Shift>(&self, x: &Sides, from: u128, to: u128) -> u128 {
        let sf = &self.sides[x.s];
        let own = x.own & !from;
        let enemy = x.enemy;
        let multiple = self.multiple;
        let mut cap = 0u128;
        each_slot!(sf.cust, j, d, {
            let mut c = G::go(j, d, to & d.ok);
            if c & enemy != 0 {
                let mut run = 0u128;
                while c & enemy != 0 {
                    run |= c;
                    c = G::go(j, d, c & d.ok);
                    if !multiple {
                        break;
                    }
                }
                if c & own != 0 {
                    cap |= run;
                }
            }
        });
        let cs = &sf.corners;
        if to & cs.near != 0 {
            for c in 0..cs.n.min(MAXC) {
                if to & cs.adj[c] != 0 && cs.sq[c] & enemy != 0 {
                    let rest = cs.nbr[c] & !to;
                    if rest != 0 && rest & !own == 0 {
                        cap |= cs.sq[c];
                    }
                }
            }
        }
        cap
    }

    /// The move of the piece on `from` to `to`, with what it takes.
    #[inline(always)]
    fn mv<G: Shift>(&self, x: &Sides, from: u128, to: u128) -> KMove<u128> {
        KMove {
            from,
            to,
            cap: self.taken::<G>(x, from, to),
            kind: 0,
            result: 0,
            turned: false,
            crowned: false,
        }
    }

    /// The number of moves of the side to move (the game not over).
    #[inline(always)]
    fn moves_of<G: Shift>(&self, x: &Sides) -> u64 {
        let m = &self.sides[x.s].moves;
        let mut total = 0u64;
        each_slot!(m.step, j, d, {
            let to = G::go(j, d, x.own & d.ok) & x.empty;
            if to != 0 {
                total += u64::from(to.count_ones());
            }
        });
        if m.slide.n > 0 {
            total += slide_count::<G, u128>(m, x.own, x.empty, x.empty);
        }
        total
    }

    /// The number of legal moves in `p` as the general generator lists
    /// them: 0 where the game is over.
    pub fn count(&self, p: &KPos<u128>) -> u64 {
        if self.over(p) {
            return 0;
        }
        let x = self.sides_of(p);
        by_width!(self, G => self.moves_of::<G>(&x))
    }

    /// Plays a move of this kernel (the pieces of `cap` removed).
    #[inline(always)]
    pub fn play(&self, p: &KPos<u128>, m: &KMove<u128>) -> KPos<u128> {
        p.play(m)
    }

    /// All legal moves of `p` in the general generator's order (none where
    /// the game is over).
    pub fn generate(&self, p: &KPos<u128>, out: &mut Vec<KMove<u128>>) {
        out.clear();
        if self.over(p) {
            return;
        }
        by_width!(self, G => self.generate_g::<G>(p, out))
    }

    fn generate_g<G: Shift>(&self, p: &KPos<u128>, out: &mut Vec<KMove<u128>>) {
        let x = self.sides_of(p);
        let m = &self.sides[x.s].moves;
        let mut own = x.own;
        while own != 0 {
            let from = own.lowest();
            own = own.clear_lowest();
            // Steps, then slides, each in the rule file's order of
            // directions; a slide square by square.
            for r in 0..m.step.n {
                let Some(j) = m.step.slot_of_rank(r) else {
                    continue;
                };
                let d = m.step.d[j];
                let to = G::go(j, d, from & d.ok) & x.empty;
                if to != 0 {
                    out.push(self.mv::<G>(&x, from, to));
                }
            }
            for r in 0..m.slide.n {
                let Some(j) = m.slide.slot_of_rank(r) else {
                    continue;
                };
                let d = m.slide.d[j];
                let mut b = from;
                while b & d.ok != 0 {
                    b = G::go(j, d, b);
                    if b & x.empty == 0 {
                        break;
                    }
                    out.push(self.mv::<G>(&x, from, b));
                }
            }
        }
    }

    /// Move `i` of the side to move in the general generator's order.
    #[inline(always)]
    fn nth<G: Shift>(&self, x: &Sides, mut i: u64) -> Option<KMove<u128>> {
        let m = &self.sides[x.s].moves;
        let mut own = x.own;
        // Per step slot, the pieces that have that step.
        let mut src = [0u128; MAXD];
        each_slot!(m.step, j, d, {
            src[j] = G::back(j, d, G::go(j, d, x.own & d.ok) & x.empty);
        });
        while own != 0 {
            let from = own.lowest();
            own = own.clear_lowest();
            let mut c = u64::from(from & src[0] != 0)
                + u64::from(from & src[1] != 0)
                + u64::from(from & src[2] != 0)
                + u64::from(from & src[3] != 0);
            if m.slide.n > 0 {
                c += slides_of::<G, u128>(m, from, x.empty, x.empty);
            }
            if i >= c {
                i -= c;
                continue;
            }
            let to = nth_target::<G, u128>(m, from, x.empty, x.empty, i)?;
            return Some(self.mv::<G>(x, from, to));
        }
        None
    }

    /// Perft: the number of leaves of the move tree to `depth` plies.
    pub fn perft(&self, p: &KPos<u128>, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        by_width!(self, G => self.walk::<G>(p, depth))
    }

    fn walk<G: Shift>(&self, p: &KPos<u128>, depth: usize) -> u64 {
        if self.over(p) {
            return 0;
        }
        let x = self.sides_of(p);
        if depth <= 1 {
            return self.moves_of::<G>(&x);
        }
        let m = &self.sides[x.s].moves;
        let mut total = 0;
        each_slot!(m.step, j, d, {
            let mut to = G::go(j, d, x.own & d.ok) & x.empty;
            while to != 0 {
                let t = to.lowest();
                to = to.clear_lowest();
                let mv = self.mv::<G>(&x, G::back(j, d, t), t);
                total += self.walk::<G>(&p.play(&mv), depth - 1);
            }
        });
        let mut own = x.own;
        while own != 0 {
            let from = own.lowest();
            own = own.clear_lowest();
            each_slot!(m.slide, j, d, {
                let mut b = from;
                while b & d.ok != 0 {
                    b = G::go(j, d, b);
                    if b & x.empty == 0 {
                        break;
                    }
                    let mv = self.mv::<G>(&x, from, b);
                    total += self.walk::<G>(&p.play(&mv), depth - 1);
                }
            });
        }
        total
    }

    /// Plays at most `max` random plies from `p` (see
    /// `playout::random_plies`). The plies played.
    // A function of its own, with the host inlined into its loop (inlined
    // into its caller, the host's `played` is a call a ply).
    #[inline(never)]
    pub fn random_plies<H: PlayoutHost<u128>>(
        &self,
        p: &mut KPos<u128>,
        rng: &mut Rng,
        max: u32,
        host: &mut H,
    ) -> u32 {
        by_width!(self, G => playout::random_plies(&Shifted::<G>(self, PhantomData), p, rng, max, host))
    }
}

/// The kernel of slides with its shifts made by `G` (a `PlayoutKernel` per
/// geometry).
struct Shifted<'k, G>(&'k SlideKernel, PhantomData<G>);

impl<G: Shift> PlayoutKernel for Shifted<'_, G> {
    type W = u128;
    type Pos = KPos<u128>;
    /// The sides.
    type Counted = Sides;
    type Move = KMove<u128>;

    #[inline(always)]
    fn count_moves(&self, p: &KPos<u128>) -> Option<(u64, Sides)> {
        if self.0.over(p) {
            return None;
        }
        let x = self.0.sides_of(p);
        Some((self.0.moves_of::<G>(&x), x))
    }

    #[inline(always)]
    fn nth_move(&self, _: &KPos<u128>, x: &Sides, i: u64) -> Option<KMove<u128>> {
        self.0.nth::<G>(x, i)
    }

    #[inline(always)]
    fn make_move<H: PlayoutHost<u128>>(
        &self,
        p: &mut KPos<u128>,
        m: KMove<u128>,
        host: &mut H,
    ) -> bool {
        let after = p.play(&m);
        playout::moved(host, p, &m, after)
    }
}
