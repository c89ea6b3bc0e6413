//! The statistics of the lab: Wilson score intervals for shares, the normal
//! distribution for two-sided p-values, the pooled two-proportion z test,
//! Welch's statistic for means, and streamed moments (Welford).
//!
//! Why a module of our own and not a crate: the lab needs one interval, one
//! distribution function and two tests, about a hundred lines; the
//! statistics crates that have them (`statrs` and its kin) bring a linear
//! algebra library with them, which would double the build. Each function
//! here is tested against published values (see the tests below).

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval (95%) of `k` successes in `n` trials, as
/// (low, high); (0, 1) for no trials.
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
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
pub fn normal_cdf(x: f64) -> f64 {
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
pub fn p_of_z(z: f64) -> f64 {
    if !z.is_finite() {
        return if z.is_nan() { 1.0 } else { 0.0 };
    }
    2.0 * (1.0 - normal_cdf(z.abs()))
}

/// Two-sided p-value that two proportions `k1/n1` and `k2/n2` are equal
/// (the pooled two-proportion z test).
pub fn p_proportions(k1: usize, n1: usize, k2: usize, n2: usize) -> f64 {
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
pub fn p_means(a: &Moments, b: &Moments) -> f64 {
    if a.n < 2 || b.n < 2 {
        return 1.0;
    }
    let se = (a.var() / a.n as f64 + b.var() / b.n as f64).sqrt();
    if se == 0.0 {
        return if a.mean == b.mean { 1.0 } else { 0.0 };
    }
    p_of_z((a.mean - b.mean) / se)
}

/// Mean and spread of a sample, added to one value at a time (Welford's
/// method), so a run of any length is summed up in constant memory.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    /// The number of values.
    pub n: usize,
    /// Their mean.
    pub mean: f64,
    /// Sum of squared deviations.
    m2: f64,
}

impl Moments {
    /// The moments of a sample.
    pub fn of(xs: impl Iterator<Item = f64>) -> Moments {
        let mut m = Moments::default();
        for x in xs {
            m.add(x);
        }
        m
    }

    /// Adds one value.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }

    /// The sample variance.
    pub fn var(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }

    /// The sample standard deviation.
    pub fn sd(&self) -> f64 {
        self.var().sqrt()
    }
}

/// `k / n`, or 0 when `n` is 0.
pub fn share(k: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        k as f64 / n as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn wilson_matches_published_intervals() {
        // Newcombe (1998), Statistics in Medicine 17, table I, method 3
        // (score interval without continuity correction):
        // 81/263 -> 0.2553 to 0.3662; 15/148 -> 0.0624 to 0.1605;
        // 0/20 -> 0 to 0.1611; 1/29 -> 0.0061 to 0.1718.
        for (k, n, lo, hi) in [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ] {
            let (l, h) = wilson(k, n);
            assert!(close(l, lo, 1e-4) && close(h, hi, 1e-4), "{k}/{n}: {l} {h}");
        }
        // 8 of 10: [0.490, 0.943].
        let (lo, hi) = wilson(8, 10);
        assert!(close(lo, 0.4902, 1e-3) && close(hi, 0.9433, 1e-3));
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn normal_matches_the_tables() {
        // Abramowitz and Stegun, table 26.1: P(1) = 0.8413447461,
        // P(2) = 0.9772498681, P(3) = 0.9986501020.
        assert!(close(normal_cdf(1.0), 0.841_344_746_1, 1e-7));
        assert!(close(normal_cdf(2.0), 0.977_249_868_1, 1e-7));
        assert!(close(normal_cdf(3.0), 0.998_650_102_0, 1e-7));
        assert!(close(normal_cdf(-1.0), 1.0 - 0.841_344_746_1, 1e-7));
        assert!(close(normal_cdf(1.959_964), 0.975, 1e-6));
        assert!(close(p_of_z(2.575_829), 0.01, 1e-5));
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert_eq!(p_of_z(f64::INFINITY), 0.0);
        assert_eq!(p_of_z(f64::NAN), 1.0);
    }

    #[test]
    fn two_proportions_match_a_worked_example() {
        // 45/100 against 30/100: pooled p 0.375, z = 2.1909, p = 0.02846
        // (any two-proportion z test calculator).
        assert!(close(p_proportions(45, 100, 30, 100), 0.028_459, 1e-5));
        assert_eq!(p_proportions(1, 0, 1, 1), 1.0);
        assert_eq!(p_proportions(0, 10, 0, 10), 1.0);
    }

    #[test]
    fn welch_and_moments() {
        let m = Moments::of([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0].into_iter());
        assert_eq!(m.mean, 5.0);
        assert!(close(m.var(), 32.0 / 7.0, 1e-12));
        // Equal samples: p = 1; far apart: p near 0.
        assert!(close(p_means(&m, &m), 1.0, 1e-6));
        let far = Moments::of([102.0, 104.0, 104.0, 104.0, 105.0, 105.0, 107.0, 109.0].into_iter());
        assert!(p_means(&m, &far) < 1e-9);
    }
}
