//! Race games in the browser: a game in progress is its seed, its seats
//! and the choice of each turn; every request builds its
//! [`RaceSession`] again from them (the seeded dice give the same rolls), so
//! the rolls, the legal choices, the rule events and the result all come
//! from the library. The state sent to the page, the roll and the choice of
//! a person, a computer player's turn and the record.

// A refusal is the HTTP answer itself (`Err(Response)`).
#![allow(clippy::result_large_err)]

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::Response;
use serde::Serialize;

use super::reply::{refuse, MAX_PLIES};
use super::store::{OpenRace, TurnLog};
use crate::format::svg::race::{drawn_at, seat_colour};
use crate::narrate::event::describe;
use crate::narrate::race::{choice_text, parse_choice, positions_text, result_text, seat_name};
use crate::race::game::RaceGame;
use crate::race::{Choice, Event, RaceState, Roll};
use crate::record::race::{choice_json, choice_of, record_text, RaceTurn};
use crate::record::Header;
use crate::session::race::{Played, RaceEnding, RaceSession};

/// The most turns the page's log holds (the oldest go first).
pub const MAX_LOG: usize = 500;

/// A seat as the page shows it.
#[derive(Serialize)]
struct SeatView {
    name: String,
    agent: String,
    /// The colour of its pieces on the track, and of text on it.
    colour: &'static str,
    ink: &'static str,
}

/// A legal choice: what to send back and where it is on the track.
#[derive(Serialize)]
struct ChoiceView {
    /// The choice in words (`enter`, `pass`, a cell), as `choose` takes it.
    text: String,
    /// The cell of the track picture the piece stands on, for a move
    /// (none for a home cell of a circuit).
    cell: Option<u16>,
    /// The cell of the track the piece lands on by the dice (before the
    /// rule of that cell sends it on), when it is on the track picture.
    to: Option<u16>,
}

/// The state of a race game as the page sees it.
#[derive(Serialize)]
pub struct RaceView {
    id: String,
    kind: &'static str,
    game: String,
    title: String,
    options: Vec<String>,
    /// The seed of the dice (a string: exact in JavaScript).
    seed: String,
    dice: u8,
    faces: u8,
    seats: Vec<SeatView>,
    to_roll: usize,
    seat_to_roll: String,
    /// A person is to roll.
    human_to_roll: bool,
    /// A person has rolled and is to choose.
    human_to_choose: bool,
    computer_to_move: bool,
    /// The dice rolled and not yet played.
    rolled: Option<Vec<u8>>,
    choices: Vec<ChoiceView>,
    /// The track with every piece, in words (`rulebook play`'s picture).
    track: String,
    /// The track as `rulebook show RACE --svg` draws it: every rule cell
    /// marked, the legend, the pieces in their seats' colours; each cell a
    /// `rect.cell` with `data-cell`.
    svg: String,
    positions: String,
    turns: Vec<TurnLog>,
    /// A person has a turn to take back.
    can_undo: bool,
    /// A choice taken back can be made again (the person is to roll or
    /// choose).
    can_redo: bool,
    result: Option<String>,
}

/// The record's first line for a race game.
fn header(g: &OpenRace) -> Header {
    Header {
        game: g.name.clone(),
        options: g.options.clone(),
        position: None,
        tags: Vec::new(),
        players: Some(g.agents.len()),
        seed: Some(g.seed),
        ..Header::default()
    }
}

/// A stored race game played again: its session, its turns as the record
/// writes them, the seat of each turn, and the turns in words when asked.
struct Replayed<'g> {
    s: RaceSession<'g>,
    turns: Vec<RaceTurn>,
    seats: Vec<usize>,
    log: Vec<TurnLog>,
}

/// Builds the session of a stored race game and replays its turns (and
/// the pending roll); with `words`, the last [`MAX_LOG`] turns in words.
fn replay(g: &OpenRace, words: bool) -> Result<Replayed<'_>, String> {
    let game: &RaceGame = &g.game;
    let mut s = RaceSession::new(
        game,
        &g.agents,
        g.seed,
        g.strength,
        MAX_PLIES as u32,
        header(g),
        None,
    )?;
    let mut turns = Vec::with_capacity(g.choices.len());
    let mut seats = Vec::with_capacity(g.choices.len());
    let mut log = Vec::new();
    let from = g.choices.len().saturating_sub(MAX_LOG);
    for (i, &c) in g.choices.iter().enumerate() {
        let seat = s.to_roll();
        let roll = s.roll();
        let played = s.choose(c)?;
        if words && i >= from {
            log.push(turn_log(game, &played));
        }
        seats.push(seat);
        turns.push(RaceTurn {
            player: seat_name(game, seat).to_string(),
            dice: roll.faces().to_vec(),
            choice: choice_json(game, seat, c),
        });
    }
    if g.rolled && !over(&s) {
        s.roll();
    }
    Ok(Replayed {
        s,
        turns,
        seats,
        log,
    })
}

