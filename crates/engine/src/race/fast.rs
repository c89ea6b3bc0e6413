//! The race turn compiled for whole random games: what the bench plays
//! when the rule file allows it, the general turn (`RaceState::choices`
//! and `apply_listed`) kept as the reference it is tested against.
//!
//! [`FastRace::new`] looks at what the rule file says and compiles a game
//! of one move a turn by the roll's count (no rules of the roll, no dice
//! used one by one, no landing rule that moves other pieces, resting rules
//! planned by `RaceGame::derive`) into one table, all a turn
//! reads: for every seat row (one on a plain track), roll of the dice (by
//! the number its faces make in the order rolled) and position, whether
//! the piece can move, where it ends, the turns it costs, whether the turn
//! earns an extra roll, whether the other pieces on its cell go out, held
//! pieces there are freed or it is held. Landings the game's plans leave
//! live because a rule tests the faces are worked out roll by roll with
//! the game's own `land`. A position is a few small arrays, a turn
//! allocates nothing, the pieces a seat (and, for two each, the players)
//! are constants of a loop compiled for them, two pieces' choices are
//! fixed slots and only the one drawn is used. Rules of the choices
//! (`no landing on own pieces`, kept home cells, closed cells, `leave
//! start first`, `enter compulsory`, tries, throws of sticks and their
//! throws of 0, rows, passing, moves back, swaps) are a loop of their own
//! ([`ChoiceRules`]): a seat's pieces as a mask of positions and a word of
//! their positions, a byte a piece ([`Occupancy`]), each move
//! with the cells it stops on and passes as masks ([`RuleStep`]), the
//! general turn's refusals as two masks a roll (where no move may stop,
//! what none may pass), each line's moves decided by shifts of them, by
//! groups that rest on one cell, the few others one by one
//! ([`RuleLine`]), the moves of a roll a mask of positions from which the
//! one drawn is taken. The dice and the random
//! player draw from the same generators in the same order as
//! `lab::bench::play_one` over the general path, so a seed plays the same
//! game on both (`tests/race_fast.rs` compares them turn by turn for every
//! bundled race game it covers).

use crate::race::game::{
    Enter, Extra, Finish, Landed, LandingPlan, RaceGame, RestingPlan, Win, MAX_DICE, OUT,
};
use crate::race::{agent_seed, Choice, Roll};
use crate::rng::Rng;

/// The most pieces (all seats) a compiled game has.
const MAX_PIECES: usize = 32;
/// The most pieces a seat has.
const MAX_OWN: usize = 8;
/// The most seats.
const MAX_SEATS: usize = 8;
/// The rolls after which a game is given up (as `play_one` does).
const MAX_ROLLS: u32 = 100_000;
/// The most table entries by count a compiled game may have.
const MAX_ENTRIES: usize = 1 << 20;
/// The most table entries by roll (what a turn reads) a compiled game may
/// have.
const MAX_TURN_ENTRIES: usize = 1 << 22;
/// A pass among a turn's choices (the others are pieces of the seat).
const PASS: u8 = u8::MAX;

/// The shape of a game's rules of the choices (`ChoiceRules::shape`): which
/// of the rules its loop tests on every roll are in force, as bits. The
/// loop of the rules of the choices is compiled once more for each shape
/// `FastRace::run` lists (`ROWS_BACK`, `STICKS_CLOSED`, `ENTRY_TRIES`: its
/// `S`, with `KNOWN`; `FastRace::shaped` lists the same), where those rules
/// are constants and the code of the ones not in force is left out; every
/// other shape runs the copy that reads them from `ChoiceRules` as it plays
/// (`S` = 0). A game's shape picks its copy, never its name.
mod shape {
    /// The shape is a constant of the copy (without it: read as it plays).
    pub const KNOWN: u32 = 1 << 31;
    /// A throw of four two-sided dice (sticks), each a draw's top bit.
    pub const FOUR_STICKS: u32 = 1;
    /// `no landing on own pieces`.
    pub const NO_LANDING_OWN: u32 = 1 << 1;
    /// Rows or passing rules.
    pub const WALLS: u32 = 1 << 2;
    /// ... of the usual lengths (`ChoiceRules::usual_rows`).
    pub const USUAL_ROWS: u32 = 1 << 3;
    /// Closed cells.
    pub const CLOSED: u32 = 1 << 4;
    /// ... where every seat's piece is at the cell's position
    /// (`ChoiceRules::closed_aligned`).
    pub const CLOSED_ALIGNED: u32 = 1 << 5;
    /// `move back when blocked`.
    pub const BACK: u32 = 1 << 6;
    /// `leave start first`.
    pub const LEAVE_START: u32 = 1 << 7;
    /// `enter compulsory`.
    pub const ENTER_COMPULSORY: u32 = 1 << 8;
    /// `move compulsory`.
    pub const COMPULSORY: u32 = 1 << 9;
    /// `tries N when no piece can move`, N above one.
    pub const TRIES: u32 = 1 << 10;
    /// Some move costs turns.
    pub const MISSES: u32 = 1 << 11;
    /// `win all pieces`.
    pub const ALL_PIECES: u32 = 1 << 12;
    /// The game may end drawn (`RaceGame::may_stick`).
    pub const MAY_STICK: u32 = 1 << 13;

    /// Two seats, sticks, rows of the usual lengths, closed cells, moves
    /// back, every move compulsory, all pieces home to win, drawn games.
    pub const ROWS_BACK: u32 = KNOWN
        | FOUR_STICKS
        | NO_LANDING_OWN
        | WALLS
        | USUAL_ROWS
        | CLOSED
        | CLOSED_ALIGNED
        | BACK
        | COMPULSORY
        | ALL_PIECES
        | MAY_STICK;
    /// Sticks, closed cells, no rows, no moves back, every move
    /// compulsory, all pieces home to win, drawn games.
    pub const STICKS_CLOSED: u32 = KNOWN
        | FOUR_STICKS
        | NO_LANDING_OWN
        | CLOSED
        | CLOSED_ALIGNED
        | COMPULSORY
        | ALL_PIECES
        | MAY_STICK;
    /// A die, entries compulsory and the start left first, tries, every
    /// move compulsory, all pieces home to win.
    pub const ENTRY_TRIES: u32 = KNOWN
        | NO_LANDING_OWN
        | LEAVE_START
        | ENTER_COMPULSORY
        | COMPULSORY
        | TRIES
        | ALL_PIECES
        | MAY_STICK;

    /// Whether the rule `bit` is in force in the copy of shape `S`, where
    /// `now` is the rule as `ChoiceRules` holds it.
    #[inline(always)]
    pub fn on<const S: u32>(bit: u32, now: bool) -> bool {
        if S & KNOWN != 0 {
            S & bit != 0
        } else {
            now
        }
    }
}

/// Why a rule file's race is played by the general turn, not compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotCovered {
    /// Rules of the choices it does not compile: protected rows, no
    /// passing, moves back, points and blockades.
    Choices,
    /// Rules of the roll (`rolling 6 6: ...`).
    RollRules,
    /// Pieces may be held (no longer refused: held pieces are compiled).
    Held,
    /// Tries when no piece can move (no longer refused: compiled with
    /// the rules of the choices).
    Tries,
    /// A finishing order or an outcome other than the first home winning.
    Outcome,
    /// More seats, pieces or dice than the compiled position holds, or a
    /// setup that starts a piece at the finish.
    Size,
    /// The track is laid out by named paths.
    Paths,
    /// Some landing or resting rule is applied at play time (tests of the
    /// faces, targets, ...).
    LiveRule,
    /// Dice used one by one (`move each die`).
    EachDie,
}

/// One entry of the move table: a piece at some position moved by some
/// count (or, in the table a turn reads, by some roll).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Step {
    /// Where it ends.
    at: u16,
    /// Turns the mover misses.
    miss: u8,
    /// `GIVE`, `LOSE`, `SEND_OUT`, `OPPONENTS` (by count); `MOVES`,
    /// `EXTRA`, `SEND_OUT`, `OPPONENTS`, `HOME` (by roll).
    flags: u8,
}

/// What the general turn makes of a roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct RollInfo {
    /// What it moves.
    count: u16,
    /// `ROLL_ENTERS`, `ROLL_EXTRA`.
    flags: u8,
}

/// The roll lets a piece enter.
const ROLL_ENTERS: u8 = 1;
/// The roll earns an extra roll.
const ROLL_EXTRA: u8 = 2;
/// The roll moves nothing (a throw of 0 of sticks): its one choice is a
/// pass.
const ROLL_ZERO: u8 = 4;
/// The most rolls a table holds.
const MAX_ROLL_TABLE: usize = 1 << 16;

/// Every roll of the game's dice as the general turn sees it, indexed by
/// the faces in the order rolled (the first die the most significant
/// digit, base `faces`, each face less 1); `None` when there are too many.
fn rolls(game: &RaceGame) -> Option<Vec<(Roll, RollInfo)>> {
    let faces = usize::from(game.sides());
    let low = game.low_face();
    let total = faces.checked_pow(u32::from(game.dice))?;
    if total > MAX_ROLL_TABLE {
        return None;
    }
    let mut out = Vec::with_capacity(total);
    for index in 0..total {
        let mut shown = [0u8; MAX_DICE];
        let mut rest = index;
        for d in (0..usize::from(game.dice)).rev() {
            *shown.get_mut(d)? = (rest % faces) as u8 + low;
            rest /= faces;
        }
        let roll = Roll::new(shown.get(..usize::from(game.dice))?)?;
        let count = game.count(&roll);
        // As `RaceState::may_enter`: `finish exact` lets no count past the
        // finish enter.
        let enters =
            match game.enter {
                Enter::Always => true,
                Enter::OnFace(f) => roll.shows(f),
            } && (game.finish != Finish::Exact || game.enter_at_start || count <= game.cells);
        let earned = match game.extra {
            Extra::Never => false,
            Extra::Doubles => roll.is_double(),
            Extra::OnFace(f) => roll.shows(f),
            // Sticks: the value of the throw; dice: a face.
            Extra::OnValues(mask) if game.sticks => {
                let v = game.count(&roll);
                v < 64 && mask & (1 << v) != 0
            }
            Extra::OnValues(mask) => roll.faces().iter().any(|&f| f < 64 && mask & (1 << f) != 0),
        };
        let info = RollInfo {
            count,
            flags: if enters { ROLL_ENTERS } else { 0 }
                | if earned { ROLL_EXTRA } else { 0 }
                | if count == 0 { ROLL_ZERO } else { 0 },
        };
        out.push((roll, info));
    }
    Some(out)
}

/// A landing gives an extra roll.
const GIVE: u8 = 1;
/// A landing loses the extra roll.
const LOSE: u8 = 2;
/// The other pieces on the cell where it rests go out.
const SEND_OUT: u8 = 4;
/// ... only those of the other seats.
const OPPONENTS: u8 = 8;
/// The piece can move with this roll (an entering piece: the roll lets it
/// enter).
const MOVES: u8 = 1;
/// The turn earns an extra roll: the roll's, unless the landing loses it
/// or gives one.
const EXTRA: u8 = 2;
/// The piece ends home.
const HOME: u8 = 16;
/// Held pieces on the cell where it rests are freed (by count and by
/// roll).
const FREE: u8 = 32;
/// ... and the piece is held there.
const HOLD: u8 = 64;
/// It lands or comes to rest on a closed cell (rules of the choices).
const CLOSED: u8 = 128;
/// The other pieces (or the opponents') on the cell where it rests go to
/// the cell it came from (a swap). A game with swaps holds no pieces, so
/// the bit is `FREE`'s.
const SWAP: u8 = FREE;

