//! The JSON API of `rulebook serve`: the game list, rule files and their
//! diagnostics, and board games in progress (state, moves, undo, redo,
//! hint, resign, computer moves, records). Every game is played by a
//! [`BoardSession`] built again from the stored moves, off the async
//! threads: once per change (the change and the new state from the same
//! session), while the state of a version is computed once and kept in the
//! store for every request and page that asks. The work of a request runs
//! for at most the store's limit ([`super::store::REQUEST_LIMIT`]).

// A refusal is the HTTP answer itself (`Err(Response)`), made once per
// request and sent at once: its size on the stack doesn't matter here.
#![allow(clippy::result_large_err)]

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::reply::{refuse, MAX_PLIES};
use super::store::{Open, OpenGame, OpenRace};
use super::AppState;
use crate::agents::Strength;
use crate::board::{Move, Position, Tables};
use crate::load::{check_source, Checked, Loaded, Source};
use crate::session::board::{Ending, Next};
use crate::session::{BoardSession, Entry, Undo};

type Shared = State<Arc<AppState>>;

/// The most playouts per move a web game may ask for.
pub const MAX_PLAYOUTS: u32 = 100_000;
/// The deepest alphabeta search a web game may ask for.
pub const MAX_DEPTH: u32 = 10;
/// The longest think time per move a web game may ask for, in ms.
pub const MAX_THINK_MS: u64 = 10_000;

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

fn bad(text: impl Into<String>) -> Response {
    refuse(StatusCode::BAD_REQUEST, text)
}

fn no_game() -> Response {
    refuse(StatusCode::NOT_FOUND, "no such game (it may have expired)")
}

/// One option of a game, with its values (the default first).
#[derive(Serialize)]
struct OptionItem {
    name: String,
    values: Vec<String>,
}

/// GET /api/games: every game with title, kind, players and options;
/// files with errors are listed with their error count. A file is checked
/// again only when it (or a file it extends) changed since its last check
/// ([`super::library::Library::checked`]).
pub async fn list(State(app): Shared) -> Response {
    let app2 = app.clone();
    let permits = tokio::time::timeout(app.store.limit(), async {
        let listing = app.library.list_permit().await?;
        let checking = app.library.check_permit().await?;
        Ok::<_, tokio::sync::AcquireError>((listing, checking))
    })
    .await;
    let Ok(Ok(permits)) = permits else {
        return busy(&app);
    };
    let games = blocking(&app, "listing the games", move || {
        let _permits = permits;
        app2.library
            .names()
            .into_iter()
            .map(|(name, bundled)| {
                let lib = &app2.library;
                lib.checked(&name, |checked| game_item(&name, bundled, checked))
                    .as_ref()
                    .clone()
            })
            .collect::<Vec<Value>>()
    })
    .await;
    match games {
        Ok(g) => Json(json!({ "games": g })).into_response(),
        Err(r) => r,
    }
}

/// The answer when every check permit stays taken for the whole time limit.
fn busy(app: &AppState) -> Response {
    refuse(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "{} checks are running and none ended within the limit of {}: try again later",
            super::library::MAX_CHECKS_AT_ONCE,
            limit_words(app.store.limit())
        ),
    )
}

