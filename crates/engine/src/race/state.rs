//! `RaceState`: where every piece is, the turns owed, who rolls; the legal
//! choices of a roll and a turn played.

use super::{Choice, Event, Roll};

#[path = "bonus.rs"]
mod bonus;
#[path = "dice.rs"]
mod dice;
use crate::race::game::{
    Action, CellEffect, CellRule, Enter, Extra, Finish, Landed, LandingPlan, Moment, RaceGame,
    RestingPlan, RollRuleTest, Target, Win, MAX_DICE, OUT,
};

/// Why a turn can't be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// The roll has not as many dice as the game rolls.
    DiceCount {
        /// The dice the game rolls.
        dice: u8,
        /// The dice rolled.
        rolled: usize,
    },
    /// A die shows a face the game's dice don't have.
    Face {
        /// The faces of the game's dice.
        faces: u8,
        /// The face shown.
        shown: u8,
    },
    /// The choice is not one of the legal ones.
    NotAChoice,
}

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Illegal::GameOver => f.write_str("the game is over"),
            Illegal::DiceCount { dice, rolled } => {
                write!(f, "this game rolls {dice} dice, not {rolled}")
            }
            Illegal::Face { faces, shown } => {
                write!(f, "a die of this game shows 1 to {faces}, not {shown}")
            }
            Illegal::NotAChoice => f.write_str("not a legal choice"),
        }
    }
}

/// Why a race position can't be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The game is not played by this many players.
    Players {
        /// The game's title.
        title: String,
        /// The fewest players.
        min: u8,
        /// The most players.
        max: u8,
        /// The players asked for.
        given: usize,
    },
    /// A seat that doesn't play, or a list of pieces of the wrong length.
    Pieces {
        /// The seat.
        seat: usize,
        /// The pieces each seat has.
        pieces: usize,
    },
    /// A cell past the finish.
    OffTrack {
        /// The cell.
        cell: u16,
    },
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::Players {
                title,
                min,
                max,
                given,
            } => write!(
                f,
                "{title} is played by {min} to {max} players, not {given}"
            ),
            SetupError::Pieces { seat, pieces } => write!(f, "seat {seat} has {pieces} pieces"),
            SetupError::OffTrack { cell } => write!(f, "cell {cell} is off the track"),
        }
    }
}

/// Which rule of the choices rules a choice out, beyond the usual ones
/// (`RaceState::refusal`; `narrate` words it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A piece of the player stands where the move would land or come to
    /// rest (`no landing on own pieces`, or a kept home cell).
    OwnPiece {
        /// Its position (the player's progress).
        at: u16,
    },
    /// The move would pass a piece of the player on the kept home cells.
    PassesOwn {
        /// Its position (the player's progress).
        at: u16,
    },
    /// A piece on the start cell must move away first (`leave start
    /// first`).
    StartFirst,
    /// Entering is the only choice (`enter compulsory`).
    MustEnter,
    /// The move would land on a closed cell that a piece holds (`safe
    /// cells ... closed`).
    Closed {
        /// Where it would land (the player's progress).
        at: u16,
    },
    /// A throw of 0 moves nothing (`throw N sticks`).
    ZeroThrow,
    /// The move would land or come to rest on an opponent's piece in a
    /// protected row (`protected in rows of N`).
    Protected {
        /// Where (the player's progress).
        at: u16,
        /// The row's length.
        row: u8,
    },
    /// The move would pass a piece of a row of an opponent's pieces that
    /// no one passes (`no passing rows of N`).
    Blockade {
        /// The passed piece's cell (the player's progress).
        at: u16,
        /// The row's length.
        row: u8,
    },
    /// The move would pass a cell holding so many pieces of one seat (`no
    /// passing N on a cell`).
    Stack {
        /// The cell (the player's progress).
        at: u16,
        /// The pieces there.
        pieces: u8,
    },
    /// The move would pass a cell no one passes (`no passing cells ...`).
    NoPassing {
        /// The cell (the player's progress).
        at: u16,
    },
    /// A piece of the player is out and must enter before any other
    /// moves (`enter first`).
    EnterFirst,
    /// The cell where the move would land is held by `pieces` pieces of
    /// seat `seat` (`no landing on N or more opponent pieces`).
    Point {
        /// Where it would land (the player's progress).
        at: u16,
        /// Whose pieces hold it.
        seat: u8,
        /// How many.
        pieces: u8,
    },
    /// The cell where the move would land holds a blockade: `pieces`
    /// pieces of seat `seat`, the player's own maybe (`no landing on N or
    /// more pieces`).
    OnBlockade {
        /// Where it would land (the player's progress).
        at: u16,
        /// Whose pieces hold it.
        seat: u8,
        /// How many.
        pieces: u8,
    },
    /// A piece bears off only when all the player's pieces are in the
    /// last `last` cells (`bear off when all in last N`).
    NotAllHome {
        /// The home cells' count.
        last: u16,
    },
    /// A count past the finish bears off only the piece furthest from it,
    /// and a piece stands further back than the one at `at` (`finish exact
    /// or from furthest`).
    FurtherBack {
        /// The piece that would bear off (the player's progress).
        at: u16,
    },
    /// No die left moves that piece so far.
    NoDie,
    /// The roll lets more dice be used: `most` of them (`move most
    /// dice`, or a sequence stopped while a die could still move).
    MostDice {
        /// How many dice can be used.
        most: u8,
    },
    /// Only one die can be used, and the larger one must be (`move most
    /// dice`).
    LargerDie {
        /// The larger die.
        die: u8,
    },
    /// Some piece can move: passing is not a choice.
    MustMove,
    /// A move back with a die that can move a piece forward: a die moves
    /// a piece back only when it can move none forward (`move back when
    /// blocked`, with `move each die`).
    NotBlocked {
        /// The die.
        die: u8,
    },
    /// A move of the sequence, in the order written, starts where the
    /// player has no piece at that point (dice used one by one).
    NoPieceThere {
        /// Where the move starts (the player's progress).
        at: u16,
    },
}

impl std::error::Error for Illegal {}
impl std::error::Error for SetupError {}

/// A race game in progress.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct RaceState {
    players: u8,
    pieces: u8,
    /// Every piece's position, seat by seat: `OUT`, a cell, or the finish.
    pos: Vec<u16>,
    /// Whether each piece is held (`held` effect).
    held: Vec<bool>,
    /// Turns each player is to miss.
    owed: Vec<u8>,
    to_roll: u8,
    winner: Option<u8>,
    rolls: u32,
    /// Each seat's piece that moved last (an index among its pieces), or
    /// `u8::MAX`.
    last_moved: Vec<u8>,
    /// The doubles in a row the player to roll has rolled this turn.
    doubles: u8,
    /// The rolls in a row with the same faces this turn, and those faces
    /// (sorted).
    same: (u8, [u8; MAX_DICE]),
    /// The seats home so far, in order.
    places: Vec<u8>,
    /// The seat that lost, with an outcome that names a loser.
    loser: Option<u8>,
    /// The game is over (won, or drawn).
    over: bool,
    /// The game ended as a draw: no player can ever move again.
    drawn: bool,
    /// The rolls of this turn in which no piece could move (`tries`).
    tries: u8,
}

// `clone_from` keeps the buffers: the agents copy a state into one they
// keep for every candidate move, and the search of the dice used one by one
// into one a depth (a derived `Clone` would allocate five vectors each
// time).
impl Clone for RaceState {
    fn clone(&self) -> Self {
        RaceState {
            players: self.players,
            pieces: self.pieces,
            pos: self.pos.clone(),
            held: self.held.clone(),
            owed: self.owed.clone(),
            to_roll: self.to_roll,
            winner: self.winner,
            rolls: self.rolls,
            last_moved: self.last_moved.clone(),
            doubles: self.doubles,
            same: self.same,
            places: self.places.clone(),
            loser: self.loser,
            over: self.over,
            drawn: self.drawn,
            tries: self.tries,
        }
    }

    fn clone_from(&mut self, s: &Self) {
        let RaceState {
            players,
            pieces,
            pos,
            held,
            owed,
            to_roll,
            winner,
            rolls,
            last_moved,
            doubles,
            same,
            places,
            loser,
            over,
            drawn,
            tries,
        } = self;
        *players = s.players;
        *pieces = s.pieces;
        pos.clone_from(&s.pos);
        held.clone_from(&s.held);
        owed.clone_from(&s.owed);
        *to_roll = s.to_roll;
        *winner = s.winner;
        *rolls = s.rolls;
        last_moved.clone_from(&s.last_moved);
        *doubles = s.doubles;
        *same = s.same;
        places.clone_from(&s.places);
        *loser = s.loser;
        *over = s.over;
        *drawn = s.drawn;
        *tries = s.tries;
    }
}

