//! One row per game and the summary of a run, added up one row at a time:
//! results by seat, draws, game lengths (as a histogram of plies, which
//! gives the mean, median, spread and the chart's bins), how games ended,
//! how often each rule event fired, and the game metrics (balance,
//! decisiveness, drawishness, duration, lead changes, turns lost to
//! passes).
//!
//! A `Tally` holds no row: its memory grows with the number of distinct
//! game lengths and endings, never with the number of games. Rows added in
//! the order of their game index give the same summary, bit for bit, as one
//! run does, however the games were spread over machines.

use std::collections::BTreeMap;

use super::stats::{share, Moments};
use crate::agents::arena::GameRecord;

/// What happened in one game of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The game's index in its run, from 0.
    pub index: u64,
    /// The game's own seed.
    pub seed: u64,
    /// The winning seat (from 0), or `None` for a draw.
    pub winner: Option<usize>,
    /// Why the game ended.
    pub reason: String,
    /// Plies played.
    pub plies: u32,
    /// How often each rule event fired, in the order of the run's event
    /// names.
    pub events: Vec<u32>,
    /// How often the lead changed hands.
    pub lead_changes: u32,
    /// Turns lost to passes.
    pub skips: u32,
    /// The winner's points, in a game whose rules score a win.
    pub points: Option<u32>,
}

impl GameRow {
    /// The row of game `index`, played as `record`.
    pub fn of(index: u64, record: &GameRecord) -> GameRow {
        GameRow {
            index,
            seed: record.seed,
            winner: record.winner,
            reason: crate::narrate::lab::ending(record.reason).to_string(),
            plies: record.plies,
            events: record.events.clone(),
            lead_changes: record.lead_changes,
            skips: record.skips,
            points: record.points,
        }
    }
}

/// The summary of a run in the making.
#[derive(Clone, Debug)]
pub struct Tally {
    games: usize,
    wins: Vec<usize>,
    draws: usize,
    lengths: BTreeMap<u32, u64>,
    endings: Vec<(String, usize)>,
    names: Vec<String>,
    events: Vec<Moments>,
    lead_changes: Moments,
    skips: u64,
    turns: u64,
    points: Points,
}

/// The points of a run's games, in a game whose rules score a win (empty
/// otherwise): by seat, and how many games ended with each score.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Points {
    /// Games with a score.
    pub games: usize,
    /// The points each seat won, in seat order.
    pub by_seat: Vec<u64>,
    /// How many games ended with each score: points and games, fewest
    /// points first.
    pub scores: Vec<(u32, usize)>,
    /// The names the rules give some scores (`2`, `a gammon`).
    pub names: Vec<(u32, String)>,
    /// The winner's points a game.
    pub per_game: Moments,
    /// Each seat's points a game (0 in the games it did not win).
    pub seat_per_game: Vec<Moments>,
}

impl Points {
    /// The mean points a scored game.
    pub fn mean(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        self.by_seat.iter().sum::<u64>() as f64 / self.games as f64
    }

    /// A seat's mean points a game (the games it lost count 0).
    pub fn seat_mean(&self, seat: usize) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        self.by_seat.get(seat).copied().unwrap_or(0) as f64 / self.games as f64
    }

    /// The name of a score, when the rules give one.
    pub fn name(&self, points: u32) -> Option<&str> {
        self.names
            .iter()
            .find(|(p, _)| *p == points)
            .map(|(_, n)| n.as_str())
    }
}

impl Tally {
    /// An empty tally for a game with `seats` seats and these rule events.
    pub fn new(seats: usize, event_names: &[String]) -> Tally {
        Tally {
            games: 0,
            wins: vec![0; seats],
            draws: 0,
            lengths: BTreeMap::new(),
            endings: Vec::new(),
            names: event_names.to_vec(),
            events: vec![Moments::default(); event_names.len()],
            lead_changes: Moments::default(),
            skips: 0,
            turns: 0,
            points: Points::default(),
        }
    }

    /// Names the scores of the game (its rules' names for them), for the
    /// report.
    pub fn name_scores(&mut self, names: Vec<(u32, String)>) {
        self.points.names = names;
    }

    /// Adds one game.
    pub fn add(&mut self, row: &GameRow) {
        self.games += 1;
        match row.winner {
            Some(w) if w < self.wins.len() => self.wins[w] += 1,
            _ => self.draws += 1,
        }
        *self.lengths.entry(row.plies).or_insert(0) += 1;
        match self.endings.iter_mut().find(|(why, _)| *why == row.reason) {
            Some((_, c)) => *c += 1,
            None => self.endings.push((row.reason.clone(), 1)),
        }
        for (i, m) in self.events.iter_mut().enumerate() {
            m.add(f64::from(row.events.get(i).copied().unwrap_or(0)));
        }
        self.lead_changes.add(f64::from(row.lead_changes));
        self.skips += u64::from(row.skips);
        self.turns += u64::from(row.plies);
        if let (Some(p), Some(w)) = (row.points, row.winner) {
            let points = &mut self.points;
            points.games += 1;
            if points.by_seat.len() < self.wins.len() {
                points.by_seat.resize(self.wins.len(), 0);
            }
            if let Some(s) = points.by_seat.get_mut(w) {
                *s += u64::from(p);
            }
            points.per_game.add(f64::from(p));
            if points.seat_per_game.len() < self.wins.len() {
                points
                    .seat_per_game
                    .resize(self.wins.len(), Moments::default());
            }
            for (seat, m) in points.seat_per_game.iter_mut().enumerate() {
                m.add(if seat == w { f64::from(p) } else { 0.0 });
            }
            match points.scores.binary_search_by_key(&p, |(q, _)| *q) {
                Ok(i) => points.scores[i].1 += 1,
                Err(i) => points.scores.insert(i, (p, 1)),
            }
        }
    }

