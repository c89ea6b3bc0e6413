//! The board games' vocabulary as resolved values: names are ids
//! (`SideId`, `KindId`, `ZoneId`, `Sq`, `DirId`), squares are sets, and the
//! settings of the language (`playable`, `notation`, `capture ...`, `crown
//! mid-chain ...`, `long-landing ...`, `end ...`) are the enums and records
//! below. The checker produces them; the compiled game
//! (`crate::board::game`) is built of them and re-exports them.

use super::{Elimination, Verdict};
use crate::source::Span;

/// A playable square, numbered 0.. in the order of the numeric notation
/// (ranks from the top, files from the left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sq(pub u16);

/// A side (player), in seat order as declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SideId(pub u8);

/// A piece kind, in declaration order; kind 0 is the default kind of the setup
/// and of conversions unless the rule file says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KindId(pub u8);

/// A zone, in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ZoneId(pub u16);

/// A direction vector, an index into `Game::dirs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DirId(pub u8);

/// A set of playable squares.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet {
    words: Vec<u64>,
}

impl SquareSet {
    /// An empty set able to hold `n` squares.
    pub fn with_capacity(n: usize) -> SquareSet {
        SquareSet {
            words: vec![0; n.div_ceil(64)],
        }
    }

    /// Adds a square.
    pub fn insert(&mut self, sq: Sq) {
        let i = usize::from(sq.0);
        if i / 64 >= self.words.len() {
            self.words.resize(i / 64 + 1, 0);
        }
        if let Some(w) = self.words.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    /// Whether the set holds the square.
    pub fn contains(&self, sq: Sq) -> bool {
        let i = usize::from(sq.0);
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Adds every square of `other`.
    pub fn union_with(&mut self, other: &SquareSet) {
        if other.words.len() > self.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// The squares, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = Sq> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            (0..64).filter_map(move |b| {
                if w & (1u64 << b) != 0 {
                    u16::try_from(wi * 64 + b).ok().map(Sq)
                } else {
                    None
                }
            })
        })
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The number of squares in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// How squares are written in moves and positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// `c3`, `l12`: file letter then rank number.
    Algebraic,
    /// `1`..`N`: playable squares numbered from the top rank, left to right
    /// (the PDN numbering). Algebraic is accepted on input too.
    Numeric,
}

/// Which squares of the board pieces may stand on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playable {
    /// Every square.
    All,
    /// Squares where file + rank is even (a1 is dark), files and ranks from 1.
    Dark,
    /// Squares where file + rank is odd.
    Light,
}

/// One playable square.
#[derive(Clone, Debug)]
pub struct SquareInfo {
    /// 0-based file (a = 0).
    pub file: u8,
    /// 0-based rank (rank 1 = 0).
    pub rank: u8,
    /// `c3`
    pub algebraic: String,
    /// 1-based number in the numeric notation.
    pub number: u16,
}

/// One side.
#[derive(Clone, Debug)]
pub struct SideInfo {
    /// The identifier in the rule file (`white`).
    pub id: String,
    /// The display name (`Red`).
    pub name: String,
    /// The letter in position strings (`W`).
    pub letter: char,
    /// The forward vector (dx, dy): north is (0, 1).
    pub forward: (i8, i8),
}

/// One zone: a set of squares per side (all equal for a zone that belongs to
/// nobody).
#[derive(Clone, Debug)]
pub struct ZoneInfo {
    /// The identifier.
    pub id: String,
    /// The squares, indexed by side.
    pub squares: Vec<SquareSet>,
    /// Whether each side has its own version of the zone.
    pub per_side: bool,
    /// No piece may end a move, or land between jumps, on the zone (AR-7).
    pub no_stop: bool,
    /// Whether its squares count as captors in an enclosure (`hostile`).
    pub hostile: Hostile,
    /// The only kinds that may stop on its squares (`only KIND ...`; empty:
    /// every kind).
    pub only: Vec<KindId>,
    /// With `only`: the other kinds may not pass over its squares either
    /// (`closed`).
    pub closed: bool,
}

