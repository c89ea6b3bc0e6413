//! `rulebook bench GAME --playouts`: random playouts from the start position
//! to the end of the game, per second, on one core or more.

use std::io::Write;
use std::time::{Duration, Instant};

use super::Failure;
use crate::agents::playout::random_playout;
use crate::agents::BoardGame;
use crate::board::{Position, Tables};
use crate::rng::Rng;

/// What one thread measured.
#[derive(Clone, Copy, Debug, Default)]
struct Count {
    playouts: u64,
    plies: u64,
    /// Time the thread spent on a core, where the system tells it.
    cpu: Option<Duration>,
}

/// The time the calling thread has spent on a core (Linux: the first field
/// of /proc/thread-self/schedstat, in nanoseconds). On a shared machine
/// this, not the wall clock, says what one core does.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Plays random games from `pos` for `time` on one thread.
fn one_thread(t: &Tables, pos: &Position, seed: u64, time: Duration) -> Count {
    let game = BoardGame::new(t);
    let start = game.state(pos.clone());
    let mut work = start.clone();
    let mut rng = Rng::new(seed);
    let mut c = Count::default();
    let cpu = thread_cpu();
    let begin = Instant::now();
    while c.playouts % 64 != 0 || begin.elapsed() < time {
        work.clone_from(&start);
        c.plies += u64::from(random_playout(&mut work, &mut rng));
        c.playouts += 1;
    }
    c.cpu = thread_cpu()
        .zip(cpu)
        .map(|(end, begin)| end.saturating_sub(begin));
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
    // A thread the system refuses ends the run with an error, not a panic.
    let counts: Vec<Count> = std::thread::scope(|scope| {
        let handles = (0..jobs)
            .map(|j| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || one_thread(t, pos, j as u64 + 1, time))
            })
            .collect::<Result<Vec<_>, _>>();
        handles.map(|hs| {
            hs.into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        })
    })
    .map_err(|e| Failure::new(format!("error: can't start {jobs} threads: {e}")))?;
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
    let cpu: Option<Duration> = counts.iter().map(|c| c.cpu).sum();
    if let Some(cpu) = cpu.filter(|c| !c.is_zero()) {
        let cpu = cpu.as_secs_f64();
        writeln!(
            out,
            "  on a core {:.0}% of the time: {:.0} playouts per second of one core",
            100.0 * cpu / (secs * jobs as f64),
            playouts as f64 / cpu
        )?;
    }
    Ok(0)
}
