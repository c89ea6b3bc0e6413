//! `capture stacks`: the rules a game of columns can't have with it (E090),
//! and a stack rule that never applies (W005).
//!
//! A captured piece that goes under its captor is taken by a jump; custodian
//! capture, capture of neighbours and capture by replacement take pieces
//! otherwise, and placed pieces and copies come from nowhere: a column game
//! has none of them.

use super::merge::Merged;
use crate::ast::{MoveKind, PieceLine, Replacement};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;

/// The hint of every conflict: what a column game is.
const HINT: &str = "in a game of columns (`capture stacks`) pieces are taken only by jumping them, one top piece a jump, and go under the jumper; drop one of the two rules";

/// Checks `capture stacks` against the other rules of the game.
pub fn check_stacks(merged: &Merged, diags: &mut Vec<Diagnostic>) {
    let Some(at) = merged.stacks else {
        return;
    };
    let conflict = |message: &str, other: Option<(Span, &str)>| {
        let d = Diagnostic::new(Code::StackConflict, message)
            .primary(at, "captured pieces go under the captor here");
        let d = match other {
            Some((span, text)) => d.secondary(span, text),
            None => d,
        };
        d.help(HINT)
    };
    if let Some(c) = &merged.custodian {
        let span = c
            .dirs
            .iter()
            .map(|d| d.span)
            .reduce(|a, b| a.to(b))
            .unwrap_or(at);
        diags.push(conflict(
            "`capture stacks` can't go with custodian capture: an enclosed piece is not jumped, so it has no captor to go under",
            Some((span, "custodian capture takes enclosed pieces")),
        ));
    }
    if let Some((_, span)) = &merged.neighbours {
        diags.push(conflict(
            "`capture stacks` can't go with `capture neighbours`: a piece next to the arrival square is not jumped, so it has no captor to go under",
            Some((*span, "neighbours are taken here")),
        ));
    }
    let mut jumps = false;
    for piece in &merged.pieces {
        for line in &piece.lines {
            match &line.node {
                PieceLine::Move(kind, _, rep, _) => {
                    if matches!(kind, MoveKind::ShortJump | MoveKind::LongJump) {
                        jumps = true;
                    }
                    match rep.node {
                        Replacement::Also | Replacement::Only => diags.push(conflict(
                            "`capture stacks` can't go with capture by replacement: a piece taken by moving onto it would be buried under a column that is not there yet",
                            Some((line.span, "this move captures by replacement")),
                        )),
                        Replacement::Clone => diags.push(conflict(
                            "`capture stacks` can't go with copies (`clone`): a new piece on the board is not a column",
                            Some((line.span, "this move leaves a copy behind")),
                        )),
                        Replacement::None => {}
                    }
                }
                PieceLine::Place(..) => diags.push(conflict(
                    "`capture stacks` can't go with pieces placed from a hand",
                    Some((line.span, "this piece is placed from a hand")),
                )),
                _ => {}
            }
        }
    }
    if !jumps && !merged.pieces.is_empty() {
        diags.push(
            Diagnostic::new(
                Code::RuleNeverApplies,
                "`capture stacks` never applies: no piece jumps",
            )
            .primary(at, "no jump ever puts a piece under another")
            .help("give a piece a `jump short` or `jump long` line, or drop `capture stacks`"),
        );
    }
}
