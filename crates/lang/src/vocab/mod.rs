//! The language's vocabulary: its settings and their values as the grammar
//! names them, shared by the syntax tree, the checker, the compiler and the
//! compiled games. A base module: it imports nothing of the pipeline, so
//! every stage may use it.
//!
//! The words common to both kinds of game are here; [`board`] and [`race`]
//! hold each kind's settings as resolved values (names replaced by ids),
//! which the checker produces and the compiled games are built of.

pub mod board;
pub mod cross;
pub mod race;

/// Limits on the jumps of one `jump` line (bits), as the tree, the checker
/// and the move generator read them.
pub mod limit {
    /// `land-beyond`: land on the square just beyond the captured piece.
    pub const LAND_BEYOND: u8 = 1;
    /// `no-reverse`: no 180-degree turn between two jumps of a chain.
    pub const NO_REVERSE: u8 = 2;
    /// `must-continue`: land where the chain can go on, when it can.
    pub const MUST_CONTINUE: u8 = 4;
    /// `straight`: every jump of a chain keeps the direction of its first.
    pub const STRAIGHT: u8 = 8;
}

/// The outcome an end rule gives the side it concerns (`win`, `lose`,
/// `draw`, `pass`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The side wins.
    Win,
    /// The side loses.
    Lose,
    /// The game is drawn.
    Draw,
    /// The side passes its turn (only when it can't move).
    Pass,
}

impl Verdict {
    /// The word of the language.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Lose => "lose",
            Verdict::Draw => "draw",
            Verdict::Pass => "pass",
        }
    }
}

/// What a loss does when more than two sides play (`end loser ...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elimination {
    /// `drops-out`: the losing side's pieces leave the board and the others
    /// play on; the last side left wins.
    DropOut,
    /// `ends-game`: the game ends; the side that played the last move wins
    /// (or, when the loser played it, the next side in turn).
    EndsGame,
}
