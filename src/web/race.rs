//! Race games in the browser: a game in progress is its seed, its seats
//! and the choice of each turn; every request builds its
//! [`RaceSession`] again from them (the seeded dice give the same rolls), so
//! the rolls, the legal choices, the rule events and the result all come
//! from the library. The state sent to the page (the track drawn), the roll
//! and the choice of a person, a loaded record's turns; the verbs common to
//! both kinds go through [`Kind`].

// A refusal is the HTTP answer itself (`Err(Response)`).
#![allow(clippy::result_large_err)]

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::change::change as change_game;
use super::kind::{HintOf, Kind, NextOf, Step, TurnOf};
use super::reply::{bad, broken, game_over, refuse, MAX_PLIES};
use super::store::{OpenGame, Play, RacePlay, Setup, TurnLog};
use super::AppState;
use crate::format::svg::race::{drawn_at, seat_colour};
use crate::narrate::event::describe;
use crate::narrate::race::{
    choice_says, choice_text, parse_choice, positions_text, result_text, seat_name, told,
};
use crate::race::game::RaceGame;
use crate::race::{Choice, Event, RaceState, Roll};
use crate::record::race::{choice_json, choice_of, record_text, RaceTurn};
use crate::record::Header;
use crate::session::race::{Played, RaceEnding, RaceNext, RaceSession};

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
    /// Where the choice goes and what the cells do, for its button
    /// (`53 → 61 → 64 (forward 3)`).
    says: String,
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
    /// What each die rolled is worth, with a table of values for the dice;
    /// left out without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    rolled_worth: Option<Vec<u16>>,
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
fn header(setup: &Setup) -> Header {
    Header {
        game: setup.name.clone(),
        options: setup.options.clone(),
        position: None,
        tags: Vec::new(),
        players: Some(setup.agents.len()),
        seed: Some(setup.seed),
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
fn replay<'g>(
    game: &'g RaceGame,
    r: &RacePlay,
    setup: &Setup,
    words: bool,
) -> Result<Replayed<'g>, String> {
    let mut s = RaceSession::new(
        game,
        &setup.agents,
        setup.seed,
        setup.strength,
        MAX_PLIES as u32,
        header(setup),
        None,
    )
    .map_err(|e| format!("error: {e}"))?;
    let mut turns = Vec::with_capacity(r.choices.len());
    let mut seats = Vec::with_capacity(r.choices.len());
    let mut log = Vec::new();
    let from = r.choices.len().saturating_sub(MAX_LOG);
    for (i, &c) in r.choices.iter().enumerate() {
        let seat = s.to_roll();
        let roll = s.roll();
        let forced = s.forced().is_some();
        let played = s.choose(c).map_err(|e| format!("error: {e}"))?;
        if words && i >= from {
            log.push(turn_log(game, &played, forced));
        }
        seats.push(seat);
        turns.push(RaceTurn {
            player: seat_name(game, seat).to_string(),
            dice: roll.faces().to_vec(),
            choice: choice_json(game, seat, c),
        });
    }
    if r.rolled && !over(&s) {
        s.roll();
    }
    Ok(Replayed {
        s,
        turns,
        seats,
        log,
    })
}

impl Kind for RacePlay {
    type Session<'a> = RaceSession<'a>;

    const PERSON_TO_MOVE: &'static str = "a person is to roll";
    const NO_HINT: &'static str = "no choice to suggest";
    const ERROR_PREFIX: &'static str = "error: ";

    fn session<R>(
        &self,
        setup: &Setup,
        f: impl FnOnce(&mut RaceSession<'_>) -> R,
    ) -> Result<R, String> {
        let mut r = replay(&self.game, self, setup, false)?;
        Ok(f(&mut r.s))
    }

    fn session_mut<R>(
        &mut self,
        setup: &Setup,
        f: impl FnOnce(&mut RaceSession<'_>, &mut RacePlay) -> R,
    ) -> Result<R, String> {
        let game = Arc::clone(&self.game);
        let mut r = replay(&game, self, setup, false)?;
        Ok(f(&mut r.s, self))
    }

    fn step<'a>(next: NextOf<'a, Self>) -> Step<TurnOf<'a, Self>> {
        match next {
            RaceNext::Played(turn) => Step::Played(turn),
            RaceNext::Person(_) => Step::Person,
            RaceNext::Over(_) => Step::Over,
        }
    }

    fn view(&self, id: u64, setup: &Setup) -> Result<Value, String> {
        view(id, self, setup).and_then(|v| serde_json::to_value(v).map_err(|e| e.to_string()))
    }

    fn keep_turn(
        &mut self,
        _setup: &Setup,
        _s: &RaceSession<'_>,
        turn: TurnOf<'_, Self>,
    ) -> Option<Value> {
        self.choices.push(turn.choice);
        None
    }

