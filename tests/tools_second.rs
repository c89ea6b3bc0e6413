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

/// A run of `seats` seats of long names, the first winning every game.
fn chart_run(seats: usize) -> rulebook::lab::Run {
    use rulebook::lab::stats::Moments;
    let games = 40;
    let mut wins = vec![0; seats];
    wins[0] = games;
    rulebook::lab::Run {
        info: rulebook::lab::RunInfo {
            label: "a-game-with-a-long-name --option x=1".into(),
            title: "A game with a long title".into(),
            seats: (0..seats)
                .map(|i| format!("north-north-western seat {i}"))
                .collect(),
            agents: (0..seats).map(|_| "alphabeta".to_string()).collect(),
            event_names: Vec::new(),
            scores: None,
        },
        summary: rulebook::lab::Summary {
            games,
            wins,
            draws: 0,
            length: Moments::of((0..games).map(|i| (30 + i) as f64)),
            median: 50.0,
            min: 30,
            max: 69,
            lengths: (0..games as u32).map(|i| (30 + i, 1)).collect(),
            endings: Vec::new(),
            events: Vec::new(),
            lead_changes: Moments::default(),
            skips: 0,
            turns: 0,
            points: Default::default(),
        },
    }
}

/// A text's box (left, top, right, bottom) in the picture's coordinates:
/// 0.6 em a character wide, 0.8 em above and 0.25 em below each line, each
/// `tspan` a line of its own, turned by the element's `rotate(...)` and
/// moved by its groups' `translate(...)`.
fn text_box(node: roxmltree::Node) -> (f64, f64, f64, f64) {
    let num = |n: roxmltree::Node, a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok());
    let size = num(node, "font-size").unwrap_or(12.0);
    let anchor = node.attribute("text-anchor").unwrap_or("start");
    let x0 = num(node, "x").unwrap_or(0.0);
    let mut y = num(node, "y").unwrap_or(0.0);
    let mut lines = Vec::new();
    for child in node.children() {
        if child.is_text() {
            lines.push((x0, y, child.text().unwrap_or("").chars().count()));
        } else if child.has_tag_name("tspan") {
            y += num(child, "dy").unwrap_or(0.0);
            let x = num(child, "x").unwrap_or(x0);
            lines.push((x, y, child.text().unwrap_or("").chars().count()));
        }
    }
    let turn = node.attribute("transform").and_then(|t| {
        let inner = t.strip_prefix("rotate(")?.strip_suffix(')')?;
        let v: Vec<f64> = inner
            .split_whitespace()
            .map(|s| s.parse().unwrap())
            .collect();
        Some((v[0].to_radians(), v[1], v[2]))
    });
    let shift: f64 = node
        .ancestors()
        .filter_map(|a| a.attribute("transform"))
        .filter_map(|t| t.strip_prefix("translate(0,")?.strip_suffix(')'))
        .map(|v| v.parse::<f64>().unwrap())
        .sum();
    let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y, chars) in lines {
        let w = 0.6 * size * chars as f64;
        let (l, r) = match anchor {
            "end" => (x - w, x),
            "middle" => (x - w / 2.0, x + w / 2.0),
            _ => (x, x + w),
        };
        for (px, py) in [
            (l, y - 0.8 * size),
            (r, y - 0.8 * size),
            (l, y + 0.25 * size),
            (r, y + 0.25 * size),
        ] {
            let (px, py) = match turn {
                Some((a, cx, cy)) => (
                    cx + (px - cx) * a.cos() - (py - cy) * a.sin(),
                    cy + (px - cx) * a.sin() + (py - cy) * a.cos(),
                ),
                None => (px, py),
            };
            b = (
                b.0.min(px),
                b.1.min(py + shift),
                b.2.max(px),
                b.3.max(py + shift),
            );
        }
    }
    b
}

#[test]
fn the_simulate_chart_labels_never_overlap_a_title() {
    for (seats, panels) in [(6, 2), (6, 1), (3, 2), (2, 1)] {
        let runs: Vec<_> = (0..panels).map(|_| chart_run(seats)).collect();
        let refs: Vec<&rulebook::lab::Run> = runs.iter().collect();
        let svg = rulebook::format::svg::chart::svg(&refs);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let height: f64 = doc
            .root_element()
            .attribute("height")
            .unwrap()
            .parse()
            .unwrap();
        let texts: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .collect();
        // The titles: each panel's (bold) and its two plots'.
        let is_title = |n: &roxmltree::Node| {
            n.attribute("font-weight") == Some("bold")
                || n.text().is_some_and(|t| {
                    t.starts_with("results by seat") || t.starts_with("game length")
                })
        };
        let titles: Vec<_> = texts
            .iter()
            .filter(|n| is_title(n))
            .map(|n| text_box(*n))
            .collect();
        assert_eq!(titles.len(), 3 * panels);
        let labels: Vec<_> = texts.iter().filter(|n| !is_title(n)).collect();
        assert!(labels.len() > 10 * panels);
        for label in labels {
            let l = text_box(*label);
            assert!(
                l.3 <= height,
                "{seats} seats: {:?} leaves the picture",
                label.text()
            );
            for t in &titles {
                let apart = l.2 <= t.0 || t.2 <= l.0 || l.3 <= t.1 || t.3 <= l.1;
                assert!(
                    apart,
                    "{seats} seats, {panels} panels: the label {:?} {l:?} overlaps a title {t:?}\n{svg}",
                    label.text()
                );
            }
        }
    }
}

