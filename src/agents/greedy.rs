//! `greedy`: tries every legal move and keeps the one after which its seat
//! stands best by the shared evaluation (a won game best of all, a lost one
//! worst). Where dice follow the move, it takes the average over the
//! outcomes, weighted by their probabilities. Ties are broken at random.
//!
//! The evaluation is read in a quiet position: when every move of the side
//! to move is tactical (a capture is compulsory), the evaluation looks
//! through it, the mover taking the capture best for itself, for at most
//! `FORCED` plies. Greedy thus sees the piece it leaves to a compulsory
//! capture, but it never weighs a choice of the opponent: it stays one move
//! deep.

use super::eval::relative;
use super::state::GameState;
use super::Agent;
use crate::rng::Rng;

/// The score of a won game, beyond any evaluation.
const WON: f64 = 1e9;
/// Forced plies looked through.
const FORCED: usize = 6;

/// One move deep.
pub struct Greedy<S> {
    rng: Rng,
    after: Option<S>,
    rolled: Option<S>,
    /// States of the forced lines, one per ply.
    forced: Vec<S>,
}

impl<S: GameState> Greedy<S> {
    /// A greedy player; the seed breaks ties.
    pub fn new(seed: u64) -> Greedy<S> {
        Greedy {
            rng: Rng::new(seed),
            after: None,
            rolled: None,
            forced: Vec::new(),
        }
    }
}

/// How `seat` stands in `s` once the forced moves are played (`stack`
/// holds scratch states): the result once over, else the evaluation.
fn standing<S: GameState>(s: &S, seat: usize, stack: &mut [S]) -> f64 {
    if let Some(e) = s.ending() {
        return match e.winner {
            Some(w) if w == seat => WON,
            Some(_) => -WON,
            None => 0.0,
        };
    }
    let n = s.move_count();
    let Some((next, rest)) = stack.split_first_mut() else {
        return relative(s, seat);
    };
    if n == 0 || !(0..n).all(|i| s.is_tactical(i)) {
        return relative(s, seat);
    }
    // Every move is a capture: the mover takes the one best for itself.
    let mover = s.to_move();
    let mut best_for_mover = f64::NEG_INFINITY;
    let mut result = 0.0;
    for i in 0..n {
        next.clone_from(s);
        next.play(i);
        let mine = standing(next, mover, rest);
        if mine > best_for_mover {
            best_for_mover = mine;
            result = if mover == seat {
                mine
            } else {
                standing(next, seat, rest)
            };
        }
    }
    result
}

impl<S: GameState> Agent<S> for Greedy<S> {
    fn choose(&mut self, state: &S) -> usize {
        let n = state.move_count();
        if n <= 1 {
            return 0;
        }
        let seat = state.to_move();
        while self.forced.len() < FORCED {
            self.forced.push(state.clone());
        }
        let after = self.after.get_or_insert_with(|| state.clone());
        let mut best = f64::NEG_INFINITY;
        let mut chosen = 0;
        let mut ties = 0u64;
        for i in 0..n {
            after.clone_from(state);
            after.play(i);
            let v = match after.chance_count() {
                0 => standing(after, seat, &mut self.forced),
                k => {
                    let rolled = self.rolled.get_or_insert_with(|| after.clone());
                    let mut sum = 0.0;
                    for o in 0..k {
                        rolled.clone_from(after);
                        rolled.play_chance(o);
                        sum +=
                            after.chance_probability(o) * standing(rolled, seat, &mut self.forced);
                    }
                    sum
                }
            };
            if v > best + 1e-9 {
                best = v;
                chosen = i;
                ties = 1;
            } else if (v - best).abs() <= 1e-9 {
                ties += 1;
                if self.rng.below(ties) == 0 {
                    chosen = i;
                }
            }
        }
        chosen
    }

    fn name(&self) -> &str {
        "greedy"
    }
}
