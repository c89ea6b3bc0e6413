//! The JSON API of `rulebook serve` that knows no kind of game: the game
//! list, rule files and their diagnostics, and the verbs of a game in
//! progress, whatever its kind (its state, undo, redo, hint, computer moves,
//! the record, closing it), each through the one stored game
//! ([`super::store::OpenGame`], its verbs in [`super::kind`]). A game is
//! played by the library's session built again from its history, off the
//! async threads: once per change (the change and the new state from the
//! same session), while the state of a version is computed once and kept
//! in the store for every request and page that asks. The work of a
//! request runs for at most the store's limit
//! ([`super::store::REQUEST_LIMIT`]). Opening a game is `open.rs`'s, the
//! input of each kind `board.rs`'s and `race.rs`'s.

// A refusal is the HTTP answer itself (`Err(Response)`), made once per
// request and sent at once: its size on the stack doesn't matter here.
#![allow(clippy::result_large_err)]

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::change::{change, describe, SearchClaim};
use super::reply::{bad, blocking, download, file_stem, limit_words, no_game, parse_id, refuse};
use super::store::OpenGame;
use super::AppState;
use crate::load::{check_source, check_source_recovering, Checked, Loaded, Source};

type Shared = State<Arc<AppState>>;

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
                let mut item = lib
                    .checked(&name, |checked| game_item(&name, bundled, checked))
                    .as_ref()
                    .clone();
                if bundled && Some(name.as_str()) == family_root() {
                    item["first"] = Value::Bool(true);
                }
                item
            })
            .collect::<Vec<Value>>()
    })
    .await;
    match games {
        Ok(g) => Json(json!({ "games": g })).into_response(),
        Err(r) => r,
    }
}

/// The bundled game most other bundled games extend (the one the setup
/// page opens on when no game is asked for), if any extends another.
fn family_root() -> Option<&'static str> {
    static ROOT: std::sync::OnceLock<Option<&'static str>> = std::sync::OnceLock::new();
    *ROOT.get_or_init(|| {
        let mut counts: Vec<(&'static str, usize)> = Vec::new();
        for (_, text) in crate::bundled::GAMES {
            let base = text.lines().find_map(|l| {
                let rest = l.trim_start().strip_prefix("extends")?;
                rest.trim().strip_prefix('"')?.split('"').next()
            });
            let Some(base) = base else { continue };
            match counts.iter_mut().find(|(n, _)| *n == base) {
                Some((_, c)) => *c += 1,
                None => counts.push((base, 1)),
            }
        }
        // The most extended; of equals, the first named.
        let most = counts.iter().map(|&(_, c)| c).max()?;
        let (name, _) = counts.into_iter().find(|&(_, c)| c == most)?;
        crate::bundled::GAMES
            .iter()
            .map(|&(n, _)| n)
            .find(|&n| n == name)
    })
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
            "description": checked.loaded.as_ref().map_or("", Loaded::description),
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

/// The query of GET /rules: a game's name, or none for the list of games.
#[derive(Deserialize)]
pub struct PageQuery {
    #[serde(default)]
    name: Option<String>,
}

/// GET /rules?name=N: the game's rules as one printable HTML page
/// (`format::rules_html`, as `rules N --html FILE` writes it); 404 for a
/// missing game, 403 for a name outside the folder, 422 for a file with
/// errors. GET /rules: the list of the games, each a link to its page.
pub async fn rules_page(State(app): Shared, Query(q): Query<PageQuery>) -> Response {
    let Some(game) = q.name else {
        return axum::response::Html(rules_index(&app.library.names())).into_response();
    };
    let app2 = app.clone();
    let made = blocking(&app, "making the rules page", move || {
        let library = &app2.library;
        let text = library.text(&game).map_err(|e| {
            if e.is_outside() {
                refuse(StatusCode::FORBIDDEN, e.to_string())
            } else {
                refuse(StatusCode::NOT_FOUND, e.to_string())
            }
        })?;
        let name = if library.is_bundled(&game) {
            game.trim_end_matches(".rules").to_string()
        } else {
            game.clone()
        };
        let checked = check_source(Source { name, text }, library, &[]);
        match &checked.loaded {
            Some(loaded) => Ok(crate::format::rules_html::page(
                loaded,
                &checked.options,
                &[],
            )),
            None => Err(refuse(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("`{game}` has errors: `rulebook check` shows them"),
            )),
        }
    })
    .await;
    match made {
        Ok(Ok(page)) => axum::response::Html(page).into_response(),
        Ok(Err(r)) | Err(r) => r,
    }
}

/// The page that links to the rules page of every game.
fn rules_index(names: &[(String, bool)]) -> String {
    let mut o = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Rules of the games</title>\n</head>\n<body style=\"font-family:Georgia,serif;max-width:40em;margin:1.5em auto;padding:0 1em\">\n<h1>Rules of the games</h1>\n<p><a href=\"/\">Play</a></p>\n<ul>\n",
    );
    for (name, _) in names {
        let query: String = name
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-_.~/".contains(&b) {
                    char::from(b).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect();
        o.push_str(&format!(
            "<li><a href=\"/rules?name={query}\">{}</a></li>\n",
            html_text(name)
        ));
    }
    o.push_str("</ul>\n</body>\n</html>\n");
    o
}

