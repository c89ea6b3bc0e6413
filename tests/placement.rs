//! Placing pieces from a hand, lines won over after a placement, and the
//! ends by count and by line, on the bundled Reversi and Gomoku: Reversi's
//! perft against the published table, the make/unmake walk against the
//! copying one, hands in position strings, a record replayed, every new
//! diagnostic of `check` as a snapshot, and Gomoku against a referee
//! written for the test from the rules alone (tests/independent/gomoku.py,
//! Python's standard library, sharing no code with ours): seeded random
//! games replayed move by move there (each move legal, the same end at the
//! same ply, the same winner), and perft counts on small boards. The
//! scripted games of each rule are in tests/fixtures/scripts (`rv-*`,
//! `go-*`), the seeded random games of both in `games::random_games`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::board_text as tables;

use crate::common;

use rulebook::board::{Outcome, Perft, Position, Tables};
use rulebook::load::{check_source, BundledLoader, Source};

/// The perft counts of Othello from the start position, as published: the
/// Chess Programming Wiki's "Perft Results" page (its Othello section) and
/// Aart Bik's perft for Othello (github.com/aartbik/Othello, `perft`),
/// which agree. There a pass counts as a move and a game that ends has no
/// moves, as here; no pass can occur in the first 8 plies, so these depths
/// don't depend on it.
const OTHELLO_PERFT: [u64; 8] = [4, 12, 56, 244, 1396, 8200, 55092, 390216];

#[test]
fn reversi_perft_matches_the_published_table() {
    let t = bundled("other/reversi");
    let start = Position::start(&t);
    let mut perft = Perft::new(&t, 8);
    for (i, &want) in OTHELLO_PERFT.iter().enumerate() {
        let depth = i + 1;
        assert_eq!(perft.count(&start, depth), want, "perft {depth}");
    }
    assert!(!perft.overflowed());
}

#[test]
fn reversi_make_and_unmake_count_as_copies_do() {
    let t = bundled("other/reversi");
    let start = Position::start(&t);
    let mut perft = Perft::new(&t, 6);
    for depth in 1..=6 {
        assert_eq!(
            perft.count_make_unmake(&start, depth),
            OTHELLO_PERFT[depth - 1],
            "perft {depth} by make and unmake"
        );
    }
    // With a hand of a few pieces: unmake gives the pieces back.
    let t = tables("extends \"other/reversi\"\nhand 3\n");
    let start = Position::start(&t);
    let mut perft = Perft::new(&t, 8);
    for depth in 1..=8 {
        assert_eq!(
            perft.count_make_unmake(&start, depth),
            perft.count(&start, depth),
            "perft {depth} with hands of 3"
        );
    }
    // Six plies use up both hands: after them no side can place.
    assert_eq!(perft.count(&start, 7), 0);
    assert!(perft.count(&start, 6) > 0);
}

#[test]
fn a_random_reversi_game_ends_by_the_count_and_keeps_every_invariant() {
    let t = bundled("other/reversi");
    let start = Position::start(&t);
    for seed in 1..=6 {
        let m = common::random_game(&t, &start, seed, 200);
        let pos = m.pos();
        let (black, white) = (
            pos.count(rulebook::board::game::SideId(0)),
            pos.count(rulebook::board::game::SideId(1)),
        );
        // Every square holds a disc or no side could place.
        assert!(usize::from(black + white) <= 64);
        let outcome = m.outcome().expect("a game of Reversi ends");
        match outcome {
            Outcome::Win { winner, .. } => {
                let (mine, theirs) = if winner.0 == 0 {
                    (black, white)
                } else {
                    (white, black)
                };
                assert!(mine > theirs, "seed {seed}: {mine} against {theirs}");
            }
            Outcome::Draw { .. } => assert_eq!(black, white, "seed {seed}"),
        }
        // The position string reads back as the same position.
        let again = Position::parse(&t, &pos.to_fen(&t)).unwrap();
        assert_eq!(&again, pos, "seed {seed}");
    }
}

#[test]
fn finite_hands_are_written_in_position_strings_and_read_back() {
    let t = tables("extends \"other/gomoku\"\nhand 30\nhand white 29\n");
    let start = Position::start(&t);
    assert_eq!(start.to_fen(&t), "B:B+30:W+29");
    let mut m = rulebook::board::Match::new(&t, start);
    let mv = m.parse_move("h8").unwrap();
    m.play(&mv);
    let fen = m.pos().to_fen(&t);
    assert_eq!(fen, "W:Bh8,+29:W+29");
    let back = Position::parse(&t, &fen).unwrap();
    assert_eq!(&back, m.pos());
    // An unlimited hand is not written.
    let t = bundled("other/gomoku");
    assert_eq!(Position::start(&t).to_fen(&t), "B:B:W");
}

