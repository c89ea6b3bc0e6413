//! Speed measurements, as data for a front end to print: perft leaves per
//! second ([`perft`]), random playouts of a board game per second on one or
//! more threads ([`playouts`]), and whole race games between random players
//! per second ([`race`]). Timings depend on the machine and its load.

use std::time::{Duration, Instant};

use crate::agents::playout::random_playout;
use crate::agents::BoardGame;
use crate::board::{Perft, Position, Tables};
use crate::race::fast::{FastRace, NotCovered};
use crate::race::game::RaceGame;
use crate::race::{agent_seed, Choice, Event, Illegal, RaceState, SetupError};
use crate::rng::Rng;

/// What a perft measurement found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerftSpeed {
    /// The depth counted.
    pub depth: usize,
    /// The leaves at that depth.
    pub leaves: u64,
    /// The time it took, in seconds.
    pub seconds: f64,
}

impl PerftSpeed {
    /// Leaves per second.
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.leaves as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Runs perft from `pos` at `depth`, or at increasing depths (up to 30)
/// until one takes a second or has no leaves; `None` when none did.
pub fn perft(t: &Tables, pos: &Position, depth: Option<usize>) -> Option<PerftSpeed> {
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
            return Some(PerftSpeed {
                depth: d,
                leaves: n,
                seconds: secs,
            });
        }
    }
    None
}

/// What random playouts measured.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayoutSpeed {
    /// Threads.
    pub jobs: usize,
    /// Playouts finished.
    pub playouts: u64,
    /// Plies played in them.
    pub plies: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Time the threads spent on a core, where the system tells it (on a
    /// shared machine this, not the wall clock, says what one core does).
    pub cpu: Option<Duration>,
}

impl PlayoutSpeed {
    /// Per wall-clock second.
    pub fn per_second(&self, x: u64) -> f64 {
        if self.seconds > 0.0 {
            x as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// Plies per playout.
    pub fn plies_per_game(&self) -> f64 {
        if self.playouts > 0 {
            self.plies as f64 / self.playouts as f64
        } else {
            0.0
        }
    }
}

/// What one thread measured (a race bench: games and rolls).
#[derive(Clone, Copy, Debug, Default)]
struct Count {
    playouts: u64,
    plies: u64,
    cpu: Option<Duration>,
}

/// The time the calling thread has spent on a core (Linux: the first field
/// of /proc/thread-self/schedstat, in nanoseconds).
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

/// Why a measurement could not be made.
#[derive(Debug)]
#[non_exhaustive]
pub enum BenchError {
    /// The system refused a thread.
    Threads {
        /// The threads asked for.
        jobs: usize,
        /// What the system said.
        error: std::io::Error,
    },
    /// A thread of the measurement failed.
    ThreadFailed,
    /// The race game can't be set up for the players.
    Setup(SetupError),
    /// A random player's choice was refused.
    Illegal(Illegal),
}

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BenchError::Threads { jobs, error } => {
                write!(f, "error: can't start {jobs} threads: {error}")
            }
            BenchError::ThreadFailed => f.write_str("error: a bench thread failed"),
            BenchError::Setup(e) => e.fmt(f),
            BenchError::Illegal(e) => write!(f, "error: {e}"),
        }
    }
}

impl std::error::Error for BenchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BenchError::Threads { error, .. } => Some(error),
            BenchError::Setup(e) => Some(e),
            BenchError::Illegal(e) => Some(e),
            BenchError::ThreadFailed => None,
        }
    }
}

/// Random playouts from `pos` to the end of the game on `jobs` threads for
/// about `seconds`; an error when the system refuses a thread.
pub fn playouts(
    t: &Tables,
    pos: &Position,
    jobs: usize,
    seconds: f64,
) -> Result<PlayoutSpeed, BenchError> {
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
    .map_err(|error| BenchError::Threads { jobs, error })?;
    Ok(PlayoutSpeed {
        jobs,
        playouts: counts.iter().map(|c| c.playouts).sum(),
        plies: counts.iter().map(|c| c.plies).sum(),
        seconds: begin.elapsed().as_secs_f64(),
        cpu: counts.iter().map(|c| c.cpu).sum(),
    })
}

/// What whole race games measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaceSpeed {
    /// Players a game.
    pub players: usize,
    /// Threads.
    pub jobs: usize,
    /// Games played.
    pub games: u64,
    /// Rolls in them.
    pub rolls: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The path that played them: `Ok` the compiled turn
    /// (`race::fast`), `Err` the general turn and why.
    pub path: Result<(), NotCovered>,
    /// The compiled turn ran a copy of its loop compiled for the shape of
    /// the game's rules of the choices (`FastRace::shaped`).
    pub shaped: bool,
    /// Time the threads spent on a core, where the system tells it.
    pub cpu: Option<Duration>,
}

