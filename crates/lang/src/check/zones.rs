//! Zones: their squares for every side.

use super::board::Board;
use super::merge::Merged;
use super::sides::Sides;
use crate::ast::{Name, RankNumber, Spanned, SquareRef, ZoneBody, ZoneDecl, ZoneRef};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;
use crate::suggest::unknown_help;
use crate::vocab::board::{Hostile, KindId, SquareSet, Whose, ZoneId, ZoneInfo};

/// The checked zones.
#[derive(Clone, Debug, Default)]
pub struct Zones {
    /// In declaration order.
    pub list: Vec<ZoneInfo>,
    /// Where each is named.
    pub spans: Vec<Span>,
}

impl Zones {
    /// A zone by name, or an "unknown zone" diagnostic.
    pub fn lookup(&self, name: &Name, diags: &mut Vec<Diagnostic>) -> Option<ZoneId> {
        let found = self
            .list
            .iter()
            .position(|z| z.id == name.node)
            .and_then(|i| u16::try_from(i).ok())
            .map(ZoneId);
        if found.is_none() {
            diags.push(
                Diagnostic::new(Code::UnknownZone, format!("unknown zone `{}`", name.node))
                    .primary(name.span, "no zone of this name")
                    .help(unknown_help(
                        &name.node,
                        self.list.iter().map(|z| z.id.as_str()),
                        "declare it with `zone`",
                    )),
            );
        }
        found
    }

    /// The squares of a zone as side `side` sees it through `whose`.
    pub fn seen_by(&self, zone: ZoneId, whose: Whose, side: usize) -> SquareSet {
        let mut set = SquareSet::default();
        if let Some(z) = self.list.get(usize::from(zone.0)) {
            for (s, squares) in z.squares.iter().enumerate() {
                let take = match whose {
                    Whose::Own => s == side,
                    Whose::Enemy => s != side,
                    Whose::Any => true,
                };
                if take {
                    set.union_with(squares);
                }
            }
        }
        set
    }

    /// Looks up a zone reference.
    pub fn lookup_ref(&self, zone: &ZoneRef, diags: &mut Vec<Diagnostic>) -> Option<ZoneId> {
        self.lookup(&zone.name, diags)
    }
}

/// Checks the zones and computes their squares (empty without a board).
pub fn check_zones(
    merged: &Merged,
    board: Option<&Board>,
    sides: &Sides,
    diags: &mut Vec<Diagnostic>,
) -> Zones {
    let mut zones = Zones::default();
    for decl in &merged.zones {
        let squares = match board {
            Some(board) => zone_squares(decl, board, sides, diags),
            None => vec![SquareSet::default(); sides.list.len()],
        };
        zones.list.push(ZoneInfo {
            id: decl.name.node.clone(),
            squares,
            per_side: !matches!(decl.body, ZoneBody::Shared(_)),
            no_stop: decl.no_stop,
            hostile: match decl.hostile {
                None => Hostile::Not,
                Some(Spanned { node: true, .. }) => Hostile::WhenEmpty,
                Some(_) => Hostile::Always,
            },
            // The kinds of `only` are looked up once the kinds are checked
            // (`resolve_only`).
            only: Vec::new(),
            closed: decl.only.as_ref().is_some_and(|(_, closed)| *closed),
        });
        zones.spans.push(decl.name.span);
    }
    zones
}

/// Looks up the kinds of each zone's `only KIND ...` (once the kinds are
/// checked); an unknown kind is an error.
pub fn resolve_only(
    merged: &Merged,
    zones: &mut Zones,
    lookup: impl Fn(&Name, &mut Vec<Diagnostic>) -> Option<KindId>,
    diags: &mut Vec<Diagnostic>,
) {
    for (decl, zone) in merged.zones.iter().zip(zones.list.iter_mut()) {
        let Some((kinds, _)) = &decl.only else {
            continue;
        };
        for name in kinds {
            if let Some(k) = lookup(name, diags) {
                if !zone.only.contains(&k) {
                    zone.only.push(k);
                }
            }
        }
    }
}

