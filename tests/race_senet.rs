//! Swaps, groups that protect, rows and cells no one passes, moves back
//! when blocked and extra throws on a throw's values (issue 27, fourth
//! part), at work in Senet (`games/other/senet.rules`, docs/rules.md SN-1
//! to SN-13) and in house rules on Ur and Ludo: scripted turns
//! (tests/fixtures/race_senet/*.script) with why a choice is refused, a
//! seeded random game, a record replayed, the checker's diagnostics of the
//! new statements, `fmt`, and the statistics of random play against an
//! independent simulator (tests/independent/senet.py).

use rulebook::race::game::RaceGame;
use rulebook::race::{Choice, RaceState, Refusal, Roll};

const GAME: &str = "other/senet";

use crate::common::run;
use crate::race::load_text;

fn load(game: &str) -> RaceGame {
    crate::race::load(game, &[])
}

// ------------------------------------------------------------------ scripts

crate::race::script_tests!(
    "fixtures/race_senet/*.script",
    "race_senet",
    (1..=13).map(|n| format!("sn-{n:02}"))
);

// ------------------------------------------------------------------ the game

#[test]
fn the_game_is_set_up_as_kendall_has_it() {
    let game = load(GAME);
    assert_eq!(game.cells, 31, "thirty squares and bearing off");
    assert!(game.sticks && game.throw_values == [5, 1, 2, 3, 4]);
    assert_eq!(game.sums(), (1, 5));
    assert_eq!((game.protect_rows, game.pass_rows), (2, 3));
    assert!(game.move_back && game.is_no_passing(26) && !game.is_no_passing(25));
    for cell in [26, 28, 29, 30] {
        assert!(game.is_closed(cell), "{cell} is safe and closed");
    }
    assert!(!game.is_closed(27) && !game.is_closed(15));
    let state = RaceState::new(&game, 2).unwrap();
    let sorted = |seat: usize| {
        let mut p = state.pieces(seat).to_vec();
        p.sort_unstable();
        p
    };
    assert_eq!(sorted(0), [2, 4, 6, 8, 10]);
    assert_eq!(sorted(1), [1, 3, 5, 7, 9]);
    assert_eq!(state.to_roll(), 0, "white throws first");
}

#[test]
fn throws_of_1_4_and_5_throw_again() {
    let game = load(GAME);
    for (faces, again) in [
        ([1, 0, 0, 0], true),
        ([1, 1, 0, 0], false),
        ([1, 1, 1, 0], false),
        ([1, 1, 1, 1], true),
        ([0, 0, 0, 0], true),
    ] {
        let mut state = RaceState::new(&game, 2).unwrap();
        let roll = Roll::new(&faces).unwrap();
        let mut choices = Vec::new();
        state.choices(&game, &roll, &mut choices);
        let mut events = Vec::new();
        state.apply(&game, &roll, choices[0], &mut events).unwrap();
        assert_eq!(state.to_roll() == 0, again, "{faces:?}: {events:?}");
    }
}

fn random_game(seed: &str, record: Option<&str>) -> String {
    crate::race::two_random(GAME, seed, record)
}

#[test]
fn a_seeded_random_game() {
    let transcript = random_game("5", None);
    assert_eq!(transcript, random_game("5", None));
    for seen in [
        "a swap, opponents swap",
        "the water, goes to 15",
        "moves back from",
        "rolls again",
        "reaches 31: finished",
    ] {
        assert!(transcript.contains(seen), "no {seen:?} in:\n{transcript}");
    }
    insta::assert_snapshot!("senet-seed-5", transcript);
}

#[test]
fn a_replayed_record_gives_the_same_game() {
    let record = crate::race::recorded_and_replayed(GAME, "9");
    assert!(record.contains("\"dice\":[0,0,0,0]"), "{record}");
}

