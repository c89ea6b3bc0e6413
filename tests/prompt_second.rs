//! The prompt of `play` on a second evening (issue 31): leaving a game
//! with `quit` or `exit`, redo that brings the computer's reply back,
//! race choices that say where they go, suggestions for typos, and less
//! printed per turn.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// Runs `rulebook play ARGS` with `input` typed; the exit code and stdout.
fn play(args: &[&str], input: &str) -> (i32, String) {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let (code, out, _) = crate::common::run_input(&all, input);
    (code, out)
}

/// The lines the prompt answered (those after a prompt), without boards.
fn answers(out: &str) -> Vec<String> {
    out.split("to move> ")
        .skip(1)
        .map(|a| a.lines().next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn quit_and_exit_are_in_help_and_leave_a_game_without_moves_at_once() {
    let (code, out) = play(&["draughts", "--black", "human"], "help\nquit\n22-18\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("  quit, exit   leave the game (offered to save it first)\n"),
        "{out}"
    );
    // No move yet: nothing to save, nothing asked; the line after is not read.
    assert!(
        out.ends_with("White to move> game left without saving\n"),
        "{out}"
    );
    let (code, out) = play(&["draughts", "--black", "human"], "EXIT\n");
    assert_eq!(code, 0);
    assert!(out.ends_with("> game left without saving\n"), "{out}");
}

#[test]
fn quit_offers_to_save_a_game_with_moves_and_the_save_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("left.jsonl");
    let name = file.display().to_string();
    let input = format!("22-18\nquit\n{name}\n");
    let (code, out) = play(&["draughts", "--black", "greedy", "--seed", "1"], &input);
    assert_eq!(code, 0);
    let tail: Vec<&str> = out.lines().rev().take(2).collect();
    assert_eq!(
        tail,
        [
            format!("game left; `rulebook play {name}` resumes the game as saved"),
            format!("White to move> save the game before leaving? type a file name, or Enter to leave without saving> saved 2 moves to {name}"),
        ]
    );
    // The file saved is the game: resumed with its two moves.
    let (code, out) = play(&[&name], &format!("save {name}\nquit\n"));
    assert_eq!(code, 0);
    assert!(
        out.contains(&format!("resumed {name}: 2 moves played\n")),
        "{out}"
    );
    // Saved, with no move since: not asked again.
    assert!(
        out.ends_with(&format!(
            "White to move> saved 2 moves to {name}\nWhite to move> game left; `rulebook play {name}` resumes the game as saved\n"
        )),
        "{out}"
    );
    // Enter leaves without saving.
    let (_, out) = play(
        &["draughts", "--black", "greedy", "--seed", "1"],
        "22-18\nexit\n\n",
    );
    assert!(
        out.ends_with("without saving> game left without saving\n"),
        "{out}"
    );
}

#[test]
fn end_of_input_says_how_to_resume_a_saved_game() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.jsonl");
    let name = file.display().to_string();
    let input = format!("22-18\nsave {name}\n");
    let (_, out) = play(&["draughts", "--black", "greedy", "--seed", "1"], &input);
    assert!(
        out.ends_with(&format!(
            "end of input: game abandoned\n`rulebook play {name}` resumes the game as saved\n"
        )),
        "{out}"
    );
    // Not saved: the end of input says only that.
    let (_, out) = play(&["draughts", "--black", "greedy", "--seed", "1"], "22-18\n");
    assert!(out.ends_with("> \nend of input: game abandoned\n"), "{out}");
}

#[test]
fn quit_at_a_race_game_offers_to_save_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("race.jsonl");
    let name = file.display().to_string();
    // Seed 4: red's first roll with a choice is the 14th.
    let args = ["slow-and-steady", "--seat", "2=random", "--seed", "4"];
    let (code, out) = play(&args, &format!("quit\n{name}\n"));
    assert_eq!(code, 0);
    assert!(
        out.ends_with(&format!(
            "> save the game before leaving? type a file name, or Enter to leave without saving> saved 13 turns to {name}\ngame left; `rulebook play {name}` resumes the game as saved\n"
        )),
        "{out}"
    );
    let (code, out) = play(&[&name], "exit\n");
    assert_eq!(code, 0);
    assert!(
        out.contains(&format!("resumed {name}: 13 turns played\n")),
        "{out}"
    );
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

