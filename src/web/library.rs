//! The rule files the web front end may read: the bundled games and the
//! files of the `--games DIR` folder, never anything outside that folder
//! (no `..`, no absolute path, no symbolic link leading out). What the
//! check of each file found is kept while the file (and every file it
//! extends) keeps its size and modification time, so that listing the games
//! checks again only the files that changed.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use crate::load::{LoadError, Loader, Source};

/// The largest rule file read or checked, in bytes (as the command line's).
pub const MAX_RULE_FILE: usize = crate::source::MAX_RULE_FILE as usize;

/// The most check results kept ([`Library::checked`]): past it the one
/// used longest ago is dropped (and checked again when asked for).
pub const MAX_CHECKS_KEPT: usize = 1024;

/// The most checks of the web front end run at once: a check over its
/// time limit goes on until it ends (it can't be interrupted), so at most
/// this many cores are ever busy checking; a request finding none free
/// within its time limit is refused.
pub const MAX_CHECKS_AT_ONCE: usize = 2;

/// A file of the folder as last seen: its size and modification time.
type Stamp = Option<(u64, SystemTime)>;

/// What the check of a game found, with the files it read as they were.
#[derive(Debug)]
struct Kept {
    /// The files of the folder the check read (the game and what it
    /// extends), with their stamps then; bundled files never change.
    files: Vec<(String, Stamp)>,
    /// What the caller made of the check.
    value: Arc<serde_json::Value>,
    /// When it was last used (a count of uses), to drop the oldest.
    used: u64,
}

/// The check results kept, by game name, and how many checks were run.
#[derive(Debug, Default)]
struct Checks {
    kept: Mutex<HashMap<String, Kept>>,
    uses: AtomicU64,
    run: AtomicU64,
}

/// Where rule files come from: the bundled games, then the folder.
#[derive(Clone, Debug)]
pub struct Library {
    /// The `--games DIR` folder, canonical (no links, absolute).
    dir: Option<PathBuf>,
    /// The check results kept (shared by the clones).
    checks: Arc<Checks>,
    /// The checks that may run at once ([`MAX_CHECKS_AT_ONCE`]).
    checking: Arc<tokio::sync::Semaphore>,
    /// One listing of the games at a time: a second waits for the first
    /// and finds its checks kept, instead of checking the same files again.
    listing: Arc<tokio::sync::Semaphore>,
}

impl Default for Library {
    fn default() -> Library {
        Library {
            dir: None,
            checks: Arc::default(),
            checking: Arc::new(tokio::sync::Semaphore::new(MAX_CHECKS_AT_ONCE)),
            listing: Arc::new(tokio::sync::Semaphore::new(1)),
        }
    }
}

impl Library {
    /// The bundled games and, when given, the rule files of `dir`.
    pub fn new(dir: Option<&Path>) -> Result<Library, FolderError> {
        let dir = match dir {
            None => None,
            Some(d) => {
                let c = d.canonicalize().map_err(|error| FolderError::CantOpen {
                    dir: d.to_path_buf(),
                    error,
                })?;
                if !c.is_dir() {
                    return Err(FolderError::NotAFolder {
                        dir: d.to_path_buf(),
                    });
                }
                Some(c)
            }
        };
        Ok(Library {
            dir,
            ..Library::default()
        })
    }

    /// The checks run so far by [`Library::checked`] (for tests: a file
    /// that did not change is not checked again).
    pub fn checks_run(&self) -> u64 {
        self.checks.run.load(Ordering::Relaxed)
    }

    /// A permit to run a check ([`MAX_CHECKS_AT_ONCE`] at once); hold it
    /// until the check ends.
    pub async fn check_permit(
        &self,
    ) -> Result<tokio::sync::OwnedSemaphorePermit, tokio::sync::AcquireError> {
        Arc::clone(&self.checking).acquire_owned().await
    }

    /// A permit to list the games (one listing at a time); hold it until
    /// the listing ends.
    pub async fn list_permit(
        &self,
    ) -> Result<tokio::sync::OwnedSemaphorePermit, tokio::sync::AcquireError> {
        Arc::clone(&self.listing).acquire_owned().await
    }

    /// The stamp of a file of the folder (None when it can't be read).
    fn stamp(&self, name: &str) -> Stamp {
        let dir = self.dir.as_ref()?;
        let meta = std::fs::metadata(inside(dir, name).ok()?).ok()?;
        Some((meta.len(), meta.modified().ok()?))
    }

