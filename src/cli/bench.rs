//! `rulebook bench`: prints what [`crate::lab::bench`] measures (perft
//! leaves per second, random playouts per second, race games per second).

use std::io::Write;

use super::Failure;
use crate::board::kernel::{
    walk_copy, NoFlips, NoJumps, NoLines, NoSlides, NoSteps, Path, Refusal, WalkCopy,
};
use crate::board::Tables;
use crate::lab::bench::{PerftSpeed, PlayoutSpeed, RaceSpeed};
use crate::race::fast::NotCovered;

/// Perft at one depth.
pub(crate) fn perft(speed: Option<PerftSpeed>, out: &mut dyn Write) -> Result<i32, Failure> {
    if let Some(s) = speed {
        writeln!(
            out,
            "perft {} {} in {:.3} s: {:.2} M leaves/s",
            s.depth,
            s.leaves,
            s.seconds,
            s.rate() / 1e6
        )?;
    }
    Ok(0)
}

/// Random playouts of a board game.
pub(crate) fn playouts(title: &str, s: &PlayoutSpeed, out: &mut dyn Write) -> Result<i32, Failure> {
    writeln!(
        out,
        "{title}: {} random playouts on {} thread{} in {:.2} s: {:.0} playouts/s, {:.2} M plies/s, {:.1} plies per game",
        s.playouts,
        s.jobs,
        if s.jobs == 1 { "" } else { "s" },
        s.seconds,
        s.per_second(s.playouts),
        s.per_second(s.plies) / 1e6,
        s.plies_per_game()
    )?;
    if let Some(cpu) = s.cpu.filter(|c| !c.is_zero()) {
        let cpu = cpu.as_secs_f64();
        writeln!(
            out,
            "  on a core {:.0}% of the time: {:.0} playouts per second of one core",
            100.0 * cpu / (s.seconds * s.jobs as f64),
            s.playouts as f64 / cpu
        )?;
    }
    Ok(0)
}

/// Which engine counted a board bench's perft (`perft`) or played its
/// playouts; for a perft by a kernel of jumps, which copy of its walk.
pub(crate) fn board_path(t: &Tables, perft: bool, out: &mut dyn Write) -> Result<i32, Failure> {
    let path = t.path();
    let named = match path {
        Path::Jumps(_) => "the kernel of jumps (64-bit boards)",
        Path::WideJumps(_) => "the kernel of jumps on 128-bit boards",
        Path::Steps(_) => "the kernel of steps (64-bit boards)",
        Path::Flips(_) => "the kernel of flips (64-bit boards)",
        Path::Slides(_) => "the kernel of slides (128-bit boards)",
        Path::Lines(_) => "the kernel of lines (a mailbox of the board)",
        Path::General(why) => &format!("the general path: {}", refusal(why)),
    };
    writeln!(out, "  played by {named}")?;
    if perft && matches!(path, Path::Jumps(_) | Path::WideJumps(_)) {
        let copy = match walk_copy() {
            WalkCopy::BitInstructions => "the copy compiled with popcnt, bmi1 and bmi2",
            WalkCopy::Portable => {
                "the portable copy (the processor lacks popcnt, bmi1 or bmi2, or is not x86-64)"
            }
        };
        writeln!(out, "  perft walk: {copy}")?;
    }
    if let Some(k) = t.kernel() {
        let search = match k.short_search_kinds() {
            (0, _) => "the general search (every kind jumps long, or is crowned mid-chain and goes on)".to_string(),
            (n, all) if n == all => "the search of short jumps, for every kind".to_string(),
            (n, all) => format!(
                "the search of short jumps for {n} of {all} kinds; the general search for the others (long jumps, or crowned mid-chain and going on)"
            ),
        };
        writeln!(out, "  capture search: {search}")?;
    }
    Ok(0)
}

/// Which kernel came nearest to a game the general path plays, and why it
/// refuses it, in words.
fn refusal(why: Refusal) -> String {
    let (kernel, what) = match why {
        Refusal::Jumps(why) => ("jumps", no_jumps(why)),
        Refusal::Steps(why) => ("steps", no_steps(why)),
        Refusal::Flips(why) => ("flips", no_flips(why)),
        Refusal::Slides(why) => ("slides", no_slides(why)),
        Refusal::Lines(why) => ("lines", no_lines(why)),
    };
    format!("the kernel of {kernel} refuses {what}")
}

/// Why the kernel of jumps refuses a game.
fn no_jumps(why: NoJumps) -> &'static str {
    match why {
        NoJumps::Plain => "a game where nothing jumps",
        NoJumps::Board => "a board with holes or lines that join only some squares, beyond 128 bits, or directions that are not one shift of it",
        NoJumps::Sides => "not two sides",
        NoJumps::Kinds => "more than two kinds of piece",
        NoJumps::Optional => "captures that are not compulsory (`capture optional`)",
        NoJumps::Stacks => "columns (`capture stacks`)",
        NoJumps::Opening => "opening removals (`opening remove`)",
        NoJumps::Limits => "jumps along lines with limits (`straight`)",
        NoJumps::Moves => {
            "moves other than steps, slides and jumps (hops, placements, copies), or more than four directions of a class"
        }
        NoJumps::Captures => {
            "captures other than by jumping, precedence criteria, or pieces that can't be taken"
        }
        NoJumps::Squares => "squares with rules",
        NoJumps::End => "end rules beyond counting pieces, or sides that drop out",
        NoJumps::Crowning => "a crowning into another side",
        _ => "the game",
    }
}

