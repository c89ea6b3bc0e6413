//! Game records as JSON lines: a header line naming the game (with its
//! options, and for race games the players and the seed), then one line per
//! turn: `{"player":"red","dice":[6,3],"choice":"enter"}` for a race game,
//! `{"player":"white","move":"22x15"}` for a board game (`board_record`,
//! the format of the `save` prompt command).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Failure, GameArgs};
use crate::race::game::RaceGame;
use crate::race::text::{choice_text, parse_choice};
use crate::race::Choice;

/// The first line of a record.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub(crate) struct Header {
    /// The game: a bundled name or a path, as given to `play`.
    pub game: String,
    /// The options set with `--option`, as `NAME=VALUE`.
    #[serde(default)]
    pub options: Vec<String>,
    /// The start position of a board game, when it is not the usual one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The number of players of a race game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
    /// The seed the game was played with (for information: the dice are in
    /// the record).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl Header {
    /// The game and options as `play` takes them.
    pub(crate) fn game_args(&self) -> GameArgs {
        GameArgs {
            game: self.game.clone(),
            options: self.options.clone(),
        }
    }
}

/// One turn of a race game.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct RaceTurn {
    /// The seat's name.
    pub player: String,
    /// The faces rolled.
    pub dice: Vec<u8>,
    /// A cell number, `"enter"` or `"pass"`.
    pub choice: serde_json::Value,
}

/// A choice of seat `seat` as JSON: the cell as a number (a home cell of a
/// circuit as `"h2"`), or `"enter"` / `"pass"`.
pub(crate) fn choice_json(game: &RaceGame, seat: usize, choice: Choice) -> serde_json::Value {
    let text = choice_text(game, seat, choice);
    match text.parse::<u16>() {
        Ok(cell) => serde_json::Value::from(cell),
        Err(_) => serde_json::Value::from(text),
    }
}

/// A choice of seat `seat` from JSON: a cell number, or a string
/// `parse_choice` reads.
pub(crate) fn choice_of(game: &RaceGame, seat: usize, value: &serde_json::Value) -> Option<Choice> {
    match value {
        serde_json::Value::Number(n) => n
            .as_u64()
            .and_then(|c| u16::try_from(c).ok())
            .and_then(|c| parse_choice(game, seat, &c.to_string())),
        serde_json::Value::String(s) => parse_choice(game, seat, s),
        _ => None,
    }
}

/// Writes a record when a file is given; does nothing otherwise.
pub(crate) struct Recorder {
    out: Option<BufWriter<File>>,
}

impl Recorder {
    /// Creates the file (when given) and writes the header.
    pub(crate) fn create(path: Option<&Path>, header: &Header) -> Result<Recorder, Failure> {
        let Some(path) = path else {
            return Ok(Recorder { out: None });
        };
        let file = File::create(path).map_err(|e| {
            Failure::new(format!(
                "error: can't write the record {}: {e}",
                path.display()
            ))
        })?;
        let mut r = Recorder {
            out: Some(BufWriter::new(file)),
        };
        r.line(header)?;
        Ok(r)
    }

    /// Writes the whole record anew (after an undo).
    pub(crate) fn rewrite(&mut self, header: &Header, turns: &[RaceTurn]) -> Result<(), Failure> {
        if let Some(out) = &mut self.out {
            out.flush()?;
            let file = out.get_mut();
            file.set_len(0)?;
            std::io::Seek::seek(file, std::io::SeekFrom::Start(0))?;
        }
        self.line(header)?;
        for t in turns {
            self.line(t)?;
        }
        Ok(())
    }

    /// Writes one line.
    pub(crate) fn line<T: Serialize>(&mut self, value: &T) -> Result<(), Failure> {
        if let Some(out) = &mut self.out {
            let text = serde_json::to_string(value)
                .map_err(|e| Failure::new(format!("error: can't write the record: {e}")))?;
            writeln!(out, "{text}")?;
            out.flush()?;
        }
        Ok(())
    }
}

/// Writes the record of a board game so far (when a file is given): the
/// format of the `save` prompt command, written anew after every ply so that
/// an undone move leaves it too.
pub(crate) fn write_board(
    path: Option<&Path>,
    game: &GameArgs,
    t: &crate::board::Tables,
    start: &crate::board::Position,
    played: &[crate::board::Move],
) -> Result<(), Failure> {
    let Some(path) = path else {
        return Ok(());
    };
    let record =
        crate::board_record::BoardRecord::of_game(&game.game, &game.options, t, start, played)
            .to_jsonl();
    super::save::write_atomic(path, record.as_bytes()).map_err(|e| {
        Failure::new(format!(
            "error: can't write the record {}: {e}",
            path.display()
        ))
    })
}
