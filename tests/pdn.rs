//! PDN: seeded games go out as PDN and come back as the same game; broken
//! PDN files get errors that name the line, after the moves before it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{random_game, run};
use rulebook::board::Position;
use rulebook::load::{check, BundledLoader};
use rulebook::record::BoardRecord;
use rulebook::rng::Rng;

fn seeded_record(game: &str, seed: u64) -> BoardRecord {
    let t = check(&BundledLoader, game, &[]).into_board().unwrap();
    let start = Position::start(&t);
    let m = random_game(&t, &start, seed, 300);
    BoardRecord::of_game(game, &[], &t, &start, m.played())
}

#[test]
fn seeded_games_round_trip_through_pdn() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    for game in [
        "draughts",
        "variants/russian",
        "variants/english",
        "variants/international",
    ] {
        for seed in 1..=3 {
            let record = seeded_record(game, seed);
            let jsonl = dir.join("game.jsonl");
            std::fs::write(&jsonl, record.to_jsonl()).unwrap();
            let pdn_file = dir.join("game.pdn");
            let (code, _, err) = run(&[
                "export",
                jsonl.to_str().unwrap(),
                "--pdn",
                "-o",
                pdn_file.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "{err}");
            let pdn = std::fs::read_to_string(&pdn_file).unwrap();
            assert!(pdn.contains("[GameType \""), "{pdn}");
            let (code, back, err) = run(&["import", pdn_file.to_str().unwrap()]);
            assert_eq!(code, 0, "{game} {seed}: {err}\n{pdn}");
            let back = BoardRecord::parse(&back).unwrap();
            assert_eq!(back.plies, record.plies, "{game} seed {seed}");
            assert_eq!(back.header.game, record.header.game);
            assert_eq!(back.header.position, record.header.position);
            // The tags come along (Event, Site, Date, White, Black,
            // Result), and the next export is the same PDN.
            let names: Vec<&str> = back.header.tags.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(
                names,
                ["Event", "Site", "Date", "White", "Black", "Result"],
                "{game} seed {seed}"
            );
            std::fs::write(&jsonl, back.to_jsonl()).unwrap();
            let (code, again, err) = run(&["export", jsonl.to_str().unwrap(), "--pdn"]);
            assert_eq!(code, 0, "{err}");
            assert_eq!(again, pdn, "{game} seed {seed}");
        }
    }
}

#[test]
fn exported_pdn_reads_like_pdn() {
    let record = seeded_record("variants/english", 2);
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let jsonl = dir.join("g.jsonl");
    std::fs::write(&jsonl, record.to_jsonl()).unwrap();
    let (_, pdn, _) = run(&["export", jsonl.to_str().unwrap(), "--pdn"]);
    let head: Vec<&str> = pdn.lines().take(8).collect();
    assert_eq!(head[5], "[GameType \"21\"]");
    assert!(head[6].starts_with("[Result \""), "{pdn}");
    // English: Black moves first, so the move text opens with "1. " and
    // the numbers count pairs of plies.
    assert!(pdn.lines().nth(8).unwrap().starts_with("1. "), "{pdn}");
}

/// The Result tag and the termination marker of a finished game: White's
/// score first, in the convention of the game type.
fn result_of(pdn: &str) -> (String, String) {
    let tag = pdn
        .lines()
        .find_map(|l| l.strip_prefix("[Result \"")?.strip_suffix("\"]"))
        .unwrap()
        .to_string();
    let marker = pdn.split_whitespace().last().unwrap().to_string();
    (tag, marker)
}

#[test]
fn results_are_written_as_readers_of_the_game_type_expect() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    // (game, White wins, Black wins): International, Brazilian and Russian
    // count two points a game (as lidraughts writes them), English checkers
    // one; White is the side called White, whoever moves first.
    let cases = [
        ("draughts", "2-0", "0-2"),
        ("variants/russian", "2-0", "0-2"),
        ("variants/international", "2-0", "0-2"),
        ("variants/english", "1-0", "0-1"),
    ];
    for (game, white_wins, black_wins) in cases {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 1..=12 {
            let t = check(&BundledLoader, game, &[]).into_board().unwrap();
            let record = seeded_record(game, seed);
            let replay = record.replay(&t);
            let winner = match replay.game.outcome() {
                Some(rulebook::board::Outcome::Win { winner, .. }) => {
                    t.game().sides[usize::from(winner.0)].id.clone()
                }
                _ => continue,
            };
            let jsonl = dir.join("g.jsonl");
            std::fs::write(&jsonl, record.to_jsonl()).unwrap();
            let (code, pdn, err) = run(&["export", jsonl.to_str().unwrap(), "--pdn"]);
            assert_eq!(code, 0, "{err}");
            let expected = if winner == "white" {
                white_wins
            } else {
                black_wins
            };
            assert_eq!(
                result_of(&pdn),
                (expected.into(), expected.into()),
                "{game} {seed}: {winner} won\n{pdn}"
            );
            seen.insert(winner);
        }
        assert_eq!(
            seen.len(),
            2,
            "{game}: both sides win in some seed: {seen:?}"
        );
    }
}

