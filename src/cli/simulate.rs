//! `rulebook simulate`: reads the options of a run, loads the game, lets the
//! lab play it ([`crate::lab::play`]) and prints its report as text or JSON
//! (`--json`); `--csv FILE` takes one row per game, `--svg FILE` a chart.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};

use super::play::StrengthArgs;
use super::{Failure, GameArgs};
use crate::agents::{BoardGame, RaceNode};
use crate::board::Tables;
use crate::format::csv::CsvSink;
use crate::format::json::{to_line, RunReport};
use crate::format::parquet::{fingerprint, one_run, ParquetSink, Settings, ShardFile};
use crate::format::svg::chart;
use crate::format::text;
use crate::lab::{self, LabError, Plan, RowSink, Run, Shard};
use crate::load::Loaded;
use crate::race::game::RaceGame;
use crate::race::RaceState;

/// The lab's errors once a run is under way: a row file that can't be
/// written midway (the plan's own errors, and `merge`'s files that are not
/// one run, are usage errors, mapped where they arise).
impl From<LabError> for Failure {
    fn from(e: LabError) -> Failure {
        Failure::failed(e.to_string())
    }
}

/// What `simulate` and `compare` share.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct LabArgs {
    /// How many games to play (1 to 1000000000).
    #[arg(long, default_value_t = 100, value_parser = super::limits::games)]
    pub(crate) games: usize,
    /// The agents, one per seat in seat order (one name: every seat); the
    /// list of agents is added from `agents::NAMES` (super::command).
    #[arg(long, default_value = "random", value_delimiter = ',')]
    pub(crate) agents: Vec<String>,
    /// The seed of the run: game g is played from (seed, g) alone. Unlike
    /// `play`, the default is the same every time, so that runs, shards and
    /// the two sides of `compare` agree.
    #[arg(long, default_value_t = 1, value_parser = super::limits::seed)]
    pub(crate) seed: u64,
    /// Threads, 1 to 256 (default: one per core). The results do not depend on it.
    #[arg(long, value_parser = super::limits::jobs)]
    pub(crate) jobs: Option<usize>,
    /// A game still going after this many plies (1 to 10000000) is drawn
    /// (`ply limit`).
    #[arg(long, default_value_t = 1000, value_parser = super::limits::max_plies)]
    pub(crate) max_plies: u32,
    #[command(flatten)]
    pub(crate) strength: StrengthArgs,
    /// Print JSON instead of the text report.
    #[arg(long)]
    pub(crate) json: bool,
    /// Write one row per game to this CSV file.
    #[arg(long, value_name = "FILE")]
    pub(crate) csv: Option<PathBuf>,
    /// Draw the results by seat and the game lengths into this SVG file.
    #[arg(long, value_name = "FILE")]
    pub(crate) svg: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Players in a race game, 1 to 8 (default: the fewest it allows).
    #[arg(long, value_parser = super::limits::players)]
    pub(crate) players: Option<usize>,
}

/// Arguments of `simulate`.
#[derive(clap::Args, Debug)]
pub(crate) struct SimulateArgs {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    lab: LabArgs,
    /// Play only shard I of N: the games with index I, I+N, I+2N... of the
    /// run (same seeds); `merge` puts the shards' Parquet files together.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Write one row per game to this Parquet file (for `merge`, DuckDB,
    /// Polars, Spark).
    #[arg(long, value_name = "FILE")]
    parquet: Option<PathBuf>,
}

/// A game loaded and checked for a run: all the lab needs but the files.
pub(crate) enum Ready {
    /// A board game.
    Board(Box<Tables>),
    /// A race game and its number of players.
    Race(Box<RaceGame>, usize),
}

/// How a run is played: its threads, its progress bar and its stop flag.
#[derive(Clone, Copy)]
pub(crate) struct How<'a> {
    pub(crate) pool: &'a rayon::ThreadPool,
    pub(crate) bar: &'a ProgressBar,
    pub(crate) stop: &'a lab::Stop,
}

impl LabArgs {
    /// The run these arguments describe.
    pub(crate) fn plan(&self, shard: Shard) -> Plan {
        Plan {
            games: self.games,
            agents: self.agents.clone(),
            seed: self.seed,
            strength: self.strength.strength(),
            shard,
        }
    }

