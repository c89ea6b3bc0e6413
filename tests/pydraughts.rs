//! PDN exports read by another program: every bundled draughts game with a
//! PDN game type is played out with seeded random moves, exported with
//! `rulebook export --pdn`, read back by Python's pydraughts
//! (tests/pydraughts/replay.py), replayed there move by move to the end, and
//! the final position, the side to move and the result compared with ours.
//! pydraughts is installed by .ci/run; without it this test fails (it never
//! skips).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

use common::{random_game, run};
use rulebook::board::{Position, Tables};
use rulebook::load::{check, BundledLoader};
use rulebook::record::BoardRecord;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/replay.py")
}

/// The bundled board games that declare a PDN game type.
fn pdn_games() -> Vec<(&'static str, Tables)> {
    rulebook::bundled::GAMES
        .iter()
        .filter_map(|(name, _)| {
            let t = check(&BundledLoader, name, &[]).into_board()?;
            t.game().pdn_game_type?;
            Some((*name, t))
        })
        .collect()
}

/// A position with the pieces of a side and kings, as `T:Wsq,..:Bsq,..` with
/// each side's squares sorted as strings (as replay.py writes them).
fn canonical(fen: &str) -> String {
    let parts: Vec<&str> = fen.split(':').collect();
    let mut white = Vec::new();
    let mut black = Vec::new();
    for part in &parts[1..] {
        let items = part[1..].split(',').filter(|s| !s.is_empty());
        match part.chars().next() {
            Some('W') => white.extend(items.map(str::to_string)),
            Some('B') => black.extend(items.map(str::to_string)),
            _ => {}
        }
    }
    white.sort();
    black.sort();
    format!("{}:W{}:B{}", parts[0], white.join(","), black.join(","))
}

fn replay_with_pydraughts(file: &Path) -> Vec<serde_json::Value> {
    let out = Command::new("python3")
        .arg(script())
        .arg(file)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "pydraughts could not read {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn pydraughts_is_installed() {
    let out = Command::new("python3")
        .args(["-c", "import draughts.PDN"])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "Python's pydraughts is missing (python3 -m pip install pydraughts; .ci/run installs it): {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_pdn_game_replays_in_pydraughts_to_the_same_end() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let games = pdn_games();
    let names: Vec<&str> = games.iter().map(|(n, _)| *n).collect();
    for expected in [
        "draughts",
        "variants/english",
        "variants/international",
        "variants/russian",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} has a PDN game type: {names:?}"
        );
    }
    for (name, t) in &games {
        let notation = rulebook::pdn::notation(t);
        // From the start, and (but for English checkers, whose set-up
        // positions pydraughts misreads when Black is to move) from the
        // position after ten random plies, written as SetUp and FEN.
        let mut starts = vec![Position::start(t)];
        if t.game().pdn_game_type != Some(21) {
            starts.push(random_game(t, &Position::start(t), 99, 10).pos().clone());
        }
        let mut all = String::new();
        let mut ours = Vec::new();
        for (i, start) in starts.iter().enumerate() {
            for seed in 1..=4u64 {
                let m = random_game(t, start, seed + 10 * i as u64, 600);
                let record = BoardRecord::of_game(name, &[], t, start, m.played());
                let jsonl = dir.join("game.jsonl");
                std::fs::write(&jsonl, record.to_jsonl()).unwrap();
                let (code, pdn, err) = run(&["export", jsonl.to_str().unwrap(), "--pdn"]);
                assert_eq!(code, 0, "{name}: {err}");
                assert_eq!(i == 1, pdn.contains("[SetUp \"1\"]\n[FEN \""), "{pdn}");
                all.push_str(&pdn);
                all.push('\n');
                let result = rulebook::pdn::result_token(t, m.outcome());
                let fen = rulebook::pdn::fen(t, m.pos(), notation);
                ours.push((m.played().len(), canonical(&fen), result, pdn));
            }
        }
        let file = dir.join(format!("{}.pdn", name.replace('/', "-")));
        std::fs::write(&file, &all).unwrap();
        let theirs = replay_with_pydraughts(&file);
        assert_eq!(theirs.len(), ours.len(), "{name}: games read");
        for ((plies, position, result, pdn), game) in ours.iter().zip(&theirs) {
            assert_eq!(game["error"], serde_json::Value::Null, "{name}:\n{pdn}");
            assert_eq!(game["played"], *plies, "{name}:\n{pdn}");
            assert_eq!(game["position"], *position, "{name}:\n{pdn}");
            assert_eq!(game["result"], *result, "{name}:\n{pdn}");
        }
    }
}

#[test]
fn games_written_by_pydraughts_import_to_the_same_position() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let writer = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/write.py");
    // pydraughts writes the long GameType ("26,W,8,8,A0,0") and a FEN tag
    // with every piece, in the notation of the type.
    for (variant, game) in [
        ("brazilian", "draughts"),
        ("russian", "variants/russian"),
        ("english", "variants/english"),
        ("standard", "variants/international"),
    ] {
        for seed in 1..=3u64 {
            let pdn = dir.join(format!("{variant}-{seed}.pdn"));
            let out = Command::new("python3")
                .arg(&writer)
                .arg(&pdn)
                .arg(variant)
                .arg(seed.to_string())
                .arg("80")
                .output()
                .expect("python3 runs");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let theirs = String::from_utf8(out.stdout).unwrap().trim().to_string();
            let (code, record, err) = run(&["import", pdn.to_str().unwrap()]);
            let text = std::fs::read_to_string(&pdn).unwrap();
            assert_eq!(code, 0, "{variant} {seed}: {err}\n{text}");
            let record = BoardRecord::parse(&record).unwrap();
            assert_eq!(record.header.game, game);
            let t = check(&BundledLoader, game, &[]).into_board().unwrap();
            let replay = record.replay(&t);
            assert!(replay.error.is_none());
            let ours = rulebook::pdn::fen(&t, replay.game.pos(), rulebook::pdn::notation(&t));
            assert_eq!(canonical(&ours), theirs, "{variant} {seed}:\n{text}");
        }
    }
}
