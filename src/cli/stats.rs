//! The statistics of the lab: a summary of a run of games (results by seat
//! with 95% confidence intervals, lengths, endings, rule events, the game
//! metrics), and the tests that say whether two runs differ.

use crate::agents::arena::GameRecord;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval (95%) of `k` successes in `n` trials.
pub(crate) fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The standard normal distribution function, through the Chebyshev fit of
/// the complementary error function in Numerical Recipes (`erfcc`, relative
/// error below 1.2e-7 everywhere).
pub(crate) fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let erfc = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        1.0 - 0.5 * erfc
    } else {
        0.5 * erfc
    }
}

/// Two-sided p-value of a z statistic.
pub(crate) fn p_of_z(z: f64) -> f64 {
    if !z.is_finite() {
        return if z.is_nan() { 1.0 } else { 0.0 };
    }
    2.0 * (1.0 - normal_cdf(z.abs()))
}

/// Two-sided p-value that two proportions `k1/n1` and `k2/n2` are equal
/// (the pooled two-proportion z test).
pub(crate) fn p_proportions(k1: usize, n1: usize, k2: usize, n2: usize) -> f64 {
    if n1 == 0 || n2 == 0 {
        return 1.0;
    }
    let (a, b) = (n1 as f64, n2 as f64);
    let pooled = (k1 + k2) as f64 / (a + b);
    let se = (pooled * (1.0 - pooled) * (1.0 / a + 1.0 / b)).sqrt();
    if se == 0.0 {
        return 1.0;
    }
    p_of_z((k1 as f64 / a - k2 as f64 / b) / se)
}

/// Two-sided p-value that two means are equal (Welch's statistic, read
/// against the normal distribution: the runs of the lab are large).
pub(crate) fn p_means(a: &Moments, b: &Moments) -> f64 {
    if a.n < 2 || b.n < 2 {
        return 1.0;
    }
    let se = (a.var() / a.n as f64 + b.var() / b.n as f64).sqrt();
    if se == 0.0 {
        return if a.mean == b.mean { 1.0 } else { 0.0 };
    }
    p_of_z((a.mean - b.mean) / se)
}

/// Mean and spread of a sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Moments {
    pub n: usize,
    pub mean: f64,
    /// Sum of squared deviations.
    m2: f64,
}

impl Moments {
    pub(crate) fn of(xs: impl Iterator<Item = f64>) -> Moments {
        let mut m = Moments::default();
        for x in xs {
            m.n += 1;
            let d = x - m.mean;
            m.mean += d / m.n as f64;
            m.m2 += d * (x - m.mean);
        }
        m
    }

    /// The sample variance.
    pub(crate) fn var(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }

    /// The sample standard deviation.
    pub(crate) fn sd(&self) -> f64 {
        self.var().sqrt()
    }
}

/// The summary of a run.
#[derive(Clone, Debug)]
pub(crate) struct Summary {
    pub games: usize,
    /// Wins per seat.
    pub wins: Vec<usize>,
    pub draws: usize,
    /// Game lengths in plies.
    pub length: Moments,
    pub median: f64,
    pub min: u32,
    pub max: u32,
    /// How games ended: reason and count, most frequent first.
    pub endings: Vec<(&'static str, usize)>,
    /// Per event name, its count per game.
    pub events: Vec<(&'static str, Moments)>,
    pub lead_changes: Moments,
    /// Turns lost to passes, and all turns.
    pub skips: u64,
    pub turns: u64,
}

impl Summary {
    /// Sums up the records of a run of a game with `seats` seats and the
    /// given event names.
    pub(crate) fn of(records: &[GameRecord], seats: usize, names: &[&'static str]) -> Summary {
        let mut wins = vec![0; seats];
        let mut draws = 0;
        for r in records {
            match r.winner {
                Some(w) if w < seats => wins[w] += 1,
                _ => draws += 1,
            }
        }
        let mut lengths: Vec<u32> = records.iter().map(|r| r.plies).collect();
        lengths.sort_unstable();
        let median = match lengths.len() {
            0 => 0.0,
            n if n % 2 == 1 => f64::from(lengths[n / 2]),
            n => (f64::from(lengths[n / 2 - 1]) + f64::from(lengths[n / 2])) / 2.0,
        };
        let mut endings: Vec<(&'static str, usize)> = Vec::new();
        for r in records {
            match endings.iter_mut().find(|(why, _)| *why == r.reason) {
                Some((_, c)) => *c += 1,
                None => endings.push((r.reason, 1)),
            }
        }
        endings.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let events = names
            .iter()
            .enumerate()
            .map(|(i, &name)| {
                let m = Moments::of(
                    records
                        .iter()
                        .map(|r| f64::from(r.events.get(i).copied().unwrap_or(0))),
                );
                (name, m)
            })
            .collect();
        Summary {
            games: records.len(),
            wins,
            draws,
            length: Moments::of(lengths.iter().map(|&l| f64::from(l))),
            median,
            min: lengths.first().copied().unwrap_or(0),
            max: lengths.last().copied().unwrap_or(0),
            endings,
            events,
            lead_changes: Moments::of(records.iter().map(|r| f64::from(r.lead_changes))),
            skips: records.iter().map(|r| u64::from(r.skips)).sum(),
            turns: records.iter().map(|r| u64::from(r.plies)).sum(),
        }
    }

    /// A seat's score share: wins plus an equal share of the draws.
    pub(crate) fn score_share(&self, seat: usize) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        let seats = self.wins.len().max(1) as f64;
        (self.wins.get(seat).copied().unwrap_or(0) as f64 + self.draws as f64 / seats)
            / self.games as f64
    }

    /// Balance: 1 when every seat scores the same, 0 when one seat takes
    /// everything (1 minus the spread of the score shares, scaled).
    pub(crate) fn balance(&self) -> f64 {
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
    pub(crate) fn decisiveness(&self) -> f64 {
        share(self.games - self.draws, self.games)
    }

    /// The share of drawn games.
    pub(crate) fn drawishness(&self) -> f64 {
        share(self.draws, self.games)
    }

    /// The share of turns lost to passes.
    pub(crate) fn skip_share(&self) -> f64 {
        if self.turns == 0 {
            0.0
        } else {
            self.skips as f64 / self.turns as f64
        }
    }

    /// The events worth showing: those that fired at least once.
    pub(crate) fn fired(&self) -> impl Iterator<Item = &(&'static str, Moments)> {
        self.events.iter().filter(|(_, m)| m.mean > 0.0)
    }
}

/// `k / n`, or 0 when `n` is 0.
pub(crate) fn share(k: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        k as f64 / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_textbook() {
        // 8 of 10: [0.490, 0.943] (Wilson, 95%).
        let (lo, hi) = wilson(8, 10);
        assert!((lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3);
    }

    #[test]
    fn normal_tails() {
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
        assert!((p_of_z(2.575_829) - 0.01).abs() < 1e-5);
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
    }

    #[test]
    fn moments() {
        let m = Moments::of([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0].into_iter());
        assert_eq!(m.mean, 5.0);
        assert!((m.var() - 32.0 / 7.0).abs() < 1e-12);
    }
}
