//! The prompt of `play` as a person meets it: words that are not moves,
//! commands in any case, `pass`, commands and whole moves in the middle of
//! a capture typed square by square, names ending in s.
#![allow(clippy::unwrap_used, clippy::expect_used)]

fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let (code, out, err) = crate::common::run_input(&all, input);
    assert_eq!(code, 0, "{err}");
    out
}

/// The lines the prompt answered (those after a prompt), without boards.
fn answers(out: &str) -> Vec<String> {
    out.split("to move> ")
        .skip(1)
        .map(|a| a.lines().next().unwrap_or("").to_string())
        .collect()
}

const CAPTURE: [&str; 7] = [
    "draughts",
    "--position",
    "W:W22,23,30:B18,19,10,7,1",
    "--white",
    "human",
    "--black",
    "human",
];

#[test]
fn a_word_that_is_not_a_move_is_an_unknown_command() {
    let out = play(&CAPTURE, "yzzy\n");
    assert_eq!(
        answers(&out)[0],
        "`yzzy` is neither a move nor a command: type help for the commands"
    );
}

#[test]
fn commands_are_understood_in_any_case() {
    let out = play(&CAPTURE, "HELP\nMoves\nResign\n");
    assert!(out.contains("Commands (any case):"), "{out}");
    assert!(out.contains("22x15x6 22x15x24"), "{out}");
    assert!(out.contains("resign"), "{out}");
}

#[test]
fn pass_is_refused_with_the_rule_when_a_move_exists() {
    let out = play(&CAPTURE, "pass\n");
    assert_eq!(
        answers(&out)[0],
        "illegal: you can't pass: legal moves: 22x15x6 or 22x15x24 (a side never passes: one that can't move loses)"
    );
    // Reversi: a side passes only when it can't place (RV-5), which the
    // rule file says (`end no-moves pass`, pieces placed from a hand).
    let out = play(
        &["other/reversi", "--black", "human", "--white", "human"],
        "pass\n",
    );
    assert_eq!(
        answers(&out)[0],
        "illegal: you can't pass: a disc can be placed on e6 or f5 or c4 or d3 (a side passes only when it can't place)"
    );
}

#[test]
fn go_on_accepts_a_whole_move_and_commands() {
    // `22` starts two captures: the prompt asks for the next square; the
    // whole move typed then is played as it is.
    let out = play(&CAPTURE, "22\n22x15x24\nresign\n");
    assert!(out.contains("go on: 22x15x6 or 22x15x24"), "{out}");
    assert!(out.contains("1. White: 22x15x24"), "{out}");
    // A command in the middle of a capture is a command.
    let out = play(&CAPTURE, "22\nmoves\n22\n15\n6\nresign\n");
    let a = answers(&out);
    assert_eq!(a[1], "22x22x15x6 22x15x24", "{out}");
    assert!(out.contains("1. White: 22x15x6"), "{out}");
}

#[test]
fn a_name_ending_in_s_takes_an_apostrophe_alone() {
    let out = play(
        &["always-ready", "--white", "human", "--black", "human"],
        "b12-a11\n",
    );
    assert!(
        out.contains("the piece on b12 is Street Kids'; Pioneers to move"),
        "{out}"
    );
}

/// Issue 12, item 14: moves are numbered as players number them, at the
/// prompt (each ply, and `history`) and in `replay`.
#[test]
fn moves_are_numbered_as_players_number_them() {
    let out = play(
        &["draughts", "--black", "greedy", "--seed", "1"],
        "22-18\nhistory\n",
    );
    assert!(out.contains("1. White: 22-18\n"), "{out}");
    assert!(out.contains("1. Black: 11-15\n"), "{out}");
    assert_eq!(answers(&out)[1], "1. 22-18 11-15", "{out}");
    // A game that starts with the side that doesn't open a move.
    let english = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    let out = play(
        &["variants/english", "--position", english, "--seed", "1"],
        "22-18\n11-15\nhistory\n",
    );
    assert!(out.contains("2. Black: 11-15\n"), "{out}");
    assert!(out.contains("> 1. ... 22-18\n2. 11-15\n"), "{out}");
}

/// The "thinking..." line is for a person at a terminal: never in a pipe.
#[test]
fn nothing_says_thinking_in_a_pipe() {
    let args = [
        "play",
        "draughts",
        "--black",
        "mcts",
        "--playouts",
        "50",
        "--seed",
        "1",
    ];
    let (code, out, err) = crate::common::run_input(&args, "22-18\n");
    assert_eq!(code, 0);
    assert!(out.contains("1. Black: "));
    assert_eq!(err, "");
}
