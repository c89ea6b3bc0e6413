//! The command line. `run` parses the arguments, does the I/O and returns the
//! exit code; it never calls `process::exit`, so tests can call it twice.

mod bench;
mod board_game;
mod colour;
mod compare;
mod complete;
mod fmt;
pub mod limits;
mod loader;
mod man;
mod paths;
mod pdn_cmd;
mod play;
mod prompt;
mod race;
mod replay;
mod shared;
mod simulate;

use std::ffi::OsString;
use std::io::Write;

use clap::{Parser, Subcommand};

use crate::board::{moves_of, Generator, MoveList, Perft, Position, Tables};
use crate::format::json;
pub use crate::format::svg::board::render_svg;
use crate::format::text::board::{self as board, Style};
use crate::load::{check, Checked, Kind, Loaded};
pub use loader::FsLoader;

/// Plays board games from rule files.
#[derive(Parser, Debug)]
#[command(name = "rulebook", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The shells `completions` writes for.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum Shell {
    Bash,
    Zsh,
    Fish,
    Powershell,
    Elvish,
}

/// Options common to the commands that load a game.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct GameArgs {
    /// A bundled game (`rulebook list` names them) or a path to a rule file.
    game: String,
    /// Set an option declared by the rule file: `--option kings=short`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the bundled games and variants.
    List,
    /// Print a game's rules: its title, its description and its options,
    /// wrapped to the terminal's width (at 80 columns when piped).
    Rules {
        #[command(flatten)]
        game: GameArgs,
        /// Write the whole rules instead as one printable HTML page to this
        /// file (the setup or the track drawn, each kind's moves, the
        /// captures, the cell rules, the end rules, the options).
        #[arg(long, value_name = "FILE")]
        html: Option<std::path::PathBuf>,
    },
    /// Check rule files; diagnostics go to stderr, the exit code is 1 on
    /// errors; `FILE: ok` (or `FILE: ok, 2 warnings`) on stdout otherwise.
    Check {
        /// Rule files (or bundled names).
        #[arg(required = true)]
        files: Vec<String>,
        /// Set an option declared by the rule file.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// Colour the diagnostics as rustc does: `auto` on a terminal,
        /// `always`, `never`; `NO_COLOR` (set and not empty) always wins.
        #[arg(long, value_enum, default_value_t = colour::When::Auto, value_name = "WHEN")]
        color: colour::When,
    },
    /// Show a position as text: a board, or a race track with the marks of
    /// its cell rules and a legend.
    Show {
        #[command(flatten)]
        game: GameArgs,
        /// A position string: on a board the side to move, then each side's
        /// pieces, `W:W21,22,K5:B1,2`; on a race track the seat to roll,
        /// then each seat and its pieces, `blue:red 9,out:blue 14,finished`.
        #[arg(long)]
        position: Option<String>,
        /// Write the position as an SVG picture to this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// Show the number of every playable square (beside the board as
        /// text, in a corner of each square in the SVG picture): the
        /// numbers that moves such as 22-18 are typed with.
        #[arg(long)]
        numbers: bool,
        /// Letters for the pieces and marks instead of Unicode glyphs, for
        /// terminals without them (the output is plain when piped anyway).
        #[arg(long)]
        ascii: bool,
    },
    /// List the legal moves.
    Moves {
        #[command(flatten)]
        game: GameArgs,
        /// A position string.
        #[arg(long)]
        position: Option<String>,
        /// Print JSON: notation, path, captured, result.
        #[arg(long)]
        json: bool,
        /// Explain why a move is or is not legal.
        #[arg(long, value_name = "MOVE")]
        explain: Option<String>,
    },
    /// Count the leaf nodes of the move tree to each depth.
    Perft {
        #[command(flatten)]
        game: GameArgs,
        /// The depth (1 to 30).
        #[arg(value_parser = limits::perft_depth)]
        depth: usize,
        /// A position string.
        #[arg(long)]
        position: Option<String>,
        /// Print the count below each root move first.
        #[arg(long)]
        divide: bool,
        /// Count captures that take the same pieces along different paths
        /// as different moves (the convention of some other engines).
        #[arg(long)]
        paths: bool,
    },
    /// Write a game record in another format: `export game.jsonl --pdn`.
    Export(pdn_cmd::ExportArgs),
    /// Read the games of a PDN file into game records: `import games.pdn -o game.jsonl` (one record each), `--game N` for one.
    Import(pdn_cmd::ImportArgs),
    /// Play a game between people and computer players; a side or seat
    /// not given a player is a person (human) typing moves at the prompt.
    Play(play::PlayArgs),
    /// Play many games between computer players and report what happened.
    Simulate(simulate::SimulateArgs),
    /// The report of a run from the Parquet files of its shards
    /// (`simulate --shard I/N --parquet FILE`), as one run prints it.
    Merge(simulate::MergeArgs),
    /// Simulate two games (say, a house rule and the original) side by side.
    Compare(compare::CompareArgs),
    /// Replay a game record (`play --record FILE`), checking every line.
    Replay(replay::ReplayArgs),
    /// Format rule files in the one canonical layout (`--check`: change
    /// nothing, show the differences, exit 1 if any file is not formatted).
    Fmt(fmt::FmtArgs),
    /// Run the language server for editors, over stdin and stdout.
    #[cfg(feature = "lsp")]
    Lsp,
    /// Play and edit games in the browser: a local web server
    /// (http://127.0.0.1:8080 by default) until Ctrl-C.
    #[cfg(feature = "web")]
    Serve {
        /// The port (0: any free one).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on; anything but a loopback address lets
        /// other machines connect.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// A folder of rule files to list, play and edit besides the
        /// bundled games (nothing outside it is readable).
        #[arg(long, value_name = "DIR")]
        games: Option<std::path::PathBuf>,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// Print the shell completions for bash, zsh, fish, powershell or elvish:
    /// `rulebook completions bash > ~/.local/share/bash-completion/completions/rulebook`.
    /// They complete commands, flags, games (bundled and `.rules` files),
    /// players and the options of the game on the line.
    Completions {
        /// The shell.
        shell: Shell,
    },
    /// The completions of a command line (what the completion scripts
    /// call): `rulebook complete --line "rulebook play --white "`.
    #[command(hide = true)]
    Complete {
        /// The command line up to the cursor, from `rulebook`.
        #[arg(long, allow_hyphen_values = true)]
        line: String,
    },
    /// Print the manual page (roff): `rulebook man > rulebook.1; man ./rulebook.1`;
    /// `rulebook man play` for the page of one command (rulebook-play).
    Man {
        /// A command of rulebook.
        command: Option<String>,
    },
    /// Measure perft speed (leaves per second) on one core, or with
    /// `--playouts` random playouts per second.
    Bench {
        #[command(flatten)]
        game: GameArgs,
        /// The depth, 1 to 30 (default: as deep as takes about a second or more).
        #[arg(long, value_parser = limits::perft_depth)]
        depth: Option<usize>,
        /// A position string.
        #[arg(long)]
        position: Option<String>,
        /// Measure random playouts to the end of the game instead of perft.
        #[arg(long)]
        playouts: bool,
        /// Threads for `--playouts` (1 to 256).
        #[arg(long, default_value_t = 1, value_parser = limits::jobs)]
        jobs: usize,
        /// Seconds to measure `--playouts` for (0.01 to 3600).
        #[arg(long, default_value_t = 3.0, value_parser = limits::seconds)]
        seconds: f64,
    },
}