    /// What `make` finds in the check of game `name` (with no options):
    /// checked once, then kept while the game's files (the file and those
    /// it extends) keep their size and modification time; at most
    /// [`MAX_CHECKS_KEPT`] are kept.
    pub fn checked(
        &self,
        name: &str,
        make: impl FnOnce(&crate::load::Checked) -> serde_json::Value,
    ) -> Arc<serde_json::Value> {
        let use_no = self.checks.uses.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut kept) = self.checks.kept.lock() {
            if let Some(k) = kept.get_mut(name) {
                if k.files.iter().all(|(f, st)| self.stamp(f) == *st) {
                    k.used = use_no;
                    return Arc::clone(&k.value);
                }
            }
        }
        // Stamped before the check: a file changed while it runs is
        // checked again next time.
        let before = self.stamp(name);
        self.checks.run.fetch_add(1, Ordering::Relaxed);
        let checked = crate::load::check(self, name, &[]);
        let value = Arc::new(make(&checked));
        let mut files: Vec<(String, Stamp)> = (0..checked.sources.len())
            .filter_map(|i| u16::try_from(i).ok())
            .filter_map(|i| checked.sources.get(crate::source::FileId(i)))
            .map(|src| src.name.as_str())
            .filter(|n| crate::bundled::get(n).is_none())
            .map(|n| {
                let st = if n == name { before } else { self.stamp(n) };
                (n.to_string(), st)
            })
            .collect();
        if crate::bundled::get(name).is_none() && !files.iter().any(|(n, _)| n == name) {
            files.push((name.to_string(), before));
        }
        if let Ok(mut kept) = self.checks.kept.lock() {
            if kept.len() >= MAX_CHECKS_KEPT && !kept.contains_key(name) {
                let oldest = kept
                    .iter()
                    .min_by_key(|(_, k)| k.used)
                    .map(|(n, _)| n.clone());
                if let Some(n) = oldest {
                    kept.remove(&n);
                }
            }
            kept.insert(
                name.to_string(),
                Kept {
                    files,
                    value: Arc::clone(&value),
                    used: use_no,
                },
            );
        }
        value
    }

    /// The names of every game: bundled names first, then the `.rules`
    /// files of the folder (and its subfolders, two levels deep) by their
    /// path inside it, `/`-separated, such as `mine/house.rules`.
    pub fn names(&self) -> Vec<(String, bool)> {
        let mut out: Vec<(String, bool)> = crate::bundled::GAMES
            .iter()
            .map(|(n, _)| ((*n).to_string(), true))
            .collect();
        if let Some(dir) = &self.dir {
            let mut found = Vec::new();
            collect(dir, dir, 0, &mut found);
            found.sort();
            out.extend(found.into_iter().map(|n| (n, false)));
        }
        out
    }

    /// The text of a file of the folder, by its name inside it; refused when
    /// the name leaves the folder (by `..`, an absolute path, a link).
    pub fn read_file(&self, name: &str) -> Result<String, FolderError> {
        let dir = self.dir.as_ref().ok_or_else(|| FolderError::NoFolder {
            name: name.to_string(),
        })?;
        let path = inside(dir, name)?;
        if std::fs::symlink_metadata(&path).is_err() {
            return Err(FolderError::NoFile {
                shown: name.to_string(),
            });
        }
        // The one bounded reader of rule files: regular files only, the
        // size limit, UTF-8 (a byte order mark skipped).
        crate::source::read_text(&path, crate::source::MAX_RULE_FILE, "a rule file").map_err(
            |error| FolderError::Read {
                name: name.to_string(),
                error,
            },
        )
    }

    /// The text of a game by name: a file of the folder named `NAME.rules`
    /// when there is one (even where a bundled game has that name: the
    /// person's file wins in the folder), else a bundled game, else a file
    /// of the folder.
    pub fn text(&self, name: &str) -> Result<String, FolderError> {
        if self.folder_has(name) {
            return self.read_file(name);
        }
        match crate::bundled::get(name) {
            Some(t) => Ok(t.to_string()),
            None => self.read_file(name),
        }
    }

    /// Whether `name` is a `.rules` file of the folder (a regular file
    /// inside it). Such a name is the folder's file, whatever the bundled
    /// games are called; a bundled game keeps its bare name (its name without `.rules`).
    pub fn folder_has(&self, name: &str) -> bool {
        name.ends_with(".rules")
            && self
                .dir
                .as_ref()
                .is_some_and(|dir| inside(dir, name).is_ok_and(|p| p.is_file()))
    }

    /// Whether `name` means a bundled game here (and not a file of the
    /// folder that has the same name).
    pub fn is_bundled(&self, name: &str) -> bool {
        crate::bundled::get(name).is_some() && !self.folder_has(name)
    }
}

