//! The event stream of a game (server-sent events): the page opens
//! `GET /api/games/{id}/events` once and receives the game's state each
//! time it changes, with no polling. While a computer player is to move,
//! the stream has it play (off the async threads, for at most
//! [`super::COMPUTER_CAP`], each search capped in time by the game's
//! strength) and sends the new state. A change made meanwhile (an undo, a
//! resignation, a new move) or closing the game interrupts it: the search
//! is told to stop ([`crate::agents::stop`]) and its result is dropped,
//! since the game's version moved on. However many pages watch a game, its
//! state is computed once per change and one search runs for each move of
//! its computer player: the first stream to see the computer to move claims
//! it ([`super::Store::claim_search`]) and starts it as a task of its own
//! (it goes on if that page closes); every stream sends the state it brings,
//! or the `problem` when it fails.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};

use super::change::{compute, describe, SearchClaim};
use super::reply::refuse;
use super::AppState;

/// The pause before a computer player's move, so that a person sees each
/// move of a game between computer players.
pub const PAUSE: Duration = Duration::from_millis(100);

/// How often the stream looks again at a game nobody changes (so that an
/// expired game ends its stream; looking does not keep the game alive).
const LOOK_AGAIN: Duration = Duration::from_secs(60);

/// Where a stream is: the version of the game sent last, and the version
/// whose failure of the computer it told.
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
        return refuse(StatusCode::NOT_FOUND, "no such game");
    };
    if app.store.get(id).is_none() {
        return refuse(StatusCode::NOT_FOUND, "no such game (it may have expired)");
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
            // The state of a version is computed once, whoever asks first.
            let state = describe(&c.app, id, game, version).await.ok()?;
            if c.sent != Some(version) {
                let event = Event::default().event("state").json_data(&state).ok()?;
                c.sent = Some(version);
                return Some((Ok::<_, Infallible>(event), c));
            }
            if c.failed != Some(version) && c.app.store.failed(id) == Some(version) {
                // The search of this version failed (not tried again until
                // the game changes).
                c.failed = Some(version);
                return Some((Ok(problem()), c));
            }
            let computer = state["computer_to_move"] == true;
            // One search per game: the first stream to claim it starts it,
            // apart from any stream (it goes on if that page closes), and
            // every stream sends the state it brings.
            if computer
                && c.app.store.failed(id) != Some(version)
                && c.app.store.claim_search(id, version)
            {
                let app = Arc::clone(&c.app);
                tokio::spawn(async move {
                    let claim = SearchClaim {
                        app: Arc::clone(&app),
                        id,
                        version,
                        failed: false,
                    };
                    tokio::time::sleep(PAUSE).await;
                    let done = compute(&app, id, super::store::OpenGame::computer_turn).await;
                    claim.end(matches!(done, Err(r) if r.status() != StatusCode::CONFLICT));
                });
            }
            // Wait for a change to any game, or look again later.
            let _ = tokio::time::timeout(LOOK_AGAIN, c.watch.changed()).await;
        }
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// The `problem` event: the computer player failed.
fn problem() -> Event {
    Event::default()
        .event("problem")
        .data("the computer player failed (it took too long, or found no move)")
}
