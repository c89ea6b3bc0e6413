//! `alphabeta`: iterative deepening negamax with alpha-beta pruning and a
//! transposition table keyed by the state's Zobrist hash, for two seats
//! without dice.
//!
//! Past the depth limit the search goes on through tactical moves only
//! (captures, conversions, promotions) for at most `QUIESCENCE` plies, so
//! that it never stops in the middle of an exchange; when every move is
//! tactical (a capture is compulsory) the side to move may not stand pat.
//! Scores are the shared evaluation in hundredths of a piece, from the side
//! to move. Among root moves of equal score the seeded generator chooses.

use std::time::{Duration, Instant};

use super::eval::relative;
use super::state::GameState;
use super::{Agent, Strength};
use crate::rng::Rng;

/// The depth when no strength is given.
pub const DEFAULT_DEPTH: u32 = 4;
/// Plies of tactical moves searched past the depth limit.
const QUIESCENCE: i32 = 8;
/// The score of a won game (less the plies it takes).
const WIN: i32 = 1_000_000;
const INF: i32 = 2 * WIN;
/// log2 of the number of transposition table entries.
const TT_BITS: u32 = 18;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    depth: i16,
    bound: Bound,
    best: u16,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Empty,
    Exact,
    Lower,
    Upper,
}

/// Alpha-beta search.
pub struct AlphaBeta<S> {
    rng: Rng,
    depth: Option<u32>,
    think: Option<Duration>,
    tt: Vec<Entry>,
    /// States per ply, reused.
    stack: Vec<S>,
    /// Move order per ply, reused.
    order: Vec<Vec<(i32, u16)>>,
    deadline: Option<Instant>,
    nodes: u64,
    stopped: bool,
}

impl<S: GameState> AlphaBeta<S> {
    /// A player with its seed; `strength.depth` or `strength.think` set the
    /// effort (both: the depth, unless time runs out first).
    pub fn new(seed: u64, strength: Strength) -> AlphaBeta<S> {
        let depth = match (strength.depth, strength.think) {
            (None, None) => Some(DEFAULT_DEPTH),
            (d, _) => d,
        };
        AlphaBeta {
            rng: Rng::new(seed),
            depth,
            think: strength.think,
            tt: Vec::new(),
            stack: Vec::new(),
            order: Vec::new(),
            deadline: None,
            nodes: 0,
            stopped: false,
        }
    }

    /// The score of the side to move at `ply` when the game is over there.
    fn terminal(s: &S, ply: usize) -> Option<i32> {
        let e = s.ending()?;
        let ply = ply as i32;
        Some(match e.winner {
            Some(w) if w == s.to_move() => WIN - ply,
            Some(_) => ply - WIN,
            None => 0,
        })
    }

    fn evaluate(s: &S) -> i32 {
        (relative(s, s.to_move()) * 100.0).round() as i32
    }

    /// Makes sure the buffers reach `ply`.
    fn ensure(&mut self, ply: usize) {
        while self.stack.len() <= ply + 1 {
            let s = self.stack[0].clone();
            self.stack.push(s);
        }
        while self.order.len() <= ply {
            self.order.push(Vec::with_capacity(64));
        }
    }

    /// Plays move `i` of the state at `ply` into `ply + 1`.
    fn play(&mut self, ply: usize, i: usize) {
        let (lo, hi) = self.stack.split_at_mut(ply + 1);
        hi[0].clone_from(&lo[ply]);
        hi[0].play(i);
    }

    /// The child's score seen from the parent's side to move.
    fn seen_from_parent(&self, ply: usize, child_score: i32) -> i32 {
        if self.stack[ply + 1].to_move() == self.stack[ply].to_move() {
            child_score
        } else {
            -child_score
        }
    }

