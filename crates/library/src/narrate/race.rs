//! Race turns and positions in words, as `play` and `replay` print them;
//! a position parsed back from the same words.

use crate::race::game::{Finish, RaceGame, OUT};
use crate::race::{Choice, Event, RaceState, Refusal, Roll, SetupError};

/// A seat's name.
pub fn seat_name(game: &RaceGame, seat: usize) -> &str {
    game.seats.get(seat).map_or("?", String::as_str)
}

/// A piece's position in words.
fn piece_text(game: &RaceGame, seat: usize, p: u16, held: bool) -> String {
    if held && p != OUT && p < game.cells {
        format!("{} held", game.label(seat, p))
    } else {
        game.label(seat, p)
    }
}

/// A choice in words for seat `seat`: `enter`, `pass`, or the cell of the
/// piece (`h2` for a home cell of a circuit); with dice used one by one,
/// each move from cell to cell in order (`p24-p18 p13-p11`; a piece out
/// comes in from `out`, one that bears off goes to `off`; a move back, to
/// an earlier cell: `c12-c9`).
pub fn choice_text(game: &RaceGame, seat: usize, choice: Choice) -> String {
    match choice {
        Choice::Move(p) => game.label(seat, p),
        Choice::Dice(steps) => steps
            .iter()
            .map(|step| {
                let (from, to) = (step.from, step.to());
                let to = if to >= game.cells {
                    "off".to_string()
                } else {
                    game.label(seat, to)
                };
                format!("{}-{to}", game.label(seat, from))
            })
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    }
}

/// How a choice of this game is written, for a message that refuses words
/// that are none: `a cell number, "enter" or "pass"`; the cells of paths by
/// name (`a cell ("a4")`), a circuit's home cells (`"h1"`), and with dice
/// used one by one each die's move in order (`"p24-p18 p13-p11"`).
pub fn choice_forms(game: &RaceGame) -> String {
    let cell = match (&game.paths, &game.circuit) {
        (Some(paths), _) => format!("a cell (\"{}\")", paths.name(1)),
        (None, Some(_)) => "a cell number, a home cell (\"h1\")".to_string(),
        (None, None) => "a cell number".to_string(),
    };
    if game.each_die {
        format!("each die's move in order, from a cell to a cell (\"{}\"; `out` enters, `off` bears off), or \"pass\"", choice_example(game))
    } else {
        format!("{cell}, \"enter\" or \"pass\"")
    }
}

/// Two moves of dice used one by one as seat 0 writes them: from its first
/// cell by 1, then on by 2.
fn choice_example(game: &RaceGame) -> String {
    let steps = crate::race::Steps::default()
        .with(1, 1)
        .and_then(|s| s.with(2, 2))
        .map_or(Choice::Pass, Choice::Dice);
    choice_text(game, 0, steps)
}

/// A sequence of moves of dice used one by one as `choice_text` writes it
/// (`p24-p18 p13-p11`, `out-p22`, `p3-off`, a move back `c12-c9`; also
/// `bar` for `out` and `/` for `-`).
fn parse_steps(game: &RaceGame, seat: usize, text: &str) -> Option<Choice> {
    let mut steps = crate::race::Steps::default();
    let position = |w: &str| match w {
        "out" | "bar" => Some(OUT),
        "off" => Some(game.cells),
        w => game.parse_label(seat, w),
    };
    for word in text.split_whitespace() {
        let (a, b) = word.split_once(['-', '/'])?;
        let (from, to) = (position(a)?, position(b)?);
        if from >= game.cells || to == from || to == OUT {
            return None;
        }
        steps = steps.and(crate::race::Step {
            from,
            by: from.abs_diff(to),
            back: to < from,
        })?;
    }
    (!steps.is_empty()).then_some(Choice::Dice(steps))
}

