//! `rulebook play`: a game between people (typing moves) and computer players:
//! the arguments, the game or the record loaded once, then the prompt of
//! its kind (`board_game.rs`, `race.rs`).

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::board_game::BoardRun;
use super::race::RaceRun;
use super::shared::seed_line;
use super::{position, Failure, GameArgs};
use crate::agents::Strength;
use crate::board::Tables;
use crate::load::Loaded;
use crate::record::race::RaceTurn;
use crate::record::{BoardRecord, Header};
use crate::session::{BoardSession, RaceSession};

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub(crate) struct PlayArgs {
    /// A bundled game (`rulebook list` names them), a path to a rule file,
    /// or a saved or recorded game (JSON lines, recognised by its content)
    /// to resume where it stopped.
    #[arg(required_unless_present = "resume")]
    game: Option<String>,
    /// Set an option declared by the rule file: `--option kings=short`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Resume the game saved (`save FILE`) or recorded (`--record FILE`) in
    /// FILE, at the position and side to move where it stopped, with its
    /// moves to undo; the seats and the seed are the record's unless given.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "options", "position", "players"])]
    resume: Option<std::path::PathBuf>,
    /// The player of the side called `white` (the list of players is
    /// added from `agents::PLAYERS`: super::command).
    #[arg(long, value_name = "PLAYER")]
    white: Option<String>,
    /// The player of the side called `black`; a side not given is a person
    /// (human).
    #[arg(long, value_name = "PLAYER")]
    black: Option<String>,
    /// The player of any side: SIDE=PLAYER, where SIDE is its name or seat
    /// number (1..); a side not given is a person (human).
    #[arg(long = "seat", value_name = "SIDE=PLAYER")]
    seats: Vec<String>,
    /// The number of players of a race game, 1 to 8 (default: the fewest it allows).
    #[arg(long, value_parser = super::limits::players)]
    players: Option<usize>,
    /// Write the game record to FILE: JSON lines, one per turn (see `replay`).
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
    /// The seed of the dice and of the computer players (default: a fresh
    /// one, printed at the start and written to the record, so that the
    /// game can be played again with `--seed`).
    #[arg(long, value_parser = super::limits::seed)]
    seed: Option<u64>,
    /// Start from this position instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// Letters for the pieces and marks instead of Unicode glyphs, for
    /// terminals without them (the output is plain when piped anyway).
    #[arg(long)]
    ascii: bool,
    /// Stop the game after this many plies (1 to 10000000) and report it.
    #[arg(long, default_value_t = 2000, value_parser = super::limits::max_plies)]
    max_plies: u32,
    #[command(flatten)]
    strength: StrengthArgs,
}

/// How hard the computer players think.
#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct StrengthArgs {
    /// Time per move of mcts and alphabeta, in milliseconds (1 to 3600000).
    #[arg(long, value_name = "MS", value_parser = super::limits::think_ms)]
    think: Option<u64>,
    /// Playouts per move of mcts, 1 to 10000000 (default 1000; the same seed
    /// gives the same game).
    #[arg(long, value_name = "N", value_parser = super::limits::playouts)]
    playouts: Option<u32>,
    /// Search depth of alphabeta, in plies, 1 to 64 (default 4).
    #[arg(long, value_name = "D", value_parser = super::limits::search_depth)]
    depth: Option<u32>,
}

impl StrengthArgs {
    pub(crate) fn strength(&self) -> Strength {
        Strength {
            think: self.think.map(std::time::Duration::from_millis),
            playouts: self.playouts,
            depth: self.depth,
        }
    }
}