/// Builds the session of a stored race game, replays its turns (and the
/// pending roll) and runs `f` with the turns as the record writes them.
pub fn with_race<R>(
    g: &OpenRace,
    f: impl FnOnce(&mut RaceSession<'_>, &[RaceTurn]) -> R,
) -> Result<R, String> {
    let mut r = replay(g, false)?;
    Ok(f(&mut r.s, &r.turns))
}

/// Whether the game is over: by the rules, a resignation or the limit of
/// turns.
fn over(s: &RaceSession<'_>) -> bool {
    s.ending().is_some()
}

/// The result in words, None while the game goes on.
fn result(g: &RaceGame, s: &RaceSession<'_>) -> Option<String> {
    match s.ending()? {
        RaceEnding::Rules | RaceEnding::Resigned(_) => {
            Some(result_text(g, s.state()).trim_end().replace('\n', "; "))
        }
        RaceEnding::Limit(rolls) => Some(format!("stopped after {rolls} rolls")),
    }
}

/// The state of a race game as JSON for the page.
pub fn view(id: u64, g: &OpenRace) -> Result<RaceView, String> {
    let Replayed {
        s: mut session,
        seats,
        log,
        ..
    } = replay(g, true)?;
    let s = &mut session;
    let game = s.game();
    let seat = s.to_roll();
    let result = result(game, s);
    let done = result.is_some();
    let rolled = s.rolled();
    let human = s.human_to_roll();
    let colours = crate::format::colour::for_names(&game.seats);
    Ok(RaceView {
        id: id.to_string(),
        kind: "race",
        game: g.name.clone(),
        title: game.title.clone(),
        options: g.options.clone(),
        seed: g.seed.to_string(),
        dice: game.dice,
        faces: game.faces,
        seats: s
            .seats()
            .iter()
            .enumerate()
            .map(|(i, who)| {
                let c = seat_colour(&colours, i);
                SeatView {
                    name: seat_name(game, i).to_string(),
                    agent: who.name().to_string(),
                    colour: c.fill,
                    ink: c.ink,
                }
            })
            .collect(),
        to_roll: seat,
        seat_to_roll: seat_name(game, seat).to_string(),
        human_to_roll: !done && human && rolled.is_none(),
        human_to_choose: !done && human && rolled.is_some(),
        computer_to_move: !done && !human,
        rolled: rolled.map(|r| r.faces().to_vec()),
        choices: match rolled {
            Some(roll) if !done => s
                .choices()
                .iter()
                .map(|&c| choice_view(game, s.state(), &roll, c))
                .collect(),
            _ => Vec::new(),
        },
        track: crate::format::text::race::track(
            game,
            Some(s.state()),
            &crate::format::text::board::Style::default(),
        ),
        svg: crate::format::svg::race::render(game, Some(s.state())),
        positions: positions_text(game, s.state()),
        turns: log,
        can_undo: seats.iter().any(|&i| is_human(g, i)),
        can_redo: !done && !g.undone.is_empty() && human,
        result,
    })
}

/// Whether a person plays seat `seat`.
fn is_human(g: &OpenRace, seat: usize) -> bool {
    g.agents.get(seat).is_some_and(|a| a == "human")
}

/// Choice `c` of the seat to roll for `roll`, with the cells of the track
/// picture it moves from and lands on (none for a piece out or at home).
fn choice_view(game: &RaceGame, state: &RaceState, roll: &Roll, c: Choice) -> ChoiceView {
    let seat = state.to_roll();
    ChoiceView {
        text: choice_text(game, seat, c),
        cell: match c {
            Choice::Move(p) => drawn_at(game, seat, p),
            _ => None,
        },
        to: landing(game, state, roll, c),
    }
}

/// The cell of the track picture where choice `c` of the seat to roll
/// lands by the dice (the library plays it on a copy of the state).
fn landing(game: &RaceGame, state: &RaceState, roll: &Roll, c: Choice) -> Option<u16> {
    let seat = state.to_roll();
    let mut after = state.clone();
    let mut events = Vec::new();
    after.apply(game, roll, c, &mut events).ok()?;
    events.iter().find_map(|e| match *e {
        Event::Enter { to } | Event::Move { to, .. } => drawn_at(game, seat, to),
        _ => None,
    })
}

/// A turn played, in words.
fn turn_log(game: &RaceGame, p: &Played) -> TurnLog {
    TurnLog {
        number: p.number,
        seat: p.seat,
        player: seat_name(game, p.seat).to_string(),
        dice: p.roll.faces().to_vec(),
        choice: choice_text(game, p.seat, p.choice),
        events: p.events.iter().map(|e| describe(e, game, p.seat)).collect(),
        notes: p
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Skipped { .. } => Some(describe(e, game, p.seat)),
                Event::ExtraRoll => Some(format!("{} rolls again", seat_name(game, p.seat))),
                Event::Retry { next, of } => Some(format!(
                    "{} rolls again: try {next} of {of}",
                    seat_name(game, p.seat)
                )),
                Event::LostExtraRoll => Some(format!(
                    "{}: the extra roll is lost",
                    seat_name(game, p.seat)
                )),
                _ => None,
            })
            .collect(),
    }
}

