//! `rulebook fmt`: the one canonical layout of a rule file.
//!
//! The formatter works on the tokens of the library's own parser (the pest
//! tree of `grammar/rules.pest`), not on a second parser, and knows no
//! statement by name: every statement is a line of tokens, and a statement
//! with a `{ ... }` block has its inner statements one a line, indented by
//! two spaces. So a statement added to the grammar is formatted without a
//! change here. The layout:
//!
//! - one statement a line, tokens separated by one space, except no space
//!   before `,` `:` `)`, none after `(`, none around the `-` of `1-3`;
//! - blocks indented by two spaces, `}` on a line of its own;
//! - every comment kept: a comment on its own line stays on its own line
//!   (indented like the statement after it), a trailing comment stays after
//!   its line; trailing comments are aligned to one column in the file
//!   (lines wider than 40 characters keep theirs two spaces after the code);
//! - at most one blank line between statements, none at the start of the
//!   file or of a block, and one line break at the end.
//!
//! A comment inside a statement ends its line, and a line break after a
//! `,` is kept: the statement goes on on the next line, indented by one
//! more level. The result is parsed again
//! and its tokens and comments compared with the input's; a difference is
//! an error, never a changed file.

use crate::diagnostic::{Code, Diagnostic};
use crate::source::FileId;
use crate::syntax::parser::{Rule, RulesParser};
use pest::iterators::Pair;
use pest::Parser;

/// Indentation of one block level.
const INDENT: &str = "  ";
/// Lines wider than this do not move the column of trailing comments.
const ALIGN_LIMIT: usize = 40;

/// One token of the parse tree: a leaf (a string counts as one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The grammar rule that matched it.
    pub rule: Rule,
    /// Its text.
    pub text: &'a str,
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// A comment: its text (from `//`, trailing spaces cut) and first byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment<'a> {
    /// `// ...`
    pub text: &'a str,
    /// First byte.
    pub start: usize,
}

/// A statement: its tokens up to a block, the statements of the block, and
/// the block's `}`.
#[derive(Debug)]
struct Node<'a> {
    head: Vec<Token<'a>>,
    block: Option<(Vec<Node<'a>>, Token<'a>)>,
}

/// Formats a rule file. A file that does not parse gives its syntax
/// errors (the same as `rulebook check`).
pub fn format_text(text: &str) -> Result<String, Vec<Diagnostic>> {
    let nodes = parse_nodes(text)?;
    let mut writer = Writer::new(text);
    for node in &nodes {
        writer.node(node, 0);
    }
    writer.trivia_before(text.len(), 0, true);
    let out = writer.finish();
    verify(text, &out)?;
    Ok(out)
}

/// Every token of a file that parses, in order.
pub fn tokens(text: &str) -> Option<Vec<Token<'_>>> {
    let mut pairs = RulesParser::parse(Rule::file, text).ok()?;
    let file = pairs.next()?;
    let mut out = Vec::new();
    leaves(file, &mut out);
    Some(out)
}

/// Every comment of a file that parses, in order: what lies between the
/// tokens besides white space.
pub fn comments(text: &str) -> Option<Vec<Comment<'_>>> {
    let tokens = tokens(text)?;
    let mut out = Vec::new();
    let mut at = 0;
    for t in tokens
        .iter()
        .map(|t| (t.start, t.end))
        .chain([(text.len(), text.len())])
    {
        gap_comments(text, at, t.0, &mut out);
        at = t.1.max(at);
    }
    Some(out)
}

fn gap_comments<'a>(text: &'a str, from: usize, to: usize, out: &mut Vec<Comment<'a>>) {
    let gap = text.get(from..to).unwrap_or("");
    let mut offset = 0;
    while let Some(i) = gap.get(offset..).and_then(|g| g.find("//")) {
        let start = offset + i;
        let len = gap
            .get(start..)
            .and_then(|g| g.find('\n'))
            .unwrap_or(gap.len() - start);
        let body = gap.get(start..start + len).unwrap_or("").trim_end();
        out.push(Comment {
            text: body,
            start: from + start,
        });
        offset = start + len;
    }
}

fn syntax_errors(text: &str) -> Vec<Diagnostic> {
    let (_, diagnostics) = crate::syntax::parse(text, FileId(0));
    if diagnostics.is_empty() {
        vec![Diagnostic::new(Code::Syntax, "the file does not parse")]
    } else {
        diagnostics
    }
}

fn parse_nodes(text: &str) -> Result<Vec<Node<'_>>, Vec<Diagnostic>> {
    let mut pairs = RulesParser::parse(Rule::file, text).map_err(|_| syntax_errors(text))?;
    let file = pairs.next().ok_or_else(|| syntax_errors(text))?;
    Ok(file
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(node)
        .collect())
}

