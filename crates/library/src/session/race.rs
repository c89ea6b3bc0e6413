//! A race game in progress between people and computer players: the turn
//! loop of `play` as a library. [`RaceSession::advance`] plays the game on
//! by one turn: the player to roll rolls, the legal choices are known, and a
//! computer player chooses or a person is asked (their choice goes to
//! [`RaceSession::choose`]); the turn played comes back as data (its
//! number, roll, choice and rule events). A person may take back their
//! last choice (the same dice come again), make it again, ask for a hint and
//! save the game so far. The record (`--record`) is written as the game
//! goes; undo history and the turns for `save` are kept only when a person
//! plays.

use std::path::Path;

use crate::agents::RaceNode;
use crate::agents::{self, Agent, Strength};
use crate::narrate::race::{choice_forms, choice_text, seat_name};
use crate::race::game::RaceGame;
use crate::race::{agent_seed, Choice, Event, Policy, RaceState, Roll};
use crate::record::board::RecordError;
use crate::record::race::{choice_json, choice_of, record_text, RaceTurn};
use crate::record::{self, GameResult, Header, Recorder, Written};
use crate::rng::Rng;
use crate::session::board::Undo;
use crate::session::SessionError;

/// What comes next in a race game ([`RaceSession::advance`]).
pub enum RaceNext {
    /// A computer player's turn, played.
    Played(Played),
    /// The person to roll has rolled this and is to choose among
    /// [`RaceSession::choices`].
    Person(Roll),
    /// The game is over (nothing was played): how it ended.
    Over(RaceEnding),
}

/// How a race game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceEnding {
    /// The rules decided it ([`RaceSession::state`] says how).
    Rules,
    /// The seat of this index resigned.
    Resigned(usize),
    /// The game stopped at its limit of rolls (this many were rolled),
    /// undecided.
    Limit(u32),
}

/// Who plays a seat.
pub enum RaceSeat<'g> {
    /// A person.
    Human,
    /// A race policy (`random`, `first`), by name.
    Computer(String, Policy),
    /// An agent of [`crate::agents`], by name.
    Agent(String, Box<dyn Agent<RaceNode<'g>> + 'g>),
}

impl RaceSeat<'_> {
    /// The name of who plays: `human`, or the agent's.
    pub fn name(&self) -> &str {
        match self {
            RaceSeat::Human => "human",
            RaceSeat::Computer(n, _) | RaceSeat::Agent(n, _) => n,
        }
    }
}

/// A turn played.
#[derive(Clone, Debug)]
pub struct Played {
    /// Its number, from 1.
    pub number: u32,
    /// The seat that played it.
    pub seat: usize,
    /// The dice.
    pub roll: Roll,
    /// The choice.
    pub choice: Choice,
    /// The rule events it fired.
    pub events: Vec<Event>,
}

/// Where the game was before a person's roll: for undo and for coming
/// back to the same roll.
#[derive(Clone)]
struct Before {
    state: RaceState,
    dice: Rng,
    turns: usize,
    /// The roll left one choice only (taken without asking): undo goes
    /// back past it.
    forced: bool,
}

/// A race game in progress.
pub struct RaceSession<'g> {
    game: &'g RaceGame,
    state: RaceState,
    dice: Rng,
    seats: Vec<RaceSeat<'g>>,
    seed: u64,
    strength: Strength,
    max_rolls: u32,
    header: Header,
    humans: bool,
    /// The turns so far (only when a person plays: for `save` and undo).
    turns: Vec<RaceTurn>,
    /// Before each decision of a person, for undo.
    before: Vec<Before>,
    /// Choices taken back, for redo.
    taken_back: Vec<Choice>,
    recorder: Option<Recorder>,
    roll: Option<Roll>,
    choices: Vec<Choice>,
    /// The seat that resigned, if one did.
    resigned: Option<usize>,
    /// What the last write of the record did, until it is asked for.
    news: Written,
}