/// `10 s`, `250 ms`: a time limit in words.
fn limit_words(d: std::time::Duration) -> String {
    if d.subsec_millis() == 0 && d.as_secs() > 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

/// A game of the list: title, kind, players and options, or its error
/// count.
fn game_item(name: &str, bundled: bool, checked: &Checked) -> Value {
    // The names of the sides (board) or seats (race), for the
    // setup page.
    let sides: Vec<String> = checked
        .loaded
        .as_ref()
        .map(Loaded::seat_names)
        .unwrap_or_default();
    match checked.summary() {
        Some(s) => json!({
            "agents": players_for(checked.board().is_some() && sides.len() == 2),
            "sides": sides,
            "name": name,
            "bundled": bundled,
            "title": s.title,
            "kind": s.kind.word(),
            "players": s.players(),
            "min_players": s.min_players,
            "max_players": s.max_players,
            "options": s.options.iter().map(|(n, v)| OptionItem { name: n.clone(), values: v.clone() }).collect::<Vec<_>>(),
        }),
        None => json!({
            "name": name,
            "bundled": bundled,
            "errors": checked.errors(),
        }),
    }
}

/// The players a seat may have, from the one list of the code: alphabeta
/// only where two sides play without dice.
fn players_for(two_sides_without_dice: bool) -> Vec<&'static str> {
    crate::agents::PLAYERS
        .iter()
        .copied()
        .filter(|&a| a != "alphabeta" || two_sides_without_dice)
        .collect()
}

/// The query of GET /api/rules.
#[derive(Deserialize)]
pub struct RulesQuery {
    name: String,
}

/// GET /api/rules?name=N: the text of a bundled game or a file of the
/// folder; 404 for a missing one, 403 for a name outside the folder.
pub async fn rules(State(app): Shared, Query(q): Query<RulesQuery>) -> Response {
    match app.library.text(&q.name) {
        Ok(text) => Json(json!({ "name": q.name, "text": text })).into_response(),
        Err(e) if e.is_outside() => refuse(StatusCode::FORBIDDEN, e.to_string()),
        Err(e @ super::library::FolderError::NotAFileName { .. }) => bad(e.to_string()),
        Err(e) => refuse(StatusCode::NOT_FOUND, e.to_string()),
    }
}

/// The body of POST /api/save.
#[derive(Deserialize)]
pub struct SaveBody {
    /// The file's name inside the games folder (`house.rules`, `sub/x.rules`).
    name: String,
    /// Its new text.
    text: String,
}

/// What a save answers.
#[derive(Serialize)]
struct Saved {
    saved: String,
    bytes: usize,
}

/// POST /api/save: writes a rule file inside `--games DIR`, atomically;
/// 403 for a name leaving the folder or without a folder, 400 for a bad
/// name.
pub async fn save(State(app): Shared, Json(body): Json<SaveBody>) -> Response {
    let done = tokio::task::spawn_blocking(move || {
        app.library
            .save(&body.name, &body.text)
            .map(|()| (body.name, body.text.len()))
    })
    .await;
    use super::library::Refused;
    match done {
        Ok(Ok((saved, bytes))) => Json(Saved { saved, bytes }).into_response(),
        Ok(Err(Refused::NoFolder(e) | Refused::Outside(e))) => refuse(StatusCode::FORBIDDEN, e),
        Ok(Err(Refused::Bad(e))) => bad(e),
        Ok(Err(Refused::Failed(e))) => refuse(StatusCode::INTERNAL_SERVER_ERROR, e),
        Err(_) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "saving failed"),
    }
}

/// The body of POST /api/check.
#[derive(Deserialize)]
pub struct CheckBody {
    text: String,
    #[serde(default)]
    name: Option<String>,
}

/// The diagnostics of a check as JSON: code, severity, message, file, line,
/// column (1-based, of the primary span's start and end), hint, and the
/// whole text as `rulebook check` prints it.
pub fn diagnostics_json(checked: &Checked) -> Value {
    let list: Vec<Value> = checked
        .diagnostics
        .iter()
        .map(|d| {
            let primary = d.labels.iter().find(|l| l.primary).or(d.labels.first());
            let place = primary.and_then(|l| {
                let f = checked.sources.get(l.span.file)?;
                let (line, column) = f.line_col(l.span.begin as usize);
                let (end_line, end_column) = f.line_col(l.span.end as usize);
                Some(json!({
                    "file": f.name, "line": line, "column": column,
                    "end_line": end_line, "end_column": end_column,
                    "label": l.text,
                }))
            });
            json!({
                "code": d.code.as_str(),
                "severity": if d.is_error() { "error" } else { "warning" },
                "message": d.message,
                "at": place,
                "hint": d.help,
            })
        })
        .collect();
    json!({
        "diagnostics": list,
        "errors": checked.errors(),
        "warnings": checked.warnings(),
        "rendered": checked.render(),
    })
}

