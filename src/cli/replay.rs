//! `rulebook replay FILE [--json]`: reads a game record, checks every line
//! against the rules, and prints each turn (text, or one JSON object per
//! turn). An illegal or malformed line stops with an error naming it.

use std::io::Write;
use std::path::PathBuf;

use super::{Failure, GameArgs};
use crate::board::Match;
use crate::format::json::{to_line, RaceTurnJson};
use crate::load::Loaded;
use crate::narrate::race::{choice_forms, choice_text, result_text, seat_name, turn_text};
use crate::race::game::RaceGame;
use crate::race::{Choice, RaceState, Roll};
use crate::record::board::{play_ply, PlyLines, RecordError};
use crate::record::race::{choice_of, RaceTurn};
use crate::record::{BoardRecord, GameResult, Header};

/// Arguments of `replay`.
#[derive(clap::Args, Debug)]
pub(crate) struct ReplayArgs {
    /// The record: JSON lines written by `play --record`.
    file: PathBuf,
    /// Print one JSON object per turn instead of text.
    #[arg(long)]
    json: bool,
}

/// The numbered non-empty lines of a record, trimmed (read as they are
/// needed: nothing per line is kept).
fn numbered(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
}

pub(crate) fn run(
    args: ReplayArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let name = args.file.display().to_string();
    let text = super::loader::read_text(&args.file, super::loader::MAX_RECORD, "a game record")
        .map_err(|e| Failure::new(format!("error: can't read {name}: {e}")))?;
    super::loader::as_record(&args.file, &text)?;
    let mut lines = numbered(&text);
    let bad = |line: usize, why: String| Failure {
        message: format!("error: {name}:{line}: {why}"),
        code: 1,
    };
    let Some((first, head)) = lines.next() else {
        return Err(bad(1, "the record is empty".into()));
    };
    let header: Header = serde_json::from_str(head).map_err(|e| {
        bad(
            first,
            format!("not a record header ({e}); it looks like {{\"game\":\"NAME\",\"players\":2}}"),
        )
    })?;
    let game = super::loader::record_game(&args.file, &header.game).map_err(|e| bad(first, e))?;
    let game_args = GameArgs {
        game,
        options: header.options.clone(),
    };
    match super::load(&game_args, err)? {
        Loaded::Race(race) => replay_race(&race, &header, lines, args.json, &bad, out),
        Loaded::Board(t) => replay_board(&t, &text, args.json, &bad, out),
    }
}

fn replay_race<'a>(
    game: &RaceGame,
    header: &Header,
    lines: impl Iterator<Item = (usize, &'a str)>,
    json: bool,
    bad: &dyn Fn(usize, String) -> Failure,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    let players = header.players.unwrap_or(usize::from(game.min_players));
    let mut state = RaceState::new(game, players).map_err(|e| bad(1, e.to_string()))?;
    if !json {
        writeln!(out, "{}", game.title)?;
        let names: Vec<&str> = (0..players).map(|s| seat_name(game, s)).collect();
        writeln!(out, "players: {}", names.join(", "))?;
    }
    let mut events = Vec::new();
    let mut choices = Vec::new();
    for (n, line) in lines {
        let turn: RaceTurn = serde_json::from_str(line).map_err(|e| {
            bad(
                n,
                format!("not a turn ({e}); a turn looks like {{\"player\":\"red\",\"dice\":[6,3],\"choice\":\"enter\"}}"),
            )
        })?;
        if state.is_over() {
            return Err(bad(n, "the game is already over".into()));
        }
        let seat = state.to_roll();
        let expected = seat_name(game, seat);
        if turn.player != expected {
            return Err(bad(
                n,
                format!("it is {expected}'s turn, not {}'s", turn.player),
            ));
        }
        let roll = Roll::new(&turn.dice)
            .ok_or_else(|| bad(n, format!("too many dice: {:?}", turn.dice)))?;
        state
            .check_roll(game, &roll)
            .map_err(|e| bad(n, e.to_string()))?;
        let choice: Choice = choice_of(game, seat, &turn.choice).ok_or_else(|| {
            bad(
                n,
                format!(
                    "`{}` is not a choice: write {}",
                    turn.choice,
                    choice_forms(game)
                ),
            )
        })?;
        let number = state.rolls() + 1;
        if state.apply(game, &roll, choice, &mut events).is_err() {
            state.choices(game, &roll, &mut choices);
            let listed: Vec<String> = choices
                .iter()
                .map(|&c| choice_text(game, seat, c))
                .collect();
            let named = choice_text(game, seat, choice);
            return Err(bad(
                n,
                format!(
                    "{expected} can't play `{named}` with {roll}: the choices are {}",
                    listed.join(", ")
                ),
            ));
        }
        if json {
            let turn = RaceTurnJson::of(game, &state, number, seat, &roll, choice, &events);
            writeln!(out, "{}", to_line(&turn))?;
        } else {
            write!(
                out,
                "{}",
                turn_text(game, &state, number, seat, &roll, choice, &events)
            )?;
        }
    }
    if !json {
        match &header.result {
            Some(r) if !state.is_over() => writeln!(out, "{}", header_result(r, &str::to_string))?,
            _ => write!(out, "{}", result_text(game, &state))?,
        }
    }
    Ok(0)
}

