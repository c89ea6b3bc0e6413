//! Turns and positions in words, as `play` and `replay` print them.

use super::{Choice, Event, RaceState, Roll};
use crate::race::game::{RaceGame, OUT};

/// A seat's name.
pub fn seat_name(game: &RaceGame, seat: usize) -> &str {
    game.seats.get(seat).map_or("?", String::as_str)
}

/// A piece's position in words.
fn piece_text(game: &RaceGame, seat: usize, p: u16, held: bool) -> String {
    if held && p != OUT && p < game.cells {
        format!("{} held", game.label(seat, p))
    } else {
        game.label(seat, p)
    }
}

/// A choice in words for seat `seat`: `enter`, `pass`, or the cell of the
/// piece (`h2` for a home cell of a circuit).
pub fn choice_text(game: &RaceGame, seat: usize, choice: Choice) -> String {
    match choice {
        Choice::Move(p) => game.label(seat, p),
        other => other.to_string(),
    }
}

/// The choice seat `seat` names with `text`: `enter`, `pass`, or a cell as
/// `choice_text` writes it (also `move 24`).
pub fn parse_choice(game: &RaceGame, seat: usize, text: &str) -> Option<Choice> {
    match Choice::parse(text) {
        Some(Choice::Enter) => Some(Choice::Enter),
        Some(Choice::Pass) => Some(Choice::Pass),
        _ => {
            let t = text.trim().to_lowercase();
            let t = t.strip_prefix("move ").unwrap_or(&t).trim().to_string();
            game.parse_label(seat, &t).map(Choice::Move)
        }
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
            .map(|(i, &p)| piece_text(game, seat, p, state.is_held(seat, i)))
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
        "{number}. {} rolls {roll}, choice: {}\n",
        seat_name(game, seat),
        choice_text(game, seat, choice)
    );
    for e in events {
        s.push_str(&format!("     {}\n", e.describe(game, seat)));
    }
    s.push_str(&format!("     {}\n", positions_text(game, state)));
    s
}

/// The end of a game: `result: red wins after 57 rolls`, with the
/// finishing order when the game played on for it (`order: 1st red, 2nd
/// blue`), or a draw and why.
pub fn result_text(game: &RaceGame, state: &RaceState) -> String {
    let rolls = format!(
        "{} roll{}",
        state.rolls(),
        if state.rolls() == 1 { "" } else { "s" }
    );
    let mut s = if state.is_drawn() {
        format!("result: a draw after {rolls}: no player can ever move again\n")
    } else if !state.is_over() {
        return format!(
            "the game goes on: {} to roll\n",
            seat_name(game, state.to_roll())
        );
    } else {
        let mut parts = Vec::new();
        if let Some(w) = state.winner() {
            parts.push(format!("{} wins", seat_name(game, w)));
        }
        if let Some(l) = state.loser() {
            parts.push(format!("{} loses", seat_name(game, l)));
        }
        format!("result: {} after {rolls}\n", parts.join(", "))
    };
    if state.places().len() > 1 || (game.order && !state.places().is_empty()) {
        let order: Vec<String> = state
            .places()
            .iter()
            .enumerate()
            .map(|(i, &seat)| {
                format!(
                    "{} {}",
                    super::event::ordinal(i as u8 + 1),
                    seat_name(game, usize::from(seat))
                )
            })
            .collect();
        s.push_str(&format!("order: {}\n", order.join(", ")));
    }
    s
}