impl RaceState {
    /// The start: every piece out (or where `setup` puts it), the first
    /// seat to roll (SS-9).
    pub fn new(game: &RaceGame, players: usize) -> Result<RaceState, SetupError> {
        let range = usize::from(game.min_players)..=usize::from(game.max_players);
        if !range.contains(&players) {
            return Err(SetupError::Players {
                title: game.title.clone(),
                min: game.min_players,
                max: game.max_players,
                given: players,
            });
        }
        let n = players * usize::from(game.pieces);
        let mut state = RaceState {
            players: players as u8,
            pieces: game.pieces,
            pos: vec![OUT; n],
            held: vec![false; n],
            owed: vec![0; players],
            to_roll: 0,
            winner: None,
            rolls: 0,
            last_moved: vec![u8::MAX; players],
            doubles: 0,
            same: (0, [0; MAX_DICE]),
            places: Vec::with_capacity(players),
            loser: None,
            over: false,
            drawn: false,
            tries: 0,
        };
        state.place_setup(game);
        Ok(state)
    }

    /// Puts the pieces of `setup SEAT: ...` on their cells (each seat's
    /// first pieces; the others stay out).
    fn place_setup(&mut self, game: &RaceGame) {
        if game.setup.is_empty() {
            return;
        }
        let k = usize::from(self.pieces);
        for (seat, at) in game.setup.iter().enumerate().take(self.players()) {
            for (i, &p) in at.iter().enumerate().take(k) {
                if let Some(slot) = self.pos.get_mut(seat * k + i) {
                    *slot = p;
                }
            }
        }
    }

    /// Back to the start, for the same game and players, keeping the
    /// buffers (a bench plays game after game).
    pub fn restart(&mut self, game: &RaceGame) {
        self.pos.fill(OUT);
        self.place_setup(game);
        self.held.fill(false);
        self.owed.fill(0);
        self.to_roll = 0;
        self.winner = None;
        self.rolls = 0;
        self.last_moved.fill(u8::MAX);
        self.doubles = 0;
        self.same = (0, [0; MAX_DICE]);
        self.places.clear();
        self.loser = None;
        self.over = false;
        self.drawn = false;
        self.tries = 0;
    }

    /// Whether the game is over: won, or drawn because no player can ever
    /// move again.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Whether the game ended as a draw (no player can ever move again).
    pub fn is_drawn(&self) -> bool {
        self.drawn
    }

    /// The seat that lost, when the outcome names a loser.
    pub fn loser(&self) -> Option<usize> {
        self.loser.map(usize::from)
    }

    /// The seats home so far, in the order they got there.
    pub fn places(&self) -> &[u8] {
        &self.places
    }

    /// The doubles in a row the player to roll has rolled this turn
    /// (counted only in a game with rules of the roll; 0 otherwise).
    pub fn doubles_in_a_row(&self) -> u8 {
        self.doubles
    }

    /// The rolls in a row with the same faces the player to roll has rolled
    /// this turn, and those faces (sorted, unused slots 0; counted only in
    /// a game with rules of the roll).
    pub fn same_in_a_row(&self) -> (u8, [u8; MAX_DICE]) {
        self.same
    }

    /// Whether a seat is home and out of play.
    pub fn is_placed(&self, seat: usize) -> bool {
        self.places.iter().any(|&s| usize::from(s) == seat)
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        usize::from(self.players)
    }

