//! The turns of a race game's record: `{"player":"red","dice":[6,3],"choice":"enter"}`.

use serde::{Deserialize, Serialize};

use crate::narrate::race::{choice_text, parse_choice};
use crate::race::game::RaceGame;
use crate::race::Choice;

/// A choice as written in records and turn JSON: the cell as a number (a
/// home cell of a circuit as `"h2"`), or `"enter"` / `"pass"`. Read back,
/// anything else is kept as it was written, for the error to quote it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum ChoiceJson {
    /// A cell number.
    Cell(u16),
    /// `"enter"`, `"pass"` or a home cell's label.
    Word(String),
    /// Anything else (only when read).
    Other(serde_json::Value),
}

impl std::fmt::Display for ChoiceJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChoiceJson::Cell(c) => write!(f, "{c}"),
            ChoiceJson::Word(w) => write!(f, "{}", serde_json::Value::from(w.as_str())),
            ChoiceJson::Other(v) => write!(f, "{v}"),
        }
    }
}

/// One turn of a race game.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RaceTurn {
    /// The seat's name.
    pub player: String,
    /// The faces rolled.
    pub dice: Vec<u8>,
    /// A cell number, `"enter"` or `"pass"`.
    pub choice: ChoiceJson,
}

/// A choice of seat `seat` as JSON.
pub fn choice_json(game: &RaceGame, seat: usize, choice: Choice) -> ChoiceJson {
    let text = choice_text(game, seat, choice);
    match text.parse::<u16>() {
        Ok(cell) => ChoiceJson::Cell(cell),
        Err(_) => ChoiceJson::Word(text),
    }
}

/// A choice of seat `seat` from JSON: a cell number, or a string
/// `parse_choice` reads.
pub fn choice_of(game: &RaceGame, seat: usize, value: &ChoiceJson) -> Option<Choice> {
    match value {
        ChoiceJson::Cell(c) => parse_choice(game, seat, &c.to_string()),
        ChoiceJson::Word(s) => parse_choice(game, seat, s),
        ChoiceJson::Other(_) => None,
    }
}

/// A whole race record as JSON lines: the header, then the turns.
pub fn record_text(header: &super::Header, turns: &[RaceTurn]) -> String {
    let mut text = super::line(header);
    text.push('\n');
    for t in turns {
        text.push_str(&super::line(t));
        text.push('\n');
    }
    text
}
