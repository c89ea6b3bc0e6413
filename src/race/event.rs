//! `Event`: what happened in a turn, as data; `describe` puts it in words.

use crate::race_game::{CellEffect, Moment, RaceGame, OUT};

/// Something that happened in a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// Nothing moved.
    Pass,
    /// An out piece entered, landing on `to`.
    Enter {
        /// The landing cell (the sum of the roll, SS-1, SS-10).
        to: u16,
    },
    /// A piece moved by the roll from `from`, landing on `to`.
    Move {
        /// Where it stood.
        from: u16,
        /// The landing cell.
        to: u16,
        /// The sum of the roll.
        count: u16,
        /// The count went past the finish and back (rule 9).
        bounced: bool,
    },
    /// The piece reached the finish (SS-7).
    Finish,
    /// A cell rule applied.
    Rule {
        /// The rule (an index into `RaceGame::rules`).
        rule: u16,
        /// The cell it looked at.
        at: u16,
        /// Where the piece was after it (`OUT`, a cell, or the finish).
        then: u16,
        /// The sum of the roll (for `repeat move`).
        count: u16,
    },
    /// Another piece on the cell where the piece came to rest went out.
    Bumped {
        /// Whose piece.
        seat: u8,
        /// The cell.
        at: u16,
    },
    /// A held piece was freed by a piece that came to rest on its cell.
    Freed {
        /// Whose piece.
        seat: u8,
        /// The cell.
        at: u16,
    },
    /// A player missed a turn they owed (SS-12).
    Skipped {
        /// Who.
        seat: u8,
        /// Turns still to miss.
        left: u8,
    },
    /// The player rolls again (rule 8, SS-13).
    ExtraRoll,
    /// The extra roll earned by this roll is lost (SS-6).
    LostExtraRoll,
    /// The player won.
    Won {
        /// Who.
        seat: u8,
    },
}

/// A seat's name.
pub fn seat_name(game: &RaceGame, seat: u8) -> &str {
    game.seats
        .get(usize::from(seat))
        .map_or("?", String::as_str)
}

/// A position in words: a cell number, `out` or `the finish`.
fn place(game: &RaceGame, p: u16) -> String {
    if p == OUT {
        "out".to_string()
    } else if p >= game.cells {
        format!("{} (finished)", game.cells)
    } else {
        p.to_string()
    }
}

impl Event {
    /// The event in words: `landed on 27: contains 7, back 3 to 24`.
    pub fn describe(&self, game: &RaceGame) -> String {
        match *self {
            Event::Pass => "nothing moves: pass".to_string(),
            Event::Enter { to } => format!("enters on {to}"),
            Event::Move {
                from,
                to,
                count,
                bounced,
            } => {
                if bounced {
                    let up = game.cells.saturating_sub(from);
                    format!(
                        "moves from {from}: {up} up to {} and {} back to {to}",
                        game.cells,
                        count.saturating_sub(up)
                    )
                } else {
                    format!("moves from {from} to {to}")
                }
            }
            Event::Finish => format!("reaches {}: finished", game.cells),
            Event::Rule {
                rule,
                at,
                then,
                count,
            } => {
                let Some(r) = game.rules.get(usize::from(rule)) else {
                    return format!("a rule of cell {at}");
                };
                let mut words: Vec<String> = Vec::new();
                if !r.label.is_empty() {
                    words.push(r.label.clone());
                }
                let mut moved = false;
                for e in &r.effects {
                    words.push(match *e {
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
                        CellEffect::Bump => "no two pieces here".to_string(),
                        CellEffect::Stop => continue,
                    });
                }
                let mut text = words.join(", ");
                if moved && then != OUT {
                    text.push_str(&format!(" to {}", place(game, then)));
                }
                let verb = match r.moment {
                    Moment::Landing => "landed on",
                    Moment::Resting => "rests on",
                };
                format!("{verb} {at}: {text}")
            }
            Event::Bumped { seat, at } => {
                format!("{at} taken: {}'s piece goes out", seat_name(game, seat))
            }
            Event::Freed { seat, at } => {
                format!("{}'s piece on {at} is free again", seat_name(game, seat))
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
            Event::Won { seat } => format!("{} wins", seat_name(game, seat)),
        }
    }
}
