//! Capture rules, triggers and the end of the game.

use super::directions::Directions;
use super::merge::Merged;
use super::pieces::Kinds;
use super::sides::Sides;
use super::zones::Zones;
use crate::ast::{CriterionDecl, Effect, EndCondition as AstEnd, Event};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;
use crate::vocab::board::{
    event, Board, CaptureChoice, CaptureRules, Counter, Criterion, EndCondition, EndRule, EndRules,
    JumpEffect, KindId, LongLanding, MidChainCrown, PlaceRule, Placing, SideId, Sq, Trigger,
    TriggerAction, MAX_HAND,
};
use crate::vocab::{Elimination, Verdict};

/// Checks the squares with powers and the kinds with conditions: hostile
/// squares, `captured surrounded` and `unarmed` need `capture custodian`;
/// a hostile edge needs a kind captured surrounded;
/// an unarmed kind has no capturing moves; squares only some kinds may
/// stop on are not combined with long jumps of the other kinds.
pub fn check_square_powers(
    merged: &Merged,
    kinds: &Kinds,
    zones: &Zones,
    diags: &mut Vec<Diagnostic>,
) {
    let custodian = merged.custodian.is_some();
    let needs =
        "add `capture custodian orthogonal` (enemies enclosed along a rank or file are taken)";
    for decl in &merged.zones {
        if let (Some(h), false) = (&decl.hostile, custodian) {
            diags.push(
                Diagnostic::new(
                    Code::EffectMisplaced,
                    format!(
                        "zone `{}` is hostile, but the game has no `capture custodian`",
                        decl.name.node
                    ),
                )
                .primary(
                    h.span,
                    "a hostile square only counts when a piece is enclosed",
                )
                .help(format!("{needs}, or remove `hostile`")),
            );
        }
    }
    for kind in &kinds.list {
        if let (Some((_, at)), false) = (&kind.surrounded, custodian) {
            diags.push(
                Diagnostic::new(
                    Code::EffectMisplaced,
                    format!(
                        "piece `{}` is captured only when surrounded, but the game has no `capture custodian`",
                        kind.id
                    ),
                )
                .primary(*at, "surrounding is a custodian capture")
                .help(format!("{needs}, or remove this line")),
            );
        }
        let Some(at) = kind.unarmed else {
            continue;
        };
        if !custodian {
            diags.push(
                Diagnostic::new(
                    Code::EffectMisplaced,
                    format!(
                        "piece `{}` is unarmed, but the game has no `capture custodian`",
                        kind.id
                    ),
                )
                .primary(at, "`unarmed` only keeps a piece out of enclosures")
                .help(format!("{needs}, or remove `unarmed`")),
            );
        }
        let captures = kind.moves.iter().any(|m| {
            !m.short_jump.is_empty()
                || !m.long_jump.is_empty()
                || !m.step_capture.is_empty()
                || !m.slide_capture.is_empty()
        });
        if captures {
            diags.push(
                Diagnostic::new(
                    Code::EffectMisplaced,
                    format!("piece `{}` is unarmed but has capturing moves", kind.id),
                )
                .primary(at, "an unarmed piece takes no part in capturing")
                .help("remove `unarmed`, or its jumps and `captures` lines"),
            );
        }
    }
    if let Some((true, at)) = merged.edge {
        if kinds.list.iter().all(|k| k.surrounded.is_none()) {
            diags.push(
                Diagnostic::new(
                    Code::EffectMisplaced,
                    "the board's edge is hostile, but no piece is captured surrounded",
                )
                .primary(
                    at,
                    "the edge only closes the surrounding of a piece captured surrounded",
                )
                .help(format!(
                    "add `captured surrounded` to a piece (it is then taken only when enclosed on all sides){}, or remove this statement",
                    if custodian { "" } else { " and `capture custodian orthogonal`" }
                )),
            );
        }
    }
    for (decl, zone) in merged.zones.iter().zip(&zones.list) {
        let Some((names, _)) = &decl.only else {
            continue;
        };
        let jumper = kinds.list.iter().enumerate().find(|(k, kind)| {
            u8::try_from(*k).is_ok_and(|k| !zone.only.contains(&KindId(k)))
                && kind.moves.iter().any(|m| !m.long_jump.is_empty())
        });
        if let (Some((_, kind)), Some(first)) = (jumper, names.first()) {
            diags.push(
                Diagnostic::new(
                    Code::EffectMisplaced,
                    format!(
                        "zone `{}` is for some kinds only, but piece `{}` jumps long",
                        decl.name.node, kind.id
                    ),
                )
                .primary(first.span, "squares only some kinds may stop on")
                .secondary(kind.span, "this piece has a long jump")
                .help("list the kind after `only`, or give it short jumps: a long jump's landings are not limited by kind"),
            );
        }
    }
}