/// Why a game of the folder can't be read, or the folder opened.
#[derive(Debug)]
pub enum FolderError {
    /// The `--games` folder can't be opened.
    CantOpen {
        /// The folder as given.
        dir: PathBuf,
        /// What failed.
        error: std::io::Error,
    },
    /// The `--games` path is not a folder.
    NotAFolder {
        /// The path as given.
        dir: PathBuf,
    },
    /// No game has the name, and no folder is open.
    NoFolder {
        /// The name asked for.
        name: String,
    },
    /// The name can't name a file (empty, a NUL, a backslash).
    NotAFileName {
        /// The name asked for.
        name: String,
    },
    /// The name leaves the folder (`..`, an absolute path).
    Leaves {
        /// The name asked for.
        name: String,
    },
    /// The name is a link leading out of the folder.
    LeadsOut {
        /// The name asked for.
        name: String,
    },
    /// The folder has no file of the name.
    NoFile {
        /// The name as the message shows it.
        shown: String,
    },
    /// The file can't be read as a rule file.
    Read {
        /// The name asked for.
        name: String,
        /// Why.
        error: crate::source::ReadError,
    },
}

impl FolderError {
    /// Whether the name was refused for leaving the folder (rather than
    /// not found or not readable).
    pub fn is_outside(&self) -> bool {
        matches!(
            self,
            FolderError::Leaves { .. } | FolderError::LeadsOut { .. }
        )
    }
}

impl std::fmt::Display for FolderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown = crate::shown::shown;
        match self {
            FolderError::CantOpen { dir, error } => {
                write!(f, "can't open the folder `{}`: {error}", dir.display())
            }
            FolderError::NotAFolder { dir } => write!(f, "`{}` is not a folder", dir.display()),
            FolderError::NoFolder { name } => write!(
                f,
                "no game is called `{name}` (and no --games folder is open)"
            ),
            FolderError::NotAFileName { name } => {
                write!(f, "`{}` is not a file name", shown(name))
            }
            FolderError::Leaves { name } => write!(
                f,
                "`{}` leaves the games folder: only names inside it are allowed",
                shown(name)
            ),
            FolderError::LeadsOut { name } => write!(
                f,
                "`{}` leads out of the games folder (a link): refused",
                shown(name)
            ),
            FolderError::NoFile { shown } => write!(f, "no file `{shown}`"),
            FolderError::Read { name, error } => write!(f, "`{name}`: {error}"),
        }
    }
}

impl std::error::Error for FolderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FolderError::CantOpen { error, .. } => Some(error),
            FolderError::Read { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Why a save was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// No `--games` folder is open: nothing may be written.
    NoFolder(String),
    /// The name leaves the folder (`..`, an absolute path, a link).
    Outside(String),
    /// The name or the text is not acceptable.
    Bad(String),
    /// Writing failed.
    Failed(String),
}

