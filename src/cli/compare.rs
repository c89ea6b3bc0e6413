//! `rulebook compare GAME_A GAME_B`: both games simulated by the lab with
//! the same agents and the same seeds, and the report of
//! [`crate::lab::compare`] printed as text or JSON.

use std::io::Write;

use super::simulate::{sinks, How, LabArgs};
use super::{Failure, GameArgs};
use crate::format::json::{to_line, CompareReport};
use crate::format::text;
use crate::lab::Shard;
use crate::load::Kind;

/// Arguments of `compare`.
#[derive(clap::Args, Debug)]
pub(crate) struct CompareArgs {
    /// The first game: a bundled name or a rule file.
    game_a: String,
    /// The second game (often a house-rule variant of the first).
    game_b: String,
    /// Set an option of both games: `--option kings=short`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Set an option of the first game only.
    #[arg(long = "option-a", value_name = "NAME=VALUE")]
    options_a: Vec<String>,
    /// Set an option of the second game only.
    #[arg(long = "option-b", value_name = "NAME=VALUE")]
    options_b: Vec<String>,
    #[command(flatten)]
    lab: LabArgs,
}

/// `rulebook compare`.
pub(crate) fn run(
    args: CompareArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let game_args = |game: &str, own: &[String]| GameArgs {
        game: game.to_string(),
        options: args.options.iter().chain(own).cloned().collect(),
    };
    let ga = game_args(&args.game_a, &args.options_a);
    let gb = game_args(&args.game_b, &args.options_b);
    let lab = &args.lab;
    let race_a = super::kind_of(&ga)? == Some(Kind::Race);
    let race_b = super::kind_of(&gb)? == Some(Kind::Race);
    if race_a != race_b {
        let (board, race) = if race_a {
            (&gb.game, &ga.game)
        } else {
            (&ga.game, &gb.game)
        };
        return Err(Failure::new(format!(
            "error: `{board}` is a board game and `{race}` a race game: compare sets two games of the same kind side by side"
        )));
    }
    let plan = lab.plan(Shard::default());
    // Both games and their agents before any file is opened.
    let ready_a = lab.ready(&plan, &ga, err)?;
    let ready_b = lab.ready(&plan, &gb, err)?;
    lab.outputs(super::paths::Files::new().game(&ga.game).game(&gb.game))
        .check()?;
    lab.check_outputs()?;
    let pool = lab.pool()?;
    let bar = lab.progress(2 * lab.games);
    let mut csv = lab.csv_sink()?;
    // A signal ends `compare` at once: half a comparison says nothing.
    let stop = crate::lab::Stop::default();
    let mut none = None;
    let how = How {
        pool: &pool,
        bar: &bar,
        stop: &stop,
    };
    let a = lab.run_game(&plan, &ga, &ready_a, &how, &mut sinks(&mut csv, &mut none))?;
    let b = lab.run_game(&plan, &gb, &ready_b, &how, &mut sinks(&mut csv, &mut none))?;
    bar.finish_and_clear();
    // The report first: a file that can't be written loses no results;
    // and the files are written when the report's reader has gone (`| head`).
    let shown = if lab.json {
        writeln!(out, "{}", to_line(&CompareReport::of(&a, &b)))
    } else {
        write!(
            out,
            "{}",
            text::compare_report(&lab.heading(&[&a, &b]), &a, &b)
        )
    }
    .and_then(|()| out.flush());
    lab.write_files(&[&a, &b])?;
    shown?;
    Ok(0)
}
