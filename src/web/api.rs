//! The JSON API of `rulebook serve`: the game list, rule files and their
//! diagnostics, and board games in progress (state, moves, undo, redo,
//! hint, resign, computer moves, records). Every game is played by a
//! [`BoardSession`] built again from the stored moves for each request, off
//! the async threads.

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

use super::store::OpenGame;
use super::AppState;
use crate::agents::Strength;
use crate::board::{Move, Position, Tables};
use crate::load::{check_source, Checked, Source};
use crate::session::{BoardSession, Entry, Undo};

type Shared = State<Arc<AppState>>;

/// The most plies a game of the web front end lasts (as `play`'s default).
pub const MAX_PLIES: usize = 2000;
/// The most playouts per move a web game may ask for.
pub const MAX_PLAYOUTS: u32 = 100_000;
/// The deepest alphabeta search a web game may ask for.
pub const MAX_DEPTH: u32 = 10;
/// The longest think time per move a web game may ask for, in ms.
pub const MAX_THINK_MS: u64 = 10_000;

/// An error answer: a status and `{"error": text}`.
fn refuse(status: StatusCode, text: impl Into<String>) -> Response {
    (status, Json(json!({ "error": text.into() }))).into_response()
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
/// files with errors are listed with their error count.
pub async fn list(State(app): Shared) -> Response {
    let app2 = app.clone();
    let games = tokio::task::spawn_blocking(move || {
        app2.library
            .names()
            .into_iter()
            .map(|(name, bundled)| {
                let checked = crate::load::check(&app2.library, &name, &[]);
                match checked.summary() {
                    Some(s) => json!({
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
            })
            .collect::<Vec<Value>>()
    })
    .await;
    match games {
        Ok(g) => Json(json!({ "games": g })).into_response(),
        Err(_) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "listing failed"),
    }
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
        Err(e) if e.contains("leave") || e.contains("leads out") => {
            refuse(StatusCode::FORBIDDEN, e)
        }
        Err(e) if e.contains("not a file name") => bad(e),
        Err(e) => refuse(StatusCode::NOT_FOUND, e),
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
pub async fn check(State(app): Shared, Json(body): Json<CheckBody>) -> Response {
    let name = body.name.unwrap_or_else(|| "edited.rules".into());
    let checked = tokio::task::spawn_blocking(move || {
        let source = Source {
            name,
            text: body.text,
        };
        check_source(source, &app.library, &[])
    })
    .await;
    match checked {
        Ok(c) => Json(diagnostics_json(&c)).into_response(),
        Err(_) => refuse(StatusCode::INTERNAL_SERVER_ERROR, "the check failed"),
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
}

/// POST /api/games: opens a board game; 201 with its id and state.
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
    let made = tokio::task::spawn_blocking(move || open(&app2, body)).await;
    let game = match made {
        Ok(Ok(g)) => g,
        Ok(Err(r)) => return r,
        Err(_) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, "opening failed"),
    };
    let view = game.clone();
    match app.store.add(game) {
        Ok(id) => match describe(id, view).await {
            Ok(v) => (StatusCode::CREATED, Json(v)).into_response(),
            Err(r) => r,
        },
        Err(e) => refuse(StatusCode::SERVICE_UNAVAILABLE, e),
    }
}

/// Loads, checks and compiles the game of a request.
fn open(app: &AppState, body: NewGame) -> Result<OpenGame, Response> {
    let options: Vec<(String, String)> = body.options.into_iter().collect();
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
                if e.contains("leave") || e.contains("leads out") {
                    refuse(StatusCode::FORBIDDEN, e)
                } else {
                    refuse(StatusCode::NOT_FOUND, e)
                }
            })?;
            let name = if crate::bundled::get(&body.game).is_some() {
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
    let Some(g) = checked.game else {
        return Err(refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            "race games can't be played in the browser yet: use `rulebook play`",
        ));
    };
    let t = Tables::new(g);
    let mut agents = body.sides;
    if agents.len() > t.nsides {
        return Err(bad(format!(
            "{} sides given; this game has {}",
            agents.len(),
            t.nsides
        )));
    }
    agents.resize(t.nsides, "human".into());
    let strength = Strength {
        think: body.think_ms.map(std::time::Duration::from_millis),
        playouts: body.playouts,
        depth: body.depth,
    };
    let start = Position::start(&t);
    {
        // The agents are checked now, so a bad name is refused at once.
        let view = BoardSession::players_view(&t);
        BoardSession::new(&view, start.clone(), &agents, body.seed, strength).map_err(bad)?;
    }
    let opts = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    Ok(OpenGame::new(
        Arc::new(t),
        body.game,
        opts,
        start,
        agents,
        body.seed,
        strength,
    ))
}

/// Builds the session of a stored game, replays its moves and runs `f`.
fn with_session<R>(g: &OpenGame, f: impl FnOnce(&mut BoardSession<'_>) -> R) -> Result<R, String> {
    let t: &Tables = &g.tables;
    let view = BoardSession::players_view(t);
    let mut s = BoardSession::new(&view, g.start.clone(), &g.agents, g.seed, g.strength)?;
    for m in &g.played {
        s.play(m);
    }
    Ok(f(&mut s))
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
fn result_text(g: &OpenGame, s: &BoardSession<'_>) -> Option<String> {
    if let Some(side) = g.resigned {
        let name = g
            .tables
            .game
            .sides
            .get(side)
            .map_or("?", |s| s.name.as_str());
        return Some(format!("{name} resigned"));
    }
    if let Some(o) = s.game().outcome() {
        return Some(o.to_string());
    }
    (s.game().played().len() >= MAX_PLIES).then(|| format!("stopped after {MAX_PLIES} plies"))
}

/// The state of a game as JSON.
fn state_json(id: u64, g: &OpenGame) -> Result<Value, String> {
    with_session(g, |s| {
        let t = s.tables();
        let pos = &s.game().pos;
        let result = result_text(g, s);
        let over = result.is_some();
        json!({
            "id": id.to_string(),
            "game": g.name,
            "title": t.game.title,
            "options": g.options,
            "sides": t.game.sides.iter().zip(&g.agents).map(|(side, a)| json!({"name": side.name, "agent": a})).collect::<Vec<_>>(),
            "to_move": s.to_move(),
            "side_to_move": s.side_name(),
            "human_to_move": !over && s.human_to_move(),
            "computer_to_move": !over && !s.human_to_move(),
            "svg": crate::format::svg::board::render_svg(t, pos),
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
            "position": pos.to_fen(t),
            "result": result,
            "can_undo": !g.played.is_empty(),
            "can_redo": !g.undone.is_empty(),
        })
    })
}

/// The state of a game, computed off the async threads.
async fn describe(id: u64, g: OpenGame) -> Result<Value, Response> {
    match tokio::task::spawn_blocking(move || state_json(id, &g)).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(refuse(StatusCode::INTERNAL_SERVER_ERROR, e)),
        Err(_) => Err(refuse(StatusCode::INTERNAL_SERVER_ERROR, "failed")),
    }
}

fn parse_id(id: &str) -> Option<u64> {
    id.parse().ok()
}

/// GET /api/games/{id}: the state of a game.
pub async fn state(State(app): Shared, Path(id): Path<String>) -> Response {
    let Some(id) = parse_id(&id) else {
        return no_game();
    };
    let Some(g) = app.store.get(id) else {
        return no_game();
    };
    match describe(id, g).await {
        Ok(v) => Json(v).into_response(),
        Err(r) => r,
    }
}

/// What a change to a game computed: the new game, or a refusal.
type Change = Result<OpenGame, Response>;

/// Runs a change of a game off the async threads (for at most
/// [`super::COMPUTER_CAP`]), stores it and answers with the new state.
async fn change(
    app: Arc<AppState>,
    id: &str,
    f: impl FnOnce(OpenGame) -> Change + Send + 'static,
) -> Response {
    let Some(id) = parse_id(id) else {
        return no_game();
    };
    let Some(g) = app.store.get(id) else {
        return no_game();
    };
    let task = tokio::task::spawn_blocking(move || f(g));
    let changed = match tokio::time::timeout(super::COMPUTER_CAP, task).await {
        Ok(Ok(c)) => c,
        Ok(Err(_)) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, "failed"),
        Err(_) => {
            return refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                "the computer player took too long",
            )
        }
    };
    let g = match changed {
        Ok(g) => g,
        Err(r) => return r,
    };
    if !app.store.put(id, g) {
        return refuse(
            StatusCode::CONFLICT,
            "the game changed meanwhile: reload its state",
        );
    }
    let Some(g) = app.store.get(id) else {
        return no_game();
    };
    match describe(id, g).await {
        Ok(v) => Json(v).into_response(),
        Err(r) => r,
    }
}

