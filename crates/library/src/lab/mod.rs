//! The lab: plays many games between computer players, in parallel, each
//! from its own seed, and sums them up. Front ends (the command line, a web
//! page, a cluster job) load a game, describe a run with a [`Plan`], call
//! [`play`] and render the [`Run`] it returns with [`crate::format`].
//!
//! Game `g` of a run depends only on the run's seed and `g`, so a run gives
//! the same games for any number of threads, and a run cut into shards
//! ([`Shard`]) gives the same games as one run. Rows go to [`RowSink`]s as
//! games end (a block at a time); the summary is a [`Tally`], so memory
//! stays flat with the number of games.

pub mod bench;
pub mod block;
pub mod compare;
pub mod merge;
pub mod stats;
pub mod summary;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use crate::agents::arena::{game_seed, make_agents, play_game_in};
use crate::agents::{GameState, Strength};
use block::play_block;
pub use summary::{GameRow, Points, Summary, Tally};

/// An error of the lab: a plan that can't be run, a file of rows that
/// can't be written or read, shards that are not one whole run. The
/// `Display` is a message for people, `error: ` first.
#[derive(Debug)]
#[non_exhaustive]
pub enum LabError {
    /// `--shard` is not `I/N` with `I < N`.
    Shard {
        /// The text given.
        text: String,
    },
    /// The agents named are neither one nor one per seat.
    Agents {
        /// How many were named.
        named: usize,
        /// The game's seats.
        seats: usize,
    },
    /// A computer player can't be made (the players' own reason).
    Players(crate::agents::AgentError),
    /// A file of rows can't be written.
    Write {
        /// The file.
        path: PathBuf,
        /// What failed.
        error: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A file of rows can't be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What failed.
        error: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A shard file's bytes are not those written.
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        what: String,
    },
    /// A file without a run in its metadata: not a shard.
    NotAShard {
        /// The file.
        path: PathBuf,
    },
    /// A shard written by an older rulebook, which can't be checked.
    OlderShard {
        /// The file.
        path: PathBuf,
    },
    /// A shard written by a newer rulebook.
    NewerShard {
        /// The file.
        path: PathBuf,
    },
    /// A shard whose run was stopped: it holds fewer games than planned.
    Stopped {
        /// The file.
        path: PathBuf,
        /// The games it holds.
        rows: u64,
        /// The games of its shard.
        planned: u64,
        /// Its shard, from 0.
        shard: usize,
        /// The number of shards.
        shards: usize,
    },
    /// A shard of another run than the first file's.
    OtherRun {
        /// The file.
        file: String,
        /// The first file.
        first: String,
        /// How the runs differ.
        why: String,
    },
    /// A game (from 1) is in more than one file.
    Doubled {
        /// The game.
        game: u64,
    },
    /// A game (from 1) is in none of the files.
    Missing {
        /// The game.
        game: u64,
    },
    /// The rows of a file are out of order at a game (from 1).
    OutOfOrder {
        /// The game.
        game: u64,
    },
    /// The Parquet schema (of a column, when named) can't be built.
    Schema {
        /// The column.
        column: Option<String>,
        /// What failed.
        error: Box<dyn std::error::Error + Send + Sync>,
    },
}

impl std::fmt::Display for LabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("error: ")?;
        match self {
            LabError::Shard { text } => write!(
                f,
                "`--shard {text}` needs the form I/N with 0 <= I < N, such as 0/4"
            ),
            LabError::Agents { named, seats } => write!(
                f,
                "--agents names {named} agent{} but the game has {seats} seats: name one per seat, or one for all",
                if *named == 1 { "" } else { "s" }
            ),
            LabError::Players(e) => f.write_str(&crate::narrate::agent::error(e)),
            LabError::Write { path, error } => {
                write!(f, "can't write {}: {error}", path.display())
            }
            LabError::Read { path, error } => write!(f, "can't read {}: {error}", path.display()),
            LabError::Damaged { path, what } => write!(
                f,
                "can't read {}: the file is damaged ({what}): run its shard again",
                path.display()
            ),
            LabError::NotAShard { path } => write!(
                f,
                "can't read {}: no run in its metadata: not written by `simulate --parquet`",
                path.display()
            ),
            LabError::OlderShard { path } => write!(
                f,
                "can't read {}: it was written by an older rulebook, whose shards `merge` can't check (no checksum, no fingerprint of the rules, no --max-plies): run its shard again",
                path.display()
            ),
            LabError::NewerShard { path } => write!(
                f,
                "can't read {}: it was written by a newer rulebook: merge it with that one",
                path.display()
            ),
            LabError::Stopped {
                path,
                rows,
                planned,
                shard,
                shards,
            } => write!(
                f,
                "can't read {}: it holds {rows} of the {planned} games of shard {shard}/{shards}: its run was stopped; run its shard again",
                path.display()
            ),
            LabError::OtherRun { file, first, why } => {
                write!(f, "{file} is not from the same run as {first}: {why}")
            }
            LabError::Doubled { game } => {
                write!(f, "game {game} of the run is in more than one file")
            }
            LabError::Missing { game } => write!(
                f,
                "game {game} of the run is in none of the files: give every shard"
            ),
            LabError::OutOfOrder { game } => {
                write!(f, "the rows of a file are out of order at game {game}")
            }
            LabError::Schema {
                column: Some(name),
                error,
            } => write!(f, "parquet column {name}: {error}"),
            LabError::Schema { column: None, error } => write!(f, "parquet schema: {error}"),
        }
    }
}

