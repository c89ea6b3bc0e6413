//! A specialised engine for rule files of one family (men and kings): two
//! sides, at most two kinds per side (a piece and what it is crowned to),
//! steps, slides, short and long jumps along directions that are one
//! constant shift of a 64-bit board, compulsory capture (free or the most
//! pieces), captured pieces removed at once or at the end of the move,
//! crowning mid-chain (stay, continue or stop), "a long jump lands where it
//! can go on" and end rules that only count pieces.
//!
//! It is built once per game from the [`Tables`] (`Kernel::new`, None when
//! the game uses anything else: no-stop squares, triggers, conversions,
//! immunity, line limits, passes, more sides, boards beyond 64 bits), and
//! then generates moves and counts perft on a fixed-size `Copy` position of
//! four bitboards, with no table look-up per square. The general generator
//! (`movegen`) stays the reference: the kernel gives the same moves (as
//! from, to, captured set and resulting piece) and the same perft counts,
//! which `tests/kernel.rs` checks on every bundled game.
//!
//! The kernel is generic over its board word ([`Word`]): `Kernel<u64>`
//! (`Kernel::new`) counts perft and plays random playouts; a game that has
//! none gets, where it can, a `Kernel<u128>` (`Kernel::wide`): boards of up
//! to 128 playable squares, and also squares where no piece may stop,
//! captured pieces won over, end-of-move triggers and passes (which it
//! leaves to the general path: a playout or a perft count stops there).

use super::position::Position;
use super::tables::KindMoves;
use super::tables::{Tables, NONE};
use crate::board::game::{JumpEffect, MidChainCrown, Verdict};
pub use word::Word;

/// The most directions of one move class of one kind (the games this
/// kernel is for use the four diagonals). Unused slots hold a direction whose masks are
/// empty, so every loop over directions has four rounds and no test.
const MAXD: usize = 4;

/// The most jump-chain steps the kernel searches for one position: past
/// them it gives up (`generate` says so, `count` and `perft` give None) and
/// the general generator, with its own limits (docs/limits.md), decides.
/// Positions of the bundled games need a few hundred at most.
pub const MAX_STEPS: u32 = 10_000;

/// No kind (a kind that is not crowned).
const NO_KIND: u8 = u8::MAX;

/// One direction: the shift that moves a bit one step along it (left by
/// `l`, then right by `r`; one of the two is zero), and the bits from
/// which one step (`ok`) and two steps (`ok2`) stay on the board.
#[derive(Clone, Copy, Debug, Default)]
struct Dir<W: Word> {
    l: u32,
    r: u32,
    ok: W,
    ok2: W,
}

impl<W: Word> Dir<W> {
    /// One step along the direction (bits must be in `ok`).
    #[inline(always)]
    fn go(self, b: W) -> W {
        (b << self.l) >> self.r
    }

    /// One step back.
    #[inline(always)]
    fn back(self, b: W) -> W {
        (b >> self.l) << self.r
    }
}

/// How a direction's step is made: by the shifts stored in the `Dir<W>` (any
/// layout), or by constant shifts when the directions of the game are the
/// four diagonals of a layout with shifts `A` and `B` (slot 0: +A, 1: +B,
/// 2: -A, 3: -B), so that each loop over the four slots compiles to
/// constant shifts.
trait Shift {
    /// Slot `j ^ 2` is the reverse of slot `j` (the four diagonals).
    const DIAG: bool;
    fn go<W: Word>(j: usize, d: Dir<W>, b: W) -> W;
    fn back<W: Word>(j: usize, d: Dir<W>, b: W) -> W;
}

/// Shifts read from the `Dir<W>`.
struct Var;

impl Shift for Var {
    const DIAG: bool = false;
    #[inline(always)]
    fn go<W: Word>(_: usize, d: Dir<W>, b: W) -> W {
        d.go(b)
    }
    #[inline(always)]
    fn back<W: Word>(_: usize, d: Dir<W>, b: W) -> W {
        d.back(b)
    }
}

/// Constant shifts: slot `j` of every class is the diagonal of shift
/// +A, +B, -A, -B.
struct Diag<const A: u32, const B: u32>;

impl<const A: u32, const B: u32> Shift for Diag<A, B> {
    const DIAG: bool = true;
    #[inline(always)]
    fn go<W: Word>(j: usize, _: Dir<W>, b: W) -> W {
        match j {
            0 => b << A,
            1 => b << B,
            2 => b >> A,
            _ => b >> B,
        }
    }
    #[inline(always)]
    fn back<W: Word>(j: usize, _: Dir<W>, b: W) -> W {
        match j {
            0 => b >> A,
            1 => b >> B,
            2 => b << A,
            _ => b << B,
        }
    }
}

/// Runs `$e` with `$G` the kernel's `Shift` type (one compiled copy per
/// geometry, chosen once per call).
macro_rules! by_geo {
    ($k:expr, $G:ident => $e:expr) => {
        match $k.geo {
            $crate::board::kernel::Geo::Var => {
                type $G = $crate::board::kernel::Var;
                $e
            }
            $crate::board::kernel::Geo::D45 => {
                type $G = $crate::board::kernel::Diag<4, 5>;
                $e
            }
            $crate::board::kernel::Geo::D56 => {
                type $G = $crate::board::kernel::Diag<5, 6>;
                $e
            }
            $crate::board::kernel::Geo::D67 => {
                type $G = $crate::board::kernel::Diag<6, 7>;
                $e
            }
        }
    };
}

/// Which `Shift` the kernel uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Geo {
    Var,
    /// Diagonal shifts 4 and 5 (8 x 8 boards of one colour).
    D45,
    /// Diagonal shifts 5 and 6 (10 x 10 boards of one colour).
    D56,
    /// Diagonal shifts 6 and 7 (12 x 12 boards of one colour).
    D67,
}

/// The directions of one move class (unused slots: empty masks).
#[derive(Clone, Copy, Debug)]
struct Dirs<W: Word> {
    n: usize,
    d: [Dir<W>; MAXD],
    /// Per slot, its place in the rule file's list of the class's
    /// directions (`NO_RANK`: an unused slot): the general generator's
    /// order of moves, which random playouts follow.
    rank: [u8; MAXD],
}

/// The rank of an unused slot.
const NO_RANK: u8 = u8::MAX;

impl<W: Word> Default for Dirs<W> {
    fn default() -> Dirs<W> {
        Dirs {
            n: 0,
            d: [Dir::default(); MAXD],
            rank: [NO_RANK; MAXD],
        }
    }
}

impl<W: Word> Dirs<W> {
    /// The slot with rank `r`, if any.
    #[inline(always)]
    fn slot_of_rank(&self, r: usize) -> Option<usize> {
        self.rank.iter().position(|&x| usize::from(x) == r)
    }
}

// `each_slot!` and `any_slot!` expand their body once per slot.
const _: () = assert!(MAXD == 4);

/// Runs `$body` once for each direction slot of `$dirs` (a `Dirs<W>`), with
/// `$j` the slot number and `$d` its `Dir<W>`. The body is written out four
/// times with `$j` a literal, so that `Diag`'s shifts fold to constants (a
/// loop, or a closure the compiler keeps out of line, leaves a run-time
/// `match` on the slot). A `return` in the body returns from the function.
macro_rules! each_slot {
    ($dirs:expr, $j:ident, $d:ident, $body:block) => {{
        let dirs = &$dirs.d;
        {
            let $j: usize = 0;
            let $d = dirs[0];
            $body
        }
        {
            let $j: usize = 1;
            let $d = dirs[1];
            $body
        }
        {
            let $j: usize = 2;
            let $d = dirs[2];
            $body
        }
        {
            let $j: usize = 3;
            let $d = dirs[3];
            $body
        }
    }};
}

/// Whether the boolean `$body` holds for a direction slot of `$dirs`
/// (tried in slot order, stopping at the first), written out as in
/// `each_slot!`.
macro_rules! any_slot {
    ($dirs:expr, $j:ident, $d:ident, $body:expr) => {{
        let dirs = &$dirs.d;
        ({
            let $j: usize = 0;
            let $d = dirs[0];
            $body
        }) || ({
            let $j: usize = 1;
            let $d = dirs[1];
            $body
        }) || ({
            let $j: usize = 2;
            let $d = dirs[2];
            $body
        }) || ({
            let $j: usize = 3;
            let $d = dirs[3];
            $body
        })
    }};
}

