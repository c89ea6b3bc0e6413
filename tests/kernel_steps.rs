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

use crate::common::kernels::{
    both_paths_agree, falls_back, played_by, random_positions, same_playouts, seeded_playout, Probe,
};
use crate::common::{board_game, board_text, ok};
use rulebook::board::kernel::{KMove, KPos, NoSteps, StepKernel};
use rulebook::board::{MoveList, Perft, Position, Tables};

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
    assert_eq!(
        played_by("other/breakthrough"),
        "  played by the kernel of steps (64-bit boards)"
    );
    let out = ok(&["bench", "draughts", "--depth", "2"]);
    assert!(
        out.contains("\n  played by the kernel of jumps (64-bit boards)\n  perft walk: the "),
        "{out}"
    );
    assert_eq!(
        board_game("draughts", &[]).step_kernel().err(),
        Some(NoSteps::Other)
    );
}

#[test]
fn rule_files_beyond_steps_fall_back_and_bench_says_why() {
    let bt = breakthrough_body("ranks 1-2");
    let cases = [
        (
            steps_game("Nine", "board 9 x 9\nplayable all", &bt),
            NoSteps::Board,
            "steps refuses a board beyond 64 bits",
        ),
        (
            "extends \"other/breakthrough\"\ngame \"On lines\"\ndescription \"Lines.\"\n\
             lines diagonal only from dark\n"
                .to_string(),
            NoSteps::Board,
            "steps refuses a board beyond 64 bits",
        ),
        (
            steps_game(
                "Sliders",
                "board 6 x 6\nplayable all",
                &bt.replace("step forward\n", "slide forward\n"),
            ),
            NoSteps::Moves,
            "slides refuses moves other than slides and steps onto empty squares",
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
            "steps refuses captures other than by replacement",
        ),
        (
            steps_game(
                "Three in a row",
                "board 6 x 6\nplayable all",
                &bt.replace("end reach far win", "end line 3 win"),
            ),
            NoSteps::End,
            "steps refuses end rules beyond counting pieces",
        ),
    ];
    for (text, why, words) in &cases {
        let t = board_text(text);
        assert_eq!(t.step_kernel().err(), Some(*why), "{text}");
        let line = falls_back(text, &t, |p, pos| p.uses_step_kernel(pos), 3, (5, 1000));
        assert!(line.contains(words), "{text}: {line}");
    }
    let hasami = board_game("other/hasami-shogi", &[]);
    assert_eq!(hasami.step_kernel().err(), Some(NoSteps::Moves));
}

/// The kernel of steps in a position of a game (`Probe`), and the
/// positions with a capture seen.
struct Steps<'t> {
    k: &'t StepKernel,
    kp: KPos,
    kmoves: Vec<KMove>,
    captures: usize,
}

impl Probe for Steps<'_> {
    fn moves(&mut self, t: &Tables, pos: &Position, list: &MoveList) {
        self.kp = self.k.position(pos).unwrap();
        self.k.generate(&self.kp, &mut self.kmoves);
        let want: Vec<_> = (0..list.len())
            .map(|i| general_move(t, pos, list, i))
            .collect();
        let got: Vec<_> = self.kmoves.iter().map(kernel_move).collect();
        assert_eq!(got, want, "{}", pos.to_fen(t));
        assert_eq!(self.k.count(&self.kp), list.len() as u64);
        self.captures += usize::from(list.moves.iter().any(|m| m.cap_len > 0));
    }

    fn played(&mut self, t: &Tables, after: &Position, i: usize) {
        let next = self.kp.play(&self.kmoves[i]);
        assert_eq!(self.k.position(after), Some(next), "{}", after.to_fen(t));
    }
}

#[test]
fn moves_and_perft_agree_in_positions_of_random_games() {
    let mut positions = 0;
    let mut captures = 0;
    let mut deep = 0;
    for (label, text) in covered() {
        let t = tables_of(&text);
        let mut probe = Steps {
            k: t.step_kernel().unwrap(),
            kp: KPos::default(),
            kmoves: Vec::new(),
            captures: 0,
        };
        let depth_at = |ply| if ply % 8 == 0 { 3 } else { 2 };
        let seen = random_positions(label, &t, 1..=60, 300, depth_at, &mut probe);
        positions += seen.positions;
        deep += seen.deep;
        captures += probe.captures;
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
        assert!(Perft::new(t, 3).uses_step_kernel(&pos), "{fen}");
        both_paths_agree(fen, t, &pos, 3, 5, 1000);
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
        games += same_playouts(label, &t, 40, 1).ends.len();
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
