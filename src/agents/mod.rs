//! Computer players behind one trait.

use crate::engine::{Match, Tables};
use crate::rng::Rng;

/// A computer player: picks one of the legal moves of a game in progress.
pub trait Agent {
    /// The index of the chosen move in `m.legal()` (which is not empty).
    fn choose(&mut self, t: &Tables, m: &Match) -> usize;
    /// The agent's name, as given on the command line.
    fn name(&self) -> &str;
}

/// Uniform over the legal moves, from a seeded generator.
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

impl Agent for RandomAgent {
    fn choose(&mut self, _t: &Tables, m: &Match) -> usize {
        self.rng.below(m.legal().len() as u64) as usize
    }
    fn name(&self) -> &str {
        "random"
    }
}

/// Makes a computer agent by name, or None for an unknown name (or `human`,
/// which the CLI handles).
pub fn by_name(name: &str, seed: u64) -> Option<Box<dyn Agent>> {
    match name {
        "random" => Some(Box::new(RandomAgent::new(seed))),
        _ => None,
    }
}

/// The computer agents there are.
pub const NAMES: &[&str] = &["random"];