    /// The seat to roll next.
    pub fn to_roll(&self) -> usize {
        usize::from(self.to_roll)
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// Rolls played so far (extra rolls included, missed turns not).
    pub fn rolls(&self) -> u32 {
        self.rolls
    }

    /// The turns a seat is still to miss.
    pub fn owed(&self, seat: usize) -> u8 {
        self.owed.get(seat).copied().unwrap_or(0)
    }

    /// A seat's pieces: `OUT` (0), a cell, or the finish (`game.cells`).
    pub fn pieces(&self, seat: usize) -> &[u16] {
        let k = usize::from(self.pieces);
        self.pos.get(seat * k..seat * k + k).unwrap_or(&[])
    }

    /// Whether piece `i` of a seat is held.
    pub fn is_held(&self, seat: usize, i: usize) -> bool {
        self.held
            .get(seat * usize::from(self.pieces) + i)
            .copied()
            .unwrap_or(false)
    }

    /// Puts a seat's pieces on these positions (for tests and scripted
    /// positions); they must be `OUT`, cells or the finish.
    pub fn set_pieces(
        &mut self,
        game: &RaceGame,
        seat: usize,
        cells: &[u16],
    ) -> Result<(), SetupError> {
        let k = usize::from(self.pieces);
        if seat >= self.players() || cells.len() != k {
            return Err(SetupError::Pieces { seat, pieces: k });
        }
        if let Some(&cell) = cells.iter().find(|&&c| c > game.cells) {
            return Err(SetupError::OffTrack { cell });
        }
        for (i, &c) in cells.iter().enumerate() {
            self.pos[seat * k + i] = c;
            self.held[seat * k + i] = false;
        }
        Ok(())
    }

    /// Sets the turns a seat is to miss, and who rolls next (for tests).
    pub fn set_turn(&mut self, seat: usize, owed: &[u8]) {
        self.to_roll = (seat % self.players()) as u8;
        for (o, &n) in self.owed.iter_mut().zip(owed) {
            *o = n;
        }
    }

    /// Whether the roll is a roll of this game's dice.
    pub fn check_roll(&self, game: &RaceGame, roll: &Roll) -> Result<(), Illegal> {
        // The usual case in one test: as many faces as dice, the lowest
        // at least 1 and the highest at most `faces` (`sorted` fills
        // unused slots with 0, after the faces).
        let n = usize::from(game.dice);
        let sorted = roll.sorted();
        if roll.faces().len() == n
            && n > 0
            && sorted.first().is_some_and(|&f| f >= 1)
            && sorted.get(n - 1).is_some_and(|&f| f <= game.faces)
        {
            return Ok(());
        }
        if roll.faces().len() != usize::from(game.dice) {
            return Err(Illegal::DiceCount {
                dice: game.dice,
                rolled: roll.faces().len(),
            });
        }
        let low = game.low_face();
        if let Some(&shown) = roll.faces().iter().find(|&&f| f < low || f > game.faces) {
            return Err(Illegal::Face {
                faces: game.faces,
                shown,
            });
        }
        Ok(())
    }

    /// Whether the seat to roll may enter a piece with `roll`: the roll
    /// lets one enter (`enter on F`), one is out, and, with `finish
    /// exact`, the count does not carry it past the finish (a piece enters
    /// on the cell the count reaches; `enter ... at start` puts it on the
    /// start cell whatever the count).
    fn may_enter(&self, game: &RaceGame, roll: &Roll) -> bool {
        let allowed = match game.enter {
            Enter::Always => true,
            Enter::OnFace(f) => roll.shows(f),
        } && (game.finish != Finish::Exact
            || game.enter_at_start
            || game.count(roll) <= game.cells);
        // `contains` on `u16` is a call that is not inlined: a loop here.
        #[allow(clippy::manual_contains)]
        let out = self.pieces(self.to_roll()).iter().any(|&p| p == OUT);
        allowed && out
    }

    fn can_move_from(&self, game: &RaceGame, from: u16, count: u16) -> bool {
        from != OUT
            && from < game.cells
            && (game.finish != Finish::Exact || from + count <= game.cells)
    }

    /// The index of a piece of the seat to roll on `cell` that may move.
    fn movable_at(&self, game: &RaceGame, cell: u16, count: u16) -> Option<usize> {
        let k = usize::from(self.pieces);
        let base = self.to_roll() * k;
        if !self.can_move_from(game, cell, count) {
            return None;
        }
        let pos = self.pos.get(base..base + k)?;
        let held = self.held.get(base..base + k)?;
        let n = pos.iter().zip(held).position(|(&p, &h)| p == cell && !h)?;
        Some(base + n)
    }

    /// The legal choices for `roll`, into `out`: `enter` first, then the
    /// cells of the pieces that can move, nearest the finish first; `pass`
    /// when there is nothing else (or always, with `move optional`). Empty
    /// once the game is over.
    #[inline]
    pub fn choices(&self, game: &RaceGame, roll: &Roll, out: &mut Vec<Choice>) {
        out.clear();
        if self.over {
            return;
        }
        if self.roll_rules_hold(game, roll) {
            self.choices_after_roll_rules(game, roll, out);
            return;
        }
        self.move_choices(game, roll, out);
    }

    /// `choices` when rules of the roll hold: they come first, and the
    /// choices are those of the position they leave.
    #[inline(never)]
    fn choices_after_roll_rules(&self, game: &RaceGame, roll: &Roll, out: &mut Vec<Choice>) {
        let mut after = self.clone();
        let mut events = Vec::new();
        if after.apply_roll_rules(game, roll, &mut events) {
            out.push(Choice::Pass);
        } else {
            after.move_choices(game, roll, out);
        }
    }

    /// The choices of the move, the rules of the roll aside.
    #[inline]
    fn move_choices(&self, game: &RaceGame, roll: &Roll, out: &mut Vec<Choice>) {
        if game.restricted {
            self.restricted_choices(game, roll, out);
            return;
        }
        if self.may_enter(game, roll) {
            out.push(Choice::Enter);
        }
        let count = roll.sum();
        let first = out.len();
        let k = usize::from(self.pieces);
        let base = self.to_roll() * k;
        let pos = self.pos.get(base..base + k).unwrap_or(&[]);
        let held = self.held.get(base..base + k).unwrap_or(&[]);
        // `can_move_from` as one range: cells 1 to `top`.
        let top = if game.finish == Finish::Exact {
            game.cells
                .saturating_sub(count)
                .min(game.cells.saturating_sub(1))
        } else {
            game.cells.saturating_sub(1)
        };
        // One piece each: a move of it or nothing (no order to keep).
        if let ([p], [h]) = (pos, held) {
            if !h && *p != OUT && *p <= top {
                out.push(Choice::Move(*p));
            }
            if out.is_empty() || !game.compulsory {
                out.push(Choice::Pass);
            }
            return;
        }
        // Two pieces each: the cells of those that can move, the nearest
        // the finish first, a cell once.
        if let ([p, q], [hp, hq]) = (pos, held) {
            let movable = |c: u16, h: bool| !h && c != OUT && c <= top;
            match (movable(*p, *hp), movable(*q, *hq)) {
                (true, true) if p == q => out.push(Choice::Move(*p)),
                (true, true) => {
                    out.push(Choice::Move(*p.max(q)));
                    out.push(Choice::Move(*p.min(q)));
                }
                (true, false) => out.push(Choice::Move(*p)),
                (false, true) => out.push(Choice::Move(*q)),
                (false, false) => {}
            }
            if out.is_empty() || !game.compulsory {
                out.push(Choice::Pass);
            }
            return;
        }
        for (&p, &h) in pos.iter().zip(held) {
            if h || p == OUT || p > top {
                continue;
            }
            // A cell once, nearest the finish first (insertion by cell):
            // the moves listed go down, so a cell listed already is met
            // just before the place of `p`.
            let mut j = out.len();
            while j > first && out.get(j - 1).map_or(0, Choice::cell) < p {
                j -= 1;
            }
            if j > first && out.get(j - 1).map_or(0, Choice::cell) == p {
                continue;
            }
            out.insert(j, Choice::Move(p));
        }
        if out.is_empty() || !game.compulsory {
            out.push(Choice::Pass);
        }
    }

    fn is_legal(&self, game: &RaceGame, roll: &Roll, choice: Choice) -> bool {
        if game.restricted {
            if game.each_die {
                return self.dice_legal(game, roll, choice);
            }
            let mut listed = Vec::new();
            self.restricted_choices(game, roll, &mut listed);
            return listed.contains(&choice);
        }
        match choice {
            Choice::Enter => self.may_enter(game, roll),
            Choice::Move(c) => self.movable_at(game, c, roll.sum()).is_some(),
            Choice::Dice(_) => false,
            Choice::Pass => {
                if !game.compulsory {
                    return true;
                }
                let count = roll.sum();
                let k = usize::from(self.pieces);
                let base = self.to_roll() * k;
                !self.may_enter(game, roll)
                    && (base..base + k)
                        .all(|i| self.held[i] || !self.can_move_from(game, self.pos[i], count))
            }
        }
    }

    /// Whether a rule of the roll holds for `roll` (the doubles in a row
    /// counted with it).
    #[inline]
    fn roll_rules_hold(&self, game: &RaceGame, roll: &Roll) -> bool {
        if game.roll_rules.is_empty() {
            return false;
        }
        let doubles = self.doubles_with(roll);
        let same = self.same_with(roll).0;
        game.roll_rules.iter().any(|r| r.holds(roll, doubles, same))
    }

    fn same_with(&self, roll: &Roll) -> (u8, [u8; MAX_DICE]) {
        let faces = roll.sorted();
        if self.same.0 > 0 && self.same.1 == faces {
            (self.same.0.saturating_add(1), faces)
        } else {
            (1, faces)
        }
    }

    fn doubles_with(&self, roll: &Roll) -> u8 {
        if roll.is_double() {
            self.doubles.saturating_add(1)
        } else {
            0
        }
    }

    /// Counts the roll in the doubles in a row and applies the rules of the
    /// roll that hold; whether one ended the turn.
    fn apply_roll_rules(&mut self, game: &RaceGame, roll: &Roll, events: &mut Vec<Event>) -> bool {
        self.doubles = self.doubles_with(roll);
        self.same = self.same_with(roll);
        let seat = self.to_roll();
        let mut ended = false;
        for (id, rule) in game.roll_rules.iter().enumerate() {
            if !rule.holds(roll, self.doubles, self.same.0) {
                continue;
            }
            events.push(Event::RollRule { rule: id as u16 });
            for &e in &rule.effects {
                match e {
                    CellEffect::Targeted(t, a) => {
                        let mut none = OUT;
                        self.target(game, seat, None, OUT, 0, t, a, &mut none, events);
                    }
                    CellEffect::Miss(k) => {
                        if let Some(o) = self.owed.get_mut(seat) {
                            *o = o.saturating_add(k);
                        }
                    }
                    CellEffect::EndTurn => ended = true,
                    _ => {}
                }
            }
        }
        ended
    }

    /// The extra-roll effects of the rules of the roll that hold:
    /// `Some(true)` given, `Some(false)` lost.
    fn roll_rules_extra(&self, game: &RaceGame, roll: &Roll) -> Option<bool> {
        let mut extra = None;
        if game.roll_rules.is_empty() {
            return extra;
        }
        for rule in game
            .roll_rules
            .iter()
            .filter(|r| r.holds(roll, self.doubles, self.same.0))
        {
            for e in &rule.effects {
                match e {
                    CellEffect::ExtraRoll => extra = Some(true),
                    CellEffect::NoExtraRoll | CellEffect::EndTurn => extra = Some(false),
                    _ => {}
                }
            }
        }
        extra
    }

    /// Plays a turn of the seat to roll: `roll`, then `choice` (one of
    /// `choices`). The events go to `events` (cleared first). On an illegal
    /// roll or choice nothing changes.
    pub fn apply(
        &mut self,
        game: &RaceGame,
        roll: &Roll,
        choice: Choice,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        self.begin_turn(game, roll, events)?;
        if !self.allows(game, roll, choice) {
            return Err(Illegal::NotAChoice);
        }
        self.play_turn(game, roll, choice, events);
        Ok(())
    }

    /// Whether the rules allow `choice` for `roll`: one of `choices`, or,
    /// with dice used one by one, the moves of one of them in another
    /// order that can be played (`p8-p4 p6-p4` as well as `p6-p4 p8-p4`).
    pub fn allows(&self, game: &RaceGame, roll: &Roll, choice: Choice) -> bool {
        if self.roll_rules_hold(game, roll) {
            let mut after = self.clone();
            let mut scratch = Vec::new();
            if after.apply_roll_rules(game, roll, &mut scratch) {
                choice == Choice::Pass
            } else {
                after.is_legal(game, roll, choice)
            }
        } else {
            self.is_legal(game, roll, choice)
        }
    }

    /// `apply` for a choice just listed by `choices` for this state and
    /// `roll`: its legality is not checked again (the fast path of random
    /// players). A choice from elsewhere plays a turn the rules may not
    /// allow, but nothing fails.
    pub fn apply_listed(
        &mut self,
        game: &RaceGame,
        roll: &Roll,
        choice: Choice,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        self.begin_turn(game, roll, events)?;
        self.play_turn(game, roll, choice, events);
        Ok(())
    }

    /// The head of `apply` and `apply_listed`: clears the events; an error
    /// once the game is over or for dice not of this game.
    fn begin_turn(
        &self,
        game: &RaceGame,
        roll: &Roll,
        events: &mut Vec<Event>,
    ) -> Result<(), Illegal> {
        events.clear();
        if self.over {
            return Err(Illegal::GameOver);
        }
        self.check_roll(game, roll)
    }

    /// Plays a legal turn (see `apply`).
    #[inline]
    fn play_turn(&mut self, game: &RaceGame, roll: &Roll, choice: Choice, events: &mut Vec<Event>) {
        let mut ended = false;
        if self.roll_rules_hold(game, roll) {
            ended = self.apply_roll_rules(game, roll, events);
        } else if !game.roll_rules.is_empty() {
            // Only rules of the roll count the rolls in a row.
            self.doubles = self.doubles_with(roll);
            self.same = self.same_with(roll);
        }
        let seat = self.to_roll;
        let count = game.count(roll);
        let earned = match game.extra {
            Extra::Never => false,
            Extra::Doubles => roll.is_double(),
            Extra::OnFace(f) => roll.shows(f),
            Extra::OnValues(mask) => extra_on_values(game, roll, mask),
        };
        let mut extra = earned;
        let mut lost = false;
        match self.roll_rules_extra(game, roll) {
            Some(false) => {
                lost = earned;
                extra = false;
            }
            Some(true) => extra = true,
            None => {}
        }
        if game.each_die {
            self.play_dice(game, roll, choice, ended, extra, lost, events);
            return;
        }
        let k = usize::from(self.pieces);
        let base = usize::from(seat) * k;
        // `move back when blocked`: a move of a turn with no forward move
        // goes back.
        let mut back = false;
        let piece = match choice {
            _ if ended => None,
            Choice::Pass => None,
            Choice::Enter => (base..base + k).find(|&i| self.pos[i] == OUT),
            Choice::Move(c) if game.move_back && self.moves_back(game, roll) => {
                back = true;
                (base..base + k).find(|&i| self.pos[i] == c && !self.held[i])
            }
            Choice::Move(c) => self.movable_at(game, c, count),
            Choice::Dice(_) => None,
        };
        match piece {
            None if ended => {}
            None => events.push(Event::Pass),
            Some(i) => {
                let landed = self.move_piece(game, roll, seat, i, back, count, events);
                if landed.miss > 0 {
                    let o = &mut self.owed[usize::from(seat)];
                    *o = o.saturating_add(landed.miss);
                }
                match landed.extra {
                    Some(false) => {
                        lost = earned;
                        extra = false;
                    }
                    Some(true) => extra = true,
                    None => {}
                }
            }
        }
        self.rolls += 1;
        self.settle(game, usize::from(seat), piece, events);
        if self.over {
            return;
        }
        if lost {
            events.push(Event::LostExtraRoll);
        }
        if extra && !ended && !self.is_placed(usize::from(seat)) {
            events.push(Event::ExtraRoll);
        } else if game.tries > 1 && !ended && self.tries_again(game, roll, piece.is_some()) {
            events.push(Event::Retry {
                next: self.tries + 1,
                of: game.tries,
            });
        } else {
            self.next_turn(events);
        }
    }

    /// Moves piece `i` of seat `seat` by `count`: forward from where it
    /// stands (an out piece enters), or back (`back`: `move back when
    /// blocked`), telling it as `Enter` or `Move`; then the landing rules
    /// of the landing cell and the resting rules of the cell where it comes
    /// to rest. What the landing rules leave to the turn (turns to miss, an
    /// extra roll) is the caller's to apply. The one move of a piece by the
    /// whole roll, and of a die that moves a piece back.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn move_piece(
        &mut self,
        game: &RaceGame,
        roll: &Roll,
        seat: u8,
        i: usize,
        back: bool,
        count: u16,
        events: &mut Vec<Event>,
    ) -> Landed {
        let base = usize::from(seat) * usize::from(self.pieces);

        if let Some(m) = self.last_moved.get_mut(usize::from(seat)) {
            *m = (i - base) as u8;
        }
        let from = self.pos[i];
        let entering = from == OUT;
        let (land, dir) = if back {
            (from.saturating_sub(count), -1)
        } else if entering && game.enter_at_start {
            (1, 1)
        } else {
            game.advance(from, count, 1)
        };
        events.push(Event::moved(from, land, count, dir < 0 && !back));
        self.held[i] = false;
        let mut landed = Landed {
            at: land,
            dir,
            ..Landed::default()
        };
        // A cell without landing rules leaves the piece as it is;
        // most others have their landing worked out already.
        let mut plan = if land != OUT && land < game.cells {
            game.landing_plan(entering, usize::from(seat), land)
        } else {
            LandingPlan::Nothing
        };
        // The plans are of moves forward.
        if back && plan != LandingPlan::Nothing {
            plan = LandingPlan::Live;
        }
        // A plan by count ends with a direction of its own.
        let mut own_dir = true;
        if let LandingPlan::ByCount { start } = plan {
            plan = game.count_plan(start, count, dir);
            own_dir = false;
        }
        if let LandingPlan::Fixed {
            landed: planned,
            fired,
        } = plan
        {
            landed = if own_dir {
                Landed { dir, ..planned }
            } else {
                planned
            };
            let told = game
                .fired
                .get(fired.0 as usize..fired.1 as usize)
                .unwrap_or(&[]);
            for f in told {
                events.push(Event::Rule {
                    rule: f.rule,
                    at: f.at,
                    then: f.then,
                    count,
                    blocked: f.blocked,
                });
            }
        } else if plan == LandingPlan::Live {
            let s = usize::from(seat);
            landed = game.land(
                s,
                land,
                count,
                dir,
                |r| r.roll_holds(entering, roll),
                |rule, at, then, blocked| {
                    let Some(r) = game.rules.get(usize::from(rule)) else {
                        return;
                    };
                    let event = Event::Rule {
                        rule,
                        at,
                        then: *then,
                        count,
                        blocked,
                    };
                    let before = events.len();
                    if !r.only_targets {
                        events.push(event);
                    }
                    if r.targets {
                        self.rule_targets(game, s, i, from, at, r, then, events);
                    }
                    // A rule that only moves the pieces its targets
                    // pick is told when it moved some.
                    if r.only_targets && events.len() > before && !r.bump_like {
                        events.insert(before, event);
                    }
                },
            );
        }
        let p = landed.at;
        self.pos[i] = p;
        let home = game.home_from();
        if p >= game.cells {
            if from < home {
                events.push(Event::Finish);
            }
        } else if p != OUT {
            if p >= home && from < home {
                events.push(Event::Finish);
            }
            // Without resting rules there, and with nothing held
            // anywhere, the piece just stays.
            let s = usize::from(seat);
            match game.resting_plan(s, p) {
                RestingPlan::Nothing => {}
                // Planned only where the cell is not safe.
                RestingPlan::SendOut { opponents } => {
                    self.send_out_at(game, s, Some(i), p, opponents, events);
                }
                RestingPlan::Free => {
                    self.free_held(game, s, i, p, events);
                    if landed.held {
                        self.held[i] = true;
                    }
                }
                RestingPlan::Live => self.rest(
                    game,
                    s,
                    i,
                    from,
                    p,
                    count,
                    entering,
                    roll,
                    &mut landed,
                    events,
                ),
            }
        }
        landed
    }