/// The choice seat `seat` names with `text`: `enter`, `pass`, or a cell as
/// `choice_text` writes it (also `move 24`).
pub fn parse_choice(game: &RaceGame, seat: usize, text: &str) -> Option<Choice> {
    if game.each_die && text.contains(['-', '/']) {
        let t = text.trim().to_lowercase();
        return parse_steps(game, seat, &t);
    }
    match Choice::parse(text) {
        Some(Choice::Enter) => Some(Choice::Enter),
        Some(Choice::Pass) => Some(Choice::Pass),
        _ => {
            let t = text.trim().to_lowercase();
            let t = t.strip_prefix("move ").unwrap_or(&t).trim().to_string();
            game.parse_label(seat, &t).map(Choice::Move)
        }
    }
}

/// Every seat's pieces and missed turns: `red 9 out · blue out out`.
pub fn positions_text(game: &RaceGame, state: &RaceState) -> String {
    let mut parts = Vec::new();
    for seat in 0..state.players() {
        let pieces: Vec<String> = state
            .pieces(seat)
            .iter()
            .enumerate()
            .map(|(i, &p)| piece_text(game, seat, p, state.is_held(seat, i)))
            .collect();
        let mut s = format!("{} {}", seat_name(game, seat), pieces.join(" "));
        match state.owed(seat) {
            0 => {}
            1 => s.push_str(" (misses 1 turn)"),
            n => s.push_str(&format!(" (misses {n} turns)")),
        }
        parts.push(s);
    }
    parts.join(" · ")
}

/// A roll in words: its faces (`6+5`), and with a table of values for the
/// dice (`dice 2 d6: ..., 5 = 0, 6 = 10`) what they are worth (`6+5 (worth
/// 10+0)`). A throw of sticks shows its faces only.
pub fn roll_text(game: &RaceGame, roll: &Roll) -> String {
    if game.face_values.is_empty() {
        return roll.to_string();
    }
    let worth: Vec<String> = roll
        .faces()
        .iter()
        .map(|&f| game.face_value(f).to_string())
        .collect();
    format!("{roll} (worth {})", worth.join("+"))
}

/// A turn in words: the roll and the choice, the events, the positions.
pub fn turn_text(
    game: &RaceGame,
    state: &RaceState,
    number: u32,
    seat: usize,
    roll: &Roll,
    choice: Choice,
    events: &[Event],
) -> String {
    let mut s = format!(
        "{number}. {} rolls {}, choice: {}\n",
        seat_name(game, seat),
        roll_text(game, roll),
        choice_text(game, seat, choice)
    );
    for (e, told) in events.iter().zip(told(game, events)) {
        if told {
            s.push_str(&format!("     {}\n", super::event::describe(e, game, seat)));
        }
    }
    s.push_str(&format!("     {}\n", positions_text(game, state)));
    s
}

/// The end of a game: `result: red wins after 57 rolls`, with the
/// finishing order when the game played on for it (`order: 1st red, 2nd
/// blue`), or a draw and why.
pub fn result_text(game: &RaceGame, state: &RaceState) -> String {
    let rolls = format!(
        "{} roll{}",
        state.rolls(),
        if state.rolls() == 1 { "" } else { "s" }
    );
    let mut s = if state.is_drawn() {
        format!("result: a draw after {rolls}: no player can ever move again\n")
    } else if !state.is_over() {
        return format!(
            "the game goes on: {} to roll\n",
            seat_name(game, state.to_roll())
        );
    } else {
        let mut parts = Vec::new();
        if let Some(w) = state.winner() {
            match state.score(game) {
                Some(score) => parts.push(format!(
                    "{} wins {}",
                    seat_name(game, w),
                    score_text(game, score)
                )),
                None => parts.push(format!("{} wins", seat_name(game, w))),
            }
        }
        if let Some(l) = state.loser() {
            parts.push(format!("{} loses", seat_name(game, l)));
        }
        format!("result: {} after {rolls}\n", parts.join(", "))
    };
    if state.places().len() > 1 || (game.order && !state.places().is_empty()) {
        if let Some(order) = order_said(game, state) {
            s.push_str(&order);
            return s;
        }
        let order: Vec<String> = state
            .places()
            .iter()
            .enumerate()
            .map(|(i, &seat)| {
                format!(
                    "{} {}",
                    super::event::ordinal(i as u8 + 1),
                    seat_name(game, usize::from(seat))
                )
            })
            .collect();
        s.push_str(&format!("order: {}\n", order.join(", ")));
    }
    s
}

