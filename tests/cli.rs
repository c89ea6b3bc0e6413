//! The command line, called in-process (`common::run_on`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::Run;

fn run(args: &[&str]) -> Run {
    run_with_input(args, "")
}

fn run_with_input(args: &[&str], input: &str) -> Run {
    common::run_on(args, &mut input.as_bytes(), rulebook::cli::Term::default())
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
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
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
    // A usage error (exit 2): the option has no such value.
    let bad = run(&["moves", "draughts", "--option", "kings=slow"]);
    assert_eq!(bad.code, 2);
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
    // A usage error (exit 2): the command line names no game.
    let r = run(&["show", "no-such-game"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("no-such-game"), "{}", r.err);
}

#[test]
fn a_whole_game_typed_at_the_prompt() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let saved = dir.join("saved.jsonl");
    let _ = std::fs::remove_file(&saved);
    let script = format!(
        "help\n22-17\nhello\n1-5\n22\n15\n6\n19x26\nhint\n30x23\n1x10\nundo\nredo\nredo\n\
         23-18\n10-14\nmoves\n18x9\n7-10\n9-5\n10-14\n5-1\n14-17\n1-6\n17-21\n6-2\n21-25\n\
         2-7\n25-29\n7-3\n29\n29-4\nsave {}\n3-8\n4x29\n",
        saved.display()
    );
    let r = run_with_input(
        &[
            "play",
            "draughts",
            "--position",
            "W:W22,23,30:B18,19,10,7,1",
            "--white",
            "human",
            "--black",
            "human",
            "--seed",
            "0",
        ],
        &script,
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let shown = r.out.replace(&saved.display().to_string(), "SAVED");
    insta::assert_snapshot!(shown);
    let record = std::fs::read_to_string(&saved).unwrap();
    assert_eq!(record.lines().count(), 1 + 20, "{record}");
    assert!(record.starts_with(
        "{\"game\":\"draughts\",\"options\":[],\"position\":\"W:W22,23,30:B1,7,10,18,19\",\"seed\":0,\"agents\":[\"human\",\"human\"]}\n"
    ), "{record}");
}

#[test]
fn svg_picture_is_well_formed_and_shows_every_piece() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    for (game, pos, pieces, kings) in [
        ("draughts", "W:W21,22,K5:B1,2", 5, 1),
        ("always-ready", "W:Wa1,c1,Kf2:Bb12,Kl12", 5, 2),
        ("variants/international", "W:W31-50:B1-20", 40, 0),
    ] {
        let file = dir.join("pos.svg");
        let r = run(&[
            "show",
            game,
            "--position",
            pos,
            "--svg",
            file.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{}", r.err);
        let text = std::fs::read_to_string(&file).unwrap();
        let doc = roxmltree::Document::parse(&text).unwrap();
        let circles: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("circle"))
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("piece")))
            .collect();
        assert_eq!(circles.len(), pieces, "{game}");
        let crowned = circles
            .iter()
            .filter(|n| n.attribute("class").is_some_and(|c| c.ends_with(" king")))
            .count();
        assert_eq!(crowned, kings, "{game}");
    }
    // Always Ready marks its neutral squares and its bases.
    let file = dir.join("ar.svg");
    run(&["show", "always-ready", "--svg", file.to_str().unwrap()]);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("zone no-stop").count(), 2);
    assert_eq!(text.matches("zone base").count(), 20);
}

