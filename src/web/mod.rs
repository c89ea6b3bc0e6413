//! `rulebook serve`: a local web front end over the same library as the
//! command line. A JSON API (the game list, games in progress of either
//! kind, one stored game played through the library's session,
//! [`crate::session::BoardSession`] or [`crate::session::RaceSession`], the
//! checker's diagnostics), an event
//! stream per game that brings the computer's moves, and pages embedded in
//! the binary (plain HTML, CSS and JavaScript, no network).
//! No rules live here or in the page: moves, explanations and pictures come
//! from the library.

pub mod api;
pub mod board;
pub mod change;
pub mod events;
pub mod guard;
pub mod kind;
pub mod library;
pub mod open;
pub mod race;
pub mod reply;
pub mod store;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::middleware;
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use axum::Router;

pub use library::Library;
pub use store::Store;

/// The largest request body accepted, in bytes (a rule file and a little).
pub const MAX_BODY: usize = library::MAX_RULE_FILE + 64 * 1024;
/// The longest a computer move may take before the request gives up.
pub const COMPUTER_CAP: Duration = Duration::from_secs(30);
/// The longest a request head (its line and headers) may take to arrive:
/// a connection still sending it then, or sending nothing, is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The most connections served at once; past it, a new connection waits
/// (in the system's queue) until one closes.
pub const MAX_CONNECTIONS: usize = 256;

/// How the server treats connections.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// How long a request head may take to arrive ([`HEADER_TIMEOUT`]).
    pub header_timeout: Duration,
    /// The most connections served at once ([`MAX_CONNECTIONS`]).
    pub max_connections: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            header_timeout: HEADER_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
        }
    }
}

/// What every request shares: the rule files and the open games.
pub struct AppState {
    /// The bundled games and the `--games DIR` files.
    pub library: Library,
    /// The open games.
    pub store: Store,
}

/// The web application: pages, assets and the JSON API, for a server on
/// 127.0.0.1.
pub fn router(library: Library) -> Router {
    router_with(library, Store::default())
}

/// The web application keeping its open games in `store` (one whose games
/// expire sooner, say), for a server on 127.0.0.1.
pub fn router_with(library: Library, store: Store) -> Router {
    app(library, store, "127.0.0.1")
}

/// The web application for a server listening as `host`.
pub fn app(library: Library, store: Store, host: &str) -> Router {
    let hosts = Arc::new(guard::Hosts::new(host));
    let state = Arc::new(AppState { library, store });
    Router::new()
        .route(
            "/",
            get(|| async { Html(include_str!("assets/index.html")) }),
        )
        .route(
            "/editor",
            get(|| async { Html(include_str!("assets/editor.html")) }),
        )
        .route(
            "/assets/api.js",
            get(|| async { asset("text/javascript", include_str!("assets/api.js")) }),
        )
        .route(
            "/assets/app.js",
            get(|| async { asset("text/javascript", include_str!("assets/app.js")) }),
        )
        .route(
            "/assets/editor.js",
            get(|| async { asset("text/javascript", include_str!("assets/editor.js")) }),
        )
        .route(
            "/assets/vendor/codemirror.js",
            get(|| async {
                asset(
                    "text/javascript",
                    include_str!("assets/vendor/codemirror.js"),
                )
            }),
        )
        .route(
            "/assets/rulebook.tmLanguage.json",
            get(|| async {
                asset(
                    "application/json",
                    include_str!("../../editors/vscode/syntaxes/rulebook.tmLanguage.json"),
                )
            }),
        )
        .route(
            "/assets/style.css",
            get(|| async { asset("text/css", include_str!("assets/style.css")) }),
        )
        .route("/api/games", get(api::list).post(open::new_game))
        .route("/api/games/load", post(open::load))
        .route("/rules", get(api::rules_page))
        .route("/api/rules", get(api::rules))
        .route("/api/check", post(api::check))
        .route("/api/save", post(api::save))
        .route("/api/games/{id}", get(api::state).delete(api::close))
        .route("/api/games/{id}/move", post(board::play))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/redo", post(api::redo))
        .route("/api/games/{id}/hint", post(api::hint))
        .route("/api/games/{id}/resign", post(board::resign))
        .route("/api/games/{id}/computer", post(api::computer))
        .route("/api/games/{id}/roll", post(race::roll))
        .route("/api/games/{id}/choose", post(race::choose))
        .route("/api/games/{id}/events", get(events::events))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/pdn", get(board::pdn))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn(guard::json_errors))
        .layer(middleware::from_fn_with_state(
            hosts,
            guard::hosts_and_origins,
        ))
        .with_state(state)
}

fn asset(kind: &'static str, text: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, kind)], text)
}

/// Whether `host` is a loopback address (only this machine can connect).
pub fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Serves until the process ends: binds `host:port`, then calls `bound`
/// with the address (to print it, open a browser).
pub fn serve(
    library: Library,
    host: &str,
    port: u16,
    bound: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(8)
        .enable_all()
        .build()
        .map_err(|e| format!("can't start the server: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .map_err(|e| format!("can't listen on {host}:{port}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("can't listen on {host}:{port}: {e}"))?;
        bound(addr);
        serve_on(
            listener,
            app(library, Store::default(), host),
            Settings::default(),
        )
        .await
    })
}

/// Serves `app` on `listener` until the listener fails: HTTP/1, each
/// connection on a task of its own, at most `settings.max_connections` at
/// once (the next one is accepted when one closes), each request head
/// read within `settings.header_timeout` or the connection closed.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    app: Router,
    settings: Settings,
) -> Result<(), String> {
    let permits = Arc::new(tokio::sync::Semaphore::new(settings.max_connections.max(1)));
    loop {
        let permit = Arc::clone(&permits)
            .acquire_owned()
            .await
            .map_err(|e| format!("the server stopped: {e}"))?;
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file handles, a connection reset before it was
                // taken: wait a little, then accept again.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(settings.header_timeout);
            let io = hyper_util::rt::TokioIo::new(stream);
            // A connection that fails (closed, timed out) just ends.
            let _ = http.serve_connection(io, service).await;
            drop(permit);
        });
    }
}