/// What a win is worth, in words from the rule file: `a gammon (2
/// points)`, or `(1 point)` when the score rule that gave it has no name.
pub fn score_text(game: &RaceGame, score: crate::race::Score) -> String {
    let label = score
        .rule
        .and_then(|i| game.scores.get(i))
        .map_or("", |r| r.label.as_str());
    let points = format!(
        "({} point{})",
        score.points,
        if score.points == 1 { "" } else { "s" }
    );
    if label.is_empty() {
        points
    } else {
        format!("{label} {points}")
    }
}

/// Which rule forbids a choice, in words.
pub fn why_not(game: &RaceGame, state: &RaceState, seat: usize, roll: &Roll, c: Choice) -> String {
    let name = seat_name(game, seat);
    let rolled = roll_text(game, roll);
    if seat == state.to_roll() {
        match state.refusal(game, roll, c) {
            Some(Refusal::OwnPiece { at }) => {
                return format!("your own piece stands on {}", game.label(seat, at));
            }
            Some(Refusal::PassesOwn { at }) => {
                return format!(
                    "your own piece on {} can't be passed on the home cells",
                    game.label(seat, at)
                );
            }
            Some(Refusal::StartFirst) => {
                return "a piece on the start cell must move first".to_string();
            }
            Some(Refusal::MustEnter) => {
                return format!("entering is compulsory with {rolled}");
            }
            Some(Refusal::Closed { at }) => {
                return format!("the closed cell {} is taken", game.label(seat, at));
            }
            Some(Refusal::EnterFirst) => {
                return format!(
                    "a piece {} must enter first (rule `enter first`)",
                    waiting_place(game, seat)
                );
            }
            Some(Refusal::Point {
                at,
                seat: whose,
                pieces,
            }) => {
                let many = match pieces {
                    2 => "two".to_string(),
                    3 => "three".to_string(),
                    4 => "four".to_string(),
                    5 => "five".to_string(),
                    n => n.to_string(),
                };
                return format!(
                    "{} is held by {many} of {} pieces",
                    game.label(seat, at),
                    crate::words::possessive(seat_name(game, usize::from(whose)))
                );
            }
            Some(Refusal::OnBlockade {
                at,
                seat: whose,
                pieces,
            }) => {
                let many = match pieces {
                    2 => "two".to_string(),
                    3 => "three".to_string(),
                    4 => "four".to_string(),
                    n => n.to_string(),
                };
                return format!(
                    "a blockade of {many} pieces of {} stands on {}: no piece lands on it",
                    seat_name(game, usize::from(whose)),
                    game.label(seat, at)
                );
            }
            Some(Refusal::NotAllHome { last }) => {
                return format!(
                    "a piece bears off only when all of {name}'s pieces are in the last {last} cells"
                );
            }
            Some(Refusal::FurtherBack { at }) => {
                return format!(
                    "a larger die bears off only the furthest piece, and a piece stands further back than {}",
                    game.label(seat, at)
                );
            }
            Some(Refusal::NoDie) => {
                return format!("no die of {rolled} makes that move");
            }
            Some(Refusal::MostDice { most }) => {
                return format!("as many dice as can be must be used: {most} with {rolled}");
            }
            Some(Refusal::LargerDie { die }) => {
                return format!("only one die can be used, and it must be the larger, {die}");
            }
            Some(Refusal::MustMove) => {
                return "a move is compulsory when there is one".to_string();
            }
            Some(Refusal::NotBlocked { die }) => {
                return format!(
                    "the {die} can move a piece forward: a die moves a piece back only when it can move none forward"
                );
            }
            Some(Refusal::NoPieceThere { at }) => {
                return format!(
                    "{name} has no piece on {} when that move comes: the moves are played in the order written",
                    game.label(seat, at)
                );
            }
            Some(Refusal::ZeroThrow) => {
                return if game.sticks {
                    format!("a throw of 0 ({rolled}) moves nothing")
                } else {
                    format!("the roll {rolled} moves nothing")
                };
            }
            Some(Refusal::Protected { at, row }) => {
                return format!(
                    "the piece on {} is protected: it is one of {row} in a row",
                    game.label(seat, at)
                );
            }
            Some(Refusal::Blockade { at, row }) => {
                return format!(
                    "the row of {row} on {} can't be passed",
                    game.label(seat, at)
                );
            }
            Some(Refusal::Stack { at, pieces }) => {
                return format!(
                    "the {pieces} pieces on {} can't be passed",
                    game.label(seat, at)
                );
            }
            Some(Refusal::NoPassing { at }) => {
                return format!(
                    "no piece passes {}: it must stop there",
                    game.label(seat, at)
                );
            }
            None => {}
        }
    }
    let pieces = state.pieces(seat);
    match c {
        Choice::Enter => {
            if !pieces.contains(&OUT) {
                format!("{name} has no piece out to enter")
            } else {
                let count = game.count(roll);
                match game.enter {
                    crate::race::game::Enter::OnFace(f) if !roll.shows(f) => {
                        format!(
                            "a piece enters only when a die shows {f}, and the roll is {rolled}"
                        )
                    }
                    _ if game.finish == Finish::Exact
                        && !game.enter_at_start
                        && count > game.cells =>
                    {
                        format!(
                            "{} of {count} ({rolled}) would carry an entering piece past the finish, which a piece reaches only by the exact count (rule `finish exact`)",
                            if game.sticks { "a throw" } else { "a roll" }
                        )
                    }
                    _ => format!("no piece can enter with {rolled}"),
                }
            }
        }
        Choice::Move(p) => match pieces.iter().position(|&q| q == p) {
            None => format!("{name} has no piece on {}", game.label(seat, p)),
            Some(i) if state.is_held(seat, i) => {
                format!("the piece on {} is held there", game.label(seat, p))
            }
            Some(_) => format!(
                "the piece on {} can't move with {rolled}",
                game.label(seat, p)
            ),
        },
        Choice::Pass => "a move is compulsory when there is one".to_string(),
        Choice::Dice(_) => format!("that is not a way to play {rolled}"),
    }
}

