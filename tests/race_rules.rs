//! The rules of the choices and the turn beyond the usual ones (issue 27,
//! first part), at work in Mensch ärgere dich nicht
//! (`games/other/mensch-aergere-dich-nicht.rules`, docs/rules.md MA-1 to
//! MA-9) and in a house rule on Ludo: scripted turns
//! (tests/fixtures/race_rules/*.script) with why a choice is refused, seeded
//! random games, a record replayed, the checker's diagnostics of the new
//! statements, and the statistics of random play against an independent
//! simulator (tests/independent/mensch.py).

use rulebook::race::game::RaceGame;
use rulebook::race::{RaceState, Roll};

const GAME: &str = "other/mensch-aergere-dich-nicht";

// ------------------------------------------------------------------ scripts

// The scripts are run by the race games' script runner (`crate::race`).
use crate::common::run;
use crate::race::{load_text, turns};

fn load(game: &str) -> RaceGame {
    crate::race::load(game, &[])
}

crate::race::script_tests!(
    "fixtures/race_rules/*.script",
    "race_rules",
    [1, 2, 3, 4, 5, 6, 9].map(|n| format!("ma-{n:02}"))
);

// ------------------------------------------------------------------ whole games

fn play_args<'a>(players: &'a str, seats: &'a [String]) -> Vec<&'a str> {
    let mut args = vec!["play", GAME, "--players", players];
    for s in seats {
        args.push("--seat");
        args.push(s);
    }
    args
}

fn random_game(players: usize, seed: &str, record: Option<&str>) -> String {
    let players_arg = players.to_string();
    let seats: Vec<String> = (1..=players).map(|i| format!("{i}=random")).collect();
    let mut args = play_args(&players_arg, &seats);
    args.extend(["--seed", seed]);
    if let Some(file) = record {
        args.extend(["--record", file]);
    }
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("result:"), "the game did not end:\n{out}");
    out
}

#[test]
fn seeded_random_games_for_2_and_4_players() {
    for players in [2, 4] {
        // Seed 1 of two players is tests/games.rs's `random_games`.
        let transcript = random_game(players, "5", None);
        assert_eq!(transcript, random_game(players, "5", None));
        for seen in ["taken: ", "reaches the home cells", " to h"] {
            assert!(transcript.contains(seen), "no {seen:?} in:\n{transcript}");
        }
        insta::assert_snapshot!(format!("mensch-{players}-players"), transcript);
    }
}

