//! The invariants the engine's types keep: a position from an unchecked
//! setup is checked and refused by a named `PositionError` kind; the tables
//! and a race game are read through accessors that agree with the game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::board::game::{KindId, SideId, Sq};
use rulebook::board::{Position, PositionError, Tables};
use rulebook::load::{check, BundledLoader};

fn board(name: &str) -> Tables {
    check(&BundledLoader, name, &[]).into_board().unwrap()
}

#[test]
fn a_setup_makes_the_position_its_string_makes() {
    let t = board("draughts");
    let man = KindId(0);
    let king = KindId(1);
    let (white, black) = (SideId(0), SideId(1));
    let setup = [
        (Sq(20), white, man),
        (Sq(21), white, man),
        (Sq(4), white, king),
        (Sq(0), black, man),
        (Sq(1), black, man),
    ];
    let p = Position::from_setup(&t, white, &setup).unwrap();
    assert_eq!(p, Position::parse(&t, "W:W21,22,K5:B1,2").unwrap());
    assert_eq!(p.to_fen(&t), "W:W21,22,K5:B1,2");
    assert_eq!((p.count(white), p.count(black)), (3, 2));
    assert_eq!(p.side(), white);
    assert_eq!(p.piece(&t, Sq(4)), Some((white, king)));
    assert_eq!(p.piece(&t, Sq(5)), None);
    assert!(!p.is_out(white) && !p.is_out(black));
    // What `pieces` lists is the setup, square by square.
    let mut sorted = setup.to_vec();
    sorted.sort_by_key(|&(sq, _, _)| sq);
    assert_eq!(p.pieces(&t), sorted);
}

#[test]
fn every_start_position_is_made_again_from_its_pieces() {
    for (name, _) in rulebook::bundled::GAMES {
        let Some(t) = check(&BundledLoader, name, &[]).into_board() else {
            continue;
        };
        let start = Position::start(&t);
        let again = Position::from_setup(&t, start.side(), &start.pieces(&t)).unwrap();
        assert_eq!(again, start, "{name}");
        // The counts and bitboards of a checked setup agree with its codes.
        let mut counts = vec![0u16; t.sides()];
        for &code in start.codes() {
            if let Some((side, _)) = t.piece_of(code) {
                counts[usize::from(side.0)] += 1;
            }
        }
        for (s, &n) in counts.iter().enumerate() {
            assert_eq!(again.count(SideId(s as u8)), n, "{name}");
        }
        if let Some(l) = t.layout() {
            let mut bb = vec![0u128; again.bitboards().len()];
            for (sq, &c) in again.codes().iter().enumerate() {
                if c != 0 {
                    bb[usize::from(c)] |= 1 << l.bit_of[sq];
                }
            }
            assert_eq!(bb, again.bitboards(), "{name}");
        }
    }
}

#[test]
fn a_setup_with_a_side_the_game_has_not_is_refused() {
    let t = board("draughts");
    let err = Position::from_setup(&t, SideId(2), &[]).unwrap_err();
    assert_eq!(err, PositionError::NoSuchSide { side: 2, sides: 2 });
    assert_eq!(
        err.to_string(),
        "side 2 is not a side of the game: it has 2, numbered from 0"
    );
    let err = Position::from_setup(&t, SideId(0), &[(Sq(3), SideId(7), KindId(0))]).unwrap_err();
    assert_eq!(err, PositionError::NoSuchSide { side: 7, sides: 2 });
}

#[test]
fn a_setup_with_a_kind_the_game_has_not_is_refused() {
    let t = board("draughts");
    let err = Position::from_setup(&t, SideId(0), &[(Sq(3), SideId(1), KindId(2))]).unwrap_err();
    assert_eq!(err, PositionError::NoSuchKind { kind: 2, kinds: 2 });
    assert_eq!(
        err.to_string(),
        "kind 2 is not a kind of the game: it has 2, numbered from 0"
    );
}

#[test]
fn a_setup_off_the_board_or_with_two_pieces_on_a_square_is_refused() {
    let t = board("draughts");
    assert_eq!(t.squares(), 32);
    let err = Position::from_setup(&t, SideId(0), &[(Sq(32), SideId(0), KindId(0))]).unwrap_err();
    assert_eq!(
        err,
        PositionError::NumberOffBoard {
            number: "33".into(),
            squares: 32
        }
    );
    let twice = [(Sq(4), SideId(0), KindId(0)), (Sq(4), SideId(1), KindId(1))];
    let err = Position::from_setup(&t, SideId(0), &twice).unwrap_err();
    assert_eq!(err, PositionError::TwoPieces { square: "5".into() });
    assert_eq!(err.to_string(), "two pieces on 5");
}

#[test]
fn the_tables_agree_with_their_game() {
    for (name, _) in rulebook::bundled::GAMES {
        let Some(t) = check(&BundledLoader, name, &[]).into_board() else {
            continue;
        };
        let g = t.game();
        assert_eq!(t.squares(), g.squares.len(), "{name}");
        assert_eq!(t.sides(), g.sides.len(), "{name}");
        assert_eq!(t.kinds(), g.kinds.len(), "{name}");
        assert_eq!(t.directions(), g.dirs.len(), "{name}");
        assert_eq!(t.no_stop().len(), t.squares(), "{name}");
        assert_eq!(t.piece_of(0), None, "{name}");
        for s in 0..t.sides() {
            for k in 0..t.kinds() {
                let piece = (SideId(s as u8), KindId(k as u8));
                assert_eq!(t.piece_of(t.code(piece.0, piece.1)), Some(piece), "{name}");
            }
        }
        let past = u8::try_from(t.sides() * t.kinds() + 1).unwrap();
        assert_eq!(t.piece_of(past), None, "{name}");
        // A kernel of 64 bits and one of 128 are never both chosen.
        assert!(t.kernel().is_none() || t.wide_kernel().is_none(), "{name}");
    }
}

#[test]
fn a_race_game_s_cell_tables_name_only_its_rules() {
    let mut races = 0;
    for (name, _) in rulebook::bundled::GAMES {
        let Some(game) = check(&BundledLoader, name, &[]).into_race() else {
            continue;
        };
        races += 1;
        let rules = game.rules().len();
        for table in [game.landing(), game.resting()] {
            assert!(
                table.ids.iter().all(|&id| usize::from(id) < rules),
                "{name}"
            );
        }
        // The settings are the game's own fields, one value read both ways.
        assert_eq!(game.settings().faces, game.faces, "{name}");
        assert_eq!(game.settings().cells, game.cells, "{name}");
        // The same game without its plans plans nothing.
        assert!(game.unplanned().landing_plans().is_empty(), "{name}");
        assert!(!game.landing_plans().is_empty(), "{name}");
    }
    assert!(races > 0);
}
