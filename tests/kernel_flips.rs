//! The kernel of flips (`board::kernel::FlipKernel`) against the general
//! generator: Reversi, Ataxx and house rules of them that the kernel takes
//! (Reversi on 6 x 6 with straight lines only, with free placing, with one
//! disc enclosed at a time; Ataxx with the cross of blockers, Ataxx with
//! copies only) run through both paths, and the two must agree exactly:
//! the move lists in order and perft in positions of seeded random games
//! (passes included), perft from the start against the published tables,
//! and whole seeded playouts (the moves ply by ply, the end, the events,
//! the hash). Rule files that it doesn't take fall back to the general
//! path, and `bench` says which path ran and why.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{board_game, board_text, ok, scratch, seeded_playout, seeded_plies};
use rulebook::agents::{BoardGame, GameState};
use rulebook::board::kernel::{FlipKernel, KMove, NoFlips};
use rulebook::board::{Generator, MoveList, Perft, Position, Tables};
use rulebook::rng::Rng;

/// The rule files the kernel of flips takes: (label, bundled name and
/// options, or the rule text).
fn covered() -> Vec<(&'static str, Tables)> {
    vec![
        ("reversi", board_game("other/reversi", &[])),
        (
            "reversi 6 x 6 straight",
            board_text(
                "extends \"other/reversi\"\ngame \"Reversi, 6 x 6, straight lines\"\n\
                 description \"Reversi on 6 x 6, straight lines only.\"\nboard 6 x 6\n\
                 setup white disc at c3 d4\nsetup black disc at c4 d3\n\
                 piece disc \"Disc\" {\n  place enclosing\n}\n\
                 capture custodian orthogonal multiple\nend most-pieces win\nend no-moves pass\n",
            ),
        ),
        (
            "reversi free placing",
            board_text(
                "extends \"other/reversi\"\ngame \"Reversi, free placing\"\n\
                 description \"Reversi where a disc may go on any empty square.\"\n\
                 piece disc \"Disc\" {\n  place anywhere\n}\n",
            ),
        ),
        (
            "reversi one at a time",
            board_text(
                "extends \"other/reversi\"\ngame \"Reversi, one disc at a time\"\n\
                 description \"Reversi where a placement encloses one disc a line.\"\n\
                 capture custodian any\n",
            ),
        ),
        ("ataxx", board_game("other/ataxx", &[])),
        (
            "ataxx blockers",
            board_game("other/ataxx", &[("blockers", "cross")]),
        ),
        (
            "ataxx copies only",
            board_text(
                "extends \"other/ataxx\"\ngame \"Ataxx, copies only\"\n\
                 description \"Ataxx without the jumps.\"\n\
                 piece stone \"Stone\" {\n  step any clone\n}\n",
            ),
        ),
    ]
}

/// A move of the general generator's list as the kernel writes it: (from,
/// to, won over); a placement or a copy has no start square.
fn general_move(k: &FlipKernel, list: &MoveList, i: usize) -> (u64, u64, u64) {
    let l = k.layout();
    let m = &list.moves[i];
    let bit = |sq: u16| 1u64 << l.bit_of[usize::from(sq)];
    let cap = list.captured(m).iter().fold(0, |a, &s| a | bit(s));
    let from = if m.is_place() { 0 } else { bit(m.from) };
    (from, bit(m.to), cap)
}

fn kernel_move(m: &KMove) -> (u64, u64, u64) {
    (m.from, m.to, m.cap)
}

#[test]
fn the_games_of_flips_take_the_kernel_of_flips() {
    for (label, t) in covered() {
        assert!(
            t.flip_kernel().is_ok(),
            "{label}: {:?}",
            t.flip_kernel().err()
        );
        let start = Position::start(&t);
        assert!(Perft::new(&t, 1).uses_flip_kernel(&start), "{label}");
        assert!(!Perft::new(&t, 1).uses_step_kernel(&start), "{label}");
    }
    for game in ["other/reversi", "other/ataxx"] {
        let out = ok(&["bench", game, "--depth", "2"]);
        assert!(
            out.ends_with("  played by the kernel of flips (64-bit boards)\n"),
            "{out}"
        );
    }
    // Games of other kernels keep theirs.
    assert_eq!(
        board_game("draughts", &[]).flip_kernel().err(),
        Some(NoFlips::Other)
    );
    assert_eq!(
        board_game("other/breakthrough", &[]).flip_kernel().err(),
        Some(NoFlips::Other)
    );
    assert_eq!(
        board_game("other/hasami-shogi", &[]).flip_kernel().err(),
        Some(NoFlips::Plain)
    );
}

