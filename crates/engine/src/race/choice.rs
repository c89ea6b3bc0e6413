//! `Choice`: what a player does with a roll.

/// A player's choice for a roll. Pieces of one player are interchangeable,
/// so a choice names the cell of the piece to move (SS-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// An out piece enters the track.
    Enter,
    /// The piece on this cell moves.
    Move(u16),
    /// Nothing moves.
    Pass,
}

impl Choice {
    /// `enter`, `24`, `pass`; also accepts `move 24`.
    pub fn parse(text: &str) -> Option<Choice> {
        let t = text.trim().to_lowercase();
        let t = t.strip_prefix("move ").unwrap_or(&t).trim();
        match t {
            "enter" | "e" => Some(Choice::Enter),
            "pass" | "p" => Some(Choice::Pass),
            n => n.parse().ok().map(Choice::Move),
        }
    }
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Enter => f.write_str("enter"),
            Choice::Move(c) => write!(f, "{c}"),
            Choice::Pass => f.write_str("pass"),
        }
    }
}
