//! Jump paths and lines between points, on the bundled Konane and
//! Alquerque and the Leapfrog Breakthrough house rule: jump chains that
//! keep one direction (`straight`), opening moves that remove an own piece
//! (`opening remove own ...`), hops over own pieces (`hop`) and lines that
//! join only some points (`lines`). Perft from the start and from positions
//! of seeded random games against a program written for the test from the
//! rules alone (tests/independent/jumps.py, Python's standard library,
//! sharing no code with ours); no published perft table of either game was
//! found (a search of public code for Konane and Alquerque perft figures
//! found engines but no tables, and their opening rules differ), so the
//! independent program is the reference. Also: seeded random games replayed
//! there move by move, make and unmake against the copying walk, the
//! kernels refusing the new constructs, a record replayed, the pictures'
//! lines, refusals that name the rule, and every new diagnostic of `check`
//! as a snapshot. The scripted games of each rule are in
//! tests/fixtures/scripts (`ko-*`, `aq-*`, `lf-*`), the seeded random games
//! in `games::random_games`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::board_game as bundled;
use crate::common::board_text as tables;

use crate::common;

use rulebook::board::{Outcome, Perft, Position, Tables};
use rulebook::load::{check_source, BundledLoader, Source};

/// The three games the independent program knows, by its names.
fn games() -> Vec<(&'static str, Tables)> {
    vec![
        ("konane8", bundled("other/konane", &[])),
        ("konane6", bundled("other/konane", &[("size", "small")])),
        ("alquerque", bundled("other/alquerque", &[])),
    ]
}

/// Runs tests/independent/jumps.py with `args`, `input` on its stdin.
fn independent(args: &[&str], input: &str) -> String {
    common::independent_program("jumps.py", args, input)
        .trim()
        .to_string()
}

/// The independent program's perft of `game` to `depth`, from `position`
/// (the start when None).
fn their_perft(game: &str, depth: usize, position: Option<&str>) -> u64 {
    let depth = depth.to_string();
    let mut args = vec!["perft", game, depth.as_str()];
    if let Some(p) = position {
        args.push(p);
    }
    independent(&args, "").parse().unwrap()
}

#[test]
fn perft_from_the_start_agrees_with_the_independent_program() {
    for (name, t, depth) in [
        ("konane8", bundled("other/konane", &[]), 6),
        ("konane6", bundled("other/konane", &[("size", "small")]), 6),
        ("alquerque", bundled("other/alquerque", &[]), 7),
    ] {
        let start = Position::start(&t);
        let mut perft = Perft::new(&t, depth);
        for d in 1..=depth {
            let ours = perft.count(&start, d);
            assert!(ours > 0, "{name}: perft {d} is 0");
            assert_eq!(ours, their_perft(name, d, None), "{name}: perft {d}");
        }
        assert!(!perft.overflowed());
    }
}

