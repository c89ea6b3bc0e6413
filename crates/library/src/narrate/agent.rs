//! Why a computer player can't be seated, in words, from the engine's
//! `AgentError`: an unknown name, a person where a computer is wanted, an
//! agent that can't play the game.

use crate::agents::{list, AgentError};

/// The error in a sentence: `unknown agent `minimax`: the players are
/// human, random, ...`.
pub fn error(e: &AgentError) -> String {
    match e {
        AgentError::Unknown { name } => format!(
            "unknown agent `{}`: the players are {}",
            crate::shown::shown(name),
            list(true)
        ),
        AgentError::Human => format!(
            "`human` is a person at the prompt, and only `play` seats people: here every seat needs a computer agent ({})",
            list(false)
        ),
        AgentError::TwoPlayersNoDice { seats, dice } => format!(
            "alphabeta plays two-player games without dice; this game has {seats} seats{}: use mcts",
            if *dice { " and dice" } else { "" }
        ),
    }
}