/// Whether a square counts as a captor when a piece is enclosed against
/// it by custodian capture (`zone ... hostile [when-empty]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hostile {
    /// Not hostile: only pieces capture.
    Not,
    /// Hostile unless a piece of the enclosed piece's own side stands on
    /// it (`hostile`).
    Always,
    /// Hostile only while empty (`hostile when-empty`).
    WhenEmpty,
}

/// What a jump does to the piece jumped over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JumpEffect {
    /// Removed at once: it neither blocks nor can be jumped again.
    RemoveAtOnce,
    /// Removed when the move ends; meanwhile it blocks and can't be jumped
    /// twice (DR-1).
    RemoveAtEnd,
    /// Goes over to the jumper's side at once, as the given kind (AR-2, AR-3).
    Convert(KindId),
    /// Goes under the jumper at once (`capture stacks`): the top piece of a
    /// jumped column is taken and put at the bottom of the jumping column;
    /// what was under it stays, now a column of its own, and may be jumped
    /// again in the same chain while its top is an enemy.
    Stack,
}

/// Which capture the player may choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureChoice {
    /// Any capture.
    Free,
    /// One that takes the most pieces (DR-3 counting: every kind counts 1).
    Most,
    /// The best under the criteria of `CaptureRules::criteria`.
    Criteria,
}

/// One criterion of capture precedence: among the captures, only the best
/// under it stay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Criterion {
    /// The most pieces captured.
    MostPieces,
    /// The highest total value (`KindInfo::weight`) captured.
    MostValue,
    /// The most pieces of the kind captured.
    MostOf(KindId),
    /// The fewest pieces of the kind captured.
    FewestOf(KindId),
    /// The capturing piece is of the kind (when the move begins).
    By(KindId),
    /// Pieces of the kind captured as early in the chain as possible: the
    /// positions at which they were taken, compared one by one.
    EarliestOf(KindId),
}

/// Custodian capture: after a move, enemies enclosed on a line between the
/// moved piece and another piece of its side are captured.
#[derive(Clone, Debug)]
pub struct Custodian {
    /// Per side, the directions (from the moved piece) that count.
    pub dirs: Vec<Vec<DirId>>,
    /// A run of several enemies is captured too (else exactly one).
    pub multiple: bool,
    /// An enemy on a corner square is captured when the moved piece and
    /// friendly pieces stand on all its neighbours along the directions.
    pub corners: bool,
    /// The board's edge closes the surrounding of a piece of a kind
    /// captured surrounded, like a hostile square (`capture edge hostile`).
    pub edge: bool,
}

/// Where a piece from the hand may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceRule {
    /// On any empty square.
    Anywhere,
    /// Only where it encloses at least one line of enemies (by the
    /// custodian capture, which then takes or wins them over).
    Enclosing,
    /// Only next to a piece of the placing side, along one of the
    /// directions of `Placing::next_to`.
    NextToOwn,
}

/// Placing pieces from a hand: the kind placed, where, and how many pieces
/// each side has in hand at the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placing {
    /// The kind placed.
    pub kind: KindId,
    /// Where it may be placed.
    pub rule: PlaceRule,
    /// Per side: the pieces in hand at the start (None: unlimited).
    pub hand: Vec<Option<u16>>,
    /// `next-to own DIRS`: the direction vectors (every side's, joined)
    /// along which a piece of the placing side must stand next to the
    /// square; empty for the other rules.
    pub next_to: Vec<(i8, i8)>,
}

/// `lines DIRS only from SET`: along these direction vectors, the board's
/// lines join only two squares of the set; the other directions join every
/// pair of squares as usual.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lines {
    /// The direction vectors (dx, dy) the rule concerns (every side's).
    pub dirs: Vec<(i8, i8)>,
    /// The squares the lines along them join.
    pub squares: SquareSet,
}

impl Lines {
    /// Whether the board has a line along `v` from `from` to `to` (squares
    /// one vector apart): always, unless `v` is one of the rule's
    /// directions and a square is outside the set.
    pub fn joins(&self, v: (i8, i8), from: Sq, to: Sq) -> bool {
        !self.dirs.contains(&v) || (self.squares.contains(from) && self.squares.contains(to))
    }
}