#[test]
fn draughts_types_with_algebraic_notation_are_written_algebraically() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let file = dir.join("g.jsonl");
    let ply = |player: &str, mv: &str| format!("{{\"player\":\"{player}\",\"move\":\"{mv}\"}}\n");
    for (game, plies, opening) in [
        (
            "draughts",
            [("white", "22-18"), ("black", "11-15"), ("white", "18x11")],
            "1. c3-d4 f6-e5 2. d4xf6 *",
        ),
        (
            "variants/russian",
            [("white", "22-18"), ("black", "11-15"), ("white", "18x11")],
            "1. c3-d4 f6-e5 2. d4xf6 *",
        ),
        // English checkers: numbers, and Black moves first.
        (
            "variants/english",
            [("black", "11-15"), ("white", "22-18"), ("black", "15x22")],
            "1. 11-15 22-18 2. 15x22 *",
        ),
    ] {
        let mut text = format!("{{\"game\":\"{game}\"}}\n");
        for (player, mv) in plies {
            text.push_str(&ply(player, mv));
        }
        std::fs::write(&file, text).unwrap();
        let (code, pdn, err) = run(&["export", file.to_str().unwrap(), "--pdn"]);
        assert_eq!(code, 0, "{game}: {err}");
        assert!(pdn.contains(opening), "{game}: {pdn}");
        // The file comes back as the same record.
        let pdn_file = dir.join("g.pdn");
        std::fs::write(&pdn_file, &pdn).unwrap();
        let (code, back, err) = run(&["import", pdn_file.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
        let moves: Vec<String> = BoardRecord::parse(&back)
            .unwrap()
            .plies
            .iter()
            .map(|p| p.mv.clone())
            .collect();
        let expected: Vec<&str> = plies.iter().map(|(_, m)| *m).collect();
        assert_eq!(moves, expected, "{game}");
    }
}

#[test]
fn importing_other_softwares_pdn() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let file = dir.join("in.pdn");
    std::fs::write(
        &file,
        "[Event \"Club\"]\n[GameType \"26\"]\n\n1. 22-18 {a quiet start} 11-15 2. 18x11 $1 8x15 (2... 7x16)\n3. 21-17 *\n",
    )
    .unwrap();
    let (code, out, err) = run(&["import", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let rec = BoardRecord::parse(&out).unwrap();
    assert_eq!(rec.header.game, "draughts");
    let moves: Vec<&str> = rec.plies.iter().map(|p| p.mv.as_str()).collect();
    assert_eq!(moves, ["22-18", "11-15", "18x11", "8x15", "21-17"]);
}

#[test]
fn a_broken_pdn_names_the_line_and_keeps_the_moves_before() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let file = dir.join("bad.pdn");
    std::fs::write(
        &file,
        "[GameType \"26\"]\n\n1. 22-18 11-15\n2. 18-14 9-13\n",
    )
    .unwrap();
    let (code, out, err) = run(&["import", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("line 4: 18-14 is illegal: a capture is compulsory: 18x11"),
        "{err}"
    );
    assert_eq!(BoardRecord::parse(&out).unwrap().plies.len(), 2);
    // Lines that end in CR LF or in CR alone are counted the same.
    for eol in ["\r\n", "\r"] {
        let text = "[GameType \"26\"]\n\n1. 22-18 11-15\n2. 18-14 9-13\n".replace('\n', eol);
        std::fs::write(&file, text).unwrap();
        let (code, _, err) = run(&["import", file.to_str().unwrap()]);
        assert_eq!(code, 1);
        assert!(err.contains("line 4: 18-14 is illegal"), "{eol:?}: {err}");
    }
    std::fs::write(&file, "[GameType 26]\n1. 22-18\n").unwrap();
    let (code, _, err) = run(&["import", file.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("line 1: the value of tag GameType must be in double quotes"),
        "{err}"
    );
    std::fs::write(&file, "[GameType \"26\"]\n1. 22-18 {never closed\n").unwrap();
    let (_, _, err) = run(&["import", file.to_str().unwrap()]);
    assert!(
        err.contains("line 2: a comment opened here with `{` is never closed by `}`"),
        "{err}"
    );
}

#[test]
fn a_broken_record_names_the_line() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let file = dir.join("bad.jsonl");
    std::fs::write(
        &file,
        "{\"game\":\"draughts\"}\n{\"player\":\"white\",\"move\":\"22-18\"}\n{\"player\":\"black\",\"move\":\"11-16\"\n",
    )
    .unwrap();
    let (code, out, err) = run(&["export", file.to_str().unwrap(), "--pdn"]);
    assert_eq!(code, 1);
    assert!(err.contains("line 3: a ply is written"), "{err}");
    assert!(out.contains("1. c3-d4 *"), "{out}");
}

#[test]
fn junk_pdn_and_records_never_panic() {
    let t = check(&BundledLoader, "draughts", &[]).into_board().unwrap();
    let mut rng = Rng::new(11);
    let seeds = [
        "[GameType \"26\"]\n1. 22-18 11-15 2. 18x11 8x15 *",
        "{\"game\":\"draughts\"}\n{\"player\":\"white\",\"move\":\"22-18\"}\n",
    ];
    const ALPHABET: &[u8] = b"[]{}()\"x-:.0123456789 \nWBK$*/abcdefgh,";
    for i in 0..4000 {
        let base = seeds[i % 2].as_bytes();
        let mut bytes = base.to_vec();
        for _ in 0..1 + rng.below(6) {
            let at = rng.below(bytes.len() as u64 + 1) as usize;
            match rng.below(3) {
                0 if at < bytes.len() => {
                    bytes.remove(at);
                }
                1 => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len() as u64) as usize]),
                _ => bytes.truncate(at),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let (games, error) = rulebook::pdn::parse_all(&text);
        if let Some(e) = error {
            assert!(
                e.line >= 1 && e.line <= text.lines().count().max(1),
                "{e} in {text:?}"
            );
        }
        for game in &games {
            let (start, moves, _) = rulebook::pdn::play(&t, game);
            let export = rulebook::pdn::Export {
                tags: game.tags.clone(),
                result: game
                    .result
                    .as_deref()
                    .and_then(rulebook::pdn::PdnResult::parse),
            };
            let _ = rulebook::pdn::write_game(&t, &export, &start, &moves);
        }
        match BoardRecord::parse(&text) {
            Ok(r) => drop(r.replay(&t)),
            Err(p) => {
                assert!(p.error.line >= 1);
                if let Some(r) = p.record {
                    drop(r.replay(&t));
                }
            }
        }
    }
}

const THREE_GAMES: &str = "[Event \"Club night\"]
[Site \"Vilnius LTU\"]
[Date \"2026.11.30\"]
[White \"Ona\"]
[Black \"Jonas\"]
[Result \"0-2\"]
[GameType \"26\"]

1. c3-d4 f6-e5 2. d4xf6 g7xe5 0-2

[Event \"Club night\"]
[White \"Jonas\"]
[Black \"Ona\"]
[Result \"1-1\"]
[GameType \"20\"]
[SetUp \"1\"]
[FEN \"W:W31-35,K46:B1-5,18:H0:F12\"]

12. 32-28 18-22 1-1

[Event \"Club night\"]
[GameType \"25\"]
[Result \"*\"]

1. c3-d4 h6-g5 2. d4-c5 b6xd4 3. e3xc5 *
";

#[test]
fn a_file_of_several_games_imports_every_game() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let file = dir.join("club.pdn");
    std::fs::write(&file, THREE_GAMES).unwrap();
    let f = file.to_str().unwrap();
    // To standard output only one: say how many there are and how to choose.
    let (code, out, err) = run(&["import", f]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("holds 3 games (at lines 1, 11, 21): choose one with --game N, or write one record each with -o OUT.jsonl"),
        "{err}"
    );
    // --game N: that one, with its tags and its set-up position (the
    // lidraughts counters :H0:F12 read and dropped).
    let (code, out, err) = run(&["import", f, "--game", "2"]);
    assert_eq!(code, 0, "{err}");
    let rec = BoardRecord::parse(&out).unwrap();
    assert_eq!(rec.header.game, "variants/international");
    assert_eq!(
        rec.header.position.as_deref(),
        Some("W:W31,32,33,34,35,K46:B1,2,3,4,5,18")
    );
    let tags: Vec<(&str, &str)> = rec
        .header
        .tags
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        tags,
        [
            ("Event", "Club night"),
            ("White", "Jonas"),
            ("Black", "Ona"),
            ("Result", "1-1")
        ]
    );
    let (code, _, err) = run(&["import", f, "--game", "4"]);
    assert_eq!(code, 2);
    assert!(err.contains("--game 4: "), "{err}");
    assert!(err.contains("holds 3 games: choose 1 to 3"), "{err}");
    // -o OUT.jsonl: one record each.
    let out_path = dir.join("club.jsonl");
    let (code, out, err) = run(&["import", f, "-o", out_path.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(err.contains("imported 3 of the 3 games of "), "{err}");
    // The files first to last, not every name of a long list.
    assert!(err.trim_end().ends_with("club-3.jsonl"), "{err}");
    assert!(err.contains("club-1.jsonl to "), "{err}");
    let games: Vec<String> = (1..=3)
        .map(|i| std::fs::read_to_string(dir.join(format!("club-{i}.jsonl"))).unwrap())
        .collect();
    let names: Vec<String> = games
        .iter()
        .map(|g| BoardRecord::parse(g).unwrap().header.game)
        .collect();
    assert_eq!(
        names,
        ["draughts", "variants/international", "variants/russian"]
    );
    // Export writes the tags back, the game type's notation, SetUp and FEN.
    let (code, pdn, err) = run(&[
        "export",
        dir.join("club-1.jsonl").to_str().unwrap(),
        "--pdn",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        pdn,
        "[Event \"Club night\"]\n[Site \"Vilnius LTU\"]\n[Date \"2026.11.30\"]\n[White \"Ona\"]\n[Black \"Jonas\"]\n[GameType \"26\"]\n[Result \"0-2\"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 0-2\n"
    );
    let (_, pdn, _) = run(&[
        "export",
        dir.join("club-2.jsonl").to_str().unwrap(),
        "--pdn",
    ]);
    assert!(
        pdn.contains("[GameType \"20\"]\n[SetUp \"1\"]\n[FEN \"W:W31,32,33,34,35,K46:B1,2,3,4,5,18\"]\n[Result \"1-1\"]\n\n1. 32-28 18-22 1-1\n"),
        "{pdn}"
    );
}

#[test]
fn errors_in_a_file_of_several_games_name_the_game_and_its_line() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let file = dir.join("club.pdn");
    // Game 2 has an illegal move on line 19; game 3's GameType is no number
    // (line 22); a comment opened on line 28 is never closed.
    let text = THREE_GAMES
        .replace("12. 32-28 18-22 1-1", "12. 32-28 18-27 1-1")
        .replace("[GameType \"25\"]", "[GameType \"Russian\"]")
        + "\n[GameType \"20\"]\n1. 32-28 {never closed\n";
    std::fs::write(&file, text).unwrap();
    let out_path = dir.join("club.jsonl");
    let (code, _, err) = run(&[
        "import",
        file.to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("game 2: line 19: 18-27 is illegal"), "{err}");
    assert!(err.contains("the 1 moves before it were imported"), "{err}");
    assert!(
        err.contains("game 3: line 22: GameType \"Russian\" is not a number"),
        "{err}"
    );
    assert!(
        err.contains("line 28: a comment opened here with `{` is never closed by `}`; the 3 games before it were read"),
        "{err}"
    );
    assert!(err.contains("imported 2 of the 3 games"), "{err}");
    assert!(dir.join("club-1.jsonl").exists() && dir.join("club-2.jsonl").exists());
    assert!(!dir.join("club-3.jsonl").exists());
}

#[test]
fn a_game_played_with_options_is_exported_with_a_warning() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    let file = dir.join("short.jsonl");
    std::fs::write(
        &file,
        "{\"game\":\"draughts\",\"options\":[\"kings=short\"]}\n{\"player\":\"white\",\"move\":\"22-18\"}\n",
    )
    .unwrap();
    let (code, pdn, err) = run(&["export", file.to_str().unwrap(), "--pdn"]);
    assert_eq!(code, 0, "{err}");
    assert!(pdn.contains("[GameType \"26\"]"), "{pdn}");
    assert_eq!(
        err,
        "warning: the game was played with --option kings=short; GameType 26 names draughts without it, so other programs may read the moves by other rules\n"
    );
}

#[test]
fn a_resigned_game_is_exported_with_its_result() {
    let scratch = common::scratch();
    let dir = scratch.path().to_path_buf();
    // (game, moves typed before `resign`, the Result): the side to move
    // resigns, so the other side wins.
    for (game, typed, result) in [
        // White resigns at once: Black wins, 0-2 in Brazilian.
        ("draughts", "", "0-2"),
        // English: Black moves first and resigns at once; White wins, 1-0.
        ("variants/english", "", "1-0"),
        // English: Black plays 11-15, White 22-18, Black resigns: 1-0.
        ("variants/english", "11-15\n22-18\n", "1-0"),
        // Russian: White plays c3-d4, Black resigns: 2-0.
        ("variants/russian", "c3-d4\n", "2-0"),
    ] {
        let file = dir.join("resigned.jsonl");
        let _ = std::fs::remove_file(&file);
        let input = format!("{typed}resign\n");
        let (code, _, err) = common::run_input(
            &[
                "play",
                game,
                "--seed",
                "1",
                "--record",
                file.to_str().unwrap(),
            ],
            input,
        );
        assert_eq!(code, 0, "{err}");
        let (code, pdn, err) = run(&["export", file.to_str().unwrap(), "--pdn"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            result_of(&pdn),
            (result.into(), result.into()),
            "{game}:\n{pdn}"
        );
    }
}
