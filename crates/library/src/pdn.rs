//! PDN 3.0, the portable game notation: games to and from other programs
//! that read and write it. Tags (`[GameType "26"]`, `[FEN "W:W21,22:B1,2"]`,
//! `[Result ...]`) and the move text, with squares as the game type writes
//! them: numbers (`1. 32-28 19-23 2. 28x19`) or algebraic (`1. c3-d4 f6-g5`).

use crate::board::game::{Notation, SideId, Sq};
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
    /// The line the game begins on (its first tag, comment or move).
    pub first_line: Option<usize>,
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

/// Reads every game of a PDN file: the games read, and the error that
/// stopped the reading, if any (naming its line; the games before it are
/// kept). A game ends at its result token (`2-0`, `1-0`, `*`, ...) or where
/// the next game's tags begin. Tags may share a line; comments `{...}` (in
/// which `(` and `)` are just text) and `; to the end of the line`, escape
/// lines that begin with `%`, variations `(...)`, NAGs `$n` and move
/// numbers `12.` / `12...` are skipped; a byte order mark is ignored; lines
/// may end in LF, CR LF or CR.
pub fn parse_all(text: &str) -> (Vec<PdnGame>, Option<PdnError>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Lines end in LF, CR LF or (older Macintosh programs) CR alone.
    let text = if text.contains('\r') {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    let mut games = Vec::new();
    let mut game = PdnGame::default();
    let mut line = 1;
    let mut line_start = true;
    // The line a comment or the outermost variation was opened on.
    let mut comment: Option<usize> = None;
    let mut variation: Option<(usize, usize)> = None;
    let mut tok = String::new();
    let mut tok_line = 1;
    let mut chars = text.chars().peekable();
    // Ends the token; when it was the result, the game is done.
    let finish =
        |tok: &mut String, tok_line: usize, game: &mut PdnGame, games: &mut Vec<PdnGame>| {
            if end_token(tok, tok_line, game) {
                games.push(std::mem::take(game));
            }
        };
    while let Some(c) = chars.next() {
        let at_start = std::mem::replace(&mut line_start, c == '\n');
        if c == '\n' {
            if comment.is_none() && variation.is_none() {
                finish(&mut tok, tok_line, &mut game, &mut games);
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
                if variation.is_none() {
                    finish(&mut tok, tok_line, &mut game, &mut games);
                    game.first_line.get_or_insert(line);
                }
                comment = Some(line);
            }
            ';' => {
                while chars.next_if(|&c| c != '\n').is_some() {}
                if variation.is_none() {
                    finish(&mut tok, tok_line, &mut game, &mut games);
                }
            }
            '(' => match &mut variation {
                Some((_, depth)) => *depth += 1,
                None => {
                    finish(&mut tok, tok_line, &mut game, &mut games);
                    variation = Some((line, 1));
                }
            },
            ')' => match &mut variation {
                Some((_, depth)) if *depth > 1 => *depth -= 1,
                Some(_) => variation = None,
                None => {
                    return (
                        games,
                        Some(PdnError {
                            line,
                            reason: "this `)` closes no variation".into(),
                        }),
                    )
                }
            },
            _ if variation.is_some() => {}
            '[' if tok.is_empty() => {
                if !game.moves.is_empty() {
                    // The next game's tags: this one had no result token.
                    games.push(std::mem::take(&mut game));
                }
                match read_tag(&mut chars, line) {
                    Ok((name, value)) => {
                        game.first_line.get_or_insert(line);
                        game.tags.push((name, value));
                        game.tag_lines.push(line);
                    }
                    Err(e) => return (games, Some(e)),
                }
            }
            c if c.is_whitespace() => finish(&mut tok, tok_line, &mut game, &mut games),
            c => {
                if tok.is_empty() {
                    tok_line = line;
                    game.first_line.get_or_insert(line);
                }
                tok.push(c);
            }
        }
    }
    if let Some(l) = comment {
        return (
            games,
            Some(PdnError {
                line: l,
                reason: "a comment opened here with `{` is never closed by `}`".into(),
            }),
        );
    }
    if let Some((l, _)) = variation {
        return (
            games,
            Some(PdnError {
                line: l,
                reason: "a variation opened here with `(` is never closed by `)`".into(),
            }),
        );
    }
    finish(&mut tok, tok_line, &mut game, &mut games);
    if !game.tags.is_empty() || !game.moves.is_empty() {
        games.push(game);
    }
    (games, None)
}

/// Reads the first game of a PDN file (see [`parse_all`]); a file with no
/// game gives an empty one.
pub fn parse_first(text: &str) -> Result<PdnGame, PdnError> {
    let (games, error) = parse_all(text);
    match games.into_iter().next() {
        Some(g) => Ok(g),
        None => match error {
            Some(e) => Err(e),
            None => Ok(PdnGame::default()),
        },
    }
}

/// Whether a PDN game type writes squares as numbers or algebraically: the
/// notation its full form implies (the game-type table of PDN 3.0 gives
/// types 25, 26, 29, 30 and 41 `A0`, algebraic squares; the others
/// numeric). A game with no game type writes its own notation.
pub fn notation(t: &Tables) -> Notation {
    match t.game().pdn_game_type {
        Some(25 | 26 | 29 | 30 | 41) => Notation::Algebraic,
        Some(_) => Notation::Numeric,
        None => t.game().notation,
    }
}

/// How a game ended, in PDN's terms: the side called White in PDN won, the
/// side called Black won, a draw, both lost (`0-0`), or not known (`*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PdnResult {
    /// White won.
    White,
    /// Black won.
    Black,
    /// A draw.
    Draw,
    /// Both lost.
    BothLost,
    /// Unfinished or unknown.
    Unknown,
}

