//! Issue 27's last defects of races with dice used one by one, each with
//! the turn that showed it: the landing effects that work with the sum of
//! the dice (`miss N turns`, `extra roll`, `no extra roll`) on each die's
//! move (the turns missed are the next ones, the extra roll comes once,
//! after the whole turn); an entry that `finish exact` forbids (Ur thrown
//! with seven cowries: a throw of 25 enters no piece on a path of 14
//! cells), by the general turn and the compiled one alike; the words of
//! `enter first`'s refusal, from what the rule file says (a bar only where
//! every piece starts on the track); and the terminal's drawing of paths
//! laid out as lanes or tables, each shared cell once (backgammon's two
//! rows of twelve points, Ur's lanes), beside the drawings of Senet,
//! Parcheesi and an old race game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::format::text::board::Style;
use rulebook::lab::bench::play_one;
use rulebook::narrate::race::{parse_choice, why_not};
use rulebook::race::fast::{FastRace, NotCovered};
use rulebook::race::{Choice, RaceState, Roll};

use crate::race::{load, load_text, run_script};

// ------------------------------------------------------------------ landing effects

/// The turns of `script`, which must tell each of `says`, as the snapshot
/// `name`.
fn scripted(name: &str, script: &str, says: &[&str]) -> String {
    let out = run_script(script);
    for said in says {
        assert!(out.contains(said), "{name}: no {said:?} in\n{out}");
    }
    insta::assert_snapshot!(name, out);
    out
}

/// A trap on p18: the 6 lands white's piece there, the 3 still plays this
/// turn, and white misses the next: black rolls twice in a row.
const MISS: &str = "\
# A trap on p18 with dice used one by one: the 6 lands white's piece there
# (a turn to miss), the 3 moves it on this turn, and white's next turn is
# missed: black rolls twice in a row.
game other/backgammon
house landing on cells p18 \"a trap\": miss 1 turn
house resting on any \"a hit\": opponents out
roll 6 3: p24-p18 p18-p15
roll 2 1: p1-p3 p1-p2
roll 4 3: p17-p21 p17-p20
";

/// Two landings on a rosette in one turn: one extra roll, after the
/// whole turn.
const EXTRA: &str = "\
# A rosette on p18: both of white's pieces on p24 land on it with the
# double's first two 6s; the other two are played first, then white rolls
# again, once however many moves earned it.
game other/backgammon
house landing on cells p18 \"a rosette\": extra roll
house resting on any \"a hit\": opponents out
roll 6 6: p24-p18 p24-p18 p13-p7 p13-p7
roll 2 1: p18-p16 p16-p15
roll 2 1: p1-p3 p1-p2
";

/// A pit that loses the extra roll of Parcheesi's doubles.
const NO_EXTRA: &str = "\
# A pit on c10 loses the extra roll a double earns (Parcheesi's doubles
# roll again): red's 5 lands there, and blue rolls next.
game other/parcheesi
house landing on cells c10 \"a pit\": no extra roll
house resting on any \"a capture\": opponents out
put red c5 c6 out out
put blue c22 out out out
roll 5 5: c5-c10 c6-c11
roll 2 1: c22-c24 c24-c25
";

/// The scripts of a die's landing effects: the snapshot's name, the
/// script, what it must tell.
const LANDINGS: [(&str, &str, &[&str]); 3] = [
    (
        "miss-a-turn",
        MISS,
        &["misses 1 turn", "3. black rolls 4+3"],
    ),
    (
        "extra-roll",
        EXTRA,
        &["2. white rolls 2+1", "3. black rolls 2+1"],
    ),
    (
        "no-extra-roll",
        NO_EXTRA,
        &["the extra roll is lost", "2. blue rolls 2+1"],
    ),
];

#[test]
fn a_dies_landing_effects_are_the_turns_to_miss_and_extra_rolls_of_the_turn() {
    for (name, script, says) in LANDINGS {
        let out = scripted(name, script, says);
        if name == "extra-roll" {
            // Two landings on the rosette, one extra roll.
            assert_eq!(out.matches("rolls again").count(), 2, "{out}");
        }
    }
}

#[test]
fn dice_used_one_by_one_take_the_general_turn() {
    let game =
        load_text("extends \"other/backgammon\"\nlanding on cells p18 \"a trap\": miss 1 turn\nresting on any \"a hit\": opponents out\n");
    assert_eq!(FastRace::new(&game, 2).err(), Some(NotCovered::EachDie));
}

// ------------------------------------------------------------------ exact entry

/// Pachisi's seven cowries, worth up to 35.
const COWRIES: &str = "throw 7 sticks: 0 = 7, 1 = 10, 2 = 2, 3 = 3, 4 = 4, 5 = 25, 6 = 35, 7 = 14";

