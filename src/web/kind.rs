//! One stored game, whatever its kind: the trait [`Kind`] says what each
//! kind does its own way (replay its history into the library's session,
//! draw its state, keep a turn, take back and play again), and the verbs
//! of [`OpenGame`] (`view`, `computer_turn`, `hint`, `undo`, `redo`,
//! `record`) are written once over the library's [`Session`]: this is the
//! one place that dispatches on the kind (`on_kind!`). The kinds'
//! modules (`board.rs`, `race.rs`) implement [`Kind`]; the kind-free
//! handlers (`api.rs`) call [`OpenGame`]'s verbs and import neither.

// A refusal is the HTTP answer itself (`Err(Response)`).
#![allow(clippy::result_large_err)]

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::Value;

use super::reply::{broken, game_over, refuse, Done};
use super::store::{OpenGame, Play, Setup};
use crate::session::Session;

/// What advancing a session did, whatever its kind.
pub enum Step<T> {
    /// A computer player's turn, played.
    Played(T),
    /// A person is to move (or to roll).
    Person,
    /// The game is over.
    Over,
}

/// The turn a session of kind `K` plays.
pub type TurnOf<'a, K> = <<K as Kind>::Session<'a> as Session>::Turn;
/// What a session of kind `K` says when advanced.
pub type NextOf<'a, K> = <<K as Kind>::Session<'a> as Session>::Next;
/// What a session of kind `K` suggests.
pub type HintOf<'a, K> = <<K as Kind>::Session<'a> as Session>::Hint;

/// A kind of game as the web front end stores it: its history, played
/// again into the library's session on every request (a session borrows
/// its compiled game, so none outlives a request).
pub trait Kind: Sized {
    /// The library's session of this kind.
    type Session<'a>: Session;

    /// Who is to move when a computer move is asked of a person's turn.
    const PERSON_TO_MOVE: &'static str;
    /// What a hint answers when the session suggests nothing.
    const NO_HINT: &'static str;
    /// What a failure of the session begins with in the page's error (a
    /// race game's say `error: `, as they always have).
    const ERROR_PREFIX: &'static str;

    /// Builds the session of the stored game, its history played again,
    /// and runs `f` with it.
    fn session<R>(
        &self,
        setup: &Setup,
        f: impl FnOnce(&mut Self::Session<'_>) -> R,
    ) -> Result<R, String>;

    /// [`Kind::session`] where `f` may also change the stored history (the
    /// session is built from it first): a change and the new state from one
    /// replay.
    fn session_mut<R>(
        &mut self,
        setup: &Setup,
        f: impl FnOnce(&mut Self::Session<'_>, &mut Self) -> R,
    ) -> Result<R, String>;

    /// What advancing said, kind-free.
    fn step<'a>(next: NextOf<'a, Self>) -> Step<TurnOf<'a, Self>>;

    /// The state of the game as the page draws it (a board or a track).
    fn view(&self, id: u64, setup: &Setup) -> Result<Value, String>;

    /// Keeps a computer player's turn, played in `s`, in the history; the
    /// new state when it is drawn from `s` at once.
    fn keep_turn(
        &mut self,
        setup: &Setup,
        s: &Self::Session<'_>,
        turn: TurnOf<'_, Self>,
    ) -> Option<Value>;

    /// Whether a hint may be asked now (a race game's person must have
    /// rolled).
    fn hint_ready(_s: &Self::Session<'_>) -> Result<(), Response> {
        Ok(())
    }

    /// A hint as the page shows it.
    fn hint_json(s: &Self::Session<'_>, hint: HintOf<'_, Self>) -> Value;

    /// Takes back the person's last turn in the history; the new state
    /// when it was drawn at once.
    fn undo(&mut self, setup: &Setup) -> Result<Option<Value>, Response>;

    /// Plays again the last turn taken back; the new state when it was
    /// drawn at once.
    fn redo(&mut self, setup: &Setup) -> Result<Option<Value>, Response>;

    /// The record of the game so far (JSON lines, for `replay`): the
    /// session's.
    fn record(&self, setup: &Setup) -> Result<String, String> {
        self.session(setup, |s| s.record_text())
    }
}

/// Runs `$body` with `$k`, the stored history of either kind, and `$setup`,
/// what the game was opened with: the one match on the kind of a game.
macro_rules! on_kind {
    ($play:expr, $setup:expr, |$k:ident, $s:ident| $body:expr) => {
        match $play {
            Play::Board($k) => {
                let $s = $setup;
                $body
            }
            Play::Race($k) => {
                let $s = $setup;
                $body
            }
        }
    };
}

impl OpenGame {
    /// The state of the game as JSON for the page.
    pub fn view(&self, id: u64) -> Result<Value, String> {
        on_kind!(&self.play, &self.setup, |k, setup| k.view(id, setup))
    }

    /// The computer player to move plays its turn (the game replayed once:
    /// the search, the turn and, for a board, the new state from one
    /// session).
    pub fn computer_turn(mut self) -> Done {
        let view = on_kind!(&mut self.play, &self.setup, |k, setup| computer(k, setup))?;
        Ok((self, view))
    }

    /// What a greedy player suggests now, as the page shows it.
    pub fn hint(&self) -> Result<Value, Response> {
        on_kind!(&self.play, &self.setup, |k, setup| hint(k, setup))
    }

    /// Takes back the person's last turn.
    pub fn undo(mut self) -> Done {
        let view = on_kind!(&mut self.play, &self.setup, |k, setup| k.undo(setup))?;
        Ok((self, view))
    }

    /// Plays again the last turn taken back.
    pub fn redo(mut self) -> Done {
        let view = on_kind!(&mut self.play, &self.setup, |k, setup| k.redo(setup))?;
        Ok((self, view))
    }

    /// The record of the game so far (JSON lines).
    pub fn record(&self) -> Result<String, String> {
        on_kind!(&self.play, &self.setup, |k, setup| k.record(setup))
    }
}

/// The computer player to move plays, through the session's `advance`.
fn computer<K: Kind>(k: &mut K, setup: &Setup) -> Result<Option<Value>, Response> {
    k.session_mut(setup, |s, k| {
        if s.ending().is_some() {
            return Err(game_over());
        }
        match K::step(
            s.advance()
                .map_err(|e| broken(format!("{}{e}", K::ERROR_PREFIX)))?,
        ) {
            Step::Played(turn) => Ok(k.keep_turn(setup, s, turn)),
            Step::Person => Err(refuse(StatusCode::CONFLICT, K::PERSON_TO_MOVE)),
            Step::Over => Err(game_over()),
        }
    })
    .map_err(broken)?
}

/// The session's hint, as the page shows it.
fn hint<K: Kind>(k: &K, setup: &Setup) -> Result<Value, Response> {
    k.session(setup, |s| {
        K::hint_ready(s)?;
        match s.hint() {
            Some(h) => Ok(K::hint_json(s, h)),
            None => Err(refuse(StatusCode::CONFLICT, K::NO_HINT)),
        }
    })
    .map_err(broken)?
}
