//! The lab beyond one machine: shards of a run merged give the single run's
//! report byte for byte; `merge` refuses incomplete or foreign shards;
//! DuckDB's figures over the Parquet files (the queries of docs/lab.md)
//! agree with `merge`; an interrupted run keeps every row it wrote; memory
//! stays flat with the number of games.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{ok, path_arg, run, shards};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory for the files of one test.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rulebook-lab-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn merged_shards_are_the_single_run_byte_for_byte() {
    let d = dir("identical");
    let run_args = ["simulate", "draughts", "--games", "400", "--seed", "5"];
    let one_svg = d.join("one.svg");
    let mut one = run_args.to_vec();
    one.extend(["--quiet", "--json", "--svg", path_arg(&one_svg)]);
    let single_json = ok(&one);
    let mut text = run_args.to_vec();
    text.push("--quiet");
    let single_text = ok(&text);

    let files = shards(&d, &run_args, 4);
    let names: Vec<&str> = files.iter().map(|f| path_arg(f)).collect();
    let merged_svg = d.join("merged.svg");
    let mut merge = vec!["merge"];
    merge.extend(&names);
    let mut merge_json = merge.clone();
    merge_json.extend(["--json", "--svg", path_arg(&merged_svg)]);
    assert_eq!(ok(&merge_json), single_json);
    assert_eq!(ok(&merge), single_text);
    assert_eq!(
        std::fs::read(&merged_svg).unwrap(),
        std::fs::read(&one_svg).unwrap()
    );
    // The files in any order.
    let mut reversed = vec!["merge", "--json"];
    reversed.extend(names.iter().rev());
    assert_eq!(ok(&reversed), single_json);
}

#[test]
fn a_race_game_with_agents_merges_too() {
    let d = dir("race");
    let run_args = [
        "simulate",
        "slow-and-steady",
        "--games",
        "90",
        "--seed",
        "2",
        "--agents",
        "greedy,random",
        "--players",
        "2",
    ];
    let mut one = run_args.to_vec();
    one.extend(["--quiet", "--json"]);
    let single = ok(&one);
    let files = shards(&d, &run_args, 3);
    let mut merge = vec!["merge", "--json"];
    merge.extend(files.iter().map(|f| path_arg(f)));
    assert_eq!(ok(&merge), single);
}

#[test]
fn merge_refuses_a_missing_a_doubled_or_a_foreign_shard() {
    let d = dir("refuse");
    let run_args = ["simulate", "draughts", "--games", "30", "--seed", "1"];
    let files = shards(&d, &run_args, 3);
    let (code, _, err) = run(&["merge", path_arg(&files[0]), path_arg(&files[2])]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: game 2 of the run is in none of the files: give every shard\n"
    );
    let (code, _, err) = run(&[
        "merge",
        path_arg(&files[0]),
        path_arg(&files[1]),
        path_arg(&files[2]),
        path_arg(&files[1]),
    ]);
    assert_eq!(code, 2);
    assert_eq!(err, "error: game 2 of the run is in more than one file\n");
    let other = d.join("other.parquet");
    ok(&[
        "simulate",
        "draughts",
        "--games",
        "30",
        "--seed",
        "2",
        "--quiet",
        "--shard",
        "1/3",
        "--parquet",
        path_arg(&other),
    ]);
    let (code, _, err) = run(&[
        "merge",
        path_arg(&files[0]),
        path_arg(&other),
        path_arg(&files[2]),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("is not from the same run as"), "{err}");
    let junk = d.join("junk.parquet");
    std::fs::write(&junk, "not parquet").unwrap();
    let (code, _, err) = run(&["merge", path_arg(&junk)]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!("error: can't read {}", path_arg(&junk))),
        "{err}"
    );
    assert!(run(&["simulate", "draughts", "--shard", "4/4"])
        .2
        .contains("I/N"));
}

/// The ```sql blocks of docs/lab.md.
fn sql_of_the_docs() -> String {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/lab.md")).unwrap();
    let mut sql = String::new();
    let mut inside = false;
    for line in doc.lines() {
        if line.trim_start().starts_with("```sql") {
            inside = true;
        } else if inside && line.trim_start().starts_with("```") {
            inside = false;
        } else if inside {
            sql.push_str(line);
            sql.push('\n');
        }
    }
    assert!(sql.contains("read_parquet('shard-*.parquet')"), "{sql}");
    sql
}