#[test]
fn a_reversi_record_is_replayed_to_the_same_end() {
    let scratch = common::scratch();
    let record = scratch.path().join("r.jsonl");
    let record = record.to_str().unwrap();
    let played = common::ok(&[
        "play",
        "other/reversi",
        "--seat",
        "1=random",
        "--seat",
        "2=random",
        "--seed",
        "5",
        "--record",
        record,
    ]);
    let replayed = common::ok(&["replay", record]);
    let last = |s: &str| s.lines().last().unwrap_or("").to_string();
    assert!(last(&played).starts_with("result: "), "{played}");
    assert_eq!(last(&played), last(&replayed));
    // The record holds the placements as their squares.
    let text = std::fs::read_to_string(record).unwrap();
    assert!(
        text.lines()
            .nth(1)
            .is_some_and(|l| l.contains("\"move\":\"") && !l.contains('-')),
        "{text}"
    );
}

/// Each mistake in a placement, hand or end rule, as `check` reports it.
#[test]
fn placement_diagnostics() {
    let reversi_head = "game \"G\"\nboard 8 x 8\nside black \"Black\" forward north\nside white \"White\" forward south\n";
    let cases: &[(&str, String)] = &[
        (
            "place-without-hand",
            format!("{reversi_head}piece disc \"Disc\" {{\n  place anywhere\n}}\nend no-moves draw\n"),
        ),
        (
            "hand-without-place",
            format!("{reversi_head}piece disc \"Disc\" {{\n  step orthogonal\n}}\nsetup black disc at a1\nsetup white disc at h8\nhand 10\nend no-moves lose\n"),
        ),
        (
            "two-kinds-placed",
            format!("{reversi_head}piece disc \"Disc\" {{\n  place\n}}\npiece stone \"Stone\" letter S {{\n  place\n}}\nhand unlimited\nend no-moves draw\n"),
        ),
        (
            "enclosing-without-custodian",
            format!("{reversi_head}piece disc \"Disc\" {{\n  place enclosing\n}}\nhand unlimited\nend no-moves pass\n"),
        ),
        (
            "hand-of-none",
            "extends \"other/gomoku\"\nhand 0\n".to_string(),
        ),
        (
            "hand-too-large",
            "extends \"other/gomoku\"\nhand white 20000\n".to_string(),
        ),
        (
            "hand-unknown-side",
            "extends \"other/gomoku\"\nhand red 5\n".to_string(),
        ),
        (
            "side-without-hand",
            format!("{reversi_head}piece disc \"Disc\" {{\n  place\n}}\nhand black 5\nend no-moves draw\n"),
        ),
        (
            "line-longer-than-board",
            "extends \"other/gomoku\"\nend line 16 win\n".to_string(),
        ),
        (
            "line-longer-than-a-smaller-board",
            "extends \"other/gomoku\"\nboard 4 x 4\n".to_string(),
        ),
        (
            "line-too-short",
            "extends \"other/gomoku\"\nend line exactly 1 win\n".to_string(),
        ),
        (
            "line-unknown-direction",
            "extends \"other/gomoku\"\nend line 5 orthogonal diagonl win\n".to_string(),
        ),
        (
            "most-pieces-pass",
            "extends \"other/reversi\"\nend most-pieces pass\n".to_string(),
        ),
        (
            "next-to-unknown-direction",
            format!("{NEXT_TO}piece stone \"Stone\" {{\n  place next-to own sideways\n}}\n"),
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
        assert!(checked.errors() > 0, "{name}: no error:\n{text}");
        insta::assert_snapshot!(format!("diagnostic-{name}"), checked.render());
    }
}

/// Gomoku where every stone goes next to one of its side's own, each
/// side starting with one (the house rule of docs/language.md).
const NEXT_TO: &str =
    "extends \"other/gomoku\"\ngame \"G\"\nsetup black stone at g8\nsetup white stone at i8\n";

/// The squares of a side in a position string (`W:Bh8,g8:Wi8,+3`), as
/// (file, rank) from 0, read here from the string itself.
fn squares_of(fen: &str, letter: char) -> Vec<(i32, i32)> {
    fen.split(':')
        .filter_map(|part| part.strip_prefix(letter))
        .flat_map(|list| list.split(','))
        .filter(|item| item.starts_with(|c: char| c.is_ascii_lowercase()))
        .map(|sq| {
            let file = i32::from(sq.as_bytes()[0] - b'a');
            let rank: i32 = sq[1..].parse().unwrap();
            (file, rank - 1)
        })
        .collect()
}

/// `place next-to own any`: in seeded random games of the house rule, the
/// placements offered are exactly the empty points next to a stone of the
/// side to move in one of the eight directions, worked out here from the
/// position string alone.
#[test]
fn placements_next_to_own_pieces_are_exactly_those_squares() {
    let t = tables(&format!(
        "{NEXT_TO}piece stone \"Stone\" {{\n  place next-to own any\n}}\n"
    ));
    let start = Position::start(&t);
    let mut checked = 0;
    for seed in 1..=4 {
        let mut m = rulebook::board::Match::new(&t, start.clone());
        let mut rng = rulebook::rng::Rng::new(seed);
        while m.outcome().is_none() && m.plies < 120 {
            let fen = m.pos().to_fen(&t);
            let to_move = if fen.starts_with('B') { 'B' } else { 'W' };
            let own = squares_of(&fen, to_move);
            let all: Vec<(i32, i32)> = [squares_of(&fen, 'B'), squares_of(&fen, 'W')].concat();
            let mut want: Vec<String> = Vec::new();
            for rank in 0..15 {
                for file in 0..15 {
                    let near = own
                        .iter()
                        .any(|&(f, r)| (f - file).abs() <= 1 && (r - rank).abs() <= 1);
                    if near && !all.contains(&(file, rank)) {
                        want.push(format!("{}{}", char::from(b'a' + file as u8), rank + 1));
                    }
                }
            }
            let mut got: Vec<String> = m.legal().iter().map(|mv| mv.algebraic.clone()).collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "seed {seed}, {fen}");
            checked += 1;
            let mv = m.legal()[rng.below(m.legal().len() as u64) as usize].clone();
            m.play(&mv);
        }
    }
    assert!(checked > 100, "{checked} positions");
    // Along the ranks and files only, a diagonal neighbour is not enough.
    let t = tables(&format!(
        "{NEXT_TO}piece stone \"Stone\" {{\n  place next-to own orthogonal\n}}\n"
    ));
    let m = rulebook::board::Match::new(&t, Position::start(&t));
    let mut got: Vec<String> = m.legal().iter().map(|mv| mv.algebraic.clone()).collect();
    got.sort();
    assert_eq!(got, ["f8", "g7", "g9", "h8"]);
}

