//! The play page as players expect it, in headless Chromium (the browser of
//! `web_browser.rs`): a whole draughts game played by clicks as the second
//! side (the board turned round, the game's square numbers on it and in
//! every message), a whole Ludo game where only the real choices are
//! clicked (the forced ones play themselves), and the pages on a phone
//! (390 x 844) without sideways scrolling, the controls in view. The
//! screenshots of docs/web.md are taken here, at 1280 x 800 and 390 x 844
//! (target/web-screenshots/docs/).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;

use crate::common::{doc_shot, page_size, rect};
use crate::web::{runtime, send_async};
use crate::web_browser::{click_move, pick, Browser, ONE_AT_A_TIME};

/// The application in-process (no browser): a request and its JSON answer.
struct Api {
    rt: tokio::runtime::Runtime,
    app: axum::Router,
}

impl Api {
    fn new() -> Api {
        Api {
            rt: runtime(),
            app: rulebook::web::router(rulebook::web::Library::new(None).unwrap()),
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
        let (status, _, bytes) = self.rt.block_on(send_async(&self.app, req));
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    fn open(&self, body: Value) -> Value {
        let (s, v) = self.json("POST", "/api/games", Some(body));
        assert_eq!(s, StatusCode::CREATED, "{v}");
        v
    }
}

#[test]
fn the_state_says_how_to_draw_the_board_and_the_list_what_to_open() {
    let api = Api::new();
    // A person playing the side that moves down sees the board turned.
    let black = api.open(json!({"game": "draughts", "sides": ["random", "human"]}));
    assert_eq!(black["flip"], json!(true));
    assert_eq!(black["numbered"], json!(true));
    let mut numbers: Vec<u64> = black["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["number"].as_u64().unwrap())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=32).collect::<Vec<u64>>());
    let white = api.open(json!({"game": "draughts", "sides": ["human", "random"]}));
    assert_eq!(white["flip"], json!(false));
    // Two people, or none: seen from the first side's end.
    let both = api.open(json!({"game": "draughts", "sides": ["human", "human"]}));
    assert_eq!(both["flip"], json!(false));
    let letters = api.open(json!({"game": "other/breakthrough", "sides": ["random", "human"]}));
    assert_eq!(letters["numbered"], json!(false));
    assert_eq!(letters["flip"], json!(true));
    // The list: each good game with its description; one game to open
    // first, a bundled one that other bundled games extend.
    let (_, list) = api.json("GET", "/api/games", None);
    let games = list["games"].as_array().unwrap();
    let first: Vec<&Value> = games.iter().filter(|g| g["first"] == json!(true)).collect();
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(first[0]["bundled"], json!(true));
    let name = first[0]["name"].as_str().unwrap();
    let extending = rulebook::bundled::GAMES
        .iter()
        .filter(|(_, text)| text.contains(&format!("extends \"{name}\"")))
        .count();
    assert!(extending > 0, "{name}");
    for g in games.iter().filter(|g| g.get("errors").is_none()) {
        assert!(g["description"].as_str().unwrap().len() > 20, "{g}");
    }
}

#[test]
fn an_exact_move_is_never_the_prefix_of_a_longer_one() {
    let api = Api::new();
    let v = api.open(json!({"game": "draughts", "sides": ["human", "human"]}));
    let id = v["id"]
        .as_str()
        .map_or_else(|| v["id"].to_string(), str::to_string);
    let legal: Vec<String> = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap().to_string())
        .collect();
    // A move's start and the first digit of its end: a prefix of it.
    let m = &legal[0];
    let cut = &m[..m.len() - 1];
    assert!(
        legal.iter().filter(|l| l.starts_with(cut)).count() == 1,
        "{legal:?}"
    );
    let (s, e) = api.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": cut, "exact": true})),
    );
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(!e["error"].as_str().unwrap().is_empty());
    let (_, again) = api.json("GET", &format!("/api/games/{id}"), None);
    assert_eq!(again["moves"], json!([]));
    // As typed at the prompt, the same text is that move.
    let (s, played) = api.json(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": cut})),
    );
    assert_eq!(s, StatusCode::OK, "{played}");
    assert_eq!(played["moves"], json!([m]));
}

#[test]
fn race_turns_say_whether_the_roll_left_one_choice() {
    let api = Api::new();
    let v = api.open(json!({"game": "other/ludo", "sides": ["human", "random"], "seed": 4}));
    let id = v["id"]
        .as_str()
        .map_or_else(|| v["id"].to_string(), str::to_string);
    let (mut one, mut several) = (0, 0);
    let mut v = v;
    for _ in 0..400 {
        if v["result"] != Value::Null || (one > 0 && several > 0) {
            break;
        }
        if v["human_to_roll"] == json!(true) {
            let (s, r) = api.json("POST", &format!("/api/games/{id}/roll"), None);
            assert_eq!(s, StatusCode::OK, "{r}");
            let n = r["choices"].as_array().unwrap().len();
            let c = r["choices"][0]["text"].clone();
            let (s, after) = api.json(
                "POST",
                &format!("/api/games/{id}/choose"),
                Some(json!({"choice": c})),
            );
            assert_eq!(s, StatusCode::OK, "{after}");
            let last = after["turns"].as_array().unwrap().last().unwrap().clone();
            assert_eq!(last["seat"], json!(0));
            assert_eq!(last["forced"], json!(n == 1), "{n} choices: {last}");
            if n == 1 {
                one += 1;
            } else {
                several += 1;
            }
            v = after;
        } else {
            let (s, after) = api.json("POST", &format!("/api/games/{id}/computer"), None);
            assert_eq!(s, StatusCode::OK, "{after}");
            v = after;
        }
    }
    assert!(
        one > 0 && several > 0,
        "{one} forced, {several} with a choice"
    );
}

/// Nothing scrolls sideways: the page is no wider than the screen.
fn no_sideways_scroll(b: &Browser, w: u64) {
    let wide = b.js("return document.documentElement.scrollWidth;");
    assert!(wide.as_u64().unwrap() <= w, "the page is {wide} px wide");
}

#[test]
fn a_whole_draughts_game_by_clicks_as_the_second_side_the_board_turned() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("second-draughts");
    page_size(&b, 1280, 800);
    b.goto("/?game=draughts");
    b.wait("document.querySelectorAll('[data-side]').length === 2", 10);
    // A board game has no choice of players; its description is shown.
    assert_eq!(
        b.js("return getComputedStyle(document.getElementById('players-label')).display;"),
        json!("none")
    );
    assert!(b.text("#game-description").len() > 40);
    b.select("[data-side='0']", "random");
    b.select("[data-side='1']", "human");
    b.click("#start");
    b.wait("document.body.dataset.turn === 'human'", 30);
    // The person plays the side moving down the board: it is turned round,
    // the first rank at the top.
    assert_eq!(b.js("return state.flip;"), json!(true));
    let margin = b.js("return state.board.margin;");
    let low = b.js("return state.squares.find((q) => q.rank === 0).name;");
    let low = low.as_str().unwrap();
    assert_eq!(
        b.js(&format!(
            "return Number(document.querySelector('#board rect.hit[data-square=\"{low}\"]').getAttribute('y'));"
        )),
        margin
    );
    // One notation: the square numbers on the board, no letters.
    assert_eq!(
        b.js("return document.querySelectorAll('#board text.square-number').length;"),
        b.js("return state.squares.length;")
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#board g#coordinates').length;"),
        json!(0)
    );
    // A piece of the side not to move: explained by its number.
    let theirs = b.js(
        "const starts = new Set(state.legal.map((m) => m.squares[0]));
         const rank = (n) => state.squares.find((q) => q.name === n).rank;
         const mean = [...starts].reduce((a, n) => a + rank(n), 0) / starts.size;
         let best = null;
         for (const q of state.squares) if (!best || Math.abs(q.rank - mean) > Math.abs(best.rank - mean)) best = q;
         return [best.name, String(best.number)];",
    );
    b.click(&format!(
        "#board rect.hit[data-square=\"{}\"]",
        theirs[0].as_str().unwrap()
    ));
    b.wait("document.getElementById('message').textContent !== ''", 10);
    let why = b.text("#message");
    assert!(
        why.contains(&format!("on {} is", theirs[1].as_str().unwrap())),
        "{why}"
    );
    assert_eq!(
        b.js("return document.getElementById('message').className;"),
        json!("error")
    );
    // The hint: information, its squares outlined on the board.
    b.click("#hint");
    b.wait(
        "document.getElementById('message').textContent.startsWith('hint: ')",
        10,
    );
    let hint = b.text("#message");
    assert_eq!(
        b.js("return document.getElementById('message').className;"),
        json!("info")
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#board .mark-hint').length;"),
        json!(2)
    );
    let from =
        b.js("return String(state.squares.find((q) => q.name === hinted.squares[0]).number);");
    assert!(
        hint.contains(&format!("from {} to ", from.as_str().unwrap())),
        "{hint}"
    );
    doc_shot(&b, "hint", "web-board.png");
    // Flip turns it back for a spectator, and again.
    b.click("#flip");
    assert_eq!(
        b.js(&format!(
            "return Number(document.querySelector('#board rect.hit[data-square=\"{low}\"]').getAttribute('y')) > {margin};"
        )),
        json!(true)
    );
    b.click("#flip");
    let mut moves = 0;
    loop {
        b.wait("['human', 'over'].includes(document.body.dataset.turn)", 30);
        if b.js("return document.body.dataset.turn;") == json!("over") {
            break;
        }
        assert_eq!(b.js("return flipped();"), json!(true));
        let legal = b.js("return state.legal;");
        let squares = pick(legal.as_array().unwrap());
        b.click(&format!("#board rect.hit[data-square=\"{}\"]", squares[0]));
        click_move(&b, &squares[1..]);
        moves += 1;
        assert!(moves < 1000, "the game did not end");
    }
    // The move list in the game's numbers, scrolled to its end.
    let listed = b.text("#moves li");
    assert!(
        listed.chars().next().is_some_and(|c| c.is_ascii_digit()),
        "{listed}"
    );
    assert_eq!(
        b.js("const o = document.getElementById('moves'); return o.scrollTop + o.clientHeight >= o.scrollHeight - 1;"),
        json!(true)
    );
    let status = b.text("#status");
    assert!(status.starts_with("Game over: "), "{status}");
    assert!(!status.contains("result:"), "{status}");
    assert_eq!(
        b.js("return document.getElementById('resign').disabled;"),
        json!(true)
    );
    b.shot("over");
    // A rematch: the same game and players again.
    let old = b.js("return state.id;");
    b.click("#rematch");
    b.wait(&format!("state.id !== {old}"), 10);
    assert_eq!(
        b.js("return state.sides.map((s) => s.agent);"),
        json!(["random", "human"])
    );
    eprintln!("draughts as the second side: {moves} moves; {status}");
}

