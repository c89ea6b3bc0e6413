//! `rulebook play`: a game between people (typing moves) and computer players.

use std::io::{BufRead, Write};

use super::{load_game, position, Failure, GameArgs};
use crate::agents::{self, Agent, BoardGame, BoardState, Strength};
use crate::engine::{Match, Tables};

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The agent of the side called `white`: human, random, greedy, mcts or alphabeta.
    #[arg(long)]
    white: Option<String>,
    /// The agent of the side called `black`.
    #[arg(long)]
    black: Option<String>,
    /// The agent of any side: SIDE=AGENT, where SIDE is its name or seat number (1..).
    #[arg(long = "seat", value_name = "SIDE=AGENT")]
    seats: Vec<String>,
    /// Seed of the computer players.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Start from this position instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// Stop the game after this many plies and report it.
    #[arg(long, default_value_t = 2000)]
    max_plies: u32,
    #[command(flatten)]
    strength: StrengthArgs,
}

/// How hard the computer players think.
#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct StrengthArgs {
    /// Time per move of mcts and alphabeta, in milliseconds.
    #[arg(long, value_name = "MS")]
    think: Option<u64>,
    /// Playouts per move of mcts (default 1000; the same seed gives the same game).
    #[arg(long, value_name = "N")]
    playouts: Option<u32>,
    /// Search depth of alphabeta, in plies (default 4).
    #[arg(long, value_name = "D")]
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

enum Player<'g> {
    Human,
    Computer(Box<dyn Agent<BoardState<'g>> + 'g>),
}

fn players<'g>(
    t: &Tables,
    args: &PlayArgs,
    state: &BoardState<'g>,
) -> Result<Vec<Player<'g>>, Failure> {
    let mut names: Vec<String> = vec!["human".into(); t.nsides];
    for (i, s) in t.game.sides.iter().enumerate() {
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
        let idx = t
            .game
            .sides
            .iter()
            .position(|s| s.id == who)
            .or_else(|| who.parse::<usize>().ok().and_then(|n| n.checked_sub(1)))
            .filter(|&i| i < t.nsides)
            .ok_or_else(|| {
                Failure::new(format!(
                    "error: `{who}` is not a side of this game: the sides are {}",
                    t.game
                        .sides
                        .iter()
                        .map(|s| s.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
        names[idx] = agent.to_string();
    }
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if n == "human" {
                Ok(Player::Human)
            } else {
                agents::by_name(
                    n,
                    args.seed.wrapping_add(i as u64),
                    args.strength.strength(),
                    state,
                )
                .map(Player::Computer)
                .map_err(|e| Failure::new(format!("error: {e} (or human)")))
            }
        })
        .collect()
}

pub(crate) fn run(
    args: PlayArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let t = load_game(&args.game, err)?;
    let start = position(&t, args.position.as_deref())?;
    let agents_game = BoardGame::with_max_plies(&t, u32::MAX);
    let mut players = players(&t, &args, &agents_game.state(start.clone()))?;
    let mut game = Match::new(&t, start.clone());
    writeln!(out, "{}", t.game.title)?;
    write!(out, "{}", super::board::render(&t, &game.pos))?;
    while game.outcome().is_none() {
        if game.plies >= args.max_plies {
            writeln!(out, "stopped after {} plies (--max-plies)", game.plies)?;
            return Ok(0);
        }
        let side = usize::from(game.pos.to_move);
        let side_name = t
            .game
            .sides
            .get(side)
            .map_or("?", |s| s.name.as_str())
            .to_string();
        let chosen = match players.get_mut(side) {
            Some(Player::Computer(a)) => {
                let i = a.choose(&agents_game.replay(start.clone(), game.played()));
                game.legal().get(i).cloned()
            }
            _ => loop {
                write!(out, "{side_name} to move> ")?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(out)?;
                    writeln!(out, "end of input: game abandoned")?;
                    return Ok(0);
                }
                let line = line.trim();
                match line {
                    "" => continue,
                    "moves" => {
                        let all: Vec<&str> =
                            game.legal().iter().map(|m| m.notation.as_str()).collect();
                        writeln!(out, "{}", all.join(" "))?;
                        continue;
                    }
                    "resign" => {
                        writeln!(out, "{side_name} resign")?;
                        return Ok(0);
                    }
                    "help" => {
                        writeln!(
                            out,
                            "type a move (22-18, 22x15x6, c3-d4), or: moves, resign, help"
                        )?;
                        continue;
                    }
                    _ => {}
                }
                match game.parse_move(line) {
                    Ok(m) => break Some(m),
                    Err(why) => writeln!(out, "illegal: {why}")?,
                }
            },
        };
        let Some(mv) = chosen else {
            return Err(Failure::new("error: the player chose no move"));
        };
        let ply = game.plies + 1;
        let events = game.play(&mv);
        writeln!(out, "{ply}. {side_name}: {}", mv.notation)?;
        for e in events {
            writeln!(out, "     {e}")?;
        }
    }
    write!(out, "{}", super::board::render(&t, &game.pos))?;
    if let Some(o) = game.outcome() {
        writeln!(out, "result: {o}")?;
    }
    Ok(0)
}
