//! The kernel of slides (`board::kernel::SlideKernel`) against the general
//! generator: Hasami shogi (and its option `goal=five`) and house rules of
//! it that the kernel takes (7 x 7 taking one man at a time without
//! corners, 11 x 11, 10 x 10 and 12 x 6 boards whose shifts are read from
//! the directions, men that also step diagonally, bishops that enclose
//! diagonally) run through both paths, and the two must agree exactly: the
//! move lists in order and perft in positions of seeded random games, perft
//! from the start, and whole seeded playouts (the moves ply by ply, the
//! end, the events, the hash). Rule files that it doesn't take (the tafl
//! games, a second kind, more than four directions of enclosure, passes)
//! fall back to the general path, and `bench` says which path ran and why.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::kernels::{
    both_paths_agree, falls_back, played_by, random_positions, same_playouts, Probe,
};
use crate::common::{board_game, board_text, ok};
use rulebook::board::kernel::{KMove, KPos, NoSlides, SlideKernel};
use rulebook::board::{MoveList, Perft, Position, Tables};

/// A house rule of Hasami shogi: the bundled rules with `more` after them.
fn hasami(title: &str, more: &str) -> String {
    format!(
        "extends \"other/hasami-shogi\"\ngame \"{title}\"\n\
         description \"A house rule of Hasami shogi.\"\n{more}\n"
    )
}

/// The rule files the kernel of slides takes: (label, tables, whether its
/// shifts are constants).
fn covered() -> Vec<(&'static str, Tables, bool)> {
    vec![
        ("hasami", board_game("other/hasami-shogi", &[]), true),
        (
            "hasami goal=five",
            board_game("other/hasami-shogi", &[("goal", "five")]),
            true,
        ),
        (
            "7 x 7 one at a time",
            board_text(&hasami(
                "Hasami 7, one at a time",
                "board 7 x 7\ncapture custodian orthogonal",
            )),
            true,
        ),
        (
            "11 x 11",
            board_text(&hasami("Hasami 11", "board 11 x 11")),
            true,
        ),
        (
            "10 x 10 two ranks",
            board_text(&hasami(
                "Hasami 10",
                "board 10 x 10\nzone home = ranks 1-2\nend reduced-to 5 lose",
            )),
            false,
        ),
        (
            "12 x 6",
            board_text(&hasami("Hasami 12 x 6", "board 12 x 6")),
            false,
        ),
        (
            "diagonal steps",
            board_text(&hasami(
                "Hasami with diagonal steps",
                "piece man \"Man\" {\n  slide orthogonal\n  step diagonal\n}",
            )),
            false,
        ),
        (
            "bishops",
            board_text(&hasami(
                "Diagonal Hasami",
                "board 8 x 8\npiece man \"Man\" {\n  slide diagonal\n}\n\
                 capture custodian diagonal multiple",
            )),
            false,
        ),
    ]
}

/// A move of the general generator's list as the kernel writes it: (from,
/// to, taken).
fn general_move(t: &Tables, list: &MoveList, i: usize) -> (u128, u128, u128) {
    let l = t.layout().unwrap();
    let m = &list.moves[i];
    let bit = |sq: u16| 1u128 << l.bit_of[usize::from(sq)];
    let cap = list.captured(m).iter().fold(0, |a, &s| a | bit(s));
    (bit(m.from), bit(m.to), cap)
}

fn kernel_move(m: &KMove<u128>) -> (u128, u128, u128) {
    (m.from, m.to, m.cap)
}

#[test]
fn the_games_of_slides_take_the_kernel_of_slides() {
    for (label, t, constant) in covered() {
        let k = t.slide_kernel();
        assert!(k.is_ok(), "{label}: {:?}", k.err());
        assert_eq!(k.unwrap().constant_shifts(), constant, "{label}");
        let start = Position::start(&t);
        assert!(Perft::new(&t, 1).uses_slide_kernel(&start), "{label}");
        assert!(!Perft::new(&t, 1).uses_kernel(&start), "{label}");
    }
    let out = ok(&["bench", "other/hasami-shogi", "--depth", "3"]);
    assert!(out.starts_with("perft 3 254219 in "), "{out}");
    assert_eq!(
        played_by("other/hasami-shogi"),
        "  played by the kernel of slides (128-bit boards)"
    );
    // Games of other kernels keep theirs; games where nothing slides are
    // not of this family.
    for game in ["draughts", "other/breakthrough", "other/reversi"] {
        assert_eq!(
            board_game(game, &[]).slide_kernel().err(),
            Some(NoSlides::Other),
            "{game}"
        );
    }
    assert_eq!(
        board_game("other/gomoku", &[]).slide_kernel().err(),
        Some(NoSlides::Plain)
    );
}

