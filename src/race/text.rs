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

/// Which rule forbids a choice, in words.
pub fn why_not(game: &RaceGame, state: &RaceState, seat: usize, roll: &Roll, c: Choice) -> String {
    let name = seat_name(game, seat);
    let pieces = state.pieces(seat);
    match c {
        Choice::Enter => {
            if !pieces.contains(&OUT) {
                format!("{name} has no piece out to enter")
            } else {
                match game.enter {
                    super::game::Enter::OnFace(f) => {
                        format!("a piece enters only when a die shows {f}, and the roll is {roll}")
                    }
                    super::game::Enter::Always => format!("no piece can enter with {roll}"),
                }
            }
        }
        Choice::Move(p) => match pieces.iter().position(|&q| q == p) {
            None => format!("{name} has no piece on {}", game.label(seat, p)),
            Some(i) if state.is_held(seat, i) => {
                format!("the piece on {} is held there", game.label(seat, p))
            }
            Some(_) => format!(
                "the piece on {} can't move with {roll}",
                game.label(seat, p)
            ),
        },
        Choice::Pass => "a move is compulsory when there is one".to_string(),
    }
}

/// The track with every piece on it, ten cells a row from the start, and a
/// legend: each seat's letter, pieces out and finished, turns owed.
pub fn track_picture(game: &RaceGame, state: &RaceState) -> String {
    let letter = |seat: usize| {
        seat_name(game, seat)
            .chars()
            .next()
            .map_or('?', |c| c.to_ascii_uppercase())
    };
    // The cells drawn: the track, or on a circuit the loop; each piece on
    // the cell its seat's path puts it (home cells go to the legend).
    let drawn = game.circuit.as_ref().map_or(game.cells, |c| c.cells + 1);
    let mut on: Vec<String> = vec![String::new(); usize::from(drawn) + 1];
    let mut legend = Vec::new();
    for seat in 0..state.players() {
        let (mut out, mut done) = (0, 0);
        let mut home = Vec::new();
        for &p in state.pieces(seat) {
            if p == OUT {
                out += 1;
            } else if p >= game.cells {
                done += 1;
            } else if game.circuit.as_ref().is_some_and(|c| p > c.cells) {
                home.push(game.label(seat, p));
            } else if let Some(cell) = on.get_mut(usize::from(game.rule_cell(seat, p))) {
                cell.push(letter(seat));
            }
        }
        let mut s = format!(
            "{} {}: {out} out, {done} finished",
            letter(seat),
            seat_name(game, seat)
        );
        if !home.is_empty() {
            s.push_str(&format!(", home cells {}", home.join(" ")));
        }
        if let Some(start) = game.circuit.as_ref().and_then(|c| c.starts.get(seat)) {
            s.push_str(&format!(", starts on {start}"));
        }
        if state.owed(seat) > 0 {
            s.push_str(&format!(", misses {} turns", state.owed(seat)));
        }
        legend.push(s);
    }
    let last = game.circuit.as_ref().map_or(game.cells, |c| c.cells);
    let width = usize::from(last).to_string().len();
    let mut text = String::new();
    for row_start in (1..=usize::from(last)).step_by(10) {
        let row_end = (row_start + 9).min(usize::from(last));
        for c in row_start..=row_end {
            let pieces = on.get(c).map_or("", String::as_str);
            text.push_str(&format!("{c:>width$}{pieces:<3}"));
        }
        text.push('\n');
    }
    text.push_str(&legend.join("\n"));
    text.push('\n');
    text
}