#[test]
fn a_throw_past_an_exact_finish_enters_no_piece_on_urs_paths() {
    let script = format!(
        "\
# Ur thrown with seven cowries: a throw of 25 would carry an entering piece
# past the 15th step, which a piece reaches only by the exact throw: no
# piece enters, and the throw passes. All seven up is worth 14: a piece
# enters on the last cell of its path.
game other/royal-game-of-ur
house {COWRIES}
choices 1 0 1 1 0 1 1
refuse 1 0 1 1 0 1 1: enter
roll 1 0 1 1 0 1 1: pass
choices 1 1 1 1 1 1 1
roll 1 1 1 1 1 1 1: enter
"
    );
    let says = [
        "choices with 1+0+1+1+0+1+1: pass\n",
        "rule `finish exact`",
        "choices with 1+1+1+1+1+1+1: enter",
    ];
    scripted("ur-cowries", &script, &says);
}

/// A plain track of 20 cells thrown with four cowries, none up worth 25,
/// with an exact finish: a game the compiled turn plays (it throws at
/// most four).
fn cowrie_track() -> rulebook::race::game::RaceGame {
    load_text(
        "game \"Short cowries\"\ntrack 20\nplayers 2\npieces 2 per player\nthrow 4 sticks: 0 = 25, 1 = 10, 2 = 2, 3 = 3, 4 = 4\nmove by sum\nenter always\nfinish exact\nwin first piece\n",
    )
}

#[test]
fn the_compiled_turn_enters_no_piece_past_an_exact_finish_either() {
    let game = cowrie_track();
    let mut state = RaceState::new(&game, 2).unwrap();
    let mut choices = Vec::new();
    let throw_of_25 = Roll::new(&[0, 0, 0, 0]).unwrap();
    state.choices(&game, &throw_of_25, &mut choices);
    assert_eq!(choices, vec![Choice::Pass]);
    let throw_of_10 = Roll::new(&[1, 0, 0, 0]).unwrap();
    state.choices(&game, &throw_of_10, &mut choices);
    assert!(choices.contains(&Choice::Enter), "{choices:?}");
    let fast = FastRace::new(&game, 2).expect("a plain track is compiled");
    let mut events = Vec::new();
    for seed in 0..40u64 {
        state.restart(&game);
        let general = play_one(&game, &mut state, seed, &mut choices, &mut events).unwrap();
        assert_eq!(fast.play(seed), general, "seed {seed}");
    }
}

// ------------------------------------------------------------------ enter first

/// Why `game` refuses white's (the first seat's) `choice` with `faces`,
/// white's pieces at `white` (progress along its path).
fn refused(
    game: &rulebook::race::game::RaceGame,
    white: &[u16],
    faces: &[u8],
    choice: &str,
) -> String {
    let mut state = RaceState::new(game, 2).unwrap();
    state.set_pieces(game, 0, white).unwrap();
    let choice = parse_choice(game, 0, choice).unwrap();
    why_not(game, &state, 0, &Roll::new(faces).unwrap(), choice)
}

#[test]
fn enter_first_is_worded_from_the_rule_file_and_names_the_rule() {
    // Parcheesi's pieces start out: a piece out waits to enter.
    let parcheesi = load_text("extends \"other/parcheesi\"\nenter first\n");
    assert_eq!(
        refused(&parcheesi, &[9, 0, 0, 0], &[2, 1], "c13-c15 c15-c16"),
        "a piece waiting to enter must enter first (rule `enter first`)"
    );
    // Backgammon's start on the board: a piece out was hit, and is on the
    // bar.
    let backgammon = load("other/backgammon", &[]);
    let white = [0, 12, 12, 12, 12, 12, 17, 17, 17, 19, 19, 19, 19, 19, 1];
    assert_eq!(
        refused(&backgammon, &white, &[6, 3], "p13-p7 p13-p10"),
        "a piece on the bar must enter first (rule `enter first`)"
    );
}

// ------------------------------------------------------------------ the terminal

/// The terminal's drawing of `game` at the start, plain.
fn drawn(game: &rulebook::race::game::RaceGame) -> String {
    let state = RaceState::new(game, 2).unwrap();
    rulebook::format::text::race::track(game, Some(&state), &Style::default())
}

#[test]
fn the_terminal_draws_shared_paths_once_in_their_shape() {
    let backgammon = drawn(&load("other/backgammon", &[]));
    // One board: each point once, white's and black's pieces on it.
    let drawn_lines = |text: &str, cell: &str| {
        text.lines()
            .filter(|l| l.contains(cell) && !l.contains("to roll") && !l.contains("cell"))
            .count()
    };
    assert_eq!(drawn_lines(&backgammon, "p24"), 1, "{backgammon}");
    assert!(
        !backgammon.lines().any(|l| l.starts_with("white:")),
        "{backgammon}"
    );
    assert!(backgammon.contains("W bar 0, off 0"), "{backgammon}");
    insta::assert_snapshot!("terminal-backgammon", backgammon);
    let ur = drawn(&load("other/royal-game-of-ur", &[]));
    assert_eq!(drawn_lines(&ur, "m4"), 1, "{ur}");
    assert!(!ur.lines().any(|l| l.starts_with("white:")), "{ur}");
    assert!(ur.contains("W out 7, off 0"), "{ur}");
    insta::assert_snapshot!("terminal-ur", ur);
    for name in ["other/senet", "other/parcheesi", "slow-and-steady"] {
        let text = drawn(&load(name, &[]));
        insta::assert_snapshot!(format!("terminal-{}", name.replace('/', "-")), text);
    }
}
