//! `FsLoader`: rule files from the file system, with the bundled games as
//! fallback (and as the only source for `extends` inside a bundled file).

use std::path::{Path, PathBuf};

use crate::load::{LoadError, Loader, Source};

/// Loads bundled games by name and rule files by path.
pub struct FsLoader;

impl Loader for FsLoader {
    fn load(&self, name: &str, base: Option<&str>) -> Result<Source, LoadError> {
        let bundled = |n: &str| {
            crate::bundled::get(n).map(|text| Source {
                name: n.trim_end_matches(".rules").to_string(),
                text: text.to_string(),
            })
        };
        // Inside a bundled file, names are bundled names.
        if let Some(b) = base {
            if crate::bundled::get(b).is_some() && !Path::new(b).exists() {
                return bundled(name).ok_or_else(|| LoadError::NoBundledGame {
                    name: name.to_string(),
                });
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
                return read_text(c, MAX_RULE_FILE, "a rule file")
                    .map(|text| Source {
                        name: c.to_string_lossy().into_owned(),
                        text,
                    })
                    .map_err(LoadError::Read);
            }
        }
        bundled(name).ok_or_else(|| {
            LoadError::Loader(Box::new(NoRuleFile {
                file: candidates
                    .first()
                    .map_or_else(|| name.to_string(), |c| c.display().to_string()),
            }))
        })
    }
}

/// No rule file of the name (the path looked for first) and no bundled
/// game of that name.
#[derive(Debug)]
pub struct NoRuleFile {
    /// The path of the file looked for.
    pub file: String,
}

impl std::fmt::Display for NoRuleFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = crate::bundled::GAMES.iter().map(|(n, _)| *n);
        match crate::suggest::did_you_mean(&self.file, names) {
            Some(help) => write!(
                f,
                "no file `{}` and no bundled game of that name: {help} (`rulebook list` shows them)",
                self.file
            ),
            None => write!(
                f,
                "no file `{}` and no bundled game of that name (`rulebook list` shows them)",
                self.file
            ),
        }
    }
}

impl std::error::Error for NoRuleFile {}

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

pub use crate::source::{read_bytes, read_text, MAX_RULE_FILE};

/// The largest game record read by `replay` and `export`, in bytes
/// (docs/limits.md): some three million plies.
pub const MAX_RECORD: u64 = 128 << 20;

/// The largest PDN file read by `import`, in bytes (docs/limits.md).
pub const MAX_PDN: u64 = 16 << 20;

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

/// What a file is, as its text tells: a game record starts with a JSON
/// object naming its game (`{"game":"NAME"}`), a rule file parses as one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Looks {
    Record,
    Rules,
    Neither,
}

/// What `text` looks like when its first line that is not blank is a JSON
/// object: a record, unless it names no game (a header cut short is a
/// record with a broken header). None when it is not.
fn json_first(text: &str) -> Option<Looks> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    if !first.starts_with('{') {
        return None;
    }
    Some(match serde_json::from_str::<serde_json::Value>(first) {
        Ok(serde_json::Value::Object(fields)) if !fields.contains_key("game") => Looks::Neither,
        _ => Looks::Record,
    })
}

/// The words for a file that is neither a game record nor a rule file.
fn neither(file: &str) -> String {
    format!("error: {file} is neither a game record nor a rule file")
}

/// Refuses (a usage error) the text of `file`, read as a game record, when
/// it is a rule file or neither a record nor a rule file.
pub(crate) fn as_record(file: &Path, text: &str) -> Result<(), super::Failure> {
    let file = file.display();
    let looks = if text.trim().is_empty() {
        // An empty record, said so by the record's reader.
        Looks::Record
    } else if let Some(json) = json_first(text) {
        json
    } else if crate::format_rules::format_text(text).is_ok() {
        Looks::Rules
    } else {
        Looks::Neither
    };
    match looks {
        Looks::Record => Ok(()),
        Looks::Rules => Err(super::Failure::new(format!(
            "error: {file} is a rule file, not a game record: `rulebook play {file}` plays it"
        ))),
        Looks::Neither => Err(super::Failure::new(neither(&file.to_string()))),
    }
}

/// Why the rule file a check with errors loaded is not one at all (a
/// usage error): it is a game record, or neither a record nor a rule file
/// (text that starts with a JSON object). None for a rule file with
/// errors, whose diagnostics say what is wrong.
pub(crate) fn not_rules(checked: &crate::load::Checked) -> Option<super::Failure> {
    if checked.errors() == 0 {
        return None;
    }
    let main = checked.sources.get(crate::source::FileId(0))?;
    let file = &main.name;
    match json_first(&main.text)? {
        Looks::Rules => None,
        Looks::Record => Some(super::Failure::new(format!(
            "error: {file} is a game record, not a rule file: `rulebook replay {file}` replays it"
        ))),
        Looks::Neither => Some(super::Failure::new(neither(file))),
    }
}
