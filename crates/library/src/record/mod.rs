//! Game records as JSON lines, for board and race games alike: a header
//! line naming the game (with its options, and for race games the players
//! and the seed), then one line per ply or turn:
//! `{"player":"white","move":"22x15"}` for a board game ([`board`]),
//! `{"player":"red","dice":[6,3],"choice":"enter"}` for a race game
//! ([`race`]). `play --record`, the `save` command and `import` write them;
//! `replay` and `export` read them. [`mod@file`] writes them safely: whole
//! lines appended as the game goes, atomic replacement when turns are taken
//! back, and no lost game when the disk refuses.

use serde::{Deserialize, Serialize};

pub mod board;
pub mod file;
pub mod race;

pub use board::BoardRecord;
pub use file::{write_atomic, Recorder, Written};

/// The first line of a record.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The game: a bundled name or a path, as given to `play`.
    pub game: String,
    /// The options set with `--option`, as `NAME=VALUE`.
    #[serde(default)]
    pub options: Vec<String>,
    /// The start position of a board game, when it is not the usual one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The tags of a game imported from PDN (Event, Site, Date, White,
    /// Black, Result, ...) in their order, as `[name, value]` pairs:
    /// `export --pdn` writes them back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<(String, String)>,
    /// The number of players of a race game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
    /// The seed the game was played with: the dice of a race game and the
    /// computer players of either kind (the dice are in the record too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Who played each side or seat, in order (`human` or a computer
    /// player's name): a resumed game keeps them unless told otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<String>,
    /// How the game ended when the moves don't say it (a resignation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
}

/// The result of a game written in its record's header:
/// `{"winner":"black","reason":"resigned","resigned":"white"}`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The side that wins (a board game's side id, a race game's seat
    /// name); `null` when no single side wins.
    pub winner: Option<String>,
    /// Why the game ended: `resigned`.
    pub reason: String,
    /// The side that resigned (its id or seat name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<String>,
    /// The winner's points, in a race game with score rules (a
    /// resignation scores the pieces where they stand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
}

impl GameResult {
    /// `side` resigned, and `winner` (if a single side) wins.
    pub fn resigned(side: &str, winner: Option<&str>) -> GameResult {
        GameResult {
            winner: winner.map(str::to_string),
            reason: "resigned".into(),
            resigned: Some(side.to_string()),
            points: None,
        }
    }
}

/// One line of a record (without its newline): a header, a ply or a turn as
/// JSON. These types always serialise; an impossible failure gives `{}`
/// rather than half a line.
pub fn line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "{}".to_string())
}
