//! How a board game ended, in words: the `Outcome` and `EndReason` the
//! engine returns, with the names of the sides, pieces, zones and squares
//! of the rule file (`White won: Black lost their last piece`).

use crate::board::game::{EndCondition, SideId};
use crate::board::position::square_name;
use crate::board::{EndReason, Outcome, Tables};

/// A side's name (`?` for a side the game doesn't have).
fn side_name(t: &Tables, side: SideId) -> String {
    t.game()
        .sides
        .get(usize::from(side.0))
        .map_or_else(|| "?".to_string(), |s| s.name.clone())
}

/// The outcome in a sentence: `White won: Black cannot move`, `draw: the
/// same position occurred 3 times`.
pub fn outcome(t: &Tables, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Win { winner, reason } => {
            format!("{} won: {}", side_name(t, *winner), end_reason(t, reason))
        }
        Outcome::Draw { reason } => format!("draw: {}", end_reason(t, reason)),
    }
}

/// Why the game ended, naming the sides: `Black lost their last piece`, `a
/// king of White reached the far zone on 5`.
pub fn end_reason(t: &Tables, reason: &EndReason) -> String {
    match *reason {
        EndReason::LastPiece { side } => format!("{} lost their last piece", side_name(t, side)),
        EndReason::NoPiecesLeft { side } => format!("{} has no pieces left", side_name(t, side)),
        EndReason::NoSideCanMove => "no side can move".to_string(),
        EndReason::CannotMove { side } => format!("{} cannot move", side_name(t, side)),
        EndReason::Repetition { times } => format!("the same position occurred {times} times"),
        EndReason::NoProgress { rule } => {
            match t.game().end.rules.get(rule).map(|r| &r.condition) {
                Some(EndCondition::Without(c)) => without(t, c),
                _ => "no progress".to_string(),
            }
        }
        EndReason::Reached {
            side,
            kind,
            zone,
            square,
        } => {
            let zone = t
                .game()
                .zones
                .get(usize::from(zone.0))
                .map_or("?", |z| z.id.as_str());
            let piece = kind
                .and_then(|k| t.game().kinds.get(usize::from(k.0)))
                .map_or_else(|| "piece".to_string(), |k| k.name.to_lowercase());
            let at = square
                .map(|sq| format!(" on {}", square_name(t, sq)))
                .unwrap_or_default();
            format!(
                "a {piece} of {} reached the {zone} zone{at}",
                side_name(t, side)
            )
        }
        EndReason::ReducedTo { side, left } => {
            let s = if left == 1 { "" } else { "s" };
            format!("{} is down to {left} piece{s}", side_name(t, side))
        }
    }
}

/// A counter's limit in plain words, from what the rule file says resets
/// it: `40 plies without a capture or a man's move`.
fn without(t: &Tables, c: &crate::vocab::board::Counter) -> String {
    use crate::vocab::board::event;
    let mut what: Vec<String> = [
        (event::CAPTURE, "a capture"),
        (event::CONVERSION, "a piece changing sides"),
        (event::PROMOTION, "a crowning"),
        (event::DROP_OUT, "a side dropping out"),
    ]
    .iter()
    .filter(|(bit, _)| c.reset & bit != 0)
    .map(|(_, words)| (*words).to_string())
    .collect();
    for (k, kind) in t.game().kinds.iter().enumerate() {
        if k < 32 && c.reset_move_of & (1 << k) != 0 {
            let name = kind.name.to_lowercase();
            what.push(format!("a {} move", crate::words::possessive(&name)));
        }
    }
    let plies = match c.plies {
        1 => "1 ply".to_string(),
        n => format!("{n} plies"),
    };
    match what.split_last() {
        None => plies,
        Some((last, [])) => format!("{plies} without {last}"),
        Some((last, rest)) => format!("{plies} without {} or {last}", rest.join(", ")),
    }
}