    /// After a roll of the seat to roll that earned no extra roll, in a
    /// game with `tries`: whether they roll again because no piece of
    /// theirs could move whatever the roll and this roll let none enter
    /// (MA-4); a roll that moved a piece starts the count again.
    #[inline(never)]
    fn tries_again(&mut self, game: &RaceGame, roll: &Roll, moved: bool) -> bool {
        if moved {
            self.tries = 0;
            return false;
        }
        self.tries = self.tries.saturating_add(1);
        self.tries < game.tries && !self.may_enter(game, roll) && self.none_can_move(game)
    }

    /// Whether no piece of the seat to roll on the track can move, whatever
    /// the roll: no count from the smallest sum to the largest moves one to
    /// a cell that the rules of the choices allow (its landing cell).
    pub fn none_can_move(&self, game: &RaceGame) -> bool {
        let (low, high) = game.sums();
        self.none_moves_by_counts(game, low, high)
    }

    /// Whether no piece of the seat to roll on the track can move by any
    /// count from `low` to `high` to a cell that the rules of the choices
    /// allow: the test of `none_can_move` (the sums) and of dice used one by
    /// one (the faces of a die).
    pub(crate) fn none_moves_by_counts(&self, game: &RaceGame, low: u16, high: u16) -> bool {
        let seat = self.to_roll();
        let k = usize::from(self.pieces);
        (seat * k..seat * k + k).all(|i| {
            let from = self.pos[i];
            self.held[i]
                || (low..=high).all(|count| {
                    // A count of 0 (a throw, or a die, worth 0) moves nothing.
                    count == 0
                        || !self.can_move_from(game, from, count)
                        || self
                            .own_in_way(
                                game,
                                seat,
                                Some(i),
                                from,
                                game.advance(from, count, 1).0,
                                None,
                            )
                            .is_some()
                })
        })
    }

