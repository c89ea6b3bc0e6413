//! Columns (`capture stacks`): a jumped piece goes under the jumper, only a
//! column's top piece is taken, the column moves as one and belongs to its
//! top piece; on the bundled Lasca and Bashni. Their perft from the start
//! and from positions of seeded random games (with columns of two pieces or
//! more) against a program written for the test from the rules alone
//! (tests/independent/lasca.py, Python's standard library, sharing no code
//! with ours); no published perft table of either game was found. Also:
//! position strings with columns, the hash of a position covering its
//! columns, the kernels refusing a column game, a record replayed, the
//! computer players, and every new diagnostic of `check` as a snapshot.
//! The scripted games of each rule are in tests/fixtures/scripts (`la-*`,
//! `ba-*`), the seeded random games in `games::random_games`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

use crate::common;

use rulebook::board::game::Sq;
use rulebook::board::{Match, Perft, Position, Tables};
use rulebook::load::{check_source, BundledLoader, Source};

/// The counts of tests/independent/lasca.py for depths 1 to `depth`, or
/// None when there is no python3 (said on stderr).
fn independent(game: &str, depth: usize, fen: &str) -> Option<Vec<u64>> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/independent/lasca.py");
    let out = match Command::new("python3")
        .arg(script)
        .args(["perft", game, &depth.to_string(), fen])
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipped: python3 is missing ({e}), so the independent perft can't run");
            return None;
        }
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

fn ours(t: &Tables, pos: &Position, depth: usize) -> Vec<u64> {
    let mut perft = Perft::new(t, depth);
    (1..=depth).map(|d| perft.count(pos, d)).collect()
}

/// The highest column of a position.
fn highest(t: &Tables, pos: &Position) -> usize {
    (0..t.squares())
        .map(|i| pos.height(Sq(i as u16)))
        .max()
        .unwrap_or(0)
}

#[test]
fn perft_from_the_start_agrees_with_the_independent_program() {
    for (name, game, depth) in [("other/lasca", "lasca", 10), ("other/bashni", "bashni", 6)] {
        let t = bundled(name);
        let start = Position::start(&t);
        let Some(theirs) = independent(game, depth, &start.to_fen(&t)) else {
            return;
        };
        assert_eq!(ours(&t, &start, depth), theirs, "{name}");
    }
}

/// Positions of seeded random games with a column of two pieces or more
/// (some of three or more), counted to depth 3 both ways.
#[test]
fn perft_from_random_positions_with_columns_agrees() {
    for (name, game) in [("other/lasca", "lasca"), ("other/bashni", "bashni")] {
        let t = bundled(name);
        let start = Position::start(&t);
        let mut positions = Vec::new();
        for seed in 1..=12 {
            let played = common::random_game(&t, &start, seed, 200);
            let mut m = Match::new(&t, start.clone());
            for (ply, mv) in played.played().iter().enumerate() {
                m.play(mv);
                if ply % 7 == 3 && highest(&t, m.pos()) >= 2 && !m.legal().is_empty() {
                    positions.push(m.pos().clone());
                }
            }
        }
        assert!(
            positions.len() >= 20,
            "{name}: {} positions",
            positions.len()
        );
        assert!(
            positions.iter().any(|p| highest(&t, p) >= 3),
            "{name}: no column of three"
        );
        for pos in positions.iter().step_by(3) {
            let fen = pos.to_fen(&t);
            let Some(theirs) = independent(game, 3, &fen) else {
                return;
            };
            assert_eq!(ours(&t, pos, 3), theirs, "{name}: {fen}");
            // Make and unmake count as copies do.
            let mut perft = Perft::new(&t, 3);
            assert_eq!(perft.count_make_unmake(pos, 3), theirs[2], "{name}: {fen}");
        }
    }
}

#[test]
fn position_strings_carry_the_columns() {
    let t = bundled("other/lasca");
    let pos = Position::parse(&t, "W:Wa3(bwwO),Oc3:Bg7(w),e7").unwrap();
    assert_eq!(pos.to_fen(&t), "W:Wa3(bwwO),Oc3:Be7,g7(w)");
    assert_eq!(pos.height(Sq(0)) + pos.height(Sq(1)), 0);
    let a3 = rulebook::board::position::parse_square(&t, "a3").unwrap();
    assert_eq!(pos.height(a3), 4);
    let kinds: Vec<(u8, u8)> = pos.column(&t, a3).iter().map(|(s, k)| (s.0, k.0)).collect();
    assert_eq!(kinds, [(0, 0), (1, 0), (0, 0), (0, 1)], "top first");
    // The counts count the columns each side owns.
    assert_eq!(pos.count(rulebook::board::game::SideId(0)), 2);
    // Positions that differ only under the top are different positions.
    let other = Position::parse(&t, "W:Wa3(bwwO),Oc3:Bg7(b),e7").unwrap();
    assert_ne!(pos, other);
    let z = rulebook::agents::zobrist::Zobrist::new(&t);
    assert_ne!(z.hash(&pos), z.hash(&other));
    for bad in ["W:Wa3(bx)", "W:Wa3(b", "W:Wa3(O)", "W:Wa3(bOO)"] {
        assert!(Position::parse(&t, bad).is_err(), "{bad}");
    }
    // A game without columns reads no brackets.
    let draughts = bundled("draughts");
    assert!(Position::parse(&draughts, "W:W21(b):B1").is_err());
}

