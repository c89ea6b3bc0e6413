//! PDN 3.0, the portable game notation: games to and from other software
//! of the checkers family. Tags (`[GameType "26"]`, `[FEN "W:W21,22:B1,2"]`, `[Result ...]`)
//! and the move text with numeric squares (`1. 22-18 11-15 2. 18x11`).

use crate::board::{Match, Move, Outcome, Position, Tables};

/// One game read from a PDN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tags in order.
    pub tags: Vec<(String, String)>,
    /// The line of each tag, in the same order.
    pub tag_lines: Vec<usize>,
    /// Moves with the line they stand on.
    pub moves: Vec<(usize, String)>,
    /// The result token, if any.
    pub result: Option<String>,
}

impl PdnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tag_at(name).map(|(_, v)| v)
    }

    /// The line and value of a tag.
    pub fn tag_at(&self, name: &str) -> Option<(usize, &str)> {
        self.tags
            .iter()
            .zip(&self.tag_lines)
            .find(|((k, _), _)| k.eq_ignore_ascii_case(name))
            .map(|((_, v), &line)| (line, v.as_str()))
    }
}

/// A problem in a PDN file, at a line (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// The line.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for PdnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

fn is_result(tok: &str) -> bool {
    matches!(
        tok,
        "1-0" | "0-1" | "2-0" | "0-2" | "1-1" | "1/2-1/2" | "*" | "0-0"
    )
}

/// The text of a PDN file from its bytes: UTF-8 (with or without a byte
/// order mark), or else Latin-1, the encoding of many older programs'
/// files (every byte is a Latin-1 character, so this never fails).
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Reads a tag `[Name "value"]` from `chars` (after its `[`), on one line;
/// `\"` and `\\` escape a quote and a backslash in the value.
fn read_tag(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    line: usize,
) -> Result<(String, String), PdnError> {
    let bad = |reason: String| PdnError { line, reason };
    let mut name = String::new();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() || c == '"' || c == ']' {
            break;
        }
        name.push(c);
        chars.next();
    }
    while chars.peek().is_some_and(|&c| c == ' ' || c == '\t') {
        chars.next();
    }
    if name.is_empty() {
        return Err(bad(
            "a tag is written [Name \"value\"]: its name is missing".into(),
        ));
    }
    if chars.next_if_eq(&'"').is_none() {
        return Err(bad(format!(
            "the value of tag {name} must be in double quotes: [{name} \"value\"]"
        )));
    }
    let mut value = String::new();
    loop {
        match chars.next() {
            Some('"') => break,
            Some('\\') => match chars.next() {
                Some(c) if c != '\n' => value.push(c),
                _ => {
                    return Err(bad(format!(
                        "the value of tag {name} is never closed by `\"`"
                    )))
                }
            },
            Some('\n') | None => {
                return Err(bad(format!(
                    "the value of tag {name} is never closed by `\"`"
                )))
            }
            Some(c) => value.push(c),
        }
    }
    while chars.peek().is_some_and(|&c| c == ' ' || c == '\t') {
        chars.next();
    }
    if chars.next_if_eq(&']').is_none() {
        return Err(bad(format!("the tag {name} is not closed by `]`")));
    }
    Ok((name, value))
}

/// Ends the token being read (a move, a move number, a NAG or the result)
/// and adds it to `game`; true when it was the result.
fn end_token(tok: &mut String, tok_line: usize, game: &mut PdnGame) -> bool {
    let t = std::mem::take(tok);
    if t.is_empty() {
        return false;
    }
    if is_result(&t) {
        game.result = Some(t);
        return true;
    }
    if t.starts_with('$') {
        return false;
    }
    let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
    let mv = match rest.strip_prefix('.') {
        Some(after) => after.trim_start_matches('.'),
        None => t.as_str(),
    };
    let mv = mv.trim_end_matches(['!', '?']);
    if !mv.is_empty() {
        game.moves.push((tok_line, mv.to_string()));
    }
    false
}

