//! Reading past syntax errors by blanking lines: the line of each error is
//! replaced by spaces (as many bytes as it had, so every offset stays
//! where it was) until the text parses. The language server reads the
//! names and statements of a half-typed file this way, and a check that
//! reports every error of a file with a syntax error checks the rest of
//! the file this way ([`crate::syntax::parse`] reports the syntax errors
//! themselves).

use super::parser::{Rule, RulesParser};
use pest::iterators::Pairs;
use pest::Parser;

/// Parses `text`, blanking the line of each syntax error (at most
/// `max_lines` lines, and no more than `budget` bytes handed to the parser
/// in all) until it parses; then hands the text as parsed (blanked) and its
/// parse to `then`. `None` when the limits are reached first, or nothing
/// is left to blank.
pub fn parse_blanking<T>(
    text: &str,
    max_lines: usize,
    budget: usize,
    then: impl FnOnce(&str, Pairs<'_, Rule>) -> T,
) -> Option<T> {
    let mut work = text.to_string();
    let mut budget = budget;
    for _ in 0..max_lines {
        budget = budget.checked_sub(work.len().max(1))?;
        match RulesParser::parse(Rule::file, &work) {
            Ok(pairs) => return Some(then(&work, pairs)),
            Err(e) => {
                let pos = match e.location {
                    pest::error::InputLocation::Pos(p) => p,
                    pest::error::InputLocation::Span((p, _)) => p,
                };
                if !blank_line_at(&mut work, pos) {
                    return None;
                }
            }
        }
    }
    None
}

/// Blanks the line that holds `pos` (or the last non-blank line before it);
/// false when there is nothing left to blank.
fn blank_line_at(work: &mut String, pos: usize) -> bool {
    let pos = pos.min(work.len());
    let mut start = work
        .get(..pos)
        .and_then(|s| s.rfind('\n'))
        .map_or(0, |i| i + 1);
    let mut end = work
        .get(pos..)
        .and_then(|s| s.find('\n'))
        .map_or(work.len(), |i| pos + i);
    // Only white space there (the end of the file): blank the line above.
    while work.get(start..end).is_some_and(|l| l.trim().is_empty()) {
        if start == 0 {
            return false;
        }
        end = start - 1;
        start = work
            .get(..end)
            .and_then(|s| s.rfind('\n'))
            .map_or(0, |i| i + 1);
    }
    // Keep the byte length: each char becomes as many spaces as it had bytes.
    let blanked: String = work
        .get(start..end)
        .unwrap_or("")
        .chars()
        .map(|c| " ".repeat(c.len_utf8()))
        .collect::<String>();
    work.replace_range(start..end, &blanked);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_is_no_statement_is_blanked_and_offsets_stay() {
        let text = "game \"T\"\nwat é\nboard 8 x 8\n";
        let blanked = parse_blanking(text, 64, 1 << 20, |t, _| t.to_string());
        assert_eq!(
            blanked.as_deref(),
            Some("game \"T\"\n      \nboard 8 x 8\n")
        );
        assert_eq!(blanked.map(|b| b.len()), Some(text.len()));
    }

    #[test]
    fn the_limits_end_it() {
        let text = "wat\nwat\nwat\n";
        assert_eq!(parse_blanking(text, 2, 1 << 20, |t, _| t.len()), None);
        assert_eq!(parse_blanking(text, 64, 4, |t, _| t.len()), None);
        assert_eq!(parse_blanking(text, 64, 1 << 20, |t, _| t.len()), Some(12));
    }
}
