//! Opening a game, of either kind: a new game of a rule file (bundled, of
//! the folder, or the editor's text), or a game loaded from a record or a
//! PDN file. The rule file is loaded once and its one [`Loaded`] decides
//! the kind: the game is handed to the module of its kind (`board.rs`,
//! `race.rs`) to be set up, and kept in the store.

// A refusal is the HTTP answer itself (`Err(Response)`).
#![allow(clippy::result_large_err)]

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::api::diagnostics_json;
use super::change::describe_stored;
use super::reply::{bad, blocking, refuse};
use super::store::{OpenGame, Play, Setup};
use super::{board, race, AppState};
use crate::agents::Strength;
use crate::load::{check_source, Loaded, Source};

type Shared = State<Arc<AppState>>;

/// The most playouts per move a web game may ask for.
pub const MAX_PLAYOUTS: u32 = 100_000;
/// The deepest alphabeta search a web game may ask for.
pub const MAX_DEPTH: u32 = 10;
/// The longest think time per move a web game may ask for, in ms.
pub const MAX_THINK_MS: u64 = 10_000;

/// The body of POST /api/games.
#[derive(Deserialize)]
pub struct NewGame {
    /// A bundled game or a file of the folder.
    game: String,
    /// The text to play instead of the file's (the editor's "play this").
    #[serde(default)]
    text: Option<String>,
    /// Option values.
    #[serde(default)]
    options: BTreeMap<String, String>,
    /// The agent of each side: human, random, greedy, mcts, alphabeta.
    #[serde(default)]
    sides: Vec<String>,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    playouts: Option<u32>,
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    think_ms: Option<u64>,
    /// The number of players of a race game (the rule file's fewest by
    /// default, or as many as `sides`).
    #[serde(default)]
    players: Option<usize>,
}

/// POST /api/games: opens a board or race game; 201 with its id and state.
pub async fn new_game(State(app): Shared, Json(body): Json<NewGame>) -> Response {
    if body.playouts.is_some_and(|p| p == 0 || p > MAX_PLAYOUTS) {
        return bad(format!("playouts must be 1 to {MAX_PLAYOUTS}"));
    }
    if body.depth.is_some_and(|d| d == 0 || d > MAX_DEPTH) {
        return bad(format!("depth must be 1 to {MAX_DEPTH}"));
    }
    if body.think_ms.is_some_and(|t| t == 0 || t > MAX_THINK_MS) {
        return bad(format!("think_ms must be 1 to {MAX_THINK_MS}"));
    }
    if body.sides.len() > 16 {
        return bad("too many sides");
    }
    let app2 = app.clone();
    created(&app, move || open(&app2, body), "opening the game").await
}

/// How hard the computer players think: what the request asks, with a
/// time cap on every search ([`MAX_THINK_MS`]) so that none runs longer.
fn strength(body: &NewGame) -> Strength {
    match body.think_ms {
        Some(t) => Strength {
            think: Some(std::time::Duration::from_millis(t)),
            playouts: body.playouts,
            depth: body.depth,
        },
        None => Strength {
            think: Some(std::time::Duration::from_millis(MAX_THINK_MS)),
            playouts: Some(
                body.playouts
                    .unwrap_or(crate::agents::mcts::DEFAULT_PLAYOUTS),
            ),
            depth: Some(
                body.depth
                    .unwrap_or(crate::agents::alphabeta::DEFAULT_DEPTH),
            ),
        },
    }
}

/// Loads, checks and compiles the game of a request.
fn open(app: &AppState, mut body: NewGame) -> Result<(OpenGame, Option<Value>), Response> {
    let strength = strength(&body);
    let options: Vec<(String, String)> = std::mem::take(&mut body.options).into_iter().collect();
    let checked = match body.text {
        Some(text) => check_source(
            Source {
                name: body.game.clone(),
                text,
            },
            &app.library,
            &options,
        ),
        None => {
            let text = app.library.text(&body.game).map_err(|e| {
                if e.is_outside() {
                    refuse(StatusCode::FORBIDDEN, e.to_string())
                } else {
                    refuse(StatusCode::NOT_FOUND, e.to_string())
                }
            })?;
            let name = if app.library.is_bundled(&body.game) {
                body.game.trim_end_matches(".rules").to_string()
            } else {
                body.game.clone()
            };
            check_source(Source { name, text }, &app.library, &options)
        }
    };
    if checked.errors() > 0 {
        return Err((
            StatusCode::UNPROCESSABLE_ENTITY,
            Json(json!({
                "error": format!("`{}` has errors; nothing was played", body.game),
                "check": diagnostics_json(&checked),
            })),
        )
            .into_response());
    }
    let setup = Setup {
        name: body.game,
        options: options.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        agents: body.sides,
        seed: body.seed,
        strength,
        work: Arc::default(),
    };
    match checked.loaded {
        None => Err(refuse(StatusCode::UNPROCESSABLE_ENTITY, "nothing to play")),
        Some(Loaded::Board(t)) => board::open(*t, setup).map(|(g, view)| (g, Some(view))),
        Some(Loaded::Race(r)) => race::open(r, setup, body.players).map(|g| (g, None)),
    }
}

/// The body of POST /api/games/load.
#[derive(Deserialize)]
pub struct LoadBody {
    /// `record` (JSON lines, as `play --record` writes) or `pdn`.
    format: String,
    /// The file's text.
    text: String,
    /// The game: for PDN, required; for a record, instead of the one its
    /// header names.
    #[serde(default)]
    game: Option<String>,
    /// Option values (PDN; a record has its own).
    #[serde(default)]
    options: BTreeMap<String, String>,
    /// Who plays each side (people by default).
    #[serde(default)]
    sides: Vec<String>,
    #[serde(default)]
    seed: u64,
    /// `end` (default): continue from the last move; `start`: from the
    /// first position, each move to come again by redo.
    #[serde(default)]
    at: Option<String>,
    /// Which game of a PDN file that holds several (1 is the first).
    #[serde(default)]
    pdn_game: Option<usize>,
}