/// The command line's definition: clap's, with the lists of players
/// written in from the one list of the code (`agents::PLAYERS`), so that
/// `--help`, the errors and the manual page say the same.
fn definition() -> clap::Command {
    use crate::agents::list;
    let players = format!(
        "The player of the side called `white`: one of {} (default: human, a person typing moves at the prompt; alphabeta plays two sides without dice only)",
        list(true)
    );
    let agents = format!(
        "The computer agents, one per seat in seat order (one name: every seat): {}",
        list(false)
    );
    <Cli as clap::CommandFactory>::command()
        .mut_subcommand("play", |c| c.mut_arg("white", |a| a.help(players)))
        .mut_subcommand("simulate", |c| {
            c.mut_arg("agents", |a| a.help(agents.clone()))
        })
        .mut_subcommand("compare", |c| c.mut_arg("agents", |a| a.help(agents)))
}

/// The error of a command: a message for stderr and the exit code.
///
/// The exit codes follow one convention (README.md, "Exit codes"): 0 when
/// the command did what was asked (also when the reader of its output went
/// away: `rulebook list | head -1`); 2 for a usage error, when the command
/// line is wrong (an unknown command, option, game, agent or side; a value
/// out of range or of the wrong form, a limit of docs/limits.md included;
/// a file that isn't there or can't be read as what it should be, a path
/// that can't be written; flags that don't fit the game); 1 for a failure,
/// when the command line is right but what it names fails (a rule file
/// with errors, a record or PDN whose contents don't replay, a write that
/// fails midway, a port already taken). `Failure::new` is a usage error,
/// `Failure::failed` a failure.
pub(crate) struct Failure {
    pub message: String,
    pub code: i32,
}