    fn hint_ready(s: &RaceSession<'_>) -> Result<(), Response> {
        if over(s) {
            return Err(game_over());
        }
        if s.rolled().is_none() || !s.human_to_roll() {
            return Err(refuse(StatusCode::CONFLICT, "roll first"));
        }
        Ok(())
    }

    fn hint_json(s: &RaceSession<'_>, hint: HintOf<'_, Self>) -> Value {
        let cell = s
            .rolled()
            .map(|roll| choice_view(s.game(), s.state(), &roll, hint));
        json!({ "hint": cell })
    }

    /// Takes back the last turn a person played (and the computer turns
    /// after it): that person's turn comes again, with the same dice, to
    /// choose again; the choice taken back goes to redo. (Not the session's
    /// undo, which goes back past a turn of one choice only: the page takes
    /// back the last turn a person played, whatever it was.)
    fn undo(&mut self, setup: &Setup) -> Result<Option<Value>, Response> {
        let seats = replay(&self.game, self, setup, false)
            .map_err(broken)?
            .seats;
        let Some(i) = seats.iter().rposition(|&seat| is_human(setup, seat)) else {
            return Err(refuse(StatusCode::CONFLICT, "nothing to undo"));
        };
        if let Some(&c) = self.choices.get(i) {
            self.undone.push(c);
        }
        self.choices.truncate(i);
        self.rolled = true;
        Ok(None)
    }

    /// Makes again the last choice taken back: the person to roll rolls (the
    /// same dice as before the undo) and chooses it; the computer turns after
    /// it come again by themselves.
    fn redo(&mut self, setup: &Setup) -> Result<Option<Value>, Response> {
        let Some(&c) = self.undone.last() else {
            return Err(refuse(StatusCode::CONFLICT, "nothing to redo"));
        };
        let mut rolled = self.clone();
        rolled.rolled = true;
        let played = rolled
            .session(setup, |s| {
                if over(s) {
                    return Err(game_over());
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
                s.choose(c).map_err(|e| broken(format!("error: {e}")))
            })
            .map_err(broken)??;
        self.undone.pop();
        self.choices.push(played.choice);
        self.rolled = false;
        Ok(None)
    }

    /// The record of every turn played, with the header the page has always
    /// written (the session's record holds the turns only where a person
    /// plays, and names the agents).
    fn record(&self, setup: &Setup) -> Result<String, String> {
        let r = replay(&self.game, self, setup, false)?;
        Ok(record_text(&header(setup), &r.turns))
    }
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

/// The state of a race game as the page sees it.
fn view(id: u64, r: &RacePlay, setup: &Setup) -> Result<RaceView, String> {
    let Replayed {
        s: mut session,
        seats,
        log,
        ..
    } = replay(&r.game, r, setup, true)?;
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
        game: setup.name.clone(),
        title: game.title.clone(),
        options: setup.options.clone(),
        seed: setup.seed.to_string(),
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
        rolled_worth: rolled.and_then(|r| worth(game, &r)),
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
        can_undo: seats.iter().any(|&i| is_human(setup, i)),
        can_redo: !done && !r.undone.is_empty() && human,
        result,
    })
}

/// Whether a person plays seat `seat`.
fn is_human(setup: &Setup, seat: usize) -> bool {
    setup.agents.get(seat).is_some_and(|a| a == "human")
}