/// Defines the perft walk `$name` (see `Kernel::perft`) and its count of
/// the last two plies `$last`, with the attributes given: stamped twice, as
/// the portable `walk` and `last_two` and as `walk_bits` and
/// `last_two_bits`, compiled with the bit instructions of x86-64
/// processors since about 2013 (`popcnt`, `bmi1`, `bmi2`), which the
/// default x86-64 target leaves out. Each copy calls itself and its own
/// `$last`; what they call `#[inline(always)]` (the counts of a position,
/// in the closures of `$last`, which inherit its instructions) is compiled
/// into them. (`#[inline(always)]` on `last_two` alone left it out of
/// line, compiled without the instructions.)
macro_rules! walk_fn {
    ($(#[$attr:meta])* $name:ident, $last:ident) => {
        /// The perft walk from `p` to `depth` plies (one copy of it: see
        /// `walk_fn!`).
        $(#[$attr])*
        fn $name<G: Shift>(
            &self,
            p: &KPos<W>,
            depth: usize,
            lists: &mut [Vec<KMove<W>>],
        ) -> Option<u64> {
            let (lo, hi) = lists.split_at_mut(depth);
            let list = hi.first_mut()?;
            if depth <= 1 {
                return self.leaf::<G>(p, lo.first_mut()?);
            }
            if depth == 2 && !W::RICH && G::DIAG {
                return self.$last::<G>(p, list, lo.first_mut()?);
            }
            if !self.generate_g::<G>(p, list) {
                return None;
            }
            if list.is_empty() && self.passes(p) {
                return None;
            }
            let mut total = 0;
            if depth == 2 {
                // The last ply counted here, not one call further down.
                let scratch = lo.first_mut()?;
                for m in list.iter() {
                    total += self.leaf::<G>(&self.apply(p, m), scratch)?;
                }
                return Some(total);
            }
            for m in list.iter() {
                total += self.$name::<G>(&self.apply(p, m), depth - 1, lo)?;
            }
            Some(total)
        }

        /// Perft at depth 2 in the diagonal geometries of the 64-bit kernel:
        /// each child counted by `count_diag` from its boards, computed from
        /// the move (the enemy's kinds don't matter there), without building
        /// the child; quiet moves are counted as they are found, never written
        /// down.
        $(#[$attr])*
        fn $last<G: Shift>(
            &self,
            p: &KPos<W>,
            list: &mut Vec<KMove<W>>,
            scratch: &mut Vec<KMove<W>>,
        ) -> Option<u64> {
            let mut js = [[W::ZERO; MAXD]; 2];
            let Some(Start {
                s,
                enemy,
                empty,
                cand,
            }) = self.start::<G>(p, &mut js)
            else {
                return Some(0);
            };
            let mine = p.side_pcs(s);
            let [t0, t1] = p.pcs[s ^ 1];
            let mut total = 0;
            if cand[0] | cand[1] != W::ZERO {
                list.clear();
                if !self.captures::<G, false>(s, enemy, empty, cand, &js, list, None) {
                    return None;
                }
                if !list.is_empty() {
                    for m in list.iter() {
                        let own = [t0 & !m.cap, t1 & !m.cap];
                        total += self.count_diag::<G>(s ^ 1, own, (mine & !m.from) | m.to, scratch)?;
                    }
                    return Some(total);
                }
            }
            let mut ok = true;
            // A quiet move leaves the pieces of the side to move next as they
            // are, and their number: unless one of them has long jumps, what
            // they reach is found once here (per slot, the squares their steps
            // reach and the squares next to a piece that may jump that way),
            // and each child is counted from its empty squares and its enemy
            // pieces alone; a child with a capture goes to `count_diag`.
            let (n0, n1) = (&self.moves[s ^ 1][0], &self.moves[s ^ 1][1]);
            if (t0 == W::ZERO || n0.long.n == 0) && (t1 == W::ZERO || n1.long.n == 0) {
                let mut reach = [W::ZERO; MAXD];
                let mut next = [W::ZERO; MAXD];
                each_slot!(n0.step, j, d, {
                    reach[j] = G::go(j, d, (t0 & d.ok) | (t1 & n1.step.d[j].ok));
                });
                each_slot!(n0.short, j, d, {
                    next[j] = G::go(j, d, (t0 & d.ok2) | (t1 & n1.short.d[j].ok2));
                });
                let slides = (t0 != W::ZERO && n0.slide.n > 0) || (t1 != W::ZERO && n1.slide.n > 0);
                self.each_quiet::<G>(p.pcs[s], empty, s, |_, from, to| {
                    let enemy = (mine & !from) | to;
                    let e = (empty | from) & !to;
                    let mut hit = W::ZERO;
                    each_slot!(n0.short, j, d, {
                        hit |= next[j] & enemy & G::back(j, d, e);
                    });
                    if hit != W::ZERO {
                        match self.count_diag::<G>(s ^ 1, [t0, t1], enemy, scratch) {
                            Some(n) => total += n,
                            None => ok = false,
                        }
                        return;
                    }
                    let mut n = 0;
                    each_slot!(n0.step, j, _d, {
                        n += (reach[j] & e).ones();
                    });
                    total += u64::from(n);
                    if slides {
                        for (m, o) in [(n0, t0), (n1, t1)] {
                            if m.slide.n > 0 && o != W::ZERO {
                                total += slide_count::<G, W>(m, o, e, e);
                            }
                        }
                    }
                });
                return ok.then_some(total);
            }
            self.each_quiet::<G>(p.pcs[s], empty, s, |_, from, to| {
                match self.count_diag::<G>(s ^ 1, [t0, t1], (mine & !from) | to, scratch) {
                    Some(n) => total += n,
                    None => ok = false,
                }
            });
            ok.then_some(total)
        }
    };
}

/// Whether the processor has the instructions `walk_bits` is compiled
/// with (detected once by the standard library, then a load).
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_bit_instructions() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
}

/// Which copy of the perft walk of the kernels of jumps (`Kernel::perft`)
/// runs on this processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkCopy {
    /// The copy compiled for any processor of the target.
    Portable,
    /// The copy compiled with x86-64's `popcnt`, `bmi1` and `bmi2`.
    BitInstructions,
}

/// The copy of the perft walk `Kernel::perft` runs on this processor.
pub fn walk_copy() -> WalkCopy {
    #[cfg(target_arch = "x86_64")]
    if has_bit_instructions() {
        return WalkCopy::BitInstructions;
    }
    WalkCopy::Portable
}

/// The moves of one (side, kind).
#[derive(Clone, Copy, Debug, Default)]
struct KindK<W: Word> {
    step: Dirs<W>,
    slide: Dirs<W>,
    short: Dirs<W>,
    long: Dirs<W>,
    /// Squares where it is crowned.
    promo: W,
    /// The kind it is crowned to (`NO_KIND`: none).
    promo_to: u8,
}

/// The kernel of one game (see the module comment).
#[derive(Clone, Debug)]
pub struct Kernel<W: Word = u64> {
    valid: W,
    /// The playable squares where a piece may stop.
    stop: W,
    /// The kind a captured piece becomes on the capturing side
    /// (`NO_KIND`: captured pieces are removed).
    convert: u8,
    /// Per mover, the squares where a trigger ends its move, and the side
    /// (0: its own, 1: the other) and kind its piece becomes there.
    trig: [W; 2],
    trig_to: [(u8, u8); 2],
    nkinds: usize,
    /// `moves[side][kind]`.
    moves: [[KindK<W>; 2]; 2],
    most: bool,
    mid: MidChainCrown,
    at_end: bool,
    must_continue: bool,
    long_must_continue: bool,
    /// Whether a kind jumps both short and long (then two chains of one
    /// jump may be the same move).
    twin_singles: bool,
    /// `short_only[side][kind]`: whether the kind's chains are short jumps
    /// alone, searched by `Kernel::short_dfs` (no long jumps, and no
    /// crowning mid-chain that goes on as another kind).
    short_only: [[bool; 2]; 2],
    /// Whether `short_dfs` searches those kinds (tests turn it off to
    /// compare it with `dfs`).
    short_search: bool,
    /// The game is over when a side has this many pieces or fewer.
    count_limit: Option<u32>,
    /// Whether a side that can't move passes (128-bit kernel only).
    pass: bool,
    /// How steps are made.
    geo: Geo,
    /// The search limit (`MAX_STEPS` unless set).
    max_steps: u32,
}

/// A position for the kernel: `pcs[side][kind]` as bitboards of the
/// game's layout, and the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KPos<W: Word = u64> {
    /// The pieces per side and kind.
    pub pcs: [[W; 2]; 2],
    /// The side to move (0 or 1).
    pub side: u8,
}

impl<W: Word> KPos<W> {
    /// All pieces of a side.
    #[inline(always)]
    pub fn side_pcs(&self, s: usize) -> W {
        let p = self.pcs[s & 1];
        p[0] | p[1]
    }

    /// The occupied squares.
    #[inline(always)]
    pub fn occ(&self) -> W {
        self.side_pcs(0) | self.side_pcs(1)
    }

    /// Plays a move generated on this position (captured pieces are
    /// removed; see `Kernel::apply` for captures that convert).
    #[inline(always)]
    pub fn play(&self, m: &KMove<W>) -> KPos<W> {
        self.play_with(m, NO_KIND)
    }

    /// Plays a move; the captured pieces are won over as kind `convert`
    /// of the mover (`NO_KIND`: removed). Computed on whole words, not by
    /// writing into the boards by index (a write of part of a board that
    /// is then read whole stalls the processor).
    #[inline(always)]
    fn play_with(&self, m: &KMove<W>, convert: u8) -> KPos<W> {
        let s = usize::from(self.side & 1);
        let [mut a0, mut a1] = self.pcs[s];
        let [mut b0, mut b1] = self.pcs[s ^ 1];
        // The start square is in one of the mover's boards.
        a0 &= !m.from;
        a1 &= !m.from;
        b0 &= !m.cap;
        b1 &= !m.cap;
        match (m.turned, m.result & 1 == 1) {
            (false, false) => a0 |= m.to,
            (false, true) => a1 |= m.to,
            (true, false) => b0 |= m.to,
            (true, true) => b1 |= m.to,
        }
        match convert {
            NO_KIND => {}
            0 => a0 |= m.cap,
            _ => a1 |= m.cap,
        }
        let pcs = if s == 0 {
            [[a0, a1], [b0, b1]]
        } else {
            [[b0, b1], [a0, a1]]
        };
        KPos {
            pcs,
            side: self.side ^ 1,
        }
    }
}

/// What `Kernel::start` finds: the side to move, the enemy pieces, the
/// empty squares and the pieces that can capture.
struct Start<W: Word> {
    s: usize,
    enemy: W,
    empty: W,
    cand: [W; 2],
}

/// Per kind: the squares from which a short jump along each direction slot
/// is possible (see `Kernel::jump_sets`).
type Jumps<W> = [[W; MAXD]; 2];

/// A move of the kernel: one bit each for the start and end squares, the
/// captured squares, the kind that moves and the kind that ends on `to`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KMove<W: Word = u64> {
    /// The start square's bit.
    pub from: W,
    /// The end square's bit.
    pub to: W,
    /// The captured squares.
    pub cap: W,
    /// The kind that moves.
    pub kind: u8,
    /// The kind on `to` after the move.
    pub result: u8,
    /// The piece on `to` went over to the other side (a trigger).
    pub turned: bool,
    /// The piece was crowned (mid-chain or at the end).
    pub crowned: bool,
}