/// The exit code of a usage error.
pub(crate) const USAGE: i32 = 2;
/// The exit code of a failure.
pub(crate) const FAILED: i32 = 1;

impl Failure {
    /// A usage error (exit 2): the arguments, as typed, can't be run.
    pub(crate) fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: USAGE,
        }
    }

    /// A failure (exit 1): the command ran and could not do what was asked.
    pub(crate) fn failed(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: FAILED,
        }
    }

    /// The reader of standard output went away (`| head`): stop quietly.
    fn closed_pipe() -> Failure {
        Failure {
            message: String::new(),
            code: 0,
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return Failure::closed_pipe();
        }
        Failure::failed(format!("error: {e}"))
    }
}

/// What the output is connected to.
#[derive(Clone, Copy, Debug, Default)]
pub struct Term {
    /// Standard output is a terminal.
    pub is_terminal: bool,
    /// `NO_COLOR` is set.
    pub no_color: bool,
    /// Standard input is a terminal too: the prompt edits lines
    /// (arrow keys, history).
    pub stdin_is_terminal: bool,
}

impl Term {
    /// The board style that suits the output.
    pub fn style(&self) -> Style {
        Style::for_terminal(self.is_terminal, self.no_color)
    }
}

/// The columns long text is wrapped at: the terminal's width on a
/// terminal, 80 when piped (README.md says so).
pub(crate) fn text_width(is_terminal: bool) -> usize {
    const PIPED: usize = 80;
    if !is_terminal {
        return PIPED;
    }
    console::Term::stdout()
        .size_checked()
        .map_or(PIPED, |(_, cols)| usize::from(cols).clamp(20, 1000))
}

/// Runs the command line with plain output (as when piped); returns the exit
/// code.
pub fn run<I, T>(
    args: I,
    input: &mut dyn std::io::BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_with(args, input, out, err, Term::default())
}

/// Reads the arguments as [`run`] does, without running anything: `Err`
/// holds clap's message (an unknown option, a number out of its range).
/// For the fuzz target of the argument surface.
pub fn parse_args<I, T>(args: I) -> Result<(), String>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    definition()
        .try_get_matches_from(args)
        .map(|_| ())
        .map_err(|e| e.render().to_string())
}

/// Runs the command line for an output of the given kind.
pub fn run_with<I, T>(
    args: I,
    input: &mut dyn std::io::BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
    term: Term,
) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let parsed = definition()
        .try_get_matches_from(args)
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let text = e.render().to_string();
            let _ = if code == 0 {
                write!(out, "{text}")
            } else {
                write!(err, "{text}")
            };
            return code;
        }
    };
    match dispatch(cli, input, out, err, term) {
        Ok(code) => code,
        Err(f) => {
            if !f.message.is_empty() {
                let _ = writeln!(err, "{}", f.message);
            }
            f.code
        }
    }
}

fn parse_options(options: &[String]) -> Result<Vec<(String, String)>, Failure> {
    options
        .iter()
        .map(|o| {
            o.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| {
                    Failure::new(format!(
                        "error: `--option {o}` needs the form NAME=VALUE, such as kings=short"
                    ))
                })
        })
        .collect()
}

/// Checks the game a command names, under its `--option` values (a usage
/// error when one is not of the form NAME=VALUE); nothing is printed.
pub(crate) fn checked(args: &GameArgs) -> Result<Checked, Failure> {
    let options = parse_options(&args.options)?;
    Ok(check(&FsLoader, &args.game, &options))
}

/// The kind of the game a command names, when it loads without errors
/// (nothing is printed).
pub(crate) fn kind_of(args: &GameArgs) -> Result<Option<Kind>, Failure> {
    Ok(checked(args)?.loaded.as_ref().map(Loaded::kind))
}