fn over(g: &OpenGame) -> Result<bool, Response> {
    with_session(g, |s| result_text(g, s).is_some())
        .map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, e))
}

/// The body of POST /api/games/{id}/move.
#[derive(Deserialize)]
pub struct MoveBody {
    /// The move as typed at the prompt: notation, a unique prefix, squares.
    #[serde(rename = "move")]
    text: String,
}

/// POST /api/games/{id}/move: plays a move read as the prompt reads it;
/// 422 with the prompt's explanation when it is not a legal move.
pub async fn play(State(app): Shared, Path(id): Path<String>, Json(b): Json<MoveBody>) -> Response {
    if b.text.len() > 200 {
        return bad("a move is at most 200 characters");
    }
    change(app, &id, move |mut g| {
        if over(&g)? {
            return Err(refuse(StatusCode::CONFLICT, "the game is over"));
        }
        let entry = with_session(&g, |s| {
            if !s.human_to_move() {
                return Err(refuse(StatusCode::CONFLICT, "the computer is to move"));
            }
            Ok(s.enter("", &b.text))
        })
        .map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, e))??;
        match entry {
            Entry::Play(m) => {
                g.events = with_session(&g, |s| s.play(&m))
                    .map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, e))?;
                g.played.push(m);
                g.undone.clear();
                Ok(g)
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
    .await
}

