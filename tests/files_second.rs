//! Files and commands, a second evening: `fmt -` pipes standard input to
//! standard output; a file that is neither a game record nor a rule file is
//! named so (exit 2); `check` is coloured when asked or on a terminal
//! (never under `NO_COLOR`) and says `ok, N warnings`; a stopped
//! `simulate` says at once that it is stopping and names the files its
//! rows went to (only when files were asked for).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// Runs the binary with `input` on its standard input; returns (exit
/// code, stdout, stderr).
fn piped(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(text.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The draughts rule file with trailing spaces and a blank line too many:
/// not formatted.
fn unformatted() -> String {
    let text = std::fs::read_to_string(games_dir().join("draughts.rules")).unwrap();
    let mut messy: String = text.lines().map(|l| format!("{l}   \n")).collect();
    messy.insert_str(0, "\n\n");
    messy
}

#[test]
fn fmt_dash_formats_standard_input_to_standard_output() {
    let messy = unformatted();
    let formatted = rulebook::format_rules::format_text(&messy).unwrap();
    assert_ne!(messy, formatted);
    let (code, out, err) = piped(&["fmt", "-"], &messy);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, formatted);
    assert_eq!(err, "");
    // Formatted text comes back as it went in.
    let (code, out, _) = piped(&["fmt", "-"], &formatted);
    assert_eq!(code, Some(0));
    assert_eq!(out, formatted);
    // No file named `-` was written.
    assert!(!Path::new("-").exists());
}

#[test]
fn fmt_dash_check_shows_the_differences_of_standard_input() {
    let (code, out, err) = piped(&["fmt", "--check", "-"], &unformatted());
    assert_eq!(code, Some(1), "{err}");
    assert!(
        out.starts_with("--- <stdin>\n+++ <stdin> (formatted)\n"),
        "{out}"
    );
    let formatted = rulebook::format_rules::format_text(&unformatted()).unwrap();
    let (code, out, err) = piped(&["fmt", "--check", "-"], &formatted);
    assert_eq!((code, out.as_str(), err.as_str()), (Some(0), "", ""));
}

#[test]
fn fmt_dash_with_syntax_errors_writes_nothing_to_standard_output() {
    let (code, out, err) = piped(&["fmt", "-"], "game \"x\" {\n  board 8x8\n");
    assert_eq!(code, Some(1));
    assert_eq!(out, "", "an editor would replace its text with this");
    assert!(err.contains("<stdin>:"), "{err}");
}

#[test]
fn fmt_dash_refuses_what_a_rule_file_may_not_be() {
    let (code, out, err) = crate::common::run_input(&["fmt", "-"], b"game \xff\n");
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert_eq!(
        err,
        "error: can't read standard input: it is not UTF-8 text: line 1 has a byte that is not (save the file as UTF-8)\n"
    );
    let big = vec![b' '; (1 << 20) + 10];
    let (code, _, err) = crate::common::run_input(&["fmt", "-"], &big);
    assert_eq!(code, 2);
    assert!(err.contains("may be at most 1 MiB"), "{err}");
}

fn scratch_file(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_file_that_is_neither_a_record_nor_a_rule_file_is_named_so() {
    let scratch = crate::common::scratch();
    let d = scratch.path();
    let other = scratch_file(d, "x.jsonl", "{\"a\":1}\n{\"b\":2}\n");
    let text = scratch_file(d, "notes.txt", "root:x:0:0:root:/root:/bin/bash\n");
    let record = scratch_file(d, "game.jsonl", "{\"game\":\"draughts\"}\n");
    let rules = games_dir().join("draughts.rules");
    let rules = rules.to_str().unwrap();
    let neither = |f: &str| format!("error: {f} is neither a game record nor a rule file\n");
    // Read as a record.
    for f in [&other, &text] {
        for args in [
            vec!["replay", f.as_str()],
            vec!["export", f.as_str(), "--pdn"],
        ] {
            let (code, out, err) = crate::common::run(&args);
            assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
            assert_eq!(err, neither(f), "{args:?}");
        }
    }
    let (code, _, err) = crate::common::run(&["replay", rules]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!(
            "error: {rules} is a rule file, not a game record: `rulebook play {rules}` plays it\n"
        )
    );
    // Read as a rule file.
    for args in [
        vec!["check", other.as_str()],
        vec!["rules", other.as_str()],
        vec!["show", other.as_str()],
    ] {
        let (code, out, err) = crate::common::run(&args);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert_eq!(err, neither(&other), "{args:?}");
    }
    let (code, _, err) = crate::common::run(&["check", &record]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!("error: {record} is a game record, not a rule file: `rulebook replay {record}` replays it\n")
    );
    // A record whose header is broken is still a record (exit 1, the line named).
    let cut = scratch_file(d, "cut.jsonl", "{\"game\":\"draughts\"\n");
    let (code, _, err) = crate::common::run(&["replay", &cut]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!("error: {cut}:1: not a record header")),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn replay_of_etc_passwd_exits_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args(["replay", "/etc/passwd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: /etc/passwd is neither a game record nor a rule file\n"
    );
}

/// `check` run as a program, with `NO_COLOR` set to `no_color` when given.
fn check_bin(args: &[&str], no_color: Option<&str>) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rulebook"));
    cmd.arg("check").args(args).env_remove("NO_COLOR");
    if let Some(v) = no_color {
        cmd.env("NO_COLOR", v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn check_colours_as_rustc_when_asked_and_never_under_no_color() {
    let scratch = crate::common::scratch();
    let broken = scratch_file(
        scratch.path(),
        "broken.rules",
        &std::fs::read_to_string(games_dir().join("draughts.rules"))
            .unwrap()
            .replace("capture most", "capture mots"),
    );
    let (code, _, plain) = check_bin(&[&broken], None);
    assert_eq!(code, Some(1), "{plain}");
    assert!(
        plain.starts_with("error[") && !plain.contains('\x1b'),
        "{plain}"
    );
    let (code, _, coloured) = check_bin(&["--color", "always", &broken], None);
    assert_eq!(code, Some(1));
    assert!(coloured.starts_with("\x1b[1;31merror["), "{coloured}");
    assert!(coloured.contains("\x1b[1;34m-->\x1b[0m"), "{coloured}");
    assert!(
        coloured.ends_with("\x1b[1;31merror\x1b[0m\x1b[1m: 1 error\x1b[0m\n"),
        "{coloured}"
    );
    // The words are those of the plain report.
    let mut stripped = coloured.clone();
    while let Some(at) = stripped.find('\x1b') {
        let end = stripped[at..].find('m').unwrap();
        stripped.replace_range(at..=at + end, "");
    }
    assert_eq!(stripped, plain);
    // NO_COLOR wins over `--color always`; an empty NO_COLOR is not set.
    let (_, _, no_color) = check_bin(&["--color", "always", &broken], Some("1"));
    assert_eq!(no_color, plain);
    let (_, _, empty) = check_bin(&["--color", "always", &broken], Some(""));
    assert_eq!(empty, coloured);
    let (_, _, never) = check_bin(&["--color", "never", &broken], None);
    assert_eq!(never, plain);
}

#[test]
fn check_says_ok_with_its_warnings_counted() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/errors");
    let unused = fixtures.join("unused-zone.rules");
    let unused = unused.to_str().unwrap();
    let (code, out, err) = crate::common::run(&["check", unused, "draughts"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning[W001]"), "{err}");
    assert_eq!(out, format!("{unused}: ok, 1 warning\ndraughts: ok\n"));
}

#[cfg(unix)]
#[test]
fn a_stopped_run_says_so_at_once_and_names_files_only_when_there_are_any() {
    let child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args([
            "simulate",
            "draughts",
            "--games",
            "100000000",
            "--jobs",
            "1",
            "--quiet",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Time to load the game and start playing.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("stopping ") && lines[0].ends_with("; Ctrl-C again to stop now"),
        "{err}"
    );
    let played: u64 = lines[1]
        .strip_prefix("stopped: ")
        .and_then(|l| l.strip_suffix(" of 100000000 games played"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        report.contains(&format!("\n{played} games, agents random")),
        "{report}"
    );
}
