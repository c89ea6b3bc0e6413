//! Perft fixture files (`tests/fixtures/perft/*.perft`): published counts and
//! counts from the independent reference generator, checked against the
//! bundled rule files.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::board::{Perft, Position};
use rulebook::load::{check, BundledLoader};

struct Case {
    file: String,
    id: String,
    game: String,
    fen: Option<String>,
    counts: Vec<(usize, u64)>,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir("tests/fixtures/perft")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = path.display().to_string();
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap();
            match key {
                "id" => out.push(Case {
                    file: file.clone(),
                    id: value.to_string(),
                    game: String::new(),
                    fen: None,
                    counts: Vec::new(),
                }),
                "game" => out.last_mut().unwrap().game = value.to_string(),
                "fen" => out.last_mut().unwrap().fen = Some(value.to_string()),
                "perft" => {
                    let (d, n) = value.split_once(' ').unwrap();
                    out.last_mut()
                        .unwrap()
                        .counts
                        .push((d.parse().unwrap(), n.parse().unwrap()));
                }
                other => panic!("{file}: unknown key {other}"),
            }
        }
    }
    out
}

#[test]
fn perft_fixtures() {
    let cases = cases();
    assert!(
        cases.len() >= 10,
        "the fixture files hold {} cases",
        cases.len()
    );
    let mut failures = Vec::new();
    for case in &cases {
        let checked = check(&BundledLoader, &case.game, &[]);
        let rendered = checked.render();
        let t = checked
            .into_board()
            .unwrap_or_else(|| panic!("{}: {rendered}", case.game));
        let pos = match &case.fen {
            Some(f) => Position::parse(&t, f).unwrap(),
            None => Position::start(&t),
        };
        let max = case.counts.iter().map(|c| c.0).max().unwrap();
        let mut perft = Perft::new(&t, max);
        for &(d, want) in &case.counts {
            let got = perft.count(&pos, d);
            if got != want {
                failures.push(format!(
                    "{} {} depth {d}: want {want}, got {got}",
                    case.file, case.id
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `perft --paths`: a man that can go round a ring of four pieces either way
/// takes the same pieces and ends on its start square both ways (22x15x6x13x22
/// and 22x13x6x15x22): one move by DR-3, two when paths are counted apart.
#[test]
fn paths_count_apart() {
    let checked = check(&BundledLoader, "draughts", &[]);
    let t = checked.into_board().unwrap();
    let pos = Position::parse(&t, "W:W22:B17,18,9,10,1").unwrap();
    let mut perft = Perft::new(&t, 1);
    assert_eq!(perft.count(&pos, 1), 1);
    perft.count_paths(true);
    assert_eq!(perft.count(&pos, 1), 2);
    // The two counts part only where such captures occur: the king-ring
    // position of draughts.perft agrees to depth 4, then has one more leaf
    // with paths (269 and 1242 merged, 270 and 1243 apart).
    let ring = Position::parse(&t, "W:W21,22,25,26,K3:BK30,9,10,13,14,17").unwrap();
    let mut perft = Perft::new(&t, 6);
    assert_eq!(perft.count(&ring, 4), 81);
    assert_eq!(perft.count(&ring, 6), 1242);
    perft.count_paths(true);
    assert_eq!(perft.count(&ring, 4), 81);
    assert_eq!(perft.count(&ring, 6), 1243);
    let start = Position::start(&t);
    assert_eq!(perft.count(&start, 6), 37628);
}
