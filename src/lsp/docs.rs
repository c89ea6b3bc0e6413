//! The meaning of keywords, read from the doc comments of
//! `grammar/rules.pest`: the same text the language reference is written
//! from, so hover never says something the grammar does not.

use std::collections::BTreeMap;

/// The grammar, as built into the program.
const GRAMMAR: &str = include_str!("../../grammar/rules.pest");

/// One rule of the grammar: its name, doc comment and body.
#[derive(Clone, Debug)]
pub struct GrammarRule {
    /// `side_stmt`
    pub name: String,
    /// The `///` lines above it, joined, up to the first `- ` line.
    pub doc: String,
    /// The `///` lines from the first `- ` line on, one entry for each `- `
    /// (its prefix cut): the forms of a construct and what each means
    /// (`` `capture optional`: ... ``).
    pub forms: Vec<String>,
    /// The text between its braces.
    pub body: String,
    /// An atomic rule (`@{` or `${`): one token.
    pub atomic: bool,
}

/// The grammar's rules and keywords.
pub struct Grammar {
    /// Every rule, in order.
    pub rules: Vec<GrammarRule>,
    /// Keyword rule (`kw_side`) -> its word (`side`).
    pub keywords: BTreeMap<String, String>,
}

impl Grammar {
    /// Reads the built-in grammar.
    pub fn load() -> Grammar {
        Grammar::parse(GRAMMAR)
    }

    /// Reads a grammar text.
    pub fn parse(text: &str) -> Grammar {
        let mut rules = Vec::new();
        let mut doc: Vec<String> = Vec::new();
        let mut current: Option<(String, String, i32)> = None;
        for line in text.lines() {
            if let Some((name, body, depth)) = current.as_mut() {
                body.push('\n');
                body.push_str(line);
                *depth += brace_balance(line);
                if *depth <= 0 {
                    rules.push(finish(name, body, &doc));
                    doc.clear();
                    current = None;
                }
                continue;
            }
            let trimmed = line.trim();
            if let Some(d) = trimmed.strip_prefix("///") {
                doc.push(d.trim().to_string());
                continue;
            }
            if let Some((name, rest)) = trimmed.split_once('=') {
                let name = name.trim();
                if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    let depth = brace_balance(rest);
                    if depth <= 0 {
                        rules.push(finish(name, rest, &doc));
                        doc.clear();
                    } else {
                        current = Some((name.to_string(), rest.to_string(), depth));
                    }
                    continue;
                }
            }
            if !trimmed.starts_with("//") || trimmed.is_empty() {
                doc.clear();
            }
        }
        let keywords = rules
            .iter()
            .filter(|r| r.name.starts_with("kw_"))
            .filter_map(|r| {
                let start = r.body.find('"')? + 1;
                let len = r.body.get(start..)?.find('"')?;
                Some((r.name.clone(), r.body.get(start..start + len)?.to_string()))
            })
            .collect();
        Grammar { rules, keywords }
    }

    /// The keyword rules that spell `word`.
    pub fn keyword_rules(&self, word: &str) -> Vec<&str> {
        self.keywords
            .iter()
            .filter(|(_, w)| *w == word)
            .map(|(r, _)| r.as_str())
            .collect()
    }

    /// What `word` means where it starts a construct, or else where it is
    /// part of one: the doc comments of those rules (at most four).
    pub fn keyword_docs(&self, word: &str) -> Vec<&GrammarRule> {
        let kws = self.keyword_rules(word);
        if kws.is_empty() {
            return Vec::new();
        }
        let uses = |r: &GrammarRule, first_only: bool| {
            let tokens: Vec<&str> = r
                .body
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|t| !t.is_empty())
                .collect();
            if first_only {
                tokens.first().is_some_and(|t| kws.contains(t))
            } else {
                tokens.iter().any(|t| kws.contains(t))
            }
        };
        let documented = |r: &&GrammarRule| !r.name.starts_with("kw_") && !r.doc.is_empty();
        let mut found: Vec<&GrammarRule> = self
            .rules
            .iter()
            .filter(documented)
            .filter(|r| uses(r, true))
            .collect();
        if found.is_empty() {
            found = self
                .rules
                .iter()
                .filter(documented)
                .filter(|r| uses(r, false))
                .collect();
        }
        found.truncate(4);
        found
    }

    /// A rule with a doc comment.
    pub fn documented(&self, rule: &str) -> Option<&GrammarRule> {
        self.rules
            .iter()
            .find(|r| r.name == rule)
            .filter(|r| !r.doc.is_empty())
    }

    /// The doc comment of a rule.
    pub fn doc(&self, rule: &str) -> Option<&str> {
        self.rules
            .iter()
            .find(|r| r.name == rule)
            .map(|r| r.doc.as_str())
    }
}

fn finish(name: &str, body: &str, doc: &[String]) -> GrammarRule {
    let t = body.trim_start();
    let split = doc
        .iter()
        .position(|l| l.starts_with("- "))
        .unwrap_or(doc.len());
    let (general, rest) = doc.split_at(split);
    let mut forms: Vec<String> = Vec::new();
    for line in rest {
        match (line.strip_prefix("- "), forms.last_mut()) {
            (Some(entry), _) => forms.push(entry.to_string()),
            (None, Some(last)) => {
                last.push(' ');
                last.push_str(line);
            }
            (None, None) => {}
        }
    }
    GrammarRule {
        name: name.to_string(),
        doc: general.join(" "),
        forms,
        body: body.to_string(),
        atomic: t.starts_with('@') || t.starts_with('$'),
    }
}