/// The search state of one capture chain.
struct Chain<'o, W: Word> {
    side: usize,
    from: W,
    start_kind: u8,
    /// The enemy pieces before the move.
    enemy: W,
    /// The empty squares before the move, with the start square.
    empty: W,
    best: u32,
    begin: usize,
    /// The moves counted and not written to `out` (`Kernel::search` with
    /// `COUNT`): chains of short jumps alone, of fewer than `TWIN_JUMPS`
    /// jumps, at the majority rule's `best`.
    count: u64,
    /// The squares where the chain's kind is crowned and the move ends
    /// (`crown mid-chain stop`; read by `Kernel::short_dfs`).
    crown_stop: W,
    out: &'o mut Vec<KMove<W>>,
    /// Chain steps searched.
    steps: u32,
    /// The path of the chain so far (with `K`, see `Kernel::captures`):
    /// the start square's bit number in the top byte, then one byte per
    /// jump (`key_digit`), so that the general generator's order of the
    /// moves is the order of their keys.
    key: u128,
    /// Per move of `out` from `begin`, the smallest key of a chain that
    /// makes it (with `K`).
    keys: Option<&'o mut Vec<u128>>,
}

/// The fewest jumps of a chain of short jumps alone that may be the same
/// move (start, end, pieces taken) as another chain. Jumps are two steps
/// along a diagonal and take the square between; if two chains of the same
/// start and pieces taken differ first at jump `i`, the piece the second
/// takes there is the one the first takes at jump `i + k`, and solving
/// `2 (v_i + ... + v_(i+k-1)) + v_(i+k) = w` over the diagonal steps leaves
/// only `k >= 3` (or a jump straight back over a piece already taken): at
/// least four jumps, as round the four sides of a square.
const TWIN_JUMPS: u32 = 4;

/// The most jumps a chain's key holds.
const KEY_JUMPS: u32 = 15;

/// One jump of a chain in its key: a short jump by its direction's rank
/// (1..=4), a long jump by its direction's rank and how far beyond the
/// jumped piece it lands (5 and up); 0 ends the key, so that a chain
/// comes before its continuations, as the general generator finds them.
#[inline(always)]
fn key_digit(long: bool, rank: u8, beyond: u32) -> u128 {
    if long {
        5 + u128::from(rank) * 16 + u128::from(beyond.min(15))
    } else {
        1 + u128::from(rank)
    }
}

/// Why a rule file has no kernel of jumps (another kernel or the general
/// path plays it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoJumps {
    /// No piece jumps: not a game of this kernel.
    Plain,
    /// No bitboard layout (holes, lines that join only some squares), a
    /// board beyond 128 bits, or a direction that is not one shift of it.
    Board,
    /// Not two sides.
    Sides,
    /// More than two kinds of piece.
    Kinds,
    /// Captures that are not compulsory.
    Optional,
    /// Columns (`capture stacks`).
    Stacks,
    /// Opening removals (`opening remove`).
    Opening,
    /// Jumps along lines with limits (`straight`, ...).
    Limits,
    /// Moves other than steps, slides and jumps: hops, placements, copies,
    /// or more than four directions of a class.
    Moves,
    /// Captures other than by jumping: custodian, neighbours, replacement;
    /// precedence criteria; pieces that can't be taken; captured pieces won
    /// over as a kind the capturing side has not.
    Captures,
    /// Squares with powers, triggers that disagree on what a piece becomes.
    Squares,
    /// End rules of the position other than counting pieces, or sides that
    /// drop out.
    End,
    /// A crowning to another side's kind.
    Crowning,
}

impl Kernel<u64> {
    /// The kernel of a game, or why it has none (the general generator
    /// plays it, or `Kernel::wide`).
    pub fn new(t: &Tables) -> Result<Kernel, NoJumps> {
        Kernel::build(t, false)
    }
}

impl Kernel<u128> {
    /// The kernel of random playouts and perft for a game that has no [`Kernel`]
    /// (`Kernel::new`): boards of up to 128 playable squares, and besides
    /// what `Kernel::new` takes, squares where no piece may stop, captured
    /// pieces won over by the capturing side, end-of-move triggers that
    /// change a piece's side or kind, and passes (a playout stops where the
    /// side to move has no move: the general path plays the pass). Its
    /// `generate` and `count` know no passes; its `perft` gives up (None)
    /// where a side would pass, and the general path counts. Or why it
    /// has none.
    pub fn wide(t: &Tables) -> Result<Kernel<u128>, NoJumps> {
        Kernel::build(t, true)
    }
}

impl<W: Word> Kernel<W> {
    /// The kernel of a game, or why it has none (`NoJumps::Plain` where
    /// nothing jumps, whatever else it has); `more`: also with no-stop
    /// squares, conversions, triggers and passes.
    fn build(t: &Tables, more: bool) -> Result<Kernel<W>, NoJumps> {
        Kernel::build_jumps(t, more).map_err(|why| if t.any_jumps { why } else { NoJumps::Plain })
    }

    fn build_jumps(t: &Tables, more: bool) -> Result<Kernel<W>, NoJumps> {
        use NoJumps::{Board, Captures, Crowning, End, Moves, Squares};
        let l = t.layout.as_ref().ok_or(Board)?;
        if t.nsides != 2 {
            return Err(NoJumps::Sides);
        }
        if t.nkinds == 0 || t.nkinds > 2 {
            return Err(NoJumps::Kinds);
        }
        if t.stacks {
            return Err(NoJumps::Stacks);
        }
        if !t.opening.is_empty() {
            return Err(NoJumps::Opening);
        }
        if t.powers.is_some() {
            return Err(Squares);
        }
        if t.use_criteria
            || t.neighbours.iter().any(|v| !v.is_empty())
            || t.game.capture.custodian.is_some()
            || t.moves.iter().any(KindMoves::has_replacement)
        {
            return Err(Captures);
        }
        // The rest of what the general generator alone plays: hops,
        // placements, copies.
        if t.general {
            return Err(Moves);
        }
        if !t.capture_compulsory {
            return Err(NoJumps::Optional);
        }
        if t.any_limits {
            return Err(NoJumps::Limits);
        }
        if t.end.drop_out || (t.end.by_position && t.end.count_limit().is_none()) {
            return Err(End);
        }
        if !(more && W::RICH)
            && (t.no_stop.iter().any(|&b| b)
                || t.trigger_to.iter().any(Option::is_some)
                || t.end.no_moves == Verdict::Pass)
        {
            // Playable by the kernel on 128-bit boards.
            return Err(Squares);
        }
        let (at_end, convert) = match t.effect {
            JumpEffect::RemoveAtEnd => (true, NO_KIND),
            JumpEffect::RemoveAtOnce => (false, NO_KIND),
            // A piece won over stays where it stood: like a piece removed
            // at the end of the move, it can't be jumped again.
            JumpEffect::Convert(k) if more && W::RICH && usize::from(k.0) < t.nkinds => (true, k.0),
            JumpEffect::Convert(_) => return Err(Captures),
            // Columns are data beside the board: the general path only.
            JumpEffect::Stack => return Err(NoJumps::Stacks),
        };
        // Per mover, the squares where a trigger ends its move, and what
        // its piece becomes there (the same on every such square).
        let mut trig = [W::ZERO; 2];
        let mut trig_to = [(0u8, 0u8); 2];
        for (s, (tb, tt)) in trig.iter_mut().zip(&mut trig_to).enumerate() {
            let mut seen: Option<(u8, u8)> = None;
            for sq in 0..t.n {
                let Some(to) = *t.trigger_to.get(s * t.n + sq).ok_or(Squares)? else {
                    continue;
                };
                if seen.is_some_and(|x| x != to) || to.0 > 1 || usize::from(to.1) >= t.nkinds {
                    return Err(Squares);
                }
                seen = Some(to);
                *tb |= bit_of(l, sq)?;
            }
            if let Some(to) = seen {
                *tt = to;
            }
        }
        let mut no_stop = W::ZERO;
        for (sq, &ns) in t.no_stop.iter().enumerate() {
            if ns {
                no_stop |= bit_of(l, sq)?;
            }
        }
        let valid = W::from_bb(l.valid).ok_or(Board)?;
        let ncodes = 1 + t.nsides * t.nkinds;
        // Every piece may jump every enemy piece, and only those.
        for a in 1..ncodes {
            for v in 1..ncodes {
                let (Some(sa), Some(sv)) = (t.code_side.get(a), t.code_side.get(v)) else {
                    return Err(Captures);
                };
                if t.can_capture(a as u8, v as u8) != (sa != sv) {
                    return Err(Captures);
                }
            }
        }
        let dir = |d: u8| -> Result<Dir<W>, NoJumps> { dir_of(t, l, usize::from(d)).ok_or(Board) };
        let dirs = |v: &[u8]| -> Result<Dirs<W>, NoJumps> {
            if v.len() > MAXD {
                return Err(Moves);
            }
            let mut out = Dirs {
                n: v.len(),
                ..Dirs::default()
            };
            for (i, (slot, &d)) in out.d.iter_mut().zip(v).enumerate() {
                *slot = dir(d)?;
                out.rank[i] = i as u8;
            }
            Ok(out)
        };
        let mut moves = [[KindK::default(); 2]; 2];
        for (s, row) in moves.iter_mut().enumerate() {
            for (k, slot) in row.iter_mut().enumerate().take(t.nkinds) {
                let code = 1 + s * t.nkinds + k;
                let m = t.moves.get(code).ok_or(Moves)?;
                let promo_code = usize::from(*t.promo_to.get(code).ok_or(Crowning)?);
                let promo_to = if promo_code == 0 {
                    NO_KIND
                } else {
                    if usize::from(*t.code_side.get(promo_code).ok_or(Crowning)?) != s {
                        return Err(Crowning);
                    }
                    *t.code_kind.get(promo_code).ok_or(Crowning)?
                };
                let promo = if promo_to == NO_KIND {
                    W::ZERO
                } else {
                    W::from_bb(*t.promo_bb.get(code).ok_or(Crowning)?).ok_or(Board)?
                };
                *slot = KindK {
                    step: dirs(&m.step)?,
                    slide: dirs(&m.slide)?,
                    short: dirs(&m.short_jump)?,
                    long: dirs(&m.long_jump)?,
                    promo,
                    promo_to,
                };
            }
        }
        let mut geo = Geo::Var;
        for (g, a, b) in [(Geo::D45, 4, 5), (Geo::D56, 5, 6), (Geo::D67, 6, 7)] {
            let mut all = moves;
            let fits = all.iter_mut().flatten().all(|k| {
                [&mut k.step, &mut k.slide, &mut k.short, &mut k.long]
                    .into_iter()
                    .all(|c| match by_slot(c, a, b) {
                        Some(x) => {
                            *c = x;
                            true
                        }
                        None => false,
                    })
            });
            if fits {
                moves = all;
                geo = g;
                break;
            }
        }
        Ok(Kernel {
            max_steps: MAX_STEPS,
            geo,
            valid,
            stop: valid & !no_stop,
            convert,
            trig,
            trig_to,
            nkinds: t.nkinds,
            moves,
            most: t.capture_most,
            mid: t.mid_chain,
            at_end,
            must_continue: t.must_continue,
            long_must_continue: t.long_must_continue,
            short_search: true,
            short_only: moves.map(|row| {
                row.map(|k| {
                    k.long.n == 0
                        && (t.mid_chain != MidChainCrown::Continue || k.promo_to == NO_KIND)
                })
            }),
            twin_singles: moves
                .iter()
                .flatten()
                .any(|k| k.short.n > 0 && k.long.n > 0),
            count_limit: t.end.count_limit().map(u32::from),
            pass: t.end.no_moves == Verdict::Pass,
        })
    }

