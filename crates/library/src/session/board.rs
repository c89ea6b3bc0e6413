//! A board game in progress between people and computer players: the
//! match (position, history, legal moves, outcome), who plays each side,
//! entering a move by its notation, a unique prefix or square by square,
//! undo and redo, a hint, and the record of the game so far, written as the
//! game goes when asked ([`BoardSession::record_to`]).
//!
//! A front end plays the game turn by turn with [`BoardSession::advance`]:
//! a computer player's turn is played and comes back as a [`Turn`]; when a
//! person is to move it says so, and the front end gives their move to
//! [`BoardSession::play_turn`]; once the game is over it says how it ended
//! ([`Ending`]: by the rules, by a resignation, or at the ply limit).
//!
//! The computer players see the game as a [`BoardState`] kept in step with
//! the match, so a computer move costs the same at ply 10 and at ply 10,000;
//! it is built anew from the moves only after an undo or a redo.

use std::path::Path;

use crate::agents::{self, Agent, BoardGame, BoardState, GameState, Strength};
use crate::board::{find_move, Event, Match, Move, MoveError, Outcome, Position, Tables};
use crate::record::board::{play_ply, Ply, RecordError};
use crate::record::{self, BoardRecord, GameResult, Header, Recorder, Written};
use crate::session::SessionError;

/// Who plays a side.
pub enum Seat<'g> {
    /// A person, at the prompt.
    Human,
    /// A computer player.
    Computer(Box<dyn Agent<BoardState<'g>> + 'g>),
}

/// What a line typed at the prompt means for the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// This legal move.
    Play(Move),
    /// The start of a capture that several moves share: the next square is
    /// wanted. `so_far` is the text typed so far, `moves` the notation of
    /// the moves it may become.
    GoOn {
        /// The text typed so far.
        so_far: String,
        /// The moves it may still become.
        moves: Vec<String>,
    },
    /// Not a legal move: why (`narrate::board::refusal` words it).
    Illegal(MoveError),
    /// Several moves fit and no square is wanted: why
    /// (`narrate::board::refusal` words it).
    Unclear(MoveError),
}

/// What an undo did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undo {
    /// Nothing was played.
    Nothing,
    /// Back at the previous turn of the side that asked.
    Back,
    /// Moves were taken back, but that side had no earlier turn.
    Partly,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules decided it.
    Rules(Outcome),
    /// The side of this index resigned.
    Resigned(usize),
    /// The game reached the session's ply limit
    /// ([`BoardSession::with_max_plies`]) after this many plies, undecided.
    Limit(u32),
}

/// A turn played: who moved, the move, its rule events, and how the game
/// ended if it did.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The ply's number, from 1.
    pub ply: u32,
    /// The index of the side that moved.
    pub side: usize,
    /// The move.
    pub mv: Move,
    /// The rule events it fired, in words.
    pub events: Vec<String>,
    /// How the game ended with this move, if it did.
    pub ending: Option<Ending>,
}

/// What [`BoardSession::advance`] did.
#[derive(Clone, Debug)]
pub enum Next {
    /// A computer player moved.
    Played(Turn),
    /// A person is to move: their move goes to [`BoardSession::play_turn`].
    Person,
    /// The game is over (nothing was played).
    Over(Ending),
}

/// The legal moves that `text` may mean: exact notation, a unique prefix of
/// the notation, or squares that start the move's path.
pub fn candidates<'m>(legal: &'m [Move], text: &str) -> Vec<&'m Move> {
    let text = text.trim().to_lowercase();
    if let Some(m) = legal
        .iter()
        .find(|m| m.notation == text || m.algebraic == text)
    {
        return vec![m];
    }
    legal
        .iter()
        .filter(|m| m.notation.starts_with(&text) || m.algebraic.starts_with(&text))
        .collect()
}

/// The number players give the move of ply `ply` (from 1) of a game of
/// `t` that started at `start`: a move is a turn of every side, opened by
/// the side that moves first at the game's start position, so that
/// `1. 22-18 9-13` is ply 1 and ply 2.
pub fn move_number(t: &Tables, start: &Position, ply: u32) -> u32 {
    let sides = u32::try_from(t.sides().max(1)).unwrap_or(1);
    let first = u32::from(Position::start(t).side().0);
    let opened = (u32::from(start.side().0) + sides - first % sides) % sides;
    (opened + ply.saturating_sub(1)) / sides + 1
}

