//! PDN 3.0, the portable game notation: games to and from other software
//! of the checkers family. Tags (`[GameType "26"]`, `[FEN "W:W21,22:B1,2"]`, `[Result ...]`)
//! and the move text with numeric squares (`1. 22-18 11-15 2. 18x11`).

use crate::board::{Match, Move, Outcome, Position, Tables};

/// One game read from a PDN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnGame {
    /// Tags in order.
    pub tags: Vec<(String, String)>,
    /// Moves with the line they stand on.
    pub moves: Vec<(usize, String)>,
    /// The result token, if any.
    pub result: Option<String>,
}

impl PdnGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
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

/// Reads the first game of a PDN file: its tags, its moves (with the line
/// each stands on) and its result. Comments `{...}`, variations `(...)`,
/// NAGs `$n` and move numbers `12.` / `12...` are skipped.
pub fn parse_first(text: &str) -> Result<PdnGame, PdnError> {
    let mut game = PdnGame::default();
    let mut depth = 0usize;
    let mut opened_at = 0;
    for (i, line) in text.lines().enumerate() {
        let ln = i + 1;
        let trimmed = line.trim();
        if depth == 0 && trimmed.starts_with('[') {
            if !game.moves.is_empty() {
                break; // the next game's tags
            }
            let inner = trimmed
                .strip_prefix('[')
                .and_then(|s| s.strip_suffix(']'))
                .ok_or_else(|| PdnError {
                    line: ln,
                    reason: format!("a tag is written [Name \"value\"], not `{trimmed}`"),
                })?;
            let (name, value) = inner.split_once(' ').ok_or_else(|| PdnError {
                line: ln,
                reason: format!("the tag `{inner}` has no value"),
            })?;
            let value = value
                .trim()
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| PdnError {
                    line: ln,
                    reason: format!("the value of tag {name} must be in double quotes"),
                })?;
            game.tags.push((name.to_string(), value.to_string()));
            continue;
        }
        let mut tok = String::new();
        let mut toks = Vec::new();
        for c in line.chars() {
            match c {
                '{' | '(' => {
                    if depth == 0 {
                        opened_at = ln;
                    }
                    depth += 1;
                }
                '}' | ')' if depth > 0 => depth -= 1,
                _ if depth > 0 => {}
                c if c.is_whitespace() => toks.push(std::mem::take(&mut tok)),
                c => tok.push(c),
            }
        }
        toks.push(tok);
        for t in toks.into_iter().filter(|t| !t.is_empty()) {
            if is_result(&t) {
                game.result = Some(t);
                return Ok(game);
            }
            if t.starts_with('$') {
                continue;
            }
            let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
            let mv = match rest.strip_prefix('.') {
                Some(after) => after.trim_start_matches('.'),
                None => t.as_str(),
            };
            let mv = mv.trim_end_matches(['!', '?']);
            if !mv.is_empty() {
                game.moves.push((ln, mv.to_string()));
            }
        }
    }
    if depth > 0 {
        return Err(PdnError {
            line: opened_at,
            reason: "a comment or variation opened here is never closed".into(),
        });
    }
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
    out.push_str(&format!("[Event \"{}\"]\n", event.replace('"', "'")));
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
    let start = match game.tag("FEN") {
        Some(f) => match Position::parse(t, f) {
            Ok(p) => p,
            Err(e) => {
                return (
                    Position::start(t),
                    Vec::new(),
                    Some(PdnError {
                        line: 1,
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
                        reason: format!("{text} is illegal: {why}"),
                    }),
                )
            }
        }
    }
    (start, played, None)
}
