//! The race turn compiled for whole random games: what the bench plays
//! when the rule file allows it, the general turn (`RaceState::choices`
//! and `apply_listed`) kept as the reference it is tested against.
//!
//! [`FastRace::new`] looks at what the rule file says and compiles a game
//! of one die-sum move a turn (no rules of the roll, no rule of the
//! choices beyond the usual ones, no landing rule that moves other pieces,
//! resting rules planned by `RaceGame::derive`) into one table, all a turn
//! reads: for every seat row (one on a plain track), roll of the dice (by
//! the number its faces make in the order rolled) and position, whether
//! the piece can move, where it ends, the turns it costs, whether the turn
//! earns an extra roll, whether the other pieces on its cell go out, held
//! pieces there are freed or it is held. Landings the game's plans leave
//! live because a rule tests the faces are worked out roll by roll with
//! the game's own `land`. A position is a few small arrays, a turn
//! allocates nothing, the pieces a seat (and, for two each, the players)
//! are constants of a loop compiled for them, two pieces' choices are
//! fixed slots and only the one drawn is used. The dice and the random
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

/// Why a rule file's race is played by the general turn, not compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotCovered {
    /// Rules of the choices beyond the usual ones (`restricted`), dice
    /// used one by one, sticks or moves back.
    Choices,
    /// Rules of the roll (`rolling 6 6: ...`).
    RollRules,
    /// Pieces may be held (no longer refused: held pieces are compiled).
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
/// The most rolls a table holds.
const MAX_ROLL_TABLE: usize = 1 << 16;

/// Every roll of the game's dice as the general turn sees it, indexed by
/// the faces in the order rolled (the first die the most significant
/// digit, base `faces`, each face less 1); `None` when there are too many.
fn rolls(game: &RaceGame) -> Option<Vec<(Roll, RollInfo)>> {
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
            Extra::OnValues(mask) => roll.faces().iter().any(|&f| f < 64 && mask & (1 << f) != 0),
        };
        let info = RollInfo {
            count: game.count(&roll),
            flags: if enters { ROLL_ENTERS } else { 0 } | if earned { ROLL_EXTRA } else { 0 },
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

/// A race game compiled for whole random games of a fixed number of
/// players.
#[derive(Clone, Debug)]
pub struct FastRace {
    players: usize,
    /// Pieces a seat.
    k: usize,
    dice: u8,
    faces: u8,
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
    /// Every roll by the number its faces make in the order rolled
    /// (`faces` to the power `dice` of them).
    rolls: Vec<RollInfo>,
    /// Positions a seat (`cells + 1`).
    width: usize,
    /// Pieces may be held (`held`).
    held: bool,
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
        // Every move by count, as the game's plans play it (or by roll).
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
        if rows * rolls.len() * width > MAX_TURN_ENTRIES {
            return Err(NotCovered::Size);
        }
        // ... and by roll: what a turn reads.
        let exact = game.finish == Finish::Exact;
        let mut moves = Vec::with_capacity(rows * rolls.len() * width);
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
                    moves.push(Step {
                        at: s.at,
                        miss: s.miss,
                        flags,
                    });
                }
            }
        }
        let stuck_from = if exact {
            (game.cells + 1).saturating_sub(low)
        } else {
            game.cells
        };
        Ok(FastRace {
            players,
            k,
            dice: game.dice,
            faces: game.faces,
            compulsory: game.compulsory,
            all_pieces: game.win == Win::AllPieces,
            home,
            may_stick: game.may_stick(),
            stuck_from,
            start,
            row_stride: if rows == 1 { 0 } else { rolls.len() * width },
            moves,
            spots,
            plain: game.circuit.is_none(),
            rolls: rolls.into_iter().map(|(_, info)| info).collect(),
            width,
            held: game.holds_pieces(),
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

    /// The game, turn by turn; `K` pieces a seat (0: `self.k`), `N`
    /// players (0: `self.players`); `HELD`: pieces may be held.
    #[inline(always)]
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
        let sides = u64::from(self.faces);
        let faces = usize::from(self.faces);
        let width = self.width;
        while rolls < MAX_ROLLS {
            // The roll, die after die: its faces as one number.
            let index = if self.dice == 2 {
                let first = dice.below(sides) as usize;
                first * faces + dice.below(sides) as usize
            } else {
                let mut index = 0usize;
                for _ in 0..self.dice {
                    index = index * faces + dice.below(sides) as usize;
                }
                index
            };
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
                    // Insertion, the furthest first, a position once.
                    let at = |s: u8| own.get(usize::from(s)).copied().unwrap_or(OUT);
                    let mut j = listed_here;
                    while j > moves && at(slot[j - 1]) < p {
                        j -= 1;
                    }
                    if j > moves && at(slot[j - 1]) == p {
                        continue;
                    }
                    let mut t = listed_here;
                    while t > j {
                        slot[t] = slot[t - 1];
                        t -= 1;
                    }
                    slot[j] = i as u8;
                    listed_here += 1;
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
            if W::ON {
                listed.clear();
                listed.extend(
                    slot.iter()
                        .take(m)
                        .map(|&s| match pos.get(base + usize::from(s)) {
                            _ if s == PASS => Choice::Pass,
                            Some(&OUT) | None => Choice::Enter,
                            Some(&p) => Choice::Move(p),
                        }),
                );
            }
            let extra;
            let mut moved = None;
            let mut over = false;
            let mut winner = None;
            if chosen != PASS {
                let i = base + usize::from(chosen);
                let s = step;
                let at = s.at;
                pos[i] = at;
                moved = Some(i);
                if HELD {
                    held[i] = false;
                }
                extra = s.flags & EXTRA != 0;
                if s.flags & HOME != 0 {
                    let home = !self.all_pieces
                        || pos
                            .get(base..base + k)
                            .is_some_and(|ps| ps.iter().all(|&p| p >= self.home));
                    if home {
                        over = true;
                        winner = Some(seat);
                    }
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
            } else {
                let roll = self.rolls.get(index).copied().unwrap_or_default();
                extra = roll.flags & ROLL_EXTRA != 0;
            }
            let mut drawn = false;
            if !over && self.may_stick {
                let stuck_at = |i: usize| self.piece_stuck(pos[i]) || (HELD && held[i]);
                let stuck = match moved {
                    Some(i) if !stuck_at(i) => false,
                    _ => (0..all).all(stuck_at),
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
            RestingPlan::Live => return None,
        }
    }
    Some(Step {
        at,
        miss: landed.miss,
        flags,
    })
}
