//! `rulebook bench GAME --playouts`: random playouts from the start position
//! to the end of the game, per second, on one core or more.

use std::io::Write;
use std::time::{Duration, Instant};

use super::Failure;
use crate::agents::playout::random_playout;
use crate::agents::BoardGame;
use crate::engine::{Position, Tables};
use crate::rng::Rng;

/// What one thread measured.
#[derive(Clone, Copy, Debug, Default)]
struct Count {
    playouts: u64,
    plies: u64,
}

/// Plays random games from `pos` for `time` on one thread.
fn one_thread(t: &Tables, pos: &Position, seed: u64, time: Duration) -> Count {
    let game = BoardGame::new(t);
    let start = game.state(pos.clone());
    let mut work = start.clone();
    let mut rng = Rng::new(seed);
    let mut c = Count::default();
    let begin = Instant::now();
    while c.playouts % 64 != 0 || begin.elapsed() < time {
        work.clone_from(&start);
        c.plies += u64::from(random_playout(&mut work, &mut rng));
        c.playouts += 1;
    }
    c
}

/// Runs `jobs` threads of random playouts for `seconds` and prints the rate.
pub(crate) fn run(
    t: &Tables,
    pos: &Position,
    jobs: usize,
    seconds: f64,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    let jobs = jobs.max(1);
    let time = Duration::from_secs_f64(seconds.max(0.01));
    let begin = Instant::now();
    let counts: Vec<Count> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| scope.spawn(move || one_thread(t, pos, j as u64 + 1, time)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let secs = begin.elapsed().as_secs_f64();
    let playouts: u64 = counts.iter().map(|c| c.playouts).sum();
    let plies: u64 = counts.iter().map(|c| c.plies).sum();
    let per = |x: u64| if secs > 0.0 { x as f64 / secs } else { 0.0 };
    writeln!(
        out,
        "{}: {playouts} random playouts on {jobs} thread{} in {secs:.2} s: {:.0} playouts/s, {:.2} M plies/s, {:.1} plies per game",
        t.game.title,
        if jobs == 1 { "" } else { "s" },
        per(playouts),
        per(plies) / 1e6,
        if playouts > 0 { plies as f64 / playouts as f64 } else { 0.0 }
    )?;
    Ok(0)
}
