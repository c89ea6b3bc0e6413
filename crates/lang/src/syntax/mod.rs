//! Text -> syntax tree. Parse errors become diagnostics that name what was
//! expected in words; after an error the parser picks up again at the next
//! line that starts a statement, so one run reports every syntax error.

mod blank;
mod expected;
mod lower;
// The code pest derives (`Rule`, its variants) has no doc comments.
#[allow(missing_docs)]
pub mod parser;

use crate::ast::File;
use crate::diagnostic::{Code, Diagnostic};
use crate::source::{FileId, Span};
use parser::{Rule, RulesParser};
use pest::error::{ErrorVariant, InputLocation};
use pest::Parser;

pub use blank::parse_blanking;
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
    "pdn",
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
    "track",
    "players",
    "seats",
    "pieces",
    "dice",
    "move",
    "enter",
    "extra",
    "finish",
    "win",
    "landing",
    "resting",
    "safe",
    "outcome",
    "finishing",
    "rolling",
];

/// The effects of a cell rule, for "did you mean" after a misspelt one.
const EFFECT_WORDS: &[&str] = &[
    "forward",
    "back",
    "go",
    "out",
    "miss",
    "no",
    "extra",
    "repeat",
    "held",
    "bump",
    "stop",
    "others",
    "opponents",
    "furthest",
    "hindmost",
    "own-pieces",
    "last-moved",
    "end",
];

/// The tests of a cell rule, for "did you mean" after a misspelt one.
const TEST_WORDS: &[&str] = &[
    "digit", "double", "cells", "cell", "multiple", "any", "entering", "roll", "not",
];

/// The syntax errors reported for one file (docs/limits.md): past them the
/// parse goes on only to count the rest, and one more error says how many.
pub const MAX_SYNTAX_ERRORS: usize = 100;

thread_local! {
    /// Bytes of text handed to the parser or read back for hints on this
    /// thread (see [`recovery_work`]).
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn add_work(bytes: usize) {
    WORK.with(|w| w.set(w.get().saturating_add(bytes as u64)));
}

/// How many bytes of text this thread has handed to the parser, or read
/// again to explain syntax errors, so far. A parse is linear in its text
/// however many errors it has (it used to read all the text after each
/// error, and all the text before it twice); tests count this work
/// instead of timing it.
#[doc(hidden)]
pub fn recovery_work() -> u64 {
    WORK.with(std::cell::Cell::get)
}

/// How far past where it starts a parse after an error first looks, in
/// bytes (then twice as far, and so on).
const WINDOW: usize = 256;

/// Parses `text[offset..]` as a file. The first parse (`whole`) is handed
/// all of it. A parse after an error is handed a window of it that ends at
/// a line start, doubled until the parse fails inside the window or the
/// window is the whole rest: every token ends before a line break or, when
/// it reads on (white space, a string), is followed by a token the parser
/// tries, so a parse that fails before the end of its window never read
/// the text past it and fails the same on the whole rest. (pest reads the
/// whole input after the error to build its message, so handing it the
/// whole rest after each error made recovery quadratic.)
fn parse_at(
    text: &str,
    offset: usize,
    whole: bool,
) -> Option<Result<pest::iterators::Pairs<'_, Rule>, pest::error::Error<Rule>>> {
    let rest = text.get(offset..)?;
    let mut span = WINDOW;
    loop {
        let cut = if whole || span >= rest.len() {
            rest.len()
        } else {
            rest.as_bytes()
                .get(span..)
                .and_then(|after| after.iter().position(|&b| b == b'\n'))
                .map_or(rest.len(), |i| span + i + 1)
        };
        let window = rest.get(..cut)?;
        add_work(window.len());
        let result = RulesParser::parse(Rule::file, window);
        if cut >= rest.len() {
            return Some(result);
        }
        if let Err(e) = &result {
            if error_pos(e) < cut {
                return Some(result);
            }
        }
        span = span.saturating_mul(2);
    }
}

/// The byte where a parse failed.
fn error_pos(error: &pest::error::Error<Rule>) -> usize {
    match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((p, _)) => p,
    }
}