    /// Sets the most chain steps searched per position (tests: to see the
    /// general path take over).
    pub fn set_max_steps(&mut self, n: u32) {
        self.max_steps = n;
    }

    /// Whether the chains of kinds that jump short alone are searched by
    /// their own search (`short_dfs`, the default) or by the general one
    /// (tests: the two must give the same moves in the same order).
    pub fn set_short_search(&mut self, on: bool) {
        self.short_search = on;
    }

    /// How many kinds of the side that moves first have their chains
    /// searched by the search of short jumps (`short_dfs`: no long jumps,
    /// and no crowning mid-chain that goes on as another kind), and how
    /// many kinds there are; the others go through the general search.
    pub fn short_search_kinds(&self) -> (usize, usize) {
        let n = if W::RICH || !self.short_search {
            0
        } else {
            self.short_only[0]
                .iter()
                .take(self.nkinds)
                .filter(|&&b| b)
                .count()
        };
        (n, self.nkinds)
    }

    /// The kernel's form of a position (None if it doesn't fit: a side
    /// that dropped out, a piece code the kernel doesn't know).
    pub fn position(&self, pos: &Position) -> Option<KPos<W>> {
        kpos_of(pos, self.nkinds)
    }

    /// Writes a kernel position back into a `Position` of the game (its
    /// buffers reused).
    pub fn write_position(&self, t: &Tables, p: &KPos<W>, pos: &mut Position) {
        write_kpos(t, self.nkinds, p, pos);
    }

    /// Whether a quiet move of the pieces of `kind` of side `s` can never
    /// be undone: every step and slide of the kind goes the same way along
    /// the bits (the sum of their bit numbers only grows, or only
    /// shrinks), so no position before it comes back.
    pub fn one_way(&self, s: usize, kind: usize) -> bool {
        let Some(m) = self.moves.get(s & 1).and_then(|r| r.get(kind)) else {
            return false;
        };
        let dirs = m.step.d.iter().take(MAXD).chain(m.slide.d.iter());
        let used: Vec<&Dir<W>> = dirs.filter(|d| d.ok != W::ZERO).collect();
        used.iter().all(|d| d.l > 0 && d.r == 0) || used.iter().all(|d| d.r > 0 && d.l == 0)
    }

    /// Whether the game is over by the position alone, given the pieces of
    /// the two sides.
    #[inline(always)]
    /// Whether the side to move, having no move in `p`, passes (the game
    /// isn't over and passes are in its rules): the kernel knows no passes,
    /// so its perft gives up there and the general path counts.
    fn passes(&self, p: &KPos<W>) -> bool {
        W::RICH && self.pass && !self.over(p.side_pcs(0), p.side_pcs(1))
    }

    fn over(&self, a: W, b: W) -> bool {
        match self.count_limit {
            Some(0) => a == W::ZERO || b == W::ZERO,
            Some(lim) => a.ones() <= lim || b.ones() <= lim,
            None => false,
        }
    }

    /// All legal moves of the side to move (none when the game is over);
    /// false (and no moves) when the capture search passed [`MAX_STEPS`].
    pub fn generate(&self, p: &KPos<W>, out: &mut Vec<KMove<W>>) -> bool {
        by_geo!(self, G => self.generate_g::<G>(p, out))
    }

    /// The number of legal moves, as `generate` would give: the quiet
    /// moves are counted with whole-board shifts and never written down.
    /// None when the capture search passed [`MAX_STEPS`].
    pub fn count(&self, p: &KPos<W>, scratch: &mut Vec<KMove<W>>) -> Option<u64> {
        by_geo!(self, G => self.count_g::<G>(p, scratch))
    }

    /// Perft: the number of leaves of the move tree to `depth` plies.
    /// `lists` is scratch space, grown as needed. None when the capture
    /// search of a position passed [`MAX_STEPS`].
    pub fn perft(&self, p: &KPos<W>, depth: usize, lists: &mut Vec<Vec<KMove<W>>>) -> Option<u64> {
        by_geo!(self, G => self.perft_g::<G>(p, depth, lists, false))
    }

    /// `perft` by the portable copy of the walk, whatever the processor
    /// has (tests: the two copies must agree; see [`walk_copy`]).
    pub fn perft_portable(
        &self,
        p: &KPos<W>,
        depth: usize,
        lists: &mut Vec<Vec<KMove<W>>>,
    ) -> Option<u64> {
        by_geo!(self, G => self.perft_g::<G>(p, depth, lists, true))
    }

    /// What every position of the side to move starts with: the side's
    /// jump sets (into `js`) and the pieces that can capture; None when the
    /// game is over by the position.
    #[inline(always)]
    fn start<G: Shift>(&self, p: &KPos<W>, js: &mut Jumps<W>) -> Option<Start<W>> {
        let s = usize::from(p.side & 1);
        let own = p.side_pcs(s);
        let enemy = p.side_pcs(s ^ 1);
        if self.over(own, enemy) {
            return None;
        }
        let empty = self.valid & !(own | enemy);
        // Kind by kind, in registers: a board written in halves and read
        // whole (an array indexed at run time) stalls the processor.
        let c0 = self.capturers::<G>(p.pcs[s][0], &self.moves[s][0], enemy, empty, &mut js[0]);
        let c1 = self.capturers::<G>(p.pcs[s][1], &self.moves[s][1], enemy, empty, &mut js[1]);
        let cand = [c0, c1];
        Some(Start {
            s,
            enemy,
            empty,
            cand,
        })
    }

    /// All legal moves of the side to move (none when the game is over).
    #[inline(always)]
    fn generate_g<G: Shift>(&self, p: &KPos<W>, out: &mut Vec<KMove<W>>) -> bool {
        out.clear();
        let mut js = [[W::ZERO; MAXD]; 2];
        let Some(Start {
            s,
            enemy,
            empty,
            cand,
        }) = self.start::<G>(p, &mut js)
        else {
            return true;
        };
        if cand[0] | cand[1] != W::ZERO {
            if !self.captures::<G, false>(s, enemy, empty, cand, &js, out, None) {
                out.clear();
                return false;
            }
            if !out.is_empty() {
                return true;
            }
        }
        self.each_quiet::<G>(p.pcs[s], empty, s, |k, from, to| {
            out.push(self.quiet(s, k, from, to));
        });
        true
    }

    /// Calls `f(kind, from, to)` for each quiet move of side `s`, whose
    /// pieces are `own` (per kind), with `empty` the empty squares: by
    /// kind, its steps by slot and landing square, then its slides by
    /// piece (the general generator's order).
    #[inline(always)]
    fn each_quiet<G: Shift>(&self, own: [W; 2], empty: W, s: usize, mut f: impl FnMut(u8, W, W)) {
        let land = empty & self.stops();
        for k in 0..self.nkinds {
            let m = &self.moves[s][k];
            let pcs = own[k & 1];
            if pcs == W::ZERO {
                continue;
            }
            each_slot!(m.step, j, d, {
                let mut to = G::go(j, d, pcs & d.ok) & land;
                while to != W::ZERO {
                    let b = to.lowest();
                    to = to.clear_lowest();
                    f(k as u8, G::back(j, d, b), b);
                }
            });
            if m.slide.n == 0 {
                continue;
            }
            let mut left = pcs;
            while left != W::ZERO {
                let from = left.lowest();
                left = left.clear_lowest();
                each_slot!(m.slide, j, d, {
                    let mut b = from;
                    while b & d.ok != W::ZERO {
                        b = G::go(j, d, b);
                        if b & empty == W::ZERO {
                            break;
                        }
                        if b & self.stops() != W::ZERO {
                            f(k as u8, from, b);
                        }
                    }
                });
            }
        }
    }

