//! Paths per seat through named cells, throws of sticks and closed safe
//! cells (issue 27, second part), at work in the Royal Game of Ur
//! (`games/other/royal-game-of-ur.rules`, docs/rules.md UR-1 to UR-8) and
//! in house rules on Ludo and Snakes and Ladders: scripted turns
//! (tests/fixtures/race_paths/*.script) with why a choice is refused, seeded
//! random games, a record replayed, the checker's diagnostics of the new
//! statements, `fmt`, and the statistics of random play against an
//! independent simulator (tests/independent/ur.py).

use rulebook::load::{check_source, BundledLoader, Source};
use rulebook::race::game::RaceGame;
use rulebook::race::{Choice, RaceState};

const GAME: &str = "other/royal-game-of-ur";

use crate::common::run;
use crate::race::load_text;

fn load(game: &str) -> RaceGame {
    crate::race::load(game, &[])
}

// ------------------------------------------------------------------ scripts

crate::race::script_tests!(
    "fixtures/race_paths/*.script",
    "race_paths",
    (1..=8).map(|n| format!("ur-{n:02}"))
);

// ------------------------------------------------------------------ the game

#[test]
fn the_paths_share_the_middle_lane() {
    let game = load(GAME);
    let paths = game.paths.as_ref().unwrap();
    // Four private cells a seat, eight shared, two private: 20 cells.
    assert_eq!(paths.names.len(), 20);
    assert_eq!(game.cells, 15, "14 steps and bearing off");
    for step in 1..=14u16 {
        let (w, b) = (game.label(0, step), game.label(1, step));
        if (5..=12).contains(&step) {
            assert_eq!(w, b, "step {step} is shared");
            assert_eq!(game.spot(0, step), game.spot(1, step));
        } else {
            assert_ne!(w, b, "step {step} is private");
            assert_ne!(game.spot(0, step), game.spot(1, step));
        }
        assert_eq!(game.parse_label(0, &w), Some(step));
    }
    assert_eq!(game.label(0, 4), "a4");
    assert_eq!(game.label(1, 8), "m4");
    assert_eq!(game.label(0, 15), "finished");
    assert_eq!(game.parse_label(0, "b1"), None, "not on white's path");
    assert!(game.sticks && game.dice == 4 && game.sums() == (0, 4));
    let m4 = paths.number("m4").unwrap();
    assert!(game.is_closed(m4) && game.is_safe(0, 8));
    assert!(!game.is_closed(paths.number("a4").unwrap()));
}

fn random_game(seed: &str, record: Option<&str>) -> String {
    crate::race::two_random(GAME, seed, record)
}

#[test]
fn a_seeded_random_game() {
    // Seed 1 is tests/games.rs's `random_games`.
    let transcript = random_game("5", None);
    assert_eq!(transcript, random_game("5", None));
    for seen in [
        "taken: ",
        "a rosette, rolls again",
        "rolls 0+0+0+0, choice: pass",
        "bears off: finished",
    ] {
        assert!(transcript.contains(seen), "no {seen:?} in:\n{transcript}");
    }
    insta::assert_snapshot!("ur-seed-5", transcript);
}

#[test]
fn a_replayed_record_gives_the_same_game() {
    let record = crate::race::recorded_and_replayed(GAME, "9");
    // The record keeps the faces of the throw and the cell by its name.
    assert!(
        record.contains("\"dice\":[0,0,0,0],\"choice\":\"pass\""),
        "{record}"
    );
    assert!(record.contains("\"choice\":\"m"), "{record}");
    // A throw the sticks can't show is refused by replay.
    let at = record.find("\"dice\":[").unwrap() + "\"dice\":[".len();
    let bad = format!("{}2{}", &record[..at], &record[at + 1..]);
    let dir = crate::common::scratch();
    let bad_file = dir.path().join("bad.jsonl");
    std::fs::write(&bad_file, bad).unwrap();
    let (code, _, _) = run(&["replay", bad_file.to_str().unwrap()]);
    assert_ne!(code, 0, "a stick showing 2 is refused");
}

#[test]
fn the_computer_players_play_it() {
    crate::race::computer_players_play(GAME, "20");
}

