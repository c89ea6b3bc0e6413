//! `merge` refuses shards of runs that differ (every setting that changes
//! the games, and the rules as loaded), damaged shards (an error naming the
//! file, never a panic or a different report), stopped shards and shards of
//! an older rulebook (issue 25, items 7, 8 and 10).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::{Path, PathBuf};

use common::{run, scratch};
use rulebook::format::parquet::{ParquetSink, Settings};
use rulebook::lab::{GameRow, Plan, RowSink, RunInfo, Shard};
use rulebook::rng::Rng;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Plays shard `i/n` of `args` into `dir/name`; returns its path.
fn shard(dir: &Path, name: &str, args: &[&str], i: usize, n: usize) -> PathBuf {
    let file = dir.join(name);
    let part = format!("{i}/{n}");
    let mut all = vec!["simulate"];
    all.extend_from_slice(args);
    all.extend(["--quiet", "--shard", &part, "--parquet", s(&file)]);
    let (code, _, err) = run(&all);
    assert_eq!(code, 0, "{all:?}: {err}");
    file
}

/// `merge FILES`: (exit code, stdout, stderr).
fn merge(files: &[&Path]) -> (i32, String, String) {
    let mut all = vec!["merge"];
    all.extend(files.iter().map(|f| s(f)));
    run(&all)
}

/// Shard 0/2 played with `a`, shard 1/2 with `b`, then merged: the error.
fn mixed(a: &[&str], b: &[&str]) -> String {
    let d = scratch();
    let s0 = shard(d.path(), "s0.parquet", a, 0, 2);
    let s1 = shard(d.path(), "s1.parquet", b, 1, 2);
    let (code, out, err) = merge(&[&s0, &s1]);
    assert_eq!(code, 2, "{a:?} and {b:?} merged: {out}");
    assert!(out.is_empty(), "{out}");
    // The names in the message are the paths given: cut the folder.
    err.replace(&format!("{}/", d.path().display()), "")
}

const BASE: [&str; 6] = ["draughts", "--games", "6", "--seed", "3", "--agents"];

fn with<'a>(agents: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut v = BASE.to_vec();
    v.push(agents);
    v.extend_from_slice(more);
    v
}

#[test]
fn shards_of_different_max_plies_are_refused_naming_both() {
    assert_eq!(
        mixed(
            &with("random", &["--max-plies", "300"]),
            &with("random", &["--max-plies", "200"])
        ),
        "error: s1.parquet is not from the same run as s0.parquet: s1.parquet was played with --max-plies 200, s0.parquet with --max-plies 300\n"
    );
    // The default is recorded as the number it is.
    assert_eq!(
        mixed(
            &with("random", &[]),
            &with("random", &["--max-plies", "999"])
        ),
        "error: s1.parquet is not from the same run as s0.parquet: s1.parquet was played with --max-plies 999, s0.parquet with --max-plies 1000\n"
    );
}

#[test]
fn every_other_setting_that_changes_the_games_is_named() {
    let why = |a: &[&str], b: &[&str]| {
        let err = mixed(a, b);
        let prefix = "error: s1.parquet is not from the same run as s0.parquet: ";
        assert!(err.starts_with(prefix), "{err}");
        err[prefix.len()..].trim_end().to_string()
    };
    let mut seed = with("random", &[]);
    seed[4] = "4";
    assert_eq!(
        why(&with("random", &[]), &seed),
        "s1.parquet was played with --seed 4, s0.parquet with --seed 3"
    );
    let mut games = with("random", &[]);
    games[2] = "8";
    assert_eq!(
        why(&with("random", &[]), &games),
        "s1.parquet was played with --games 8, s0.parquet with --games 6"
    );
    assert_eq!(
        why(&with("random", &[]), &with("first,random", &[])),
        "s1.parquet was played with --agents first,random, s0.parquet with --agents random,random"
    );
    assert_eq!(
        why(
            &with("random", &[]),
            &with("random", &["--option", "kings=short"])
        ),
        "s1.parquet was played with the game `draughts --option kings=short`, s0.parquet with `draughts`"
    );
    assert_eq!(
        why(
            &with("mcts", &["--playouts", "3", "--max-plies", "20"]),
            &with("mcts", &["--playouts", "4", "--max-plies", "20"])
        ),
        "s1.parquet was played with --playouts 4, s0.parquet with --playouts 3"
    );
    assert_eq!(
        why(
            &with("mcts", &["--playouts", "3", "--max-plies", "20"]),
            &with("mcts", &["--max-plies", "20", "--think", "1"])
        ),
        "s1.parquet was played with no --playouts, s0.parquet with --playouts 3"
    );
    assert_eq!(
        why(
            &with("alphabeta", &["--depth", "1", "--max-plies", "20"]),
            &with("alphabeta", &["--depth", "2", "--max-plies", "20"])
        ),
        "s1.parquet was played with --depth 2, s0.parquet with --depth 1"
    );
    // A race game's number of players.
    let race = ["slow-and-steady", "--games", "4", "--seed", "2"];
    let mut three = race.to_vec();
    three.extend(["--players", "3"]);
    let err = mixed(&race, &three);
    assert!(
        err.contains("s1.parquet was played with 3 players (")
            && err.contains("s0.parquet with 2 ("),
        "{err}"
    );
}