    /// The number of legal moves, as `generate` would give: the quiet
    /// moves are counted with whole-board shifts and never written down.
    #[inline(always)]
    fn count_g<G: Shift>(&self, p: &KPos<W>, scratch: &mut Vec<KMove<W>>) -> Option<u64> {
        let s = usize::from(p.side & 1);
        if !W::RICH && G::DIAG {
            return self.count_diag::<G>(s, p.pcs[s], p.side_pcs(s ^ 1), scratch);
        }
        let mut js = [[W::ZERO; MAXD]; 2];
        let Some(Start {
            s,
            enemy,
            empty,
            cand,
        }) = self.start::<G>(p, &mut js)
        else {
            return Some(0);
        };
        if cand[0] | cand[1] != W::ZERO {
            if !W::RICH {
                if let Some(n) = self.count_single_jumps::<G>(s, enemy, empty, cand) {
                    return Some(n);
                }
            }
            scratch.clear();
            if !self.captures::<G, false>(s, enemy, empty, cand, &js, scratch, None) {
                return None;
            }
            // A jump that may not stop where it lands and can't go on is
            // no capture: then the quiet moves count (as `generate_g`).
            if !(W::RICH && scratch.is_empty()) {
                return Some(scratch.len() as u64);
            }
        }
        Some(self.quiet_count::<G>(p, s, empty))
    }

    /// `count_g` in the diagonal geometries of the 64-bit kernel, on the
    /// boards alone: side `s` to move, its pieces `own` (per kind), the
    /// enemy pieces `enemy` (their kinds don't matter: every piece may
    /// jump every enemy piece). Each slot is one direction for both kinds,
    /// so the jump sets and the quiet steps are shifted once for both;
    /// nothing is written to memory unless a piece can capture. Called
    /// with the boards of a child position in the loop of its parent
    /// (`walk`), no child position is built.
    #[inline(always)]
    fn count_diag<G: Shift>(
        &self,
        s: usize,
        own: [W; 2],
        enemy: W,
        scratch: &mut Vec<KMove<W>>,
    ) -> Option<u64> {
        let [o0, o1] = own;
        let all = o0 | o1;
        if self.over(all, enemy) {
            return Some(0);
        }
        let empty = self.valid & !(all | enemy);
        let m0 = &self.moves[s][0];
        let m1 = &self.moves[s][1];
        // The squares from which a short jump along each slot lands, and
        // the pieces that have one.
        let mut from = [W::ZERO; MAXD];
        let mut c0 = W::ZERO;
        let mut c1 = W::ZERO;
        each_slot!(m0.short, j, d, {
            let x = G::back(j, d, enemy & G::back(j, d, empty));
            from[j] = x;
            c0 |= x & d.ok2;
            c1 |= x & m1.short.d[j].ok2;
        });
        c0 &= o0;
        c1 &= o1;
        for (m, o, c) in [(m0, o0, &mut c0), (m1, o1, &mut c1)] {
            if m.long.n > 0 {
                let mut rest = o & !*c;
                while rest != W::ZERO {
                    let b = rest.lowest();
                    rest = rest.clear_lowest();
                    if self.long_jump_from::<G>(m, b, enemy, empty | b) {
                        *c |= b;
                    }
                }
            }
        }
        if c0 | c1 != W::ZERO {
            let mut js = [[W::ZERO; MAXD]; 2];
            for j in 0..MAXD {
                js[0][j] = from[j] & m0.short.d[j].ok2;
                js[1][j] = from[j] & m1.short.d[j].ok2;
            }
            let cand = [c0, c1];
            if let Some(n) = self.count_single_jumps_diag::<G>(s, cand, &js) {
                return Some(n);
            }
            scratch.clear();
            return self.search::<G, false, true>(s, enemy, empty, cand, &js, scratch, None);
        }
        // Quiet moves: per slot, the steps of both kinds in one shift (a
        // square is reached along a slot from one square only).
        let mut total = 0u64;
        each_slot!(m0.step, j, d, {
            let to = G::go(j, d, (o0 & d.ok) | (o1 & m1.step.d[j].ok)) & empty;
            if to != W::ZERO {
                total += u64::from(to.ones());
            }
        });
        for (m, o) in [(m0, o0), (m1, o1)] {
            if m.slide.n > 0 && o != W::ZERO {
                total += slide_count::<G, W>(m, o, empty, empty);
            }
        }
        Some(total)
    }

    /// The number of captures when every capture is one short jump that
    /// can't go on (each is then one move, whatever the capture rules);
    /// None when a chain may be longer or a long jump is possible.
    #[inline]
    fn count_single_jumps<G: Shift>(
        &self,
        s: usize,
        enemy: W,
        empty: W,
        cand: [W; 2],
    ) -> Option<u64> {
        let mut total = 0u64;
        for (k, &pcs) in cand.iter().enumerate() {
            if pcs == W::ZERO {
                continue;
            }
            let m = &self.moves[s][k];
            if m.long.n > 0 {
                return None;
            }
            // A jump that may go on: the full search counts.
            each_slot!(m.short, j, d, {
                let mut lands =
                    G::go(j, d, G::go(j, d, pcs & d.ok2) & enemy) & empty & self.stops();
                while lands != W::ZERO {
                    let land = lands.lowest();
                    lands = lands.clear_lowest();
                    if m.promo_to != NO_KIND && m.promo & land != W::ZERO {
                        match self.mid {
                            MidChainCrown::Stop => {
                                total += 1;
                                continue;
                            }
                            MidChainCrown::Continue => return None,
                            MidChainCrown::Stay => {}
                        }
                    }
                    let over = G::back(j, d, land);
                    let from = G::back(j, d, over);
                    // With `over` taken and the start square empty (AR-13).
                    let enemy2 = enemy & !over;
                    let mut empty2 = empty | from;
                    if !self.at_end {
                        empty2 |= over;
                    }
                    if any_slot!(
                        m.short,
                        j2,
                        d2,
                        G::go(j2, d2, G::go(j2, d2, land & d2.ok2) & enemy2)
                            & empty2
                            & self.stops()
                            != W::ZERO
                    ) {
                        return None;
                    }
                    total += 1;
                }
            });
        }
        Some(total)
    }

    /// `count_single_jumps` by whole-board shifts, for the diagonal
    /// geometries: there, a piece that has jumped along slot `j` can only go
    /// on along another slot than the reverse one, `j ^ 2`, and along those
    /// the squares next to its landing square are neither the square it
    /// left nor the piece it took, so the jump sets of the position before
    /// the jump (`js`) tell whether it can go on. Inlined, so that the jump
    /// sets stay in registers.
    #[inline(always)]
    fn count_single_jumps_diag<G: Shift>(
        &self,
        s: usize,
        cand: [W; 2],
        js: &Jumps<W>,
    ) -> Option<u64> {
        let mut total = 0u64;
        for (k, &pcs) in cand.iter().enumerate() {
            if pcs == W::ZERO {
                continue;
            }
            let m = &self.moves[s][k];
            if m.long.n > 0 {
                return None;
            }
            let jk = &js[k];
            let crown = if m.promo_to == NO_KIND {
                W::ZERO
            } else {
                m.promo
            };
            each_slot!(m.short, j, d, {
                let lands = G::go(j, d, G::go(j, d, pcs & jk[j]));
                if lands != W::ZERO {
                    let mut goes_on = lands;
                    let crowned = lands & crown;
                    if crowned != W::ZERO {
                        match self.mid {
                            MidChainCrown::Stop => goes_on &= !crowned,
                            MidChainCrown::Continue => return None,
                            MidChainCrown::Stay => {}
                        }
                    }
                    if goes_on & onward(jk, j) != W::ZERO {
                        return None;
                    }
                    total += u64::from(lands.ones());
                }
            });
        }
        Some(total)
    }

