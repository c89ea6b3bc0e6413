//! The kernel of lines (`board::kernel::LineKernel`) against the general
//! generator: Gomoku and house rules of it that the kernel takes
//! (exactly five, rows along ranks and files only, a 19 x 19 board, a
//! board with holes, 7 x 7 with four in a row, tic-tac-toe) run through
//! both paths, and the two must agree exactly: the legal placements and
//! perft in every position of seeded random games, perft from the start,
//! positions where a row or a full board ends the game, and whole seeded
//! playouts (the positions ply by ply, the end, the events, the hash).
//! Rule files that it doesn't take fall back to the general path, and
//! `bench` says which path ran and why.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::kernels::{
    both_paths_agree, falls_back, played_by, random_positions, same_playouts, Probe,
};
use crate::common::{board_game, board_text};
use rulebook::board::kernel::{LineKernel, NoLines};
use rulebook::board::{MoveList, Perft, Position, Tables};

/// Tic-tac-toe: 3 x 3, three in a row along a rank, a file or a diagonal.
const TIC_TAC_TOE: &str = "game \"Tic-tac-toe\"\n\
    description \"Three in a row on 3 x 3.\"\n\
    board 3 x 3\nplayable all\nnotation algebraic\n\
    side black \"Crosses\" forward north\nside white \"Noughts\" forward south\n\
    first black\n\
    piece mark \"Mark\" {\n  place anywhere\n}\n\
    hand unlimited\n\
    end line 3 orthogonal diagonal win\nend no-moves draw\n";

/// The rule files the kernel of lines takes: (label, tables).
fn covered() -> Vec<(&'static str, Tables)> {
    let gomoku = |label: &'static str, rest: &str| {
        let text = format!(
            "extends \"other/gomoku\"\ngame \"Gomoku, {label}\"\n\
             description \"Gomoku, {label}.\"\n{rest}"
        );
        (label, board_text(&text))
    };
    vec![
        ("gomoku", board_game("other/gomoku", &[])),
        gomoku(
            "exactly five",
            "end line exactly 5 orthogonal diagonal win\nend no-moves draw\n",
        ),
        gomoku(
            "ranks and files",
            "end line 5 orthogonal win\nend no-moves draw\n",
        ),
        gomoku("19 x 19", "board 19 x 19\n"),
        gomoku("holes", "holes g7 h8 i9 c12 m3\n"),
        gomoku(
            "7 x 7, four in a row",
            "board 7 x 7\nend line 4 orthogonal diagonal win\nend no-moves draw\n",
        ),
        ("tic-tac-toe", board_text(TIC_TAC_TOE)),
    ]
}

#[test]
fn the_games_of_lines_take_the_kernel_of_lines() {
    for (label, t) in covered() {
        assert!(
            t.line_kernel().is_ok(),
            "{label}: {:?}",
            t.line_kernel().err()
        );
        let start = Position::start(&t);
        assert!(Perft::new(&t, 1).uses_line_kernel(&start), "{label}");
        assert!(!Perft::new(&t, 1).uses_flip_kernel(&start), "{label}");
    }
    assert_eq!(
        played_by("other/gomoku"),
        "  played by the kernel of lines (a mailbox of the board)"
    );
    // Games of other kernels keep theirs (the kernel of lines is not
    // tried); games that move pieces are not games of lines.
    for game in ["other/reversi", "other/hasami-shogi"] {
        assert_eq!(
            board_game(game, &[]).line_kernel().err(),
            Some(NoLines::Other),
            "{game}"
        );
    }
    assert_eq!(
        board_game("other/brandubh", &[]).line_kernel().err(),
        Some(NoLines::Plain)
    );
}

#[test]
fn rule_files_beyond_lines_fall_back_and_bench_says_why() {
    let gomoku = |rest: &str| {
        format!(
            "extends \"other/gomoku\"\ngame \"Gomoku, a house rule\"\n\
             description \"Gomoku with a house rule.\"\nboard 7 x 7\n{rest}"
        )
    };
    let cases = [
        (gomoku("hand 12\n"), NoLines::Hand, "a hand that runs out"),
        (
            gomoku("piece stone \"Stone\" {\n  place next-to own any\n}\n"),
            NoLines::Placing,
            "placements only where they enclose or next to one's own",
        ),
        (
            gomoku("end line 5 win\nend repetition 2 draw\n"),
            NoLines::End,
            "end rules beyond rows and a full board, or sides that drop out",
        ),
        (
            gomoku("side red \"Red\" forward east\n"),
            NoLines::Sides,
            "not two sides",
        ),
    ];
    for (text, why, words) in &cases {
        let t = board_text(text);
        assert_eq!(t.line_kernel().err(), Some(*why), "{text}");
        let line = falls_back(text, &t, |p, pos| p.uses_line_kernel(pos), 2, (5, 1000));
        assert_eq!(
            line,
            format!("  played by the general path: the kernel of lines refuses {words}"),
            "{text}"
        );
    }
}

/// The squares of the general generator's placements, in its order.
fn placements(list: &MoveList) -> Vec<u16> {
    list.moves
        .iter()
        .map(|m| {
            assert!(m.is_place() && m.cap_len == 0);
            m.to
        })
        .collect()
}

/// The kernel of lines in a position of a game (`Probe`), and the games
/// seen ended by a row and by a full board.
struct Lines<'t> {
    k: &'t LineKernel,
    rows: usize,
    full: usize,
}

