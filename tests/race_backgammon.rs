//! Issue 27, third part: pieces that start on the track (`setup SEAT: N on
//! CELL, ...`), dice used one by one (`move each die`, `move doubles N
//! times`, `move most dice`), points, the bar (`enter first`) and bearing
//! off (`bear off when all in last N`, `finish exact or from furthest`), at
//! work in backgammon (`games/other/backgammon.rules`, docs/rules.md BG-1
//! to BG-9) and in house rules on bundled race games: scripted turns
//! (tests/fixtures/race_backgammon/*.script) with why a choice is refused,
//! a seeded random game, a record replayed, the checker's diagnostics, and
//! the legal moves of random positions against OpenSpiel's backgammon
//! (tests/independent/backgammon.py), and random play against a simulator
//! written for the test (tests/independent/backgammon_random.py).

use rulebook::load::{check_source, BundledLoader, Source};
use rulebook::race::RaceState;

use crate::race::load_text;

// ------------------------------------------------------------------ scripts

crate::race::script_tests!(
    "fixtures/race_backgammon/*.script",
    "race_backgammon",
    (1..=9).map(|n| format!("bg-{n:02}"))
);

// ------------------------------------------------------------------ setup

#[test]
fn a_setup_puts_pieces_on_the_paths_and_a_restart_puts_them_back() {
    let game = load_text(
        "extends \"other/royal-game-of-ur\"\ngame \"Ur, a head start\"\nsetup white: 2 on m3, 1 on a4\nsetup black: 1 on b2\n",
    );
    let state = RaceState::new(&game, 2).unwrap();
    let m3 = game.parse_label(0, "m3").unwrap();
    let a4 = game.parse_label(0, "a4").unwrap();
    let b2 = game.parse_label(1, "b2").unwrap();
    assert_eq!(state.pieces(0), &[m3, m3, a4, 0, 0, 0, 0]);
    assert_eq!(state.pieces(1), &[b2, 0, 0, 0, 0, 0, 0]);
    let mut again = state.clone();
    again.set_pieces(&game, 0, &[0; 7]).unwrap();
    again.restart(&game);
    assert_eq!(again, state);
}

#[test]
fn a_setup_on_a_numbered_track_and_on_a_loop() {
    let track = load_text(
        "game \"T\"\ntrack 30\nplayers 2\npieces 3 per player\ndice 1 d6\nsetup blue: 2 on 29, 1 on 4\n",
    );
    let state = RaceState::new(&track, 2).unwrap();
    assert_eq!(state.pieces(0), &[0, 0, 0]);
    assert_eq!(state.pieces(1), &[29, 29, 4]);
    // On a loop the cell is a cell of the loop: green starts on 14, so the
    // loop's cell 15 is its second step.
    let ludo = load_text("extends \"other/ludo\"\ngame \"L\"\nsetup green: 1 on 15, 1 on 13\n");
    let state = RaceState::new(&ludo, 2).unwrap();
    assert_eq!(state.pieces(1), &[52, 2, 0, 0]);
    assert_eq!(ludo.label(1, 2), "15");
}

/// A Ur-like game with `lines` added.
fn diagnose(lines: &str) -> String {
    let text = format!(
        "game \"Test\"\nplayers 2\nseats white black\npieces 7 per player\nfinish exact\npath white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 4 sticks\n{lines}"
    );
    crate::race::diagnose_text(text, lines)
}

#[test]
fn each_way_to_get_a_setup_wrong_is_named() {
    for (name, lines) in [
        (
            "setup-more-pieces-than-a-seat-has",
            "setup white: 5 on m3, 3 on a1\n",
        ),
        ("setup-off-the-seats-path", "setup white: 2 on b3\n"),
        ("setup-of-unknown-seat", "setup whte: 1 on a1\n"),
        ("setup-numbered-on-paths", "setup white: 1 on 5\n"),
        ("setup-on-a-run", "setup white: 1 on a1-a3\n"),
        ("setup-of-none", "setup white: 0 on a1\n"),
        ("setup-on-unknown-cell", "setup black: 1 on m9\n"),
        (
            "setup-twice",
            "setup white: 1 on a1\nsetup white: 1 on a2\n",
        ),
    ] {
        insta::assert_snapshot!(format!("diagnostic-{name}"), diagnose(lines));
    }
    let on_track = check_source(
        Source {
            name: "test.rules".into(),
            text: "game \"T\"\ntrack 30\nplayers 2\ndice 1 d6\nsetup red: 1 on 30, 1 on p3\n"
                .into(),
        },
        &BundledLoader,
        &[],
    );
    insta::assert_snapshot!("diagnostic-setup-on-a-numbered-track", on_track.render());
}