/// POST /api/games/{id}/undo: back to the previous turn of the side to move.
pub async fn undo(State(app): Shared, Path(id): Path<String>) -> Response {
    change(app, &id, |mut g| {
        let (kept, what) = with_session(&g, |s| {
            let u = s.undo_turn();
            (s.game().played().len(), u)
        })
        .map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        if what == Undo::Nothing {
            return Err(refuse(StatusCode::CONFLICT, "nothing to undo"));
        }
        let back: Vec<Move> = g.played.drain(kept..).rev().collect();
        g.undone.extend(back);
        g.resigned = None;
        g.events.clear();
        Ok(g)
    })
    .await
}

/// POST /api/games/{id}/redo: plays again the next move taken back.
pub async fn redo(State(app): Shared, Path(id): Path<String>) -> Response {
    change(app, &id, |mut g| {
        let Some(m) = g.undone.pop() else {
            return Err(refuse(StatusCode::CONFLICT, "nothing to redo"));
        };
        g.events = with_session(&g, |s| s.play(&m))
            .map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        g.played.push(m);
        Ok(g)
    })
    .await
}

/// POST /api/games/{id}/resign: the side to move resigns.
pub async fn resign(State(app): Shared, Path(id): Path<String>) -> Response {
    change(app, &id, |mut g| {
        if over(&g)? {
            return Err(refuse(StatusCode::CONFLICT, "the game is over"));
        }
        let side = with_session(&g, |s| s.to_move())
            .map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        g.resigned = Some(side);
        Ok(g)
    })
    .await
}

/// POST /api/games/{id}/computer: the computer player to move plays (off
/// the async threads, for at most [`super::COMPUTER_CAP`]).
pub async fn computer(State(app): Shared, Path(id): Path<String>) -> Response {
    change(app, &id, |mut g| {
        if over(&g)? {
            return Err(refuse(StatusCode::CONFLICT, "the game is over"));
        }
        let played = with_session(&g, |s| {
            if s.human_to_move() {
                return None;
            }
            let m = s.computer_move()?;
            let events = s.play(&m);
            Some((m, events))
        })
        .map_err(|e| refuse(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        let Some((m, events)) = played else {
            return Err(refuse(StatusCode::CONFLICT, "a person is to move"));
        };
        g.played.push(m);
        g.undone.clear();
        g.events = events;
        Ok(g)
    })
    .await
}

/// POST /api/games/{id}/hint: the move a greedy player suggests.
pub async fn hint(State(app): Shared, Path(id): Path<String>) -> Response {
    let Some(id) = parse_id(&id) else {
        return no_game();
    };
    let Some(g) = app.store.get(id) else {
        return no_game();
    };
    let found = tokio::task::spawn_blocking(move || {
        with_session(&g, |s| s.hint().map(|m| move_json(s.tables(), &m)))
    })
    .await;
    match found {
        Ok(Ok(Some(m))) => Json(json!({ "hint": m })).into_response(),
        Ok(Ok(None)) => refuse(StatusCode::CONFLICT, "no move to suggest"),
        _ => refuse(StatusCode::INTERNAL_SERVER_ERROR, "failed"),
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
    let Some(g) = parse_id(&id).and_then(|id| app.store.get(id)) else {
        return no_game();
    };
    let text = with_session(&g, |s| s.record(&g.name, &g.options).to_jsonl());
    match text {
        Ok(t) => download(
            "application/jsonl",
            format!("{}.jsonl", file_stem(&g.name)),
            t,
        ),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

/// GET /api/games/{id}/pdn: the game as PDN.
pub async fn pdn(State(app): Shared, Path(id): Path<String>) -> Response {
    let Some(g) = parse_id(&id).and_then(|id| app.store.get(id)) else {
        return no_game();
    };
    let text = crate::pdn::write(&g.tables, &g.tables.game.title, &g.start, &g.played);
    download(
        "application/x-chess-pdn",
        format!("{}.pdn", file_stem(&g.name)),
        text,
    )
}
