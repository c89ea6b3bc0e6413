//! Dice used one by one (`move each die`): each die moves a piece on its
//! own, in the order the player chooses, a double as many times as `move
//! doubles N times` says; a turn's choice is the whole sequence
//! (`Choice::Dice`). Here too the rules that speak of single dice: points
//! (`no landing on N or more opponent pieces`), `enter first`, `bear off
//! when all in last N`, `finish exact or from furthest`, `move most dice`.
//!
//! The choices of a roll are the sequences that leave distinct positions
//! (the first sequence found for each, dice in the order rolled, pieces
//! furthest first); any other order that the rules allow is as legal, and
//! plays as written.

use super::{RaceState, Refusal};
use crate::race::game::{Enter, Finish, Landed, LandingPlan, RaceGame, RestingPlan, OUT};
use crate::race::{Choice, Event, Roll, Steps, MAX_STEPS};

/// A sequence found, with the dice it used and the position it leaves.
#[derive(Clone)]
struct Found {
    steps: Steps,
    dice: [u8; MAX_STEPS],
    key: Vec<u16>,
}

impl RaceState {
    /// The dice a roll gives to use one by one: a double `doubles_times`
    /// times, else each die once.
    fn dice_of(game: &RaceGame, roll: &Roll) -> ([u8; MAX_STEPS], usize) {
        let mut dice = [0u8; MAX_STEPS];
        let faces = roll.faces();
        if faces.len() > 1 && roll.is_double() {
            let n = usize::from(game.doubles_times).clamp(1, MAX_STEPS);
            for d in dice.iter_mut().take(n) {
                *d = faces[0];
            }
            return (dice, n);
        }
        let n = faces.len().min(MAX_STEPS);
        dice[..n].copy_from_slice(&faces[..n]);
        (dice, n)
    }

    /// How far seat `seat`'s piece at `from` moves with die `die`, or the
    /// rule that forbids it.
    pub(super) fn die_step(
        &self,
        game: &RaceGame,
        seat: usize,
        from: u16,
        die: u8,
    ) -> Result<u16, Refusal> {
        let k = usize::from(self.pieces);
        let own = self.pos.get(seat * k..seat * k + k).unwrap_or(&[]);
        let die = u16::from(die);
        let dist = if from == OUT {
            let allowed = match game.enter {
                Enter::Always => true,
                Enter::OnFace(f) => die == u16::from(f),
            };
            let land = if game.enter_at_start { 1 } else { die };
            if !allowed || land >= game.cells {
                return Err(Refusal::NoDie);
            }
            land
        } else {
            if game.enter_first && own.contains(&OUT) {
                return Err(Refusal::EnterFirst);
            }
            if from >= game.cells {
                return Err(Refusal::NoDie);
            }
            let to = from + die;
            if to < game.cells {
                die
            } else {
                if game.bear_off_last > 0 {
                    let home = game.cells.saturating_sub(game.bear_off_last);
                    if own.iter().any(|&p| p < home) {
                        return Err(Refusal::NotAllHome {
                            last: game.bear_off_last,
                        });
                    }
                }
                if to > game.cells {
                    let further = own.iter().any(|&p| p != OUT && p < from);
                    match game.finish {
                        Finish::Past => {}
                        Finish::Exact if game.finish_furthest && !further => {}
                        Finish::Exact if game.finish_furthest => {
                            return Err(Refusal::FurtherBack { at: from });
                        }
                        _ => return Err(Refusal::NoDie),
                    }
                }
                game.cells - from
            }
        };
        let land = from + dist;
        if land < game.cells {
            let spot = game.spot(seat, land);
            if game.no_landing_own && own.iter().any(|&q| game.spot(seat, q) == spot) {
                return Err(Refusal::OwnPiece { at: land });
            }
            if game.point > 0 {
                for other in (0..self.players()).filter(|&s| s != seat) {
                    let held = self
                        .pieces(other)
                        .iter()
                        .filter(|&&q| q != OUT && game.spot(other, q) == spot)
                        .count();
                    if held >= usize::from(game.point) {
                        return Err(Refusal::Point {
                            at: land,
                            seat: other as u8,
                            pieces: held.min(usize::from(u8::MAX)) as u8,
                        });
                    }
                }
            }
        }
        Ok(dist)
    }

