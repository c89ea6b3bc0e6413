//! The jump-chain search on boards where a flying king faces a lattice of
//! men (issue 11, item 4): chains that reach a state already searched stop,
//! under the majority rule chains that can't reach the longest found stop,
//! the moves are those of the full search (a brute force on the smaller
//! lattices), and a position past the limits of docs/limits.md is an error
//! that names them instead of a hang.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::board::movegen::{MAX_CHAIN_STEPS, MAX_MOVES};
use rulebook::board::{moves_of, Generator, MoveList, Position, Tables};
use rulebook::cli::FsLoader;
use rulebook::load::{check, BundledLoader};
use rulebook::rng::Rng;

const RULES: &str = "tests/fixtures/capture-search/international-16.rules";
const RULES26: &str = "tests/fixtures/capture-search/international-26.rules";

fn board16() -> Tables {
    board(RULES)
}

fn board(rules: &str) -> Tables {
    let checked = check(&FsLoader, rules, &[]);
    assert_eq!(checked.errors(), 0, "{}", checked.render());
    checked.into_board().unwrap()
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
    search_with(t, fen, no_memo, false)
}

/// `search`, with or without cutting the chains that can't reach the
/// longest found (both off: the brute force).
fn search_with(
    t: &Tables,
    fen: &str,
    no_memo: bool,
    no_bound: bool,
) -> (Vec<(String, Vec<u16>)>, u32, bool) {
    let mut pos = Position::parse(t, fen).unwrap();
    let mut gen = Generator::new();
    gen.no_memo = no_memo;
    gen.no_bound = no_bound;
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
fn remembering_and_bounding_chain_states_changes_no_move_of_any_bundled_game() {
    for (name, _) in rulebook::bundled::GAMES {
        let Some(t) = check(&BundledLoader, name, &[]).into_board() else {
            continue;
        };
        let mut rng = Rng::new(11);
        let (mut a, mut b) = (Generator::new(), Generator::new());
        b.no_memo = true;
        b.no_bound = true;
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
fn the_majority_bound_finds_the_moves_of_the_brute_force_in_fewer_steps() {
    let t = board16();
    for n in 2..=5 {
        let fen = lattice(n);
        // The brute force: every chain, nothing remembered, nothing cut.
        let (brute, brute_steps, o1) = search_with(&t, &fen, true, true);
        let (memo, memo_steps, o2) = search_with(&t, &fen, false, true);
        let (fast, fast_steps, o3) = search_with(&t, &fen, false, false);
        assert!(!o1 && !o2 && !o3, "{n}: overflow");
        assert!(!brute.is_empty());
        assert_eq!(memo, brute, "lattice {n}");
        assert_eq!(fast, brute, "lattice {n}");
        assert!(
            fast_steps <= memo_steps,
            "lattice {n}: {fast_steps} > {memo_steps}"
        );
        println!(
            "lattice {n}x{n}: {} moves of {} captures; {brute_steps} steps by brute force, \
             {memo_steps} remembering states, {fast_steps} also bounding",
            brute.len(),
            brute[0].1.len()
        );
    }
}

#[test]
fn a_6x6_lattice_is_listed_exactly_within_the_limit() {
    // 36 men: the longest chains take 35 of them (the king can't take all:
    // the four corners of the lattice are dead ends); 40 moves differ by
    // their last landing square or the man left. The same 40 moves were
    // found by the search without the bound (80 million steps, with the
    // limit raised for the purpose); the lattices up to 5 x 5 are checked
    // against the brute force above.
    let t = board16();
    let start = std::time::Instant::now();
    let (moves, steps, overflow) = search(&t, &lattice(6), false);
    let took = start.elapsed();
    assert!(!overflow, "{steps} steps");
    assert_eq!(moves.len(), 40);
    assert!(moves.iter().all(|(_, caps)| caps.len() == 35));
    let distinct: std::collections::BTreeSet<_> = moves.iter().collect();
    assert_eq!(distinct.len(), 40);
    assert!(steps <= MAX_CHAIN_STEPS, "{steps}");
    println!("lattice 6x6: 40 moves of 35 captures, {steps} chain steps, {took:?}");
}

#[test]
fn a_lattice_past_the_limit_is_an_error_that_names_it() {
    let t = board16();
    // 7 x 7 men: over a minute before the limit existed; even with the
    // bound the search meets more chain states than the limit allows (the
    // longest chains can take every man, so the bound only cuts a chain
    // once it has left two men behind), and it stops at the limit.
    let (_, steps, overflow) = search(&t, &lattice(7), false);
    assert!(overflow);
    assert!(steps > MAX_CHAIN_STEPS, "{steps}");
    let fen = lattice(7);
    let (code, _, err) = crate::common::run(&["moves", RULES, "--position", &fen]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&MAX_CHAIN_STEPS.to_string()), "{err}");
    assert!(err.contains(&MAX_MOVES.to_string()), "{err}");
    assert!(err.contains("docs/limits.md"), "{err}");
    let (code, _, err) = crate::common::run(&["perft", RULES, "2", "--position", &fen]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("too many captures"), "{err}");
}

#[test]
fn a_26x26_board_with_64_men_is_an_error_that_names_the_limit() {
    // The second position: an 8 x 8 lattice of men (64) on a
    // 26 x 26 board, over 30 seconds before the limit existed.
    let t = board(RULES26);
    let fen = lattice(8);
    let (_, steps, overflow) = search(&t, &fen, false);
    assert!(overflow);
    assert!(steps > MAX_CHAIN_STEPS, "{steps}");
    let (code, _, err) = crate::common::run(&["moves", RULES26, "--position", &fen]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&MAX_CHAIN_STEPS.to_string()), "{err}");
}