#[test]
fn rule_files_beyond_flips_fall_back_and_bench_says_why() {
    let cases = [
        (
            "extends \"other/reversi\"\ngame \"Reversi, 30 discs each\"\nhand 30\n".to_string(),
            NoFlips::Moves,
            "moves no kernel takes",
        ),
        (
            "extends \"other/reversi\"\ngame \"Reversi 10\"\nboard 10 x 10\n".to_string(),
            NoFlips::Board,
            "a board beyond 64 bits",
        ),
        (
            std::fs::read_to_string("games/other/ataxx.rules")
                .unwrap()
                .replace("capture converts to stone", ""),
            NoFlips::Captures,
            "captures that neither jump, replace nor convert",
        ),
        (
            "extends \"other/reversi\"\ngame \"Reversi, five in a row\"\nend line 5 win\n"
                .to_string(),
            NoFlips::End,
            "end rules beyond counting pieces",
        ),
    ];
    let dir = scratch();
    for (i, (text, why, words)) in cases.iter().enumerate() {
        let t = board_text(text);
        assert_eq!(t.flip_kernel().err(), Some(*why), "{text}");
        let start = Position::start(&t);
        assert!(!Perft::new(&t, 1).uses_flip_kernel(&start), "{text}");
        // Counted and played by the general path both times: the same.
        let mut fast = Perft::new(&t, 3);
        let mut general = Perft::new(&t, 3);
        general.use_kernel(false);
        for d in 1..=3 {
            assert_eq!(fast.count(&start, d), general.count(&start, d), "{text}");
        }
        for seed in 0..5 {
            assert_eq!(
                seeded_playout(&t, &start, seed, true, 1000),
                seeded_playout(&t, &start, seed, false, 1000),
                "{text}"
            );
        }
        let path = dir.path().join(format!("game{i}.rules"));
        std::fs::write(&path, text).unwrap();
        let out = ok(&["bench", path.to_str().unwrap(), "--depth", "2"]);
        assert!(
            out.contains("  played by the general path (") && out.contains(words),
            "{text}: {out}"
        );
    }
    let gomoku = board_game("other/gomoku", &[]);
    assert_eq!(gomoku.flip_kernel().err(), Some(NoFlips::End));
}

#[test]
fn moves_and_perft_agree_in_positions_of_random_games() {
    let mut positions = 0;
    let mut passes = 0;
    let mut deep = 0;
    for (label, t) in covered() {
        let k = t.flip_kernel().unwrap();
        let mut gen = Generator::new();
        let mut list = MoveList::new();
        let mut kmoves = Vec::new();
        let mut fast = Perft::new(&t, 3);
        let mut general = Perft::new(&t, 3);
        general.use_kernel(false);
        // Ataxx's games are long, and its general perft slow: its first
        // plies only.
        let plies = if label.starts_with("ataxx") { 100 } else { 300 };
        for seed in 1..=60u64 {
            let mut rng = Rng::new(seed);
            let mut pos = Position::start(&t);
            for ply in 0..plies {
                gen.generate(&t, &mut pos, &mut list);
                let kp = k.position(&pos).unwrap();
                k.generate(&kp, &mut kmoves);
                let pass = list.len() == 1 && list.moves[0].is_pass();
                let want: Vec<_> = if pass {
                    Vec::new()
                } else {
                    (0..list.len()).map(|i| general_move(k, &list, i)).collect()
                };
                let got: Vec<_> = kmoves.iter().map(kernel_move).collect();
                assert_eq!(got, want, "{label} seed {seed}: {}", pos.to_fen(&t));
                assert_eq!(k.count(&kp), list.len() as u64, "{label}");
                let depths = if ply % 8 == 0 { 3 } else { 2 };
                for d in 1..=depths {
                    assert_eq!(
                        fast.count(&pos, d),
                        general.count(&pos, d),
                        "{label} depth {d}: {}",
                        pos.to_fen(&t)
                    );
                }
                deep += usize::from(depths == 3);
                positions += 1;
                if list.is_empty() {
                    break;
                }
                let i = rng.below(list.len() as u64) as usize;
                let m = list.moves[i];
                let next = if pass {
                    passes += 1;
                    FlipKernel::pass(&kp)
                } else {
                    k.play(&kp, &kmoves[i])
                };
                rulebook::board::make(&t, &mut pos, &list, &m);
                assert_eq!(k.position(&pos), Some(next), "{label}: play");
            }
        }
    }
    assert!(positions > 20_000, "only {positions} positions");
    assert!(deep > 2_500, "only {deep} positions at depth 3");
    assert!(passes > 20, "only {passes} passes");
}