/// The rules of the choices of a compiled game (`restricted`): what the
/// general turn's `landing_refusal` and `none_can_move` test, on a seat's
/// pieces as a mask of positions (a position is below 64).
#[derive(Clone, Debug)]
struct ChoiceRules {
    /// The moves of `FastRace::moves` with what their refusals test (the
    /// entries side by side).
    steps: Vec<RuleStep>,
    /// How the moves of each line (a seat row and a roll) are decided.
    lines: Vec<RuleLine>,
    /// The groups of moves that rest elsewhere than they land
    /// (`RuleLine::rests`).
    rests: Vec<Rest>,
    /// Lines from one seat row to the next (0: one row for all).
    line_stride: usize,
    /// `no landing on own pieces`.
    no_landing_own: bool,
    /// The positions of kept home cells, as bits: an own piece there
    /// can't be landed on or passed.
    kept: u64,
    /// The positions where an own piece counts at all (on the track, and
    /// the kept home cells).
    counted: u64,
    /// The positions before home (out included), as bits.
    unfinished: u64,
    /// The positions from which a piece may move again (out included), as
    /// bits: a game whose pieces are all elsewhere is stuck (with
    /// `may_stick`).
    live: u64,
    /// `leave start first`.
    leave_start: bool,
    /// `enter compulsory`.
    enter_compulsory: bool,
    /// `tries N when no piece can move`.
    tries: u8,
    /// Whether the cell under each seat's position is closed, seat by seat
    /// (empty: no closed cells).
    closed: Vec<bool>,
    /// The same, as bits a seat (empty: no closed cells).
    closed_cells: Vec<u64>,
    /// Every seat's piece on a closed cell is at the same position as the
    /// cell is under the seat's own (a plain track; named paths that share
    /// a lane alike): which closed cells are taken is one AND.
    closed_aligned: bool,
    /// The smallest and largest count of a roll.
    low: u16,
    high: u16,
    finish: Finish,
    cells: u16,
    /// A plain track (what `RuleStep::between` holds depends on it).
    plain: bool,
    /// The positions where a seat never has two pieces (`no landing on
    /// own pieces` on the track, a setup of one piece a cell): a piece
    /// that leaves one leaves it empty.
    alone: u64,
    /// No move costs turns: no seat ever owes one, the next seat is the
    /// next in order.
    no_misses: bool,
    /// `move back when blocked`: the moves back by every roll, as `steps`
    /// (empty without the rule).
    back: Vec<RuleStep>,
    /// Rows or passing rules are in force (on a plain track).
    walls: bool,
    /// `protected in rows of N`, `no passing rows of N` (0: none).
    protect_rows: u8,
    pass_rows: u8,
    /// The rows of both rules are of the usual lengths (none, two or
    /// three): `protect` and `pass` pick them without a jump on the length.
    usual_rows: bool,
    protect: RowPick,
    pass: RowPick,
    /// The rules tested on every roll, as bits (`shape`): picks the copy
    /// of the loop that runs the game.
    shape: u32,
}

/// Which of the rows of two and of three a rule of rows is, as masks of
/// all or no bits (both none: no such rule).
#[derive(Clone, Copy, Debug, Default)]
struct RowPick {
    two: u64,
    three: u64,
}

impl RowPick {
    /// The pick of rows of `r` (0: none), for `r` of 0, 2 or 3.
    fn of(r: u8) -> RowPick {
        RowPick {
            two: if r == 2 { u64::MAX } else { 0 },
            three: if r == 3 { u64::MAX } else { 0 },
        }
    }
}

/// How the moves of one line (a seat row and a roll) are decided, as bits
/// of the positions they start from. Most land and rest the roll's count
/// ahead (or back) having passed just the cells between: they are refused
/// by shifts of the masks of what refuses them. Those that rest elsewhere
/// than they land are refused by groups (`Rest`), the others one by one.
#[derive(Clone, Copy, Debug, Default)]
struct RuleLine {
    /// The positions (not out) whose move forward is a choice before the
    /// pieces are looked at.
    movable: u64,
    /// Of them, those tested one by one.
    odd: u64,
    /// The same for the moves back (`move back when blocked`).
    back: u64,
    back_odd: u64,
    /// The first group of moves forward that land the count ahead and
    /// rest elsewhere (none: `at` 0), tested without a branch (whether a
    /// roll's line has one varies at random from roll to roll).
    rest: Rest,
    /// The others: a range of `ChoiceRules::rests`.
    rests: (u32, u32),
}

/// Moves of one line that land the roll's count ahead, having passed just
/// the cells between, and come to rest on one other cell (a landing rule
/// moved them): refused by what refuses a landing there too.
#[derive(Clone, Copy, Debug, Default)]
struct Rest {
    /// The positions they start from.
    from: u64,
    /// The cell where they rest, as a bit.
    at: u64,
}

/// One move of the table the rules of the choices read: the move, where
/// it lands before its landing rules, and the cells the general turn's
/// refusals look at, as bits.
#[derive(Clone, Copy, Debug, Default)]
struct RuleStep {
    /// The move; without `MOVES` it is no choice (a move that passes a
    /// cell no one passes included: that refusal is known when compiled).
    step: Step,
    /// Where it lands before its landing rules.
    land: u16,
    /// The cells where it lands and where it comes to rest.
    stop: u64,
    /// The cells it passes: on a plain track those between where it
    /// starts and where it lands (either way, up to the finish); elsewhere
    /// those it passes going forward.
    between: u64,
}

impl RuleStep {
    /// The move `step` of a piece at `from` that lands on `land`.
    fn new(step: Step, plain: bool, cells: u16, from: u16, land: u16) -> RuleStep {
        let between = if plain {
            span(from.min(land), from.max(land).min(cells))
        } else if land > from {
            span(from, land)
        } else {
            0
        };
        RuleStep {
            step,
            land,
            stop: bit(land) | bit(step.at),
            between,
        }
    }
}

/// The positions strictly between `low` and `high`, as bits.
fn span(low: u16, high: u16) -> u64 {
    if high > low + 1 {
        (bit(high) - 1) & !(bit(low + 1) - 1)
    } else {
        0
    }
}

/// The cells the opponents' rows close to a move, as bits of positions
/// (a plain track): where no move may land or rest (`protected in
/// rows`), and what no move may pass (`no passing rows`).
#[derive(Clone, Copy, Default)]
struct Walls {
    protected: u64,
    unpassable: u64,
}

/// What refuses the moves of a roll of seat `seat` (of `n`): where no
/// move may land or rest, what none may pass, the positions of the
/// seat's pieces that count, the opponents' rows.
#[derive(Clone, Copy)]
struct Refusals {
    stops: u64,
    passes: u64,
    mask: u64,
    walls: Walls,
    seat: usize,
    n: usize,
}

/// The positions of `mask` in rows of `r` or more set bits in a row (the
/// usual rows of two and three without a loop).
#[inline(always)]
fn in_rows(mask: u64, r: u8) -> u64 {
    match r {
        0 | 1 => mask,
        2 => {
            let starts = mask & (mask >> 1);
            starts | (starts << 1)
        }
        3 => {
            let starts = mask & (mask >> 1) & (mask >> 2);
            starts | (starts << 1) | (starts << 2)
        }
        _ => {
            let mut starts = mask;
            for t in 1..u32::from(r) {
                starts &= mask >> t;
            }
            let mut rows = 0;
            for t in 0..u32::from(r) {
                rows |= starts << t;
            }
            rows
        }
    }
}

impl ChoiceRules {
    /// Whether seat `seat`'s position `p` is on a closed cell.
    #[inline(always)]
    fn is_closed(&self, seat: usize, width: usize, p: u16) -> bool {
        self.closed
            .get(seat * width + usize::from(p))
            .copied()
            .unwrap_or(false)
    }

    /// The walls one seat's pieces at `mask` (on the track) put up: with
    /// `usual` (`usual_rows`, or a constant of the loop's shape) the rows
    /// of two and of three found together and picked, the other lengths
    /// by `in_rows`.
    #[inline(always)]
    fn rows(&self, mask: u64, usual: bool) -> Walls {
        if usual {
            let two = mask & (mask >> 1);
            let three = two & (mask >> 2);
            let rows2 = two | (two << 1);
            let rows3 = three | (three << 1) | (three << 2);
            return Walls {
                protected: (rows2 & self.protect.two) | (rows3 & self.protect.three),
                unpassable: (rows2 & self.pass.two) | (rows3 & self.pass.three),
            };
        }
        let of = |r: u8| if r > 0 { in_rows(mask, r) } else { 0 };
        Walls {
            protected: of(self.protect_rows),
            unpassable: of(self.pass_rows),
        }
    }

    /// `RaceGame::advance` forward, for `none_can_move`.
    #[inline(always)]
    fn advance(&self, from: u16, count: u16) -> u16 {
        let to = from.saturating_add(count);
        if to <= self.cells {
            return to;
        }
        match self.finish {
            Finish::Past => self.cells,
            Finish::Exact => from,
            Finish::Bounce => self.cells.saturating_sub(to - self.cells),
        }
    }
}

/// Bit `p` (positions are below 64 in a game with rules of the choices).
#[inline(always)]
fn bit(p: u16) -> u64 {
    1u64 << (p & 63)
}

/// A race game compiled for whole random games of a fixed number of
/// players.
#[derive(Clone, Debug)]
pub struct FastRace {
    players: usize,
    /// Pieces a seat.
    k: usize,
    dice: u8,
    compulsory: bool,
    all_pieces: bool,
    /// Where a piece is home (finished).
    home: u16,
    /// The game may end drawn (`RaceGame::may_stick`).
    may_stick: bool,
    /// A piece at this position or beyond cannot move again (with
    /// `may_stick`).
    stuck_from: u16,
    /// The start positions, seat by seat.
    start: [u16; MAX_PIECES],
    /// The move of every piece by every roll, all a turn reads: seat row,
    /// then the roll (by the number its faces make, as `rolls`), then the
    /// position (`width` of them); `flags` by roll.
    moves: Vec<Step>,
    /// Entries from one seat row to the next (0: one row for all).
    row_stride: usize,
    /// `RaceGame::spot` of every seat and position, seat by seat.
    spots: Vec<u32>,
    /// A plain track: a piece's spot is its position.
    plain: bool,
    /// With positions below 64: for every seat, position and seat, the
    /// positions of the latter's pieces on the same spot, as bits (empty
    /// with more positions).
    same: Vec<u64>,
    /// Every roll by the number its faces make in the order rolled
    /// (`faces` to the power `dice` of them).
    rolls: Vec<RollInfo>,
    /// Positions a seat (`cells + 1`).
    width: usize,
    /// Pieces may be held (`held`).
    held: bool,
    /// The rules of the choices, in a game that has them (or tries).
    rules: Option<ChoiceRules>,
    /// Sides of a die (2 for sticks) and its lowest face (0 for sticks).
    sides: u8,
    low_face: u8,
    /// The bits of a die whose sides are a power of two (0: not): its face
    /// is the top bits of the generator's next output, as `Rng::below`
    /// draws it.
    side_bits: u32,
}

