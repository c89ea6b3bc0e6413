//! Dice with a table of values (`dice 2 d6: 1 = 1, ..., 5 = 0, 6 = 10`,
//! issue 27, item 4): a face moves its value with the sum of the dice and
//! with `move each die`, while the rules that name faces (`enter on`,
//! `extra roll on`, doubles) look at the faces (docs/language.md, "Dice
//! whose faces move other counts"). Scripted turns with fixed dice
//! (tests/fixtures/race_faces/*.script), the checker's diagnostics, a
//! seeded random game and its replay, the compiled turn against the
//! general one, the computer players, `simulate`, the rules page and the
//! house rules of the document.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::race::fast::{FastRace, NotCovered};
use rulebook::race::{Choice, Illegal, RaceState, Roll};

use crate::common::run;
use crate::race::{load_text, roll_of};

/// Mensch ärgere dich nicht where a six moves ten: the house rule of
/// docs/language.md.
const MENSCH_TEN: &str = "extends \"other/mensch-aergere-dich-nicht\"\ngame \"Mensch ärgere dich nicht, a six moves ten\"\ndice 1 d6: 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 5, 6 = 10\n";

/// Backgammon where a 6 counts nothing: the other house rule of
/// docs/language.md.
const BACKGAMMON_NO_SIX: &str = "extends \"other/backgammon\"\ngame \"Backgammon, sixes count nothing\"\ndice 2 d6: 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 5, 6 = 0\n";

/// Slow and Steady whose fives count nothing (two dice, by their sum).
const SLOW_NO_FIVE: &str = "extends \"slow-and-steady\"\ngame \"Slow and Steady, fives count nothing\"\ndice 2 d6: 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 0, 6 = 6\n";

// ------------------------------------------------------------------ scripts

#[test]
fn scripted_turns() {
    insta::glob!("fixtures/race_faces/*.script", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(crate::race::run_script(&text));
    });
}

// ------------------------------------------------------------------ the table

#[test]
fn a_roll_moves_the_values_of_its_faces() {
    let slow = load_text(SLOW_NO_FIVE);
    assert_eq!(slow.face_values, [0, 1, 2, 3, 4, 0, 6]);
    assert!(
        slow.restricted,
        "a table of values takes the rules of the choices"
    );
    assert_eq!(slow.count(&roll_of("5 3")), 3);
    assert_eq!(slow.count(&roll_of("6 6")), 12);
    assert_eq!(slow.count(&roll_of("5 5")), 0);
    assert_eq!(slow.sums(), (0, 12));
    let mensch = load_text(MENSCH_TEN);
    assert_eq!(mensch.count(&roll_of("6")), 10);
    assert_eq!(mensch.sums(), (1, 10));
    // Without a table a die moves its face.
    let plain = crate::race::load("slow-and-steady", &[]);
    assert!(plain.face_values.is_empty());
    assert_eq!(plain.count(&roll_of("5 3")), 8);
}

#[test]
fn a_sum_worth_zero_is_a_pass_and_a_move_is_refused() {
    let game = load_text(SLOW_NO_FIVE);
    let mut state = RaceState::new(&game, 2).unwrap();
    state.set_pieces(&game, 0, &[30, 40]).unwrap();
    let roll = roll_of("5 5");
    let mut choices = Vec::new();
    state.choices(&game, &roll, &mut choices);
    assert_eq!(choices, [Choice::Pass]);
    let mut events = Vec::new();
    assert!(state
        .clone()
        .apply(&game, &roll, Choice::Move(30), &mut events)
        .is_err());
    let why = rulebook::narrate::race::why_not(&game, &state, 0, &roll, Choice::Move(30));
    assert_eq!(why, "the roll 5+5 (worth 0+0) moves nothing");
    // 5 3 moves the piece 3, not 8.
    let roll = roll_of("5 3");
    state
        .apply(&game, &roll, Choice::Move(40), &mut events)
        .unwrap();
    assert!(state.pieces(0).contains(&43), "{:?}", state.pieces(0));
}

#[test]
fn each_die_moves_its_value_and_a_die_worth_zero_is_not_used() {
    let game = load_text(BACKGAMMON_NO_SIX);
    assert!(game.each_die);
    let state = RaceState::new(&game, 2).unwrap();
    let mut choices = Vec::new();
    // 6 3: only the 3 moves, one step a choice.
    state.choices(&game, &roll_of("6 3"), &mut choices);
    assert!(!choices.is_empty());
    for c in &choices {
        let Choice::Dice(steps) = c else {
            panic!("{c:?}")
        };
        let steps: Vec<_> = steps.iter().collect();
        assert_eq!(steps.len(), 1, "{c:?}");
        assert_eq!(steps[0].by, 3, "{c:?}");
    }
    // A double of sixes moves nothing.
    state.choices(&game, &roll_of("6 6"), &mut choices);
    assert_eq!(choices, [Choice::Pass]);
    // A double of fours is played four times.
    state.choices(&game, &roll_of("4 4"), &mut choices);
    assert!(choices
        .iter()
        .any(|c| matches!(c, Choice::Dice(s) if s.len() == 4)));
}

