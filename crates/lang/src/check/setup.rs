//! The start position.

use super::board::Board;
use super::merge::Merged;
use super::pieces::Kinds;
use super::sides::Sides;
use super::zones::Zones;
use crate::ast::{Place, SetupDecl, Spanned};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;
use crate::vocab::board::{KindId, SideId, Sq};
use std::collections::HashMap;

/// Checks the setup statements and builds the start position.
pub fn check_setup(
    merged: &Merged,
    board: Option<&Board>,
    sides: &Sides,
    kinds: &Kinds,
    zones: &Zones,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(Sq, SideId, KindId)> {
    let mut placed: HashMap<Sq, Span> = HashMap::new();
    let mut setup = Vec::new();
    for statement in &merged.setups {
        let placements = placements(statement, board, sides, kinds, zones, diags);
        let mut overlap_reported = false;
        for (sq, span, side, kind) in placements {
            if let Some(first) = placed.get(&sq) {
                if !overlap_reported {
                    overlap_reported = true;
                    let name = board
                        .and_then(|b| b.squares.get(usize::from(sq.0)))
                        .map_or(String::new(), |s| s.algebraic.clone());
                    let mut d =
                        Diagnostic::new(Code::Overlap, format!("two pieces are set up on {name}"))
                            .primary(span, format!("puts a second piece on {name}"));
                    if *first != span {
                        d = d.secondary(*first, "the first one is put here");
                    }
                    diags.push(d.help("each square holds one piece: remove one of the setups"));
                }
                continue;
            }
            placed.insert(sq, span);
            setup.push((sq, side, kind));
        }
    }
    // Only when all else is right: an earlier mistake may be why.
    // A side with a hand may start with none: it places them (checked with
    // the hands, `rules::check_placing`).
    let hands = !merged.hands.is_empty()
        || merged.pieces.iter().any(|p| {
            p.lines
                .iter()
                .any(|l| matches!(l.node, crate::ast::PieceLine::Place(..)))
        });
    if board.is_some() && !hands && !diags.iter().any(Diagnostic::is_error) {
        for side in sides.ids() {
            if setup.iter().all(|(_, s, _)| *s != side) {
                let (name, span) = (
                    sides
                        .list
                        .get(usize::from(side.0))
                        .map_or("", |s| s.id.as_str()),
                    sides.spans.get(usize::from(side.0)).copied(),
                );
                let mut d = Diagnostic::new(
                    Code::SideWithoutPieces,
                    format!("side `{name}` has no pieces in the setup"),
                )
                .help(format!("add a `setup` that places pieces of `{name}`"));
                if let Some(span) = span {
                    d = d.primary(span, "this side starts with no pieces");
                }
                diags.push(d);
            }
        }
    }
    setup.sort();
    setup
}

/// The pieces one setup statement places: square, where it is written,
/// side, kind.
fn placements(
    statement: &Spanned<SetupDecl>,
    board: Option<&Board>,
    sides: &Sides,
    kinds: &Kinds,
    zones: &Zones,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(Sq, Span, SideId, KindId)> {
    let decl = &statement.node;
    let side = match &decl.side {
        Some(name) => match sides.lookup(name, diags) {
            Some(id) => Some(id),
            None => return Vec::new(),
        },
        None => None,
    };
    let kind = kinds.lookup(&decl.kind, diags);
    let mut out = Vec::new();
    match &decl.place {
        Place::Zone(zone) => {
            let Some(zone_id) = zones.lookup_ref(zone, diags) else {
                return out;
            };
            let Some(kind) = kind else { return out };
            let for_sides: Vec<SideId> = match side {
                Some(s) => vec![s],
                None => sides.ids().collect(),
            };
            for s in for_sides {
                for sq in zones.seen_by(zone_id, zone.whose, usize::from(s.0)).iter() {
                    out.push((sq, statement.span, s, kind));
                }
            }
        }
        Place::Squares(squares) => {
            let Some(side) = side else {
                let at = squares
                    .first()
                    .map_or(statement.span, |f| f.span)
                    .to(squares.last().map_or(statement.span, |l| l.span));
                diags.push(
                    Diagnostic::new(Code::SetupNeedsSide, "setup on squares without a side")
                        .primary(at, "whose pieces are these?")
                        .help(format!(
                            "name the side: `setup SIDE {} at ...`, or set up on a zone",
                            decl.kind.node
                        )),
                );
                return out;
            };
            let Some(board) = board else { return out };
            for square in squares {
                match board.resolve(square.node) {
                    Ok(sq) => {
                        if let Some(kind) = kind {
                            out.push((sq, square.span, side, kind));
                        }
                    }
                    Err(problem) => diags.push(board.problem(square, problem, Code::NotPlayable)),
                }
            }
        }
    }
    out
}
