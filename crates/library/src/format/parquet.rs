//! `--parquet FILE`: one row per game as a Parquet file (the `parquet`
//! crate, plain pages, no compression), and the reading of such files back
//! for `merge`.
//!
//! Columns: `game` (the game as typed), `index` (from 1), `seed`, `winner`
//! (the side, or `draw`), `seat` (from 1, null for a draw), `reason`,
//! `plies`, `lead_changes`, `turns_lost`, `sides` and `agents` (in seat
//! order, comma-separated), then one column per rule event (spaces as `_`)
//! with its count; in a game whose rules score a win (only there: every
//! other game's file is unchanged), then `points` (the winner's, null for a
//! draw) and `score` (the name the rules give that score, null when they
//! give none). The file's key-value metadata holds, under
//! [`META_KEY`], the run as JSON ([`ShardMeta`]): every setting that changes
//! the games (and a SHA-256 of each rule file's text), what `merge` needs to
//! print the report of the whole run and to refuse shards of runs that
//! differ ([`one_run`]). Under [`CHECK_KEY`], written when the file is
//! closed, are the number of rows and SHA-256 checksums of the run's JSON and
//! of the rows' values in order: a shard read back is validated value by
//! value and against them, so a damaged file is an error naming it, never a
//! different report.
//!
//! Rows are written as row groups of up to [`ROW_GROUP`] games; the file is
//! readable once it is closed ([`ParquetSink::close`]), which `simulate`
//! does also when it is stopped by Ctrl-C or SIGTERM.

use std::fs::File;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::{IntType, LogicalType, Repetition, Type as Physical};
use parquet::data_type::{ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::record::{Field, Row};
use parquet::schema::types::Type;
use sha2::{Digest, Sha256};

use crate::agents::arena::game_seed;
use crate::agents::Strength;
use crate::lab::merge::Rows;
use crate::lab::{GameRow, LabError, Plan, RowSink, RunInfo, Shard};
use crate::source::{FileId, SourceMap};

/// The metadata key of the run.
pub const META_KEY: &str = "rulebook.run";

/// The metadata key of the rows' count and checksums ([`ShardCheck`]),
/// written when the file is closed.
pub const CHECK_KEY: &str = "rulebook.check";

/// The layout of [`ShardMeta`] written now for a game without score
/// rules. Layout 1 (before the rules' fingerprint, `--max-plies` and the
/// checksums) is refused.
pub const VERSION: u32 = 2;

/// The layout written for a game whose rules score a win: layout 2 with
/// the run's `scores` and the columns `points` and `score`. An older
/// rulebook calls it a newer shard rather than a damaged one.
pub const SCORED_VERSION: u32 = 3;

/// Rows per row group.
pub const ROW_GROUP: usize = 8192;

/// One rule file of a run: its name as loaded and a SHA-256 of its text.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RuleFile {
    /// The name it was loaded by (a path or a bundled name).
    pub name: String,
    /// The SHA-256 of its text, in lower-case hex.
    pub sha256: String,
}

/// The fingerprint of the rules as loaded: each file (the one named, then
/// those it extends, in the order loaded) with a hash of its text.
pub fn fingerprint(sources: &SourceMap) -> Vec<RuleFile> {
    (0..sources.len())
        .filter_map(|i| u16::try_from(i).ok())
        .filter_map(|i| sources.get(FileId(i)))
        .map(|f| RuleFile {
            name: f.name.clone(),
            sha256: hex(&Sha256::digest(f.text.as_bytes())),
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What changes the games of a run besides its [`Plan`]: the ply limit
/// and the rules as loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `--max-plies`.
    pub max_plies: u32,
    /// The rule files ([`fingerprint`]).
    pub rules: Vec<RuleFile>,
}

/// The run a file belongs to, kept in its metadata: every setting that
/// changes its games.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ShardMeta {
    /// The version of this layout ([`VERSION`]).
    pub version: u32,
    /// The version of rulebook that wrote it.
    pub rulebook: String,
    /// The game and its players.
    pub run: RunInfo,
    /// Games in the whole run.
    pub games: usize,
    /// The run's seed.
    pub seed: u64,
    /// Milliseconds per move, if given.
    pub think_ms: Option<u64>,
    /// Playouts per move, if given.
    pub playouts: Option<u32>,
    /// Search depth, if given.
    pub depth: Option<u32>,
    /// A game still going after this many plies is drawn.
    pub max_plies: u32,
    /// The rule files as loaded, each with the hash of its text.
    pub rules: Vec<RuleFile>,
    /// This shard, from 0.
    pub shard: usize,
    /// The number of shards.
    pub shards: usize,
}

/// What is written when a shard is closed: its rows and their checksums.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardCheck {
    /// The number of rows.
    pub rows: u64,
    /// The SHA-256 of the run's JSON (the value under [`META_KEY`]).
    pub meta_sha256: String,
    /// The SHA-256 of the run's JSON and then of every row's values, in
    /// order ([`hash_row`]).
    pub sha256: String,
}

