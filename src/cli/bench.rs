//! `rulebook bench`: perft leaves per second on one core.

use std::io::Write;
use std::time::Instant;

use super::Failure;
use crate::board::{Perft, Position, Tables};

/// Runs perft at increasing depths until a depth takes a second (or the
/// given depth), and prints leaves per second.
pub(crate) fn run(
    t: &Tables,
    pos: &Position,
    depth: Option<usize>,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    let mut perft = Perft::new(t, 32);
    let depths: Vec<usize> = match depth {
        Some(d) => vec![d],
        None => (1..=30).collect(),
    };
    for d in depths {
        let start = Instant::now();
        let n = perft.count(pos, d);
        let secs = start.elapsed().as_secs_f64();
        if depth.is_some() || secs >= 1.0 || n == 0 {
            let rate = if secs > 0.0 { n as f64 / secs } else { 0.0 };
            writeln!(
                out,
                "perft {d} {n} in {secs:.3} s: {:.2} M leaves/s",
                rate / 1e6
            )?;
            return Ok(0);
        }
    }
    Ok(0)
}
