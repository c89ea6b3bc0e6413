//! `rulebook serve` keeps one kind of stored game for board and race games:
//! the verbs common to both (computer, hint, record) answer each kind in its
//! own words, and the input of one kind is refused for the other as before.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::common::WebApp as App;

#[test]
fn each_kind_refuses_the_other_kinds_input() {
    let app = App::new();
    let (board, _) = app.open(json!({"game": "draughts"}));
    let race_game = "this is a board game: move a piece";
    assert_eq!(
        app.refusal("POST", &format!("/api/games/{board}/roll"), None),
        (StatusCode::CONFLICT, race_game.to_string())
    );
    assert_eq!(
        app.refusal(
            "POST",
            &format!("/api/games/{board}/choose"),
            Some(json!({"choice": "enter"}))
        ),
        (StatusCode::CONFLICT, race_game.to_string())
    );
    let (race, _) = app.open(json!({"game": "slow-and-steady", "sides": ["human", "human"]}));
    let board_game = "this is a race game: roll and choose";
    assert_eq!(
        app.refusal(
            "POST",
            &format!("/api/games/{race}/move"),
            Some(json!({"move": "1"}))
        ),
        (StatusCode::CONFLICT, board_game.to_string())
    );
    assert_eq!(
        app.refusal("POST", &format!("/api/games/{race}/resign"), None),
        (StatusCode::CONFLICT, board_game.to_string())
    );
    // A race game has no PDN.
    assert_eq!(
        app.refusal("GET", &format!("/api/games/{race}/pdn"), None),
        (
            StatusCode::NOT_FOUND,
            "no such game (it may have expired)".to_string()
        )
    );
    // Neither game was changed by the refusals.
    for id in [&board, &race] {
        let (_, v) = app.json("GET", &format!("/api/games/{id}"), None);
        assert_eq!(v["version"], 0, "{v}");
    }
}

#[test]
fn computer_and_hint_answer_each_kind_in_its_words() {
    let app = App::new();
    let (board, v) = app.open(json!({"game": "draughts"}));
    assert_eq!(
        app.refusal("POST", &format!("/api/games/{board}/computer"), None),
        (StatusCode::CONFLICT, "a person is to move".to_string())
    );
    let (s, h) = app.json("POST", &format!("/api/games/{board}/hint"), None);
    assert_eq!(s, StatusCode::OK, "{h}");
    // The hint is one of the legal moves, drawn as the state draws them.
    let legal = v["legal"].as_array().unwrap();
    assert!(legal.contains(&h["hint"]), "{h} not in {legal:?}");

    let (race, _) = app.open(json!({"game": "slow-and-steady", "sides": ["human", "human"]}));
    assert_eq!(
        app.refusal("POST", &format!("/api/games/{race}/computer"), None),
        (StatusCode::CONFLICT, "a person is to roll".to_string())
    );
    assert_eq!(
        app.refusal("POST", &format!("/api/games/{race}/hint"), None),
        (StatusCode::CONFLICT, "roll first".to_string())
    );
    let (s, v) = app.json("POST", &format!("/api/games/{race}/roll"), None);
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, h) = app.json("POST", &format!("/api/games/{race}/hint"), None);
    assert_eq!(s, StatusCode::OK, "{h}");
    // The hint is one of the choices, drawn as the state draws them.
    let choices = v["choices"].as_array().unwrap();
    assert!(choices.contains(&h["hint"]), "{h} not in {choices:?}");
}

#[test]
fn a_race_record_holds_every_turn_of_computer_players() {
    let app = App::new();
    let (race, _) = app.open(json!({
        "game": "slow-and-steady", "sides": ["random", "random"], "seed": 3
    }));
    let mut v = Value::Null;
    for _ in 0..5 {
        let (s, w) = app.json("POST", &format!("/api/games/{race}/computer"), None);
        assert_eq!(s, StatusCode::OK, "{w}");
        v = w;
    }
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 5, "{v}");
    let (s, text) = app.send("GET", &format!("/api/games/{race}/record"), None);
    assert_eq!(s, StatusCode::OK);
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert_eq!(lines[0]["game"], "slow-and-steady");
    assert_eq!(lines[0]["seed"], 3);
    for (line, turn) in lines[1..].iter().zip(turns) {
        assert_eq!(line["player"], turn["player"], "{text}");
        assert_eq!(line["dice"], turn["dice"], "{text}");
    }
}
