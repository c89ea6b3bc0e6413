//! Race games on the command line: `play` (people and computer players,
//! with `--record`), the text and JSON of a turn (shared with `replay`), and
//! the speed benchmark of `bench`.

use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Instant;

use super::record::{choice_json, Header, RaceTurn, Recorder};
use super::{Failure, FsLoader, GameArgs};
use crate::agents::{self, Agent, Strength};
use crate::load::check;
use crate::race::game::{RaceGame, OUT};
use crate::race::text::{choice_text, parse_choice, result_text, seat_name, turn_text};
use crate::race::{Choice, Event, Policy, RaceNode, RaceState, Roll};
use crate::rng::Rng;

/// Loads the game when it is a race game (printing its warnings); `None`
/// for anything else, which the board commands then load and report.
pub(crate) fn load_race(args: &GameArgs, err: &mut dyn Write) -> Result<Option<RaceGame>, Failure> {
    let options = super::parse_options(&args.options)?;
    let checked = check(&FsLoader, &args.game, &options);
    if checked.race.is_some() && !checked.diagnostics.is_empty() {
        write!(err, "{}", checked.render())?;
    }
    Ok(checked.race)
}

/// The seed of seat `seat`'s random player, apart from the dice's.
pub fn agent_seed(seed: u64, seat: usize) -> u64 {
    seed ^ 0xA6E7_0000_0000_0000 ^ (seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// What `play` says about a race game.
pub(crate) struct RaceRun<'a> {
    /// The game.
    pub game: &'a GameArgs,
    /// `--seat SEAT=AGENT`: a seat number (1..) or name.
    pub seats: &'a [String],
    /// `--players N` (default: the fewest the game allows).
    pub players: Option<usize>,
    /// The seed of the dice and of the computer players.
    pub seed: u64,
    /// Stop after this many rolls.
    pub max_rolls: u32,
    /// Where to write the record.
    pub record: Option<&'a Path>,
    /// How hard the agents of `crate::agents` think.
    pub strength: Strength,
}

enum Seat<'g> {
    Human,
    Computer(String, Policy),
    Agent(String, Box<dyn Agent<RaceNode<'g>> + 'g>),
}

