//! The house-rule lab: `simulate` and `compare` give the same report for any
//! number of threads, their output for a small seeded run is a reviewed
//! snapshot, and the SVG chart is well-formed XML with one bar per seat.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{ok, run};
use std::path::PathBuf;

/// A path for a file written by a test.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn the_same_seed_gives_the_same_results_whatever_the_jobs() {
    for (game, agents) in [
        ("draughts", "greedy,random"),
        ("always-ready", "mcts,greedy"),
        ("variants/english", "alphabeta,mcts"),
    ] {
        let reports: Vec<(String, String)> = ["1", "2"]
            .iter()
            .map(|jobs| {
                let csv = temp(&format!("{}-{jobs}.csv", game.replace('/', "-")));
                let out = ok(&[
                    "simulate",
                    game,
                    "--games",
                    "12",
                    "--agents",
                    agents,
                    "--playouts",
                    "60",
                    "--depth",
                    "2",
                    "--seed",
                    "7",
                    "--jobs",
                    jobs,
                    "--json",
                    "--quiet",
                    "--csv",
                    csv.to_str().unwrap(),
                ]);
                (out, std::fs::read_to_string(&csv).unwrap())
            })
            .collect();
        assert_eq!(reports[0], reports[1], "{game}");
        assert_eq!(
            reports[0].1.lines().count(),
            13,
            "{game}: a header and 12 games"
        );
    }
}