/// What bash offers for `line` (the command line up to the cursor), with
/// the script of `rulebook completions bash` sourced and this build of
/// rulebook first on the PATH; the words split as bash splits them (at
/// white space, and `=` a word of its own).
fn bash_offers(line: &str) -> Vec<String> {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_rulebook"));
    let mut words: Vec<String> = Vec::new();
    for w in line.split_whitespace() {
        match w.split_once('=') {
            Some((a, b)) => {
                words.push(a.to_string());
                words.push("=".into());
                if !b.is_empty() {
                    words.push(b.to_string());
                }
            }
            None => words.push(w.to_string()),
        }
    }
    if line.ends_with(' ') {
        words.push(String::new());
    }
    let cword = words.len() - 1;
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "export PATH='{}':\"$PATH\"; source <(rulebook completions bash); complete -p rulebook; COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}; COMP_WORDS=({}); COMP_CWORD={cword}; _rulebook rulebook \"${{COMP_WORDS[COMP_CWORD]}}\" '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        bin.parent().unwrap().display(),
        quoted.join(" "),
        if cword > 0 { words[cword - 1].as_str() } else { "" },
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(program)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    // `complete -p rulebook` says the function is registered.
    assert!(
        lines.next().is_some_and(|l| l.contains("-F _rulebook")),
        "{text}"
    );
    lines
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completes_games_players_sides_and_options() {
    let games = bash_offers("rulebook play variants/");
    assert!(games.iter().any(|g| g == "variants/english"), "{games:?}");
    assert!(
        games.iter().all(|g| g.starts_with("variants/")),
        "{games:?}"
    );
    let all = bash_offers("rulebook simulate ");
    for (name, _) in rulebook::bundled::GAMES {
        assert!(all.iter().any(|g| g == name), "{name}: {all:?}");
    }
    for flag in ["--white", "--black"] {
        let players = bash_offers(&format!("rulebook play draughts {flag} "));
        let want: Vec<String> = rulebook::agents::PLAYERS
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(players, want, "{flag}");
    }
    assert_eq!(bash_offers("rulebook play draughts --white gr"), ["greedy"]);
    assert_eq!(
        bash_offers("rulebook simulate draughts --agents greedy,ra"),
        ["greedy,random"]
    );
    assert_eq!(
        bash_offers("rulebook play draughts --seat "),
        ["white=", "black="]
    );
    // bash takes `=` as a word of its own: what follows it is offered.
    assert_eq!(
        bash_offers("rulebook play draughts --seat black=alpha"),
        ["alphabeta"]
    );
    assert_eq!(
        bash_offers("rulebook play draughts --option "),
        ["kings=flying", "kings=short"]
    );
    assert_eq!(
        bash_offers("rulebook play draughts --option kings="),
        ["flying", "short"]
    );
    // Commands and flags still come from clap's part of the script.
    assert_eq!(bash_offers("rulebook sim"), ["simulate"]);
    assert!(bash_offers("rulebook play --re").contains(&"--record".to_string()));
}

#[test]
fn completions_for_powershell_and_elvish_and_a_man_page_with_its_sections() {
    for shell in ["powershell", "elvish"] {
        let (code, script, err) = run(&["completions", shell]);
        assert_eq!(code, 0, "{err}");
        assert!(
            script.contains("rulebook") && script.contains("simulate"),
            "{script}"
        );
    }
    let (code, page, _) = run(&["man"]);
    assert_eq!(code, 0);
    for section in [
        ".SH \"EXIT STATUS\"",
        ".SH ENVIRONMENT",
        "NO_COLOR",
        ".SH EXAMPLES",
        ".SH \"PROMPT COMMANDS\"",
        "\\fBundo, redo\\fR",
        "\\fBtrack, board\\fR",
        "\\fBlegend\\fR",
    ] {
        assert!(page.contains(section), "{section} missing:\n{page}");
    }
}

#[test]
fn the_language_doc_says_what_a_replacement_counts_and_what_a_setup_in_a_when_replaces() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md")).unwrap();
    let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    // The engine counts the replaced piece and the enclosed ones alike
    // (movegen: `caps` holds both, and `capture most` and the criteria
    // count `caps`).
    assert!(!doc.contains("for precedence (it takes one piece)"));
    assert!(
        doc.contains("where it counts every piece it takes"),
        "replacement"
    );
    // check::merge: a layer with setups replaces all earlier ones.
    assert!(
        doc.contains("A `setup` inside a `when` block replaces every earlier setup"),
        "setup"
    );
}
