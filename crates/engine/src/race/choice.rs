//! `Choice`: what a player does with a roll.

/// The most steps a turn of dice used one by one has (a double played
/// four times).
pub const MAX_STEPS: usize = 4;

/// The moves of a turn of dice used one by one (`move each die`), in the
/// order played: each the position of the piece that moves (0: out, it
/// enters) and how far it goes (to the finish at most: a larger die that
/// bears a piece off moves it the rest of its path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Steps([u16; MAX_STEPS]);

impl Steps {
    /// Bits of a step that hold the position (the rest hold the distance).
    const FROM_BITS: u32 = 10;

    /// The steps so far and one more: a piece at `from` moves `by` cells
    /// (`from` at most 1023, `by` 1 to 31); `None` when there are already
    /// `MAX_STEPS` or the numbers don't fit.
    pub fn with(self, from: u16, by: u16) -> Option<Steps> {
        if from >= 1 << Self::FROM_BITS || by == 0 || by >= 32 {
            return None;
        }
        let mut next = self;
        let slot = next.0.iter_mut().find(|s| **s == 0)?;
        *slot = from | (by << Self::FROM_BITS);
        Some(next)
    }

    /// How many steps.
    pub fn len(&self) -> usize {
        self.0.iter().take_while(|&&s| s != 0).count()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0[0] == 0
    }

    /// The steps in order: (the piece's position, how far it moves).
    pub fn iter(&self) -> impl Iterator<Item = (u16, u16)> + '_ {
        self.0
            .iter()
            .take_while(|&&s| s != 0)
            .map(|&s| (s & ((1 << Self::FROM_BITS) - 1), s >> Self::FROM_BITS))
    }
}

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
    /// Dice used one by one: pieces moved in this order (`move each die`).
    Dice(Steps),
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
            Choice::Dice(steps) => {
                for (i, (from, by)) in steps.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{from}+{by}")?;
                }
                Ok(())
            }
        }
    }
}
