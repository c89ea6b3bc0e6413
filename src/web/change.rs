//! A change to a stored game, of either kind: computed off the async
//! threads (for at most [`super::COMPUTER_CAP`]) from a copy of the game,
//! stored unless another change came first, and answered with the new
//! state; the state of a version is computed once and kept in the store
//! for every request and event stream that asks. What the kind-free
//! handlers (`api.rs`), the board games' (`board.rs`), the race games'
//! (`race.rs`) and the event streams (`events.rs`) share.

// A refusal is the HTTP answer itself (`Err(Response)`).
#![allow(clippy::result_large_err)]

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;

use super::reply::{blocking, broken, no_game, parse_id, refuse, Done};
use super::store::OpenGame;
use super::AppState;

/// Raises a stop flag when dropped: the work of a request that ends (time
/// limit, client gone) stops with it.
struct StopOnDrop(Arc<std::sync::atomic::AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Runs a change of a game off the async threads (for at most
/// [`super::COMPUTER_CAP`]); the new game, or the refusal to answer.
pub async fn compute(
    app: &AppState,
    id: u64,
    f: impl FnOnce(OpenGame) -> Done + Send + 'static,
) -> Result<(), Response> {
    let Some((g, version, stop)) = app.store.begin(id) else {
        return Err(no_game());
    };
    // The search of a computer player stops at once when the game changes
    // meanwhile, is closed or expires (its move would be refused), or when
    // this request ends first.
    let flag = Arc::clone(&stop);
    let _stop = StopOnDrop(stop);
    let task = tokio::task::spawn_blocking(move || crate::agents::stop::with_stop(flag, || f(g)));
    let changed = match tokio::time::timeout(super::COMPUTER_CAP, task).await {
        Ok(Ok(c)) => c,
        Ok(Err(_)) => return Err(refuse(StatusCode::INTERNAL_SERVER_ERROR, "failed")),
        Err(_) => {
            return Err(refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                "the computer player took too long",
            ));
        }
    };
    let (g, view) = changed?;
    if !app.store.put_with_view(id, g, version, view) {
        return Err(refuse(
            StatusCode::CONFLICT,
            "the game changed meanwhile: reload its state",
        ));
    }
    Ok(())
}

/// Runs a change of a game, stores it and answers with the new state.
pub async fn change(
    app: Arc<AppState>,
    id: &str,
    f: impl FnOnce(OpenGame) -> Done + Send + 'static,
) -> Response {
    let Some(id) = parse_id(id) else {
        return no_game();
    };
    // A person's request: the game's idle time starts again.
    app.store.touch(id);
    if let Err(r) = compute(&app, id, f).await {
        return r;
    }
    let Some((g, version)) = app.store.get(id) else {
        return no_game();
    };
    match describe(&app, id, g, version).await {
        Ok(v) => Json(v).into_response(),
        Err(r) => r,
    }
}

/// The state of a game at `version` (counting its changes: the page keeps
/// the newest of the states it receives): computed off the async threads
/// once per version, then kept in the store for every request and event
/// stream that asks. A state finished after its request's time limit is
/// kept all the same: the next request gets it at once.
pub async fn describe(
    app: &Arc<AppState>,
    id: u64,
    g: OpenGame,
    version: u64,
) -> Result<Value, Response> {
    let state = match app.store.view(id, version) {
        Some(v) => v,
        None => {
            let keep = Arc::clone(app);
            let made = blocking(app, "the game's state", move || {
                let v = Arc::new(g.view(id)?);
                keep.store.keep_view(id, version, Arc::clone(&v));
                Ok::<_, String>(v)
            });
            made.await?.map_err(broken)?
        }
    };
    let mut v = state.as_ref().clone();
    if let Some(o) = v.as_object_mut() {
        o.insert("id".into(), id.to_string().into());
        o.insert("version".into(), version.into());
    }
    Ok(v)
}

/// The state of stored game `id` at its current version.
pub async fn describe_stored(app: &Arc<AppState>, id: u64) -> Result<Value, Response> {
    let Some((g, version)) = app.store.get(id) else {
        return Err(no_game());
    };
    describe(app, id, g, version).await
}

/// The search of a game's computer move that a request or a stream
/// claimed ([`super::Store::claim_search`]): given back when it ends, or
/// when its request is dropped (the page closed) while it runs.
pub struct SearchClaim {
    /// The application.
    pub app: Arc<AppState>,
    /// The game.
    pub id: u64,
    /// The version searched.
    pub version: u64,
    /// Whether the search failed (the game's streams say so).
    pub failed: bool,
}

impl SearchClaim {
    /// The search ended; whether it failed.
    pub fn end(mut self, failed: bool) {
        self.failed = failed;
    }
}

impl Drop for SearchClaim {
    fn drop(&mut self) {
        self.app
            .store
            .end_search(self.id, self.version, self.failed);
    }
}
