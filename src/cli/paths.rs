//! Outputs that would overwrite inputs: before a command opens any file
//! for writing, every output it was given is compared with the files it
//! reads (the rule file and the files it extends, a record, a PDN file,
//! shards) and with its other
//! outputs; one that is the same file (by device and inode on Unix, so
//! also through `./`, symbolic links and hard links) is refused, nothing
//! written.

use std::path::{Path, PathBuf};

use super::Failure;
use crate::source::FileId;

/// The rule file a game argument names on disk, as the loader finds it
/// (`NAME`, else `NAME.rules`); `None` for a bundled game.
pub(crate) fn game_file(game: &str) -> Option<PathBuf> {
    let plain = PathBuf::from(game);
    if plain.exists() {
        return Some(plain);
    }
    let ruled = PathBuf::from(format!("{game}.rules"));
    (!game.ends_with(".rules") && ruled.exists()).then_some(ruled)
}

/// Whether `a` and `b` name one file that exists.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

/// Files a command reads and writes, to compare before anything is
/// written: each with the words that name it in an error.
#[derive(Default)]
pub(crate) struct Files {
    inputs: Vec<(String, PathBuf)>,
    outputs: Vec<(String, PathBuf)>,
}

impl Files {
    /// No files yet.
    pub(crate) fn new() -> Files {
        Files::default()
    }

    /// A file read, called `what` ("the rule file of the game").
    pub(crate) fn input(mut self, what: &str, path: Option<&Path>) -> Files {
        if let Some(p) = path {
            self.inputs.push((what.to_string(), p.to_path_buf()));
        }
        self
    }

    /// The rule file of a game argument, when it is a file, and the rule
    /// files it extends (found as the loader finds them).
    pub(crate) fn game(self, game: &str) -> Files {
        let Some(file) = game_file(game) else {
            return self;
        };
        let mut files = self.input(&format!("the rule file of `{game}`"), Some(&file));
        let checked = crate::load::check(&super::FsLoader, game, &[]);
        for id in 1..checked.sources.len() {
            let Ok(id) = u16::try_from(id) else { break };
            let Some(source) = checked.sources.get(FileId(id)) else {
                continue;
            };
            let path = Path::new(&source.name);
            if path.exists() {
                files = files.input(&format!("a rule file `{game}` extends"), Some(path));
            }
        }
        files
    }

    /// A file written, given with `flag` (`--csv`).
    pub(crate) fn output(mut self, flag: &str, path: Option<&Path>) -> Files {
        if let Some(p) = path {
            self.outputs.push((flag.to_string(), p.to_path_buf()));
        }
        self
    }

    /// Refuses (a usage error) an output that is an input or another
    /// output; else gives the files back.
    pub(crate) fn check(self) -> Result<Files, Failure> {
        match self.clash() {
            Some(why) => Err(Failure::new(format!("error: {why}; nothing was written"))),
            None => Ok(self),
        }
    }

    /// The inputs alone, to check more outputs against.
    pub(crate) fn without_outputs(mut self) -> Files {
        self.outputs.clear();
        self
    }

    /// Why an output can't be written: it is an input or another output.
    pub(crate) fn clash(&self) -> Option<String> {
        for (i, (flag, out)) in self.outputs.iter().enumerate() {
            let shown = out.display();
            for (what, input) in &self.inputs {
                if same_file(out, input) {
                    return Some(format!(
                        "{flag} {shown} is also {what} ({}): it would be overwritten",
                        input.display()
                    ));
                }
            }
            for (other, earlier) in self.outputs.iter().take(i) {
                if same_file(out, earlier) || out == earlier {
                    return Some(format!(
                        "{flag} {shown} is also the file of {other}: give each output a file of its own"
                    ));
                }
            }
        }
        None
    }
}