fn node(pair: Pair<'_, Rule>) -> Node<'_> {
    let mut head = Vec::new();
    let mut inner = Vec::new();
    let mut close = None;
    let mut in_block = false;
    for child in pair.into_inner() {
        match child.as_rule() {
            Rule::open_brace if !in_block => {
                leaves(child, &mut head);
                in_block = true;
            }
            Rule::close_brace if in_block => {
                let mut t = Vec::new();
                leaves(child, &mut t);
                close = t.into_iter().next();
            }
            _ if in_block => inner.push(node(child)),
            _ => leaves(child, &mut head),
        }
    }
    Node {
        head,
        block: close.map(|c| (inner, c)),
    }
}

fn leaves<'a>(pair: Pair<'a, Rule>, out: &mut Vec<Token<'a>>) {
    let leaf = pair.as_rule() == Rule::string || pair.clone().into_inner().next().is_none();
    if leaf {
        if pair.as_rule() != Rule::EOI {
            let span = pair.as_span();
            out.push(Token {
                rule: pair.as_rule(),
                text: span.as_str(),
                start: span.start(),
                end: span.end(),
            });
        }
    } else {
        for child in pair.into_inner() {
            leaves(child, out);
        }
    }
}

/// One output line.
#[derive(Debug)]
enum Line {
    Blank,
    Comment(usize, String),
    Code {
        indent: usize,
        code: String,
        comment: Option<String>,
    },
}

struct Writer<'a> {
    text: &'a str,
    lines: Vec<Line>,
    /// End of the last token written.
    at: usize,
    /// The line being written: indent and code.
    open: Option<(usize, String)>,
    /// The last token written, for spacing.
    last: Option<Rule>,
    /// The last token was a `-` glued to the number before it.
    glued: bool,
}