impl FastRace {
    /// The compiled game for `players` players, or why the rule file is
    /// played by the general turn.
    pub fn new(game: &RaceGame, players: usize) -> Result<FastRace, NotCovered> {
        if game.each_die {
            return Err(NotCovered::EachDie);
        }
        // Rows and passing only on a plain track (a row is of cells in a
        // row of the track), not stacks.
        let plain = game.circuit.is_none() && game.paths.is_none();
        if (game.rows_or_passing() && !plain)
            || game.pass_stack > 0
            || game.point > 0
            || game.stack_landing > 0
        {
            return Err(NotCovered::Choices);
        }
        if !game.roll_rules.is_empty() {
            return Err(NotCovered::RollRules);
        }
        // Swaps are played by the loop of the rules of the choices.
        let swaps = game.rules().iter().any(|r| {
            r.effects.iter().any(|e| {
                matches!(
                    e,
                    crate::race::game::CellEffect::Targeted(_, crate::race::game::Action::Swap)
                )
            })
        });
        let with_rules = game.restricted || game.tries > 1 || swaps;
        if with_rules && game.holds_pieces() {
            return Err(NotCovered::Held);
        }
        if game.order || game.outcome != crate::race::game::Outcome::FirstHomeWins {
            return Err(NotCovered::Outcome);
        }
        let k = usize::from(game.pieces);
        if players == 0
            || players > MAX_SEATS
            || k == 0
            || k > MAX_OWN
            || players * k > MAX_PIECES
            || game.dice == 0
            || usize::from(game.dice) > MAX_DICE
            || game.faces == 0
            || game.cells < 2
        {
            return Err(NotCovered::Size);
        }
        let home = game.home_from();
        let mut start = [OUT; MAX_PIECES];
        for (seat, at) in game.setup.iter().enumerate().take(players) {
            for (i, &p) in at.iter().enumerate().take(k) {
                if p >= home {
                    return Err(NotCovered::Size);
                }
                if let Some(slot) = start.get_mut(seat * k + i) {
                    *slot = p;
                }
            }
        }
        let (low, high) = game.sums();
        // A count of 0 (a throw of sticks) only with the rules of the
        // choices, which pass on it.
        if (low == 0 && !game.restricted) || high < low {
            return Err(NotCovered::Size);
        }
        let counts = usize::from(high - low) + 1;
        let width = usize::from(game.cells) + 1;
        // A game with rules of the choices keeps a seat's positions as
        // bits of a word.
        if with_rules && width > 64 {
            return Err(NotCovered::Size);
        }
        let rows = if game.circuit.is_some() || game.paths.is_some() {
            players
        } else {
            1
        };
        if rows * width * counts > MAX_ENTRIES {
            return Err(NotCovered::Size);
        }
        // Every move by count, as the game's plans play it (or by roll);
        // a count of 0 moves nothing.
        let mut steps = Vec::with_capacity(rows * width * counts);
        for seat in 0..rows {
            for from in 0..width as u16 {
                for count in low..=high {
                    steps.push(if count == 0 {
                        Planned::Step(Step {
                            at: from,
                            ..Step::default()
                        })
                    } else {
                        step(game, seat, from, count).ok_or(NotCovered::LiveRule)?
                    });
                }
            }
        }
        let spots = (0..players)
            .flat_map(|seat| (0..width as u16).map(move |p| (seat, p)))
            .map(|(seat, p)| game.spot(seat, p))
            .collect();
        let rolls = rolls(game).ok_or(NotCovered::Size)?;
        if rows * rolls.len() * width > MAX_TURN_ENTRIES {
            return Err(NotCovered::Size);
        }
        // ... and by roll: what a turn reads.
        let exact = game.finish == Finish::Exact;
        let mut moves = Vec::with_capacity(rows * rolls.len() * width);
        let closed: Vec<bool> = if game.closed.iter().any(|&c| c) {
            (0..players)
                .flat_map(|seat| (0..width as u16).map(move |p| (seat, p)))
                .map(|(seat, p)| {
                    p != OUT && p < game.cells && game.is_closed(game.rule_cell(seat, p))
                })
                .collect()
        } else {
            Vec::new()
        };
        let closed_at = |seat: usize, p: u16| {
            closed
                .get(seat * width + usize::from(p))
                .copied()
                .unwrap_or(false)
        };
        let mut lands = Vec::new();
        for seat in 0..rows {
            for (thrown, roll) in &rolls {
                let count = roll.count;
                // `can_move_from` as one range: cells 1 to `top`.
                let top = if exact {
                    game.cells.saturating_sub(count).min(game.cells - 1)
                } else {
                    game.cells - 1
                };
                let earned = roll.flags & ROLL_EXTRA != 0;
                for from in 0..width as u16 {
                    let movable = if from == OUT {
                        roll.flags & ROLL_ENTERS != 0
                    } else {
                        from <= top
                    };
                    if !movable {
                        moves.push(Step {
                            at: from,
                            miss: 0,
                            flags: if earned { EXTRA } else { 0 },
                        });
                        lands.push(from);
                        continue;
                    }
                    let i = (seat * width + usize::from(from)) * counts
                        + usize::from(count.wrapping_sub(low));
                    let s = match steps.get(i).copied().ok_or(NotCovered::Size)? {
                        Planned::Step(s) => s,
                        Planned::ByRoll => step_by_roll(game, seat, from, count, thrown)
                            .ok_or(NotCovered::LiveRule)?,
                    };
                    let extra = if s.flags & LOSE != 0 {
                        false
                    } else {
                        earned || s.flags & GIVE != 0
                    };
                    let mut flags = MOVES | (s.flags & (SEND_OUT | OPPONENTS | FREE | HOLD));

                    if extra {
                        flags |= EXTRA;
                    }
                    if s.at >= home {
                        flags |= HOME;
                    }
                    let land = landing(game, from, count).0;
                    if closed_at(seat, land) || closed_at(seat, s.at) {
                        flags |= CLOSED;
                    }
                    lands.push(land);
                    moves.push(Step {
                        at: s.at,
                        miss: s.miss,
                        flags,
                    });
                }
            }
        }
        // The moves back (`move back when blocked`) by every roll.
        let (mut back, mut back_lands) = (Vec::new(), Vec::new());
        if game.move_back {
            for seat in 0..rows {
                for (thrown, roll) in &rolls {
                    let count = roll.count;
                    for from in 0..width as u16 {
                        if from == OUT || from >= game.cells || count == 0 || count >= from {
                            back.push(Step::default());
                            back_lands.push(from);
                            continue;
                        }
                        let (s, land) = step_back(game, seat, from, count, thrown)
                            .ok_or(NotCovered::LiveRule)?;
                        let extra = if s.flags & LOSE != 0 {
                            false
                        } else {
                            roll.flags & ROLL_EXTRA != 0 || s.flags & GIVE != 0
                        };
                        let mut flags = MOVES | (s.flags & (SEND_OUT | OPPONENTS | SWAP));
                        if extra {
                            flags |= EXTRA;
                        }
                        if closed_at(seat, land) || closed_at(seat, s.at) {
                            flags |= CLOSED;
                        }
                        back.push(Step {
                            at: s.at,
                            miss: s.miss,
                            flags,
                        });
                        back_lands.push(land);
                    }
                }
            }
        }
        // Who shares a spot, as bits (the loop of the rules of the choices
        // reads them for closed cells and captures).
        let mut same = Vec::new();
        if width <= 64 {
            same = vec![0u64; players * width * players];
            for seat in 0..players {
                for at in 1..width as u16 {
                    let spot = game.spot(seat, at);
                    for whose in 0..players {
                        let mut m = 0u64;
                        for q in 0..width as u16 {
                            if game.spot(whose, q) == spot {
                                m |= bit(q);
                            }
                        }
                        if let Some(e) =
                            same.get_mut((seat * width + usize::from(at)) * players + whose)
                        {
                            *e = m;
                        }
                    }
                }
            }
        }
        let stuck_from = if exact {
            (game.cells + 1).saturating_sub(low)
        } else {
            game.cells
        };
        let kept_from = match &game.circuit {
            Some(c) if c.kept => c.cells + 1,
            _ => u16::MAX,
        };
        // The closed cells under each seat's positions, as bits (none
        // without closed cells).
        let closed_cells: Vec<u64> = if closed.is_empty() {
            Vec::new()
        } else {
            (0..players)
                .map(|seat| {
                    (1..width as u16)
                        .filter(|&p| closed_at(seat, p))
                        .fold(0u64, |m, p| m | bit(p))
                })
                .collect()
        };
        // The positions of seat `whose` on the spot of seat `seat`'s `at`.
        let same_at = |seat: usize, at: u16, whose: usize| {
            same.get((seat * width + usize::from(at)) * players + whose)
                .copied()
                .unwrap_or(0)
        };
        let closed_aligned = closed_cells.iter().enumerate().all(|(seat, &cells)| {
            (1..width as u16)
                .filter(|&c| cells & bit(c) != 0)
                .all(|c| (0..players).all(|whose| same_at(seat, c, whose) == bit(c)))
        });
        let rules = with_rules.then(|| {
            let mut kept = 0u64;
            let mut counted = 0u64;
            // The cells no piece passes going forward (with rows or
            // passing rules): a move past one is no choice.
            let mut no_pass = 0u64;
            for p in 1..width as u16 {
                if p < game.cells && game.is_no_passing(p) {
                    no_pass |= bit(p);
                }
                if p >= kept_from {
                    kept |= bit(p);
                }
                if p < game.cells || kept_from != u16::MAX {
                    counted |= bit(p);
                }
            }
            let unfinished = (0..width as u16)
                .filter(|&p| p < home)
                .fold(0u64, |m, p| m | bit(p));
            let walls = game.rows_or_passing();
            let lines = rows * rolls.len();
            // Where seat row `row`'s piece at `from` may be told apart from
            // a piece at `q` by positions alone (the masks of a line).
            let apart = |row: usize, from: u16, q: u16| {
                q != from && (q == OUT || game.spot(row, q) != game.spot(row, from))
            };
            let mut rule_lines = vec![RuleLine::default(); lines];
            let mut rests: Vec<Rest> = Vec::new();
            // The moves with what their refusals test, and how each line
            // decides them: by shifts (forward or back), by a group of
            // moves that rest on one cell, or one by one.
            let mut table = |entries: &[Step], lands: &[u16], forward: bool| {
                let mut steps = Vec::with_capacity(entries.len());
                let mut groups: Vec<Vec<Rest>> = vec![Vec::new(); lines];
                for (i, (&s, &land)) in entries.iter().zip(lands).enumerate() {
                    let from = (i % width) as u16;
                    let mut e = RuleStep::new(s, plain, game.cells, from, land);
                    if walls && land > from && no_pass & e.between != 0 {
                        e.step.flags &= !MOVES;
                    }
                    let line = i / width;
                    // A capture of opponents where none of them can be
                    // (a cell of the mover's own lane): none to look for.
                    let row = line / rolls.len();
                    if rows > 1
                        && e.step.flags & (SEND_OUT | OPPONENTS) == SEND_OUT | OPPONENTS
                        && (0..players)
                            .filter(|&whose| whose != row)
                            .all(|whose| same_at(row, e.step.at, whose) == 0)
                    {
                        e.step.flags &= !SEND_OUT;
                    }
                    if let (true, true, Some(l)) = (
                        from != OUT,
                        e.step.flags & MOVES != 0,
                        rule_lines.get_mut(line),
                    ) {
                        let count = rolls.get(line % rolls.len()).map_or(0, |r| r.1.count);
                        // Where a move by shifts lands, and what it passes.
                        let (ahead, between) = if forward {
                            (from + count, span(from, from + count))
                        } else {
                            (
                                from.wrapping_sub(count),
                                span(from.wrapping_sub(count), from),
                            )
                        };
                        let plain_move = count > 0
                            && (forward || from > count)
                            && ahead < 64
                            && land == ahead
                            && e.between == between
                            && apart(row, from, ahead);
                        let rest = s.at;
                        if forward {
                            l.movable |= bit(from);
                        } else {
                            l.back |= bit(from);
                        }
                        if plain_move && e.stop == bit(ahead) {
                            // By shifts.
                        } else if plain_move
                            && forward
                            && e.stop == bit(ahead) | bit(rest)
                            && apart(row, from, rest)
                        {
                            // Rests elsewhere: the group of its cell.
                            let g = groups.get_mut(line).map(|g| {
                                let at = bit(rest);
                                match g.iter().position(|r| r.at == at) {
                                    Some(j) => &mut g[j],
                                    None => {
                                        g.push(Rest { from: 0, at });
                                        let last = g.len() - 1;
                                        &mut g[last]
                                    }
                                }
                            });
                            if let Some(g) = g {
                                g.from |= bit(from);
                            }
                        } else if forward {
                            l.odd |= bit(from);
                        } else {
                            l.back_odd |= bit(from);
                        }
                    }
                    steps.push(e);
                }
                for (l, g) in rule_lines.iter_mut().zip(groups) {
                    if let Some((&one, others)) = g.split_first() {
                        l.rest = one;
                        if !others.is_empty() {
                            l.rests = (rests.len() as u32, (rests.len() + others.len()) as u32);
                            rests.extend_from_slice(others);
                        }
                    }
                }
                steps
            };
            let no_misses = moves.iter().chain(&back).all(|s| s.miss == 0);
            let steps = table(&moves, &lands, true);
            let back = table(&back, &back_lands, false);
            // Two pieces of a seat on one cell of the track from the start.
            let stacked = (0..players).any(|seat| {
                let own = start.get(seat * k..seat * k + k).unwrap_or(&[]);
                own.iter()
                    .enumerate()
                    .any(|(i, &p)| p != OUT && own.get(..i).is_some_and(|o| o.contains(&p)))
            });
            let alone = if game.no_landing_own && !stacked {
                counted
            } else {
                0
            };
            // A piece at one of these positions moves again.
            let live = (0..width as u16)
                .filter(|&p| p == OUT || p < stuck_from)
                .fold(0u64, |m, p| m | bit(p));
            ChoiceRules {
                steps,
                lines: rule_lines,
                rests,
                line_stride: if rows == 1 { 0 } else { rolls.len() },
                no_landing_own: game.no_landing_own,
                kept,
                counted,
                unfinished,
                live,
                leave_start: game.leave_start,
                enter_compulsory: game.enter_compulsory,
                tries: game.tries,
                closed,
                closed_cells,
                closed_aligned,
                low,
                high,
                finish: game.finish,
                cells: game.cells,
                plain,
                alone,
                no_misses,
                back,
                walls,
                protect_rows: game.protect_rows,
                pass_rows: game.pass_rows,
                usual_rows: [game.protect_rows, game.pass_rows]
                    .iter()
                    .all(|r| matches!(r, 0 | 2 | 3)),
                protect: RowPick::of(game.protect_rows),
                pass: RowPick::of(game.pass_rows),
                shape: 0,
            }
        });
        let mut fast = FastRace {
            players,
            k,
            dice: game.dice,
            compulsory: game.compulsory,
            all_pieces: game.win == Win::AllPieces,
            home,
            may_stick: game.may_stick(),
            stuck_from,
            start,
            row_stride: if rows == 1 { 0 } else { rolls.len() * width },
            moves,
            spots,
            plain,
            same,
            rolls: rolls.into_iter().map(|(_, info)| info).collect(),
            width,
            held: game.holds_pieces(),
            rules,
            sides: game.sides(),
            low_face: game.low_face(),
            side_bits: if game.sides() >= 2 && game.sides().is_power_of_two() {
                game.sides().trailing_zeros()
            } else {
                0
            },
        };
        let shape = fast.shape();
        if let Some(r) = &mut fast.rules {
            r.shape = shape;
        }
        Ok(fast)
    }

