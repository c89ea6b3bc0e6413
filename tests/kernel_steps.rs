//! The kernel of steps (`board::kernel::StepKernel`) against the general
//! generator: Breakthrough and house rules of it that the kernel takes
//! (another board size, a 3 x 3 Hexapawn, a board of one colour with
//! compulsory capture, pawns crowned to kings that step every way with
//! draw rules, `reach` with `reduced-to`, captures backwards)
//! run through both paths, and the two must agree exactly: the move lists
//! in order and perft in positions of seeded random games, and whole
//! seeded playouts (the moves ply by ply, the winner). Rule files that it
//! doesn't take fall back to the general path, and `bench` says which
//! path ran and why.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{board_game, board_text, ok, scratch, seeded_playout, seeded_plies};
use rulebook::agents::{BoardGame, GameState};
use rulebook::board::kernel::{KMove, NoSteps};
use rulebook::board::{Generator, MoveList, Perft, Position, Tables};
use rulebook::rng::Rng;

/// A rule file of steps on a board of `board` with the pieces and rules
/// of `body`.
fn steps_game(title: &str, board: &str, body: &str) -> String {
    format!(
        "game \"{title}\"\ndescription \"A house rule of Breakthrough.\"\n{board}\nnotation algebraic\n\
         side white \"White\" forward north\nside black \"Black\" forward south\nfirst white\n\
         directions forward-diagonal = forward-left forward-right\n{body}\n"
    )
}

/// Breakthrough's pieces and rules, on a board of `home` home ranks.
fn breakthrough_body(home: &str) -> String {
    format!(
        "zone home = {home}\nzone far = rank last\n\
         piece pawn \"Piece\" {{\n  step forward\n  step forward-diagonal captures\n}}\n\
         setup pawn at home\ncapture optional\n\
         end reach far win\nend no-pieces lose\nend no-moves lose"
    )
}

/// The rule files the kernel of steps takes: (label, rule text; None for
/// the bundled Breakthrough).
fn covered() -> Vec<(&'static str, Option<String>)> {
    vec![
        ("breakthrough", None),
        (
            "6 x 6",
            Some(steps_game(
                "Breakthrough 6",
                "board 6 x 6\nplayable all",
                &breakthrough_body("ranks 1-2"),
            )),
        ),
        (
            "hexapawn",
            Some(steps_game(
                "Hexapawn",
                "board 3 x 3\nplayable all",
                "zone home = rank 1\nzone far = rank last\n\
                 piece pawn \"Pawn\" {\n  step forward\n  step forward-diagonal captures-only\n}\n\
                 setup pawn at home\ncapture optional\n\
                 end reach far win\nend no-pieces lose\nend no-moves lose",
            )),
        ),
        (
            "dark squares",
            Some(steps_game(
                "Diagonal Breakthrough",
                "board 8 x 8\nplayable dark",
                "zone home = ranks 1-3\nzone far = rank last\n\
                 piece pawn \"Piece\" {\n  step forward-diagonal captures\n}\n\
                 setup pawn at home\ncapture compulsory\n\
                 end reach far win\nend no-pieces lose\nend no-moves lose",
            )),
        ),
        (
            "crowned kings",
            Some(steps_game(
                "Crowned steps",
                "board 7 x 6\nplayable all",
                "zone home = ranks 1-2\nzone far = rank last\n\
                 piece pawn \"Pawn\" {\n  step forward\n  step left right captures-only\n  \
                 step forward-diagonal captures\n  promote king at far\n}\n\
                 piece king \"King\" {\n  step any captures\n}\n\
                 setup pawn at home\ncapture optional\n\
                 end reduced-to 2 lose\nend repetition 3 draw\n\
                 end draw after 20 plies without capture\nend no-moves lose",
            )),
        ),
        (
            "reach and reduced-to",
            Some(steps_game(
                "Breakthrough to four",
                "board 8 x 8\nplayable all",
                &breakthrough_body("ranks 1-2")
                    .replace("end no-pieces lose", "end reduced-to 4 lose"),
            )),
        ),
        (
            "backward captures",
            Some(steps_game(
                "Backward captures",
                "board 5 x 7\nplayable all",
                "zone home = ranks 1-2\nzone far = rank last\n\
                 piece pawn \"Pawn\" {\n  step forward left right\n  \
                 step backward-left backward-right captures-only\n}\n\
                 setup pawn at home\ncapture optional\n\
                 end reach far win\nend no-pieces lose\nend draw after 30 plies without capture\n\
                 end no-moves lose",
            )),
        ),
    ]
}

