//! `lines DIRS only from SET`: a board whose lines along some directions
//! join only some squares (every other point of a 5 x 5 board of lines, say).

use super::board::Board;
use super::directions::Directions;
use super::merge::Merged;
use super::sides::Sides;
use crate::ast::LineSquares;
use crate::diagnostic::{Code, Diagnostic};
use crate::vocab::board::{Lines, SquareSet};

/// Checks the `lines` statement: its directions (every side's, joined), its
/// squares (on the board and playable); a set that holds every square
/// changes nothing (a warning).
pub fn check_lines(
    merged: &Merged,
    board: Option<&Board>,
    sides: &Sides,
    directions: &Directions<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Lines> {
    let (dirs, set, span) = merged.lines.as_ref()?;
    let board = board?;
    directions.check(dirs, diags);
    let mut vectors: Vec<(i8, i8)> = Vec::new();
    for side in &sides.list {
        for v in directions.resolve(dirs, side.forward) {
            if !vectors.contains(&v) {
                vectors.push(v);
            }
        }
    }
    let mut squares = SquareSet::with_capacity(board.squares.len());
    match &set.node {
        LineSquares::Dark | LineSquares::Light => {
            let want = u32::from(set.node == LineSquares::Light);
            for (i, info) in board.squares.iter().enumerate() {
                if (u32::from(info.file) + u32::from(info.rank)) % 2 == want {
                    if let Ok(i) = u16::try_from(i) {
                        squares.insert(crate::vocab::board::Sq(i));
                    }
                }
            }
        }
        LineSquares::Squares(list) => {
            for square in list {
                match board.resolve(square.node) {
                    Ok(sq) => squares.insert(sq),
                    Err(problem) => diags.push(board.problem(square, problem, Code::NotPlayable)),
                }
            }
        }
    }
    if squares.len() == board.squares.len() {
        diags.push(
            Diagnostic::new(Code::NoEffect, "these lines join every square of the board")
                .primary(set.span, "every playable square is in the set")
                .secondary(*span, "so this changes no move")
                .help("name the squares the lines join, such as `dark`, or remove the statement"),
        );
    }
    Some(Lines {
        dirs: vectors,
        squares,
    })
}