/// Why the kernel of steps refuses a game.
fn no_steps(why: NoSteps) -> &'static str {
    match why {
        NoSteps::Sides => "not two sides",
        NoSteps::Kinds => "more than two kinds of piece",
        NoSteps::Board => "a board beyond 64 bits, or directions that are not one shift of it",
        NoSteps::Moves => {
            "moves other than steps (slides, jumps, hops, copies, placements, openings, columns)"
        }
        NoSteps::Captures => "captures other than by replacement",
        NoSteps::Squares => "squares with rules",
        NoSteps::End => "end rules beyond counting pieces and reaching a zone, or passes",
        NoSteps::Crowning => "a crowning into another side",
        _ => "the game",
    }
}

/// Why the kernel of flips refuses a game.
fn no_flips(why: NoFlips) -> &'static str {
    match why {
        NoFlips::Plain => "a game without placements, copies or conversions",
        NoFlips::Sides => "not two sides",
        NoFlips::Kinds => "more than one kind of piece",
        NoFlips::Board => "a board beyond 64 bits, lines that join only some squares, or directions that are not one shift of it",
        NoFlips::Moves => {
            "moves other than placements, copies and steps, placements next to one's own, or a hand that runs out"
        }
        NoFlips::Captures => "captures other than conversions by enclosure or neighbourhood",
        NoFlips::Squares => "squares with rules",
        NoFlips::End => "end rules beyond counting pieces, or sides that drop out",
        NoFlips::Crowning => "a crowning",
        _ => "the game",
    }
}

/// Why the kernel of slides refuses a game.
fn no_slides(why: NoSlides) -> &'static str {
    match why {
        NoSlides::Plain => "a game where nothing slides",
        NoSlides::Squares => "squares with rules",
        NoSlides::Sides => "not two sides",
        NoSlides::Moves => {
            "moves other than slides and steps onto empty squares, or more than four directions of a class"
        }
        NoSlides::Captures => "captures other than custodian capture that removes",
        NoSlides::Kinds => "more than one kind of piece",
        NoSlides::Crowning => "a crowning",
        NoSlides::End => {
            "end rules beyond counting pieces, passes, or sides that drop out"
        }
        NoSlides::Board => "a board with holes or lines, or directions that are not one shift of it",
        _ => "the game",
    }
}

/// Why the kernel of lines refuses a game.
fn no_lines(why: NoLines) -> &'static str {
    match why {
        NoLines::Plain => "a game of more than placements",
        NoLines::Sides => "not two sides",
        NoLines::Kinds => "more than one kind of piece",
        NoLines::Hand => "a hand that runs out",
        NoLines::Placing => "placements only where they enclose or next to one's own",
        NoLines::Squares => "squares with rules, or a crowning",
        NoLines::End => "end rules beyond rows and a full board, or sides that drop out",
        NoLines::Board => "a board whose lines join only some squares",
        _ => "the game",
    }
}

/// Whole race games.
pub(crate) fn race(s: &RaceSpeed, out: &mut dyn Write) -> Result<i32, Failure> {
    writeln!(
        out,
        "{} games of {} random players on {} thread{} in {:.3} s: {:.0} games/s, {:.2} M rolls/s, {:.1} rolls a game",
        s.games,
        s.players,
        s.jobs,
        if s.jobs == 1 { "" } else { "s" },
        s.seconds,
        s.games as f64 / s.seconds,
        s.rolls as f64 / s.seconds / 1e6,
        s.rolls as f64 / s.games.max(1) as f64
    )?;
    if let Some(cpu) = s.cpu.filter(|c| !c.is_zero()) {
        let cpu = cpu.as_secs_f64();
        writeln!(
            out,
            "  on a core {:.0}% of the time: {:.0} games per second of one core",
            100.0 * cpu / (s.seconds * s.jobs as f64),
            s.games as f64 / cpu
        )?;
    }
    let shaped = if s.shaped {
        ", its rules of the choices compiled for their shape"
    } else {
        ""
    };
    writeln!(out, "  played by {}{shaped}", path(s.path))?;
    Ok(0)
}

/// Which turn played a race bench, in words.
fn path(p: Result<(), NotCovered>) -> &'static str {
    match p {
        Ok(()) => "the compiled turn (a move table of the rule file)",
        Err(NotCovered::Choices) => {
            "the general turn (rows, passing, moves back, points or blockades among the rules of the choices)"
        }
        Err(NotCovered::EachDie) => "the general turn (dice used one by one)",
        Err(NotCovered::RollRules) => "the general turn (rules of the roll)",
        Err(NotCovered::Held) => "the general turn (pieces may be held)",
        Err(NotCovered::Tries) => "the general turn (tries when no piece can move)",
        Err(NotCovered::Outcome) => "the general turn (a finishing order or another outcome)",
        Err(NotCovered::Size) => "the general turn (more seats, pieces or dice than it compiles)",
        Err(NotCovered::Paths) => "the general turn (a track of named paths)",
        Err(NotCovered::LiveRule) => "the general turn (cell rules applied at play time)",
        Err(_) => "the general turn",
    }
}
