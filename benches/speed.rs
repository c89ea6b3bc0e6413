//! `cargo bench`: the speed figures of docs/performance.md, with std timing
//! only (no benchmark framework to build): check and compile time of every
//! bundled game, perft by the kernel and by the general path, random
//! playouts of board games and race games. Each figure is the CPU time of
//! this thread where Linux tells it (`/proc/thread-self/schedstat`), the
//! wall clock otherwise, so it means something on a shared machine.
//! `cargo bench -- quick` runs shallower and shorter.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use rulebook::agents::playout::random_playout;
use rulebook::agents::BoardGame;
use rulebook::agents::RaceNode;
use rulebook::board::{Perft, Position};
use rulebook::bundled::GAMES;
use rulebook::load::{check, BundledLoader};
use rulebook::race::RaceState;
use rulebook::rng::Rng;

/// CPU time of this thread (None where Linux doesn't tell it). The
/// kernel updates it at scheduling events, so only intervals of a good
/// fraction of a second are exact: `timed` repeats short work.
fn cpu() -> Option<Duration> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
}

/// Runs `f` again and again for at least `min` seconds of wall clock (at
/// least once), and returns its last result and the seconds of CPU time
/// one run took (wall clock where the CPU time is not known).
fn timed<T>(min: f64, mut f: impl FnMut() -> T) -> (T, f64) {
    let start = Instant::now();
    let before = cpu();
    let mut runs = 0u32;
    let x = loop {
        let x = f();
        runs += 1;
        if start.elapsed().as_secs_f64() >= min {
            break x;
        }
    };
    let wall = start.elapsed();
    let spent = match (before, cpu()) {
        (Some(b), Some(a)) if a > b => a - b,
        _ => wall,
    };
    (x, spent.as_secs_f64() / f64::from(runs))
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let seconds = if quick { 0.3 } else { 2.0 };

    let min = if quick { 0.2 } else { 1.0 };
    println!("check + compile + tables, per bundled game (CPU time of one):");
    for &(name, _) in GAMES {
        let (ok, secs) = timed(min, || {
            let c = check(&BundledLoader, name, &[]);
            c.loaded.is_some()
        });
        assert!(ok, "{name} does not load");
        println!("  {name:<40} {:>8.3} ms", secs * 1e3);
    }

    println!("perft (M leaves per CPU-second):");
    let cases: &[(&str, usize)] = if quick {
        &[
            ("draughts", 8),
            ("variants/english", 9),
            ("variants/international", 7),
            ("always-ready", 4),
        ]
    } else {
        &[
            ("draughts", 10),
            ("variants/english", 11),
            ("variants/international", 9),
            ("variants/russian", 10),
            ("always-ready", 6),
        ]
    };
    for &(name, depth) in cases {
        let t = check(&BundledLoader, name, &[]).into_board().unwrap();
        let pos = Position::start(&t);
        let mut perft = Perft::new(&t, depth);
        let path = if perft.uses_kernel(&pos) {
            "kernel"
        } else {
            "general"
        };
        let (n, secs) = timed(min, || perft.count(&pos, depth));
        println!(
            "  {name:<24} depth {depth:>2} {n:>12} leaves  {:>8.2} M/s ({path})",
            n as f64 / secs / 1e6
        );
        if path == "kernel" {
            let d = depth.saturating_sub(2);
            perft.use_kernel(false);
            let (n, secs) = timed(min, || perft.count(&pos, d));
            println!(
                "  {name:<24} depth {d:>2} {n:>12} leaves  {:>8.2} M/s (general)",
                n as f64 / secs / 1e6
            );
        }
    }

    println!("random playouts from the start (per CPU-second, one thread):");
    for name in ["variants/english", "draughts", "always-ready"] {
        let t = check(&BundledLoader, name, &[]).into_board().unwrap();
        let game = BoardGame::new(&t);
        let start = game.start();
        let mut work = start.clone();
        let mut rng = Rng::new(1);
        let ((games, plies), secs) = timed(0.0, || {
            let begin = Instant::now();
            let (mut games, mut plies) = (0u64, 0u64);
            while games % 64 != 0 || begin.elapsed().as_secs_f64() < seconds {
                work.clone_from(&start);
                plies += u64::from(random_playout(&mut work, &mut rng));
                games += 1;
            }
            (games, plies)
        });
        println!(
            "  {name:<24} {:>10.0} playouts/s  {:>6.1} plies/game",
            games as f64 / secs,
            plies as f64 / games as f64
        );
    }
    for &(name, _) in GAMES {
        let Some(race) = check(&BundledLoader, name, &[]).into_race() else {
            continue;
        };
        let players = usize::from(race.min_players.max(2).min(race.max_players));
        let Ok(state) = RaceState::new(&race, players) else {
            continue;
        };
        let start = RaceNode::new(&race, state, 10_000);
        let mut rng = Rng::new(1);
        let ((games, rolls), secs) = timed(0.0, || {
            let begin = Instant::now();
            let (mut games, mut plies) = (0u64, 0u64);
            while games % 64 != 0 || begin.elapsed().as_secs_f64() < seconds {
                let mut work = start.clone();
                plies += u64::from(random_playout(&mut work, &mut rng));
                games += 1;
            }
            (games, plies)
        });
        println!(
            "  {name:<24} {:>10.0} games/s  {:>6.1} moves/game (race, {players} players)",
            games as f64 / secs,
            rolls as f64 / games as f64
        );
    }
}
