//! `rulebook serve`: every endpoint of the web front end, in-process
//! (requests sent to the router with `tower::ServiceExt::oneshot`): status
//! codes, JSON bodies, refusals of bad input, of paths outside the games
//! folder and of too-big bodies.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use rulebook::web::{router, router_with, Library, Store};
use serde_json::{json, Value};
use tower::ServiceExt;

/// The runtime the in-process requests of the web tests run on.
pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Sends a request in-process; the status, the content type and the body.
pub(crate) async fn send_async(app: &Router, req: Request<Body>) -> (StatusCode, String, Vec<u8>) {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let kind = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, kind, bytes.to_vec())
}

/// A games folder with one good file, one with an error, and a link that
/// leads out of the folder.
fn folder(name: &str) -> (PathBuf, PathBuf) {
    let root = std::env::temp_dir().join(format!("rulebook-web-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("games");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("mine.rules"),
        rulebook::bundled::get("draughts").unwrap(),
    )
    .unwrap();
    std::fs::write(
        dir.join("sub/broken.rules"),
        "game \"Broken\"\nboard 8 x 8\nwat\n",
    )
    .unwrap();
    let secret = root.join("secret.rules");
    std::fs::write(&secret, rulebook::bundled::get("draughts").unwrap()).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, dir.join("out.rules")).unwrap();
    (root, dir)
}

struct App {
    rt: tokio::runtime::Runtime,
    app: Router,
}

impl App {
    fn new(dir: Option<&std::path::Path>) -> App {
        App {
            rt: runtime(),
            app: router(Library::new(dir).unwrap()),
        }
    }

    fn send(&self, method: &str, uri: &str, body: Option<String>) -> (StatusCode, Vec<u8>, String) {
        let mut req = Request::builder().method(method).uri(uri);
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        let req = req.body(body.map_or_else(Body::empty, Body::from)).unwrap();
        let (status, kind, bytes) = self.rt.block_on(send_async(&self.app, req));
        (status, bytes, kind)
    }

    fn json(&self, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        let (status, bytes, _) = self.send(method, uri, body.map(|b| b.to_string()));
        let v = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("{uri}: not JSON: {}", String::from_utf8_lossy(&bytes)));
        (status, v)
    }

    fn new_game(&self, body: Value) -> Value {
        let (s, v) = self.json("POST", "/api/games", Some(body));
        assert_eq!(s, StatusCode::CREATED, "{v}");
        v
    }
}

#[test]
fn pages_and_assets_are_served() {
    let app = App::new(None);
    for (uri, kind, has) in [
        ("/", "text/html", "/assets/app.js"),
        ("/editor", "text/html", "/assets/editor.js"),
        ("/assets/api.js", "text/javascript", "async function api("),
        ("/assets/app.js", "text/javascript", "/api/games"),
        ("/assets/editor.js", "text/javascript", "/api/check"),
        ("/assets/style.css", "text/css", "mark-to"),
    ] {
        let (s, body, k) = app.send("GET", uri, None);
        assert_eq!(s, StatusCode::OK, "{uri}");
        assert!(k.starts_with(kind), "{uri}: {k}");
        let text = String::from_utf8(body).unwrap();
        assert!(text.contains(has), "{uri}");
        // Nothing is loaded from the network (the SVG namespace is a name).
        let text = text.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !text.contains("http://") && !text.contains("https://"),
            "{uri} loads nothing from the network"
        );
    }
    // One `api` helper, shared: each page loads it before its own script.
    for (page, script) in [("/", "/assets/app.js"), ("/editor", "/assets/editor.js")] {
        let (_, html, _) = app.send("GET", page, None);
        let html = String::from_utf8(html).unwrap();
        let shared = html.find(r#"<script src="/assets/api.js">"#);
        let own = html.find(&format!(r#"<script src="{script}">"#));
        assert!(shared.is_some() && shared < own, "{page}");
        let (_, js, _) = app.send("GET", script, None);
        let js = String::from_utf8(js).unwrap();
        assert!(!js.contains("function api("), "{script} has its own api()");
        assert!(js.contains("await api("), "{script}");
    }
    let (s, _, _) = app.send("GET", "/nothing", None);
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[test]
fn game_list_has_bundled_games_and_the_folder() {
    let (_root, dir) = folder("list");
    let app = App::new(Some(&dir));
    let (s, v) = app.json("GET", "/api/games", None);
    assert_eq!(s, StatusCode::OK);
    let games = v["games"].as_array().unwrap();
    let find = |n: &str| games.iter().find(|g| g["name"] == n).cloned();
    let d = find("draughts").unwrap();
    assert_eq!(d["title"], "Draughts");
    assert_eq!(d["kind"], "board");
    assert_eq!(d["players"], "2");
    assert_eq!(d["bundled"], true);
    assert_eq!(
        d["options"][0],
        json!({"name": "kings", "values": ["flying", "short"]})
    );
    // The players a seat may have: the one list of the code
    // (rulebook::agents::PLAYERS), alphabeta only for two sides without dice.
    assert_eq!(
        d["agents"],
        json!(["human", "random", "first", "greedy", "mcts", "alphabeta"])
    );
    let r = find("slow-and-steady").unwrap();
    assert_eq!(r["kind"], "race");
    assert_eq!(r["players"], "2-6");
    assert_eq!(
        r["agents"],
        json!(["human", "random", "first", "greedy", "mcts"])
    );
    let mine = find("mine.rules").unwrap();
    assert_eq!(mine["bundled"], false);
    assert_eq!(mine["title"], "Draughts");
    let broken = find("sub/broken.rules").unwrap();
    assert!(broken["errors"].as_u64().unwrap() > 0);
    // The link out of the folder is not listed.
    assert!(find("out.rules").is_none());
}

#[test]
fn rules_are_read_only_inside_the_folder() {
    let (root, dir) = folder("rules");
    let app = App::new(Some(&dir));
    let (s, v) = app.json("GET", "/api/rules?name=draughts", None);
    assert_eq!(s, StatusCode::OK);
    assert!(v["text"].as_str().unwrap().contains("game \"Draughts\""));
    let (s, v) = app.json("GET", "/api/rules?name=sub/broken.rules", None);
    assert_eq!(s, StatusCode::OK);
    assert!(v["text"].as_str().unwrap().contains("wat"));
    let secret = root.join("secret.rules");
    let absolute = format!("/api/rules?name={}", secret.display());
    for uri in [
        "/api/rules?name=../secret.rules",
        "/api/rules?name=sub/../../secret.rules",
        absolute.as_str(),
        "/api/rules?name=out.rules",
    ] {
        let (s, v) = app.json("GET", uri, None);
        assert_eq!(s, StatusCode::FORBIDDEN, "{uri}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains("folder"),
            "{uri}: {v}"
        );
    }
    let (s, _) = app.json("GET", "/api/rules?name=nothing.rules", None);
    assert_eq!(s, StatusCode::NOT_FOUND);
    // Without a folder, only bundled games.
    let bare = App::new(None);
    let (s, _) = bare.json("GET", "/api/rules?name=mine.rules", None);
    assert_eq!(s, StatusCode::NOT_FOUND);
    // Nor can a game be opened by a path out of the folder.
    let (s, v) = app.json(
        "POST",
        "/api/games",
        Some(json!({"game": "../secret.rules"})),
    );
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
}

#[test]
fn check_gives_the_diagnostics_of_rulebook_check() {
    let app = App::new(None);
    let text = "game \"T\"\nboard 8 x 8\nwat\n";
    let (s, v) = app.json(
        "POST",
        "/api/check",
        Some(json!({"text": text, "name": "t.rules"})),
    );
    assert_eq!(s, StatusCode::OK);
    assert!(v["errors"].as_u64().unwrap() >= 1);
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "E001");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["at"]["file"], "t.rules");
    assert_eq!(d["at"]["line"], 3);
    assert_eq!(d["at"]["column"], 1);
    // The same text as the command line prints.
    let source = rulebook::load::Source {
        name: "t.rules".into(),
        text: text.into(),
    };
    let checked = rulebook::load::check_source(source, &rulebook::load::BundledLoader, &[]);
    assert_eq!(v["rendered"], checked.render());
    assert!(v["rendered"].as_str().unwrap().contains("t.rules:3:1"));
    let good = rulebook::bundled::get("draughts").unwrap();
    let (s, v) = app.json("POST", "/api/check", Some(json!({"text": good})));
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["errors"], 0);
    assert_eq!(v["diagnostics"], json!([]));
    // Not JSON, or JSON of the wrong shape.
    let (s, _, _) = app.send("POST", "/api/check", Some("{not json".into()));
    assert!(s.is_client_error(), "{s}");
    let (s, _, _) = app.send("POST", "/api/check", Some("{\"txt\": 1}".into()));
    assert!(s.is_client_error(), "{s}");
}