impl std::error::Error for LabError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LabError::Write { error, .. }
            | LabError::Read { error, .. }
            | LabError::Schema { error, .. } => Some(error.as_ref()),
            _ => None,
        }
    }
}

/// Which of a run's games to play: those with index `index`, `index +
/// count`, `index + 2 * count`... (`0/1`: all of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 0.
    pub index: usize,
    /// The number of shards.
    pub count: usize,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard { index: 0, count: 1 }
    }
}

impl Shard {
    /// Reads `I/N` with `I < N`.
    pub fn parse(text: &str) -> Result<Shard, LabError> {
        let bad = || LabError::Shard {
            text: text.to_string(),
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether this is the whole run.
    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// The indices of this shard's games in a run of `games` games.
    pub fn indices(&self, games: usize) -> impl Iterator<Item = usize> {
        (self.index..games).step_by(self.count.max(1))
    }

    /// How many games of a run of `games` this shard plays.
    pub fn len(&self, games: usize) -> usize {
        if self.index >= games {
            0
        } else {
            (games - self.index).div_ceil(self.count.max(1))
        }
    }

    /// Whether this shard plays no game of a run of `games`.
    pub fn is_empty(&self, games: usize) -> bool {
        self.len(games) == 0
    }
}

/// What to play: how many games, by whom, from which seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Games in the whole run (all shards together).
    pub games: usize,
    /// The agents, one per seat in seat order (one name: every seat).
    pub agents: Vec<String>,
    /// The seed of the run: game `g` is played from (seed, g) alone.
    pub seed: u64,
    /// How hard the agents think.
    pub strength: Strength,
    /// The part of the run to play.
    pub shard: Shard,
}

impl Plan {
    /// The agent of each of `seats` seats.
    pub fn agents_for(&self, seats: usize) -> Result<Vec<String>, LabError> {
        let names: Vec<String> = self.agents.iter().map(|a| a.trim().to_string()).collect();
        match names.len() {
            1 => Ok(vec![names[0].clone(); seats]),
            n if n == seats => Ok(names),
            named => Err(LabError::Agents { named, seats }),
        }
    }
}

/// The game of a run, as reports name it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunInfo {
    /// What was typed: the game and its options.
    pub label: String,
    /// The game's title.
    pub title: String,
    /// Side names, in seat order.
    pub seats: Vec<String>,
    /// The agent of each seat.
    pub agents: Vec<String>,
    /// The names of the game's rule events, in the order of
    /// [`GameRow::events`].
    pub event_names: Vec<String>,
    /// In a game whose rules score a win, the scores its rules name
    /// (points and name, fewest points first; `[2, "a gammon"]`); `None`
    /// in every other game, whose rows have no points (and whose run's
    /// JSON has no `scores`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<(u32, String)>>,
}

impl RunInfo {
    /// Whether the game's rules score a win: its rows carry the points.
    pub fn scored(&self) -> bool {
        self.scores.is_some()
    }

    /// The name the rules give a score of `points`, if any.
    pub fn score_name(&self, points: u32) -> Option<&str> {
        self.scores
            .as_deref()?
            .iter()
            .find(|(p, _)| *p == points)
            .map(|(_, n)| n.as_str())
    }
}

/// A finished run (or shard) of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The game and its players.
    pub info: RunInfo,
    /// What happened.
    pub summary: Summary,
}

/// Where the rows of a run go as games end: a CSV or Parquet file, say.
pub trait RowSink {
    /// Takes the rows of a block of games, in index order; the rows must be
    /// safe (on disk) when this returns.
    fn rows(&mut self, info: &RunInfo, rows: &[GameRow]) -> Result<(), LabError>;
}

/// The agent of each of `seats` seats, checked: each is an agent that can
/// play the game of `start`. An error here is in the plan, not in a game.
pub fn seat_agents<S: GameState>(
    plan: &Plan,
    seats: usize,
    start: &S,
) -> Result<Vec<String>, LabError> {
    let agents = plan.agents_for(seats)?;
    make_agents(&agents, 0, plan.strength, start).map_err(LabError::Players)?;
    Ok(agents)
}

