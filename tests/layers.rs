//! The layers point one way: every `crate::` path and every `super::` path
//! that leaves its module, in every file of `src/`, names a module that the
//! importing module's row of the table in docs/architecture.md ("Modules and
//! what each may import") allows. The table is read from the document, so
//! the two can't drift apart; a top-level module missing from the table, or
//! a row naming a module that doesn't exist, fails too.
//!
//! Comments (doc comments included), strings and character literals are not
//! read: a doc link is not an import. `src/main.rs` is the binary, a crate of
//! its own that reaches the library as `rulebook::`; `src/lib.rs` only
//! declares the modules.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const DOC: &str = "docs/architecture.md";
const SECTION: &str = "## Modules and what each may import";

/// One row of the table: its layer, its modules, and what they may import.
struct Row {
    layer: String,
    modules: Vec<String>,
    allows: String,
}

/// The names in backticks in a cell.
fn backticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.trim().to_string())
        .collect()
}

/// A cell without its parenthesised notes.
fn without_notes(cell: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in cell.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The rows of the table in the document.
fn rows(doc: &str) -> Vec<Row> {
    let start = doc
        .find(SECTION)
        .unwrap_or_else(|| panic!("{DOC} has no section `{SECTION}`"));
    let mut rows = Vec::new();
    let mut seen_table = false;
    for line in doc[start + SECTION.len()..].lines() {
        let line = line.trim();
        if line.starts_with("## ") {
            break;
        }
        if !line.starts_with('|') {
            if seen_table {
                break;
            }
            continue;
        }
        seen_table = true;
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(
            cells.len(),
            4,
            "{DOC}: a row of the table has 4 cells: {line}"
        );
        if cells[0] == "layer" || cells[0].starts_with("---") {
            continue;
        }
        rows.push(Row {
            layer: cells[0].to_string(),
            modules: backticked(cells[1]),
            allows: cells[3].to_string(),
        });
    }
    assert!(!rows.is_empty(), "{DOC}: no table under `{SECTION}`");
    rows
}

/// What each module may import, from the rows: a module in backticks, a
/// layer by its name, `everything above` (the rows above) or `everything`.
fn allowed(rows: &[Row]) -> BTreeMap<String, BTreeSet<String>> {
    let all: BTreeSet<String> = rows.iter().flat_map(|r| r.modules.clone()).collect();
    let mut out = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        let mut may = BTreeSet::new();
        for entry in without_notes(&row.allows).split(',') {
            let entry = entry.trim();
            if entry.is_empty() {
                continue;
            }
            if entry.starts_with('`') {
                for m in backticked(entry) {
                    assert!(
                        all.contains(&m),
                        "{DOC}: `{m}` (may import of {:?}) is in no row",
                        row.modules
                    );
                    may.insert(m);
                }
            } else if entry == "everything" {
                may.extend(all.iter().cloned());
            } else if entry == "everything above" {
                may.extend(rows[..i].iter().flat_map(|r| r.modules.clone()));
            } else {
                let layer: Vec<&Row> = rows.iter().filter(|r| r.layer == entry).collect();
                assert!(
                    !layer.is_empty(),
                    "{DOC}: `{entry}` (may import of {:?}) is no layer of the table",
                    row.modules
                );
                may.extend(layer.iter().flat_map(|r| r.modules.clone()));
            }
        }
        for m in &row.modules {
            assert!(
                out.insert(m.clone(), may.clone()).is_none(),
                "{DOC}: `{m}` has two rows"
            );
        }
    }
    out
}

