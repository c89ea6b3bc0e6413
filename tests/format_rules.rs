//! `rulebook fmt`: properties over every bundled and test rule file, and
//! over files generated from them by moving their tokens about.
//!
//! For each file that parses: formatting twice changes nothing; the
//! formatted file has the same tokens and comments; a copy with its white
//! space shuffled formats to the same text; and the formatted file checks
//! to the same diagnostics and compiles to the same game (the same tables
//! with the spans left out, the same perft at depth 3). A file that does not
//! parse is refused with its syntax errors. The bundled games are formatted.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use rulebook::board::{Perft, Position};
use rulebook::format_rules::{comments, format_text, tokens};
use rulebook::load::{check_source, Checked, LoadError, Loader, Source};
use rulebook::rng::Rng;

/// Rule files by path (relative to the file that extends them), then the
/// bundled games.
struct PathLoader;

impl Loader for PathLoader {
    fn load(&self, name: &str, base: Option<&str>) -> Result<Source, LoadError> {
        let dir = base
            .and_then(|b| Path::new(b).parent())
            .map(Path::to_path_buf)
            .unwrap_or_default();
        for candidate in [dir.join(name), dir.join(format!("{name}.rules"))] {
            if candidate.is_file() {
                let text = std::fs::read_to_string(&candidate)
                    .map_err(|e| LoadError::Loader(Box::new(e)))?;
                return Ok(Source {
                    name: candidate.to_string_lossy().into_owned(),
                    text,
                });
            }
        }
        rulebook::load::BundledLoader.load(name, base)
    }
}

fn rule_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rule_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rules") {
            out.push(path);
        }
    }
}

fn all_rule_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    rule_files(Path::new("games"), &mut files);
    rule_files(Path::new("tests/fixtures"), &mut files);
    assert!(files.len() > 60, "{} rule files found", files.len());
    files
}

/// A Debug text without the spans (which move when the layout does).
fn without_spans(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("Span {") {
        out.push_str(&rest[..i]);
        let close = rest[i..].find('}').map_or(rest.len(), |j| i + j + 1);
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

fn check(path: &Path, text: &str) -> Checked {
    check_source(
        Source {
            name: path.to_string_lossy().into_owned(),
            text: text.to_string(),
        },
        &PathLoader,
        &[],
    )
}

/// What a check says, without where: code and message of each problem.
fn verdict(checked: &Checked) -> Vec<String> {
    checked
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.code, d.message))
        .collect()
}

fn perft3(checked: &Checked) -> Option<u64> {
    let t = checked.board()?;
    let pos = Position::start(t);
    Some(Perft::new(t, 3).count(&pos, 3))
}

/// The text with the white space between tokens changed at random: spaces,
/// tabs and line breaks inside statements, the blank lines kept.
fn shuffled(text: &str, rng: &mut Rng) -> String {
    let tokens = tokens(text).unwrap();
    let mut out = String::new();
    let mut at = 0;
    let mut after_comma = false;
    for (start, end, comma) in tokens
        .iter()
        .map(|t| (t.start, t.end, t.text == ","))
        .chain([(text.len(), text.len(), false)])
    {
        let gap = &text[at..start];
        let newlines = gap.matches('\n').count();
        if gap.contains("//") || newlines >= 2 || at == 0 || start == text.len() {
            out.push_str(gap);
        } else {
            // A line break after a comma is kept; any other may come or go.
            let choices: &[&str] = if after_comma && newlines == 1 {
                &["\n", " \n  ", "\t\n\t"]
            } else if after_comma {
                &[" ", "  ", "\t"]
            } else {
                &[" ", "  ", "\t", " \n  ", "\n", "   "]
            };
            out.push_str(choices[rng.below(choices.len() as u64) as usize]);
        }
        out.push_str(&text[start..end]);
        at = end;
        after_comma = comma;
    }
    out
}