    /// Where seat `seat`'s piece at `from` (`OUT`: entering) lands with
    /// `roll`, and where its landing rules leave it; `None` when it can't
    /// move.
    fn destination(
        &self,
        game: &RaceGame,
        seat: usize,
        from: u16,
        roll: &Roll,
    ) -> Option<(u16, u16)> {
        let count = game.count(roll);
        let entering = from == OUT;
        let land = if entering && game.enter_at_start {
            1
        } else if entering || self.can_move_from(game, from, count) {
            game.advance(from, count, 1).0
        } else {
            return None;
        };
        if land == OUT || land >= game.cells {
            return Some((land, land));
        }
        let rest = match game.landing_plan(entering, seat, land) {
            LandingPlan::Nothing => land,
            LandingPlan::Fixed { landed, .. } => landed.at,
            _ => {
                game.land(
                    seat,
                    land,
                    count,
                    1,
                    |r| r.roll_holds(entering, roll),
                    |_, _, _, _| {},
                )
                .at
            }
        };
        Some((land, rest))
    }

    /// The rule of landing and passing that forbids a move of seat `seat`'s
    /// piece `mover` (`None`: entering) from `from` that lands on `land` and
    /// comes to rest on `rest`, if one does: pieces of its own, closed
    /// cells, points and blockades, protected rows, no passing. The one
    /// check of both kinds of move, by the whole roll and by each die.
    pub(super) fn landing_refusal(
        &self,
        game: &RaceGame,
        seat: usize,
        mover: Option<usize>,
        from: u16,
        land: u16,
        rest: u16,
    ) -> Option<Refusal> {
        // Only these make `own_in_way` find something.
        let kept = game.circuit.as_ref().is_some_and(|c| c.kept);
        if game.no_landing_own || kept || !game.closed.is_empty() {
            if let Some(r) = self.own_in_way(game, seat, mover, from, land, Some(rest)) {
                return Some(r);
            }
        }
        if game.point > 0 || game.stack_landing > 0 {
            if let Some(r) = self.held_in_way(game, seat, land) {
                return Some(r);
            }
            if rest != land {
                if let Some(r) = self.held_in_way(game, seat, rest) {
                    return Some(r);
                }
            }
        }
        if game.rows_or_passing() {
            return self.rows_in_way(game, seat, from, land, rest);
        }
        None
    }

    /// Whether the cell where seat `seat`'s piece at `at` would stand is
    /// held by so many pieces of one seat that it can't land there: `no
    /// landing on N or more opponent pieces` (a point, the opponents') or
    /// `no landing on N or more pieces` (a blockade, anyone's).
    fn held_in_way(&self, game: &RaceGame, seat: usize, at: u16) -> Option<Refusal> {
        if at == OUT || at >= game.cells {
            return None;
        }
        let spot = game.spot(seat, at);
        let limit = |whose: usize| {
            let point = if whose == seat { 0 } else { game.point };
            match (point, game.stack_landing) {
                (0, s) => s,
                (p, 0) => p,
                (p, s) => p.min(s),
            }
        };
        for whose in 0..self.players() {
            let n = limit(whose);
            if n == 0 {
                continue;
            }
            let held = self
                .pieces(whose)
                .iter()
                .filter(|&&q| q != OUT && game.spot(whose, q) == spot)
                .count();
            if held >= usize::from(n) {
                let point = whose != seat && game.point > 0 && held >= usize::from(game.point);
                let (seat, pieces) = (whose as u8, held.min(usize::from(u8::MAX)) as u8);
                return Some(if point {
                    Refusal::Point { at, seat, pieces }
                } else {
                    Refusal::OnBlockade { at, seat, pieces }
                });
            }
        }
        None
    }

    /// The piece of seat `seat` (but the mover, piece `mover`) that forbids
    /// a move from `from` landing on `land` and coming to rest on `rest`:
    /// one on either cell (`no landing on own pieces`, or a kept home
    /// cell), or one passed on the kept home cells.
    fn own_in_way(
        &self,
        game: &RaceGame,
        seat: usize,
        mover: Option<usize>,
        from: u16,
        land: u16,
        rest: Option<u16>,
    ) -> Option<Refusal> {
        let k = usize::from(self.pieces);
        let kept_from = match &game.circuit {
            Some(c) if c.kept => c.cells + 1,
            _ => u16::MAX,
        };
        let rest = rest.unwrap_or(land);
        if !game.closed.is_empty() {
            if let Some(r) = self.closed_in_way(game, seat, mover, land, rest) {
                return Some(r);
            }
        }
        for j in seat * k..seat * k + k {
            let q = self.pos[j];
            if Some(j) == mover || q == OUT || (q >= game.cells && kept_from == u16::MAX) {
                continue;
            }
            let home = q >= kept_from;
            if (game.no_landing_own || home) && (q == land || q == rest) {
                return Some(Refusal::OwnPiece { at: q });
            }
            if home && from < q && q < land {
                return Some(Refusal::PassesOwn { at: q });
            }
        }
        None
    }

    /// Whether a move of seat `seat`'s piece `mover` that lands on `land`
    /// and comes to rest on `rest` lands on a closed cell held by another
    /// piece, whoever's it is.
    fn closed_in_way(
        &self,
        game: &RaceGame,
        seat: usize,
        mover: Option<usize>,
        land: u16,
        rest: u16,
    ) -> Option<Refusal> {
        let k = usize::from(self.pieces).max(1);
        for at in [land, rest] {
            if at == OUT || at >= game.cells || !game.is_closed(game.rule_cell(seat, at)) {
                continue;
            }
            let spot = game.spot(seat, at);
            let taken = self
                .pos
                .iter()
                .enumerate()
                .any(|(j, &q)| Some(j) != mover && q != OUT && game.spot(j / k, q) == spot);
            if taken {
                return Some(Refusal::Closed { at });
            }
        }
        None
    }

    /// The choices of a game with rules of the choices beyond the usual
    /// ones (`RaceSettings::restricted`): no landing on own pieces, kept
    /// home cells, `leave start first`, `enter compulsory`.
    #[inline(never)]
    fn restricted_choices(&self, game: &RaceGame, roll: &Roll, out: &mut Vec<Choice>) {
        if game.each_die {
            self.dice_choices(game, roll, out);
            return;
        }
        let seat = self.to_roll();
        let k = usize::from(self.pieces);
        let count = game.count(roll);
        // A throw of 0 moves nothing (sticks).
        if count == 0 {
            out.push(Choice::Pass);
            return;
        }
        let enter = self.may_enter(game, roll) && self.entry_open(game, seat, roll).is_none();
        let first = out.len();
        for i in seat * k..seat * k + k {
            let from = self.pos[i];
            if self.held[i] || !self.can_move_from(game, from, count) {
                continue;
            }
            let Some((land, rest)) = self.destination(game, seat, from, roll) else {
                continue;
            };
            if self
                .landing_refusal(game, seat, Some(i), from, land, rest)
                .is_none()
                && !out.contains(&Choice::Move(from))
            {
                out.push(Choice::Move(from));
            }
        }
        // Nearest the finish first.
        if let Some(moves) = out.get_mut(first..) {
            moves.sort_by_key(|c| std::cmp::Reverse(c.cell()));
        }
        let waiting = self.pieces(seat).contains(&OUT);
        if game.leave_start && waiting && out.contains(&Choice::Move(1)) {
            out.truncate(first);
            out.push(Choice::Move(1));
            return;
        }
        if enter && game.enter_compulsory {
            out.truncate(first);
            out.push(Choice::Enter);
            return;
        }
        if enter {
            out.insert(first, Choice::Enter);
        }
        if game.move_back && out.len() == first {
            self.back_choices(game, roll, out);
        }
        if out.len() == first || !game.compulsory {
            out.push(Choice::Pass);
        }
    }

