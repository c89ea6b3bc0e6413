//! The prompt of a person at the board (the game itself is a
//! [`crate::session::BoardSession`]): moves in the game's notation (a
//! unique prefix or the start square alone is enough; a chain may be typed
//! square by square), and the commands help, moves, undo, redo, hint, save,
//! resign and rules.

use std::io::{BufRead, Write};

use super::Failure;
use crate::board::Move;
use crate::session::{BoardSession, Entry};

/// What the person asked for.
pub(crate) enum Action {
    /// Play this move.
    Play(Move),
    /// Take back the last own move.
    Undo,
    /// Play again a move taken back.
    Redo,
    /// Save the game so far to a file.
    Save(String),
    /// Give up.
    Resign,
    /// The input ended.
    Abandon,
}

const HELP: &str = "Type a move in the game's notation (22-18, 22x15x6, c3-d4, or pass).
The start square alone, or any unique beginning, is enough; a capture may be
typed square by square. Commands:
  moves        list the legal moves
  undo, redo   take back your last move / play it again
  hint         the computer's suggestion
  save FILE    save the game so far (a record that `rulebook replay` reads)
  rules        the rules of this game
  resign       give up
  help         this text";

/// Asks the person at the board until they give a legal move or a command.
pub(crate) fn ask(
    session: &BoardSession<'_>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Action, Failure> {
    let t = session.tables();
    let game = session.game();
    let side = session.side_name();
    let mut partial = String::new();
    loop {
        if partial.is_empty() {
            write!(out, "{side} to move> ")?;
        } else {
            write!(out, "{side} to move> {partial}x")?;
        }
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(Action::Abandon);
        }
        let line = line.trim();
        let (cmd, arg) = line.split_once(' ').unwrap_or((line, ""));
        if partial.is_empty() {
            match cmd {
                "" => continue,
                "help" | "?" => {
                    writeln!(out, "{HELP}")?;
                    continue;
                }
                "moves" => {
                    let all: Vec<&str> = game.legal().iter().map(|m| m.notation.as_str()).collect();
                    writeln!(out, "{}", all.join(" "))?;
                    continue;
                }
                "undo" => return Ok(Action::Undo),
                "redo" => return Ok(Action::Redo),
                "resign" => return Ok(Action::Resign),
                "rules" => {
                    writeln!(out, "{}\n{}", t.game.title, t.game.description)?;
                    continue;
                }
                "hint" => {
                    match session.hint() {
                        Some(m) => writeln!(out, "hint: {}", m.notation)?,
                        None => writeln!(out, "no hint: there is no legal move")?,
                    }
                    continue;
                }
                "save" if !arg.trim().is_empty() => {
                    return Ok(Action::Save(arg.trim().to_string()))
                }
                "save" => {
                    writeln!(out, "save needs a file name: save game.jsonl")?;
                    continue;
                }
                _ => {}
            }
        }
        if !partial.is_empty() && line.is_empty() {
            partial.clear();
            continue;
        }
        match session.enter(&partial, line) {
            Entry::Play(m) => return Ok(Action::Play(m)),
            Entry::Illegal(why) => {
                writeln!(out, "illegal: {why}")?;
                partial.clear();
            }
            Entry::GoOn { so_far, moves } => {
                writeln!(
                    out,
                    "go on: {} (type the next square, or Enter to start again)",
                    moves.join(" or ")
                )?;
                partial = so_far;
            }
            Entry::Unclear(why) => {
                writeln!(out, "{why}")?;
                partial.clear();
            }
        }
    }
}