impl RaceRun<'_> {
    /// Plays the game if it is a race game: `Some(exit code)`; `None` for a
    /// board game.
    pub(crate) fn run_if_race(
        &self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Result<Option<i32>, Failure> {
        let Some(game) = load_race(self.game, err)? else {
            return Ok(None);
        };
        let players = self.players.unwrap_or(usize::from(game.min_players));
        let mut state =
            RaceState::new(&game, players).map_err(|e| Failure::new(format!("error: {e}")))?;
        let mut seats = self.seats(&game, players)?;
        let header = Header {
            game: self.game.game.clone(),
            options: self.game.options.clone(),
            position: None,
            players: Some(players),
            seed: Some(self.seed),
        };
        let mut recorder = Recorder::create(self.record, &header)?;
        let mut turns: Vec<RaceTurn> = Vec::new();
        let mut dice = Rng::new(self.seed);
        writeln!(out, "{}", game.title)?;
        let who: Vec<String> = seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let agent = match s {
                    Seat::Human => "human",
                    Seat::Computer(name, _) | Seat::Agent(name, _) => name.as_str(),
                };
                format!("{} ({agent})", seat_name(&game, i))
            })
            .collect();
        writeln!(out, "players: {}", who.join(", "))?;
        let humans = seats.iter().any(|s| matches!(s, Seat::Human));
        if humans {
            write!(out, "{}", track_picture(&game, &state))?;
        }
        // Before each decision of a person: the state, the dice and the
        // turns so far, for `undo`; choices taken back, for `redo`.
        let mut before: Vec<(RaceState, Rng, usize)> = Vec::new();
        let mut taken_back: Vec<Choice> = Vec::new();
        let mut choices = Vec::new();
        let mut events = Vec::new();
        while !state.is_over() {
            if state.rolls() >= self.max_rolls {
                writeln!(out, "stopped after {} rolls (--max-plies)", state.rolls())?;
                return Ok(Some(0));
            }
            let seat = state.to_roll();
            let human = matches!(seats.get(seat), Some(Seat::Human) | None);
            if human {
                before.push((state.clone(), dice.clone(), turns.len()));
            }
            let roll = Roll::random(game.dice, game.faces, &mut dice);
            state.choices(&game, &roll, &mut choices);
            let choice = match seats.get_mut(seat) {
                Some(Seat::Computer(_, policy)) => choices
                    .get(policy.choose(&choices))
                    .copied()
                    .unwrap_or(Choice::Pass),
                Some(Seat::Agent(_, agent)) => {
                    let node = RaceNode::rolled(&game, state.clone(), roll, self.max_rolls);
                    choices
                        .get(agent.choose(&node))
                        .copied()
                        .unwrap_or(Choice::Pass)
                }
                _ => {
                    let mut hint = || {
                        let node = RaceNode::rolled(&game, state.clone(), roll, self.max_rolls);
                        let mut adviser =
                            agents::by_name("greedy", self.seed, self.strength, &node).ok()?;
                        choices.get(adviser.choose(&node)).copied()
                    };
                    let asked = ask(&game, &state, seat, &roll, &choices, &mut hint, input, out)?;
                    match asked {
                        Asked::Choose(c) => {
                            taken_back.clear();
                            c
                        }
                        Asked::Quit => return Ok(Some(0)),
                        Asked::Save(file) => {
                            let text = record_text(&header, &turns)?;
                            match super::save::write_atomic(Path::new(&file), text.as_bytes()) {
                                Ok(()) => writeln!(out, "saved {} turns to {file}", turns.len())?,
                                Err(e) => writeln!(out, "can't save to {file}: {e}")?,
                            }
                            // Back to before the roll: the same roll comes again.
                            if let Some((s, d, _)) = before.pop() {
                                state = s;
                                dice = d;
                            }
                            continue;
                        }
                        Asked::Undo | Asked::Redo => {
                            let undo = matches!(asked, Asked::Undo);
                            let now = before.pop();
                            let target = if undo { before.pop() } else { None };
                            match (undo, target, now) {
                                (true, Some((s, d, n)), _) => {
                                    if let Some(last) = turns.get(n) {
                                        if let Some(c) =
                                            super::record::choice_of(&game, seat, &last.choice)
                                        {
                                            taken_back.push(c);
                                        }
                                    }
                                    state = s;
                                    dice = d;
                                    turns.truncate(n);
                                    recorder.rewrite(&header, &turns)?;
                                    writeln!(out, "taken back")?;
                                    write!(out, "{}", track_picture(&game, &state))?;
                                }
                                (true, None, Some((s, d, _))) => {
                                    writeln!(out, "nothing to undo")?;
                                    state = s;
                                    dice = d;
                                }
                                (false, _, Some((s, d, _))) => {
                                    state = s;
                                    dice = d;
                                    match taken_back.pop() {
                                        Some(c) if choices.contains(&c) => {
                                            before.push((state.clone(), dice.clone(), turns.len()));
                                            let _ = Roll::random(game.dice, game.faces, &mut dice);
                                            writeln!(out, "redo: {c}")?;
                                            self.finish_turn(
                                                &game,
                                                &mut state,
                                                seat,
                                                &roll,
                                                c,
                                                &mut events,
                                                &mut turns,
                                                &mut recorder,
                                                out,
                                            )?;
                                            continue;
                                        }
                                        _ => writeln!(out, "nothing to redo")?,
                                    }
                                }
                                _ => {}
                            }
                            continue;
                        }
                    }
                }
            };
            self.finish_turn(
                &game,
                &mut state,
                seat,
                &roll,
                choice,
                &mut events,
                &mut turns,
                &mut recorder,
                out,
            )?;
            if humans && !state.is_over() {
                write!(out, "{}", track_picture(&game, &state))?;
            }
        }
        write!(out, "{}", result_text(&game, &state))?;
        Ok(Some(0))
    }

    /// Applies a choice: the events, the record, the turn in words.
    #[allow(clippy::too_many_arguments)]
    fn finish_turn(
        &self,
        game: &RaceGame,
        state: &mut RaceState,
        seat: usize,
        roll: &Roll,
        choice: Choice,
        events: &mut Vec<Event>,
        turns: &mut Vec<RaceTurn>,
        recorder: &mut Recorder,
        out: &mut dyn Write,
    ) -> Result<(), Failure> {
        let number = state.rolls() + 1;
        state
            .apply(game, roll, choice, events)
            .map_err(|e| Failure::new(format!("error: {e}")))?;
        let turn = RaceTurn {
            player: seat_name(game, seat).to_string(),
            dice: roll.faces().to_vec(),
            choice: choice_json(game, seat, choice),
        };
        recorder.line(&turn)?;
        turns.push(turn);
        write!(
            out,
            "{}",
            turn_text(game, state, number, seat, roll, choice, events)
        )?;
        Ok(())
    }

    fn seats<'g>(&self, game: &'g RaceGame, players: usize) -> Result<Vec<Seat<'g>>, Failure> {
        let mut names = vec!["human".to_string(); players];
        for s in self.seats {
            let (who, agent) = s.split_once('=').ok_or_else(|| {
                Failure::new(format!("error: `--seat {s}` needs the form SEAT=AGENT"))
            })?;
            let seat_names = game.seats.iter().map(String::as_str);
            let idx = super::seat_index(seat_names, who, players).ok_or_else(|| {
                    Failure::new(format!(
                        "error: `{who}` is not a seat of this game with {players} players: use 1 to {players} or {}",
                        game.seats.iter().take(players).cloned().collect::<Vec<_>>().join(", ")
                    ))
                })?;
            names[idx] = agent.to_string();
        }
        names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if n == "human" {
                    return Ok(Seat::Human);
                }
                if let Some(p) = Policy::by_name(n, agent_seed(self.seed, i)) {
                    return Ok(Seat::Computer(n.clone(), p));
                }
                let sample = RaceNode::new(
                    game,
                    RaceState::new(game, players).map_err(Failure::new)?,
                    self.max_rolls,
                );
                agents::by_name(n, agent_seed(self.seed, i), self.strength, &sample)
                    .map(|a| Seat::Agent(n.clone(), a))
                    .map_err(|e| {
                        Failure::new(format!(
                            "error: {e}; a race game also takes human, {}",
                            Policy::NAMES.join(", ")
                        ))
                    })
            })
            .collect()
    }
}