/// Checks the capture settings.
pub fn check_capture(merged: &Merged, kinds: &Kinds, diags: &mut Vec<Diagnostic>) -> CaptureRules {
    let effect = match &merged.effect {
        None | Some(Effect::RemoveAtOnce) => JumpEffect::RemoveAtOnce,
        Some(Effect::RemoveAtEnd) => JumpEffect::RemoveAtEnd,
        Some(Effect::Stack) => JumpEffect::Stack,
        Some(Effect::Convert(kind)) => match kinds.lookup(kind, diags) {
            Some(k) => JumpEffect::Convert(k),
            None => JumpEffect::RemoveAtOnce,
        },
    };
    let criteria = match (&merged.precedence, merged.most) {
        (Some((list, _)), _) => check_criteria(list, kinds, diags),
        (None, Some(true)) => vec![Criterion::MostPieces],
        _ => Vec::new(),
    };
    CaptureRules {
        compulsory: merged.compulsory.unwrap_or(false),
        choice: match criteria.as_slice() {
            [] => CaptureChoice::Free,
            [Criterion::MostPieces] => CaptureChoice::Most,
            _ => CaptureChoice::Criteria,
        },
        criteria,
        custodian: None,
        neighbours: Vec::new(),
        effect,
        must_continue: merged.must_continue.unwrap_or(true),
        mid_chain: merged.crown.unwrap_or(MidChainCrown::Stay),
        long_landing: merged.long_landing.unwrap_or(LongLanding::Any),
    }
}