#[test]
fn a_setup_keeps_its_spelling_in_fmt() {
    let text = "setup white: 2 on p24, 5 on p13, 3 on p8, 5 on p6\n";
    let formatted = rulebook::format_rules::format_text(text).unwrap();
    assert_eq!(formatted, text);
    let messy = "setup   white :2 on p24 ,5 on p13\n";
    assert_eq!(
        rulebook::format_rules::format_text(messy).unwrap(),
        "setup white: 2 on p24, 5 on p13\n"
    );
}

// ------------------------------------------------------------------ OpenSpiel

/// A position as tests/independent/backgammon.py writes it: each seat's
/// pieces as sorted labels.
fn canonical(game: &rulebook::race::game::RaceGame, state: &RaceState) -> String {
    (0..2)
        .map(|seat| {
            let mut labels: Vec<String> = state
                .pieces(seat)
                .iter()
                .map(|&p| game.label(seat, p))
                .collect();
            labels.sort();
            format!("{} {}", game.seats[seat], labels.join(" "))
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Seeded random games of backgammon replayed in OpenSpiel: on every turn
/// the positions our choices lead to are OpenSpiel's (tests/independent/
/// backgammon.py), and no two of our choices lead to the same one.
#[test]
fn legal_moves_agree_with_openspiel() {
    use rulebook::rng::Rng;
    let game = crate::race::load("other/backgammon", &[]);
    let mut games = Vec::new();
    let (mut choices, mut events) = (Vec::new(), Vec::new());
    for g in 0..24u64 {
        let (mut dice, mut pick) = (Rng::new(2700 + g), Rng::new(9100 + g));
        let mut state = RaceState::new(&game, 2).unwrap();
        let mut turns = Vec::new();
        while !state.is_over() && turns.len() < 300 {
            let roll = game.throw(&mut dice);
            state.choices(&game, &roll, &mut choices);
            let mut results: Vec<String> = choices
                .iter()
                .map(|&c| {
                    let mut after = state.clone();
                    after.apply_listed(&game, &roll, c, &mut events).unwrap();
                    canonical(&game, &after)
                })
                .collect();
            results.sort();
            let n = results.len();
            results.dedup();
            assert_eq!(results.len(), n, "one choice a position, game {g}");
            let choice = choices[pick.below(choices.len() as u64) as usize];
            // The one played is checked as a typed choice is.
            state.apply(&game, &roll, choice, &mut events).unwrap();
            turns.push(serde_json::json!({
                "roll": roll.faces(),
                "results": results,
                "chosen": canonical(&game, &state),
            }));
        }
        games.push(turns);
    }
    let dir = std::env::temp_dir().join(format!("rulebook-bg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.json");
    std::fs::write(&file, serde_json::to_string(&games).unwrap()).unwrap();
    let out = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/independent/backgammon.py"
        ))
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    eprintln!("{report}");
    assert_eq!(report["differences"], 0, "{report}");
    assert!(report["turns"].as_u64().unwrap() > 1000, "{report}");
}

/// A backgammon-like game with `lines` added.
fn diagnose_dice(lines: &str) -> String {
    let text = format!(
        "game \"Test\"\nplayers 2\nseats white black\npieces 15 per player\npath white: p24-p1\npath black: p1-p24\n{lines}"
    );
    crate::race::diagnose_text(text, lines)
}

#[test]
fn each_way_to_get_the_dice_rules_wrong_is_named() {
    for (name, lines) in [
        ("enter-first-without-each-die", "dice 2 d6\nenter first\n"),
        (
            "point-larger-than-the-pieces",
            "dice 2 d6\nmove each die\nno landing on 16 or more opponent pieces\n",
        ),
        (
            "bear-off-longer-than-the-path",
            "dice 2 d6\nmove each die\nbear off when all in last 30\n",
        ),
        (
            "doubles-too-many-times",
            "dice 2 d6\nmove each die\nmove doubles 5 times\n",
        ),
        ("each-die-with-sticks", "throw 4 sticks\nmove each die\n"),
        (
            "furthest-without-each-die",
            "dice 2 d6\nfinish exact or from furthest\n",
        ),
    ] {
        insta::assert_snapshot!(format!("diagnostic-{name}"), diagnose_dice(lines));
    }
}

#[test]
fn the_dice_rules_keep_their_spelling_in_fmt() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/other/backgammon.rules"),
    )
    .unwrap();
    let formatted = rulebook::format_rules::format_text(&text).unwrap();
    assert_eq!(formatted, text, "the bundled file is formatted");
    for line in [
        "move each die",
        "move doubles 4 times",
        "move most dice",
        "no landing on 2 or more opponent pieces",
        "enter first",
        "bear off when all in last 6",
        "finish exact or from furthest",
    ] {
        assert!(text.contains(line), "{line}");
        let messy = line.replace(' ', "   ");
        assert_eq!(
            rulebook::format_rules::format_text(&format!("{messy}\n")).unwrap(),
            format!("{line}\n")
        );
    }
}

