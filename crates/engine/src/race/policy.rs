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

/// The seed of seat `seat`'s computer player in a game played from `seed`,
/// apart from the dice's (`play` and `bench` use it).
pub fn agent_seed(seed: u64, seat: usize) -> u64 {
    seed ^ 0xA6E7_0000_0000_0000 ^ (seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}