#[test]
fn too_big_bodies_are_refused() {
    let app = App::new(None);
    let big = "x".repeat(rulebook::web::MAX_BODY + 10);
    let body = json!({"text": big}).to_string();
    let (s, _, _) = app.send("POST", "/api/check", Some(body));
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    let (s, v) = app.json(
        "POST",
        "/api/games",
        Some(json!({"game": "draughts", "sides": ["human", "human"]})),
    );
    assert_eq!(s, StatusCode::CREATED);
    let id = v["id"].as_str().unwrap();
    let (s, _) = app.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "1".repeat(300)})),
    );
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[test]
fn a_new_game_has_its_state() {
    let app = App::new(None);
    let v = app.new_game(
        json!({"game": "draughts", "options": {"kings": "short"}, "sides": ["human", "random"]}),
    );
    assert_eq!(v["title"], "Draughts");
    assert_eq!(v["options"], json!(["kings=short"]));
    assert_eq!(v["side_to_move"], "White");
    assert_eq!(v["human_to_move"], true);
    assert_eq!(v["computer_to_move"], false);
    assert_eq!(v["moves"], json!([]));
    assert_eq!(v["result"], Value::Null);
    assert!(v["svg"].as_str().unwrap().starts_with("<svg"));
    assert!(v["svg"].as_str().unwrap().contains(">White to move</text>"));
    assert_eq!(v["legal"].as_array().unwrap().len(), 7);
    assert_eq!(
        v["legal"][1],
        json!({"notation": "22-17", "squares": ["c3", "b4"], "captured": []})
    );
    assert_eq!(v["board"]["width"], 8);
    assert_eq!(v["squares"].as_array().unwrap().len(), 32);
    let id = v["id"].as_str().unwrap();
    let (s, again) = app.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(s, StatusCode::OK);
    assert_eq!(again["legal"], v["legal"]);
}