/// The result a record's header holds, in words, with each side's name
/// (`name` of its id): `result: Black wins: White resigned`.
fn header_result(r: &GameResult, name: &dyn Fn(&str) -> String) -> String {
    let mut parts = Vec::new();
    if let Some(w) = &r.winner {
        parts.push(format!("{} wins", name(w)));
    }
    match (&r.resigned, r.reason.as_str()) {
        (Some(side), "resigned") => parts.push(format!("{} resigned", name(side))),
        (_, reason) => parts.push(crate::shown::shown(reason).into_owned()),
    }
    format!("result: {}", parts.join(": "))
}

/// A board game's record, read and checked by `record::board` one line at
/// a time (the lines are checked as JSON first, then played: memory stays
/// flat however long the record); the plies before a bad line are printed,
/// then the error.
fn replay_board(
    t: &crate::board::Tables,
    text: &str,
    json: bool,
    bad: &dyn Fn(usize, String) -> Failure,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    let fail = |e: RecordError| bad(e.line, e.reason);
    let (header, plies) = PlyLines::of(text).map_err(fail)?;
    let header_line = plies.header_line;
    let result = header.result.clone();
    for ply in plies {
        ply.map_err(fail)?;
    }
    let record = BoardRecord {
        header,
        plies: Vec::new(),
        lines: vec![header_line],
    };
    let start = record.start(t).map_err(fail)?;
    let mut game = Match::without_history(t, start.clone());
    if !json {
        writeln!(out, "{}", t.game().title)?;
        write!(out, "{}", crate::format::text::board::render(t, game.pos()))?;
    }
    let (_, plies) = PlyLines::of(text).map_err(fail)?;
    for (i, ply) in plies.enumerate() {
        let (line, ply) = ply.map_err(fail)?;
        let side = usize::from(game.pos().side().0);
        let (id, side_name) = t
            .game()
            .sides
            .get(side)
            .map_or(("?", "?"), |s| (s.id.as_str(), s.name.as_str()));
        let (mv, events) = play_ply(&mut game, line, &ply).map_err(fail)?;
        let number = i + 1;
        if json {
            let ply = crate::format::json::ReplayPly {
                ply: number,
                player: id.to_string(),
                mv: mv.notation.clone(),
                events: events.iter().map(ToString::to_string).collect(),
                position: game.pos().to_fen(t),
            };
            writeln!(out, "{}", to_line(&ply))?;
        } else {
            let n =
                crate::session::move_number(t, &start, u32::try_from(number).unwrap_or(u32::MAX));
            writeln!(out, "{n}. {side_name}: {}", mv.notation)?;
            for e in &events {
                writeln!(out, "     {e}")?;
            }
        }
    }
    if !json {
        write!(out, "{}", crate::format::text::board::render(t, game.pos()))?;
        if let Some(o) = game.outcome() {
            writeln!(out, "result: {}", crate::narrate::board::outcome(t, o))?;
        } else if let Some(r) = &result {
            let name = |id: &str| {
                t.game()
                    .sides
                    .iter()
                    .find(|s| s.id == id)
                    .map_or_else(|| id.to_string(), |s| s.name.clone())
            };
            writeln!(out, "{}", header_result(r, &name))?;
        }
    }
    Ok(0)
}
