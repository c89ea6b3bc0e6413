//! The jump-chain search on boards where a flying king faces a lattice of
//! men (issue 11, item 4): chains that reach a state already searched stop,
//! the moves are those of the full search, and a position past the limits
//! of docs/limits.md is an error that names them instead of a hang.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::board::movegen::{MAX_CHAIN_STEPS, MAX_MOVES};
use rulebook::board::{moves_of, Generator, MoveList, Position, Tables};
use rulebook::cli::FsLoader;
use rulebook::load::{check, BundledLoader};
use rulebook::rng::Rng;

const RULES: &str = "tests/fixtures/capture-search/international-16.rules";

fn board16() -> Tables {
    let checked = check(&FsLoader, RULES, &[]);
    assert_eq!(checked.errors(), 0, "{}", checked.render());
    Tables::new(checked.game.unwrap())
}

/// A white king on b2 and an n x n lattice of black men on c3, c5, e3...
fn lattice(n: usize) -> String {
    let files = b"abcdefghijklmnopqrstuvwxyz";
    let mut men = Vec::new();
    for f in (3..3 + 2 * n).step_by(2) {
        for r in (3..3 + 2 * n).step_by(2) {
            men.push(format!("{}{r}", char::from(files[f - 1])));
        }
    }
    format!("W:WKb2:B{}", men.join(","))
}

/// The moves (notation with path, and captured squares) and the chain
/// steps searched, with or without remembering chain states.
fn search(t: &Tables, fen: &str, no_memo: bool) -> (Vec<(String, Vec<u16>)>, u32, bool) {
    let mut pos = Position::parse(t, fen).unwrap();
    let mut gen = Generator::new();
    gen.no_memo = no_memo;
    let mut list = MoveList::new();
    gen.generate(t, &mut pos, &mut list);
    let moves = moves_of(t, &list)
        .iter()
        .zip(&list.moves)
        .map(|(m, r)| (m.notation.clone(), list.captured(r).to_vec()))
        .collect();
    (moves, gen.steps(), gen.overflowed())
}

#[test]
fn remembering_chain_states_finds_the_same_moves_in_fewer_steps() {
    let t = board16();
    for n in 2..=5 {
        let fen = lattice(n);
        let (full, full_steps, o1) = search(&t, &fen, true);
        let (memo, memo_steps, o2) = search(&t, &fen, false);
        assert!(!o1 && !o2, "{n}: overflow");
        assert!(!full.is_empty());
        assert_eq!(memo, full, "lattice {n}");
        assert!(
            memo_steps <= full_steps,
            "lattice {n}: {memo_steps} > {full_steps}"
        );
        println!(
            "lattice {n}x{n}: {} moves, {full_steps} steps without memo, {memo_steps} with",
            full.len()
        );
    }
}

#[test]
fn remembering_chain_states_changes_no_move_of_any_bundled_game() {
    for (name, _) in rulebook::bundled::GAMES {
        let Some(g) = check(&BundledLoader, name, &[]).game else {
            continue;
        };
        let t = Tables::new(g);
        let mut rng = Rng::new(11);
        let (mut a, mut b) = (Generator::new(), Generator::new());
        b.no_memo = true;
        let (mut la, mut lb) = (MoveList::new(), MoveList::new());
        for _ in 0..30 {
            let mut p = Position::start(&t);
            for _ in 0..200 {
                a.generate(&t, &mut p, &mut la);
                b.generate(&t, &mut p, &mut lb);
                assert_eq!(la.moves.len(), lb.moves.len(), "{name}: {}", p.to_fen(&t));
                for (x, y) in la.moves.iter().zip(&lb.moves) {
                    assert_eq!((x.from, x.to, x.result), (y.from, y.to, y.result));
                    assert_eq!(la.captured(x), lb.captured(y), "{name}");
                    assert_eq!(la.path(x), lb.path(y), "{name}");
                }
                if la.is_empty() {
                    break;
                }
                let m = la.moves[rng.below(la.len() as u64) as usize];
                rulebook::board::make(&t, &mut p, &la, &m);
            }
        }
        assert!(!a.overflowed());
    }
}

#[test]
fn a_lattice_past_the_limit_is_an_error_that_names_it() {
    let t = board16();
    // 7 x 7 men: an astronomical number of chains (over a minute before the
    // limit existed); the search stops at the limit.
    let (_, steps, overflow) = search(&t, &lattice(7), false);
    assert!(overflow);
    assert!(steps > MAX_CHAIN_STEPS, "{steps}");
    let mut out = Vec::new();
    let mut err = Vec::new();
    let fen = lattice(7);
    let code = rulebook::cli::run(
        ["rulebook", "moves", RULES, "--position", &fen],
        &mut &b""[..],
        &mut out,
        &mut err,
    );
    let err = String::from_utf8(err).unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&MAX_CHAIN_STEPS.to_string()), "{err}");
    assert!(err.contains(&MAX_MOVES.to_string()), "{err}");
    assert!(err.contains("docs/limits.md"), "{err}");
    let mut err = Vec::new();
    let code = rulebook::cli::run(
        ["rulebook", "perft", RULES, "2", "--position", &fen],
        &mut &b""[..],
        &mut Vec::new(),
        &mut err,
    );
    let err = String::from_utf8(err).unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("too many captures"), "{err}");
}