impl ShardMeta {
    /// The metadata of a shard of `plan`.
    pub fn new(plan: &Plan, run: &RunInfo, settings: &Settings) -> ShardMeta {
        ShardMeta {
            version: layout(run),
            rulebook: env!("CARGO_PKG_VERSION").to_string(),
            run: run.clone(),
            games: plan.games,
            seed: plan.seed,
            think_ms: plan.strength.think.map(|t| t.as_millis() as u64),
            playouts: plan.strength.playouts,
            depth: plan.strength.depth,
            max_plies: settings.max_plies,
            rules: settings.rules.clone(),
            shard: plan.shard.index,
            shards: plan.shard.count,
        }
    }

    /// The agents' strength.
    pub fn strength(&self) -> Strength {
        Strength {
            think: self.think_ms.map(std::time::Duration::from_millis),
            playouts: self.playouts,
            depth: self.depth,
        }
    }

    /// Whether two files are shards of the same run.
    pub fn same_run(&self, other: &ShardMeta) -> bool {
        ShardMeta {
            shard: other.shard,
            shards: other.shards,
            ..self.clone()
        } == *other
            && self.shards == other.shards
    }

    /// The shard's part of the run.
    fn part(&self) -> Shard {
        Shard {
            index: self.shard,
            count: self.shards,
        }
    }
}

/// The layout of [`ShardMeta`] written for a run: [`SCORED_VERSION`]
/// when its game scores a win, [`VERSION`] otherwise.
fn layout(run: &RunInfo) -> u32 {
    if run.scored() {
        SCORED_VERSION
    } else {
        VERSION
    }
}

/// How the run of `b` (the file `bn`) differs from that of `a` (`an`), in
/// words, the first difference found; `None` when they are shards of one
/// run.
pub fn difference(a: &ShardMeta, an: &str, b: &ShardMeta, bn: &str) -> Option<String> {
    let flag = |name: &str, v: Option<String>| match v {
        Some(v) => format!("--{name} {v}"),
        None => format!("no --{name}"),
    };
    let played = |what_b: String, what_a: String| {
        Some(format!("{bn} was played with {what_b}, {an} with {what_a}"))
    };
    if a.rulebook != b.rulebook {
        return Some(format!(
            "{bn} was written by rulebook {}, {an} by rulebook {}",
            b.rulebook, a.rulebook
        ));
    }
    if a.run.label != b.run.label {
        return played(
            format!("the game `{}`", b.run.label),
            format!("`{}`", a.run.label),
        );
    }
    if a.rules != b.rules {
        return Some(rules_difference(&a.rules, an, &b.rules, bn));
    }
    if a.run.seats != b.run.seats {
        return played(
            format!("{} players ({})", b.run.seats.len(), b.run.seats.join(", ")),
            format!("{} ({})", a.run.seats.len(), a.run.seats.join(", ")),
        );
    }
    if a.run.agents != b.run.agents {
        return played(
            format!("--agents {}", b.run.agents.join(",")),
            format!("--agents {}", a.run.agents.join(",")),
        );
    }
    let settings: [(&str, Option<String>, Option<String>); 7] = [
        (
            "games",
            Some(a.games.to_string()),
            Some(b.games.to_string()),
        ),
        ("seed", Some(a.seed.to_string()), Some(b.seed.to_string())),
        (
            "max-plies",
            Some(a.max_plies.to_string()),
            Some(b.max_plies.to_string()),
        ),
        (
            "playouts",
            a.playouts.map(|v| v.to_string()),
            b.playouts.map(|v| v.to_string()),
        ),
        (
            "depth",
            a.depth.map(|v| v.to_string()),
            b.depth.map(|v| v.to_string()),
        ),
        (
            "think",
            a.think_ms.map(|v| v.to_string()),
            b.think_ms.map(|v| v.to_string()),
        ),
        (
            "shard",
            Some(format!("{}/{}", a.shard, a.shards)),
            Some(format!("{}/{}", b.shard, b.shards)),
        ),
    ];
    for (name, va, vb) in settings {
        if name == "shard" && a.shards == b.shards {
            continue;
        }
        if va != vb {
            return played(flag(name, vb), flag(name, va));
        }
    }
    if a.same_run(b) {
        None
    } else {
        Some(format!(
            "{bn} and {an} name the game's title, sides or rule events differently"
        ))
    }
}