#[test]
fn a_face_the_dice_cant_show_is_refused() {
    let game = load_text(MENSCH_TEN);
    let mut state = RaceState::new(&game, 2).unwrap();
    let mut events = Vec::new();
    let err = state
        .apply(&game, &Roll::new(&[7]).unwrap(), Choice::Pass, &mut events)
        .unwrap_err();
    assert!(matches!(err, Illegal::Face { shown: 7, .. }), "{err:?}");
    let err = state
        .apply(&game, &Roll::new(&[0]).unwrap(), Choice::Pass, &mut events)
        .unwrap_err();
    assert!(matches!(err, Illegal::Face { shown: 0, .. }), "{err:?}");
}

// ------------------------------------------------------------------ the checker

/// A race game with `lines` for its dice.
fn diagnose(lines: &str) -> String {
    let text =
        format!("game \"Test\"\ntrack 60\nplayers 2\nseats red blue\npieces 2 per player\n{lines}");
    crate::race::diagnose_text(text, lines)
}

#[test]
fn each_way_to_get_a_table_of_faces_wrong_is_named() {
    for (name, lines) in [
        ("missing-faces", "dice 2 d6: 1 = 1, 2 = 2, 3 = 3, 4 = 4\n"),
        (
            "face-out-of-range",
            "dice 2 d6: 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 5, 6 = 6, 7 = 7\n",
        ),
        (
            "face-zero",
            "dice 1 d4: 0 = 1, 1 = 1, 2 = 2, 3 = 3, 4 = 4\n",
        ),
        (
            "all-zero",
            "dice 2 d6: 1 = 0, 2 = 0, 3 = 0, 4 = 0, 5 = 0, 6 = 0\n",
        ),
        (
            "value-too-large",
            "dice 1 d4: 1 = 1, 2 = 2, 3 = 3, 4 = 41\n",
        ),
        (
            "face-twice",
            "dice 1 d4: 1 = 1, 2 = 2, 2 = 3, 3 = 3, 4 = 4\n",
        ),
        (
            "enter-on-a-face-worth-nothing",
            "dice 1 d6: 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 5, 6 = 0\nenter on 6\n",
        ),
        (
            "track-shorter-than-the-values",
            "dice 2 d6: 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 5, 6 = 40\n",
        ),
    ] {
        let shown = diagnose(lines);
        assert!(shown.contains("test.rules:"), "{name}: no place:\n{shown}");
        assert!(shown.contains('^'), "{name}: no underline:\n{shown}");
        assert!(shown.contains("help:"), "{name}: no hint:\n{shown}");
        insta::assert_snapshot!(format!("diagnostic-{name}"), shown);
    }
}

#[test]
fn a_table_that_covers_every_face_checks() {
    let game = load_text(
        "game \"Test\"\ntrack 60\nplayers 2\nseats red blue\npieces 2 per player\ndice 2 d6: 6 = 10, 5 = 0, 4 = 4, 3 = 3, 2 = 2, 1 = 1\nenter on 6\n",
    );
    assert_eq!(game.face_values, [0, 1, 2, 3, 4, 0, 10]);
}

// ------------------------------------------------------------------ whole games

/// `file` in a fresh folder holding `text`.
fn house_file(dir: &tempfile::TempDir, text: &str) -> String {
    let file = dir.path().join("house.rules");
    std::fs::write(&file, text).unwrap();
    file.to_str().unwrap().to_string()
}

