//! `rulebook bench`: prints what [`crate::lab::bench`] measures (perft
//! leaves per second, random playouts per second, race games per second).

use std::io::Write;

use super::Failure;
use crate::board::kernel::{walk_copy, NoFlips, NoLines, NoSlides, NoSteps, WalkCopy};
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
    let path = if t.kernel().is_some() {
        "the kernel of jumps (64-bit boards)"
    } else if t.wide_kernel().is_some() {
        "the kernel of jumps on 128-bit boards"
    } else {
        match (
            t.step_kernel(),
            t.flip_kernel(),
            t.slide_kernel(),
            t.line_kernel(),
        ) {
            (Ok(_), ..) => "the kernel of steps (64-bit boards)",
            (Err(_), Ok(_), ..) => "the kernel of flips (64-bit boards)",
            (Err(_), Err(_), Ok(_), _) => "the kernel of slides (128-bit boards)",
            (Err(_), Err(_), Err(_), Ok(_)) => "the kernel of lines (a mailbox of the board)",
            // Nothing slides, not a game of placements alone, nor of
            // placements, copies or conversions: why not the kernel of
            // steps.
            (
                Err(why),
                Err(NoFlips::Plain | NoFlips::Other),
                Err(NoSlides::Plain | NoSlides::Other),
                Err(NoLines::Plain | NoLines::Other),
            ) => no_steps(why),
            // A game of placements alone: why not the kernel of lines.
            (Err(_), Err(_), Err(_), Err(why))
                if !matches!(why, NoLines::Plain | NoLines::Other) =>
            {
                no_lines(why)
            }
            (Err(_), Err(NoFlips::Plain | NoFlips::Other), Err(why), _) => no_slides(why),
            // Pieces placed that enclose, copy or convert: why not the
            // kernel of flips.
            (Err(_), Err(why), _, _) => no_flips(why),
        }
    };
    writeln!(out, "  played by {path}")?;
    if perft && (t.kernel().is_some() || t.wide_kernel().is_some()) {
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

/// Why a board game takes the general path, in words.
fn no_steps(why: NoSteps) -> &'static str {
    match why {
        NoSteps::Sides => "the general path (not two sides)",
        NoSteps::Kinds => "the general path (more than two kinds of piece)",
        NoSteps::Board => {
            "the general path (a board beyond 64 bits, or directions that are not one shift of it)"
        }
        NoSteps::Moves => "the general path (moves no kernel takes)",
        NoSteps::Captures => "the general path (captures other than by jumps or replacement)",
        NoSteps::Squares => "the general path (squares with rules)",
        NoSteps::End => {
            "the general path (end rules beyond counting pieces and reaching a zone, or passes)"
        }
        NoSteps::Crowning => "the general path (a crowning into another side)",
        _ => "the general path",
    }
}

/// Why a game of placements, copies or conversions takes the general
/// path, in words.
fn no_flips(why: NoFlips) -> &'static str {
    match why {
        NoFlips::Sides => "the general path (not two sides)",
        NoFlips::Kinds => {
            "the general path (placements or conversions with more than one kind of piece)"
        }
        NoFlips::Board => {
            "the general path (a board beyond 64 bits, or directions that are not one shift of it)"
        }
        NoFlips::Moves => "the general path (moves no kernel takes)",
        NoFlips::Captures => "the general path (captures that neither jump, replace nor convert)",
        NoFlips::Squares => "the general path (squares with rules)",
        NoFlips::End => {
            "the general path (end rules beyond counting pieces, or sides that drop out)"
        }
        NoFlips::Crowning => "the general path (a crowning)",
        _ => "the general path",
    }
}

/// Why a game of slides takes the general path, in words.
fn no_slides(why: NoSlides) -> &'static str {
    match why {
        NoSlides::Squares => "the general path (squares with rules)",
        NoSlides::Sides => "the general path (not two sides)",
        NoSlides::Moves => "the general path (moves no kernel takes)",
        NoSlides::Captures => {
            "the general path (captures other than custodian capture that removes)"
        }
        NoSlides::Kinds => "the general path (slides with more than one kind of piece)",
        NoSlides::Crowning => "the general path (a crowning)",
        NoSlides::End => {
            "the general path (end rules beyond counting pieces, passes, or sides that drop out)"
        }
        NoSlides::Board => {
            "the general path (a board with holes or lines, or directions that are not one shift of it)"
        }
        _ => "the general path",
    }
}

/// Why a game of placements alone takes the general path, in words.
fn no_lines(why: NoLines) -> &'static str {
    match why {
        NoLines::Sides => "the general path (not two sides)",
        NoLines::Kinds => "the general path (placements of more than one kind of piece)",
        NoLines::Hand => "the general path (a hand that runs out)",
        NoLines::Placing => {
            "the general path (placements only where they enclose or next to one's own)"
        }
        NoLines::Squares => "the general path (squares with rules, or a crowning)",
        NoLines::End => {
            "the general path (end rules beyond rows and a full board, or sides that drop out)"
        }
        NoLines::Board => "the general path (a board whose lines join only some squares)",
        _ => "the general path",
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
    writeln!(out, "  played by {}", path(s.path))?;
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
