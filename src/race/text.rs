//! Turns and positions in words, as `play` and `replay` print them.

use super::{Choice, Event, RaceState, Roll};
use crate::race_game::{RaceGame, OUT};

/// A seat's name.
pub fn seat_name(game: &RaceGame, seat: usize) -> &str {
    game.seats.get(seat).map_or("?", String::as_str)
}

/// A piece's position in words.
fn piece_text(game: &RaceGame, p: u16, held: bool) -> String {
    if p == OUT {
        "out".to_string()
    } else if p >= game.cells {
        "finished".to_string()
    } else if held {
        format!("{p} held")
    } else {
        p.to_string()
    }
}

/// Every seat's pieces and missed turns: `red 9 out · blue out out`.
pub fn positions_text(game: &RaceGame, state: &RaceState) -> String {
    let mut parts = Vec::new();
    for seat in 0..state.players() {
        let pieces: Vec<String> = state
            .pieces(seat)
            .iter()
            .enumerate()
            .map(|(i, &p)| piece_text(game, p, state.is_held(seat, i)))
            .collect();
        let mut s = format!("{} {}", seat_name(game, seat), pieces.join(" "));
        match state.owed(seat) {
            0 => {}
            1 => s.push_str(" (misses 1 turn)"),
            n => s.push_str(&format!(" (misses {n} turns)")),
        }
        parts.push(s);
    }
    parts.join(" · ")
}

/// A turn in words: the roll and the choice, the events, the positions.
pub fn turn_text(
    game: &RaceGame,
    state: &RaceState,
    number: u32,
    seat: usize,
    roll: &Roll,
    choice: Choice,
    events: &[Event],
) -> String {
    let mut s = format!(
        "{number}. {} rolls {roll}, choice: {choice}\n",
        seat_name(game, seat)
    );
    for e in events {
        s.push_str(&format!("     {}\n", e.describe(game)));
    }
    s.push_str(&format!("     {}\n", positions_text(game, state)));
    s
}

/// The end of a game: `result: red wins after 57 rolls`.
pub fn result_text(game: &RaceGame, state: &RaceState) -> String {
    match state.winner() {
        Some(w) => format!(
            "result: {} wins after {} roll{}\n",
            seat_name(game, w),
            state.rolls(),
            if state.rolls() == 1 { "" } else { "s" }
        ),
        None => format!(
            "the game goes on: {} to roll\n",
            seat_name(game, state.to_roll())
        ),
    }
}
