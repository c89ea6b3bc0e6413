//! Source files and spans, and how rule files are found (`Loader`). Spans
//! are byte offsets; they become 1-based line:column only when a diagnostic
//! is rendered. Also the one bounded reader of text files ([`read_text`]):
//! every front end that reads a rule file from disk goes through it.

use std::io::Read;
use std::path::{Path, PathBuf};

/// Which loaded source file a span points into (an index into `SourceMap`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FileId(pub u16);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// First byte.
    pub begin: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from `begin` to `end` in `file`.
    pub fn new(file: FileId, begin: usize, end: usize) -> Span {
        Span {
            file,
            begin: u32::try_from(begin).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    }

    /// The smallest span that covers both.
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            begin: self.begin.min(other.begin),
            end: self.end.max(other.end),
        }
    }
}

/// One loaded source file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics (a path or a bundled name).
    pub name: String,
    /// The text.
    pub text: String,
    /// Byte offsets where lines start.
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// A file with its line table.
    pub fn new(name: String, text: String) -> SourceFile {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceFile {
            name,
            text,
            line_starts,
        }
    }

    /// The 0-based line that holds byte `offset`.
    pub fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next.saturating_sub(1),
        }
    }

    /// The byte range of 0-based line `line`, with its line break.
    pub fn line_range(&self, line: usize) -> Option<std::ops::Range<usize>> {
        let begin = *self.line_starts.get(line)?;
        let end = self
            .line_starts
            .get(line + 1)
            .copied()
            .unwrap_or(self.text.len());
        Some(begin..end.max(begin))
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line_index(offset);
        let begin = self.line_starts.get(line).copied().unwrap_or(0);
        let column = self
            .text
            .get(begin..offset.min(self.text.len()))
            .map_or(0, |s| s.chars().count());
        (line + 1, column + 1)
    }
}

/// Every source file loaded for one check: the file itself and the files it
/// extends.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: String, text: String) -> FileId {
        let id = FileId(u16::try_from(self.files.len()).unwrap_or(u16::MAX));
        self.files.push(SourceFile::new(name, text));
        id
    }

    /// A file by id.
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(usize::from(id.0))
    }

    /// The number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file is loaded.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The text a span covers ("" if it is out of range).
    pub fn snippet(&self, span: Span) -> &str {
        self.get(span.file)
            .and_then(|f| f.text.get(span.begin as usize..span.end as usize))
            .unwrap_or("")
    }

    /// `file:line:col` of the start of a span, 1-based.
    pub fn location(&self, span: Span) -> Option<(String, usize, usize)> {
        let file = self.get(span.file)?;
        let (line, col) = file.line_col(span.begin as usize);
        Some((file.name.clone(), line, col))
    }
}

impl<'a> codespan_reporting::files::Files<'a> for SourceMap {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        self.get(id)
            .map(|f| f.name.as_str())
            .ok_or(codespan_reporting::files::Error::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        self.get(id)
            .map(|f| f.text.as_str())
            .ok_or(codespan_reporting::files::Error::FileMissing)
    }

    fn line_index(
        &'a self,
        id: FileId,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        self.get(id)
            .map(|f| f.line_index(byte_index))
            .ok_or(codespan_reporting::files::Error::FileMissing)
    }

    fn line_range(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        let file = self
            .get(id)
            .ok_or(codespan_reporting::files::Error::FileMissing)?;
        file.line_range(line_index)
            .ok_or(codespan_reporting::files::Error::LineTooLarge {
                given: line_index,
                max: file.line_starts.len().saturating_sub(1),
            })
    }
}

/// A rule file's text and the name diagnostics call it by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The display name: a path, or a bundled name like `variants/NAME`.
    pub name: String,
    /// The text.
    pub text: String,
}

/// Finds rule files by name.
pub trait Loader {
    /// The file called `name`; `base` is the name of the file that says
    /// `extends name` (`None` for the file being checked). The error's
    /// `Display` is a short reason, shown under the `extends`.
    fn load(&self, name: &str, base: Option<&str>) -> Result<Source, LoadError>;
}

