//! The race turn compiled for whole random games: what the bench plays
//! when the rule file allows it, the general turn (`RaceState::choices`
//! and `apply_listed`) kept as the reference it is tested against.
//!
//! [`FastRace::new`] looks at what the rule file says and compiles a game
//! of one die-sum move a turn (no rules of the roll, no rule of the
//! choices beyond the usual ones, no held pieces, every landing planned by
//! `RaceGame::derive`) into tables: for every seat row (one on a plain
//! track), start position and count of the roll, where the piece ends,
//! the turns it costs, what becomes of the extra roll and whether the
//! other pieces on its cell go out. A position is a few small arrays, a
//! turn allocates nothing, the choices are counted and only the one drawn
//! is used. The dice and the random player draw from the same generators
//! in the same order as `lab::bench::play_one` over the general path, so a
//! seed plays the same game on both (`tests/race_fast.rs` compares them
//! turn by turn for every bundled race game it covers).

use crate::race::game::{
    Enter, Extra, Finish, LandingPlan, RaceGame, RestingPlan, Win, MAX_DICE, OUT,
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
/// The most table entries a compiled game may have.
const MAX_ENTRIES: usize = 1 << 20;

/// Why a rule file's race is played by the general turn, not compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotCovered {
    /// Rules of the choices beyond the usual ones (`restricted`), dice
    /// used one by one, sticks or moves back.
    Choices,
    /// Rules of the roll (`rolling 6 6: ...`).
    RollRules,
    /// Pieces may be held.
    Held,
    /// Tries when no piece can move.
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
}

/// One entry of the move table: a piece at some position moved by some
/// count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Step {
    /// Where it ends.
    at: u16,
    /// Turns the mover misses.
    miss: u8,
    /// `GIVE`, `LOSE`, `SEND_OUT`, `OPPONENTS`.
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
/// The most rolls a table holds.
const MAX_ROLL_TABLE: usize = 1 << 16;