/// Parses one file. The tree is `Some` only when there is no syntax error.
/// At most [`MAX_SYNTAX_ERRORS`] syntax errors are reported, then one that
/// counts the others.
pub fn parse(text: &str, file: FileId) -> (Option<File>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut offset = 0;
    let mut tree = None;
    // The text outside strings and comments, made once at the first error
    // (every error's hints look back through it).
    let mut cleaned: Option<String> = None;
    // Syntax errors past the limit: where the first was, and how many.
    let mut unreported: Option<(usize, usize)> = None;
    while let Some(parsed) = parse_at(text, offset, offset == 0) {
        match parsed {
            Ok(mut pairs) => {
                if diagnostics.is_empty() {
                    if let Some(p) = pairs.peek() {
                        too_large(p, file, offset, &mut diagnostics);
                    }
                }
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
                let pos = offset + error_pos(&error);
                if diagnostics.len() < MAX_SYNTAX_ERRORS {
                    let positives = match &error.variant {
                        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
                        ErrorVariant::CustomError { .. } => Vec::new(),
                    };
                    let cleaned = cleaned.get_or_insert_with(|| code_only(text));
                    diagnostics.push(syntax_error(text, cleaned, file, pos, &positives));
                } else {
                    let (_, more) = unreported.get_or_insert((pos, 0));
                    *more += 1;
                }
                match resume_point(text, pos, offset) {
                    Some(next) => offset = next,
                    None => break,
                }
            }
        }
    }
    if let Some((first, more)) = unreported {
        let end = first + token_length(text.get(first..).unwrap_or(""));
        diagnostics.push(
            Diagnostic::new(
                Code::Syntax,
                format!(
                    "and {} more syntax {}",
                    thousands(more),
                    if more == 1 { "error" } else { "errors" }
                ),
            )
            .primary(Span::new(file, first, end), "the first of them")
            .help(format!(
                "only the first {MAX_SYNTAX_ERRORS} syntax errors are listed; mend those and check again"
            )),
        );
    }
    (tree, diagnostics)
}

/// `199900` -> `199,900`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Reports every number of the file that doesn't fit 32 bits (they would
/// otherwise be read as 4294967295 and judged by that value).
fn too_large(
    file_pair: pest::iterators::Pair<'_, Rule>,
    file: FileId,
    offset: usize,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for p in file_pair.into_inner().flatten() {
        if !matches!(
            p.as_rule(),
            Rule::number | Rule::integer | Rule::numeric_square
        ) {
            continue;
        }
        let digits = p.as_str().trim_start_matches('-');
        if digits.parse::<u32>().is_ok() {
            continue;
        }
        let span = p.as_span();
        let shown = if digits.len() > 24 {
            format!("a number of {} digits", digits.len())
        } else {
            format!("`{}`", p.as_str())
        };
        diagnostics.push(
            Diagnostic::new(Code::CountRange, format!("{shown} is too large"))
                .primary(
                    Span::new(file, offset + span.start(), offset + span.end()),
                    "too large",
                )
                .help(format!(
                    "numbers in rule files are at most {}; boards, counts and cells are far smaller",
                    u32::MAX
                )),
        );
    }
}