#[test]
fn new_game_refusals() {
    let (_root, dir) = folder("refuse");
    let app = App::new(Some(&dir));
    for (body, status, says) in [
        (json!({"game": "nothing"}), StatusCode::NOT_FOUND, "nothing"),
        (
            json!({"game": "draughts", "sides": ["human", "wizard"]}),
            StatusCode::BAD_REQUEST,
            "wizard",
        ),
        (
            json!({"game": "draughts", "sides": ["human", "human", "human"]}),
            StatusCode::BAD_REQUEST,
            "sides",
        ),
        (
            json!({"game": "draughts", "playouts": 0}),
            StatusCode::BAD_REQUEST,
            "playouts",
        ),
        (
            json!({"game": "draughts", "depth": 99}),
            StatusCode::BAD_REQUEST,
            "depth",
        ),
        (
            json!({"game": "draughts", "options": {"kings": "purple"}}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "errors",
        ),
        (
            json!({"game": "sub/broken.rules"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "errors",
        ),
        (
            json!({"game": "slow-and-steady", "players": 99}),
            StatusCode::BAD_REQUEST,
            "players",
        ),
        (
            json!({"game": "slow-and-steady", "sides": ["human", "wizard"]}),
            StatusCode::BAD_REQUEST,
            "wizard",
        ),
    ] {
        let (s, v) = app.json("POST", "/api/games", Some(body.clone()));
        assert_eq!(s, status, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{body}: {v}");
    }
    // A game with errors answers with the diagnostics.
    let (_, v) = app.json(
        "POST",
        "/api/games",
        Some(json!({"game": "sub/broken.rules"})),
    );
    assert_eq!(v["check"]["diagnostics"][0]["code"], "E001");
    // The editor's "play this": a text is played instead of the file.
    let text = rulebook::bundled::get("draughts")
        .unwrap()
        .replace("\"Draughts\"", "\"Edited\"");
    let v = app.new_game(json!({"game": "mine.rules", "text": text}));
    assert_eq!(v["title"], "Edited");
    let v = app.new_game(json!({"game": "mine.rules"}));
    assert_eq!(v["title"], "Draughts");
}

#[test]
fn moves_undo_redo_hint_resign() {
    let app = App::new(None);
    let v = app.new_game(json!({"game": "draughts", "sides": ["human", "human"]}));
    let id = v["id"].as_str().unwrap().to_string();
    let url = |what: &str| format!("/api/games/{id}/{what}");
    // An illegal move: the prompt's explanation.
    let (s, v) = app.json("POST", &url("move"), Some(json!({"move": "11-15"})));
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["error"], "the piece on 11 is Black's; White to move");
    // Several moves start so.
    let (s, v) = app.json("POST", &url("move"), Some(json!({"move": "22"})));
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    // A legal one, by squares as the page sends them.
    let (s, v) = app.json("POST", &url("move"), Some(json!({"move": "c3-d4"})));
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!(["22-18"]));
    assert_eq!(v["last_move"]["notation"], "22-18");
    assert_eq!(v["side_to_move"], "Black");
    let (s, v) = app.json("POST", &url("move"), Some(json!({"move": "11-15"})));
    assert_eq!(s, StatusCode::OK, "{v}");
    // White must take: the explanation names the rule.
    let (s, v) = app.json("POST", &url("move"), Some(json!({"move": "21-18"})));
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("capture is compulsory"),
        "{v}"
    );
    // Undo takes back to White's previous turn (two plies), redo plays
    // them again one by one.
    let (s, v) = app.json("POST", &url("undo"), None);
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["moves"], json!([]));
    assert_eq!(v["can_redo"], true);
    assert_eq!(v["can_undo"], false);
    let (s, _) = app.json("POST", &url("undo"), None);
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, v) = app.json("POST", &url("redo"), None);
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["moves"], json!(["22-18"]));
    let (s, v) = app.json("POST", &url("redo"), None);
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["moves"], json!(["22-18", "11-15"]));
    let (s, _) = app.json("POST", &url("redo"), None);
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, v) = app.json("POST", &url("hint"), None);
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["hint"]["notation"], "18x11");
    // Downloads.
    let (s, body, kind) = app.send("GET", &url("record"), None);
    assert_eq!(s, StatusCode::OK);
    assert!(kind.contains("jsonl"));
    let text = String::from_utf8(body).unwrap();
    let record = rulebook::record::BoardRecord::parse(&text).unwrap();
    assert_eq!(text, record.to_jsonl());
    assert!(text.contains("22-18") && text.contains("11-15"), "{text}");
    let (s, body, _) = app.send("GET", &url("pdn"), None);
    assert_eq!(s, StatusCode::OK);
    let pdn = String::from_utf8(body).unwrap();
    // GameType 26 (Brazilian) writes algebraic squares: 22-18 11-15.
    assert!(pdn.contains("1. c3-d4 f6-e5"), "{pdn}");
    // Resign ends the game.
    let (s, v) = app.json("POST", &url("resign"), None);
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["result"], "White resigned");
    assert_eq!(v["legal"], json!([]));
    // The picture's caption says the game is over, not whose move it is.
    let svg = v["svg"].as_str().unwrap();
    assert!(svg.contains(">game over</text>"), "{svg}");
    assert!(!svg.contains(" to move</text>"), "{svg}");
    let (s, _) = app.json("POST", &url("move"), Some(json!({"move": "18x11"})));
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, _) = app.json("POST", &url("resign"), None);
    assert_eq!(s, StatusCode::CONFLICT);
    // Undo after resigning takes it back.
    let (s, v) = app.json("POST", &url("undo"), None);
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["result"], Value::Null);
}

/// A game of a person (White) against a slow computer player (Black:
/// mcts with 100000 playouts or alphabeta to depth 10, with 10 s to
/// think), White's first move played.
fn slow_game(app: &App, agent: &str) -> String {
    let v = app.new_game(json!({
        "game": "draughts", "sides": ["human", agent],
        // Only a think time: either agent thinks for all of it (a
        // number of playouts or a depth could be reached first on a fast
        // machine).
        "think_ms": 10_000, "seed": 1,
    }));
    let id = v["id"].as_str().unwrap().to_string();
    let (s, v) = app.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "22-18"})),
    );
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["computer_to_move"], true);
    id
}

/// The computer of game `id` starts thinking (as the page's event stream
/// has it): the request, running.
fn start_thinking(
    app: &App,
    id: &str,
) -> tokio::task::JoinHandle<Result<axum::response::Response, std::convert::Infallible>> {
    let req = Request::builder()
        .method("POST")
        .uri(format!("/api/games/{id}/computer"))
        .body(Body::empty())
        .unwrap();
    app.rt.spawn(app.app.clone().oneshot(req))
}