impl<'a> Writer<'a> {
    fn new(text: &'a str) -> Writer<'a> {
        Writer {
            text,
            lines: Vec::new(),
            at: 0,
            open: None,
            last: None,
            glued: false,
        }
    }

    fn close_line(&mut self, comment: Option<String>) {
        if let Some((indent, code)) = self.open.take() {
            self.lines.push(Line::Code {
                indent,
                code,
                comment,
            });
        } else if let Some(c) = comment {
            // A trailing comment after a line already closed (after `}`).
            match self.lines.last_mut() {
                Some(Line::Code { comment: slot, .. }) if slot.is_none() => *slot = Some(c),
                _ => self.lines.push(Line::Comment(0, c)),
            }
        }
    }

    /// Writes the comments and blank lines between the last token and
    /// `pos`. `starts` says whether a statement (or `}`) starts at `pos`,
    /// at block level `level`.
    fn trivia_before(&mut self, pos: usize, level: usize, starts: bool) {
        let from = self.at;
        let mut comments = Vec::new();
        gap_comments(self.text, from, pos, &mut comments);
        let first_written = self.lines.is_empty() && self.open.is_none();
        let mut cursor = from;
        let mut continuation = false;
        for c in &comments {
            let between = self.text.get(cursor..c.start).unwrap_or("");
            let newlines = between.matches('\n').count();
            if newlines == 0 && cursor == from && !first_written && self.at > 0 {
                // A trailing comment of the line just written.
                self.close_line(Some(c.text.to_string()));
                continuation = true;
            } else {
                if self.open.is_some() {
                    self.close_line(None);
                    continuation = true;
                }
                if newlines >= 2 && !self.lines.is_empty() && !self.after_open_brace() {
                    self.blank();
                }
                let indent = if starts { level } else { level + 1 };
                self.lines.push(Line::Comment(indent, c.text.to_string()));
            }
            cursor = c.start + c.text.len();
        }
        let rest = self.text.get(cursor..pos).unwrap_or("");
        if starts {
            if self.open.is_some() {
                self.close_line(None);
            }
            let is_end = pos >= self.text.len();
            let closing = self.text.get(pos..pos + 1) == Some("}");
            if rest.matches('\n').count() >= 2
                && !self.lines.is_empty()
                && !is_end
                && !closing
                && !self.after_open_brace()
            {
                self.blank();
            }
        } else if continuation && self.open.is_none() {
            self.open = Some((level + 1, String::new()));
            self.last = None;
        }
        self.at = self.at.max(pos);
    }

    fn after_open_brace(&self) -> bool {
        match self.lines.last() {
            Some(Line::Code { code, comment, .. }) => comment.is_none() && code.ends_with('{'),
            _ => false,
        }
    }

    fn blank(&mut self) {
        if !matches!(self.lines.last(), Some(Line::Blank) | None) {
            self.lines.push(Line::Blank);
        }
    }

    fn token(&mut self, t: &Token<'_>, level: usize, first: bool) {
        let broken_after_comma = !first
            && self.last == Some(Rule::comma)
            && self
                .text
                .get(self.at..t.start)
                .is_some_and(|g| g.contains('\n') && !g.contains("//"));
        self.trivia_before(t.start, level, first);
        if broken_after_comma && self.open.as_ref().is_some_and(|(_, c)| !c.is_empty()) {
            self.close_line(None);
            self.open = Some((level + 1, String::new()));
        }
        let (_, code) = self.open.get_or_insert_with(|| (level, String::new()));
        let glue_dash = t.rule == Rule::dash && self.last == Some(Rule::number);
        let no_space = code.is_empty()
            || matches!(t.rule, Rule::comma | Rule::colon | Rule::close_paren)
            || self.last == Some(Rule::open_paren)
            || glue_dash
            || self.glued;
        if !no_space {
            code.push(' ');
        }
        code.push_str(t.text);
        self.glued = glue_dash;
        self.last = Some(t.rule);
        self.at = t.end;
    }

    fn node(&mut self, node: &Node<'_>, level: usize) {
        for (i, t) in node.head.iter().enumerate() {
            self.token(t, level, i == 0);
        }
        if let Some((inner, close)) = &node.block {
            for n in inner {
                self.node(n, level + 1);
            }
            self.trivia_before(close.start, level + 1, true);
            self.close_line(None);
            self.token(close, level, true);
        }
        self.last = None;
        self.glued = false;
    }

    fn finish(mut self) -> String {
        self.close_line(None);
        while matches!(self.lines.last(), Some(Line::Blank)) {
            self.lines.pop();
        }
        let width = |indent: usize, code: &str| {
            let last = code.rsplit('\n').next().unwrap_or(code);
            if code.contains('\n') {
                last.chars().count()
            } else {
                indent * INDENT.len() + last.chars().count()
            }
        };
        let column = self
            .lines
            .iter()
            .filter_map(|l| match l {
                Line::Code {
                    indent,
                    code,
                    comment: Some(_),
                } => Some(width(*indent, code)),
                _ => None,
            })
            .filter(|w| *w <= ALIGN_LIMIT)
            .max()
            .map_or(0, |w| w + 2);
        let mut out = String::new();
        for line in &self.lines {
            match line {
                Line::Blank => {}
                Line::Comment(indent, text) => {
                    out.push_str(&INDENT.repeat(*indent));
                    out.push_str(text);
                }
                Line::Code {
                    indent,
                    code,
                    comment,
                } => {
                    if !code.is_empty() {
                        out.push_str(&INDENT.repeat(*indent));
                        out.push_str(code);
                    }
                    if let Some(c) = comment {
                        if !code.is_empty() {
                            let w = width(*indent, code);
                            let pad = if w + 2 <= column { column - w } else { 2 };
                            out.push_str(&" ".repeat(pad));
                        } else {
                            out.push_str(&INDENT.repeat(*indent));
                        }
                        out.push_str(c);
                    }
                }
            }
            out.push('\n');
        }
        out
    }
}

/// Checks that `out` has the tokens and comments of `text`, in order.
fn verify(text: &str, out: &str) -> Result<(), Vec<Diagnostic>> {
    let same_tokens = match (tokens(text), tokens(out)) {
        (Some(a), Some(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(&b)
                    .all(|(x, y)| x.rule == y.rule && x.text == y.text)
        }
        _ => false,
    };
    let same_comments = match (comments(text), comments(out)) {
        (Some(a), Some(b)) => a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| x.text == y.text),
        _ => false,
    };
    if same_tokens && same_comments {
        Ok(())
    } else {
        Err(vec![Diagnostic::new(
            Code::Syntax,
            "internal error: the formatted file would differ from the original; it was left as it is",
        )
        .help("please report this file")])
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn layout_of_a_small_file() {
        let text = "// top\n\n\ngame   \"T\"\nboard 8\n x 8 // size\nzone home = ranks 1 - 3\n\
                    piece man \"Man\" {   step (1,-1)   ne // a\n\n  // own\n jump short diagonal\n}   // after\n\n\n";
        let out = format_text(text).unwrap();
        assert_eq!(
            out,
            "// top\n\ngame \"T\"\nboard 8 x 8        // size\nzone home = ranks 1-3\n\
             piece man \"Man\" {\n  step (1, -1) ne  // a\n\n  // own\n  jump short diagonal\n}                  // after\n"
        );
        assert_eq!(format_text(&out).unwrap(), out);
    }

    #[test]
    fn a_comment_inside_a_statement_ends_its_line() {
        let text = "setup man at a1 // first\n  b2 c3\n";
        let out = format_text(text).unwrap();
        assert_eq!(out, "setup man at a1  // first\n  b2 c3\n");
        assert_eq!(format_text(&out).unwrap(), out);
    }

    #[test]
    fn a_syntax_error_is_reported_not_formatted() {
        let errors = format_text("board 8 y 8\n").unwrap_err();
        assert_eq!(errors[0].code, Code::Syntax);
    }
}