#[test]
fn shards_cut_in_different_numbers_are_refused() {
    let d = scratch();
    let args = with("random", &[]);
    let a = shard(d.path(), "a.parquet", &args, 0, 2);
    let b = shard(d.path(), "b.parquet", &args, 1, 3);
    let (code, _, err) = merge(&[&a, &b]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!(
            "error: {b} is not from the same run as {a}: {b} was played with --shard 1/3, {a} with --shard 0/2\n",
            a = s(&a),
            b = s(&b)
        )
    );
}

/// A rule file that extends another, both in `dir`.
fn rules(dir: &Path, comment: &str) -> PathBuf {
    let draughts =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/draughts.rules"))
            .unwrap();
    std::fs::write(
        dir.join("base.rules"),
        format!("{draughts}\n// {comment}\n"),
    )
    .unwrap();
    let house = dir.join("house.rules");
    std::fs::write(
        &house,
        "extends \"base\"\ngame \"House draughts\"\noption kings = flying short\n",
    )
    .unwrap();
    house
}

#[test]
fn shards_of_edited_rules_are_refused_naming_the_file() {
    let d = scratch();
    let house = rules(d.path(), "first");
    let args = ["--games", "6", "--seed", "3"];
    let mut all = vec![s(&house)];
    all.extend(args);
    let s0 = shard(d.path(), "s0.parquet", &all, 0, 2);
    let s1 = shard(d.path(), "s1.parquet", &all, 1, 2);
    // The rules unchanged: the shards merge.
    let (code, _, err) = merge(&[&s0, &s1]);
    assert_eq!(code, 0, "{err}");
    // The file it extends is edited (a comment only) before shard 1 is
    // played again: the text differs, so the rules may.
    rules(d.path(), "second");
    let s1 = shard(d.path(), "s1.parquet", &all, 1, 2);
    let (code, _, err) = merge(&[&s0, &s1]);
    assert_eq!(code, 2);
    let base = d.path().join("base.rules");
    assert_eq!(
        err,
        format!(
            "error: {b} is not from the same run as {a}: {b} was played with other rules than {a}: the text of `{f}` differs (the file was edited between the shards)\n",
            a = s(&s0),
            b = s(&s1),
            f = s(&base)
        )
    );
}

#[test]
fn a_shard_with_no_game_merges_with_the_others() {
    let d = scratch();
    let args = ["draughts", "--games", "3", "--seed", "9"];
    let files: Vec<PathBuf> = (0..4)
        .map(|i| shard(d.path(), &format!("s{i}.parquet"), &args, i, 4))
        .collect();
    let refs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    let (code, merged, err) = merge(&refs);
    assert_eq!(code, 0, "{err}");
    let mut one = vec!["simulate"];
    one.extend(args);
    one.push("--quiet");
    assert_eq!(merged, run(&one).1);
}

/// The plan, run and rows of a small hand-made shard.
fn hand_made(dir: &Path, rows: u64, planned: usize) -> PathBuf {
    let path = dir.join("hand.parquet");
    let plan = Plan {
        games: planned,
        agents: vec!["random".into()],
        seed: 1,
        strength: Default::default(),
        shard: Shard::default(),
    };
    let info = RunInfo {
        label: "g".into(),
        title: "G".into(),
        seats: vec!["A".into(), "B".into()],
        agents: vec!["random".into(), "random".into()],
        event_names: vec!["captures".into()],
        scores: None,
    };
    let settings = Settings {
        max_plies: 100,
        rules: Vec::new(),
    };
    let mut sink = ParquetSink::create(&path, &plan, &settings).unwrap();
    let rows: Vec<GameRow> = (0..rows)
        .map(|g| GameRow {
            index: g,
            seed: rulebook::agents::arena::game_seed(1, g),
            winner: Some((g % 2) as usize),
            reason: "last piece".into(),
            plies: 10 + g as u32,
            events: vec![g as u32],
            lead_changes: 0,
            skips: 0,
            points: None,
        })
        .collect();
    sink.rows(&info, &rows).unwrap();
    sink.close().unwrap();
    path
}

