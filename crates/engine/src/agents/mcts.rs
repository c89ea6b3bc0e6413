//! `mcts`: Monte Carlo tree search (UCT) for any number of seats, with chance
//! nodes.
//!
//! Each playout walks down the tree from the current position: at a
//! decision node it takes the child with the best upper confidence bound for
//! the seat that moves there; at a chance node it draws an outcome with the
//! probabilities the game gives. Below the tree it plays random moves for at
//! most `ROLLOUT_PLIES` plies, then scores the position: the result when the
//! game is over, else each seat's chance of winning guessed from the shared
//! evaluation. Every node on the way adds the score of the seat that moved
//! into it. The move played is the root's most visited child.
//!
//! The tree lives in one `Vec` of nodes that is reused from move to move, and
//! the states walked are copied into two reused buffers.

use std::time::{Duration, Instant};

use super::eval::{values, win_shares};
use super::playout::draw_chance;
use super::state::{GameState, MAX_SEATS};
use super::{Agent, Strength};
use crate::rng::Rng;

/// Playouts per move when no strength is given.
pub const DEFAULT_PLAYOUTS: u32 = 1000;
/// Random plies after leaving the tree before the position is scored.
const ROLLOUT_PLIES: u32 = 8;
/// How sure the guessed chance of winning is per unit of material: a lead
/// of one ordinary piece counts as winning about three games in four.
const SCALE: f64 = 1.1;
/// The exploration constant of UCB1 (rewards are in 0..1).
const EXPLORE: f64 = 0.8;
/// The tree stops growing at this many nodes (time-limited searches).
const MAX_NODES: usize = 4_000_000;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Index of the first child; children are contiguous.
    first: u32,
    /// Number of children (0 until expanded).
    count: u32,
    expanded: bool,
    visits: u32,
    /// Sum of the rewards of `mover`.
    reward: f64,
    /// The seat that made the move into this node.
    mover: u8,
}

impl Node {
    fn new(mover: usize) -> Node {
        Node {
            first: 0,
            count: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
            mover: mover as u8,
        }
    }
}

/// Monte Carlo tree search.
pub struct Mcts<S> {
    rng: Rng,
    playouts: Option<u32>,
    think: Option<Duration>,
    nodes: Vec<Node>,
    path: Vec<usize>,
    walk: Option<S>,
}

impl<S: GameState> Mcts<S> {
    /// A player with its seed; `strength.think` or `strength.playouts` set
    /// the effort (both: whichever ends first).
    pub fn new(seed: u64, strength: Strength) -> Mcts<S> {
        let playouts = match (strength.playouts, strength.think) {
            (None, None) => Some(DEFAULT_PLAYOUTS),
            (p, _) => p,
        };
        Mcts {
            rng: Rng::new(seed),
            playouts,
            think: strength.think,
            nodes: Vec::new(),
            path: Vec::new(),
            walk: None,
        }
    }

    fn expand(&mut self, node: usize, s: &S) {
        let first = self.nodes.len();
        if first >= MAX_NODES {
            return;
        }
        let k = s.chance_count();
        if k > 0 {
            self.nodes.extend((0..k).map(|_| Node::new(0)));
        } else {
            let mover = s.to_move();
            self.nodes
                .extend((0..s.move_count()).map(|_| Node::new(mover)));
        }
        let count = (self.nodes.len() - first) as u32;
        let n = &mut self.nodes[node];
        n.first = first as u32;
        n.count = count;
        n.expanded = true;
    }

    /// The child of a decision node with the best upper confidence bound
    /// (an unvisited child first).
    fn select(&self, node: usize) -> usize {
        let n = self.nodes[node];
        let first = n.first as usize;
        let log_n = f64::from(n.visits.max(1)).ln();
        let mut best = first;
        let mut best_ucb = f64::NEG_INFINITY;
        for c in first..first + n.count as usize {
            let ch = &self.nodes[c];
            if ch.visits == 0 {
                return c;
            }
            let v = f64::from(ch.visits);
            let ucb = ch.reward / v + EXPLORE * (log_n / v).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = c;
            }
        }
        best
    }

    /// Plays on at random from `s` and scores the result for every seat.
    fn rollout(rng: &mut Rng, s: &mut S, out: &mut [f64; MAX_SEATS]) {
        let seats = s.seats().min(MAX_SEATS);
        let mut plies = 0;
        while !s.is_over() && plies < ROLLOUT_PLIES {
            if s.chance_count() > 0 {
                let i = draw_chance(s, rng);
                s.play_chance(i);
                continue;
            }
            let n = s.move_count();
            if n == 0 {
                break;
            }
            s.play(rng.below(n as u64) as usize);
            plies += 1;
        }
        if s.is_over() {
            for (seat, o) in out.iter_mut().enumerate().take(seats) {
                *o = s.reward(seat);
            }
        } else {
            let mut v = [0.0; MAX_SEATS];
            values(s, &mut v);
            win_shares(&v[..seats], SCALE, out);
        }
    }

    /// One playout from `root`.
    fn playout(&mut self, root: &S) {
        let mut walk = match self.walk.take() {
            Some(mut w) => {
                w.clone_from(root);
                w
            }
            None => root.clone(),
        };
        self.path.clear();
        self.path.push(0);
        let mut node = 0;
        while !walk.is_over() {
            if !self.nodes[node].expanded {
                self.expand(node, &walk);
            }
            let n = self.nodes[node];
            if n.count == 0 {
                break;
            }
            let first = n.first as usize;
            let child = if walk.chance_count() > 0 {
                let child = first + draw_chance(&walk, &mut self.rng);
                walk.play_chance(child - first);
                child
            } else {
                let child = self.select(node);
                walk.play(child - first);
                child
            };
            self.path.push(child);
            node = child;
            if self.nodes[child].visits == 0 {
                break;
            }
        }
        let mut rewards = [0.0; MAX_SEATS];
        Self::rollout(&mut self.rng, &mut walk, &mut rewards);
        for &p in &self.path {
            let n = &mut self.nodes[p];
            n.visits += 1;
            n.reward += rewards[usize::from(n.mover) % MAX_SEATS];
        }
        self.walk = Some(walk);
    }
}

impl<S: GameState> Agent<S> for Mcts<S> {
    fn choose(&mut self, state: &S) -> usize {
        if state.move_count() <= 1 {
            return 0;
        }
        self.nodes.clear();
        self.nodes.push(Node::new(0));
        let start = Instant::now();
        let mut done = 0u32;
        loop {
            if self.playouts.is_some_and(|p| done >= p) {
                break;
            }
            if done.is_multiple_of(16) {
                if self.think.is_some_and(|t| start.elapsed() >= t) {
                    break;
                }
                // The move is no longer wanted (the game changed or closed).
                if super::stop::requested() {
                    break;
                }
            }
            self.playout(state);
            done += 1;
        }
        let root = self.nodes[0];
        let first = root.first as usize;
        let mut best = 0;
        let mut best_visits = 0;
        for i in 0..root.count as usize {
            let c = &self.nodes[first + i];
            if c.visits > best_visits {
                best_visits = c.visits;
                best = i;
            }
        }
        best
    }

    fn name(&self) -> &str {
        "mcts"
    }
}
