//! The points of a race game with score rules in the lab's per-game rows:
//! `--csv` and `--parquet` carry each game's points and named score (and
//! only for such a game: every other game's rows are unchanged), and a run
//! merged from its shards prints the points section of the single run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{ok, path_arg, scratch, shards};
use std::path::Path;

/// The lines of a text report from its `points` heading to the blank line
/// after it.
fn points_section(report: &str) -> String {
    report
        .lines()
        .skip_while(|l| !l.starts_with("points "))
        .take_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

const BACKGAMMON: [&str; 6] = [
    "simulate",
    "other/backgammon",
    "--games",
    "60",
    "--seed",
    "4",
];

#[test]
fn merged_shards_give_the_points_of_the_whole_run() {
    let d = scratch();
    let mut text = BACKGAMMON.to_vec();
    text.push("--quiet");
    let single_text = ok(&text);
    let mut json = text.clone();
    json.push("--json");
    let single_json = ok(&json);
    let section = points_section(&single_text);
    assert!(
        section.contains("a gammon (2 points)") && section.contains("mean points a game"),
        "{single_text}"
    );

    let files = shards(d.path(), &BACKGAMMON, 3);
    let mut merge = vec!["merge"];
    merge.extend(files.iter().map(|f| path_arg(f)));
    let merged_text = ok(&merge);
    assert_eq!(points_section(&merged_text), section);
    assert_eq!(merged_text, single_text);
    merge.push("--json");
    let merged_json = ok(&merge);
    assert_eq!(merged_json, single_json);
    let v: serde_json::Value = serde_json::from_str(merged_json.trim()).unwrap();
    assert!(v["points"]["scores"]
        .as_array()
        .is_some_and(|a| !a.is_empty()));
}

/// The CSV rows of a run: its header and its records.
fn csv_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect());
    let head = lines.next().unwrap();
    (head, lines.collect())
}

#[test]
fn csv_rows_carry_each_games_points_and_score() {
    let d = scratch();
    let csv = d.path().join("rows.csv");
    let mut args = BACKGAMMON.to_vec();
    args.extend(["--quiet", "--json", "--csv", path_arg(&csv)]);
    let report: serde_json::Value = serde_json::from_str(ok(&args).trim()).unwrap();
    let (head, rows) = csv_rows(&csv);
    let n = head.len();
    assert_eq!(head[n - 2..], ["points", "score"], "{head:?}");
    assert_eq!(rows.len(), 60);
    // The points each side won, and the games of each score, from the rows.
    let seats = report["seats"].as_array().unwrap();
    let mut by_side = vec![0u64; seats.len()];
    let mut games_of: std::collections::BTreeMap<u64, u64> = Default::default();
    let scores = report["points"]["scores"].as_array().unwrap();
    for r in &rows {
        assert_eq!(r.len(), n, "{r:?}");
        let (points, score) = (&r[n - 2], &r[n - 1]);
        if r[3] == "draw" {
            assert!(points.is_empty() && score.is_empty(), "{r:?}");
            continue;
        }
        let p: u64 = points.parse().unwrap();
        let seat: usize = r[4].parse().unwrap();
        by_side[seat - 1] += p;
        *games_of.entry(p).or_default() += 1;
        // The score named as the report names it (empty when unnamed).
        let named = scores
            .iter()
            .find(|s| s["points"].as_u64() == Some(p))
            .and_then(|s| s["name"].as_str())
            .unwrap_or("");
        assert_eq!(score, named, "{r:?}");
    }
    for (i, seat) in seats.iter().enumerate() {
        let side = seat["side"].as_str().unwrap();
        assert_eq!(
            report["points"]["by_seat"][side].as_u64(),
            Some(by_side[i]),
            "{side}"
        );
    }
    for sc in scores {
        let p = sc["points"].as_u64().unwrap();
        assert_eq!(
            games_of.get(&p).copied(),
            sc["games"]["count"].as_u64(),
            "{sc}"
        );
    }
    assert!(rows.iter().any(|r| r[n - 1] == "a gammon") || games_of.len() == 1);
}

/// The columns of a Parquet file: name, physical type, nullable.
fn parquet_columns(path: &Path) -> Vec<(String, String, bool)> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema().clone();
    schema
        .get_fields()
        .iter()
        .map(|f| {
            let info = f.get_basic_info();
            (
                f.name().to_string(),
                format!("{:?}", f.get_physical_type()),
                info.repetition() == parquet::basic::Repetition::OPTIONAL,
            )
        })
        .collect()
}