/// The rules page says where a piece placed next to its own may go.
#[test]
fn the_rules_page_describes_placing_next_to_own_pieces() {
    let t = tables(&format!(
        "{NEXT_TO}piece stone \"Stone\" {{\n  place next-to own any\n}}\n"
    ));
    let page =
        rulebook::format::rules_html::page(&rulebook::load::Loaded::Board(Box::new(t)), &[], &[]);
    assert!(
        page.contains("Is placed from the hand on an empty square, only next to a piece of its own side (along the ranks, files and diagonals); each side has as many as it needs in hand at the start."),
        "{page}"
    );
}

/// On a board whose squares are all played (one colour), the SVG picture
/// draws an edge around each square, so that a player sees where to
/// place; a board of dark and light squares needs none.
#[test]
fn the_svg_board_of_one_colour_draws_the_edges_of_its_squares() {
    let edged = |name: &str| {
        let t = bundled(name);
        rulebook::format::svg::board::render_svg(&t, &Position::start(&t))
            .matches("fill=\"#8b5a2b\" stroke=\"#5e3b1a\"")
            .count()
    };
    assert_eq!(edged("other/reversi"), 64);
    assert_eq!(edged("other/gomoku"), 225);
    assert_eq!(edged("draughts"), 0);
    // Alquerque's points are joined by its lines instead.
    assert_eq!(edged("other/alquerque"), 0);
}

/// A placement away from the side's own pieces is refused by the rule.
#[test]
fn a_placement_away_from_own_pieces_names_the_rule() {
    let t = tables(&format!(
        "{NEXT_TO}piece stone \"Stone\" {{\n  place next-to own orthogonal\n}}\n"
    ));
    let m = rulebook::board::Match::new(&t, Position::start(&t));
    let why = m
        .parse_move("a1")
        .expect_err("a1 is next to no black stone");
    assert!(
        matches!(
            why,
            rulebook::board::MoveError::Refused {
                rule: rulebook::board::Refusal::NotNextToOwn { .. },
                ..
            }
        ),
        "{why:?}"
    );
    assert_eq!(
        rulebook::narrate::board::refusal(&t, &why),
        "a placed stone must go next to one of Black's own pieces: none stands next to a1; it may be placed on g9 or f8 or h8 or g7"
    );
    // h8 is next to White's i8 only: still refused for Black.
    let why = m
        .parse_move("h9")
        .expect_err("h9 touches g8 diagonally only");
    assert!(
        rulebook::narrate::board::refusal(&t, &why).contains("none stands next to h9"),
        "{why:?}"
    );
}

/// A side that must place next to its own but starts with no piece can
/// never place: a warning, with the line underlined and a hint.
#[test]
fn a_side_with_nothing_to_place_next_to_is_warned() {
    let text = "extends \"other/gomoku\"\ngame \"G\"\nsetup black stone at g8\npiece stone \"Stone\" {\n  place next-to own any\n}\n";
    let checked = check_source(
        Source {
            name: "test.rules".to_string(),
            text: text.to_string(),
        },
        &BundledLoader,
        &[],
    );
    assert_eq!(checked.errors(), 0, "{}", checked.render());
    insta::assert_snapshot!("diagnostic-next-to-own-with-no-piece", checked.render());
}