#[test]
fn the_computer_players_play_it() {
    crate::race::computer_players_play(GAME, "20");
    let (code, out, err) = run(&[
        "compare",
        GAME,
        GAME,
        "--agents",
        "greedy,random",
        "--games",
        "20",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("greedy"), "{out}");
}

// ------------------------------------------------------------------ house rules

#[test]
fn house_rules_on_bundled_games_use_the_constructs() {
    // Ur where a capture swaps instead of sending the piece off.
    // A file's cell rules replace the ones it extends: the rosettes are
    // restated.
    let ur_swap = "extends \"other/royal-game-of-ur\"\ngame \"Ur, swapping\"\nlanding on cells a4 b4 m4 a6 b6 \"a rosette\": extra roll\nresting on any \"a capture\": opponents swap\n";
    let ur = load_text(ur_swap);
    use rulebook::race::game::{Action, CellEffect, Target};
    let labels: Vec<&str> = ur.rules().iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["a rosette", "a capture"]);
    assert_eq!(
        ur.rules()[1].effects,
        [CellEffect::Targeted(Target::Opponents, Action::Swap)]
    );
    // Ludo with protecting pairs and blockades of two, and a 6 or a 1
    // throwing again.
    let ludo_rows = "extends \"other/ludo\"\ngame \"Ludo, blockades\"\nprotected in rows of 2\nno passing rows of 2\nextra roll on 1 6\n";
    let ludo = load_text(ludo_rows);
    assert_eq!((ludo.protect_rows, ludo.pass_rows), (2, 2));
    assert!(ludo.restricted);
    assert_eq!(
        ludo.extra,
        rulebook::race::game::Extra::OnValues((1 << 1) | (1 << 6))
    );
    for (name, text) in [("ur-swap", ur_swap), ("ludo-rows", ludo_rows)] {
        let dir =
            std::env::temp_dir().join(format!("rulebook-senet-{name}-{}", std::process::id()));
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

/// A Senet-like game with `lines` for its rules.
fn diagnose(lines: &str) -> String {
    let text = format!(
        "game \"Test\"\ntrack 31\nplayers 2\nseats white black\npieces 5 per player\nfinish exact\n{lines}"
    );
    crate::race::diagnose_text(text, lines)
}

const STICKS: &str = "throw 4 sticks: 0 = 5, 1 = 1, 2 = 2, 3 = 3, 4 = 4\n";

#[test]
fn each_way_to_get_the_new_statements_wrong_is_named() {
    let with = |more: &str| format!("{STICKS}{more}");
    for (name, lines) in [
        ("protected-row-of-1", with("protected in rows of 1\n")),
        ("no-passing-row-of-0", with("no passing rows of 0\n")),
        (
            "row-longer-than-the-pieces",
            with("protected in rows of 6\n"),
        ),
        ("blockade-of-1-on-a-cell", with("no passing 1 on a cell\n")),
        ("protected-twice", with("protected in rows of 2\nprotected in rows of 3\n")),
        (
            "swap-with-no-cell",
            with("resting on any: furthest swap\n"),
        ),
        (
            "swap-in-a-rule-of-the-roll",
            with("rolling 1 1 1 1: last-moved swap\n"),
        ),
        ("no-passing-cell-off-the-track", with("no passing cell 31\n")),
        ("no-passing-cells-reversed", with("no passing cells 20-10\n")),
        (
            "no-passing-numbered-cell-on-paths",
            "path white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 4 sticks\nno passing cell 4\n".replace("track 31\n", ""),
        ),
        ("extra-roll-on-a-value-no-throw-has", with("extra roll on 1 4 6\n")),
        ("extra-roll-on-faces-the-dice-lack", "dice 1 d6\nextra roll on 1 7\n".to_string()),
    ] {
        insta::assert_snapshot!(format!("diagnostic-{name}"), diagnose(&lines));
    }
}

#[test]
fn the_new_statements_keep_their_spelling_in_fmt() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/other/senet.rules"),
    )
    .unwrap();
    let formatted = rulebook::format_rules::format_text(&text).unwrap();
    assert_eq!(formatted, text, "the bundled file is formatted");
    for line in [
        "extra roll on 1 4 5",
        "move back when blocked",
        "protected in rows of 2",
        "no passing rows of 3",
        "no passing cell 26",
        "resting on any \"a swap\": opponents swap",
    ] {
        assert!(formatted.contains(line), "{line:?} not in:\n{formatted}");
    }
    let ragged = "protected  in rows   of 2\nno   passing rows of  3\nno passing  2 on  a cell\nno passing   cells 26  27\nmove back   when blocked\nextra roll   on 1  4 5\nresting on any:   opponents   swap\n";
    let tidy = rulebook::format_rules::format_text(ragged).unwrap();
    for line in [
        "protected in rows of 2\n",
        "no passing rows of 3\n",
        "no passing 2 on a cell\n",
        "no passing cells 26 27\n",
        "move back when blocked\n",
        "extra roll on 1 4 5\n",
        "resting on any: opponents swap\n",
    ] {
        assert!(tidy.contains(line), "{line:?} not in:\n{tidy}");
    }
}

// ------------------------------------------------------------------ independent check

/// `rulebook simulate` and tests/independent/senet.py, random play: the
/// mean throws a game and the first seat's win rate agree within 2
/// standard errors (of the difference).
#[test]
fn random_play_agrees_with_an_independent_simulator() {
    let report = crate::common::agrees_with_simulator(
        GAME,
        3000,
        &["--seed", "27"],
        "tests/independent/senet.py",
        &["3000", "27"],
    );
    eprintln!("{report}");
}

// ------------------------------------------------------------------ the engine

/// Seeded random games of Senet, played with the tables `RaceGame::derive`
/// works out and by the general path, give the same choices, events and
/// states; the choices listed are exactly the ones `apply` accepts among
/// pass and a move of every piece; every refused one changes nothing, and
/// each new rule refuses some.
#[test]
fn the_listed_choices_are_the_legal_ones_planned_or_not() {
    use rulebook::rng::Rng;
    let planned = load(GAME);
    let general = planned.unplanned();
    let mut turns = 0u64;
    let (mut protected, mut blockade, mut no_passing, mut back) = (0u64, 0u64, 0u64, 0u64);
    for seed in 0..20u64 {
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
                if legal {
                    if let Some(rulebook::race::Event::Move { from, to, .. }) = scratch.first() {
                        back += u64::from(to < from);
                    }
                    continue;
                }
                assert_eq!(trial, a, "a refused choice changes nothing");
                match a.refusal(&planned, &roll, c) {
                    Some(Refusal::Protected { .. }) => protected += 1,
                    Some(Refusal::Blockade { .. }) => blockade += 1,
                    Some(Refusal::NoPassing { .. }) => no_passing += 1,
                    _ => {}
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
    assert!(turns > 2_000, "{turns}");
    for (what, n) in [
        ("protected", protected),
        ("blockade", blockade),
        ("no passing", no_passing),
        ("back", back),
    ] {
        assert!(n > 5, "{what}: {n}");
    }
}