#[test]
fn show_draws_one_row_per_path() {
    let (code, out, err) = run(&["show", GAME]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("ur-show", out);
}

// ------------------------------------------------------------------ house rules

#[test]
fn house_rules_on_bundled_games_use_the_constructs() {
    // Ludo whose safe cells are closed: no second piece on a star or a
    // start cell.
    let ludo = load_text("extends \"other/ludo\"\nsafe cells 1 9 14 22 27 35 40 48 closed\n");
    assert!(ludo.is_closed(9) && !ludo.is_closed(10));
    // Snakes and Ladders thrown with four sticks.
    let snakes = load_text("extends \"variants/snakes-and-ladders\"\nthrow 4 sticks\n");
    assert!(snakes.sticks && snakes.sums() == (0, 4));
    // Ur with Senet's sticks: no marked stick counts 5.
    let senet = load_text(
        "extends \"other/royal-game-of-ur\"\nthrow 4 sticks: 0 = 5, 1 = 1, 2 = 2, 3 = 3, 4 = 4\n",
    );
    assert_eq!(senet.throw_values, [5, 1, 2, 3, 4]);
    assert_eq!(senet.sums(), (1, 5));
    assert_eq!(
        senet.count(&rulebook::race::Roll::new(&[0, 0, 0, 0]).unwrap()),
        5
    );
    // Ur on longer paths: a private lane of six before the middle.
    let long = load_text(
        "extends \"other/royal-game-of-ur\"\npath white: a1-a6 m1-m8 a7-a8\npath black: b1-b6 m1-m8 b7-b8\nlanding on cells a4 b4 m4 a8 b8 \"a rosette\": extra roll\n",
    );
    assert_eq!(long.cells, 17);
    assert_eq!(long.label(1, 16), "b8");
    for (name, text) in [
        (
            "ludo",
            "extends \"other/ludo\"\nsafe cells 1 9 14 22 27 35 40 48 closed\n",
        ),
        (
            "snakes",
            "extends \"variants/snakes-and-ladders\"\nthrow 4 sticks\n",
        ),
    ] {
        let dir =
            std::env::temp_dir().join(format!("rulebook-paths-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("house.rules");
        std::fs::write(&file, text).unwrap();
        let (code, out, err) = run(&[
            "simulate",
            file.to_str().unwrap(),
            "--games",
            "50",
            "--seed",
            "1",
        ]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(out.contains("50 games"), "{name}: {out}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

// ------------------------------------------------------------------ the checker

/// An Ur-like game with `lines` for its track and rules.
fn diagnose(lines: &str) -> String {
    let text = format!(
        "game \"Test\"\nplayers 2\nseats white black\npieces 7 per player\nfinish exact\n{lines}"
    );
    crate::race::diagnose_text(text, lines)
}

const PATHS: &str =
    "path white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 4 sticks\n";

#[test]
fn each_way_to_get_the_new_statements_wrong_is_named() {
    let with = |more: &str| format!("{PATHS}{more}");
    for (name, lines) in [
        (
            "seat-without-path",
            "path white: a1-a4 m1-m8 a5-a6\nthrow 4 sticks\n".to_string(),
        ),
        ("path-of-unknown-seat", with("path whte: c1-c14\n")),
        (
            "path-repeats-a-cell",
            "path white: a1-a4 m1-m8 a4 a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 4 sticks\n"
                .to_string(),
        ),
        (
            "run-with-two-prefixes",
            "path white: a1-b4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 4 sticks\n"
                .to_string(),
        ),
        (
            "paths-that-dont-end-together",
            "path white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5\nthrow 4 sticks\n"
                .to_string(),
        ),
        (
            "rule-on-unknown-cell",
            with("landing on cells a4 m9 \"a rosette\": extra roll\n"),
        ),
        (
            "rule-on-numbered-cell",
            with("landing on cell 4: extra roll\n"),
        ),
        ("closed-cell-on-no-path", with("safe cell x4 closed\n")),
        ("safe-numbered-cell", with("safe cells 8 closed\n")),
        (
            "too-many-sticks",
            "path white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 9 sticks\n"
                .to_string(),
        ),
        (
            "rule-names-the-faces-of-more-sticks-than-dice",
            "path white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 7 sticks\nlanding on cell m4 and roll 1 1 1 1 1 1 1 \"all up\": extra roll\n"
                .to_string(),
        ),
        (
            "roll-rule-names-the-faces-of-more-sticks-than-dice",
            "path white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 5 sticks\nrolling 0 0 0 0 0 \"none up\": end turn\n"
                .to_string(),
        ),
        (
            "throw-values-leave-out-counts",
            "path white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 4 sticks: 0 = 5, 1 = 1, 2 = 2\n".to_string(),
        ),
        (
            "throw-values-out-of-range",
            "path white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 4 sticks: 0 = 5, 5 = 1, 1 = 45, 2 = 2, 3 = 3, 4 = 4, 4 = 4\n".to_string(),
        ),
        (
            "named-cell-on-a-numbered-track",
            "track 20\nthrow 4 sticks\nsafe cells m4 closed\n".to_string(),
        ),
        ("path-twice", with("path white: a1-a4 m1-m8 a5-a6\n")),
    ] {
        insta::assert_snapshot!(format!("diagnostic-{name}"), diagnose(&lines));
    }
}

#[test]
fn the_new_statements_keep_their_spelling_in_fmt() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/other/royal-game-of-ur.rules"),
    )
    .unwrap();
    let formatted = rulebook::format_rules::format_text(&text).unwrap();
    assert_eq!(formatted, text, "the bundled file is formatted");
    for line in [
        "path white: a1-a4 m1-m8 a5-a6",
        "path black: b1-b4 m1-m8 b5-b6",
        "throw 4 sticks",
        "safe cell m4 closed",
        "landing on cells a4 b4 m4 a6 b6 \"a rosette\": extra roll",
    ] {
        assert!(formatted.contains(line), "{line:?} not in:\n{formatted}");
    }
    // Ragged spacing comes back in the one layout.
    let ragged =
        "path   white :  a1-a4   m1-m8 a5-a6\nthrow  4   sticks\nsafe cell   m4   closed\nthrow 4 sticks :0=5,1 = 1, 2 = 2, 3 = 3, 4 = 4\n";
    let tidy = rulebook::format_rules::format_text(ragged).unwrap();
    assert!(tidy.contains("path white: a1-a4 m1-m8 a5-a6\n"), "{tidy}");
    assert!(tidy.contains("throw 4 sticks\n"), "{tidy}");
    assert!(tidy.contains("safe cell m4 closed\n"), "{tidy}");
    assert!(
        tidy.contains("throw 4 sticks: 0 = 5, 1 = 1, 2 = 2, 3 = 3, 4 = 4\n"),
        "{tidy}"
    );
}

// ------------------------------------------------------------------ independent check

/// `rulebook simulate` and tests/independent/ur.py, random play: the mean
/// throws a game and the first seat's win rate agree within 2 standard
/// errors (of the difference).
#[test]
fn random_play_agrees_with_an_independent_simulator() {
    let report = crate::common::agrees_with_simulator(
        GAME,
        4000,
        &["--seed", "27"],
        "tests/independent/ur.py",
        &["4000", "27"],
    );
    eprintln!("{report}");
}

// ------------------------------------------------------------------ the engine

/// Seeded random games of Ur, played with the tables `RaceGame::derive`
/// works out and by the general path, give the same choices, events and
/// states; the choices listed are exactly the ones `apply` accepts among
/// enter, pass and a move of every piece; every refused one changes
/// nothing.
#[test]
fn the_listed_choices_are_the_legal_ones_planned_or_not() {
    use rulebook::rng::Rng;
    let planned = load(GAME);
    let general = planned.unplanned();
    let mut turns = 0u64;
    let mut closed = 0u64;
    for seed in 0..30u64 {
        let mut a = RaceState::new(&planned, 2).unwrap();
        let mut b = RaceState::new(&general, 2).unwrap();
        let mut dice = Rng::new(seed);
        let mut pick = Rng::new(seed ^ 0x5eed);
        let (mut ca, mut cb, mut ea, mut eb) = (vec![], vec![], vec![], vec![]);
        while !a.is_over() && a.rolls() < 5_000 {
            let roll = planned.throw(&mut dice);
            a.choices(&planned, &roll, &mut ca);
            b.choices(&general, &roll, &mut cb);
            assert_eq!(ca, cb, "seed {seed}");
            let seat = a.to_roll();
            let mut candidates = vec![Choice::Enter, Choice::Pass];
            candidates.extend(a.pieces(seat).iter().map(|&p| Choice::Move(p)));
            for c in candidates {
                let mut trial = a.clone();
                let mut scratch = Vec::new();
                let legal = trial.apply(&planned, &roll, c, &mut scratch).is_ok();
                assert_eq!(
                    legal,
                    ca.contains(&c),
                    "seed {seed}, {roll}: {c} listed {ca:?}"
                );
                if !legal {
                    assert_eq!(trial, a, "a refused choice changes nothing");
                    if matches!(
                        a.refusal(&planned, &roll, c),
                        Some(rulebook::race::Refusal::Closed { .. })
                    ) {
                        closed += 1;
                    }
                }
            }
            let choice = ca[pick.below(ca.len() as u64) as usize];
            a.apply(&planned, &roll, choice, &mut ea).unwrap();
            b.apply(&general, &roll, choice, &mut eb).unwrap();
            assert_eq!(ea, eb, "seed {seed}, {roll}");
            assert_eq!(a, b, "seed {seed}");
            turns += 1;
        }
        assert!(a.is_over(), "seed {seed}: no end");
    }
    assert!(turns > 3_000, "{turns}");
    assert!(closed > 10, "the closed rosette refused {closed} choices");
}

/// A path for a seat past the most players is named, not ignored.
#[test]
fn a_path_for_a_seat_that_never_plays_is_an_error() {
    let text = "game \"Test\"\nplayers 2\nseats white black green\npieces 2 per player\nthrow 4 sticks\npath white: a1-a4\npath black: b1-b4\npath green: c1-c4\n";
    let checked = check_source(
        Source {
            name: "test.rules".into(),
            text: text.into(),
        },
        &BundledLoader,
        &[],
    );
    assert!(checked.loaded.is_none());
    let rendered = checked.render();
    assert!(
        rendered.contains("error[E035]: seat `green` never plays: at most 2 players"),
        "{rendered}"
    );
    assert!(rendered.contains("8 | path green: c1-c4"), "{rendered}");
}

/// Paths for seats a file never named with `seats`: the default seats are
/// red, blue, ..., and the hint says to name the paths' seats.
#[test]
fn paths_for_seats_never_named_say_to_name_them() {
    let text = "game \"Test\"\nplayers 2\npieces 4 per player\nthrow 4 sticks\npath white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\n";
    let rendered = crate::race::diagnose_text(text.to_string(), text);
    insta::assert_snapshot!("diagnostic-paths-of-seats-never-named", rendered);
}