    /// The shape of the game's rules of the choices (`shape`; 0 without
    /// them): a rule's bit where it is in force, those that only matter
    /// with another (the lengths of rows, where closed cells are) only
    /// with it.
    fn shape(&self) -> u32 {
        let Some(r) = &self.rules else {
            return 0;
        };
        let mut s = 0;
        let mut set = |bit: u32, on: bool| {
            if on {
                s |= bit;
            }
        };
        set(shape::FOUR_STICKS, self.side_bits == 1 && self.dice == 4);
        set(shape::NO_LANDING_OWN, r.no_landing_own);
        set(shape::WALLS, r.walls);
        set(shape::USUAL_ROWS, r.walls && r.usual_rows);
        set(shape::CLOSED, !r.closed_cells.is_empty());
        set(
            shape::CLOSED_ALIGNED,
            !r.closed_cells.is_empty() && r.closed_aligned,
        );
        set(shape::BACK, !r.back.is_empty());
        set(shape::LEAVE_START, r.leave_start);
        set(shape::ENTER_COMPULSORY, r.enter_compulsory);
        set(shape::COMPULSORY, self.compulsory);
        set(shape::TRIES, r.tries > 1);
        set(shape::MISSES, !r.no_misses);
        set(shape::ALL_PIECES, self.all_pieces);
        set(shape::MAY_STICK, self.may_stick);
        s | shape::KNOWN
    }

    /// Whether the game runs a copy of the loop of the rules of the
    /// choices compiled for their shape (with `players` seats), where
    /// those rules are constants; false without rules of the choices, or
    /// where the loop reads them as it plays. `bench` tells which. The
    /// shapes are those the match of `run` lists: keep the two in step.
    pub fn shaped(&self) -> bool {
        self.rules.as_ref().is_some_and(|r| {
            matches!(
                (self.players, r.shape),
                (2, shape::ROWS_BACK | shape::STICKS_CLOSED) | (_, shape::ENTRY_TRIES)
            )
        })
    }

    /// The players of a game.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Plays a whole game between random players from `seed`, as
    /// `lab::bench::play_one` does from the start: the rolls (at most
    /// 100,000) and the winner (none when drawn or given up).
    pub fn play(&self, seed: u64) -> (u32, Option<usize>) {
        self.run(seed, &mut ())
    }

    /// `play`, telling `each` every turn: the seat, the faces, the
    /// choices as the general turn lists them, the index drawn and every
    /// piece's position after the turn, seat by seat.
    pub fn play_traced(&self, seed: u64, each: impl FnMut(&FastTurn<'_>)) -> (u32, Option<usize>) {
        self.run(seed, &mut Traced(each))
    }

    /// The spot of seat `seat`'s piece at `p`.
    #[inline(always)]
    fn spot(&self, seat: usize, p: u16) -> u32 {
        self.spots
            .get(seat * self.width + usize::from(p))
            .copied()
            .unwrap_or(0)
    }

    /// Where seat `seat`'s piece at `p` is, for telling which pieces share
    /// a cell (`RaceGame::spot`).
    #[inline(always)]
    fn spot_of(&self, seat: usize, p: u16) -> u32 {
        if self.plain {
            if p >= self.home {
                u32::MAX
            } else {
                u32::from(p)
            }
        } else {
            self.spot(seat, p)
        }
    }

    /// Whether a piece at `p` can never move again (with `may_stick`).
    #[inline(always)]
    fn piece_stuck(&self, p: u16) -> bool {
        p != OUT && p >= self.stuck_from
    }

    /// The game, turn by turn, with the pieces a seat (and the players, for
    /// two pieces each) as constants where they are usual numbers.
    #[inline(always)]
    fn run<W: Watch>(&self, seed: u64, watch: &mut W) -> (u32, Option<usize>) {
        if let Some(rules) = &self.rules {
            // The copies compiled for a shape (`shape`; as `shaped`), then
            // those that read the rules as they play.
            use shape::{ENTRY_TRIES, ROWS_BACK, STICKS_CLOSED};
            return match (self.players, rules.shape) {
                (2, ROWS_BACK) => self.run_rules::<W, 2, ROWS_BACK>(rules, seed, watch),
                (2, STICKS_CLOSED) => self.run_rules::<W, 2, STICKS_CLOSED>(rules, seed, watch),
                (2, ENTRY_TRIES) => self.run_rules::<W, 2, ENTRY_TRIES>(rules, seed, watch),
                (_, ENTRY_TRIES) => self.run_rules::<W, 0, ENTRY_TRIES>(rules, seed, watch),
                (2, _) => self.run_rules::<W, 2, 0>(rules, seed, watch),
                _ => self.run_rules::<W, 0, 0>(rules, seed, watch),
            };
        }
        if self.held {
            return self.run_k::<W, 0, 0, true>(seed, watch);
        }
        match (self.k, self.players) {
            (2, 2) => self.run_k::<W, 2, 2, false>(seed, watch),
            (1, _) => self.run_k::<W, 1, 0, false>(seed, watch),
            (2, _) => self.run_k::<W, 2, 0, false>(seed, watch),
            (4, _) => self.run_k::<W, 4, 0, false>(seed, watch),
            _ => self.run_k::<W, 0, 0, false>(seed, watch),
        }
    }

    /// A roll, die after die: its faces as one number (the first die the
    /// most significant digit, base `sides`). `TOP`: a die of 2^n sides
    /// (sticks) is drawn as the generator's top bits, the draw `Rng::below`
    /// makes for it without its multiply (the loop of the rules of the
    /// choices, where sticks are thrown); without it, by `Rng::below`, which
    /// keeps the test of the sides out of the loop without rules.
    #[inline(always)]
    fn throw<const TOP: bool>(&self, dice: &mut Rng) -> usize {
        if TOP && self.side_bits > 0 {
            if self.side_bits == 1 && self.dice == 4 {
                return Self::four_sticks(dice);
            }
            let shift = 64 - self.side_bits;
            let mut index = 0usize;
            for _ in 0..self.dice {
                index = (index << self.side_bits) | (dice.next_u64() >> shift) as usize;
            }
            return index;
        }
        let sides = u64::from(self.sides);
        let base = usize::from(self.sides);
        if self.dice == 2 {
            let first = dice.below(sides) as usize;
            first * base + dice.below(sides) as usize
        } else {
            let mut index = 0usize;
            for _ in 0..self.dice {
                index = index * base + dice.below(sides) as usize;
            }
            index
        }
    }

    /// A throw of four sticks, each the top bit of a draw (as `throw`).
    #[inline(always)]
    fn four_sticks(dice: &mut Rng) -> usize {
        let a = dice.next_u64() >> 63;
        let b = dice.next_u64() >> 63;
        let c = dice.next_u64() >> 63;
        let d = dice.next_u64() >> 63;
        ((a << 3) | (b << 2) | (c << 1) | d) as usize
    }

    /// Piece `i` of seat `seat` (whose pieces start at `base`, `k` of
    /// them, `n` seats) moves by the entry `s`: where it ends, the pieces
    /// it sends out, the held pieces it frees, the turns it costs.
    /// Whether the seat is home (the game won).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn move_piece<const HELD: bool>(
        &self,
        pos: &mut [u16; MAX_PIECES],
        held: &mut [bool; MAX_PIECES],
        owed: &mut [u8; MAX_SEATS],
        (seat, base, k, n): (usize, usize, usize, usize),
        i: usize,
        s: Step,
    ) -> bool {
        let all = n * k;
        let at = s.at;
        pos[i] = at;
        if HELD {
            held[i] = false;
        }
        let mut home = false;
        if s.flags & HOME != 0 {
            home = !self.all_pieces
                || pos
                    .get(base..base + k)
                    .is_some_and(|ps| ps.iter().all(|&p| p >= self.home));
        } else if s.flags & SEND_OUT != 0 && at != OUT {
            let opponents = s.flags & OPPONENTS != 0;
            if self.plain {
                // A plain track's spots are its cells.
                for (j, p) in pos.iter_mut().enumerate().take(all) {
                    if *p == at && j != i && !(opponents && j >= base && j < base + k) {
                        *p = OUT;
                        if HELD {
                            held[j] = false;
                        }
                    }
                }
            } else {
                let spot = self.spot(seat, at);
                for (whose, theirs) in pos.chunks_mut(k).take(n).enumerate() {
                    if whose == seat && opponents {
                        continue;
                    }
                    for (j, p) in theirs.iter_mut().enumerate() {
                        if whose * k + j != i && self.spot(whose, *p) == spot {
                            *p = OUT;
                            if HELD {
                                held[whose * k + j] = false;
                            }
                        }
                    }
                }
            }
        } else if HELD && s.flags & FREE != 0 {
            // Held pieces where it rests are freed; it may be held.
            let spot = self.spot_of(seat, at);
            for (j, h) in held.iter_mut().enumerate().take(all) {
                if *h && j != i && self.spot_of(j / k, pos[j]) == spot {
                    *h = false;
                }
            }
            held[i] = s.flags & HOLD != 0;
        }
        if s.miss > 0 {
            owed[seat] = owed[seat].saturating_add(s.miss);
        }
        home
    }