/// Text for HTML.
fn html_text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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
/// from the bundled games and the folder); past a syntax error, the rest of
/// the text too ([`check_source_recovering`]).
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
        diagnostics_json(&check_source_recovering(source, &app2.library, &[]))
    })
    .await;
    match checked {
        Ok(c) => Json(c).into_response(),
        Err(r) => r,
    }
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

/// POST /api/games/{id}/undo: back to the previous turn of the side to
/// move; in a race game, to the last turn a person played (its dice again).
pub async fn undo(State(app): Shared, Path(id): Path<String>) -> Response {
    change(app, &id, OpenGame::undo).await
}

/// POST /api/games/{id}/redo: plays again the next move taken back (in a
/// race game, the person's choice taken back, with the same dice).
pub async fn redo(State(app): Shared, Path(id): Path<String>) -> Response {
    change(app, &id, OpenGame::redo).await
}

/// DELETE /api/games/{id}: closes a game (the page left it); a computer
/// player thinking in it stops. 204, or 404 for no such game.
pub async fn close(State(app): Shared, Path(id): Path<String>) -> Response {
    match parse_id(&id) {
        Some(id) if app.store.remove(id) => StatusCode::NO_CONTENT.into_response(),
        _ => no_game(),
    }
}

/// POST /api/games/{id}/computer: the computer player to move plays (a
/// board move, or a race turn: roll and choice), off the async threads, for
/// at most [`super::COMPUTER_CAP`]; 409 while the game's move is already
/// being searched (by a page's event stream, which brings it).
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
    let answer = change(app, &id, OpenGame::computer_turn).await;
    let failed = !answer.status().is_success() && answer.status() != StatusCode::CONFLICT;
    claim.end(failed);
    answer
}

/// POST /api/games/{id}/hint: the move a greedy player suggests (in a
/// race game, the choice for the person's roll).
pub async fn hint(State(app): Shared, Path(id): Path<String>) -> Response {
    let Some((g, _)) = parse_id(&id).and_then(|id| app.store.get(id)) else {
        return no_game();
    };
    match blocking(&app, "the hint", move || g.hint()).await {
        Ok(Ok(h)) => Json(h).into_response(),
        Ok(Err(r)) | Err(r) => r,
    }
}

/// GET /api/games/{id}/record: the game record (JSON lines, as `play
/// --record` writes and `replay` reads).
pub async fn record(State(app): Shared, Path(id): Path<String>) -> Response {
    let Some((g, _)) = parse_id(&id).and_then(|id| app.store.get(id)) else {
        return no_game();
    };
    match g.record() {
        Ok(t) => download(
            "application/jsonl",
            format!("{}.jsonl", file_stem(&g.setup.name)),
            t,
        ),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}
