//! Piece kinds: letters, moves, promotion, immunity, value.

use super::directions::Directions;
use super::merge::{duplicate, Merged};
use super::sides::{default_letter, Sides};
use super::zones::Zones;
use crate::ast::{MoveKind, Name, PieceLine, Replacement};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;
use crate::suggest::unknown_help;
use crate::vocab::board::{KindId, PlaceRule, Whose, ZoneId};
use crate::vocab::limit;

/// The most piece kinds a game may have (kinds are bits of a `u32`).
pub const MAX_KINDS: usize = 32;

/// The most distinct direction vectors a game may have (`DirId` is a `u8`).
pub const MAX_DIRECTIONS: usize = 256;

/// The moves of a kind for one side, as vectors.
#[derive(Clone, Debug, Default)]
pub struct VectorMoves {
    /// `step`
    pub step: Vec<(i8, i8)>,
    /// `slide`
    pub slide: Vec<(i8, i8)>,
    /// `jump short`
    pub short_jump: Vec<(i8, i8)>,
    /// `jump long`
    pub long_jump: Vec<(i8, i8)>,
    /// `hop`: over an own piece, capturing nothing.
    pub hop: Vec<(i8, i8)>,
    /// Steps that may end on an enemy, capturing it (`captures`).
    pub step_capture: Vec<(i8, i8)>,
    /// Steps that leave the piece where it is and put a copy of it on the
    /// empty square (`clone`).
    pub clone: Vec<(i8, i8)>,
    /// Slides that may end on an enemy, capturing it.
    pub slide_capture: Vec<(i8, i8)>,
    /// The limits (bits of `vocab::limit`) of the jumps along each vector.
    pub limits: Vec<((i8, i8), u8)>,
}

/// A checked piece kind.
#[derive(Clone, Debug)]
pub struct Kind {
    /// Identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Letter.
    pub letter: char,
    /// Where it is declared.
    pub span: Span,
    /// Moves per side.
    pub moves: Vec<VectorMoves>,
    /// `promote KIND at ZONE`
    pub promotion: Option<(KindId, ZoneId, Whose)>,
    /// Kinds that may not capture it.
    pub immune_to: Vec<KindId>,
    /// `value N`, if given, in thousandths.
    pub value: Option<u64>,
    /// `place [anywhere|enclosing|next-to own DIRS]`, with the line's span.
    pub place: Option<(PlaceRule, Span)>,
    /// `place next-to own DIRS`: the direction vectors, every side's
    /// joined (empty for the other placements).
    pub place_next: Vec<(i8, i8)>,
    /// `captured surrounded [at ZONE]`: the zone (None: everywhere), with
    /// the line's span.
    pub surrounded: Option<(Option<(ZoneId, Whose)>, Span)>,
    /// `unarmed`, with the line's span.
    pub unarmed: Option<Span>,
}

/// The checked kinds.
#[derive(Clone, Debug, Default)]
pub struct Kinds {
    /// In declaration order.
    pub list: Vec<Kind>,
}

impl Kinds {
    /// A kind by identifier, or an "unknown kind" diagnostic.
    pub fn lookup(&self, name: &Name, diags: &mut Vec<Diagnostic>) -> Option<KindId> {
        let found = self
            .list
            .iter()
            .position(|k| k.id == name.node)
            .and_then(|i| u8::try_from(i).ok())
            .map(KindId);
        if found.is_none() {
            diags.push(
                Diagnostic::new(
                    Code::UnknownKind,
                    format!("unknown piece kind `{}`", name.node),
                )
                .primary(name.span, "no piece of this name")
                .help(unknown_help(
                    &name.node,
                    self.list.iter().map(|k| k.id.as_str()),
                    "declare it with `piece`",
                )),
            );
        }
        found
    }
}