    /// Whether the game is drawn after a turn that moved piece `moved`:
    /// no piece of the `all` can ever move again.
    #[inline(always)]
    fn stuck<const HELD: bool>(
        &self,
        pos: &[u16; MAX_PIECES],
        held: &[bool; MAX_PIECES],
        moved: Option<usize>,
        all: usize,
    ) -> bool {
        let stuck_at = |i: usize| self.piece_stuck(pos[i]) || (HELD && held[i]);
        match moved {
            Some(i) if !stuck_at(i) => false,
            _ => (0..all).all(stuck_at),
        }
    }

    /// The next seat after `seat` of `n`; seats that owe turns miss them
    /// first.
    #[inline(always)]
    fn next_seat(seat: usize, n: usize, owed: &mut [u8; MAX_SEATS]) -> usize {
        let mut next = seat;
        for _ in 0..n * 257 {
            next = if next + 1 >= n { 0 } else { next + 1 };
            match owed.get_mut(next) {
                Some(o) if *o > 0 => *o -= 1,
                _ => break,
            }
        }
        next
    }

    /// Tells `watch` a turn: the choices in `slot` (pieces of the seat
    /// whose first is `base`, `PASS`), as `listed`, and the rest.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn tell<W: Watch>(
        &self,
        watch: &mut W,
        listed: &mut Vec<Choice>,
        (seat, index, picked): (usize, usize, usize),
        slot: &[u8],
        before: &[u16; MAX_PIECES],
        pos: &[u16; MAX_PIECES],
        owed: &[u8; MAX_SEATS],
        (base, k, n): (usize, usize, usize),
    ) {
        listed.clear();
        listed.extend(
            slot.iter()
                .map(|&s| match before.get(base + usize::from(s)) {
                    _ if s == PASS => Choice::Pass,
                    Some(&OUT) | None => Choice::Enter,
                    Some(&p) => Choice::Move(p),
                }),
        );
        let mut faces = [0u8; MAX_DICE];
        let mut rest = index;
        let sides = usize::from(self.sides.max(1));
        for d in (0..usize::from(self.dice)).rev() {
            if let Some(f) = faces.get_mut(d) {
                *f = (rest % sides) as u8 + self.low_face;
            }
            rest /= sides;
        }
        watch.turn(&FastTurn {
            seat,
            faces: faces.get(..usize::from(self.dice)).unwrap_or(&[]),
            choices: listed,
            picked,
            pieces: pos.get(..n * k).unwrap_or(&[]),
            owed: owed.get(..n).unwrap_or(&[]),
        });
    }

    /// The game, turn by turn; `K` pieces a seat (0: `self.k`), `N`
    /// players (0: `self.players`); `HELD`: pieces may be held. Not
    /// inlined: each shape is a loop compiled on its own.
    #[inline(never)]
    fn run_k<W: Watch, const K: usize, const N: usize, const HELD: bool>(
        &self,
        seed: u64,
        watch: &mut W,
    ) -> (u32, Option<usize>) {
        let mut dice = Rng::new(seed);
        let mut pick = Rng::new(agent_seed(seed, 0));
        let k = if K == 0 { self.k } else { K };
        let n = if N == 0 { self.players } else { N };
        let compulsory = self.compulsory;
        let all = n * k;
        let mut pos = self.start;
        let mut owed = [0u8; MAX_SEATS];
        let mut held = [false; MAX_PIECES];
        let mut seat = 0usize;
        let mut rolls = 0u32;
        let mut listed: Vec<Choice> = Vec::new();
        let width = self.width;
        while rolls < MAX_ROLLS {
            let index = self.throw::<false>(&mut dice);
            // The moves of this roll from every position (a position is
            // at most `cells`: each entry is one look-up, no slice).
            let line = seat * self.row_stride + index * width;
            let entry = |p: u16| {
                self.moves
                    .get(line + usize::from(p))
                    .copied()
                    .unwrap_or_default()
            };
            // The choices: enter, the pieces that can move (the furthest
            // first, a position once), pass; each as the index of its
            // piece among the seat's, `PASS` for a pass.
            let base = seat * k;
            let mut slot = [PASS; MAX_OWN + 2];
            let m;
            let picked;
            let chosen;
            // The entry of the piece moved (two pieces a seat: looked up
            // with the choices).
            let mut step = Step::default();
            if K == 2 {
                // Fixed slots: enter (the first piece out), the moves on
                // the track (the furthest first, a position once), pass.
                let (p, q) = (pos[base], pos[base + 1]);
                let (ep, eq) = (entry(p), entry(q));
                let (mp, mq) = (
                    ep.flags & MOVES != 0 && !(HELD && held[base]),
                    eq.flags & MOVES != 0 && !(HELD && held[base + 1]),
                );
                let enter = if p == OUT && mp {
                    0
                } else if q == OUT && mq {
                    1
                } else {
                    PASS
                };
                let tp = p != OUT && mp;
                let tq = q != OUT && mq && q != p;
                let (first, second) = match (tp, tq) {
                    (true, true) if p > q => (0, 1),
                    (true, true) => (1, 0),
                    (true, false) => (0, PASS),
                    (false, true) => (1, PASS),
                    (false, false) => (PASS, PASS),
                };
                let entering = usize::from(enter != PASS);
                let moves = entering + usize::from(tp) + usize::from(tq);
                m = if moves == 0 || !compulsory {
                    moves + 1
                } else {
                    moves
                };
                picked = pick.below(m as u64) as usize;
                chosen = if picked < entering {
                    enter
                } else if picked == entering {
                    first
                } else if picked == entering + 1 {
                    second
                } else {
                    PASS
                };
                step = if chosen == 0 { ep } else { eq };
                if W::ON {
                    let mut j = 0;
                    for s in [enter, first, second] {
                        if s != PASS {
                            slot[j] = s;
                            j += 1;
                        }
                    }
                }
            } else {
                let mut listed_here = 0usize;
                let own = pos.get(base..base + k).unwrap_or(&[]);
                if entry(OUT).flags & MOVES != 0 {
                    if let Some(j) = own.iter().position(|&p| p == OUT) {
                        slot[0] = j as u8;
                        listed_here = 1;
                    }
                }
                let moves = listed_here;
                for (i, &p) in own.iter().enumerate() {
                    if p == OUT || entry(p).flags & MOVES == 0 || (HELD && held[base + i]) {
                        continue;
                    }
                    insert_furthest(&mut slot, own, moves, &mut listed_here, i, p);
                }
                if listed_here == 0 || !compulsory {
                    slot[listed_here] = PASS;
                    listed_here += 1;
                }
                m = listed_here;
                picked = pick.below(m as u64) as usize;
                chosen = slot.get(picked).copied().unwrap_or(PASS);
                if chosen != PASS {
                    step = entry(pos[base + usize::from(chosen)]);
                }
            }
            rolls += 1;
            let before = if W::ON { pos } else { [0; MAX_PIECES] };
            let extra;
            let mut moved = None;
            let mut over = false;
            let mut winner = None;
            if chosen != PASS {
                let i = base + usize::from(chosen);
                moved = Some(i);
                extra = step.flags & EXTRA != 0;
                if self.move_piece::<HELD>(
                    &mut pos,
                    &mut held,
                    &mut owed,
                    (seat, base, k, n),
                    i,
                    step,
                ) {
                    over = true;
                    winner = Some(seat);
                }
            } else {
                let roll = self.rolls.get(index).copied().unwrap_or_default();
                extra = roll.flags & ROLL_EXTRA != 0;
            }
            let mut drawn = false;
            if !over && self.may_stick && self.stuck::<HELD>(&pos, &held, moved, all) {
                over = true;
                drawn = true;
            }
            let roller = seat;
            if !over && !extra {
                seat = Self::next_seat(seat, n, &mut owed);
            }
            if W::ON {
                self.tell(
                    watch,
                    &mut listed,
                    (roller, index, picked),
                    slot.get(..m).unwrap_or(&[]),
                    &before,
                    &pos,
                    &owed,
                    (base, k, n),
                );
            }
            if over {
                return (rolls, if drawn { None } else { winner });
            }
        }
        (rolls, None)
    }

    /// The game, turn by turn, under rules of the choices (`N` players,
    /// 0: `self.players`): a move the general turn's `landing_refusal`
    /// forbids is no choice (an own piece where it lands or rests, a kept
    /// home cell passed, a closed cell taken, the opponents' rows);
    /// `leave start first` and `enter compulsory` leave one choice; a
    /// throw of 0 passes; a seat with no piece that can move tries again
    /// (`tries`). Every seat's pieces are kept as masks of positions
    /// ([`Occupancy`]), what refuses a move is two masks worked out once a
    /// roll (where it may not stop, what it may not pass), the moves of a
    /// roll are decided by the masks of its line ([`RuleLine`]) and are a
    /// mask of positions (the general turn lists them the furthest first,
    /// a position once), and the piece drawn is found by its position in
    /// the word of the seat's positions. `S`: the shape the copy is
    /// compiled for (`shape`; 0: the rules read as it plays).
    #[inline(never)]
    fn run_rules<W: Watch, const N: usize, const S: u32>(
        &self,
        r: &ChoiceRules,
        seed: u64,
        watch: &mut W,
    ) -> (u32, Option<usize>) {
        let mut dice = Rng::new(seed);
        let mut pick = Rng::new(agent_seed(seed, 0));
        let k = self.k;
        let n = if N == 0 { self.players } else { N };
        let mut occ = Occupancy::of(&self.start, n, k);
        let mut owed = [0u8; MAX_SEATS];
        let mut seat = 0usize;
        let mut rolls = 0u32;
        let mut tries = 0u8;
        let mut listed: Vec<Choice> = Vec::new();
        let width = self.width;
        let closed = shape::on::<S>(shape::CLOSED, !r.closed_cells.is_empty());
        let aligned = shape::on::<S>(shape::CLOSED_ALIGNED, r.closed_aligned);
        // The copy that reads the rules as it plays leaves the throw to
        // `throw`, which tests for four sticks itself.
        let four_sticks = shape::on::<S>(shape::FOUR_STICKS, false);
        while rolls < MAX_ROLLS {
            let index = if four_sticks {
                Self::four_sticks(&mut dice)
            } else {
                self.throw::<true>(&mut dice)
            };
            let roll = self.rolls.get(index).copied().unwrap_or_default();
            let line_no = seat * r.line_stride + index;
            let line = line_no * width;
            let base = seat * k;
            let placed = occ.placed[seat];
            // A piece is out (waiting to enter).
            let waiting = placed & bit(OUT) != 0;
            // The choices: an entry, the positions whose piece moves (as
            // bits), a pass.
            let mut enter = false;
            let mut legal = 0u64;
            // The turn's moves go back.
            let mut back = false;
            // A rule left one choice (not even a pass).
            let mut forced = false;
            if roll.flags & ROLL_ZERO == 0 {
                let rl = r.lines.get(line_no).copied().unwrap_or_default();
                // The seat's pieces that count.
                let mask = placed & r.counted;
                // Where no move may land or rest (an own piece, a
                // protected row, a closed cell taken) and what no move may
                // pass (a kept home cell with an own piece, an unpassable
                // row), as bits.
                let mut stops = if shape::on::<S>(shape::NO_LANDING_OWN, r.no_landing_own) {
                    mask
                } else {
                    mask & r.kept
                };
                let mut passes = mask & r.kept;
                let walls = if shape::on::<S>(shape::WALLS, r.walls) {
                    let w = self.walls(
                        r,
                        &occ,
                        seat,
                        n,
                        shape::on::<S>(shape::USUAL_ROWS, r.usual_rows),
                    );
                    stops |= w.protected;
                    passes |= w.unpassable;
                    w
                } else {
                    Walls::default()
                };
                if closed {
                    stops |= self.closed_taken_cells(r, &occ, seat, n, aligned);
                }
                let at = |table: &[RuleStep], p: u16| {
                    table
                        .get(line + usize::from(p))
                        .copied()
                        .unwrap_or_default()
                };
                let x = Refusals {
                    stops,
                    passes,
                    mask,
                    walls,
                    seat,
                    n,
                };
                if waiting {
                    let e = at(&r.steps, OUT);
                    enter = e.step.flags & MOVES != 0 && !self.refuses(r, &occ, &x, &e, OUT);
                }
                // Forward: the moves of the roll's count ahead by shifts
                // (what stops them shifted back by the count, what they
                // may not pass smeared over it), those that rest elsewhere
                // by their groups, the odd ones one by one.
                let count = u32::from(roll.count);
                let candidates = placed & rl.movable;
                let mut blocked = stops.checked_shr(count).unwrap_or(0);
                if passes != 0 {
                    for s in 1..count.min(64) {
                        blocked |= passes >> s;
                    }
                }
                let hit = u64::from(stops & rl.rest.at != 0);
                blocked |= rl.rest.from & hit.wrapping_neg();
                let (first, end) = rl.rests;
                if end > first {
                    for g in r.rests.get(first as usize..end as usize).unwrap_or(&[]) {
                        if stops & g.at != 0 {
                            blocked |= g.from;
                        }
                    }
                }
                legal = (candidates & !rl.odd & !blocked)
                    | self.one_by_one(r, &occ, &x, (&r.steps, line), candidates & rl.odd);
                // No move forward nor entry: the moves back, by the same
                // shifts the other way.
                if !enter && legal == 0 && shape::on::<S>(shape::BACK, !r.back.is_empty()) {
                    back = true;
                    let movable = placed & rl.back;
                    let mut blocked = stops.checked_shl(count).unwrap_or(0);
                    if passes != 0 {
                        for s in 1..count.min(64) {
                            blocked |= passes << s;
                        }
                    }
                    legal = (movable & !rl.back_odd & !blocked)
                        | self.one_by_one(r, &occ, &x, (&r.back, line), movable & rl.back_odd);
                }
                // The moves go down: a piece on position 1 is the last.
                if shape::on::<S>(shape::LEAVE_START, r.leave_start)
                    && waiting
                    && legal & bit(1) != 0
                {
                    legal = bit(1);
                    enter = false;
                    forced = true;
                } else if enter && shape::on::<S>(shape::ENTER_COMPULSORY, r.enter_compulsory) {
                    legal = 0;
                    forced = true;
                }
            }
            let moves = ones(legal) + usize::from(enter);
            let pass =
                moves == 0 || (!shape::on::<S>(shape::COMPULSORY, self.compulsory) && !forced);
            let m = moves + usize::from(pass);
            let picked = pick.below(m as u64) as usize;
            // The first piece at `p`.
            let first_at = |p: u16| occ.first(seat, p);
            // The seat's piece drawn (none: a pass).
            let chosen = if enter && picked == 0 {
                first_at(OUT)
            } else if picked < moves {
                first_at(nth_furthest(legal, picked - usize::from(enter)))
            } else {
                None
            };
            let mut slot = [PASS; MAX_OWN + 2];
            if W::ON {
                let mut j = 0;
                let mut list = |s: Option<usize>| {
                    if let Some(c) = slot.get_mut(j) {
                        *c = s.map_or(PASS, |s| s as u8);
                    }
                    j += 1;
                };
                if enter {
                    list(first_at(OUT));
                }
                for t in 0..ones(legal) {
                    list(first_at(nth_furthest(legal, t)));
                }
                if pass {
                    list(None);
                }
            }
            rolls += 1;
            let before = if W::ON {
                occ.positions(n, k)
            } else {
                [0; MAX_PIECES]
            };
            let extra;
            // Where the piece moved ends.
            let mut moved = None;
            let mut over = false;
            let mut winner = None;
            if let Some(c) = chosen {
                let from = occ.at(seat, c);
                let table = if back { &r.back } else { &r.steps };
                let step = table
                    .get(line + usize::from(from))
                    .map(|e| e.step)
                    .unwrap_or_default();
                extra = step.flags & EXTRA != 0;
                let to = step.at;
                let opponents = step.flags & OPPONENTS != 0;
                moved = Some(to);
                if step.flags & SWAP != 0 {
                    // The others there go where it came from (out, when
                    // it entered).
                    // A swap is flagged on every cell that allows one and
                    // made on few: the masks of positions tell first
                    // whether a seat has a piece there at all.
                    let back_to = if from < r.cells { from } else { OUT };
                    if N == 2 && opponents {
                        let o = (seat ^ 1) & 1;
                        if occ.placed[o] & bit(to) != 0 {
                            occ.send(o, to, back_to, 0);
                        }
                    } else {
                        for whose in 0..n {
                            if !(opponents && whose == seat) && occ.placed[whose] & bit(to) != 0 {
                                let keep = if whose == seat { piece_mark(c) } else { 0 };
                                occ.send(whose, to, back_to, keep);
                            }
                        }
                    }
                }
                occ.shift(seat, c, (from, to), r.alone);
                if step.flags & HOME != 0 {
                    if !shape::on::<S>(shape::ALL_PIECES, self.all_pieces)
                        || occ.placed[seat] & r.unfinished == 0
                    {
                        over = true;
                        winner = Some(seat);
                    }
                } else if step.flags & SEND_OUT != 0 && to != OUT {
                    self.send_out(&mut occ, (seat, n), c, to, opponents);
                }
                if step.miss > 0 {
                    owed[seat] = owed[seat].saturating_add(step.miss);
                }
            } else {
                extra = roll.flags & ROLL_EXTRA != 0;
            }
            // Drawn: no piece can ever move again.
            let mut drawn = false;
            if !over && shape::on::<S>(shape::MAY_STICK, self.may_stick) {
                let stuck = match moved {
                    Some(to) if r.live & bit(to) != 0 => false,
                    _ => occ.placed.iter().take(n).all(|&p| p & r.live == 0),
                };
                if stuck {
                    over = true;
                    drawn = true;
                }
            }
            let roller = seat;
            if !over && !extra {
                // Tries: a seat none of whose pieces could move, whatever
                // the roll, rolls again (the roll let none enter).
                let again = shape::on::<S>(shape::TRIES, r.tries > 1) && {
                    if moved.is_some() {
                        false
                    } else {
                        tries = tries.saturating_add(1);
                        tries < r.tries
                            && !(roll.flags & ROLL_ENTERS != 0 && waiting)
                            && self.none_can_move(r, &occ, seat, n)
                    }
                };
                if !again {
                    tries = 0;
                    seat = if shape::on::<S>(shape::MISSES, !r.no_misses) {
                        Self::next_seat(seat, n, &mut owed)
                    } else if N == 2 {
                        seat ^ 1
                    } else if seat + 1 >= n {
                        0
                    } else {
                        seat + 1
                    };
                }
            }
            if W::ON {
                self.tell(
                    watch,
                    &mut listed,
                    (roller, index, picked),
                    slot.get(..m).unwrap_or(&[]),
                    &before,
                    &occ.positions(n, k),
                    &owed,
                    (base, k, n),
                );
            }
            if over {
                return (rolls, if drawn { None } else { winner });
            }
        }
        (rolls, None)
    }

    /// The pieces (the opponents', with `opponents`) on the spot where
    /// seat `seat`'s piece `c` came to rest on `to` go out (`n` seats): the
    /// masks of `same` find the positions, the words of `occ` the pieces.
    #[inline(always)]
    fn send_out(
        &self,
        occ: &mut Occupancy,
        (seat, n): (usize, usize),
        c: usize,
        to: u16,
        opponents: bool,
    ) {
        let line = (seat * self.width + usize::from(to)) * self.players;
        for whose in 0..n {
            if opponents && whose == seat {
                continue;
            }
            let mut there =
                self.same.get(line + whose).copied().unwrap_or(0) & occ.placed[whose] & !bit(OUT);
            let keep = if whose == seat { piece_mark(c) } else { 0 };
            while there != 0 {
                let p = there.trailing_zeros() as u16;
                there &= there - 1;
                occ.send(whose, p, OUT, keep);
            }
        }
    }

    /// The closed cells under seat `seat`'s positions that hold a piece,
    /// anyone's, as bits (a move that stops there is refused); `aligned`:
    /// `ChoiceRules::closed_aligned` (or a constant of the loop's shape).
    #[inline(always)]
    fn closed_taken_cells(
        &self,
        r: &ChoiceRules,
        occ: &Occupancy,
        seat: usize,
        n: usize,
        aligned: bool,
    ) -> u64 {
        let cells = r.closed_cells.get(seat).copied().unwrap_or(0);
        if aligned {
            // Every seat's piece under a closed cell is at the same
            // position (a plain track's spots are its cells).
            let anyone = occ.placed.iter().take(n).fold(0u64, |m, &p| m | p);
            return cells & anyone;
        }
        let mut taken = 0u64;
        let mut left = cells;
        while left != 0 {
            let c = left.trailing_zeros() as u16;
            left &= left - 1;
            let line = (seat * self.width + usize::from(c)) * self.players;
            if (0..n).any(|whose| {
                self.same.get(line + whose).copied().unwrap_or(0) & occ.placed[whose] & !bit(OUT)
                    != 0
            }) {
                taken |= bit(c);
            }
        }
        taken
    }

    /// Whether the refusals of a roll `x` forbid the move `e` from `p`: by
    /// the masks, or, for a move that stops where it starts, by the
    /// general turn's test (the mover is not in the way of itself).
    #[inline(always)]
    fn refuses(
        &self,
        r: &ChoiceRules,
        occ: &Occupancy,
        x: &Refusals,
        e: &RuleStep,
        p: u16,
    ) -> bool {
        if e.stop & bit(p) == 0 {
            e.stop & x.stops != 0 || e.between & x.passes != 0
        } else {
            let others = occ.others(x.seat, x.mask, p);
            self.refused(r, others, &x.walls, occ, (x.seat, p, x.n), e)
        }
    }

    /// The positions of `odd` whose move in `table` (the moves of the
    /// line starting at `line`) the refusals `x` leave, tested one by one
    /// (forward and back alike).
    #[inline(always)]
    fn one_by_one(
        &self,
        r: &ChoiceRules,
        occ: &Occupancy,
        x: &Refusals,
        (table, line): (&[RuleStep], usize),
        mut odd: u64,
    ) -> u64 {
        let mut ok = 0u64;
        while odd != 0 {
            let p = odd.trailing_zeros() as u16;
            odd &= odd - 1;
            let e = table
                .get(line + usize::from(p))
                .copied()
                .unwrap_or_default();
            if !self.refuses(r, occ, x, &e, p) {
                ok |= bit(p);
            }
        }
        ok
    }

    /// Whether the general turn's `landing_refusal` forbids the move `e`
    /// of seat `seat`'s piece at `from` (`OUT`: entering): `others` are
    /// the positions of the seat's other pieces (counted ones) as bits,
    /// `walls` what the opponents' rows close.
    #[inline(always)]
    fn refused(
        &self,
        r: &ChoiceRules,
        others: u64,
        walls: &Walls,
        occ: &Occupancy,
        (seat, from, n): (usize, u16, usize),
        e: &RuleStep,
    ) -> bool {
        let blocking = if r.no_landing_own {
            others
        } else {
            others & r.kept
        };
        // An own piece or a protected row where it lands or rests; a kept
        // home cell or a row no one passes on the way (kept cells are on
        // circuits, rows on plain tracks: `between` is of the one there
        // is).
        e.stop & (blocking | walls.protected) != 0
            || e.between & (walls.unpassable | (others & r.kept)) != 0
            || (e.step.flags & CLOSED != 0 && self.closed_taken(r, occ, (seat, from, n), e))
    }

    /// The walls the opponents of seat `seat` put up (`protected in rows`,
    /// `no passing rows`): for each position, the rows of the first
    /// opponent in seat order with a piece there (`usual`: as `rows`).
    #[inline(always)]
    fn walls(&self, r: &ChoiceRules, occ: &Occupancy, seat: usize, n: usize, usual: bool) -> Walls {
        if n == 2 {
            // One opponent: its rows, without the loop.
            return r.rows(occ.placed[(seat ^ 1) & 1] & r.counted, usual);
        }
        let mut w = Walls::default();
        let mut covered = 0u64;
        for whose in (0..n).filter(|&o| o != seat) {
            // On the track only.
            let mask = occ.placed[whose] & r.counted;
            let rows = r.rows(mask, usual);
            w.protected |= rows.protected & !covered;
            w.unpassable |= rows.unpassable & !covered;
            covered |= mask;
        }
        w
    }

    /// Whether where the move `e` of seat `seat`'s piece at `from` lands
    /// or rests, if a closed cell is under it there, holds another piece,
    /// anyone's (the mover is the seat's first piece at `from`).
    #[inline(always)]
    fn closed_taken(
        &self,
        r: &ChoiceRules,
        occ: &Occupancy,
        (seat, from, n): (usize, u16, usize),
        e: &RuleStep,
    ) -> bool {
        [e.land, e.step.at].into_iter().any(|at| {
            if !r.is_closed(seat, self.width, at) {
                return false;
            }
            let line = (seat * self.width + usize::from(at)) * self.players;
            (0..n).any(|whose| {
                let mut there =
                    self.same.get(line + whose).copied().unwrap_or(0) & occ.placed[whose];
                if whose == seat {
                    there = occ.others(seat, there, from);
                }
                there & !bit(OUT) != 0
            })
        })
    }

    /// `RaceState::none_can_move` of seat `seat`: no piece of theirs on
    /// the track moves by any count (a count of 0 moves nothing) to a cell
    /// the rules of the choices allow; the moves that fit before the
    /// finish by shifts, as a roll's, the others one by one.
    #[cold]
    fn none_can_move(&self, r: &ChoiceRules, occ: &Occupancy, seat: usize, n: usize) -> bool {
        let placed = occ.placed[seat];
        let mask = placed & r.counted;
        // On the track: out and finished pieces are not asked.
        let on = placed & !bit(OUT) & (bit(r.cells) - 1);
        if on == 0 {
            return true;
        }
        let mut stops = if r.no_landing_own {
            mask
        } else {
            mask & r.kept
        };
        if !r.closed_cells.is_empty() {
            stops |= self.closed_taken_cells(r, occ, seat, n, r.closed_aligned);
        }
        let passes = mask & r.kept;
        let exact = r.finish == Finish::Exact;
        for count in r.low..=r.high {
            if count == 0 || count > r.cells {
                continue;
            }
            let c = u32::from(count);
            // The positions whose move lands on the track or its end.
            let fits = on & ((1u64 << (r.cells - count + 1)) - 1);
            let mut blocked = stops >> c;
            if passes != 0 {
                for s in 1..c {
                    blocked |= passes >> s;
                }
            }
            if fits & !blocked != 0 {
                return false;
            }
            // Past the finish: none with an exact finish, else one by one.
            let mut beyond = if exact { 0 } else { on & !fits };
            while beyond != 0 {
                let from = beyond.trailing_zeros() as u16;
                beyond &= beyond - 1;
                let land = r.advance(from, count);
                let step = Step {
                    at: land,
                    miss: 0,
                    flags: if r.is_closed(seat, self.width, land) {
                        CLOSED
                    } else {
                        0
                    },
                };
                let e = RuleStep::new(step, r.plain, r.cells, from, land);
                let others = occ.others(seat, mask, from);
                if !self.refused(r, others, &Walls::default(), occ, (seat, from, n), &e) {
                    return false;
                }
            }
        }
        true
    }
}

