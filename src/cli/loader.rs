//! `FsLoader`: rule files from the file system, with the bundled games as
//! fallback (and as the only source for `extends` inside a bundled file).

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
        candidates.push(dir.join(name));
        if !name.ends_with(".rules") {
            candidates.push(dir.join(format!("{name}.rules")));
        }
        for c in &candidates {
            if c.is_file() {
                return std::fs::read_to_string(c)
                    .map(|text| Source {
                        name: c.to_string_lossy().into_owned(),
                        text,
                    })
                    .map_err(|e| format!("can't read {}: {e}", c.display()));
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
