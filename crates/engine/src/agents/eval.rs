//! The evaluation every agent shares: one number per seat from the features
//! the rule file gives (material, advancement, track), and a seat's standing
//! relative to the best of the others.

use super::state::{Features, GameState, MAX_SEATS};

/// The weight of advancement against material: a piece one move from its
/// promotion zone counts for this share of what it would gain.
pub const ADVANCEMENT: f64 = 0.25;
/// The weight of progress along a track.
pub const TRACK: f64 = 1.0;

/// The value of one seat's features, in units of material.
pub fn value(f: &Features) -> f64 {
    f.material + ADVANCEMENT * f.advancement + TRACK * f.track
}

/// The value of every seat (`out[..seats]`).
pub fn values<S: GameState>(s: &S, out: &mut [f64; MAX_SEATS]) {
    let mut f = [Features::default(); MAX_SEATS];
    let n = s.seats().min(MAX_SEATS);
    s.features(&mut f[..n]);
    for (o, f) in out.iter_mut().zip(&f[..n]) {
        *o = value(f);
    }
}

/// How far `seat` stands ahead of the best other seat (negative: behind).
/// In a two-player game this is the difference of the two values, so one
/// seat's gain is the other's loss.
pub fn relative<S: GameState>(s: &S, seat: usize) -> f64 {
    let mut v = [0.0; MAX_SEATS];
    values(s, &mut v);
    relative_of(&v[..s.seats().min(MAX_SEATS)], seat)
}

/// `relative` from the values of all seats.
pub fn relative_of(v: &[f64], seat: usize) -> f64 {
    let own = v.get(seat).copied().unwrap_or(0.0);
    let best_other = v
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != seat)
        .map(|(_, &x)| x)
        .fold(f64::NEG_INFINITY, f64::max);
    if best_other.is_finite() {
        own - best_other
    } else {
        own
    }
}

/// The seat with the highest value, or `None` when two or more share it.
pub fn leader(v: &[f64]) -> Option<usize> {
    let mut best: Option<usize> = None;
    let mut tie = false;
    for (i, &x) in v.iter().enumerate() {
        match best {
            None => best = Some(i),
            Some(b) if x > v[b] + 1e-9 => {
                best = Some(i);
                tie = false;
            }
            Some(b) if (x - v[b]).abs() <= 1e-9 => tie = true,
            _ => {}
        }
    }
    if tie {
        None
    } else {
        best
    }
}

/// How likely each seat is to win, guessed from the values: a softmax with
/// `scale` per unit of material (two seats: a logistic curve of the
/// difference). Fills `out[..n]`; the shares add up to 1.
pub fn win_shares(v: &[f64], scale: f64, out: &mut [f64; MAX_SEATS]) {
    let n = v.len().min(MAX_SEATS);
    let top = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for i in 0..n {
        out[i] = ((v[i] - top) * scale).exp();
        sum += out[i];
    }
    if sum > 0.0 {
        for o in out.iter_mut().take(n) {
            *o /= sum;
        }
    }
}
