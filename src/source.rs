//! Source files and spans, and how rule files are found (`Loader`). Spans
//! are byte offsets; they become 1-based line:column only when a diagnostic
//! is rendered.

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
    /// `extends name` (`None` for the file being checked). The error is a
    /// short reason, shown under the `extends`.
    fn load(&self, name: &str, base: Option<&str>) -> Result<Source, String>;
}

/// Loads only the bundled games (`NAME`, `variants/NAME`, with or
/// without `.rules`).
#[derive(Clone, Copy, Debug, Default)]
pub struct BundledLoader;

impl Loader for BundledLoader {
    fn load(&self, name: &str, _base: Option<&str>) -> Result<Source, String> {
        let name = name.strip_suffix(".rules").unwrap_or(name);
        crate::bundled::get(name)
            .map(|text| Source {
                name: name.to_string(),
                text: text.to_string(),
            })
            .ok_or_else(|| format!("no bundled game is called `{name}`"))
    }
}