/// Where seat `seat`'s pieces out wait, in the words the rule file calls
/// for: where the file starts every piece of the seat on the track
/// (`setup`), a piece out was sent off it, and waits `on the bar` (the
/// tables games' word); else it waits to enter, as its pieces did at the
/// start.
pub(crate) fn waiting_place(game: &RaceGame, seat: usize) -> &'static str {
    let on_track = game.setup.get(seat).map_or(0, Vec::len);
    if on_track >= usize::from(game.pieces) {
        "on the bar"
    } else {
        "waiting to enter"
    }
}

/// A seat named by its name or its number from 1, among the first `max`.
fn seat_named(game: &RaceGame, text: &str, max: usize) -> Result<usize, PositionTextError> {
    let t = text.trim();
    let found = game
        .seats
        .iter()
        .take(max)
        .position(|s| s.eq_ignore_ascii_case(t))
        .or_else(|| {
            t.parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .filter(|&i| i < max)
        });
    found.ok_or_else(|| PositionTextError::NotASeat {
        text: t.to_string(),
        seats: game.seats.iter().take(max).cloned().collect(),
    })
}

/// Why [`parse_position`] can't read a race position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionTextError {
    /// The text does not start with the seat to roll.
    NoSeatToRoll,
    /// A field after the first is empty.
    EmptyField,
    /// A name that is no seat of the game (among the seats it allows).
    NotASeat {
        /// The name as written.
        text: String,
        /// The seats' names.
        seats: Vec<String>,
    },
    /// A seat has two fields.
    NamedTwice {
        /// The seat's name.
        seat: String,
    },
    /// A piece is not a cell of the seat's track.
    NotACell {
        /// The piece as written.
        token: String,
        /// The seat's name.
        seat: String,
        /// The last cell a piece may name.
        last: u16,
        /// Whether the track is a circuit (home cells `h1`...).
        circuit: bool,
    },
    /// More pieces than a seat has.
    TooManyPieces {
        /// The seat's name.
        seat: String,
        /// The pieces a seat has.
        pieces: u8,
        /// The pieces listed.
        listed: usize,
    },
    /// The position can't be set up.
    Setup(SetupError),
}