/// Choice `c` of the seat to roll for `roll`, with the cells of the track
/// picture it moves from and lands on (none for a piece out or at home).
fn choice_view(game: &RaceGame, state: &RaceState, roll: &Roll, c: Choice) -> ChoiceView {
    let seat = state.to_roll();
    ChoiceView {
        text: choice_text(game, seat, c),
        says: choice_says(game, state, roll, c, "\u{2192}"),
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

/// A turn played, in words; `forced`: its roll left one choice.
/// What each die of `roll` is worth, when the game gives the dice a table
/// of values (`None` without one: the faces say it).
fn worth(game: &RaceGame, roll: &Roll) -> Option<Vec<u16>> {
    (!game.face_values.is_empty())
        .then(|| roll.faces().iter().map(|&f| game.face_value(f)).collect())
}

fn turn_log(game: &RaceGame, p: &Played, forced: bool) -> TurnLog {
    // Told as the terminal tells them: an extra roll once, a rule of the
    // roll when it acted.
    let told = told(game, &p.events);
    let events = || {
        p.events
            .iter()
            .zip(&told)
            .filter(|(_, t)| **t)
            .map(|(e, _)| e)
    };
    TurnLog {
        forced,
        number: p.number,
        seat: p.seat,
        player: seat_name(game, p.seat).to_string(),
        dice: p.roll.faces().to_vec(),
        worth: worth(game, &p.roll),
        choice: choice_text(game, p.seat, p.choice),
        events: events().map(|e| describe(e, game, p.seat)).collect(),
        notes: events()
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

/// Opens a race game of `race` for `players` (the fewest by default, or as
/// many as the agents of `setup`), people where no agent is given.
pub fn open(
    race: Box<RaceGame>,
    mut setup: Setup,
    players: Option<usize>,
) -> Result<OpenGame, Response> {
    let (min, max) = (usize::from(race.min_players), usize::from(race.max_players));
    let players = players.unwrap_or(setup.agents.len().max(min));
    if players < min || players > max {
        return Err(bad(format!(
            "{players} players; this game takes {min} to {max}"
        )));
    }
    if setup.agents.len() > players {
        return Err(bad(format!(
            "{} seats given for {players} players",
            setup.agents.len()
        )));
    }
    setup.agents.resize(players, "human".into());
    let play = RacePlay::new(Arc::from(race));
    // The seats are checked now, so a bad agent is refused at once.
    play.session(&setup, |_| ()).map_err(bad)?;
    Ok(OpenGame {
        setup,
        play: Play::Race(play),
    })
}

/// Runs a change of a race game (a board game is refused), stores it and
/// answers with the new state.
async fn change(
    app: Arc<AppState>,
    id: &str,
    f: impl FnOnce(&mut RacePlay, &Setup) -> Result<(), Response> + Send + 'static,
) -> Response {
    change_game(app, id, |mut g| {
        match &mut g.play {
            Play::Race(r) => f(r, &g.setup)?,
            Play::Board(_) => {
                return Err(refuse(
                    StatusCode::CONFLICT,
                    "this is a board game: move a piece",
                ))
            }
        }
        Ok((g, None))
    })
    .await
}

/// POST /api/games/{id}/roll: the person to roll of a race game rolls.
pub async fn roll(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> Response {
    change(app, &id, |r, setup| {
        r.session(setup, |s| {
            if over(s) {
                return Err(game_over());
            }
            if !s.human_to_roll() {
                return Err(refuse(StatusCode::CONFLICT, "the computer is to roll"));
            }
            if s.rolled().is_some() {
                return Err(refuse(StatusCode::CONFLICT, "rolled already: choose"));
            }
            Ok(())
        })
        .map_err(broken)??;
        r.rolled = true;
        Ok(())
    })
    .await
}

/// The body of POST /api/games/{id}/choose.
#[derive(Deserialize)]
pub struct ChooseBody {
    /// `enter`, `pass` or the cell of the piece to move.
    choice: String,
}

/// POST /api/games/{id}/choose: the person who rolled chooses (`enter`, a
/// cell, `pass`); 422 with the rule that forbids it when it is not a legal
/// choice.
pub async fn choose(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Json(b): Json<ChooseBody>,
) -> Response {
    if b.choice.len() > 200 {
        return bad("a choice is at most 200 characters");
    }
    change(app, &id, move |r, setup| {
        let text = b.choice.as_str();
        let game = Arc::clone(&r.game);
        let played = r
            .session(setup, |s| {
                if over(s) {
                    return Err(game_over());
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
                            "`{}` is not a choice: write {}",
                            crate::shown::shown(text),
                            crate::narrate::race::choice_forms(&game)
                        ),
                    ));
                };
                if !s.allows(c) {
                    let why = crate::narrate::race::why_not(&game, s.state(), seat, &roll, c);
                    return Err(refuse(StatusCode::UNPROCESSABLE_ENTITY, why));
                }
                s.choose(c).map_err(|e| broken(format!("error: {e}")))
            })
            .map_err(broken)??;
        r.choices.push(played.choice);
        r.rolled = false;
        r.undone.clear();
        Ok(())
    })
    .await
}

/// Plays the turns of a race record (the JSON lines after its header) in
/// `r`, a game just opened with the record's seed: each turn must be the
/// seat to roll's, with the dice the seed rolls, and a legal choice; 422
/// naming the line (1 is the header) of the first that is not. With
/// `from_start`, nothing is played and each turn comes by redo.
pub fn load(r: &mut RacePlay, setup: &Setup, text: &str, from_start: bool) -> Result<(), Response> {
    let unplayable = |n: usize, e: String| {
        refuse(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("the record, line {n}: {e}"),
        )
    };
    let game = Arc::clone(&r.game);
    let mut played = Vec::new();
    {
        let probe = RacePlay {
            choices: Vec::new(),
            rolled: false,
            ..r.clone()
        };
        let mut replayed = replay(&game, &probe, setup, false).map_err(broken)?;
        let s = &mut replayed.s;
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
                        setup.seed,
                        roll.faces()
                    ),
                ));
            }
            let c = choice_of(&game, seat, &turn.choice)
                .filter(|&c| s.allows(c))
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
            s.choose(c).map_err(|e| broken(format!("error: {e}")))?;
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
        r.undone = played.into_iter().rev().collect();
    } else {
        r.choices = played;
    }
    Ok(())
}
