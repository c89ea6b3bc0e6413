//! The plies of a board game's record: a header line with the game, its
//! options and the start position, then one line per ply with the player and
//! the move in the game's notation. `replay` checks every line against the
//! rules; the moves before a bad line are kept.

use serde::{Deserialize, Serialize};

use super::Header;
use crate::board::{Match, Move, Position, Tables};

/// One ply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ply {
    /// The side's identifier.
    pub player: String,
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
}

/// A whole record (two records are equal when their headers and plies
/// are, wherever their lines stood).
#[derive(Clone, Debug)]
pub struct BoardRecord {
    /// The header.
    pub header: Header,
    /// The plies in order.
    pub plies: Vec<Ply>,
    /// The line of the header and of each ply in the text the record was
    /// read from (blank lines count); empty for a record made in memory,
    /// whose header is line 1 and ply i line i + 2.
    pub lines: Vec<usize>,
}

impl PartialEq for BoardRecord {
    fn eq(&self, other: &BoardRecord) -> bool {
        self.header == other.header && self.plies == other.plies
    }
}

impl Eq for BoardRecord {}

/// A problem in a record, at a line (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

/// A record that could not be read whole: the error, and the record of the
/// lines before it (None when the header itself is bad).
#[derive(Clone, Debug)]
pub struct Partial {
    /// The lines before the error.
    pub record: Option<BoardRecord>,
    /// The error.
    pub error: RecordError,
}

/// A record played out: the game, each ply's move and events, and the error
/// that stopped it, if any.
pub struct Replay<'t> {
    /// The game after the plies that could be played.
    pub game: Match<'t>,
    /// Each ply played, with its events.
    pub played: Vec<(Move, Vec<String>)>,
    /// Why the replay stopped early.
    pub error: Option<RecordError>,
}

impl BoardRecord {
    /// A record of moves played from `start`.
    pub fn of_game(
        game: &str,
        options: &[String],
        t: &Tables,
        start: &Position,
        moves: &[Move],
    ) -> BoardRecord {
        let mut m = Match::new(t, start.clone());
        let mut plies = Vec::with_capacity(moves.len());
        for mv in moves {
            let player = t
                .game()
                .sides
                .get(usize::from(m.pos().side().0))
                .map_or_else(String::new, |s| s.id.clone());
            plies.push(Ply {
                player,
                mv: mv.notation.clone(),
            });
            m.play(mv);
        }
        let position = (*start != Position::start(t)).then(|| start.to_fen(t));
        BoardRecord {
            header: Header {
                game: game.to_string(),
                options: options.to_vec(),
                position,
                ..Header::default()
            },
            plies,
            lines: Vec::new(),
        }
    }

    /// The record as JSON lines.
    pub fn to_jsonl(&self) -> String {
        let mut out = super::line(&self.header);
        out.push('\n');
        for p in &self.plies {
            out.push_str(&super::line(p));
            out.push('\n');
        }
        out
    }

    /// Reads a record. On a malformed line, the error names it, and the
    /// record of the lines before it comes with it.
    pub fn parse(text: &str) -> Result<BoardRecord, Box<Partial>> {
        let (header, plies) = PlyLines::of(text).map_err(|error| {
            Box::new(Partial {
                record: None,
                error,
            })
        })?;
        let mut rec = BoardRecord {
            header,
            plies: Vec::new(),
            lines: vec![plies.header_line],
        };
        for ply in plies {
            match ply {
                Ok((line, p)) => {
                    rec.plies.push(p);
                    rec.lines.push(line);
                }
                Err(error) => {
                    return Err(Box::new(Partial {
                        error,
                        record: Some(rec),
                    }))
                }
            }
        }
        Ok(rec)
    }

    /// The line of the header (0) or of ply `i - 1` (i >= 1) in the text
    /// the record was read from.
    fn line(&self, i: usize) -> usize {
        self.lines.get(i).copied().unwrap_or(i + 1)
    }

