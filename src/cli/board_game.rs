//! Board games on the command line: `play` runs a [`BoardSession`] at the
//! prompt (the board, the moves typed, the commands of `prompt.rs`) and
//! says how the game ended. The race counterpart is `race.rs`; what both
//! share is in `shared.rs`.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use super::prompt::Action;
use super::shared::{ask_save_file, left_line, report_record, resume_line};
use super::{Failure, GameArgs};
use crate::board::Tables;
use crate::session::{BoardSession, Ending, Next, Undo};

/// How `play` asks for a board game to be played.
pub(crate) struct BoardRun<'a> {
    /// The game's name and options, as its record names them.
    pub game: &'a GameArgs,
    /// Where to write the record.
    pub record: Option<&'a Path>,
    /// Letters for the pieces instead of Unicode glyphs (`--ascii`).
    pub ascii: bool,
    /// What the output is connected to.
    pub term: super::Term,
}

impl BoardRun<'_> {
    /// Plays a board game at the prompt: the title, `intro`, the board, then
    /// turn after turn to the end.
    pub(crate) fn play_session(
        &self,
        t: &Tables,
        session: BoardSession<'_>,
        intro: &str,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> Result<i32, Failure> {
        let (game, term) = (self.game, self.term);
        let mut session = session.named(&game.game, &game.options);
        if let Some(path) = self.record {
            session
                .record_to(path)
                .map_err(|e| Failure::new(format!("error: {e}")))?;
        }
        let record = self.record;
        // The file `save` last wrote, and the moves it holds.
        let mut saved: Option<(String, usize)> = None;
        // Where the game is kept as it stands: the record, or the file
        // saved with no move since.
        let kept = |saved: &Option<(String, usize)>, session: &BoardSession<'_>| {
            record.map(|p| p.display().to_string()).or_else(|| {
                saved
                    .as_ref()
                    .filter(|(_, n)| *n == session.game().played().len())
                    .map(|(f, _)| f.clone())
            })
        };
        let humans = session.has_humans();
        // On a terminal the person edits the line; otherwise lines are read as
        // they come.
        let mut editor = if term.is_terminal && term.stdin_is_terminal && humans {
            super::prompt::Editor::new()
        } else {
            None
        };
        let mut piped = super::prompt::Piped(input);
        let lines: &mut dyn super::prompt::Lines = match editor.as_mut() {
            Some(e) => e,
            None => &mut piped,
        };
        let mut style = term.style();
        style.unicode &= !self.ascii;
        // A person who plays only sides that move down the board sees it
        // turned round, their pieces at the bottom.
        style.flip = crate::format::text::board::seen_from_the_top(t, &session.people());
        let board = |session: &BoardSession<'_>, style: &crate::format::text::board::Style| {
            crate::format::text::board::render_styled(t, session.game().pos(), style)
        };
        writeln!(out, "{}", t.game().title)?;
        write!(out, "{intro}")?;
        write!(out, "{}", board(&session, &style))?;
        // While a computer player thinks, a person at a terminal is told so
        // on stderr (never in a pipe).
        let thinking = humans && term.is_terminal && std::io::stderr().is_terminal();
        loop {
            let computer = thinking && !session.human_to_move() && session.ending().is_none();
            if computer {
                write!(err, "{} thinking...\r", session.side_name())?;
                err.flush()?;
            }
            let next = session.advance();
            if computer {
                write!(err, "\r\x1b[K")?;
                err.flush()?;
            }
            let turn = match next.map_err(|e| Failure::failed(format!("error: {e}")))? {
                Next::Over(ending) => {
                    return say_ending(&session, &ending, &board(&session, &style), out)
                }
                Next::Played(turn) => turn,
                Next::Person => match super::prompt::ask(&session, lines, out)? {
                    Action::Play(m) => session.play_turn(&m),
                    Action::Undo => {
                        // Back to this person's previous turn.
                        let undone = session.undo();
                        report_record(&mut session, record, err)?;
                        match undone {
                            Undo::Nothing => writeln!(out, "nothing to undo")?,
                            Undo::Partly => {}
                            Undo::Back => write!(out, "{}", board(&session, &style))?,
                        }
                        continue;
                    }
                    Action::Redo => {
                        let side_name = session.side_name();
                        let redone = session.redo().map_err(|e| Failure::failed(e.to_string()))?;
                        report_record(&mut session, record, err)?;
                        match redone {
                            Some(turn) => {
                                let n = session.move_number(turn.ply);
                                writeln!(out, "{n}. {side_name}: {}", turn.mv.notation)?;
                                for e in turn.events {
                                    writeln!(out, "     {e}")?;
                                }
                            }
                            None => writeln!(out, "nothing to redo")?,
                        }
                        continue;
                    }
                    Action::Save(file) => {
                        if save(&session, &game.game, &file, out)? {
                            saved = Some((file, session.game().played().len()));
                        }
                        continue;
                    }
                    Action::Numbers => {
                        let numbered = crate::format::text::board::Style {
                            numbers: true,
                            ..style.clone()
                        };
                        write!(out, "{}", board(&session, &numbered))?;
                        continue;
                    }
                    Action::Resign => {
                        session.resign();
                        continue;
                    }
                    Action::Abandon => {
                        writeln!(out, "end of input: game abandoned")?;
                        if let Some(file) = kept(&saved, &session) {
                            writeln!(out, "{}", resume_line(&file))?;
                        }
                        return Ok(0);
                    }
                    Action::Quit => {
                        let mut file = kept(&saved, &session);
                        if file.is_none() && !session.game().played().is_empty() {
                            while let Some(f) = ask_save_file(lines, out)? {
                                if save(&session, &game.game, &f, out)? {
                                    file = Some(f);
                                    break;
                                }
                            }
                        }
                        writeln!(out, "{}", left_line(file.as_deref()))?;
                        return Ok(0);
                    }
                },
            };
            writeln!(
                out,
                "{}. {}: {}",
                session.move_number(turn.ply),
                session.name_of(turn.side),
                turn.mv.notation
            )?;
            report_record(&mut session, record, err)?;
            for e in &turn.events {
                writeln!(out, "     {e}")?;
            }
            style.last = turn
                .mv
                .from
                .into_iter()
                .chain(turn.mv.path.iter().copied())
                .collect();
            // The board once a turn: before a person's move (a computer's
            // reply comes first).
            if humans && session.game().outcome().is_none() && session.human_to_move() {
                write!(out, "{}", board(&session, &style))?;
            }
        }
    }
}