    fn out_of_time(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
            // The move is no longer wanted (the game changed or closed):
            // the iterative deepening ends too.
            if super::stop::requested() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Orders the moves at `ply`: the table's move first, then tactical ones.
    fn order_moves(&mut self, ply: usize, hint: Option<u16>, tactical_only: bool) {
        self.ensure(ply);
        let mut order = std::mem::take(&mut self.order[ply]);
        order.clear();
        let s = &self.stack[ply];
        for i in 0..s.move_count() {
            let tactical = s.is_tactical(i);
            if tactical_only && !tactical {
                continue;
            }
            let key = if Some(i as u16) == hint {
                2
            } else {
                i32::from(tactical)
            };
            order.push((key, i as u16));
        }
        order.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        self.order[ply] = order;
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - TT_BITS)) as usize
    }

    fn search(&mut self, ply: usize, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        if let Some(v) = Self::terminal(&self.stack[ply], ply) {
            return v;
        }
        if depth <= 0 {
            return self.quiesce(ply, QUIESCENCE, alpha, beta);
        }
        if self.out_of_time() {
            return 0;
        }
        let key = self.stack[ply].hash();
        let slot = self.slot(key);
        let mut hint = None;
        let e = self.tt[slot];
        if e.bound != Bound::Empty && e.key == key {
            hint = Some(e.best);
            if i32::from(e.depth) >= depth {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }
        let alpha0 = alpha;
        self.order_moves(ply, hint, false);
        let mut best = -INF;
        let mut best_move = 0u16;
        let n = self.order[ply].len();
        for k in 0..n {
            let i = self.order[ply][k].1;
            self.play(ply, usize::from(i));
            let child = self.search(ply + 1, depth - 1, -beta, -alpha);
            let v = self.seen_from_parent(ply, child);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = i;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt[slot] = Entry {
            key,
            score: best,
            depth: depth as i16,
            bound,
            best: best_move,
        };
        best
    }

    fn quiesce(&mut self, ply: usize, left: i32, mut alpha: i32, beta: i32) -> i32 {
        if let Some(v) = Self::terminal(&self.stack[ply], ply) {
            return v;
        }
        let stand = Self::evaluate(&self.stack[ply]);
        if left <= 0 || self.out_of_time() {
            return stand;
        }
        let s = &self.stack[ply];
        let n = s.move_count();
        let tactical = (0..n).filter(|&i| s.is_tactical(i)).count();
        if tactical == 0 {
            return stand;
        }
        let forced = tactical == n;
        let mut best = -INF;
        if !forced {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        self.order_moves(ply, None, true);
        for k in 0..self.order[ply].len() {
            let i = self.order[ply][k].1;
            self.play(ply, usize::from(i));
            let child = self.quiesce(ply + 1, left - 1, -beta, -alpha);
            let v = self.seen_from_parent(ply, child);
            if self.stopped {
                return 0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Searches the root to `depth`; the best score and the moves that have
    /// it, or None when time ran out.
    fn root(&mut self, depth: i32, hint: Option<u16>, ties: &mut Vec<usize>) -> Option<i32> {
        self.order_moves(0, hint, false);
        let order = self.order[0].clone();
        let mut best = -INF;
        ties.clear();
        for &(_, i) in &order {
            self.play(0, usize::from(i));
            // A window just below the best so far finds the moves equal to it.
            let child = self.search(1, depth - 1, -INF, -(best - 1).max(-INF));
            let v = self.seen_from_parent(0, child);
            if self.stopped {
                return None;
            }
            if v > best {
                best = v;
                ties.clear();
            }
            if v == best {
                ties.push(usize::from(i));
            }
        }
        Some(best)
    }
}

impl<S: GameState> Agent<S> for AlphaBeta<S> {
    fn choose(&mut self, state: &S) -> usize {
        let n = state.move_count();
        if n <= 1 {
            return 0;
        }
        if self.tt.is_empty() {
            self.tt = vec![Entry::default(); 1 << TT_BITS];
        }
        match self.stack.first_mut() {
            Some(s) => s.clone_from(state),
            None => self.stack.push(state.clone()),
        }
        self.ensure(1);
        self.stopped = false;
        self.nodes = 0;
        self.deadline = self.think.map(|t| Instant::now() + t);
        let max_depth = self.depth.unwrap_or(64).max(1) as i32;
        let mut chosen: Option<Vec<usize>> = None;
        let mut ties = Vec::new();
        for depth in 1..=max_depth {
            let hint = chosen.as_ref().and_then(|c| c.first()).map(|&i| i as u16);
            match self.root(depth, hint, &mut ties) {
                Some(score) => {
                    chosen = Some(ties.clone());
                    if score.abs() >= WIN - 1000 {
                        break;
                    }
                }
                None => break,
            }
        }
        match chosen {
            Some(c) if !c.is_empty() => c[self.rng.below(c.len() as u64) as usize],
            _ => 0,
        }
    }

    fn name(&self) -> &str {
        "alphabeta"
    }
}