fn failed(e: String) -> Response {
    refuse(StatusCode::INTERNAL_SERVER_ERROR, e)
}

/// The person to roll rolls.
pub fn roll(mut g: OpenRace) -> Result<OpenRace, Response> {
    let ok = with_race(&g, |s, _| {
        if over(s) {
            return Err(refuse(StatusCode::CONFLICT, "the game is over"));
        }
        if !s.human_to_roll() {
            return Err(refuse(StatusCode::CONFLICT, "the computer is to roll"));
        }
        if s.rolled().is_some() {
            return Err(refuse(StatusCode::CONFLICT, "rolled already: choose"));
        }
        Ok(())
    })
    .map_err(failed)?;
    ok?;
    g.rolled = true;
    Ok(g)
}

/// The person who rolled chooses `text` (`enter`, a cell, `pass`); 422
/// with the rule that forbids it when it is not a legal choice.
pub fn choose(mut g: OpenRace, text: &str) -> Result<OpenRace, Response> {
    let game = Arc::clone(&g.game);
    let played = with_race(&g, |s, _| {
        if over(s) {
            return Err(refuse(StatusCode::CONFLICT, "the game is over"));
        }
        if !s.human_to_roll() {
            return Err(refuse(StatusCode::CONFLICT, "the computer is to roll"));
        }
        let Some(roll) = s.rolled() else {
            return Err(refuse(StatusCode::CONFLICT, "roll first"));
        };
        let seat = s.to_roll();
        let Some(c) = parse_choice(&game, seat, text) else {
            return Err(refuse(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!(
                    "`{}` is not a choice: enter, pass or a cell",
                    crate::shown::shown(text)
                ),
            ));
        };
        if !s.choices().contains(&c) {
            let why = crate::narrate::race::why_not(&game, s.state(), seat, &roll, c);
            return Err(refuse(StatusCode::UNPROCESSABLE_ENTITY, why));
        }
        s.choose(c).map_err(failed)
    })
    .map_err(failed)??;
    g.choices.push(played.choice);
    g.rolled = false;
    g.undone.clear();
    Ok(g)
}

/// The computer player to roll rolls and chooses.
pub fn computer(mut g: OpenRace) -> Result<OpenRace, Response> {
    let played = with_race(&g, |s, _| {
        if over(s) {
            return Err(refuse(StatusCode::CONFLICT, "the game is over"));
        }
        if s.human_to_roll() {
            return Err(refuse(StatusCode::CONFLICT, "a person is to roll"));
        }
        s.roll();
        s.play_computer().map_err(failed)
    })
    .map_err(failed)??;
    g.choices.push(played.choice);
    Ok(g)
}

/// Whether the computer is to play a turn.
pub fn computer_to_move(g: &OpenRace) -> bool {
    with_race(g, |s, _| !over(s) && !s.human_to_roll()).unwrap_or(false)
}

/// The record of the game so far (JSON lines, for `replay`).
pub fn record(g: &OpenRace) -> Result<String, String> {
    with_race(g, |_, turns| record_text(&header(g), turns))
}

/// Takes back the last turn a person played (and the computer turns after
/// it): that person's turn comes again, with the same dice, to choose
/// again (as `RaceSession::undo`); the choice taken back goes to redo.
pub fn undo(mut g: OpenRace) -> Result<OpenRace, Response> {
    let seats = replay(&g, false).map_err(failed)?.seats;
    let Some(i) = seats.iter().rposition(|&seat| is_human(&g, seat)) else {
        return Err(refuse(StatusCode::CONFLICT, "nothing to undo"));
    };
    if let Some(&c) = g.choices.get(i) {
        g.undone.push(c);
    }
    g.choices.truncate(i);
    g.rolled = true;
    Ok(g)
}

