//! The second evening's tools (issue 31): PDN export's players, date, site
//! and unbroken move numbers (read back by pydraughts), the `simulate --svg`
//! chart's labels clear of its title, shell completions that know the games
//! and players, race narration, `held` after a landing rule's `go to`, the
//! language server's hover and the Neovim set-up.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

use crate::common;

use common::{random_game, run};
use rulebook::board::{Position, Tables};
use rulebook::load::{check, BundledLoader};
use rulebook::record::BoardRecord;

fn board(game: &str) -> Tables {
    check(&BundledLoader, game, &[]).into_board().unwrap()
}

/// The tags and moves of every game of a PDN file as pydraughts reads them.
fn read_with_pydraughts(file: &std::path::Path) -> Vec<serde_json::Value> {
    let script = "import json, sys\n\
from draughts.PDN import PDNReader\n\
for g in PDNReader(filename=sys.argv[1]).games: \
print(json.dumps({'tags': g.tags, 'moves': len(g.moves)}))\n";
    let out = Command::new("python3")
        .args(["-c", script])
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

/// Whether a token of move text is a move number (`12.` or `12...`).
fn is_move_number(tok: &str) -> bool {
    let rest = tok.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.len() < tok.len() && (rest == "." || rest == "...")
}

#[test]
fn pdn_export_names_the_players_date_and_site_and_keeps_numbers_with_moves() {
    let scratch = common::scratch();
    let dir = scratch.path();
    let mut all = String::new();
    let mut expected = Vec::new();
    for game in ["draughts", "variants/english", "variants/international"] {
        let t = board(game);
        let white = rulebook::pdn::pdn_side(&t, true).unwrap();
        for seed in 1..=6u64 {
            let start = Position::start(&t);
            let m = random_game(&t, &start, seed, 300);
            let mut record = BoardRecord::of_game(game, &[], &t, &start, m.played());
            // The first side is a person, the second the computer.
            record.header.agents = vec!["human".into(), "greedy".into()];
            let jsonl = dir.join("game.jsonl");
            std::fs::write(&jsonl, record.to_jsonl()).unwrap();
            let (code, pdn, err) = run(&["export", jsonl.to_str().unwrap(), "--pdn"]);
            assert_eq!(code, 0, "{err}");
            // No line of the move text ends with a move number: it stays
            // with its move.
            for line in pdn.lines().filter(|l| !l.starts_with('[')) {
                let last = line.split_whitespace().last().unwrap_or("");
                assert!(!is_move_number(last), "{game} {seed}: `{line}`\n{pdn}");
            }
            let (w, b) = if white.0 == 0 {
                ("human", "rulebook greedy")
            } else {
                ("rulebook greedy", "human")
            };
            expected.push((w, b, m.played().len()));
            all.push_str(&pdn);
            all.push('\n');
        }
    }
    let file = dir.join("all.pdn");
    std::fs::write(&file, &all).unwrap();
    let today = Command::new("date")
        .args(["-u", "+%Y.%m.%d"])
        .output()
        .expect("date runs");
    let today = String::from_utf8(today.stdout).unwrap().trim().to_string();
    let games = read_with_pydraughts(&file);
    assert_eq!(games.len(), expected.len());
    for (g, (w, b, plies)) in games.iter().zip(&expected) {
        assert_eq!(g["tags"]["White"], *w, "{g}");
        assert_eq!(g["tags"]["Black"], *b, "{g}");
        assert_eq!(g["tags"]["Site"], "rulebook", "{g}");
        assert_eq!(g["tags"]["Date"], today.as_str(), "{g}");
        assert!(
            g["tags"]["Event"].as_str().unwrap().contains("game.jsonl"),
            "{g}"
        );
        assert_eq!(g["moves"], *plies, "{g}");
    }
}

#[test]
fn pdn_dates_are_days_of_the_calendar() {
    assert_eq!(rulebook::pdn::date(0), "1970.01.01");
    assert_eq!(rulebook::pdn::date(11_016), "2000.02.29");
    assert_eq!(rulebook::pdn::date(20_788), "2026.12.01");
}
