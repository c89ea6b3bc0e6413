//! Entering on chosen faces or sums, bonus moves after a capture and after
//! bringing a piece home, blockades that can't be landed on, and the rules
//! of landing and passing with dice used one by one (issue 27, Parcheesi),
//! at work in Parcheesi (`games/other/parcheesi.rules`, docs/rules.md PA-1
//! to PA-10) and in house rules on bundled games: scripted turns
//! (tests/fixtures/race_parcheesi/*.script) with why a choice is refused, a
//! seeded random game, a record replayed, the checker's diagnostics of the
//! new statements, `fmt`, and the statistics of random play against an
//! independent simulator (tests/independent/parcheesi.py).

use rulebook::race::game::RaceGame;
use rulebook::race::{Choice, RaceState, Refusal, Roll};

use crate::common::run;
use crate::race::load_text;

const GAME: &str = "other/parcheesi";

fn load(game: &str) -> RaceGame {
    crate::race::load(game, &[])
}

// ------------------------------------------------------------------ scripts

crate::race::script_tests!(
    "fixtures/race_parcheesi/*.script",
    "race_parcheesi",
    (1..=10).map(|n| format!("pa-{n:02}"))
);

// ------------------------------------------------------------------ the game

#[test]
fn the_game_is_set_up_as_the_rules_have_it() {
    let game = load(GAME);
    assert_eq!(game.cells, 72, "64 loop cells, 7 home cells, home");
    assert!(game.each_die && game.dice == 2 && game.faces == 6);
    assert_eq!((game.enter_sum, game.enter_at_start), (5, true));
    assert_eq!((game.pass_stack, game.stack_landing), (2, 2));
    assert_eq!((game.bonus_capture, game.bonus_home), (20, 10));
    assert_eq!((game.min_players, game.max_players), (2, 4));
    // The start cells are safe, and shared by the loop's seats.
    for seat in 0..4 {
        assert!(game.is_safe(seat, 1), "seat {seat}'s start cell");
        assert_eq!(game.label(seat, 1), format!("c{}", 5 + 17 * seat));
        assert_eq!(game.label(seat, 65).chars().nth(1), Some('1'));
    }
    let state = RaceState::new(&game, 4).unwrap();
    assert!(state.pieces(3).iter().all(|&p| p == 0), "all start out");
}

#[test]
fn an_entering_sum_uses_both_dice_and_a_bonus_never_enters() {
    let game = load(GAME);
    let state = RaceState::new(&game, 2).unwrap();
    let mut choices = Vec::new();
    for (faces, enters) in [
        ([1, 4], true),
        ([2, 3], true),
        ([5, 6], true),
        ([3, 3], false),
        ([4, 2], false),
        ([6, 6], false),
    ] {
        let roll = Roll::new(&faces).unwrap();
        state.choices(&game, &roll, &mut choices);
        assert_eq!(choices != [Choice::Pass], enters, "{faces:?}: {choices:?}");
    }
    // A sum of two dice enters one piece: both dice are gone.
    let roll = Roll::new(&[1, 4]).unwrap();
    state.choices(&game, &roll, &mut choices);
    assert_eq!(choices.len(), 1);
    let Choice::Dice(steps) = choices[0] else {
        panic!("{choices:?}")
    };
    assert_eq!(
        steps.iter().collect::<Vec<_>>(),
        [rulebook::race::Step {
            from: 0,
            by: 1,
            back: false
        }]
    );
}

fn random_game(seed: &str, record: Option<&str>) -> String {
    crate::race::two_random(GAME, seed, record)
}

#[test]
fn a_seeded_random_game() {
    let transcript = random_game("4", None);
    assert_eq!(transcript, random_game("4", None));
    for seen in [
        "enters on c5",
        "taken: blue's piece goes out",
        "rolls again",
        "bears off: finished",
    ] {
        assert!(transcript.contains(seen), "no {seen:?} in:\n{transcript}");
    }
    insta::assert_snapshot!("parcheesi-seed-4", transcript);
}

#[test]
fn a_replayed_record_gives_the_same_game() {
    crate::race::recorded_and_replayed(GAME, "11");
}