/// Reads the first game of a PDN file: its tags, its moves (with the line
/// each stands on) and its result. Tags may share a line; comments
/// `{...}` (in which `(` and `)` are just text) and `; to the end of the
/// line`, escape lines that begin with `%`, variations `(...)`, NAGs `$n`
/// and move numbers `12.` / `12...` are skipped; a byte order mark is
/// ignored.
pub fn parse_first(text: &str) -> Result<PdnGame, PdnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut game = PdnGame::default();
    let mut line = 1;
    let mut line_start = true;
    // The line a comment or the outermost variation was opened on.
    let mut comment: Option<usize> = None;
    let mut variation: Option<(usize, usize)> = None;
    let mut tok = String::new();
    let mut tok_line = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let at_start = std::mem::replace(&mut line_start, c == '\n');
        if c == '\n' {
            if comment.is_none() && variation.is_none() && end_token(&mut tok, tok_line, &mut game)
            {
                return Ok(game);
            }
            line += 1;
            continue;
        }
        if comment.is_some() {
            if c == '}' {
                comment = None;
            }
            continue;
        }
        if at_start && c == '%' && variation.is_none() {
            // An escape line: for other programs, skipped whole.
            while chars.next_if(|&c| c != '\n').is_some() {}
            continue;
        }
        match c {
            '{' => {
                comment = Some(line);
                if variation.is_none() && end_token(&mut tok, tok_line, &mut game) {
                    return Ok(game);
                }
            }
            ';' => {
                while chars.next_if(|&c| c != '\n').is_some() {}
                if variation.is_none() && end_token(&mut tok, tok_line, &mut game) {
                    return Ok(game);
                }
            }
            '(' => match &mut variation {
                Some((_, depth)) => *depth += 1,
                None => {
                    if end_token(&mut tok, tok_line, &mut game) {
                        return Ok(game);
                    }
                    variation = Some((line, 1));
                }
            },
            ')' => match &mut variation {
                Some((_, depth)) if *depth > 1 => *depth -= 1,
                Some(_) => variation = None,
                None => {
                    return Err(PdnError {
                        line,
                        reason: "this `)` closes no variation".into(),
                    })
                }
            },
            _ if variation.is_some() => {}
            '[' if tok.is_empty() => {
                if !game.moves.is_empty() {
                    break; // the next game's tags
                }
                let (name, value) = read_tag(&mut chars, line)?;
                game.tags.push((name, value));
                game.tag_lines.push(line);
            }
            c if c.is_whitespace() => {
                if end_token(&mut tok, tok_line, &mut game) {
                    return Ok(game);
                }
            }
            c => {
                if tok.is_empty() {
                    tok_line = line;
                }
                tok.push(c);
            }
        }
    }
    if let Some(l) = comment {
        return Err(PdnError {
            line: l,
            reason: "a comment opened here with `{` is never closed by `}`".into(),
        });
    }
    if let Some((l, _)) = variation {
        return Err(PdnError {
            line: l,
            reason: "a variation opened here with `(` is never closed by `)`".into(),
        });
    }
    end_token(&mut tok, tok_line, &mut game);
    Ok(game)
}

/// The PDN result token of an outcome: 1-0 when the side that moves first
/// wins, 0-1 when the other does, 1/2-1/2 (or * when the game goes on).
pub fn result_token(t: &Tables, outcome: Option<&Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win { winner, .. }) if *winner == t.game.first => "1-0",
        Some(Outcome::Win { .. }) => "0-1",
        Some(Outcome::Draw { .. }) => "1/2-1/2",
        None => "*",
    }
}