// ------------------------------------------------------------------ games

fn play_args<'a>(seed: &'a str, record: Option<&'a str>) -> Vec<&'a str> {
    crate::race::two_random_args("other/backgammon", seed, record)
}

#[test]
fn a_seeded_random_game() {
    let (code, out, err) = crate::common::run(&play_args("27", None));
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("backgammon-seed-27", out);
}

#[test]
fn a_record_is_replayed() {
    let dir = std::env::temp_dir().join(format!("rulebook-bg-rec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.jsonl");
    let file = file.to_str().unwrap();
    let (code, played, err) = crate::common::run(&play_args("5", Some(file)));
    assert_eq!(code, 0, "{err}");
    let record = std::fs::read_to_string(file).unwrap();
    assert!(record.contains("\"choice\":\"p"), "{record}");
    let (code, replayed, err) = crate::common::run(&["replay", file]);
    assert_eq!(code, 0, "{err}");
    let last = |t: &str| t.lines().last().unwrap_or("").to_string();
    assert_eq!(last(&played), last(&replayed), "{replayed}");
    let (code, json, err) = crate::common::run(&["replay", file, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(json.contains("p24"), "{json}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_computer_players_play_it_and_simulate_reports() {
    for agents in ["random", "first"] {
        let (code, out, err) = crate::common::run(&[
            "simulate",
            "other/backgammon",
            "--games",
            "4",
            "--agents",
            agents,
            "--quiet",
        ]);
        assert_eq!(code, 0, "{agents}: {err}");
        assert!(out.contains("4 games"), "{agents}: {out}");
    }
    // The searching players look at every sequence of every roll: a few
    // plies of a game each (a debug build).
    for agents in [&["greedy"][..], &["mcts", "--playouts", "10"]] {
        let mut args = vec![
            "simulate",
            "other/backgammon",
            "--games",
            "1",
            "--max-plies",
            "4",
            "--quiet",
            "--agents",
        ];
        args.extend(agents);
        let (code, out, err) = crate::common::run(&args);
        assert_eq!(code, 0, "{agents:?}: {err}");
        assert!(out.contains("1 game"), "{agents:?}: {out}");
    }
}

// ------------------------------------------------------------------ independent check

/// `rulebook simulate` and tests/independent/backgammon_random.py (a
/// simulator written from docs/rules.md BG-1 to BG-9 alone), random play:
/// the mean rolls a game and the first seat's win rate agree within 2
/// standard errors (of the difference). 1,500 games each: a game's length
/// has a standard deviation of about 40 rolls, so the means are compared
/// to about 3 rolls in some 100 (3 %), and white's win rate to about 3.7
/// points.
#[test]
fn random_play_agrees_with_an_independent_simulator() {
    let report = crate::common::agrees_with_simulator(
        "other/backgammon",
        1500,
        &["--seed", "27"],
        "tests/independent/backgammon_random.py",
        &["1500", "27"],
    );
    eprintln!("{report}");
}

// ------------------------------------------------------------------ typed turns

/// A person may type a turn's moves in any order that can be played: the
/// prompt takes `p6-p2 p8-p3` though it lists `p8-p3 p6-p2`, and refuses
/// `p20-p15 p24-p20` (no piece on p20 before p24-p20 is played), saying
/// why. With seed 3 white's first roll is 5+4.
#[test]
fn the_prompt_takes_a_turns_moves_in_any_order_that_can_be_played() {
    let args = [
        "play",
        "other/backgammon",
        "--seat",
        "black=random",
        "--seed",
        "3",
    ];
    let (_, out, _) = crate::common::run_input(&args, "p20-p15 p24-p20\np6-p2 p8-p3\nquit\n");
    assert!(
        out.contains("white rolls 5+4: choose p8-p3 p6-p2,"),
        "{out}"
    );
    assert!(
        out.contains(
            "`p20-p15 p24-p20` is not a choice: white has no piece on p20 when that move comes: the moves are played in the order written"
        ),
        "{out}"
    );
    assert!(
        out.contains("moves from p6 to p2\n     moves from p8 to p3"),
        "{out}"
    );
    assert!(
        out.contains("white:white p2,p6,p6,p6,p6,p3,p8,p8,"),
        "{out}"
    );
}
