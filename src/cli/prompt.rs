//! The prompt of a person at the board (the game itself is a
//! [`crate::session::BoardSession`]): moves in the game's notation (a
//! unique prefix or the start square alone is enough; a chain may be typed
//! square by square), and the commands help, moves, undo, redo, hint, save,
//! resign and rules.

#[cfg(test)]
use std::io::Read;
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
        let line = match read_line(input)? {
            Line::End => {
                writeln!(out)?;
                return Ok(Action::Abandon);
            }
            Line::TooLong => {
                writeln!(
                    out,
                    "that line is longer than {MAX_LINE} bytes: type a move or a command (help)"
                )?;
                partial.clear();
                continue;
            }
            Line::NotUtf8 => {
                writeln!(
                    out,
                    "that line is not UTF-8 text: type a move or a command (help)"
                )?;
                partial.clear();
                continue;
            }
            Line::Text(l) => l,
        };
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

/// The longest line the prompt reads, in bytes (docs/limits.md): a move or
/// a command with a file name fits many times over. A longer line is read
/// to its end and dropped, so endless input (`/dev/zero`) takes no memory.
pub(crate) const MAX_LINE: usize = 4096;

/// A line typed at the prompt.
pub(crate) enum Line {
    /// The input ended.
    End,
    /// A line past [`MAX_LINE`] (dropped).
    TooLong,
    /// A line that is not UTF-8.
    NotUtf8,
    /// A line, without its end.
    Text(String),
}

/// Reads one line of at most [`MAX_LINE`] bytes, holding no more than that
/// however long the line is.
pub(crate) fn read_line(input: &mut dyn BufRead) -> std::io::Result<Line> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if bytes.is_empty() && !too_long {
                return Ok(Line::End);
            }
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        let ends = done > chunk.len();
        if !too_long {
            if bytes.len() + chunk.len() > MAX_LINE {
                too_long = true;
                bytes = Vec::new();
            } else {
                bytes.extend_from_slice(chunk);
            }
        }
        input.consume(done);
        if ends {
            break;
        }
    }
    if too_long {
        return Ok(Line::TooLong);
    }
    Ok(match String::from_utf8(bytes) {
        Ok(s) => Line::Text(s),
        Err(_) => Line::NotUtf8,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_past_the_limit_is_dropped_and_the_next_is_read() {
        let mut text = vec![b'x'; 3 * MAX_LINE];
        text.extend_from_slice(b"\n22-18\n\xff\n");
        let mut input = &text[..];
        assert!(matches!(read_line(&mut input), Ok(Line::TooLong)));
        assert!(matches!(read_line(&mut input), Ok(Line::Text(s)) if s == "22-18"));
        assert!(matches!(read_line(&mut input), Ok(Line::NotUtf8)));
        assert!(matches!(read_line(&mut input), Ok(Line::End)));
        let exact = vec![b'y'; MAX_LINE];
        let mut input = &exact[..];
        assert!(matches!(read_line(&mut input), Ok(Line::Text(s)) if s.len() == MAX_LINE));
    }

    #[test]
    fn endless_input_without_a_newline_is_read_in_bounded_memory() {
        // /dev/zero, as far as the prompt can tell: 64 MiB of zero bytes.
        let mut input = std::io::BufReader::new(std::io::repeat(0).take(64 << 20));
        assert!(matches!(read_line(&mut input), Ok(Line::TooLong)));
        assert!(matches!(read_line(&mut input), Ok(Line::End)));
    }
}
