//! Issue 27, item 9: a win counted by how far the loser got (`score 2 when
//! the loser has borne off none "a gammon"`, `score pieces left`), at work
//! in backgammon (docs/rules.md BG-10): scripted endings for a single game,
//! a gammon and a backgammon (tests/fixtures/race_score/*.script), a seeded
//! random game, `simulate`'s points, a resignation's score, records of games
//! without score rules unchanged, the checker's diagnostics, and the shares
//! of gammons and backgammons in random play against OpenSpiel's backgammon
//! (tests/independent/backgammon_score.py).

use rulebook::race::{RaceState, Score};
use rulebook::rng::Rng;

use crate::common::{run, run_input};

// ------------------------------------------------------------------ scripts

crate::race::script_tests!(
    "fixtures/race_score/*.script",
    "race_score",
    (1..=6).map(|n| format!("score-{n:02}"))
);

/// The score of each scripted ending, as the engine gives it.
#[test]
fn the_engine_scores_what_the_loser_left() {
    let game = crate::race::load("other/backgammon", &[]);
    let finished = game.cells;
    let c = |seat: usize, label: &str| game.parse_label(seat, label).unwrap();
    let mut white = vec![finished; 15];
    white[0] = c(0, "p2");
    let black_home: Vec<u16> = [
        "p19", "p19", "p19", "p20", "p20", "p20", "p21", "p21", "p21", "p22", "p22", "p23", "p23",
        "p24", "p24",
    ]
    .iter()
    .map(|l| c(1, l))
    .collect();
    let mut events = Vec::new();
    let roll = crate::race::roll_of("3 2");
    let mut end = |black: Vec<u16>| {
        let mut state = RaceState::new(&game, 2).unwrap();
        state.set_pieces(&game, 0, &white).unwrap();
        state.set_pieces(&game, 1, &black).unwrap();
        assert_eq!(state.score(&game), None, "no score while the game goes on");
        let choice = rulebook::narrate::race::parse_choice(&game, 0, "p2-off").unwrap();
        state.apply(&game, &roll, choice, &mut events).unwrap();
        assert_eq!(state.winner(), Some(0));
        state.score(&game).unwrap()
    };
    let with = |i: usize, p: u16| {
        let mut b = black_home.clone();
        b[i] = p;
        b
    };
    // One of black's pieces off: a single game, the rule "a single game".
    assert_eq!(
        end(with(0, finished)),
        Score {
            points: 1,
            rule: Some(0)
        }
    );
    // None off, all at home: a gammon.
    assert_eq!(end(black_home.clone()).points, 2);
    // On the bar, or on white's home board (p6 to p1): a backgammon.
    assert_eq!(end(with(0, 0)).points, 3);
    assert_eq!(end(with(0, c(1, "p6"))).points, 3);
    assert_eq!(end(with(0, c(1, "p1"))).points, 3);
    // p7 is outside white's home board: a gammon.
    assert_eq!(end(with(0, c(1, "p7"))).points, 2);
}

// ------------------------------------------------------------------ whole games

