//! Issue 11, the hardening of the command line's inputs and outputs: files
//! that are not what they should be (directories, devices, other encodings,
//! records naming arbitrary paths), PDN as other programs write it, line
//! numbers of bad lines, long text in messages, and output paths checked
//! before a run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{run, run_input as run_with_input};
use std::path::PathBuf;

/// A fresh folder of its own for each test.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("rulebook-hardening-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

// ---- Item 6: records and PDN files through the bounded reader ----

#[test]
fn a_directory_or_a_device_is_named_as_such() {
    let dir = folder("dirs");
    for (cmd, what) in [
        (vec!["replay", s(&dir)], "a game record"),
        (vec!["export", s(&dir), "--pdn"], "a game record"),
        (vec!["import", s(&dir)], "a PDN file"),
    ] {
        let (code, _, err) = run(&cmd);
        assert_eq!(code, 2, "{cmd:?}: {err}");
        assert!(
            err.contains(&format!("it is a directory, not {what}")),
            "{cmd:?}: {err}"
        );
    }
    if std::path::Path::new("/dev/zero").exists() {
        for cmd in [
            vec!["replay", "/dev/zero"],
            vec!["export", "/dev/zero", "--pdn"],
            vec!["import", "/dev/zero"],
        ] {
            let (code, _, err) = run(&cmd);
            assert_eq!(code, 2, "{cmd:?}: {err}");
            assert!(err.contains("not a regular file"), "{cmd:?}: {err}");
        }
    }
}

