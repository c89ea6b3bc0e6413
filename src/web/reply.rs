//! What the handlers of the web front end share, so that the kind-free
//! handlers (`api.rs`), the board games' (`board.rs`) and the race games'
//! (`race.rs`) import none of each other: the error answers, the most plies
//! or turns a game here lasts, and work run off the async threads within the
//! store's time limit.

// A refusal is the HTTP answer itself (`Err(Response)`), made once per
// request and sent at once: its size on the stack doesn't matter here.
#![allow(clippy::result_large_err)]

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::store::OpenGame;
use super::AppState;

/// The most plies a game of the web front end lasts (as `play`'s default);
/// a race game, the most turns.
pub const MAX_PLIES: usize = 2000;

/// An error answer: a status and `{"error": text}`.
pub fn refuse(status: StatusCode, text: impl Into<String>) -> Response {
    (status, Json(json!({ "error": text.into() }))).into_response()
}

/// A request that can't be served as it is (400).
pub fn bad(text: impl Into<String>) -> Response {
    refuse(StatusCode::BAD_REQUEST, text)
}

/// No game of that id (404).
pub fn no_game() -> Response {
    refuse(StatusCode::NOT_FOUND, "no such game (it may have expired)")
}

/// The game is over: nothing more is played (409).
pub fn game_over() -> Response {
    refuse(StatusCode::CONFLICT, "the game is over")
}

/// The library failed (500).
pub fn broken(e: String) -> Response {
    refuse(StatusCode::INTERNAL_SERVER_ERROR, e)
}

/// The id of a game in a path.
pub fn parse_id(id: &str) -> Option<u64> {
    id.parse().ok()
}

/// What a change to a game computed: the new game and, when the change
/// computed it, its state (no one computes it again).
pub type Done = Result<(OpenGame, Option<Value>), Response>;

/// Runs the work of a request off the async threads, for at most the
/// store's time limit: past it the request answers 503 naming the limit
/// (`what` names the work). Work that can't be interrupted is bounded in
/// size instead (a rule file, 1 MiB; a game, [`MAX_PLIES`]).
pub async fn blocking<T: Send + 'static>(
    app: &AppState,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Response> {
    let limit = app.store.limit();
    match tokio::time::timeout(limit, tokio::task::spawn_blocking(f)).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(_)) => Err(refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{what} failed"),
        )),
        Err(_) => Err(refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{what} took longer than the limit of {}: given up",
                limit_words(limit)
            ),
        )),
    }
}

/// `10 s`, `250 ms`: a time limit in words.
pub fn limit_words(d: std::time::Duration) -> String {
    if d.subsec_millis() == 0 && d.as_secs() > 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

/// A file name made of the game's name (letters, digits, `-`).
pub fn file_stem(name: &str) -> String {
    let s: String = name
        .trim_end_matches(".rules")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(60)
        .collect();
    if s.is_empty() {
        "game".into()
    } else {
        s
    }
}

/// A download: `text` as a file of type `kind` named `file`.
pub fn download(kind: &'static str, file: String, text: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        text,
    )
        .into_response()
}