/// The moves of a game as players write them, one numbered move a line:
/// `1. 22-18 9-13`, `2. 23-19 ...`; a game started by a side that doesn't
/// open a move starts `1. ... 9-13`.
pub fn move_list(t: &Tables, start: &Position, moves: &[Move]) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = 0;
    for (i, m) in moves.iter().enumerate() {
        let ply = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let n = move_number(t, start, ply);
        if n != current {
            let gap = if i == 0 && opens_late(t, start) {
                " ..."
            } else {
                ""
            };
            lines.push(format!("{n}.{gap}"));
            current = n;
        }
        if let Some(last) = lines.last_mut() {
            last.push(' ');
            last.push_str(&m.notation);
        }
    }
    lines
}

/// Whether the game of `start` begins with a side that doesn't open a move.
fn opens_late(t: &Tables, start: &Position) -> bool {
    start.side() != Position::start(t).side()
}

/// What a typed move means in a position, read as the prompt reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// This legal move (the text may be a unique prefix of it).
    Legal(Move),
    /// Several legal moves start so: more must be typed.
    Several(Vec<Move>),
    /// No legal move: why, naming the rule (`narrate::board::refusal`
    /// words it).
    Illegal(MoveError),
}

/// Reads `text` as a move of `pos` among its `legal` moves: the exact
/// notation (numeric or algebraic), a unique prefix, or the start and end
/// squares; otherwise why it is not legal.
pub fn read_move(t: &Tables, pos: &Position, legal: &[Move], text: &str) -> Reading {
    let found = candidates(legal, text);
    match found.as_slice() {
        [m] => Reading::Legal((*m).clone()),
        [] => match find_move(t, pos, legal, text) {
            Ok(m) => Reading::Legal(m),
            Err(why) => Reading::Illegal(why),
        },
        many => match find_move(t, pos, legal, text) {
            Ok(m) => Reading::Legal(m),
            Err(_) => Reading::Several(many.iter().map(|m| (*m).clone()).collect()),
        },
    }
}

/// A board game in progress.
pub struct BoardSession<'t> {
    t: &'t Tables,
    start: Position,
    game: Match<'t>,
    agents_game: &'t BoardGame<'t>,
    /// The game as the computer players see it, in step with `game`.
    state: BoardState<'t>,
    seats: Vec<Seat<'t>>,
    /// The agent name of each side, as given.
    agents: Vec<String>,
    seed: u64,
    strength: Strength,
    /// The game stops undecided after this many plies.
    max_plies: u32,
    /// The side that resigned, if one did.
    resigned: Option<usize>,
    /// The record written as the game goes, with its header.
    recorder: Option<(Recorder, Header)>,
    /// What the last write of the record did, until it is asked for.
    news: Written,
    /// Whether a person's move was just played again (`redo`): the
    /// computer players' replies taken back with it are played again too,
    /// not chosen anew.
    replaying: bool,
    /// The game's name and option values, as the record names them.
    name: String,
    options: Vec<String>,
}