impl std::fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionTextError::NoSeatToRoll => {
                f.write_str("it starts with the seat to roll, such as `red:red 9,out:blue 14`")
            }
            PositionTextError::EmptyField => f.write_str(
                "an empty field: each field after the first is a seat and its pieces, such as `red 9,out`",
            ),
            PositionTextError::NotASeat { text, seats } => write!(
                f,
                "`{}` is not a seat; the seats are {}",
                crate::shown::shown(text),
                seats.join(", ")
            ),
            PositionTextError::NamedTwice { seat } => write!(f, "{seat} is named twice"),
            PositionTextError::NotACell {
                token,
                seat,
                last,
                circuit,
            } => write!(
                f,
                "`{}` is not a cell of {seat}: a piece is a cell 1 to {last}{}, `out` or `finished`",
                crate::shown::shown(token),
                if *circuit { ", a home cell h1.." } else { "" }
            ),
            PositionTextError::TooManyPieces {
                seat,
                pieces,
                listed,
            } => write!(
                f,
                "{seat} has {}, and {listed} are listed",
                crate::words::count((*pieces).into(), "piece")
            ),
            PositionTextError::Setup(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionTextError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PositionTextError::Setup(e) => Some(e),
            _ => None,
        }
    }
}

/// A race position as `show --position` reads it and writes it: the seat
/// to roll, then for each seat its name and its pieces, the fields joined
/// by colons: `blue:red 9,out:blue 14,finished`. A piece is a cell (as the
/// track numbers it; on a circuit a loop cell or a home cell `h2`), `out`,
/// or `finished`. Every seat is written with all its pieces.
pub fn position_text(game: &RaceGame, state: &RaceState) -> String {
    let mut fields = vec![seat_name(game, state.to_roll()).to_string()];
    for seat in 0..state.players() {
        let pieces: Vec<String> = state
            .pieces(seat)
            .iter()
            .map(|&p| game.label(seat, p))
            .collect();
        fields.push(format!("{} {}", seat_name(game, seat), pieces.join(",")));
    }
    fields.join(":")
}

/// Reads a race position as [`position_text`] writes it. Seats are named
/// by name or number (from 1); a seat's pieces not listed are out, and so
/// are the pieces of seats not named. The players are the seats up to the
/// last one named (at least the fewest the game allows).
pub fn parse_position(game: &RaceGame, text: &str) -> Result<RaceState, PositionTextError> {
    let max = usize::from(game.max_players).min(game.seats.len());
    let mut fields = text.split(':');
    let first = fields.next().unwrap_or("").trim();
    if first.is_empty() {
        return Err(PositionTextError::NoSeatToRoll);
    }
    let to_roll = seat_named(game, first, max)?;
    let mut placed: Vec<(usize, Vec<u16>)> = Vec::new();
    for field in fields {
        let field = field.trim();
        let (name, rest) = field
            .split_once(|c: char| c.is_whitespace())
            .unwrap_or((field, ""));
        if name.is_empty() {
            return Err(PositionTextError::EmptyField);
        }
        let seat = seat_named(game, name, max)?;
        if placed.iter().any(|(s, _)| *s == seat) {
            return Err(PositionTextError::NamedTwice {
                seat: seat_name(game, seat).to_string(),
            });
        }
        let mut pieces = Vec::new();
        for token in rest
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
        {
            let p = match token.to_lowercase().as_str() {
                "out" => OUT,
                "finished" | "home" => game.cells,
                t => match game.parse_label(seat, t) {
                    Some(p) if p != OUT && p <= game.cells => p,
                    _ => {
                        let last = game.circuit.as_ref().map_or(game.cells, |c| c.cells);
                        return Err(PositionTextError::NotACell {
                            token: token.to_string(),
                            seat: seat_name(game, seat).to_string(),
                            last,
                            circuit: game.circuit.is_some(),
                        });
                    }
                },
            };
            pieces.push(p);
        }
        if pieces.len() > usize::from(game.pieces) {
            return Err(PositionTextError::TooManyPieces {
                seat: seat_name(game, seat).to_string(),
                pieces: game.pieces,
                listed: pieces.len(),
            });
        }
        pieces.resize(usize::from(game.pieces), OUT);
        placed.push((seat, pieces));
    }
    let highest = placed
        .iter()
        .map(|(s, _)| *s)
        .chain([to_roll])
        .max()
        .unwrap_or(0);
    let players = (highest + 1).max(usize::from(game.min_players));
    let mut state = RaceState::new(game, players).map_err(PositionTextError::Setup)?;
    for (seat, pieces) in &placed {
        state
            .set_pieces(game, *seat, pieces)
            .map_err(PositionTextError::Setup)?;
    }
    state.set_turn(to_roll, &[]);
    Ok(state)
}

