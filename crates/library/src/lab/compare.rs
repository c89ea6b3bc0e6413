//! Two runs side by side (say, a house rule and the original, with the same
//! agents and seeds): every measure of both, the difference, and whether it
//! is statistically significant.
//!
//! Shares (wins by seat, draws, turns lost to passes) are compared with the
//! pooled two-proportion z test, means (length, events, lead changes) with
//! Welch's statistic; each test on its own at the 5% level.

use super::stats::{p_means, p_proportions, share, Moments};
use super::{Run, Summary};

/// The significance level of the marks.
pub const ALPHA: f64 = 0.05;

/// How a measure is counted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// `k` of `n`, shown with its 95% interval.
    Share {
        /// Successes.
        k: usize,
        /// Trials.
        n: usize,
    },
    /// `k` of `n`, shown as a bare percentage.
    Percent {
        /// Successes.
        k: usize,
        /// Trials.
        n: usize,
    },
    /// A sample's mean and spread.
    Mean(Moments),
    /// A number between 0 and 1 shown as a percentage, no test.
    Fraction(f64),
    /// A number, no test.
    Number(f64),
}

impl Value {
    /// The value as one number.
    pub fn number(&self) -> f64 {
        match *self {
            Value::Share { k, n } | Value::Percent { k, n } => share(k, n),
            Value::Mean(m) => m.mean,
            Value::Fraction(x) | Value::Number(x) => x,
        }
    }
}

/// One measure of both runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Measure {
    /// What is measured (`White wins`, `length (plies)`).
    pub name: String,
    /// In run A.
    pub a: Value,
    /// In run B.
    pub b: Value,
    /// The two-sided p-value of the difference, where a test applies.
    pub p: Option<f64>,
}

impl Measure {
    /// B minus A.
    pub fn difference(&self) -> f64 {
        self.b.number() - self.a.number()
    }

    /// Whether the difference is significant at [`ALPHA`].
    pub fn significant(&self) -> bool {
        self.p.is_some_and(|p| p < ALPHA)
    }
}

fn shares(name: String, ka: usize, na: usize, kb: usize, nb: usize) -> Measure {
    Measure {
        name,
        a: Value::Share { k: ka, n: na },
        b: Value::Share { k: kb, n: nb },
        p: Some(p_proportions(ka, na, kb, nb)),
    }
}

fn means(name: String, a: &Moments, b: &Moments) -> Measure {
    Measure {
        name,
        a: Value::Mean(*a),
        b: Value::Mean(*b),
        p: Some(p_means(a, b)),
    }
}

/// The points of two runs of games whose rules score a win: the mean points
/// a game, each seat's, and the share of games of each score.
fn points_rows(a: &Run, b: &Run, rows: &mut Vec<Measure>) {
    let (pa, pb) = (&a.summary.points, &b.summary.points);
    rows.push(means("points per game".into(), &pa.per_game, &pb.per_game));
    let seats = pa.seat_per_game.len().max(pb.seat_per_game.len());
    for i in 0..seats {
        let name = a
            .info
            .seats
            .get(i)
            .or_else(|| b.info.seats.get(i))
            .map_or_else(|| format!("seat {}", i + 1), Clone::clone);
        let m = |p: &super::Points| p.seat_per_game.get(i).copied().unwrap_or_default();
        rows.push(means(format!("{name} points per game"), &m(pa), &m(pb)));
    }
    let mut scores: Vec<u32> = pa.scores.iter().chain(&pb.scores).map(|s| s.0).collect();
    scores.sort_unstable();
    scores.dedup();
    for points in scores {
        let count = |p: &super::Points| p.scores.iter().find(|s| s.0 == points).map_or(0, |s| s.1);
        let worth = format!("{points} point{}", if points == 1 { "" } else { "s" });
        let name = match pa.name(points).or_else(|| pb.name(points)) {
            Some(n) => format!("{n} ({worth})"),
            None => format!("games of {worth}"),
        };
        rows.push(shares(name, count(pa), pa.games, count(pb), pb.games));
    }
}

/// The measures of two runs, side by side.
pub fn measures(a: &Run, b: &Run) -> Vec<Measure> {
    let (sa, sb) = (&a.summary, &b.summary);
    let mut rows = Vec::new();
    let seats = sa.wins.len().max(sb.wins.len());
    for i in 0..seats {
        let name = a
            .info
            .seats
            .get(i)
            .or_else(|| b.info.seats.get(i))
            .map_or_else(|| format!("seat {}", i + 1), Clone::clone);
        let wa = sa.wins.get(i).copied().unwrap_or(0);
        let wb = sb.wins.get(i).copied().unwrap_or(0);
        rows.push(shares(format!("{name} wins"), wa, sa.games, wb, sb.games));
    }
    rows.push(shares(
        "draws".into(),
        sa.draws,
        sa.games,
        sb.draws,
        sb.games,
    ));
    rows.push(means("length (plies)".into(), &sa.length, &sb.length));
    if sa.points.games > 0 || sb.points.games > 0 {
        points_rows(a, b, &mut rows);
    }
    let mut names: Vec<&str> = Vec::new();
    for (n, _) in sa.fired().chain(sb.fired()) {
        if !names.contains(&n.as_str()) {
            names.push(n);
        }
    }
    let find = |s: &Summary, n: &str| {
        s.events
            .iter()
            .find(|(e, _)| e == n)
            .map_or(Moments::default(), |(_, m)| *m)
    };
    for n in names {
        rows.push(means(format!("{n} per game"), &find(sa, n), &find(sb, n)));
    }
    rows.push(means(
        "lead changes per game".into(),
        &sa.lead_changes,
        &sb.lead_changes,
    ));
    let skips = |s: &Summary| (s.skips as usize, s.turns as usize);
    let ((ka, na), (kb, nb)) = (skips(sa), skips(sb));
    rows.push(Measure {
        name: "turns lost to passes".into(),
        a: Value::Percent { k: ka, n: na },
        b: Value::Percent { k: kb, n: nb },
        p: Some(p_proportions(ka, na, kb, nb)),
    });
    rows.push(Measure {
        name: "balance".into(),
        a: Value::Number(sa.balance()),
        b: Value::Number(sb.balance()),
        p: None,
    });
    rows.push(Measure {
        name: "decisiveness".into(),
        a: Value::Fraction(sa.decisiveness()),
        b: Value::Fraction(sb.decisiveness()),
        p: None,
    });
    rows
}
