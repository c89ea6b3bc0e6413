//! What the prompts of board games (`board_game.rs`) and race games (`race.rs`)
//! share, so that neither imports the other: the line that says a fresh
//! seed, and what writing the record did, asked of any
//! [`crate::session::Session`].

use std::io::Write;
use std::path::Path;

use super::Failure;
use crate::record::Written;
use crate::session::Session;

/// The line that says a fresh seed.
pub(crate) fn seed_line(seed: u64) -> String {
    format!("seed {seed} (`--seed {seed}` plays this game again)")
}

/// Says what the last writes of the record of `session` did, when it is
/// news: a failure (the game goes on), or the record written again after
/// failures.
pub(crate) fn report_record(
    session: &mut impl Session,
    path: Option<&Path>,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    let name = path.map_or_else(String::new, |p| p.display().to_string());
    match session.record_news() {
        Written::Failed(why) => writeln!(
            err,
            "warning: can't write the record {name}: {why}; the game goes on, and `save FILE` writes it elsewhere"
        )?,
        Written::Recovered => writeln!(err, "note: the record {name} is written again, whole")?,
        Written::Ok | Written::StillFailing => {}
    }
    Ok(())
}

/// Asks a person who leaves a game with moves in it for a file to save it
/// to: the file name typed, or `None` (Enter, or the input ended) to leave
/// without saving.
pub(crate) fn ask_save_file(
    lines: &mut dyn super::prompt::Lines,
    out: &mut dyn Write,
) -> Result<Option<String>, Failure> {
    let prompt =
        "save the game before leaving? type a file name, or Enter to leave without saving> ";
    match lines.read(prompt, out)? {
        super::prompt::Line::Text(t) if !t.trim().is_empty() => Ok(Some(t.trim().to_string())),
        super::prompt::Line::Endless => Err(super::prompt::endless()),
        super::prompt::Line::End => {
            writeln!(out)?;
            Ok(None)
        }
        _ => Ok(None),
    }
}

/// The line that says how to go on with a game saved to `file`.
pub(crate) fn resume_line(file: &str) -> String {
    format!("`rulebook play {file}` resumes the game as saved")
}

/// What leaving a game says at the end: where the game is kept, if
/// anywhere (`saved`, a file written by `save`, or the record).
pub(crate) fn left_line(saved: Option<&str>) -> String {
    match saved {
        Some(file) => format!("game left; {}", resume_line(file)),
        None => "game left without saving".to_string(),
    }
}