/// Makes again the last choice taken back: the person to roll rolls (the
/// same dice as before the undo) and chooses it; the computer turns after
/// it come again by themselves.
pub fn redo(mut g: OpenRace) -> Result<OpenRace, Response> {
    let Some(&c) = g.undone.last() else {
        return Err(refuse(StatusCode::CONFLICT, "nothing to redo"));
    };
    let mut rolled = g.clone();
    rolled.rolled = true;
    let played = with_race(&rolled, |s, _| {
        if over(s) {
            return Err(refuse(StatusCode::CONFLICT, "the game is over"));
        }
        if !s.human_to_roll() {
            return Err(refuse(StatusCode::CONFLICT, "the computer is to roll"));
        }
        if !s.choices().contains(&c) {
            return Err(refuse(
                StatusCode::CONFLICT,
                "the choice taken back is not a choice of this roll",
            ));
        }
        s.choose(c).map_err(failed)
    })
    .map_err(failed)??;
    g.undone.pop();
    g.choices.push(played.choice);
    g.rolled = false;
    Ok(g)
}

/// A legal choice suggested, as the page shows the choices.
#[derive(Serialize)]
pub struct Hint {
    hint: ChoiceView,
}

/// The choice a greedy player suggests for the person's roll.
pub fn hint(g: &OpenRace) -> Result<Hint, Response> {
    with_race(g, |s, _| {
        if over(s) {
            return Err(refuse(StatusCode::CONFLICT, "the game is over"));
        }
        let Some(roll) = s.rolled().filter(|_| s.human_to_roll()) else {
            return Err(refuse(StatusCode::CONFLICT, "roll first"));
        };
        let Some(c) = s.hint() else {
            return Err(refuse(StatusCode::CONFLICT, "no choice to suggest"));
        };
        Ok(Hint {
            hint: choice_view(s.game(), s.state(), &roll, c),
        })
    })
    .map_err(failed)?
}

/// Plays the turns of a race record (the JSON lines after its header) in
/// `g`, a game opened with the record's seed: each turn must be the seat to
/// roll's, with the dice the seed rolls, and a legal choice; 422 naming the
/// line (1 is the header) of the first that is not. With `from_start`,
/// nothing is played and each turn comes by redo.
pub fn load(mut g: OpenRace, text: &str, from_start: bool) -> Result<OpenRace, Response> {
    let unplayable = |n: usize, e: String| {
        refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("the record, line {n}: {e}"),
        )
    };
    let game = Arc::clone(&g.game);
    let mut played = Vec::new();
    {
        let probe = OpenRace {
            choices: Vec::new(),
            rolled: false,
            ..g.clone()
        };
        let mut r = replay(&probe, false).map_err(failed)?;
        let s = &mut r.s;
        let lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .skip(1);
        for (n, line) in lines {
            let turn: RaceTurn = serde_json::from_str(line)
                .map_err(|e| unplayable(n, format!("not a turn of a race game ({e})")))?;
            if over(s) {
                return Err(unplayable(n, "the game is already over".into()));
            }
            let seat = s.to_roll();
            let expected = seat_name(&game, seat);
            if turn.player != expected {
                return Err(unplayable(
                    n,
                    format!(
                        "it is {expected}'s turn, not {}'s",
                        crate::shown::shown(&turn.player)
                    ),
                ));
            }
            let roll = s.roll();
            if roll.faces() != turn.dice.as_slice() {
                return Err(unplayable(
                    n,
                    format!(
                        "the dice are {:?}, but seed {} rolls {:?} here: the game goes on only with the dice of its seed",
                        turn.dice,
                        g.seed,
                        roll.faces()
                    ),
                ));
            }
            let c = choice_of(&game, seat, &turn.choice)
                .filter(|c| s.choices().contains(c))
                .ok_or_else(|| {
                    let listed: Vec<String> = s
                        .choices()
                        .iter()
                        .map(|&c| choice_text(&game, seat, c))
                        .collect();
                    unplayable(
                        n,
                        format!(
                            "{expected} can't play {} with {:?}: the choices are {}",
                            turn.choice,
                            turn.dice,
                            listed.join(", ")
                        ),
                    )
                })?;
            s.choose(c).map_err(failed)?;
            played.push(c);
            if played.len() > MAX_PLIES {
                return Err(unplayable(
                    n,
                    format!("a game here has at most {MAX_PLIES} turns"),
                ));
            }
        }
    }
    if from_start {
        g.undone = played.into_iter().rev().collect();
    } else {
        g.choices = played;
    }
    Ok(g)
}
