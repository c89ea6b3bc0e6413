//! `greedy`: tries every legal move and keeps the one after which its seat
//! stands best by the shared evaluation (a won game best of all, a lost one
//! worst). Where dice follow the move, it takes the average over the
//! outcomes, weighted by their probabilities. Ties are broken at random.
//!
//! The evaluation is read in a quiet position: while every move of the side
//! to move is tactical (a capture is compulsory), it follows the one line in
//! which the mover takes the capture that is best for itself at once, for at
//! most `FORCED` plies. Greedy thus sees the piece it leaves to a compulsory
//! capture, but it never searches the opponent's choices: it stays one move
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
    /// Scratch states of the forced lines.
    forced: Option<[S; 3]>,
}

impl<S: GameState> Greedy<S> {
    /// A greedy player; the seed breaks ties.
    pub fn new(seed: u64) -> Greedy<S> {
        Greedy {
            rng: Rng::new(seed),
            after: None,
            rolled: None,
            forced: None,
        }
    }
}

/// How `seat` stands in `s`: the result once over, else the evaluation.
fn now<S: GameState>(s: &S, seat: usize) -> f64 {
    match s.ending() {
        Some(e) => match e.winner {
            Some(w) if w == seat => WON,
            Some(_) => -WON,
            None => 0.0,
        },
        None => relative(s, seat),
    }
}

/// Whether every move of `s` is tactical: the mover has no quiet choice.
fn forced<S: GameState>(s: &S) -> bool {
    let n = s.move_count();
    n > 0 && (0..n).all(|i| s.is_tactical(i))
}

/// How `seat` stands in `s` once the forced moves are played: while every
/// move is a capture, the mover takes the one that is best for itself right
/// away, for at most `FORCED` plies. `buf` holds three scratch states.
fn standing<S: GameState>(s: &S, seat: usize, buf: &mut [S; 3]) -> f64 {
    if !forced(s) {
        return now(s, seat);
    }
    let [cur, cand, best] = buf;
    cur.clone_from(s);
    for _ in 0..FORCED {
        if !forced(cur) {
            break;
        }
        let mover = cur.to_move();
        let mut top = f64::NEG_INFINITY;
        for i in 0..cur.move_count() {
            cand.clone_from(cur);
            cand.play(i);
            let v = now(cand, mover);
            if v > top {
                top = v;
                std::mem::swap(cand, best);
            }
        }
        std::mem::swap(cur, best);
    }
    now(cur, seat)
}

impl<S: GameState> Agent<S> for Greedy<S> {
    fn choose(&mut self, state: &S) -> usize {
        let n = state.move_count();
        if n <= 1 {
            return 0;
        }
        let seat = state.to_move();
        let buf = self
            .forced
            .get_or_insert_with(|| [state.clone(), state.clone(), state.clone()]);
        let after = self.after.get_or_insert_with(|| state.clone());
        let mut best = f64::NEG_INFINITY;
        let mut chosen = 0;
        let mut ties = 0u64;
        for i in 0..n {
            after.clone_from(state);
            after.play(i);
            let v = match after.chance_count() {
                0 => standing(after, seat, buf),
                k => {
                    let rolled = self.rolled.get_or_insert_with(|| after.clone());
                    let mut sum = 0.0;
                    for o in 0..k {
                        rolled.clone_from(after);
                        rolled.play_chance(o);
                        sum += after.chance_probability(o) * standing(rolled, seat, buf);
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
