//! Race games, issue 31: a choice says where it goes and what the cells do
//! (at the prompt's `moves` and `hint`, and in the library for the web
//! page); the track's legend shown once at the terminal (`board`, `track`
//! and `legend` show it again); `replay` names home cells as the prompt
//! does; a rule of the roll told only when it did something, an extra roll
//! told once; the finishing order of a misère outcome says who won and who
//! lost.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::narrate::race::{choice_says, parse_position, result_text, turn_text};
use rulebook::race::game::RaceGame;
use rulebook::race::{Choice, RaceState, Roll};

use crate::common::{run, run_input};
use crate::race::{load, load_text};

/// The words of every choice of the seat to roll in `position` with `dice`.
fn says(game: &RaceGame, position: &str, dice: &[u8]) -> Vec<String> {
    let state = parse_position(game, position).unwrap();
    let roll = Roll::new(dice).unwrap();
    let mut choices = Vec::new();
    state.choices(game, &roll, &mut choices);
    choices
        .iter()
        .map(|&c| choice_says(game, &state, &roll, c, "→"))
        .collect()
}

/// A turn of the seat to roll in `state` played and told as `play` tells it.
fn told(game: &RaceGame, state: &mut RaceState, dice: &[u8], choice: Choice) -> String {
    let roll = Roll::new(dice).unwrap();
    let seat = state.to_roll();
    let number = state.rolls() + 1;
    let mut events = Vec::new();
    state.apply(game, &roll, choice, &mut events).unwrap();
    turn_text(game, state, number, seat, &roll, choice, &events)
}