#[test]
fn a_whole_ludo_game_where_only_real_choices_are_clicked() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("second-ludo");
    page_size(&b, 1280, 800);
    b.goto("/?game=other/ludo");
    b.wait("document.querySelectorAll('[data-side]').length >= 2", 10);
    assert_eq!(
        b.js("return getComputedStyle(document.getElementById('players-label')).display;"),
        json!("block")
    );
    b.select("#players", "3");
    // A third seat is the computer's.
    assert_eq!(
        b.js("return [...document.querySelectorAll('[data-side]')].map((s) => s.value);"),
        json!(["human", "random", "random"])
    );
    b.js("document.getElementById('seed').value = '5';");
    b.click("#start");
    b.wait("state && state.kind === 'race'", 10);
    // The fourth seat's start cell is not outlined.
    assert_eq!(
        b.js("return [...document.querySelectorAll('#track-svg rect.start')].filter((r) => getComputedStyle(r).display === 'none').length;"),
        json!(1)
    );
    let (mut rolls, mut clicked) = (0, 0);
    let mut choose_shot = false;
    loop {
        b.wait(
            "['roll', 'choose', 'over'].includes(document.body.dataset.turn)",
            60,
        );
        match b.js("return document.body.dataset.turn;").as_str().unwrap() {
            "over" => break,
            "roll" => {
                let before = b.js("return state.version;");
                b.click("#roll");
                b.wait(&format!("state.version !== {before}"), 10);
                rolls += 1;
            }
            _ => {
                // Only a real choice waits for a click: two or more.
                let buttons = b.js("return document.querySelectorAll('#choices .choice').length;");
                assert!(buttons.as_u64().unwrap() >= 2, "{buttons} buttons");
                // The caption on the track says what the status says.
                assert!(b.text("#track-svg text.turn").ends_with(" to choose"));
                assert!(b.text("#status").contains(" to choose."));
                if !choose_shot
                    && b.js("return state.choices.filter((c) => c.cell !== null).length >= 2;")
                        == json!(true)
                {
                    doc_shot(&b, "choose", "web-race.png");
                    choose_shot = true;
                }
                let before = b.js("return state.turns.length;");
                b.click("#choices .choice");
                b.wait(&format!("state.turns.length > {before}"), 10);
                clicked += 1;
            }
        }
        assert!(rolls < 2000, "the game did not end");
    }
    let status = b.text("#status");
    assert!(status.starts_with("Game over: "), "{status}");
    assert!(!status.contains("result:"), "{status}");
    // The person's forced turns played themselves and are said so.
    let forced = b.js("return state.turns.filter((t) => t.seat === 0 && t.forced).length;");
    assert!(forced.as_u64().unwrap() > 0);
    let log = b.text("#moves");
    assert!(log.contains("(the only choice)"), "{log}");
    let mine = b.js("return state.turns.filter((t) => t.seat === 0).length;");
    b.shot("over");
    eprintln!(
        "ludo: {rolls} rolls clicked, {clicked} choices clicked, {} turns of the person, {forced} forced; {status}",
        mine
    );
    assert!(clicked > 0, "no real choice came");
    assert_eq!(
        mine.as_u64().unwrap(),
        clicked + forced.as_u64().unwrap(),
        "every turn of the person is a click or forced"
    );
}

