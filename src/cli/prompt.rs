//! The prompt of a person at the board (the game itself is a
//! [`crate::session::BoardSession`]): moves in the game's notation (a
//! unique prefix or the start square alone is enough; a chain may be typed
//! square by square), and the commands help, moves, undo, redo, hint, save,
//! resign, rules, quit and exit.

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
    /// Show the board with its square numbers.
    Numbers,
    /// The input ended.
    Abandon,
    /// Leave the game (`quit`, `exit`), offered to save it first.
    Quit,
}

pub(crate) const HELP: &str =
    "Type a move in the game's notation (22-18, 22x15x6, c3-d4; pass when you
have no legal move). The start square alone, or any unique beginning, is
enough; a capture may be typed square by square. Commands (any case):
  moves        list the legal moves
  history      the moves so far, numbered as players number them
  undo, redo   take back your last move / play it again
  hint         the computer's suggestion
  save FILE    save the game so far (a record that `rulebook replay` reads)
  rules        the rules of this game
  numbers      the board with the number of every square
  resign       give up
  quit, exit   leave the game (offered to save it first)
  help         this text";

/// Asks the person at the board until they give a legal move or a command.
pub(crate) fn ask(
    session: &BoardSession<'_>,
    input: &mut dyn Lines,
    out: &mut dyn Write,
) -> Result<Action, Failure> {
    let t = session.tables();
    let game = session.game();
    let side = session.side_name();
    let mut partial = String::new();
    loop {
        let prompt = if partial.is_empty() {
            format!("{side} to move> ")
        } else {
            format!("{side} to move> {partial}x")
        };
        let line = match input.read(&prompt, out)? {
            Line::End => {
                writeln!(out)?;
                return Ok(Action::Abandon);
            }
            Line::Endless => return Err(endless()),
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
        let cmd = cmd.to_lowercase();
        // A command is understood in the middle of a capture too: it drops
        // the squares typed so far.
        if !partial.is_empty() && is_command(&cmd) {
            partial.clear();
        }
        // A whole move typed in the middle of a capture replaces the squares
        // typed so far.
        if !partial.is_empty() {
            let first = partial.split(['x', '-', ':']).next().unwrap_or("");
            let lower = line.to_lowercase();
            if lower
                .strip_prefix(first)
                .is_some_and(|rest| rest.starts_with(['x', '-', ':']))
            {
                partial.clear();
            }
        }
        if partial.is_empty() {
            match cmd.as_str() {
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
                "history" => {
                    let list = session.move_list();
                    if list.is_empty() {
                        writeln!(out, "no move yet")?;
                    } else {
                        writeln!(out, "{}", list.join("\n"))?;
                    }
                    continue;
                }
                "undo" => return Ok(Action::Undo),
                "redo" => return Ok(Action::Redo),
                "resign" => return Ok(Action::Resign),
                "quit" | "exit" => return Ok(Action::Quit),
                "numbers" => return Ok(Action::Numbers),
                "rules" => {
                    let width =
                        super::text_width(std::io::IsTerminal::is_terminal(&std::io::stdout()));
                    let text = crate::format::text::rules(
                        &t.game().title,
                        &t.game().description,
                        &[],
                        width,
                    );
                    write!(out, "{text}")?;
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
                word if !looks_like_a_move(word) => {
                    match command_like(word) {
                        Some(c) => writeln!(
                            out,
                            "`{line}` is neither a move nor a command: did you mean {c}?"
                        )?,
                        None => writeln!(
                            out,
                            "`{line}` is neither a move nor a command: type help for the commands"
                        )?,
                    }
                    continue;
                }
                _ => {}
            }
        }
        if !partial.is_empty() && line.is_empty() {
            partial.clear();
            continue;
        }
        match session.enter(&partial, &line.to_lowercase()) {
            Entry::Play(m) => return Ok(Action::Play(m)),
            Entry::Illegal(why) => {
                let forms = other_form(game.legal(), line);
                if partial.is_empty() && !forms.is_empty() {
                    writeln!(
                        out,
                        "`{line}` is not how this game writes a move: write {}",
                        forms.join(" or ")
                    )?;
                } else {
                    let why = crate::narrate::board::refusal(session.tables(), &why);
                    writeln!(out, "illegal: {why}")?;
                }
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
                let why = crate::narrate::board::refusal(session.tables(), &why);
                writeln!(out, "{why}")?;
                partial.clear();
            }
        }
    }
}

/// The words the prompt understands besides moves.
const COMMANDS: &[&str] = &[
    "help", "?", "moves", "history", "undo", "redo", "resign", "rules", "hint", "save", "numbers",
    "quit", "exit",
];

/// The command a misspelt word most likely is (`hepl`: `help`): one
/// letter added, left out or changed, or two letters swapped.
fn command_like(word: &str) -> Option<&'static str> {
    closest_command(word, COMMANDS)
}

/// The word of `commands` that `word` is a likely misspelling of, as
/// [`command_like`] finds it.
pub(crate) fn closest_command(word: &str, commands: &[&'static str]) -> Option<&'static str> {
    let sorted = |w: &str| {
        let mut v: Vec<char> = w.chars().collect();
        v.sort_unstable();
        v
    };
    let letters = sorted(word);
    commands
        .iter()
        .filter(|c| c.len() > 1)
        .map(|c| (crate::suggest::edit_distance(word, c), *c))
        .filter(|(d, c)| *d == 1 || (*d == 2 && sorted(c) == letters))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn is_command(word: &str) -> bool {
    COMMANDS.contains(&word)
}

/// Whether a word may be (the start of) a move: it starts with a square,
/// numeric (`22`) or algebraic (`c3`), or is `pass`.
fn looks_like_a_move(word: &str) -> bool {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) if c.is_ascii_digit() => true,
        // A placement from the hand: `@d3`.
        Some('@') => true,
        Some(c) if c.is_ascii_alphabetic() => {
            word == "pass" || chars.next().is_some_and(|d| d.is_ascii_digit())
        }
        _ => false,
    }
}

/// The legal moves that `text`, a move written in another form (`11 15`,
/// `11.15`, `c3d4`: squares without `-`, `x` or `:` between them), names:
/// their notation, the forms that work.
fn other_form<'m>(legal: &'m [crate::board::Move], text: &str) -> Vec<&'m str> {
    let text = text.to_lowercase();
    if text.contains(['-', 'x', ':']) {
        return Vec::new();
    }
    let squashed: String = text.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    if squashed.is_empty() {
        return Vec::new();
    }
    legal
        .iter()
        .map(|m| m.notation.as_str())
        .filter(|n| {
            n.chars()
                .filter(|c| !matches!(c, '-' | 'x' | ':'))
                .eq(squashed.chars())
        })
        .collect()
}