/// The diagnostic for a parse that failed at byte `pos`; `cleaned` is
/// [`code_only`] of the whole text.
fn syntax_error(
    text: &str,
    cleaned: &str,
    file: FileId,
    pos: usize,
    positives: &[Rule],
) -> Diagnostic {
    // Both looks back stop at the latest word (a statement keyword starts
    // the text each parse began at), so they read no more than that parse.
    let before = cleaned.get(..pos).unwrap_or("");
    let previous = before
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .rev()
        .find(|w| !w.is_empty())
        .unwrap_or("");
    // `only closed`: the kinds of `only` are names read past a look-ahead
    // for the words that end them, which leaves the parser nothing to
    // report; what is wanted is a name.
    let a_name = [Rule::name];
    let positives = if positives.is_empty() && previous == "only" {
        &a_name[..]
    } else {
        positives
    };
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
    let d = Diagnostic::new(Code::Syntax, format!("expected {expected}, found {found}")).primary(
        Span::new(file, pos, pos + token_len),
        format!("expected {expected}"),
    );
    if rest.is_empty() && positives.contains(&Rule::close_brace) {
        if let Some(open) = unclosed_brace(cleaned) {
            return d
                .secondary(Span::new(file, open, open + 1), "this `{` is never closed")
                .help("add the `}` that closes the block");
        }
    }
    let word = rest.get(..token_len).unwrap_or("");
    // `bump back 5`: `bump` takes nothing; a target says which pieces move.
    if previous == "bump" && ["forward", "back", "go", "out"].contains(&word) {
        let moved = rest.lines().next().unwrap_or(word);
        let moved = moved.split("//").next().unwrap_or(word).trim();
        return d.help(format!(
            "`bump` sends the other pieces on the cell out and takes nothing after it; to move them another way, give the move a target: `others {moved}` (or `opponents {moved}` to spare the player's own pieces)"
        ));
    }
    // `only king when-empty`: `when-empty` qualifies `hostile` alone.
    if word == "when-empty" && previous != "hostile" {
        return d.help(
            "`when-empty` belongs to `hostile`: write `hostile when-empty` for squares that count as captors only while empty (`zone NAME = SQUARES hostile when-empty only KIND ...`)",
        );
    }
    let inside_when =
        positives.contains(&Rule::close_brace) && ["option", "when", "extends"].contains(&word);
    let help = if inside_when {
        Some(format!("`{word}` can't be used inside a `when` block"))
    } else {
        syntax_help(rest, positives).or_else(|| form_help(before, &expected))
    };
    d.maybe_help(help)
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
    let expected = expected_words(positives);
    if expected.contains("an effect (") {
        if let Some(help) = crate::suggest::did_you_mean(&word, EFFECT_WORDS.iter().copied()) {
            return Some(help);
        }
        return Some("an effect is one of: forward N, back N, go to N, out, miss N turns, no extra roll, extra roll, repeat move, held, bump, stop, end turn; or a move with a target before it (others, opponents, furthest, hindmost, own-pieces, last-moved), such as `opponents out`".to_string());
    }
    if expected.contains("a test (") {
        if let Some(help) = crate::suggest::did_you_mean(&word, TEST_WORDS.iter().copied()) {
            return Some(help);
        }
        return Some("a test is one of: digit D, double, cells N N-M, multiple of K, any, entering, roll F F; joined by `and`, maybe with `not`".to_string());
    }
    if positives.contains(&Rule::letter) {
        return Some("a letter is one upper-case letter, such as `K`".to_string());
    }
    if positives.contains(&Rule::string) {
        return Some("texts are written in double quotes, such as \"King\"".to_string());
    }
    None
}

/// The text outside strings and comments, each character of those replaced
/// by a space (so byte offsets of ASCII text stay put).
fn code_only(text: &str) -> String {
    add_work(text.len());
    let mut cleaned = String::with_capacity(text.len());
    let (mut in_string, mut in_comment) = (false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_comment {
            in_comment = c != '\n';
        } else if in_string {
            in_string = c != '"';
        } else if c == '"' {
            in_string = true;
        } else if c == '/' && chars.peek() == Some(&'/') {
            in_comment = true;
        } else {
            cleaned.push(c);
            continue;
        }
        cleaned.extend(std::iter::repeat_n(' ', c.len_utf8()));
    }
    cleaned
}

/// The byte offset of the last `{` that no `}` closes; `cleaned` is
/// [`code_only`] of the text.
fn unclosed_brace(cleaned: &str) -> Option<usize> {
    let mut open = Vec::new();
    for (i, c) in cleaned.char_indices() {
        match c {
            '{' => open.push(i),
            '}' => {
                open.pop();
            }
            _ => {}
        }
    }
    open.pop()
}

