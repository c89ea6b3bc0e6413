//! `RaceState`: where every piece is, the turns owed, who rolls; the legal
//! choices of a roll and a turn played.

use super::{Choice, Event, Roll};
use crate::race_game::{CellEffect, Enter, Extra, Finish, Landed, RaceGame, Win, OUT};

/// Why a turn can't be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// The dice are not dice of this game.
    BadRoll(String),
    /// The choice is not one of the legal ones.
    NotAChoice,
}

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Illegal::GameOver => f.write_str("the game is over"),
            Illegal::BadRoll(why) => f.write_str(why),
            Illegal::NotAChoice => f.write_str("not a legal choice"),
        }
    }
}

/// A race game in progress.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
}

impl RaceState {
    /// The start: every piece out, the first seat to roll (SS-9).
    pub fn new(game: &RaceGame, players: usize) -> Result<RaceState, String> {
        let range = usize::from(game.min_players)..=usize::from(game.max_players);
        if !range.contains(&players) {
            return Err(format!(
                "{} is played by {} to {} players, not {players}",
                game.title, game.min_players, game.max_players
            ));
        }
        let n = players * usize::from(game.pieces);
        Ok(RaceState {
            players: players as u8,
            pieces: game.pieces,
            pos: vec![OUT; n],
            held: vec![false; n],
            owed: vec![0; players],
            to_roll: 0,
            winner: None,
            rolls: 0,
        })
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
    ) -> Result<(), String> {
        let k = usize::from(self.pieces);
        if seat >= self.players() || cells.len() != k {
            return Err(format!("seat {seat} has {k} pieces"));
        }
        if let Some(c) = cells.iter().find(|&&c| c > game.cells) {
            return Err(format!("cell {c} is off the track"));
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
        if roll.faces().len() != usize::from(game.dice) {
            return Err(Illegal::BadRoll(format!(
                "this game rolls {} dice, not {}",
                game.dice,
                roll.faces().len()
            )));
        }
        if let Some(f) = roll.faces().iter().find(|&&f| f == 0 || f > game.faces) {
            return Err(Illegal::BadRoll(format!(
                "a die of this game shows 1 to {}, not {f}",
                game.faces
            )));
        }
        Ok(())
    }

    fn may_enter(&self, game: &RaceGame, roll: &Roll) -> bool {
        let allowed = match game.enter {
            Enter::Always => true,
            Enter::OnFace(f) => roll.shows(f),
        };
        allowed && self.pieces(self.to_roll()).contains(&OUT)
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
        (base..base + k).find(|&i| self.pos[i] == cell && !self.held[i])
    }

    /// The legal choices for `roll`, into `out`: `enter` first, then the
    /// cells of the pieces that can move, nearest the finish first; `pass`
    /// when there is nothing else (or always, with `move optional`). Empty
    /// once the game is over.
    pub fn choices(&self, game: &RaceGame, roll: &Roll, out: &mut Vec<Choice>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        if self.may_enter(game, roll) {
            out.push(Choice::Enter);
        }
        let count = roll.sum();
        let first = out.len();
        for (i, &p) in self.pieces(self.to_roll()).iter().enumerate() {
            if self.can_move_from(game, p, count)
                && !self.is_held(self.to_roll(), i)
                && !out.contains(&Choice::Move(p))
            {
                out.push(Choice::Move(p));
            }
        }
        if let Some(moves) = out.get_mut(first..) {
            moves.sort_unstable_by(|a, b| b.cmp_cell(a));
        }
        if out.is_empty() || !game.compulsory {
            out.push(Choice::Pass);
        }
    }

    fn is_legal(&self, game: &RaceGame, roll: &Roll, choice: Choice) -> bool {
        match choice {
            Choice::Enter => self.may_enter(game, roll),
            Choice::Move(c) => self.movable_at(game, c, roll.sum()).is_some(),
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
        events.clear();
        if self.winner.is_some() {
            return Err(Illegal::GameOver);
        }
        self.check_roll(game, roll)?;
        if !self.is_legal(game, roll, choice) {
            return Err(Illegal::NotAChoice);
        }
        let seat = self.to_roll;
        let count = roll.sum();
        let earned = match game.extra {
            Extra::Never => false,
            Extra::Doubles => roll.is_double(),
            Extra::OnFace(f) => roll.shows(f),
        };
        let mut extra = earned;
        let mut lost = false;
        let mut finished = false;
        let k = usize::from(self.pieces);
        let base = usize::from(seat) * k;
        let piece = match choice {
            Choice::Pass => None,
            Choice::Enter => (base..base + k).find(|&i| self.pos[i] == OUT),
            Choice::Move(c) => self.movable_at(game, c, count),
        };
        match piece {
            None => events.push(Event::Pass),
            Some(i) => {
                let from = self.pos[i];
                let entering = from == OUT;
                let (land, dir) = game.advance(from, count, 1);
                events.push(if entering {
                    Event::Enter { to: land }
                } else {
                    Event::Move {
                        from,
                        to: land,
                        count,
                        bounced: dir < 0,
                    }
                });
                self.held[i] = false;
                let mut landed = Landed {
                    at: land,
                    dir,
                    ..Landed::default()
                };
                if land != OUT && land < game.cells {
                    landed = game.land(
                        land,
                        count,
                        dir,
                        |r| r.roll_holds(entering, roll),
                        |rule, at, then| {
                            events.push(Event::Rule {
                                rule,
                                at,
                                then,
                                count,
                            })
                        },
                    );
                }
                let p = landed.at;
                self.pos[i] = p;
                if p >= game.cells {
                    events.push(Event::Finish);
                    finished = true;
                } else if p != OUT {
                    self.rest(game, i, p, count, entering, roll, &mut landed, events);
                }
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
        let won = match game.win {
            Win::FirstPiece => finished,
            Win::AllPieces => self
                .pieces(usize::from(seat))
                .iter()
                .all(|&p| p >= game.cells),
        };
        if won {
            self.winner = Some(seat);
            events.push(Event::Won { seat });
            return Ok(());
        }
        if lost {
            events.push(Event::LostExtraRoll);
        }
        if extra {
            events.push(Event::ExtraRoll);
        } else {
            self.next_turn(events);
        }
        Ok(())
    }

    /// The resting rules where piece `i` came to rest on `p`; then other
    /// pieces there are bumped or freed, and the piece maybe held.
    #[allow(clippy::too_many_arguments)]
    fn rest(
        &mut self,
        game: &RaceGame,
        i: usize,
        p: u16,
        count: u16,
        entering: bool,
        roll: &Roll,
        landed: &mut Landed,
        events: &mut Vec<Event>,
    ) {
        let mut q = p;
        let mut d = 1;
        for &id in game.resting.at(p) {
            let Some(rule) = game.rules.get(usize::from(id)) else {
                continue;
            };
            if !rule.roll_holds(entering, roll) {
                continue;
            }
            let stop = game.apply_effects(rule, &mut q, &mut d, count, landed);
            // Bumps are told by the pieces they send out.
            if rule
                .effects
                .iter()
                .any(|e| !matches!(e, CellEffect::Bump | CellEffect::Stop))
            {
                events.push(Event::Rule {
                    rule: id,
                    at: p,
                    then: q,
                    count,
                });
            }
            if stop {
                break;
            }
        }
        let k = usize::from(self.pieces);
        for j in 0..self.pos.len() {
            if j == i || self.pos[j] != p {
                continue;
            }
            let seat = (j / k) as u8;
            if landed.bump {
                self.pos[j] = OUT;
                self.held[j] = false;
                events.push(Event::Bumped { seat, at: p });
            } else if self.held[j] {
                self.held[j] = false;
                events.push(Event::Freed { seat, at: p });
            }
        }
        if q == OUT {
            self.pos[i] = OUT;
        } else if landed.held {
            self.held[i] = true;
        }
    }

    /// The next seat in order rolls; seats that owe turns miss them first.
    fn next_turn(&mut self, events: &mut Vec<Event>) {
        let n = self.players;
        let mut next = (self.to_roll + 1) % n;
        while let Some(o) = self.owed.get_mut(usize::from(next)).filter(|o| **o > 0) {
            *o -= 1;
            events.push(Event::Skipped {
                seat: next,
                left: *o,
            });
            next = (next + 1) % n;
        }
        self.to_roll = next;
    }
}

impl Choice {
    /// Orders moves by cell (enter and pass first).
    fn cmp_cell(&self, other: &Choice) -> std::cmp::Ordering {
        let key = |c: &Choice| match c {
            Choice::Move(n) => *n,
            _ => 0,
        };
        key(self).cmp(&key(other))
    }
}
