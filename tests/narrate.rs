//! The engines return data and `narrate` puts it in words: a board game's
//! outcome is an `EndReason` with the sides it concerns, a race turn that
//! can't be played or a race position that can't be set up says why as an
//! enum, a refused board position likewise; the words are those the
//! terminal has always shown.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::board::game::SideId;
use rulebook::board::{EndReason, Match, Outcome, Position, PositionError, Tables};
use rulebook::load::{check, BundledLoader};
use rulebook::race::game::RaceGame;
use rulebook::race::{Illegal, RaceState, Roll, SetupError};

fn board(name: &str) -> Tables {
    check(&BundledLoader, name, &[]).into_board().unwrap()
}

fn race(name: &str) -> RaceGame {
    check(&BundledLoader, name, &[]).into_race().unwrap()
}

#[test]
fn a_board_outcome_is_data_and_narrate_words_it() {
    let t = board("draughts");
    let start = Position::parse(&t, "W:W22:B").unwrap();
    let m = Match::new(&t, start);
    let outcome = m.outcome().unwrap();
    assert_eq!(
        outcome,
        &Outcome::Win {
            winner: SideId(0),
            reason: EndReason::LastPiece { side: SideId(1) },
        }
    );
    assert_eq!(
        rulebook::narrate::board::outcome(&t, outcome),
        "White won: Black lost their last piece"
    );
    assert_eq!(
        rulebook::narrate::board::end_reason(&t, &EndReason::Repetition { times: 3 }),
        "the same position occurred 3 times"
    );
}

#[test]
fn the_counter_of_a_draw_rule_is_named_from_the_rule_file() {
    let t = board("draughts");
    // The draughts rules: no-pieces, no-moves, repetition, then the counter.
    let words = rulebook::narrate::board::outcome(
        &t,
        &Outcome::Draw {
            reason: EndReason::NoProgress { rule: 3 },
        },
    );
    assert_eq!(words, "draw: 40 plies without a capture or a man's move");
}

#[test]
fn a_refused_board_position_says_why_as_a_variant() {
    let t = board("draughts");
    let err = Position::parse(&t, "W:W99").unwrap_err();
    assert_eq!(
        err,
        PositionError::NumberOffBoard {
            number: "99".into(),
            squares: 32
        }
    );
    assert_eq!(
        err.to_string(),
        "square 99 is not on the board: squares are numbered 1 to 32"
    );
    let err = Position::parse(&t, "W:W5,5").unwrap_err();
    assert!(matches!(err, PositionError::TwoPieces { ref square } if square == "5"));
    assert!(matches!(
        Position::parse(&t, "Q:W5").unwrap_err(),
        PositionError::NotASide { letter: 'Q', .. }
    ));
}

#[test]
fn a_race_roll_of_other_dice_is_refused_as_a_variant() {
    let game = race("slow-and-steady");
    let state = RaceState::new(&game, 2).unwrap();
    let one = Roll::new(&[3]).unwrap();
    let err = state.check_roll(&game, &one).unwrap_err();
    assert_eq!(err, Illegal::DiceCount { dice: 2, rolled: 1 });
    assert_eq!(err.to_string(), "this game rolls 2 dice, not 1");
    let seven = Roll::new(&[7, 1]).unwrap();
    let err = state.check_roll(&game, &seven).unwrap_err();
    assert_eq!(err, Illegal::Face { faces: 6, shown: 7 });
    assert_eq!(err.to_string(), "a die of this game shows 1 to 6, not 7");
}

#[test]
fn a_race_set_up_for_too_many_players_is_refused_as_a_variant() {
    let game = race("slow-and-steady");
    let err = RaceState::new(&game, 9).unwrap_err();
    assert!(matches!(
        err,
        SetupError::Players {
            min: 2,
            max: 6,
            given: 9,
            ..
        }
    ));
    assert!(err
        .to_string()
        .ends_with("is played by 2 to 6 players, not 9"));
    let mut state = RaceState::new(&game, 2).unwrap();
    assert_eq!(
        state.set_pieces(&game, 0, &[500]),
        Err(SetupError::Pieces { seat: 0, pieces: 2 })
    );
    assert_eq!(
        state.set_pieces(&game, 0, &[5, 500]),
        Err(SetupError::OffTrack { cell: 500 })
    );
}