/// How two fingerprints of rules differ, in words.
fn rules_difference(a: &[RuleFile], an: &str, b: &[RuleFile], bn: &str) -> String {
    let names = |r: &[RuleFile]| {
        r.iter()
            .map(|f| format!("`{}`", f.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (fa, fb) in a.iter().zip(b) {
        if fa.name == fb.name && fa.sha256 != fb.sha256 {
            return format!(
                "{bn} was played with other rules than {an}: the text of `{}` differs (the file was edited between the shards)",
                fa.name
            );
        }
    }
    format!(
        "{bn} was played with other rules than {an}: rule files {}, and {}",
        names(b),
        names(a)
    )
}

/// Checks that the files are whole shards of one run: the first
/// difference of a file's run from the first file's, naming both; a shard
/// whose run was stopped.
pub fn one_run(files: &[ShardFile]) -> Result<(), LabError> {
    let Some(first) = files.first() else {
        return Ok(());
    };
    let an = first.path.display().to_string();
    for f in files {
        let bn = f.path.display().to_string();
        if let Some(why) = difference(&first.meta, &an, &f.meta, &bn) {
            return Err(LabError::OtherRun {
                file: bn,
                first: an,
                why,
            });
        }
    }
    files.iter().try_for_each(ShardFile::whole)
}

/// A row as the file stores it: the counts at most `i32::MAX`.
fn stored(r: &GameRow) -> GameRow {
    let clamp = |v: u32| v.min(i32::MAX as u32);
    GameRow {
        plies: clamp(r.plies),
        lead_changes: clamp(r.lead_changes),
        skips: clamp(r.skips),
        events: r.events.iter().map(|&e| clamp(e)).collect(),
        ..r.clone()
    }
}

/// Feeds the values of a row, in a fixed order and layout, to a hash; the
/// points only in a game whose rules score a win (`scored`).
pub fn hash_row(h: &mut Sha256, r: &GameRow, scored: bool) {
    h.update(r.index.to_le_bytes());
    h.update(r.seed.to_le_bytes());
    match r.winner {
        Some(w) => {
            h.update([1]);
            h.update((w as u64).to_le_bytes());
        }
        None => h.update([0]),
    }
    h.update((r.reason.len() as u64).to_le_bytes());
    h.update(r.reason.as_bytes());
    for v in [r.plies, r.lead_changes, r.skips] {
        h.update(v.to_le_bytes());
    }
    h.update((r.events.len() as u64).to_le_bytes());
    for e in &r.events {
        h.update(e.to_le_bytes());
    }
    if scored {
        match r.points {
            Some(p) => {
                h.update([1]);
                h.update(p.to_le_bytes());
            }
            None => h.update([0]),
        }
    }
}

type Col = Result<Arc<Type>, LabError>;

fn column(name: &str, physical: Physical, logical: Option<LogicalType>, optional: bool) -> Col {
    let repetition = if optional {
        Repetition::OPTIONAL
    } else {
        Repetition::REQUIRED
    };
    Type::primitive_type_builder(name, physical)
        .with_repetition(repetition)
        .with_logical_type(logical)
        .build()
        .map(Arc::new)
        .map_err(|e| LabError::Schema {
            column: Some(name.to_string()),
            error: e.into(),
        })
}

fn string(name: &str) -> Col {
    column(name, Physical::BYTE_ARRAY, Some(LogicalType::String), false)
}

fn optional_string(name: &str) -> Col {
    column(name, Physical::BYTE_ARRAY, Some(LogicalType::String), true)
}

fn unsigned(name: &str) -> Col {
    column(
        name,
        Physical::INT64,
        Some(LogicalType::Integer(IntType {
            bit_width: 64,
            is_signed: false,
        })),
        false,
    )
}

fn int(name: &str, optional: bool) -> Col {
    column(name, Physical::INT32, None, optional)
}

/// The schema of a run with these rule events (and the points and score
/// when its game scores a win).
fn schema(events: &[String], scored: bool) -> Result<Arc<Type>, LabError> {
    let mut fields = vec![
        string("game")?,
        unsigned("index")?,
        unsigned("seed")?,
        string("winner")?,
        int("seat", true)?,
        string("reason")?,
        int("plies", false)?,
        int("lead_changes", false)?,
        int("turns_lost", false)?,
        string("sides")?,
        string("agents")?,
    ];
    for e in events {
        fields.push(int(&e.replace(' ', "_"), false)?);
    }
    if scored {
        fields.push(int("points", true)?);
        fields.push(optional_string("score")?);
    }
    Type::group_type_builder("game")
        .with_fields(fields)
        .build()
        .map(Arc::new)
        .map_err(|e| LabError::Schema {
            column: None,
            error: e.into(),
        })
}

/// A Parquet file taking the rows of one run.
pub struct ParquetSink {
    path: PathBuf,
    meta: ShardMeta,
    writer: Option<SerializedFileWriter<File>>,
    buffer: Vec<GameRow>,
    /// The run's JSON as written under [`META_KEY`].
    meta_text: String,
    /// The run's JSON, then the rows written so far.
    hash: Sha256,
    rows: u64,
}

impl ParquetSink {
    /// Creates the file of a shard of `plan` played with `settings`; it gets
    /// its columns when the first rows come.
    pub fn create(path: &Path, plan: &Plan, settings: &Settings) -> Result<ParquetSink, LabError> {
        // Fails early on a path that can't be written.
        File::create(path).map_err(|e| fail(path, e))?;
        Ok(ParquetSink {
            path: path.to_path_buf(),
            meta: ShardMeta::new(
                plan,
                &RunInfo {
                    label: String::new(),
                    title: String::new(),
                    seats: Vec::new(),
                    agents: Vec::new(),
                    event_names: Vec::new(),
                    scores: None,
                },
                settings,
            ),
            writer: None,
            buffer: Vec::new(),
            meta_text: String::new(),
            hash: Sha256::new(),
            rows: 0,
        })
    }

    fn start(&mut self, info: &RunInfo) -> Result<(), LabError> {
        self.meta.run = info.clone();
        self.meta.version = layout(info);
        let meta = serde_json::to_string(&self.meta).map_err(|e| fail(&self.path, e))?;
        self.hash = Sha256::new_with_prefix(meta.as_bytes());
        self.meta_text = meta.clone();
        let props = WriterProperties::builder()
            .set_created_by(format!("rulebook {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(vec![KeyValue::new(META_KEY.to_string(), meta)]))
            .build();
        let file = File::create(&self.path).map_err(|e| fail(&self.path, e))?;
        let writer = SerializedFileWriter::new(
            file,
            schema(&info.event_names, info.scored())?,
            Arc::new(props),
        )
        .map_err(|e| fail(&self.path, e))?;
        self.writer = Some(writer);
        Ok(())
    }

    /// Writes the buffered rows as one row group.
    fn flush(&mut self) -> Result<(), LabError> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.buffer);
        let path = self.path.clone();
        let info = self.meta.run.clone();
        let Some(writer) = self.writer.as_mut() else {
            return Ok(());
        };
        write_group(writer, &info, &rows).map_err(|e| fail(&path, e))
    }

    /// Writes what is left and the rows' checksum, and closes the file,
    /// which makes it readable.
    pub fn close(mut self) -> Result<(), LabError> {
        if self.writer.is_none() {
            let info = self.meta.run.clone();
            self.start(&info)?;
        }
        self.flush()?;
        let check = ShardCheck {
            rows: self.rows,
            meta_sha256: hex(&Sha256::digest(self.meta_text.as_bytes())),
            sha256: hex(&self.hash.clone().finalize()),
        };
        let check = serde_json::to_string(&check).map_err(|e| fail(&self.path, e))?;
        if let Some(mut w) = self.writer.take() {
            w.append_key_value_metadata(KeyValue::new(CHECK_KEY.to_string(), check));
            w.close().map_err(|e| fail(&self.path, e))?;
        }
        Ok(())
    }
}

impl RowSink for ParquetSink {
    fn rows(&mut self, info: &RunInfo, rows: &[GameRow]) -> Result<(), LabError> {
        if self.writer.is_none() {
            self.start(info)?;
        }
        for r in rows {
            let r = stored(r);
            hash_row(&mut self.hash, &r, self.meta.run.scored());
            self.rows += 1;
            self.buffer.push(r);
        }
        if self.buffer.len() >= ROW_GROUP {
            self.flush()?;
        }
        Ok(())
    }
}

fn fail(path: &Path, e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> LabError {
    LabError::Write {
        path: path.to_path_buf(),
        error: e.into(),
    }
}

/// Writes one row group.
fn write_group(
    writer: &mut SerializedFileWriter<File>,
    info: &RunInfo,
    rows: &[GameRow],
) -> parquet::errors::Result<()> {
    let strings = |f: &dyn Fn(&GameRow) -> String| -> Vec<ByteArray> {
        rows.iter()
            .map(|r| ByteArray::from(f(r).as_str()))
            .collect()
    };
    let ints = |f: &dyn Fn(&GameRow) -> u32| -> Vec<i32> {
        rows.iter()
            .map(|r| f(r).min(i32::MAX as u32) as i32)
            .collect()
    };
    let sides = info.seats.join(",");
    let agents = info.agents.join(",");
    let events = info.event_names.len();
    let mut group = writer.next_row_group()?;
    let mut k = 0;
    while let Some(mut col) = group.next_column()? {
        match k {
            0 => strings(&|_| info.label.clone())
                .as_slice()
                .write(&mut col, None)?,
            1 => {
                let v: Vec<i64> = rows.iter().map(|r| (r.index + 1) as i64).collect();
                v.as_slice().write(&mut col, None)?;
            }
            2 => {
                let v: Vec<i64> = rows.iter().map(|r| r.seed as i64).collect();
                v.as_slice().write(&mut col, None)?;
            }
            3 => strings(&|r| match r.winner {
                Some(w) => info.seats.get(w).cloned().unwrap_or_else(|| "?".into()),
                None => "draw".into(),
            })
            .as_slice()
            .write(&mut col, None)?,
            4 => {
                let v: Vec<i32> = rows
                    .iter()
                    .filter_map(|r| r.winner.map(|w| (w + 1) as i32))
                    .collect();
                let def: Vec<i16> = rows.iter().map(|r| i16::from(r.winner.is_some())).collect();
                v.as_slice().write(&mut col, Some(&def))?;
            }
            5 => strings(&|r| r.reason.clone())
                .as_slice()
                .write(&mut col, None)?,
            6 => ints(&|r| r.plies).as_slice().write(&mut col, None)?,
            7 => ints(&|r| r.lead_changes).as_slice().write(&mut col, None)?,
            8 => ints(&|r| r.skips).as_slice().write(&mut col, None)?,
            9 => strings(&|_| sides.clone())
                .as_slice()
                .write(&mut col, None)?,
            10 => strings(&|_| agents.clone())
                .as_slice()
                .write(&mut col, None)?,
            e if e < 11 + events => ints(&|r| r.events.get(e - 11).copied().unwrap_or(0))
                .as_slice()
                .write(&mut col, None)?,
            e if e == 11 + events => {
                let v: Vec<i32> = rows
                    .iter()
                    .filter_map(|r| r.points.map(|p| p.min(i32::MAX as u32) as i32))
                    .collect();
                let def: Vec<i16> = rows.iter().map(|r| i16::from(r.points.is_some())).collect();
                v.as_slice().write(&mut col, Some(&def))?;
            }
            _ => {
                let names: Vec<&str> = rows
                    .iter()
                    .filter_map(|r| r.points.and_then(|p| info.score_name(p)))
                    .collect();
                let v: Vec<ByteArray> = names.iter().map(|n| ByteArray::from(*n)).collect();
                let def: Vec<i16> = rows
                    .iter()
                    .map(|r| i16::from(r.points.and_then(|p| info.score_name(p)).is_some()))
                    .collect();
                v.as_slice().write(&mut col, Some(&def))?;
            }
        }
        col.close()?;
        k += 1;
    }
    group.close()?;
    Ok(())
}

/// Values that fill one column.
trait ColumnValues {
    fn write(
        self,
        col: &mut parquet::file::writer::SerializedColumnWriter<'_>,
        def: Option<&[i16]>,
    ) -> parquet::errors::Result<()>;
}

impl ColumnValues for &[ByteArray] {
    fn write(
        self,
        col: &mut parquet::file::writer::SerializedColumnWriter<'_>,
        def: Option<&[i16]>,
    ) -> parquet::errors::Result<()> {
        col.typed::<ByteArrayType>().write_batch(self, def, None)?;
        Ok(())
    }
}

impl ColumnValues for &[i64] {
    fn write(
        self,
        col: &mut parquet::file::writer::SerializedColumnWriter<'_>,
        def: Option<&[i16]>,
    ) -> parquet::errors::Result<()> {
        col.typed::<Int64Type>().write_batch(self, def, None)?;
        Ok(())
    }
}

impl ColumnValues for &[i32] {
    fn write(
        self,
        col: &mut parquet::file::writer::SerializedColumnWriter<'_>,
        def: Option<&[i16]>,
    ) -> parquet::errors::Result<()> {
        col.typed::<Int32Type>().write_batch(self, def, None)?;
        Ok(())
    }
}

/// A shard file opened for `merge`: its run, and its rows as they are read.
pub struct ShardFile {
    /// The run it belongs to.
    pub meta: ShardMeta,
    reader: SerializedFileReader<File>,
    path: PathBuf,
    meta_text: String,
    check: ShardCheck,
}

fn read_fail(path: &Path, e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> LabError {
    LabError::Read {
        path: path.to_path_buf(),
        error: e.into(),
    }
}

/// The error of a file whose bytes are not those written.
fn damaged(path: &Path, what: &str) -> LabError {
    LabError::Damaged {
        path: path.to_path_buf(),
        what: what.to_string(),
    }
}

/// Runs a call into the Parquet reader; a panic inside it (on a damaged
/// file the reader does not check) is an error naming the file, and its
/// message is not printed (on this thread only: the panic hook in place
/// before still reports every other panic).
fn guarded<T>(path: &Path, f: impl FnOnce() -> T) -> Result<T, LabError> {
    thread_local! {
        static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let before = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                before(info);
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    result.map_err(|_| damaged(path, "the Parquet reader failed on its bytes"))
}

/// Whether the file's schema is the one written for these rule events
/// (and points): the same columns, names, types and nullability, in order.
fn schema_fits(found: &Type, events: &[String], scored: bool) -> bool {
    let Ok(expected) = schema(events, scored) else {
        return false;
    };
    let (found, expected) = (found.get_fields(), expected.get_fields());
    found.len() == expected.len()
        && found.iter().zip(expected).all(|(f, e)| {
            f.is_primitive()
                && f.name() == e.name()
                && f.get_physical_type() == e.get_physical_type()
                && f.get_basic_info().has_repetition()
                && f.get_basic_info().repetition() == e.get_basic_info().repetition()
        })
}

impl ShardFile {
    /// Opens a file written by `simulate --parquet` and checks its
    /// metadata: its layout, the checksum of its run, its columns and
    /// its number of rows.
    pub fn open(path: &Path) -> Result<ShardFile, LabError> {
        let file = File::open(path).map_err(|e| read_fail(path, e))?;
        let reader =
            guarded(path, || SerializedFileReader::new(file))?.map_err(|e| read_fail(path, e))?;
        let value = |key: &str| {
            reader
                .metadata()
                .file_metadata()
                .key_value_metadata()
                .and_then(|kv| kv.iter().find(|k| k.key == key))
                .and_then(|k| k.value.clone())
        };
        let meta_text = value(META_KEY).ok_or_else(|| LabError::NotAShard {
            path: path.to_path_buf(),
        })?;
        let Some(check) = value(CHECK_KEY) else {
            let version = serde_json::from_str::<serde_json::Value>(&meta_text)
                .ok()
                .and_then(|v| v.get("version").and_then(serde_json::Value::as_u64));
            return Err(if version == Some(1) {
                LabError::OlderShard {
                    path: path.to_path_buf(),
                }
            } else {
                damaged(path, "no checksum in its metadata")
            });
        };
        let check: ShardCheck = serde_json::from_str(&check)
            .map_err(|_| damaged(path, "its checksum can't be read"))?;
        if hex(&Sha256::digest(meta_text.as_bytes())) != check.meta_sha256 {
            return Err(damaged(path, "its run doesn't match its checksum"));
        }
        let version = serde_json::from_str::<serde_json::Value>(&meta_text)
            .ok()
            .and_then(|v| v.get("version").and_then(serde_json::Value::as_u64));
        if version.is_some_and(|v| v > u64::from(SCORED_VERSION)) {
            return Err(LabError::NewerShard {
                path: path.to_path_buf(),
            });
        }
        let meta: ShardMeta =
            serde_json::from_str(&meta_text).map_err(|e| damaged(path, &e.to_string()))?;
        let run = &meta.run;
        if meta.version != layout(run)
            || meta.shards == 0
            || meta.shard >= meta.shards
            || run.seats.is_empty()
            || run.agents.len() != run.seats.len()
        {
            return Err(damaged(path, "its run is not one `simulate` writes"));
        }
        if !schema_fits(
            reader.metadata().file_metadata().schema(),
            &run.event_names,
            run.scored(),
        ) {
            return Err(damaged(path, "its columns are not those of its run"));
        }
        let planned = meta.part().len(meta.games) as u64;
        let rows = u64::try_from(reader.metadata().file_metadata().num_rows()).ok();
        if rows != Some(check.rows) || check.rows > planned {
            return Err(damaged(path, "its number of rows is not the one written"));
        }
        Ok(ShardFile {
            meta,
            reader,
            path: path.to_path_buf(),
            meta_text,
            check,
        })
    }

    /// Whether it holds every game of its shard: a shard whose run was
    /// stopped (Ctrl-C) holds fewer.
    pub fn whole(&self) -> Result<(), LabError> {
        let planned = self.meta.part().len(self.meta.games) as u64;
        if self.check.rows < planned {
            return Err(LabError::Stopped {
                path: self.path.clone(),
                rows: self.check.rows,
                planned,
                shard: self.meta.shard,
                shards: self.meta.shards,
            });
        }
        Ok(())
    }

    /// Its rows, in the order written (increasing index), each checked; the
    /// last is followed by an error if the rows don't match their checksum.
    pub fn rows(self) -> Rows<'static> {
        let hash = Sha256::new_with_prefix(self.meta_text.as_bytes());
        let path = self.path;
        let reader = self.reader;
        match guarded(&path, move || reader.into_iter()) {
            Ok(iter) => Box::new(ShardRows {
                iter: Box::new(iter),
                sides: self.meta.run.seats.join(","),
                agents: self.meta.run.agents.join(","),
                meta: self.meta,
                check: self.check,
                path,
                hash,
                read: 0,
                done: false,
            }),
            Err(e) => Box::new(std::iter::once(Err(e))),
        }
    }
}

/// The rows of a shard as they are read, checked one by one and, at the
/// end, against the checksum.
struct ShardRows {
    iter: Box<dyn Iterator<Item = parquet::errors::Result<Row>>>,
    meta: ShardMeta,
    check: ShardCheck,
    path: PathBuf,
    sides: String,
    agents: String,
    hash: Sha256,
    read: u64,
    done: bool,
}

impl ShardRows {
    /// The end of the rows: all there, and as written.
    fn finish(&mut self) -> Result<(), LabError> {
        if self.read != self.check.rows {
            return Err(damaged(&self.path, "rows are missing"));
        }
        if hex(&self.hash.clone().finalize()) != self.check.sha256 {
            return Err(damaged(&self.path, "its rows don't match their checksum"));
        }
        Ok(())
    }

    /// A game row from a Parquet row, every value checked against the run.
    fn row(&mut self, r: &Row) -> Result<GameRow, LabError> {
        let path = self.path.as_path();
        let meta = &self.meta;
        let events = meta.run.event_names.len();
        let bad = |what: &str| damaged(path, &format!("a wrong value in column {what}"));
        let fields: Vec<&Field> = r.get_column_iter().map(|(_, f)| f).collect();
        let scored = meta.run.scored();
        if fields.len() != 11 + events + if scored { 2 } else { 0 } {
            return Err(damaged(path, "a row of the wrong length"));
        }
        let text = |i: usize, what: &str| match fields.get(i) {
            Some(Field::Str(s)) => Ok(s.as_str()),
            _ => Err(bad(what)),
        };
        let ulong = |i: usize, what: &str| match fields.get(i) {
            Some(Field::ULong(v)) => Ok(*v),
            _ => Err(bad(what)),
        };
        let uint = |i: usize, what: &str| match fields.get(i) {
            Some(Field::Int(v)) => u32::try_from(*v).map_err(|_| bad(what)),
            _ => Err(bad(what)),
        };
        if self.read >= self.check.rows {
            return Err(damaged(path, "more rows than written"));
        }
        // The k-th row of shard I/N is game I + kN of the run.
        let expected =
            (meta.shard as u64).saturating_add(self.read.saturating_mul(meta.shards as u64));
        let index = ulong(1, "index")?
            .checked_sub(1)
            .filter(|&i| i == expected)
            .ok_or_else(|| bad("index"))?;
        let seed = ulong(2, "seed")?;
        if seed != game_seed(meta.seed, index) {
            return Err(bad("seed"));
        }
        let winner = match fields.get(4) {
            Some(Field::Int(s)) => Some(
                usize::try_from(i64::from(*s) - 1)
                    .ok()
                    .filter(|&w| w < meta.run.seats.len())
                    .ok_or_else(|| bad("seat"))?,
            ),
            Some(Field::Null) => None,
            _ => return Err(bad("seat")),
        };
        let winner_name = match winner {
            Some(w) => meta.run.seats.get(w).map_or("", String::as_str),
            None => "draw",
        };
        if text(0, "game")? != meta.run.label {
            return Err(bad("game"));
        }
        if text(3, "winner")? != winner_name {
            return Err(bad("winner"));
        }
        if text(9, "sides")? != self.sides {
            return Err(bad("sides"));
        }
        if text(10, "agents")? != self.agents {
            return Err(bad("agents"));
        }
        let row = GameRow {
            index,
            seed,
            winner,
            reason: text(5, "reason")?.to_string(),
            plies: uint(6, "plies")?,
            lead_changes: uint(7, "lead_changes")?,
            skips: uint(8, "turns_lost")?,
            events: (0..events)
                .map(|k| uint(11 + k, "of an event"))
                .collect::<Result<_, _>>()?,
            points: if scored {
                self.points(&fields, 11 + events)?
            } else {
                None
            },
        };
        hash_row(&mut self.hash, &row, scored);
        self.read += 1;
        Ok(row)
    }
}

impl ShardRows {
    /// The points of a row of a game that scores a win (at `at`, the score's
    /// name after them), checked: the name is the one the run gives them.
    fn points(&self, fields: &[&Field], at: usize) -> Result<Option<u32>, LabError> {
        let bad = |what: &str| damaged(&self.path, &format!("a wrong value in column {what}"));
        let points = match fields.get(at) {
            Some(Field::Int(p)) => Some(u32::try_from(*p).map_err(|_| bad("points"))?),
            Some(Field::Null) => None,
            _ => return Err(bad("points")),
        };
        let name = match fields.get(at + 1) {
            Some(Field::Str(s)) => Some(s.as_str()),
            Some(Field::Null) => None,
            _ => return Err(bad("score")),
        };
        if name != points.and_then(|p| self.meta.run.score_name(p)) {
            return Err(bad("score"));
        }
        Ok(points)
    }
}

impl Iterator for ShardRows {
    type Item = Result<GameRow, LabError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let iter = &mut self.iter;
        let next = match guarded(&self.path, || iter.next()) {
            Err(e) => Err(e),
            Ok(None) => {
                self.done = true;
                return self.finish().err().map(Err);
            }
            Ok(Some(Err(e))) => Err(damaged(&self.path, &e.to_string())),
            Ok(Some(Ok(r))) => self.row(&r),
        };
        if next.is_err() {
            self.done = true;
        }
        Some(next)
    }
}