fn tables_of(text: &Option<String>) -> Tables {
    match text {
        None => board_game("other/breakthrough", &[]),
        Some(t) => board_text(t),
    }
}

/// A move of the general generator's list as the kernel writes it: (from,
/// to, captured, kind moving, kind after).
fn general_move(t: &Tables, pos: &Position, list: &MoveList, i: usize) -> (u64, u64, u64, u8, u8) {
    let l = t.layout().unwrap();
    let m = &list.moves[i];
    let bit = |sq: u16| 1u64 << l.bit_of[usize::from(sq)];
    let kind = t.piece_of(pos.codes()[usize::from(m.from)]).unwrap().1 .0;
    let result = t.piece_of(m.result).unwrap().1 .0;
    let cap = list.captured(m).iter().fold(0, |a, &s| a | bit(s));
    (bit(m.from), bit(m.to), cap, kind, result)
}

fn kernel_move(m: &KMove) -> (u64, u64, u64, u8, u8) {
    (m.from, m.to, m.cap, m.kind, m.result)
}

#[test]
fn the_games_of_steps_take_the_kernel_of_steps() {
    for (label, text) in covered() {
        let t = tables_of(&text);
        assert!(
            t.step_kernel().is_ok(),
            "{label}: {:?}",
            t.step_kernel().err()
        );
        assert!(t.kernel().is_none() && t.wide_kernel().is_none(), "{label}");
        let start = Position::start(&t);
        assert!(Perft::new(&t, 1).uses_step_kernel(&start), "{label}");
    }
    let out = ok(&["bench", "other/breakthrough", "--depth", "3"]);
    assert!(out.starts_with("perft 3 11132 in "), "{out}");
    assert!(
        out.ends_with("  played by the kernel of steps (64-bit boards)\n"),
        "{out}"
    );
    let out = ok(&["bench", "draughts", "--depth", "2"]);
    assert!(
        out.contains("\n  played by the kernel of jumps (64-bit boards)\n  perft walk: the "),
        "{out}"
    );
    assert_eq!(
        board_game("draughts", &[]).step_kernel().err(),
        Some(NoSteps::Jumps)
    );
}

