//! The prompt of `play` on a second evening (issue 31): leaving a game
//! with `quit` or `exit`, redo that brings the computer's reply back,
//! race choices that say where they go, suggestions for typos, and less
//! printed per turn.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// Runs `rulebook play ARGS` with `input` typed; the exit code and stdout.
fn play(args: &[&str], input: &str) -> (i32, String) {
    let mut all = vec!["rulebook", "play"];
    all.extend_from_slice(args);
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = rulebook::cli::run(all, &mut input.as_bytes(), &mut out, &mut err);
    (code, String::from_utf8(out).unwrap())
}

/// The lines the prompt answered (those after a prompt), without boards.
fn answers(out: &str) -> Vec<String> {
    out.split("to move> ")
        .skip(1)
        .map(|a| a.lines().next().unwrap_or("").to_string())
        .collect()
}

/// Redo brings back the position before the undo: the computer's reply
/// is the one taken back, not a new choice (a random player would choose
/// again, and differently for some of these seeds).
#[test]
fn redo_brings_back_the_computers_reply() {
    for seed in ["1", "2", "3", "4", "5", "6"] {
        let args = ["draughts", "--black", "random", "--seed", seed];
        let (code, out) = play(&args, "22-18\nhistory\nundo\nredo\nhistory\n");
        assert_eq!(code, 0);
        let a = answers(&out);
        let before = &a[1];
        assert!(before.starts_with("1. 22-18 "), "{out}");
        assert_eq!(a[4], *before, "seed {seed}: {out}");
    }
}