#[test]
fn rule_files_beyond_slides_fall_back_and_bench_says_why() {
    let cases = [
        (
            std::fs::read_to_string("games/other/brandubh.rules").unwrap(),
            NoSlides::Squares,
            "squares with rules",
        ),
        (
            std::fs::read_to_string("games/other/tablut.rules").unwrap(),
            NoSlides::Squares,
            "squares with rules",
        ),
        (
            hasami(
                "Hasami with a king",
                "piece king \"King\" letter K {\n  slide orthogonal\n}\n\
                 setup man at home\nsetup black king at e2",
            ),
            NoSlides::Kinds,
            "more than one kind of piece",
        ),
        (
            hasami(
                "Hasami, enclosing every way",
                "capture custodian any multiple",
            ),
            NoSlides::Moves,
            "moves other than slides and steps onto empty squares, or more than four directions of a class",
        ),
        (
            hasami("Hasami with passes", "end no-moves pass"),
            NoSlides::End,
            "end rules beyond counting pieces, passes, or sides that drop out",
        ),
        (
            hasami(
                "Hasami, first to the far rank",
                "zone far = rank last\nend reach far win",
            ),
            NoSlides::End,
            "end rules beyond counting pieces, passes, or sides that drop out",
        ),
    ];
    for (text, why, words) in &cases {
        let t = board_text(text);
        assert_eq!(t.slide_kernel().err(), Some(*why), "{text}");
        let line = falls_back(text, &t, |p, pos| p.uses_slide_kernel(pos), 2, (3, 300));
        assert_eq!(
            line,
            format!("  played by the general path: the kernel of slides refuses {words}"),
            "{text}"
        );
    }
}

/// The kernel of slides in a position of a game (`Probe`), and the moves
/// that take seen.
struct Slides<'t> {
    k: &'t SlideKernel,
    kp: KPos<u128>,
    kmoves: Vec<KMove<u128>>,
    taken: usize,
}

impl Probe for Slides<'_> {
    fn moves(&mut self, t: &Tables, pos: &Position, list: &MoveList) {
        self.kp = self.k.position(pos).unwrap();
        self.k.generate(&self.kp, &mut self.kmoves);
        let want: Vec<_> = (0..list.len()).map(|i| general_move(t, list, i)).collect();
        let got: Vec<_> = self.kmoves.iter().map(kernel_move).collect();
        assert_eq!(got, want, "{}", pos.to_fen(t));
        assert_eq!(self.k.count(&self.kp), list.len() as u64);
        self.taken += self.kmoves.iter().filter(|m| m.cap != 0).count();
    }

    fn played(&mut self, t: &Tables, after: &Position, i: usize) {
        let next = self.k.play(&self.kp, &self.kmoves[i]);
        assert_eq!(self.k.position(after), Some(next), "{}", after.to_fen(t));
    }
}

#[test]
fn moves_and_perft_agree_in_positions_of_random_games() {
    let mut positions = 0;
    let mut deep = 0;
    let mut taken = 0;
    for (label, t, _) in covered() {
        let mut probe = Slides {
            k: t.slide_kernel().unwrap(),
            kp: KPos::default(),
            kmoves: Vec::new(),
            taken: 0,
        };
        let depth_at = |ply| if ply % 20 == 0 { 3 } else { 2 };
        let seen = random_positions(label, &t, 1..=12, 60, depth_at, &mut probe);
        positions += seen.positions;
        deep += seen.deep;
        taken += probe.taken;
    }
    assert!(positions > 5_000, "only {positions} positions");
    assert!(deep > 200, "only {deep} positions at depth 3");
    assert!(taken > 1_000, "only {taken} moves that take");
}

#[test]
fn perft_from_the_start_agrees_with_the_general_path() {
    for (label, t, _) in covered() {
        both_paths_agree(label, &t, &Position::start(&t), 3, 0, 0);
    }
}

#[test]
fn corners_rows_and_ends_count_alike() {
    // A man taken in each corner (HS-7) by a man arriving next to it; a
    // row of three taken; a side left with one man (over); a side that
    // can't move (walled in its corner).
    let t = board_game("other/hasami-shogi", &[]);
    let fens = [
        "B:Bb1,a5,h9,i5,b9,h1:Wa1,i9,a9,i1",
        "B:Bb1,e5,a4:Wa1,b5,c5,d5",
        "W:Ba1:Wb5,c5,d5",
        "W:Bb1,a2,e5:Wa1,c5",
        "B:Ba1:Wa2,b1,e5",
    ];
    let k = t.slide_kernel().unwrap();
    for fen in fens {
        let pos = Position::parse(&t, fen).unwrap();
        assert!(Perft::new(&t, 3).uses_slide_kernel(&pos), "{fen}");
        both_paths_agree(fen, &t, &pos, 3, 5, 1000);
    }
    // The corners: each of the four taken by some move.
    let pos = Position::parse(&t, fens[0]).unwrap();
    let mut moves = Vec::new();
    k.generate(&k.position(&pos).unwrap(), &mut moves);
    let corners = moves.iter().fold(0u128, |a, m| a | m.cap);
    assert_eq!(corners.count_ones(), 4, "{fen}", fen = fens[0]);
    // The row of three, at once.
    let pos = Position::parse(&t, fens[1]).unwrap();
    k.generate(&k.position(&pos).unwrap(), &mut moves);
    assert!(moves.iter().any(|m| m.cap.count_ones() == 3));
}

#[test]
fn seeded_playouts_are_the_same_games_through_the_kernel() {
    let mut games = 0;
    let mut captures = 0;
    for (label, t, _) in covered() {
        let played = same_playouts(label, &t, 12, 5);
        games += played.ends.len();
        captures += played
            .whole
            .iter()
            .filter(|got| !got.contains("events [0,"))
            .count();
    }
    assert!(games >= 96);
    assert!(captures > 50, "only {captures} games with a capture");
}