/// Why a [`Loader`] found no rule file of a name.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadError {
    /// No bundled game has the name (only bundled games were looked at: a
    /// bundled file extends bundled games).
    NoBundledGame {
        /// The name asked for.
        name: String,
    },
    /// The file was found and [`read_text`] refused it.
    Read(ReadError),
    /// A reason of the loader's own: a front end's (a name outside its
    /// folder, a name found nowhere it looks), or a test's.
    Loader(Box<dyn std::error::Error + Send + Sync>),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NoBundledGame { name } => write!(f, "no bundled game is called `{name}`"),
            LoadError::Read(e) => e.fmt(f),
            LoadError::Loader(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::NoBundledGame { .. } => None,
            LoadError::Read(e) => Some(e),
            LoadError::Loader(e) => Some(e.as_ref()),
        }
    }
}

impl From<ReadError> for LoadError {
    fn from(e: ReadError) -> LoadError {
        LoadError::Read(e)
    }
}

/// Loads only the bundled games (`NAME`, `variants/NAME`, with or
/// without `.rules`).
#[derive(Clone, Copy, Debug, Default)]
pub struct BundledLoader;

impl Loader for BundledLoader {
    fn load(&self, name: &str, _base: Option<&str>) -> Result<Source, LoadError> {
        let name = name.strip_suffix(".rules").unwrap_or(name);
        crate::bundled::get(name)
            .map(|text| Source {
                name: name.to_string(),
                text: text.to_string(),
            })
            .ok_or_else(|| LoadError::NoBundledGame {
                name: name.to_string(),
            })
    }
}

/// The largest rule file read, in bytes (docs/limits.md): the bundled games
/// are a few kilobytes, and a file this size is checked in about a second.
pub const MAX_RULE_FILE: u64 = 1 << 20;

/// Why [`read_text`] or [`read_bytes`] refused a file. The `Display` is a
/// reason that follows the file's name ("can't read `x.rules`: ...").
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// The file system failed: finding, opening or reading the file.
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        error: std::io::Error,
    },
    /// It is a directory.
    Directory {
        /// What the file was to be ("a rule file").
        what: &'static str,
    },
    /// It is not a regular file: a device, a pipe.
    NotAFile {
        /// What the file was to be.
        what: &'static str,
    },
    /// It is larger than the limit.
    TooLarge {
        /// Its size in bytes (as far as it was read).
        size: u64,
        /// The limit in bytes.
        limit: u64,
        /// What the file was to be.
        what: &'static str,
    },
    /// It is not UTF-8 text.
    NotText {
        /// The line (from 1) of the first byte that is not UTF-8.
        line: usize,
    },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io { path, error } => write!(f, "can't read `{}`: {error}", path.display()),
            ReadError::Directory { what } => write!(f, "it is a directory, not {what}"),
            ReadError::NotAFile { what } => write!(
                f,
                "it is not a regular file (a device or a pipe), so it can't be {what}"
            ),
            ReadError::TooLarge { size, limit, what } => write!(
                f,
                "it is {size} bytes, and {what} may be at most {} (see docs/limits.md)",
                size_words(*limit)
            ),
            ReadError::NotText { line } => write!(
                f,
                "it is not UTF-8 text: line {line} has a byte that is not (save the file as UTF-8)"
            ),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads a text file of at most `max` bytes. Refuses ([`ReadError`]) what
/// is not a regular file (a directory, a device such as /dev/zero), a file
/// past the limit (without reading more than `max + 1` bytes of it), and
/// text that is not UTF-8 (naming the line of the first bad byte). `what`
/// names the file in the message ("a rule file"). A UTF-8 byte order mark
/// at the start (some editors write one) is skipped: the text, and so every
/// span and column, is what follows it.
pub fn read_text(path: &Path, max: u64, what: &'static str) -> Result<String, ReadError> {
    let mut bytes = read_bytes(path, max, what)?;
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..good].iter().filter(|&&b| b == b'\n').count();
        ReadError::NotText { line }
    })
}

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Reads the bytes of a file of at most `max` bytes, refusing what is not a
/// regular file and a file past the limit as [`read_text`] does.
pub fn read_bytes(path: &Path, max: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    let io = |error| ReadError::Io {
        path: path.to_path_buf(),
        error,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(ReadError::Directory { what });
    }
    if !meta.is_file() {
        return Err(ReadError::NotAFile { what });
    }
    let too_big = |size: u64| ReadError::TooLarge {
        size,
        limit: max,
        what,
    };
    if meta.len() > max {
        return Err(too_big(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    // Room for the whole file at once (it is at most `max`): no copies
    // while the buffer grows, so memory is the file's size.
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0).saturating_add(1));
    file.take(max + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// `1 MiB`, `64 KiB`, `100 bytes`.
fn size_words(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}