/// A position of seat `seat` as a choice's path names it: a cell, `out`,
/// or the finish (its cell, or `home` on a circuit).
fn path_place(game: &RaceGame, seat: usize, p: u16) -> String {
    if p == OUT {
        "out".to_string()
    } else if p >= game.cells && !game.circuit.as_ref().is_some_and(|c| c.kept) {
        match game.circuit {
            None => game.cells.to_string(),
            Some(_) => "home".to_string(),
        }
    } else {
        game.label(seat, p)
    }
}

/// What a cell rule does, in a choice's words: its name and the effects
/// the path does not show (`forward 3`, `others out`, `misses 1 turn`).
fn rule_says(rule: &crate::race::game::CellRule, blocked: bool) -> String {
    use crate::race::game::CellEffect;
    let mut words: Vec<String> = Vec::new();
    for e in &rule.effects {
        words.push(match *e {
            CellEffect::Forward(k) if blocked => format!("can't go forward {k}"),
            CellEffect::Repeat if blocked => "can't move again".to_string(),
            CellEffect::Forward(k) => format!("forward {k}"),
            CellEffect::Back(k) => format!("back {k}"),
            CellEffect::Repeat => "moves again".to_string(),
            CellEffect::Miss(1) => "misses 1 turn".to_string(),
            CellEffect::Miss(k) => format!("misses {k} turns"),
            CellEffect::NoExtraRoll => "no extra roll".to_string(),
            CellEffect::ExtraRoll => "rolls again".to_string(),
            CellEffect::Held => "held".to_string(),
            CellEffect::Targeted(t, a) => t.with(a),
            CellEffect::EndTurn => "the turn ends".to_string(),
            _ => continue,
        });
    }
    match (rule.label.is_empty(), words.is_empty()) {
        (true, _) => words.join(", "),
        (false, true) => rule.label.clone(),
        (false, false) => format!("{}: {}", rule.label, words.join(", ")),
    }
}