/// Every roll of the game's dice as the general turn sees it, indexed by
/// the faces in the order rolled (the first die the most significant
/// digit, base `faces`, each face less 1); `None` when there are too many.
fn rolls(game: &RaceGame) -> Option<Vec<RollInfo>> {
    let faces = usize::from(game.faces);
    let total = faces.checked_pow(u32::from(game.dice))?;
    if total > MAX_ROLL_TABLE {
        return None;
    }
    let mut out = Vec::with_capacity(total);
    for index in 0..total {
        let mut shown = [0u8; MAX_DICE];
        let mut rest = index;
        for d in (0..usize::from(game.dice)).rev() {
            *shown.get_mut(d)? = (rest % faces) as u8 + 1;
            rest /= faces;
        }
        let roll = Roll::new(shown.get(..usize::from(game.dice))?)?;
        let enters = match game.enter {
            Enter::Always => true,
            Enter::OnFace(f) => roll.shows(f),
        };
        let earned = match game.extra {
            Extra::Never => false,
            Extra::Doubles => roll.is_double(),
            Extra::OnFace(f) => roll.shows(f),
            Extra::OnValues(mask) => roll.faces().iter().any(|&f| f < 32 && mask & (1 << f) != 0),
        };
        out.push(RollInfo {
            count: game.count(&roll),
            flags: if enters { ROLL_ENTERS } else { 0 } | if earned { ROLL_EXTRA } else { 0 },
        });
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

/// A race game compiled for whole random games of a fixed number of
/// players.
#[derive(Clone, Debug)]
pub struct FastRace {
    players: usize,
    /// Pieces a seat.
    k: usize,
    cells: u16,
    dice: u8,
    faces: u8,
    /// The smallest count of a roll.
    low: u16,
    /// Counts from `low` (the table's last index).
    counts: usize,
    /// `finish exact`.
    exact: bool,
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
    /// The entries: row, then position, then count.
    steps: Vec<Step>,
    /// Entries from one seat row to the next (0: one row for all).
    row_stride: usize,
    /// `RaceGame::spot` of every seat and position, seat by seat.
    spots: Vec<u32>,
    /// A plain track: a piece's spot is its position.
    plain: bool,
    /// Every roll by the number its faces make in the order rolled
    /// (`faces` to the power `dice` of them).
    rolls: Vec<RollInfo>,
    /// Positions a seat (`cells + 1`).
    width: usize,
}

impl FastRace {
    /// The compiled game for `players` players, or why the rule file is
    /// played by the general turn.
    pub fn new(game: &RaceGame, players: usize) -> Result<FastRace, NotCovered> {
        if game.restricted || game.each_die || game.sticks || game.move_back {
            return Err(NotCovered::Choices);
        }
        if !game.throw_values.is_empty() {
            return Err(NotCovered::Choices);
        }
        if !game.roll_rules.is_empty() {
            return Err(NotCovered::RollRules);
        }
        if game.holds_pieces() {
            return Err(NotCovered::Held);
        }
        if game.tries > 1 {
            return Err(NotCovered::Tries);
        }
        if game.order || game.outcome != crate::race::game::Outcome::FirstHomeWins {
            return Err(NotCovered::Outcome);
        }
        if game.paths.is_some() {
            return Err(NotCovered::Paths);
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
        if game.circuit.as_ref().is_some_and(|c| c.kept) {
            return Err(NotCovered::Choices);
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
        if low == 0 || high < low {
            return Err(NotCovered::Size);
        }
        let counts = usize::from(high - low) + 1;
        let width = usize::from(game.cells) + 1;
        let rows = if game.circuit.is_some() { players } else { 1 };
        if rows * width * counts > MAX_ENTRIES {
            return Err(NotCovered::Size);
        }
        let mut steps = Vec::with_capacity(rows * width * counts);
        for seat in 0..rows {
            for from in 0..width as u16 {
                for count in low..=high {
                    steps.push(step(game, seat, from, count).ok_or(NotCovered::LiveRule)?);
                }
            }
        }
        let spots = (0..players)
            .flat_map(|seat| (0..width as u16).map(move |p| (seat, p)))
            .map(|(seat, p)| game.spot(seat, p))
            .collect();
        let rolls = rolls(game).ok_or(NotCovered::Size)?;
        let stuck_from = if game.finish == Finish::Exact {
            (game.cells + 1).saturating_sub(low)
        } else {
            game.cells
        };
        Ok(FastRace {
            players,
            k,
            cells: game.cells,
            dice: game.dice,
            faces: game.faces,
            low,
            counts,
            exact: game.finish == Finish::Exact,
            compulsory: game.compulsory,
            all_pieces: game.win == Win::AllPieces,
            home,
            may_stick: game.may_stick(),
            stuck_from,
            start,
            steps,
            row_stride: if rows == 1 { 0 } else { width * counts },
            spots,
            plain: game.circuit.is_none(),
            rolls,
            width,
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

    /// The entry of a piece of seat `seat` at `from` moved by `count`.
    #[inline(always)]
    fn step(&self, seat: usize, from: u16, count: u16) -> Step {
        let i = seat * self.row_stride
            + usize::from(from) * self.counts
            + usize::from(count.wrapping_sub(self.low));
        self.steps.get(i).copied().unwrap_or_default()
    }

    /// The spot of seat `seat`'s piece at `p`.
    #[inline(always)]
    fn spot(&self, seat: usize, p: u16) -> u32 {
        self.spots
            .get(seat * self.width + usize::from(p))
            .copied()
            .unwrap_or(0)
    }

    /// Whether a piece at `p` can never move again (with `may_stick`).
    #[inline(always)]
    fn piece_stuck(&self, p: u16) -> bool {
        p != OUT && p >= self.stuck_from
    }

    /// The game, turn by turn, with the pieces a seat as a constant where
    /// it is a usual number.
    #[inline(always)]
    fn run<W: Watch>(&self, seed: u64, watch: &mut W) -> (u32, Option<usize>) {
        match self.k {
            1 => self.run_k::<W, 1>(seed, watch),
            2 => self.run_k::<W, 2>(seed, watch),
            4 => self.run_k::<W, 4>(seed, watch),
            _ => self.run_k::<W, 0>(seed, watch),
        }
    }

    /// The game, turn by turn; `K` pieces a seat (0: `self.k`).
    #[inline(always)]
    fn run_k<W: Watch, const K: usize>(&self, seed: u64, watch: &mut W) -> (u32, Option<usize>) {
        let mut dice = Rng::new(seed);
        let mut pick = Rng::new(agent_seed(seed, 0));
        let k = if K == 0 { self.k } else { K };
        let n = self.players;
        let mut pos = self.start;
        let mut owed = [0u8; MAX_SEATS];
        let mut seat = 0usize;
        let mut rolls = 0u32;
        // Choices: `ENTER`, a position, `PASS`.
        const ENTER: u16 = 0;
        const PASS: u16 = u16::MAX;
        let mut listed: Vec<Choice> = Vec::new();
        let sides = u64::from(self.faces);
        while rolls < MAX_ROLLS {
            // The roll, die after die: its faces as one number.
            let mut index = 0usize;
            for _ in 0..self.dice {
                index = index * self.faces as usize + dice.below(sides) as usize;
            }
            let roll = self.rolls.get(index).copied().unwrap_or_default();
            let count = roll.count;
            // The choices: enter, the positions of the pieces that can
            // move (the furthest first, one each), pass.
            let base = seat * k;
            let own = pos.get(base..base + k).unwrap_or(&[]);
            let top = if self.exact {
                self.cells.saturating_sub(count).min(self.cells - 1)
            } else {
                self.cells - 1
            };
            let mut ch = [0u16; MAX_OWN + 2];
            let mut m = 0usize;
            if roll.flags & ROLL_ENTERS != 0 && own.contains(&OUT) {
                ch[0] = ENTER;
                m = 1;
            }
            let moves = m;
            for &p in own {
                if p == OUT || p > top {
                    continue;
                }
                // Insertion, the furthest first, a position once.
                let mut j = m;
                while j > moves && ch[j - 1] < p {
                    j -= 1;
                }
                if j > moves && ch[j - 1] == p {
                    continue;
                }
                let mut t = m;
                while t > j {
                    ch[t] = ch[t - 1];
                    t -= 1;
                }
                ch[j] = p;
                m += 1;
            }
            if m == 0 || !self.compulsory {
                ch[m] = PASS;
                m += 1;
            }
            let picked = pick.below(m as u64) as usize;
            let c = ch.get(picked).copied().unwrap_or(PASS);
            rolls += 1;
            let mut extra = roll.flags & ROLL_EXTRA != 0;
            let mut moved = None;
            let mut over = false;
            let mut winner = None;
            if c != PASS {
                let wanted = c;
                let i = base + own.iter().position(|&p| p == wanted).unwrap_or(0);
                let from = pos[i];
                let row = if self.row_stride == 0 { 0 } else { seat };
                let s = self.step(row, from, count);
                let at = s.at;
                pos[i] = at;
                moved = Some(i);
                if at >= self.home {
                    let home = if self.all_pieces {
                        pos.get(base..base + k)
                            .is_some_and(|ps| ps.iter().all(|&p| p >= self.home))
                    } else {
                        true
                    };
                    if home {
                        over = true;
                        winner = Some(seat);
                    }
                } else if s.flags & SEND_OUT != 0 && at != OUT {
                    if self.plain {
                        // A plain track's spots are its cells.
                        for (whose, theirs) in pos.chunks_mut(k).take(n).enumerate() {
                            if whose == seat && s.flags & OPPONENTS != 0 {
                                continue;
                            }
                            for (j, p) in theirs.iter_mut().enumerate() {
                                if *p == at && whose * k + j != i {
                                    *p = OUT;
                                }
                            }
                        }
                    } else {
                        let spot = self.spot(seat, at);
                        for (whose, theirs) in pos.chunks_mut(k).take(n).enumerate() {
                            if whose == seat && s.flags & OPPONENTS != 0 {
                                continue;
                            }
                            for (j, p) in theirs.iter_mut().enumerate() {
                                if whose * k + j != i && self.spot(whose, *p) == spot {
                                    *p = OUT;
                                }
                            }
                        }
                    }
                }
                if s.miss > 0 {
                    owed[seat] = owed[seat].saturating_add(s.miss);
                }
                if s.flags & LOSE != 0 {
                    extra = false;
                } else if s.flags & GIVE != 0 {
                    extra = true;
                }
            }
            let mut drawn = false;
            if !over && self.may_stick {
                let stuck = match moved {
                    Some(i) if !self.piece_stuck(pos[i]) => false,
                    _ => pos
                        .get(..n * k)
                        .is_some_and(|ps| ps.iter().all(|&p| self.piece_stuck(p))),
                };
                if stuck {
                    over = true;
                    drawn = true;
                }
            }
            let roller = seat;
            if !over && !extra {
                // The next seat; seats that owe turns miss them first.
                let mut next = seat;
                for _ in 0..n * 257 {
                    next = if next + 1 >= n { 0 } else { next + 1 };
                    match owed.get_mut(next) {
                        Some(o) if *o > 0 => *o -= 1,
                        _ => break,
                    }
                }
                seat = next;
            }
            if W::ON {
                listed.clear();
                listed.extend(ch.iter().take(m).map(|&c| match c {
                    ENTER => Choice::Enter,
                    PASS => Choice::Pass,
                    p => Choice::Move(p),
                }));
                let mut faces = [0u8; MAX_DICE];
                let mut rest = index;
                for d in (0..usize::from(self.dice)).rev() {
                    if let Some(f) = faces.get_mut(d) {
                        *f = (rest % usize::from(self.faces)) as u8 + 1;
                    }
                    rest /= usize::from(self.faces);
                }
                watch.turn(&FastTurn {
                    seat: roller,
                    faces: faces.get(..usize::from(self.dice)).unwrap_or(&[]),
                    choices: &listed,
                    picked,
                    pieces: pos.get(..n * k).unwrap_or(&[]),
                    owed: owed.get(..n).unwrap_or(&[]),
                });
            }
            if over {
                return (rolls, if drawn { None } else { winner });
            }
        }
        (rolls, None)
    }
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

/// The move of seat `seat`'s piece at `from` (0: entering) by `count`, as
/// the general turn plays it with the game's plans; `None` where a plan is
/// live (the rules applied at play time).
fn step(game: &RaceGame, seat: usize, from: u16, count: u16) -> Option<Step> {
    let entering = from == OUT;
    let (land, dir) = if entering && game.enter_at_start {
        (1, 1)
    } else {
        game.advance(from, count, 1)
    };
    let mut plan = if land != OUT && land < game.cells {
        game.landing_plan(entering, seat, land)
    } else {
        LandingPlan::Nothing
    };
    if let LandingPlan::ByCount { start } = plan {
        plan = game.count_plan(start, count, dir);
    }
    let (at, miss, extra) = match plan {
        LandingPlan::Nothing => (land, 0, None),
        LandingPlan::Fixed { landed, .. } => {
            if landed.held {
                return None;
            }
            (landed.at, landed.miss, landed.extra)
        }
        LandingPlan::ByCount { .. } | LandingPlan::Live => return None,
    };
    let mut flags = match extra {
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
            RestingPlan::Free | RestingPlan::Live => return None,
        }
    }
    Some(Step { at, miss, flags })
}