    /// `move back when blocked`: the moves back by the roll of the seat to
    /// roll's pieces on the track, into `out`, under the rules of the
    /// choices (nearest the finish first).
    #[inline(never)]
    fn back_choices(&self, game: &RaceGame, roll: &Roll, out: &mut Vec<Choice>) {
        let seat = self.to_roll();
        let k = usize::from(self.pieces);
        let first = out.len();
        for i in seat * k..seat * k + k {
            let from = self.pos[i];
            if out.contains(&Choice::Move(from)) {
                continue;
            }
            if self.back_refusal(game, seat, i, roll, game.count(roll)) == Some(None) {
                out.push(Choice::Move(from));
            }
        }
        if let Some(moves) = out.get_mut(first..) {
            moves.sort_by_key(|c| std::cmp::Reverse(c.cell()));
        }
    }

    /// Whether the seat to roll moves back this turn (`move back when
    /// blocked`: no piece can move forward nor enter with `roll`).
    fn moves_back(&self, game: &RaceGame, roll: &Roll) -> bool {
        if !game.move_back || game.count(roll) == 0 {
            return false;
        }
        let seat = self.to_roll();
        let k = usize::from(self.pieces);
        let enters = self.may_enter(game, roll) && self.entry_open(game, seat, roll).is_none();
        !enters
            && (seat * k..seat * k + k)
                .all(|i| self.forward_refusal(game, seat, i, roll) != Some(None))
    }

    /// For piece `i` of seat `seat` moving forward with `roll`: `None`
    /// when it can't move at all, `Some(None)` when it may, `Some(Some(r))`
    /// when a rule of the choices forbids it.
    fn forward_refusal(
        &self,
        game: &RaceGame,
        seat: usize,
        i: usize,
        roll: &Roll,
    ) -> Option<Option<Refusal>> {
        let from = self.pos[i];
        if self.held[i] || !self.can_move_from(game, from, game.count(roll)) {
            return None;
        }
        let (land, rest) = self.destination(game, seat, from, roll)?;
        Some(self.landing_refusal(game, seat, Some(i), from, land, rest))
    }

    /// For piece `i` of seat `seat` moving back by `count` with `roll`
    /// (`move back when blocked`: the roll's count, or a die's):
    /// `None` when it can't (not on the track, held, or the count would
    /// take it past the start), `Some(None)` when it may, `Some(Some(r))`
    /// when a rule of the choices forbids it.
    pub(super) fn back_refusal(
        &self,
        game: &RaceGame,
        seat: usize,
        i: usize,
        roll: &Roll,
        count: u16,
    ) -> Option<Option<Refusal>> {
        let from = self.pos[i];
        if self.held[i] || from == OUT || from >= game.cells || count == 0 || count >= from {
            return None;
        }
        let land = from - count;
        let rest = game
            .land(
                seat,
                land,
                count,
                -1,
                |r| r.roll_holds(false, roll),
                |_, _, _, _| {},
            )
            .at;
        Some(self.landing_refusal(game, seat, Some(i), from, land, rest))
    }

    /// The rule of landing and passing (`protected in rows`, `no passing
    /// rows`, `no passing cells`) that forbids a move of seat `seat`'s
    /// piece from `from` (`OUT`: entering) that lands on `land` and comes
    /// to rest on `rest`, if one does.
    fn rows_in_way(
        &self,
        game: &RaceGame,
        seat: usize,
        from: u16,
        land: u16,
        rest: u16,
    ) -> Option<Refusal> {
        if game.protect_rows > 0 {
            for at in [land, rest] {
                if let Some(row) = self.opponent_row(game, seat, at) {
                    if row >= game.protect_rows {
                        return Some(Refusal::Protected { at, row });
                    }
                }
            }
        }
        if game.pass_rows == 0 && game.pass_stack == 0 && game.no_passing.is_empty() {
            return None;
        }
        let (low, high) = (from.min(land), from.max(land));
        for at in low.saturating_add(1)..high.min(game.cells) {
            // Cells no one passes are passed on the way forward only.
            if land > from && game.is_no_passing(game.rule_cell(seat, at)) {
                return Some(Refusal::NoPassing { at });
            }
            if game.pass_stack > 0 {
                if let Some(pieces) = self.stack_at(game, seat, at) {
                    if pieces >= game.pass_stack {
                        return Some(Refusal::Stack { at, pieces });
                    }
                }
            }
            if game.pass_rows > 0 {
                if let Some(row) = self.opponent_row(game, seat, at) {
                    if row >= game.pass_rows {
                        return Some(Refusal::Blockade { at, row });
                    }
                }
            }
        }
        None
    }

    /// The most pieces of one seat (any seat) where seat `seat`'s piece at
    /// `at` would stand, if any piece is there.
    fn stack_at(&self, game: &RaceGame, seat: usize, at: u16) -> Option<u8> {
        if at == OUT || at >= game.cells {
            return None;
        }
        let spot = game.spot(seat, at);
        (0..self.players())
            .map(|whose| {
                self.pieces(whose)
                    .iter()
                    .filter(|&&q| game.spot(whose, q) == spot)
                    .count() as u8
            })
            .filter(|&n| n > 0)
            .max()
    }

    /// The length of the row of an opponent's pieces (cells in a row of
    /// their path, each holding a piece of theirs) with a piece where seat
    /// `seat`'s piece at `at` stands, if an opponent's piece is there.
    fn opponent_row(&self, game: &RaceGame, seat: usize, at: u16) -> Option<u8> {
        if at == OUT || at >= game.cells {
            return None;
        }
        let spot = game.spot(seat, at);
        for whose in (0..self.players()).filter(|&w| w != seat) {
            let pieces = self.pieces(whose);
            let Some(&q) = pieces.iter().find(|&&q| game.spot(whose, q) == spot) else {
                continue;
            };
            let held = |p: u16| p != OUT && p < game.cells && pieces.contains(&p);
            let mut row = 1u8;
            let mut p = q;
            while p > 1 && held(p - 1) {
                row = row.saturating_add(1);
                p -= 1;
            }
            p = q;
            while held(p + 1) {
                row = row.saturating_add(1);
                p += 1;
            }
            return Some(row);
        }
        None
    }

    /// Why an out piece of seat `seat` can't enter with `roll` by the rules
    /// of the choices (a piece of theirs where it would land), if so.
    fn entry_open(&self, game: &RaceGame, seat: usize, roll: &Roll) -> Option<Refusal> {
        let (land, rest) = self.destination(game, seat, OUT, roll)?;
        self.landing_refusal(game, seat, None, OUT, land, rest)
    }

    /// Which rule of the choices beyond the usual ones (`no landing on own
    /// pieces`, kept home cells, `leave start first`, `enter compulsory`)
    /// rules out `choice` for `roll`, for the seat to roll; `None` when none
    /// does (the choice may still be illegal for the usual reasons).
    pub fn refusal(&self, game: &RaceGame, roll: &Roll, choice: Choice) -> Option<Refusal> {
        if !game.restricted || self.over {
            return None;
        }
        if game.each_die {
            return self.dice_refusal(game, roll, choice);
        }
        let seat = self.to_roll();
        let mut listed = Vec::new();
        self.restricted_choices(game, roll, &mut listed);
        if listed.contains(&choice) {
            return None;
        }
        if game.count(roll) == 0 && choice != Choice::Pass {
            return Some(Refusal::ZeroThrow);
        }
        let k = usize::from(self.pieces);
        match choice {
            Choice::Enter if self.may_enter(game, roll) => {
                if let Some(r) = self.entry_open(game, seat, roll) {
                    return Some(r);
                }
            }
            Choice::Move(c) => {
                let count = game.count(roll);
                if self.moves_back(game, roll) {
                    // A turn with no forward move: the moves back are the
                    // choices.
                    let i = (seat * k..seat * k + k).find(|&i| self.pos[i] == c)?;
                    if let Some(Some(r)) = self.back_refusal(game, seat, i, roll, game.count(roll))
                    {
                        return Some(r);
                    }
                    return None;
                }
                let i = (seat * k..seat * k + k).find(|&i| {
                    self.pos[i] == c && !self.held[i] && self.can_move_from(game, c, count)
                })?;
                let (land, rest) = self.destination(game, seat, c, roll)?;
                if let Some(r) = self.landing_refusal(game, seat, Some(i), c, land, rest) {
                    return Some(r);
                }
            }
            _ => {}
        }
        match listed.as_slice() {
            [Choice::Move(1)] if game.leave_start => Some(Refusal::StartFirst),
            [Choice::Enter] if game.enter_compulsory => Some(Refusal::MustEnter),
            _ => None,
        }
    }