impl PdnResult {
    /// Reads a result in either convention (`2-0` or `1-0`, `1-1` or
    /// `1/2-1/2`, ...); None when it is none of them.
    pub fn parse(text: &str) -> Option<PdnResult> {
        Some(match text.trim() {
            "2-0" | "1-0" => PdnResult::White,
            "0-2" | "0-1" => PdnResult::Black,
            "1-1" | "1/2-1/2" => PdnResult::Draw,
            "0-0" => PdnResult::BothLost,
            "*" => PdnResult::Unknown,
            _ => return None,
        })
    }

    /// The result of an outcome of `t`.
    pub fn of(t: &Tables, outcome: Option<&Outcome>) -> PdnResult {
        match outcome {
            Some(Outcome::Win { winner, .. }) if is_white(t, *winner) => PdnResult::White,
            Some(Outcome::Win { .. }) => PdnResult::Black,
            Some(Outcome::Draw { .. }) => PdnResult::Draw,
            None => PdnResult::Unknown,
        }
    }

    /// The token in the convention of the game type: the score of White
    /// first, in points of two (`2-0`, `0-2`, `1-1`) for game types 20 and
    /// 27 and, as a widely used online server writes them, 25, 26 and 40; `1-0`, `0-1`,
    /// `1/2-1/2` for every other type (21 among them).
    pub fn token(self, t: &Tables) -> &'static str {
        let twos = matches!(t.game().pdn_game_type, Some(20 | 25 | 26 | 27 | 40));
        match (self, twos) {
            (PdnResult::White, true) => "2-0",
            (PdnResult::White, false) => "1-0",
            (PdnResult::Black, true) => "0-2",
            (PdnResult::Black, false) => "0-1",
            (PdnResult::Draw, true) => "1-1",
            (PdnResult::Draw, false) => "1/2-1/2",
            (PdnResult::BothLost, _) => "0-0",
            (PdnResult::Unknown, _) => "*",
        }
    }
}

/// Whether `side` is the one PDN calls White: the side whose position
/// letter is W (or, in a game without one, the first side declared).
pub fn is_white(t: &Tables, side: SideId) -> bool {
    let sides = &t.game().sides;
    match sides
        .iter()
        .position(|s| s.letter.eq_ignore_ascii_case(&'W'))
    {
        Some(i) => usize::from(side.0) == i,
        None => side.0 == 0,
    }
}

/// The side PDN calls White (`white`) or Black (`white` false).
pub fn pdn_side(t: &Tables, white: bool) -> Option<SideId> {
    (0..t.game().sides.len())
        .map(|i| SideId(i as u8))
        .find(|&s| is_white(t, s) == white)
}

/// The PDN result token of an outcome, in the game type's convention.
pub fn result_token(t: &Tables, outcome: Option<&Outcome>) -> &'static str {
    PdnResult::of(t, outcome).token(t)
}

