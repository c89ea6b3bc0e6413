//! `--parquet FILE`: one row per game as a Parquet file (the `parquet`
//! crate, plain pages, no compression), and the reading of such files back
//! for `merge`.
//!
//! Columns: `game` (the game as typed), `index` (from 1), `seed`, `winner`
//! (the side, or `draw`), `seat` (from 1, null for a draw), `reason`,
//! `plies`, `lead_changes`, `turns_lost`, `sides` and `agents` (in seat
//! order, comma-separated), then one column per rule event (spaces as `_`)
//! with its count. The file's key-value metadata holds, under
//! [`META_KEY`], the run as JSON ([`ShardMeta`]): what `merge` needs to
//! print the report of the whole run.
//!
//! Rows are written as row groups of up to [`ROW_GROUP`] games; the file is
//! readable once it is closed ([`ParquetSink::close`]), which `simulate`
//! does also when it is stopped by Ctrl-C or SIGTERM.

use std::fs::File;
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

use crate::agents::Strength;
use crate::lab::merge::Rows;
use crate::lab::{GameRow, LabError, Plan, RowSink, RunInfo};

/// The metadata key of the run.
pub const META_KEY: &str = "rulebook.run";

/// Rows per row group.
pub const ROW_GROUP: usize = 8192;

/// The run a file belongs to, kept in its metadata.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ShardMeta {
    /// The version of this layout (1).
    pub version: u32,
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
    /// This shard, from 0.
    pub shard: usize,
    /// The number of shards.
    pub shards: usize,
}

impl ShardMeta {
    /// The metadata of a shard of `plan`.
    pub fn new(plan: &Plan, run: &RunInfo) -> ShardMeta {
        ShardMeta {
            version: 1,
            run: run.clone(),
            games: plan.games,
            seed: plan.seed,
            think_ms: plan.strength.think.map(|t| t.as_millis() as u64),
            playouts: plan.strength.playouts,
            depth: plan.strength.depth,
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
        .map_err(|e| LabError(format!("error: parquet column {name}: {e}")))
}

fn string(name: &str) -> Col {
    column(name, Physical::BYTE_ARRAY, Some(LogicalType::String), false)
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

/// The schema of a run with these rule events.
fn schema(events: &[String]) -> Result<Arc<Type>, LabError> {
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
    Type::group_type_builder("game")
        .with_fields(fields)
        .build()
        .map(Arc::new)
        .map_err(|e| LabError(format!("error: parquet schema: {e}")))
}

/// A Parquet file taking the rows of one run.
pub struct ParquetSink {
    path: PathBuf,
    meta: ShardMeta,
    writer: Option<SerializedFileWriter<File>>,
    buffer: Vec<GameRow>,
}

impl ParquetSink {
    /// Creates the file of a shard of `plan`; it gets its columns when the
    /// first rows come.
    pub fn create(path: &Path, plan: &Plan) -> Result<ParquetSink, LabError> {
        // Fails early on a path that can't be written.
        File::create(path).map_err(|e| fail(path, &e))?;
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
                },
            ),
            writer: None,
            buffer: Vec::new(),
        })
    }

    fn start(&mut self, info: &RunInfo) -> Result<(), LabError> {
        self.meta.run = info.clone();
        let meta = serde_json::to_string(&self.meta).map_err(|e| fail(&self.path, &e))?;
        let props = WriterProperties::builder()
            .set_created_by(format!("rulebook {}", env!("CARGO_PKG_VERSION")))
            .set_key_value_metadata(Some(vec![KeyValue::new(META_KEY.to_string(), meta)]))
            .build();
        let file = File::create(&self.path).map_err(|e| fail(&self.path, &e))?;
        let writer = SerializedFileWriter::new(file, schema(&info.event_names)?, Arc::new(props))
            .map_err(|e| fail(&self.path, &e))?;
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
        write_group(writer, &info, &rows).map_err(|e| fail(&path, &e))
    }

    /// Writes what is left and closes the file, which makes it readable.
    pub fn close(mut self) -> Result<(), LabError> {
        if self.writer.is_none() {
            let info = self.meta.run.clone();
            self.start(&info)?;
        }
        self.flush()?;
        if let Some(w) = self.writer.take() {
            w.close().map_err(|e| fail(&self.path, &e))?;
        }
        Ok(())
    }
}

