//! `--csv FILE`: one row per game, written with the `csv` crate (quoting
//! where a field needs it). Columns: `game` (the game as typed), `index`
//! (from 1), `seed`, `winner` (the side, or `draw`), `seat` (from 1, empty
//! for a draw), `reason`, `plies`, `lead_changes`, `turns_lost`, then one
//! column per rule event (spaces as `_`) with its count; in a game whose
//! rules score a win (and only there, so that every other game's rows are
//! unchanged), then [`SCORE_COLUMNS`]: `points` (the winner's, empty for a
//! draw) and `score` (the name the rules give that score, empty when they
//! give none).

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use crate::lab::{GameRow, LabError, RowSink, RunInfo};

/// The first columns, before the events.
pub const COLUMNS: [&str; 9] = [
    "game",
    "index",
    "seed",
    "winner",
    "seat",
    "reason",
    "plies",
    "lead_changes",
    "turns_lost",
];

/// The last columns, in a game whose rules score a win.
pub const SCORE_COLUMNS: [&str; 2] = ["points", "score"];

/// A CSV file taking the rows of one or more runs.
pub struct CsvSink {
    path: PathBuf,
    writer: csv::Writer<File>,
    header: bool,
}

impl CsvSink {
    /// Creates the file (or, with `append`, adds to it: the header is
    /// already there).
    pub fn open(path: &Path, append: bool) -> Result<CsvSink, LabError> {
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(path)
            .map_err(|e| write_error(path, e))?;
        Ok(CsvSink {
            path: path.to_path_buf(),
            writer: csv::WriterBuilder::new().flexible(true).from_writer(file),
            header: !append,
        })
    }

    fn fail(&self, e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> LabError {
        write_error(&self.path, e)
    }
}

fn write_error(path: &Path, e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> LabError {
    LabError::Write {
        path: path.to_path_buf(),
        error: e.into(),
    }
}

impl RowSink for CsvSink {
    fn rows(&mut self, info: &RunInfo, rows: &[GameRow]) -> Result<(), LabError> {
        if self.header {
            self.header = false;
            let mut head: Vec<String> = COLUMNS.iter().map(|c| (*c).to_string()).collect();
            head.extend(info.event_names.iter().map(|e| e.replace(' ', "_")));
            if info.scored() {
                head.extend(SCORE_COLUMNS.iter().map(|c| (*c).to_string()));
            }
            self.writer.write_record(&head).map_err(|e| self.fail(e))?;
        }
        for r in rows {
            let (winner, seat) = match r.winner {
                Some(w) => (
                    info.seats.get(w).map_or("?", String::as_str).to_string(),
                    (w + 1).to_string(),
                ),
                None => ("draw".to_string(), String::new()),
            };
            let mut rec = vec![
                info.label.clone(),
                (r.index + 1).to_string(),
                r.seed.to_string(),
                winner,
                seat,
                r.reason.clone(),
                r.plies.to_string(),
                r.lead_changes.to_string(),
                r.skips.to_string(),
            ];
            rec.extend(
                (0..info.event_names.len())
                    .map(|k| r.events.get(k).copied().unwrap_or(0).to_string()),
            );
            if info.scored() {
                rec.push(r.points.map(|p| p.to_string()).unwrap_or_default());
                rec.push(
                    r.points
                        .and_then(|p| info.score_name(p))
                        .unwrap_or_default()
                        .to_string(),
                );
            }
            self.writer.write_record(&rec).map_err(|e| self.fail(e))?;
        }
        self.writer.flush().map_err(|e| self.fail(e))
    }
}
