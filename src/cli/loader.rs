//! `FsLoader`: rule files from the file system, with the bundled games as
//! fallback (and as the only source for `extends` inside a bundled file).

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::load::{Loader, Source};

/// Loads bundled games by name and rule files by path.
pub struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, name: &str, base: Option<&str>) -> Result<Source, String> {
        let bundled = |n: &str| {
            crate::bundled::get(n).map(|text| Source {
                name: n.trim_end_matches(".rules").to_string(),
                text: text.to_string(),
            })
        };
        // Inside a bundled file, names are bundled names.
        if let Some(b) = base {
            if crate::bundled::get(b).is_some() && !Path::new(b).exists() {
                return bundled(name).ok_or_else(|| format!("no bundled game is called `{name}`"));
            }
        }
        let mut candidates: Vec<PathBuf> = Vec::new();
        let dir = base
            .and_then(|b| Path::new(b).parent())
            .map(Path::to_path_buf)
            .unwrap_or_default();
        candidates.push(normal(&dir.join(name)));
        if !name.ends_with(".rules") {
            candidates.push(normal(&dir.join(format!("{name}.rules"))));
        }
        for c in &candidates {
            if c.exists() {
                return read_text(c, MAX_RULE_FILE, "a rule file").map(|text| Source {
                    name: c.to_string_lossy().into_owned(),
                    text,
                });
            }
        }
        bundled(name).ok_or_else(|| {
            format!(
                "no file `{}` and no bundled game of that name (`rulebook list` shows them)",
                candidates
                    .first()
                    .map_or_else(|| name.to_string(), |c| c.display().to_string())
            )
        })
    }
}

/// The path with `.` and `dir/..` taken out, without asking the file
/// system: `ext/../ext/dd.rules` is `ext/dd.rules`, so a file that extends
/// itself through `../` has the same name each time round and the circle is
/// found (E022).
fn normal(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                let last = out.components().next_back();
                match last {
                    Some(Component::Normal(_)) => {
                        out.pop();
                    }
                    Some(Component::RootDir | Component::Prefix(_)) => {}
                    _ => out.push(".."),
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// The largest rule file read, in bytes (docs/limits.md): the bundled games
/// are a few kilobytes, and a file this size is checked in about a second.
pub const MAX_RULE_FILE: u64 = 1 << 20;

/// The largest game record read by `replay` and `export`, in bytes
/// (docs/limits.md): some three million plies.
pub const MAX_RECORD: u64 = 128 << 20;

/// The largest PDN file read by `import`, in bytes (docs/limits.md).
pub const MAX_PDN: u64 = 16 << 20;

/// Reads a text file of at most `max` bytes. Refuses, in words, what is not
/// a regular file (a directory, a device such as /dev/zero), a file past the
/// limit (without reading more than `max + 1` bytes of it), and text that is
/// not UTF-8 (naming the line of the first bad byte). `what` names the file
/// in the message ("a rule file"). A UTF-8 byte order mark at the start (some
/// editors write one) is skipped: the text, and so every span and column, is
/// what follows it.
pub fn read_text(path: &Path, max: u64, what: &str) -> Result<String, String> {
    let mut bytes = read_bytes(path, max, what)?;
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..good].iter().filter(|&&b| b == b'\n').count();
        format!("it is not UTF-8 text: line {line} has a byte that is not (save the file as UTF-8)")
    })
}

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Reads the bytes of a file of at most `max` bytes, refusing what is not a
/// regular file and a file past the limit as [`read_text`] does.
pub fn read_bytes(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("can't read `{shown}`: {e}"))?;
    if meta.is_dir() {
        return Err(format!("it is a directory, not {what}"));
    }
    if !meta.is_file() {
        return Err(format!(
            "it is not a regular file (a device or a pipe), so it can't be {what}"
        ));
    }
    let too_big = |n: u64| {
        format!(
            "it is {n} bytes, and {what} may be at most {} (see docs/limits.md)",
            size_words(max)
        )
    };
    if meta.len() > max {
        return Err(too_big(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("can't read `{shown}`: {e}"))?;
    // Room for the whole file at once (it is at most `max`): no copies
    // while the buffer grows, so memory is the file's size.
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0).saturating_add(1));
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("can't read `{shown}`: {e}"))?;
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

/// The game a record's header names, as the loader takes it: a bundled
/// game's name, or the path of a rule file in the record's folder (or a
/// folder below it). Any other path (`/etc/passwd`, `../x.rules`) is refused
/// in words, so that a record can't make rulebook read and echo an
/// arbitrary file.
pub fn record_game(record: &Path, name: &str) -> Result<String, String> {
    if crate::bundled::get(name).is_some() {
        return Ok(name.to_string());
    }
    let refuse = || {
        let name = crate::shown::shown(name);
        format!(
            "the record names the game `{name}`, but a record may only name a bundled game \
             (`rulebook list`) or a rule file in the record's own folder"
        )
    };
    let folder = record
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let folder = std::fs::canonicalize(folder).map_err(|_| refuse())?;
    let mut candidates = vec![folder.join(name), PathBuf::from(name)];
    if !name.ends_with(".rules") {
        candidates.insert(1, folder.join(format!("{name}.rules")));
        candidates.push(PathBuf::from(format!("{name}.rules")));
    }
    for c in candidates {
        if let Ok(real) = std::fs::canonicalize(&c) {
            if real.starts_with(&folder) && real.is_file() {
                return Ok(real.to_string_lossy().into_owned());
            }
        }
    }
    Err(refuse())
}
