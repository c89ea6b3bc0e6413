//! Steps that leave a copy behind (`clone`), enemies next to the arrival
//! square won over (`capture neighbours`), holes, and boards from 3 x 3, on
//! the bundled Ataxx: its perft against libataxx's published table (with
//! and without holes, and where a side must pass), make and unmake against
//! the copying walk, seeded random games that keep every invariant, a
//! record replayed, every new diagnostic of `check` as a snapshot, and a
//! 3 x 3 game (Hexapawn) counted by hand. The scripted games of each rule
//! are in tests/fixtures/scripts (`ax-*`), the seeded random game in
//! `games::random_games`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;
use crate::common::board_game as bundled;
use crate::common::board_text as tables;

use rulebook::board::game::SideId;
use rulebook::board::{Outcome, Perft, Position, Tables};
use rulebook::load::{check_source, BundledLoader, Source};

/// The perft table of libataxx (github.com/kz04px/libataxx,
/// `tests/perft.cpp`), copied by the Ataxx engines that test against it
/// (the `ataxx` crate's perft tests say "taken from libataxx"): a position
/// in libataxx's FEN (ranks from the seventh down, `x` and `o` the two
/// sides, `-` a blocked square, then the side to move) and the node counts
/// from depth 0. There a side with no move but a game not over passes,
/// and the pass counts as a move (the position with White's two full
/// rows: 1 node at depth 1), as `end no-moves pass` plays it here; a game
/// that is over has no moves. Its entry with a half-move clock of 100
/// (0 nodes) is left out: Ataxx here has no such clock (docs/rules.md,
/// AX-4).
const LIBATAXX_PERFT: &[(&str, &[u64])] = &[
    ("7/7/7/7/7/7/7 x", &[1, 0, 0, 0, 0]),
    ("7/7/7/7/7/7/7 o", &[1, 0, 0, 0, 0]),
    ("x5o/7/7/7/7/7/o5x x", &[1, 16, 256, 6460, 155888, 4752668]),
    ("x5o/7/7/7/7/7/o5x o", &[1, 16, 256, 6460, 155888]),
    (
        "x5o/7/2-1-2/7/2-1-2/7/o5x x",
        &[1, 14, 196, 4184, 86528, 2266352],
    ),
    ("x5o/7/2-1-2/7/2-1-2/7/o5x o", &[1, 14, 196, 4184, 86528]),
    ("x5o/7/2-1-2/3-3/2-1-2/7/o5x x", &[1, 14, 196, 4100, 83104]),
    ("x5o/7/3-3/2-1-2/3-3/7/o5x o", &[1, 16, 256, 5948, 133264]),
    ("7/7/7/7/ooooooo/ooooooo/xxxxxxx x", &[1, 1, 75, 249, 14270]),
    ("7/7/7/7/xxxxxxx/xxxxxxx/ooooooo x", &[1, 75, 249, 14270]),
    ("7/7/7/2x1o2/7/7/7 x", &[1, 23, 419, 7887, 168317]),
    ("7/7/7/7/-------/-------/x5o x", &[1, 2, 4, 13, 30, 73, 174]),
];

/// A libataxx FEN as the holes of a rule file (`holes c3 e3`, empty when
/// none) and a position string of ours (`x` is Black, `o` White).
fn from_libataxx(fen: &str) -> (String, String) {
    let (board, to_move) = fen.split_once(' ').unwrap();
    let (mut holes, mut black, mut white) = (Vec::new(), Vec::new(), Vec::new());
    for (row, text) in board.split('/').enumerate() {
        let rank = 7 - row;
        let mut file = 0u8;
        for c in text.chars() {
            let square = format!("{}{rank}", char::from(b'a' + file));
            match c {
                '1'..='7' => file += c.to_digit(10).unwrap() as u8,
                'x' => {
                    black.push(square);
                    file += 1;
                }
                'o' => {
                    white.push(square);
                    file += 1;
                }
                '-' => {
                    holes.push(square);
                    file += 1;
                }
                other => panic!("{other} in {fen}"),
            }
        }
        assert_eq!(file, 7, "{fen}");
    }
    let side = if to_move == "x" { "B" } else { "W" };
    (
        holes.join(" "),
        format!("{side}:B{}:W{}", black.join(","), white.join(",")),
    )
}