/// The form of each statement and piece line, by its keyword.
const FORMS: &[(&str, &str)] = &[
    ("extends", "`extends \"NAME\"`"),
    ("game", "`game \"Title\"`"),
    ("description", "`description \"text\"`"),
    ("board", "`board WIDTH x HEIGHT`, such as `board 8 x 8`"),
    ("playable", "`playable all`, `playable dark` or `playable light`"),
    ("notation", "`notation algebraic` or `notation numeric`"),
    ("pdn", "`pdn gametype N`, such as `pdn gametype 26`"),
    ("side", "`side ID \"Name\" forward north|south|east|west`, then maybe `letter L`"),
    ("first", "`first SIDE`"),
    ("directions", "`directions NAME = DIRECTION ...`"),
    ("zone", "`zone NAME = SQUARES`, `zone NAME = ranks N-M` or `zone NAME = SIDE: SQUARES, SIDE: SQUARES`, then maybe `no-stop`, `hostile [when-empty]` or `only KIND ... [closed]`"),
    ("piece", "`piece ID \"Name\" { LINES }`, with `letter L` maybe before the `{`"),
    ("setup", "`setup KIND at ZONE` or `setup SIDE KIND at SQUARES`"),
    ("capture", "`capture compulsory|optional|most|free`, `capture removes at-end|at-once`, `capture converts to KIND`, `capture custodian DIRS`, `capture neighbours DIRS` or `capture edge hostile|neutral`"),
    ("chain", "`chain must-continue` or `chain may-stop`"),
    ("crown", "`crown mid-chain stay|continue|stop`"),
    ("long-landing", "`long-landing any` or `long-landing must-continue`"),
    ("on", "`on end at ZONE convert to KIND`"),
    ("end", "`end CONDITION OUTCOME`: `no-pieces`, `no-moves`, `repetition N`, `after N plies without EVENT or EVENT ...`, `reach ZONE [KIND]`, `reduced-to N` or `captured KIND`, then `win`, `lose`, `draw` (or `pass` after `no-moves`); or `end loser drops-out|ends-game`"),
    ("option", "`option NAME = VALUE VALUE ...`"),
    ("when", "`when OPTION = VALUE { STATEMENTS }`"),
    ("track", "`track N`, such as `track 100`, or `track N loop starts CELL CELL ... home N`"),
    ("layout", "`layout serpentine N` (such as `layout serpentine 10`), `layout spiral`, `layout cross`, `layout lanes`, `layout tables` or `layout rows`"),
    ("players", "`players N` or `players N-M`, such as `players 2-6`"),
    ("seats", "`seats NAME NAME ...`, such as `seats red blue green`"),
    ("pieces", "`pieces N per player`"),
    ("dice", "`dice N dF`, such as `dice 2 d6`"),
    ("move", "`move by sum`, `move compulsory` or `move optional`"),
    ("enter", "`enter always` or `enter on F`, such as `enter on 6`, maybe followed by `at start`"),
    ("extra", "`extra roll on doubles`, `extra roll on F` or `extra roll never`"),
    ("finish", "`finish exact bounce`, `finish exact` or `finish past`"),
    ("win", "`win first piece` or `win all pieces`"),
    ("safe", "`safe cells N N-M ...`"),
    ("outcome", "`outcome first-home win|lose` or `outcome last-home win|lose`"),
    ("finishing", "`finishing order`"),
    ("score", "`score N when the loser has borne off none \"NAME\"`, `score N when the loser has a piece out or in the winner's last N`, `score N` or `score pieces left`"),
    ("rolling", "`rolling F F: EFFECT, EFFECT` or `rolling N doubles in a row: EFFECT, EFFECT`"),
    ("landing", "`landing rules once|chain` or `landing on TEST: EFFECT, EFFECT`"),
    ("resting", "`resting on TEST: EFFECT, EFFECT`"),
    ("step", "`step DIRECTIONS`"),
    ("slide", "`slide DIRECTIONS`"),
    ("jump", "`jump short DIRECTIONS` or `jump long DIRECTIONS`"),
    ("promote", "`promote KIND at ZONE`"),
    ("immune", "`immune to KIND ...`"),
    ("value", "`value N`"),
    ("captured", "`captured surrounded` or `captured surrounded at ZONE`"),
];

/// The form of the statement or line being written where `before` ends:
/// found by its keyword, the last one in `before` (the text before the
/// error, strings and comments blanked by [`code_only`]).
fn form_help(before: &str, expected: &str) -> Option<String> {
    if expected == "a new statement" {
        return Some(
            "a statement starts with a keyword such as `board`, `side`, `piece` or `setup`"
                .to_string(),
        );
    }
    // A statement whose words hold other statements' keywords (`score 2
    // when the loser has a piece ...`) is named by its first word.
    let line = before.rsplit('\n').next().unwrap_or("").trim_start();
    let own = ["score"]
        .iter()
        .find(|k| line.strip_prefix(**k).is_some_and(|r| r.starts_with(' ')))
        .and_then(|k| FORMS.iter().find(|(f, _)| f == k));
    let keyword = match own {
        Some(form) => form,
        None => before
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .rev()
            .find_map(|w| FORMS.iter().find(|(k, _)| *k == w))?,
    };
    Some(format!("write {}", keyword.1))
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

/// Where parsing resumes after an error at `pos`: the start of the line of
/// the error, or of a later one, that begins in its first column with a
/// statement keyword; always after `offset`, where the failed parse began.
fn resume_point(text: &str, pos: usize, offset: usize) -> Option<usize> {
    let mut start = text.get(..pos)?.rfind('\n').map_or(0, |i| i + 1);
    // An error after the first word of its line would only be found again
    // by parsing that line anew: resume after it.
    if !text.get(start..pos)?.trim().is_empty() {
        start += text.get(start..)?.find('\n')? + 1;
    }
    loop {
        if start > offset {
            let line = text.get(start..)?;
            let word: String = line
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if STATEMENT_KEYWORDS.contains(&word.as_str()) {
                return Some(start);
            }
        }
        let newline = text.get(start..)?.find('\n')?;
        start += newline + 1;
    }
}