/// A seeded game between random players ends with its score.
#[test]
fn a_seeded_random_game_ends_with_its_score() {
    let (code, out, err) = run(&[
        "play",
        "other/backgammon",
        "--seed",
        "2",
        "--seat",
        "1=random",
        "--seat",
        "2=random",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("result: white wins a gammon (2 points)"),
        "{out}"
    );
    insta::assert_snapshot!("backgammon-seed-2-score", out);
}

#[test]
fn simulate_reports_the_points() {
    let (code, out, err) = run(&["simulate", "other/backgammon", "--games", "40", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("simulate-backgammon-points", out);
    let (code, json, err) = run(&[
        "simulate",
        "other/backgammon",
        "--games",
        "40",
        "--quiet",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let points = &v["points"];
    let scores = points["scores"].as_array().unwrap();
    let games: u64 = scores
        .iter()
        .map(|s| s["games"]["count"].as_u64().unwrap())
        .sum();
    assert_eq!(games, 40, "every game has a score");
    let won: u64 = scores
        .iter()
        .map(|s| s["points"].as_u64().unwrap() * s["games"]["count"].as_u64().unwrap())
        .sum();
    let by_seat: u64 = points["by_seat"]
        .as_object()
        .unwrap()
        .values()
        .map(|p| p.as_u64().unwrap())
        .sum();
    assert_eq!(won, by_seat, "the seats' points are the games' points");
    let mean = points["mean_points"].as_f64().unwrap();
    assert!((mean - won as f64 / 40.0).abs() < 1e-6, "{mean}");
    assert_eq!(scores[1]["name"], "a gammon");
    // A game without score rules says nothing of points.
    let (code, json, err) = run(&[
        "simulate",
        "slow-and-steady",
        "--games",
        "10",
        "--quiet",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!json.contains("points"), "{json}");
    let (code, text, err) = run(&["simulate", "slow-and-steady", "--games", "10", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(!text.contains("points"), "{text}");
}

#[test]
fn compare_reports_the_points_of_a_house_rule() {
    let file = temp("gammons-only.rules");
    std::fs::write(
        &file,
        "extends \"other/backgammon\"\ngame \"Backgammon, gammons only\"\ndescription \"No backgammons.\"\nscore 1 \"a single game\"\nscore 2 when the loser has borne off none \"a gammon\"\n",
    )
    .unwrap();
    let (code, out, err) = run(&[
        "compare",
        "other/backgammon",
        file.to_str().unwrap(),
        "--games",
        "30",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row {name}:\n{out}"))
            .to_string()
    };
    // The same games: the same singles; B's backgammons are gammons.
    let single = row("a single game (1 point)");
    assert!(single.ends_with("+0.0%"), "{single}");
    let three = row("a backgammon (3 points)");
    assert!(three.contains("  0.0% [0.0%"), "{three}");
    row("points per game");
    row("white points per game");
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-score-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A resignation scores the position as it stands: at the start each side
/// has pieces in the other's home board, so a backgammon; the record's
/// result keeps the points, and a record without them (written before
/// scores) still reads.
#[test]
fn a_resignation_scores_the_position() {
    let file = temp("resigned.jsonl");
    let path = file.to_str().unwrap();
    let (code, out, err) = run_input(
        &[
            "play",
            "other/backgammon",
            "--seat",
            "2=random",
            "--seed",
            "4",
            "--record",
            path,
        ],
        "resign\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("white resigns: black wins a backgammon (3 points)"),
        "{out}"
    );
    let record = std::fs::read_to_string(&file).unwrap();
    let header: serde_json::Value = serde_json::from_str(record.lines().next().unwrap()).unwrap();
    assert_eq!(
        header["result"],
        serde_json::json!({"winner": "black", "reason": "resigned", "resigned": "white", "points": 3})
    );
    // The same record as written before scores: read, and replayed.
    let old = record.replace(",\"points\":3", "");
    assert_ne!(old, record);
    std::fs::write(&file, &old).unwrap();
    let (code, _, err) = run(&["replay", path]);
    assert_eq!(code, 0, "{err}");
}

/// A game without score rules records, replays and reports as before: no
/// `points` anywhere, the end message unchanged; and a record of
/// backgammon (whose turns are written as before) replays to its score.
#[test]
fn records_without_scores_are_unchanged() {
    let file = temp("slow.jsonl");
    let path = file.to_str().unwrap();
    let (code, played, err) = run(&[
        "play",
        "slow-and-steady",
        "--seed",
        "9",
        "--record",
        path,
        "--seat",
        "1=random",
        "--seat",
        "2=random",
    ]);
    assert_eq!(code, 0, "{err}");
    let record = std::fs::read_to_string(&file).unwrap();
    assert!(
        !record.contains("points") && !record.contains("score"),
        "{record}"
    );
    assert!(
        played
            .lines()
            .any(|l| l.starts_with("result: ") && !l.contains("point")),
        "{played}"
    );
    let (code, json, err) = run(&["replay", path, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(!json.contains("\"points\"") && !json.contains("\"score\""));
    // Backgammon: a record of header and turns, as any written before.
    let file = temp("bg.jsonl");
    let path = file.to_str().unwrap();
    let (code, played, err) = run(&[
        "play",
        "other/backgammon",
        "--seed",
        "2",
        "--record",
        path,
        "--seat",
        "1=random",
        "--seat",
        "2=random",
    ]);
    assert_eq!(code, 0, "{err}");
    let record = std::fs::read_to_string(&file).unwrap();
    assert!(!record.contains("points"), "the turns carry no score");
    let (code, replayed, err) = run(&["replay", path]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(crate::race::turns(&played), crate::race::turns(&replayed));
    let (code, json, err) = run(&["replay", path, "--json"]);
    assert_eq!(code, 0, "{err}");
    let last: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    assert_eq!(last["state"]["points"], 2);
    assert_eq!(last["state"]["score"], "a gammon");
}

// ------------------------------------------------------------------ check

/// A backgammon-like game (`head`) with `lines` added: its diagnostics.
fn diagnose_with(head: &str, lines: &str) -> String {
    let text = format!(
        "game \"Test\"\nseats white black\npieces 15 per player\npath white: p24-p1\npath black: p1-p24\ndice 2 d6\nmove each die\n{head}{lines}"
    );
    crate::race::diagnose_text(text, lines)
}

#[test]
fn each_way_to_get_a_score_wrong_is_named() {
    let two = "players 2\nwin all pieces\n";
    for (name, head, lines) in [
        ("score-of-0", two, "score 0 when the loser has borne off none\n"),
        (
            "score-winners-last-0",
            two,
            "score 3 when the loser has a piece in the winner's last 0\n",
        ),
        (
            "score-more-cells-than-the-path",
            two,
            "score 3 when the loser has a piece out or in the winner's last 30\n",
        ),
        (
            "score-two-rules-for-the-same-tests",
            two,
            "score 2 when the loser has borne off none\nscore 3 when the loser has borne off none \"more\"\n",
        ),
        ("score-two-plain-scores", two, "score 1\nscore pieces left\n"),
        (
            "score-a-test-twice",
            two,
            "score 2 when the loser has borne off none and has borne off none\n",
        ),
        (
            "score-a-place-twice",
            two,
            "score 3 when the loser has a piece out or out\n",
        ),
        (
            "score-none-off-when-the-first-piece-wins",
            "players 2\nwin first piece\n",
            "score 2 when the loser has borne off none\n",
        ),
        (
            "score-a-game-that-plays-on",
            "players 2\nwin all pieces\noutcome last-home lose\n",
            "score 2 when the loser has borne off none\n",
        ),
        (
            "score-a-test-misspelt",
            two,
            "score 2 when the loser has borne off some\n",
        ),
    ] {
        insta::assert_snapshot!(name, diagnose_with(head, lines));
    }
    // On a plain track for up to four players.
    let lines = "score 2 when the loser has borne off none\n";
    let text = format!(
        "game \"Test\"\ntrack 30\nplayers 2-4\npieces 2 per player\ndice 1 d6\nwin all pieces\n{lines}"
    );
    insta::assert_snapshot!(
        "score-more-than-two-players",
        crate::race::diagnose_text(text, lines)
    );
    // `the` may be left out.
    let game = crate::race::load_text(
        "extends \"other/backgammon\"\ngame \"B\"\nscore 2 when loser has borne off none\nscore 3 when loser has a piece in winner's last 6\n",
    );
    assert_eq!(game.scores.len(), 2);
}

/// The score rules of a house rule replace the inherited ones, and check
/// as the base file's do.
#[test]
fn a_house_rule_replaces_the_score_rules() {
    let game =
        crate::race::load_text("extends \"other/backgammon\"\ngame \"B\"\nscore pieces left\n");
    assert_eq!(game.scores.len(), 1);
    assert_eq!(
        game.scores[0].points,
        rulebook::race::game::Points::PiecesLeft
    );
    assert!(game.scores[0].tests.is_empty());
    let plain = crate::race::load("slow-and-steady", &[]);
    assert!(plain.scores.is_empty());
}

// ------------------------------------------------------------------ OpenSpiel

/// A share `k / n` and its standard error.
fn share(k: u64, n: u64) -> (f64, f64) {
    let p = k as f64 / n as f64;
    (p, (p * (1.0 - p) / n as f64).sqrt())
}

/// Asserts that the shares of singles, gammons and backgammons of `ours`
/// and `theirs` (games of 1, 2, 3 points) differ by less than 2 standard
/// errors of the difference.
fn assert_shares_agree(what: &str, ours: [u64; 3], theirs: [u64; 3]) {
    let (n, m) = (ours.iter().sum::<u64>(), theirs.iter().sum::<u64>());
    for (i, name) in ["single", "gammon", "backgammon"].iter().enumerate() {
        let (p, se_p) = share(ours[i], n);
        let (q, se_q) = share(theirs[i], m);
        let se = (se_p * se_p + se_q * se_q).sqrt();
        eprintln!(
            "{what}: {name} {p:.3} against OpenSpiel's {q:.3} (2 se {:.3})",
            2.0 * se
        );
        assert!(
            (p - q).abs() <= 2.0 * se,
            "{what}: {name}s {p:.3} of {n} games, OpenSpiel {q:.3} of {m}: more than 2 standard errors ({se:.3}) apart"
        );
    }
}

/// Random play scores as OpenSpiel's backgammon does: the shares of
/// singles, gammons and backgammons of `simulate` (random against random)
/// and of OpenSpiel's random playouts (its returns are +-1, 2, 3 with
/// `scoring_type=full_scoring`) lie within 2 standard errors.
///
/// The opening: OpenSpiel's first roll is never a double (its first chance
/// node decides who starts with a roll of two different dice), while
/// rulebook's white opens with any roll. Both are compared: `simulate`'s
/// whole games as they are (a double opens one game in six and changes
/// only the first of some hundred turns), and games played here on the
/// engine with the opening roll thrown again until it is not a double, as
/// OpenSpiel's is. Who opens does not matter: the shares count both sides'
/// wins.
#[test]
fn gammon_rates_agree_with_openspiel() {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/independent/backgammon_score.py"
    );
    let theirs = std::process::Command::new("python3")
        .args([script, "240", "27"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // simulate, random against random.
    let (code, json, err) = run(&[
        "simulate",
        "other/backgammon",
        "--games",
        "400",
        "--seed",
        "27",
        "--quiet",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let mut simulated = [0u64; 3];
    for s in v["points"]["scores"].as_array().unwrap() {
        let p = s["points"].as_u64().unwrap() as usize;
        simulated[p - 1] = s["games"]["count"].as_u64().unwrap();
    }
    // The engine, with OpenSpiel's opening.
    let game = crate::race::load("other/backgammon", &[]);
    let mut opened = [0u64; 3];
    let (mut choices, mut events) = (Vec::new(), Vec::new());
    for g in 0..200u64 {
        let (mut dice, mut pick) = (Rng::new(5100 + g), Rng::new(7300 + g));
        let mut state = RaceState::new(&game, 2).unwrap();
        let mut roll = game.throw(&mut dice);
        while roll.faces()[0] == roll.faces()[1] {
            roll = game.throw(&mut dice);
        }
        while !state.is_over() {
            state.choices(&game, &roll, &mut choices);
            let choice = choices[pick.below(choices.len() as u64) as usize];
            state
                .apply_listed(&game, &roll, choice, &mut events)
                .unwrap();
            roll = game.throw(&mut dice);
        }
        let points = state.score(&game).unwrap().points as usize;
        opened[points - 1] += 1;
    }
    let out = theirs.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    eprintln!("OpenSpiel: {report}");
    let openspiel = ["single", "gammon", "backgammon"].map(|k| report[k].as_u64().unwrap());
    assert_eq!(openspiel.iter().sum::<u64>(), 240);
    assert!(
        openspiel[1] > 0 && openspiel[2] > 0,
        "OpenSpiel scores gammons: {report}"
    );
    assert_shares_agree("simulate", simulated, openspiel);
    assert_shares_agree("no opening double", opened, openspiel);
}

// ------------------------------------------------------------------ must hold

/// Issue 27's "Must hold": `check` names every race construct out of its
/// range with line, column, underline and hint. The ones no other test
/// showed: each as a snapshot (the others are in tests/race*.rs).
#[test]
fn each_race_construct_out_of_range_is_named() {
    let plain = |track: &str, rest: &str| {
        format!("game \"Test\"\n{track}\nplayers 2\npieces 2 per player\ndice 2 d6\n{rest}")
    };
    let long_path = "path red: a1-a600\npath blue: b1-b600\n";
    for (name, text, lines) in [
        (
            "blockade-larger-than-the-pieces",
            plain("track 30", "no passing 3 on a cell\n"),
            "no passing 3 on a cell",
        ),
        (
            "pieces-per-player-outside-their-range",
            "game \"Test\"\ntrack 30\nplayers 2\npieces 16 per player\ndice 2 d6\n".to_string(),
            "pieces 16 per player",
        ),
        (
            "track-outside-its-range",
            plain("track 1001", ""),
            "track 1001",
        ),
        (
            "players-outside-their-range",
            "game \"Test\"\ntrack 30\nplayers 9\npieces 2 per player\ndice 2 d6\n".to_string(),
            "players 9",
        ),
        (
            "digit-that-is-no-digit",
            plain("track 30", "landing on digit 12: forward 1\n"),
            "landing on digit 12",
        ),
        (
            "multiples-off-the-track",
            plain("track 30", "landing on multiple of 40: forward 1\n"),
            "landing on multiple of 40",
        ),
        (
            "forward-0",
            plain("track 30", "landing on cell 5: forward 0\n"),
            "forward 0",
        ),
        (
            "miss-0-turns",
            plain("track 30", "landing on cell 5: miss 0 turns\n"),
            "miss 0 turns",
        ),
        (
            "home-cells-outside-their-range",
            plain("track 52 loop starts 1 14 home 65", ""),
            "home 65",
        ),
        (
            "0-doubles-in-a-row",
            plain("track 30", "rolling 0 doubles in a row: end turn\n"),
            "rolling 0 doubles in a row",
        ),
        (
            "paths-of-too-many-cells",
            format!("game \"Test\"\nplayers 2\nseats red blue\npieces 2 per player\ndice 2 d6\n{long_path}"),
            "paths of 1200 cells",
        ),
    ] {
        insta::assert_snapshot!(name, crate::race::diagnose_text(text, lines));
    }
}