/// What choice `choice` of the seat to roll would do with `roll`, in
/// words: where the piece goes, cell after cell, and what the cells do,
/// joined by `arrow`: `9 → 12 → 15 (contains 1: forward 3)`, `enter → 1`,
/// `13 → 19 (takes green's piece)`. The choice is played on a copy of the state; one that
/// can't be played is said as [`choice_text`] writes it.
pub fn choice_says(
    game: &RaceGame,
    state: &RaceState,
    roll: &Roll,
    choice: Choice,
    arrow: &str,
) -> String {
    let seat = state.to_roll();
    let mut after = state.clone();
    let mut events = Vec::new();
    if after.apply(game, roll, choice, &mut events).is_err() {
        return choice_text(game, seat, choice);
    }
    let mut path = vec![choice_text(game, seat, choice)];
    let mut notes: Vec<String> = Vec::new();
    let mut last: Option<u16> = None;
    let note = |notes: &mut Vec<String>, text: String| {
        if !text.is_empty() && !notes.contains(&text) {
            notes.push(text);
        }
    };
    for e in &events {
        match *e {
            Event::Enter { to } | Event::Move { to, .. } => {
                path.push(path_place(game, seat, to));
                last = Some(to);
            }
            Event::Rule {
                rule,
                then,
                blocked,
                ..
            } if last.is_some() => {
                if let Some(r) = game.rules().get(usize::from(rule)) {
                    note(&mut notes, rule_says(r, blocked));
                }
                if last != Some(then) {
                    path.push(path_place(game, seat, then));
                    last = Some(then);
                }
            }
            Event::Sent {
                seat: whose, to, ..
            } if last.is_some() => {
                let whose = super::event::seat_name(game, whose);
                let text = if to == OUT {
                    format!("{} piece out", crate::words::possessive(whose))
                } else {
                    format!("moves {} piece", crate::words::possessive(whose))
                };
                note(&mut notes, text);
            }
            Event::Bumped { seat: whose, .. } => {
                let whose = super::event::seat_name(game, whose);
                note(
                    &mut notes,
                    format!("takes {} piece", crate::words::possessive(whose)),
                );
            }
            Event::Freed { seat: whose, .. } => {
                let whose = super::event::seat_name(game, whose);
                note(
                    &mut notes,
                    format!("frees {} piece", crate::words::possessive(whose)),
                );
            }
            Event::Won { .. } => note(&mut notes, "wins".to_string()),
            _ => {}
        }
    }
    let mut text = path.join(&format!(" {arrow} "));
    if !notes.is_empty() {
        text.push_str(&format!(" ({})", notes.join(", ")));
    }
    text
}

/// Which of a turn's events its narration tells: a rule of the roll whose
/// effects only move pieces its targets pick is told when it moved some
/// (as a cell rule is), and an extra roll already told by the rule that
/// gave it is not told again.
pub fn told(game: &RaceGame, events: &[Event]) -> Vec<bool> {
    use crate::race::game::CellEffect;
    let mut told = vec![true; events.len()];
    let mut extra_told = false;
    for (k, e) in events.iter().enumerate() {
        match *e {
            Event::RollRule { rule } => {
                let Some(r) = game.roll_rules.get(usize::from(rule)) else {
                    continue;
                };
                let only_targets = r
                    .effects
                    .iter()
                    .all(|e| matches!(e, CellEffect::Targeted(..)));
                let moved = matches!(events.get(k + 1), Some(Event::Sent { .. }));
                if only_targets && !moved {
                    told[k] = false;
                } else if r.effects.contains(&CellEffect::ExtraRoll) {
                    extra_told = true;
                }
            }
            Event::Rule { rule, .. }
                if game
                    .rules()
                    .get(usize::from(rule))
                    .is_some_and(|r| r.effects.contains(&CellEffect::ExtraRoll)) =>
            {
                extra_told = true;
            }
            Event::ExtraRoll if extra_told => told[k] = false,
            _ => {}
        }
    }
    told
}

/// The finishing order of a game whose outcome is not plain (`outcome
/// first-home lose`, `last-home win`), each place with what it means for
/// the result: `1st home: red (loses)`. None for the other outcomes.
fn order_said(game: &RaceGame, state: &RaceState) -> Option<String> {
    use crate::race::game::Outcome;
    if !matches!(
        game.outcome,
        Outcome::FirstHomeLoses | Outcome::LastHomeWins
    ) {
        return None;
    }
    let places = state.places();
    let lines: Vec<String> = places
        .iter()
        .enumerate()
        .map(|(i, &seat)| {
            let seat = usize::from(seat);
            let how = if state.winner() == Some(seat) {
                " (wins)"
            } else if state.loser() == Some(seat) {
                " (loses)"
            } else {
                ""
            };
            let left = i + 1 == places.len() && state.is_over() && places.len() == state.players();
            let place = if left {
                "last left".to_string()
            } else {
                format!("{} home", super::event::ordinal(i as u8 + 1))
            };
            format!("{place}: {}{how}", seat_name(game, seat))
        })
        .collect();
    Some(format!("order: {}\n", lines.join(", ")))
}
