//! `rulebook simulate`: plays many games between computer players in
//! parallel and reports what happened: results by seat with 95% confidence
//! intervals, draws, game lengths, how games ended, how often each rule
//! event fired, and the game metrics (balance, decisiveness, drawishness,
//! duration, lead changes, turns lost to passes). `--json` for tools,
//! `--csv FILE` for one row per game, `--svg FILE` for a chart.
//!
//! Game `g` depends only on `--seed` and `g`, so the report is the same for
//! any `--jobs`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::board::json_str;
use super::play::StrengthArgs;
use super::stats::{share, wilson, Summary};
use super::{load_game, Failure, GameArgs};
use crate::agents::arena::{game_seed, make_agents, play_game, GameRecord};
use crate::agents::{BoardGame, GameState};
use crate::race::{RaceNode, RaceState};

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
    /// Whether this command already wrote the CSV header.
    #[arg(skip)]
    pub(crate) csv_started: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// Arguments of `simulate`.
#[derive(clap::Args, Debug)]
pub(crate) struct SimulateArgs {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    lab: LabArgs,
}

/// A finished run of one game.
pub(crate) struct Run {
    /// What was typed: the game and its options.
    pub label: String,
    pub title: String,
    /// Side names, in seat order.
    pub seats: Vec<String>,
    pub agents: Vec<String>,
    pub records: Vec<GameRecord>,
    pub summary: Summary,
}

impl LabArgs {
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

    /// The agent of each of `seats` seats.
    fn agents_for(&self, seats: usize) -> Result<Vec<String>, Failure> {
        let names: Vec<String> = self.agents.iter().map(|a| a.trim().to_string()).collect();
        match names.len() {
            1 => Ok(vec![names[0].clone(); seats]),
            n if n == seats => Ok(names),
            n => Err(Failure::new(format!(
                "error: --agents names {n} agent{} but the game has {seats} seats: name one per seat, or one for all",
                if n == 1 { "" } else { "s" }
            ))),
        }
    }

    /// Loads a game (board or race) and plays its run.
    pub(crate) fn run_game(
        &self,
        game: &GameArgs,
        pool: &rayon::ThreadPool,
        bar: &ProgressBar,
        err: &mut dyn Write,
    ) -> Result<Run, Failure> {
        let label = label(&game.game, &game.options);
        if let Some(race) = super::race::load_race(game, err)? {
            let players = self.players.unwrap_or(usize::from(race.min_players));
            let state =
                RaceState::new(&race, players).map_err(|e| Failure::new(format!("error: {e}")))?;
            let start = RaceNode::new(&race, state, self.max_plies);
            let seats = race.seats.iter().take(players).cloned().collect();
            return self.run_state(label, &race.title, seats, &start, pool, bar);
        }
        let t = load_game(game, err)?;
        let board = BoardGame::with_max_plies(&t, self.max_plies);
        let seats = t.game.sides.iter().map(|s| s.name.clone()).collect();
        self.run_state(label, &t.game.title, seats, &board.start(), pool, bar)
    }

    /// Plays the run of one game from `start`: games in parallel, each from
    /// its own seed.
    fn run_state<S: GameState + Sync>(
        &self,
        label: String,
        title: &str,
        seats: Vec<String>,
        start: &S,
        pool: &rayon::ThreadPool,
        bar: &ProgressBar,
    ) -> Result<Run, Failure> {
        let agents = self.agents_for(seats.len())?;
        let strength = self.strength.strength();
        make_agents(&agents, 0, strength, start)
            .map_err(|e| Failure::new(format!("error: {e}")))?;
        bar.set_message(title.to_string());
        let event_names = start.event_names();
        // Games are played in blocks; the CSV rows of each block are
        // appended and flushed at once, so an interrupted run keeps them.
        let mut csv_file = self.open_csv(event_names)?;
        let mut records: Vec<GameRecord> = Vec::with_capacity(self.games);
        let block = 64;
        let mut first = 0;
        while first < self.games {
            let last = (first + block).min(self.games);
            let done: Vec<GameRecord> = pool.install(|| {
                (first..last)
                    .into_par_iter()
                    .map(|g| {
                        let seed = game_seed(self.seed, g as u64);
                        let mut players =
                            make_agents(&agents, seed, strength, start).unwrap_or_default();
                        let r = play_game(start.clone(), &mut players, seed);
                        bar.inc(1);
                        r
                    })
                    .collect()
            });
            if let Some((path, file)) = csv_file.as_mut() {
                let mut rows = String::new();
                for (i, r) in done.iter().enumerate() {
                    rows.push_str(&csv_row(&label, &seats, first + i, r, event_names));
                }
                file.write_all(rows.as_bytes())
                    .and_then(|()| file.flush())
                    .map_err(|e| {
                        Failure::new(format!("error: can't write {}: {e}", path.display()))
                    })?;
            }
            records.extend(done);
            first = last;
        }
        let summary = Summary::of(&records, seats.len(), event_names);
        Ok(Run {
            label,
            title: title.to_string(),
            seats,
            agents,
            records,
            summary,
        })
    }