    /// Whether seat `seat` is home under the `win` rule.
    fn is_home(&self, game: &RaceGame, seat: usize) -> bool {
        let pieces = self.pieces(seat);
        let home = game.home_from();
        match game.win {
            Win::FirstPiece => pieces.iter().any(|&p| p >= home),
            Win::AllPieces => pieces.iter().all(|&p| p >= home),
        }
    }

    /// After a turn of `mover`, in which piece `moved` (if any) moved: the
    /// players who got home take their places (the mover first), the game
    /// ends when the outcome is known, or as a draw when no player can ever
    /// move again.
    fn settle(
        &mut self,
        game: &RaceGame,
        mover: usize,
        moved: Option<usize>,
        events: &mut Vec<Event>,
    ) {
        let n = self.players();
        let plays_on = game.order || game.outcome != crate::race::game::Outcome::FirstHomeWins;
        // A seat is home only with a piece at the finish (one piece each at
        // least), with `win all pieces` only with as many as a seat has:
        // most turns there are not that many, and no seat need be looked
        // at.
        let home = game.home_from();
        let finished = |p: &&u16| **p >= home;
        let someone_finished = self.pieces == 0
            || match game.win {
                Win::FirstPiece => self.pos.iter().any(|p| finished(&p)),
                Win::AllPieces => {
                    self.pos.iter().filter(finished).count() >= usize::from(self.pieces)
                }
            };
        for step in 0..if someone_finished { n } else { 0 } {
            let seat = if mover + step >= n {
                mover + step - n
            } else {
                mover + step
            };
            if self.over || self.is_placed(seat) || !self.is_home(game, seat) {
                continue;
            }
            self.places.push(seat as u8);
            if !plays_on {
                self.over = true;
                self.winner = Some(seat as u8);
                events.push(Event::Won { seat: seat as u8 });
                return;
            }
            events.push(Event::Placed {
                seat: seat as u8,
                place: self.places.len() as u8,
                home: true,
            });
        }
        if plays_on && !self.places.is_empty() && self.places.len() + 1 >= n {
            if let Some(last) = (0..n).find(|&s| !self.is_placed(s)) {
                self.places.push(last as u8);
                events.push(Event::Placed {
                    seat: last as u8,
                    place: self.places.len() as u8,
                    home: false,
                });
            }
            self.over = true;
            let first = self.places.first().copied();
            let last = self.places.last().copied();
            use crate::race::game::Outcome;
            let (winner, loser) = match game.outcome {
                Outcome::FirstHomeWins => (first, None),
                Outcome::LastHomeLoses => (first, last),
                Outcome::FirstHomeLoses => (last, first),
                Outcome::LastHomeWins => (last, None),
            };
            self.winner = winner;
            self.loser = loser.filter(|l| Some(*l) != winner);
            if let Some(w) = self.winner {
                events.push(Event::Won { seat: w });
            }
            if let Some(l) = self.loser {
                events.push(Event::Lost { seat: l });
            }
            return;
        }
        if !self.over && game.may_stick && self.stuck(game, mover, moved) {
            self.over = true;
            self.drawn = true;
            events.push(Event::Drawn);
        }
    }

    /// Whether no player still in the game can ever move again: every piece
    /// is finished, held (nobody can come to free it), or on a cell from
    /// which even the smallest roll passes an exact finish; and no rule of
    /// the roll moves pieces (`game.may_stick` says whether that can
    /// happen at all). `moved` is a piece of seat `mover` to look at
    /// first.
    fn stuck(&self, game: &RaceGame, mover: usize, moved: Option<usize>) -> bool {
        if !game.may_stick {
            return false;
        }
        let (low, _) = game.sums();
        let k = usize::from(self.pieces);
        let piece_stuck = |i: usize| {
            let p = self.pos[i];
            p != OUT
                && (p >= game.cells
                    || self.held[i]
                    || (game.finish == Finish::Exact && p + low > game.cells))
        };
        // Most turns the piece that just moved can move again: no need to
        // look at the others.
        if let Some(i) = moved {
            if i < self.pos.len() && !piece_stuck(i) && !self.is_placed(mover) {
                return false;
            }
        }
        (0..self.players())
            .filter(|&s| !self.is_placed(s))
            .all(|s| (s * k..s * k + k).all(piece_stuck))
    }

    /// The effects with a target of landing rule `rule`, which looked at
    /// cell `at` for piece `i` of seat `seat`, come from `from` and now at
    /// `*p`.
    #[allow(clippy::too_many_arguments)]
    fn rule_targets(
        &mut self,
        game: &RaceGame,
        seat: usize,
        i: usize,
        from: u16,
        at: u16,
        rule: &CellRule,
        p: &mut u16,
        events: &mut Vec<Event>,
    ) {
        for &e in &rule.effects {
            if let CellEffect::Targeted(t, a) = e {
                self.target(game, seat, Some(i), from, at, t, a, p, events);
            }
        }
    }

    /// Applies `action` to the pieces `target` picks for seat `seat`: on
    /// cell `at` (progress of the seat) for `others` and `opponents`, not
    /// counting the moved piece `mover`, which came from `from` and whose
    /// position is `*mover_at`.
    #[allow(clippy::too_many_arguments)]
    fn target(
        &mut self,
        game: &RaceGame,
        seat: usize,
        mover: Option<usize>,
        from: u16,
        at: u16,
        target: Target,
        action: Action,
        mover_at: &mut u16,
        events: &mut Vec<Event>,
    ) {
        let k = usize::from(self.pieces);
        let now = |st: &RaceState, j: usize, mover_at: u16| {
            if Some(j) == mover {
                mover_at
            } else {
                st.pos[j]
            }
        };
        let on_track = |p: u16| p != OUT && p < game.cells;
        let pick = |st: &mut RaceState, j: usize, mover_at: &mut u16, events: &mut Vec<Event>| {
            let whose = j / k;
            let old = if Some(j) == mover {
                *mover_at
            } else {
                st.pos[j]
            };
            let new = game.act(whose, old, action);
            if new == old {
                return;
            }
            if Some(j) == mover {
                *mover_at = new;
            } else {
                st.pos[j] = new;
                st.held[j] = false;
            }
            if action == Action::Out && target.on_cell() {
                events.push(Event::Bumped {
                    seat: whose as u8,
                    at: old,
                });
            } else {
                events.push(Event::Sent {
                    seat: whose as u8,
                    from: old,
                    to: new,
                });
            }
        };
        match target {
            Target::Others | Target::Opponents if action == Action::Out => {
                self.send_out_sharing(game, seat, mover, at, target, events);
            }
            Target::Others | Target::Opponents if action == Action::Swap => {
                self.swap_sharing(game, seat, mover, from, at, target, events);
            }
            Target::Others | Target::Opponents => {
                if game.is_safe(seat, at) {
                    return;
                }
                let spot = game.spot(seat, at);
                for whose in 0..self.players() {
                    if target == Target::Opponents && whose == seat {
                        continue;
                    }
                    for j in whose * k..whose * k + k {
                        let p = self.pos[j];
                        if Some(j) == mover || !on_track(p) || game.spot(whose, p) != spot {
                            continue;
                        }
                        pick(self, j, mover_at, events);
                    }
                }
            }
            Target::Furthest | Target::Hindmost => {
                let mut best: Option<(usize, u16)> = None;
                for j in seat * k..seat * k + k {
                    let p = now(self, j, *mover_at);
                    if !on_track(p) {
                        continue;
                    }
                    let better = match best {
                        None => true,
                        Some((_, b)) => {
                            if target == Target::Furthest {
                                p > b
                            } else {
                                p < b
                            }
                        }
                    };
                    if better {
                        best = Some((j, p));
                    }
                }
                if let Some((j, _)) = best {
                    pick(self, j, mover_at, events);
                }
            }
            Target::Own => {
                for j in seat * k..seat * k + k {
                    if on_track(now(self, j, *mover_at)) {
                        pick(self, j, mover_at, events);
                    }
                }
            }
            Target::LastMoved => {
                let last = self.last_moved.get(seat).copied().unwrap_or(u8::MAX);
                let j = seat * k + usize::from(last);
                if last != u8::MAX && on_track(now(self, j, *mover_at)) {
                    pick(self, j, mover_at, events);
                }
            }
        }
    }