/// POST /api/check: checks the text of a rule file (files it extends come
/// from the bundled games and the folder).
/// The check runs for at most the store's time limit (a 503 past it); as
/// a check can't be interrupted, at most
/// [`super::library::MAX_CHECKS_AT_ONCE`] run at once, each of a text of at
/// most 1 MiB.
pub async fn check(State(app): Shared, Json(body): Json<CheckBody>) -> Response {
    let name = body.name.unwrap_or_else(|| "edited.rules".into());
    let permit = match tokio::time::timeout(app.store.limit(), app.library.check_permit()).await {
        Ok(Ok(p)) => p,
        _ => return busy(&app),
    };
    let app2 = app.clone();
    let checked = blocking(&app, "the check", move || {
        let _permit = permit;
        let source = Source {
            name,
            text: body.text,
        };
        diagnostics_json(&check_source(source, &app2.library, &[]))
    })
    .await;
    match checked {
        Ok(c) => Json(c).into_response(),
        Err(r) => r,
    }
}

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
fn open(app: &AppState, mut body: NewGame) -> Result<(Open, Option<Value>), Response> {
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
    let opts: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let t = match checked.loaded {
        None => return Err(refuse(StatusCode::UNPROCESSABLE_ENTITY, "nothing to play")),
        Some(Loaded::Board(t)) => *t,
        Some(Loaded::Race(race)) => {
            let (min, max) = (usize::from(race.min_players), usize::from(race.max_players));
            let players = body.players.unwrap_or(body.sides.len().max(min));
            if players < min || players > max {
                return Err(bad(format!(
                    "{players} players; this game takes {min} to {max}"
                )));
            }
            if body.sides.len() > players {
                return Err(bad(format!(
                    "{} seats given for {players} players",
                    body.sides.len()
                )));
            }
            let mut agents = body.sides;
            agents.resize(players, "human".into());
            let open = OpenRace {
                game: Arc::from(race),
                name: body.game,
                options: opts,
                agents,
                seed: body.seed,
                strength,
                choices: Vec::new(),
                rolled: false,
                undone: Vec::new(),
            };
            // The seats are checked now, so a bad agent is refused at once.
            super::race::with_race(&open, |_, _| ()).map_err(bad)?;
            return Ok((Open::Race(open), None));
        }
    };
    let mut agents = body.sides;
    if agents.len() > t.nsides {
        return Err(bad(format!(
            "{} sides given; this game has {}",
            agents.len(),
            t.nsides
        )));
    }
    agents.resize(t.nsides, "human".into());
    let start = Position::start(&t);
    let t = Arc::new(t);
    let game = OpenGame::new(
        Arc::clone(&t),
        body.game,
        opts,
        start.clone(),
        agents.clone(),
        body.seed,
        strength,
    );
    // The agents are checked now, so a bad name is refused at once; the
    // session is the game's first state too.
    let players = BoardSession::players_view(&t);
    let s = BoardSession::new(&players, start, &agents, body.seed, strength)
        .map_err(|e| bad(e.to_string()))?
        .with_max_plies(MAX_PLIES as u32);
    let view = board_view(&game, &s);
    Ok((Open::Board(game), Some(view)))
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
    make: impl FnOnce() -> Result<(Open, Option<Value>), Response> + Send + 'static,
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
fn loaded(app: &AppState, body: LoadBody, from_start: bool) -> Result<Open, Response> {
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
    let mut g = match open(app, request)?.0 {
        Open::Board(g) => g,
        Open::Race(mut r) => {
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
            r.seed = seed;
            return super::race::load(r, &body.text, from_start).map(Open::Race);
        }
    };
    let (start, moves) = if record.is_some() {
        let rec = crate::record::BoardRecord::parse(&body.text)
            .map_err(|p| unplayable(format!("the record: {}", p.error)))?;
        let r = rec.replay(&g.tables);
        if let Some(e) = r.error {
            return Err(unplayable(format!("the record: {e}")));
        }
        let start = rec
            .start(&g.tables)
            .map_err(|e| unplayable(format!("the record: {e}")))?;
        (start, r.played.into_iter().map(|(m, _)| m).collect())
    } else if let Some(p) = pdn {
        let (start, moves, error) = crate::pdn::play(&g.tables, &p);
        if let Some(e) = error {
            return Err(unplayable(format!("the PDN file: {e}")));
        }
        (start, moves)
    } else {
        return Err(bad("nothing to load"));
    };
    if moves.len() > MAX_PLIES {
        return Err(unplayable(format!(
            "{} plies; a game here has at most {MAX_PLIES}",
            moves.len()
        )));
    }
    g.start = start;
    if from_start {
        g.undone = moves.into_iter().rev().collect();
    } else {
        g.played = moves;
    }
    Ok(Open::Board(g))
}

/// Builds the session of a stored game, replays its moves and runs `f`.
fn with_session<R>(g: &OpenGame, f: impl FnOnce(&mut BoardSession<'_>) -> R) -> Result<R, String> {
    let tables = Arc::clone(&g.tables);
    let view = BoardSession::players_view(&tables);
    let mut s = session_of(&view, g)?;
    Ok(f(&mut s))
}

/// [`with_session`] where `f` may also change the stored game (the session
/// is built from it first): a change and the new state from one replay.
fn with_session_mut<R>(
    g: &mut OpenGame,
    f: impl FnOnce(&mut BoardSession<'_>, &mut OpenGame) -> R,
) -> Result<R, String> {
    let tables = Arc::clone(&g.tables);
    let view = BoardSession::players_view(&tables);
    let mut s = session_of(&view, g)?;
    Ok(f(&mut s, g))
}

/// The session of a stored game, its moves replayed (counted in the game's
/// [`super::store::Work`]: each replay generates the moves of every
/// position played).
fn session_of<'t>(
    view: &'t crate::agents::board::BoardGame<'t>,
    g: &OpenGame,
) -> Result<BoardSession<'t>, String> {
    g.work
        .sessions
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut s = BoardSession::new(view, g.start.clone(), &g.agents, g.seed, g.strength)
        .map_err(|e| e.to_string())?
        .with_max_plies(MAX_PLIES as u32)
        .named(&g.name, &g.options);
    for m in &g.played {
        s.play(m);
    }
    if let Some(side) = g.resigned {
        s.resign_side(side);
    }
    Ok(s)
}

/// A move as the page sees it: notation, the squares it visits
/// (algebraic, from the start) and the squares it takes.
fn move_json(t: &Tables, m: &Move) -> Value {
    let alg = |s: crate::board::game::Sq| {
        t.game
            .squares
            .get(usize::from(s.0))
            .map_or_else(String::new, |i| i.algebraic.clone())
    };
    let mut squares: Vec<String> = m.from.iter().map(|&s| alg(s)).collect();
    squares.extend(m.path.iter().map(|&s| alg(s)));
    json!({
        "notation": m.notation,
        "squares": squares,
        "captured": m.captured.iter().map(|&s| alg(s)).collect::<Vec<_>>(),
    })
}

/// The result of a game in words, None while it goes on.
fn result_text(_g: &OpenGame, s: &BoardSession<'_>) -> Option<String> {
    Some(match s.ending()? {
        Ending::Rules(o) => crate::narrate::board::outcome(s.tables(), &o),
        Ending::Resigned(side) => format!("{} resigned", s.name_of(side)),
        Ending::Limit(n) => format!("stopped after {}", crate::words::count(u64::from(n), "ply")),
    })
}

/// The state of a game as JSON.
fn state_json(g: &OpenGame) -> Result<Value, String> {
    with_session(g, |s| board_view(g, s))
}

/// The state of a game as JSON, from its session (at the game's last
/// move).
fn board_view(g: &OpenGame, s: &BoardSession<'_>) -> Value {
    {
        let t = s.tables();
        let pos = &s.game().pos;
        let result = result_text(g, s);
        let over = result.is_some();
        json!({
            "game": g.name,
            "title": t.game.title,
            "options": g.options,
            "sides": t.game.sides.iter().zip(&g.agents).map(|(side, a)| json!({"name": side.name, "agent": a})).collect::<Vec<_>>(),
            "to_move": s.to_move(),
            "side_to_move": s.side_name(),
            "human_to_move": !over && s.human_to_move(),
            "computer_to_move": !over && !s.human_to_move(),
            "svg": crate::format::svg::board::Picture { over, ..Default::default() }.render(t, pos),
            "board": {
                "width": t.game.width, "height": t.game.height,
                "cell": crate::format::svg::board::CELL,
                "margin": crate::format::svg::board::MARGIN,
            },
            "squares": t.game.squares.iter().map(|q| json!({"name": q.algebraic, "file": q.file, "rank": q.rank})).collect::<Vec<_>>(),
            "legal": if over { Vec::new() } else { s.game().legal().iter().map(|m| move_json(t, m)).collect::<Vec<_>>() },
            "last_move": s.game().played().last().map(|m| move_json(t, m)),
            "events": g.events,
            "moves": s.game().played().iter().map(|m| m.notation.clone()).collect::<Vec<_>>(),
            "move_list": s.move_list(),
            "position": pos.to_fen(t),
            "result": result,
            "can_undo": !g.played.is_empty(),
            "can_redo": !g.undone.is_empty(),
        })
    }
}

/// The state of a game of either kind as JSON.
fn open_json(id: u64, g: &Open) -> Result<Value, String> {
    match g {
        Open::Board(b) => state_json(b),
        Open::Race(r) => super::race::view(id, r)
            .and_then(|v| serde_json::to_value(v).map_err(|e| e.to_string())),
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
    g: Open,
    version: u64,
) -> Result<Value, Response> {
    let state = match app.store.view(id, version) {
        Some(v) => v,
        None => {
            let keep = Arc::clone(app);
            let made = blocking(app, "the game's state", move || {
                let v = Arc::new(open_json(id, &g)?);
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

fn parse_id(id: &str) -> Option<u64> {
    id.parse().ok()
}

/// The state of stored game `id` at its current version.
async fn describe_stored(app: &Arc<AppState>, id: u64) -> Result<Value, Response> {
    let Some((g, version)) = app.store.get(id) else {
        return Err(no_game());
    };
    describe(app, id, g, version).await
}

/// GET /api/games/{id}: the state of a game.
pub async fn state(State(app): Shared, Path(id): Path<String>) -> Response {
    let Some(id) = parse_id(&id) else {
        return no_game();
    };
    let Some((g, version)) = app.store.get(id) else {
        return no_game();
    };
    match describe(&app, id, g, version).await {
        Ok(v) => Json(v).into_response(),
        Err(r) => r,
    }
}

/// What a change to a board game computed: the new game and its state
/// (from the same session), or a refusal.
type Change = Result<(OpenGame, Option<Value>), Response>;

/// What a change to a game of either kind computed: the new game and, when
/// the change computed it, its state (no one computes it again).
pub type Done = Result<(Open, Option<Value>), Response>;

fn broken(e: String) -> Response {
    refuse(StatusCode::INTERNAL_SERVER_ERROR, e)
}

/// Runs a change of a board game off the async threads, stores it and
/// answers with the new state.
async fn change(
    app: Arc<AppState>,
    id: &str,
    f: impl FnOnce(OpenGame) -> Change + Send + 'static,
) -> Response {
    change_open(app, id, |g| match g {
        Open::Board(b) => f(b).map(|(b, v)| (Open::Board(b), v)),
        Open::Race(_) => Err(refuse(
            StatusCode::CONFLICT,
            "this is a race game: roll and choose",
        )),
    })
    .await
}

/// Runs a change of a race game off the async threads, stores it and
/// answers with the new state.
async fn change_race(
    app: Arc<AppState>,
    id: &str,
    f: impl FnOnce(OpenRace) -> Result<OpenRace, Response> + Send + 'static,
) -> Response {
    change_open(app, id, |g| match g {
        Open::Race(r) => f(r).map(|r| (Open::Race(r), None)),
        Open::Board(_) => Err(refuse(
            StatusCode::CONFLICT,
            "this is a board game: move a piece",
        )),
    })
    .await
}

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
    f: impl FnOnce(Open) -> Done + Send + 'static,
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
async fn change_open(
    app: Arc<AppState>,
    id: &str,
    f: impl FnOnce(Open) -> Done + Send + 'static,
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

fn game_over() -> Response {
    refuse(StatusCode::CONFLICT, "the game is over")
}

/// The body of POST /api/games/{id}/move.
#[derive(Deserialize)]
pub struct MoveBody {
    /// The move as typed at the prompt: notation, a unique prefix, squares.
    #[serde(rename = "move")]
    text: String,
}

/// POST /api/games/{id}/move: plays a move read as the prompt reads it;
/// 422 with the prompt's explanation when it is not a legal move. The game
/// is replayed once: the move is read, played and the new state made from
/// the same session.
pub async fn play(State(app): Shared, Path(id): Path<String>, Json(b): Json<MoveBody>) -> Response {
    if b.text.len() > 200 {
        return bad("a move is at most 200 characters");
    }
    change(app, &id, move |mut g| {
        let view = with_session_mut(&mut g, |s, g| {
            if result_text(g, s).is_some() {
                return Err(game_over());
            }
            if !s.human_to_move() {
                return Err(refuse(StatusCode::CONFLICT, "the computer is to move"));
            }
            match s.enter("", &b.text) {
                Entry::Play(m) => {
                    g.events = s.play_turn(&m).events;
                    g.played.push(m);
                    g.undone.clear();
                    Ok(board_view(g, s))
                }
                Entry::GoOn { so_far, moves } => Err((
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Json(json!({
                        "error": format!("`{so_far}` begins several captures: {}", moves.join(", ")),
                        "moves": moves,
                    })),
                )
                    .into_response()),
                Entry::Illegal(why) | Entry::Unclear(why) => {
                    Err(refuse(StatusCode::UNPROCESSABLE_ENTITY, why))
                }
            }
        })
        .map_err(broken)??;
        Ok((g, Some(view)))
    })
    .await
}

/// POST /api/games/{id}/undo: back to the previous turn of the side to
/// move; in a race game, to the last turn a person played (its dice again).
pub async fn undo(State(app): Shared, Path(id): Path<String>) -> Response {
    change_open(app, &id, |g| match g {
        Open::Board(b) => board_undo(b).map(|(b, v)| (Open::Board(b), v)),
        Open::Race(r) => super::race::undo(r).map(|r| (Open::Race(r), None)),
    })
    .await
}

fn board_undo(mut g: OpenGame) -> Change {
    let view = with_session_mut(&mut g, |s, g| {
        if s.undo() == Undo::Nothing {
            return Err(refuse(StatusCode::CONFLICT, "nothing to undo"));
        }
        let kept = s.game().played().len();
        let back: Vec<Move> = g.played.drain(kept..).rev().collect();
        g.undone.extend(back);
        g.events.clear();
        // A resignation taken back is still in this session: its state is
        // made afresh.
        let resigned = g.resigned.take().is_some();
        Ok((!resigned).then(|| board_view(g, s)))
    })
    .map_err(broken)??;
    Ok((g, view))
}

/// POST /api/games/{id}/redo: plays again the next move taken back (in a
/// race game, the person's choice taken back, with the same dice).
pub async fn redo(State(app): Shared, Path(id): Path<String>) -> Response {
    change_open(app, &id, |g| match g {
        Open::Board(b) => board_redo(b).map(|(b, v)| (Open::Board(b), v)),
        Open::Race(r) => super::race::redo(r).map(|r| (Open::Race(r), None)),
    })
    .await
}

fn board_redo(mut g: OpenGame) -> Change {
    let Some(m) = g.undone.pop() else {
        return Err(refuse(StatusCode::CONFLICT, "nothing to redo"));
    };
    let view = with_session_mut(&mut g, |s, g| {
        g.events = s.play_turn(&m).events;
        g.played.push(m);
        board_view(g, s)
    })
    .map_err(broken)?;
    Ok((g, Some(view)))
}

/// POST /api/games/{id}/resign: the person to move resigns; while a
/// computer player is to move (and thinks), the person playing against it
/// (the only person's side; with none or several, the side to move).
pub async fn resign(State(app): Shared, Path(id): Path<String>) -> Response {
    change(app, &id, |mut g| {
        let view = with_session_mut(&mut g, |s, g| {
            if result_text(g, s).is_some() {
                return Err(game_over());
            }
            let (side, human) = (s.to_move(), s.human_to_move());
            let people: Vec<usize> = (0..g.agents.len())
                .filter(|&i| g.agents[i] == "human")
                .collect();
            let side = match people.as_slice() {
                [person] if !human => *person,
                _ => side,
            };
            g.resigned = Some(side);
            s.resign_side(side);
            Ok(board_view(g, s))
        })
        .map_err(broken)??;
        Ok((g, Some(view)))
    })
    .await
}

/// DELETE /api/games/{id}: closes a game (the page left it); a computer
/// player thinking in it stops. 204, or 404 for no such game.
pub async fn close(State(app): Shared, Path(id): Path<String>) -> Response {
    match parse_id(&id) {
        Some(id) if app.store.remove(id) => StatusCode::NO_CONTENT.into_response(),
        _ => no_game(),
    }
}

/// The computer player to move plays: a board move (the game replayed
/// once: the search, the move and the new state from one session), or a
/// race turn (roll and choice).
pub fn computer_turn(g: Open) -> Done {
    match g {
        Open::Race(r) => super::race::computer(r).map(|r| (Open::Race(r), None)),
        Open::Board(mut g) => {
            let view = with_session_mut(&mut g, |s, g| {
                if result_text(g, s).is_some() {
                    return Err(game_over());
                }
                let next = s.advance().map_err(|e| broken(e.to_string()))?;
                let turn = match next {
                    Next::Played(turn) => turn,
                    Next::Person => {
                        return Err(refuse(StatusCode::CONFLICT, "a person is to move"))
                    }
                    Next::Over(_) => return Err(game_over()),
                };
                g.played.push(turn.mv);
                g.undone.clear();
                g.events = turn.events;
                Ok(board_view(g, s))
            })
            .map_err(broken)??;
            Ok((Open::Board(g), Some(view)))
        }
    }
}

/// Whether a computer player is to move in a game of either kind.
pub fn computer_to_move(g: &Open) -> bool {
    match g {
        Open::Race(r) => super::race::computer_to_move(r),
        Open::Board(b) => {
            with_session(b, |s| result_text(b, s).is_none() && !s.human_to_move()).unwrap_or(false)
        }
    }
}

/// POST /api/games/{id}/computer: the computer player to move plays (off
/// the async threads, for at most [`super::COMPUTER_CAP`]); 409 while the
/// game's move is already being searched (by a page's event stream, which
/// brings it).
pub async fn computer(State(app): Shared, Path(id): Path<String>) -> Response {
    let Some(n) = parse_id(&id) else {
        return no_game();
    };
    let Some((_, version)) = app.store.get(n) else {
        return no_game();
    };
    if !app.store.claim_search(n, version) {
        return refuse(
            StatusCode::CONFLICT,
            "the computer player is already thinking: its move comes on the game's event stream",
        );
    }
    let claim = SearchClaim {
        app: Arc::clone(&app),
        id: n,
        version,
        failed: false,
    };
    let answer = change_open(app, &id, computer_turn).await;
    let failed = !answer.status().is_success() && answer.status() != StatusCode::CONFLICT;
    claim.end(failed);
    answer
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

/// The body of POST /api/games/{id}/choose.
#[derive(Deserialize)]
pub struct ChooseBody {
    /// `enter`, `pass` or the cell of the piece to move.
    choice: String,
}

/// POST /api/games/{id}/roll: the person to roll of a race game rolls.
pub async fn roll(State(app): Shared, Path(id): Path<String>) -> Response {
    change_race(app, &id, super::race::roll).await
}

/// POST /api/games/{id}/choose: the person who rolled chooses; 422 with
/// the rule when the choice is not legal.
pub async fn choose(
    State(app): Shared,
    Path(id): Path<String>,
    Json(b): Json<ChooseBody>,
) -> Response {
    if b.choice.len() > 200 {
        return bad("a choice is at most 200 characters");
    }
    change_race(app, &id, move |g| super::race::choose(g, &b.choice)).await
}

/// POST /api/games/{id}/hint: the move a greedy player suggests (in a
/// race game, the choice for the person's roll).
pub async fn hint(State(app): Shared, Path(id): Path<String>) -> Response {
    let Some(id) = parse_id(&id) else {
        return no_game();
    };
    let g = match app.store.get(id) {
        None => return no_game(),
        Some((Open::Race(r), _)) => {
            return match tokio::task::spawn_blocking(move || super::race::hint(&r)).await {
                Ok(Ok(h)) => Json(h).into_response(),
                Ok(Err(r)) => r,
                Err(_) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "failed"),
            }
        }
        Some((Open::Board(g), _)) => g,
    };
    let found = blocking(&app, "the hint", move || {
        with_session(&g, |s| s.hint().map(|m| move_json(s.tables(), &m)))
    })
    .await;
    match found {
        Ok(Ok(Some(m))) => Json(json!({ "hint": m })).into_response(),
        Ok(Ok(None)) => refuse(StatusCode::CONFLICT, "no move to suggest"),
        Ok(Err(e)) => broken(e),
        Err(r) => r,
    }
}

fn download(kind: &'static str, file: String, text: String) -> Response {
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

/// A file name made of the game's name (letters, digits, `-`).
fn file_stem(name: &str) -> String {
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

/// GET /api/games/{id}/record: the game record (JSON lines, as `play
/// --record` writes and `replay` reads).
pub async fn record(State(app): Shared, Path(id): Path<String>) -> Response {
    let Some((g, _)) = parse_id(&id).and_then(|id| app.store.get(id)) else {
        return no_game();
    };
    let (name, text) = match &g {
        Open::Board(g) => (&g.name, with_session(g, |s| s.record_text())),
        Open::Race(r) => (&r.name, super::race::record(r)),
    };
    match text {
        Ok(t) => download("application/jsonl", format!("{}.jsonl", file_stem(name)), t),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// GET /api/games/{id}/pdn: the game as PDN.
pub async fn pdn(State(app): Shared, Path(id): Path<String>) -> Response {
    let Some((g, _)) = parse_id(&id).and_then(|id| app.store.board(id)) else {
        return no_game();
    };
    let text = crate::pdn::write(&g.tables, &g.tables.game.title, &g.start, &g.played);
    download(
        "application/x-chess-pdn",
        format!("{}.pdn", file_stem(&g.name)),
        text,
    )
}