impl<'g> RaceSession<'g> {
    /// A game of `game` with one agent name per seat (`human` for a person,
    /// a race policy, or an agent of [`crate::agents`]); the dice come from
    /// `seed`, seat `i`'s computer player from `agent_seed(seed, i)`.
    /// `header` is the record's first line; with `record`, the record is
    /// created now (an error when it can't be: before the first move).
    pub fn new(
        game: &'g RaceGame,
        agents: &[String],
        seed: u64,
        strength: Strength,
        max_rolls: u32,
        mut header: Header,
        record: Option<&Path>,
    ) -> Result<RaceSession<'g>, SessionError> {
        let players = agents.len();
        if header.agents.is_empty() {
            header.agents = agents.to_vec();
        }
        let state = RaceState::new(game, players).map_err(SessionError::Setup)?;
        let seats = agents
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if n == "human" {
                    return Ok(RaceSeat::Human);
                }
                if let Some(p) = Policy::by_name(n, agent_seed(seed, i)) {
                    return Ok(RaceSeat::Computer(n.clone(), p));
                }
                let sample = RaceNode::new(game, state.clone(), max_rolls);
                agents::by_name(n, agent_seed(seed, i), strength, &sample)
                    .map(|a| RaceSeat::Agent(n.clone(), a))
                    .map_err(SessionError::Player)
            })
            .collect::<Result<Vec<_>, SessionError>>()?;
        let recorder = match record {
            Some(path) => Some(
                Recorder::create(path, &record::line(&header))
                    .map_err(|e| SessionError::record(path, e))?,
            ),
            None => None,
        };
        let humans = seats.iter().any(|s| matches!(s, RaceSeat::Human));
        Ok(RaceSession {
            game,
            state,
            dice: Rng::new(seed),
            seats,
            seed,
            strength,
            max_rolls,
            header,
            humans,
            turns: Vec::new(),
            before: Vec::new(),
            taken_back: Vec::new(),
            recorder,
            roll: None,
            choices: Vec::new(),
            resigned: None,
            news: Written::Ok,
        })
    }

    /// A game resumed from its record: `header` and its `turns`, each with
    /// its line, played and checked in order (an error names the line).
    /// The dice go on from `seed` past the rolls played: the dice the game
    /// would have rolled had it not stopped, when the record was played
    /// with that seed. The turns of a person can be taken back. A
    /// resignation the record holds ends the game.
    #[allow(clippy::too_many_arguments)]
    pub fn resume(
        game: &'g RaceGame,
        agents: &[String],
        seed: u64,
        strength: Strength,
        max_rolls: u32,
        header: Header,
        turns: &[(usize, RaceTurn)],
    ) -> Result<RaceSession<'g>, RecordError> {
        let at = |line: usize, reason: String| RecordError { line, reason };
        let mut s = RaceSession::new(game, agents, seed, strength, max_rolls, header, None)
            .map_err(|e| at(1, e.to_string()))?;
        let mut events = Vec::new();
        for (line, turn) in turns {
            let line = *line;
            if s.state.is_over() {
                return Err(at(line, "the game is already over".into()));
            }
            let seat = s.to_roll();
            let expected = seat_name(game, seat);
            if turn.player != expected {
                let reason = format!("it is {expected}'s turn, not {}'s", turn.player);
                return Err(at(line, reason));
            }
            let roll = Roll::new(&turn.dice)
                .ok_or_else(|| at(line, format!("too many dice: {:?}", turn.dice)))?;
            s.state
                .check_roll(game, &roll)
                .map_err(|e| at(line, e.to_string()))?;
            let choice = choice_of(game, seat, &turn.choice).ok_or_else(|| {
                at(
                    line,
                    format!(
                        "`{}` is not a choice: write {}",
                        turn.choice,
                        choice_forms(game)
                    ),
                )
            })?;
            if s.human_to_roll() {
                s.state.choices(game, &roll, &mut s.choices);
                s.before.push(Before {
                    state: s.state.clone(),
                    dice: s.dice.clone(),
                    turns: s.turns.len(),
                    forced: s.choices.len() <= 1,
                });
            }
            // The generator rolls on as it did.
            game.throw(&mut s.dice);
            events.clear();
            s.state
                .apply(game, &roll, choice, &mut events)
                .map_err(|e| {
                    at(
                        line,
                        format!(
                            "{expected} can't play `{}` with {roll}: {e}",
                            choice_text(game, seat, choice)
                        ),
                    )
                })?;
            // Kept whatever the seats: `record_to` writes them.
            s.turns.push(turn.clone());
        }
        s.choices.clear();
        if let Some(r) = s.header.result.clone() {
            if r.reason == "resigned" {
                s.resigned = r
                    .resigned
                    .as_deref()
                    .and_then(|n| (0..s.state.players()).find(|&i| seat_name(game, i) == n));
            }
        }
        Ok(s)
    }

    /// Writes the record of a resumed game to `path` from now on: the
    /// header and the turns so far at once (an error when the file can't
    /// be written), then a line per turn.
    pub fn record_to(&mut self, path: &Path) -> Result<(), SessionError> {
        let mut r = Recorder::create(path, &record::line(&self.header))
            .map_err(|e| SessionError::record(path, e))?;
        if !self.turns.is_empty() {
            if let Written::Failed(e) = r.rewrite(&self.record_text()) {
                return Err(SessionError::record(path, record::file::owned(e)));
            }
        }
        self.recorder = Some(r);
        if !self.humans {
            // Kept for this write only: a game without a person keeps none.
            self.turns = Vec::new();
        }
        Ok(())
    }

    /// The game.
    pub fn game(&self) -> &'g RaceGame {
        self.game
    }

    /// The state of the game.
    pub fn state(&self) -> &RaceState {
        &self.state
    }

    /// Who plays each seat.
    pub fn seats(&self) -> &[RaceSeat<'g>] {
        &self.seats
    }

    /// Whether a person plays any seat.
    pub fn has_humans(&self) -> bool {
        self.humans
    }

    /// Whether the game is over (by the rules or a resignation).
    pub fn is_over(&self) -> bool {
        self.state.is_over() || self.resigned.is_some()
    }

    /// The seat that resigned, if one did.
    pub fn resigned(&self) -> Option<usize> {
        self.resigned
    }

    /// How the game ended, once it is over: by a resignation, by the
    /// rules, or at the limit of rolls.
    pub fn ending(&self) -> Option<RaceEnding> {
        if let Some(seat) = self.resigned {
            return Some(RaceEnding::Resigned(seat));
        }
        if self.state.is_over() {
            return Some(RaceEnding::Rules);
        }
        self.limit_reached()
            .then(|| RaceEnding::Limit(self.state.rolls()))
    }

    /// The seat to roll resigns: the game is over ([`RaceEnding::Resigned`]),
    /// the other seat wins when there are two (with more, no one does), and
    /// the record says so (its header's `result`; how rewriting it went:
    /// [`RaceSession::record_news`]). Nothing happens to a game already
    /// over.
    pub fn resign(&mut self) -> Option<RaceEnding> {
        if self.is_over() {
            return None;
        }
        let seat = self.to_roll();
        // The roll waiting for the person is not played.
        if self.roll.is_some() && self.human_to_roll() {
            self.rewind();
        }
        self.resigned = Some(seat);
        let winner = (self.state.players() == 2).then(|| seat_name(self.game, 1 - seat));
        let mut result = GameResult::resigned(seat_name(self.game, seat), winner);
        if !self.game.scores.is_empty() && self.state.players() == 2 {
            result.points = Some(self.state.score_against(self.game, 1 - seat, seat).points);
        }
        self.header.result = Some(result);
        self.rewrite_record();
        self.ending()
    }

    /// The result the record holds beside its turns (a resignation).
    pub fn result(&self) -> Option<GameResult> {
        self.header.result.clone()
    }

    /// What writing the record did since this was last asked: a failure
    /// (the game goes on and the lines wait), a recovery, or nothing new.
    pub fn record_news(&mut self) -> Written {
        std::mem::replace(&mut self.news, Written::Ok)
    }

    /// Keeps the news of a write that matters most.
    fn note(&mut self, w: Written) {
        if !matches!(w, Written::Ok | Written::StillFailing) || self.news == Written::Ok {
            self.news = w;
        }
    }

    /// Writes the record whole again (after an undo, a resignation).
    fn rewrite_record(&mut self) {
        let text = self.record_text();
        if let Some(r) = &mut self.recorder {
            let w = r.rewrite(&text);
            self.note(w);
        }
    }

    /// Whether the game has reached its limit of rolls.
    pub fn limit_reached(&self) -> bool {
        self.state.rolls() >= self.max_rolls
    }

    /// The seat to roll.
    pub fn to_roll(&self) -> usize {
        self.state.to_roll()
    }

    /// Whether a person is to roll.
    pub fn human_to_roll(&self) -> bool {
        matches!(self.seats.get(self.to_roll()), Some(RaceSeat::Human) | None)
    }

    /// The turns held for `save` (only when a person plays).
    pub fn turns(&self) -> &[RaceTurn] {
        &self.turns
    }

    /// The seat to roll rolls the dice; the legal choices follow
    /// ([`RaceSession::choices`]).
    pub fn roll(&mut self) -> Roll {
        if self.human_to_roll() {
            self.before.push(Before {
                state: self.state.clone(),
                dice: self.dice.clone(),
                turns: self.turns.len(),
                forced: false,
            });
        }
        let roll = self.game.throw(&mut self.dice);
        self.state.choices(self.game, &roll, &mut self.choices);
        self.roll = Some(roll);
        roll
    }

    /// The dice rolled last.
    pub fn rolled(&self) -> Option<Roll> {
        self.roll
    }

    /// The legal choices of the roll.
    pub fn choices(&self) -> &[Choice] {
        &self.choices
    }

    /// Whether `choice` may be played on the roll: one of
    /// [`RaceSession::choices`], or the same moves of dice used one by one
    /// written in another order that can be played.
    pub fn allows(&self, choice: Choice) -> bool {
        match self.roll {
            Some(roll) => {
                self.choices.contains(&choice) || self.state.allows(self.game, &roll, choice)
            }
            None => false,
        }
    }

    /// The choice of the roll when it is the only one (a pass included):
    /// a front end takes it without asking.
    pub fn forced(&self) -> Option<Choice> {
        match self.choices.as_slice() {
            [only] if self.roll.is_some() => Some(*only),
            _ => None,
        }
    }

    /// The choice a person takes by default (the computer's suggestion),
    /// when the roll leaves several.
    pub fn default_choice(&self) -> Option<Choice> {
        if self.choices.len() < 2 {
            return None;
        }
        self.hint()
    }

    /// Plays the game on by one turn: a computer player rolls and chooses
    /// (the turn comes back as data), or the person to roll rolls and is to
    /// choose (give their choice to [`RaceSession::choose`]; until then the
    /// same roll comes back), or the game is over or at its limit of rolls.
    /// The turn loop of every front end.
    pub fn advance(&mut self) -> Result<RaceNext, SessionError> {
        if let Some(ending) = self.ending() {
            return Ok(RaceNext::Over(ending));
        }
        if self.human_to_roll() {
            let roll = match self.roll {
                Some(r) => r,
                None => self.roll(),
            };
            return Ok(RaceNext::Person(roll));
        }
        if self.roll.is_none() {
            self.roll();
        }
        self.play_computer().map(RaceNext::Played)
    }

    /// The computer player of the seat to roll chooses and plays.
    pub fn play_computer(&mut self) -> Result<Played, SessionError> {
        let roll = self.roll.ok_or(SessionError::NoRoll)?;
        let seat = self.to_roll();
        let choice = match self.seats.get_mut(seat) {
            Some(RaceSeat::Computer(_, policy)) => self
                .choices
                .get(policy.choose(&self.choices))
                .copied()
                .unwrap_or(Choice::Pass),
            Some(RaceSeat::Agent(_, agent)) => {
                let node = RaceNode::rolled(self.game, self.state.clone(), roll, self.max_rolls);
                self.choices
                    .get(agent.choose(&node))
                    .copied()
                    .unwrap_or(Choice::Pass)
            }
            _ => return Err(SessionError::PersonToChoose),
        };
        self.play(choice)
    }

    /// The choice a greedy player suggests for the roll.
    pub fn hint(&self) -> Option<Choice> {
        let roll = self.roll?;
        let node = RaceNode::rolled(self.game, self.state.clone(), roll, self.max_rolls);
        let mut adviser = agents::by_name("greedy", self.seed, self.strength, &node).ok()?;
        self.choices.get(adviser.choose(&node)).copied()
    }

    /// A person's choice (one of [`RaceSession::choices`]): played; the
    /// choices taken back are forgotten.
    pub fn choose(&mut self, choice: Choice) -> Result<Played, SessionError> {
        let forced = self.choices.len() <= 1;
        if let Some(b) = self.before.last_mut() {
            b.forced = forced;
        }
        if !forced {
            self.taken_back.clear();
        }
        self.play(choice)
    }

    /// Applies a choice to the roll: the events, the record.
    fn play(&mut self, choice: Choice) -> Result<Played, SessionError> {
        let roll = self.roll.take().ok_or(SessionError::NoRoll)?;
        let seat = self.to_roll();
        let number = self.state.rolls() + 1;
        let mut events = Vec::new();
        self.state
            .apply(self.game, &roll, choice, &mut events)
            .map_err(SessionError::Illegal)?;
        let turn = RaceTurn {
            player: seat_name(self.game, seat).to_string(),
            dice: roll.faces().to_vec(),
            choice: choice_json(self.game, seat, choice),
        };
        if let Some(r) = &mut self.recorder {
            let w = r.line(&record::line(&turn));
            self.note(w);
        }
        if self.humans {
            self.turns.push(turn);
        }
        Ok(Played {
            number,
            seat,
            roll,
            choice,
            events,
        })
    }

    /// Back to before the roll of the person to roll: the same dice come
    /// again on the next [`RaceSession::roll`].
    fn rewind(&mut self) -> Option<Before> {
        let now = self.before.pop()?;
        self.state = now.state.clone();
        self.dice = now.dice.clone();
        self.roll = None;
        Some(now)
    }

    /// The record of the game so far.
    pub fn record_text(&self) -> String {
        record_text(&self.header, &self.turns)
    }

    /// Saves the game so far to `path` (atomically); the person to roll
    /// rolls the same dice again. The number of turns saved.
    pub fn save(&mut self, path: &Path) -> std::io::Result<usize> {
        let result = record::write_atomic(path, self.record_text().as_bytes());
        self.rewind();
        result.map(|()| self.turns.len())
    }

    /// Takes back the last choice of the person to roll: their previous
    /// turn with a choice to make comes again, with the same dice (turns
    /// that left one choice only are taken back on the way):
    /// [`Undo::Back`], or [`Undo::Nothing`] when the person had no earlier
    /// turn. How rewriting the record went: [`RaceSession::record_news`].
    pub fn undo(&mut self) -> Undo {
        let Some(now) = self.before.pop() else {
            return Undo::Nothing;
        };
        let Some(at) = self.before.iter().rposition(|b| !b.forced) else {
            self.before.push(now);
            self.rewind();
            return Undo::Nothing;
        };
        self.before.truncate(at + 1);
        let Some(target) = self.before.pop() else {
            return Undo::Nothing;
        };
        let seat = target.state.to_roll();
        if let Some(c) = self
            .turns
            .get(target.turns)
            .and_then(|last| choice_of(self.game, seat, &last.choice))
        {
            self.taken_back.push(c);
        }
        self.state = target.state;
        self.dice = target.dice;
        self.roll = None;
        self.turns.truncate(target.turns);
        self.rewrite_record();
        Undo::Back
    }

    /// Makes again the last choice taken back, when it is a choice of this
    /// roll: the turn played; `None` (and the same roll again) otherwise.
    pub fn redo(&mut self) -> Result<Option<Played>, SessionError> {
        let choices = self.choices.clone();
        if self.rewind().is_none() {
            return Ok(None);
        }
        match self.taken_back.pop() {
            Some(c) if choices.contains(&c) => {
                self.roll();
                self.play(c).map(Some)
            }
            _ => Ok(None),
        }
    }
}
