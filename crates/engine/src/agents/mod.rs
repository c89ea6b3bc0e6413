//! Computer players behind one trait, for any game that implements
//! `GameState` (the board games do, through `BoardState`).
//!
//! - `random`: uniform over the legal moves;
//! - `first`: always the first legal move;
//! - `greedy`: one move deep, with the evaluation of `eval`;
//! - `mcts`: Monte Carlo tree search, with chance nodes, for any number of
//!   seats;
//! - `alphabeta`: iterative deepening alpha-beta with a transposition table,
//!   for two seats without dice.
//!
//! Every agent draws its randomness from its own seeded `Rng`: with a fixed
//! depth or number of playouts, seed and position give the same move.

pub mod alphabeta;
pub mod arena;
pub mod board;
pub mod eval;
pub mod first;
pub mod greedy;
pub mod mcts;
pub mod playout;
pub mod race;
pub mod random;
pub mod state;
pub mod stop;
pub mod zobrist;

use std::time::Duration;

pub use alphabeta::AlphaBeta;
pub use board::{BoardGame, BoardState};
pub use first::First;
pub use greedy::Greedy;
pub use mcts::Mcts;
pub use race::RaceNode;
pub use random::RandomAgent;
pub use state::{Conversion, Counted, EndCause, Ending, Features, GameState};

/// A computer player: picks one of the legal moves at a decision node.
pub trait Agent<S: GameState> {
    /// The index of the chosen move (`< state.move_count()`, which is not 0).
    fn choose(&mut self, state: &S) -> usize;
    /// The agent's name, as given on the command line.
    fn name(&self) -> &str;
}

/// How hard an agent thinks: a time per move, a number of playouts, a depth.
/// What an agent does not use it ignores; with none given each agent has a
/// default (1000 playouts, depth 4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strength {
    /// Time per move (`--think MS`); results then depend on the machine.
    pub think: Option<Duration>,
    /// Playouts per move for `mcts` (`--playouts N`).
    pub playouts: Option<u32>,
    /// Search depth in plies for `alphabeta` (`--depth D`).
    pub depth: Option<u32>,
}

/// Every player a seat can have, in the one order that `--help`, the
/// errors, README.md and docs/lab.md list them: a person at the prompt,
/// then the computer agents.
pub const PLAYERS: &[&str] = &["human", "random", "first", "greedy", "mcts", "alphabeta"];

/// The computer agents there are: [`PLAYERS`] but the person.
pub const NAMES: &[&str] = match PLAYERS.split_first() {
    Some((_, computers)) => computers,
    None => &[],
};

/// The list of players in words: `human, random, first, greedy, mcts,
/// alphabeta` (`human` left out when `with_human` is false).
pub fn list(with_human: bool) -> String {
    let names = if with_human { PLAYERS } else { NAMES };
    names.join(", ")
}

/// Why no computer agent of a name can play a game (`narrate::agent`
/// puts it in words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentError {
    /// No player has the name.
    Unknown {
        /// The name as given.
        name: String,
    },
    /// `human` is a person, not a computer agent.
    Human,
    /// `alphabeta` plays only two-player games without dice.
    TwoPlayersNoDice {
        /// The seats of the game.
        seats: usize,
        /// Whether the game has dice.
        dice: bool,
    },
}

/// Makes a computer agent by name for games like `sample`. The error says
/// what is wrong: an unknown name, or an agent that can't play this game.
pub fn by_name<'a, S: GameState + 'a>(
    name: &str,
    seed: u64,
    strength: Strength,
    sample: &S,
) -> Result<Box<dyn Agent<S> + 'a>, AgentError> {
    match name {
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        "first" => Ok(Box::new(First)),
        "greedy" => Ok(Box::new(Greedy::new(seed))),
        "mcts" => Ok(Box::new(Mcts::new(seed, strength))),
        "alphabeta" => {
            if sample.seats() != 2 || sample.has_chance() {
                return Err(AgentError::TwoPlayersNoDice {
                    seats: sample.seats(),
                    dice: sample.has_chance(),
                });
            }
            Ok(Box::new(AlphaBeta::new(seed, strength)))
        }
        "human" => Err(AgentError::Human),
        _ => Err(AgentError::Unknown {
            name: name.to_string(),
        }),
    }
}