/// Every seat's pieces, kept as the turns move them (a game with rules of
/// the choices: positions below 64, at most eight pieces a seat): each
/// piece's position as a byte of a word a seat (the piece's index the
/// byte's, unused bytes `EMPTY`), so that the pieces at a position are
/// found by a few operations on the word (SWAR) instead of a loop over
/// them; and the positions where a seat has a piece, as bits.
#[derive(Clone)]
struct Occupancy {
    placed: [u64; MAX_SEATS],
    bytes: [u64; MAX_SEATS],
}

/// A byte of `Occupancy::bytes` that holds no piece (no position is 255).
const EMPTY: u64 = 0xFF;
/// The lowest bit of every byte of a word.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;
/// The highest bit of every byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The bytes of `word` equal to `p`, each as its highest bit (exact: no
/// byte is told equal that is not).
#[inline(always)]
fn bytes_equal(word: u64, p: u16) -> u64 {
    let x = word ^ (u64::from(p & 0xFF) * LOW_BITS);
    let low7 = !HIGH_BITS;
    // A byte's highest bit is set here unless the byte is zero.
    let nonzero = ((x & low7) + low7) | x;
    !nonzero & HIGH_BITS
}

/// The whole bytes marked by their highest bits in `marks`.
#[inline(always)]
fn whole_bytes(marks: u64) -> u64 {
    (marks >> 7) * EMPTY
}

