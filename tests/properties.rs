//! Property tests of the engine on every bundled game and variant, over
//! seeded random games: make and unmake restore the exact position; the
//! bitboards agree with the board; `undo` restores the game; perft by
//! make/unmake equals perft by copying; every listed move is accepted by its
//! notation and nothing else is; position and move strings never panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

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
            checked.game.map(|g| (*name, Tables::new(g)))
        })
        .collect()
}

fn bitboards_agree(t: &Tables, p: &Position) -> bool {
    let Some(l) = &t.layout else {
        return true;
    };
    let mut bb = vec![0u128; p.bb.len()];
    for (sq, &c) in p.board.iter().enumerate() {
        if c != 0 {
            bb[usize::from(c)] |= 1 << l.bit_of[sq];
        }
    }
    bb == p.bb
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
                let a = rng.below(t.n as u64) as u16;
                let b = rng.below(t.n as u64) as u16;
                let name_of = |s: u16| t.game.squares[usize::from(s)].algebraic.clone();
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
            before.push((m.pos.clone(), m.legal().to_vec()));
            let i = rng.below(m.legal().len() as u64) as usize;
            let mv = m.legal()[i].clone();
            m.play(&mv);
        }
        while let Some((pos, legal)) = before.pop() {
            assert!(m.undo(), "{name}");
            assert_eq!(m.pos, pos, "{name}");
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
