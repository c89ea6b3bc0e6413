//! The language's vocabulary: settings and their values as the grammar
//! names them, shared by the syntax tree, the checker and the compiled game.
//! It imports nothing of the pipeline, so every stage may use it.

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