#[test]
fn a_stopped_shard_is_refused_saying_so() {
    let d = scratch();
    let whole = hand_made(d.path(), 5, 5);
    let (code, _, err) = merge(&[&whole]);
    assert_eq!(code, 0, "{err}");
    let stopped = hand_made(d.path(), 3, 5);
    let (code, _, err) = merge(&[&stopped]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!(
            "error: can't read {}: it holds 3 of the 5 games of shard 0/1: its run was stopped; run its shard again\n",
            s(&stopped)
        )
    );
}

/// Replaces `from` by `to` (of the same length) once in `bytes`.
fn patch(bytes: &mut [u8], from: &str, to: &str) {
    assert_eq!(from.len(), to.len());
    let at = bytes
        .windows(from.len())
        .position(|w| w == from.as_bytes())
        .unwrap_or_else(|| panic!("{from} not in the file"));
    bytes[at..at + to.len()].copy_from_slice(to.as_bytes());
}

#[test]
fn a_shard_of_an_older_rulebook_is_refused_with_a_clear_message() {
    let d = scratch();
    let new = shard(d.path(), "new.parquet", &with("random", &[]), 0, 1);
    // What rulebook wrote before the checksums: layout 1, no checksum (its
    // key renamed here, the file otherwise as Parquet readers see it).
    let mut bytes = std::fs::read(&new).unwrap();
    patch(&mut bytes, "\"version\":2", "\"version\":1");
    patch(&mut bytes, "rulebook.check", "rulebook.chXck");
    let old = d.path().join("old.parquet");
    std::fs::write(&old, &bytes).unwrap();
    let (code, _, err) = merge(&[&old]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        format!(
            "error: can't read {}: it was written by an older rulebook, whose shards `merge` can't check (no checksum, no fingerprint of the rules, no --max-plies): run its shard again\n",
            s(&old)
        )
    );
}

/// Flips bit `bit` of byte `at` of `clean` into `path`, or cuts the file
/// to `at` bytes when `bit` is 8.
fn damage(clean: &[u8], path: &Path, at: usize, bit: u8) {
    let mut bytes = clean.to_vec();
    if bit == 8 {
        bytes.truncate(at);
    } else {
        bytes[at] ^= 1 << bit;
    }
    std::fs::write(path, &bytes).unwrap();
}

#[test]
fn any_damage_gives_the_same_report_or_an_error_naming_the_file() {
    let d = scratch();
    let args = with("random", &["--max-plies", "120"]);
    let s0 = shard(d.path(), "s0.parquet", &args, 0, 2);
    let s1 = shard(d.path(), "s1.parquet", &args, 1, 2);
    let (code, clean_report, err) = merge(&[&s0, &s1]);
    assert_eq!(code, 0, "{err}");
    let clean = std::fs::read(&s1).unwrap();
    let hurt = d.path().join("hurt.parquet");
    // Every byte of the file with one bit flipped (the bit turning with the
    // byte), a seeded sample of other bits, and cuts at seeded lengths.
    let mut cases: Vec<(usize, u8)> = (0..clean.len()).map(|i| (i, (i % 8) as u8)).collect();
    let mut rng = Rng::new(25);
    for _ in 0..200 {
        cases.push((rng.below(clean.len() as u64) as usize, rng.below(8) as u8));
    }
    for _ in 0..60 {
        cases.push((rng.below(clean.len() as u64) as usize, 8));
    }
    let (mut same, mut refused, mut caught) = (0, 0, 0);
    for &(at, bit) in &cases {
        damage(&clean, &hurt, at, bit);
        let outcome = std::panic::catch_unwind(|| merge(&[&s0, &hurt]));
        let Ok((code, out, err)) = outcome else {
            panic!("merge panicked: byte {at}, bit {bit} (8: cut there)");
        };
        if code == 0 {
            assert_eq!(
                out, clean_report,
                "a different report: byte {at}, bit {bit} (8: cut there)"
            );
            same += 1;
        } else {
            assert_eq!(code, 2, "byte {at}, bit {bit}: {err}");
            assert!(out.is_empty(), "byte {at}, bit {bit}: {out}");
            assert!(
                err.starts_with(&format!("error: can't read {}: ", s(&hurt))),
                "byte {at}, bit {bit} (8: cut there): {err}"
            );
            refused += 1;
            if err.contains("the Parquet reader failed") {
                caught += 1;
                // The command line says only that: no panic message.
                if caught == 1 {
                    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulebook"))
                        .args(["merge", s(&s0), s(&hurt)])
                        .output()
                        .unwrap();
                    assert_eq!(out.status.code(), Some(2));
                    assert_eq!(String::from_utf8(out.stderr).unwrap(), err);
                }
            }
        }
    }
    eprintln!(
        "{} damaged copies of a {}-byte shard: {same} the same report, {refused} refused ({caught} of them a panic of the Parquet reader, caught)",
        cases.len(),
        clean.len()
    );
    assert_eq!(same + refused, cases.len());
    assert!(refused > cases.len() / 2, "{refused} of {}", cases.len());
}