/// The run's JSON under `rulebook.run` in a Parquet file.
fn parquet_run(path: &Path) -> serde_json::Value {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let kv = reader
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .unwrap();
    let text = kv
        .iter()
        .find(|k| k.key == "rulebook.run")
        .and_then(|k| k.value.clone())
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn parquet_rows_carry_points_only_for_a_game_that_scores() {
    let d = scratch();
    let scored = d.path().join("bg.parquet");
    let mut args = BACKGAMMON.to_vec();
    args.extend(["--quiet", "--parquet", path_arg(&scored)]);
    ok(&args);
    let cols = parquet_columns(&scored);
    let n = cols.len();
    assert_eq!(
        cols[n - 2..],
        [
            ("points".to_string(), "INT32".to_string(), true),
            ("score".to_string(), "BYTE_ARRAY".to_string(), true),
        ]
    );
    let run = parquet_run(&scored);
    assert_eq!(run["version"], 3);
    let named = run["run"]["scores"].as_array().unwrap();
    assert!(named.contains(&serde_json::json!([2, "a gammon"])), "{run}");

    // A race game and a board game without score rules: no such columns,
    // the layout and run of before.
    for game in ["slow-and-steady", "draughts"] {
        let plain = d.path().join(format!("{game}.parquet"));
        let csv = d.path().join(format!("{game}.csv"));
        ok(&[
            "simulate",
            game,
            "--games",
            "4",
            "--quiet",
            "--parquet",
            path_arg(&plain),
            "--csv",
            path_arg(&csv),
        ]);
        let cols = parquet_columns(&plain);
        assert!(
            cols.iter().all(|c| c.0 != "points" && c.0 != "score"),
            "{cols:?}"
        );
        let run = parquet_run(&plain);
        assert_eq!(run["version"], 2);
        assert!(run["run"].get("scores").is_none(), "{run}");
        let (head, _) = csv_rows(&csv);
        assert!(
            head.iter().all(|c| c != "points" && c != "score"),
            "{head:?}"
        );
    }
}

/// The `duckdb -c "..."` query of docs/lab.md over the points.
fn points_query_of_the_docs() -> String {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/lab.md")).unwrap();
    let start = doc
        .find("duckdb -c \"")
        .expect("docs/lab.md has a points query")
        + 11;
    let len = doc[start..].find('"').unwrap();
    let sql = doc[start..start + len].replace('\\', " ");
    assert!(sql.contains("score"), "{sql}");
    sql
}

#[test]
fn duckdb_counts_the_scores_as_merge_does() {
    let d = scratch();
    let files = shards(d.path(), &BACKGAMMON, 2);
    let mut merge = vec!["merge", "--json"];
    merge.extend(files.iter().map(|f| path_arg(f)));
    let report: serde_json::Value = serde_json::from_str(ok(&merge).trim()).unwrap();
    let script = r#"
import json, sys
import duckdb
rows = duckdb.sql(sys.stdin.read()).fetchall()
print(json.dumps([[v if isinstance(v, (int, float, str)) or v is None else float(v) for v in r] for r in rows]))
"#;
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .current_dir(d.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs the DuckDB query: .ci/run installs it with DuckDB");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(points_query_of_the_docs().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "DuckDB failed (`pip install duckdb`, as .ci/run does): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Vec<serde_json::Value>> = serde_json::from_slice(&out.stdout).unwrap();
    let scores = report["points"]["scores"].as_array().unwrap();
    // One row per score (points, name, games, share), fewest points first.
    assert_eq!(rows.len(), scores.len(), "{rows:?}");
    for (r, sc) in rows.iter().zip(scores) {
        assert_eq!(r[0], sc["points"]);
        assert_eq!(
            r[1].as_str().unwrap_or(""),
            sc["name"].as_str().unwrap_or("")
        );
        assert_eq!(r[2], sc["games"]["count"]);
    }
}

/// The distance from cell `cA` to cell `cB` of Parcheesi's loop of 68
/// cells, when both are loop cells.
fn loop_distance(from: &str, to: &str) -> Option<u32> {
    let a: u32 = from.strip_prefix('c')?.parse().ok()?;
    let b: u32 = to.strip_prefix('c')?.parse().ok()?;
    Some((b + 68 - a) % 68)
}

/// Parcheesi's bonus moves (`bonus 20 after capture`, `bonus 10 after
/// home`) are told as bonuses in `replay --json` of a recorded game: each
/// follows a capture or a piece brought home in its turn and moves as far
/// as that bonus; a move told plainly is one die's.
#[test]
fn replays_tell_the_bonus_moves_as_bonuses() {
    let mut told = [0; 2];
    for seed in ["4", "11"] {
        let record = crate::race::recorded_and_replayed("other/parcheesi", seed);
        let d = scratch();
        let file = d.path().join("game.jsonl");
        std::fs::write(&file, record).unwrap();
        for line in ok(&["replay", path_arg(&file), "--json"]).lines() {
            let turn: serde_json::Value = serde_json::from_str(line).unwrap();
            let Some(events) = turn["events"].as_array() else {
                continue;
            };
            // The bonuses earned so far in the turn: (distance, what for).
            let mut earned: Vec<(u32, &str)> = Vec::new();
            for e in events.iter().filter_map(|e| e.as_str()) {
                let words: Vec<&str> = e.split(' ').collect();
                if e.contains(" taken: ") {
                    earned.push((20, "a capture"));
                } else if e == "bears off: finished" {
                    earned.push((10, "bringing a piece home"));
                } else if let Some(why) = e.split(" as the bonus for ").nth(1) {
                    // moves N from A to B as the bonus for WHY
                    let n: u32 = words[1].parse().unwrap();
                    let at = earned
                        .iter()
                        .position(|&(m, w)| m == n && w == why)
                        .unwrap_or_else(|| panic!("{e:?} earned by nothing before it: {line}"));
                    earned.remove(at);
                    if let Some(dist) = loop_distance(words[3], words[5]) {
                        assert_eq!(dist, n, "{e:?}");
                    }
                    told[usize::from(n == 10)] += 1;
                } else if words.first() == Some(&"moves") && words.len() == 5 {
                    // moves from A to B: a die's move.
                    if let Some(dist) = loop_distance(words[2], words[4]) {
                        assert!(dist <= 6, "a move of {dist} told as a die's: {e:?}");
                    }
                }
            }
        }
    }
    assert!(
        told[0] > 0 && told[1] > 0,
        "bonuses for captures and for pieces home: {told:?}"
    );
}
