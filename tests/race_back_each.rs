//! `move back when blocked` with dice used one by one (issue 27): a die
//! that can move no piece forward (nor enter one) moves a piece back by its
//! value, checked die by die. Scripted turns with fixed dice on a house
//! rule built on Parcheesi (tests/fixtures/race_back_each/*.script), random
//! play in which every listed choice is legal and the moves back are seen
//! (`race_each::random_play`), a seeded game, a recorded game replayed, and
//! the rules page.

use crate::race::load_text;

// ------------------------------------------------------------------ scripts

crate::race::script_tests!(
    "fixtures/race_back_each/*.script",
    "race_back_each",
    (1..=5).map(|n| format!("back-{n:02}-"))
);

// ------------------------------------------------------------------ the house rule

/// Parcheesi where a die that can move no piece forward moves one back.
const HOUSE: &str =
    "extends \"other/parcheesi\"\ngame \"Parcheesi, backing off\"\nmove back when blocked\n";

#[test]
fn the_house_rule_loads() {
    let game = load_text(HOUSE);
    assert!(game.each_die && game.move_back);
}

/// A whole seeded game of two random players of the house rule.
fn random_game(seed: &str) -> String {
    let dir = crate::common::scratch();
    let file = dir.path().join("house.rules");
    std::fs::write(&file, HOUSE).unwrap();
    crate::race::two_random(file.to_str().unwrap(), seed, None)
}

#[test]
fn a_seeded_random_game() {
    let transcript = random_game("3");
    assert_eq!(transcript, random_game("3"));
    assert!(transcript.contains("moves back from"), "{transcript}");
    insta::assert_snapshot!("back-each-seed-3", transcript);
}

#[test]
fn a_recorded_game_is_replayed() {
    let dir = crate::common::scratch();
    let file = dir.path().join("house.rules");
    std::fs::write(&file, HOUSE).unwrap();
    // The record in the rule file's folder, where a record may name it.
    let record = dir.path().join("game.jsonl");
    let played = crate::race::two_random(file.to_str().unwrap(), "3", record.to_str());
    let (code, replayed, err) = crate::common::run(&["replay", record.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(crate::race::turns(&played), crate::race::turns(&replayed));
    assert!(played.contains("moves back from"), "{played}");
    let record = std::fs::read_to_string(&record).unwrap();
    // The record keeps the moves back as typed: a cell before the first.
    let back = record.lines().any(|line| {
        line.split('"').any(|word| {
            word.split_whitespace().any(|step| {
                step.split_once('-').is_some_and(|(a, b)| {
                    // On one lane (c, or a home column) a lower number.
                    let cell = |w: &str| {
                        let (lane, n) = w.split_at(1.min(w.len()));
                        n.parse::<u16>().ok().map(|n| (lane.to_string(), n))
                    };
                    matches!((cell(a), cell(b)), (Some(x), Some(y)) if x.0 == y.0 && y.1 < x.1)
                })
            })
        })
    });
    assert!(back, "no move back in the record:\n{record}");
}

#[test]
fn the_rules_page_says_it_die_by_die() {
    let dir = crate::common::scratch();
    let file = dir.path().join("house.rules");
    std::fs::write(&file, HOUSE).unwrap();
    let html = dir.path().join("rules.html");
    let (code, _, err) = crate::common::run(&[
        "rules",
        file.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let out = std::fs::read_to_string(&html).unwrap();
    assert!(
        out.contains("A die that can move no piece forward must move one back by its value"),
        "{out}"
    );
}

// ------------------------------------------------------------------ the engine

#[test]
fn random_play_moves_back_die_by_die() {
    let game = load_text(HOUSE);
    let seen = crate::race_each::random_play(&game, 4);
    assert!(seen.turns > 300, "{}", seen.turns);
    assert!(seen.back > 10, "moves back played: {}", seen.back);
}

#[test]
fn random_play_with_most_dice_moves_back_too() {
    let game = load_text(&format!("{HOUSE}move most dice\n"));
    let seen = crate::race_each::random_play(&game, 4);
    assert!(seen.turns > 300, "{}", seen.turns);
    assert!(seen.back > 10, "moves back played: {}", seen.back);
}