/// Asks a person for a choice; `None` when the input ends or they resign.
/// A record as JSON lines: the header, then the turns.
fn record_text(header: &Header, turns: &[RaceTurn]) -> Result<String, Failure> {
    let fail = |e: serde_json::Error| Failure::new(format!("error: can't write the record: {e}"));
    let mut text = serde_json::to_string(header).map_err(fail)?;
    text.push('\n');
    for t in turns {
        text.push_str(&serde_json::to_string(t).map_err(fail)?);
        text.push('\n');
    }
    Ok(text)
}

/// What a person at a race game asked for.
enum Asked {
    Choose(Choice),
    Undo,
    Redo,
    Save(String),
    Quit,
}

const RACE_HELP: &str = "Type `enter`, the cell of the piece to move, or `pass`. Commands:
  moves        the choices for this roll
  track        the track with every piece on it
  undo, redo   take back your last choice (the same dice come again) / make it again
  hint         the computer's suggestion
  save FILE    save the game so far (a record that `rulebook replay` reads)
  rules        the rules of this game
  resign       give up
  help         this text";

#[allow(clippy::too_many_arguments)]
fn ask(
    game: &RaceGame,
    state: &RaceState,
    seat: usize,
    roll: &Roll,
    choices: &[Choice],
    hint: &mut dyn FnMut() -> Option<Choice>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Asked, Failure> {
    let name = seat_name(game, seat);
    let listed: Vec<String> = choices
        .iter()
        .map(|&c| choice_text(game, seat, c))
        .collect();
    loop {
        write!(out, "{name} rolls {roll}: choose {}> ", listed.join(", "))?;
        out.flush()?;
        let line = match super::prompt::read_line(input)? {
            super::prompt::Line::Text(l) => l,
            super::prompt::Line::End => {
                writeln!(out)?;
                writeln!(out, "end of input: game abandoned")?;
                return Ok(Asked::Quit);
            }
            _ => {
                let max = super::prompt::MAX_LINE;
                writeln!(
                    out,
                    "that line is not a choice (a line is UTF-8 text of at most {max} bytes)"
                )?;
                continue;
            }
        };
        let line = line.trim();
        let (cmd, arg) = line.split_once(' ').unwrap_or((line, ""));
        match cmd {
            "" => continue,
            "resign" => {
                writeln!(out, "{name} resigns")?;
                return Ok(Asked::Quit);
            }
            "help" | "?" => {
                writeln!(out, "{RACE_HELP}")?;
                continue;
            }
            "moves" => {
                writeln!(out, "{}", listed.join(" "))?;
                continue;
            }
            "track" => {
                write!(out, "{}", track_picture(game, state))?;
                continue;
            }
            "rules" => {
                writeln!(out, "{}\n{}", game.title, game.description)?;
                continue;
            }
            "hint" => {
                match hint() {
                    Some(c) => writeln!(out, "hint: {}", choice_text(game, seat, c))?,
                    None => writeln!(out, "no hint")?,
                }
                continue;
            }
            "undo" => return Ok(Asked::Undo),
            "redo" => return Ok(Asked::Redo),
            "save" if !arg.trim().is_empty() => return Ok(Asked::Save(arg.trim().to_string())),
            "save" => {
                writeln!(out, "save needs a file name: save game.jsonl")?;
                continue;
            }
            _ => {}
        }
        match parse_choice(game, seat, line) {
            Some(c) if choices.contains(&c) => return Ok(Asked::Choose(c)),
            Some(c) => writeln!(
                out,
                "`{line}` is not a choice: {}; the choices are {}",
                why_not(game, state, seat, roll, c),
                listed.join(", ")
            )?,
            None => writeln!(
                out,
                "`{line}` is not a choice: the choices are {}",
                listed.join(", ")
            )?,
        }
    }
}

/// Which rule forbids a choice, in words.
fn why_not(game: &RaceGame, state: &RaceState, seat: usize, roll: &Roll, c: Choice) -> String {
    let name = seat_name(game, seat);
    let pieces = state.pieces(seat);
    match c {
        Choice::Enter => {
            if !pieces.contains(&OUT) {
                format!("{name} has no piece out to enter")
            } else {
                match game.enter {
                    crate::race::game::Enter::OnFace(f) => {
                        format!("a piece enters only when a die shows {f}, and the roll is {roll}")
                    }
                    crate::race::game::Enter::Always => format!("no piece can enter with {roll}"),
                }
            }
        }
        Choice::Move(p) => match pieces.iter().position(|&q| q == p) {
            None => format!("{name} has no piece on {}", game.label(seat, p)),
            Some(i) if state.is_held(seat, i) => {
                format!("the piece on {} is held there", game.label(seat, p))
            }
            Some(_) => format!(
                "the piece on {} can't move with {roll}",
                game.label(seat, p)
            ),
        },
        Choice::Pass => "a move is compulsory when there is one".to_string(),
    }
}

/// The track with every piece on it, ten cells a row from the start, and a
/// legend: each seat's letter, pieces out and finished, turns owed.
pub(crate) fn track_picture(game: &RaceGame, state: &RaceState) -> String {
    let letter = |seat: usize| {
        seat_name(game, seat)
            .chars()
            .next()
            .map_or('?', |c| c.to_ascii_uppercase())
    };
    // The cells drawn: the track, or on a circuit the loop; each piece on
    // the cell its seat's path puts it (home cells go to the legend).
    let drawn = game.circuit.as_ref().map_or(game.cells, |c| c.cells + 1);
    let mut on: Vec<String> = vec![String::new(); usize::from(drawn) + 1];
    let mut legend = Vec::new();
    for seat in 0..state.players() {
        let (mut out, mut done) = (0, 0);
        let mut home = Vec::new();
        for &p in state.pieces(seat) {
            if p == OUT {
                out += 1;
            } else if p >= game.cells {
                done += 1;
            } else if game.circuit.as_ref().is_some_and(|c| p > c.cells) {
                home.push(game.label(seat, p));
            } else if let Some(cell) = on.get_mut(usize::from(game.rule_cell(seat, p))) {
                cell.push(letter(seat));
            }
        }
        let mut s = format!(
            "{} {}: {out} out, {done} finished",
            letter(seat),
            seat_name(game, seat)
        );
        if !home.is_empty() {
            s.push_str(&format!(", home cells {}", home.join(" ")));
        }
        if let Some(start) = game.circuit.as_ref().and_then(|c| c.starts.get(seat)) {
            s.push_str(&format!(", starts on {start}"));
        }
        if state.owed(seat) > 0 {
            s.push_str(&format!(", misses {} turns", state.owed(seat)));
        }
        legend.push(s);
    }
    let last = game.circuit.as_ref().map_or(game.cells, |c| c.cells);
    let width = usize::from(last).to_string().len();
    let mut text = String::new();
    for row_start in (1..=usize::from(last)).step_by(10) {
        let row_end = (row_start + 9).min(usize::from(last));
        for c in row_start..=row_end {
            let pieces = on.get(c).map_or("", String::as_str);
            text.push_str(&format!("{c:>width$}{pieces:<3}"));
        }
        text.push('\n');
    }
    text.push_str(&legend.join("\n"));
    text.push('\n');
    text
}

/// A turn as JSON: player, dice, choice, events, and the state after it.
pub(crate) fn turn_json(
    game: &RaceGame,
    state: &RaceState,
    number: u32,
    seat: usize,
    roll: &Roll,
    choice: Choice,
    events: &[Event],
) -> serde_json::Value {
    serde_json::json!({
        "turn": number,
        "player": seat_name(game, seat),
        "dice": roll.faces(),
        "choice": choice_json(game, seat, choice),
        "events": events.iter().map(|e| e.describe(game, seat)).collect::<Vec<_>>(),
        "state": state_json(game, state),
    })
}

/// The state as JSON: every seat's pieces (a cell, `"out"` or
/// `"finished"`), held pieces, turns still to miss, who rolls, the winner.
pub(crate) fn state_json(game: &RaceGame, state: &RaceState) -> serde_json::Value {
    let mut pieces = serde_json::Map::new();
    let mut held = serde_json::Map::new();
    let mut owed = serde_json::Map::new();
    for seat in 0..state.players() {
        let name = seat_name(game, seat).to_string();
        let cells: Vec<serde_json::Value> = state
            .pieces(seat)
            .iter()
            .map(|&p| {
                if p == OUT || p >= game.cells {
                    serde_json::Value::from(game.label(seat, p))
                } else {
                    match game.label(seat, p).parse::<u16>() {
                        Ok(cell) => serde_json::Value::from(cell),
                        Err(_) => serde_json::Value::from(game.label(seat, p)),
                    }
                }
            })
            .collect();
        let held_cells: Vec<String> = state
            .pieces(seat)
            .iter()
            .enumerate()
            .filter(|(i, _)| state.is_held(seat, *i))
            .map(|(_, &p)| game.label(seat, p))
            .collect();
        if !held_cells.is_empty() {
            held.insert(name.clone(), serde_json::Value::from(held_cells));
        }
        pieces.insert(name.clone(), serde_json::Value::from(cells));
        owed.insert(name, serde_json::Value::from(state.owed(seat)));
    }
    let mut value = serde_json::json!({
        "pieces": pieces,
        "held": held,
        "skipped_turns_owed": owed,
        "to_roll": if state.is_over() { serde_json::Value::Null } else { serde_json::Value::from(seat_name(game, state.to_roll())) },
        "winner": state.winner().map(|w| seat_name(game, w)),
    });
    // The roll history the rules of the roll look at, the finishing order
    // and the other endings: only in games that have them.
    if let Some(map) = value.as_object_mut() {
        if !game.roll_rules.is_empty() {
            map.insert(
                "doubles_in_a_row".into(),
                serde_json::Value::from(state.doubles_in_a_row()),
            );
            map.insert(
                "same_roll_in_a_row".into(),
                serde_json::Value::from(state.same_in_a_row().0),
            );
        }
        if game.order || !state.places().is_empty() && state.places().len() > 1 {
            let order: Vec<&str> = state
                .places()
                .iter()
                .map(|&s| seat_name(game, usize::from(s)))
                .collect();
            map.insert("order".into(), serde_json::Value::from(order));
        }
        if let Some(l) = state.loser() {
            map.insert("loser".into(), serde_json::Value::from(seat_name(game, l)));
        }
        if state.is_drawn() {
            map.insert(
                "draw".into(),
                serde_json::Value::from("no player can ever move again"),
            );
        }
    }
    value
}

/// `bench` for a race game: whole two-player games between random players,
/// on `jobs` threads (each playing its own seeds) for about `seconds`; prints
/// games and rolls per second.
pub(crate) fn bench(
    game: &RaceGame,
    seconds: f64,
    jobs: usize,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    let players = usize::from(game.min_players.max(2).min(game.max_players));
    let jobs = jobs.max(1);
    let start = Instant::now();
    let results: Vec<Result<(u64, u64), Failure>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs as u64)
            .map(|job| {
                scope.spawn(move || {
                    let mut games = 0u64;
                    let mut rolls = 0u64;
                    let mut seed = job << 40;
                    let mut choices = Vec::with_capacity(16);
                    let mut events = Vec::with_capacity(32);
                    while start.elapsed().as_secs_f64() < seconds {
                        for _ in 0..1000 {
                            let (n, _) = play_one(game, players, seed, &mut choices, &mut events)?;
                            rolls += u64::from(n);
                            games += 1;
                            seed += 1;
                        }
                    }
                    Ok((games, rolls))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Failure::new("error: a bench thread failed")))
            })
            .collect()
    });
    let secs = start.elapsed().as_secs_f64();
    let (mut games, mut rolls) = (0u64, 0u64);
    for r in results {
        let (g, n) = r?;
        games += g;
        rolls += n;
    }
    writeln!(
        out,
        "{games} games of {players} random players on {jobs} thread{} in {secs:.3} s: {:.0} games/s, {:.2} M rolls/s, {:.1} rolls a game",
        if jobs == 1 { "" } else { "s" },
        games as f64 / secs,
        rolls as f64 / secs / 1e6,
        rolls as f64 / games.max(1) as f64
    )?;
    Ok(0)
}

/// Plays one game between random players from `seed`; the number of rolls
/// and the winner.
pub fn play_one(
    game: &RaceGame,
    players: usize,
    seed: u64,
    choices: &mut Vec<Choice>,
    events: &mut Vec<Event>,
) -> Result<(u32, Option<usize>), Failure> {
    let mut state = RaceState::new(game, players).map_err(Failure::new)?;
    let mut dice = Rng::new(seed);
    let mut pick = Rng::new(agent_seed(seed, 0));
    while !state.is_over() && state.rolls() < 100_000 {
        let roll = Roll::random(game.dice, game.faces, &mut dice);
        state.choices(game, &roll, choices);
        let i = pick.below(choices.len() as u64) as usize;
        let choice = choices.get(i).copied().unwrap_or(Choice::Pass);
        state
            .apply(game, &roll, choice, events)
            .map_err(|e| Failure::new(format!("error: {e}")))?;
    }
    Ok((state.rolls(), state.winner()))
}
