//! Race games as the computer players see them: `RaceNode` implements
//! `GameState`, beside the board games' adapter (`agents::board`). The
//! roll is a chance node (every face of every die equally likely), then the
//! seat to roll picks one of `RaceState::choices`. Any agent of this module
//! (greedy, mcts) then plays race games.

use std::hash::{Hash, Hasher};

use super::{Counted, EndCause, Ending, Features, GameState};
use crate::race::game::{RaceGame, OUT};
use crate::race::{Choice, Event, RaceState, Roll};

/// The rule events a race counts, for `simulate`-like reports.
const EVENTS: &[Counted] = &[
    Counted::Bumped,
    Counted::SentOut,
    Counted::TurnsMissed,
    Counted::ExtraRolls,
];

/// A race game in progress at a chance node (before the roll) or a decision
/// node (after it).
#[derive(Debug)]
pub struct RaceNode<'g> {
    game: &'g RaceGame,
    state: RaceState,
    roll: Option<Roll>,
    choices: Vec<Choice>,
    events: Vec<Event>,
    counts: [u32; 4],
    max_rolls: u32,
}

// `clone_from` keeps the buffers (see `RaceState`'s): the agents copy a
// node into one they keep for every candidate move and every playout.
impl Clone for RaceNode<'_> {
    fn clone(&self) -> Self {
        RaceNode {
            game: self.game,
            state: self.state.clone(),
            roll: self.roll,
            choices: self.choices.clone(),
            events: self.events.clone(),
            counts: self.counts,
            max_rolls: self.max_rolls,
        }
    }

    fn clone_from(&mut self, s: &Self) {
        let RaceNode {
            game,
            state,
            roll,
            choices,
            events,
            counts,
            max_rolls,
        } = self;
        *game = s.game;
        state.clone_from(&s.state);
        *roll = s.roll;
        choices.clone_from(&s.choices);
        events.clone_from(&s.events);
        *counts = s.counts;
        *max_rolls = s.max_rolls;
    }
}

impl<'g> RaceNode<'g> {
    /// A node for `state`, before its next roll; the game counts as drawn
    /// after `max_rolls` rolls.
    pub fn new(game: &'g RaceGame, state: RaceState, max_rolls: u32) -> RaceNode<'g> {
        RaceNode {
            game,
            state,
            roll: None,
            choices: Vec::new(),
            events: Vec::new(),
            counts: [0; 4],
            max_rolls,
        }
    }

    /// A decision node: `state` with `roll` rolled.
    pub fn rolled(
        game: &'g RaceGame,
        state: RaceState,
        roll: Roll,
        max_rolls: u32,
    ) -> RaceNode<'g> {
        let mut node = RaceNode::new(game, state, max_rolls);
        node.set_roll(roll);
        node
    }

    /// The state.
    pub fn state(&self) -> &RaceState {
        &self.state
    }

    /// The choices at a decision node, in the order of the agents' indices.
    pub fn choices(&self) -> &[Choice] {
        &self.choices
    }

    fn set_roll(&mut self, roll: Roll) {
        self.state.choices(self.game, &roll, &mut self.choices);
        self.roll = Some(roll);
    }

    /// The `i`-th of the `faces ^ dice` rolls, the first die varying fastest.
    fn outcome(&self, i: usize) -> Roll {
        let faces = usize::from(self.game.sides().max(1));
        let low = self.game.low_face();
        let mut x = i;
        let mut values = [0u8; crate::race::game::MAX_STICKS];
        let n = usize::from(self.game.dice).min(values.len());
        for v in values.iter_mut().take(n) {
            *v = (x % faces) as u8 + low;
            x /= faces;
        }
        Roll::from_faces(values, n)
    }
}

impl GameState for RaceNode<'_> {
    fn seats(&self) -> usize {
        self.state.players()
    }

    fn to_move(&self) -> usize {
        self.state.to_roll()
    }

    fn ending(&self) -> Option<Ending> {
        if self.state.is_over() {
            return Some(match self.state.winner() {
                Some(w) => Ending {
                    winner: Some(w),
                    reason: EndCause::HomeFirst,
                },
                None => Ending {
                    winner: None,
                    reason: EndCause::NoOneCanMove,
                },
            });
        }
        (self.state.rolls() >= self.max_rolls).then_some(Ending {
            winner: None,
            reason: EndCause::RollLimit,
        })
    }

    fn points(&self) -> Option<u32> {
        self.state.score(self.game).map(|s| s.points)
    }

    fn scores_wins(&self) -> bool {
        !self.game.scores.is_empty()
    }

    fn score_names(&self) -> Vec<(u32, String)> {
        let mut names: Vec<(u32, String)> = self
            .game
            .scores
            .iter()
            .filter(|r| !r.label.is_empty())
            .filter_map(|r| match r.points {
                crate::vocab::race::Points::Fixed(n) => Some((n, r.label.clone())),
                crate::vocab::race::Points::PiecesLeft => None,
            })
            .collect();
        names.sort();
        names.dedup_by_key(|(n, _)| *n);
        names
    }

    fn move_count(&self) -> usize {
        if self.roll.is_some() && self.ending().is_none() {
            self.choices.len()
        } else {
            0
        }
    }

    fn play(&mut self, i: usize) {
        let (Some(roll), Some(&choice)) = (self.roll, self.choices.get(i)) else {
            return;
        };
        if self
            .state
            // The choices were listed for this state and roll.
            .apply_listed(self.game, &roll, choice, &mut self.events)
            .is_err()
        {
            return;
        }
        for e in &self.events {
            let slot = match e {
                Event::Bumped { .. } => 0,
                Event::Rule { then, .. } if *then == OUT => 1,
                Event::Skipped { .. } => 2,
                Event::ExtraRoll => 3,
                _ => continue,
            };
            if let Some(c) = self.counts.get_mut(slot) {
                *c += 1;
            }
        }
        self.roll = None;
        self.choices.clear();
    }

    fn is_pass(&self, i: usize) -> bool {
        self.choices.get(i) == Some(&Choice::Pass)
    }

    fn has_chance(&self) -> bool {
        true
    }

    fn chance_count(&self) -> usize {
        if self.roll.is_none() && self.ending().is_none() {
            usize::from(self.game.sides()).pow(u32::from(self.game.dice))
        } else {
            0
        }
    }

    fn chance_probability(&self, _i: usize) -> f64 {
        1.0 / self.chance_count().max(1) as f64
    }

    fn play_chance(&mut self, i: usize) {
        let roll = self.outcome(i);
        self.set_roll(roll);
    }

    fn features(&self, out: &mut [Features]) {
        let cells = f64::from(self.game.cells.max(1));
        for (seat, f) in out.iter_mut().enumerate() {
            *f = Features::default();
            if seat < self.state.players() {
                f.track = self
                    .state
                    .pieces(seat)
                    .iter()
                    .map(|&p| f64::from(p) / cells)
                    .sum();
            }
        }
    }

    fn hash(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.state.hash(&mut h);
        self.roll.hash(&mut h);
        h.finish()
    }

    fn plies(&self) -> u32 {
        self.state.rolls()
    }

    fn counted(&self) -> &'static [Counted] {
        EVENTS
    }

    fn event_counts(&self) -> &[u32] {
        &self.counts
    }
}