/// The game of a PDN file to load: the only one, or game `chosen` (the
/// first is 1) of several; a file of several games and no choice is
/// refused, naming where each begins (never the first taken silently).
fn one_pdn_game(text: &str, chosen: Option<usize>) -> Result<crate::pdn::PdnGame, String> {
    let (mut games, error) = crate::pdn::parse_all(text);
    let n = games.len();
    match (chosen, error) {
        (Some(k), _) if (1..=n).contains(&k) => Ok(games.swap_remove(k - 1)),
        (Some(k), Some(e)) if k > n => Err(format!("the PDN file: {e}")),
        (Some(k), _) => Err(format!(
            "the PDN file holds {}: there is no game {k}",
            crate::words::count(n as u64, "game")
        )),
        (None, Some(e)) => Err(format!("the PDN file: {e}")),
        (None, None) if n > 1 => {
            let starts: Vec<String> = games
                .iter()
                .enumerate()
                .map(|(i, g)| format!("{} on line {}", i + 1, g.first_line.unwrap_or(1)))
                .collect();
            Err(format!(
                "the PDN file holds {n} games ({}): choose one (pdn_game)",
                starts.join(", ")
            ))
        }
        (None, None) => Ok(games.pop().unwrap_or_default()),
    }
}

/// POST /api/games/load: opens a board game from a record or a PDN file,
/// every move checked by the library; 201 and the state, 422 naming the
/// line of the first move that can't be played.
pub async fn load(State(app): Shared, Json(body): Json<LoadBody>) -> Response {
    if body.sides.len() > 16 {
        return bad("too many sides");
    }
    let from_start = match body.at.as_deref() {
        None | Some("end") => false,
        Some("start") => true,
        Some(other) => {
            return bad(format!(
                "at `{}`: use start or end",
                crate::shown::shown(other)
            ))
        }
    };
    let app2 = app.clone();
    created(
        &app,
        move || loaded(&app2, body, from_start).map(|g| (g, None)),
        "loading the game",
    )
    .await
}

/// Opens a game off the async threads with `make` (`what` names the work
/// in the error if it fails), keeps it in the store and answers 201 with
/// its state.
async fn created(
    app: &Arc<AppState>,
    make: impl FnOnce() -> Result<(OpenGame, Option<Value>), Response> + Send + 'static,
    what: &str,
) -> Response {
    let game = match blocking(app, what, make).await {
        Ok(Ok(g)) => g,
        Ok(Err(r)) | Err(r) => return r,
    };
    let (game, view) = game;
    let id = match app.store.add(game) {
        Ok(id) => id,
        Err(e) => return refuse(StatusCode::SERVICE_UNAVAILABLE, e),
    };
    if let Some(v) = view {
        app.store.keep_view(id, 0, Arc::new(v));
    }
    match describe_stored(app, id).await {
        Ok(v) => (StatusCode::CREATED, Json(v)).into_response(),
        Err(r) => r,
    }
}

/// Reads a record or PDN, opens its game and plays its moves.
fn loaded(app: &AppState, body: LoadBody, from_start: bool) -> Result<OpenGame, Response> {
    let unplayable = |e: String| refuse(StatusCode::UNPROCESSABLE_ENTITY, e);
    let (game, options, record, pdn) = match body.format.as_str() {
        "record" => {
            // The header says which game; its turns are read once the game
            // is known to be a board or a race game.
            let first = body.text.lines().find(|l| !l.trim().is_empty());
            let header: crate::record::Header = first
                .and_then(|l| serde_json::from_str(l.trim()).ok())
                .ok_or_else(|| {
                    unplayable(
                        "the record: line 1 is not a record's header (JSON with the game's name)"
                            .to_string(),
                    )
                })?;
            let game = body.game.clone().unwrap_or_else(|| header.game.clone());
            let options: BTreeMap<String, String> = header
                .options
                .iter()
                .filter_map(|o| o.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (game, options, Some(header), None)
        }
        "pdn" => {
            let Some(game) = body.game.clone() else {
                return Err(bad("a PDN file needs the game it is played in"));
            };
            let parsed = one_pdn_game(&body.text, body.pdn_game).map_err(unplayable)?;
            (game, body.options.clone(), None, Some(parsed))
        }
        other => {
            return Err(bad(format!(
                "format `{}`: use record or pdn",
                crate::shown::shown(other)
            )))
        }
    };
    // Replayed move by move, every side is a person's: a computer to move
    // would play instead of the record's next move.
    let sides = if from_start { Vec::new() } else { body.sides };
    let request = NewGame {
        game,
        text: None,
        options,
        sides,
        seed: body.seed,
        playouts: None,
        depth: None,
        think_ms: None,
        players: record.as_ref().and_then(|h| h.players),
    };
    let mut g = open(app, request)?.0;
    match &mut g.play {
        Play::Board(b) => board::load(b, &body.text, record.is_some(), pdn, from_start)?,
        Play::Race(r) => {
            // The dice of a race game go on from the record's seed.
            let Some(seed) = record.as_ref().map(|h| h.seed) else {
                return Err(bad("a PDN file is for board games"));
            };
            let Some(seed) = seed else {
                return Err(unplayable(
                    "the record has no seed: its dice can't go on here (`rulebook replay` shows it)"
                        .to_string(),
                ));
            };
            g.setup.seed = seed;
            race::load(r, &g.setup, &body.text, from_start)?;
        }
    }
    Ok(g)
}