    /// The summary of the games added so far.
    pub fn summary(&self) -> Summary {
        let mut length = Moments::default();
        for (&plies, &count) in &self.lengths {
            for _ in 0..count {
                length.add(f64::from(plies));
            }
        }
        let n = self.games as u64;
        // The value at 0-based rank `r` of the sorted lengths.
        let at = |r: u64| {
            let mut seen = 0;
            for (&plies, &count) in &self.lengths {
                seen += count;
                if r < seen {
                    return f64::from(plies);
                }
            }
            0.0
        };
        let median = match n {
            0 => 0.0,
            n if n % 2 == 1 => at(n / 2),
            n => (at(n / 2 - 1) + at(n / 2)) / 2.0,
        };
        let mut endings = self.endings.clone();
        endings.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Summary {
            games: self.games,
            wins: self.wins.clone(),
            draws: self.draws,
            length,
            median,
            min: self.lengths.keys().next().copied().unwrap_or(0),
            max: self.lengths.keys().next_back().copied().unwrap_or(0),
            lengths: self.lengths.iter().map(|(&p, &c)| (p, c)).collect(),
            endings,
            events: self
                .names
                .iter()
                .cloned()
                .zip(self.events.clone())
                .collect(),
            lead_changes: self.lead_changes,
            skips: self.skips,
            turns: self.turns,
            points: self.points.clone(),
        }
    }
}

/// The summary of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Wins per seat.
    pub wins: Vec<usize>,
    /// Drawn games.
    pub draws: usize,
    /// Game lengths in plies.
    pub length: Moments,
    /// The median game length.
    pub median: f64,
    /// The shortest game.
    pub min: u32,
    /// The longest game.
    pub max: u32,
    /// How many games lasted each number of plies, shortest first.
    pub lengths: Vec<(u32, u64)>,
    /// How games ended: reason and count, most frequent first.
    pub endings: Vec<(String, usize)>,
    /// Per event name, its count per game.
    pub events: Vec<(String, Moments)>,
    /// Lead changes per game.
    pub lead_changes: Moments,
    /// Turns lost to passes.
    pub skips: u64,
    /// All turns.
    pub turns: u64,
    /// The points of the games, in a game whose rules score a win.
    pub points: Points,
}

impl Summary {
    /// A seat's score share: wins plus an equal share of the draws.
    pub fn score_share(&self, seat: usize) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let seats = self.wins.len().max(1) as f64;
        (self.wins.get(seat).copied().unwrap_or(0) as f64 + self.draws as f64 / seats)
            / self.games as f64
    }

    /// Balance: 1 when every seat scores the same, 0 when one seat takes
    /// everything (1 minus the spread of the score shares).
    pub fn balance(&self) -> f64 {
        let n = self.wins.len();
        if n < 2 || self.games == 0 {
            return 1.0;
        }
        let shares: Vec<f64> = (0..n).map(|s| self.score_share(s)).collect();
        let hi = shares.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let lo = shares.iter().copied().fold(f64::INFINITY, f64::min);
        1.0 - (hi - lo)
    }

    /// The share of games with a winner.
    pub fn decisiveness(&self) -> f64 {
        share(self.games - self.draws, self.games)
    }

    /// The share of drawn games.
    pub fn drawishness(&self) -> f64 {
        share(self.draws, self.games)
    }

    /// The share of turns lost to passes.
    pub fn skip_share(&self) -> f64 {
        if self.turns == 0 {
            0.0
        } else {
            self.skips as f64 / self.turns as f64
        }
    }

    /// The events worth showing: those that fired at least once.
    pub fn fired(&self) -> impl Iterator<Item = &(String, Moments)> {
        self.events.iter().filter(|(_, m)| m.mean > 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(index: u64, winner: Option<usize>, plies: u32, reason: &str) -> GameRow {
        GameRow {
            index,
            seed: index,
            winner,
            reason: reason.into(),
            plies,
            events: vec![index as u32 % 3],
            lead_changes: 1,
            skips: u32::from(plies.is_multiple_of(2)),
            points: None,
        }
    }

    #[test]
    fn summary_of_a_few_games() {
        let names = vec!["captures".to_string()];
        let mut t = Tally::new(2, &names);
        for (i, (w, p, r)) in [
            (Some(0), 30, "last piece"),
            (Some(1), 10, "cannot move"),
            (None, 20, "ply limit"),
            (Some(0), 40, "last piece"),
        ]
        .into_iter()
        .enumerate()
        {
            t.add(&row(i as u64, w, p, r));
        }
        let s = t.summary();
        assert_eq!(s.games, 4);
        assert_eq!(s.wins, vec![2, 1]);
        assert_eq!(s.draws, 1);
        assert_eq!((s.min, s.max, s.median), (10, 40, 25.0));
        assert_eq!(s.length.mean, 25.0);
        assert_eq!(s.endings[0], ("last piece".to_string(), 2));
        assert_eq!(s.endings[1].0, "cannot move");
        assert_eq!(s.score_share(0), 2.5 / 4.0);
        assert_eq!(s.decisiveness(), 0.75);
        assert_eq!(s.skip_share(), 4.0 / 100.0);
        assert_eq!(s.events[0].1.mean, 0.75);
        assert_eq!(s.lengths, vec![(10, 1), (20, 1), (30, 1), (40, 1)]);
    }
}