    /// The thread pool of `--jobs`.
    pub(crate) fn pool(&self) -> Result<rayon::ThreadPool, Failure> {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(j) = self.jobs {
            b = b.num_threads(j.max(1));
        }
        b.build()
            .map_err(|e| Failure::failed(format!("error: can't start threads: {e}")))
    }

    /// A progress bar for `total` games: on a terminal only.
    pub(crate) fn progress(&self, total: usize) -> ProgressBar {
        if self.quiet || !std::io::stderr().is_terminal() {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::new(total as u64);
        if let Ok(style) = ProgressStyle::with_template(
            "{msg} [{bar:40}] {pos}/{len} games, {elapsed} (eta {eta})",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    }

    /// The CSV file of `--csv`, created.
    pub(crate) fn csv_sink(&self) -> Result<Option<CsvSink>, Failure> {
        Ok(match &self.csv {
            Some(path) => Some(CsvSink::open(path, false)?),
            None => None,
        })
    }

    /// Loads a game (board or race) and checks that `plan` can be played
    /// of it (the players, the agents): all that can refuse a run, before
    /// any file is opened.
    pub(crate) fn ready(
        &self,
        plan: &Plan,
        game: &GameArgs,
        err: &mut dyn Write,
    ) -> Result<Ready, Failure> {
        let t = match super::load(game, err)? {
            Loaded::Board(t) => t,
            Loaded::Race(race) => {
                let players = self.players.unwrap_or(usize::from(race.min_players));
                let state = RaceState::new(&race, players)
                    .map_err(|e| Failure::new(format!("error: {e}")))?;
                let start = RaceNode::new(&race, state, self.max_plies);
                lab::seat_agents(plan, players, &start).map_err(|e| Failure::new(e.to_string()))?;
                return Ok(Ready::Race(race, players));
            }
        };
        if self.players.is_some() {
            return Err(Failure::new(format!(
                "error: `--players` sets the number of players of a race game, and `{}` is a board game with {} sides",
                game.game, t.sides()
            )));
        }
        let board = BoardGame::with_max_plies(&t, self.max_plies);
        lab::seat_agents(plan, t.game().sides.len(), &board.start())
            .map_err(|e| Failure::new(e.to_string()))?;
        Ok(Ready::Board(t))
    }

    /// Lets the lab play `plan` of a game made ready.
    pub(crate) fn run_game(
        &self,
        plan: &Plan,
        game: &GameArgs,
        ready: &Ready,
        how: &How<'_>,
        sinks: &mut [&mut dyn RowSink],
    ) -> Result<Run, Failure> {
        let How { pool, bar, stop } = *how;
        let label = label(&game.game, &game.options);
        let tick = |games: u64| bar.inc(games);
        match ready {
            Ready::Race(race, players) => {
                let state = RaceState::new(race, *players)
                    .map_err(|e| Failure::new(format!("error: {e}")))?;
                let start = RaceNode::new(race, state, self.max_plies);
                let seats: Vec<String> = race.seats.iter().take(*players).cloned().collect();
                bar.set_message(race.title.clone());
                Ok(lab::play(
                    plan,
                    label,
                    &race.title,
                    seats,
                    &start,
                    pool,
                    &tick,
                    sinks,
                    stop,
                )?)
            }
            Ready::Board(t) => {
                let board = BoardGame::with_max_plies(t, self.max_plies);
                let seats: Vec<String> = t.game().sides.iter().map(|s| s.name.clone()).collect();
                bar.set_message(t.game().title.clone());
                Ok(lab::play(
                    plan,
                    label,
                    &t.game().title,
                    seats,
                    &board.start(),
                    pool,
                    &tick,
                    sinks,
                    stop,
                )?)
            }
        }
    }

    /// The files of `--csv` and `--svg`, to compare with the inputs.
    pub(crate) fn outputs(&self, files: super::paths::Files) -> super::paths::Files {
        files
            .output("--csv", self.csv.as_deref())
            .output("--svg", self.svg.as_deref())
    }

    /// Checks, before any game is played, that the files asked for can be
    /// written: a run of hours must not end in a path that can't be.
    pub(crate) fn check_outputs(&self) -> Result<(), Failure> {
        for path in self.csv.iter().chain(&self.svg) {
            check_output(path)?;
        }
        Ok(())
    }

    /// Writes the chart asked for (the CSV rows are written as games end).
    pub(crate) fn write_files(&self, runs: &[&Run]) -> Result<(), Failure> {
        if let Some(path) = &self.svg {
            std::fs::write(path, chart::svg(runs))
                .map_err(|e| Failure::new(format!("error: can't write {}: {e}", path.display())))?;
        }
        Ok(())
    }

    /// The line that says what was played.
    pub(crate) fn heading(&self, runs: &[&Run]) -> String {
        text::heading(self.games, self.seed, &self.strength.strength(), runs)
    }
}

/// Checks that `path` can be written as a file: not a directory, in a
/// folder that exists and may be written. A file that was not there is
/// not left behind.
pub(crate) fn check_output(path: &std::path::Path) -> Result<(), Failure> {
    let bad = |why: String| Failure::new(format!("error: can't write {}: {why}", path.display()));
    if path.is_dir() {
        return Err(bad("it is a directory".into()));
    }
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| bad(e.to_string()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// The label of a game on the command line: its name and options.
pub(crate) fn label(game: &str, options: &[String]) -> String {
    let mut s = game.to_string();
    for o in options {
        s.push_str(&format!(" --option {o}"));
    }
    s
}

/// The sinks that are there, as the lab takes them.
pub(crate) fn sinks<'a>(
    csv: &'a mut Option<CsvSink>,
    parquet: &'a mut Option<ParquetSink>,
) -> Vec<&'a mut dyn RowSink> {
    let mut v: Vec<&mut dyn RowSink> = Vec::new();
    if let Some(c) = csv.as_mut() {
        v.push(c);
    }
    if let Some(p) = parquet.as_mut() {
        v.push(p);
    }
    v
}

/// A flag set by the first Ctrl-C or SIGTERM: the run then stops after the
/// block of games it is playing, with its files closed ([`tell_stopping`]
/// says so at once). A second signal ends the process at once.
pub(crate) fn stop_on_signal() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // Failing to listen only means a signal ends the process at once,
        // as it would anyway.
        let _ = signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(&flag));
        let _ = signal_hook::flag::register(signal, Arc::clone(&flag));
    }
    flag
}

