//! The rules of the turn's choices with dice used one by one (issue 27,
//! items 5, 6 and 8): `enter compulsory`, `leave start first`, `tries` and
//! `enter first` with `move each die`, in house rules built on Parcheesi
//! (`games/other/parcheesi.rules`): scripted turns with fixed dice
//! (tests/fixtures/race_each/*.script) and why a choice is refused, a
//! seeded random game of each house rule, random play in which every listed
//! choice is legal, the rule is seen at work and every game ends (`enter
//! first` lapses while the player's own blockade closes the start cell,
//! else the pair would freeze the player), and the checker's refusals of
//! these rules without what they need. (`move back when blocked` with dice
//! used one by one: tests/race_back_each.rs.)

use rulebook::race::game::RaceGame;
use rulebook::race::{Choice, Event, RaceState, Refusal};
use rulebook::rng::Rng;

use crate::common::run;
use crate::race::load_text;

// ------------------------------------------------------------------ scripts

crate::race::script_tests!(
    "fixtures/race_each/*.script",
    "race_each",
    (1..=4).map(|n| format!("each-{n:02}-"))
);

// ------------------------------------------------------------------ house rules

/// Parcheesi with `extra` added: a house rule of dice used one by one.
fn house(name: &str, extra: &str) -> String {
    format!("extends \"other/parcheesi\"\ngame \"Parcheesi, {name}\"\n{extra}")
}

/// The house rules of this module: their names and their lines.
const HOUSE: [(&str, &str); 4] = [
    ("entering compulsory", "enter compulsory\n"),
    ("leave the start first", "leave start first\n"),
    ("three tries", "tries 3 when no piece can move\n"),
    (
        "all three",
        "enter compulsory\nleave start first\ntries 3 when no piece can move\n",
    ),
];

#[test]
fn the_house_rules_load_with_each_die() {
    for (name, extra) in HOUSE {
        let game = load_text(&house(name, extra));
        assert!(game.each_die && game.restricted, "{name}");
        assert_eq!(
            game.enter_compulsory,
            extra.contains("enter compulsory"),
            "{name}"
        );
        assert_eq!(game.leave_start, extra.contains("leave start"), "{name}");
        assert_eq!(
            game.tries,
            if extra.contains("tries") { 3 } else { 1 },
            "{name}"
        );
    }
}

/// A whole seeded game of two random players of the house rule `extra`.
fn random_game(name: &str, extra: &str, seed: &str) -> String {
    let dir = crate::common::scratch();
    let file = dir.path().join("house.rules");
    std::fs::write(&file, house(name, extra)).unwrap();
    crate::race::two_random(file.to_str().unwrap(), seed, None)
}

#[test]
fn a_seeded_random_game_of_each_house_rule() {
    for (i, (name, extra)) in HOUSE.into_iter().enumerate() {
        let seed = "5";
        let transcript = random_game(name, extra, seed);
        assert_eq!(transcript, random_game(name, extra, seed), "{name}");
        assert!(transcript.contains("enters on c5"), "{name}:\n{transcript}");
        if extra.contains("tries") {
            assert!(
                transcript.contains("try 2 of 3"),
                "{name}: no second try in:\n{transcript}"
            );
        }
        insta::assert_snapshot!(format!("each-house-{}-seed-{seed}", i + 1), transcript);
    }
}