/// The text with comments, strings and character literals blanked out
/// (newlines kept, so lines still count).
fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        let prev_ident = i > 0 && ident(b[i - 1]);
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0usize;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if !prev_ident
            && (c == 'r' || (c == 'b' && next == Some('r')))
            && matches!(b.get(i + usize::from(c == 'b') + 1), Some('"' | '#'))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + usize::from(c == 'b') + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < b.len() {
                if b[j] == '"' && (1..=hashes).all(|k| b.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &c in &b[i..j.min(b.len())] {
                out.push(blank(c));
            }
            i = j;
        } else if c == '"' || (c == 'b' && !prev_ident && next == Some('"')) {
            let mut j = i + if c == 'b' { 2 } else { 1 };
            while j < b.len() && b[j] != '"' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(b.len());
            for &c in &b[i..end] {
                out.push(blank(c));
            }
            i = end;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{7f}'), else a lifetime.
            let end = if next == Some('\\') {
                (i + 2..b.len()).find(|&j| b[j] == '\'').map(|j| j + 1)
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 3)
            } else {
                None
            };
            match end {
                Some(end) => {
                    for &c in &b[i..end] {
                        out.push(blank(c));
                    }
                    i = end;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// A token of code: an identifier, `::`, or one other character; with its
/// line.
fn tokens(code: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\n' {
            line += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let mut word = c.to_string();
            while let Some(&n) = chars.peek() {
                if n.is_alphanumeric() || n == '_' {
                    word.push(n);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push((word, line));
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.push(("::".to_string(), line));
        } else if !c.is_whitespace() {
            out.push((c.to_string(), line));
        }
    }
    out
}

/// The modules a path names right after a point `at` (one name, or each
/// first name of a `{...}` group).
fn names_at(toks: &[(String, usize)], at: usize) -> Vec<String> {
    match toks.get(at).map(|t| t.0.as_str()) {
        Some("{") => {
            let mut names = Vec::new();
            let mut depth = 0;
            let mut expect = true;
            for (t, _) in &toks[at..] {
                match t.as_str() {
                    "{" => {
                        depth += 1;
                        expect = depth == 1;
                    }
                    "}" => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    "," if depth == 1 => expect = true,
                    w if expect => {
                        names.push(w.to_string());
                        expect = false;
                    }
                    _ => {}
                }
            }
            names
        }
        Some(w) => vec![w.to_string()],
        None => Vec::new(),
    }
}

/// One import of another top-level module: the line, the module, the path
/// as written.
struct Import {
    line: usize,
    module: String,
    path: String,
}

/// The top-level modules a file of module path `module` imports (its own
/// excluded).
fn imports(src: &str, module: &[String]) -> Vec<Import> {
    let toks = tokens(&code_only(src));
    let text = |from: usize, to: usize| -> String {
        toks[from..to.min(toks.len())]
            .iter()
            .map(|t| t.0.as_str())
            .collect()
    };
    let mut out = Vec::new();
    // Inline modules (`mod tests {`) open at a brace depth.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].0.as_str();
        let after = |k: usize| toks.get(i + k).map(|t| t.0.as_str());
        match t {
            "{" => depth += 1,
            "}" => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            "mod" if after(2) == Some("{") => {
                if let Some(name) = after(1) {
                    inline.push((name.to_string(), depth + 1));
                }
            }
            "crate" if after(1) == Some("::") && (i == 0 || toks[i - 1].0 != "$") => {
                for m in names_at(&toks, i + 2) {
                    if module.first() != Some(&m) {
                        out.push(Import {
                            line: toks[i].1,
                            module: m,
                            path: text(i, i + 6),
                        });
                    }
                }
            }
            "super" if after(1) == Some("::") && (i == 0 || toks[i - 1].0 != "::") => {
                let mut supers = 0;
                while toks.get(i + 2 * supers).map(|t| t.0.as_str()) == Some("super")
                    && toks.get(i + 2 * supers + 1).map(|t| t.0.as_str()) == Some("::")
                {
                    supers += 1;
                }
                let here = module.len() + inline.len();
                if supers >= here {
                    // Out of the top-level module, at the crate's root.
                    for m in names_at(&toks, i + 2 * supers) {
                        if module.first() != Some(&m) {
                            out.push(Import {
                                line: toks[i].1,
                                module: m,
                                path: text(i, i + 2 * supers + 4),
                            });
                        }
                    }
                }
                i += 2 * supers;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file under `src/` (`check/race.rs`: check, race).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs").to_string();
        if stem != "mod" {
            parts.push(stem);
        }
    }
    parts
}

/// The top-level modules `src/lib.rs` declares.
fn declared(lib: &str) -> BTreeSet<String> {
    tokens(&code_only(lib))
        .windows(3)
        .filter(|w| w[0].0 == "mod" && w[2].0 == ";")
        .map(|w| w[1].0.clone())
        .collect()
}

/// The rows are in import order: a row that allows a module of a row below
/// it would let the layers point both ways.
fn upward(rows: &[Row], table: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let row_of = |m: &str| rows.iter().position(|r| r.modules.iter().any(|x| x == m));
    let mut problems = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        for m in &row.modules {
            for other in table.get(m).into_iter().flatten() {
                if row_of(other).is_some_and(|j| j > i) {
                    problems.push(format!(
                        "{DOC}: the row of `{m}` allows `{other}`, which comes below it (the rows are in import order)"
                    ));
                }
            }
        }
    }
    problems
}

/// Every import in `src/` that the table doesn't allow, as
/// `file:line: ...` lines.
fn violations(root: &Path) -> Vec<String> {
    let doc = std::fs::read_to_string(root.join(DOC)).expect("docs/architecture.md");
    let rows = rows(&doc);
    let table = allowed(&rows);
    let src = root.join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    let modules = declared(&lib);
    let mut problems = upward(&rows, &table);
    for m in &modules {
        if !table.contains_key(m) {
            problems.push(format!(
                "{DOC}: module `{m}` (src/lib.rs) has no row in the table"
            ));
        }
    }
    for m in table.keys() {
        if !modules.contains(m) {
            problems.push(format!(
                "{DOC}: the table names `{m}`, which src/lib.rs doesn't declare"
            ));
        }
    }
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src/");
        if rel == Path::new("main.rs") || rel == Path::new("lib.rs") {
            continue;
        }
        let module = module_path(rel);
        let Some(top) = module.first() else { continue };
        let text = std::fs::read_to_string(&file).expect("a source file");
        let may = table.get(top).cloned().unwrap_or_default();
        for import in imports(&text, &module) {
            if !may.contains(&import.module) {
                problems.push(format!(
                    "src/{}:{}: `{top}` imports `{}` ({}), which its row in {DOC} doesn't allow (it may import: {})",
                    rel.display(),
                    import.line,
                    import.module,
                    import.path,
                    may.iter().map(String::as_str).collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    problems
}

#[test]
fn every_import_is_allowed_by_the_table() {
    let problems = violations(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        problems.is_empty(),
        "{} layering problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_reader_finds_imports_and_skips_comments_and_strings() {
    let src = r##"
//! A doc link to [`crate::cli`] is no import.
use super::sibling;
use crate::vocab::{self, limit};
use crate::{ast, source::Span};
const S: &str = "crate::format";
const R: &str = r#"crate::lab "quoted" "#;
const C: char = '{';
fn f<'a>(x: &'a str) { let _ = crate::diagnostic::Code::ExtendsLoad; }
#[cfg(test)]
mod tests {
    use super::*;
    fn g() { super::super::super::load::check(); }
}
"##;
    let module = vec!["check".to_string(), "race".to_string()];
    let found: Vec<(usize, String)> = imports(src, &module)
        .into_iter()
        .map(|i| (i.line, i.module))
        .collect();
    assert_eq!(
        found,
        vec![
            (4, "vocab".to_string()),
            (5, "ast".to_string()),
            (5, "source".to_string()),
            (9, "diagnostic".to_string()),
            (13, "load".to_string()),
        ]
    );
    // At the top of a module (`check/mod.rs`), one `super::` leaves it.
    let top = imports("use super::load::check;\n", &["check".to_string()]);
    assert_eq!(top.len(), 1);
    assert_eq!(top[0].module, "load");
}

#[test]
fn the_table_is_read_from_the_document() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(DOC))
        .expect("docs/architecture.md");
    let table = allowed(&rows(&doc));
    let may = |m: &str| table.get(m).cloned().unwrap_or_default();
    // The first stages see only the base; check sees no compiled game.
    assert!(may("ast").contains("vocab") && !may("ast").contains("board"));
    assert!(may("syntax").contains("suggest") && !may("syntax").contains("check"));
    assert!(may("check").contains("syntax") && !may("check").contains("compile"));
    assert!(!may("check").contains("board") && !may("check").contains("race"));
    assert!(may("compile").contains("check") && may("compile").contains("board"));
    assert!(!may("board").contains("ast") && !may("board").contains("compile"));
}