/// Writes a game as PDN: tags, then numbered moves in numeric notation.
pub fn write(t: &Tables, event: &str, start: &Position, moves: &[Move]) -> String {
    let g = &t.game;
    let mut m = Match::new(t, start.clone());
    let mut text = Vec::new();
    let mut number = 1;
    for (i, mv) in moves.iter().enumerate() {
        // Move numbers count the turns of the side that moves first.
        let opens = m.pos.to_move == g.first.0;
        if i == 0 && !opens {
            text.push(format!("{number}..."));
        } else if opens {
            text.push(format!("{number}."));
        }
        text.push(pdn_move(t, mv));
        m.play(mv);
        if m.pos.to_move == g.first.0 {
            number += 1;
        }
    }
    let result = result_token(t, m.outcome());
    let mut out = String::new();
    out.push_str(&format!(
        "[Event \"{}\"]\n",
        event.replace('\\', "/").replace('"', "'")
    ));
    if let Some(gt) = g.pdn_game_type {
        out.push_str(&format!("[GameType \"{gt}\"]\n"));
    }
    if *start != Position::start(t) {
        out.push_str(&format!("[FEN \"{}\"]\n", numeric_fen(t, start)));
    }
    out.push_str(&format!("[Result \"{result}\"]\n\n"));
    let mut line = String::new();
    for tok in text.iter().map(String::as_str).chain([result]) {
        if line.len() + tok.len() + 1 > 78 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(tok);
        line.push(' ');
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// A move with numeric squares (PDN writes numbers).
fn pdn_move(t: &Tables, mv: &Move) -> String {
    let num = |s: crate::board::game::Sq| {
        t.game
            .squares
            .get(usize::from(s.0))
            .map_or_else(|| "?".to_string(), |i| i.number.to_string())
    };
    let Some(from) = mv.from else {
        return "pass".into();
    };
    let sep = if mv.is_capture() { "x" } else { "-" };
    let mut s = num(from);
    for &p in &mv.path {
        s.push_str(sep);
        s.push_str(&num(p));
    }
    s
}

/// A position string with numeric squares.
fn numeric_fen(t: &Tables, pos: &Position) -> String {
    let g = &t.game;
    let mut out = String::new();
    if let Some(s) = g.sides.get(usize::from(pos.to_move)) {
        out.push(s.letter);
    }
    for (si, side) in g.sides.iter().enumerate() {
        out.push(':');
        out.push(side.letter);
        let mut items = Vec::new();
        for (i, info) in g.squares.iter().enumerate() {
            if let Some((s, k)) = pos.piece(t, crate::board::game::Sq(i as u16)) {
                if usize::from(s.0) == si {
                    let letter = if k.0 == 0 {
                        String::new()
                    } else {
                        g.kinds
                            .get(usize::from(k.0))
                            .map_or_else(String::new, |k| k.letter.to_string())
                    };
                    items.push(format!("{letter}{}", info.number));
                }
            }
        }
        out.push_str(&items.join(","));
    }
    out
}

/// Plays the moves of a PDN game in `t`; returns the moves played and, on an
/// illegal or unreadable move, the error (naming its line) after the moves
/// before it.
pub fn play(t: &Tables, game: &PdnGame) -> (Position, Vec<Move>, Option<PdnError>) {
    let start = match game.tag_at("FEN") {
        Some((line, f)) => match Position::parse(t, f) {
            Ok(p) => p,
            Err(e) => {
                return (
                    Position::start(t),
                    Vec::new(),
                    Some(PdnError {
                        line,
                        reason: format!("bad FEN tag: {e}"),
                    }),
                )
            }
        },
        None => Position::start(t),
    };
    let mut m = Match::new(t, start.clone());
    let mut played = Vec::new();
    for (line, text) in &game.moves {
        match m.parse_move(text) {
            Ok(mv) => {
                m.play(&mv);
                played.push(mv);
            }
            Err(why) => {
                return (
                    start,
                    played,
                    Some(PdnError {
                        line: *line,
                        reason: format!("{} is illegal: {why}", crate::shown::shown(text)),
                    }),
                )
            }
        }
    }
    (start, played, None)
}