/// The game of a check: its warnings printed; a failure on errors: a
/// usage error when the game named is not there or an `--option` doesn't
/// fit it, a failure when the rule file has errors.
pub(crate) fn compiled(
    checked: Checked,
    args: &GameArgs,
    err: &mut dyn Write,
) -> Result<Loaded, Failure> {
    if let Some(why) = not_found(&checked) {
        return Err(Failure::new(format!("error: {why}")));
    }
    if let Some(refused) = loader::not_rules(&checked) {
        return Err(refused);
    }
    if !checked.diagnostics.is_empty() {
        let _ = write!(err, "{}", checked.render());
    }
    if let Some(loaded) = checked.loaded {
        return Ok(loaded);
    }
    if only_option_errors(&checked) {
        return Err(Failure::new(format!(
            "error: the --option values don't fit `{}`; nothing was done",
            args.game
        )));
    }
    Err(Failure::failed(format!(
        "error: `{}` has errors; nothing was done",
        args.game
    )))
}

/// Loads and checks a game, board or race; prints warnings; fails on
/// errors (see [`compiled`]).
pub(crate) fn load(args: &GameArgs, err: &mut dyn Write) -> Result<Loaded, Failure> {
    compiled(checked(args)?, args, err)
}

/// Loads a game for a command of board games only: as [`load`], and a
/// usage error for a race game.
pub(crate) fn load_game(args: &GameArgs, err: &mut dyn Write) -> Result<Tables, Failure> {
    match load(args, err)? {
        Loaded::Board(t) => Ok(*t),
        Loaded::Race(_) => Err(Failure::new(format!(
            "error: `{}` is a race game: use `play` or `replay`",
            args.game
        ))),
    }
}

/// Why the game named can't be read at all (no such file and no bundled
/// game of that name; a directory, a device, a file too large or not
/// UTF-8): the loader's one error, with no file read. A usage error, as
/// for the records of `replay` and the PDN of `import`.
fn not_found(checked: &Checked) -> Option<&str> {
    match checked.diagnostics.as_slice() {
        [d] if d.code == crate::diagnostic::Code::ExtendsLoad && checked.sources.is_empty() => {
            Some(&d.message)
        }
        _ => None,
    }
}

/// Whether every error is an `--option` the game doesn't declare, or a
/// value it doesn't have: the arguments are wrong, not the rule file.
fn only_option_errors(checked: &Checked) -> bool {
    use crate::diagnostic::Code;
    checked.errors() > 0
        && checked
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .all(|d| matches!(d.code, Code::UnknownOption | Code::UnknownOptionValue))
}

/// The seat that `who` names in `--seat WHO=AGENT`: one of `names`, or a
/// seat number from 1; None unless it is one of the first `count` seats.
pub(crate) fn seat_index<'a>(
    mut names: impl Iterator<Item = &'a str>,
    who: &str,
    count: usize,
) -> Option<usize> {
    names
        .position(|n| n == who)
        .or_else(|| who.parse::<usize>().ok().and_then(|n| n.checked_sub(1)))
        .filter(|&i| i < count)
}

pub(crate) fn position(t: &Tables, text: Option<&str>) -> Result<Position, Failure> {
    match text {
        None => Ok(Position::start(t)),
        Some(s) => Position::parse(t, s).map_err(|e| {
            let s = crate::shown::shown(s);
            Failure::new(format!("error: bad position `{s}`: {e}"))
        }),
    }
}

/// A race position: the start (every piece out, the first seat to roll,
/// the fewest players), or one `--position` gives.
fn race_position(
    game: &crate::race::game::RaceGame,
    text: Option<&str>,
) -> Result<crate::race::RaceState, Failure> {
    match text {
        None => crate::race::RaceState::new(game, usize::from(game.min_players))
            .map_err(|e| Failure::new(format!("error: {e}"))),
        Some(s) => crate::narrate::race::parse_position(game, s).map_err(|e| {
            let s = crate::shown::shown(s);
            Failure::new(format!("error: bad position `{s}`: {e}"))
        }),
    }
}

/// Writes an SVG picture, replacing the file whole.
fn write_svg(file: &std::path::Path, picture: &str) -> Result<(), Failure> {
    crate::record::write_atomic(file, picture.as_bytes())
        .map_err(|e| Failure::new(format!("error: can't write {}: {e}", file.display())))
}