#[test]
fn a_thinking_computer_stops_at_once_on_undo_resign_or_close() {
    let app = App::new(None);
    for (action, agent) in [
        ("undo", "mcts"),
        ("resign", "mcts"),
        ("close", "mcts"),
        ("undo", "alphabeta"),
        ("close", "alphabeta"),
    ] {
        let id = slow_game(&app, agent);
        let thinking = start_thinking(&app, &id);
        std::thread::sleep(std::time::Duration::from_millis(400));
        assert!(
            !thinking.is_finished(),
            "{action} {agent}: the search is slow"
        );
        let asked = std::time::Instant::now();
        let (s, v) = if action == "close" {
            let (s, body, _) = app.send("DELETE", &format!("/api/games/{id}"), None);
            assert!(body.is_empty());
            (s, Value::Null)
        } else {
            app.json("POST", &format!("/api/games/{id}/{action}"), None)
        };
        // The search stops at once; its move is dropped (the game changed).
        let answer = app.rt.block_on(thinking).unwrap().unwrap();
        let took = asked.elapsed();
        assert!(
            took < std::time::Duration::from_secs(3),
            "{action}: the computer's request ended {took:?} after"
        );
        assert_eq!(answer.status(), StatusCode::CONFLICT, "{action}");
        match action {
            "undo" => {
                assert_eq!(s, StatusCode::OK, "{v}");
                assert_eq!(v["moves"], json!([]));
                assert_eq!(v["human_to_move"], true);
            }
            "resign" => {
                // The person resigns, not the computer to move.
                assert_eq!(s, StatusCode::OK, "{v}");
                assert_eq!(v["result"], "White resigned");
                assert_eq!(v["moves"], json!(["22-18"]));
            }
            _ => {
                assert_eq!(s, StatusCode::NO_CONTENT);
                let (s, _) = app.json("GET", &format!("/api/games/{id}"), None);
                assert_eq!(s, StatusCode::NOT_FOUND);
                let (s, _, _) = app.send("DELETE", &format!("/api/games/{id}"), None);
                assert_eq!(s, StatusCode::NOT_FOUND);
            }
        }
        eprintln!("{action} ({agent}): the thinking computer answered {took:?} later");
    }
}

#[test]
fn a_thinking_computer_stops_when_its_game_expires() {
    // Games expire after two seconds untouched here (30 minutes otherwise).
    let app = App {
        rt: runtime(),
        app: router_with(
            Library::new(None).unwrap(),
            Store::with_idle(std::time::Duration::from_secs(2)),
        ),
    };
    let id = slow_game(&app, "mcts");
    let thinking = start_thinking(&app, &id);
    // Nothing touches the game while the computer thinks (10 s allowed);
    // the next request to the store finds it expired and stops the search.
    std::thread::sleep(std::time::Duration::from_millis(2_300));
    assert!(!thinking.is_finished(), "the search is slow");
    let asked = std::time::Instant::now();
    let (s, v) = app.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    assert!(v["error"].as_str().unwrap().contains("expired"), "{v}");
    let answer = app.rt.block_on(thinking).unwrap().unwrap();
    let took = asked.elapsed();
    assert!(
        took < std::time::Duration::from_secs(3),
        "the computer's request ended {took:?} after the game expired"
    );
    assert_eq!(answer.status(), StatusCode::CONFLICT);
    eprintln!("expired (mcts): the thinking computer answered {took:?} later");
}

#[test]
fn unknown_games_are_404() {
    let app = App::new(None);
    for (m, what) in [
        ("GET", ""),
        ("POST", "/undo"),
        ("POST", "/redo"),
        ("POST", "/hint"),
        ("POST", "/resign"),
        ("POST", "/computer"),
        ("GET", "/record"),
        ("GET", "/pdn"),
    ] {
        for id in ["12345", "not-a-number"] {
            let (s, _) = app.json(m, &format!("/api/games/{id}{what}"), None);
            assert_eq!(s, StatusCode::NOT_FOUND, "{m} {id}{what}");
        }
    }
}

#[test]
fn computer_players_play_to_the_end() {
    let app = App::new(None);
    let v = app.new_game(json!({"game": "draughts", "sides": ["random", "greedy"], "seed": 7}));
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["computer_to_move"], true);
    let (s, _) = app.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "22-17"})),
    );
    assert_eq!(s, StatusCode::CONFLICT);
    let mut last = v;
    for _ in 0..400 {
        if last["result"] != Value::Null {
            break;
        }
        let (s, v) = app.json("POST", &format!("/api/games/{id}/computer"), None);
        assert_eq!(s, StatusCode::OK, "{v}");
        last = v;
    }
    assert_ne!(last["result"], Value::Null, "the game ended");
    assert_eq!(last["computer_to_move"], false);
    let (s, _) = app.json("POST", &format!("/api/games/{id}/computer"), None);
    assert_eq!(s, StatusCode::CONFLICT);
    // A person to move: the computer has nothing to play.
    let v = app.new_game(json!({"game": "draughts", "sides": ["human", "random"]}));
    let id = v["id"].as_str().unwrap().to_string();
    let (s, _) = app.json("POST", &format!("/api/games/{id}/computer"), None);
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, v) = app.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "22-17"})),
    );
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["computer_to_move"], true);
    let (s, v) = app.json("POST", &format!("/api/games/{id}/computer"), None);
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["moves"].as_array().unwrap().len(), 2);
    assert_eq!(v["human_to_move"], true);
}

#[test]
fn open_games_are_bounded() {
    let app = App::new(None);
    for _ in 0..rulebook::web::store::MAX_GAMES {
        app.new_game(json!({"game": "always-ready"}));
    }
    let (s, v) = app.json("POST", "/api/games", Some(json!({"game": "always-ready"})));
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
}

#[test]
fn loopback_hosts() {
    assert!(rulebook::web::is_loopback("127.0.0.1"));
    assert!(rulebook::web::is_loopback("::1"));
    assert!(rulebook::web::is_loopback("localhost"));
    assert!(!rulebook::web::is_loopback("0.0.0.0"));
    assert!(!rulebook::web::is_loopback("192.168.1.5"));
}