/// What to write besides the moves.
#[derive(Clone, Debug, Default)]
pub struct Export {
    /// Tags to write, in order (Event, Site, Date, White, Black, ...);
    /// GameType, SetUp, FEN and Result are written from the game and left
    /// out here.
    pub tags: Vec<(String, String)>,
    /// How the game ended when the moves don't say it (a resignation, or
    /// the result of an imported game).
    pub result: Option<PdnResult>,
}

/// Tags that `write` makes from the game itself.
const MADE_TAGS: [&str; 4] = ["GameType", "SetUp", "FEN", "Result"];

/// Whether `name` is a tag made from the game (GameType, SetUp, FEN,
/// Result), not kept from an imported file.
pub fn is_made_tag(name: &str) -> bool {
    MADE_TAGS.iter().any(|m| m.eq_ignore_ascii_case(name))
}

/// Writes a game as PDN: tags, then numbered moves in the notation of the
/// game type (see [`notation`]).
pub fn write(t: &Tables, event: &str, start: &Position, moves: &[Move]) -> String {
    let export = Export {
        tags: vec![("Event".to_string(), event.to_string())],
        result: None,
    };
    write_game(t, &export, start, moves)
}

/// The tags of a game played here (not imported): Event, Site, Date, White
/// and Black. `agents` names who played each side in the order of the rule
/// file's sides (`human` or a computer player); PDN's White and Black are
/// the agents of the sides [`pdn_side`] gives, `?` when the record doesn't
/// say. `day` is the number of days since 1970-01-01 the game was saved
/// on, written `YYYY.MM.DD` (`????.??.??` when not known).
pub fn played_tags(
    t: &Tables,
    event: &str,
    agents: &[String],
    day: Option<i64>,
) -> Vec<(String, String)> {
    let player = |white: bool| {
        pdn_side(t, white)
            .and_then(|s| agents.get(usize::from(s.0)))
            .map_or_else(
                || "?".to_string(),
                |a| match a.as_str() {
                    "human" => "human".to_string(),
                    computer => format!("rulebook {computer}"),
                },
            )
    };
    vec![
        ("Event".to_string(), event.to_string()),
        ("Site".to_string(), "rulebook".to_string()),
        (
            "Date".to_string(),
            day.map_or_else(|| "????.??.??".to_string(), date),
        ),
        ("White".to_string(), player(true)),
        ("Black".to_string(), player(false)),
    ]
}

/// A day counted from 1970-01-01 as PDN writes a date, `YYYY.MM.DD` (the
/// proleptic Gregorian calendar).
pub fn date(day: i64) -> String {
    // Howard Hinnant's days_from_civil, inverted.
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Whether `name` can be written as the name of a tag that readers (and
/// `import`) read back: no space or control character, none of `"` `[`
/// `]` `{` `}` `;` `\\`. A tag of another name is left out of the PDN.
pub fn is_tag_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| {
            !c.is_whitespace()
                && !c.is_control()
                && !matches!(c, '"' | '[' | ']' | '{' | '}' | ';' | '\\')
        })
}

/// A tag line, with `\` and `"` escaped in the value and each line break
/// (and any other control character) a space: a tag is one line.
fn tag_line(name: &str, value: &str) -> String {
    let value = value
        .replace("\r\n", " ")
        .replace(|c: char| c.is_control() && c != '\t', " ")
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
    format!("[{name} \"{value}\"]\n")
}

