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

use super::api::{refuse, MAX_PLIES};
use super::store::{OpenRace, TurnLog};
use crate::race::game::RaceGame;
use crate::race::text::{choice_text, parse_choice, positions_text, result_text, seat_name};
use crate::race::Choice;
use crate::record::race::{choice_json, record_text, RaceTurn};
use crate::record::Header;
use crate::session::race::{Played, RaceSession};

/// The most turns the page's log holds (the oldest go first).
pub const MAX_LOG: usize = 500;

/// A seat as the page shows it.
#[derive(Serialize)]
struct SeatView {
    name: String,
    agent: String,
}

/// A legal choice: what to send back and where it is on the track.
#[derive(Serialize)]
struct ChoiceView {
    /// The choice in words (`enter`, `pass`, a cell), as `choose` takes it.
    text: String,
    /// The cell of the track the piece stands on, for a move.
    cell: Option<u16>,
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
    positions: String,
    turns: Vec<TurnLog>,
    result: Option<String>,
}

/// The record's first line for a race game.
fn header(g: &OpenRace) -> Header {
    Header {
        game: g.name.clone(),
        options: g.options.clone(),
        position: None,
        players: Some(g.agents.len()),
        seed: Some(g.seed),
        ..Header::default()
    }
}

/// Builds the session of a stored race game, replays its turns (and the
/// pending roll) and runs `f` with the turns as the record writes them.
pub fn with_race<R>(
    g: &OpenRace,
    f: impl FnOnce(&mut RaceSession<'_>, &[RaceTurn]) -> R,
) -> Result<R, String> {
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
    for &c in &g.choices {
        let seat = s.to_roll();
        let roll = s.roll();
        s.choose(c)?;
        turns.push(RaceTurn {
            player: seat_name(game, seat).to_string(),
            dice: roll.faces().to_vec(),
            choice: choice_json(game, seat, c),
        });
    }
    if g.rolled && !over(&s) {
        s.roll();
    }
    Ok(f(&mut s, &turns))
}

fn over(s: &RaceSession<'_>) -> bool {
    s.is_over() || s.limit_reached()
}

/// The result in words, None while the game goes on.
fn result(g: &RaceGame, s: &RaceSession<'_>) -> Option<String> {
    if s.is_over() {
        return Some(result_text(g, s.state()).trim_end().replace('\n', "; "));
    }
    s.limit_reached()
        .then(|| format!("stopped after {} rolls", s.state().rolls()))
}

/// The state of a race game as JSON for the page.
pub fn view(id: u64, g: &OpenRace) -> Result<RaceView, String> {
    with_race(g, |s, _| {
        let game = s.game();
        let seat = s.to_roll();
        let result = result(game, s);
        let done = result.is_some();
        let rolled = s.rolled();
        let human = s.human_to_roll();
        RaceView {
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
                .map(|(i, who)| SeatView {
                    name: seat_name(game, i).to_string(),
                    agent: who.name().to_string(),
                })
                .collect(),
            to_roll: seat,
            seat_to_roll: seat_name(game, seat).to_string(),
            human_to_roll: !done && human && rolled.is_none(),
            human_to_choose: !done && human && rolled.is_some(),
            computer_to_move: !done && !human,
            rolled: rolled.map(|r| r.faces().to_vec()),
            choices: if done {
                Vec::new()
            } else {
                s.choices()
                    .iter()
                    .map(|&c| ChoiceView {
                        text: choice_text(game, seat, c),
                        cell: match c {
                            Choice::Move(p) => Some(game.rule_cell(seat, p)),
                            _ => None,
                        },
                    })
                    .collect()
            },
            track: crate::format::text::race::track(
                game,
                Some(s.state()),
                &crate::format::text::board::Style::default(),
            ),
            positions: positions_text(game, s.state()),
            turns: g.log.clone(),
            result,
        }
    })
}

/// Adds a turn played to the game's log.
fn log(g: &mut OpenRace, game: &RaceGame, p: &Played) {
    g.log.push(TurnLog {
        number: p.number,
        seat: p.seat,
        player: seat_name(game, p.seat).to_string(),
        dice: p.roll.faces().to_vec(),
        choice: choice_text(game, p.seat, p.choice),
        events: p.events.iter().map(|e| e.describe(game, p.seat)).collect(),
    });
    if g.log.len() > MAX_LOG {
        g.log.remove(0);
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
            let why = crate::race::text::why_not(&game, s.state(), seat, &roll, c);
            return Err(refuse(StatusCode::UNPROCESSABLE_ENTITY, why));
        }
        s.choose(c).map_err(failed)
    })
    .map_err(failed)??;
    g.choices.push(played.choice);
    g.rolled = false;
    log(&mut g, &game, &played);
    Ok(g)
}

/// The computer player to roll rolls and chooses.
pub fn computer(mut g: OpenRace) -> Result<OpenRace, Response> {
    let game = Arc::clone(&g.game);
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
    log(&mut g, &game, &played);
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