impl RowSink for ParquetSink {
    fn rows(&mut self, info: &RunInfo, rows: &[GameRow]) -> Result<(), LabError> {
        if self.writer.is_none() {
            self.start(info)?;
        }
        self.buffer.extend_from_slice(rows);
        if self.buffer.len() >= ROW_GROUP {
            self.flush()?;
        }
        Ok(())
    }
}

fn fail(path: &Path, e: &dyn std::fmt::Display) -> LabError {
    LabError(format!("error: can't write {}: {e}", path.display()))
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
            e => ints(&|r| r.events.get(e - 11).copied().unwrap_or(0))
                .as_slice()
                .write(&mut col, None)?,
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
}

fn read_fail(path: &Path, e: &dyn std::fmt::Display) -> LabError {
    LabError(format!("error: can't read {}: {e}", path.display()))
}

impl ShardFile {
    /// Opens a file written by `simulate --parquet`.
    pub fn open(path: &Path) -> Result<ShardFile, LabError> {
        let file = File::open(path).map_err(|e| read_fail(path, &e))?;
        let reader = SerializedFileReader::new(file).map_err(|e| read_fail(path, &e))?;
        let meta = reader
            .metadata()
            .file_metadata()
            .key_value_metadata()
            .and_then(|kv| kv.iter().find(|k| k.key == META_KEY))
            .and_then(|k| k.value.clone())
            .ok_or_else(|| {
                read_fail(
                    path,
                    &"no run in its metadata: not written by `simulate --parquet`",
                )
            })?;
        let meta: ShardMeta = serde_json::from_str(&meta).map_err(|e| read_fail(path, &e))?;
        Ok(ShardFile {
            meta,
            reader,
            path: path.to_path_buf(),
        })
    }

    /// Its rows, in the order written (increasing index).
    pub fn rows(self) -> Rows<'static> {
        let path = self.path;
        let events = self.meta.run.event_names.len();
        Box::new(self.reader.into_iter().map(move |r| {
            r.map_err(|e| read_fail(&path, &e))
                .and_then(|r| row(&r, events, &path))
        }))
    }
}

/// A game row from a Parquet row.
fn row(r: &Row, events: usize, path: &Path) -> Result<GameRow, LabError> {
    let bad = |what: &str| read_fail(path, &format!("column {what}"));
    let fields: Vec<&Field> = r.get_column_iter().map(|(_, f)| f).collect();
    let ulong = |i: usize, what: &str| match fields.get(i) {
        Some(Field::ULong(v)) => Ok(*v),
        Some(Field::Long(v)) => Ok(*v as u64),
        _ => Err(bad(what)),
    };
    let uint = |i: usize, what: &str| match fields.get(i) {
        Some(Field::Int(v)) => u32::try_from(*v).map_err(|_| bad(what)),
        _ => Err(bad(what)),
    };
    let index = ulong(1, "index")?
        .checked_sub(1)
        .ok_or_else(|| bad("index"))?;
    let winner = match fields.get(4) {
        Some(Field::Int(s)) => Some(usize::try_from(*s - 1).map_err(|_| bad("seat"))?),
        Some(Field::Null) => None,
        _ => return Err(bad("seat")),
    };
    let reason = match fields.get(5) {
        Some(Field::Str(s)) => s.clone(),
        _ => return Err(bad("reason")),
    };
    Ok(GameRow {
        index,
        seed: ulong(2, "seed")?,
        winner,
        reason,
        plies: uint(6, "plies")?,
        lead_changes: uint(7, "lead_changes")?,
        skips: uint(8, "turns_lost")?,
        events: (0..events)
            .map(|k| uint(11 + k, "of an event"))
            .collect::<Result<_, _>>()?,
    })
}