#[test]
fn rule_files_beyond_steps_fall_back_and_bench_says_why() {
    let bt = breakthrough_body("ranks 1-2");
    let cases = [
        (
            steps_game("Nine", "board 9 x 9\nplayable all", &bt),
            NoSteps::Board,
            "a board beyond 64 bits",
        ),
        (
            "extends \"other/breakthrough\"\ngame \"On lines\"\ndescription \"Lines.\"\n\
             lines diagonal only from dark\n"
                .to_string(),
            NoSteps::Board,
            "a board beyond 64 bits",
        ),
        (
            steps_game(
                "Sliders",
                "board 6 x 6\nplayable all",
                &bt.replace("step forward\n", "slide forward\n"),
            ),
            NoSteps::Moves,
            "moves no kernel takes",
        ),
        (
            steps_game(
                "Custodian",
                "board 6 x 6\nplayable all",
                &bt.replace(
                    "capture optional",
                    "capture optional\ncapture custodian orthogonal",
                ),
            ),
            NoSteps::Captures,
            "captures other than by jumps or replacement",
        ),
        (
            steps_game(
                "Three in a row",
                "board 6 x 6\nplayable all",
                &bt.replace("end reach far win", "end line 3 win"),
            ),
            NoSteps::End,
            "end rules beyond counting pieces",
        ),
    ];
    let dir = scratch();
    for (i, (text, why, words)) in cases.iter().enumerate() {
        let t = board_text(text);
        assert_eq!(t.step_kernel().err(), Some(*why), "{text}");
        let start = Position::start(&t);
        assert!(!Perft::new(&t, 1).uses_step_kernel(&start), "{text}");
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
    let hasami = board_game("other/hasami-shogi", &[]);
    assert_eq!(hasami.step_kernel().err(), Some(NoSteps::Moves));
}

#[test]
fn moves_and_perft_agree_in_positions_of_random_games() {
    let mut positions = 0;
    let mut captures = 0;
    let mut deep = 0;
    for (label, text) in covered() {
        let t = tables_of(&text);
        let k = t.step_kernel().unwrap();
        let mut gen = Generator::new();
        let mut list = MoveList::new();
        let mut kmoves = Vec::new();
        let mut fast = Perft::new(&t, 3);
        let mut general = Perft::new(&t, 3);
        general.use_kernel(false);
        for seed in 1..=60u64 {
            let mut rng = Rng::new(seed);
            let mut pos = Position::start(&t);
            for ply in 0..300 {
                gen.generate(&t, &mut pos, &mut list);
                let kp = k.position(&pos).unwrap();
                k.generate(&kp, &mut kmoves);
                let want: Vec<_> = (0..list.len())
                    .map(|i| general_move(&t, &pos, &list, i))
                    .collect();
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
                captures += usize::from(list.moves.iter().any(|m| m.cap_len > 0));
                let i = rng.below(list.len() as u64) as usize;
                let m = list.moves[i];
                let next = kp.play(&kmoves[i]);
                rulebook::board::make(&t, &mut pos, &list, &m);
                assert_eq!(k.position(&pos), Some(next), "{label}: play");
            }
        }
    }
    assert!(positions > 5_000, "only {positions} positions");
    assert!(deep > 500, "only {deep} positions at depth 3");
    assert!(captures > 1_000, "only {captures} positions with a capture");
}

#[test]
fn a_side_without_pieces_or_reduced_ends_the_game_whoever_is_to_move() {
    // The side not to move has no pieces (or four): over by the position,
    // no move for the side to move on either path.
    let bt = board_game("other/breakthrough", &[]);
    let (_, four) = &covered()[5];
    let four = tables_of(four);
    for (t, fen) in [
        (&bt, "W:Wa2,b2,c3:B"),
        (&bt, "B:W:Bd7,e7"),
        (&four, "W:Wa2,b2,c3,d3,e3:Ba7,b7,c7,d7"),
        (&four, "W:Wa2,b2,c3,d3,e3:Ba7,b7,c7,d7,e7"),
    ] {
        let pos = Position::parse(t, fen).unwrap();
        let mut fast = Perft::new(t, 3);
        assert!(fast.uses_step_kernel(&pos), "{fen}");
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
fn perft_of_breakthrough_from_the_start_agrees_to_depth_four() {
    let t = board_game("other/breakthrough", &[]);
    let start = Position::start(&t);
    let mut fast = Perft::new(&t, 4);
    let mut general = Perft::new(&t, 4);
    general.use_kernel(false);
    let want = [22, 484, 11_132, 256_036];
    for (d, &w) in (1..=4).zip(&want) {
        assert_eq!(general.count(&start, d), w, "general depth {d}");
        assert_eq!(fast.count(&start, d), w, "kernel depth {d}");
    }
}

#[test]
fn seeded_playouts_are_the_same_games_through_the_kernel() {
    let mut games = 0;
    for (label, text) in covered() {
        let t = tables_of(&text);
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
            }
            games += 1;
        }
        // From positions in the middle of games.
        let mut rng = Rng::new(99);
        for seed in 0..40 {
            let mut g = BoardGame::new(&t);
            g.use_kernel(false);
            let mut s = g.start();
            for _ in 0..(seed % 9) {
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
    assert!(games >= 240);
}

#[test]
fn games_of_steps_end_with_a_winner_or_a_draw_as_their_rules_say() {
    // Breakthrough has no draw: every playout has a winner.
    let t = board_game("other/breakthrough", &[]);
    let start = Position::start(&t);
    for seed in 0..100 {
        let text = seeded_playout(&t, &start, seed, true, 1000);
        assert!(text.contains("winner: Some("), "{text}");
    }
    // The crowned kings' draw rules end some games in a draw.
    let (_, text) = &covered()[4];
    assert_eq!(covered()[4].0, "crowned kings");
    let t = tables_of(text);
    let start = Position::start(&t);
    let ends: Vec<String> = (0..100)
        .map(|seed| seeded_playout(&t, &start, seed, true, 1000))
        .collect();
    let draws = ends.iter().filter(|e| e.contains("winner: None")).count();
    assert!(draws > 0 && draws < 100, "{draws} draws in 100 games");
    // Kings were crowned (the fifth event count: promotions).
    assert!(
        ends.iter().any(|e| !e.contains(", 0, 0] hash")),
        "no crowning"
    );
}