/// Checks the pieces.
pub fn check_pieces(
    merged: &Merged,
    sides: &Sides,
    directions: &Directions<'_>,
    zones: &Zones,
    diags: &mut Vec<Diagnostic>,
) -> Kinds {
    let mut kinds = Kinds::default();
    if let Some(extra) = merged.pieces.get(MAX_KINDS) {
        diags.push(
            Diagnostic::new(
                Code::TooMany,
                format!(
                    "the game has {} piece kinds, more than {MAX_KINDS}",
                    merged.pieces.len()
                ),
            )
            .primary(extra.id.span, "one kind too many")
            .help(format!("a game has at most {MAX_KINDS} piece kinds")),
        );
    }
    let pieces: Vec<_> = merged.pieces.iter().take(MAX_KINDS).collect();
    for (i, piece) in pieces.iter().enumerate() {
        let letter = piece
            .letter
            .as_ref()
            .map(|l| l.node)
            .unwrap_or_else(|| default_letter(&piece.id.node));
        // Kind 0 is written without a letter; the others must differ.
        if i > 0 {
            if let Some(other) = kinds.list.iter().skip(1).find(|k| k.letter == letter) {
                let at = piece.letter.as_ref().map_or(piece.id.span, |l| l.span);
                diags.push(
                    Diagnostic::new(
                        Code::DuplicateLetter,
                        format!(
                            "pieces `{}` and `{}` have the same letter `{letter}`",
                            other.id, piece.id.node
                        ),
                    )
                    .primary(at, format!("letter `{letter}`"))
                    .secondary(other.span, "the other piece")
                    .help("give one of them another letter with `letter L`"),
                );
            }
        }
        kinds.list.push(Kind {
            id: piece.id.node.clone(),
            name: piece.name.node.clone(),
            letter,
            span: piece.id.span,
            moves: vec![VectorMoves::default(); sides.list.len()],
            promotion: None,
            immune_to: Vec::new(),
            value: None,
            place: None,
            place_next: Vec::new(),
            surrounded: None,
            unarmed: None,
        });
    }
    let mut distinct: Vec<(i8, i8)> = Vec::new();
    let mut too_many_dirs = false;
    for (i, piece) in pieces.iter().enumerate() {
        let mut moves = vec![VectorMoves::default(); sides.list.len()];
        let mut has_moves = false;
        let mut promotion = None;
        let mut promote_span: Option<Span> = None;
        let mut value_span: Option<Span> = None;
        let mut value = None;
        let mut immune_to = Vec::new();
        let mut place: Option<(PlaceRule, Span)> = None;
        let mut place_next: Vec<(i8, i8)> = Vec::new();
        let mut surrounded: Option<(Option<(ZoneId, Whose)>, Span)> = None;
        let mut unarmed: Option<Span> = None;
        for line in &piece.lines {
            match &line.node {
                PieceLine::Move(kind, dirs, replacement, limits) => {
                    has_moves = true;
                    directions.check(dirs, diags);
                    let mut bits = 0u8;
                    for l in limits {
                        if bits & l.node != 0 {
                            diags.push(duplicate("the limit", l.span, line.span));
                        }
                        bits |= l.node;
                        // A chain that keeps one direction (`straight`) needs
                        // no `no-reverse`, whichever is written first.
                        let both = limit::STRAIGHT | limit::NO_REVERSE;
                        if *kind == MoveKind::LongJump
                            && bits & both == both
                            && (l.node & both) != 0
                        {
                            diags.push(
                                Diagnostic::new(
                                    Code::NoEffect,
                                    "`no-reverse` has no effect with `straight`",
                                )
                                .primary(
                                    l.span,
                                    "a chain that keeps one direction never turns back",
                                )
                                .help("remove `no-reverse`"),
                            );
                        }
                        if l.node == limit::STRAIGHT {
                            continue;
                        }
                        if *kind == MoveKind::ShortJump {
                            let what = match l.node {
                                limit::LAND_BEYOND => "a short jump always lands just beyond the captured piece",
                                limit::NO_REVERSE => "a short jump can't turn back: the square it would jump is empty or still holds the piece it took",
                                _ => "a short jump has one landing square only",
                            };
                            diags.push(
                                Diagnostic::new(
                                    Code::NoEffect,
                                    "this limit has no effect on a short jump",
                                )
                                .primary(l.span, what)
                                .help("limits are for `jump long` lines; remove it"),
                            );
                        }
                    }
                    let clone = replacement.node == Replacement::Clone;
                    if clone && *kind != MoveKind::Step {
                        diags.push(
                            Diagnostic::new(
                                Code::EffectMisplaced,
                                "only a step can leave a copy behind",
                            )
                            .primary(replacement.span, "`clone` on a slide")
                            .help("write the copying move as a `step` (with vectors such as `(2, 0)` for longer moves)"),
                        );
                        continue;
                    }
                    for (side, m) in sides.list.iter().zip(moves.iter_mut()) {
                        let vectors = directions.resolve(dirs, side.forward);
                        let only = replacement.node == Replacement::Only;
                        let list = match kind {
                            MoveKind::Step if clone => &mut m.clone,
                            MoveKind::Step if only => &mut m.step_capture,
                            MoveKind::Slide if only => &mut m.slide_capture,
                            MoveKind::Step => &mut m.step,
                            MoveKind::Slide => &mut m.slide,
                            MoveKind::ShortJump => &mut m.short_jump,
                            MoveKind::LongJump => &mut m.long_jump,
                            MoveKind::Hop => &mut m.hop,
                        };
                        for &v in &vectors {
                            if !list.contains(&v) {
                                list.push(v);
                            }
                        }
                        if replacement.node == Replacement::Also {
                            let list = match kind {
                                MoveKind::Slide => &mut m.slide_capture,
                                _ => &mut m.step_capture,
                            };
                            for &v in &vectors {
                                if !list.contains(&v) {
                                    list.push(v);
                                }
                            }
                        }
                        // Of a short jump's limits only `straight` means
                        // anything (the others were warned of above).
                        let bits = match kind {
                            MoveKind::LongJump => bits,
                            MoveKind::ShortJump => bits & limit::STRAIGHT,
                            _ => 0,
                        };
                        if bits != 0 {
                            for &v in &vectors {
                                match m.limits.iter_mut().find(|(w, _)| *w == v) {
                                    Some(slot) => slot.1 |= bits,
                                    None => m.limits.push((v, bits)),
                                }
                            }
                        }
                    }
                }
                PieceLine::Promote(kind, zone) => {
                    if let Some(first) = promote_span {
                        diags.push(duplicate(
                            &format!("the promotion of `{}`", piece.id.node),
                            line.span,
                            first,
                        ));
                        continue;
                    }
                    promote_span = Some(line.span);
                    let target = kinds.lookup(kind, diags);
                    let zone_id = zones.lookup_ref(zone, diags);
                    if let (Some(k), Some(z)) = (target, zone_id) {
                        promotion = Some((k, z, zone.whose));
                    }
                }
                PieceLine::Immune(list) => {
                    for name in list {
                        if let Some(k) = kinds.lookup(name, diags) {
                            if !immune_to.contains(&k) {
                                immune_to.push(k);
                            }
                        }
                    }
                }
                PieceLine::Place(rule, dirs) => {
                    has_moves = true;
                    if let Some((_, first)) = place {
                        diags.push(duplicate(
                            &format!("the placement of `{}`", piece.id.node),
                            line.span,
                            first,
                        ));
                        continue;
                    }
                    place = Some((*rule, line.span));
                    directions.check(dirs, diags);
                    for side in &sides.list {
                        for v in directions.resolve(dirs, side.forward) {
                            if !place_next.contains(&v) {
                                place_next.push(v);
                            }
                        }
                    }
                }
                PieceLine::Surrounded(zone) => {
                    if let Some((_, first)) = surrounded {
                        diags.push(duplicate(
                            &format!("the capture of `{}`", piece.id.node),
                            line.span,
                            first,
                        ));
                        continue;
                    }
                    let at = match zone {
                        Some(z) => match zones.lookup_ref(z, diags) {
                            Some(id) => Some((id, z.whose)),
                            None => continue,
                        },
                        None => None,
                    };
                    surrounded = Some((at, line.span));
                }
                PieceLine::Unarmed => {
                    if let Some(first) = unarmed {
                        diags.push(duplicate("`unarmed`", line.span, first));
                        continue;
                    }
                    unarmed = Some(line.span);
                }
                PieceLine::Value(n) => {
                    if let Some(first) = value_span {
                        diags.push(duplicate(
                            &format!("the value of `{}`", piece.id.node),
                            line.span,
                            first,
                        ));
                        continue;
                    }
                    value_span = Some(line.span);
                    if n.node > 1_000_000_000 {
                        diags.push(
                            Diagnostic::new(
                                Code::CountRange,
                                "this value is too large or has more than three decimals",
                            )
                            .primary(n.span, "not a value")
                            .help("values are small numbers, such as 1 for a man, 1.5 or 3 for a king"),
                        );
                    } else {
                        value = Some(n.node);
                    }
                }
            }
        }
        if !has_moves {
            diags.push(
                Diagnostic::new(
                    Code::KindWithoutMoves,
                    format!("piece `{}` has no moves", piece.id.node),
                )
                .primary(piece.id.span, "this piece can never move")
                .help("give it a `step`, `slide` or `jump` line"),
            );
        }
        for m in &moves {
            for v in m
                .step
                .iter()
                .chain(&m.slide)
                .chain(&m.short_jump)
                .chain(&m.long_jump)
                .chain(&m.step_capture)
                .chain(&m.slide_capture)
                .chain(&m.clone)
            {
                if !distinct.contains(v) {
                    distinct.push(*v);
                }
            }
        }
        if distinct.len() > MAX_DIRECTIONS && !too_many_dirs {
            too_many_dirs = true;
            diags.push(
                Diagnostic::new(
                    Code::TooMany,
                    format!("the pieces move in more than {MAX_DIRECTIONS} directions"),
                )
                .primary(piece.id.span, "this piece's moves pass the limit")
                .help(format!(
                    "a game has at most {MAX_DIRECTIONS} distinct direction vectors"
                )),
            );
        }
        if let Some(kind) = kinds.list.get_mut(i) {
            kind.moves = moves;
            kind.promotion = promotion;
            kind.immune_to = immune_to;
            kind.value = value;
            kind.place = place;
            kind.place_next = place_next;
            kind.surrounded = surrounded;
            kind.unarmed = unarmed;
        }
    }
    kinds
}
