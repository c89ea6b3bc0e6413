//! Property tests of the engine on every bundled game and variant, over
//! seeded random games: make and unmake restore the exact position; the
//! bitboards agree with the board; `undo` restores the game; perft by
//! make/unmake equals perft by copying; every listed move is accepted by its
//! notation and nothing else is; position and move strings never panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::run as cli;
use rulebook::board::{
    find_move, make_undoable, moves_of, unmake, Generator, Match, MoveList, Perft, Position, Tables,
};
use rulebook::load::{check, BundledLoader};
use rulebook::rng::Rng;

fn games() -> Vec<(&'static str, Tables)> {
    rulebook::bundled::GAMES
        .iter()
        .filter_map(|(name, _)| {
            let checked = check(&BundledLoader, name, &[]);
            // Race games have no board position to test here.
            checked.into_board().map(|t| (*name, t))
        })
        .collect()
}

fn bitboards_agree(t: &Tables, p: &Position) -> bool {
    let Some(l) = t.layout() else {
        return true;
    };
    let mut bb = vec![0u128; p.bitboards().len()];
    for (sq, &c) in p.codes().iter().enumerate() {
        if c != 0 {
            bb[usize::from(c)] |= 1 << l.bit_of[sq];
        }
    }
    bb == p.bitboards()
}

/// Random positions reached by seeded random play from the start.
fn random_positions(t: &Tables, seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut gen = Generator::new();
    let mut list = MoveList::new();
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = Position::start(t);
        for _ in 0..plies {
            gen.generate(t, &mut p, &mut list);
            if list.is_empty() {
                break;
            }
            let m = list.moves[rng.below(list.len() as u64) as usize];
            rulebook::board::make(t, &mut p, &list, &m);
            out.push(p.clone());
        }
    }
    out
}

#[test]
fn make_unmake_restores_and_bitboards_agree() {
    for (name, t) in games() {
        let mut gen = Generator::new();
        let mut list = MoveList::new();
        let mut stack = Vec::new();
        for p in random_positions(&t, 1, 20, 150) {
            assert!(bitboards_agree(&t, &p), "{name}: {}", p.to_fen(&t));
            let mut q = p.clone();
            gen.generate(&t, &mut q, &mut list);
            assert_eq!(q, p, "{name}: generation changed the position");
            for m in &list.moves {
                let u = make_undoable(&t, &mut q, &list, m, &mut stack);
                assert!(bitboards_agree(&t, &q), "{name}");
                unmake(&t, &mut q, &list, m, u, &mut stack);
                assert_eq!(q, p, "{name}: unmake after {:?}", m);
            }
            assert!(stack.is_empty());
        }
    }
}

#[test]
fn perft_by_make_unmake_equals_perft_by_copying() {
    for (name, t) in games() {
        let mut perft = Perft::new(&t, 4);
        let mut positions = vec![Position::start(&t)];
        positions.extend(random_positions(&t, 2, 3, 60).into_iter().step_by(17));
        for p in positions {
            assert_eq!(
                perft.count(&p, 3),
                perft.count_make_unmake(&p, 3),
                "{name}: {}",
                p.to_fen(&t)
            );
        }
    }
}

