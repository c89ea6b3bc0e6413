//! Writing records and other files without ever losing what was there:
//! [`write_atomic`] replaces a file whole (a temporary file beside it,
//! fsync, rename, fsync of the folder), and [`Recorder`] writes a record as
//! the game goes, one whole line appended per turn, replaced atomically when
//! turns are taken back, and kept in memory (with a warning) while the disk
//! refuses it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The part of a temporary file's name after the target's name and before
/// the process id: `.NAME.rulebook-tmp.PID.RANDOM`. Such files are stale
/// when no process with that id runs (a kill during a save), and the next
/// save of the same file removes them.
const TMP_MARK: &str = ".rulebook-tmp.";

/// The file that writing to `path` writes: `path` itself, or the file a
/// symbolic link (or a chain of them) points to. Refuses anything that
/// exists and is not a regular file (a folder, a device, a pipe).
pub fn target(path: &Path) -> std::io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(path),
            Err(e) => return Err(e),
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            Ok(m) if m.is_file() => return Ok(path),
            Ok(m) => {
                let what = if m.is_dir() {
                    "a folder"
                } else {
                    "not a regular file"
                };
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!(
                        "{} is {what}: only a regular file is replaced",
                        path.display()
                    ),
                ));
            }
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("{}: too many symbolic links", path.display()),
    ))
}

/// The folder of `path` (`.` for a bare name) and its file name.
fn split(path: &Path) -> (PathBuf, String) {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    (dir, name)
}