impl Occupancy {
    /// The pieces of `n` seats of `k` each at `pos`.
    fn of(pos: &[u16; MAX_PIECES], n: usize, k: usize) -> Occupancy {
        let mut occ = Occupancy {
            placed: [0; MAX_SEATS],
            bytes: [u64::MAX; MAX_SEATS],
        };
        for seat in 0..n.min(MAX_SEATS) {
            for (c, &p) in pos
                .get(seat * k..seat * k + k)
                .unwrap_or(&[])
                .iter()
                .enumerate()
            {
                occ.bytes[seat] = Occupancy::put(occ.bytes[seat], c, p);
                occ.placed[seat] |= bit(p);
            }
        }
        occ
    }

    /// The word of positions `bytes` with piece `c` at `p`.
    #[inline(always)]
    fn put(bytes: u64, c: usize, p: u16) -> u64 {
        let shift = 8 * (c & 7);
        (bytes & !(EMPTY << shift)) | (u64::from(p & 63) << shift)
    }

    /// The position of seat `seat`'s piece `c`.
    #[inline(always)]
    fn at(&self, seat: usize, c: usize) -> u16 {
        ((self.bytes[seat] >> (8 * (c & 7))) & EMPTY) as u16
    }

    /// The first of seat `seat`'s pieces at `p` (by index).
    #[inline(always)]
    fn first(&self, seat: usize, p: u16) -> Option<usize> {
        let marks = bytes_equal(self.bytes[seat], p);
        (marks != 0).then_some(marks.trailing_zeros() as usize / 8)
    }

    /// Whether seat `seat` has two or more pieces at `p`.
    #[inline(always)]
    fn two_at(&self, seat: usize, p: u16) -> bool {
        let marks = bytes_equal(self.bytes[seat], p);
        marks & marks.wrapping_sub(1) != 0
    }

    /// The positions of seat `seat`'s pieces that count, but for one piece
    /// at `p` (the mover is not in the way of itself): `mask` is those of
    /// all of them.
    #[inline(always)]
    fn others(&self, seat: usize, mask: u64, p: u16) -> u64 {
        if self.two_at(seat, p) {
            mask
        } else {
            mask & !bit(p)
        }
    }

    /// Seat `seat`'s piece `c` moves from `from` to `to`; `alone`: the
    /// positions where the seat has no other piece (`ChoiceRules::alone`).
    #[inline(always)]
    fn shift(&mut self, seat: usize, c: usize, (from, to): (u16, u16), alone: u64) {
        let word = Occupancy::put(self.bytes[seat], c, to);
        self.bytes[seat] = word;
        if alone & bit(from) != 0 || bytes_equal(word, from) == 0 {
            self.placed[seat] &= !bit(from);
        }
        self.placed[seat] |= bit(to);
    }

