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