#[test]
fn a_record_that_is_not_utf8_names_its_line() {
    let dir = folder("utf8");
    let file = dir.join("game.jsonl");
    std::fs::write(
        &file,
        b"{\"game\":\"draughts\"}\n{\"player\":\"white\",\"move\":\"22-18\"}\n{\"player\":\"black\",\"move\":\"\xff\"}\n",
    )
    .unwrap();
    let (code, _, err) = run(&["replay", s(&file)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not UTF-8 text: line 3"), "{err}");
}

#[test]
fn an_endless_line_at_the_prompt_is_dropped_and_play_goes_on() {
    let mut input = vec![b'x'; 1 << 20];
    input.extend_from_slice(b"\n\xff\xfe\nresign\n");
    let (code, out, err) = run_with_input(&["play", "draughts"], &input);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("that line is longer than 4096 bytes"),
        "{}",
        &out[..out.len().min(2000)]
    );
    assert!(out.contains("that line is not UTF-8 text"));
    assert!(
        out.contains("resign"),
        "{}",
        &out[out.len().saturating_sub(500)..]
    );
    // The long line is not echoed.
    assert!(out.len() < 10_000, "{} bytes of output", out.len());
}

// ---- Item 8: output paths checked first, the report printed first ----

#[test]
fn a_bad_output_path_stops_simulate_before_the_first_game() {
    let dir = folder("outputs");
    let csv = dir.join("rows.csv");
    let bad = dir.join("no-such-folder").join("chart.svg");
    for cmd in ["simulate", "compare"] {
        let mut args = vec![cmd, "draughts"];
        if cmd == "compare" {
            args.push("draughts");
        }
        args.extend(["--games", "5", "--max-plies", "20", "--quiet"]);
        args.extend(["--csv", s(&csv), "--svg", s(&bad)]);
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(
            err.contains("can't write") && err.contains("chart.svg"),
            "{cmd}: {err}"
        );
        assert!(out.is_empty(), "{cmd}: {out}");
        // No game was played: the CSV file was not even made.
        assert!(!csv.exists(), "{cmd}: the games were played");
    }
    let (code, _, err) = run(&["simulate", "draughts", "--svg", s(&dir), "--quiet"]);
    assert_eq!(code, 2);
    assert!(err.contains("it is a directory"), "{err}");
}

#[test]
fn a_good_output_path_gets_the_chart_after_the_report() {
    let dir = folder("chart");
    let svg = dir.join("chart.svg");
    let args = [
        "simulate",
        "draughts",
        "--games",
        "3",
        "--max-plies",
        "20",
        "--quiet",
        "--svg",
        s(&svg),
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3 games"), "{out}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

// ---- Item 10: the line numbers of bad lines ----

#[test]
fn a_bad_ply_after_blank_lines_is_named_by_its_own_line() {
    let dir = folder("lines");
    let file = dir.join("game.jsonl");
    // Line 1 header, 2 blank, 3 a ply, 4 and 5 blank, 6 an illegal ply.
    std::fs::write(
        &file,
        "{\"game\":\"draughts\"}\n\n{\"player\":\"white\",\"move\":\"22-18\"}\n\n   \n{\"player\":\"black\",\"move\":\"22-17\"}\n",
    )
    .unwrap();
    let (code, _, err) = run(&["replay", s(&file)]);
    assert_eq!(code, 1);
    assert!(err.contains("game.jsonl:6: 22-17 is illegal"), "{err}");
    let (code, _, err) = run(&["export", s(&file), "--pdn"]);
    assert_eq!(code, 1);
    assert!(err.contains("line 6: 22-17 is illegal"), "{err}");
    // A bad start position is named by the header's line.
    std::fs::write(&file, "\n\n{\"game\":\"draughts\",\"position\":\"Q:W1\"}\n").unwrap();
    let (code, _, err) = run(&["replay", s(&file)]);
    assert_eq!(code, 1);
    assert!(err.contains("game.jsonl:3: bad start position"), "{err}");
}

#[test]
fn pdn_errors_name_the_line_of_the_move() {
    let dir = folder("pdn-lines");
    let file = dir.join("game.pdn");
    std::fs::write(
        &file,
        "[GameType \"20\"]\n\n1. 32-28 {a comment\nover two lines (with a parenthesis}\n19-23 ; a comment to the end\n2. 28x19 14x23 3. 99-98\n",
    )
    .unwrap();
    let (code, out, err) = run(&["import", s(&file)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("line 6: 99-98 is illegal"), "{err}");
    assert!(err.contains("the 4 moves before it"), "{err}");
    assert_eq!(out.lines().count(), 5, "{out}");
    // A bad FEN tag is named by its line.
    std::fs::write(
        &file,
        "[GameType \"20\"]\n[Event \"x\"]\n[FEN \"Q:W1\"]\n1. 32-28 *\n",
    )
    .unwrap();
    let (_, _, err) = run(&["import", s(&file)]);
    assert!(err.contains("line 3: bad FEN tag"), "{err}");
}

// ---- Item 12: PDN as other programs write it ----

#[test]
fn pdn_as_other_programs_write_it_is_read() {
    use rulebook::pdn::{decode, parse_first};
    let moves = |text: &str| -> Vec<String> {
        parse_first(text)
            .unwrap()
            .moves
            .into_iter()
            .map(|(_, m)| m)
            .collect()
    };
    // ( and ) inside a comment.
    assert_eq!(
        moves("1. 32-28 {a trap :) (see below} 19-23 2. 28x19 *"),
        ["32-28", "19-23", "28x19"]
    );
    // A comment inside a variation, parentheses in it too.
    assert_eq!(
        moves("1. 32-28 (1. 31-27 {or ) this}) 19-23 *"),
        ["32-28", "19-23"]
    );
    // A byte order mark before the first tag.
    let g = parse_first(&decode(b"\xEF\xBB\xBF[GameType \"20\"]\n1. 32-28 *")).unwrap();
    assert_eq!(g.tag("GameType"), Some("20"));
    // Two tags on one line, and a tag value with an escaped quote.
    let g = parse_first("[Event \"the \\\"final\\\"\"][GameType \"20\"]\n1. 32-28 *").unwrap();
    assert_eq!(g.tag("Event"), Some("the \"final\""));
    assert_eq!(g.tag("GameType"), Some("20"));
    // % escape lines and ; comments are not moves.
    assert_eq!(
        moves("% written by some program 1. 22-18\n1. 32-28 ; 33-29 is a mistake\n19-23 *"),
        ["32-28", "19-23"]
    );
    // Latin-1.
    let g = parse_first(&decode(
        b"[Event \"Caf\xe9\"]\n[GameType \"20\"]\n1. 32-28 *",
    ))
    .unwrap();
    assert_eq!(g.tag("Event"), Some("Café"));
    // Unclosed comment and variation name the line they open on.
    assert_eq!(parse_first("1. 32-28\n{open").unwrap_err().line, 2);
    assert_eq!(parse_first("1. 32-28\n\n(open {x} ").unwrap_err().line, 3);
    assert_eq!(parse_first("1. 32-28 )").unwrap_err().line, 1);
}

#[test]
fn a_latin1_pdn_file_with_a_bom_free_header_imports() {
    let dir = folder("latin1");
    let file = dir.join("old.pdn");
    std::fs::write(
        &file,
        b"[Event \"Championnat de France, \xe9dition 1990\"]\r\n[GameType \"20\"]\r\n\r\n1. 32-28 19-23 2. 28x19 14x23 *\r\n",
    )
    .unwrap();
    let (code, out, err) = run(&["import", s(&file)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 5, "{out}");
    std::fs::write(
        &file,
        b"\xEF\xBB\xBF[GameType \"20\"][Event \"x\"]\n1. 32-28 *\n",
    )
    .unwrap();
    let (code, out, err) = run(&["import", s(&file)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("variants/international"), "{out}");
}

// ---- Item 15 ----

#[test]
fn a_huge_game_type_is_too_large() {
    let dir = folder("gametype");
    let file = dir.join("g.pdn");
    std::fs::write(&file, "[GameType \"99999999999999999999\"]\n1. 32-28 *\n").unwrap();
    let (code, _, err) = run(&["import", s(&file)]);
    assert_eq!(code, 2);
    assert!(err.contains("is too large"), "{err}");
}

#[test]
fn long_text_is_not_echoed_whole() {
    let long = "x".repeat(10 << 20);
    let position = format!("W:W{long}");
    let (code, _, err) = run(&["moves", "draughts", "--position", &position]);
    assert_eq!(code, 2);
    assert!(err.len() < 1000, "{} bytes", err.len());
    assert!(err.contains("more characters"), "{err}");
    let (code, out, _) = run(&["moves", "draughts", "--explain", &long]);
    assert_eq!(code, 1);
    assert!(out.len() < 1000, "{} bytes", out.len());
    let dir = folder("long");
    let file = dir.join("game.jsonl");
    std::fs::write(
        &file,
        format!("{{\"game\":\"draughts\"}}\n{{\"player\":\"white\",\"move\":\"{long}\"}}\n"),
    )
    .unwrap();
    let (code, _, err) = run(&["replay", s(&file)]);
    assert_eq!(code, 1);
    assert!(err.len() < 1000, "{} bytes", err.len());
}

#[test]
fn squares_with_a_sign_and_a_trailing_x_are_not_moves() {
    for text in ["a+5", "22x18x", "+22-18", "22-+18"] {
        let (code, out, _) = run(&["moves", "draughts", "--explain", text]);
        assert_eq!(code, 1, "{text}: {out}");
        assert!(out.contains("is not legal"), "{text}: {out}");
    }
}

#[test]
fn a_record_may_name_a_bundled_game_or_a_rule_file_next_to_it_only() {
    let dir = folder("names");
    let rules = dir.join("house.rules");
    std::fs::write(&rules, "extends \"draughts\"\ngame \"House\"\n").unwrap();
    let ply = "{\"player\":\"white\",\"move\":\"22-18\"}\n";
    for (name, ok) in [
        ("draughts", true),
        ("house.rules", true),
        ("house", true),
        (rules.to_str().unwrap(), true),
        ("/etc/passwd", false),
        ("../names/house.rules", true),
        ("../../../../../../../../etc/passwd", false),
        ("no-such-file", false),
    ] {
        let file = dir.join("game.jsonl");
        let header = serde_json::json!({ "game": name }).to_string();
        std::fs::write(&file, format!("{header}\n{ply}")).unwrap();
        let (code, out, err) = run(&["replay", s(&file)]);
        if ok {
            assert_eq!(code, 0, "{name}: {err}");
        } else {
            assert_eq!(code, 1, "{name}: {out}{err}");
            assert!(
                err.contains("may only name a bundled game") && !err.contains("root:"),
                "{name}: {err}"
            );
        }
        let (code, _, err) = run(&["export", s(&file), "--pdn"]);
        assert_eq!(code == 0, ok, "export {name}: {err}");
    }
    // A record in another folder can't reach the rule file.
    let other = folder("names-other").join("game.jsonl");
    let header = serde_json::json!({ "game": rules.to_str().unwrap() }).to_string();
    std::fs::write(&other, format!("{header}\n{ply}")).unwrap();
    let (code, _, err) = run(&["replay", s(&other)]);
    assert_eq!(code, 1);
    assert!(err.contains("may only name a bundled game"), "{err}");
}