/// Saves the game so far to `file` (`save FILE`, or on leaving), and says
/// so: whether it was saved.
fn save(
    session: &BoardSession<'_>,
    game: &str,
    file: &str,
    out: &mut dyn Write,
) -> Result<bool, Failure> {
    let record = session.record_text();
    let clash = super::paths::Files::new()
        .game(game)
        .output("save", Some(Path::new(file)))
        .clash();
    if let Some(why) = clash {
        writeln!(out, "can't save to {file}: {why}")?;
        return Ok(false);
    }
    match crate::record::write_atomic(Path::new(file), record.as_bytes()) {
        Ok(()) => {
            writeln!(
                out,
                "saved {} to {file}",
                crate::words::count(session.game().played().len() as u64, "move")
            )?;
            Ok(true)
        }
        Err(e) => {
            writeln!(out, "can't save to {file}: {e}")?;
            Ok(false)
        }
    }
}

/// Says how the game ended: the final position and the result, or where
/// the ply limit stopped it.
fn say_ending(
    session: &BoardSession<'_>,
    ending: &Ending,
    board: &str,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    match ending {
        Ending::Rules(o) => {
            write!(out, "{board}")?;
            writeln!(
                out,
                "result: {}",
                crate::narrate::board::outcome(session.tables(), o)
            )?;
        }
        Ending::Limit(plies) => writeln!(
            out,
            "stopped after {} (--max-plies)",
            crate::words::count(u64::from(*plies), "ply")
        )?,
        Ending::Resigned(side) => {
            let winners: Vec<&str> = session
                .winners_if_resigns(*side)
                .into_iter()
                .map(|w| session.name_of(w))
                .collect();
            let verb = if winners.len() == 1 { "wins" } else { "win" };
            writeln!(
                out,
                "{} resigns: {} {verb}",
                session.name_of(*side),
                winners.join(" and ")
            )?;
        }
    }
    Ok(0)
}
