//! Every JSON output against its JSON Schema in docs/schemas (validated by
//! Python's `jsonschema`, which `.ci/run` installs): `simulate --json`,
//! `merge --json`, `compare --json`, `moves --json`, `moves --explain --json`,
//! `replay --json` of a board and of a race game, and every line of the
//! records `play --record` writes. The schemas forbid fields they don't name, so a field added to
//! the output without the schema fails here too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::ok;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("rulebook-formats-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn schema(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/schemas")
        .join(name)
}

/// Validates each JSON document (one per line when `lines`) of `text`
/// against the schema; panics with jsonschema's message on the first that
/// fails.
fn validate(schema_name: &str, text: &str, lines: bool) {
    let script = r#"
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
text = sys.stdin.read()
docs = [l for l in text.splitlines() if l.strip()] if sys.argv[2] == "lines" else [text]
for i, d in enumerate(docs):
    validator.validate(json.loads(d))
print(len(docs))
"#;
    let mut child = Command::new("python3")
        .args([
            "-c",
            script,
            schema(schema_name).to_str().unwrap(),
            if lines { "lines" } else { "whole" },
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 with jsonschema checks the schemas (.ci/run installs it)");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{schema_name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let n: usize = String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(n >= 1);
}

#[test]
fn simulate_and_merge_follow_their_schema() {
    for args in [
        vec!["simulate", "draughts", "--games", "20", "--json", "--quiet"],
        vec![
            "simulate",
            "variants/goose",
            "--games",
            "10",
            "--players",
            "3",
            "--json",
            "--quiet",
        ],
        // A shard with no game of the run: the report of an empty run.
        vec![
            "simulate", "draughts", "--games", "1", "--shard", "1/2", "--json", "--quiet",
        ],
    ] {
        validate("simulate.schema.json", &ok(&args), false);
    }
    let d = dir();
    let files: Vec<String> = (0..2)
        .map(|i| {
            let f = d.join(format!("shard-{i}.parquet"));
            let shard = format!("{i}/2");
            ok(&[
                "simulate",
                "variants/russian",
                "--games",
                "12",
                "--quiet",
                "--shard",
                &shard,
                "--parquet",
                f.to_str().unwrap(),
            ]);
            f.to_str().unwrap().to_string()
        })
        .collect();
    let mut merge = vec!["merge", "--json"];
    merge.extend(files.iter().map(String::as_str));
    validate("simulate.schema.json", &ok(&merge), false);
}

#[test]
fn compare_follows_its_schema() {
    let out = ok(&[
        "compare",
        "draughts",
        "variants/english",
        "--games",
        "10",
        "--json",
        "--quiet",
    ]);
    validate("compare.schema.json", &out, false);
}

#[test]
fn moves_follow_their_schema() {
    validate(
        "moves.schema.json",
        &ok(&["moves", "draughts", "--json"]),
        false,
    );
    let captures = ok(&[
        "moves",
        "draughts",
        "--json",
        "--position",
        "W:W22,K14:B18,10,11",
    ]);
    assert!(captures.contains("\"captured\":[\""), "{captures}");
    validate("moves.schema.json", &captures, false);
}

#[test]
fn explanations_follow_their_schema() {
    let mut all = String::new();
    for (position, asked) in [
        ("W:W22,K30:B17,9", "22x13"),
        ("W:W22,K30:B18,19", "22-17"),
        ("W:W22,K30:B18,19", "2"),
    ] {
        let argv = [
            "moves",
            "draughts",
            "--position",
            position,
            "--explain",
            asked,
            "--json",
        ];
        all.push_str(&crate::common::run(&argv).1);
    }
    assert_eq!(all.lines().count(), 3, "{all}");
    validate("explain.schema.json", &all, true);
}

#[test]
fn records_and_replays_follow_their_schemas() {
    let d = dir();
    let board = d.join("board.jsonl");
    ok(&[
        "play",
        "draughts",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "3",
        "--record",
        board.to_str().unwrap(),
    ]);
    let race = d.join("race.jsonl");
    ok(&[
        "play",
        "slow-and-steady",
        "--players",
        "3",
        "--seat",
        "1=random",
        "--seat",
        "2=greedy",
        "--seat",
        "3=random",
        "--seed",
        "5",
        "--record",
        race.to_str().unwrap(),
    ]);
    // Resigned games: the header holds the result.
    let board_resigned = d.join("board-resigned.jsonl");
    let race_resigned = d.join("race-resigned.jsonl");
    for (args, file) in [
        (vec!["play", "draughts", "--seed", "1"], &board_resigned),
        (
            vec![
                "play",
                "slow-and-steady",
                "--seat",
                "2=random",
                "--seed",
                "4",
            ],
            &race_resigned,
        ),
    ] {
        let mut argv = args.to_vec();
        argv.extend(["--record", file.to_str().unwrap()]);
        assert_eq!(crate::common::run_input(&argv, "resign\n").0, 0);
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.contains("\"reason\":\"resigned\""), "{text}");
    }
    // An imported PDN game: its tags and set-up position in the header.
    let pdn = d.join("club.pdn");
    std::fs::write(
        &pdn,
        "[Event \"Club\"]\n[White \"Ona\"]\n[GameType \"20\"]\n[SetUp \"1\"]\n[FEN \"W:W31-35:B1-5,18\"]\n[Result \"2-0\"]\n\n1. 32-28 18-22 2-0\n",
    )
    .unwrap();
    let imported = d.join("imported.jsonl");
    ok(&[
        "import",
        pdn.to_str().unwrap(),
        "-o",
        imported.to_str().unwrap(),
    ]);
    for f in [&board, &race, &board_resigned, &race_resigned, &imported] {
        validate(
            "record.schema.json",
            &std::fs::read_to_string(f).unwrap(),
            true,
        );
    }
    assert!(std::fs::read_to_string(&imported)
        .unwrap()
        .contains("\"tags\":[[\"Event\",\"Club\"],[\"White\",\"Ona\"],[\"Result\",\"2-0\"]]"));
    validate(
        "replay-board.schema.json",
        &ok(&["replay", board.to_str().unwrap(), "--json"]),
        true,
    );
    validate(
        "replay-race.schema.json",
        &ok(&["replay", race.to_str().unwrap(), "--json"]),
        true,
    );
}

#[test]
fn a_schema_refuses_what_it_does_not_describe() {
    // The check itself works: a report with a field too many fails.
    let mut out = ok(&["simulate", "draughts", "--games", "3", "--json", "--quiet"]);
    out = out.replacen("{\"game\"", "{\"extra\":1,\"game\"", 1);
    let caught = std::panic::catch_unwind(|| validate("simulate.schema.json", &out, false));
    assert!(caught.is_err());
}
