//! `rulebook serve` bounds the work a client causes (issue 25, items 11,
//! 13 and 14): the game list checks again only the files that changed, a
//! request's work answers a clear error past its time limit, a game's
//! computer move is searched once however many pages watch it, and a
//! game is replayed once per change, its state computed once per version.
//! Work is counted, never timed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use futures_util::StreamExt;
use rulebook::web::store::Work;
use rulebook::web::{router_with, Library, Store};
use serde_json::{json, Value};
use tower::ServiceExt;

struct App {
    rt: tokio::runtime::Runtime,
    app: Router,
    work: Arc<Work>,
}

impl App {
    fn new(library: Library, store: Store) -> App {
        let work = store.work();
        App {
            rt: tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap(),
            app: router_with(library, store),
            work,
        }
    }

    fn json(&self, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        let mut req = Request::builder().method(method).uri(uri);
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        let req = req
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .unwrap();
        self.rt.block_on(async {
            let res = self.app.clone().oneshot(req).await.unwrap();
            let status = res.status();
            let bytes = axum::body::to_bytes(res.into_body(), usize::MAX)
                .await
                .unwrap();
            (
                status,
                serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            )
        })
    }

    fn new_game(&self, body: Value) -> Value {
        let (s, v) = self.json("POST", "/api/games", Some(body));
        assert_eq!(s, StatusCode::CREATED, "{v}");
        v
    }
}

fn titles(v: &Value) -> Vec<(String, String)> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["name"].as_str().unwrap().to_string(),
                g["title"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn the_game_list_checks_again_only_the_files_that_changed() {
    let dir = common::scratch();
    let draughts = rulebook::bundled::get("draughts").unwrap();
    std::fs::write(dir.path().join("mine.rules"), draughts).unwrap();
    std::fs::write(
        dir.path().join("house.rules"),
        "extends \"mine\"\ngame \"House\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("other.rules"), draughts).unwrap();
    std::fs::write(dir.path().join("broken.rules"), "game \"B\"\nwat\n").unwrap();
    let library = Library::new(Some(dir.path())).unwrap();
    let app = App::new(library.clone(), Store::default());

    let (s, first) = app.json("GET", "/api/games", None);
    assert_eq!(s, StatusCode::OK);
    let names = first["games"].as_array().unwrap().len() as u64;
    assert_eq!(library.checks_run(), names, "each game checked once");
    // Nothing changed: nothing is checked again, the answer is the same.
    let (_, again) = app.json("GET", "/api/games", None);
    assert_eq!(library.checks_run(), names);
    assert_eq!(again, first);
    let (_, _) = app.json("GET", "/api/games", None);
    assert_eq!(library.checks_run(), names);

    // A changed file is checked again, and so is the file extending it;
    // the other files are not.
    let changed = draughts.replace("game \"Draughts\"", "game \"Changed draughts\"");
    assert_ne!(changed, draughts);
    std::fs::write(dir.path().join("mine.rules"), &changed).unwrap();
    let (_, after) = app.json("GET", "/api/games", None);
    assert_eq!(library.checks_run(), names + 2);
    let t = titles(&after);
    assert!(
        t.contains(&("mine.rules".into(), "Changed draughts".into())),
        "{t:?}"
    );
    assert!(t.contains(&("house.rules".into(), "House".into())), "{t:?}");
    let (_, _) = app.json("GET", "/api/games", None);
    assert_eq!(library.checks_run(), names + 2);

    // A file that goes away and comes back with the same text is checked
    // again (its modification time moved).
    std::fs::remove_file(dir.path().join("other.rules")).unwrap();
    let (_, gone) = app.json("GET", "/api/games", None);
    assert_eq!(gone["games"].as_array().unwrap().len() as u64, names - 1);
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(dir.path().join("other.rules"), draughts).unwrap();
    let (_, back) = app.json("GET", "/api/games", None);
    assert_eq!(back["games"].as_array().unwrap().len() as u64, names);
    assert_eq!(library.checks_run(), names + 3);
}

#[test]
fn game_lists_asked_at_once_check_each_file_once() {
    let dir = common::scratch();
    let draughts = rulebook::bundled::get("draughts").unwrap();
    for i in 0..6 {
        std::fs::write(dir.path().join(format!("g{i}.rules")), draughts).unwrap();
    }
    let library = Library::new(Some(dir.path())).unwrap();
    let app = App::new(library.clone(), Store::default());
    let lists = app.rt.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..4 {
            let req = Request::builder()
                .uri("/api/games")
                .body(Body::empty())
                .unwrap();
            let router = app.app.clone();
            tasks.push(tokio::spawn(async move {
                let res = router.oneshot(req).await.unwrap();
                assert_eq!(res.status(), StatusCode::OK);
                let bytes = axum::body::to_bytes(res.into_body(), usize::MAX)
                    .await
                    .unwrap();
                serde_json::from_slice::<Value>(&bytes).unwrap()
            }));
        }
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    });
    let names = lists[0]["games"].as_array().unwrap().len() as u64;
    assert!(lists.iter().all(|l| *l == lists[0]));
    // Four pages loading at once: every game checked once, not four times.
    assert_eq!(library.checks_run(), names);
}