fn dispatch(
    cli: Cli,
    input: &mut dyn std::io::BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
    term: Term,
) -> Result<i32, Failure> {
    match cli.command {
        Command::Fmt(args) => Ok(fmt::run(&args, input, out, err)),
        #[cfg(feature = "lsp")]
        Command::Lsp => crate::lsp::run_stdio().map_err(Failure::failed),
        #[cfg(feature = "web")]
        Command::Serve {
            port,
            host,
            games,
            open,
        } => serve(&host, port, games.as_deref(), open, out, err),
        Command::Completions { shell } => {
            let (name, clap_shell) = match shell {
                Shell::Bash => ("bash", clap_complete::Shell::Bash),
                Shell::Zsh => ("zsh", clap_complete::Shell::Zsh),
                Shell::Fish => ("fish", clap_complete::Shell::Fish),
                Shell::Powershell => ("powershell", clap_complete::Shell::PowerShell),
                Shell::Elvish => ("elvish", clap_complete::Shell::Elvish),
            };
            let mut cmd = definition();
            let mut buf = Vec::new();
            clap_complete::generate(clap_shell, &mut cmd, "rulebook", &mut buf);
            let script = complete::with_hook(name, String::from_utf8_lossy(&buf).into_owned());
            out.write_all(script.as_bytes())?;
            Ok(0)
        }
        Command::Complete { line } => {
            let mut cmd = definition();
            cmd.build();
            Ok(if complete::run(&cmd, &line, out)? {
                0
            } else {
                1
            })
        }
        Command::Man { command } => {
            let whole = command.is_none();
            let mut cmd = definition();
            let page = match command {
                None => cmd,
                Some(name) => {
                    cmd.build();
                    let sub = cmd
                        .find_subcommand(&name)
                        .filter(|c| c.get_name() != "help")
                        .ok_or_else(|| {
                            Failure::new(format!(
                                "error: `{name}` is not a command of rulebook; `rulebook --help` lists them"
                            ))
                        })?;
                    sub.clone().version(env!("CARGO_PKG_VERSION"))
                }
            };
            let mut buf = Vec::new();
            clap_mangen::Man::new(page).render(&mut buf)?;
            if whole {
                buf.extend_from_slice(man::sections().as_bytes());
            }
            out.write_all(&buf)?;
            Ok(0)
        }
        Command::List => {
            let rows: Vec<(&str, Option<crate::load::Summary>)> = crate::bundled::GAMES
                .iter()
                .map(|(name, _)| (*name, check(&FsLoader, name, &[]).summary()))
                .collect();
            let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0).max(4);
            writeln!(
                out,
                "{:<width$}  kind   players  title (options: --option NAME=VALUE, default first)",
                "game"
            )?;
            for (name, summary) in rows {
                match summary {
                    Some(s) => {
                        let options = s.options_text();
                        let options = if options.is_empty() {
                            String::new()
                        } else {
                            format!(" (options: {options})")
                        };
                        writeln!(
                            out,
                            "{name:<width$}  {:<5}  {:<7}  {}{options}",
                            s.kind.word(),
                            s.players(),
                            s.title
                        )?;
                    }
                    None => writeln!(
                        out,
                        "{name:<width$}  has errors: `rulebook check {name}` shows them"
                    )?,
                }
            }
            Ok(0)
        }
        Command::Rules { game, html } => {
            paths::Files::new()
                .game(&game.game)
                .output("--html", html.as_deref())
                .check()?;
            let checked = checked(&game)?;
            let Some(loaded) = &checked.loaded else {
                // The errors, said as for any command that loads it.
                compiled(checked, &game, err)?;
                return Ok(FAILED);
            };
            if let Some(file) = html {
                let chosen = parse_options(&game.options)?;
                let page = crate::format::rules_html::page(loaded, &checked.options, &chosen);
                crate::record::write_atomic(&file, page.as_bytes()).map_err(|e| {
                    Failure::new(format!("error: can't write {}: {e}", file.display()))
                })?;
                writeln!(out, "wrote {}", file.display())?;
                return Ok(0);
            }
            let (title, description) = (loaded.title(), loaded.description());
            let width = text_width(term.is_terminal);
            let text = crate::format::text::rules(title, description, &checked.options, width);
            write!(out, "{text}")?;
            Ok(0)
        }
        Command::Check {
            files,
            options,
            color,
        } => {
            let options = parse_options(&options)?;
            let colour = color.colour(term);
            let mut code = 0;
            for f in &files {
                let checked = check(&FsLoader, f, &options);
                if let Some(why) = not_found(&checked) {
                    writeln!(err, "error: {why}")?;
                    code = USAGE;
                    continue;
                }
                if let Some(refused) = loader::not_rules(&checked) {
                    writeln!(err, "{}", refused.message)?;
                    code = USAGE;
                    continue;
                }
                if !checked.diagnostics.is_empty() {
                    let report = checked.render();
                    if colour {
                        write!(err, "{}", colour::report(&report))?;
                    } else {
                        write!(err, "{report}")?;
                    }
                }
                if checked.errors() > 0 {
                    code = code.max(FAILED);
                } else if checked.warnings() > 0 {
                    let warnings = crate::words::count(checked.warnings() as u64, "warning");
                    writeln!(out, "{f}: ok, {warnings}")?;
                } else {
                    writeln!(out, "{f}: ok")?;
                }
            }
            Ok(code)
        }
        Command::Show {
            game,
            position: p,
            svg,
            numbers,
            ascii,
        } => {
            let mut style = term.style();
            style.unicode &= !ascii;
            style.numbers = numbers;
            paths::Files::new()
                .game(&game.game)
                .output("--svg", svg.as_deref())
                .check()?;
            let t = match load(&game, err)? {
                Loaded::Board(t) => t,
                Loaded::Race(race) => {
                    let state = race_position(&race, p.as_deref())?;
                    if let Some(file) = svg {
                        let picture = crate::format::svg::race::render(&race, Some(&state));
                        write_svg(&file, &picture)?;
                        writeln!(out, "wrote {}", file.display())?;
                        return Ok(0);
                    }
                    if numbers {
                        return Err(Failure::new(format!(
                        "error: `--numbers` numbers the squares of a board, and `{}` is a race game: its track shows its cell numbers already",
                        game.game
                    )));
                    }
                    let picture = crate::format::text::race::track(&race, Some(&state), &style);
                    write!(out, "{picture}")?;
                    return Ok(0);
                }
            };
            let pos = position(&t, p.as_deref())?;
            if let Some(file) = svg {
                let picture = crate::format::svg::board::Picture {
                    numbers,
                    ..Default::default()
                };
                write_svg(&file, &picture.render(&t, &pos))?;
                writeln!(out, "wrote {}", file.display())?;
                return Ok(0);
            }
            write!(out, "{}", board::render_styled(&t, &pos, &style))?;
            Ok(0)
        }
        Command::Moves {
            game,
            position: p,
            json,
            explain,
        } => {
            let t = load_game(&game, err)?;
            let mut pos = position(&t, p.as_deref())?;
            let mut list = MoveList::new();
            let mut gen = Generator::new();
            gen.generate(&t, &mut pos, &mut list);
            if gen.overflowed() {
                return Err(Failure::new(format!(
                    "error: {}",
                    crate::narrate::board::overflow()
                )));
            }
            let moves = moves_of(&t, &list);
            if let Some(text) = explain {
                use crate::session::Reading;
                // Quoted in the answer: cut when long (docs/limits.md).
                let asked = crate::shown::shown(text.trim()).into_owned();
                let reading = crate::session::read_move(&t, &pos, &moves, &text);
                let answer = match &reading {
                    Reading::Legal(m) => json::Explanation {
                        asked: asked.clone(),
                        legal: true,
                        notation: Some(m.notation.clone()),
                        candidates: Vec::new(),
                        reason: None,
                    },
                    Reading::Several(ms) => json::Explanation {
                        asked: asked.clone(),
                        legal: false,
                        notation: None,
                        candidates: ms.iter().map(|m| m.notation.clone()).collect(),
                        reason: Some(format!(
                            "`{asked}` is the start of several moves: {}; type more",
                            ms.iter()
                                .map(|m| m.notation.as_str())
                                .collect::<Vec<_>>()
                                .join(" or ")
                        )),
                    },
                    Reading::Illegal(why) => json::Explanation {
                        asked: asked.clone(),
                        legal: false,
                        notation: None,
                        candidates: Vec::new(),
                        reason: Some(crate::narrate::board::refusal(&t, why)),
                    },
                };
                if json {
                    writeln!(out, "{}", json::to_line(&answer))?;
                } else {
                    let lower = asked.to_lowercase();
                    match (&reading, &answer.reason) {
                        (Reading::Legal(m), _) => {
                            // The answer in the notation of the question.
                            let alg = lower
                                .split(['-', 'x', ':'])
                                .any(|p| p.starts_with(|c: char| c.is_ascii_alphabetic()));
                            let shown = if alg { &m.algebraic } else { &m.notation };
                            if *shown == lower {
                                writeln!(out, "{asked} is legal")?;
                            } else {
                                writeln!(out, "{asked} is legal: {shown}")?;
                            }
                        }
                        (_, Some(why)) => writeln!(out, "{asked} is not legal: {why}")?,
                        (_, None) => writeln!(out, "{asked} is not legal")?,
                    }
                }
                return Ok(i32::from(!answer.legal));
            }
            if json {
                writeln!(
                    out,
                    "{}",
                    json::moves_text(&json::MoveItem::all(&t, &pos, &list))
                )?;
            } else {
                for m in &moves {
                    writeln!(out, "{}", m.notation)?;
                }
            }
            Ok(0)
        }
        Command::Perft {
            game,
            depth,
            position: p,
            divide,
            paths,
        } => {
            let t = load_game(&game, err)?;
            let pos = position(&t, p.as_deref())?;
            let mut perft = Perft::new(&t, depth);
            perft.count_paths(paths);
            let overflow = || {
                Failure::new(format!(
                    "error: {}; perft can't count this position",
                    crate::narrate::board::overflow()
                ))
            };
            if divide && depth >= 1 {
                let (root, counts) = perft.divide(&pos, depth);
                if perft.overflowed() {
                    return Err(overflow());
                }
                for (m, c) in moves_of(&t, &root).iter().zip(&counts) {
                    writeln!(out, "{} {c}", m.notation)?;
                }
            }
            for d in 1..=depth {
                let n = perft.count(&pos, d);
                if perft.overflowed() {
                    return Err(overflow());
                }
                writeln!(out, "perft {d} {n}")?;
            }
            Ok(0)
        }
        Command::Play(args) => play::run(args, input, out, err, term),
        Command::Export(args) => pdn_cmd::export(args, out, err),
        Command::Import(args) => pdn_cmd::import(args, out, err),
        Command::Simulate(args) => simulate::run(args, out, err),
        Command::Compare(args) => compare::run(args, out, err),
        Command::Merge(args) => simulate::merge(args, out),
        Command::Replay(args) => replay::run(args, out, err),
        Command::Bench {
            game,
            depth,
            position: p,
            playouts,
            jobs,
            seconds,
        } => {
            let t = match load(&game, err)? {
                Loaded::Board(t) => t,
                Loaded::Race(race) => {
                    let speed = crate::lab::bench::race(&race, seconds, jobs)
                        .map_err(|e| Failure::failed(e.to_string()))?;
                    return bench::race(&speed, out);
                }
            };
            let pos = position(&t, p.as_deref())?;
            if playouts {
                let speed = crate::lab::bench::playouts(&t, &pos, jobs, seconds)
                    .map_err(|e| Failure::failed(e.to_string()))?;
                bench::playouts(&t.game().title, &speed, out)?;
                return bench::board_path(&t, false, out);
            }
            bench::perft(crate::lab::bench::perft(&t, &pos, depth), out)?;
            bench::board_path(&t, true, out)
        }
    }
}

/// `rulebook serve`: prints the address (and a warning for a host other
/// machines can reach), then serves until the process is stopped.
#[cfg(feature = "web")]
fn serve(
    host: &str,
    port: u16,
    games: Option<&std::path::Path>,
    open: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let library =
        crate::web::Library::new(games).map_err(|e| Failure::new(format!("error: {e}")))?;
    if !crate::web::is_loopback(host) {
        writeln!(
            err,
            "warning: listening on {host}: other machines can reach this server; it has no login"
        )?;
    }
    crate::web::serve(library, host, port, |addr| {
        let url = format!("http://{addr}/");
        let _ = writeln!(out, "rulebook serve: {url} (Ctrl-C to stop)");
        let _ = out.flush();
        if open {
            let opener = if cfg!(target_os = "macos") {
                "open"
            } else if cfg!(windows) {
                "explorer"
            } else {
                "xdg-open"
            };
            if std::process::Command::new(opener)
                .arg(&url)
                .spawn()
                .is_err()
            {
                let _ = writeln!(err, "warning: can't open a browser; open {url} yourself");
            }
        }
    })
    .map_err(|e| Failure::failed(format!("error: {e}")))?;
    Ok(0)
}