#[test]
fn every_listed_move_is_accepted_and_nothing_else() {
    for (name, t) in games() {
        let mut gen = Generator::new();
        let mut list = MoveList::new();
        let mut rng = Rng::new(3);
        for p in random_positions(&t, 3, 10, 120) {
            let mut q = p.clone();
            gen.generate(&t, &mut q, &mut list);
            let legal = moves_of(&t, &list);
            for m in &legal {
                assert_eq!(
                    find_move(&t, &p, &legal, &m.notation).as_ref(),
                    Ok(m),
                    "{name}"
                );
                assert_eq!(
                    find_move(&t, &p, &legal, &m.algebraic).as_ref(),
                    Ok(m),
                    "{name}"
                );
            }
            // Made-up moves between random squares are refused unless listed.
            for _ in 0..20 {
                let a = rng.below(t.squares() as u64) as u16;
                let b = rng.below(t.squares() as u64) as u16;
                let name_of = |s: u16| t.game().squares[usize::from(s)].algebraic.clone();
                for sep in ["-", "x"] {
                    let text = format!("{}{sep}{}", name_of(a), name_of(b));
                    let listed: Vec<_> = legal
                        .iter()
                        .filter(|m| {
                            m.from.map(|s| s.0) == Some(a) && m.path.last().map(|s| s.0) == Some(b)
                        })
                        .collect();
                    match find_move(&t, &p, &legal, &text) {
                        Ok(m) => assert!(listed.contains(&&m), "{name}: {text} accepted"),
                        Err(why) => {
                            let why = rulebook::narrate::board::refusal(&t, &why);
                            assert!(listed.len() != 1, "{name}: {text} refused: {why}");
                            assert!(!why.is_empty());
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn undo_restores_the_game() {
    for (name, t) in games() {
        let mut rng = Rng::new(4);
        let mut m = Match::new(&t, Position::start(&t));
        let mut before = Vec::new();
        for _ in 0..80 {
            if m.legal().is_empty() {
                break;
            }
            before.push((m.pos().clone(), m.legal().to_vec()));
            let i = rng.below(m.legal().len() as u64) as usize;
            let mv = m.legal()[i].clone();
            m.play(&mv);
        }
        while let Some((pos, legal)) = before.pop() {
            assert!(m.undo(), "{name}");
            assert_eq!(m.pos(), &pos, "{name}");
            assert_eq!(m.legal(), &legal[..], "{name}");
        }
        assert!(!m.undo());
        // Redo replays the same game.
        let mut redone = 0;
        while m.redo().is_some() {
            redone += 1;
        }
        assert_eq!(redone, m.played().len(), "{name}");
    }
}

/// Random text from a small alphabet that looks like positions and moves.
fn junk(rng: &mut Rng, len: usize) -> String {
    const ALPHABET: &[u8] = b"WBKwbk:,-x.0123456789abcdefghijklz ";
    (0..len)
        .map(|_| ALPHABET[rng.below(ALPHABET.len() as u64) as usize] as char)
        .collect()
}

#[test]
fn position_and_move_strings_never_panic() {
    let mut rng = Rng::new(5);
    for (_, t) in games() {
        let start = Position::start(&t);
        let mut gen = Generator::new();
        let mut list = MoveList::new();
        gen.generate(&t, &mut start.clone(), &mut list);
        let legal = moves_of(&t, &list);
        for i in 0..3000 {
            let s = junk(&mut rng, 1 + i % 40);
            if let Ok(p) = Position::parse(&t, &s) {
                // A parsed position is well formed: it prints and re-parses.
                assert_eq!(Position::parse(&t, &p.to_fen(&t)).unwrap(), p, "{s}");
                let mut q = p.clone();
                gen.generate(&t, &mut q, &mut list);
            }
            let _ = find_move(&t, &start, &legal, &s);
        }
    }
}

// ---- The command line's numbers (docs/limits.md) ----

/// Every numeric option: the command line before the value (with a game
/// that does not exist, so that a value clap accepts runs nothing), the
/// option, and its range.
fn numeric_options() -> Vec<(Vec<&'static str>, &'static str, (u64, u64))> {
    use rulebook::cli::limits as l;
    let mut v = Vec::new();
    for cmd in ["simulate", "compare"] {
        let mut head = vec![cmd, "no-such-game"];
        if cmd == "compare" {
            head.push("no-such-game-either");
        }
        for (opt, range) in [
            ("--games", l::GAMES),
            ("--jobs", l::JOBS),
            ("--max-plies", l::MAX_PLIES),
            ("--think", l::THINK_MS),
            ("--playouts", l::PLAYOUTS),
            ("--depth", l::SEARCH_DEPTH),
            ("--players", l::PLAYERS),
            ("--seed", (0, u64::MAX)),
        ] {
            v.push((head.clone(), opt, range));
        }
    }
    for (opt, range) in [
        ("--max-plies", l::MAX_PLIES),
        ("--think", l::THINK_MS),
        ("--playouts", l::PLAYOUTS),
        ("--depth", l::SEARCH_DEPTH),
        ("--players", l::PLAYERS),
        ("--seed", (0, u64::MAX)),
    ] {
        v.push((vec!["play", "no-such-game"], opt, range));
    }
    v.push((vec!["bench", "no-such-game"], "--depth", l::PERFT_DEPTH));
    v.push((vec!["bench", "no-such-game"], "--jobs", l::JOBS));
    v.push((vec!["perft", "no-such-game"], "", l::PERFT_DEPTH));
    v
}

fn with_value<'a>(head: &[&'a str], opt: &'a str, value: &'a str) -> Vec<&'a str> {
    let mut args = head.to_vec();
    if !opt.is_empty() {
        args.push(opt);
    }
    args.push(value);
    args
}

#[test]
fn every_numeric_option_at_its_bounds_is_accepted() {
    for (head, opt, (min, max)) in numeric_options() {
        for n in [min, max] {
            let value = n.to_string();
            let (code, _, err) = cli(&with_value(&head, opt, &value));
            // Accepted: the run goes on to load the game, which isn't there.
            assert!(
                err.contains("no-such-game") && !err.contains("invalid value"),
                "{head:?} {opt} {value}: exit {code}\n{err}"
            );
        }
    }
}

#[test]
fn every_numeric_option_past_its_bounds_is_refused_in_words() {
    for (head, opt, (min, max)) in numeric_options() {
        let mut past: Vec<(String, &str)> = vec![
            ("99999999999999999999".into(), "too large"),
            ("1e3".into(), "not a whole number"),
            ("NaN".into(), "not a whole number"),
        ];
        if max < u64::MAX {
            past.push(((max + 1).to_string(), "too large"));
            past.push((u64::MAX.to_string(), "too large"));
        }
        if min > 0 {
            past.push(((min - 1).to_string(), "below"));
        }
        for (value, why) in past {
            let args = with_value(&head, opt, &value);
            let (code, out, err) = cli(&args);
            assert_eq!(code, 2, "{args:?} was accepted:\n{out}{err}");
            assert!(
                err.contains("invalid value") && err.contains(why) && !err.contains("no-such-game"),
                "{args:?}:\n{err}"
            );
            let range = format!("from {min} to {max}");
            assert!(
                err.contains(&range),
                "{args:?} does not say {range}:\n{err}"
            );
        }
    }
}

#[test]
fn bench_seconds_must_be_finite_and_bounded() {
    let (min, max) = rulebook::cli::limits::SECONDS;
    for bad in ["inf", "-inf", "NaN", "1e20", "0", "-1", "3600.5", "soon"] {
        let arg = format!("--seconds={bad}");
        let args = ["bench", "no-such-game", "--playouts", &arg];
        let (code, _, err) = cli(&args);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains("invalid value"), "{bad}: {err}");
        assert!(
            err.contains(&format!("from {min} to {max}")),
            "{bad}: {err}"
        );
    }
    for good in ["0.01", "3600", "2.5"] {
        let (_, _, err) = cli(&["bench", "no-such-game", "--seconds", good]);
        assert!(err.contains("no-such-game"), "{good}: {err}");
    }
    // At the low bound it measures (for a hundredth of a second).
    let (code, out, err) = cli(&["bench", "draughts", "--playouts", "--seconds", "0.01"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("playouts"), "{out}");
}

#[test]
fn the_smallest_values_run() {
    let (code, out, err) = cli(&["perft", "draughts", "1"]);
    assert_eq!((code, out.as_str()), (0, "perft 1 7\n"), "{err}");
    let (code, out, err) = cli(&[
        "simulate",
        "draughts",
        "--games",
        "1",
        "--jobs",
        "1",
        "--max-plies",
        "1",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 game"), "{out}");
    // No game at all is a usage error (exit 2), not the report of an empty run.
    let (code, out, err) = cli(&["simulate", "draughts", "--games", "0", "--quiet"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("--games") && err.contains("a whole number from 1 to"),
        "{err}"
    );
}