    /// The CSV file, opened to append rows: created with its header by the
    /// first run of a command, appended to by the next (`compare`).
    fn open_csv(
        &self,
        names: &[&'static str],
    ) -> Result<Option<(PathBuf, std::io::BufWriter<std::fs::File>)>, Failure> {
        let Some(path) = &self.csv else {
            return Ok(None);
        };
        let fail =
            |e: std::io::Error| Failure::new(format!("error: can't write {}: {e}", path.display()));
        let fresh = !self
            .csv_started
            .swap(true, std::sync::atomic::Ordering::Relaxed);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .append(!fresh)
            .truncate(fresh)
            .open(path)
            .map_err(fail)?;
        let mut file = std::io::BufWriter::new(file);
        if fresh {
            file.write_all(csv_header(names).as_bytes()).map_err(fail)?;
        }
        Ok(Some((path.clone(), file)))
    }

    /// Writes the SVG file asked for (the CSV rows are written as games end).
    pub(crate) fn write_files(&self, runs: &[&Run]) -> Result<(), Failure> {
        if let Some(path) = &self.svg {
            write_file(path, &super::chart::svg(runs))?;
        }
        Ok(())
    }

    /// The line that says what was played.
    pub(crate) fn heading(&self, runs: &[&Run]) -> String {
        let agents = runs
            .first()
            .map(|r| r.agents.join(", "))
            .unwrap_or_default();
        let s = self.strength.strength();
        let mut effort = Vec::new();
        if let Some(p) = s.playouts {
            effort.push(format!("{p} playouts"));
        }
        if let Some(d) = s.depth {
            effort.push(format!("depth {d}"));
        }
        if let Some(t) = s.think {
            effort.push(format!("{} ms a move", t.as_millis()));
        }
        let effort = if effort.is_empty() {
            String::new()
        } else {
            format!(" ({})", effort.join(", "))
        };
        format!(
            "{} games{}, agents {agents}{effort}, seed {}",
            self.games,
            if runs.len() > 1 { " each" } else { "" },
            self.seed
        )
    }
}

fn write_file(path: &PathBuf, text: &str) -> Result<(), Failure> {
    std::fs::write(path, text)
        .map_err(|e| Failure::new(format!("error: can't write {}: {e}", path.display())))
}

/// The label of a game on the command line: its name and options.
pub(crate) fn label(game: &str, options: &[String]) -> String {
    let mut s = game.to_string();
    for o in options {
        s.push_str(&format!(" --option {o}"));
    }
    s
}

/// A percentage with one decimal.
pub(crate) fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A share with its 95% interval: `45.0% [38.1%, 52.1%]`.
pub(crate) fn with_ci(k: usize, n: usize) -> String {
    let (lo, hi) = wilson(k, n);
    format!("{:>6} [{}, {}]", pct(share(k, n)), pct(lo), pct(hi))
}

/// The text report of one run.
fn text(lab: &LabArgs, run: &Run) -> String {
    let s = &run.summary;
    let n = s.games;
    let mut o = String::new();
    o.push_str(&format!("{} ({})\n", run.title, run.label));
    o.push_str(&format!("{}\n\n", lab.heading(&[run])));
    o.push_str("results                     games   share  95% interval\n");
    for (i, seat) in run.seats.iter().enumerate() {
        let who = format!(
            "{seat} ({}) wins",
            run.agents.get(i).map_or("?", String::as_str)
        );
        o.push_str(&format!(
            "  {who:<25} {:>5}  {}\n",
            s.wins[i],
            with_ci(s.wins[i], n)
        ));
    }
    o.push_str(&format!(
        "  {:<25} {:>5}  {}\n\n",
        "draws",
        s.draws,
        with_ci(s.draws, n)
    ));
    o.push_str(&format!(
        "game length (plies): mean {:.1}, median {}, sd {:.1}, min {}, max {}\n\n",
        s.length.mean,
        s.median,
        s.length.sd(),
        s.min,
        s.max
    ));
    o.push_str("how games ended\n");
    for (why, c) in &s.endings {
        o.push_str(&format!("  {why:<25} {c:>5}  {:>6}\n", pct(share(*c, n))));
    }
    o.push('\n');
    o.push_str("rule events per game         mean      sd\n");
    let mut any = false;
    for (name, m) in s.fired() {
        any = true;
        o.push_str(&format!("  {name:<25} {:>7.2} {:>7.2}\n", m.mean, m.sd()));
    }
    if !any {
        o.push_str("  none fired\n");
    }
    o.push('\n');
    o.push_str("metrics\n");
    let shares: Vec<String> = run
        .seats
        .iter()
        .enumerate()
        .map(|(i, seat)| format!("{seat} {}", pct(s.score_share(i))))
        .collect();
    o.push_str(&format!(
        "  {:<25} {:>7.3}  (score shares: {})\n",
        "balance",
        s.balance(),
        shares.join(", ")
    ));
    o.push_str(&format!(
        "  {:<25} {:>7}\n",
        "decisiveness",
        pct(s.decisiveness())
    ));
    o.push_str(&format!(
        "  {:<25} {:>7}\n",
        "drawishness",
        pct(s.drawishness())
    ));
    o.push_str(&format!(
        "  {:<25} {:>7.1}  plies\n",
        "duration", s.length.mean
    ));
    o.push_str(&format!(
        "  {:<25} {:>7.2}  per game\n",
        "lead changes", s.lead_changes.mean
    ));
    o.push_str(&format!(
        "  {:<25} {:>7}\n",
        "turns lost to passes",
        pct(s.skip_share())
    ));
    o
}

/// The JSON object of one run.
pub(crate) fn json(run: &Run) -> String {
    let s = &run.summary;
    let n = s.games;
    let num = |x: f64| {
        if x.is_finite() {
            format!("{}", (x * 1e6).round() / 1e6)
        } else {
            "null".into()
        }
    };
    let result = |k: usize| {
        let (lo, hi) = wilson(k, n);
        format!(
            "\"count\":{k},\"share\":{},\"ci95\":[{},{}]",
            num(share(k, n)),
            num(lo),
            num(hi)
        )
    };
    let seats: Vec<String> = run
        .seats
        .iter()
        .enumerate()
        .map(|(i, name)| {
            format!(
                "{{\"seat\":{},\"side\":{},\"agent\":{},\"wins\":{{{}}},\"score_share\":{}}}",
                i + 1,
                json_str(name),
                json_str(run.agents.get(i).map_or("", String::as_str)),
                result(s.wins[i]),
                num(s.score_share(i))
            )
        })
        .collect();
    let endings: Vec<String> = s
        .endings
        .iter()
        .map(|(why, c)| format!("{}:{c}", json_str(why)))
        .collect();
    let events: Vec<String> = s
        .events
        .iter()
        .map(|(name, m)| {
            format!(
                "{}:{{\"mean\":{},\"sd\":{}}}",
                json_str(name),
                num(m.mean),
                num(m.sd())
            )
        })
        .collect();
    format!(
        "{{\"game\":{},\"title\":{},\"games\":{n},\"seats\":[{}],\"draws\":{{{}}},\
\"length\":{{\"mean\":{},\"median\":{},\"sd\":{},\"min\":{},\"max\":{}}},\
\"endings\":{{{}}},\"events_per_game\":{{{}}},\
\"metrics\":{{\"balance\":{},\"decisiveness\":{},\"drawishness\":{},\"duration\":{},\"lead_changes\":{},\"skip_share\":{}}}}}",
        json_str(&run.label),
        json_str(&run.title),
        seats.join(","),
        result(s.draws),
        num(s.length.mean),
        num(s.median),
        num(s.length.sd()),
        s.min,
        s.max,
        endings.join(","),
        events.join(","),
        num(s.balance()),
        num(s.decisiveness()),
        num(s.drawishness()),
        num(s.length.mean),
        num(s.lead_changes.mean),
        num(s.skip_share()),
    )
}

/// The first line of the CSV file.
fn csv_header(names: &[&'static str]) -> String {
    let mut o = String::from("game,index,seed,winner,seat,reason,plies,lead_changes,turns_lost");
    for e in names {
        o.push(',');
        o.push_str(&e.replace(' ', "_"));
    }
    o.push('\n');
    o
}

/// The CSV row of game `i` (0-based) of a run.
fn csv_row(
    label: &str,
    seats: &[String],
    i: usize,
    r: &GameRecord,
    names: &[&'static str],
) -> String {
    let (winner, seat) = match r.winner {
        Some(w) => (
            csv_field(seats.get(w).map_or("?", String::as_str)),
            (w + 1).to_string(),
        ),
        None => ("draw".to_string(), String::new()),
    };
    let mut o = format!(
        "{},{},{},{winner},{seat},{},{},{},{}",
        csv_field(label),
        i + 1,
        r.seed,
        csv_field(r.reason),
        r.plies,
        r.lead_changes,
        r.skips
    );
    for k in 0..names.len() {
        o.push_str(&format!(",{}", r.events.get(k).copied().unwrap_or(0)));
    }
    o.push('\n');
    o
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `rulebook simulate`.
pub(crate) fn run(
    args: SimulateArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let lab = &args.lab;
    let pool = lab.pool()?;
    let bar = lab.progress(lab.games);
    let run = lab.run_game(&args.game, &pool, &bar, err)?;
    bar.finish_and_clear();
    lab.write_files(&[&run])?;
    if lab.json {
        writeln!(out, "{}", json(&run))?;
    } else {
        write!(out, "{}", text(lab, &run))?;
    }
    Ok(0)
}