impl Probe for Lines<'_> {
    fn moves(&mut self, t: &Tables, pos: &Position, list: &MoveList) {
        let kp = self.k.position(pos).unwrap();
        assert_eq!(self.k.count(&kp), list.len() as u64, "{}", pos.to_fen(t));
        if !list.is_empty() {
            assert_eq!(kp.empty(), placements(list), "{}", pos.to_fen(t));
        } else if kp.empty().is_empty() {
            self.full += 1;
        } else {
            self.rows += 1;
        }
    }

    fn played(&mut self, t: &Tables, after: &Position, _: usize) {
        assert!(self.k.position(after).is_some(), "{}", after.to_fen(t));
    }
}

#[test]
fn moves_and_perft_agree_in_positions_of_random_games() {
    let mut positions = 0;
    let mut rows = 0;
    let mut full = 0;
    for (label, t) in covered() {
        let mut probe = Lines {
            k: t.line_kernel().unwrap(),
            rows: 0,
            full: 0,
        };
        // Perft one ply deeper every fourth ply; one ply less on bigger
        // boards (the general path's count looks for rows over the whole
        // board in every position).
        let n = t.game().squares.len();
        let seeds = if n <= 49 { 1..=60u64 } else { 1..=12u64 };
        let base = if n <= 9 {
            4
        } else if n <= 49 {
            2
        } else {
            1
        };
        let depth_at = |ply| base + usize::from(ply % 4 == 0);
        let seen = random_positions(label, &t, seeds, usize::MAX, depth_at, &mut probe);
        positions += seen.positions;
        rows += probe.rows;
        full += probe.full;
    }
    assert!(positions > 5_000, "only {positions} positions");
    assert!(rows > 100, "only {rows} games ended by a row");
    assert!(full > 10, "only {full} games ended by a full board");
}

#[test]
fn perft_from_the_start_agrees_with_the_counts_of_placements() {
    // Tic-tac-toe: the known counts of its game tree (255,168 games, the
    // first rows at the fifth ply); Gomoku: 225 * 224 * ... until a row
    // can be made (the ninth ply).
    let ttt = board_text(TIC_TAC_TOE);
    let want = [
        9u64, 72, 504, 3024, 15_120, 54_720, 148_176, 200_448, 127_872,
    ];
    let start = Position::start(&ttt);
    let mut fast = Perft::new(&ttt, 9);
    let mut general = Perft::new(&ttt, 9);
    general.use_kernel(false);
    for (d, &w) in (1..).zip(want.iter()) {
        assert_eq!(fast.count(&start, d), w, "kernel depth {d}");
        assert_eq!(general.count(&start, d), w, "general depth {d}");
    }
    let gomoku = board_game("other/gomoku", &[]);
    let start = Position::start(&gomoku);
    let mut fast = Perft::new(&gomoku, 4);
    let mut general = Perft::new(&gomoku, 4);
    general.use_kernel(false);
    assert!(fast.uses_line_kernel(&start));
    for (d, w) in [
        (1, 225u64),
        (2, 50_400),
        (3, 11_239_200),
        (4, 2_495_102_400),
    ] {
        assert_eq!(fast.count(&start, d), w, "kernel depth {d}");
        if d <= 2 {
            assert_eq!(general.count(&start, d), w, "general depth {d}");
        }
    }
}

#[test]
fn positions_over_by_a_row_or_a_full_board_count_alike() {
    // Gomoku: five in a row of Black's (over, whoever is to move), four
    // (not over), six (over; and not over where exactly five wins), a
    // row broken by a hole; tic-tac-toe: a full board with no row, one
    // empty square left, a row of White's made before the position.
    let gomoku = board_game("other/gomoku", &[]);
    let exact = &covered()[1].1;
    let holes = &covered()[4].1;
    let ttt = board_text(TIC_TAC_TOE);
    let cases = [
        (&gomoku, "W:Bc3,d3,e3,f3,g3:Wa1,a2,a3,a4"),
        (&gomoku, "B:Bc3,d3,e3,f3,g3:Wa1,a2,a3,a4"),
        (&gomoku, "W:Bc3,d4,e5,f6:Wa1,a2,a3"),
        (&gomoku, "W:Bc3,d3,e3,f3,g3,h3:Wa1,a2,a3,a4,a5"),
        (exact, "W:Bc3,d3,e3,f3,g3,h3:Wa1,a2,a3,a4,a5"),
        (exact, "W:Bc3,d3,e3,f3,g3:Wa1,a2,a3,a4"),
        (holes, "W:Bc3,d4,e5,f6,j10:Wa1,a2,a3,a4"),
        (&ttt, "B:Ba1,b1,c2,a3,b3:Wc1,a2,b2,c3"),
        (&ttt, "W:Ba1,b1,c2,a3:Wc1,a2,b2,c3"),
        (&ttt, "B:Ba1,b2:Wa3,b3,c3"),
    ];
    for (t, fen) in &cases {
        let pos = Position::parse(t, fen).unwrap();
        assert!(Perft::new(t, 3).uses_line_kernel(&pos), "{fen}");
        let depth = if t.game().squares.len() <= 9 { 3 } else { 2 };
        both_paths_agree(fen, t, &pos, depth, 5, 1000);
    }
}

#[test]
fn seeded_playouts_are_the_same_games_through_the_kernel() {
    let mut games = 0;
    let mut endings = std::collections::BTreeSet::new();
    for (label, t) in covered() {
        let played = same_playouts(label, &t, 30, 3);
        games += played.ends.len();
        endings.extend(played.ends);
    }
    assert!(games >= 210);
    // Wins of both sides and draws by a full board.
    assert!(endings.len() >= 3, "{endings:?}");
}
