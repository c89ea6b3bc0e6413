//! Embeds every rule file under `games/` in the binary: writes the table of
//! bundled games (name, text) that `src/bundled.rs` includes. `games/` is
//! at the workspace's root, two folders up from this crate. The Rust code
//! names no game; the list is whatever `games/` holds. Top-level games come
//! first, then `variants/`, each in name order.

use std::path::{Path, PathBuf};

fn rule_files(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    let mut subdirs = Vec::new();
    for path in entries {
        if path.is_dir() {
            subdirs.push(path);
        } else if path.extension().is_some_and(|e| e == "rules") {
            if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
                out.push((format!("{prefix}{stem}"), path.clone()));
            }
        }
    }
    for sub in subdirs {
        if let Some(name) = sub.file_name().and_then(|s| s.to_str()) {
            rule_files(&sub, &format!("{prefix}{name}/"), out);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let games = root.join("../../games");
    println!("cargo:rerun-if-changed=../../games");
    let mut files = Vec::new();
    rule_files(&games, "", &mut files);
    let mut code = String::from("&[\n");
    for (name, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        code.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    code.push_str("]\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()));
    if let Err(e) = std::fs::write(out.join("bundled_games.rs"), code) {
        println!("cargo:warning=can't write the bundled games table: {e}");
    }
}