    /// Perft: the number of leaves of the move tree to `depth` plies.
    /// `lists` is scratch space, grown as needed.
    fn perft_g<G: Shift>(
        &self,
        p: &KPos<W>,
        depth: usize,
        lists: &mut Vec<Vec<KMove<W>>>,
        portable: bool,
    ) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        while lists.len() <= depth {
            lists.push(Vec::with_capacity(64));
        }
        #[cfg(target_arch = "x86_64")]
        if !portable && has_bit_instructions() {
            // SAFETY: `walk_bits` only needs the processor to have the
            // instructions of its `target_feature`s, and
            // `has_bit_instructions` has just found them.
            #[allow(unsafe_code)]
            return unsafe { self.walk_bits::<G>(p, depth, lists) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = portable;
        self.walk::<G>(p, depth, lists)
    }

    // The copy for any processor.
    walk_fn!(walk, last_two);

    // The copy with the bit instructions of `has_bit_instructions` (one
    // instruction per popcount instead of about fifteen), called only where
    // the processor has them.
    walk_fn!(
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "popcnt,bmi1,bmi2")]
        walk_bits,
        last_two_bits
    );

    /// Perft at depth 1: the moves of `p` counted (None where the kernel
    /// gives up, or where a side passes).
    #[inline(always)]
    fn leaf<G: Shift>(&self, p: &KPos<W>, scratch: &mut Vec<KMove<W>>) -> Option<u64> {
        let n = self.count_g::<G>(p, scratch)?;
        if n == 0 && self.passes(p) {
            return None;
        }
        Some(n)
    }

    /// The kind on `to` at the end of a move by `kind` of side `s`, whether
    /// it goes over to the other side (a trigger, which comes before
    /// crowning) and whether it is crowned.
    #[inline(always)]
    fn finish(&self, s: usize, kind: u8, to: W) -> (u8, bool, bool) {
        if W::RICH && self.trig[s & 1] & to != W::ZERO {
            let (ts, tk) = self.trig_to[s & 1];
            return (tk, usize::from(ts) != (s & 1), false);
        }
        let m = &self.moves[s][usize::from(kind & 1)];
        if m.promo_to != NO_KIND && m.promo & to != W::ZERO {
            (m.promo_to, false, true)
        } else {
            (kind, false, false)
        }
    }

    /// A quiet move of `kind` of side `s`.
    #[inline(always)]
    fn quiet(&self, s: usize, kind: u8, from: W, to: W) -> KMove<W> {
        let (result, turned, crowned) = self.finish(s, kind, to);
        KMove {
            from,
            to,
            cap: W::ZERO,
            kind,
            result,
            turned,
            crowned,
        }
    }

    /// Plays a move generated on `p`: `KPos::play`, and the captured
    /// pieces won over where captures convert.
    #[inline(always)]
    pub fn apply(&self, p: &KPos<W>, m: &KMove<W>) -> KPos<W> {
        p.play_with(m, self.convert)
    }

    /// The squares where a piece may stop: all of them on a 64-bit board
    /// (the perft kernel, which takes no rule file with no-stop squares),
    /// so that its code carries no test for them.
    #[inline(always)]
    fn stops(&self) -> W {
        if W::RICH {
            self.stop
        } else {
            !W::ZERO
        }
    }

    /// Whether a position can come back after a crowning or a quiet move
    /// that only goes one way: where pieces are won over (captures that
    /// convert, triggers), a piece can turn back into what it was.
    pub fn wins_over(&self) -> bool {
        self.convert != NO_KIND || self.trig != [W::ZERO; 2]
    }

    /// The kind a piece becomes on landing mid-chain, and whether the
    /// chain stops there.
    #[inline(always)]
    fn crown_mid(&self, s: usize, kind: u8, land: W) -> (u8, bool) {
        let m = &self.moves[s][usize::from(kind & 1)];
        if m.promo_to != NO_KIND && m.promo & land != W::ZERO {
            match self.mid {
                MidChainCrown::Stay => (kind, false),
                MidChainCrown::Continue => (m.promo_to, false),
                MidChainCrown::Stop => (kind, true),
            }
        } else {
            (kind, false)
        }
    }

    /// The pieces `pcs` of one kind with the moves `m` that have a first
    /// jump; `js` gets the squares from which a piece of the kind has a
    /// short jump along each slot (empty when it has no pieces).
    #[inline(always)]
    fn capturers<G: Shift>(
        &self,
        pcs: W,
        m: &KindK<W>,
        enemy: W,
        empty: W,
        js: &mut [W; MAXD],
    ) -> W {
        if pcs == W::ZERO {
            *js = [W::ZERO; MAXD];
            return W::ZERO;
        }
        let land = empty & self.stops();
        let mut any = W::ZERO;
        if m.short.n > 0 {
            // Exact on `ok2`, where two steps stay on the board.
            each_slot!(m.short, j, d, {
                let x = d.ok2 & G::back(j, d, enemy & G::back(j, d, land));
                js[j] = x;
                any |= x;
            });
        } else {
            *js = [W::ZERO; MAXD];
        }
        let mut cand = pcs & any;
        if m.long.n > 0 {
            let mut own = pcs & !cand;
            while own != W::ZERO {
                let b = own.lowest();
                own = own.clear_lowest();
                if self.long_jump_from::<G>(m, b, enemy, empty | b) {
                    cand |= b;
                }
            }
        }
        cand
    }

    /// Whether a piece with the moves `m` on `cur` has a long jump.
    #[inline(always)]
    fn long_jump_from<G: Shift>(&self, m: &KindK<W>, cur: W, enemy: W, empty: W) -> bool {
        any_slot!(m.long, j, d, {
            let mut b = cur;
            loop {
                if b & d.ok == W::ZERO {
                    b = W::ZERO;
                    break;
                }
                b = G::go(j, d, b);
                if b & empty == W::ZERO {
                    break;
                }
            }
            self.lands::<G>(j, d, b & enemy, empty)
        })
    }

    /// Whether a long jump over `over` (a bit, or none) along slot `j` has
    /// a landing square: an empty square beyond it, before the next piece,
    /// where a piece may stop.
    #[inline(always)]
    fn lands<G: Shift>(&self, j: usize, d: Dir<W>, over: W, empty: W) -> bool {
        let mut b = G::go(j, d, over & d.ok) & empty;
        loop {
            if b == W::ZERO {
                return false;
            }
            if b & self.stops() != W::ZERO {
                return true;
            }
            b = G::go(j, d, b & d.ok) & empty;
        }
    }

    /// Every capture of side `s`, after the capture rules (the most
    /// pieces, merging of the same move by different paths).
    ///
    /// With `K`, `keys` gets each move's key (see `Chain::key`): sorted by
    /// key, the moves are in the general generator's order. A chain longer
    /// than a key holds counts as passing the search limit. `js`: the jump
    /// sets of the kinds of `cand` (`Kernel::capturers`).
    #[allow(clippy::too_many_arguments)]
    fn captures<G: Shift, const K: bool>(
        &self,
        s: usize,
        enemy: W,
        empty: W,
        cand: [W; 2],
        js: &Jumps<W>,
        out: &mut Vec<KMove<W>>,
        keys: Option<&mut Vec<u128>>,
    ) -> bool {
        self.search::<G, K, false>(s, enemy, empty, cand, js, out, keys)
            .is_some()
    }

    /// `captures`, and the number of captures (None past the search
    /// limit). With `COUNT`, the chains of the search of short jumps that
    /// can't repeat another (fewer than `TWIN_JUMPS` jumps) are counted,
    /// not written to `out` (the count of captures at the last ply); the
    /// others are written as without it. Inlined into its callers
    /// (`count_diag`, and so both copies of the walk, and `captures`): no
    /// prologue, and the `Chain` in the caller's registers.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search<G: Shift, const K: bool, const COUNT: bool>(
        &self,
        s: usize,
        enemy: W,
        empty: W,
        cand: [W; 2],
        js: &Jumps<W>,
        out: &mut Vec<KMove<W>>,
        keys: Option<&mut Vec<u128>>,
    ) -> Option<u64> {
        let begin = out.len();
        let mut c = Chain {
            side: s,
            from: W::ZERO,
            start_kind: 0,
            enemy,
            empty,
            best: 0,
            begin,
            count: 0,
            crown_stop: W::ZERO,
            out,
            steps: 0,
            key: 0,
            keys,
        };
        for (k, &pcs) in cand.iter().enumerate() {
            if pcs == W::ZERO {
                continue;
            }
            let m = &self.moves[s][k];
            let short = !K && !W::RICH && self.short_search && self.short_only[s][k];
            c.crown_stop = if self.mid == MidChainCrown::Stop {
                m.promo
            } else {
                W::ZERO
            };
            // Per slot, where a piece that jumped along it may jump on
            // (`short_dfs`), made once for the kind's chains.
            let jk = &js[k];
            let on = if short {
                onward_all(jk)
            } else {
                [W::ZERO; MAXD]
            };
            let mut own = pcs;
            while own != W::ZERO {
                let from = own.lowest();
                own = own.clear_lowest();
                // AR-13: the start square counts as empty.
                c.empty = empty | from;
                c.from = from;
                c.start_kind = k as u8;
                if K {
                    c.key = u128::from(from.low()) << (8 * KEY_JUMPS);
                }
                if short && G::DIAG {
                    // The first jumps of the piece, as `short_dfs` would
                    // make them from `from` (one step for its call; the
                    // jump sets say where a jump is): a jump that ends
                    // where it lands is emitted here, one that may go on
                    // calls `short_dfs`, in slot order (`short_jump`).
                    // Past the search limit the search is given up (the
                    // steps only grow, so the answer is None whatever the
                    // other pieces would add; the callers drop `out`).
                    c.steps += 1;
                    if c.steps > self.max_steps {
                        return None;
                    }
                    each_slot!(m.short, j, d, {
                        if from & jk[j] != W::ZERO {
                            let over = G::go(j, d, from);
                            let land = G::go(j, d, over);
                            // As the odd copy of `short_dfs` would: the
                            // chain goes on in the even one.
                            self.short_jump::<G, COUNT, true>(
                                &mut c,
                                m,
                                &on,
                                j,
                                over,
                                land,
                                W::ZERO,
                                0,
                                enemy,
                                empty | from,
                            );
                        }
                    });
                } else if short {
                    self.short_dfs::<G, COUNT, false>(&mut c, m, &on, from, W::ZERO, 0);
                } else {
                    self.dfs::<G, K>(&mut c, from, k as u8, W::ZERO, 0);
                }
            }
        }
        (c.steps <= self.max_steps).then(|| c.count + (c.out.len() - begin) as u64)
    }

    /// Whether a piece of `kind` on `cur` has a jump, with `enemy` the
    /// pieces it may still take and `empty` the squares it may cross.
    #[inline]
    fn can_jump<G: Shift>(&self, side: usize, cur: W, kind: u8, enemy: W, empty: W) -> bool {
        let m = &self.moves[side][usize::from(kind & 1)];
        any_slot!(
            m.short,
            j,
            d,
            G::go(j, d, G::go(j, d, cur & d.ok2) & enemy) & empty & self.stops() != W::ZERO
        ) || m.long.n > 0 && self.long_jump_from::<G>(m, cur, enemy, empty)
    }

    /// The enemy pieces a chain that has taken `cap` may still take, and
    /// the squares it may cross (the taken pieces stay until the move
    /// ends, or go at once).
    #[inline(always)]
    fn left(&self, c: &Chain<'_, W>, cap: W) -> (W, W) {
        let empty = if self.at_end { c.empty } else { c.empty | cap };
        (c.enemy & !cap, empty)
    }

    /// The chain of the piece of `kind` on `cur`, having taken `cap`
    /// (`ncap` pieces): every way on is searched, and every place where it
    /// may end is emitted. The path's state is passed by value (in
    /// registers), not kept in the `Chain`.
    fn dfs<G: Shift, const K: bool>(
        &self,
        c: &mut Chain<'_, W>,
        cur: W,
        kind: u8,
        cap: W,
        ncap: u32,
    ) {
        c.steps += 1;
        if c.steps > self.max_steps {
            return;
        }
        if ncap > 0 && !self.must_continue {
            self.emit::<K>(c, cur, kind, cap, ncap);
        }
        let (enemy, empty) = self.left(c, cap);
        let m = &self.moves[c.side][usize::from(kind & 1)];
        let mut extended = false;
        if m.short.n > 0 {
            each_slot!(m.short, j, d, {
                'slot: {
                    if cur & d.ok2 == W::ZERO {
                        break 'slot;
                    }
                    let over = G::go(j, d, cur);
                    if over & enemy == W::ZERO {
                        break 'slot;
                    }
                    let land = G::go(j, d, over);
                    if land & empty & self.stops() == W::ZERO {
                        break 'slot;
                    }
                    extended = true;
                    let digit = if K {
                        key_digit(false, m.short.rank[j], 0)
                    } else {
                        0
                    };
                    self.jump::<G, K>(c, over, land, kind, digit, cap, ncap);
                }
            });
        }
        if m.long.n == 0 {
            if ncap > 0 && !extended && self.must_continue {
                self.emit::<K>(c, cur, kind, cap, ncap);
            }
            return;
        }
        each_slot!(m.long, j, d, {
            'slot: {
                let mut over = cur;
                loop {
                    if over & d.ok == W::ZERO {
                        over = W::ZERO;
                        break;
                    }
                    over = G::go(j, d, over);
                    if over & empty == W::ZERO {
                        break;
                    }
                }
                if over & enemy == W::ZERO || over & d.ok == W::ZERO {
                    break 'slot;
                }
                let first = G::go(j, d, over);
                if first & empty == W::ZERO {
                    break 'slot;
                }
                // After the jump: `over` taken.
                let (enemy2, empty2) = self.left(c, cap | over);
                // AR-11: where the chain can go on from some landing square,
                // only those squares are allowed.
                let mut only_continuing = false;
                if self.long_must_continue {
                    let mut land = first;
                    loop {
                        if land & self.stops() != W::ZERO {
                            let (k2, stop) = self.crown_mid(c.side, kind, land);
                            if !stop && self.can_jump::<G>(c.side, land, k2, enemy2, empty2) {
                                only_continuing = true;
                                break;
                            }
                        }
                        if land & d.ok == W::ZERO {
                            break;
                        }
                        land = G::go(j, d, land);
                        if land & empty == W::ZERO {
                            break;
                        }
                    }
                }
                let mut land = first;
                let mut beyond = 0u32;
                loop {
                    let ok = if land & self.stops() == W::ZERO {
                        false
                    } else if only_continuing {
                        let (k2, stop) = self.crown_mid(c.side, kind, land);
                        !stop && self.can_jump::<G>(c.side, land, k2, enemy2, empty2)
                    } else {
                        true
                    };
                    if ok {
                        extended = true;
                        let digit = if K {
                            key_digit(true, m.long.rank[j], beyond)
                        } else {
                            0
                        };
                        self.jump::<G, K>(c, over, land, kind, digit, cap, ncap);
                    }
                    beyond += 1;
                    if land & d.ok == W::ZERO {
                        break;
                    }
                    land = G::go(j, d, land);
                    if land & empty == W::ZERO {
                        break;
                    }
                }
            }
        });
        if ncap > 0 && !extended && self.must_continue {
            self.emit::<K>(c, cur, kind, cap, ncap);
        }
    }

    /// `dfs` for a kind whose chains are short jumps alone (`Kernel::short_only`),
    /// on the 64-bit board (every square a stop), without keys: the kind's
    /// moves `m` are looked up once per chain, crowning mid-chain is one
    /// mask (`Chain::crown_stop`), and the move is written (or counted) by
    /// `short_emit`. `on`: per slot, the kind's jump sets in the position
    /// before the move (`Kernel::capturers`) of the slots other than its
    /// reverse (`onward_all`, made once per kind and search). In the
    /// diagonal geometries, a chain of one or two jumps that lands on a square from which no jump along
    /// another slot than the reverse one was possible before the move ends
    /// there without a call (counted as one step of the search, as the call
    /// would be): back along the reverse slot lies the piece just taken;
    /// the chain's pieces to take are fewer than before; and the squares
    /// it may land on are the empty ones, its start square (which only a
    /// chain of four jumps or more reaches again: a jump is two steps along
    /// a diagonal) and, where pieces go at once, the squares of the pieces
    /// taken (never: they lie an odd number of steps from the start, every
    /// landing square an even number). The moves and their order are those
    /// of `dfs`.
    ///
    /// Two copies (`ODD`) call each other, one per jump, never themselves:
    /// a function that calls itself last is made a loop by the compiler,
    /// which then loads the kind's masks, the onward sets, the crowning
    /// masks and the rule flags into stack slots before the loop, at every
    /// call (about 40 instructions); without the loop each is read where
    /// it is used.
    #[inline(never)]
    fn short_dfs<G: Shift, const COUNT: bool, const ODD: bool>(
        &self,
        c: &mut Chain<'_, W>,
        m: &KindK<W>,
        on: &[W; MAXD],
        cur: W,
        cap: W,
        ncap: u32,
    ) {
        c.steps += 1;
        if c.steps > self.max_steps {
            return;
        }
        if ncap > 0 && !self.must_continue {
            self.short_emit::<G, COUNT>(c, m, cur, cap, ncap);
        }
        let (enemy, empty) = self.left(c, cap);
        let mut extended = false;
        each_slot!(m.short, j, d, {
            let over = G::go(j, d, cur & d.ok2) & enemy;
            if over != W::ZERO {
                let land = G::go(j, d, over) & empty;
                if land != W::ZERO {
                    extended = true;
                    self.short_jump::<G, COUNT, ODD>(
                        c, m, on, j, over, land, cap, ncap, enemy, empty,
                    );
                }
            }
        });
        if ncap > 0 && !extended && self.must_continue {
            self.short_emit::<G, COUNT>(c, m, cur, cap, ncap);
        }
    }

    /// The jump along slot `j` over `over` to `land` of a chain of
    /// `short_dfs` that has taken `cap` (`ncap` pieces) before it, with
    /// `enemy` and `empty` the pieces it may take and the squares it may
    /// cross before the jump: the chain ends on `land` (`short_emit`,
    /// counted as one step of the search, as the call of `short_dfs` would
    /// be, unless the kind is crowned there and stops) or goes on in the
    /// copy of `short_dfs` other than `ODD` (see `short_dfs`: no call of a
    /// function to itself). It ends there when crowned mid-chain with a
    /// stop, after one or two jumps in the diagonal geometries when no jump
    /// along another slot than the reverse one was possible from `land`
    /// before the move (`on`), and after more when `short_jump_on` finds no
    /// jump on. The decision of both `short_dfs` and the first jumps of
    /// `search`, inlined into each.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn short_jump<G: Shift, const COUNT: bool, const ODD: bool>(
        &self,
        c: &mut Chain<'_, W>,
        m: &KindK<W>,
        on: &[W; MAXD],
        j: usize,
        over: W,
        land: W,
        cap: W,
        ncap: u32,
        enemy: W,
        empty: W,
    ) {
        let stop = land & c.crown_stop != W::ZERO;
        if stop
            || (G::DIAG && ncap < 2 && land & on[j] == W::ZERO)
            || (ncap >= 2 && !self.short_jump_on::<G>(m, land, enemy & !over, empty | over))
        {
            if !stop {
                c.steps += 1;
            }
            self.short_emit::<G, COUNT>(c, m, land, cap | over, ncap + 1);
        } else if ODD {
            self.short_dfs::<G, COUNT, false>(c, m, on, land, cap | over, ncap + 1);
        } else {
            self.short_dfs::<G, COUNT, true>(c, m, on, land, cap | over, ncap + 1);
        }
    }

    /// Whether a piece with the moves `m` (short jumps alone) that has
    /// landed on `land` has a jump on, with `enemy` the pieces it may
    /// still take and `empty` the squares it may land on (a superset is
    /// safe: `short_dfs` then calls itself and finds none). Tested where
    /// `short_dfs` lands after the second jump of a chain or later, so that
    /// a chain that ends there ends without a call.
    #[inline(always)]
    fn short_jump_on<G: Shift>(&self, m: &KindK<W>, land: W, enemy: W, empty: W) -> bool {
        any_slot!(
            m.short,
            j,
            d,
            G::go(j, d, G::go(j, d, land & d.ok2) & enemy) & empty != W::ZERO
        )
    }

    /// `emit` for `short_dfs`: the kind never changes mid-chain, and only
    /// a chain of `TWIN_JUMPS` jumps or more (in the diagonal geometries;
    /// two in the others) may repeat another, so only those look for a
    /// twin; with `COUNT`, the others are counted (`Chain::count`), not
    /// written.
    #[inline(always)]
    fn short_emit<G: Shift, const COUNT: bool>(
        &self,
        c: &mut Chain<'_, W>,
        m: &KindK<W>,
        to: W,
        cap: W,
        ncap: u32,
    ) {
        if self.majority(c, ncap).is_none() {
            return;
        }
        let twins = if G::DIAG { TWIN_JUMPS } else { 2 };
        if COUNT && ncap < twins {
            c.count += 1;
            return;
        }
        let crowned = m.promo & to != W::ZERO;
        let result = if crowned { m.promo_to } else { c.start_kind };
        let from = c.from;
        if ncap >= twins
            && c.out
                .get(c.begin..)
                .unwrap_or(&[])
                .iter()
                .any(|x| x.from == from && x.to == to && x.cap == cap && x.result == result)
        {
            return;
        }
        c.out.push(KMove {
            from,
            to,
            cap,
            kind: c.start_kind,
            result,
            turned: false,
            crowned,
        });
    }

    /// The majority rule for a chain of `ncap` pieces about to be emitted:
    /// None when a longer chain was found before (it is dropped), Some(true)
    /// when it is longer than every chain before (those are dropped from
    /// `out`, and the count), Some(false) otherwise (or when captures are
    /// free).
    #[inline(always)]
    fn majority(&self, c: &mut Chain<'_, W>, ncap: u32) -> Option<bool> {
        if !self.most || ncap == c.best {
            return Some(false);
        }
        if ncap < c.best {
            return None;
        }
        c.best = ncap;
        c.out.truncate(c.begin);
        c.count = 0;
        Some(true)
    }

    /// The jump over `over` to `land` of a chain that has taken `cap`
    /// (`ncap` pieces).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn jump<G: Shift, const K: bool>(
        &self,
        c: &mut Chain<'_, W>,
        over: W,
        land: W,
        kind: u8,
        digit: u128,
        cap: W,
        ncap: u32,
    ) {
        let at = 8 * (KEY_JUMPS - 1).saturating_sub(ncap);
        if K {
            if ncap >= KEY_JUMPS {
                // Too long for a key: the general generator decides.
                c.steps = self.max_steps.saturating_add(1);
                return;
            }
            c.key |= digit << at;
        }
        let (next, stop) = self.crown_mid(c.side, kind, land);
        if stop {
            self.emit::<K>(c, land, kind, cap | over, ncap + 1);
        } else {
            self.dfs::<G, K>(c, land, next, cap | over, ncap + 1);
        }
        if K {
            c.key &= !(0xff << at);
        }
    }

    /// A chain that ends on `to`, having taken `cap` (`ncap` pieces): one
    /// move, after the majority rule and the merging of twins.
    fn emit<const K: bool>(&self, c: &mut Chain<'_, W>, to: W, kind: u8, cap: W, ncap: u32) {
        match self.majority(c, ncap) {
            None => return,
            Some(true) if K => {
                if let Some(keys) = c.keys.as_deref_mut() {
                    keys.clear();
                }
            }
            Some(_) => {}
        }
        let (result, turned, crowned_here) = self.finish(c.side, kind, to);
        // Crowned mid-chain, or at the end.
        let crowned = crowned_here || kind != c.start_kind;
        let from = c.from;
        // DR-3: the same start, end, captured set and result is one move.
        // A chain of one jump is fixed by its start and end unless its kind
        // jumps both short and long.
        let dup =
            if ncap >= 2 || self.twin_singles {
                c.out.get(c.begin..).unwrap_or(&[]).iter().position(|m| {
                    m.from == from && m.to == to && m.cap == cap && m.result == result
                })
            } else {
                None
            };
        if K {
            if let Some(keys) = c.keys.as_deref_mut() {
                match dup.and_then(|i| keys.get_mut(i)) {
                    // The same move by another path: the first path found
                    // by the general generator is the smallest key, and
                    // its events are the move's.
                    Some(k) => {
                        if c.key < *k {
                            *k = c.key;
                            if let Some(m) = dup.and_then(|i| c.out.get_mut(c.begin + i)) {
                                m.crowned = crowned;
                            }
                        }
                    }
                    None => keys.push(c.key),
                }
            }
        }
        if dup.is_none() {
            c.out.push(KMove {
                from,
                to,
                cap,
                kind: c.start_kind,
                result,
                turned,
                crowned,
            });
        }
    }
}