impl<'t> BoardSession<'t> {
    /// A game of `agents_game` (the game as computer players see it: see
    /// [`BoardSession::players_view`]) from `start`, with one agent name per
    /// side (`human` for a person); the computer player of side `i` is
    /// seeded with `seed + i`.
    pub fn new(
        agents_game: &'t BoardGame<'t>,
        start: Position,
        agents: &[String],
        seed: u64,
        strength: Strength,
    ) -> Result<BoardSession<'t>, SessionError> {
        let t = agents_game.t;
        let sample = agents_game.state(start.clone());
        let seats = agents
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if n == "human" {
                    Ok(Seat::Human)
                } else {
                    agents::by_name(n, seed.wrapping_add(i as u64), strength, &sample)
                        .map(Seat::Computer)
                        .map_err(SessionError::Player)
                }
            })
            .collect::<Result<Vec<_>, SessionError>>()?;
        Ok(BoardSession {
            t,
            game: Match::new(t, start.clone()),
            state: agents_game.state(start.clone()),
            start,
            agents_game,
            seats,
            agents: agents.to_vec(),
            seed,
            strength,
            max_plies: u32::MAX,
            resigned: None,
            recorder: None,
            news: Written::Ok,
            replaying: false,
            name: String::new(),
            options: Vec::new(),
        })
    }

    /// A game resumed from its record: the plies of `rec` played from its
    /// start (every one checked, with its line on an error), so that undo
    /// takes them back; a resignation the record holds ends the game.
    /// `agents`, `seed` and `strength` as for [`BoardSession::new`].
    pub fn resume(
        agents_game: &'t BoardGame<'t>,
        rec: &BoardRecord,
        agents: &[String],
        seed: u64,
        strength: Strength,
    ) -> Result<BoardSession<'t>, RecordError> {
        let t = agents_game.t;
        let start = rec.start(t)?;
        let mut s = BoardSession::new(agents_game, start, agents, seed, strength).map_err(|e| {
            RecordError {
                line: rec.lines.first().copied().unwrap_or(1),
                reason: e.to_string(),
            }
        })?;
        for (i, ply) in rec.plies.iter().enumerate() {
            let line = rec.lines.get(i + 1).copied().unwrap_or(i + 2);
            play_ply(&mut s.game, line, ply)?;
        }
        s.state = agents_game.replay(s.start.clone(), s.game.played());
        if let Some(r) = &rec.header.result {
            if r.reason == "resigned" {
                s.resigned = r
                    .resigned
                    .as_deref()
                    .and_then(|id| t.game().sides.iter().position(|side| side.id == id));
            }
        }
        Ok(s)
    }

    /// The same session with the name of its game and the option values
    /// played (`kings=short`), as its record gives them.
    pub fn named(mut self, game: &str, options: &[String]) -> BoardSession<'t> {
        game.clone_into(&mut self.name);
        self.options = options.to_vec();
        self
    }

    /// Whether the game is over (by the rules, a resignation or the ply
    /// limit).
    pub fn is_over(&self) -> bool {
        self.ending().is_some()
    }

    /// The same session with a ply limit: once `max_plies` plies are
    /// played, the game ends undecided ([`Ending::Limit`]). Without it the
    /// game goes on until the rules end it.
    pub fn with_max_plies(mut self, max_plies: u32) -> BoardSession<'t> {
        self.max_plies = max_plies;
        self
    }

    /// How the game ended, once it is over: by a resignation, by the rules,
    /// or at the ply limit.
    pub fn ending(&self) -> Option<Ending> {
        if let Some(side) = self.resigned {
            return Some(Ending::Resigned(side));
        }
        if let Some(o) = self.game.outcome() {
            return Some(Ending::Rules(o.clone()));
        }
        (self.game.plies >= self.max_plies).then_some(Ending::Limit(self.game.plies))
    }

    /// Advances the game by one turn: a computer player to move moves (the
    /// turn comes back); a person to move is left to the front end
    /// ([`Next::Person`]); a game over says how it ended. An error when a
    /// computer player finds no move (a rule file whose side to move has no
    /// legal move and no rule ending the game).
    pub fn advance(&mut self) -> Result<Next, SessionError> {
        if let Some(ending) = self.ending() {
            return Ok(Next::Over(ending));
        }
        if self.human_to_move() {
            return Ok(Next::Person);
        }
        // After a redo, the reply taken back comes again.
        if self.replaying {
            if let Some(turn) = self.redo()? {
                return Ok(Next::Played(turn));
            }
            self.replaying = false;
        }
        let mv = self.computer_move().ok_or(SessionError::NoMove)?;
        Ok(Next::Played(self.play_turn(&mv)))
    }

    /// Plays a legal move (a person's, or any) as a turn.
    pub fn play_turn(&mut self, mv: &Move) -> Turn {
        let side = self.to_move();
        let events = self.play(mv);
        Turn {
            ply: self.game.plies,
            side,
            mv: mv.clone(),
            events,
            ending: self.ending(),
        }
    }

    /// The side to move resigns: the game is over ([`Ending::Resigned`]),
    /// and the record says so (its header's `result`). Nothing happens to
    /// a game already over.
    pub fn resign(&mut self) -> Option<Ending> {
        self.resign_side(self.to_move())
    }

    /// Side `side` resigns, whoever is to move (a person resigning while a
    /// computer player thinks). Nothing happens to a game already over.
    pub fn resign_side(&mut self, side: usize) -> Option<Ending> {
        if self.ending().is_some() || side >= self.t.sides() {
            return None;
        }
        self.resigned = Some(side);
        self.rewrite_record();
        self.ending()
    }

    /// The result a record holds beside its moves: who resigned and who
    /// wins.
    pub fn result(&self) -> Option<GameResult> {
        let side = self.resigned?;
        let id = |i: usize| self.t.game().sides.get(i).map(|s| s.id.as_str());
        let winners = self.winners_if_resigns(side);
        let winner = match winners.as_slice() {
            [one] => id(*one),
            _ => None,
        };
        Some(GameResult::resigned(id(side).unwrap_or("?"), winner))
    }

    /// The seed of the computer players.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The sides that win when `side` resigns: every other side.
    pub fn winners_if_resigns(&self, side: usize) -> Vec<usize> {
        (0..self.t.sides()).filter(|&i| i != side).collect()
    }

    /// Writes the record of this game to `path` from now on: the moves so
    /// far at once (an error when the file can't be written: before the
    /// first move), then a line per move; moves taken back leave the record
    /// too.
    pub fn record_to(&mut self, path: &Path) -> Result<(), SessionError> {
        let whole = self.record();
        let mut recorder = Recorder::create(path, &record::line(&whole.header))
            .map_err(|e| SessionError::record(path, e))?;
        if !whole.plies.is_empty() || whole.header.result.is_some() {
            let text = whole.to_jsonl();
            if let Written::Failed(e) = recorder.rewrite(&text) {
                return Err(SessionError::record(path, record::file::owned(e)));
            }
        }
        self.recorder = Some((recorder, whole.header));
        Ok(())
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

    /// Appends the ply of `mv` (played by the side `mover`) to the record.
    fn record_ply(&mut self, mover: usize, mv: &Move) {
        if let Some((r, _)) = &mut self.recorder {
            let ply = Ply {
                player: self
                    .t
                    .game()
                    .sides
                    .get(mover)
                    .map_or_else(String::new, |s| s.id.clone()),
                mv: mv.notation.clone(),
            };
            let w = r.line(&record::line(&ply));
            self.note(w);
        }
    }

    /// After an undo or a redo: the computer players' view and the record
    /// built anew from the moves.
    fn resync(&mut self) {
        self.state = self
            .agents_game
            .replay(self.start.clone(), self.game.played());
        self.rewrite_record();
    }

    /// Writes the record whole again (after an undo, a redo, a
    /// resignation).
    fn rewrite_record(&mut self) {
        if self.recorder.is_some() {
            let text = self.record_text();
            if let Some((r, _)) = &mut self.recorder {
                let w = r.rewrite(&text);
                self.note(w);
            }
        }
    }

    /// The game as the computer players of a session see it: no ply limit
    /// of their own.
    pub fn players_view(t: &Tables) -> BoardGame<'_> {
        BoardGame::with_max_plies(t, u32::MAX)
    }

    /// The match: position, legal moves, moves played, outcome.
    pub fn game(&self) -> &Match<'t> {
        &self.game
    }

    /// The compiled game.
    pub fn tables(&self) -> &'t Tables {
        self.t
    }

    /// Whether a person plays any side.
    pub fn has_humans(&self) -> bool {
        self.seats.iter().any(|s| matches!(s, Seat::Human))
    }

    /// The sides a person plays.
    pub fn people(&self) -> Vec<usize> {
        (0..self.seats.len())
            .filter(|&i| matches!(self.seats[i], Seat::Human))
            .collect()
    }

    /// The side to move's index.
    pub fn to_move(&self) -> usize {
        usize::from(self.game.pos().side().0)
    }

    /// The name of the side to move.
    pub fn side_name(&self) -> &'t str {
        self.name_of(self.to_move())
    }

    /// The name of a side.
    pub fn name_of(&self, side: usize) -> &'t str {
        self.t
            .game()
            .sides
            .get(side)
            .map_or("?", |s| s.name.as_str())
    }

    /// Whether a person is to move.
    pub fn human_to_move(&self) -> bool {
        !matches!(self.seats.get(self.to_move()), Some(Seat::Computer(_)))
    }

    /// The move of the computer player to move (None when a person is to
    /// move or no move is legal).
    pub fn computer_move(&mut self) -> Option<Move> {
        let side = self.to_move();
        match self.seats.get_mut(side) {
            Some(Seat::Computer(a)) => {
                let i = a.choose(&self.state);
                self.game.legal().get(i).cloned()
            }
            _ => None,
        }
    }

    /// The move a greedy player suggests.
    pub fn hint(&self) -> Option<Move> {
        let mut adviser = agents::by_name("greedy", self.seed, self.strength, &self.state).ok()?;
        let i = adviser.choose(&self.state);
        self.game.legal().get(i).cloned()
    }

    /// What a line means after the capture typed so far (`partial`, empty
    /// when none): a move, the wish for a further square, or why not.
    pub fn enter(&self, partial: &str, line: &str) -> Entry {
        let text = if partial.is_empty() {
            line.to_string()
        } else {
            let sep = if line.starts_with(['x', '-', ':']) {
                ""
            } else {
                "x"
            };
            format!("{partial}{sep}{line}")
        };
        let found = candidates(self.game.legal(), &text);
        match found.as_slice() {
            [m] => Entry::Play((*m).clone()),
            [] => match self.game.parse_move(&text) {
                Ok(m) => Entry::Play(m),
                Err(why) => Entry::Illegal(why),
            },
            many => {
                // A capture typed so far: the next square is wanted.
                let all_captures = many.iter().all(|m| m.is_capture());
                let from_only = many.iter().all(|m| m.from == many[0].from);
                if all_captures
                    && from_only
                    && text
                        .chars()
                        .last()
                        .is_some_and(|c| c.is_ascii_alphanumeric())
                {
                    Entry::GoOn {
                        moves: many.iter().map(|m| m.notation.clone()).collect(),
                        so_far: text,
                    }
                } else {
                    match self.game.parse_move(&text) {
                        Ok(m) => Entry::Play(m),
                        Err(why) => Entry::Unclear(why),
                    }
                }
            }
        }
    }

    /// Plays a legal move; returns the rule events it fired, in words.
    pub fn play(&mut self, mv: &Move) -> Vec<String> {
        let mover = self.to_move();
        let events = self.game.play(mv);
        let events = self.words(&events);
        match self.state.index_of(mv) {
            Some(i) => self.state.play(i),
            None => {
                self.state = self
                    .agents_game
                    .replay(self.start.clone(), self.game.played());
            }
        }
        self.record_ply(mover, mv);
        events
    }

    /// The rule events of a move in words.
    fn words(&self, events: &[Event]) -> Vec<String> {
        events
            .iter()
            .map(|e| crate::narrate::board::describe(self.t, e))
            .collect()
    }

    /// Takes moves back to the previous turn of the side to move.
    pub fn undo(&mut self) -> Undo {
        self.replaying = false;
        let me = self.game.pos().side();
        if !self.game.undo() {
            return Undo::Nothing;
        }
        while self.game.pos().side() != me && self.game.undo() {}
        self.resync();
        if self.game.pos().side() == me {
            Undo::Back
        } else {
            Undo::Partly
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The number players give the move of ply `ply` (from 1).
    pub fn move_number(&self, ply: u32) -> u32 {
        move_number(self.t, &self.start, ply)
    }

    /// The moves so far as players write them: `1. 22-18 9-13` a line.
    pub fn move_list(&self) -> Vec<String> {
        move_list(self.t, &self.start, self.game.played())
    }

    /// Plays again the next move taken back: the turn played; `None` when
    /// no move was taken back. (Never an error: the move was legal.) The
    /// computer players' replies taken back with it are played again by
    /// [`BoardSession::advance`], as they were.
    pub fn redo(&mut self) -> Result<Option<Turn>, SessionError> {
        let mover = self.to_move();
        let Some((mv, events)) = self.game.redo() else {
            self.replaying = false;
            return Ok(None);
        };
        self.replaying = true;
        let events = self.words(&events);
        match self.state.index_of(&mv) {
            Some(i) => {
                self.state.play(i);
                self.record_ply(mover, &mv);
            }
            // `resync` writes the record with this move.
            None => self.resync(),
        }
        Ok(Some(Turn {
            ply: self.game.plies,
            side: mover,
            mv,
            events,
            ending: self.ending(),
        }))
    }

    /// The record of the game so far (see [`BoardSession::named`]): the
    /// moves, the seed, who plays each side and a resignation.
    pub fn record(&self) -> BoardRecord {
        let mut r = BoardRecord::of_game(
            &self.name,
            &self.options,
            self.t,
            &self.start,
            self.game.played(),
        );
        r.header.seed = Some(self.seed);
        r.header.agents.clone_from(&self.agents);
        r.header.result = self.result();
        r
    }

    /// The record of the game so far as its text (JSON lines).
    pub fn record_text(&self) -> String {
        self.record().to_jsonl()
    }
}