#[test]
fn race_games_roll_choose_and_computer_turns() {
    let app = App::new(None);
    let v =
        app.new_game(json!({"game": "slow-and-steady", "sides": ["human", "random"], "seed": 7}));
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(v["kind"], "race");
    assert_eq!(v["seed"], "7");
    assert_eq!(v["seats"].as_array().unwrap().len(), 2);
    assert_eq!(v["human_to_roll"], true);
    assert!(v["rolled"].is_null());
    assert!(v["track"].as_str().unwrap().contains('1'));
    // Choosing before rolling is refused; a computer turn too.
    let (s, _) = app.json(
        "POST",
        &format!("/api/games/{id}/choose"),
        Some(json!({"choice": "enter"})),
    );
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, _) = app.json("POST", &format!("/api/games/{id}/computer"), None);
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, v) = app.json("POST", &format!("/api/games/{id}/roll"), None);
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["human_to_choose"], true);
    let dice = v["rolled"].clone();
    assert!(!dice.as_array().unwrap().is_empty());
    let choices = v["choices"].as_array().unwrap().clone();
    assert!(!choices.is_empty());
    // The same seed rolls the same dice: the state read again agrees.
    let (_, again) = app.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(again["rolled"], dice);
    // A choice that is not legal is explained.
    let (s, v) = app.json(
        "POST",
        &format!("/api/games/{id}/choose"),
        Some(json!({"choice": "77"})),
    );
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("no piece on 77"),
        "{v}"
    );
    let (s, _) = app.json(
        "POST",
        &format!("/api/games/{id}/choose"),
        Some(json!({"choice": "wat"})),
    );
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let c = choices[0]["text"].as_str().unwrap();
    let (s, v) = app.json(
        "POST",
        &format!("/api/games/{id}/choose"),
        Some(json!({"choice": c})),
    );
    assert_eq!(s, StatusCode::OK, "{v}");
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0]["choice"], c);
    assert_eq!(turns[0]["dice"], dice);
    assert!(!turns[0]["events"].as_array().unwrap().is_empty());
    // Play on: the person rolls and takes the first choice, the computer
    // plays its turns, to the end.
    let mut v = v;
    for _ in 0..5000 {
        if !v["result"].is_null() {
            break;
        }
        let path = if v["computer_to_move"] == true {
            "computer"
        } else if v["human_to_roll"] == true {
            "roll"
        } else {
            let c = v["choices"][0]["text"].as_str().unwrap().to_string();
            let (s, w) = app.json(
                "POST",
                &format!("/api/games/{id}/choose"),
                Some(json!({"choice": c})),
            );
            assert_eq!(s, StatusCode::OK, "{w}");
            v = w;
            continue;
        };
        let (s, w) = app.json("POST", &format!("/api/games/{id}/{path}"), None);
        assert_eq!(s, StatusCode::OK, "{w}");
        v = w;
    }
    let result = v["result"].as_str().unwrap();
    assert!(
        result.contains("wins") || result.contains("stopped"),
        "{result}"
    );
    // The record replays: one line per turn after the header.
    let (s, body, _) = app.send("GET", &format!("/api/games/{id}/record"), None);
    assert_eq!(s, StatusCode::OK);
    let text = String::from_utf8(body).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let header: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(header["seed"], 7);
    assert_eq!(header["players"], 2);
    let first: Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(first["dice"], dice);
    // Board-game requests are refused for a race game.
    let (s, _) = app.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "1"})),
    );
    assert_eq!(s, StatusCode::CONFLICT);
}