    /// Every sequence of the seat to roll's moves for `roll` that the
    /// rules allow (with `move most dice`, only the longest, and the
    /// larger die's when one die can be used), maybe one for each position
    /// they leave.
    fn dice_sequences(&self, game: &RaceGame, roll: &Roll, distinct: bool) -> Vec<Found> {
        let (dice, n) = Self::dice_of(game, roll);
        let mut found = Vec::new();
        let mut used = [0u8; MAX_STEPS];
        let mut seen = std::collections::HashSet::new();
        self.dice_search(
            game,
            roll,
            &dice[..n],
            &mut used,
            0,
            Steps::default(),
            &mut found,
            &mut seen,
        );
        if game.most_dice {
            let most = found.iter().map(|f| f.steps.len()).max().unwrap_or(0);
            found.retain(|f| f.steps.len() == most);
            if most == 1 && n == 2 && dice[0] != dice[1] {
                let larger = dice[0].max(dice[1]);
                if found.iter().any(|f| f.dice[0] == larger) {
                    found.retain(|f| f.dice[0] == larger);
                }
            }
        }
        if distinct {
            let mut seen = std::collections::HashSet::with_capacity(found.len());
            found.retain(|f| seen.insert(f.key.clone()));
        }
        found
    }

    /// The search of `dice_sequences`: from this position, with `dice`
    /// of which `used` (one flag each, 1: used) are gone, the steps so far
    /// `steps`. A position met before with the same dice left (`seen`: by
    /// another order of the same moves) is not searched again: it leads to
    /// the same positions.
    #[allow(clippy::too_many_arguments)]
    fn dice_search(
        &self,
        game: &RaceGame,
        roll: &Roll,
        dice: &[u8],
        used: &mut [u8; MAX_STEPS],
        depth: usize,
        steps: Steps,
        found: &mut Vec<Found>,
        seen: &mut std::collections::HashSet<(Vec<u16>, [u8; MAX_STEPS])>,
    ) {
        let key = self.position_key();
        if depth > 0 {
            let mut left = [0u8; MAX_STEPS];
            for (slot, (&d, &u)) in left.iter_mut().zip(dice.iter().zip(used.iter())) {
                if u == 0 {
                    *slot = d;
                }
            }
            left.sort_unstable();
            if !seen.insert((key.clone(), left)) {
                return;
            }
        }
        let seat = self.to_roll();
        let k = usize::from(self.pieces);
        let mut any = false;
        let mut tried_dice = [0u8; MAX_STEPS];
        // The pieces' positions, furthest first, each once.
        let mut froms: Vec<u16> = self
            .pos
            .get(seat * k..seat * k + k)
            .unwrap_or(&[])
            .iter()
            .copied()
            .filter(|&p| p < game.cells)
            .collect();
        froms.sort_unstable_by(|a, b| b.cmp(a));
        froms.dedup();
        for (j, &die) in dice.iter().enumerate() {
            if used[j] != 0 || tried_dice.contains(&die) {
                continue;
            }
            tried_dice[j] = die;
            for &from in &froms {
                let Ok(dist) = self.die_step(game, seat, from, die) else {
                    continue;
                };
                let Some(next_steps) = steps.with(from, dist) else {
                    continue;
                };
                any = true;
                let mut next = self.clone();
                let mut events = Vec::new();
                next.play_step(game, roll, seat, from, dist, &mut events);
                used[j] = 1;
                // Each sequence found below used this die at this depth.
                let before = found.len();
                next.dice_search(game, roll, dice, used, depth + 1, next_steps, found, seen);
                for f in found.iter_mut().skip(before) {
                    if let Some(d) = f.dice.get_mut(depth) {
                        *d = die;
                    }
                }
                used[j] = 0;
            }
        }
        if !any && !steps.is_empty() {
            found.push(Found {
                steps,
                dice: [0; MAX_STEPS],
                key,
            });
        }
    }