/// One opening move (`opening remove own ...`): the side to move removes
/// one of its own pieces instead of moving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningMove {
    /// From one of these squares.
    From(SquareSet),
    /// From a square next to an empty one along one of these direction
    /// vectors (every side's).
    NextToEmpty(Vec<(i8, i8)>),
}

/// The most pieces a hand may hold (more is written `unlimited`).
pub const MAX_HAND: u32 = 10_000;

/// What happens when a piece reaches its promotion zone in the middle of a
/// chain that goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MidChainCrown {
    /// It stays what it is; crowned only if the move ends there (DR-2).
    Stay,
    /// It is crowned at once and goes on as the new kind (AR-6).
    Continue,
    /// The move ends there and it is crowned (English).
    Stop,
}

/// Where a long jump may land.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LongLanding {
    /// Any empty square beyond the jumped piece.
    Any,
    /// Where the chain can go on, when there is such a square (AR-11).
    MustContinue,
}

/// The capture rules.
#[derive(Clone, Debug)]
pub struct CaptureRules {
    /// A capture must be made when one exists.
    pub compulsory: bool,
    /// Free choice, the most pieces, or the criteria.
    pub choice: CaptureChoice,
    /// The precedence criteria, in order (empty: free choice; `capture
    /// most` is `[MostPieces]`).
    pub criteria: Vec<Criterion>,
    /// Custodian capture, when the game has it.
    pub custodian: Option<Custodian>,
    /// Per side, the directions along which the enemies next to a piece
    /// that has moved (or was placed) are captured or won over (`capture
    /// neighbours`; empty: none; filled in by `compile`).
    pub neighbours: Vec<Vec<DirId>>,
    /// What a jump does to the jumped piece.
    pub effect: JumpEffect,
    /// A chain must be continued while a further jump exists.
    pub must_continue: bool,
    /// Promotion in the middle of a chain.
    pub mid_chain: MidChainCrown,
    /// Landing of long jumps.
    pub long_landing: LongLanding,
}

/// Which zone version a reference means, relative to the moving side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    /// The mover's own version.
    Own,
    /// Any other side's version.
    Enemy,
    /// Any side's version.
    Any,
}

/// What a trigger does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerAction {
    /// The moving piece goes over to the side that owns the zone square it
    /// stands on, as the given kind (AR-1, AR-3). Promotion is then not
    /// applied (AR-9).
    Convert(KindId),
}

/// A rule applied when a move ends on a zone.
#[derive(Clone, Debug)]
pub struct Trigger {
    /// The zone.
    pub zone: ZoneId,
    /// Whose version of it.
    pub whose: Whose,
    /// What happens.
    pub action: TriggerAction,
    /// Where it is declared.
    pub span: Span,
}

/// Events that a move may cause; bit flags for counters.
pub mod event {
    /// A piece was removed by a capture.
    pub const CAPTURE: u32 = 1;
    /// A piece changed sides.
    pub const CONVERSION: u32 = 2;
    /// A piece was crowned.
    pub const PROMOTION: u32 = 4;
    /// The side that can't move loses and drops out (a pass that leaves
    /// the game; more than two sides).
    pub const DROP_OUT: u32 = 8;
}

/// A ply counter: the game is drawn after `plies` plies in a row with none of
/// the `reset` events (DR-4, AR-8).
#[derive(Clone, Debug)]
pub struct Counter {
    /// The limit.
    pub plies: u32,
    /// Events (bits of `event`) that reset it.
    pub reset: u32,
    /// Kinds (bit k: kind k) whose moves reset it: a move by a piece that was
    /// of such a kind when the move began (AR-14).
    pub reset_move_of: u32,
}