/// Whether the process `pid` still runs (where the system tells; else it
/// is taken to run, and its file is left alone).
fn running(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

/// Removes the temporary files of `name` in `dir` left by processes that no
/// longer run (killed during a save).
fn remove_stale(dir: &Path, name: &str) {
    let prefix = format!(".{name}{TMP_MARK}");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            // `PID.RANDOM` (or a bare `PID`, as older versions named them).
            .and_then(|p| p.split('.').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !running(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes `contents` to `path` atomically: a reader (or a kill at any
/// moment) sees the old file or the new one, never a mix. A symbolic link
/// is followed and its target replaced; a path that is not a regular file
/// (a folder, `/dev/full`) is refused. The temporary file beside the target
/// is created exclusively under a name of its own (random letters): a
/// link planted at a name it might take is never followed, and writes of
/// the same file at once never share one (the last rename wins, each file
/// whole).
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let path = target(path)?;
    let (dir, name) = split(&path);
    remove_stale(&dir, &name);
    let prefix = format!(".{name}{TMP_MARK}{}.", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).rand_bytes(12);
    #[cfg(unix)]
    {
        // As a file created the usual way (the umask applies), not the
        // owner-only mode of a temporary file.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    // Removed when dropped unless renamed: on every error below.
    let mut tmp = builder.tempfile_in(&dir)?;
    tmp.write_all(contents)?;
    tmp.as_file().sync_all()?;
    tmp.persist(&path).map_err(|e| e.error)?;
    // The rename itself survives a crash once the folder is synced (where a
    // folder can be opened: not on every system).
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A record written as the game goes. Each line is appended whole (one
/// write, no fsync per line: a killed process loses nothing written, and a
/// line is never cut in half); turns taken back replace the file
/// atomically. When a write fails (disk full, folder removed), the file is
/// cut back to its last whole line, the lines not written wait in memory,
/// and each later line tries again: the game goes on.
pub struct Recorder {
    path: PathBuf,
    file: File,
    /// Bytes of whole lines in the file.
    len: u64,
    /// Lines not yet written (while writing fails).
    pending: String,
    /// Why writing fails, while it does.
    failing: Option<String>,
}

/// What a write of the record did, for the player to hear.
#[derive(Clone, Debug)]
pub enum Written {
    /// Written.
    Ok,
    /// Writing failed (and the lines wait): the first failure says why.
    Failed(std::sync::Arc<std::io::Error>),
    /// Writing still fails (already reported).
    StillFailing,
    /// Written again after failures: every line is in the file.
    Recovered,
}

/// The error of a failed write ([`Written::Failed`]) as an owned value: the
/// error itself when nothing else holds it, else one of the same kind
/// saying the same.
pub fn owned(e: std::sync::Arc<std::io::Error>) -> std::io::Error {
    std::sync::Arc::try_unwrap(e).unwrap_or_else(|e| std::io::Error::new(e.kind(), e.to_string()))
}

/// Failures are equal when they are of the same kind and say the same.
impl PartialEq for Written {
    fn eq(&self, other: &Written) -> bool {
        match (self, other) {
            (Written::Failed(a), Written::Failed(b)) => {
                a.kind() == b.kind() && a.to_string() == b.to_string()
            }
            (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
        }
    }
}

impl Eq for Written {}

impl Recorder {
    /// Creates the record at `path` (replacing a regular file, following a
    /// symbolic link, refusing anything else) with its first line. Fails
    /// when the file can't be written: before the first move.
    pub fn create(path: &Path, header: &str) -> std::io::Result<Recorder> {
        let path = target(path)?;
        let first = format!("{header}\n");
        write_atomic(&path, first.as_bytes())?;
        let file = OpenOptions::new().append(true).read(true).open(&path)?;
        Ok(Recorder {
            path,
            file,
            len: first.len() as u64,
            pending: String::new(),
            failing: None,
        })
    }

    /// The file written (a symbolic link's target).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one line (without its newline).
    pub fn line(&mut self, line: &str) -> Written {
        self.pending.push_str(line);
        self.pending.push('\n');
        self.flush()
    }

    /// Replaces the whole record (after turns are taken back) with `text`,
    /// atomically.
    pub fn rewrite(&mut self, text: &str) -> Written {
        self.pending.clear();
        let result = write_atomic(&self.path, text.as_bytes())
            .and_then(|()| OpenOptions::new().append(true).read(true).open(&self.path));
        match result {
            Ok(file) => {
                self.file = file;
                self.len = text.len() as u64;
                self.report(Ok(()))
            }
            Err(e) => {
                // The old file (or the old handle) stays; the new text
                // waits in full and replaces it on the next write.
                self.len = 0;
                self.pending = text.to_string();
                self.report(Err(e))
            }
        }
    }

    /// Writes the lines waiting.
    fn flush(&mut self) -> Written {
        let result = self.write_pending();
        self.report(result)
    }

    fn write_pending(&mut self) -> std::io::Result<()> {
        if self.failing.is_some() || self.len == 0 {
            self.reopen()?;
        }
        if self.pending.is_empty() {
            return Ok(());
        }
        match self.file.write_all(self.pending.as_bytes()) {
            Ok(()) => {
                self.len += self.pending.len() as u64;
                self.pending.clear();
                Ok(())
            }
            Err(e) => {
                // Never half a line: back to the last whole one.
                let _ = self.file.set_len(self.len);
                Err(e)
            }
        }
    }

    /// After a failure: when the file at the path is no longer the one
    /// written (the folder or the file was removed), writes what the old
    /// handle holds to the path again.
    fn reopen(&mut self) -> std::io::Result<()> {
        if self.len == 0 {
            // A rewrite failed: the pending text is the whole record.
            let whole = std::mem::take(&mut self.pending);
            if let Err(e) = write_atomic(&self.path, whole.as_bytes()) {
                self.pending = whole;
                return Err(e);
            }
            self.file = OpenOptions::new()
                .append(true)
                .read(true)
                .open(&self.path)?;
            self.len = whole.len() as u64;
            return Ok(());
        }
        if self.same_file() {
            return Ok(());
        }
        let mut kept = Vec::new();
        self.file.seek(SeekFrom::Start(0))?;
        (&mut self.file).take(self.len).read_to_end(&mut kept)?;
        write_atomic(&self.path, &kept)?;
        self.file = OpenOptions::new()
            .append(true)
            .read(true)
            .open(&self.path)?;
        Ok(())
    }

    /// Whether the path still names the file this recorder writes.
    fn same_file(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match (std::fs::metadata(&self.path), self.file.metadata()) {
                (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
                _ => false,
            }
        }
        #[cfg(not(unix))]
        {
            self.path.is_file()
        }
    }

    /// Checks that the record is still where it was written (a removed
    /// folder leaves a handle that writes nowhere), then reports.
    fn report(&mut self, result: std::io::Result<()>) -> Written {
        let result = result.and_then(|()| {
            if self.same_file() {
                Ok(())
            } else {
                Err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "the file was removed",
                ))
            }
        });
        match (result, self.failing.take()) {
            (Ok(()), None) => Written::Ok,
            (Ok(()), Some(_)) => Written::Recovered,
            (Err(e), None) => {
                self.failing = Some(e.to_string());
                Written::Failed(std::sync::Arc::new(e))
            }
            (Err(e), Some(_)) => {
                self.failing = Some(e.to_string());
                Written::StillFailing
            }
        }
    }
}