/// The cells the SVG picture of a race track has (`rect.cell` with
/// `data-cell`).
fn svg_cells(svg: &str) -> Vec<u64> {
    svg.split(r#"<rect class="cell" data-cell=""#)
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn race_state_draws_the_track_and_outlines_the_choices() {
    let app = App::new(None);
    let v =
        app.new_game(json!({"game": "slow-and-steady", "sides": ["human", "human"], "seed": 5}));
    let id = v["id"].as_str().unwrap().to_string();
    // The picture of `rulebook show slow-and-steady --svg`: every cell, the
    // rule marks and the legend.
    let svg = v["svg"].as_str().unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert_eq!(svg_cells(svg), (1..=100).collect::<Vec<u64>>());
    assert!(svg.contains(r#"class="mark "#), "rule cells are marked");
    assert!(svg.contains(r#"id="legend""#));
    assert!(svg.contains("red to roll"), "whose turn it is");
    // Play until both pieces of someone are on the track, checking that
    // every choice names the cells it moves from and to, and that the cell
    // it lands on is where the library puts it.
    let (mut notes, mut doubles, mut skips) = (0, 0, 0);
    let mut v = v;
    for _ in 0..400 {
        if !v["result"].is_null() {
            break;
        }
        if v["human_to_roll"] == true {
            let (s, w) = app.json("POST", &format!("/api/games/{id}/roll"), None);
            assert_eq!(s, StatusCode::OK, "{w}");
            v = w;
            continue;
        }
        let choices = v["choices"].as_array().unwrap().clone();
        let cells = svg_cells(v["svg"].as_str().unwrap());
        for c in &choices {
            let text = c["text"].as_str().unwrap();
            match text {
                "pass" => assert!(c["cell"].is_null() && c["to"].is_null(), "{c}"),
                "enter" => assert!(c["cell"].is_null() && c["to"].is_u64(), "{c}"),
                _ => assert_eq!(c["cell"].as_u64().unwrap().to_string(), text, "{c}"),
            }
            for k in ["cell", "to"] {
                if let Some(n) = c[k].as_u64() {
                    assert!(cells.contains(&n), "{c}");
                }
            }
        }
        // The last choice (a move when there is one), played: its landing
        // is the cell the turn's first event names.
        let c = choices.last().unwrap().clone();
        let (s, w) = app.json(
            "POST",
            &format!("/api/games/{id}/choose"),
            Some(json!({"choice": c["text"]})),
        );
        assert_eq!(s, StatusCode::OK, "{w}");
        let turn = w["turns"].as_array().unwrap().last().unwrap().clone();
        if let Some(to) = c["to"].as_u64() {
            let first = turn["events"][0].as_str().unwrap();
            assert!(
                first.ends_with(&format!(" {to}")) || first.contains(&format!(" {to} ")),
                "{c} {first}"
            );
        }
        // Missed turns and extra rolls are told apart, in words.
        let dice = turn["dice"].as_array().unwrap();
        let said = turn["notes"].as_array().unwrap();
        notes += said.len();
        if dice[0] == dice[1] && w["result"].is_null() {
            doubles += 1;
            assert!(
                said.iter().any(|n| {
                    let n = n.as_str().unwrap();
                    n.contains("rolls again") || n.contains("extra roll is lost")
                }),
                "{turn}"
            );
        }
        for e in turn["events"].as_array().unwrap() {
            let e = e.as_str().unwrap();
            if e.contains("misses a turn") {
                assert!(said.iter().any(|n| n == e), "{turn}");
                skips += 1;
            }
        }
        v = w;
    }
    assert!(
        doubles > 0 && skips > 0 && notes >= doubles + skips,
        "{doubles} doubles, {skips} turns missed, {notes} notes"
    );
}

/// Plays a race game on (the person takes the first choice, the computer
/// its turns) until `done` holds for the state, and returns it.
fn race_until(app: &App, id: &str, mut v: Value, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..2000 {
        if done(&v) || !v["result"].is_null() {
            return v;
        }
        let (path, body) = if v["computer_to_move"] == true {
            ("computer", None)
        } else if v["human_to_roll"] == true {
            ("roll", None)
        } else {
            ("choose", Some(json!({"choice": v["choices"][0]["text"]})))
        };
        let (s, w) = app.json("POST", &format!("/api/games/{id}/{path}"), body);
        assert_eq!(s, StatusCode::OK, "{w}");
        v = w;
    }
    panic!("the game went on too long");
}

#[test]
fn every_bundled_race_game_draws_its_track_and_choices() {
    let app = App::new(None);
    let (_, list) = app.json("GET", "/api/games", None);
    let races: Vec<Value> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["kind"] == "race" && g["bundled"] == true)
        .cloned()
        .collect();
    assert!(races.len() >= 4, "{races:?}");
    for g in races {
        let name = g["name"].as_str().unwrap();
        let players = g["max_players"].as_u64().unwrap().min(4);
        let v = app.new_game(json!({"game": name, "players": players, "seed": 3}));
        let id = v["id"].as_str().unwrap().to_string();
        let mut v = v;
        let mut on_track = 0;
        for _ in 0..150 {
            if !v["result"].is_null() {
                break;
            }
            let svg = v["svg"].as_str().unwrap();
            assert!(svg.contains(r#"id="legend""#), "{name}");
            // Each seat's colour is the colour of its pieces on the track.
            for seat in v["seats"].as_array().unwrap() {
                let piece = format!(
                    r#"<circle class="piece" data-seat="{}" "#,
                    seat["name"].as_str().unwrap()
                );
                if let Some(at) = svg.find(&piece) {
                    let fill = format!(r#"fill="{}""#, seat["colour"].as_str().unwrap());
                    assert!(
                        svg[at..].split('>').next().unwrap().contains(&fill),
                        "{name}: {seat}"
                    );
                }
            }
            let cells = svg_cells(svg);
            assert!(!cells.is_empty(), "{name}");
            let (path, body) = if v["human_to_roll"] == true {
                ("roll", None)
            } else {
                let choices = v["choices"].as_array().unwrap();
                for c in choices {
                    for k in ["cell", "to"] {
                        if let Some(n) = c[k].as_u64() {
                            assert!(cells.contains(&n), "{name}: {c}");
                            on_track += 1;
                        }
                    }
                }
                (
                    "choose",
                    Some(json!({"choice": choices.last().unwrap()["text"]})),
                )
            };
            let (s, w) = app.json("POST", &format!("/api/games/{id}/{path}"), body);
            assert_eq!(s, StatusCode::OK, "{name}: {w}");
            v = w;
        }
        assert!(on_track > 0, "{name}: no choice on the track");
    }
}

#[test]
fn race_undo_redo_hint_and_records_that_load_to_go_on() {
    let app = App::new(None);
    let v =
        app.new_game(json!({"game": "slow-and-steady", "sides": ["human", "random"], "seed": 7}));
    let id = v["id"].as_str().unwrap().to_string();
    let url = |what: &str| format!("/api/games/{id}/{what}");
    assert_eq!(v["can_undo"], false);
    let (s, _) = app.json("POST", &url("undo"), None);
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, _) = app.json("POST", &url("redo"), None);
    assert_eq!(s, StatusCode::CONFLICT);
    let (s, _) = app.json("POST", &url("hint"), None);
    assert_eq!(s, StatusCode::CONFLICT, "no hint before the roll");
    // Some turns of each, up to the person's roll.
    let v = race_until(&app, &id, v, |v| {
        v["turns"].as_array().unwrap().len() >= 8 && v["human_to_roll"] == true
    });
    assert_eq!(v["can_undo"], true);
    let turns = v["turns"].as_array().unwrap().clone();
    let (_, record, _) = app.send("GET", &url("record"), None);
    let record = String::from_utf8(record).unwrap();
    let (s, rolled) = app.json("POST", &url("roll"), None);
    assert_eq!(s, StatusCode::OK);
    // A hint: one of the choices of the roll, with its cells.
    let (s, h) = app.json("POST", &url("hint"), None);
    assert_eq!(s, StatusCode::OK, "{h}");
    assert!(
        rolled["choices"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| *c == h["hint"]),
        "{h} {rolled}"
    );
    // Undo: the person's last turn comes again with its dice, to choose
    // again; the computer's turns after it are gone.
    let mine = turns.iter().rposition(|t| t["seat"] == 0).unwrap();
    let (s, u) = app.json("POST", &url("undo"), None);
    assert_eq!(s, StatusCode::OK, "{u}");
    assert_eq!(u["turns"].as_array().unwrap().len(), mine);
    assert_eq!(u["human_to_choose"], true);
    assert_eq!(u["rolled"], turns[mine]["dice"]);
    assert_eq!(u["can_redo"], true);
    // Redo makes the same choice again; the computer plays the same turns
    // after it: the record is the same as before the undo.
    let (s, r) = app.json("POST", &url("redo"), None);
    assert_eq!(s, StatusCode::OK, "{r}");
    assert_eq!(
        r["turns"].as_array().unwrap().last().unwrap()["choice"],
        turns[mine]["choice"]
    );
    assert_eq!(r["can_redo"], false);
    let r = race_until(&app, &id, r, |v| v["human_to_roll"] == true);
    let (_, again, _) = app.send("GET", &url("record"), None);
    assert_eq!(String::from_utf8(again).unwrap(), record);

    // The record loads to go on: the same turns, then the same dice.
    let load = |body: Value| app.json("POST", "/api/games/load", Some(body));
    let (s, l) = load(json!({"format": "record", "text": record, "sides": ["human", "random"]}));
    assert_eq!(s, StatusCode::CREATED, "{l}");
    assert_eq!(l["kind"], "race");
    assert_eq!(l["seed"], "7");
    assert_eq!(l["turns"], r["turns"]);
    assert_eq!(l["human_to_roll"], true);
    let lid = l["id"].as_str().unwrap().to_string();
    let (s, lr) = app.json("POST", &format!("/api/games/{lid}/roll"), None);
    assert_eq!(s, StatusCode::OK);
    assert_eq!(lr["rolled"], rolled["rolled"]);
    // From the start: nothing played, each turn by redo.
    let (s, l) = load(json!({"format": "record", "text": record, "at": "start"}));
    assert_eq!(s, StatusCode::CREATED, "{l}");
    assert_eq!(l["turns"], json!([]));
    assert_eq!(l["can_redo"], true);
    let lid = l["id"].as_str().unwrap().to_string();
    let (s, l) = app.json("POST", &format!("/api/games/{lid}/redo"), None);
    assert_eq!(s, StatusCode::OK, "{l}");
    assert_eq!(l["turns"][0]["dice"], turns[0]["dice"]);
    // Dice that the seed does not roll, a turn out of order, a bad line:
    // refused, naming the line.
    let lines: Vec<&str> = record.lines().collect();
    let mut first: Value = serde_json::from_str(lines[1]).unwrap();
    let other = if first["dice"][0] == 1 { 2 } else { 1 };
    first["dice"][0] = json!(other);
    let tampered = format!("{}\n{first}\n", lines[0]);
    let (s, e) = load(json!({"format": "record", "text": tampered}));
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].as_str().unwrap().contains("line 2"), "{e}");
    assert!(e["error"].as_str().unwrap().contains("seed 7"), "{e}");
    let swapped = format!("{}\n{}\n", lines[0], lines[2]);
    let (s, e) = load(json!({"format": "record", "text": swapped}));
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].as_str().unwrap().contains("turn"), "{e}");
    let (s, e) = load(json!({"format": "record", "text": format!("{}\nwat\n", lines[0])}));
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].as_str().unwrap().contains("line 2"), "{e}");
    // Without a seed the dice can't go on.
    let mut header: Value = serde_json::from_str(lines[0]).unwrap();
    header.as_object_mut().unwrap().remove("seed");
    let (s, e) = load(json!({"format": "record", "text": format!("{header}\n")}));
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(e["error"].as_str().unwrap().contains("no seed"), "{e}");
}

#[test]
fn a_race_record_of_rulebook_play_loads_with_its_turns() {
    let dir = std::env::temp_dir().join(format!("rulebook-web-race-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.jsonl");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args(["play", "slow-and-steady", "--seat", "red=random", "--seat"])
        .args(["blue=greedy", "--seed", "9", "--record"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let record = std::fs::read_to_string(&file).unwrap();
    let app = App::new(None);
    let (s, v) = app.json(
        "POST",
        "/api/games/load",
        Some(json!({"format": "record", "text": record})),
    );
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["seed"], "9");
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns.len(), record.lines().count() - 1);
    let said = String::from_utf8(out.stdout).unwrap();
    let result = v["result"].as_str().unwrap();
    assert!(
        said.contains(result.split(';').next().unwrap()),
        "{result}\n{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn event_stream_sends_the_state_and_the_computers_moves() {
    let app = App::new(None);
    let v = app.new_game(json!({"game": "draughts", "sides": ["random", "random"], "seed": 3}));
    let id = v["id"].as_str().unwrap().to_string();
    let req = Request::builder()
        .uri(format!("/api/games/{id}/events"))
        .body(Body::empty())
        .unwrap();
    let states = app.rt.block_on(async {
        let res = app.app.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-type"], "text/event-stream");
        let mut body = res.into_body().into_data_stream();
        let mut text = String::new();
        use futures_util::StreamExt;
        // Three states: the start, then two computer moves, none asked for.
        while text.matches("event: state").count() < 3 {
            let chunk = tokio::time::timeout(std::time::Duration::from_secs(30), body.next())
                .await
                .expect("a state within 30 s")
                .unwrap()
                .unwrap();
            text.push_str(std::str::from_utf8(&chunk).unwrap());
        }
        text
    });
    let plies: Vec<usize> = states
        .split("event: state")
        .skip(1)
        .map(|e| {
            let data = e.lines().find_map(|l| l.strip_prefix("data: ")).unwrap();
            let v: Value = serde_json::from_str(data).unwrap();
            v["moves"].as_array().unwrap().len()
        })
        .collect();
    assert_eq!(plies, vec![0, 1, 2]);
    // Each state carries the game's version, growing with each change (the
    // page keeps the newest state it receives).
    let versions: Vec<u64> = states
        .split("event: state")
        .skip(1)
        .map(|e| {
            let data = e.lines().find_map(|l| l.strip_prefix("data: ")).unwrap();
            let v: Value = serde_json::from_str(data).unwrap();
            v["version"].as_u64().unwrap()
        })
        .collect();
    assert!(versions.windows(2).all(|w| w[0] < w[1]), "{versions:?}");
    let (s, _) = app.json("GET", "/api/games/12345/events", None);
    assert_eq!(s, StatusCode::NOT_FOUND);
}

#[test]
fn save_writes_only_inside_the_folder() {
    let (root, dir) = folder("save");
    let app = App::new(Some(&dir));
    let text = rulebook::bundled::get("draughts")
        .unwrap()
        .replace("\"Draughts\"", "\"Saved\"");
    // A new file, then the same file again: written whole, no temporary
    // file left beside it.
    for name in ["new.rules", "sub/new.rules", "mine.rules"] {
        let (s, v) = app.json(
            "POST",
            "/api/save",
            Some(json!({"name": name, "text": text})),
        );
        assert_eq!(s, StatusCode::OK, "{name}: {v}");
        assert_eq!(v["saved"], name);
        assert_eq!(std::fs::read_to_string(dir.join(name)).unwrap(), text);
    }
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // The saved file is listed and plays.
    let v = app.new_game(json!({"game": "new.rules"}));
    assert_eq!(v["title"], "Saved");
    // A link to a folder outside.
    #[cfg(unix)]
    std::os::unix::fs::symlink(&root, dir.join("away")).unwrap();
    let secret = std::fs::read_to_string(root.join("secret.rules")).unwrap();
    for (name, status, says) in [
        ("../escape.rules", StatusCode::FORBIDDEN, "leaves"),
        ("sub/../../escape.rules", StatusCode::FORBIDDEN, "leaves"),
        ("/tmp/escape.rules", StatusCode::FORBIDDEN, "leaves"),
        ("out.rules", StatusCode::FORBIDDEN, "link"),
        ("away/secret.rules", StatusCode::FORBIDDEN, "leads out"),
        ("away/new.rules", StatusCode::FORBIDDEN, "leads out"),
        ("notes.txt", StatusCode::BAD_REQUEST, ".rules"),
        ("nowhere/x.rules", StatusCode::BAD_REQUEST, "folder"),
        ("", StatusCode::BAD_REQUEST, "file name"),
        ("sub", StatusCode::BAD_REQUEST, ".rules"),
    ] {
        let (s, v) = app.json(
            "POST",
            "/api/save",
            Some(json!({"name": name, "text": "x"})),
        );
        assert_eq!(s, status, "{name}: {v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{name}: {v}");
    }
    // Nothing outside changed, nothing was made there.
    assert_eq!(
        std::fs::read_to_string(root.join("secret.rules")).unwrap(),
        secret
    );
    assert!(!root.join("escape.rules").exists());
    assert!(!std::path::Path::new("/tmp/escape.rules").exists());
    assert!(!root.join("new.rules").exists());
    // Too big a text.
    let big = "x".repeat(rulebook::web::library::MAX_RULE_FILE + 1);
    let (s, _, _) = app.send(
        "POST",
        "/api/save",
        Some(json!({"name": "big.rules", "text": big}).to_string()),
    );
    assert!(
        s == StatusCode::BAD_REQUEST || s == StatusCode::PAYLOAD_TOO_LARGE,
        "{s}"
    );
    assert!(!dir.join("big.rules").exists());
    // Without a games folder nothing is written.
    let bare = App::new(None);
    let (s, v) = bare.json(
        "POST",
        "/api/save",
        Some(json!({"name": "x.rules", "text": "x"})),
    );
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn records_and_pdn_load_to_continue_or_replay() {
    let app = App::new(None);
    // A few moves by the computer, then the downloads.
    let v = app.new_game(json!({"game": "draughts", "sides": ["random", "random"], "seed": 5}));
    let id = v["id"].as_str().unwrap().to_string();
    for _ in 0..6 {
        let (s, v) = app.json("POST", &format!("/api/games/{id}/computer"), None);
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let (_, played) = app.json("GET", &format!("/api/games/{id}"), None);
    let moves = played["moves"].clone();
    assert_eq!(moves.as_array().unwrap().len(), 6);
    let (_, record, _) = app.send("GET", &format!("/api/games/{id}/record"), None);
    let record = String::from_utf8(record).unwrap();
    let (_, pdn, _) = app.send("GET", &format!("/api/games/{id}/pdn"), None);
    let pdn = String::from_utf8(pdn).unwrap();
    // Continue from the end: the same moves and position, people to move.
    for (format, text, game) in [("record", &record, None), ("pdn", &pdn, Some("draughts"))] {
        let (s, v) = app.json(
            "POST",
            "/api/games/load",
            Some(json!({"format": format, "text": text, "game": game})),
        );
        assert_eq!(s, StatusCode::CREATED, "{format}: {v}");
        assert_eq!(v["moves"], moves, "{format}");
        assert_eq!(v["position"], played["position"], "{format}");
        assert_eq!(v["human_to_move"], true);
    }
    // Replay from the start: nothing played, every move to come by redo.
    let (s, v) = app.json(
        "POST",
        "/api/games/load",
        Some(json!({"format": "record", "text": record, "at": "start", "sides": ["random", "random"]})),
    );
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["moves"].as_array().unwrap().len(), 0);
    assert_eq!(v["can_redo"], true);
    assert_eq!(v["computer_to_move"], false, "replayed by people");
    let rid = v["id"].as_str().unwrap().to_string();
    for i in 0..6 {
        let (s, v) = app.json("POST", &format!("/api/games/{rid}/redo"), None);
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["moves"][i], moves[i]);
    }
    let (s, _) = app.json("POST", &format!("/api/games/{rid}/redo"), None);
    assert_eq!(s, StatusCode::CONFLICT);
    // Refusals: a move that is not legal names its line; a PDN without its
    // game; an unknown format; a record of a game outside the library.
    let bad_record = record.replacen(
        &format!("\"{}\"", moves[0].as_str().unwrap()),
        "\"99-98\"",
        1,
    );
    assert_ne!(bad_record, record);
    let (s, v) = app.json(
        "POST",
        "/api/games/load",
        Some(json!({"format": "record", "text": bad_record})),
    );
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"].as_str().unwrap().contains("line 2"), "{v}");
    // A PDN file of several games: none is taken silently; one is chosen.
    let two = format!("{pdn}\n\n{pdn}");
    let (s, v) = app.json(
        "POST",
        "/api/games/load",
        Some(json!({"format": "pdn", "text": two, "game": "draughts"})),
    );
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let said = v["error"].as_str().unwrap();
    assert!(
        said.contains("holds 2 games (1 on line 1, 2 on line "),
        "{v}"
    );
    for (k, status) in [
        (2, StatusCode::CREATED),
        (3, StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        let (s, v) = app.json(
            "POST",
            "/api/games/load",
            Some(json!({"format": "pdn", "text": two, "game": "draughts", "pdn_game": k})),
        );
        assert_eq!(s, status, "game {k}: {v}");
    }
    for (body, status) in [
        (
            json!({"format": "pdn", "text": pdn}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"format": "zip", "text": "x"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"format": "record", "text": "not json"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            // No folder is open: only bundled games can be named.
            json!({"format": "record", "text": "{\"game\": \"../../etc/passwd\"}\n"}),
            StatusCode::NOT_FOUND,
        ),
        (
            json!({"format": "record", "text": record, "at": "middle"}),
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (s, v) = app.json("POST", "/api/games/load", Some(body.clone()));
        assert_eq!(s, status, "{body}: {v}");
    }
}