/// Writes a game as PDN with the tags and result of `export`.
pub fn write_game(t: &Tables, export: &Export, start: &Position, moves: &[Move]) -> String {
    let g = t.game();
    let notation = notation(t);
    let mut m = Match::new(t, start.clone());
    let mut text = Vec::new();
    let mut number = 1;
    for (i, mv) in moves.iter().enumerate() {
        // Move numbers count the turns of the side that moves first.
        // A move number and its move are one token: a line never breaks
        // between them.
        let opens = m.pos().side() == g.first;
        let written = pdn_move(t, mv, notation);
        if i == 0 && !opens {
            text.push(format!("{number}... {written}"));
        } else if opens {
            text.push(format!("{number}. {written}"));
        } else {
            text.push(written);
        }
        m.play(mv);
        if m.pos().side() == g.first {
            number += 1;
        }
    }
    let result = match m.outcome() {
        Some(o) => PdnResult::of(t, Some(o)),
        None => export.result.unwrap_or(PdnResult::Unknown),
    }
    .token(t);
    let mut out = String::new();
    for (name, value) in &export.tags {
        if !is_made_tag(name) && is_tag_name(name) {
            out.push_str(&tag_line(name, value));
        }
    }
    if let Some(gt) = g.pdn_game_type {
        out.push_str(&tag_line("GameType", &gt.to_string()));
    }
    if *start != Position::start(t) {
        out.push_str(&tag_line("SetUp", "1"));
        out.push_str(&tag_line("FEN", &fen(t, start, notation)));
    }
    out.push_str(&tag_line("Result", result));
    out.push('\n');
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

/// The name of a square in `notation`.
fn square(t: &Tables, s: Sq, notation: Notation) -> String {
    match t.game().squares.get(usize::from(s.0)) {
        Some(i) => match notation {
            Notation::Numeric => i.number.to_string(),
            Notation::Algebraic => i.algebraic.clone(),
        },
        None => "?".to_string(),
    }
}

/// A move in `notation`: every square it passes, joined by `-` for a move
/// and `x` for a capture.
fn pdn_move(t: &Tables, mv: &Move, notation: Notation) -> String {
    let Some(from) = mv.from else {
        return "pass".into();
    };
    let sep = if mv.is_capture() { "x" } else { "-" };
    let mut s = square(t, from, notation);
    for &p in &mv.path {
        s.push_str(sep);
        s.push_str(&square(t, p, notation));
    }
    s
}

/// A position as a PDN FEN, `W:W21,22,K5:B1,2`, with squares in `notation`.
pub fn fen(t: &Tables, pos: &Position, notation: Notation) -> String {
    let g = t.game();
    let mut out = String::new();
    if let Some(s) = g.sides.get(usize::from(pos.side().0)) {
        out.push(s.letter);
    }
    for (si, side) in g.sides.iter().enumerate() {
        out.push(':');
        out.push(side.letter);
        let mut items = Vec::new();
        for i in 0..g.squares.len() {
            let sq = Sq(i as u16);
            if let Some((s, k)) = pos.piece(t, sq) {
                if usize::from(s.0) == si {
                    let letter = if k.0 == 0 {
                        String::new()
                    } else {
                        g.kinds
                            .get(usize::from(k.0))
                            .map_or_else(String::new, |k| k.letter.to_string())
                    };
                    items.push(format!("{letter}{}", square(t, sq, notation)));
                }
            }
        }
        out.push_str(&items.join(","));
    }
    out
}

/// A FEN tag's value without the fields some online servers add after the pieces,
/// `:H0` (half-moves since a capture or a man's move) and `:F1` (the move
/// number), so that the position reads.
pub fn strip_fen_counters(t: &Tables, fen: &str) -> String {
    fen.trim()
        .trim_end_matches('.')
        .split(':')
        .enumerate()
        .filter(|(i, field)| {
            let f = field.trim();
            let mut chars = f.chars();
            let counter = *i > 0
                && matches!(chars.next(), Some('H' | 'F' | 'h' | 'f'))
                && !chars.as_str().is_empty()
                && chars.as_str().bytes().all(|b| b.is_ascii_digit());
            let side_letter = f.chars().next().is_some_and(|c| {
                t.game()
                    .sides
                    .iter()
                    .any(|s| s.letter.eq_ignore_ascii_case(&c))
            });
            !counter || side_letter
        })
        .map(|(_, f)| f)
        .collect::<Vec<_>>()
        .join(":")
}

/// Plays the moves of a PDN game in `t`; returns the moves played and, on an
/// illegal or unreadable move, the error (naming its line) after the moves
/// before it.
pub fn play(t: &Tables, game: &PdnGame) -> (Position, Vec<Move>, Option<PdnError>) {
    let start = match game.tag_at("FEN") {
        Some((line, f)) => match Position::parse(t, &strip_fen_counters(t, f)) {
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
                        reason: format!(
                            "{} is illegal: {}",
                            crate::shown::shown(text),
                            crate::narrate::board::refusal(t, &why)
                        ),
                    }),
                )
            }
        }
    }
    (start, played, None)
}