/// `rulebook simulate` of the house rule `extra` with seed 1 and `args`:
/// its report.
fn simulate_house(name: &str, extra: &str, args: &[&str]) -> String {
    let dir = crate::common::scratch();
    let file = dir.path().join("house.rules");
    std::fs::write(&file, house(name, extra)).unwrap();
    let mut all = vec!["simulate", file.to_str().unwrap(), "--seed", "1"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{name}: {err}");
    out
}

#[test]
fn simulate_plays_the_house_rules() {
    for (name, extra) in HOUSE {
        let out = simulate_house(name, extra, &["--games", "20"]);
        assert!(out.contains("20 games"), "{name}: {out}");
    }
}

// ------------------------------------------------------------------ the engine

/// What random play of a house rule saw: the turns, the choices each rule
/// refused, the throws played again, the moves back played (`move back
/// when blocked`).
#[derive(Default)]
pub(crate) struct Seen {
    pub(crate) turns: u64,
    must_enter: u64,
    start_first: u64,
    enter_first: u64,
    retries: u64,
    pub(crate) back: u64,
}

/// Seeded random games of `game`: every listed choice is legal, and a
/// sequence that plays its steps in the other order is either listed's
/// equal or refused by a named rule (a refused choice changes nothing).
pub(crate) fn random_play(game: &RaceGame, seeds: u64) -> Seen {
    let mut seen = Seen::default();
    for seed in 0..seeds {
        let mut state = RaceState::new(game, 2).unwrap();
        let mut dice = Rng::new(seed);
        let mut pick = Rng::new(seed ^ 0xeac4);
        let (mut choices, mut events) = (vec![], vec![]);
        while !state.is_over() && state.rolls() < 3_000 {
            let roll = game.throw(&mut dice);
            state.choices(game, &roll, &mut choices);
            assert!(!choices.is_empty());
            for &c in &choices {
                let mut trial = state.clone();
                assert!(trial.apply(game, &roll, c, &mut events).is_ok(), "{c}");
                // (A `pass` may be the third doubles' rule of the roll.)
                let Choice::Dice(steps) = c else { continue };
                assert_eq!(state.refusal(game, &roll, c), None, "{c}");
                // The same steps the other way round.
                let list: Vec<rulebook::race::Step> = steps.iter().collect();
                if list.len() != 2 {
                    continue;
                }
                let Some(swapped) = rulebook::race::Steps::default()
                    .and(list[1])
                    .and_then(|s| s.and(list[0]))
                else {
                    continue;
                };
                let swapped = Choice::Dice(swapped);
                let mut trial = state.clone();
                if trial.apply(game, &roll, swapped, &mut events).is_err() {
                    assert_eq!(trial, state, "a refused choice changes nothing");
                    match state.refusal(game, &roll, swapped) {
                        Some(Refusal::MustEnter) => seen.must_enter += 1,
                        Some(Refusal::StartFirst) => seen.start_first += 1,
                        Some(Refusal::EnterFirst) => seen.enter_first += 1,
                        _ => {}
                    }
                }
            }
            let choice = choices[pick.below(choices.len() as u64) as usize];
            if let Choice::Dice(steps) = choice {
                seen.back += steps.iter().filter(|s| s.back).count() as u64;
            }
            state.apply(game, &roll, choice, &mut events).unwrap();
            seen.retries += events
                .iter()
                .filter(|e| matches!(e, Event::Retry { .. }))
                .count() as u64;
            seen.turns += 1;
        }
        assert!(state.is_over(), "seed {seed}: no end");
    }
    seen
}

#[test]
fn random_play_of_entering_compulsory_refuses_moves_before_an_entry() {
    let game = load_text(&house("entering compulsory", "enter compulsory\n"));
    let seen = random_play(&game, 6);
    assert!(seen.turns > 500, "{}", seen.turns);
    assert!(
        seen.must_enter > 5,
        "entries compelled: {}",
        seen.must_enter
    );
    assert_eq!((seen.start_first, seen.retries), (0, 0));
}

#[test]
fn random_play_of_leave_start_first_refuses_other_moves_first() {
    let game = load_text(&house("leave the start first", "leave start first\n"));
    let seen = random_play(&game, 6);
    assert!(seen.turns > 500, "{}", seen.turns);
    assert!(
        seen.start_first > 5,
        "start cells left: {}",
        seen.start_first
    );
    assert_eq!((seen.must_enter, seen.retries), (0, 0));
}

#[test]
fn random_play_of_three_tries_throws_again() {
    let plain = crate::race::load("other/parcheesi", &[]);
    let game = load_text(&house("three tries", "tries 3 when no piece can move\n"));
    let seen = random_play(&game, 6);
    assert!(seen.retries > 10, "throws again: {}", seen.retries);
    assert_eq!((seen.must_enter, seen.start_first), (0, 0));
    // Without the rule the same seeds throw nothing again.
    assert_eq!(random_play(&plain, 2).retries, 0);
}

#[test]
fn random_play_of_all_three_together() {
    let game = load_text(&house(
        "all three",
        "enter compulsory\nleave start first\ntries 3 when no piece can move\n",
    ));
    let seen = random_play(&game, 6);
    assert!(seen.must_enter > 0 && seen.start_first > 0 && seen.retries > 0);
}

/// `enter first` on Parcheesi: a piece out waits for a 5 while the others
/// wait for it, and a pair of the player's own on the start cell, which no
/// piece may land on, lets the others move: every game ends (before, every
/// one ran on with nothing moving until the roll limit).
#[test]
fn random_play_of_enter_first_refuses_other_moves_and_ends() {
    let game = load_text(&house("enter first", "enter first\n"));
    assert!(game.enter_first && game.own_pieces_close_cells());
    let seen = random_play(&game, 6);
    assert!(seen.turns > 300, "{}", seen.turns);
    assert!(
        seen.enter_first > 5,
        "moves refused while a piece is out: {}",
        seen.enter_first
    );
    assert_eq!((seen.must_enter, seen.start_first, seen.retries), (0, 0, 0));
}

#[test]
fn simulate_of_enter_first_reaches_no_roll_limit() {
    for players in ["2", "4"] {
        let args = ["--games", "50", "--players", players, "--json", "--quiet"];
        let out = simulate_house("enter first", "enter first\n", &args);
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            report["endings"],
            serde_json::json!({"home first": 50}),
            "{players} players: {out}"
        );
    }
}

// ------------------------------------------------------------------ the checker

/// A game of dice used one by one with `lines` for its rules.
fn diagnose(lines: &str) -> String {
    let text = format!(
        "game \"Test\"\ntrack 40\nplayers 2\nseats red blue\npieces 4 per player\ndice 2 d6\nmove each die\n{lines}"
    );
    crate::race::diagnose_text(text, lines)
}

/// The rules of the choices without what they need are refused with
/// E060.
#[test]
fn what_does_not_combine_is_refused() {
    for (name, lines) in [
        (
            "each-die-enter-compulsory-without-entering-rule",
            "enter compulsory\n",
        ),
        (
            "each-die-tries-without-entering-face",
            "tries 3 when no piece can move\n",
        ),
        (
            "each-die-leave-start-without-start-cell",
            "enter on 6\nleave start first\n",
        ),
    ] {
        let rendered = diagnose(lines);
        assert!(rendered.contains("error[E060]"), "{name}:\n{rendered}");
        insta::assert_snapshot!(format!("diagnostic-{name}"), rendered);
    }
}

/// Backgammon enters on any die: `enter compulsory` there has no entering
/// face to compel, and is refused as for moves by the whole roll.
#[test]
fn entering_compulsory_on_backgammon_is_refused() {
    let checked = rulebook::load::check_source(
        rulebook::load::Source {
            name: "test.rules".into(),
            text:
                "extends \"other/backgammon\"\ngame \"Backgammon, compulsory\"\nenter compulsory\n"
                    .into(),
        },
        &rulebook::load::BundledLoader,
        &[],
    );
    let rendered = checked.render();
    assert!(checked.loaded.is_none());
    assert!(
        rendered.contains("`enter compulsory` needs an entering rule"),
        "{rendered}"
    );
}