#[test]
fn the_pages_on_a_phone_fit_its_width_with_the_controls_in_view() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("second-phone");
    page_size(&b, 390, 844);
    b.goto("/");
    b.wait("document.querySelectorAll('[data-side]').length >= 2", 10);
    // With no game asked for, the bundled game the others extend.
    let first = b.js("return games.find((g) => g.first).name;");
    assert_eq!(b.js("return document.getElementById('game').value;"), first);
    no_sideways_scroll(&b, 390);
    b.shot("setup");
    // A board game against the computer.
    b.goto("/?game=draughts");
    b.wait("document.querySelectorAll('[data-side]').length === 2", 10);
    b.click("#start");
    b.wait("document.body.dataset.turn === 'human'", 30);
    let legal = b.js("return state.legal;");
    let squares = pick(legal.as_array().unwrap());
    b.click(&format!("#board rect.hit[data-square=\"{}\"]", squares[0]));
    click_move(&b, &squares[1..]);
    b.wait("document.body.dataset.turn === 'human'", 30);
    no_sideways_scroll(&b, 390);
    // The board, the status and the buttons in view, touch-sized.
    let board = rect(&b, "#board svg");
    assert!(board[3] <= 390.0 && board[2] >= 0.0, "{board:?}");
    for css in ["#status", "#undo", "#hint"] {
        let r = rect(&b, css);
        assert!(r[1] <= 844.0, "{css} below the screen: {r:?}");
    }
    assert!(rect(&b, "#hint")[4] >= 44.0);
    doc_shot(&b, "board", "web-board-phone.png");
    // A race game: the track and the Roll button in one screen.
    b.goto("/?game=other/ludo");
    b.wait("document.querySelectorAll('[data-side]').length >= 2", 10);
    b.js("document.getElementById('seed').value = '3';");
    b.click("#start");
    b.wait("document.body.dataset.turn === 'roll'", 30);
    let mut shot = false;
    for _ in 0..60 {
        b.wait(
            "['roll', 'choose', 'over'].includes(document.body.dataset.turn)",
            30,
        );
        no_sideways_scroll(&b, 390);
        let turn = b.js("return document.body.dataset.turn;");
        if turn == json!("roll") {
            let roll = rect(&b, "#roll");
            assert!(roll[1] <= 844.0 && roll[4] >= 44.0, "{roll:?}");
            let track = rect(&b, "#track-svg svg");
            assert!(track[3] <= 390.0, "{track:?}");
            let before = b.js("return state.version;");
            b.click("#roll");
            b.wait(&format!("state.version !== {before}"), 10);
        } else if turn == json!("choose") {
            let c = rect(&b, "#choices .choice");
            assert!(c[1] <= 844.0 && c[4] >= 44.0, "{c:?}");
            if !shot && b.js("return state.turns.length > 6;") == json!(true) {
                doc_shot(&b, "race", "web-race-phone.png");
                shot = true;
            }
            let before = b.js("return state.turns.length;");
            b.click("#choices .choice");
            b.wait(&format!("state.turns.length > {before}"), 10);
        } else {
            break;
        }
    }
    assert!(shot, "no choice came to show");
}