/// A game of `play` at the prompt, its input `input`: the output.
fn at_prompt(args: &[&str], input: &str) -> String {
    let (code, out, err) = run_input(args, input);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn a_choice_says_where_it_goes_and_what_the_cells_do() {
    let slow = load("slow-and-steady", &[]);
    // 9 + 3 lands on 12, whose digit 1 sends the piece 3 on.
    assert_eq!(
        says(&slow, "red:red 9,out:blue 30", &[1, 2]),
        ["9 → 12 → 15 (contains 1: forward 3)"]
    );
    // 25 + 5 lands on 30, whose digit 0 sends the piece out.
    assert_eq!(
        says(&slow, "red:red 25,out:blue 30", &[2, 3]),
        ["25 → 30 → out (contains 0)"]
    );
    // Entering is said with where the piece lands: not `enter 1`.
    let ludo = load("other/ludo", &[]);
    assert_eq!(
        says(&ludo, "red:red 13,out:green 19", &[6]),
        ["enter → 1", "13 → 19 (takes green's piece)"]
    );
    let snakes = load("variants/snakes-and-ladders", &[]);
    assert_eq!(
        says(&snakes, "red:red 2:blue 30", &[2]),
        ["2 → 4 → 14 (a ladder)"]
    );
    let goose = load("variants/goose", &[]);
    assert_eq!(
        says(&goose, "red:red 20:blue 30", &[3, 4]),
        ["20 → 27 → 34 (a goose: moves again)"]
    );
}

#[test]
fn moves_and_hint_at_the_prompt_say_where_each_choice_goes() {
    // Seed 4: red's 14th roll, 1+6, is the first with two choices.
    let args = [
        "play",
        "slow-and-steady",
        "--seat",
        "2=random",
        "--seed",
        "4",
    ];
    let out = at_prompt(&args, "moves\nhint\n");
    assert!(
        out.contains("[45]> enter → 7 → 4 (contains 7: back 3)\n45 → 52\n"),
        "{out}"
    );
    assert!(out.contains("[45]> hint: 45 → 52\n"), "{out}");
    // What a player types is still the choice itself.
    let out = at_prompt(&args, "enter\n");
    assert!(out.contains("14. red rolls 1+6, choice: enter"), "{out}");
}

#[test]
fn the_legend_of_the_track_is_shown_once_and_again_when_asked() {
    let args = ["play", "other/ludo", "--seat", "2=random", "--seed", "3"];
    let legend = "* safe cell: no piece is sent away here";
    // Four of red's rolls with a choice (the input ends at the fourth):
    // the track before each, the legend with the first only.
    let out = at_prompt(&args, "\n\n\n");
    assert_eq!(out.matches("R red: ").count(), 4, "{out}");
    assert_eq!(out.matches(legend).count(), 1, "{out}");
    // `legend` shows the legend alone, `board` (as `track`) the track with
    // its legend; `help` names them.
    let out = at_prompt(&args, "legend\n");
    assert_eq!(out.matches(legend).count(), 2, "{out}");
    assert_eq!(out.matches("R red: ").count(), 1, "{out}");
    let out = at_prompt(&args, "board\n");
    assert_eq!(out.matches(legend).count(), 2, "{out}");
    assert_eq!(out.matches("R red: ").count(), 2, "{out}");
    let out = at_prompt(&args, "help\n");
    assert!(out.contains("  track, board  the track"), "{out}");
    assert!(out.contains("  legend        what the marks"), "{out}");
}

#[test]
fn replay_names_home_cells_as_the_prompt_does() {
    let dir = crate::common::scratch();
    let record = dir.path().join("ludo.jsonl");
    let (code, _, err) = run(&[
        "play",
        "other/ludo",
        "--seat",
        "1=random",
        "--seat",
        "2=random",
        "--seed",
        "3",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&record).unwrap();
    // The record replays: what it writes (`"h2"`) it reads.
    let (code, _, err) = run(&["replay", record.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // The first move from a home cell, made with a 6: past home.
    let lines: Vec<&str> = text.lines().collect();
    let (n, line) = lines
        .iter()
        .enumerate()
        .find(|(_, l)| l.contains("\"choice\":\"h"))
        .expect("a move from a home cell");
    let cell = line
        .split("\"choice\":\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap();
    let dice = line
        .split("\"dice\":")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .unwrap();
    let mut bad = lines.clone();
    let changed = line.replace(&format!("\"dice\":{dice}]"), "\"dice\":[6]");
    bad[n] = &changed;
    let file = dir.path().join("bad.jsonl");
    std::fs::write(&file, bad.join("\n")).unwrap();
    let (code, _, err) = run(&["replay", file.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(
        err.contains(&format!("can't play `{cell}` with 6")),
        "{err}"
    );
    // A choice that names nothing says the home cells are named too.
    let changed = line.replace(&format!("\"choice\":\"{cell}\""), "\"choice\":\"x9\"");
    bad[n] = &changed;
    std::fs::write(&file, bad.join("\n")).unwrap();
    let (code, _, err) = run(&["replay", file.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(
        err.contains("`\"x9\"` is not a choice: write a cell number, a home cell (\"h1\"), \"enter\" or \"pass\""),
        "{err}"
    );
}

#[test]
fn a_rule_of_the_roll_is_told_when_it_did_something_and_an_extra_roll_once() {
    let game = load_text(
        "extends \"slow-and-steady\"\nrolling 6 6 \"boxcars\": furthest out\nrolling 5 5 \"fives\": extra roll\n",
    );
    // No piece on the track: the furthest is none, nothing is told.
    let mut state = parse_position(&game, "red:red out,out:blue 30").unwrap();
    let text = told(&game, &mut state, &[6, 6], Choice::Enter);
    assert!(!text.contains("boxcars"), "{text}");
    // A piece on the track goes out, and the rule is told.
    let mut state = parse_position(&game, "red:red 40,out:blue 30").unwrap();
    let text = told(&game, &mut state, &[6, 6], Choice::Enter);
    assert!(
        text.contains("     rolled boxcars: furthest out\n     red's piece on 40 goes out\n"),
        "{text}"
    );
    // The extra roll of the rule is told by the rule, once.
    let mut state = parse_position(&game, "red:red 40,out:blue 30").unwrap();
    let text = told(&game, &mut state, &[5, 5], Choice::Move(40));
    assert!(text.contains("rolled fives: rolls again"), "{text}");
    assert_eq!(text.matches("rolls again").count(), 1, "{text}");
}

#[test]
fn the_order_of_a_misere_outcome_says_who_won_and_who_lost() {
    let game = load_text("extends \"slow-and-steady\"\noutcome first-home lose\n");
    let mut state = parse_position(&game, "red:red 96:blue 98:green 50").unwrap();
    told(&game, &mut state, &[1, 3], Choice::Move(96));
    told(&game, &mut state, &[1, 1], Choice::Move(98));
    let text = result_text(&game, &state);
    assert!(
        text.contains("order: 1st home: red (loses), 2nd home: blue, last left: green (wins)\n"),
        "{text}"
    );
}

#[test]
fn a_piece_a_landing_rule_moves_onto_a_holding_cell_is_held() {
    // No `landing rules chain`: the chute's `go to 32` ends the landing,
    // and the pit holds the piece as it holds one the dice put there.
    let game = load_text(
        "extends \"slow-and-steady\"\nlanding on cell 3 \"a chute\": go to 32\nlanding on cell 32 \"a pit\": held\n",
    );
    let mut state = parse_position(&game, "red:red 1,out:blue 30").unwrap();
    let text = told(&game, &mut state, &[1, 1], Choice::Move(1));
    assert!(text.contains("landed on 3: a chute, goes to 32"), "{text}");
    assert!(state.is_held(0, 0), "{text}");
    assert!(text.contains("red 32 held out"), "{text}");
    // The piece the dice put there is held alike.
    let mut state = parse_position(&game, "red:red 30,out:blue 20").unwrap();
    told(&game, &mut state, &[1, 1], Choice::Move(30));
    assert!(state.is_held(0, 0));
}