    /// Every seat's pieces, sorted seat by seat: the position, whichever
    /// piece stands where.
    fn position_key(&self) -> Vec<u16> {
        let mut key = Vec::with_capacity(self.pos.len());
        for s in 0..self.players() {
            let start = key.len();
            key.extend_from_slice(self.pieces(s));
            if let Some(part) = key.get_mut(start..) {
                part.sort_unstable();
            }
        }
        key
    }

    /// Whether the steps `steps` can be played in order from here with the
    /// dice `left` (one die each, any that moves the piece so far), and
    /// leave no die that could still move a piece; the die of the first
    /// step played goes to `first`.
    #[allow(clippy::too_many_arguments)]
    fn steps_fit(
        &self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        steps: &[(u16, u16)],
        left: &[u8],
        first: &mut Vec<u8>,
    ) -> bool {
        let Some((&(from, by), rest)) = steps.split_first() else {
            // Nothing may be left that a die could still move.
            let k = usize::from(self.pieces);
            let own = self.pos.get(seat * k..seat * k + k).unwrap_or(&[]);
            return !left.iter().any(|&d| {
                own.iter()
                    .any(|&p| p < game.cells && self.die_step(game, seat, p, d).is_ok())
            });
        };
        let mut fits = false;
        for (j, &d) in left.iter().enumerate() {
            if left[..j].contains(&d) || self.die_step(game, seat, from, d) != Ok(by) {
                continue;
            }
            let mut next = self.clone();
            let mut events = Vec::new();
            next.play_step(game, roll, seat, from, by, &mut events);
            let mut others = left.to_vec();
            others.remove(j);
            if next.steps_fit(game, roll, seat, rest, &others, first) {
                first.push(d);
                fits = true;
            }
        }
        fits
    }

    /// The choices of a roll with dice used one by one: a sequence for
    /// each position the rules allow, or `pass`.
    #[inline(never)]
    pub(super) fn dice_choices(&self, game: &RaceGame, roll: &Roll, out: &mut Vec<Choice>) {
        for f in self.dice_sequences(game, roll, true) {
            out.push(Choice::Dice(f.steps));
        }
        if out.is_empty() {
            out.push(Choice::Pass);
        }
    }

    /// Whether `choice` is a sequence the rules allow for `roll` (in any
    /// order), or `pass` when there is none.
    pub(super) fn dice_legal(&self, game: &RaceGame, roll: &Roll, choice: Choice) -> bool {
        let found = self.dice_sequences(game, roll, false);
        let steps = match choice {
            Choice::Pass => return found.is_empty(),
            Choice::Dice(steps) => steps,
            _ => return false,
        };
        let (dice, n) = Self::dice_of(game, roll);
        let most = found.iter().map(|f| f.steps.len()).max().unwrap_or(0);
        if game.most_dice && steps.len() != most {
            return false;
        }
        let list: Vec<(u16, u16)> = steps.iter().collect();
        // The dice each way of playing the steps used first (in reverse:
        // innermost first, the first step's die pushed last).
        let mut firsts = Vec::new();
        if !self.steps_fit(game, roll, self.to_roll(), &list, &dice[..n], &mut firsts) {
            return false;
        }
        if game.most_dice && most == 1 && n == 2 && dice[0] != dice[1] {
            let larger = dice[0].max(dice[1]);
            if found.iter().any(|f| f.dice[0] == larger) {
                return firsts.contains(&larger);
            }
        }
        true
    }