#[test]
fn the_kernels_refuse_a_column_game() {
    for name in ["other/lasca", "other/bashni"] {
        let t = bundled(name);
        assert!(t.kernel().is_none() && t.wide_kernel().is_none(), "{name}");
    }
    assert!(bundled("draughts").kernel().is_some());
}

#[test]
fn a_lasca_record_is_replayed_to_the_same_end() {
    let scratch = common::scratch();
    let record = scratch.path().join("l.jsonl");
    let record = record.to_str().unwrap();
    let played = common::ok(&[
        "play",
        "other/lasca",
        "--seat",
        "1=random",
        "--seat",
        "2=random",
        "--seed",
        "5",
        "--record",
        record,
    ]);
    let replayed = common::ok(&["replay", record]);
    let last = |s: &str| s.lines().last().unwrap_or("").to_string();
    assert!(last(&played).starts_with("result: "), "{played}");
    assert_eq!(last(&played), last(&replayed));
}

#[test]
fn the_computer_players_play_both_games() {
    for name in ["other/lasca", "other/bashni"] {
        let out = common::ok(&[
            "simulate",
            name,
            "--games",
            "4",
            "--agents",
            "greedy,alphabeta",
            "--depth",
            "2",
            "--jobs",
            "1",
            "--quiet",
        ]);
        assert!(out.contains("games"), "{name}: {out}");
    }
}

/// Each mistake with columns, as `check` reports it.
#[test]
fn board_stacks_diagnostics() {
    let head = "game \"G\"\nboard 7 x 7\nplayable dark\nside white \"White\" forward north\nside black \"Black\" forward south\nzone home = ranks 1-2\n";
    let cases: &[(&str, String)] = &[
        (
            "stacks-with-custodian",
            format!("{head}piece man \"Man\" {{\n  step orthogonal\n  jump short diagonal\n}}\nsetup man at home\ncapture custodian orthogonal\ncapture stacks\nend no-moves lose\n"),
        ),
        (
            "stacks-with-neighbours",
            "extends \"other/ataxx\"\ncapture stacks\n".to_string(),
        ),
        (
            "stacks-with-replacement",
            format!("{head}piece man \"Man\" {{\n  step diagonal captures\n  jump short diagonal\n}}\nsetup man at home\ncapture stacks\nend no-moves lose\n"),
        ),
        (
            "stacks-with-placing",
            "extends \"other/reversi\"\ncapture stacks\n".to_string(),
        ),
        (
            "stacks-without-jumps",
            format!("{head}piece man \"Man\" {{\n  step diagonal\n}}\nsetup man at home\ncapture stacks\nend no-moves lose\n"),
        ),
        (
            "stacks-and-removes-in-one-file",
            "extends \"draughts\"\ncapture stacks\ncapture removes at-once\n".to_string(),
        ),
    ];
    for (name, text) in cases {
        let checked = check_source(
            Source {
                name: "test.rules".to_string(),
                text: text.clone(),
            },
            &BundledLoader,
            &[],
        );
        assert!(
            checked.errors() + checked.warnings() > 0,
            "{name}: nothing said:\n{text}"
        );
        insta::assert_snapshot!(format!("diagnostic-{name}"), checked.render());
    }
}

/// The house rule of docs/language.md: the bundled draughts with columns.
#[test]
fn column_brazilian_draughts_is_a_house_rule() {
    let checked = check_source(
        Source {
            name: "column-draughts.rules".to_string(),
            text: "extends \"draughts\"\ngame \"Column Brazilian draughts\"\ncapture stacks\n"
                .to_string(),
        },
        &BundledLoader,
        &[],
    );
    let t = checked.board().cloned().expect("it checks");
    let start = Position::start(&t);
    // No capture is possible before the fourth ply: the counts of draughts.
    let plain = bundled("draughts");
    assert_eq!(
        ours(&t, &start, 3),
        ours(&plain, &Position::start(&plain), 3)
    );
    for seed in 1..=3 {
        let m = common::random_game(&t, &start, seed, 300);
        assert!(!m.played().is_empty());
    }
}

/// The SVG board (the web page's too) draws a column as its top piece with
/// the pieces under it as rings and its height; a lone piece as before.
#[test]
fn the_svg_board_draws_columns() {
    let t = bundled("other/lasca");
    let pos = Position::parse(&t, "W:Wa3(bwwO),c3:Bd4(w)").unwrap();
    let svg = rulebook::format::svg::board::render_svg(&t, &pos);
    assert_eq!(svg.matches("class=\"under\"").count(), 4, "{svg}");
    assert_eq!(svg.matches("class=\"height\"").count(), 2, "{svg}");
    assert!(
        svg.contains(">4</text>") && svg.contains(">2</text>"),
        "{svg}"
    );
    let plain = Position::start(&t);
    let svg = rulebook::format::svg::board::render_svg(&t, &plain);
    assert!(!svg.contains("class=\"under\"") && !svg.contains("class=\"height\""));
}

/// The tables of a bundled board game without options.
fn bundled(name: &str) -> Tables {
    crate::common::board_game(name, &[])
}