#[test]
fn perft_from_random_game_positions_agrees_with_the_independent_program() {
    let mut compared = 0;
    for (name, t) in games() {
        let depth = if name == "alquerque" { 4 } else { 3 };
        let start = Position::start(&t);
        for seed in 1..=4u64 {
            let played = common::random_game(&t, &start, seed, 1000);
            let moves = played.played().to_vec();
            for plies in [1usize, 2, 5, 12, 24] {
                if plies > moves.len() {
                    continue;
                }
                let mut m = rulebook::board::Match::new(&t, start.clone());
                for mv in &moves[..plies] {
                    m.play(mv);
                }
                let fen = m.pos().to_fen(&t);
                let mut perft = Perft::new(&t, depth);
                let ours = perft.count(m.pos(), depth);
                assert_eq!(
                    ours,
                    their_perft(name, depth, Some(&fen)),
                    "{name} seed {seed} after {plies} plies: {fen}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 40, "only {compared} positions compared");
}

#[test]
fn random_games_agree_with_the_independent_program() {
    for (name, t) in games() {
        let start = Position::start(&t);
        let mut decided = 0;
        for seed in 1..=8u64 {
            let m = common::random_game(&t, &start, seed, 1000);
            let moves: Vec<&str> = m.played().iter().map(|mv| mv.notation.as_str()).collect();
            let answer: serde_json::Value = serde_json::from_str(&independent(
                &["replay", name],
                &serde_json::to_string(&moves).unwrap(),
            ))
            .unwrap();
            assert_eq!(
                answer["illegal"],
                serde_json::Value::Null,
                "{name} seed {seed}: {answer}"
            );
            assert_eq!(answer["plies"], moves.len(), "{name} seed {seed}");
            let ours = match m.outcome() {
                Some(Outcome::Win { winner, .. }) => {
                    t.game().sides[usize::from(winner.0)].id.clone()
                }
                _ => "none".to_string(),
            };
            // A repetition draw is ours alone (the program knows no
            // history): it is no decision there either.
            if ours != "none" {
                decided += 1;
                assert_eq!(answer["result"], ours.as_str(), "{name} seed {seed}");
            }
        }
        assert!(decided > 0, "{name}: no game was decided");
    }
}

#[test]
fn make_and_unmake_count_as_copies_do() {
    let mut all = games();
    all.push(("leapfrog", bundled("variants/leapfrog", &[])));
    for (name, t) in all {
        let start = Position::start(&t);
        let mut perft = Perft::new(&t, 4);
        for depth in 1..=4 {
            assert_eq!(
                perft.count_make_unmake(&start, depth),
                perft.count(&start, depth),
                "{name}: perft {depth} by make and unmake"
            );
        }
    }
}

#[test]
fn the_kernels_leave_the_new_constructs_to_the_general_path() {
    for (name, t) in games()
        .into_iter()
        .chain([("leapfrog", bundled("variants/leapfrog", &[]))])
    {
        assert!(t.kernel().is_none(), "{name}: a kernel");
        assert!(t.wide_kernel().is_none(), "{name}: a wide kernel");
    }
    // The games without them keep theirs.
    for name in ["draughts", "variants/english", "variants/russian"] {
        assert!(bundled(name, &[]).kernel().is_some(), "{name}: no kernel");
    }
}

/// Hops by hand (Leapfrog Breakthrough, White moving north): the piece on
/// a1 can't step (a2 and b2 are its own); it hops over a2 to a3 and on over
/// a4 to a5 (not over the enemy on a6), or over b2 to c3. The other pieces
/// step: a2 to a3 or b3, a4 to a5 or b5, b2 to a3, b3 or c3.
#[test]
fn hops_chain_over_own_pieces_and_capture_nothing() {
    let t = bundled("variants/leapfrog", &[]);
    let pos = Position::parse(&t, "W:Wa1,a2,a4,b2:Bh8,a6").unwrap();
    let m = rulebook::board::Match::new(&t, pos);
    let mut hops: Vec<&str> = m
        .legal()
        .iter()
        .filter(|mv| {
            mv.from
                .map(|s| t.game().squares[usize::from(s.0)].algebraic.as_str())
                == Some("a1")
        })
        .map(|mv| mv.notation.as_str())
        .collect();
    hops.sort_unstable();
    assert_eq!(hops, ["a1-a3", "a1-a3-a5", "a1-c3"]);
    assert_eq!(m.legal().len(), 3 + 2 + 2 + 3);
    assert!(m.legal().iter().all(|mv| !mv.is_capture()));
    // A chain never comes back: on a ring of own pieces, a piece that
    // could hop round and back lands on each square once.
    let ring = "game \"Ring\"\nboard 5 x 5\nside white \"White\" forward north\nside black \"Black\" forward south\npiece p \"P\" {\n  hop orthogonal\n}\nsetup white p at a1 b1 c2 b3 a2\nsetup black p at e5\nend no-moves lose\n";
    let t = tables(ring);
    let m = rulebook::board::Match::new(&t, Position::start(&t));
    for mv in m.legal() {
        let mut seen = vec![mv.from.unwrap()];
        for &s in &mv.path {
            assert!(!seen.contains(&s), "{} comes back to a square", mv.notation);
            seen.push(s);
        }
    }
    assert!(
        m.legal().iter().any(|mv| mv.path.len() >= 2),
        "no chain of hops"
    );
}

#[test]
fn refusals_name_the_rule() {
    let t = bundled("other/konane", &[]);
    let say = |pos: &str, text: &str| {
        let m = rulebook::board::Match::new(&t, Position::parse(&t, pos).unwrap());
        let why = m.parse_move(text).expect_err(text);
        rulebook::narrate::board::refusal(&t, &why)
    };
    let turn = say("B:Ba1,h8:Wb1,d1,c2,h1", "a1xc1xc3");
    assert!(
        turn.contains("a chain of jumps must keep one direction"),
        "{turn}"
    );
    let start = Position::start(&t).to_fen(&t);
    let opening = say(&start, "c3");
    assert!(
        opening.contains("an opening move removes one of Black's own pieces"),
        "{opening}"
    );
}

#[test]
fn the_pictures_draw_the_lines() {
    let t = bundled("other/alquerque", &[]);
    let pos = Position::start(&t);
    let svg = rulebook::format::svg::board::render_svg(&t, &pos);
    // 5 x 5 points: 2 x 5 x 4 lines along ranks and files, and 16
    // diagonal ones (two crossing in each of the four 2 x 2 blocks of
    // points, twice over).
    let lines = svg
        .split("<g id=\"lines\"")
        .nth(1)
        .unwrap()
        .split("</g>")
        .next()
        .unwrap();
    assert_eq!(lines.matches("<line ").count(), 40 + 16, "{svg}");
    let text = rulebook::format::text::board::render(&t, &pos);
    assert_eq!(
        text.matches('\\').count() + text.matches('/').count(),
        16,
        "{text}"
    );
    // A board of squares draws none.
    let plain = bundled("other/breakthrough", &[]);
    let svg = rulebook::format::svg::board::render_svg(&plain, &Position::start(&plain));
    assert!(!svg.contains("id=\"lines\""));
}

#[test]
fn a_konane_record_is_replayed_to_the_same_end() {
    let scratch = common::scratch();
    let record = scratch.path().join("k.jsonl");
    let record = record.to_str().unwrap();
    let played = common::ok(&[
        "play",
        "other/konane",
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
    // The removals are recorded as their squares, the jumps from square to
    // square.
    let text = std::fs::read_to_string(record).unwrap();
    let moves: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split("\"move\":\"").nth(1))
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(moves.len() > 2, "{text}");
    assert!(moves[..2].iter().all(|m| m.len() == 2), "{text}");
    assert!(moves[2..].iter().all(|m| m.contains('x')), "{text}");
}

#[test]
fn simulate_plays_the_new_games() {
    for game in ["other/konane", "other/alquerque", "variants/leapfrog"] {
        let out = common::ok(&["simulate", game, "--games", "6", "--seed", "2", "--quiet"]);
        assert!(
            out.contains("6 games") || out.contains("games: 6"),
            "{game}: {out}"
        );
    }
}

/// Each mistake with the new constructs, as `check` reports it.
#[test]
fn board_jumps_diagnostics() {
    let cases: &[(&str, &str)] = &[
        (
            "opening-square-off-the-board",
            "extends \"other/konane\"\nopening remove own on d4 j9\nopening remove own next-to empty orthogonal\n",
        ),
        (
            "opening-next-to-empty-on-a-full-board",
            "extends \"other/konane\"\nopening remove own next-to empty orthogonal\n",
        ),
        (
            "opening-squares-without-a-piece",
            "extends \"other/konane\"\nopening remove own on d5 e4\nopening remove own next-to empty orthogonal\n",
        ),
        (
            "opening-unknown-direction",
            "extends \"other/konane\"\nopening remove own on d4\nopening remove own next-to empty orthogonl\n",
        ),
        (
            "opening-in-a-game-that-places",
            "extends \"other/reversi\"\nopening remove own on d4 e5\n",
        ),
        (
            "lines-unknown-direction",
            "extends \"other/alquerque\"\nlines diagnal only from dark\n",
        ),
        (
            "lines-square-off-the-board",
            "extends \"other/alquerque\"\nlines diagonal only from a1 c3 f6\n",
        ),
        (
            "lines-joining-every-square",
            "extends \"other/alquerque\"\nlines diagonal only from a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 a3 b3 c3 d3 e3 a4 b4 c4 d4 e4 a5 b5 c5 d5 e5\n",
        ),
        (
            "straight-with-no-reverse",
            "extends \"draughts\"\npiece king \"King\" letter K {\n  slide diagonal\n  jump long diagonal straight no-reverse\n}\n",
        ),
        (
            "straight-on-a-step",
            "extends \"other/konane\"\npiece stone \"Stone\" {\n  step orthogonal straight\n}\n",
        ),
        (
            "hop-unknown-direction",
            "extends \"variants/leapfrog\"\npiece pawn \"Piece\" {\n  step forward\n  hop forwrd\n}\n",
        ),
    ];
    for (name, text) in cases {
        let checked = check_source(
            Source {
                name: "test.rules".to_string(),
                text: text.to_string(),
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