/// The jump sets `jk` (per slot, see `Kernel::capturers`) of the slots
/// other than the reverse of slot `j` (`j ^ 2`, in the diagonal
/// geometries): before a move, the squares from which a piece that has
/// jumped along `j` and landed there may jump on (see
/// `Kernel::count_single_jumps_diag`).
#[inline(always)]
fn onward<W: Word>(jk: &[W; MAXD], j: usize) -> W {
    match j ^ 2 {
        0 => jk[1] | jk[2] | jk[3],
        1 => jk[0] | jk[2] | jk[3],
        2 => jk[0] | jk[1] | jk[3],
        _ => jk[0] | jk[1] | jk[2],
    }
}

/// `onward` for each slot.
#[inline(always)]
fn onward_all<W: Word>(jk: &[W; MAXD]) -> [W; MAXD] {
    [onward(jk, 0), onward(jk, 1), onward(jk, 2), onward(jk, 3)]
}

/// The number of slides of the pieces `pcs` with the moves `m`: the
/// squares of `land` on their rays through `empty`. The rays of two pieces
/// along one direction don't meet (the nearer piece stops the other's), so
/// they are counted together.
#[inline(always)]
fn slide_count<G: Shift, W: Word>(m: &KindK<W>, pcs: W, empty: W, land: W) -> u64 {
    let mut total = 0u64;
    each_slot!(m.slide, j, d, {
        let mut ray = G::go(j, d, pcs & d.ok) & empty;
        let mut all = ray;
        while ray != W::ZERO {
            ray = G::go(j, d, ray & d.ok) & empty;
            all |= ray;
        }
        total += u64::from((all & land).ones());
    });
    total
}