/// Runs each statement of `sql` with DuckDB's Python package in `dir`;
/// returns each statement's rows as JSON arrays. DuckDB must be there:
/// `.ci/run` installs it.
fn duckdb(dir: &Path, sql: &str) -> Vec<Vec<Vec<serde_json::Value>>> {
    let script = r#"
import json, sys
import duckdb
out = []
for stmt in sys.stdin.read().split(";"):
    if stmt.strip():
        rows = duckdb.sql(stmt).fetchall()
        out.append([[v if isinstance(v, (int, float, str)) or v is None else float(v) for v in r] for r in rows])
print(json.dumps(out))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs the DuckDB queries: .ci/run installs it with DuckDB");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(sql.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "DuckDB failed (is it installed? `pip install duckdb`, as .ci/run does): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn close(a: &serde_json::Value, b: f64) -> bool {
    (a.as_f64().unwrap() - b).abs() < 1e-6
}

#[test]
fn duckdb_over_the_shards_agrees_with_merge() {
    let d = dir("duckdb");
    let run_args = [
        "simulate",
        "variants/english",
        "--games",
        "300",
        "--seed",
        "9",
    ];
    let files = shards(&d, &run_args, 4);
    let mut merge = vec!["merge", "--json"];
    merge.extend(files.iter().map(|f| path_arg(f)));
    let report: serde_json::Value = serde_json::from_str(&ok(&merge)).unwrap();
    let results = duckdb(&d, &sql_of_the_docs());
    assert_eq!(results.len(), 2);

    // Win shares: one row per winner (a side or `draw`).
    let by_winner = &results[0];
    let games = report["games"].as_u64().unwrap();
    let mut counted = 0;
    let mut sides = report["seats"].as_array().unwrap().clone();
    sides.push(serde_json::json!({"side": "draw", "wins": report["draws"]}));
    for seat in &sides {
        let side = seat["side"].as_str().unwrap();
        let count = seat["wins"]["count"].as_u64().unwrap();
        match by_winner.iter().find(|r| r[0] == side) {
            Some(r) => {
                assert_eq!(r[1].as_u64().unwrap(), count, "{side}");
                assert!(
                    close(&r[2], seat["wins"]["share"].as_f64().unwrap()),
                    "{side}"
                );
            }
            None => assert_eq!(count, 0, "{side}"),
        }
        counted += count;
    }
    assert_eq!(counted, games);

    // Game lengths.
    let l = &results[1][0];
    let length = &report["length"];
    assert_eq!(l[0].as_u64().unwrap(), games);
    assert!(close(&l[1], length["mean"].as_f64().unwrap()), "{l:?}");
    assert!(close(&l[2], length["median"].as_f64().unwrap()), "{l:?}");
    assert!(l[3].as_f64().unwrap() >= l[2].as_f64().unwrap());
    assert_eq!(l[4].as_u64().unwrap(), length["min"].as_u64().unwrap());
    assert_eq!(l[5].as_u64().unwrap(), length["max"].as_u64().unwrap());
}

#[cfg(unix)]
#[test]
fn an_interrupted_run_keeps_every_row_it_wrote() {
    let d = dir("interrupted");
    let csv = d.join("rows.csv");
    let parquet = d.join("rows.parquet");
    let child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args([
            "simulate",
            "draughts",
            "--games",
            "100000000",
            "--jobs",
            "1",
            "--quiet",
            "--csv",
            path_arg(&csv),
            "--parquet",
            path_arg(&parquet),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first block's rows, then interrupt as Ctrl-C does.
    let begin = std::time::Instant::now();
    while std::fs::read_to_string(&csv)
        .map(|t| t.lines().count())
        .unwrap_or(0)
        < 65
    {
        assert!(begin.elapsed().as_secs() < 120, "no rows written");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8(out.stderr).unwrap();
    let csv_rows = std::fs::read_to_string(&csv).unwrap().lines().count() - 1;
    assert!(csv_rows >= 64 && csv_rows.is_multiple_of(64), "{csv_rows}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("stopping after the current block of ")
            && lines[0].ends_with(" games; Ctrl-C again to stop now"),
        "{err}"
    );
    assert_eq!(
        lines[1],
        format!(
            "stopped: {csv_rows} of 100000000 games played; their rows are in {} and {}",
            path_arg(&csv),
            path_arg(&parquet)
        )
    );
    let file = rulebook::format::parquet::ShardFile::open(&parquet).unwrap();
    let indices: Vec<u64> = file.rows().map(|r| r.unwrap().index).collect();
    assert_eq!(indices, (0..csv_rows as u64).collect::<Vec<_>>());
    // The report printed is that of the games played.
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(
        report.contains(&format!("\n{csv_rows} games, agents random")),
        "{report}"
    );
}

/// The peak memory (KiB) of the command line run as a child, read with
/// getrusage by Python (which the DuckDB test needs anyway).
fn peak_kib(args: &[&str]) -> u64 {
    let script = "import resource, subprocess, sys\nsubprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)\nprint(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)";
    let mut argv = vec!["-c", script, env!("CARGO_BIN_EXE_rulebook")];
    argv.extend_from_slice(args);
    let out = Command::new("python3").args(&argv).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn memory_stays_flat_with_the_number_of_games() {
    let d = dir("memory");
    let csv = d.join("rows.csv");
    let game = |n: &'static str| {
        [
            "simulate",
            "variants/snakes-and-ladders",
            "--games",
            n,
            "--jobs",
            "1",
            "--quiet",
            "--csv",
            path_arg(&csv),
        ]
        .map(str::to_string)
    };
    let small: Vec<String> = game("10000").to_vec();
    let large: Vec<String> = game("600000").to_vec();
    let a = peak_kib(&small.iter().map(String::as_str).collect::<Vec<_>>());
    let b = peak_kib(&large.iter().map(String::as_str).collect::<Vec<_>>());
    // 590000 more games kept in memory would take over 45 MiB (a row is
    // some 80 bytes); streamed, the peak moves by at most the rows of one
    // block (twice: a thread's and the block's, while they are put in
    // order), whose size follows the speed of the machine, up to
    // `MAX_BLOCK` games (65536): a fast machine peaks 5-7 MiB higher at
    // 600000 games than at 10000.
    assert!(b < a + 16384, "{a} KiB for 10000 games, {b} KiB for 600000");
}
