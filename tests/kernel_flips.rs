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

use crate::common::kernels::{
    both_paths_agree, falls_back, played_by, random_positions, same_playouts, Probe,
};
use crate::common::{board_game, board_text};
use rulebook::board::kernel::{FlipKernel, KMove, KPos, NoFlips};
use rulebook::board::{MoveList, Perft, Position, Tables};

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
        assert_eq!(
            played_by(game),
            "  played by the kernel of flips (64-bit boards)"
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
            "flips refuses moves other than placements, copies and steps",
        ),
        (
            "extends \"other/reversi\"\ngame \"Reversi 10\"\nboard 10 x 10\n".to_string(),
            NoFlips::Board,
            "flips refuses a board beyond 64 bits",
        ),
        (
            std::fs::read_to_string("games/other/ataxx.rules")
                .unwrap()
                .replace("capture converts to stone", ""),
            NoFlips::Captures,
            "flips refuses captures other than conversions",
        ),
        (
            "extends \"other/reversi\"\ngame \"Reversi, five in a row\"\nend line 5 win\n"
                .to_string(),
            NoFlips::End,
            "flips refuses end rules beyond counting pieces",
        ),
    ];
    for (text, why, words) in &cases {
        let t = board_text(text);
        assert_eq!(t.flip_kernel().err(), Some(*why), "{text}");
        let line = falls_back(text, &t, |p, pos| p.uses_flip_kernel(pos), 3, (5, 1000));
        assert!(line.contains(words), "{text}: {line}");
    }
    let gomoku = board_game("other/gomoku", &[]);
    assert_eq!(gomoku.flip_kernel().err(), Some(NoFlips::End));
}

/// The kernel of flips in a position of a game (`Probe`), and the passes
/// seen.
struct Flips<'t> {
    k: &'t FlipKernel,
    kp: KPos,
    kmoves: Vec<KMove>,
    pass: bool,
    passes: usize,
}

impl Probe for Flips<'_> {
    fn moves(&mut self, t: &Tables, pos: &Position, list: &MoveList) {
        self.kp = self.k.position(pos).unwrap();
        self.k.generate(&self.kp, &mut self.kmoves);
        self.pass = list.len() == 1 && list.moves[0].is_pass();
        let want: Vec<_> = if self.pass {
            Vec::new()
        } else {
            (0..list.len())
                .map(|i| general_move(self.k, list, i))
                .collect()
        };
        let got: Vec<_> = self.kmoves.iter().map(kernel_move).collect();
        assert_eq!(got, want, "{}", pos.to_fen(t));
        assert_eq!(self.k.count(&self.kp), list.len() as u64);
    }

    fn played(&mut self, t: &Tables, after: &Position, i: usize) {
        let next = if self.pass {
            self.passes += 1;
            FlipKernel::pass(&self.kp)
        } else {
            self.k.play(&self.kp, &self.kmoves[i])
        };
        assert_eq!(self.k.position(after), Some(next), "{}", after.to_fen(t));
    }
}

#[test]
fn moves_and_perft_agree_in_positions_of_random_games() {
    let mut positions = 0;
    let mut passes = 0;
    let mut deep = 0;
    for (label, t) in covered() {
        let mut probe = Flips {
            k: t.flip_kernel().unwrap(),
            kp: KPos::default(),
            kmoves: Vec::new(),
            pass: false,
            passes: 0,
        };
        // Ataxx's games are long, and its general perft slow: its first
        // plies only.
        let plies = if label.starts_with("ataxx") { 100 } else { 300 };
        let depth_at = |ply| if ply % 8 == 0 { 3 } else { 2 };
        let seen = random_positions(label, &t, 1..=60, plies, depth_at, &mut probe);
        positions += seen.positions;
        deep += seen.deep;
        passes += probe.passes;
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
        assert!(Perft::new(t, 3).uses_flip_kernel(&pos), "{fen}");
        both_paths_agree(fen, t, &pos, 3, 5, 1000);
    }
}

#[test]
fn seeded_playouts_are_the_same_games_through_the_kernel() {
    let mut games = 0;
    let mut passes = 0;
    for (label, t) in covered() {
        let played = same_playouts(label, &t, 40, 3);
        games += played.ends.len();
        // The last event count: passes.
        passes += played
            .whole
            .iter()
            .filter(|got| !got.contains(", 0] hash"))
            .count();
    }
    assert!(games >= 280);
    assert!(passes > 0, "no game with a pass");
}