/// Games played at once between two hand-overs of rows to the sinks, at
/// first: a block doubles while it takes less than `BLOCK_TIME` (up to
/// `MAX_BLOCK` games) and halves when it takes more than twice that, so
/// that short games don't leave the threads waiting at every hand-over
/// (each block ends when its longest game does) and long ones still reach
/// the files often. The sizes stay multiples of `BLOCK`.
const BLOCK: usize = 64;
const MAX_BLOCK: usize = 1 << 16;
const BLOCK_TIME: std::time::Duration = std::time::Duration::from_millis(100);

/// A run's request to stop, and the number of games of the block it is
/// playing, so that a front end can say at once how long stopping takes.
/// [`play`] starts no new block once the flag is set.
#[derive(Debug, Default)]
pub struct Stop {
    flag: Arc<AtomicBool>,
    block: AtomicUsize,
}

impl Stop {
    /// A stop that `flag` requests (a signal handler may set it).
    pub fn new(flag: Arc<AtomicBool>) -> Stop {
        Stop {
            flag,
            block: AtomicUsize::new(0),
        }
    }

    /// Whether a stop was requested.
    pub fn requested(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// The games of the block being played (0 before the first block).
    pub fn block(&self) -> usize {
        self.block.load(Ordering::Relaxed)
    }
}

/// Plays the games of `plan` from `start` on `pool`: each from its own
/// seed, in blocks of games in parallel ([`block::play_block`]); each
/// block's rows go to every sink, in index order, before the next block
/// starts. `tick` is told of the games played, a few at a time (its
/// argument says how many); once `stop` is set, no new block starts (the
/// rows written stay).
#[allow(clippy::too_many_arguments)]
pub fn play<S: GameState + Sync>(
    plan: &Plan,
    label: String,
    title: &str,
    seats: Vec<String>,
    start: &S,
    pool: &rayon::ThreadPool,
    tick: &(dyn Fn(u64) + Sync),
    sinks: &mut [&mut dyn RowSink],
    stop: &Stop,
) -> Result<Run, LabError> {
    let agents = seat_agents(plan, seats.len(), start)?;
    let strength = plan.strength;
    let info = RunInfo {
        label,
        title: title.to_string(),
        seats,
        agents,
        event_names: start
            .counted()
            .iter()
            .map(|&e| crate::narrate::lab::counted(e).to_string())
            .collect(),
        scores: start.scores_wins().then(|| start.score_names()),
    };
    let mut tally = Tally::new(info.seats.len(), &info.event_names);
    tally.name_scores(start.score_names());
    // The games' indices are taken a block at a time: a run of a billion
    // games holds one block in memory, never the list of them all.
    let mut indices = plan.shard.indices(plan.games);
    let mut size = BLOCK;
    let mut handed = false;
    loop {
        if stop.requested() {
            break;
        }
        let block: Vec<usize> = indices.by_ref().take(size).collect();
        stop.block.store(block.len(), Ordering::Relaxed);
        let begin = std::time::Instant::now();
        if block.is_empty() {
            break;
        }
        let rows = play_block(
            &block,
            start,
            pool,
            |state: &mut S, g| {
                let seed = game_seed(plan.seed, g as u64);
                let mut players =
                    make_agents(&info.agents, seed, strength, start).unwrap_or_default();
                state.clone_from(start);
                GameRow::of(g as u64, &play_game_in(state, &mut players, seed))
            },
            tick,
        );
        for sink in sinks.iter_mut() {
            sink.rows(&info, &rows)?;
        }
        handed = true;
        for r in &rows {
            tally.add(r);
        }
        let took = begin.elapsed();
        if took < BLOCK_TIME && size < MAX_BLOCK {
            size *= 2;
        } else if took > 2 * BLOCK_TIME && size > BLOCK {
            size /= 2;
        }
    }
    // A shard with no game (more shards than games) or a run stopped before
    // its first block: the sinks still learn the run (a Parquet file keeps
    // it in its metadata, for `merge`).
    if !handed {
        for sink in sinks.iter_mut() {
            sink.rows(&info, &[])?;
        }
    }
    Ok(Run {
        summary: tally.summary(),
        info,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_run_once() {
        for games in [0, 1, 7, 64, 65, 400] {
            for count in 1..6 {
                let mut all: Vec<usize> = (0..count)
                    .flat_map(|i| Shard { index: i, count }.indices(games))
                    .collect();
                let lens: usize = (0..count)
                    .map(|i| Shard { index: i, count }.len(games))
                    .sum();
                all.sort_unstable();
                assert_eq!(all, (0..games).collect::<Vec<_>>());
                assert_eq!(lens, games);
            }
        }
        assert_eq!(Shard::parse("1/4").ok(), Some(Shard { index: 1, count: 4 }));
        assert!(Shard::parse("4/4").is_err());
        assert!(Shard::parse("0/0").is_err());
        assert!(Shard::parse("x").is_err());
    }
}
