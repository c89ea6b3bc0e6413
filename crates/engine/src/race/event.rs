//! `Event`: what happened in a turn, as data (`narrate::event` puts it in
//! words).

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
        /// A bonus move (`bonus N after capture`, `bonus N after home`),
        /// and what earned it; `None` for a move by the dice.
        bonus: Option<Bonus>,
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
        /// A move of the rule could not be made (the piece stays).
        blocked: bool,
    },
    /// A rule of the roll applied (`rolling 6 6: furthest out`).
    RollRule {
        /// The rule (an index into `RaceGame::roll_rules`).
        rule: u16,
    },
    /// A piece picked by an effect with a target was moved (sent out from
    /// the cell of the rule: `Bumped`).
    Sent {
        /// Whose piece.
        seat: u8,
        /// Where it stood (progress along its seat's path).
        from: u16,
        /// Where it went.
        to: u16,
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
    /// No piece of the player could move whatever the roll, and this roll
    /// let none enter: they roll again, a try of `tries` (MA-4).
    Retry {
        /// The number of the try to come (2 for the second).
        next: u8,
        /// The tries a turn may have.
        of: u8,
    },
    /// The player won.
    Won {
        /// Who.
        seat: u8,
    },
    /// A player got home and takes the next place (`finishing order`, or
    /// an outcome that plays on).
    Placed {
        /// Who.
        seat: u8,
        /// The place, 1 for the first.
        place: u8,
        /// Home (else the last one left, placed last).
        home: bool,
    },
    /// The player lost (`outcome ... lose`).
    Lost {
        /// Who.
        seat: u8,
    },
    /// No player can ever move again: every piece left is held (or can't
    /// reach the finish exactly); the game is drawn.
    Drawn,
}

impl Event {
    /// A piece's move from `from` (`OUT`: it enters) to `to` by `count`
    /// (`bounced`: past the finish and back), not a bonus move: `Enter` or
    /// `Move`.
    pub fn moved(from: u16, to: u16, count: u16, bounced: bool) -> Event {
        if from == crate::race::game::OUT {
            Event::Enter { to }
        } else {
            Event::Move {
                from,
                to,
                count,
                bounced,
                bonus: None,
            }
        }
    }
}

/// What earned a bonus move: sending an opponent's piece out (`bonus N
/// after capture`) or bringing a piece home (`bonus N after home`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bonus {
    /// A capture.
    Capture,
    /// A piece brought home.
    Home,
}