#[test]
fn the_computer_players_play_it_with_four() {
    for agent in ["greedy", "mcts"] {
        let seat = format!("1={agent}");
        let (code, out, err) = run(&[
            "play",
            GAME,
            "--players",
            "4",
            "--seat",
            &seat,
            "--seat",
            "2=random",
            "--seat",
            "3=random",
            "--seat",
            "4=random",
            "--seed",
            "3",
            "--playouts",
            "10",
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("result:"),
            "{agent}: the game did not end:\n{out}"
        );
    }
}

// ------------------------------------------------------------------ house rules

#[test]
fn house_rules_on_bundled_games_use_the_constructs() {
    // Backgammon where a hit earns a move of 4 and a blockade of three of
    // anyone's pieces can't be landed on.
    let bg = "extends \"other/backgammon\"\ngame \"Backgammon, bonus hits\"\nbonus 4 after capture\nno landing on 3 or more pieces\n";
    let game = load_text(bg);
    assert_eq!((game.bonus_capture, game.stack_landing), (4, 3));
    // Parcheesi entering on a 6 or a sum of 6, with a smaller bonus home.
    let pa = "extends \"other/parcheesi\"\ngame \"Parcheesi, sixes\"\nenter on 6 or sum 6 at start\nbonus 5 after home\n";
    let game = load_text(pa);
    assert_eq!((game.enter_sum, game.bonus_home), (6, 5));
    assert_eq!(game.enter, rulebook::race::game::Enter::OnFace(6));
    // Ludo (moves by the whole roll) where no piece lands on a pair.
    let ludo = "extends \"other/ludo\"\ngame \"Ludo, pairs\"\nno landing on 2 or more pieces\n";
    let game = load_text(ludo);
    assert!(game.restricted && game.stack_landing == 2);
    for (name, text) in [("bg", bg), ("pa", pa), ("ludo", ludo)] {
        let dir = std::env::temp_dir().join(format!("rulebook-pa-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("house.rules");
        std::fs::write(&file, text).unwrap();
        let (code, out, err) = run(&[
            "simulate",
            file.to_str().unwrap(),
            "--games",
            "30",
            "--seed",
            "1",
        ]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(out.contains("30 games"), "{name}: {out}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// In Ludo with `no landing on 2 or more pieces`, moves by the whole roll
/// onto a pair are refused, and named.
#[test]
fn a_blockade_refuses_a_move_by_the_whole_roll() {
    let game =
        load_text("extends \"other/ludo\"\ngame \"Ludo, pairs\"\nno landing on 2 or more pieces\n");
    let mut state = RaceState::new(&game, 2).unwrap();
    state.set_pieces(&game, 0, &[3, 0, 0, 0]).unwrap();
    state.set_pieces(&game, 1, &[46, 46, 0, 0]).unwrap();
    let roll = Roll::new(&[4]).unwrap();
    let mut choices = Vec::new();
    state.choices(&game, &roll, &mut choices);
    assert_eq!(choices, [Choice::Pass]);
    assert!(matches!(
        state.refusal(&game, &roll, Choice::Move(3)),
        Some(Refusal::OnBlockade { pieces: 2, .. })
    ));
}

// ------------------------------------------------------------------ the checker

/// A Parcheesi-like game with `lines` for its rules.
fn diagnose(lines: &str) -> String {
    let text =
        format!("game \"Test\"\ntrack 40\nplayers 2\nseats red blue\npieces 4 per player\n{lines}");
    crate::race::diagnose_text(text, lines)
}

#[test]
fn each_way_to_get_the_new_statements_wrong_is_named() {
    let each = |more: &str| format!("dice 2 d6\nmove each die\n{more}");
    for (name, lines) in [
        (
            "bonus-after-capture-without-captures",
            each("bonus 20 after capture\n"),
        ),
        (
            "bonus-too-large",
            each("bonus 40 after home\nresting on any: opponents out\n"),
        ),
        (
            "bonus-without-each-die",
            "dice 2 d6\nbonus 10 after home\n".to_string(),
        ),
        ("entering-sum-too-large", each("enter on 5 or sum 13\n")),
        (
            "entering-sum-with-one-die",
            "dice 1 d6\nmove each die\nenter on 5 or sum 5\n".to_string(),
        ),
        (
            "entering-sum-without-each-die",
            "dice 2 d6\nenter on 5 or sum 5\n".to_string(),
        ),
        (
            "blockade-larger-than-the-pieces",
            each("no landing on 5 or more pieces\n"),
        ),
        ("blockade-of-one", each("no landing on 1 or more pieces\n")),
        (
            "bonus-twice",
            each("resting on any: opponents out\nbonus 20 after capture\nbonus 10 after capture\n"),
        ),
    ] {
        insta::assert_snapshot!(format!("diagnostic-{name}"), diagnose(&lines));
    }
}

#[test]
fn the_new_statements_keep_their_spelling_in_fmt() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/other/parcheesi.rules"),
    )
    .unwrap();
    let formatted = rulebook::format_rules::format_text(&text).unwrap();
    assert_eq!(formatted, text, "the bundled file is formatted");
    let ragged = "enter  on 5 or   sum 5  at start\nbonus   20 after  capture\nbonus 10   after home\nno landing  on 2 or more   pieces\n";
    let tidy = rulebook::format_rules::format_text(ragged).unwrap();
    for line in [
        "enter on 5 or sum 5 at start\n",
        "bonus 20 after capture\n",
        "bonus 10 after home\n",
        "no landing on 2 or more pieces\n",
    ] {
        assert!(tidy.contains(line), "{line:?} not in:\n{tidy}");
    }
}

// ------------------------------------------------------------------ independent check

/// `rulebook simulate` and tests/independent/parcheesi.py, random play: the
/// mean rolls a game and the first seat's win rate agree within 2 standard
/// errors (of the difference).
#[test]
fn random_play_agrees_with_an_independent_simulator() {
    let report = crate::common::agrees_with_simulator(
        GAME,
        2000,
        &["--seed", "99"],
        "tests/independent/parcheesi.py",
        &["2", "2000", "99"],
    );
    eprintln!("{report}");
}

// ------------------------------------------------------------------ the engine

/// Seeded random games of Parcheesi: every listed choice is accepted by
/// `apply`, a sequence cut short while a die can still move is refused and
/// changes nothing, and the new rules refuse some moves on the way.
#[test]
fn the_listed_choices_are_legal_and_shortened_ones_refused() {
    use rulebook::rng::Rng;
    let game = load(GAME);
    let (mut turns, mut blockade, mut cut) = (0u64, 0u64, 0u64);
    for seed in 0..12u64 {
        let mut state = RaceState::new(&game, 4).unwrap();
        let mut dice = Rng::new(seed);
        let mut pick = Rng::new(seed ^ 0x5eed);
        let (mut choices, mut events) = (vec![], vec![]);
        while !state.is_over() && state.rolls() < 3_000 {
            let roll = game.throw(&mut dice);
            state.choices(&game, &roll, &mut choices);
            for &c in &choices {
                let mut trial = state.clone();
                assert!(trial.apply(&game, &roll, c, &mut events).is_ok(), "{c}");
                // The same sequence without its last step.
                if let Choice::Dice(steps) = c {
                    let list: Vec<rulebook::race::Step> = steps.iter().collect();
                    if list.len() > 1 {
                        let mut short = rulebook::race::Steps::default();
                        for &step in &list[..list.len() - 1] {
                            short = short.and(step).unwrap();
                        }
                        let shorter = Choice::Dice(short);
                        if !choices.contains(&shorter) {
                            let mut trial = state.clone();
                            let refused = trial.apply(&game, &roll, shorter, &mut events);
                            if refused.is_err() {
                                assert_eq!(trial, state, "a refused choice changes nothing");
                                cut += 1;
                            }
                        }
                    }
                }
            }
            // A move of every piece by the first die alone.
            let seat = state.to_roll();
            for &p in state.pieces(seat) {
                let die = roll.faces()[0];
                if let Some(steps) = rulebook::race::Steps::default().with(p, u16::from(die)) {
                    if matches!(
                        state.refusal(&game, &roll, Choice::Dice(steps)),
                        Some(Refusal::Stack { .. } | Refusal::OnBlockade { .. })
                    ) {
                        blockade += 1;
                    }
                }
            }
            let choice = choices[pick.below(choices.len() as u64) as usize];
            state.apply(&game, &roll, choice, &mut events).unwrap();
            turns += 1;
        }
        assert!(state.is_over(), "seed {seed}: no end");
    }
    assert!(turns > 1_000, "{turns}");
    assert!(blockade > 5, "blockades: {blockade}");
    assert!(cut > 5, "cut sequences: {cut}");
}