#[test]
fn perft_from_the_start_agrees_with_the_published_tables() {
    // Othello: the Chess Programming Wiki's and Aart Bik's table (see
    // tests/placement.rs); Ataxx: libataxx's (see tests/board_ataxx.rs).
    let cases = [
        (
            board_game("other/reversi", &[]),
            &[4u64, 12, 56, 244, 1396, 8200, 55_092, 390_216][..],
        ),
        (
            board_game("other/ataxx", &[]),
            &[16, 256, 6460, 155_888][..],
        ),
        (
            board_game("other/ataxx", &[("blockers", "cross")]),
            &[14, 196, 4184, 86_528][..],
        ),
    ];
    for (t, want) in &cases {
        let start = Position::start(t);
        let mut fast = Perft::new(t, want.len());
        let mut general = Perft::new(t, want.len());
        general.use_kernel(false);
        assert!(fast.uses_flip_kernel(&start));
        for (d, &w) in (1..).zip(want.iter()) {
            assert_eq!(fast.count(&start, d), w, "kernel depth {d}");
            assert_eq!(general.count(&start, d), w, "general depth {d}");
        }
    }
}

#[test]
fn positions_where_a_side_passes_or_the_game_is_over_count_alike() {
    // Ataxx: no stones (over), one side's stones only (over), Black walled
    // in (a pass), a full board (over, nobody moves); Reversi: White with
    // no placement while Black has one (a pass), and no side with one
    // (over).
    let ataxx = board_game("other/ataxx", &[]);
    let reversi = board_game("other/reversi", &[]);
    let full: Vec<String> = (1..=7)
        .flat_map(|r| (b'a'..=b'g').map(move |f| format!("{}{r}", char::from(f))))
        .collect();
    let (black, white) = full.split_at(25);
    let full_fen = format!("B:B{}:W{}", black.join(","), white.join(","));
    // libataxx's "7/7/7/7/ooooooo/ooooooo/xxxxxxx x": Black on the first
    // rank, walled in by White's two rows, passes.
    let row = |r: u8| -> Vec<String> {
        (b'a'..=b'g')
            .map(|f| format!("{}{r}", char::from(f)))
            .collect()
    };
    let blocked = format!(
        "B:B{}:W{},{}",
        row(1).join(","),
        row(2).join(","),
        row(3).join(",")
    );
    let cases = [
        (&ataxx, "B:B:W".to_string()),
        (&ataxx, "B:Ba1,b2:W".to_string()),
        (&ataxx, blocked),
        (&ataxx, full_fen),
        (&reversi, "W:Ba1:Wb2".to_string()),
        (&reversi, "B:Ba1:Wh8".to_string()),
    ];
    for (t, fen) in &cases {
        let pos = Position::parse(t, fen).unwrap();
        let mut fast = Perft::new(t, 3);
        assert!(fast.uses_flip_kernel(&pos), "{fen}");
        let mut general = Perft::new(t, 3);
        general.use_kernel(false);
        for d in 1..=3 {
            assert_eq!(
                fast.count(&pos, d),
                general.count(&pos, d),
                "{fen} depth {d}"
            );
        }
        for seed in 0..5 {
            assert_eq!(
                seeded_playout(t, &pos, seed, true, 1000),
                seeded_playout(t, &pos, seed, false, 1000),
                "{fen}"
            );
        }
    }
}

#[test]
fn seeded_playouts_are_the_same_games_through_the_kernel() {
    let mut games = 0;
    let mut passes = 0;
    for (label, t) in covered() {
        let start = Position::start(&t);
        for seed in 0..40 {
            // Ply by ply: the same moves and the same end.
            let want = seeded_plies(&t, seed, false, true);
            assert_eq!(
                seeded_plies(&t, seed, true, false),
                want,
                "{label} seed {seed}"
            );
            assert!(want.len() > 1);
            // Whole playouts, with the default ply limit and a short one
            // (the kernel hands the last plies to the general path).
            for max in [1000, 7] {
                let got = seeded_playout(&t, &start, seed, true, max);
                assert_eq!(
                    got,
                    seeded_playout(&t, &start, seed, false, max),
                    "{label} seed {seed} max {max}"
                );
                // The last event count: passes.
                passes += usize::from(!got.contains(", 0] hash"));
            }
            games += 1;
        }
        // From positions in the middle of games.
        let mut rng = Rng::new(99);
        for seed in 0..40 {
            let mut g = BoardGame::new(&t);
            g.use_kernel(false);
            let mut s = g.start();
            for _ in 0..(seed % 9) * 3 {
                if s.move_count() == 0 {
                    break;
                }
                s.play(rng.below(s.move_count() as u64) as usize);
            }
            let pos = s.position().clone();
            assert_eq!(
                seeded_playout(&t, &pos, seed, true, 1000),
                seeded_playout(&t, &pos, seed, false, 1000),
                "{label} seed {seed} from {}",
                pos.to_fen(&t)
            );
        }
    }
    assert!(games >= 280);
    assert!(passes > 0, "no game with a pass");
}
