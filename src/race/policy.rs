//! `Policy`: how a computer player picks one of the choices of a roll.

use super::Choice;
use crate::rng::Rng;

/// A computer player of race games.
#[derive(Clone, Debug)]
pub enum Policy {
    /// Uniform over the choices, from its own seeded generator.
    Random(Rng),
    /// Always the first choice: enter when it may, else move the piece
    /// nearest the finish (the order of `RaceState::choices`).
    First,
}

impl Policy {
    /// A policy by name (`random`, `first`) with its seed, or `None`.
    pub fn by_name(name: &str, seed: u64) -> Option<Policy> {
        match name {
            "random" => Some(Policy::Random(Rng::new(seed))),
            "first" => Some(Policy::First),
            _ => None,
        }
    }

    /// The policies there are.
    pub const NAMES: &'static [&'static str] = &["random", "first"];

    /// The index of the chosen choice (`choices` is not empty).
    pub fn choose(&mut self, choices: &[Choice]) -> usize {
        match self {
            Policy::Random(rng) => rng.below(choices.len() as u64) as usize,
            Policy::First => 0,
        }
    }
}
