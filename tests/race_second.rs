//! Race games, issue 31: a piece a landing rule moves onto a holding cell
//! is held there.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::narrate::race::{parse_position, turn_text};
use rulebook::race::game::RaceGame;
use rulebook::race::{Choice, RaceState, Roll};

use crate::race::load_text;

/// A turn of the seat to roll in `state` played and told as `play` tells it.
fn told(game: &RaceGame, state: &mut RaceState, dice: &[u8], choice: Choice) -> String {
    let roll = Roll::new(dice).unwrap();
    let seat = state.to_roll();
    let number = state.rolls() + 1;
    let mut events = Vec::new();
    state.apply(game, &roll, choice, &mut events).unwrap();
    turn_text(game, state, number, seat, &roll, choice, &events)
}

#[test]
fn a_piece_a_landing_rule_moves_onto_a_holding_cell_is_held() {
    // No `landing rules chain`: the chute's `go to 32` ends the landing,
    // and the pit holds the piece as it holds one the dice put there.
    let game = load_text(
        "extends \"slow-and-steady\"\nlanding on cell 3 \"a chute\": go to 32\nlanding on cell 32 \"a pit\": held\n",
    );
    let mut state = parse_position(&game, "red:red 1,out:blue 30").unwrap();
    let text = told(&game, &mut state, &[1, 1], Choice::Move(1));
    assert!(text.contains("landed on 3: a chute, goes to 32"), "{text}");
    assert!(state.is_held(0, 0), "{text}");
    assert!(text.contains("red 32 held out"), "{text}");
    // The piece the dice put there is held alike.
    let mut state = parse_position(&game, "red:red 30,out:blue 20").unwrap();
    told(&game, &mut state, &[1, 1], Choice::Move(30));
    assert!(state.is_held(0, 0));
}
