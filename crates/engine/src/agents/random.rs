//! `random`: uniform over the legal moves, from a seeded generator.

use super::state::GameState;
use super::Agent;
use crate::rng::Rng;

/// Uniform over the legal moves.
pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    /// A random player with its own seed.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: Rng::new(seed),
        }
    }
}

impl<S: GameState> Agent<S> for RandomAgent {
    fn choose(&mut self, state: &S) -> usize {
        self.rng.below(state.move_count() as u64) as usize
    }

    fn name(&self) -> &str {
        "random"
    }
}
