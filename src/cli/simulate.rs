//! `rulebook simulate`: reads the options of a run, loads the game, lets the
//! lab play it ([`crate::lab::play`]) and prints its report as text or JSON
//! (`--json`); `--csv FILE` takes one row per game, `--svg FILE` a chart.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use indicatif::{ProgressBar, ProgressStyle};

use super::play::StrengthArgs;
use super::{load_game, Failure, GameArgs};
use crate::agents::BoardGame;
use crate::format::csv::CsvSink;
use crate::format::json::{to_line, RunReport};
use crate::format::svg::chart;
use crate::format::text;
use crate::lab::{self, LabError, Plan, RowSink, Run, Shard};
use crate::race::{RaceNode, RaceState};

impl From<LabError> for Failure {
    fn from(e: LabError) -> Failure {
        Failure::new(e.0)
    }
}

/// What `simulate` and `compare` share.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct LabArgs {
    /// How many games to play.
    #[arg(long, default_value_t = 100)]
    pub(crate) games: usize,
    /// The agents, one per seat in seat order (one name: every seat).
    #[arg(long, default_value = "random", value_delimiter = ',')]
    pub(crate) agents: Vec<String>,
    /// The seed of the run: game g is played from (seed, g) alone.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Threads (default: one per core). The results do not depend on it.
    #[arg(long)]
    pub(crate) jobs: Option<usize>,
    /// A game still going after this many plies is drawn (`ply limit`).
    #[arg(long, default_value_t = 1000)]
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
    /// Players in a race game (default: the fewest it allows).
    #[arg(long)]
    pub(crate) players: Option<usize>,
}

/// Arguments of `simulate`.
#[derive(clap::Args, Debug)]
pub(crate) struct SimulateArgs {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    lab: LabArgs,
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
            .map_err(|e| Failure::new(format!("error: can't start threads: {e}")))
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

    /// Loads a game (board or race) and lets the lab play `plan` of it.
    pub(crate) fn run_game(
        &self,
        plan: &Plan,
        game: &GameArgs,
        pool: &rayon::ThreadPool,
        bar: &ProgressBar,
        sinks: &mut [&mut dyn RowSink],
        err: &mut dyn Write,
    ) -> Result<Run, Failure> {
        let label = label(&game.game, &game.options);
        let stop = AtomicBool::new(false);
        let tick = || bar.inc(1);
        if let Some(race) = super::race::load_race(game, err)? {
            let players = self.players.unwrap_or(usize::from(race.min_players));
            let state =
                RaceState::new(&race, players).map_err(|e| Failure::new(format!("error: {e}")))?;
            let start = RaceNode::new(&race, state, self.max_plies);
            let seats = race.seats.iter().take(players).cloned().collect();
            bar.set_message(race.title.clone());
            return Ok(lab::play(
                plan,
                label,
                &race.title,
                seats,
                &start,
                pool,
                &tick,
                sinks,
                &stop,
            )?);
        }
        let t = load_game(game, err)?;
        let board = BoardGame::with_max_plies(&t, self.max_plies);
        let seats = t.game.sides.iter().map(|s| s.name.clone()).collect();
        bar.set_message(t.game.title.clone());
        Ok(lab::play(
            plan,
            label,
            &t.game.title,
            seats,
            &board.start(),
            pool,
            &tick,
            sinks,
            &stop,
        )?)
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

/// The label of a game on the command line: its name and options.
pub(crate) fn label(game: &str, options: &[String]) -> String {
    let mut s = game.to_string();
    for o in options {
        s.push_str(&format!(" --option {o}"));
    }
    s
}

/// The sinks that are there, as the lab takes them.
pub(crate) fn sinks(csv: &mut Option<CsvSink>) -> Vec<&mut dyn RowSink> {
    let mut v: Vec<&mut dyn RowSink> = Vec::new();
    if let Some(c) = csv.as_mut() {
        v.push(c);
    }
    v
}

/// `rulebook simulate`.
pub(crate) fn run(
    args: SimulateArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let lab = &args.lab;
    let pool = lab.pool()?;
    let plan = lab.plan(Shard::default());
    let bar = lab.progress(plan.shard.len(plan.games));
    let mut csv = lab.csv_sink()?;
    let run = lab.run_game(&plan, &args.game, &pool, &bar, &mut sinks(&mut csv), err)?;
    bar.finish_and_clear();
    lab.write_files(&[&run])?;
    if lab.json {
        writeln!(out, "{}", to_line(&RunReport::of(&run)))?;
    } else {
        write!(out, "{}", text::run_report(&lab.heading(&[&run]), &run))?;
    }
    Ok(0)
}