/// Until `done`, watches for a stop request; when one comes, says at once
/// on standard error (above the progress bar) how long stopping takes. It
/// writes to the process's standard error, not the command's: a signal
/// reaches only a process.
fn tell_stopping(stop: &lab::Stop, done: &AtomicBool, bar: &ProgressBar) {
    loop {
        // The request first: a run that stopped before this thread woke
        // (its block ended at once) is still told.
        if stop.requested() {
            let line = match stop.block() {
                0 => {
                    "stopping before the first block of games; Ctrl-C again to stop now".to_string()
                }
                n => format!(
                    "stopping after the current block of {}; Ctrl-C again to stop now",
                    crate::words::count(n as u64, "game")
                ),
            };
            bar.suspend(|| {
                let mut e = std::io::stderr().lock();
                let _ = writeln!(e, "{line}");
                let _ = e.flush();
            });
            return;
        }
        if done.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// What a shard's metadata records besides the plan: the ply limit and the
/// rules as loaded (a hash of each file's text), so that `merge` refuses
/// shards played otherwise.
fn shard_settings(game: &GameArgs, max_plies: u32) -> Result<Settings, Failure> {
    let options = super::parse_options(&game.options)?;
    let checked = crate::load::check(&super::FsLoader, &game.game, &options);
    Ok(Settings {
        max_plies,
        rules: fingerprint(&checked.sources),
    })
}

/// `rulebook simulate`.
pub(crate) fn run(
    args: SimulateArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let lab = &args.lab;
    let shard = match &args.shard {
        Some(s) => Shard::parse(s).map_err(|e| Failure::new(e.to_string()))?,
        None => Shard::default(),
    };
    let plan = lab.plan(shard);
    // Nothing is opened for writing before the run is known to start: the
    // game and its agents first, then outputs that name an input.
    let ready = lab.ready(&plan, &args.game, err)?;
    lab.outputs(super::paths::Files::new().game(&args.game.game))
        .output("--parquet", args.parquet.as_deref())
        .check()?;
    lab.check_outputs()?;
    if let Some(p) = &args.parquet {
        check_output(p)?;
    }
    let pool = lab.pool()?;
    let bar = lab.progress(plan.shard.len(plan.games));
    let mut csv = lab.csv_sink()?;
    let mut parquet = match &args.parquet {
        Some(path) => Some(ParquetSink::create(
            path,
            &plan,
            &shard_settings(&args.game, lab.max_plies)?,
        )?),
        None => None,
    };
    let stop = lab::Stop::new(stop_on_signal());
    let how = How {
        pool: &pool,
        bar: &bar,
        stop: &stop,
    };
    let done = AtomicBool::new(false);
    let run = std::thread::scope(|scope| {
        scope.spawn(|| tell_stopping(&stop, &done, &bar));
        let run = lab.run_game(
            &plan,
            &args.game,
            &ready,
            &how,
            &mut sinks(&mut csv, &mut parquet),
        );
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        run
    });
    bar.finish_and_clear();
    if let Some(p) = parquet {
        p.close()?;
    }
    let run = run?;
    let heading = text::heading(run.summary.games, plan.seed, &plan.strength, &[&run]);
    // The report first: a file that can't be written loses no results;
    // and the files are written when the report's reader has gone (`| head`).
    let shown = if lab.json {
        writeln!(out, "{}", to_line(&RunReport::of(&run)))
    } else {
        write!(out, "{}", text::run_report(&heading, &run))
    }
    .and_then(|()| out.flush());
    lab.write_files(&[&run])?;
    shown?;
    let planned = plan.shard.len(plan.games);
    if run.summary.games < planned {
        let files: Vec<String> = lab
            .csv
            .iter()
            .chain(&args.parquet)
            .map(|p| p.display().to_string())
            .collect();
        let rows = if files.is_empty() {
            String::new()
        } else {
            format!("; their rows are in {}", files.join(" and "))
        };
        writeln!(
            err,
            "stopped: {} of {planned} games played{rows}",
            run.summary.games
        )?;
        return Ok(130);
    }
    Ok(0)
}

/// Arguments of `merge`.
#[derive(clap::Args, Debug)]
pub(crate) struct MergeArgs {
    /// The Parquet files of the shards (`simulate --shard I/N --parquet FILE`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print JSON instead of the text report.
    #[arg(long)]
    json: bool,
    /// Draw the results by seat and the game lengths into this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

/// `rulebook merge`: the report of the whole run from its shards' files.
pub(crate) fn merge(args: MergeArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let mut files = super::paths::Files::new();
    for f in &args.files {
        files = files.input(&format!("the shard {}", f.display()), Some(f));
    }
    files.output("--svg", args.svg.as_deref()).check()?;
    let mut shards = Vec::new();
    // The files named are a run's shards, or the command line is wrong
    // (exit 2): each must be read, all from one run, every game once.
    let usage = |e: LabError| Failure::new(e.to_string());
    for f in &args.files {
        shards.push(ShardFile::open(f).map_err(usage)?);
    }
    let Some(first) = shards.first().map(|s| s.meta.clone()) else {
        return Err(Failure::new("error: no file to merge"));
    };
    one_run(&shards).map_err(usage)?;
    if let Some(path) = &args.svg {
        check_output(path)?;
    }
    let rows = shards.into_iter().map(ShardFile::rows).collect();
    let run = lab::merge::merge(first.run.clone(), first.games, rows).map_err(usage)?;
    if args.json {
        writeln!(out, "{}", to_line(&RunReport::of(&run)))?;
    } else {
        let heading = text::heading(run.summary.games, first.seed, &first.strength(), &[&run]);
        write!(out, "{}", text::run_report(&heading, &run))?;
    }
    out.flush()?;
    if let Some(path) = &args.svg {
        std::fs::write(path, chart::svg(&[&run]))
            .map_err(|e| Failure::new(format!("error: can't write {}: {e}", path.display())))?;
    }
    Ok(0)
}
