//! Text -> syntax tree. Parse errors become diagnostics that name what was
//! expected in words; after an error the parser picks up again at the next
//! line that starts a statement, so one run reports every syntax error.

mod expected;
mod lower;
pub mod parser;

use crate::ast::File;
use crate::diagnostic::{Code, Diagnostic};
use crate::source::{FileId, Span};
use parser::{Rule, RulesParser};
use pest::error::{ErrorVariant, InputLocation};
use pest::Parser;

pub use expected::{describe, expected_words};

/// The words that start a statement outside a block: where parsing resumes
/// after an error.
const STATEMENT_KEYWORDS: &[&str] = &[
    "extends",
    "game",
    "description",
    "board",
    "playable",
    "notation",
    "side",
    "first",
    "directions",
    "zone",
    "piece",
    "setup",
    "capture",
    "chain",
    "crown",
    "long-landing",
    "on",
    "end",
    "option",
    "when",
];

/// Parses one file. The tree is `Some` only when there is no syntax error.
pub fn parse(text: &str, file: FileId) -> (Option<File>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut offset = 0;
    let mut tree = None;
    while let Some(rest) = text.get(offset..) {
        match RulesParser::parse(Rule::file, rest) {
            Ok(mut pairs) => {
                if diagnostics.is_empty() {
                    let lower = lower::Lower { file, offset };
                    tree = pairs.next().and_then(|p| lower.lower_file(p));
                    if tree.is_none() {
                        diagnostics.push(Diagnostic::new(
                            Code::Syntax,
                            "internal error: the parser's output has an unexpected shape",
                        ));
                    }
                }
                break;
            }
            Err(error) => {
                let pos = offset
                    + match error.location {
                        InputLocation::Pos(p) => p,
                        InputLocation::Span((p, _)) => p,
                    };
                let positives = match &error.variant {
                    ErrorVariant::ParsingError { positives, .. } => positives.clone(),
                    ErrorVariant::CustomError { .. } => Vec::new(),
                };
                diagnostics.push(syntax_error(text, file, pos, &positives));
                match resume_point(text, pos) {
                    Some(next) => offset = next,
                    None => break,
                }
            }
        }
    }
    (tree, diagnostics)
}

/// The diagnostic for a parse that failed at byte `pos`.
fn syntax_error(text: &str, file: FileId, pos: usize, positives: &[Rule]) -> Diagnostic {
    let expected = expected_words(positives);
    let rest = text.get(pos..).unwrap_or("");
    if rest.is_empty() && positives.contains(&Rule::quote) {
        if let Some(open) = text.get(..pos).and_then(|t| t.rfind('"')) {
            return Diagnostic::new(Code::Syntax, "unterminated string")
                .primary(
                    Span::new(file, open, open + 1),
                    "this string is never closed",
                )
                .help("add the closing `\"`");
        }
    }
    let token_len = token_length(rest);
    let found = if rest.is_empty() {
        "the end of the file".to_string()
    } else {
        format!("`{}`", rest.get(..token_len).unwrap_or(""))
    };
    Diagnostic::new(Code::Syntax, format!("expected {expected}, found {found}"))
        .primary(
            Span::new(file, pos, pos + token_len),
            format!("expected {expected}"),
        )
        .maybe_help(syntax_help(rest, positives))
}

/// A hint for the likeliest slips.
fn syntax_help(rest: &str, positives: &[Rule]) -> Option<String> {
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    if word.chars().any(|c| c.is_ascii_uppercase()) && positives.contains(&Rule::name) {
        return Some("names are written in lower case".to_string());
    }
    if word.contains('_') {
        return Some("names use `-` between words, not `_`".to_string());
    }
    if positives.contains(&Rule::name) && STATEMENT_KEYWORDS.contains(&word.as_str()) {
        return Some(format!("`{word}` is a keyword and can't be used as a name"));
    }
    if positives.contains(&Rule::letter) {
        return Some("a letter is one upper-case letter, such as `K`".to_string());
    }
    if positives.contains(&Rule::string) {
        return Some("texts are written in double quotes, such as \"King\"".to_string());
    }
    None
}

/// The length in bytes of the token at the start of `rest`: a word, a
/// number, or one character.
fn token_length(rest: &str) -> usize {
    let word: usize = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .map(char::len_utf8)
        .sum();
    if word > 0 {
        word
    } else {
        rest.chars().next().map_or(0, char::len_utf8)
    }
}

/// The start of the first line after `pos` that begins, in its first
/// column, with a statement keyword.
fn resume_point(text: &str, pos: usize) -> Option<usize> {
    let mut start = pos;
    loop {
        let newline = text.get(start..)?.find('\n')?;
        start += newline + 1;
        let line = text.get(start..)?;
        let word: String = line
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if STATEMENT_KEYWORDS.contains(&word.as_str()) {
            return Some(start);
        }
    }
}
