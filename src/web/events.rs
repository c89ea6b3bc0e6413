//! The event stream of a game (server-sent events): the page opens
//! `GET /api/games/{id}/events` once and receives the game's state each
//! time it changes, with no polling. While a computer player is to move,
//! the stream has it play (off the async threads, for at most
//! [`super::COMPUTER_CAP`], each search capped in time by the game's
//! strength) and sends the new state. A change made meanwhile (an undo, a
//! resignation, a new move) or closing the game interrupts it: the search
//! is told to stop ([`crate::agents::stop`]) and its result is dropped,
//! since the game's version moved on.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};

use super::api::{compute, computer_to_move, describe, refuse};
use super::AppState;

/// The pause before a computer player's move, so that a person sees each
/// move of a game between computer players.
pub const PAUSE: Duration = Duration::from_millis(100);

/// How often the stream looks again at a game nobody changes (so that an
/// expired game ends its stream; looking does not keep the game alive).
const LOOK_AGAIN: Duration = Duration::from_secs(60);

/// Where a stream is: the version of the game sent last, and the version
/// at which the computer failed (not tried again until the game changes).
struct Cursor {
    app: Arc<AppState>,
    watch: tokio::sync::watch::Receiver<u64>,
    sent: Option<u64>,
    failed: Option<u64>,
}

/// GET /api/games/{id}/events: the state as an `event: state` with JSON
/// data, at once and after each change; an `event: problem` when the
/// computer player fails (its search took too long).
pub async fn events(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> Response {
    let Ok(id) = id.parse::<u64>() else {
        return refuse(axum::http::StatusCode::NOT_FOUND, "no such game");
    };
    if app.store.get(id).is_none() {
        return refuse(
            axum::http::StatusCode::NOT_FOUND,
            "no such game (it may have expired)",
        );
    }
    let watch = app.store.watch();
    let start = Cursor {
        app,
        watch,
        sent: None,
        failed: None,
    };
    let stream = futures_util::stream::unfold(start, move |mut c| async move {
        loop {
            // Looked at without touching: an open page keeps no game alive.
            let (game, version) = c.app.store.peek(id)?;
            if c.sent != Some(version) {
                let state = describe(id, game, version).await.ok()?;
                let event = Event::default().event("state").json_data(state).ok()?;
                c.sent = Some(version);
                return Some((Ok::<_, Infallible>(event), c));
            }
            let computer = {
                let g = game.clone();
                tokio::task::spawn_blocking(move || computer_to_move(&g))
                    .await
                    .unwrap_or(false)
            };
            if computer && c.failed != Some(version) {
                tokio::time::sleep(PAUSE).await;
                if let Err(r) = compute(&c.app, id, super::api::computer_turn).await {
                    if r.status() != axum::http::StatusCode::CONFLICT {
                        c.failed = Some(version);
                        let event = Event::default()
                            .event("problem")
                            .data(format!("the computer player failed ({})", r.status()));
                        return Some((Ok(event), c));
                    }
                }
                continue;
            }
            // Wait for a change to any game, or look again later.
            let _ = tokio::time::timeout(LOOK_AGAIN, c.watch.changed()).await;
        }
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}
