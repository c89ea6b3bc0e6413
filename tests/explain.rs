//! Why a move is not legal: `moves --explain` answers as a player asks, with
//! the rule that forbids the move, in the notation of the question, and
//! agrees with the prompt of `play` (which completes a unique beginning).
#![allow(clippy::unwrap_used, clippy::expect_used)]

fn run(args: &[&str], input: &str) -> (i32, String) {
    let (code, out, _) = crate::common::run_input(args, input);
    (code, out)
}

/// The answer of `moves draughts --position POS --explain MOVE`.
fn explain(position: &str, asked: &str) -> (i32, String) {
    let (code, out) = run(
        &[
            "moves",
            "draughts",
            "--position",
            position,
            "--explain",
            asked,
        ],
        "",
    );
    (code, out.trim_end().to_string())
}

#[test]
fn a_plain_move_when_a_capture_exists_is_told_that_capturing_is_compulsory() {
    // The only capture takes two pieces: a step is refused because a capture
    // is compulsory, not because of the majority rule.
    let (code, out) = explain("W:W22,K30:B18,19", "22-17");
    assert_eq!(code, 1);
    assert_eq!(out, "22-17 is not legal: a capture is compulsory: 22x15x24");
    let (_, out) = explain("W:WK29:B22,15", "29-18");
    assert!(
        out.ends_with("a capture is compulsory: 29x18x11 or 29x18x8 or 29x18x4"),
        "{out}"
    );
}

#[test]
fn a_shorter_capture_is_told_the_majority_rule() {
    // 22x13 takes one man where 22x15x24 takes two.
    let (_, out) = explain("W:W22,K30:B17,18,19", "22x13");
    assert_eq!(
        out,
        "22x13 is not legal: must take the most pieces: 22x15x24 takes 2"
    );
}

#[test]
fn a_capture_over_an_empty_square_says_there_is_nothing_to_take() {
    let (_, out) = explain("W:W22,K30:B18,19", "22x13");
    assert_eq!(
        out,
        "22x13 is not legal: there is no piece to take on 17; the captures are 22x15x24"
    );
    let (code, out) = run(&["moves", "draughts", "--explain", "22x15"], "");
    assert_eq!(code, 1);
    assert_eq!(
        out.trim_end(),
        "22x15 is not legal: there is no piece to take on 18; the man on 22 can play 22-17 or 22-18"
    );
}

#[test]
fn a_unique_beginning_is_the_move_it_begins_as_at_the_prompt() {
    let (code, out) = explain("W:W22,K30:B17,9", "22x13");
    assert_eq!(code, 0);
    assert_eq!(out, "22x13 is legal: 22x13x6");
    // The prompt plays the same move for the same text.
    let (code, out) = run(
        &[
            "play",
            "draughts",
            "--position",
            "W:W22,K30:B17,9",
            "--white",
            "human",
            "--black",
            "random",
            "--seed",
            "1",
        ],
        "22x13\nresign\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("22x13x6"), "{out}");
}

#[test]
fn an_algebraic_question_gets_an_algebraic_answer() {
    let (_, out) = explain("W:W22,K30:B18,19", "c3-b4");
    assert_eq!(out, "c3-b4 is not legal: a capture is compulsory: c3xe5xg3");
    let (_, out) = explain("W:W22,K30:B18,19", "c3xe5");
    assert_eq!(out, "c3xe5 is legal: c3xe5xg3");
    let (code, out) = run(&["moves", "draughts", "--explain", "c3-d4"], "");
    assert_eq!((code, out.trim_end()), (0, "c3-d4 is legal"));
}

#[test]
fn a_blocked_king_names_the_blocker() {
    let (_, out) = explain("W:WK29,22:B1", "29-15");
    assert_eq!(
        out,
        "29-15 is not legal: the way from 29 to 15 is blocked by the White man on 22: the king on 29 can play 29-25"
    );
}

#[test]
fn trailing_junk_is_not_a_move() {
    let (code, out) = run(&["moves", "draughts", "--explain", "21-17x"], "");
    assert_eq!(code, 1);
    assert!(out.contains("`21-17x` is not a move"), "{out}");
}

#[test]
fn json_applies_to_explain() {
    let (code, out) = run(
        &[
            "moves",
            "draughts",
            "--position",
            "W:W22,K30:B17,9",
            "--explain",
            "22x13",
            "--json",
        ],
        "",
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["legal"], true);
    assert_eq!(v["notation"], "22x13x6");
    let (code, out) = run(&["moves", "draughts", "--explain", "22x15", "--json"], "");
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["legal"], false);
    assert_eq!(
        v["reason"],
        "there is no piece to take on 18; the man on 22 can play 22-17 or 22-18"
    );
}