/// The referee of tests/independent/gomoku.py.
fn referee(args: &[&str], input: &str) -> serde_json::Value {
    serde_json::from_str(&crate::common::independent_program(
        "gomoku.py",
        args,
        input,
    ))
    .unwrap()
}

/// Seeded random games of a Gomoku (size, line, exact) replayed by the
/// referee: every move legal there, the game over at the same ply with the
/// same result.
fn compare_random_games(t: &Tables, size: &str, line: &str, mode: &str, seeds: u64) {
    let start = Position::start(t);
    let mut wins = 0;
    let mut draws = 0;
    for seed in 1..=seeds {
        let m = common::random_game(t, &start, seed, 1000);
        let moves: Vec<&str> = m.played().iter().map(|mv| mv.notation.as_str()).collect();
        let ours = match m.outcome() {
            Some(Outcome::Win { winner, .. }) => t.game().sides[usize::from(winner.0)].id.clone(),
            Some(Outcome::Draw { .. }) => "draw".to_string(),
            None => "none".to_string(),
        };
        let theirs = referee(
            &["replay", size, line, mode],
            &serde_json::to_string(&moves).unwrap(),
        );
        assert_eq!(
            theirs["illegal"],
            serde_json::Value::Null,
            "{size} {line} {mode} seed {seed}: {theirs}"
        );
        assert_eq!(theirs["plies"], moves.len(), "seed {seed}");
        assert_eq!(theirs["result"], ours.as_str(), "seed {seed}");
        if ours == "draw" {
            draws += 1;
        } else {
            wins += 1;
        }
    }
    // The comparison saw games that end both ways where the board allows.
    assert!(wins > 0, "{size} {line} {mode}: no game was won");
    let _ = draws;
}

#[test]
fn gomoku_random_games_agree_with_the_referee() {
    compare_random_games(&bundled("other/gomoku"), "15", "5", "or-more", 12);
    let exact = tables("extends \"other/gomoku\"\nend line exactly 5 orthogonal diagonal win\n");
    compare_random_games(&exact, "15", "5", "exact", 12);
    let small = tables("extends \"other/gomoku\"\nboard 6 x 6\nend line 4 win\n");
    compare_random_games(&small, "6", "4", "or-more", 30);
    let tiny = tables("extends \"other/gomoku\"\nboard 4 x 4\nend line exactly 3 win\n");
    compare_random_games(&tiny, "4", "3", "exact", 30);
}

#[test]
fn gomoku_perft_agrees_with_the_referee() {
    // From positions with stones placed, so that lines end games within
    // the depth: (rule file, size, line, mode, position, depth).
    let cases = [
        (
            "extends \"other/gomoku\"\nboard 5 x 5\nend line 4 win\n",
            "5",
            "4",
            "or-more",
            "B:Ba1,b2,c3,e1:Wa5,b4,e5,e4",
            4,
        ),
        (
            "extends \"other/gomoku\"\nboard 5 x 5\nend line exactly 3 win\n",
            "5",
            "3",
            "exact",
            "W:Ba1,b1,d1,c3:Wa5,b5,e3",
            4,
        ),
        (
            "extends \"other/gomoku\"\nboard 4 x 4\nend line 3 win\n",
            "4",
            "3",
            "or-more",
            "B:Bb2:Wc3",
            5,
        ),
    ];
    for (text, size, line, mode, fen, depth) in cases {
        let t = tables(text);
        let pos = Position::parse(&t, fen).unwrap();
        let mut perft = Perft::new(&t, depth);
        let side = |s: u8| {
            let mut v: Vec<String> = pos
                .pieces(&t)
                .iter()
                .filter(|p| p.1 .0 == s)
                .map(|p| t.game().squares[usize::from(p.0 .0)].algebraic.clone())
                .collect();
            v.sort();
            if v.is_empty() {
                "-".to_string()
            } else {
                v.join(",")
            }
        };
        let to_move = if pos.side().0 == 0 { "black" } else { "white" };
        for d in 1..=depth {
            let ours = perft.count(&pos, d);
            let theirs = referee(
                &[
                    "perft",
                    size,
                    line,
                    mode,
                    &d.to_string(),
                    to_move,
                    &side(0),
                    &side(1),
                ],
                "",
            );
            assert_eq!(theirs, ours, "{fen} ({line} {mode}) perft {d}");
        }
    }
}

/// The tables of a bundled board game without options.
fn bundled(name: &str) -> Tables {
    crate::common::board_game(name, &[])
}
