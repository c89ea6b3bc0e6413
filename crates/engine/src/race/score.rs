//! What a race game's win is worth, by how far the loser got: the score
//! rules (`score 2 when the loser has borne off none "a gammon"`) looked at
//! once, when the game is over. Nothing of it runs during play.

use super::game::{RaceGame, OUT};
use super::state::RaceState;
use crate::vocab::race::{Points, ScoreTest};

/// The score of a game that is over, in a game with score rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    /// The winner's points.
    pub points: u32,
    /// The score rule that gave them (an index into `game.scores`), or
    /// `None` for the plain 1 point when no rule holds.
    pub rule: Option<usize>,
}

impl RaceState {
    /// The score of the game: `None` while it goes on, for a draw, and in a
    /// game without score rules. The highest of the rules with tests that
    /// all hold counts; when none holds, the plain score (`score N`, `score
    /// pieces left`, or 1).
    pub fn score(&self, game: &RaceGame) -> Option<Score> {
        if game.scores.is_empty() || !self.is_over() {
            return None;
        }
        let winner = self.winner()?;
        let loser = (0..self.players()).find(|&s| s != winner)?;
        Some(self.score_against(game, winner, loser))
    }

    /// The score `winner` would have against `loser` with the pieces where
    /// they are now (a resignation scores this way).
    pub fn score_against(&self, game: &RaceGame, winner: usize, loser: usize) -> Score {
        let left = self
            .pieces(loser)
            .iter()
            .filter(|&&p| p < game.home_from())
            .count() as u32;
        let worth = |points: Points| match points {
            Points::Fixed(n) => n,
            Points::PiecesLeft => left,
        };
        let mut best: Option<Score> = None;
        let mut plain = Score {
            points: 1,
            rule: None,
        };
        for (i, rule) in game.scores.iter().enumerate() {
            let points = worth(rule.points);
            if rule.tests.is_empty() {
                plain = Score {
                    points,
                    rule: Some(i),
                };
                continue;
            }
            let holds = rule
                .tests
                .iter()
                .all(|&t| self.test_holds(game, t, winner, loser));
            if holds && best.is_none_or(|b| points > b.points) {
                best = Some(Score {
                    points,
                    rule: Some(i),
                });
            }
        }
        best.unwrap_or(plain)
    }

    /// Whether test `t` holds of `loser`'s pieces.
    fn test_holds(&self, game: &RaceGame, t: ScoreTest, winner: usize, loser: usize) -> bool {
        let home = game.home_from();
        let pieces = self.pieces(loser);
        match t {
            ScoreTest::NoneOff => pieces.iter().all(|&p| p < home),
            ScoreTest::Piece { out, winners_last } => pieces.iter().any(|&p| {
                if p == OUT {
                    return out;
                }
                if p >= home || winners_last == 0 {
                    return false;
                }
                let spot = game.spot(loser, p);
                let from = game.cells.saturating_sub(winners_last).max(1);
                (from..game.cells).any(|q| game.spot(winner, q) == spot)
            }),
        }
    }
}