/// The directions of a class rearranged by slot of the diagonal geometry
/// with shifts `a` and `b` (see `Diag`), or None when one is not such a
/// diagonal or the class names a direction twice.
fn by_slot<W: Word>(d: &Dirs<W>, a: u32, b: u32) -> Option<Dirs<W>> {
    let mut out = Dirs {
        n: d.n,
        ..Dirs::default()
    };
    let mut used = [false; MAXD];
    for (i, x) in d.d.iter().enumerate().take(d.n) {
        if x.ok == W::ZERO {
            // No square has a neighbour that way: it never moves.
            continue;
        }
        let j = match (x.l, x.r) {
            (l, 0) if l == a => 0,
            (l, 0) if l == b => 1,
            (0, r) if r == a => 2,
            (0, r) if r == b => 3,
            _ => return None,
        };
        if used[j] {
            return None;
        }
        used[j] = true;
        out.d[j] = *x;
        out.rank[j] = d.rank[i];
    }
    Some(out)
}

/// The bit of square `sq` in layout `l`, as a board of word `W`.
fn bit_of<W: Word>(l: &super::bitboard::Layout, sq: usize) -> Result<W, NoJumps> {
    let b = l.bit_of.get(sq).ok_or(NoJumps::Board)?;
    1u128
        .checked_shl(u32::from(*b))
        .and_then(W::from_bb)
        .ok_or(NoJumps::Board)
}

/// The kernel's form of direction `d`, or None when the layout's shift does
/// not give the neighbour of every square the same way the square tables do.
fn dir_of<W: Word>(t: &Tables, l: &super::bitboard::Layout, d: usize) -> Option<Dir<W>> {
    let off = *l.off.get(d)?;
    let ok = *l.from_ok.get(d)?;
    let ok2 = *l.jump_ok.get(d)?;
    for sq in 0..t.n {
        let b = i32::from(*l.bit_of.get(sq)?);
        let nb = *t.nbr.get(sq * t.ndirs + d)?;
        let has = ok >> b & 1 == 1;
        if (nb != NONE) != has {
            return None;
        }
        if nb == NONE {
            if ok2 >> b & 1 == 1 {
                return None;
            }
            continue;
        }
        if i32::from(*l.bit_of.get(usize::from(nb))?) != b + off {
            return None;
        }
        let nb2 = *t.nbr.get(usize::from(nb) * t.ndirs + d)?;
        if (nb2 != NONE) != (ok2 >> b & 1 == 1) {
            return None;
        }
    }
    let (l, r) = if off >= 0 {
        (off.unsigned_abs(), 0)
    } else {
        (0, off.unsigned_abs())
    };
    if l >= W::BITS || r >= W::BITS {
        return None;
    }
    Some(Dir {
        l,
        r,
        ok: W::from_bb(ok)?,
        ok2: W::from_bb(ok2)?,
    })
}

/// A position as a kernel's `KPos` of a game of `nkinds` kinds (None if it
/// doesn't fit: a side that dropped out, a piece code beyond the word).
fn kpos_of<W: Word>(pos: &Position, nkinds: usize) -> Option<KPos<W>> {
    if pos.out != 0 || pos.to_move > 1 {
        return None;
    }
    let mut p = KPos {
        side: pos.to_move,
        ..KPos::default()
    };
    for s in 0..2 {
        for k in 0..nkinds {
            let b = *pos.bb.get(1 + s * nkinds + k)?;
            p.pcs[s][k] = W::from_bb(b)?;
        }
    }
    // The counts must agree with the boards (end rules count pieces).
    for s in 0..2 {
        if p.side_pcs(s).ones() != u32::from(pos.count[s]) {
            return None;
        }
    }
    Some(p)
}

/// Writes a kernel position of a game of `nkinds` kinds back into a
/// `Position` of the game (its buffers reused).
fn write_kpos<W: Word>(t: &Tables, nkinds: usize, p: &KPos<W>, pos: &mut Position) {
    let Some(l) = t.layout.as_ref() else {
        return;
    };
    pos.board.clear();
    pos.board.resize(t.n, super::tables::EMPTY);
    pos.bb.clear();
    pos.bb.resize(1 + t.nsides * t.nkinds, 0);
    pos.count = [0; super::position::MAX_SIDES];
    pos.out = 0;
    pos.to_move = p.side;
    for s in 0..2 {
        for k in 0..nkinds {
            let code = 1 + s * nkinds + k;
            let mut b = p.pcs[s][k];
            while b != W::ZERO {
                let bit = b.low() as usize;
                b = b.clear_lowest();
                if let (Some(&sq), Some(bb)) = (l.sq_of.get(bit), pos.bb.get_mut(code)) {
                    *bb |= 1 << bit;
                    if let Some(x) = pos.board.get_mut(usize::from(sq)) {
                        *x = code as u8;
                    }
                    pos.count[s] += 1;
                }
            }
        }
    }
}

mod flips;
mod lines;
mod path;
mod playout;
mod sides;
mod slides;
mod steps;
mod word;
pub use flips::{FlipKernel, NoFlips};
pub use lines::{LPos, LineKernel, NoLines};
pub use path::{Path, Refusal};
pub use playout::{PlayoutHost, PlayoutScratch};
pub use slides::{NoSlides, SlideKernel};
pub use steps::{NoSteps, StepKernel};