#[test]
fn a_lettered_board_turned_keeps_its_letters_and_explains_with_them() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("second-letters");
    page_size(&b, 1280, 800);
    b.goto("/?game=other/breakthrough");
    b.wait("document.querySelectorAll('[data-side]').length === 2", 10);
    b.select("[data-side='0']", "human");
    b.select("[data-side='1']", "human");
    b.click("#start");
    b.wait("document.body.dataset.turn === 'human'", 30);
    // Two people: seen from the first side's end; no numbers, the letters
    // and ranks drawn.
    assert_eq!(b.js("return state.numbered || state.flip;"), json!(false));
    assert_eq!(
        b.js("return document.querySelectorAll('#board text.square-number').length;"),
        json!(0)
    );
    let labels = "return [...document.querySelectorAll('#board g#coordinates text')].map((t) => t.textContent).join('');";
    let before = b.js(labels);
    assert!(before.as_str().unwrap().starts_with("abcdefgh"), "{before}");
    // Flipped: the files read from h, the ranks from 8, the first rank at
    // the top.
    b.click("#flip");
    let after = b.js(labels);
    assert!(after.as_str().unwrap().starts_with("hgfedcba8"), "{after}");
    let low = b.js("return state.squares.find((q) => q.rank === 0 && q.file === 0).name;");
    assert_eq!(
        b.js(&format!(
            "return Number(document.querySelector('#board rect.hit[data-square=\"{}\"]').getAttribute('x')) > state.board.margin;",
            low.as_str().unwrap()
        )),
        json!(true)
    );
    // A piece of the side not to move, explained by its letter and rank.
    let theirs = b.js(
        "const starts = new Set(state.legal.map((m) => m.squares[0]));
         const q = state.squares.find((q) => q.rank === state.board.height - 1);
         return starts.has(q.name) ? null : q.name;",
    );
    let theirs = theirs.as_str().unwrap();
    b.click(&format!("#board rect.hit[data-square=\"{theirs}\"]"));
    b.wait("document.getElementById('message').textContent !== ''", 10);
    let why = b.text("#message");
    assert!(why.contains(&format!("on {theirs} ")), "{why}");
    b.shot("turned");
}