/// Checks the criteria of `capture precedence`: kinds known, and a warning
/// for a criterion that can never tell two captures apart.
fn check_criteria(
    list: &[crate::ast::Spanned<CriterionDecl>],
    kinds: &Kinds,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Criterion> {
    let mut out: Vec<Criterion> = Vec::new();
    let captures = |k: crate::vocab::board::KindId| {
        kinds.list.get(usize::from(k.0)).is_some_and(|kind| {
            kind.moves.iter().any(|m| {
                !m.short_jump.is_empty()
                    || !m.long_jump.is_empty()
                    || !m.step_capture.is_empty()
                    || !m.slide_capture.is_empty()
            })
        })
    };
    let capturable = |k: crate::vocab::board::KindId| {
        kinds.list.get(usize::from(k.0)).is_some_and(|kind| {
            (0..kinds.list.len()).any(|a| {
                a.try_into()
                    .map(crate::vocab::board::KindId)
                    .is_ok_and(|a| captures(a) && !kind.immune_to.contains(&a))
            })
        })
    };
    for c in list {
        let criterion = match &c.node {
            CriterionDecl::MostPieces => Some(Criterion::MostPieces),
            CriterionDecl::MostValue => Some(Criterion::MostValue),
            CriterionDecl::MostOf(k) => kinds.lookup(k, diags).map(Criterion::MostOf),
            CriterionDecl::FewestOf(k) => kinds.lookup(k, diags).map(Criterion::FewestOf),
            CriterionDecl::By(k) => kinds.lookup(k, diags).map(Criterion::By),
            CriterionDecl::EarliestOf(k) => kinds.lookup(k, diags).map(Criterion::EarliestOf),
        };
        let Some(criterion) = criterion else {
            continue;
        };
        let kind_name = |k: crate::vocab::board::KindId| {
            kinds
                .list
                .get(usize::from(k.0))
                .map_or_else(String::new, |kind| kind.id.clone())
        };
        let why = if out.contains(&criterion) {
            Some(
                "an earlier criterion is the same: every capture left is equal under it"
                    .to_string(),
            )
        } else {
            match criterion {
                Criterion::By(k) if !captures(k) => Some(format!(
                    "a `{}` has no capturing move: no capture is made by one",
                    kind_name(k)
                )),
                Criterion::MostOf(k) | Criterion::FewestOf(k) | Criterion::EarliestOf(k)
                    if !capturable(k) =>
                {
                    Some(format!(
                        "no piece can capture a `{}`: every capture takes none",
                        kind_name(k)
                    ))
                }
                _ => None,
            }
        };
        if let Some(why) = why {
            diags.push(
                Diagnostic::new(
                    Code::NeverDecides,
                    "this criterion can never decide between captures",
                )
                .primary(c.span, why)
                .help("remove it, or name a criterion that tells captures apart"),
            );
        }
        out.push(criterion);
    }
    out
}

/// `most value` after `most pieces` when every kind has the same value can
/// never decide: warns. `weights` are the kinds' values in thousandths.
pub fn check_value_criterion(
    merged: &Merged,
    criteria: &[Criterion],
    weights: &[u64],
    diags: &mut Vec<Diagnostic>,
) {
    let Some((list, _)) = &merged.precedence else {
        return;
    };
    let same = weights.windows(2).all(|w| w[0] == w[1]);
    let most_pieces = criteria.iter().position(|c| *c == Criterion::MostPieces);
    let most_value = criteria.iter().position(|c| *c == Criterion::MostValue);
    if let (true, Some(p), Some(v)) = (same, most_pieces, most_value) {
        if p < v {
            if let Some(c) = list
                .iter()
                .find(|c| matches!(c.node, CriterionDecl::MostValue))
            {
                diags.push(
                    Diagnostic::new(
                        Code::NeverDecides,
                        "this criterion can never decide between captures",
                    )
                    .primary(c.span, "every kind has the same value, so the most pieces are already the most value")
                    .help("give the kinds different values with `value N`, or remove it"),
                );
            }
        }
    }
}

/// `capture custodian` checked.
#[derive(Clone, Debug)]
pub struct CustodianVectors {
    /// Per side, the vectors along which enemies are enclosed.
    pub per_side: Vec<Vec<(i8, i8)>>,
    /// A run of several enemies counts.
    pub multiple: bool,
    /// An enemy on a corner is enclosed against the edges.
    pub corners: bool,
    /// The board's edge closes the surrounding of a piece captured
    /// surrounded (`capture edge hostile`).
    pub edge: bool,
}

/// Checks `capture custodian`: its directions, per side, and whether a run
/// of several enemies counts.
pub fn check_custodian(
    merged: &Merged,
    sides: &Sides,
    directions: &Directions<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<CustodianVectors> {
    let decl = merged.custodian.as_ref()?;
    directions.check(&decl.dirs, diags);
    let per_side = sides
        .list
        .iter()
        .map(|s| directions.resolve(&decl.dirs, s.forward))
        .collect();
    Some(CustodianVectors {
        per_side,
        multiple: decl.multiple,
        corners: decl.corners,
        edge: merged.edge.is_some_and(|(hostile, _)| hostile),
    })
}

/// Checks `capture neighbours`: its directions, per side.
pub fn check_neighbours(
    merged: &Merged,
    sides: &Sides,
    directions: &Directions<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Vec<(i8, i8)>>> {
    let (dirs, _) = merged.neighbours.as_ref()?;
    directions.check(dirs, diags);
    Some(
        sides
            .list
            .iter()
            .map(|s| directions.resolve(dirs, s.forward))
            .collect(),
    )
}

/// The first `clone` of a step line, where one is written.
pub fn first_clone(merged: &Merged) -> Option<Span> {
    merged
        .pieces
        .iter()
        .flat_map(|p| &p.lines)
        .find_map(|l| match &l.node {
            crate::ast::PieceLine::Move(_, _, r, _) if r.node == crate::ast::Replacement::Clone => {
                Some(r.span)
            }
            _ => None,
        })
}

/// Checks placing from a hand: the `hand` statements and the kind with a
/// `place` line go together (one kind at most is placed), a placement
/// that must enclose needs `capture custodian`, and each hand holds 1 to
/// `MAX_HAND` pieces or is `unlimited`.
pub fn check_placing(
    merged: &Merged,
    sides: &Sides,
    kinds: &Kinds,
    setup: &[(Sq, SideId, KindId)],
    diags: &mut Vec<Diagnostic>,
) -> Option<Placing> {
    let placed: Vec<(usize, PlaceRule, Span)> = kinds
        .list
        .iter()
        .enumerate()
        .filter_map(|(i, k)| k.place.map(|(rule, span)| (i, rule, span)))
        .collect();
    let mut hand: Vec<Option<Option<u16>>> = vec![None; sides.list.len()];
    let mut wrong = false;
    for (side, count, _) in &merged.hands {
        let value = match count {
            None => Some(None),
            Some(n) if n.node == 0 || n.node > MAX_HAND => {
                wrong = true;
                diags.push(
                    Diagnostic::new(
                        Code::CountRange,
                        format!("a hand of {} pieces can't be played", n.node),
                    )
                    .primary(n.span, format!("a hand holds 1 to {MAX_HAND} pieces"))
                    .help("give the pieces a side may place, or write `hand unlimited`"),
                );
                None
            }
            Some(n) => u16::try_from(n.node).ok().map(Some),
        };
        let Some(value) = value else { continue };
        match side {
            None => {
                for h in hand.iter_mut() {
                    *h = Some(value);
                }
            }
            Some(name) => match sides.lookup(name, diags) {
                Some(id) => {
                    if let Some(h) = hand.get_mut(usize::from(id.0)) {
                        *h = Some(value);
                    }
                }
                None => wrong = true,
            },
        }
    }
    if wrong {
        // Said already; a side left without a hand may be why.
        return None;
    }
    let first_hand = merged.hands.first().map(|h| h.2);
    if let Some((_, _, second)) = placed.get(1) {
        let first = placed.first().map_or(*second, |p| p.2);
        diags.push(
            Diagnostic::new(
                Code::EffectMisplaced,
                "two kinds of piece are placed from the hand",
            )
            .primary(*second, "a second `place` line")
            .secondary(first, "the first kind placed")
            .help("a hand holds pieces of one kind: keep one `place` line"),
        );
        return None;
    }
    let Some(&(kind, rule, span)) = placed.first() else {
        if let Some(at) = first_hand {
            diags.push(
                Diagnostic::new(Code::EffectMisplaced, "a hand, but no piece is placed")
                    .primary(at, "nothing takes pieces from this hand")
                    .help("add `place` to the piece that is placed, such as `piece disc \"Disc\" { place }`"),
            );
        }
        return None;
    };
    let kind_name = kinds.list.get(kind).map_or("", |k| k.id.as_str());
    let Some(at) = first_hand else {
        diags.push(
            Diagnostic::new(
                Code::EffectMisplaced,
                format!("piece `{kind_name}` is placed, but no side has a hand"),
            )
            .primary(span, "a placement with no hand")
            .help("say how many pieces each side holds: `hand 30`, or `hand unlimited`"),
        );
        return None;
    };
    if let Some(missing) = hand.iter().position(Option::is_none) {
        let side = sides.list.get(missing).map_or("", |s| s.id.as_str());
        diags.push(
            Diagnostic::new(Code::EffectMisplaced, format!("side `{side}` has no hand"))
                .primary(at, "the hands are given for the other sides only")
                .help(format!(
                    "add `hand {side} N` (or `hand unlimited` for every side)"
                )),
        );
        return None;
    }
    if rule == PlaceRule::Enclosing && merged.custodian.is_none() {
        diags.push(
            Diagnostic::new(
                Code::EffectMisplaced,
                "a placed piece must enclose a line, but the game has no `capture custodian`",
            )
            .primary(span, "nothing says what encloses")
            .help("add `capture custodian any multiple` (with `capture converts to KIND` to win the lines over), or write `place anywhere`"),
        );
        return None;
    }
    if let Some(clone) = first_clone(merged) {
        diags.push(
            Diagnostic::new(
                Code::EffectMisplaced,
                "a game that places pieces from a hand can't also copy them by `clone`",
            )
            .primary(clone, "a step that leaves a copy behind")
            .secondary(span, "pieces are placed from the hand")
            .help("a copy is itself a new piece on an empty square: keep the `place` line or the `clone` steps"),
        );
        return None;
    }
    let next_to = kinds
        .list
        .get(kind)
        .map(|k| k.place_next.clone())
        .unwrap_or_default();
    if rule == PlaceRule::NextToOwn {
        // Nothing but a placement brings a piece of a side onto the board,
        // and it must go next to one already there.
        for (i, s) in sides.list.iter().enumerate() {
            if !setup.iter().any(|(_, side, _)| usize::from(side.0) == i) {
                diags.push(
                    Diagnostic::new(
                        Code::RuleNeverApplies,
                        format!("side `{}` starts with no piece, so it can never place one next to its own", s.id),
                    )
                    .primary(span, "a placement only next to a piece of the side placing")
                    .help(format!(
                        "set up a piece of `{}` to start from, or write `place anywhere`",
                        s.id
                    )),
                );
            }
        }
    }
    Some(Placing {
        kind: KindId(u8::try_from(kind).ok()?),
        rule,
        hand: hand.into_iter().map(Option::flatten).collect(),
        next_to,
    })
}

/// Checks the `on end at` triggers.
pub fn check_triggers(
    merged: &Merged,
    kinds: &Kinds,
    zones: &Zones,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Trigger> {
    let mut triggers = Vec::new();
    for (zone, kind, span) in &merged.triggers {
        let z = zones.lookup_ref(zone, diags);
        let k = kinds.lookup(kind, diags);
        if let (Some(z), Some(k)) = (z, k) {
            triggers.push(Trigger {
                zone: z,
                whose: zone.whose,
                action: TriggerAction::Convert(k),
                span: *span,
            });
        }
    }
    triggers
}

/// What `end line` rules are checked against: the board (a line no longer
/// than its longest row), the sides and the directions (each side's own).
#[derive(Clone, Copy)]
pub struct LineContext<'a, 'd> {
    /// The board, when it checked.
    pub board: Option<&'a Board>,
    /// The sides.
    pub sides: Option<&'a Sides>,
    /// The directions.
    pub directions: Option<&'a Directions<'d>>,
}

/// Checks the end rules: each condition and its outcome, in the order
/// written, with the rule every game has last (a side that can't move loses)
/// when no `end no-moves` is given.
pub fn check_end(
    merged: &Merged,
    kinds: &Kinds,
    zones: &Zones,
    sides: usize,
    setup: &[(Sq, SideId, KindId)],
    lines: LineContext<'_, '_>,
    diags: &mut Vec<Diagnostic>,
) -> EndRules {
    let LineContext {
        board,
        sides: side_list,
        directions,
    } = lines;
    if merged.ends.is_empty() && merged.loser.is_none() {
        let mut d = Diagnostic::new(Code::NoEnd, "the game has no end condition")
            .help("add an `end` statement, such as `end no-moves lose`");
        if let Some(anchor) = merged.anchor {
            d = d.primary(anchor, "nothing says how this game ends");
        }
        diags.push(d);
    }
    let loser = match &merged.loser {
        Some(l) => {
            if sides <= 2 {
                diags.push(
                    Diagnostic::new(
                        Code::EndNeverDecides,
                        "`end loser` has no effect with two sides",
                    )
                    .primary(
                        l.span,
                        "only a game of three sides or more has others to play on",
                    )
                    .help("remove it, or add sides"),
                );
            }
            l.node
        }
        None => Elimination::DropOut,
    };
    let drop_out = sides > 2 && loser == Elimination::DropOut;
    let mut rules: Vec<EndRule> = Vec::new();
    for (condition, verdict, span) in &merged.ends {
        if verdict.node == Verdict::Pass && !matches!(condition, AstEnd::NoMoves) {
            diags.push(
                Diagnostic::new(
                    Code::OutcomeNotAllowed,
                    format!("`end {}` can't be `pass`", condition.key()),
                )
                .primary(verdict.span, "only a side that can't move passes")
                .help("write `win`, `lose` or `draw`; `pass` goes with `end no-moves`"),
            );
            continue;
        }
        let compiled = match condition {
            AstEnd::NoPieces => {
                if drop_out && verdict.node != Verdict::Lose {
                    diags.push(
                        Diagnostic::new(
                            Code::OutcomeNotAllowed,
                            format!(
                                "with {sides} sides whose losers drop out, `end no-pieces` can only be `lose`"
                            ),
                        )
                        .primary(verdict.span, "a side that dropped out has no pieces either")
                        .help("write `end no-pieces lose`, or add `end loser ends-game`"),
                    );
                    continue;
                }
                EndCondition::NoPieces
            }
            AstEnd::NoMoves => EndCondition::NoMoves,
            AstEnd::MostPieces => EndCondition::MostPieces,
            AstEnd::Line {
                length,
                exact,
                dirs,
            } => {
                let longest = board.map_or(u32::MAX, |b| u32::from(b.width.max(b.height)));
                if length.node < 2 || length.node > longest {
                    let (what, help) = if length.node < 2 {
                        (
                            format!("a line of {} is too short", length.node),
                            "a line is at least 2 pieces, such as `end line 5 win`".to_string(),
                        )
                    } else {
                        (
                            format!("a line of {} pieces is longer than the board", length.node),
                            format!("the board's longest row is {longest} squares: give a length up to {longest}"),
                        )
                    };
                    let label = if length.node < 2 {
                        "a line is two pieces or more"
                    } else {
                        "no line this long can stand on the board"
                    };
                    let mut d = Diagnostic::new(Code::CountRange, what)
                        .primary(length.span, label)
                        .help(help);
                    if let (true, Some((w, h))) = (length.node > longest, &merged.board) {
                        // The board may be set in another file (a variant
                        // of a smaller board): say where.
                        d = d.secondary(
                            w.span.to(h.span),
                            format!("the board is {} x {}", w.node, h.node),
                        );
                    }
                    diags.push(d);
                    continue;
                }
                let dirs_per_side = match (dirs.is_empty(), directions) {
                    (true, _) | (_, None) => {
                        let all: Vec<(i8, i8)> = vec![
                            (0, 1),
                            (1, 1),
                            (1, 0),
                            (1, -1),
                            (0, -1),
                            (-1, -1),
                            (-1, 0),
                            (-1, 1),
                        ];
                        vec![all; side_list.map_or(sides, |s| s.list.len())]
                    }
                    (false, Some(d)) => {
                        d.check(dirs, diags);
                        side_list.map_or_else(Vec::new, |s| {
                            s.list
                                .iter()
                                .map(|side| d.resolve(dirs, side.forward))
                                .collect()
                        })
                    }
                };
                EndCondition::Line {
                    length: length.node,
                    exact: *exact,
                    dirs: dirs_per_side,
                }
            }
            AstEnd::Repetition(n) => {
                if n.node < 2 {
                    diags.push(
                        Diagnostic::new(
                            Code::CountRange,
                            format!("a repetition count of {} can't be reached", n.node),
                        )
                        .primary(
                            n.span,
                            "a position occurs at least once, so this is at least 2",
                        )
                        .help("the usual rule is `end repetition 3 draw`"),
                    );
                    continue;
                }
                EndCondition::Repetition(n.node)
            }
            AstEnd::Without { plies, events } => {
                if plies.node == 0 {
                    diags.push(
                        Diagnostic::new(
                            Code::CountRange,
                            "a draw after 0 plies ends every game at once",
                        )
                        .primary(plies.span, "at least 1")
                        .help("count the plies (single moves) of the draw rule, such as 40"),
                    );
                }
                let mut counter = Counter {
                    plies: plies.node,
                    reset: 0,
                    reset_move_of: 0,
                };
                for e in events {
                    match &e.node {
                        Event::Capture => counter.reset |= event::CAPTURE,
                        Event::Conversion => counter.reset |= event::CONVERSION,
                        Event::Promotion => counter.reset |= event::PROMOTION,
                        Event::MoveOf(kind) => {
                            if let Some(k) = kinds.lookup(kind, diags) {
                                counter.reset_move_of |= 1u32 << k.0.min(31);
                            }
                        }
                    }
                }
                EndCondition::Without(counter)
            }
            AstEnd::Reach { zone, kind } => {
                let z = zones.lookup_ref(zone, diags);
                let k = match kind {
                    Some(k) => kinds.lookup(k, diags).map(Some),
                    None => Some(None),
                };
                let (Some(z), Some(k)) = (z, k) else { continue };
                EndCondition::Reach {
                    zone: z,
                    whose: zone.whose,
                    kind: k,
                }
            }
            AstEnd::Captured(name) => {
                let Some(k) = kinds.lookup(name, diags) else {
                    continue;
                };
                if !setup.iter().any(|p| p.2 == k) {
                    diags.push(
                        Diagnostic::new(
                            Code::EndNeverDecides,
                            format!("`end captured {}` can never decide the game", name.node),
                        )
                        .primary(name.span, "no side starts with a piece of this kind")
                        .help(format!(
                            "the rule concerns a side that had a `{}` at the start and has none left: set one up, or name a kind that is set up",
                            name.node
                        )),
                    );
                }
                EndCondition::Captured(k)
            }
            AstEnd::ReducedTo(n) => {
                let fewest = (0..sides)
                    .map(|s| setup.iter().filter(|p| usize::from(p.1 .0) == s).count())
                    .min()
                    .unwrap_or(0);
                if sides > 0 && usize::try_from(n.node).map_or(true, |n| n >= fewest) {
                    diags.push(
                        Diagnostic::new(
                            Code::CountRange,
                            format!(
                                "`reduced-to {}` holds before the first move: a side starts with {fewest} pieces",
                                n.node
                            ),
                        )
                        .primary(n.span, "every game would end at once")
                        .help(format!(
                            "count the pieces a side is left with, fewer than {fewest}, such as `reduced-to 1`"
                        )),
                    );
                    continue;
                }
                EndCondition::ReducedTo(n.node)
            }
        };
        if let Some(earlier) = shadowed_by(&rules, &compiled, merged, sides) {
            let mut d = Diagnostic::new(
                Code::EndNeverDecides,
                format!("`end {}` can never decide the game", condition.key()),
            )
            .primary(*span, "whenever this holds, an earlier rule holds too");
            if let Some(at) = earlier.span {
                d = d.secondary(at, "this rule is written first, so it decides");
            }
            diags.push(d.help("when several end rules hold at once the first one written decides: move this rule up, or remove it"));
        }
        rules.push(EndRule {
            condition: compiled,
            verdict: verdict.node,
            span: Some(*span),
        });
    }
    if !rules
        .iter()
        .any(|r| matches!(r.condition, EndCondition::NoMoves))
    {
        rules.push(EndRule {
            condition: EndCondition::NoMoves,
            verdict: Verdict::Lose,
            span: None,
        });
    }
    EndRules { rules, loser }
}

/// The earlier rule that holds whenever `rule` holds, for the same side, so
/// that `rule` never decides: a side with no pieces has no more than N; a
/// piece of a kind on a zone is a piece on it; and, when a side can lose
/// pieces only on the other's move (captures remove, no zone converts), a
/// side with no pieces is the side to move, which can't move.
fn shadowed_by<'r>(
    rules: &'r [EndRule],
    rule: &EndCondition,
    merged: &Merged,
    sides: usize,
) -> Option<&'r EndRule> {
    rules.iter().find(|r| match (&r.condition, rule) {
        (EndCondition::ReducedTo(_), EndCondition::NoPieces) => true,
        (
            EndCondition::Reach {
                zone: z1,
                whose: w1,
                kind: None,
            },
            EndCondition::Reach {
                zone: z2,
                whose: w2,
                kind: Some(_),
            },
        ) => z1 == z2 && w1 == w2,
        (EndCondition::NoMoves, EndCondition::NoPieces) => {
            sides == 2
                && merged.triggers.is_empty()
                && !matches!(merged.effect, Some(Effect::Convert(_)))
        }
        _ => false,
    })
}