/// The agent name of each side: as given, else as in `base` (a resumed
/// record's), else `human`.
fn agent_names(t: &Tables, args: &PlayArgs, base: &[String]) -> Result<Vec<String>, Failure> {
    let mut names: Vec<String> = if base.len() == t.sides() {
        base.to_vec()
    } else {
        vec!["human".into(); t.sides()]
    };
    for (i, s) in t.game().sides.iter().enumerate() {
        if s.id == "white" {
            if let Some(a) = &args.white {
                names[i] = a.clone();
            }
        }
        if s.id == "black" {
            if let Some(a) = &args.black {
                names[i] = a.clone();
            }
        }
    }
    for seat in &args.seats {
        let (who, agent) = seat.split_once('=').ok_or_else(|| {
            Failure::new(format!("error: `--seat {seat}` needs the form SIDE=AGENT"))
        })?;
        let ids = t.game().sides.iter().map(|s| s.id.as_str());
        let idx = super::seat_index(ids, who, t.sides()).ok_or_else(|| {
            Failure::new(format!(
                "error: `{who}` is not a side of this game: the sides are {}",
                t.game()
                    .sides
                    .iter()
                    .map(|s| s.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        names[idx] = agent.to_string();
    }
    Ok(names)
}

/// Whether `path` names a game record (a saved or recorded game): a file
/// whose first line that is not blank is a JSON object. A rule file never
/// starts so.
fn is_record(path: &Path) -> bool {
    use std::io::Read;
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(4096).read_to_end(&mut head));
    read.is_ok() && head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

pub(crate) fn run(
    args: PlayArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
    term: super::Term,
) -> Result<i32, Failure> {
    let resume = match (&args.resume, &args.game) {
        (Some(file), _) => Some(file.clone()),
        (None, Some(g)) if is_record(Path::new(g)) => Some(PathBuf::from(g)),
        _ => None,
    };
    // The record written must not be the rule file played or the record
    // resumed.
    let files = match &resume {
        Some(file) => super::paths::Files::new().input("the record resumed", Some(file)),
        None => match &args.game {
            Some(g) => super::paths::Files::new().game(g),
            None => super::paths::Files::new(),
        },
    };
    files.output("--record", args.record.as_deref()).check()?;
    if let Some(file) = resume {
        for (flag, given) in [
            ("--option", !args.options.is_empty()),
            ("--position", args.position.is_some()),
            ("--players", args.players.is_some()),
        ] {
            if given {
                return Err(Failure::new(format!(
                    "error: `{flag}` can't change a resumed game: {} holds its game, options, position and players",
                    file.display()
                )));
            }
        }
        return resume_game(&args, &file, input, out, err, term);
    }
    let game = GameArgs {
        game: args.game.clone().unwrap_or_default(),
        options: args.options.clone(),
    };
    // A fresh seed is said at the start, so that the game can be played again.
    let (seed, fresh) = match args.seed {
        Some(s) => (s, false),
        None => (crate::session::fresh_seed(), true),
    };
    let checked = super::checked(&game)?;
    if checked.race().is_some() {
        no_board_flags(&args, &game.game)?;
    }
    let t = match super::compiled(checked, &game, err)? {
        Loaded::Board(t) => t,
        Loaded::Race(race) => {
            let run = race_run(&args, &game, args.players, seed, fresh, &term);
            return run.run(&race, input, out, err);
        }
    };
    if args.players.is_some() {
        return Err(Failure::new(format!(
            "error: `--players` sets the number of players of a race game, and `{}` is a board game with {} sides",
            game.game, t.sides()
        )));
    }
    let start = position(&t, args.position.as_deref())?;
    let names = agent_names(&t, &args, &[])?;
    let view = BoardSession::players_view(&t);
    let session = BoardSession::new(&view, start, &names, seed, args.strength.strength())
        .map_err(|e| Failure::new(format!("error: {e}")))?
        .with_max_plies(args.max_plies);
    let intro = if fresh {
        format!("{}\n", seed_line(seed))
    } else {
        String::new()
    };
    board_run(&game, &args, term).play_session(&t, session, &intro, input, out, err)
}

/// A board game as the command line asks it to be played.
fn board_run<'a>(game: &'a GameArgs, args: &'a PlayArgs, term: super::Term) -> BoardRun<'a> {
    BoardRun {
        game,
        record: args.record.as_deref(),
        ascii: args.ascii,
        term,
    }
}

/// A race game as the command line asks it to be played.
fn race_run<'a>(
    args: &'a PlayArgs,
    game: &'a GameArgs,
    players: Option<usize>,
    seed: u64,
    fresh_seed: bool,
    term: &super::Term,
) -> RaceRun<'a> {
    RaceRun {
        game,
        seats: &args.seats,
        players,
        seed,
        fresh_seed,
        max_rolls: args.max_plies,
        record: args.record.as_deref(),
        strength: args.strength.strength(),
        style: crate::format::text::board::Style {
            unicode: term.style().unicode && !args.ascii,
            ..term.style()
        },
        thinking: term.is_terminal && std::io::stderr().is_terminal(),
    }
}

/// `--white` and `--black` name the sides of a board game: an error at a
/// race game.
fn no_board_flags(args: &PlayArgs, game: &str) -> Result<(), Failure> {
    for (flag, given) in [("--white", &args.white), ("--black", &args.black)] {
        if given.is_some() {
            return Err(Failure::new(format!(
                "error: `{flag}` names a side of a board game, and `{game}` is a race game: use `--seat SEAT=AGENT` (a seat number from 1 or a seat name)"
            )));
        }
    }
    Ok(())
}

/// Resumes the game of a record: its game, options and position from the
/// record, its moves played (checked: an error names the file and line),
/// the seats and the seed as given or as recorded.
fn resume_game(
    args: &PlayArgs,
    file: &Path,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
    term: super::Term,
) -> Result<i32, Failure> {
    let name = file.display().to_string();
    let text = super::loader::read_text(file, super::loader::MAX_RECORD, "a game record")
        .map_err(|e| Failure::new(format!("error: can't read {name}: {e}")))?;
    let bad = |line: usize, why: String| Failure {
        message: format!("error: {name}:{line}: {why}"),
        code: 1,
    };
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let Some((first, head)) = lines.next() else {
        return Err(bad(1, "the record is empty".into()));
    };
    let header: Header = serde_json::from_str(head).map_err(|e| {
        bad(
            first,
            format!(
                "not a record header ({e}); it looks like {{\"game\":\"NAME\",\"options\":[]}}"
            ),
        )
    })?;
    let game_name = super::loader::record_game(file, &header.game).map_err(|e| bad(first, e))?;
    super::paths::Files::new()
        .game(&game_name)
        .output("--record", args.record.as_deref())
        .check()?;
    let game = GameArgs {
        game: game_name,
        options: header.options.clone(),
    };
    let seed = args
        .seed
        .or(header.seed)
        .unwrap_or_else(crate::session::fresh_seed);
    let intro = |played: usize, what: &str| {
        let s = if played == 1 { "" } else { "s" };
        format!("resumed {name}: {played} {what}{s} played\n")
    };
    let t = match super::load(&game, err)? {
        Loaded::Board(t) => t,
        Loaded::Race(race) => {
            no_board_flags(args, &header.game)?;
            let players = header.players.unwrap_or(usize::from(race.min_players));
            let mut turns = Vec::new();
            for (n, line) in lines {
                let turn: RaceTurn = serde_json::from_str(line).map_err(|e| {
                bad(
                    n,
                    format!("not a turn ({e}); a turn looks like {{\"player\":\"red\",\"dice\":[6,3],\"choice\":\"enter\"}}"),
                )
            })?;
                turns.push((n, turn));
            }
            let run = race_run(args, &game, Some(players), seed, false, &term);
            let agents = if header.agents.len() == players {
                header.agents.clone()
            } else {
                vec!["human".to_string(); players]
            };
            let names = run.agent_names(&race, players, agents)?;
            let mut h = header.clone();
            h.seed = Some(seed);
            h.players = Some(players);
            h.agents.clone_from(&names);
            let mut session = RaceSession::resume(
                &race,
                &names,
                seed,
                args.strength.strength(),
                args.max_plies,
                h,
                &turns,
            )
            .map_err(|e| bad(e.line, e.reason))?;
            if let Some(path) = &args.record {
                session
                    .record_to(path)
                    .map_err(|e| Failure::new(format!("error: {e}")))?;
            }
            let mut intro = intro(turns.len(), "turn");
            if session.is_over() {
                intro.push_str("the game is over\n");
            }
            return run.play_session(&race, session, &intro, input, out, err);
        }
    };
    let rec = BoardRecord::parse(&text).map_err(|p| bad(p.error.line, p.error.reason))?;
    let names = agent_names(&t, args, &header.agents)?;
    let view = BoardSession::players_view(&t);
    let session = BoardSession::resume(&view, &rec, &names, seed, args.strength.strength())
        .map_err(|e| bad(e.line, e.reason))?
        .with_max_plies(args.max_plies);
    let game = GameArgs {
        game: header.game.clone(),
        options: header.options.clone(),
    };
    let mut intro = intro(rec.plies.len(), "move");
    if session.ending().is_some() {
        intro.push_str("the game is over\n");
    }
    board_run(&game, args, term).play_session(&t, session, &intro, input, out, err)
}