    /// The start position of the record in `t`.
    pub fn start(&self, t: &Tables) -> Result<Position, RecordError> {
        match &self.header.position {
            Some(p) => Position::parse(t, p).map_err(|e| RecordError {
                line: self.line(0),
                reason: format!("bad start position: {e}"),
            }),
            None => Ok(Position::start(t)),
        }
    }

    /// Plays the record in `t` from its start position, checking every ply.
    /// Returns the game and, for each ply, the move and its events; on an
    /// illegal ply, the error (with its line) after the plies before it.
    pub fn replay<'t>(&self, t: &'t Tables) -> Replay<'t> {
        let start = match self.start(t) {
            Ok(p) => p,
            Err(e) => {
                return Replay {
                    game: Match::new(t, Position::start(t)),
                    played: Vec::new(),
                    error: Some(e),
                }
            }
        };
        let mut m = Match::new(t, start);
        let mut played = Vec::new();
        for (i, ply) in self.plies.iter().enumerate() {
            match play_ply(&mut m, self.line(i + 1), ply) {
                Ok(p) => played.push(p),
                Err(e) => {
                    return Replay {
                        game: m,
                        played,
                        error: Some(e),
                    }
                }
            }
        }
        Replay {
            game: m,
            played,
            error: None,
        }
    }
}

/// Plays one ply of a record (at line `line`) in `m`, checking it: the move
/// and its events, or why it can't be played.
pub fn play_ply(
    m: &mut Match<'_>,
    line: usize,
    ply: &Ply,
) -> Result<(Move, Vec<String>), RecordError> {
    let t = m.tables();
    let mover = t
        .game()
        .sides
        .get(usize::from(m.pos().side().0))
        .map_or("", |s| s.id.as_str());
    if let Some(o) = m.outcome() {
        let reason = format!(
            "the game is already over ({})",
            crate::narrate::board::outcome(t, o)
        );
        return Err(RecordError { line, reason });
    }
    if ply.player != mover {
        let reason = format!("it is {mover}'s turn, not {}'s", ply.player);
        return Err(RecordError { line, reason });
    }
    match m.parse_move(&ply.mv) {
        Ok(mv) => {
            let t = m.tables();
            let events = m.play(&mv);
            let words = events
                .iter()
                .map(|e| crate::narrate::board::describe(t, e))
                .collect();
            Ok((mv, words))
        }
        Err(why) => {
            let reason = format!(
                "{} is illegal: {}",
                crate::shown::shown(&ply.mv),
                crate::narrate::board::refusal(m.tables(), &why)
            );
            Err(RecordError { line, reason })
        }
    }
}

/// The plies of a record's text, read one at a time (nothing is kept):
/// each with its line number, or the error of a malformed line.
pub struct PlyLines<'a> {
    /// The line of the header.
    pub header_line: usize,
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
}

impl<'a> PlyLines<'a> {
    /// The header of a record's text and its plies to come.
    pub fn of(text: &'a str) -> Result<(Header, PlyLines<'a>), RecordError> {
        let mut lines = PlyLines {
            header_line: 1,
            lines: text.lines().enumerate(),
        };
        let Some((hl, first)) = lines.next_line() else {
            return Err(RecordError {
                line: 1,
                reason: "the record is empty: its first line names the game".into(),
            });
        };
        let header: Header = serde_json::from_str(first).map_err(|e| RecordError {
            line: hl,
            reason: format!("the first line must be a header such as {{\"game\":\"NAME\"}}: {e}"),
        })?;
        lines.header_line = hl;
        Ok((header, lines))
    }

    /// The next line that is not blank, with its number (from 1).
    fn next_line(&mut self) -> Option<(usize, &'a str)> {
        self.lines
            .by_ref()
            .find(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, l))
    }
}

impl Iterator for PlyLines<'_> {
    type Item = Result<(usize, Ply), RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (line, text) = self.next_line()?;
        Some(
            serde_json::from_str::<Ply>(text)
                .map(|p| (line, p))
                .map_err(|e| RecordError {
                    line,
                    reason: format!(
                        "a ply is written {{\"player\":\"white\",\"move\":\"22-18\"}}: {e}"
                    ),
                }),
        )
    }
}