impl Default for RaceSpeed {
    fn default() -> RaceSpeed {
        RaceSpeed {
            players: 0,
            jobs: 0,
            games: 0,
            rolls: 0,
            seconds: 0.0,
            path: Ok(()),
            shaped: false,
            cpu: None,
        }
    }
}

/// Whole games of a race game between random players (the fewest players
/// it allows, at least two), on `jobs` threads each playing its own seeds,
/// for about `seconds`: by the compiled turn (`race::fast`) when the
/// rule file allows it, else by the general turn (the same games).
pub fn race(game: &RaceGame, seconds: f64, jobs: usize) -> Result<RaceSpeed, BenchError> {
    let players = usize::from(game.min_players.max(2).min(game.max_players));
    let fast = FastRace::new(game, players);
    race_on(game, fast.as_ref().map_err(|e| *e), seconds, jobs)
}

/// `race` on the compiled game when there is one.
fn race_on(
    game: &RaceGame,
    fast: Result<&FastRace, NotCovered>,
    seconds: f64,
    jobs: usize,
) -> Result<RaceSpeed, BenchError> {
    let players = usize::from(game.min_players.max(2).min(game.max_players));
    let jobs = jobs.max(1);
    let start = Instant::now();
    let results: Vec<Result<Count, BenchError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs as u64)
            .map(|job| {
                scope.spawn(move || {
                    let mut games = 0u64;
                    let mut rolls = 0u64;
                    let mut seed = job << 40;
                    let cpu = thread_cpu();
                    if let Ok(fast) = fast {
                        while start.elapsed().as_secs_f64() < seconds {
                            for _ in 0..1000 {
                                let (n, _) = fast.play(seed);
                                rolls += u64::from(n);
                                games += 1;
                                seed += 1;
                            }
                        }
                        return Ok(Count {
                            playouts: games,
                            plies: rolls,
                            cpu: spent(cpu),
                        });
                    }
                    let mut choices = Vec::with_capacity(16);
                    let mut events = Vec::with_capacity(32);
                    let mut state = RaceState::new(game, players).map_err(BenchError::Setup)?;
                    while start.elapsed().as_secs_f64() < seconds {
                        for _ in 0..1000 {
                            state.restart(game);
                            let (n, _) =
                                play_one(game, &mut state, seed, &mut choices, &mut events)?;
                            rolls += u64::from(n);
                            games += 1;
                            seed += 1;
                        }
                    }
                    Ok(Count {
                        playouts: games,
                        plies: rolls,
                        cpu: spent(cpu),
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(BenchError::ThreadFailed)))
            .collect()
    });
    let seconds = start.elapsed().as_secs_f64();
    let (mut games, mut rolls, mut cpu) = (0u64, 0u64, Some(Duration::ZERO));
    for r in results {
        let c = r?;
        games += c.playouts;
        rolls += c.plies;
        cpu = cpu.zip(c.cpu).map(|(a, b)| a + b);
    }
    Ok(RaceSpeed {
        players,
        jobs,
        games,
        rolls,
        seconds,
        path: fast.map(|_| ()),
        shaped: fast.is_ok_and(FastRace::shaped),
        cpu,
    })
}

/// The time the calling thread spent on a core since `begin`.
fn spent(begin: Option<Duration>) -> Option<Duration> {
    thread_cpu()
        .zip(begin)
        .map(|(end, begin)| end.saturating_sub(begin))
}

/// Plays a race game on from `state` (the start, usually) between random
/// players from `seed` (at most 100,000 rolls); the number of rolls and
/// the winner.
pub fn play_one(
    game: &RaceGame,
    state: &mut RaceState,
    seed: u64,
    choices: &mut Vec<Choice>,
    events: &mut Vec<Event>,
) -> Result<(u32, Option<usize>), BenchError> {
    let mut dice = Rng::new(seed);
    let mut pick = Rng::new(agent_seed(seed, 0));
    while !state.is_over() && state.rolls() < 100_000 {
        let roll = game.throw(&mut dice);
        state.choices(game, &roll, choices);
        let i = pick.below(choices.len() as u64) as usize;
        let choice = choices.get(i).copied().unwrap_or(Choice::Pass);
        state
            .apply_listed(game, &roll, choice, events)
            .map_err(BenchError::Illegal)?;
    }
    Ok((state.rolls(), state.winner()))
}