#[test]
fn a_misspelt_command_is_suggested_at_both_prompts() {
    let (_, out) = play(
        &["draughts", "--black", "human"],
        "hepl\nhistroy\nundoo\nyzzy\n",
    );
    assert_eq!(
        answers(&out)[..4],
        [
            "`hepl` is neither a move nor a command: did you mean help?",
            "`histroy` is neither a move nor a command: did you mean history?",
            "`undoo` is neither a move nor a command: did you mean undo?",
            // Nothing close: the old answer.
            "`yzzy` is neither a move nor a command: type help for the commands",
        ]
    );
    let args = ["slow-and-steady", "--seat", "2=random", "--seed", "4"];
    let (_, out) = play(&args, "trakc\n");
    assert!(
        out.contains("[45]> `trakc` is neither a choice nor a command: did you mean track?\n"),
        "{out}"
    );
}

#[test]
fn a_move_in_another_form_is_answered_with_the_form_that_works() {
    let (_, out) = play(&["draughts", "--black", "human"], "22 18\n22.18\n2218\n");
    assert_eq!(
        answers(&out)[..3],
        [
            "`22 18` is not how this game writes a move: write 22-18",
            "`22.18` is not how this game writes a move: write 22-18",
            "`2218` is not how this game writes a move: write 22-18",
        ]
    );
    let (_, out) = play(
        &["always-ready", "--white", "human", "--black", "human"],
        "c1d2\nc1 b2\n",
    );
    assert_eq!(
        answers(&out)[..2],
        [
            "`c1d2` is not how this game writes a move: write c1-d2",
            "`c1 b2` is not how this game writes a move: write c1-b2",
        ]
    );
}

#[test]
fn a_misspelt_game_name_is_suggested() {
    let (code, _, err) = crate::common::run(&["play", "draugts"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: can't load `draugts`: no file `draugts` and no bundled game of that name: did you mean `draughts`? (`rulebook list` shows them)\n"
    );
}

/// Against the computer, one board a turn: the board before each of the
/// person's moves, not again after it (the computer's reply comes first).
#[test]
fn one_board_a_turn_against_the_computer() {
    let boards = |out: &str| out.lines().filter(|l| l.starts_with("     a  b")).count();
    let (_, out) = play(
        &["draughts", "--black", "greedy", "--seed", "1"],
        "22-18\n18x11\n",
    );
    // The start, then one after each of Black's two replies (each board
    // has its letters above and below it).
    assert_eq!(boards(&out), 2 * 3, "{out}");
    let at = out.find("1. White: 22-18\n").unwrap();
    assert!(
        out[at..].starts_with("1. White: 22-18\n1. Black: "),
        "{out}"
    );
    // Two people: a board before each move, as before.
    let (_, out) = play(&["draughts", "--black", "human"], "22-18\n11-15\n");
    assert_eq!(boards(&out), 2 * 3, "{out}");
}

/// The colour of an SGR code as the terminal shows it (xterm's palette):
/// `30`, `97`, `37`, `48;5;N`, `38;5;N`.
fn rgb(code: &str) -> (u8, u8, u8) {
    let cube = |n: u8| if n == 0 { 0 } else { 55 + 40 * n };
    match code {
        "30" => (0, 0, 0),
        "37" => (229, 229, 229),
        "97" => (255, 255, 255),
        _ => {
            let n: u8 = code.rsplit(';').next().unwrap().parse().unwrap();
            assert!((16..232).contains(&n), "{code}");
            let i = n - 16;
            (cube(i / 36), cube(i / 6 % 6), cube(i % 6))
        }
    }
}

/// The contrast ratio of two colours (WCAG 2).
fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let lum = |(r, g, b): (u8, u8, u8)| {
        let lin = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// Both sides' pieces are readable on the dark squares in the default
/// colours: the colours are read from the board drawn, each piece's
/// against its square's, at least 4.5:1.
#[test]
fn pieces_are_readable_on_dark_squares() {
    let checked = rulebook::load::check(&rulebook::cli::FsLoader, "draughts", &[]);
    let t = checked.into_board().expect("a board game");
    let pos = rulebook::board::Position::start(&t);
    let style = rulebook::format::text::board::Style::for_terminal(true, false);
    let text = rulebook::format::text::board::render_styled(&t, &pos, &style);
    let mut pieces = 0;
    for cell in text.split("\x1b[").skip(1) {
        let Some((codes, shown)) = cell.split_once('m') else {
            continue;
        };
        if codes == "0" || !shown.chars().any(|c| "\u{26c0}\u{26c2}".contains(c)) {
            continue;
        }
        let (bg, fg) = codes.rsplit_once(';').unwrap();
        let ratio = contrast(rgb(bg), rgb(fg));
        assert!(ratio >= 4.5, "`{codes}` {shown}: {ratio:.2}");
        pieces += 1;
    }
    // Every piece of the start position was measured.
    assert_eq!(pieces, 24, "{text}");
}
