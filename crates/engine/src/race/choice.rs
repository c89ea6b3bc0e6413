//! `Choice`: what a player does with a roll.

/// The most steps a turn of dice used one by one has (a double played
/// four times).
pub const MAX_STEPS: usize = 4;

/// One move of a turn of dice used one by one: the position of the piece
/// that moves (0: out, it enters), how far it goes, and whether it goes
/// back (`move back when blocked`: a die that can move no piece forward).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Where the piece stands.
    pub from: u16,
    /// How far it moves (to the finish at most).
    pub by: u16,
    /// It moves back, towards the start.
    pub back: bool,
}

impl Step {
    /// Where the piece lands: `by` cells on from `from`, or back.
    pub fn to(&self) -> u16 {
        if self.back {
            self.from.saturating_sub(self.by)
        } else {
            self.from.saturating_add(self.by)
        }
    }
}

/// The moves of a turn of dice used one by one (`move each die`), in the
/// order played: each a `Step` (forward by at most the rest of the path: a
/// larger die that bears a piece off moves it the rest of its path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Steps([u16; MAX_STEPS]);

impl Steps {
    /// Bits of a step that hold the position (the next five hold the
    /// distance, the last one whether it goes back).
    const FROM_BITS: u32 = 10;

    /// The bit of a step that goes back.
    const BACK: u16 = 1 << 15;

    /// The steps so far and one more forward: a piece at `from` moves `by`
    /// cells (`from` at most 1023, `by` 1 to 31); `None` when there are
    /// already `MAX_STEPS` or the numbers don't fit.
    pub fn with(self, from: u16, by: u16) -> Option<Steps> {
        self.and(Step {
            from,
            by,
            back: false,
        })
    }

    /// The steps so far and `step` (forward or back), as `with` says.
    pub fn and(self, step: Step) -> Option<Steps> {
        let Step { from, by, back } = step;
        if from >= 1 << Self::FROM_BITS || by == 0 || by >= 32 {
            return None;
        }
        let mut next = self;
        let slot = next.0.iter_mut().find(|s| **s == 0)?;
        *slot = from | (by << Self::FROM_BITS) | if back { Self::BACK } else { 0 };
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

    /// The steps in order.
    pub fn iter(&self) -> impl Iterator<Item = Step> + '_ {
        self.0.iter().take_while(|&&s| s != 0).map(|&s| Step {
            from: s & ((1 << Self::FROM_BITS) - 1),
            by: (s & !Self::BACK) >> Self::FROM_BITS,
            back: s & Self::BACK != 0,
        })
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
                for (i, step) in steps.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    let sign = if step.back { '-' } else { '+' };
                    write!(f, "{}{sign}{}", step.from, step.by)?;
                }
                Ok(())
            }
        }
    }
}