#[test]
fn a_replayed_record_gives_the_same_game() {
    let dir = std::env::temp_dir().join(format!("rulebook-race-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mensch.jsonl");
    let file = file.to_str().unwrap();
    let played = random_game(4, "9", Some(file));
    let (code, replayed, err) = run(&["replay", file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(turns(&played), turns(&replayed));
    assert!(
        played.contains("try 2 of 3"),
        "no second try in the game:\n{played}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------------------------ the checker

/// A Mensch-like game with `lines` in place of its settings' tail.
fn diagnose(lines: &str) -> String {
    let text = format!(
        "game \"Test\"\ntrack 40 loop starts 1 11 21 31 home 4 kept\nplayers 2-4\ndice 1 d6\n{lines}"
    );
    crate::race::diagnose_text(text, lines)
}

#[test]
fn each_way_to_get_the_new_statements_wrong_is_named() {
    for (name, lines) in [
        (
            "enter-compulsory-without-entering-rule",
            "enter compulsory\n",
        ),
        (
            "tries-zero",
            "enter on 6 at start\ntries 0 when no piece can move\n",
        ),
        (
            "tries-without-entering-rule",
            "tries 3 when no piece can move\n",
        ),
        (
            "leave-start-without-start-cell",
            "enter on 6\nleave start first\n",
        ),
        ("kept-with-finish-past", "enter on 6\nfinish past\n"),
        ("kept-with-more-pieces-than-cells", "pieces 5 per player\n"),
        (
            "no-landing-twice",
            "no landing on own pieces\nno landing on own pieces\n",
        ),
    ] {
        insta::assert_snapshot!(format!("diagnostic-{name}"), diagnose(lines));
    }
}

#[test]
fn the_new_statements_keep_their_spelling_in_fmt() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("games/other/mensch-aergere-dich-nicht.rules"),
    )
    .unwrap();
    let formatted = rulebook::format_rules::format_text(&text).unwrap();
    for line in [
        "track 40 loop starts 1 11 21 31 home 4 kept",
        "enter compulsory",
        "no landing on own pieces",
        "leave start first",
        "tries 3 when no piece can move",
    ] {
        assert!(formatted.contains(line), "{line:?} not in:\n{formatted}");
    }
    // `no` is still a name elsewhere: an option's value, also the last one
    // before a cell rule.
    let game = load_text(
        "extends \"other/ludo\"\noption strict = yes no\nlanding on cells 5: back 3\nwhen strict = yes {\n  no landing on own pieces\n}\n",
    );
    assert!(game.no_landing_own && game.rules().len() == 1);
}

// ------------------------------------------------------------------ independent check

/// `rulebook simulate` and tests/independent/mensch.py, random play: the mean
/// rolls a game and the first seat's win rate agree within 2 standard errors
/// (of the difference), for 2 and 4 players.
#[test]
fn random_play_agrees_with_an_independent_simulator() {
    for (players, games) in [(2usize, 3000usize), (4, 1500)] {
        let (p, g) = (players.to_string(), games.to_string());
        let report = crate::common::agrees_with_simulator(
            GAME,
            games,
            &["--players", &p, "--seed", "27"],
            "tests/independent/mensch.py",
            &[&p, &g, "27"],
        );
        eprintln!("{players} players, {report}");
    }
}

// ------------------------------------------------------------------ the engine

/// Seeded random games of Mensch ärgere dich nicht and of Ludo with `no
/// landing on own pieces`, played with the tables `RaceGame::derive` works
/// out and by the general path, give the same choices, events and states;
/// the choices listed are exactly the ones `apply` accepts among enter,
/// pass and a move of every piece of the player; every listed choice plays
/// and every other one changes nothing.
#[test]
fn the_listed_choices_are_the_legal_ones_planned_or_not() {
    use rulebook::race::Choice;
    use rulebook::rng::Rng;
    let games = [
        ("mensch", load(GAME)),
        (
            "ludo, one piece a cell",
            load_text("extends \"other/ludo\"\nno landing on own pieces\n"),
        ),
    ];
    let mut turns = 0u64;
    let mut retries = 0u64;
    for (name, planned) in &games {
        let general = planned.unplanned();
        for players in [2, 4] {
            for seed in 0..20u64 {
                let mut a = RaceState::new(planned, players).unwrap();
                let mut b = RaceState::new(&general, players).unwrap();
                let mut dice = Rng::new(seed);
                let mut pick = Rng::new(seed ^ 0x5eed);
                let (mut ca, mut cb, mut ea, mut eb) = (vec![], vec![], vec![], vec![]);
                while !a.is_over() && a.rolls() < 5_000 {
                    let roll = Roll::random(planned.dice, planned.faces, &mut dice);
                    a.choices(planned, &roll, &mut ca);
                    b.choices(&general, &roll, &mut cb);
                    assert_eq!(ca, cb, "{name}, {players} players, seed {seed}");
                    let seat = a.to_roll();
                    let mut candidates = vec![Choice::Enter, Choice::Pass];
                    candidates.extend(a.pieces(seat).iter().map(|&p| Choice::Move(p)));
                    for c in candidates {
                        let mut trial = a.clone();
                        let mut scratch = Vec::new();
                        let legal = trial.apply(planned, &roll, c, &mut scratch).is_ok();
                        assert_eq!(
                            legal,
                            ca.contains(&c),
                            "{name}, seed {seed}, {roll}: {c} listed {ca:?}"
                        );
                        if !legal {
                            assert_eq!(trial, a, "{name}: a refused choice changes nothing");
                        }
                    }
                    let choice = ca[pick.below(ca.len() as u64) as usize];
                    a.apply(planned, &roll, choice, &mut ea).unwrap();
                    b.apply(&general, &roll, choice, &mut eb).unwrap();
                    assert_eq!(ea, eb, "{name}, {players} players, seed {seed}, {roll}");
                    assert_eq!(a, b, "{name}, {players} players, seed {seed}");
                    retries += ea
                        .iter()
                        .filter(|e| matches!(e, rulebook::race::Event::Retry { .. }))
                        .count() as u64;
                    turns += 1;
                }
                assert!(
                    a.is_over(),
                    "{name}, {players} players, seed {seed}: no end"
                );
            }
        }
    }
    assert!(turns > 20_000, "{turns}");
    assert!(retries > 100, "{retries}");
}

// ------------------------------------------------------------------ options

/// `check` of a house rule named `test.rules` built on the bundled games:
/// the report, the options it offers, and the race game when it loads.
fn check_house(
    text: &str,
    options: &[(String, String)],
) -> (String, Vec<String>, Option<RaceGame>) {
    let checked = rulebook::load::check_source(
        rulebook::load::Source {
            name: "test.rules".into(),
            text: text.into(),
        },
        &rulebook::load::BundledLoader,
        options,
    );
    let names = checked.options.iter().map(|(n, _)| n.clone()).collect();
    (checked.render(), names, checked.into_race())
}

/// Ludo with the third 6 always sent back: the option that turned it on is
/// removed (docs/language.md, "Options and house rules").
const THREE_SIXES: &str = "extends \"other/ludo\"
game \"Ludo, three sixes\"
description \"Ludo where a third 6 in a row is never played: the piece moved last goes back out and the turn passes.\"
remove option three-sixes
rolling 6 3 times in a row \"a third 6\": last-moved out, end turn
";

/// `remove option` in a race file does what it does in a board game's: the
/// option is no longer offered nor accepted, and the game is played as with
/// its first value (the `when` blocks of the others are not applied).
#[test]
fn a_race_house_rule_removes_an_inherited_option() {
    let (report, options, game) = check_house(THREE_SIXES, &[]);
    assert_eq!(report, "");
    assert!(options.is_empty(), "{options:?}");
    let game = game.unwrap();
    assert_eq!(game.roll_rules.len(), 1, "its own rule of the roll");
    let ludo = crate::race::load("other/ludo", &[]);
    assert!(ludo.roll_rules.is_empty());
    // Not accepted any more.
    let chosen = [("three-sixes".to_string(), "yes".to_string())];
    let (report, _, game) = check_house(THREE_SIXES, &chosen);
    assert!(game.is_none());
    assert!(report.contains("unknown option `three-sixes`"), "{report}");
    // Snakes and ladders without its `finish-rule`: its first value, `past`.
    let (report, options, game) = check_house(
        "extends \"variants/snakes-and-ladders\"\ngame \"Snakes and ladders, past\"\ndescription \"Snakes and ladders where passing 100 is enough, always.\"\nremove option finish-rule\n",
        &[],
    );
    assert_eq!(report, "");
    assert!(options.is_empty(), "{options:?}");
    let past = crate::race::load("variants/snakes-and-ladders", &[]);
    let exact = crate::race::load(
        "variants/snakes-and-ladders",
        &[("finish-rule".to_string(), "exact".to_string())],
    );
    let game = game.unwrap();
    assert_eq!(game.finish, past.finish);
    assert_ne!(game.finish, exact.finish);
}

/// An option the base game doesn't have is an error (E051) at its name,
/// with the names it does have as the hint (the closest one when it is
/// close); on a race game with no option at all, the hint says so.
#[test]
fn removing_an_option_a_race_game_does_not_have_is_named() {
    let (report, _, game) = check_house(
        &THREE_SIXES.replace("option three-sixes", "option three-six"),
        &[],
    );
    assert!(game.is_none());
    assert!(
        report.contains("error[E051]: no option `three-six` to remove"),
        "{report}"
    );
    assert!(report.contains("--> test.rules:4:15"), "{report}");
    assert!(report.contains("did you mean `three-sixes`?"), "{report}");
    assert!(!report.contains("E031"), "{report}");
    insta::assert_snapshot!("diagnostic-remove-option-misspelt", report);
    // A name nothing like it: the hint lists the options there are.
    let (report, _, _) = check_house(
        &THREE_SIXES.replace("option three-sixes", "option doubles"),
        &[],
    );
    assert!(report.contains("known: `three-sixes`"), "{report}");
    insta::assert_snapshot!("diagnostic-remove-option-unknown", report);
    let (report, _, _) = check_house(
        "extends \"other/parcheesi\"\ngame \"Parcheesi, no option\"\ndescription \"Parcheesi.\"\nremove option doubles\n",
        &[],
    );
    assert!(
        report.contains("error[E051]: no option `doubles` to remove"),
        "{report}"
    );
    assert!(report.contains("declare none"), "{report}");
    insta::assert_snapshot!("diagnostic-remove-option-none-declared", report);
}
