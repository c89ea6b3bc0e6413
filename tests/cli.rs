//! The command line, called in-process through `rulebook::cli::run`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn run(args: &[&str]) -> Run {
    run_with_input(args, "")
}

fn run_with_input(args: &[&str], input: &str) -> Run {
    let mut all = vec!["rulebook"];
    all.extend_from_slice(args);
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = rulebook::cli::run(all, &mut input.as_bytes(), &mut out, &mut err);
    Run {
        code,
        out: String::from_utf8(out).unwrap(),
        err: String::from_utf8(err).unwrap(),
    }
}

#[test]
fn list_names_every_bundled_game() {
    let r = run(&["list"]);
    assert_eq!(r.code, 0);
    for name in [
        "draughts",
        "always-ready",
        "variants/russian",
        "variants/english",
        "variants/international",
    ] {
        assert!(
            r.out.lines().any(|l| l.starts_with(name)),
            "{name} missing:\n{}",
            r.out
        );
    }
}

#[test]
fn check_bundled_games_pass() {
    let r = run(&[
        "check",
        "draughts",
        "always-ready",
        "games/variants/russian.rules",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.is_empty(), "{}", r.err);
}

#[test]
fn check_fails_with_a_located_diagnostic() {
    let dir = std::env::temp_dir().join("rulebook-cli-test");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.rules");
    std::fs::write(
        &file,
        "extends \"draughts\"\npiece king \"King\" letter K {\n  step diagnal\n}\n",
    )
    .unwrap();
    let r = run(&["check", file.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("bad.rules:3:8"), "{}", r.err);
    assert!(r.err.contains("did you mean `diagonal`"), "{}", r.err);
}

#[test]
fn perft_prints_one_line_per_depth() {
    let r = run(&["perft", "draughts", "3"]);
    assert_eq!(r.out, "perft 1 7\nperft 2 49\nperft 3 302\n");
}

#[test]
fn perft_divide_lists_root_moves() {
    let r = run(&["perft", "variants/english", "2", "--divide"]);
    assert_eq!(r.code, 0);
    assert!(
        r.out.starts_with("9-13 7\n") || r.out.contains("9-13 7\n"),
        "{}",
        r.out
    );
    assert!(r.out.ends_with("perft 1 7\nperft 2 49\n"), "{}", r.out);
}

#[test]
fn perft_from_a_position() {
    let r = run(&[
        "perft",
        "variants/international",
        "3",
        "--position",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    ]);
    assert_eq!(r.out, "perft 1 14\nperft 2 55\nperft 3 1168\n");
}

#[test]
fn moves_json_has_notation_path_captured_result() {
    let r = run(&[
        "moves",
        "draughts",
        "--position",
        "W:W22,23:B18,19,10,7,1",
        "--json",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    insta::assert_snapshot!(r.out, @r#"
    [{"notation":"22x15x6","path":["c3","e5","c7"],"captured":["d4","d6"],"result":"B:W6,23:B1,7,19"},
    {"notation":"22x15x24","path":["c3","e5","g3"],"captured":["d4","f4"],"result":"B:W23,24:B1,7,10"}]
    "#);
}

#[test]
fn moves_accepts_algebraic_positions() {
    let a = run(&[
        "moves",
        "draughts",
        "--position",
        "W:Wc3,e3:Bd4,f4,d6,e7,b8",
    ]);
    let b = run(&["moves", "draughts", "--position", "W:W22,23:B18,19,10,7,1"]);
    assert_eq!(a.out, b.out);
}

#[test]
fn moves_explain_names_the_rule() {
    let r = run(&[
        "moves",
        "draughts",
        "--position",
        "W:W22,23:B18,19,10,7,1",
        "--explain",
        "23x16",
    ]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.out,
        "23x16 is not legal: must take the most pieces: 22x15x6 or 22x15x24 takes 2\n"
    );
    let r = run(&[
        "moves",
        "always-ready",
        "--position",
        "W:Wc3,a1:Bd4,l12",
        "--explain",
        "a1-b2",
    ]);
    assert_eq!(
        r.out,
        "a1-b2 is not legal: a capture is compulsory: c3xe5\n"
    );
}

#[test]
fn bad_position_is_an_error_not_a_panic() {
    for pos in [
        "", "X:W1", "W:W99", "W:Wz9", "W:W1,1", "W:WQ5", "W:W5-1", ":::", "W:B",
    ] {
        let r = run(&["moves", "draughts", "--position", pos]);
        if !pos.ends_with(":B") {
            assert_eq!(r.code, 2, "{pos}: {}", r.out);
            assert!(r.err.starts_with("error: bad position"), "{pos}: {}", r.err);
        }
    }
}

#[test]
fn show_draws_the_board() {
    let r = run(&["show", "draughts"]);
    assert_eq!(r.code, 0);
    insta::assert_snapshot!(r.out);
}

#[test]
fn options_change_the_rules() {
    // With short kings, a king on 29 has one step instead of a long slide.
    let flying = run(&["moves", "draughts", "--position", "W:WK29:B4"]);
    let short = run(&[
        "moves",
        "draughts",
        "--position",
        "W:WK29:B4",
        "--option",
        "kings=short",
    ]);
    assert_eq!(flying.out.lines().count(), 6);
    assert_eq!(short.out, "29-25\n");
    let bad = run(&["moves", "draughts", "--option", "kings=slow"]);
    assert_eq!(bad.code, 1);
    assert!(bad.err.contains("E007"), "{}", bad.err);
}

#[test]
fn random_games_end_and_repeat_with_the_seed() {
    let a = run(&[
        "play", "draughts", "--white", "random", "--black", "random", "--seed", "9",
    ]);
    let b = run(&[
        "play", "draughts", "--white", "random", "--black", "random", "--seed", "9",
    ]);
    assert_eq!(a.code, 0);
    assert!(a.out.contains("result: "), "{}", a.out);
    assert_eq!(a.out, b.out);
}

#[test]
fn a_person_types_moves_with_mistakes() {
    let r = run_with_input(
        &[
            "play",
            "variants/english",
            "--position",
            "W:W22,30:B18",
            "--white",
            "human",
            "--black",
            "random",
        ],
        "22-17\nmoves\n30-26\n22x15\n",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        r.out.contains("illegal: a capture is compulsory: 22x15\n"),
        "{}",
        r.out
    );
    assert!(r.out.contains("> 22x15\n"), "{}", r.out);
    assert!(r.out.contains("result: White won"), "{}", r.out);
}

#[test]
fn unknown_game_is_reported() {
    let r = run(&["show", "no-such-game"]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("no-such-game"), "{}", r.err);
}