/// A seeded game of two random players of the house rule `file`, recorded
/// in its folder (a record names a rule file of its own folder) and
/// replayed, which must give the same turns: the transcript and the
/// record.
fn played_and_replayed(dir: &tempfile::TempDir, file: &str, seed: &str) -> (String, String) {
    let record = dir.path().join("game.jsonl");
    let record = record.to_str().unwrap();
    let played = crate::race::two_random(file, seed, Some(record));
    let (code, replayed, err) = run(&["replay", record]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(crate::race::turns(&played), crate::race::turns(&replayed));
    (played, std::fs::read_to_string(record).unwrap())
}

#[test]
fn a_seeded_random_game_and_its_replay() {
    let dir = crate::common::scratch();
    let file = house_file(&dir, MENSCH_TEN);
    let (played, text) = played_and_replayed(&dir, &file, "4");
    assert!(played.contains("6 (worth 10)"), "{played}");
    // The record keeps the faces.
    assert!(text.contains("\"dice\":[6]"), "{text}");
    insta::assert_snapshot!(
        "mensch-six-ten-seed-4",
        played.replace(&file, "house.rules")
    );
    // A record whose die shows a face it can't is refused on replay.
    let broken = text.replacen("\"dice\":[6]", "\"dice\":[7]", 1);
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, broken).unwrap();
    let (code, _, err) = run(&["replay", bad.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains('7'), "{err}");
}

#[test]
fn each_die_games_play_to_the_end_and_replay() {
    let dir = crate::common::scratch();
    let file = house_file(&dir, BACKGAMMON_NO_SIX);
    let (played, text) = played_and_replayed(&dir, &file, "2");
    assert!(played.contains("(worth 0+"), "{played}");
    assert!(text.contains("\"dice\":[6,"), "{text}");
}

#[test]
fn the_compiled_turn_plays_a_sum_table_as_the_general_turn() {
    let game = load_text(MENSCH_TEN);
    let reference = game.unplanned();
    for players in [2, 4] {
        let fast = FastRace::new(&game, players).expect("a sum table is compiled");
        for seed in 0..20u64 {
            let want = crate::race_fast::general(&reference, players, seed);
            let got = crate::race_fast::compiled(&fast, seed);
            assert_eq!(want.0, got.0, "{players} players, seed {seed}");
            assert_eq!((want.1, want.2), (got.1, got.2), "seed {seed}");
        }
    }
    let slow = load_text(SLOW_NO_FIVE);
    // A table takes the rules of the choices, which the compiled turn
    // keeps as bits of a word: a track of 100 cells is too long, and the
    // general turn plays it.
    assert_eq!(FastRace::new(&slow, 2).err(), Some(NotCovered::Size));
    // Dice used one by one take the general turn, as without a table.
    let each = load_text(BACKGAMMON_NO_SIX);
    assert_eq!(FastRace::new(&each, 2).err(), Some(NotCovered::EachDie));
}

#[test]
fn the_computer_players_and_simulate_play_it() {
    let dir = crate::common::scratch();
    for text in [MENSCH_TEN, BACKGAMMON_NO_SIX] {
        let file = house_file(&dir, text);
        crate::race::computer_players_play(&file, "10");
        let (code, out, err) = run(&["simulate", &file, "--games", "30", "--seed", "1"]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("30 games"), "{out}");
    }
}

#[test]
fn the_rules_page_lists_the_table() {
    let dir = crate::common::scratch();
    let file = house_file(&dir, BACKGAMMON_NO_SIX);
    let page = dir.path().join("rules.html");
    let (code, _, err) = run(&["rules", &file, "--html", page.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(page).unwrap();
    assert!(
        page.contains("a 5 moves 5, a 6 moves 0; a die worth 0 moves nothing"),
        "{page}"
    );
}

#[test]
fn a_house_rule_that_restates_the_dice_drops_the_table() {
    let dir = crate::common::scratch();
    let first = house_file(&dir, SLOW_NO_FIVE);
    let second = dir.path().join("plain.rules");
    std::fs::write(
        &second,
        "extends \"house.rules\"\ngame \"Plain again\"\ndice 2 d6\n",
    )
    .unwrap();
    let load = |path: &str| {
        rulebook::load::check(&rulebook::cli::FsLoader, path, &[])
            .into_race()
            .unwrap()
    };
    assert_eq!(load(&first).face_values, [0, 1, 2, 3, 4, 0, 6]);
    let plain = load(second.to_str().unwrap());
    assert!(plain.face_values.is_empty());
    assert_eq!(plain.count(&roll_of("5 3")), 8);
}

// ------------------------------------------------------------------ the document

#[test]
fn the_house_rules_of_the_document_check_clean() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/language.md"),
    )
    .unwrap();
    for text in [MENSCH_TEN, BACKGAMMON_NO_SIX] {
        assert!(doc.contains(text), "docs/language.md shows:\n{text}");
        let checked = rulebook::load::check_source(
            rulebook::load::Source {
                name: "house.rules".into(),
                text: text.into(),
            },
            &rulebook::load::BundledLoader,
            &[],
        );
        assert!(
            checked.diagnostics.iter().all(|d| !d.is_error()),
            "{}",
            checked.render()
        );
        assert!(checked.into_race().is_some());
    }
}