#[test]
fn simulate_report() {
    let out = ok(&[
        "simulate",
        "draughts",
        "--games",
        "30",
        "--agents",
        "greedy,random",
        "--seed",
        "3",
        "--quiet",
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn compare_report() {
    let out = ok(&[
        "compare",
        "draughts",
        "draughts",
        "--option-b",
        "kings=short",
        "--games",
        "40",
        "--agents",
        "greedy",
        "--seed",
        "3",
        "--quiet",
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn simulate_json_names_every_measure() {
    let out = ok(&[
        "simulate",
        "always-ready",
        "--games",
        "4",
        "--seed",
        "1",
        "--json",
        "--quiet",
    ]);
    for key in [
        "\"seats\":",
        "\"ci95\":",
        "\"draws\":",
        "\"median\":",
        "\"endings\":",
        "\"events_per_game\":",
        "\"balance\":",
        "\"decisiveness\":",
        "\"drawishness\":",
        "\"duration\":",
        "\"lead_changes\":",
        "\"skip_share\":",
    ] {
        assert!(out.contains(key), "{key} missing in {out}");
    }
}

/// The `rect` elements of a class in an SVG file.
fn rects(svg: &str, class: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("class") == Some(class))
        .count()
}

#[test]
fn the_chart_is_well_formed_with_one_bar_per_seat() {
    let svg = temp("one.svg");
    ok(&[
        "simulate",
        "draughts",
        "--games",
        "10",
        "--quiet",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(rects(&text, "seat"), 2);
    assert_eq!(rects(&text, "draws"), 1);
    assert!(rects(&text, "bin") >= 1);

    let svg = temp("two.svg");
    ok(&[
        "compare",
        "draughts",
        "variants/russian",
        "--games",
        "6",
        "--quiet",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(rects(&text, "seat"), 4, "two panels of two seats");
}

#[test]
fn mistakes_are_explained() {
    let (code, _, err) = run(&["simulate", "draughts", "--agents", "greedy,random,mcts"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: --agents names 3 agents but the game has 2 seats: name one per seat, or one for all\n"
    );
    let (code, _, err) = run(&["simulate", "draughts", "--agents", "clever"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "error: unknown agent `clever`: the players are human, random, first, greedy, mcts, alphabeta\n"
    );
}

#[test]
fn csv_rows_are_written_as_games_end() {
    let file = temp("rows.csv");
    ok(&[
        "simulate",
        "variants/english",
        "--games",
        "70",
        "--agents",
        "random",
        "--quiet",
        "--csv",
        file.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 70);
    assert!(lines[0].starts_with("game,index,seed,winner"));
    assert!(
        lines[70].starts_with("variants/english,70,"),
        "{}",
        lines[70]
    );
    // compare: one header, both games' rows.
    ok(&[
        "compare",
        "draughts",
        "variants/russian",
        "--games",
        "5",
        "--agents",
        "random",
        "--quiet",
        "--csv",
        file.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 1 + 10);
    assert_eq!(text.matches("game,index").count(), 1);
}

#[test]
fn race_games_simulate_the_same_whatever_the_jobs() {
    let args = |jobs: &'static str| {
        vec![
            "simulate",
            "slow-and-steady",
            "--games",
            "40",
            "--agents",
            "random",
            "--players",
            "3",
            "--quiet",
            "--json",
            "--jobs",
            jobs,
        ]
    };
    let one = ok(&args("1"));
    assert_eq!(one, ok(&args("2")));
    assert!(one.contains("\"skip"), "{one}");
}

/// Every file a run writes, and its report, byte for byte, for `--jobs 1`,
/// 2 and 3: the threads take a few games at a time, in whatever order they
/// come, and the rows are put back in the order of the games.
#[test]
fn the_files_are_the_same_bytes_whatever_the_jobs() {
    for (game, games, players) in [
        ("slow-and-steady", "400", Some("3")),
        ("variants/goose", "300", None),
        ("draughts", "300", None),
        ("other/breakthrough", "200", None),
    ] {
        let outputs: Vec<Vec<Vec<u8>>> = ["1", "2", "3"]
            .iter()
            .map(|jobs| {
                let name = format!("bytes-{}-{jobs}", game.replace('/', "-"));
                let files = ["csv", "parquet", "svg"].map(|ext| temp(&format!("{name}.{ext}")));
                let mut args = vec![
                    "simulate",
                    game,
                    "--games",
                    games,
                    "--seed",
                    "11",
                    "--jobs",
                    jobs,
                    "--json",
                    "--quiet",
                    "--csv",
                    files[0].to_str().unwrap(),
                    "--parquet",
                    files[1].to_str().unwrap(),
                    "--svg",
                    files[2].to_str().unwrap(),
                ];
                if let Some(p) = players {
                    args.extend(["--players", p]);
                }
                let mut all = vec![ok(&args).into_bytes()];
                all.extend(files.iter().map(|f| std::fs::read(f).unwrap()));
                all
            })
            .collect();
        let rows = String::from_utf8(outputs[0][1].clone()).unwrap();
        assert_eq!(
            rows.lines().count(),
            1 + games.parse::<usize>().unwrap(),
            "{game}: a header and a row a game"
        );
        for (jobs, o) in [(2, &outputs[1]), (3, &outputs[2])] {
            for (what, (a, b)) in ["report", "csv", "parquet", "svg"]
                .iter()
                .zip(outputs[0].iter().zip(o))
            {
                assert!(
                    a == b,
                    "{game}: the {what} of --jobs {jobs} differs from --jobs 1"
                );
            }
        }
    }
}

#[test]
fn greedy_beats_random_at_the_dice_game() {
    // 80 games with greedy in the first seat and 80 in the second (no draws
    // in this game); a one-sided sign test on greedy's wins at p < 0.01 needs
    // at least 96 of the 160 (binomial(160, 1/2): P(X >= 96) = 0.0070).
    let mut wins = 0;
    for agents in ["greedy,random", "random,greedy"] {
        let out = ok(&[
            "simulate",
            "slow-and-steady",
            "--games",
            "80",
            "--agents",
            agents,
            "--quiet",
            "--csv",
            temp(&format!("dice-{agents}.csv")).to_str().unwrap(),
        ]);
        let greedy_seat = if agents.starts_with("greedy") {
            "1"
        } else {
            "2"
        };
        let csv = std::fs::read_to_string(temp(&format!("dice-{agents}.csv"))).unwrap();
        wins += csv
            .lines()
            .skip(1)
            .filter(|l| l.split(',').nth(4) == Some(greedy_seat))
            .count();
        assert!(out.contains("wins"), "{out}");
    }
    assert!(wins >= 96, "greedy won {wins} of 160");
}