/// The squares of one zone, per side.
fn zone_squares(
    decl: &ZoneDecl,
    board: &Board,
    sides: &Sides,
    diags: &mut Vec<Diagnostic>,
) -> Vec<SquareSet> {
    let n = board.squares.len();
    let mut per_side = vec![SquareSet::with_capacity(n); sides.list.len()];
    match &decl.body {
        ZoneBody::Shared(list) => {
            let set = square_set(list, board, diags);
            for s in &mut per_side {
                *s = set.clone();
            }
        }
        ZoneBody::PerSide(lists) => {
            let mut seen: Vec<(usize, Span)> = Vec::new();
            for (side, list) in lists {
                let set = square_set(list, board, diags);
                let Some(id) = sides.lookup(side, diags) else {
                    continue;
                };
                let i = usize::from(id.0);
                if let Some((_, first)) = seen.iter().find(|(s, _)| *s == i) {
                    diags.push(super::merge::duplicate(
                        &format!(
                            "the squares of side `{}` in zone `{}`",
                            side.node, decl.name.node
                        ),
                        side.span,
                        *first,
                    ));
                    continue;
                }
                seen.push((i, side.span));
                if let Some(slot) = per_side.get_mut(i) {
                    *slot = set;
                }
            }
        }
        ZoneBody::Ranks { from, to } => {
            let mut reported = false;
            for (i, side) in sides.list.iter().enumerate() {
                let Some((lo, hi)) =
                    rank_range(from, to, side.forward, board, &mut reported, diags)
                else {
                    continue;
                };
                if let Some(slot) = per_side.get_mut(i) {
                    for sq in &board.squares {
                        // Rank r counted from the side's own edge, 1-based.
                        let r = match side.forward {
                            (0, 1) => u32::from(sq.rank) + 1,
                            (0, _) => u32::from(board.height) - u32::from(sq.rank),
                            (1, _) => u32::from(sq.file) + 1,
                            _ => u32::from(board.width) - u32::from(sq.file),
                        };
                        if (lo..=hi).contains(&r) {
                            if let Some(id) = board.at(u32::from(sq.file), u32::from(sq.rank)) {
                                slot.insert(id);
                            }
                        }
                    }
                }
            }
        }
    }
    per_side
}

/// A list of squares; squares that are not playable are warned about and
/// left out.
fn square_set(
    list: &[Spanned<SquareRef>],
    board: &Board,
    diags: &mut Vec<Diagnostic>,
) -> SquareSet {
    let mut set = SquareSet::with_capacity(board.squares.len());
    for square in list {
        match board.resolve(square.node) {
            Ok(sq) => set.insert(sq),
            Err(problem) => diags.push(board.problem(square, problem, Code::ZoneNotPlayable)),
        }
    }
    set
}

/// The 1-based rank range of a pattern for a side, or `None` (reported once
/// per zone) when it does not fit the board.
fn rank_range(
    from: &Spanned<RankNumber>,
    to: &Spanned<RankNumber>,
    forward: (i8, i8),
    board: &Board,
    reported: &mut bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<(u32, u32)> {
    let (last, unit) = if forward.0 == 0 {
        (u32::from(board.height), "ranks")
    } else {
        (u32::from(board.width), "files")
    };
    let value = |n: &RankNumber| match n {
        RankNumber::Number(n) => *n,
        RankNumber::Last => last,
    };
    let (lo, hi) = (value(&from.node), value(&to.node));
    let problem = if lo == 0 || hi == 0 {
        let at = if lo == 0 { from.span } else { to.span };
        Some((
            at,
            "there is no rank 0".to_string(),
            "ranks are counted from 1".to_string(),
            "rank 1 is each side's own first rank".to_string(),
        ))
    } else if lo > hi {
        Some((
            from.span.to(to.span),
            format!("the rank range {lo}-{hi} is reversed"),
            "the first rank is after the last".to_string(),
            format!("write the lower rank first: `ranks {hi}-{lo}`"),
        ))
    } else if hi > last {
        let at = if lo > last { from.span } else { to.span };
        Some((
            at,
            format!(
                "rank {} is beyond the board",
                if lo > last { lo } else { hi }
            ),
            format!("the board has {last} {unit} for this side"),
            "use a rank from 1 to `last`".to_string(),
        ))
    } else {
        None
    };
    match problem {
        None => Some((lo, hi)),
        Some((span, message, label, help)) => {
            if !*reported {
                *reported = true;
                diags.push(
                    Diagnostic::new(Code::RankRange, message)
                        .primary(span, label)
                        .help(help),
                );
            }
            None
        }
    }
}