#[test]
fn check_refuses_what_is_not_a_rule_file_in_words() {
    // What can't be read as a rule file is a usage error (exit 2), as for
    // `replay` and `import`.
    let r = run(&["check", "games"]);
    assert_eq!(r.code, 2);
    assert!(
        r.err.contains("it is a directory, not a rule file"),
        "{}",
        r.err
    );
    let r = run(&["check", "/dev/zero"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("not a regular file"), "{}", r.err);
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let big = dir.join("big.rules");
    let line = "zone z = a1 no-stop // padding\n";
    std::fs::write(&big, line.repeat((2 << 20) / line.len())).unwrap();
    let r = run(&["check", big.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.err.contains("a rule file may be at most 1 MiB"),
        "{}",
        r.err
    );
    let latin = dir.join("latin.rules");
    std::fs::write(&latin, b"game \"x\"\n// caf\xe9\n").unwrap();
    let r = run(&["check", latin.to_str().unwrap()]);
    assert!(r.err.contains("line 2 has a byte that is not"), "{}", r.err);
}

#[test]
fn extends_round_in_a_circle_through_dotdot_is_found() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    std::fs::create_dir_all(dir.join("ext")).unwrap();
    let file = dir.join("ext/dd.rules");
    std::fs::write(&file, "extends \"../ext/dd\"\n").unwrap();
    let r = run(&["check", file.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert!(r.err.contains("E022"), "{}", r.err);
    assert!(r.err.len() < 2_000, "{}", r.err);
}

#[test]
fn moves_and_squares_are_read_strictly() {
    for (text, why) in [
        ("22x18x", "`22x18x` is not a move"),
        ("21-17x", "`21-17x` is not a move"),
        ("22--18", "`22--18` is not a move"),
        ("a+5", "`a+5` is not a square"),
    ] {
        let r = run(&["moves", "draughts", "--explain", text]);
        assert!(
            r.out.contains(why) || r.err.contains(why),
            "{text}: {}{}",
            r.out,
            r.err
        );
    }
    let r = run(&["show", "always-ready", "--position", "W:Wa+5:Bd4"]);
    assert_ne!(r.code, 0);
    assert!(r.err.contains("`a+5` is not a square"), "{}", r.err);
    let r = run(&["moves", "draughts", "--explain", "22-18"]);
    assert!(r.out.contains("22-18 is legal"), "{}", r.out);
}

/// Issue 12, item 11: a flag meant for the other kind of game is an error
/// (exit 2) that says what to use, never silently ignored.
#[test]
fn flags_of_the_other_kind_of_game_are_errors() {
    let r = run(&["play", "slow-and-steady", "--white", "random"]);
    assert_eq!(r.code, 2, "{}", r.out);
    assert!(
        r.err.contains("`--white` names a side of a board game")
            && r.err.contains("--seat SEAT=AGENT"),
        "{}",
        r.err
    );
    let r = run(&["play", "slow-and-steady", "--black", "random"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains("`--black`"), "{}", r.err);
    let r = run(&["play", "draughts", "--players", "3"]);
    assert_eq!(r.code, 2, "{}", r.out);
    assert!(
        r.err
            .contains("`--players` sets the number of players of a race game, and `draughts` is a board game with 2 sides"),
        "{}",
        r.err
    );
    let r = run(&["compare", "draughts", "slow-and-steady", "--games", "1"]);
    assert_eq!(r.code, 2, "{}", r.out);
    assert!(
        r.err.contains(
            "`draughts` is a board game and `slow-and-steady` a race game: compare sets two games of the same kind side by side"
        ),
        "{}",
        r.err
    );
}

/// Issue 12, item 7: resigning says who wins, at a board game and at a
/// race game, also before any move.
#[test]
fn resigning_says_who_wins() {
    let r = run_with_input(&["play", "draughts"], "resign\n");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.ends_with("White resigns: Black wins\n"), "{}", r.out);
    let r = run_with_input(
        &["play", "draughts", "--white", "random", "--seed", "1"],
        "resign\n",
    );
    assert!(r.out.ends_with("Black resigns: White wins\n"), "{}", r.out);
    let r = run_with_input(
        &[
            "play",
            "slow-and-steady",
            "--seat",
            "2=random",
            "--seed",
            "5",
        ],
        "resign\n",
    );
    assert!(r.out.ends_with("red resigns: blue wins\n"), "{}", r.out);
}

/// Issue 12, item 11: the exit codes follow one convention (README.md):
/// 2 when the command line is wrong, 1 when what it names fails.
#[test]
fn exit_codes_follow_one_convention() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let bad = dir.join("bad.rules");
    std::fs::write(
        &bad,
        "extends \"draughts\"\npiece king \"King\" letter K {\n  step diagnal\n}\n",
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    for (args, code, says) in [
        (
            vec!["show", "no-such-game"],
            2,
            "no bundled game of that name",
        ),
        (
            vec!["check", "no-such-game"],
            2,
            "no bundled game of that name",
        ),
        (
            vec!["simulate", "no-such-game"],
            2,
            "no bundled game of that name",
        ),
        (
            vec!["show", "draughts", "--option", "no=such"],
            2,
            "the --option values don't fit `draughts`",
        ),
        (
            vec!["simulate", "draughts", "--games", "0"],
            2,
            "a whole number from 1 to",
        ),
        (
            vec!["simulate", "draughts", "--agents", "nobody"],
            2,
            "unknown agent `nobody`",
        ),
        (
            vec!["simulate", "draughts", "--players", "3"],
            2,
            "`--players` sets the number of players of a race game",
        ),
        (
            vec!["simulate", "draughts", "--shard", "2/2"],
            2,
            "needs the form I/N",
        ),
        (vec!["show", bad], 1, "has errors"),
        (vec!["check", bad], 1, "did you mean `diagonal`"),
        (vec!["simulate", bad, "--games", "1"], 1, "has errors"),
    ] {
        let r = run(&args);
        assert_eq!(r.code, code, "{args:?}: {}", r.err);
        assert!(r.err.contains(says), "{args:?}: {}", r.err);
        assert!(r.out.is_empty(), "{args:?}: {}", r.out);
    }
}

/// Issue 12, item 11: a closed pipe (`rulebook list | head -1`) ends the
/// command quietly: exit 0, nothing on stderr, no panic.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::process::{Command, Stdio};
    for args in [
        vec!["list"],
        vec!["rules", "draughts"],
        vec!["show", "draughts"],
        vec!["perft", "draughts", "6", "--divide"],
        vec!["simulate", "draughts", "--games", "20", "--max-plies", "50"],
        vec!["man"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before the first line is written.
        drop(child.stdout.take());
        let done = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

/// Issue 12, item 14: the lab's heading gives each agent the effort it
/// uses (`mcts (30 playouts), random`) and counts in words (`1 game`); the
/// compare footnote explains a mark only when a row has one; a stopped
/// game says `1 ply`.
#[test]
fn the_lab_and_the_game_speak_plainly() {
    let r = run(&[
        "simulate",
        "draughts",
        "--games",
        "1",
        "--agents",
        "mcts,random",
        "--playouts",
        "30",
        "--max-plies",
        "20",
        "--quiet",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(
        r.out.lines().nth(1),
        Some("1 game, agents mcts (30 playouts), random, seed 1"),
        "{}",
        r.out
    );
    let r = run(&[
        "simulate",
        "draughts",
        "--games",
        "2",
        "--agents",
        "random,alphabeta",
        "--depth",
        "1",
        "--playouts",
        "9",
        "--max-plies",
        "10",
        "--quiet",
    ]);
    assert_eq!(
        r.out.lines().nth(1),
        Some("2 games, agents random, alphabeta (depth 1), seed 1"),
        "{}",
        r.out
    );
    // The same game twice: no difference, no mark, no footnote.
    let r = run(&[
        "compare",
        "draughts",
        "draughts",
        "--games",
        "5",
        "--max-plies",
        "10",
        "--quiet",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(!r.out.contains(" *\n"), "{}", r.out);
    assert!(!r.out.contains("significant"), "{}", r.out);
    let r = run(&[
        "play",
        "draughts",
        "--white",
        "random",
        "--black",
        "random",
        "--max-plies",
        "1",
    ]);
    assert!(
        r.out.ends_with("stopped after 1 ply (--max-plies)\n"),
        "{}",
        r.out
    );
}

/// Issue 12, item 12: `show --numbers` puts the square numbers beside the
/// board; the zones have a legend that says what they do, in plain text
/// too; `--ascii` draws letters where a terminal would get glyphs.
#[test]
fn show_numbers_zones_and_ascii() {
    let r = run(&["show", "draughts", "--numbers"]);
    assert_eq!(r.code, 0, "{}", r.err);
    insta::assert_snapshot!("show_numbers", r.out);
    let r = run(&["show", "always-ready"]);
    assert_eq!(r.code, 0, "{}", r.err);
    insta::assert_snapshot!("show_zones_legend", r.out);
    let terminal = rulebook::cli::Term {
        is_terminal: true,
        no_color: true,
        stdin_is_terminal: false,
    };
    let show = |extra: &[&str]| {
        let mut args = vec!["show", "draughts"];
        args.extend_from_slice(extra);
        let r = common::run_on(&args, &mut &b""[..], terminal);
        assert_eq!(r.code, 0);
        r.out
    };
    assert!(show(&[]).contains('\u{26c0}'), "{}", show(&[]));
    let ascii = show(&["--ascii"]);
    assert!(ascii.is_ascii(), "{ascii}");
    assert_eq!(ascii, run(&["show", "draughts"]).out);
    let r = run(&["show", "slow-and-steady", "--numbers"]);
    assert_eq!(r.code, 2, "{}", r.out);
    assert!(
        r.err.contains("`--numbers` numbers the squares of a board"),
        "{}",
        r.err
    );
}

/// Issue 12, item 12: the SVG picture numbers the squares when asked and
/// has a legend of its zones.
#[test]
fn the_svg_board_numbers_squares_and_explains_zones() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let file = dir.join("d.svg");
    let f = file.to_str().unwrap();
    assert_eq!(run(&["show", "draughts", "--svg", f, "--numbers"]).code, 0);
    let svg = std::fs::read_to_string(&file).unwrap();
    assert_eq!(svg.matches("class=\"number\"").count(), 32);
    assert!(svg.contains(">29</text>"), "{svg}");
    assert!(
        !svg.contains("id=\"legend\""),
        "draughts has no zone to explain"
    );
    assert_eq!(run(&["show", "draughts", "--svg", f]).code, 0);
    let svg = std::fs::read_to_string(&file).unwrap();
    assert_eq!(svg.matches("class=\"number\"").count(), 0);
    assert_eq!(run(&["show", "always-ready", "--svg", f]).code, 0);
    let svg = std::fs::read_to_string(&file).unwrap();
    for words in [
        "neutral: no piece may stop there",
        "base of Pioneers: a piece that ends its move on another side's base goes over to that side as a man",
        "base of Street Kids:",
    ] {
        assert!(svg.contains(words), "{words}: {svg}");
    }
}

/// Issue 12, item 12: a person who plays only the second side sees the
/// board from their side; `numbers` at the prompt shows the square numbers.
#[test]
fn the_second_side_sees_the_board_from_its_side() {
    let r = run_with_input(
        &["play", "draughts", "--white", "random", "--seed", "3"],
        "numbers\nresign\n",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let first = r.out.lines().nth(1).unwrap_or("");
    assert_eq!(first.trim_end(), "     h  g  f  e  d  c  b  a", "{}", r.out);
    assert!(r
        .out
        .contains("(drawn turned round: your side at the bottom)"));
    // The numbers board, turned as well: 32 at the top left, 1 at the bottom right.
    let numbers = r.out.find("square numbers").unwrap();
    let rows: Vec<&str> = r.out[numbers..].lines().skip(1).take(8).collect();
    assert!(rows[0].ends_with("32    31    30    29"), "{}", r.out);
    assert!(rows[7].ends_with(" 4     3     2     1"), "{}", r.out);
    // White's player, or two people, see it the usual way round.
    let r = run_with_input(
        &["play", "draughts", "--black", "random", "--seed", "3"],
        "resign\n",
    );
    assert_eq!(
        r.out.lines().nth(1).unwrap_or("").trim_end(),
        "     a  b  c  d  e  f  g  h"
    );
    assert!(!r.out.contains("turned round"));
}

/// Issue 12, item 11: every list of players is the one list of the code
/// (`agents::PLAYERS`): `--help`, the errors, README.md and docs/lab.md;
/// `--help` says a seat not given is a person; every computer agent plays
/// board and race games in `simulate`.
#[test]
fn every_list_of_players_is_the_same_list() {
    let all = rulebook::agents::list(true);
    let computers = rulebook::agents::list(false);
    assert_eq!(all, "human, random, first, greedy, mcts, alphabeta");
    let help = run(&["play", "--help"]).out;
    assert!(help.contains(&all), "{help}");
    assert!(help.contains("not given is a person (human)"), "{help}");
    for cmd in ["simulate", "compare"] {
        let help = run(&[cmd, "--help"]).out;
        assert!(help.contains(&computers), "{cmd}: {help}");
    }
    for args in [
        vec!["play", "draughts", "--white", "nobody"],
        vec!["play", "slow-and-steady", "--seat", "1=nobody"],
        vec!["simulate", "draughts", "--agents", "nobody"],
        vec!["simulate", "slow-and-steady", "--agents", "nobody"],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(
            r.err
                .contains(&format!("unknown agent `nobody`: the players are {all}")),
            "{args:?}: {}",
            r.err
        );
    }
    let r = run(&["simulate", "draughts", "--agents", "human"]);
    assert_eq!(r.code, 2);
    assert!(r.err.contains(&computers), "{}", r.err);
    for doc in ["README.md", "docs/lab.md"] {
        let text =
            std::fs::read_to_string(format!("{}/{doc}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert!(text.contains(&all), "{doc} does not list the players");
    }
    let lab = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/lab.md")).unwrap();
    for name in rulebook::agents::PLAYERS {
        assert!(
            lab.contains(&format!("| `{name}` |")),
            "docs/lab.md has no row for {name}"
        );
    }
    for game in ["draughts", "slow-and-steady"] {
        let r = run(&[
            "simulate",
            game,
            "--games",
            "4",
            "--agents",
            "first",
            "--max-plies",
            "200",
            "--quiet",
        ]);
        assert_eq!(r.code, 0, "{game}: {}", r.err);
        assert!(r.out.contains("agents first, first"), "{}", r.out);
    }
}

/// Issue 12, item 14: `rulebook rules GAME` prints the rules wrapped (at 80
/// columns when piped; the terminal's width on one), with the options; its
/// reader may go away (`| head -1`).
#[test]
fn rules_are_wrapped_and_name_the_options() {
    let r = run(&["rules", "draughts"]);
    assert_eq!(r.code, 0, "{}", r.err);
    insta::assert_snapshot!("rules_draughts", r.out);
    for game in [
        "always-ready",
        "variants/goose",
        "other/ludo",
        "variants/snakes-and-ladders",
    ] {
        let r = run(&["rules", game]);
        assert_eq!(r.code, 0, "{game}: {}", r.err);
        assert!(r.out.lines().count() > 2, "{game}: {}", r.out);
        for line in r.out.lines() {
            assert!(line.chars().count() <= 80, "{game}: {line:?}");
        }
    }
    let r = run(&["rules", "variants/snakes-and-ladders"]);
    assert!(
        r.out
            .contains("options: --option finish-rule=past|exact|bounce"),
        "{}",
        r.out
    );
    let r = run(&["rules", "no-such-game"]);
    assert_eq!(r.code, 2, "{}", r.err);
}
/// Issue 12, item 8: without `--seed`, `play` takes a fresh seed, says it
/// and records it; `--seed` with that number plays the same game again,
/// board and race alike.
#[test]
fn a_game_without_a_seed_takes_a_fresh_one_and_says_it() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    for game in ["draughts", "slow-and-steady"] {
        let record = dir.join(format!("{game}.jsonl"));
        let path = record.to_str().unwrap();
        let args = ["play", game, "--seat", "1=random", "--seat", "2=random"];
        let mut with_record = args.to_vec();
        with_record.extend(["--record", path]);
        let first = run(&with_record);
        assert_eq!(first.code, 0, "{}", first.err);
        let line = first.out.lines().nth(1).unwrap().to_string();
        let seed = line
            .strip_prefix("seed ")
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("no seed line: {line}"));
        assert_eq!(
            line,
            format!("seed {seed} (`--seed {seed}` plays this game again)")
        );
        let header = std::fs::read_to_string(&record).unwrap();
        assert!(
            header
                .lines()
                .next()
                .unwrap()
                .contains(&format!("\"seed\":{seed}")),
            "{header}"
        );
        // The same seed, given: the same game, without the seed line.
        let mut again = args.to_vec();
        again.extend(["--seed", seed]);
        let second = run(&again);
        assert_eq!(second.out, first.out.replacen(&format!("{line}\n"), "", 1));
        // Another run without a seed: another seed (10^9 of them).
        let third = run(&args);
        assert_ne!(third.out.lines().nth(1).unwrap(), line);
    }
}
