//! A game in progress, for any front end (the prompt of `play`, a web page,
//! an editor): [`board::BoardSession`] for board games: legal moves, a move
//! entered by its notation, a unique prefix or square by square, undo and
//! redo, a hint, resign, and the record to save and resume from; and
//! [`race::RaceSession`] for race games: the roll, the legal choices, the
//! choice of a person or a computer player, undo and redo where a person
//! plays, a hint, the turn played as data and the record.
//!
//! Both kinds offer the same verbs with the same names and result shapes,
//! written once as the trait [`Session`]: `advance`, `undo`, `redo`,
//! `hint`, `resign`, `ending`, `result`, `record_text`, `record_to`,
//! `record_news`. What a person gives is of its kind (a move typed at the
//! board: [`BoardSession::play_turn`]; a choice for a roll:
//! [`RaceSession::choose`]), and so is resuming from a record (a board
//! game's moves, a race game's turns).

use std::path::{Path, PathBuf};

use crate::record::{GameResult, Written};

pub mod board;
pub mod race;

pub use board::{
    move_list, move_number, read_move, BoardSession, Ending, Entry, Next, Reading, Seat, Turn, Undo,
};
pub use race::{Played, RaceEnding, RaceNext, RaceSession};

/// Why a session could not do what was asked. The `Display` is the reason
/// alone; a front end says `error: ` before it where it prints one.
#[derive(Debug)]
#[non_exhaustive]
pub enum SessionError {
    /// The record can't be written at `path`: created, or the game so far
    /// written to it.
    Record {
        /// The record's file.
        path: PathBuf,
        /// What failed.
        error: std::io::Error,
    },
    /// A computer player is to move and has no legal move, and the rules
    /// don't end the game (a board game).
    NoMove,
    /// No roll to play (a race game's turn played before its roll).
    NoRoll,
    /// A person is to choose, not a computer player.
    PersonToChoose,
    /// The choice can't be played with the roll.
    Illegal(crate::race::Illegal),
    /// The race game can't be set up for the seats given.
    Setup(crate::race::SetupError),
    /// A computer player can't be made: an unknown name, or a player that
    /// can't play this game (the players' own reason).
    Player(crate::agents::AgentError),
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::Record { path, error } => {
                write!(f, "can't write the record {}: {error}", path.display())
            }
            SessionError::NoMove => {
                f.write_str("the player to move has no legal move and the rules don't end the game")
            }
            SessionError::NoRoll => f.write_str("no roll to play"),
            SessionError::PersonToChoose => f.write_str("a person is to choose"),
            SessionError::Illegal(e) => e.fmt(f),
            SessionError::Setup(e) => e.fmt(f),
            SessionError::Player(e) => f.write_str(&crate::narrate::agent::error(e)),
        }
    }
}

impl std::error::Error for SessionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SessionError::Record { error, .. } => Some(error),
            SessionError::Illegal(e) => Some(e),
            SessionError::Setup(e) => Some(e),
            SessionError::Player(_)
            | SessionError::NoMove
            | SessionError::NoRoll
            | SessionError::PersonToChoose => None,
        }
    }
}

impl SessionError {
    /// The record at `path` can't be written.
    pub(crate) fn record(path: &Path, error: std::io::Error) -> SessionError {
        SessionError::Record {
            path: path.to_path_buf(),
            error,
        }
    }
}

/// The verbs of a game in progress, the same for a board game and a race
/// game; the types of a turn, an ending, a hint and of what comes next are
/// the kind's own.
pub trait Session {
    /// A turn played: [`Turn`] or [`Played`].
    type Turn;
    /// How a game ended: [`Ending`] or [`RaceEnding`].
    type Ending;
    /// What advancing did: [`Next`] or [`RaceNext`].
    type Next;
    /// What a hint suggests: a move or a choice.
    type Hint;

    /// Plays the game on by one turn: a computer player's turn played, a
    /// person asked for (their move or choice goes to the kind's own
    /// method), or how the game ended.
    fn advance(&mut self) -> Result<Self::Next, SessionError>;
    /// Takes back the person's last turn.
    fn undo(&mut self) -> Undo;
    /// Plays again what was taken back: the turn, or `None`.
    fn redo(&mut self) -> Result<Option<Self::Turn>, SessionError>;
    /// What a greedy player suggests now.
    fn hint(&self) -> Option<Self::Hint>;
    /// The player to move resigns: how the game ended; `None` for a game
    /// already over.
    fn resign(&mut self) -> Option<Self::Ending>;
    /// How the game ended, once it is over.
    fn ending(&self) -> Option<Self::Ending>;
    /// The result a record holds beside its moves (a resignation).
    fn result(&self) -> Option<GameResult>;
    /// The record of the game so far, as its text (JSON lines).
    fn record_text(&self) -> String;
    /// Writes the record to `path` from now on (the game so far at once).
    fn record_to(&mut self, path: &Path) -> Result<(), SessionError>;
    /// What writing the record did since this was last asked.
    fn record_news(&mut self) -> Written;
}

/// Delegates the verbs of [`Session`] to the session's own methods of the
/// same names.
macro_rules! session_verbs {
    ($ty:ty, $turn:ty, $ending:ty, $next:ty, $hint:ty) => {
        impl Session for $ty {
            type Turn = $turn;
            type Ending = $ending;
            type Next = $next;
            type Hint = $hint;
            fn advance(&mut self) -> Result<$next, SessionError> {
                <$ty>::advance(self)
            }
            fn undo(&mut self) -> Undo {
                <$ty>::undo(self)
            }
            fn redo(&mut self) -> Result<Option<$turn>, SessionError> {
                <$ty>::redo(self)
            }
            fn hint(&self) -> Option<$hint> {
                <$ty>::hint(self)
            }
            fn resign(&mut self) -> Option<$ending> {
                <$ty>::resign(self)
            }
            fn ending(&self) -> Option<$ending> {
                <$ty>::ending(self)
            }
            fn result(&self) -> Option<GameResult> {
                <$ty>::result(self)
            }
            fn record_text(&self) -> String {
                <$ty>::record_text(self)
            }
            fn record_to(&mut self, path: &Path) -> Result<(), SessionError> {
                <$ty>::record_to(self, path)
            }
            fn record_news(&mut self) -> Written {
                <$ty>::record_news(self)
            }
        }
    };
}

session_verbs!(BoardSession<'_>, Turn, Ending, Next, crate::board::Move);
session_verbs!(
    RaceSession<'_>,
    Played,
    RaceEnding,
    RaceNext,
    crate::race::Choice
);

/// A fresh seed for a game played without one: different on every call
/// (from the system's randomness, as the standard library's hash maps get
/// theirs, and the clock), below 10^9 so that it is easy to type again.
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.write_u32(std::process::id());
    h.finish() % 1_000_000_000
}
