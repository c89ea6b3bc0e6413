//! Race games on the command line: `play` parses the seats, runs a
//! [`RaceSession`] and prints each turn; the prompt of a person at a race
//! game.

use std::io::{BufRead, Write};
use std::path::Path;

use super::shared::{ask_save_file, left_line, report_record, resume_line, seed_line};
use super::{Failure, GameArgs};
use crate::agents::Strength;
use crate::format::text::board::Style;
use crate::format::text::race::{legend, track, track_with};
use crate::narrate::race::{
    choice_forms, choice_says, choice_text, parse_choice, result_text, roll_text, seat_name,
    turn_text, why_not,
};
use crate::race::game::RaceGame;
use crate::race::{Choice, RaceState, Roll};
use crate::record::Header;
use crate::session::race::{Played, RaceEnding, RaceNext, RaceSeat, RaceSession};
use crate::session::{SessionError, Undo};

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
    /// Whether the seed is a fresh one (not given): it is said.
    pub fresh_seed: bool,
    /// Stop after this many rolls.
    pub max_rolls: u32,
    /// Where to write the record.
    pub record: Option<&'a Path>,
    /// How hard the agents of `crate::agents` think.
    pub strength: Strength,
    /// How the track is drawn (colour on a terminal).
    pub style: Style,
    /// Whether to say on stderr that a computer player thinks (a person
    /// at a terminal).
    pub thinking: bool,
}