/// A token of a rule body: a name, a string or an operator.
fn lex(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_alphanumeric() || c == '_' {
            let mut w = c.to_string();
            while let Some(&d) = chars.peek() {
                if d.is_ascii_alphanumeric() || d == '_' {
                    w.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push(w);
        } else if c == '"' {
            let mut w = String::from("\"");
            for d in chars.by_ref() {
                w.push(d);
                if d == '"' {
                    break;
                }
            }
            out.push(w);
        } else if "()|~?*+!&".contains(c) {
            out.push(c.to_string());
        }
    }
    out
}

impl Grammar {
    /// The atomic rules (tokens) that may come first in `rule`.
    pub fn first_tokens(&self, rule: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.first_of_rule(rule, 0, &mut out);
        out.sort();
        out.dedup();
        out
    }

    /// Adds the first tokens of `rule`; returns whether it may match nothing.
    fn first_of_rule(&self, rule: &str, depth: usize, out: &mut Vec<String>) -> bool {
        let Some(r) = self.rules.iter().find(|r| r.name == rule) else {
            return false;
        };
        if r.atomic || depth > 24 {
            out.push(rule.to_string());
            return false;
        }
        let body = r.body.trim_start().trim_start_matches(['_', '@', '$', '!']);
        let body = body.trim().trim_start_matches('{').trim_end_matches('}');
        let tokens = lex(body);
        let mut at = 0;
        self.first_of_expr(&tokens, &mut at, depth + 1, out)
    }

    /// expr := seq ('|' seq)*
    fn first_of_expr(
        &self,
        t: &[String],
        at: &mut usize,
        depth: usize,
        out: &mut Vec<String>,
    ) -> bool {
        let mut nullable = self.first_of_seq(t, at, depth, out);
        while t.get(*at).map(String::as_str) == Some("|") {
            *at += 1;
            nullable |= self.first_of_seq(t, at, depth, out);
        }
        nullable
    }

    /// seq := term ('~' term)*: the first of each term while those before
    /// it may match nothing.
    fn first_of_seq(
        &self,
        t: &[String],
        at: &mut usize,
        depth: usize,
        out: &mut Vec<String>,
    ) -> bool {
        let mut nullable = true;
        loop {
            let mut scratch = Vec::new();
            let term_nullable = self.first_of_term(t, at, depth, &mut scratch);
            if nullable {
                out.extend(scratch);
                nullable = term_nullable;
            }
            if t.get(*at).map(String::as_str) == Some("~") {
                *at += 1;
            } else {
                return nullable;
            }
        }
    }

    /// term := ('!'|'&')? primary ('?'|'*'|'+')?
    fn first_of_term(
        &self,
        t: &[String],
        at: &mut usize,
        depth: usize,
        out: &mut Vec<String>,
    ) -> bool {
        let predicate = matches!(t.get(*at).map(String::as_str), Some("!" | "&"));
        if predicate {
            *at += 1;
        }
        let mut found = Vec::new();
        let mut nullable = match t.get(*at).map(String::as_str) {
            Some("(") => {
                *at += 1;
                let n = self.first_of_expr(t, at, depth, &mut found);
                if t.get(*at).map(String::as_str) == Some(")") {
                    *at += 1;
                }
                n
            }
            Some(w) if w.starts_with('"') => {
                *at += 1;
                false
            }
            Some(w) => {
                *at += 1;
                let w = w.to_string();
                self.first_of_rule(&w, depth, &mut found)
            }
            None => true,
        };
        if matches!(t.get(*at).map(String::as_str), Some("?" | "*")) {
            nullable = true;
        }
        if matches!(t.get(*at).map(String::as_str), Some("?" | "*" | "+")) {
            *at += 1;
        }
        if predicate {
            return true;
        }
        out.extend(found);
        nullable
    }
}

/// `{` minus `}` outside quotes.
fn brace_balance(line: &str) -> i32 {
    let mut depth = 0;
    let mut quoted = false;
    let mut escaped = false;
    for c in line.chars() {
        match c {
            '\\' if quoted && !escaped => {
                escaped = true;
                continue;
            }
            '"' if !escaped => quoted = !quoted,
            '{' if !quoted => depth += 1,
            '}' if !quoted => depth -= 1,
            _ => {}
        }
        escaped = false;
    }
    depth
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn keywords_have_their_statement_docs() {
        let g = Grammar::load();
        assert_eq!(g.keywords.get("kw_side").map(String::as_str), Some("side"));
        assert_eq!(
            g.keywords.get("kw_no_stop").map(String::as_str),
            Some("no-stop")
        );
        let side = g.keyword_docs("side");
        assert!(side.iter().any(|r| r.name == "side_stmt"), "{side:?}");
        let compulsory = g.keyword_docs("compulsory");
        assert!(!compulsory.is_empty());
        assert!(g.keyword_docs("not-a-keyword").is_empty());
        let place = g.first_tokens("place");
        for want in [
            "algebraic_square",
            "numeric_square",
            "kw_enemy",
            "kw_any",
            "name",
        ] {
            assert!(place.contains(&want.to_string()), "{want} in {place:?}");
        }
        assert!(g.first_tokens("setup_stmt") == vec!["kw_setup".to_string()]);
        // Every keyword of the grammar has some text to show.
        for word in g.keywords.values() {
            assert!(!g.keyword_docs(word).is_empty(), "`{word}` has no doc");
        }
    }
}
