//! What the handlers of board games (`api.rs`) and of race games
//! (`race.rs`) share, so that neither imports the other: the error answer
//! and the most plies or turns a game here lasts.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// The most plies a game of the web front end lasts (as `play`'s default);
/// a race game, the most turns.
pub const MAX_PLIES: usize = 2000;

/// An error answer: a status and `{"error": text}`.
pub fn refuse(status: StatusCode, text: impl Into<String>) -> Response {
    (status, Json(json!({ "error": text.into() }))).into_response()
}