impl RaceRun<'_> {
    /// Plays a race game as asked: its seats, a new session, turn after
    /// turn to the end; the exit code.
    pub(crate) fn run(
        &self,
        game: &RaceGame,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Result<i32, Failure> {
        let players = self.players.unwrap_or(usize::from(game.min_players));
        RaceState::new(game, players).map_err(|e| Failure::new(format!("error: {e}")))?;
        let names = self.agent_names(game, players, vec!["human".to_string(); players])?;
        let header = Header {
            game: self.game.game.clone(),
            options: self.game.options.clone(),
            position: None,
            tags: Vec::new(),
            players: Some(players),
            seed: Some(self.seed),
            ..Header::default()
        };
        let session = RaceSession::new(
            game,
            &names,
            self.seed,
            self.strength,
            self.max_rolls,
            header,
            self.record,
        )
        .map_err(|e| Failure::new(format!("error: {e}")))?;
        let intro = if self.fresh_seed {
            format!("{}\n", seed_line(self.seed))
        } else {
            String::new()
        };
        self.play_session(game, session, &intro, input, out, err)
    }

    /// Plays a race game: the title, `intro`, who plays, then turn after
    /// turn to the end.
    pub(crate) fn play_session(
        &self,
        game: &RaceGame,
        mut session: RaceSession<'_>,
        intro: &str,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Result<i32, Failure> {
        writeln!(out, "{}", game.title)?;
        write!(out, "{intro}")?;
        let who: Vec<String> = session
            .seats()
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} ({})", seat_name(game, i), s.name()))
            .collect();
        writeln!(out, "players: {}", who.join(", "))?;
        let humans = session.has_humans();
        // The pieces as the track last showed them: with a person playing,
        // the track is shown again before their roll only when something
        // moved since (or when asked: `track`).
        let mut shown: Option<Vec<Vec<u16>>> = None;
        // The legend of the track's marks is shown with the first track
        // only (`track`, `board` and `legend` show it again).
        let mut legend_shown = false;
        // The file `save` last wrote, and the turns it holds.
        let mut saved: Option<(String, usize)> = None;
        let thinking = self.thinking && humans;
        loop {
            let computer = thinking
                && !session.is_over()
                && matches!(
                    session.seats().get(session.to_roll()),
                    Some(RaceSeat::Agent(..))
                );
            if computer {
                write!(err, "{} thinking...\r", seat_name(game, session.to_roll()))?;
                err.flush()?;
            }
            let next = session.advance();
            if computer {
                write!(err, "\r\x1b[K")?;
                err.flush()?;
            }
            let (seat, roll) = match next.map_err(failed)? {
                RaceNext::Over(RaceEnding::Rules | RaceEnding::Resigned(_)) => break,
                RaceNext::Over(RaceEnding::Limit(rolls)) => {
                    writeln!(
                        out,
                        "stopped after {} (--max-plies)",
                        crate::words::count(rolls.into(), "roll")
                    )?;
                    return Ok(0);
                }
                RaceNext::Played(played) => {
                    self.print_turn(&mut session, &played, "", out, err)?;
                    continue;
                }
                RaceNext::Person(roll) => (session.to_roll(), roll),
            };
            if let Some(only) = session.forced() {
                // One choice (a pass included): taken without asking.
                let played = session.choose(only).map_err(failed)?;
                self.print_turn(&mut session, &played, " (the only choice)", out, err)?;
                continue;
            }
            let now = pieces(session.state());
            if shown.as_ref() != Some(&now) {
                let state = Some(session.state());
                write!(
                    out,
                    "{}",
                    track_with(game, state, &self.style, !legend_shown)
                )?;
                legend_shown = true;
                shown = Some(now);
            }
            let played = match ask(&session, seat, &roll, &self.style, input, out)? {
                Asked::Choose(c) => session.choose(c).map_err(failed)?,
                Asked::Quit => {
                    if let Some(file) = self.kept(&saved, &session) {
                        writeln!(out, "{}", resume_line(&file))?;
                    }
                    return Ok(0);
                }
                Asked::Resign => {
                    session.resign();
                    report_record(&mut session, self.record, err)?;
                    continue;
                }
                Asked::Save(file) => {
                    if self.save(&mut session, &file, out)? {
                        saved = Some((file, session.turns().len()));
                    }
                    continue;
                }
                Asked::Leave => {
                    let mut file = self.kept(&saved, &session);
                    if file.is_none() && !session.turns().is_empty() {
                        let mut lines = super::prompt::Piped(&mut *input);
                        while let Some(f) = ask_save_file(&mut lines, out)? {
                            if self.save(&mut session, &f, out)? {
                                file = Some(f);
                                break;
                            }
                        }
                    }
                    writeln!(out, "{}", left_line(file.as_deref()))?;
                    return Ok(0);
                }
                Asked::Undo => {
                    match session.undo() {
                        Undo::Back | Undo::Partly => {
                            report_record(&mut session, self.record, err)?;
                            writeln!(out, "taken back")?;
                            shown = None;
                        }
                        Undo::Nothing => writeln!(out, "nothing to undo")?,
                    }
                    continue;
                }
                Asked::Redo => {
                    match session.redo().map_err(failed)? {
                        Some(p) => {
                            writeln!(out, "redo: {}", p.choice)?;
                            self.print_turn(&mut session, &p, "", out, err)?;
                        }
                        None => writeln!(out, "nothing to redo")?,
                    }
                    continue;
                }
            };
            self.print_turn(&mut session, &played, "", out, err)?;
        }
        if let Some(seat) = session.resigned() {
            writeln!(out, "{}", resigned_text(game, seat, session.state()))?;
            return Ok(0);
        }
        if humans {
            let state = Some(session.state());
            write!(
                out,
                "{}",
                track_with(game, state, &self.style, !legend_shown)
            )?;
        }
        write!(out, "{}", result_text(game, session.state()))?;
        Ok(0)
    }

    /// Saves the game so far to `file` (`save FILE`, or on leaving), and
    /// says so: whether it was saved.
    fn save(
        &self,
        session: &mut RaceSession<'_>,
        file: &str,
        out: &mut dyn Write,
    ) -> Result<bool, Failure> {
        let clash = super::paths::Files::new()
            .game(&self.game.game)
            .output("save", Some(Path::new(file)))
            .clash();
        if let Some(why) = clash {
            writeln!(out, "can't save to {file}: {why}")?;
            return Ok(false);
        }
        match session.save(Path::new(file)) {
            Ok(n) => {
                writeln!(
                    out,
                    "saved {} to {file}",
                    crate::words::count(n as u64, "turn")
                )?;
                Ok(true)
            }
            Err(e) => {
                writeln!(out, "can't save to {file}: {e}")?;
                Ok(false)
            }
        }
    }

    /// Where the game is kept as it stands: the record, or the file saved
    /// with no turn since.
    fn kept(&self, saved: &Option<(String, usize)>, session: &RaceSession<'_>) -> Option<String> {
        self.record.map(|p| p.display().to_string()).or_else(|| {
            saved
                .as_ref()
                .filter(|(_, n)| *n == session.turns().len())
                .map(|(f, _)| f.clone())
        })
    }

    /// A turn played, in words, with `note` after its first line (and
    /// what writing it to the record did). With a person playing, the
    /// positions are left to the track: a turn is its line and its events.
    fn print_turn(
        &self,
        session: &mut RaceSession<'_>,
        p: &Played,
        note: &str,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Result<(), Failure> {
        report_record(session, self.record, err)?;
        let game = session.game();
        let text = turn_text(
            game,
            session.state(),
            p.number,
            p.seat,
            &p.roll,
            p.choice,
            &p.events,
        );
        let mut lines: Vec<&str> = text.lines().collect();
        if session.has_humans() && lines.len() > 1 {
            // The last line is the positions.
            lines.pop();
            // A pass and nothing else: its line says it all.
            if p.choice == Choice::Pass && p.events.len() == 1 {
                lines.truncate(1);
            }
        }
        for (i, line) in lines.iter().enumerate() {
            if i == 0 {
                writeln!(out, "{line}{note}")?;
            } else {
                writeln!(out, "{line}")?;
            }
        }
        Ok(())
    }

    /// The agent name of each seat: as given by `--seat`, else as in
    /// `names`.
    pub(crate) fn agent_names(
        &self,
        game: &RaceGame,
        players: usize,
        mut names: Vec<String>,
    ) -> Result<Vec<String>, Failure> {
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
        Ok(names)
    }
}

/// A resignation in words: `red resigns: blue wins`.
pub(crate) fn resigned_text(game: &RaceGame, seat: usize, state: &RaceState) -> String {
    let name = seat_name(game, seat);
    if state.players() == 2 && !game.scores.is_empty() {
        let score = state.score_against(game, 1 - seat, seat);
        format!(
            "{name} resigns: {} wins {}",
            seat_name(game, 1 - seat),
            crate::narrate::race::score_text(game, score)
        )
    } else if state.players() == 2 {
        format!("{name} resigns: {} wins", seat_name(game, 1 - seat))
    } else {
        format!("{name} resigns: the game ends")
    }
}

/// Every seat's pieces: what the track shows.
fn pieces(state: &RaceState) -> Vec<Vec<u16>> {
    (0..state.players())
        .map(|s| state.pieces(s).to_vec())
        .collect()
}

/// What a person at a race game asked for.
enum Asked {
    Choose(Choice),
    Resign,
    Undo,
    Redo,
    Save(String),
    /// The input ended.
    Quit,
    /// `quit` or `exit`.
    Leave,
}

/// The prompt's help after the line that says how a choice of the game is
/// written (`narrate::race::choice_forms`).
pub(crate) const RACE_HELP: &str =
    "Enter alone takes the choice in brackets (the computer's suggestion). A
roll that leaves one choice only is played without asking. Commands:
  moves         the choices for this roll: where each piece goes and what the
                cells do (`9 → 12 → 15 (contains 1: forward 3)`)
  track, board  the track with every piece on it, and its legend
  legend        what the marks of the track mean (shown with the first track)
  undo, redo    take back your last choice (the same dice come again) / make it again
  hint          the computer's suggestion
  save FILE     save the game so far (a record that `rulebook replay` reads)
  rules         the rules of this game
  resign        give up
  quit, exit    leave the game (offered to save it first)
  help          this text";

/// The words the race prompt understands besides choices.
const RACE_COMMANDS: &[&str] = &[
    "moves", "track", "board", "legend", "undo", "redo", "hint", "save", "rules", "resign", "quit",
    "exit", "help",
];

/// Asks the person to roll for a choice or a command.
fn ask(
    session: &RaceSession<'_>,
    seat: usize,
    roll: &Roll,
    style: &Style,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Asked, Failure> {
    let game = session.game();
    let state = session.state();
    let choices = session.choices();
    let name = seat_name(game, seat);
    let listed: Vec<String> = choices
        .iter()
        .map(|&c| choice_text(game, seat, c))
        .collect();
    // The arrow as the positions' dot: in any style (a `->` would read as
    // the prompt's `> `).
    let says = |c: Choice| choice_says(game, state, roll, c, "\u{2192}");
    let default = session.default_choice();
    let shown_default = default.map_or_else(String::new, |c| {
        format!(" [{}]", choice_text(game, seat, c))
    });
    loop {
        write!(
            out,
            "{name} rolls {}: choose {}{shown_default}> ",
            roll_text(game, roll),
            listed.join(", ")
        )?;
        out.flush()?;
        let line = match super::prompt::read_line(input)? {
            super::prompt::Line::Text(l) => l,
            super::prompt::Line::End => {
                writeln!(out)?;
                writeln!(out, "end of input: game abandoned")?;
                return Ok(Asked::Quit);
            }
            super::prompt::Line::Endless => return Err(super::prompt::endless()),
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
            "" => match default {
                Some(c) => return Ok(Asked::Choose(c)),
                None => continue,
            },
            "resign" => return Ok(Asked::Resign),
            "quit" | "exit" => return Ok(Asked::Leave),
            "help" | "?" => {
                writeln!(out, "Type {}.\n{RACE_HELP}", choice_forms(game))?;
                continue;
            }
            "moves" => {
                for &c in choices {
                    writeln!(out, "{}", says(c))?;
                }
                continue;
            }
            "track" | "board" => {
                write!(out, "{}", track(game, Some(state), style))?;
                continue;
            }
            "legend" => {
                let text = legend(game, style);
                if text.is_empty() {
                    writeln!(out, "the track has no marks: no cell has a rule")?;
                }
                write!(out, "{text}")?;
                continue;
            }
            "rules" => {
                let width = super::text_width(std::io::IsTerminal::is_terminal(&std::io::stdout()));
                let text = crate::format::text::rules(&game.title, &game.description, &[], width);
                write!(out, "{text}")?;
                continue;
            }
            "hint" => {
                match session.hint() {
                    Some(c) => writeln!(out, "hint: {}", says(c))?,
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
            Some(c) if session.allows(c) => return Ok(Asked::Choose(c)),
            Some(c) => writeln!(
                out,
                "`{line}` is not a choice: {}; the choices are {}",
                why_not(game, state, seat, roll, c),
                listed.join(", ")
            )?,
            None => match super::prompt::closest_command(&cmd.to_lowercase(), RACE_COMMANDS) {
                Some(c) => writeln!(
                    out,
                    "`{line}` is neither a choice nor a command: did you mean {c}?"
                )?,
                None => writeln!(
                    out,
                    "`{line}` is not a choice: the choices are {}",
                    listed.join(", ")
                )?,
            },
        }
    }
}

/// A turn that could not be played (exit 1), said as an error.
fn failed(e: SessionError) -> Failure {
    Failure::failed(format!("error: {e}"))
}