/// The tables of Ataxx with the given holes.
fn ataxx_with_holes(holes: &str) -> Tables {
    if holes.is_empty() {
        bundled("other/ataxx", &[])
    } else {
        tables(&format!("extends \"other/ataxx\"\nholes {holes}\n"))
    }
}

#[test]
fn ataxx_perft_matches_libataxx() {
    for (fen, nodes) in LIBATAXX_PERFT {
        let (holes, position) = from_libataxx(fen);
        let t = ataxx_with_holes(&holes);
        let pos = Position::parse(&t, &position).unwrap();
        let mut perft = Perft::new(&t, nodes.len());
        for (depth, &want) in nodes.iter().enumerate().skip(1) {
            assert_eq!(perft.count(&pos, depth), want, "{fen}: perft {depth}");
        }
        assert!(!perft.overflowed());
    }
}

#[test]
fn the_blockers_option_is_libataxxs_cross() {
    let t = bundled("other/ataxx", &[("blockers", "cross")]);
    let start = Position::start(&t);
    let mut perft = Perft::new(&t, 4);
    for (depth, want) in [14, 196, 4184, 86528].into_iter().enumerate() {
        assert_eq!(perft.count(&start, depth + 1), want, "perft {}", depth + 1);
    }
}

#[test]
fn ataxx_make_and_unmake_count_as_copies_do() {
    for fen in [
        "x5o/7/7/7/7/7/o5x x",
        "x5o/7/2-1-2/7/2-1-2/7/o5x o",
        "7/7/7/7/ooooooo/ooooooo/xxxxxxx x",
    ] {
        let (holes, position) = from_libataxx(fen);
        let t = ataxx_with_holes(&holes);
        let pos = Position::parse(&t, &position).unwrap();
        let mut perft = Perft::new(&t, 4);
        for depth in 1..=4 {
            assert_eq!(
                perft.count_make_unmake(&pos, depth),
                perft.count(&pos, depth),
                "{fen}: perft {depth} by make and unmake"
            );
        }
    }
}

#[test]
fn random_ataxx_games_keep_every_invariant() {
    for (options, squares) in [(vec![], 49), (vec![("blockers", "cross")], 45)] {
        let t = bundled("other/ataxx", &options);
        let start = Position::start(&t);
        for seed in 1..=4 {
            let m = common::random_game(&t, &start, seed, 1000);
            let pos = m.pos();
            let (black, white) = (pos.count(SideId(0)), pos.count(SideId(1)));
            // The counts are the stones on the board.
            let on_board = pos.pieces(&t);
            assert_eq!(on_board.len(), usize::from(black + white), "seed {seed}");
            assert!(on_board.len() <= squares);
            let outcome = m.outcome().expect("a game of Ataxx ends");
            match outcome {
                Outcome::Win { winner, .. } => {
                    let (mine, theirs) = if winner.0 == 0 {
                        (black, white)
                    } else {
                        (white, black)
                    };
                    assert!(mine > theirs, "seed {seed}: {mine} against {theirs}");
                }
                Outcome::Draw { .. } => {}
            }
            let again = Position::parse(&t, &pos.to_fen(&t)).unwrap();
            assert_eq!(&again, pos, "seed {seed}");
        }
    }
}