    /// Seat `whose`'s pieces at `p` but those of `keep` (bytes marked by
    /// their highest bits) go to `to`; whether any did.
    #[inline(always)]
    fn send(&mut self, whose: usize, p: u16, to: u16, keep: u64) -> bool {
        let marks = bytes_equal(self.bytes[whose], p) & !keep;
        if marks == 0 {
            return false;
        }
        let moved = whole_bytes(marks);
        let word = (self.bytes[whose] & !moved) | ((u64::from(to & 63) * LOW_BITS) & moved);
        self.bytes[whose] = word;
        if bytes_equal(word, p) == 0 {
            self.placed[whose] &= !bit(p);
        }
        self.placed[whose] |= bit(to);
        true
    }

    /// Every piece's position, seat by seat (`n` seats of `k`), as the
    /// general turn lists them.
    fn positions(&self, n: usize, k: usize) -> [u16; MAX_PIECES] {
        let mut pos = [0; MAX_PIECES];
        for (i, p) in pos.iter_mut().enumerate().take(n * k) {
            *p = self.at(i / k, i % k);
        }
        pos
    }
}

/// The mark (highest bit) of piece `c`'s byte in `Occupancy::bytes`.
#[inline(always)]
fn piece_mark(c: usize) -> u64 {
    0x80 << (8 * (c & 7))
}

/// The number of bits set in `x`, without a branch: the count of a
/// roll's moves varies at random from roll to roll, and a loop of one step
/// a bit ends where the processor can't foresee it (the portable build has
/// no popcount instruction: a few operations on the word).
#[inline(always)]
fn ones(x: u64) -> usize {
    x.count_ones() as usize
}

/// The position of the `t`-th highest bit of `legal` (0: the highest):
/// the `t`-th move of a roll, as the general turn lists them.
#[inline(always)]
fn nth_furthest(legal: u64, t: usize) -> u16 {
    let mut rest = legal;
    for _ in 0..t {
        rest &= !(1u64 << (63 - rest.leading_zeros()));
    }
    (63 - rest.leading_zeros().min(63)) as u16
}

/// Puts the choice of seat piece `i` at `p` among the moves listed in
/// `slot` from `moves` to `*listed` (the furthest first, a position
/// once; `own` the seat's positions).
#[inline(always)]
fn insert_furthest(
    slot: &mut [u8; MAX_OWN + 2],
    own: &[u16],
    moves: usize,
    listed: &mut usize,
    i: usize,
    p: u16,
) {
    let at = |s: u8| own.get(usize::from(s)).copied().unwrap_or(OUT);
    let mut j = *listed;
    while j > moves && at(slot[j - 1]) < p {
        j -= 1;
    }
    if j > moves && at(slot[j - 1]) == p {
        return;
    }
    let mut t = *listed;
    while t > j {
        slot[t] = slot[t - 1];
        t -= 1;
    }
    slot[j] = i as u8;
    *listed += 1;
}

/// One turn of a traced game (`FastRace::play_traced`).
#[derive(Debug)]
pub struct FastTurn<'a> {
    /// The seat that rolled.
    pub seat: usize,
    /// The faces, in the order rolled.
    pub faces: &'a [u8],
    /// The choices, in the general turn's order.
    pub choices: &'a [Choice],
    /// The index of the one drawn.
    pub picked: usize,
    /// Every piece's position after the turn, seat by seat.
    pub pieces: &'a [u16],
    /// The turns each seat is still to miss after the turn.
    pub owed: &'a [u8],
}

/// What watches a compiled game's turns (nothing, in the bench).
trait Watch {
    /// Whether turns are told at all.
    const ON: bool;
    /// One turn.
    fn turn(&mut self, t: &FastTurn<'_>);
}

impl Watch for () {
    const ON: bool = false;
    #[inline(always)]
    fn turn(&mut self, _: &FastTurn<'_>) {}
}

/// A closure told every turn.
struct Traced<F>(F);

impl<F: FnMut(&FastTurn<'_>)> Watch for Traced<F> {
    const ON: bool = true;
    fn turn(&mut self, t: &FastTurn<'_>) {
        (self.0)(t)
    }
}

/// A move by count as the general turn plays it with the game's plans.
#[derive(Clone, Copy, Debug)]
enum Planned {
    /// The move.
    Step(Step),
    /// A landing rule tests the faces of the roll: worked out roll by
    /// roll (`step_by_roll`).
    ByRoll,
}

/// Where seat `seat`'s piece at `from` (0: entering) lands after a roll
/// of `count`, and the direction it is moving in.
fn landing(game: &RaceGame, from: u16, count: u16) -> (u16, i8) {
    if from == OUT && game.enter_at_start {
        (1, 1)
    } else {
        game.advance(from, count, 1)
    }
}

/// The plan of the landing of seat `seat`'s piece on `land`, by the
/// count where the plan depends on it.
fn plan(
    game: &RaceGame,
    entering: bool,
    seat: usize,
    land: u16,
    count: u16,
    dir: i8,
) -> LandingPlan {
    let plan = if land != OUT && land < game.cells {
        game.landing_plan(entering, seat, land)
    } else {
        LandingPlan::Nothing
    };
    match plan {
        LandingPlan::ByCount { start } => game.count_plan(start, count, dir),
        plan => plan,
    }
}

/// The move of seat `seat`'s piece at `from` (0: entering) by `count`, as
/// the general turn plays it with the game's plans; `ByRoll` where a
/// landing plan is live, `None` where the resting rules are.
fn step(game: &RaceGame, seat: usize, from: u16, count: u16) -> Option<Planned> {
    let (land, dir) = landing(game, from, count);
    let landed = match plan(game, from == OUT, seat, land, count, dir) {
        LandingPlan::Nothing => Landed {
            at: land,
            dir,
            ..Landed::default()
        },
        LandingPlan::Fixed { landed, .. } => landed,
        LandingPlan::ByCount { .. } | LandingPlan::Live => return Some(Planned::ByRoll),
    };
    resting(game, seat, landed).map(Planned::Step)
}

/// The move of seat `seat`'s piece at `from` (0: entering) by `roll`
/// (whose count is `count`), its landing rules applied as the general
/// turn applies them at play time; `None` where one of them moves other
/// pieces (a target) or the resting rules are live.
fn step_by_roll(game: &RaceGame, seat: usize, from: u16, count: u16, roll: &Roll) -> Option<Step> {
    let entering = from == OUT;
    let (land, dir) = landing(game, from, count);
    let landed = match plan(game, entering, seat, land, count, dir) {
        LandingPlan::Nothing => Landed {
            at: land,
            dir,
            ..Landed::default()
        },
        LandingPlan::Fixed { landed, .. } => landed,
        LandingPlan::ByCount { .. } | LandingPlan::Live => {
            let targets = std::cell::Cell::new(false);
            let landed = game.land(
                seat,
                land,
                count,
                dir,
                |r| r.roll_holds(entering, roll),
                |rule, _, _, _| {
                    if game
                        .rules()
                        .get(usize::from(rule))
                        .is_none_or(|r| r.targets)
                    {
                        targets.set(true);
                    }
                },
            );
            if targets.get() {
                return None;
            }
            landed
        }
    };
    resting(game, seat, landed)
}

/// A move whose landing rules left the piece as `landed`, with the
/// resting rules where it comes to rest; `None` where they are live.
fn resting(game: &RaceGame, seat: usize, landed: Landed) -> Option<Step> {
    let at = landed.at;
    let mut flags = match landed.extra {
        Some(true) => GIVE,
        Some(false) => LOSE,
        None => 0,
    };
    if at != OUT && at < game.cells {
        match game.resting_plan(seat, at) {
            RestingPlan::Nothing => {}
            RestingPlan::SendOut { opponents } => {
                flags |= SEND_OUT;
                if opponents {
                    flags |= OPPONENTS;
                }
            }
            RestingPlan::Free => {
                flags |= FREE;
                if landed.held {
                    flags |= HOLD;
                }
            }
            RestingPlan::Live => flags |= swap_plan(game, seat, at)?,
        }
    }
    Some(Step {
        at,
        miss: landed.miss,
        flags,
    })
}

/// The flags of a cell whose one resting rule swaps the other pieces
/// there with the mover (`opponents swap`, `others swap`, without tests
/// of the roll) on a plain track, in a game that holds no pieces: `SWAP`
/// (with `OPPONENTS`), nothing on a safe cell; `None` for any other
/// resting rules.
fn swap_plan(game: &RaceGame, seat: usize, at: u16) -> Option<u8> {
    use crate::race::game::{Action, CellEffect, Moment, Target};
    if game.circuit.is_some() || game.paths.is_some() || game.holds_pieces() {
        return None;
    }
    let [id] = game.rules_at(Moment::Resting, seat, at) else {
        return None;
    };
    let rule = game.rules().get(usize::from(*id))?;
    if !rule.roll_tests.is_empty() {
        return None;
    }
    let opponents = match rule.effects.as_slice() {
        [CellEffect::Targeted(Target::Opponents, Action::Swap)] => OPPONENTS,
        [CellEffect::Targeted(Target::Others, Action::Swap)] => 0,
        _ => return None,
    };
    Some(if game.is_safe(seat, at) {
        0
    } else {
        SWAP | opponents
    })
}

/// The move back (`move back when blocked`) of seat `seat`'s piece at
/// `from` by `roll` (whose count is `count`), as the general turn plays
/// it: its landing rules applied going back; where it lands with them,
/// or `None` where a rule moves other pieces or the resting rules are
/// live.
fn step_back(
    game: &RaceGame,
    seat: usize,
    from: u16,
    count: u16,
    roll: &Roll,
) -> Option<(Step, u16)> {
    let land = from - count;
    let landed = if game.landing_plan(false, seat, land) == LandingPlan::Nothing {
        Landed {
            at: land,
            dir: -1,
            ..Landed::default()
        }
    } else {
        let targets = std::cell::Cell::new(false);
        let landed = game.land(
            seat,
            land,
            count,
            -1,
            |r| r.roll_holds(false, roll),
            |rule, _, _, _| {
                if game
                    .rules()
                    .get(usize::from(rule))
                    .is_none_or(|r| r.targets)
                {
                    targets.set(true);
                }
            },
        );
        if targets.get() {
            return None;
        }
        landed
    };
    Some((resting(game, seat, landed)?, land))
}

#[cfg(test)]
mod tests {
    use super::{nth_furthest, ones};
    use crate::rng::Rng;

    /// `nth_furthest` and `ones` agree with a list of the bits, on words
    /// of few bits (a roll's moves) and of many, at every `t`.
    #[test]
    fn the_nth_furthest_bit_is_the_loops() {
        let mut rng = Rng::new(7);
        let mut words = vec![0u64, 1, 1 << 63, u64::MAX, 0x8000_0000_0000_0001];
        for _ in 0..5000 {
            let few = (0..rng.below(9)).fold(0u64, |w, _| w | 1 << rng.below(64));
            words.push(few);
            words.push(rng.next_u64());
        }
        for w in words {
            let mut bits: Vec<u16> = (0..64).filter(|&p| w & 1 << p != 0).collect();
            bits.reverse();
            assert_eq!(ones(w), bits.len(), "{w:#x}");
            for (t, &p) in bits.iter().enumerate() {
                assert_eq!(nth_furthest(w, t), p, "{w:#x}, t {t}");
            }
        }
    }
}
