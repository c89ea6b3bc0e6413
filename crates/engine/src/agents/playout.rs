//! Random playouts: from a state to the end of the game, uniform over the
//! legal moves, dice drawn with their probabilities. The state is played in
//! place, so a playout allocates nothing once its buffers are warm.

use super::state::GameState;
use crate::rng::Rng;

/// An outcome index drawn with the probabilities of the chance node.
pub fn draw_chance<S: GameState>(s: &S, rng: &mut Rng) -> usize {
    let k = s.chance_count();
    let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut acc = 0.0;
    for i in 0..k {
        acc += s.chance_probability(i);
        if x < acc {
            return i;
        }
    }
    k.saturating_sub(1)
}

/// Plays `s` to the end at random; returns the plies played.
pub fn random_playout<S: GameState>(s: &mut S, rng: &mut Rng) -> u32 {
    s.random_plies(rng, u32::MAX)
}