#[test]
fn an_ataxx_record_is_replayed_to_the_same_end() {
    let scratch = common::scratch();
    let record = scratch.path().join("a.jsonl");
    let record = record.to_str().unwrap();
    let played = common::ok(&[
        "play",
        "other/ataxx",
        "--option",
        "blockers=cross",
        "--seat",
        "1=random",
        "--seat",
        "2=random",
        "--seed",
        "3",
        "--record",
        record,
    ]);
    let replayed = common::ok(&["replay", record]);
    let last = |s: &str| s.lines().last().unwrap_or("").to_string();
    assert!(last(&played).starts_with("result: "), "{played}");
    assert_eq!(last(&played), last(&replayed));
    // A copy is recorded as the square it fills, a jump from square to
    // square.
    let text = std::fs::read_to_string(record).unwrap();
    let moves: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split("\"move\":\"").nth(1))
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(moves.iter().any(|m| m.len() == 2), "{text}");
    assert!(moves.iter().any(|m| m.contains(['-', 'x'])), "{text}");
}

/// Hexapawn (Martin Gardner, 1962) on 3 x 3: three pawns each, a pawn
/// steps forwards onto an empty square or diagonally forwards onto an
/// enemy, which it takes; the far rank wins, as does a side whose
/// opponent can't move.
const HEXAPAWN: &str = "game \"Hexapawn\"\nboard 3 x 3\nside white \"White\" forward north\nside black \"Black\" forward south\nfirst white\nzone far = rank last\npiece pawn \"Pawn\" {\n  step forward\n  step forward-left forward-right captures-only\n}\nsetup white pawn at a1 b1 c1\nsetup black pawn at a3 b3 c3\nend reach far win\nend no-moves lose\n";

#[test]
fn a_3_by_3_board_is_played() {
    let t = tables(HEXAPAWN);
    let start = Position::start(&t);
    let mut perft = Perft::new(&t, 2);
    // By hand: each of White's three pawns steps forwards; then Black has
    // 3 answers to a1-a2 (b3-b2, b3xa2, c3-c2), 4 to b1-b2 (a3xb2, c3xb2,
    // a3-a2, c3-c2) and 3 to c1-c2.
    assert_eq!(perft.count(&start, 1), 3);
    assert_eq!(perft.count(&start, 2), 10);
    for seed in 1..=5 {
        let m = common::random_game(&t, &start, seed, 100);
        assert!(m.outcome().is_some(), "seed {seed}");
    }
}

/// Each mistake with a copy, neighbours or holes, as `check` reports it.
#[test]
fn board_ataxx_diagnostics() {
    let head = "game \"G\"\nboard 7 x 7\nside black \"Black\" forward north\nside white \"White\" forward south\n";
    let cases: &[(&str, String)] = &[
        (
            "clone-on-a-slide",
            format!("{head}piece stone \"Stone\" {{\n  slide any clone\n}}\nsetup black stone at a1\nsetup white stone at g7\nend no-moves pass\n"),
        ),
        (
            "clone-and-place",
            format!("{head}piece stone \"Stone\" {{\n  step any clone\n  place anywhere\n}}\nhand unlimited\nend no-moves draw\n"),
        ),
        (
            "hole-off-the-board",
            "extends \"other/ataxx\"\nholes c3 h8\n".to_string(),
        ),
        (
            "hole-as-a-number",
            "extends \"other/ataxx\"\nholes 12\n".to_string(),
        ),
        (
            "setup-on-a-hole",
            "extends \"other/ataxx\"\nholes d4 g1\n".to_string(),
        ),
        (
            "zone-on-a-hole",
            "extends \"other/ataxx\"\nholes d4\nzone middle = c3 d4\nend reach middle win\n".to_string(),
        ),
        (
            "neighbours-unknown-direction",
            "extends \"other/ataxx\"\ncapture neighbours orthogonl\n".to_string(),
        ),
        (
            "board-too-small",
            format!("{}end no-moves lose\n", head.replace("7 x 7", "2 x 7")),
        ),
    ];
    for (name, text) in cases {
        let checked = check_source(
            Source {
                name: "test.rules".to_string(),
                text: text.clone(),
            },
            &BundledLoader,
            &[],
        );
        assert!(
            checked.errors() + checked.warnings() > 0,
            "{name}: nothing said:\n{text}"
        );
        insta::assert_snapshot!(format!("diagnostic-{name}"), checked.render());
    }
}