#[test]
fn formatting_keeps_every_file_the_same_game() {
    let mut rng = Rng::new(15);
    let mut formatted_games = 0;
    let mut refused = 0;
    for path in all_rule_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.display();
        let (_, syntax) = rulebook::syntax::parse(&text, rulebook::source::FileId(0));
        if !syntax.is_empty() {
            let errors = format_text(&text).expect_err(&name.to_string());
            assert_eq!(errors, syntax, "{name}: the syntax errors of `check`");
            refused += 1;
            continue;
        }
        let out = format_text(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(format_text(&out).unwrap(), out, "{name}: formatting twice");
        let texts = |t: &str| -> Vec<(String, String)> {
            tokens(t)
                .unwrap()
                .iter()
                .map(|k| (format!("{:?}", k.rule), k.text.to_string()))
                .collect()
        };
        assert_eq!(texts(&text), texts(&out), "{name}: tokens");
        let notes = |t: &str| -> Vec<String> {
            comments(t)
                .unwrap()
                .iter()
                .map(|c| c.text.to_string())
                .collect()
        };
        assert_eq!(notes(&text), notes(&out), "{name}: comments");
        for _ in 0..3 {
            let generated = shuffled(&text, &mut rng);
            assert_eq!(
                format_text(&generated).unwrap(),
                out,
                "{name}: a shuffled copy:\n{generated}"
            );
        }
        let before = check(&path, &text);
        let after = check(&path, &out);
        assert_eq!(verdict(&before), verdict(&after), "{name}: diagnostics");
        assert_eq!(
            without_spans(&format!("{:?}", before.board().map(|t| t.game()))),
            without_spans(&format!("{:?}", after.board().map(|t| t.game()))),
            "{name}: board game tables"
        );
        assert_eq!(
            without_spans(&format!("{:?}", before.race())),
            without_spans(&format!("{:?}", after.race())),
            "{name}: race game tables"
        );
        assert_eq!(perft3(&before), perft3(&after), "{name}: perft 3");
        if before.board().is_some() || before.race().is_some() {
            formatted_games += 1;
        }
    }
    assert!(formatted_games >= 15, "{formatted_games} games compared");
    assert!(refused >= 1, "no file with a syntax error was tried");
}

#[test]
fn bundled_games_are_formatted() {
    let mut files = Vec::new();
    rule_files(Path::new("games"), &mut files);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let out = format_text(&text).unwrap();
        assert!(
            out == text,
            "{} is not formatted: run `rulebook fmt {}`",
            path.display(),
            path.display()
        );
    }
}

#[test]
fn fmt_check_shows_the_diff_and_fails() {
    let dir = std::env::temp_dir().join(format!("rulebook-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("messy.rules");
    std::fs::write(&file, "board 8   x 8 // size\nplayable   dark\n").unwrap();
    let path = file.to_str().unwrap();
    let (code, out, err) = crate::common::run(&["fmt", "--check", path]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("-board 8   x 8 // size\n"), "{out}");
    assert!(out.contains("+board 8 x 8  // size\n"), "{out}");
    assert!(out.contains("+playable dark\n"), "{out}");
    assert!(err.contains("not formatted"), "{err}");
    // --check changed nothing; without it the file is formatted in place.
    assert!(std::fs::read_to_string(&file).unwrap().contains("8   x"));
    assert_eq!(crate::common::run(&["fmt", path]).0, 0);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "board 8 x 8  // size\nplayable dark\n"
    );
    assert_eq!(crate::common::run(&["fmt", "--check", path]).0, 0);
    // A syntax error: reported like `check` does, the file left alone.
    std::fs::write(&file, "board 8 y 8\n").unwrap();
    let (code, _, err) = crate::common::run(&["fmt", path]);
    assert_eq!(code, 1);
    assert!(err.contains("error[E001]"), "{err}");
    assert!(err.contains("messy.rules:1:9"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "board 8 y 8\n");
    std::fs::remove_dir_all(&dir).unwrap();
}