impl Library {
    /// Saves `text` as the rule file `name` of the folder, atomically (a
    /// reader sees the old file or the new one). Only a `.rules` name
    /// inside the folder, in a subfolder that exists, is written: `..`, an
    /// absolute path, a symbolic link (at the name or on the way) leading
    /// out of the folder, and any link at the name itself are refused.
    pub fn save(&self, name: &str, text: &str) -> Result<(), Refused> {
        let Some(dir) = self.dir.as_ref() else {
            return Err(Refused::NoFolder(
                "no --games folder is open: start `rulebook serve --games DIR` to save".into(),
            ));
        };
        let shown = crate::shown::shown(name);
        if text.len() > MAX_RULE_FILE {
            return Err(Refused::Bad(format!(
                "the text is {} bytes; a rule file may be at most {MAX_RULE_FILE}",
                text.len()
            )));
        }
        if name.is_empty() || name.len() > 255 || name.contains('\0') || name.contains('\\') {
            return Err(Refused::Bad(format!("`{shown}` is not a file name")));
        }
        let rel = Path::new(name);
        if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
            return Err(Refused::Outside(format!(
                "`{shown}` leaves the games folder: only names inside it are allowed"
            )));
        }
        if rel.extension().is_none_or(|x| x != "rules") {
            return Err(Refused::Bad(format!(
                "`{shown}`: a rule file's name ends in .rules"
            )));
        }
        let path = dir.join(rel);
        let parent = path
            .parent()
            .and_then(|p| p.canonicalize().ok())
            .ok_or_else(|| Refused::Bad(format!("`{shown}`: its folder does not exist")))?;
        if !parent.starts_with(dir) {
            return Err(Refused::Outside(format!(
                "`{shown}` leads out of the games folder (a link): refused"
            )));
        }
        let Some(file) = path.file_name() else {
            return Err(Refused::Bad(format!("`{shown}` is not a file name")));
        };
        let path = parent.join(file);
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(Refused::Outside(format!(
                    "`{shown}` is a symbolic link: refused (only regular files are written)"
                )))
            }
            Ok(m) if !m.is_file() => {
                return Err(Refused::Bad(format!("`{shown}` is not a regular file")))
            }
            _ => {}
        }
        crate::record::write_atomic(&path, text.as_bytes())
            .map_err(|e| Refused::Failed(format!("can't write `{shown}`: {e}")))
    }
}

/// The path of `name` inside `dir`, refusing what leaves it: an absolute
/// path, `..`, a link whose target is outside.
fn inside(dir: &Path, name: &str) -> Result<PathBuf, FolderError> {
    let rel = Path::new(name);
    let owned = || name.to_string();
    if name.is_empty() || name.contains('\0') || name.contains('\\') {
        return Err(FolderError::NotAFileName { name: owned() });
    }
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err(FolderError::Leaves { name: owned() });
    }
    let path = dir.join(rel);
    let real = path.canonicalize().map_err(|_| FolderError::NoFile {
        shown: crate::shown::shown(name).to_string(),
    })?;
    if !real.starts_with(dir) {
        return Err(FolderError::LeadsOut { name: owned() });
    }
    Ok(real)
}

/// The `.rules` files under `at`, as names relative to `dir`.
fn collect(dir: &Path, at: &Path, depth: usize, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(at) else {
        return;
    };
    for e in entries.flatten().take(10_000) {
        let p = e.path();
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_symlink() {
            // Listed only when the link stays inside the folder.
            match p.canonicalize() {
                Ok(real) if real.starts_with(dir) && real.is_file() => {}
                _ => continue,
            }
        } else if kind.is_dir() {
            if depth < 2 {
                collect(dir, &p, depth + 1, out);
            }
            continue;
        }
        if p.extension().is_some_and(|x| x == "rules") {
            if let Ok(rel) = p.strip_prefix(dir) {
                let parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push(parts.join("/"));
            }
        }
    }
}

impl Loader for Library {
    fn load(&self, name: &str, base: Option<&str>) -> Result<Source, LoadError> {
        // A file of the folder extends names relative to its own folder;
        // bundled files extend bundled names.
        let from_dir = base.filter(|b| !self.is_bundled(b));
        if let (Some(b), Some(_)) = (from_dir, &self.dir) {
            let parent = b.rsplit_once('/').map_or("", |(p, _)| p);
            let joined = if parent.is_empty() {
                name.to_string()
            } else {
                format!("{parent}/{name}")
            };
            for candidate in [joined.clone(), format!("{joined}.rules")] {
                if let Ok(text) = self.read_file(&candidate) {
                    return Ok(Source {
                        name: candidate,
                        text,
                    });
                }
            }
        }
        // A game asked for by itself: the folder's file of that name first.
        if base.is_none() && self.folder_has(name) {
            return self
                .read_file(name)
                .map(|text| Source {
                    name: name.to_string(),
                    text,
                })
                .map_err(|e| LoadError::Loader(Box::new(e)));
        }
        if let Some(text) = crate::bundled::get(name) {
            return Ok(Source {
                name: name.trim_end_matches(".rules").to_string(),
                text: text.to_string(),
            });
        }
        self.read_file(name)
            .map(|text| Source {
                name: name.to_string(),
                text,
            })
            .map_err(|e| LoadError::Loader(Box::new(e)))
    }
}