    /// Which rule rules out `choice` for `roll`, with dice used one by
    /// one.
    pub(super) fn dice_refusal(
        &self,
        game: &RaceGame,
        roll: &Roll,
        choice: Choice,
    ) -> Option<Refusal> {
        if self.dice_legal(game, roll, choice) {
            return None;
        }
        let seat = self.to_roll();
        let (dice, n) = Self::dice_of(game, roll);
        let all = self.dice_sequences(game, roll, false);
        let most = all.iter().map(|f| f.steps.len()).max().unwrap_or(0);
        let Choice::Dice(steps) = choice else {
            return (choice == Choice::Pass && most > 0).then_some(Refusal::MustMove);
        };
        let mut left: Vec<u8> = dice[..n].to_vec();
        let mut now = self.clone();
        for (from, by) in steps.iter() {
            let fits = left
                .iter()
                .position(|&d| now.die_step(game, seat, from, d) == Ok(by));
            match fits {
                Some(j) => {
                    left.remove(j);
                    let mut events = Vec::new();
                    now.play_step(game, roll, seat, from, by, &mut events);
                }
                None => {
                    // The rule that stops the die of this distance, or any
                    // die left.
                    let reason = left
                        .iter()
                        .filter(|&&d| u16::from(d) >= by)
                        .chain(left.iter())
                        .find_map(|&d| now.die_step(game, seat, from, d).err());
                    return reason.or(Some(Refusal::NoDie));
                }
            }
        }
        if steps.len() < most {
            return Some(Refusal::MostDice { most: most as u8 });
        }
        if game.most_dice && most == 1 && n == 2 {
            return Some(Refusal::LargerDie {
                die: dice[0].max(dice[1]),
            });
        }
        None
    }

    /// Moves seat `seat`'s piece at `from` by `dist` (one die), telling it
    /// as `Enter` or `Move`, then the landing and resting rules where it
    /// lands; the piece's index.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn play_step(
        &mut self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        from: u16,
        dist: u16,
        events: &mut Vec<Event>,
    ) -> Option<usize> {
        let k = usize::from(self.pieces);
        let base = seat * k;
        let i = (base..base + k).find(|&i| self.pos[i] == from && !self.held[i])?;
        if let Some(m) = self.last_moved.get_mut(seat) {
            *m = (i - base) as u8;
        }
        let entering = from == OUT;
        let land = (from + dist).min(game.cells);
        events.push(if entering {
            Event::Enter { to: land }
        } else {
            Event::Move {
                from,
                to: land,
                count: dist,
                bounced: false,
            }
        });
        let mut landed = Landed {
            at: land,
            dir: 1,
            ..Landed::default()
        };
        if land < game.cells && game.landing_plan(entering, seat, land) != LandingPlan::Nothing {
            let holds = |r: &crate::race::game::CellRule| r.roll_holds(entering, roll);
            landed = game.land(seat, land, dist, 1, holds, |rule, at, then, blocked| {
                events.push(Event::Rule {
                    rule,
                    at,
                    then: *then,
                    count: dist,
                    blocked,
                });
            });
        }
        let p = landed.at;
        self.pos[i] = p;
        if p >= game.cells {
            events.push(Event::Finish);
        } else if p != OUT {
            match game.resting_plan(seat, p) {
                RestingPlan::Nothing => {}
                RestingPlan::SendOut { opponents } => {
                    self.send_out_at(game, seat, Some(i), p, opponents, events);
                }
                RestingPlan::Free => self.free_held(game, seat, i, p, events),
                RestingPlan::Live => {
                    self.rest(
                        game,
                        seat,
                        i,
                        from,
                        p,
                        dist,
                        entering,
                        roll,
                        &mut landed,
                        events,
                    );
                }
            }
        }
        Some(i)
    }

    /// Plays a turn of dice used one by one: the steps of `choice` in
    /// order (nothing for `pass`, or when a rule of the roll ended the
    /// turn), then the end of the turn as any turn's.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn play_dice(
        &mut self,
        game: &RaceGame,
        roll: &Roll,
        choice: Choice,
        ended: bool,
        extra: bool,
        lost: bool,
        events: &mut Vec<Event>,
    ) {
        let seat = self.to_roll();
        let mut moved = None;
        match choice {
            Choice::Dice(steps) if !ended => {
                for (from, by) in steps.iter() {
                    if let Some(i) = self.play_step(game, roll, seat, from, by, events) {
                        moved = Some(i);
                    }
                }
            }
            _ if ended => {}
            _ => events.push(Event::Pass),
        }
        self.rolls += 1;
        self.settle(game, seat, moved, events);
        if self.over {
            return;
        }
        if lost {
            events.push(Event::LostExtraRoll);
        }
        if extra && !ended && !self.is_placed(seat) {
            events.push(Event::ExtraRoll);
        } else {
            self.next_turn(events);
        }
    }
}
