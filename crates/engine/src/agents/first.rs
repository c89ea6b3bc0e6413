//! `first`: always the first legal move, in the order the game lists them
//! (on a race track: enter a piece when it may, else move the piece
//! nearest the finish). A fixed baseline that needs no seed.

use super::state::GameState;
use super::Agent;

/// Always the first legal move.
#[derive(Clone, Copy, Debug, Default)]
pub struct First;

impl<S: GameState> Agent<S> for First {
    fn choose(&mut self, _state: &S) -> usize {
        0
    }

    fn name(&self) -> &str {
        "first"
    }
}