/// The condition of an end rule, and the side it concerns.
#[derive(Clone, Debug)]
pub enum EndCondition {
    /// A side has no pieces left (that side).
    NoPieces,
    /// The side to move has no legal move (that side).
    NoMoves,
    /// A position occurs for the Nth time with the same side to move (the
    /// side that moved).
    Repetition(u32),
    /// Plies in a row without the counter's events (the side that moved).
    Without(Counter),
    /// After a move, a piece of a side (of the kind, or any) stands on the
    /// zone's squares of that side's version (that side).
    Reach {
        /// The zone.
        zone: ZoneId,
        /// Whose version of the zone, seen from the side.
        whose: Whose,
        /// Only pieces of this kind count.
        kind: Option<KindId>,
    },
    /// A side has this many pieces or fewer (that side).
    ReducedTo(u32),
    /// No side can move (the side to move has no move and, where sides
    /// pass, no other side has one either): the side with the most pieces
    /// (equal counts: a draw).
    MostPieces,
    /// A side that had a piece of the kind at the start has none left
    /// (that side).
    Captured(KindId),
    /// A side has `length` of its pieces in a row along one of its
    /// directions (that side).
    Line {
        /// How many in a row.
        length: u32,
        /// Exactly `length` (else `length` or more).
        exact: bool,
        /// Per side, the direction vectors along which a line counts.
        dirs: Vec<Vec<(i8, i8)>>,
    },
}

/// One end rule: a condition and what it means for the side it concerns.
#[derive(Clone, Debug)]
pub struct EndRule {
    /// When it holds.
    pub condition: EndCondition,
    /// Win, lose, draw or pass for the side it concerns.
    pub verdict: Verdict,
    /// The `end` statement (None for the rule every game has last: a side
    /// that can't move loses).
    pub span: Option<Span>,
}

/// How the game ends: the end rules in the order written (when several hold
/// at once, the first decides), and what a loss does when more than two
/// sides play.
#[derive(Clone, Debug)]
pub struct EndRules {
    /// The rules, in order; there is always a `NoMoves` rule.
    pub rules: Vec<EndRule>,
    /// What a side that loses does when more than two sides are in play.
    pub loser: Elimination,
}

impl EndRules {
    /// What a side with no legal move gets.
    pub fn no_moves(&self) -> Verdict {
        self.rules
            .iter()
            .find_map(|r| match r.condition {
                EndCondition::NoMoves => Some(r.verdict),
                _ => None,
            })
            .unwrap_or(Verdict::Lose)
    }

    /// The draw (or other) counters, with the index of their rule.
    pub fn counters(&self) -> impl Iterator<Item = (usize, &Counter)> {
        self.rules
            .iter()
            .enumerate()
            .filter_map(|(i, r)| match &r.condition {
                EndCondition::Without(c) => Some((i, c)),
                _ => None,
            })
    }

    /// The repetition rule: its index and count.
    pub fn repetition(&self) -> Option<(usize, u32)> {
        self.rules
            .iter()
            .enumerate()
            .find_map(|(i, r)| match r.condition {
                EndCondition::Repetition(n) => Some((i, n)),
                _ => None,
            })
    }
}

/// A checked board: its size, its playable squares and how they are
/// written; the checked form (`check::board`) and the compiled game
/// (`board::game::Game`, as its own fields by `Deref`) hold the same value.
#[derive(Clone, Debug)]
pub struct Board {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// Playable squares.
    pub playable: Playable,
    /// Notation.
    pub notation: Notation,
    /// Playable squares in numeric order.
    pub squares: Vec<SquareInfo>,
    /// `rank * width + file` to the square.
    pub square_at: Vec<Option<Sq>>,
    /// `rank * width + file`: a hole, a square that is not part of the
    /// board (`holes`): never playable, drawn as no square.
    pub holes: Vec<bool>,
}

impl Board {
    /// Whether the cell at 0-based (file, rank) is a hole.
    pub fn hole(&self, file: i32, rank: i32) -> bool {
        if file < 0 || rank < 0 || file >= i32::from(self.width) || rank >= i32::from(self.height) {
            return false;
        }
        usize::try_from(rank * i32::from(self.width) + file)
            .ok()
            .and_then(|i| self.holes.get(i))
            .copied()
            .unwrap_or(false)
    }
}
