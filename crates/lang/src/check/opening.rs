//! `opening remove own ...`: the first moves of a game, each a removal of
//! one of the mover's own pieces instead of a move (from given squares, or
//! next to an empty square).

use super::board::Board;
use super::directions::Directions;
use super::merge::Merged;
use super::sides::Sides;
use crate::ast::OpeningFrom;
use crate::diagnostic::{Code, Diagnostic};
use crate::vocab::board::{KindId, OpeningMove, SideId, Sq, SquareSet};

/// Checks the opening moves: their squares (on the board and playable),
/// their directions; a removal next to an empty square as the first move
/// of a board that starts full can never be made, and a game whose moves
/// fill squares (placing, copies) can't tell when its opening is over.
pub fn check_opening(
    merged: &Merged,
    board: Option<&Board>,
    sides: &Sides,
    directions: &Directions<'_>,
    setup: &[(Sq, SideId, KindId)],
    fills: Option<crate::source::Span>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<OpeningMove> {
    let Some(board) = board else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, (from, span)) in merged.openings.iter().enumerate() {
        match from {
            OpeningFrom::Squares(list) => {
                let mut set = SquareSet::with_capacity(board.squares.len());
                for square in list {
                    match board.resolve(square.node) {
                        Ok(sq) => set.insert(sq),
                        Err(problem) => {
                            diags.push(board.problem(square, problem, Code::NotPlayable));
                        }
                    }
                }
                let first_can = setup
                    .iter()
                    .any(|(sq, side, _)| *side == sides.first && set.contains(*sq));
                if i == 0 && !set.is_empty() && !first_can {
                    let who = sides
                        .list
                        .get(usize::from(sides.first.0))
                        .map_or("", |s| s.id.as_str());
                    diags.push(
                        Diagnostic::new(
                            Code::RuleNeverApplies,
                            format!("the first opening move removes a piece of `{who}`, but none starts on these squares"),
                        )
                        .primary(*span, format!("no piece of `{who}` is set up here"))
                        .help(format!("name squares where `{who}` has a piece at the start")),
                    );
                }
                out.push(OpeningMove::From(set));
            }
            OpeningFrom::NextToEmpty(dirs) => {
                directions.check(dirs, diags);
                let mut vectors: Vec<(i8, i8)> = Vec::new();
                for side in &sides.list {
                    for v in directions.resolve(dirs, side.forward) {
                        if !vectors.contains(&v) {
                            vectors.push(v);
                        }
                    }
                }
                if i == 0 && setup.len() == board.squares.len() {
                    diags.push(
                        Diagnostic::new(
                            Code::RuleNeverApplies,
                            "the first opening move can't remove a piece next to an empty square",
                        )
                        .primary(*span, "the board starts full: no square is empty")
                        .help("make the first removal from squares, such as `opening remove own on d4 e5`"),
                    );
                }
                out.push(OpeningMove::NextToEmpty(vectors));
            }
        }
    }
    if let (Some((_, first)), Some(at)) = (merged.openings.first(), fills) {
        diags.push(
            Diagnostic::new(
                Code::EffectMisplaced,
                "an opening of removals in a game whose moves fill squares",
            )
            .primary(*first, "the opening lasts while the board has fewer empty squares than its moves")
            .secondary(at, "a move that puts a new piece on the board")
            .help("an opening needs a game where no move adds a piece: remove the `opening` statements or the placing"),
        );
        return Vec::new();
    }
    out
}