#[test]
fn a_check_past_the_time_limit_answers_a_clear_error() {
    // A text of nearly 1 MiB: checking it takes far more than a
    // millisecond on any machine.
    let line = "zone home = ranks 1-3\n";
    let text = format!(
        "game \"Big\"\nboard 8 x 8\n{}",
        line.repeat(1_000_000 / line.len())
    );
    let app = App::new(
        Library::default(),
        Store::default().with_limit(Duration::from_millis(1)),
    );
    let (s, v) = app.json("POST", "/api/check", Some(json!({ "text": text })));
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(
        e.contains("the check took longer than the limit of 1 ms"),
        "{e}"
    );
    // Opening a game of that text is refused the same way.
    let (s, v) = app.json(
        "POST",
        "/api/games",
        Some(json!({ "game": "big.rules", "text": text })),
    );
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("limit of 1 ms"),
        "{v}"
    );

    // Within the default limit the same check answers its diagnostics.
    let app = App::new(Library::default(), Store::default());
    let (s, v) = app.json(
        "POST",
        "/api/check",
        Some(json!({ "text": "game \"Small\"\nwat\n" })),
    );
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["errors"].as_u64().unwrap() > 0);
}

/// Reads `n` event streams of game `id` at once until each has seen a
/// state with at least `plies` moves.
fn watch(app: &App, id: &str, n: usize, plies: usize) {
    app.rt.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..n {
            let req = Request::builder()
                .uri(format!("/api/games/{id}/events"))
                .body(Body::empty())
                .unwrap();
            let router = app.app.clone();
            tasks.push(tokio::spawn(async move {
                let res = router.oneshot(req).await.unwrap();
                assert_eq!(res.status(), StatusCode::OK);
                let mut body = res.into_body().into_data_stream();
                let mut text = String::new();
                loop {
                    let chunk = tokio::time::timeout(Duration::from_secs(60), body.next())
                        .await
                        .expect("a state within 60 s")
                        .unwrap()
                        .unwrap();
                    text.push_str(std::str::from_utf8(&chunk).unwrap());
                    let seen = text
                        .split("event: state")
                        .skip(1)
                        .filter_map(|e| e.lines().find_map(|l| l.strip_prefix("data: ")))
                        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
                        .map(|v| v["moves"].as_array().map_or(0, Vec::len))
                        .max()
                        .unwrap_or(0);
                    assert!(!text.contains("event: problem"), "{text}");
                    if seen >= plies {
                        return;
                    }
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
    });
}

#[test]
fn twelve_pages_of_one_computer_game_run_one_search_per_move() {
    let app = App::new(Library::default(), Store::default());
    let v = app.new_game(json!({"game": "draughts", "sides": ["random", "random"], "seed": 5}));
    let id = v["id"].as_str().unwrap().to_string();
    watch(&app, &id, 12, 4);
    let searches = app.work.searches();
    let (_, state) = app.json("GET", &format!("/api/games/{id}"), None);
    let moves = state["moves"].as_array().unwrap().len() as u64;
    assert!(moves >= 4, "{moves}");
    // Every move came from one search; one more may be under way.
    assert!(
        searches >= moves && searches <= moves + 1,
        "{searches} searches for {moves} moves with 12 pages open"
    );
    let (s, _) = app.json("DELETE", &format!("/api/games/{id}"), None);
    assert_eq!(s, StatusCode::NO_CONTENT);
}

#[test]
fn a_change_replays_the_game_once_and_a_state_is_computed_once_per_version() {
    let app = App::new(Library::default(), Store::default());
    let v = app.new_game(json!({"game": "draughts", "seed": 1}));
    let id = v["id"].as_str().unwrap().to_string();
    let sessions = || app.work.sessions();
    // The first state comes from the session that checked the players:
    // nothing is replayed.
    assert_eq!(sessions(), 0, "the first state");
    let uri = format!("/api/games/{id}");
    // The state of a version is kept: asking again replays nothing.
    for _ in 0..3 {
        let (s, again) = app.json("GET", &uri, None);
        assert_eq!(s, StatusCode::OK);
        assert_eq!(again, v);
    }
    assert_eq!(sessions(), 0);

    // Each change replays the game once: the move read, played, and the
    // new state made from one session.
    let mut before = sessions();
    for step in ["move", "move", "undo", "redo", "resign", "undo"] {
        let (_, state) = app.json("GET", &uri, None);
        let body = (step == "move")
            .then(|| json!({"move": state["legal"][0]["notation"].as_str().unwrap()}));
        let (s, after) = app.json("POST", &format!("{uri}/{step}"), body);
        assert_eq!(s, StatusCode::OK, "{step}: {after}");
        let (_, got) = app.json("GET", &uri, None);
        assert_eq!(got, after, "{step}");
        let used = sessions() - before;
        // An undo of a resignation makes its state afresh: one more.
        let most = if step == "undo" && state["result"].is_string() {
            2
        } else {
            1
        };
        assert!(used >= 1 && used <= most, "{step}: {used} replays");
        before = sessions();
    }

    // A refused move replays once, and changes nothing.
    let (s, _) = app.json("POST", &format!("{uri}/move"), Some(json!({"move": "zz"})));
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(sessions() - before, 1);
}

#[test]
fn the_states_of_a_version_agree_with_a_game_replayed_afresh() {
    // The state a change makes from its session is the one a fresh replay
    // makes: a game played on, then asked by a new store from its record.
    let app = App::new(Library::default(), Store::default());
    let v = app.new_game(json!({"game": "draughts", "seed": 2}));
    let id = v["id"].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}");
    let mut last = v;
    for _ in 0..6 {
        let m = last["legal"][0]["notation"].as_str().unwrap().to_string();
        let (s, next) = app.json("POST", &format!("{uri}/move"), Some(json!({"move": m})));
        assert_eq!(s, StatusCode::OK);
        last = next;
    }
    let (_, record) = {
        let req = Request::builder()
            .uri(format!("{uri}/record"))
            .body(Body::empty())
            .unwrap();
        app.rt.block_on(async {
            let res = app.app.clone().oneshot(req).await.unwrap();
            let bytes = axum::body::to_bytes(res.into_body(), usize::MAX)
                .await
                .unwrap();
            ((), String::from_utf8(bytes.to_vec()).unwrap())
        })
    };
    let fresh = App::new(Library::default(), Store::default());
    let (s, loaded) = fresh.json(
        "POST",
        "/api/games/load",
        Some(json!({"format": "record", "text": record})),
    );
    assert_eq!(s, StatusCode::CREATED, "{loaded}");
    // (A loaded game has no last move's events: they are not compared.)
    for key in ["legal", "moves", "move_list", "position", "svg", "result"] {
        assert_eq!(loaded[key], last[key], "{key}");
    }
}

#[test]
fn a_game_with_a_long_capture_search_is_replayed_once_per_move() {
    // A flying king facing a lattice of men: the moves of its start take
    // a long search, made once per change and never for a state asked for.
    let text = std::fs::read_to_string("tests/fixtures/web/lattice.rules").unwrap();
    let app = App::new(Library::default(), Store::default());
    let v = app.new_game(json!({"game": "lattice.rules", "text": text}));
    let id = v["id"].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}");
    let legal = v["legal"].as_array().unwrap();
    assert!(!legal.is_empty());
    assert!(legal
        .iter()
        .all(|m| m["captured"].as_array().unwrap().len() >= 10));
    for _ in 0..5 {
        let (s, again) = app.json("GET", &uri, None);
        assert_eq!(s, StatusCode::OK);
        assert_eq!(again, v);
    }
    assert_eq!(app.work.sessions(), 0);
    let m = legal[0]["notation"].as_str().unwrap();
    let (s, after) = app.json("POST", &format!("{uri}/move"), Some(json!({"move": m})));
    assert_eq!(s, StatusCode::OK, "{after}");
    assert_eq!(after["moves"].as_array().unwrap().len(), 1);
    let (_, got) = app.json("GET", &uri, None);
    assert_eq!(got, after);
    assert_eq!(app.work.sessions(), 1);
}
