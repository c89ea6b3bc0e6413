//! A race turn's events in words: `landed on 27: contains 7, back 3 to
//! 24`, from the engine's `Event`s.

use crate::race::event::Bonus;
use crate::race::game::{CellEffect, Moment, RaceGame, OUT};
use crate::race::Event;

/// A seat's name.
pub fn seat_name(game: &RaceGame, seat: u8) -> &str {
    game.seats
        .get(usize::from(seat))
        .map_or("?", String::as_str)
}

/// A position of seat `seat` in words: a cell, `out` or `the finish`.
fn place(game: &RaceGame, seat: usize, p: u16) -> String {
    if p == OUT {
        "out".to_string()
    } else if game.paths.is_some() && p >= game.cells {
        "off (finished)".to_string()
    } else if game.circuit.as_ref().is_some_and(|c| c.kept) {
        game.label(seat, p)
    } else if p >= game.cells && game.circuit.is_none() {
        format!("{} (finished)", game.cells)
    } else if p >= game.cells {
        "home (finished)".to_string()
    } else {
        game.label(seat, p)
    }
}

/// The event in words, for the turn of seat `seat`: `landed on 27:
/// contains 7, back 3 to 24`.
pub fn describe(event: &Event, game: &RaceGame, seat: usize) -> String {
    let named = game.circuit.is_some() || game.paths.is_some();
    let cell = |p: u16| {
        if named {
            game.label(seat, p)
        } else {
            p.to_string()
        }
    };
    match *event {
        Event::Pass => "nothing moves: pass".to_string(),
        Event::Enter { to } => format!("enters on {}", cell(to)),
        Event::Move {
            from,
            to,
            count,
            bonus: Some(bonus),
            ..
        } => {
            let to = if to >= game.cells && named {
                place(game, seat, to)
            } else {
                cell(to)
            };
            format!(
                "moves {count} from {} to {to} as the bonus for {}",
                cell(from),
                match bonus {
                    Bonus::Capture => "a capture",
                    Bonus::Home => "bringing a piece home",
                }
            )
        }
        Event::Move {
            from,
            to,
            count,
            bounced,
            bonus: None,
        } => {
            if bounced {
                let up = game.cells.saturating_sub(from);
                let finish = match game.circuit {
                    None => game.cells.to_string(),
                    Some(_) => "home".to_string(),
                };
                format!(
                    "moves from {}: {up} up to {finish} and {} back to {}",
                    cell(from),
                    count.saturating_sub(up),
                    cell(to)
                )
            } else if to < from {
                // A move back (`move back when blocked`).
                format!("moves back from {} to {}", cell(from), cell(to))
            } else if to >= game.cells && named {
                format!("moves from {} to {}", cell(from), place(game, seat, to))
            } else {
                format!("moves from {} to {}", cell(from), cell(to))
            }
        }
        Event::Finish => match &game.circuit {
            None if game.paths.is_some() => "bears off: finished".to_string(),
            None => format!("reaches {}: finished", game.cells),
            Some(c) if c.kept => "reaches the home cells: home".to_string(),
            Some(_) => "reaches home: finished".to_string(),
        },
        Event::RollRule { rule } => {
            let Some(r) = game.roll_rules.get(usize::from(rule)) else {
                return "a rule of the roll".to_string();
            };
            let mut words: Vec<String> = Vec::new();
            for e in &r.effects {
                words.push(match *e {
                    CellEffect::Targeted(t, a) => t.with(a),
                    CellEffect::Miss(1) => "misses 1 turn".to_string(),
                    CellEffect::Miss(k) => format!("misses {k} turns"),
                    CellEffect::NoExtraRoll => "no extra roll".to_string(),
                    CellEffect::ExtraRoll => "rolls again".to_string(),
                    CellEffect::EndTurn => "the turn ends".to_string(),
                    _ => continue,
                });
            }
            format!("rolled {}: {}", r.label, words.join(", "))
        }
        Event::Sent {
            seat: whose,
            from,
            to,
        } => {
            let w = usize::from(whose);
            if to == OUT {
                format!(
                    "{} piece on {} goes out",
                    crate::words::possessive(seat_name(game, whose)),
                    game.label(w, from)
                )
            } else {
                format!(
                    "{} piece on {} goes to {}",
                    crate::words::possessive(seat_name(game, whose)),
                    game.label(w, from),
                    place(game, w, to)
                )
            }
        }
        Event::Rule {
            rule,
            at,
            then,
            count,
            blocked,
        } => {
            let Some(r) = game.rules().get(usize::from(rule)) else {
                return format!("a rule of cell {at}");
            };
            let mut words: Vec<String> = Vec::new();
            if !r.label.is_empty() {
                words.push(r.label.clone());
            }
            let mut moved = false;
            for e in &r.effects {
                words.push(match *e {
                    CellEffect::Forward(k) if blocked => format!("can't go forward {k}"),
                    CellEffect::Repeat if blocked => format!("can't move again by {count}"),
                    CellEffect::Forward(k) => {
                        moved = true;
                        format!("forward {k}")
                    }
                    CellEffect::Back(k) => {
                        moved = true;
                        format!("back {k}")
                    }
                    CellEffect::GoTo(c) => {
                        moved = false;
                        format!("goes to {c}")
                    }
                    CellEffect::Repeat => {
                        moved = true;
                        format!("moves again by {count}")
                    }
                    CellEffect::Out => "goes out".to_string(),
                    CellEffect::Miss(1) => "misses 1 turn".to_string(),
                    CellEffect::Miss(k) => format!("misses {k} turns"),
                    CellEffect::NoExtraRoll => "no extra roll".to_string(),
                    CellEffect::ExtraRoll => "rolls again".to_string(),
                    CellEffect::Held => "held until another piece comes".to_string(),
                    CellEffect::Targeted(t, a) => t.with(a),
                    CellEffect::EndTurn => "the turn ends".to_string(),
                    CellEffect::Stop => continue,
                });
            }
            let mut text = words.join(", ");
            if moved && then != OUT {
                text.push_str(&format!(" to {}", place(game, seat, then)));
            } else if blocked && then != OUT {
                text.push_str(&format!(": stays on {}", place(game, seat, then)));
            }
            let verb = match r.moment {
                Moment::Landing => "landed on",
                Moment::Resting => "rests on",
            };
            format!("{verb} {}: {text}", cell(at))
        }
        Event::Bumped { seat: whose, at } => {
            let w = usize::from(whose);
            format!(
                "{} taken: {} piece goes out",
                game.label(w, at),
                crate::words::possessive(seat_name(game, whose))
            )
        }
        Event::Freed { seat: whose, at } => {
            let w = usize::from(whose);
            format!(
                "{} piece on {} is free again",
                crate::words::possessive(seat_name(game, whose)),
                game.label(w, at)
            )
        }
        Event::Skipped { seat, left } => {
            let more = match left {
                0 => String::new(),
                1 => ", 1 more to miss".to_string(),
                n => format!(", {n} more to miss"),
            };
            format!("{} misses a turn{more}", seat_name(game, seat))
        }
        Event::ExtraRoll => "rolls again".to_string(),
        Event::LostExtraRoll => "the extra roll is lost".to_string(),
        Event::Retry { next, of } => {
            format!("no piece can move: rolls again, try {next} of {of}")
        }
        Event::Won { seat } => format!("{} wins", seat_name(game, seat)),
        Event::Lost { seat } => format!("{} loses", seat_name(game, seat)),
        Event::Placed { seat, place, home } => {
            let how = if home { "is home" } else { "is the last left" };
            format!("{} {how}: {}", seat_name(game, seat), ordinal(place))
        }
        Event::Drawn => {
            "no player can ever move again: every piece left is held or stuck; a draw".to_string()
        }
    }
}

/// `1st`, `2nd`, `3rd`, `4th`...
pub fn ordinal(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
