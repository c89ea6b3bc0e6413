//! The race games of issue 27 (Mensch ärgere dich nicht, the Royal Game of
//! Ur, Senet, backgammon, Parcheesi) at the computer players, `simulate`,
//! `compare` and the web page, each game alike: greedy and MCTS choose
//! turns of every game (a backgammon turn is one choice among the
//! sequences), `compare` runs each game against a house rule of it, and
//! the web page opens each, draws its track, takes a choice as the page
//! lists it and refuses a move the rules rule out by naming the rule.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::common::{run, WebApp};

/// Each game, and a house rule of it (a line added to it).
const GAMES: [(&str, &str); 5] = [
    ("other/mensch-aergere-dich-nicht", "extra roll on 5 6"),
    ("other/royal-game-of-ur", "safe cells m4 a4 b4"),
    ("other/senet", "no passing cells 15 26"),
    ("other/backgammon", "move doubles 2 times"),
    ("other/parcheesi", "bonus 10 after capture"),
];

/// Greedy against MCTS through `simulate`: the first plies of a game of
/// each (a debug build: a ply limit ends it, the searching players look at
/// every choice of every roll).
#[test]
fn greedy_and_mcts_play_every_game() {
    for (game, _) in GAMES {
        let (code, out, err) = run(&[
            "simulate",
            game,
            "--games",
            "1",
            "--agents",
            "greedy,mcts",
            "--playouts",
            "5",
            "--max-plies",
            "16",
            "--jobs",
            "1",
            "--quiet",
            "--json",
        ]);
        assert_eq!(code, 0, "{game}: {err}");
        let v: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["games"], 1, "{game}: {out}");
        let agents: Vec<&str> = v["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["agent"].as_str().unwrap())
            .collect();
        assert_eq!(agents, ["greedy", "mcts"], "{game}: {out}");
    }
}

/// `compare` runs each game against a house rule of it and reports both.
#[test]
fn compare_runs_every_game_against_a_house_rule() {
    let dir = crate::common::scratch();
    for (game, line) in GAMES {
        let file = dir.path().join("house.rules");
        std::fs::write(
            &file,
            format!("extends \"{game}\"\ngame \"A house rule\"\ndescription \"{line}.\"\n{line}\n"),
        )
        .unwrap();
        let (code, out, err) = run(&[
            "compare",
            game,
            file.to_str().unwrap(),
            "--games",
            "6",
            "--jobs",
            "1",
            "--quiet",
        ]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(
            out.contains(&format!("({game})")) && out.contains("A house rule ("),
            "{game}: {out}"
        );
        assert!(out.contains("length (plies)"), "{game}: {out}");
    }
}

// ------------------------------------------------------------------ the web page

/// Each game on the web page: opened for two people, its track drawn
/// (every cell a `rect.cell`, the pieces in it), a roll, the choices listed
/// as `choose` takes them, one of them played; and in backgammon a single
/// die's move when both dice can be used is refused with the rule's words,
/// and words that are no choice with how a choice is written.
#[test]
fn the_web_page_plays_every_game() {
    let app = WebApp::new();
    for (game, _) in GAMES {
        let (s, v) = app.json(
            "POST",
            "/api/games",
            Some(json!({"game": game, "sides": ["human", "human"], "seed": 7})),
        );
        assert_eq!(s, StatusCode::CREATED, "{game}: {v}");
        let id = v["id"].as_str().unwrap().to_string();
        let svg = v["svg"].as_str().unwrap();
        assert!(
            svg.contains("class=\"cell\"") && svg.contains("class=\"piece\""),
            "{game}: {svg}"
        );
        // A roll with a choice to make (a roll that moves nothing passes).
        let mut choices = Vec::new();
        for _ in 0..20 {
            let (s, r) = app.json("POST", &format!("/api/games/{id}/roll"), None);
            assert_eq!(s, StatusCode::OK, "{game}: {r}");
            choices = r["choices"].as_array().unwrap().clone();
            if choices.len() > 1 {
                break;
            }
            let only = choices[0]["text"].clone();
            let (s, r) = app.json(
                "POST",
                &format!("/api/games/{id}/choose"),
                Some(json!({ "choice": only })),
            );
            assert_eq!(s, StatusCode::OK, "{game}: {r}");
        }
        assert!(choices.len() > 1, "{game}: no roll with a choice");
        let first = choices[0]["text"].as_str().unwrap().to_string();
        if game == "other/backgammon" {
            // Words that are no choice: the page says how one is written.
            let (s, r) = app.json(
                "POST",
                &format!("/api/games/{id}/choose"),
                Some(json!({ "choice": "x9" })),
            );
            assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{r}");
            let why = r["error"].as_str().unwrap();
            assert!(
                why.contains("each die's move in order") && why.contains("\"p24-p23 p23-p21\""),
                "{why}"
            );
            // The first die's move of a turn of two (`p8-p3 p6-p2`) alone.
            let one = first.split(' ').next().unwrap();
            if one != first {
                let (s, r) = app.json(
                    "POST",
                    &format!("/api/games/{id}/choose"),
                    Some(json!({ "choice": one })),
                );
                assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{r}");
                let why = r["error"].as_str().unwrap();
                assert!(why.contains("as many dice as can be must be used"), "{why}");
            }
        }
        let (s, r) = app.json(
            "POST",
            &format!("/api/games/{id}/choose"),
            Some(json!({ "choice": first })),
        );
        assert_eq!(s, StatusCode::OK, "{game}: {r}");
        let turns = r["turns"].as_array().unwrap();
        assert!(!turns.is_empty(), "{game}: {r}");
    }
}