    /// `others out` and `opponents out` (`bump`): the pieces on track on
    /// the spot of seat `seat`'s cell `at`, but the mover, and with
    /// `opponents` the seat's own, go out; not on a safe cell.
    fn send_out_sharing(
        &mut self,
        game: &RaceGame,
        seat: usize,
        mover: Option<usize>,
        at: u16,
        target: Target,
        events: &mut Vec<Event>,
    ) {
        if game.is_safe(seat, at) {
            return;
        }
        self.send_out_at(game, seat, mover, at, target == Target::Opponents, events);
    }

    /// `send_out_sharing` on a cell known not to be safe.
    fn send_out_at(
        &mut self,
        game: &RaceGame,
        seat: usize,
        mover: Option<usize>,
        at: u16,
        opponents: bool,
        events: &mut Vec<Event>,
    ) {
        // Off the track (a rule of the roll looks at no cell) no piece on
        // the track shares the spot.
        if at == OUT || at >= game.cells {
            return;
        }
        let spot = game.spot(seat, at);
        let k = usize::from(self.pieces);
        let mover = mover.unwrap_or(usize::MAX);
        for whose in 0..self.players() {
            if opponents && whose == seat {
                continue;
            }
            for j in whose * k..whose * k + k {
                let Some(&old) = self.pos.get(j) else {
                    continue;
                };
                // The spot of a piece out (0) or finished (`u32::MAX`) is
                // none on the track.
                if game.spot(whose, old) != spot || j == mover {
                    continue;
                }
                if let Some(p) = self.pos.get_mut(j) {
                    *p = OUT;
                }
                if let Some(h) = self.held.get_mut(j) {
                    *h = false;
                }
                events.push(Event::Bumped {
                    seat: whose as u8,
                    at: old,
                });
            }
        }
    }

    /// `others swap` and `opponents swap`: the pieces on track on the spot
    /// of seat `seat`'s cell `at`, but the mover, and with `opponents` the
    /// seat's own, go to the cell the mover came from (`from`, the seat's
    /// progress; out when it entered, or when that cell is not on their
    /// path); not on a safe cell.
    #[allow(clippy::too_many_arguments)]
    fn swap_sharing(
        &mut self,
        game: &RaceGame,
        seat: usize,
        mover: Option<usize>,
        from: u16,
        at: u16,
        target: Target,
        events: &mut Vec<Event>,
    ) {
        if at == OUT || at >= game.cells || game.is_safe(seat, at) {
            return;
        }
        let spot = game.spot(seat, at);
        let cell = if from == OUT || from >= game.cells {
            0
        } else {
            game.rule_cell(seat, from)
        };
        let k = usize::from(self.pieces);
        let mover = mover.unwrap_or(usize::MAX);
        for whose in 0..self.players() {
            if target == Target::Opponents && whose == seat {
                continue;
            }
            let to = if cell == 0 {
                OUT
            } else {
                game.progress_at(whose, cell)
            };
            for j in whose * k..whose * k + k {
                let Some(&old) = self.pos.get(j) else {
                    continue;
                };
                if j == mover || game.spot(whose, old) != spot {
                    continue;
                }
                if let Some(p) = self.pos.get_mut(j) {
                    *p = to;
                }
                if let Some(h) = self.held.get_mut(j) {
                    *h = false;
                }
                events.push(Event::Sent {
                    seat: whose as u8,
                    from: old,
                    to,
                });
            }
        }
    }

    /// The resting rules where piece `i` (of seat `seat`), come from
    /// `from`, came to rest on `p`; then held pieces there are freed, and
    /// the piece maybe held.
    #[allow(clippy::too_many_arguments)]
    fn rest(
        &mut self,
        game: &RaceGame,
        seat: usize,
        i: usize,
        from: u16,
        p: u16,
        count: u16,
        entering: bool,
        roll: &Roll,
        landed: &mut Landed,
        events: &mut Vec<Event>,
    ) {
        let mut q = p;
        let mut d = 1;
        for &id in game.rules_at(Moment::Resting, seat, p) {
            let Some(rule) = game.rules.get(usize::from(id)) else {
                continue;
            };
            if !rule.roll_holds(entering, roll) {
                continue;
            }
            let applied = game.apply_effects(rule, seat, &mut q, &mut d, count, landed);
            // Pieces moved by targets are told by the pieces, after the rule
            // when it moved any (not after a `bump`, whose pieces say it).
            let before = events.len();
            let event = Event::Rule {
                rule: id,
                at: p,
                then: q,
                count,
                blocked: applied.blocked,
            };
            if !rule.only_targets {
                events.push(event);
            }
            if rule.targets {
                self.rule_targets(game, seat, i, from, p, rule, &mut q, events);
            }
            if rule.only_targets && events.len() > before && !rule.bump_like {
                events.insert(before, event);
            }
            if applied.stop {
                break;
            }
        }
        // Only a game whose rules hold pieces has any to free.
        if game.holds_pieces {
            self.free_held(game, seat, i, p, events);
        }
        self.pos[i] = q;
        if q != OUT && q < game.cells && landed.held {
            self.held[i] = true;
        }
    }

    /// The held pieces on the spot of seat `seat`'s cell `p`, but piece
    /// `i`, are freed.
    fn free_held(
        &mut self,
        game: &RaceGame,
        seat: usize,
        i: usize,
        p: u16,
        events: &mut Vec<Event>,
    ) {
        // Most turns nothing is held anywhere.
        if !self.held.contains(&true) {
            return;
        }
        let k = usize::from(self.pieces).max(1);
        let spot = game.spot(seat, p);
        for j in 0..self.pos.len() {
            if j == i || !self.held[j] || game.spot(j / k, self.pos[j]) != spot {
                continue;
            }
            self.held[j] = false;
            events.push(Event::Freed {
                seat: (j / k) as u8,
                at: self.pos[j],
            });
        }
    }

    /// The next seat in order rolls; seats that owe turns miss them first.
    /// Seats home are out of play.
    fn next_turn(&mut self, events: &mut Vec<Event>) {
        self.doubles = 0;
        self.tries = 0;
        self.same = (0, [0; MAX_DICE]);
        let n = self.players;
        let mut next = self.to_roll;
        // Most turns: the next seat is in play and owes nothing.
        let after = if next + 1 >= n { 0 } else { next + 1 };
        if self.places.is_empty() && self.owed.get(usize::from(after)) == Some(&0) {
            self.to_roll = after;
            return;
        }
        // Each round of the seats pays a turn of each debt (at most 255).
        for _ in 0..usize::from(n) * 257 {
            next = if next + 1 >= n { 0 } else { next + 1 };
            if !self.places.is_empty() && self.is_placed(usize::from(next)) {
                continue;
            }
            match self.owed.get_mut(usize::from(next)) {
                Some(o) if *o > 0 => {
                    *o -= 1;
                    events.push(Event::Skipped {
                        seat: next,
                        left: *o,
                    });
                }
                _ => break,
            }
        }
        self.to_roll = next;
    }
}

/// `extra roll on 1 4 5` (`Extra::OnValues`): with sticks, whether the
/// throw is worth one of the values; with dice, whether a die shows one.
fn extra_on_values(game: &RaceGame, roll: &Roll, mask: u64) -> bool {
    let has = |v: u16| v < 64 && mask & (1 << v) != 0;
    if game.sticks {
        has(game.count(roll))
    } else {
        roll.faces().iter().any(|&f| has(u16::from(f)))
    }
}

impl Choice {
    /// The cell of a move (0 for enter and pass).
    fn cell(&self) -> u16 {
        match self {
            Choice::Move(n) => *n,
            _ => 0,
        }
    }
}
