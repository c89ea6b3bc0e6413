//! `GameState`: what a computer player needs to know about a game, and
//! nothing about how it is played. The board games implement it in
//! `board.rs`; a game with dice implements the chance methods too, and every
//! agent then plays it unchanged.
//!
//! A state is at one of three kinds of node: a decision (`move_count() > 0`:
//! the seat `to_move()` picks one of the moves), a chance node
//! (`chance_count() > 0`: the dice pick an outcome with the probabilities the
//! rule file gives), or the end (`ending()` is `Some`).

use super::playout::draw_chance;
use crate::board::position::MAX_SIDES;
use crate::rng::Rng;

/// The most seats a game may have.
pub const MAX_SEATS: usize = MAX_SIDES;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The seat that won, or `None` for a draw.
    pub winner: Option<usize>,
    /// Why (`narrate::lab::ending` gives its few words: `last piece`,
    /// `repetition`, `ply limit`).
    pub reason: EndCause,
}

/// Why a game the agents played ended, as the lab counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndCause {
    /// A board game's end rule decided it.
    Board(crate::board::end::Cause),
    /// A board game reached the agents' ply limit (drawn).
    PlyLimit,
    /// A race game: a player brought every piece home first.
    HomeFirst,
    /// A race game: no player can move.
    NoOneCanMove,
    /// A race game reached the agents' roll limit (drawn).
    RollLimit,
    /// The game stopped before it ended.
    Unfinished,
}

/// A rule event a kind of game counts, in the lab's tables (the column
/// names `narrate::lab::counted` gives).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counted {
    /// Board: pieces captured.
    Captures,
    /// Board: pieces that left the board.
    PiecesRemoved,
    /// Board: moves that won enemy pieces over (captures that convert),
    /// named by the construct that wins them over.
    Conversions(Conversion),
    /// Board: the pieces those moves won over.
    PiecesWonOver,
    /// Board: pieces converted by a zone.
    ZoneConversions,
    /// Board: promotions.
    Promotions,
    /// Board: passes.
    Passes,
    /// Race: pieces bumped.
    Bumped,
    /// Race: pieces sent out by a cell's rule.
    SentOut,
    /// Race: turns missed.
    TurnsMissed,
    /// Race: extra rolls.
    ExtraRolls,
}

/// What wins pieces over in a board game whose captures convert (`capture
/// converts`): the construct the lab names its conversions by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conversion {
    /// Jumps (`jump`, `leap`): also the name in a game whose captures
    /// remove, where the count stays 0.
    Jump,
    /// Enclosing lines (`capture custodian`), after a move or a placement.
    Custodian,
    /// Winning over the enemies next to the square moved to (`capture
    /// neighbours`).
    Neighbours,
    /// More than one of these in one game.
    Several,
}

/// One seat's standing, read off the position with what the rule file says,
/// in units of the ordinary piece's material value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// The values (`KindInfo::value`) of the seat's pieces on the board;
    /// pieces won over from another seat count for their new owner.
    pub material: f64,
    /// Progress towards promotion: for each piece that can be crowned, the
    /// value it would gain, times how close it stands to its promotion zone
    /// (0 far away .. 1 one move from it).
    pub advancement: f64,
    /// Progress along a track (dice games; 0 for board games).
    pub track: f64,
}

/// A game in progress, as agents see it.
pub trait GameState: Clone + Send {
    /// The number of seats (players).
    fn seats(&self) -> usize;
    /// The seat to move at a decision node.
    fn to_move(&self) -> usize;
    /// How the game ended, once it is over.
    fn ending(&self) -> Option<Ending>;
    /// The winner's points, once the game is over, in a game whose rules
    /// score a win (`None` everywhere else). Looked at once, at the end.
    fn points(&self) -> Option<u32> {
        None
    }
    /// The names the rules give a win's points (`2`, `a gammon`), fewest
    /// points first: empty in a game without score rules or names.
    fn score_names(&self) -> Vec<(u32, String)> {
        Vec::new()
    }
    /// Whether the game's rules score a win (a game whose won games
    /// have [`GameState::points`]).
    fn scores_wins(&self) -> bool {
        false
    }
    /// The number of legal moves (0 at a chance node or at the end).
    fn move_count(&self) -> usize;
    /// Plays move `i` (`i < move_count()`).
    fn play(&mut self, i: usize);
    /// Whether move `i` is a pass: a turn lost because nothing can move.
    fn is_pass(&self, _i: usize) -> bool {
        false
    }
    /// Whether move `i` changes the material (a capture, conversion or
    /// promotion): searched first, and on past the depth limit.
    fn is_tactical(&self, _i: usize) -> bool {
        false
    }
    /// Whether the game has chance nodes at all (dice).
    fn has_chance(&self) -> bool {
        false
    }
    /// The number of outcomes at a chance node (0 elsewhere).
    fn chance_count(&self) -> usize {
        0
    }
    /// The probability of outcome `i` of the chance node.
    fn chance_probability(&self, _i: usize) -> f64 {
        0.0
    }
    /// Resolves the chance node with outcome `i`.
    fn play_chance(&mut self, _i: usize) {}
    /// Fills `out[s]` with seat `s`'s features, for every seat.
    fn features(&self, out: &mut [Features]);
    /// A hash of the position (not of the history), for transposition tables.
    fn hash(&self) -> u64;
    /// Plies played so far.
    fn plies(&self) -> u32;
    /// The rule events this kind of game counts.
    fn counted(&self) -> &'static [Counted];
    /// How often each event of `counted` fired so far.
    fn event_counts(&self) -> &[u32];

    /// Plays at most `max` plies at random: uniform over the legal moves
    /// (`rng.below(n)` per ply), chance outcomes with their probabilities;
    /// the plies played. A state may do it faster than move by move, but
    /// with the same draws: the same game.
    fn random_plies(&mut self, rng: &mut Rng, max: u32) -> u32 {
        let mut plies = 0;
        while plies < max {
            let n = self.move_count();
            if n > 0 {
                self.play(rng.below(n as u64) as usize);
                plies += 1;
            } else if self.chance_count() > 0 {
                let i = draw_chance(self, rng);
                self.play_chance(i);
            } else {
                break;
            }
        }
        plies
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.ending().is_some()
    }

    /// The score of a seat at the end: 1 for a win, 0 for a loss, an equal
    /// share for a draw; 0 while the game goes on.
    fn reward(&self, seat: usize) -> f64 {
        match self.ending() {
            Some(Ending {
                winner: Some(w), ..
            }) => f64::from(u8::from(w == seat)),
            Some(Ending { winner: None, .. }) => 1.0 / self.seats().max(1) as f64,
            None => 0.0,
        }
    }
}