/// Where the prompt's lines come from: a pipe or a file (the prompt is
/// written, then a line read), or a terminal with line editing.
pub(crate) trait Lines {
    /// Shows `prompt` and reads one line.
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> Result<Line, Failure>;
}

/// Lines read from any reader, the prompt written to `out`.
pub(crate) struct Piped<'a>(pub &'a mut dyn BufRead);

impl Lines for Piped<'_> {
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> Result<Line, Failure> {
        write!(out, "{prompt}")?;
        out.flush()?;
        Ok(read_line(self.0)?)
    }
}

/// A terminal: the line is edited with the arrow keys, earlier lines come
/// back with up and down (rustyline).
pub(crate) struct Editor(rustyline::DefaultEditor);

impl Editor {
    /// The line editor, when the terminal allows one.
    pub(crate) fn new() -> Option<Editor> {
        rustyline::DefaultEditor::new().ok().map(Editor)
    }
}

impl Lines for Editor {
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> Result<Line, Failure> {
        out.flush()?;
        match self.0.readline(prompt) {
            Ok(line) if line.len() > MAX_LINE => Ok(Line::TooLong),
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = self.0.add_history_entry(line.as_str());
                }
                Ok(Line::Text(line))
            }
            // Ctrl-D or Ctrl-C: the person leaves the game.
            Err(
                rustyline::error::ReadlineError::Eof | rustyline::error::ReadlineError::Interrupted,
            ) => Ok(Line::End),
            Err(e) => Err(Failure::failed(format!("error: reading the terminal: {e}"))),
        }
    }
}

/// The longest line the prompt reads, in bytes (docs/limits.md): a move or
/// a command with a file name fits many times over. A longer line is read
/// to its end and dropped, so endless input (`/dev/zero`) takes no memory.
pub(crate) const MAX_LINE: usize = 4096;

/// The most of one line the prompt reads, kept or not, in bytes
/// (docs/limits.md): input that goes on this long with no line break is
/// no person typing (`/dev/zero`), and the game ends.
pub(crate) const MAX_ENDLESS: usize = 1 << 20;

/// The failure of a line past [`MAX_ENDLESS`]: the game ends, exit 1.
pub(crate) fn endless() -> Failure {
    Failure::failed(
        "error: a line of input went on past 1 MiB without a line break: game abandoned",
    )
}

/// A line typed at the prompt.
pub(crate) enum Line {
    /// The input ended.
    End,
    /// A line past [`MAX_LINE`] (dropped).
    TooLong,
    /// A line past [`MAX_ENDLESS`] that has not ended yet: no more of it
    /// is read.
    Endless,
    /// A line that is not UTF-8.
    NotUtf8,
    /// A line, without its end.
    Text(String),
}

/// Reads one line of at most [`MAX_LINE`] bytes, holding no more than that
/// however long the line is, and reading no more than [`MAX_ENDLESS`]
/// bytes of it.
pub(crate) fn read_line(input: &mut dyn BufRead) -> std::io::Result<Line> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut seen = 0usize;
    loop {
        if seen > MAX_ENDLESS {
            return Ok(Line::Endless);
        }
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
        seen = seen.saturating_add(chunk.len());
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
        assert!(matches!(read_line(&mut input), Ok(Line::Endless)));
        // A long line that does end, and input that ends, are lines still.
        let mut long = vec![b'x'; MAX_ENDLESS];
        long.push(b'\n');
        let mut input = &long[..];
        assert!(matches!(read_line(&mut input), Ok(Line::TooLong)));
        let mut input = &long[..MAX_ENDLESS];
        assert!(matches!(read_line(&mut input), Ok(Line::TooLong)));
        assert!(matches!(read_line(&mut input), Ok(Line::End)));
    }
}
