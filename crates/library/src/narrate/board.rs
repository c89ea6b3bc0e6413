//! A board game in words, from the engine's data, with the names of the
//! sides, pieces, zones and squares of the rule file: how it ended (the
//! `Outcome` and `EndReason`: `White won: Black lost their last piece`),
//! the rule events of a move (`Event`: `captures the man on 14`), and why
//! a typed move is refused (`MoveError`: `a capture is compulsory: 22x15`).

use crate::board::game::{Criterion, EndCondition, KindId, SideId, Sq, Verdict, ZoneId};
use crate::board::position::{algebraic, square_name};
use crate::board::refusal::{Direction, Instead, JumpLimit, NothingToTake, PieceAt};
use crate::board::{EndReason, Event, Move, MoveError, Outcome, Refusal, Tables};

/// A side's name (`?` for a side the game doesn't have).
fn side_name(t: &Tables, side: SideId) -> String {
    t.game()
        .sides
        .get(usize::from(side.0))
        .map_or_else(|| "?".to_string(), |s| s.name.clone())
}

/// The outcome in a sentence: `White won: Black cannot move`, `draw: the
/// same position occurred 3 times`.
pub fn outcome(t: &Tables, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Win { winner, reason } => {
            format!("{} won: {}", side_name(t, *winner), end_reason(t, reason))
        }
        Outcome::Draw { reason } => format!("draw: {}", end_reason(t, reason)),
    }
}

/// Why the game ended, naming the sides: `Black lost their last piece`, `a
/// king of White reached the far zone on 5`.
pub fn end_reason(t: &Tables, reason: &EndReason) -> String {
    match *reason {
        EndReason::LastPiece { side } => format!("{} lost their last piece", side_name(t, side)),
        EndReason::NoPiecesLeft { side } => format!("{} has no pieces left", side_name(t, side)),
        EndReason::NoSideCanMove => "no side can move".to_string(),
        EndReason::CannotMove { side } => format!("{} cannot move", side_name(t, side)),
        EndReason::Repetition { times } => format!("the same position occurred {times} times"),
        EndReason::NoProgress { rule } => {
            match t.game().end.rules.get(rule).map(|r| &r.condition) {
                Some(EndCondition::Without(c)) => without(t, c),
                _ => "no progress".to_string(),
            }
        }
        EndReason::Reached {
            side,
            kind,
            zone,
            square,
        } => {
            let zone = t
                .game()
                .zones
                .get(usize::from(zone.0))
                .map_or("?", |z| z.id.as_str());
            let piece = kind
                .and_then(|k| t.game().kinds.get(usize::from(k.0)))
                .map_or_else(|| "piece".to_string(), |k| k.name.to_lowercase());
            let at = square
                .map(|sq| format!(" on {}", square_name(t, sq)))
                .unwrap_or_default();
            format!(
                "a {piece} of {} reached the {zone} zone{at}",
                side_name(t, side)
            )
        }
        EndReason::Captured { side, kind } => {
            format!("{} lost their {}", side_name(t, side), kind_name(t, kind))
        }
        EndReason::ReducedTo { side, left } => {
            let s = if left == 1 { "" } else { "s" };
            format!("{} is down to {left} piece{s}", side_name(t, side))
        }
        EndReason::MostPieces { side, count } => {
            let s = if count == 1 { "" } else { "s" };
            match side {
                Some(side) => format!(
                    "no side can move, and {} has the most pieces ({count})",
                    side_name(t, side)
                ),
                None => format!("no side can move, and the sides have {count} piece{s} each"),
            }
        }
        EndReason::Line {
            side,
            square,
            length,
        } => format!(
            "{} has {length} in a row from {}",
            side_name(t, side),
            square_name(t, square)
        ),
    }
}

/// A counter's limit in plain words, from what the rule file says resets
/// it: `40 plies without a capture or a man's move`.
pub fn without(t: &Tables, c: &crate::vocab::board::Counter) -> String {
    use crate::vocab::board::event;
    let mut what: Vec<String> = [
        (event::CAPTURE, "a capture"),
        (event::CONVERSION, "a piece changing sides"),
        (event::PROMOTION, "a crowning"),
        (event::DROP_OUT, "a side dropping out"),
    ]
    .iter()
    .filter(|(bit, _)| c.reset & bit != 0)
    .map(|(_, words)| (*words).to_string())
    .collect();
    for (k, kind) in t.game().kinds.iter().enumerate() {
        if k < 32 && c.reset_move_of & (1 << k) != 0 {
            let name = kind.name.to_lowercase();
            what.push(format!("a {} move", crate::words::possessive(&name)));
        }
    }
    let plies = match c.plies {
        1 => "1 ply".to_string(),
        n => format!("{n} plies"),
    };
    match what.split_last() {
        None => plies,
        Some((last, [])) => format!("{plies} without {last}"),
        Some((last, rest)) => format!("{plies} without {} or {last}", rest.join(", ")),
    }
}

/// A kind's name in lower case, or `fallback` for a kind the game doesn't
/// have.
fn kind_or(t: &Tables, kind: KindId, fallback: &str) -> String {
    t.game()
        .kinds
        .get(usize::from(kind.0))
        .map_or_else(|| fallback.to_string(), |k| k.name.to_lowercase())
}

/// A zone's name (`?` for a zone the game doesn't have).
fn zone_name(t: &Tables, zone: ZoneId) -> &str {
    t.game()
        .zones
        .get(usize::from(zone.0))
        .map_or("?", |z| z.id.as_str())
}

/// The kinds a zone's `only` names: `king`, `king and queen`.
fn only_kinds(t: &Tables, zone: ZoneId) -> String {
    let names: Vec<String> = t
        .game()
        .zones
        .get(usize::from(zone.0))
        .map(|z| z.only.iter().map(|&k| kind_name(t, k)).collect())
        .unwrap_or_default();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => "piece".to_string(),
    }
}

/// A kind's name in lower case (`piece` for a kind the game doesn't have).
fn kind_name(t: &Tables, kind: KindId) -> String {
    kind_or(t, kind, "piece")
}

/// A rule event of a played move in words: `captures the man on 14`,
/// `crowned on 3: becomes a king`, `White cannot move: pass`.
pub fn describe(t: &Tables, event: &Event) -> String {
    match *event {
        Event::Pass { side } => format!("{} cannot move: pass", side_name(t, side)),
        Event::DropOut { side } => format!(
            "{} cannot move: loses and leaves the game",
            side_name(t, side)
        ),
        Event::Eliminated { side, ref reason } => match reason {
            EndReason::Reached { .. } => format!(
                "{}: {} loses and leaves the game",
                end_reason(t, reason),
                side_name(t, side)
            ),
            _ => format!("{}: loses and leaves the game", end_reason(t, reason)),
        },
        Event::Capture { kind, square } => match t.surrounded_on(kind, square) {
            Some((sides, on_board)) if on_board < sides => format!(
                "the {} on {} is surrounded on {} sides against the edge and taken",
                kind_name(t, kind),
                square_name(t, square),
                crate::words::number(on_board)
            ),
            Some((sides, _)) => format!(
                "the {} on {} is surrounded on {} sides and taken",
                kind_name(t, kind),
                square_name(t, square),
                crate::words::number(sides)
            ),
            None => format!(
                "captures the {} on {}",
                kind_name(t, kind),
                square_name(t, square)
            ),
        },
        Event::ColumnMoves { square, height } => {
            format!("the column of {height} goes to {}", square_name(t, square))
        }
        Event::TakeTop { kind, square, left } => format!(
            "takes the top {} of the column on {} under its own: {} left there",
            kind_name(t, kind),
            square_name(t, square),
            crate::words::count(u64::from(left), "piece")
        ),
        Event::Release { square, side, kind } => format!(
            "the {} {} under it comes up: it heads the column on {}",
            side_name(t, side).to_lowercase(),
            kind_name(t, kind),
            square_name(t, square)
        ),
        Event::JumpConvert { kind, square, side } => format!(
            "jump converts the {} on {} to {}",
            kind_name(t, kind),
            square_name(t, square),
            crate::words::side(&side_name(t, side))
        ),
        Event::Enclose { kind, square, side } => format!(
            "encloses the {} on {}: it goes over to {}",
            kind_name(t, kind),
            square_name(t, square),
            crate::words::side(&side_name(t, side))
        ),
        Event::WinOver { kind, square, side } => format!(
            "wins over the {} on {}: it goes over to {}",
            kind_name(t, kind),
            square_name(t, square),
            crate::words::side(&side_name(t, side))
        ),
        Event::BaseConvert { square, side, kind } => {
            let name = side_name(t, side);
            let owner = crate::words::side(&name);
            // `the Pioneers: goes over to them`, `Black: goes over to Black`.
            let to = if owner == name {
                name
            } else {
                "them".to_string()
            };
            format!(
                "ends on {}, a base of {owner}: goes over to {to} as a {}",
                square_name(t, square),
                kind_or(t, kind, "?")
            )
        }
        Event::Promote { square, kind } => {
            let kind = kind_or(t, kind, "?");
            let a = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            format!("crowned on {}: becomes {a} {kind}", square_name(t, square))
        }
        Event::PromoteMidCapture { square, kind } => format!(
            "crowned on {} in the middle of the capture: goes on as a {}",
            square_name(t, square),
            kind_or(t, kind, "?")
        ),
        Event::PromotionDeferred { square, kind } => format!(
            "touches the promotion zone on {} but must capture on: stays a {}",
            square_name(t, square),
            kind_or(t, kind, "?")
        ),
        Event::LeftBoard => "the piece left the board".to_string(),
    }
}

/// Squares and moves named as the refused move was written: numbered, or
/// algebraic.
#[derive(Clone, Copy)]
struct Naming<'t> {
    t: &'t Tables,
    algebraic: bool,
}

impl Naming<'_> {
    fn square(self, sq: Sq) -> String {
        if self.algebraic {
            algebraic(self.t, sq)
        } else {
            square_name(self.t, sq)
        }
    }

    /// Up to six moves joined by `or`, ` ...` after them when there are
    /// more.
    fn moves(self, ms: &[Move]) -> String {
        let v: Vec<&str> = ms
            .iter()
            .take(6)
            .map(|m| {
                if self.algebraic {
                    m.algebraic.as_str()
                } else {
                    m.notation.as_str()
                }
            })
            .collect();
        let more = if ms.len() > 6 { " ..." } else { "" };
        format!("{}{more}", v.join(" or "))
    }

    /// `the white man on 22`.
    fn piece(self, p: PieceAt) -> String {
        format!(
            "the {} {} on {}",
            side_name(self.t, p.side),
            kind_name(self.t, p.kind),
            self.square(p.square)
        )
    }

    /// `the man on 22 can play 22-18 or 22-17`.
    fn can_play(self, kind: KindId, from: Sq, moves: &[Move]) -> String {
        format!(
            "the {} on {} can play {}",
            kind_name(self.t, kind),
            self.square(from),
            self.moves(moves)
        )
    }
}

/// Why a typed move is refused, in words, naming the rule:
/// `a capture is compulsory: 22x15`, `17 is occupied`.
pub fn refusal(t: &Tables, error: &MoveError) -> String {
    match error {
        MoveError::Empty => "type a move, such as 22-18 or 22x15".to_string(),
        MoveError::Malformed { text } => format!(
            "`{}` is not a move: write squares joined by `-` (a move) or `x` (a capture), such as 22-18 or 22x15",
            crate::shown::shown(text)
        ),
        MoveError::NotAMove { text } => format!("`{}` is not a move", crate::shown::shown(text)),
        MoveError::Square(e) => e.to_string(),
        MoveError::Ambiguous { text, moves } => {
            let list: Vec<&str> = moves.iter().map(|m| m.notation.as_str()).collect();
            format!("`{text}` is ambiguous: {}", list.join(" or "))
        }
        MoveError::Refused { algebraic, rule } => refused(
            Naming {
                t,
                algebraic: *algebraic,
            },
            rule,
        ),
    }
}

/// The rule that refuses a move in words.
fn refused(n: Naming<'_>, rule: &Refusal) -> String {
    let t = n.t;
    match rule {
        Refusal::GameOver => "the game is over: there are no legal moves".to_string(),
        Refusal::NoPiece { from } => format!("there is no piece on {}", n.square(*from)),
        Refusal::NotYours {
            from,
            owner,
            to_move,
        } => format!(
            "the piece on {} is {}; {} to move",
            n.square(*from),
            crate::words::possessive(&side_name(t, *owner)),
            side_name(t, *to_move)
        ),
        Refusal::Limit {
            limit,
            kind,
            from,
            moves,
        } => {
            let k = kind_name(t, *kind);
            let why = match limit {
                JumpLimit::LandBeyond => {
                    format!("a {k} lands on the square just beyond the piece it takes")
                }
                JumpLimit::NoReverse => {
                    format!("a {k} may not turn straight back between two jumps")
                }
                JumpLimit::MustContinue => {
                    format!("a {k} must land where it can capture on, when it can")
                }
                JumpLimit::Straight => {
                    format!("a chain of jumps must keep one direction (a {k} may not turn between two jumps)")
                }
            };
            format!("{why}: {}", n.can_play(*kind, *from, moves))
        }
        Refusal::Precedence {
            criterion,
            captures,
        } => format!("{}: {}", precedence(t, *criterion), n.moves(captures)),
        Refusal::NothingToTake { what, instead } => {
            let what = match *what {
                NothingToTake::Own { piece, mover } => format!(
                    "{} can't be taken: it is {} own",
                    n.piece(piece),
                    crate::words::possessive(&side_name(t, mover))
                ),
                NothingToTake::Empty { square } => {
                    format!("there is no piece to take on {}", n.square(square))
                }
                NothingToTake::EmptyBetween { from, to } => format!(
                    "there is no piece to take between {} and {}",
                    n.square(from),
                    n.square(to)
                ),
            };
            let then = match instead {
                Instead::Captures(captures) => {
                    format!("; the captures are {}", n.moves(captures))
                }
                Instead::Legal(legal) => format!("; legal moves: {}", n.moves(legal)),
                Instead::FromHere { kind, from, moves } => {
                    format!("; {}", n.can_play(*kind, *from, moves))
                }
            };
            format!("{what}{then}")
        }
        Refusal::MustTakeMost { captures, most } => format!(
            "must take the most pieces: {} takes {most}",
            n.moves(captures)
        ),
        Refusal::CaptureCompulsory { captures } => {
            format!("a capture is compulsory: {}", n.moves(captures))
        }
        Refusal::Occupied { square } => format!("{} is occupied", n.square(*square)),
        Refusal::KindOnly { square, zone, kind } => format!(
            "only the {} may stop on the {} ({}): not a {}",
            only_kinds(t, *zone),
            zone_name(t, *zone),
            n.square(*square),
            kind_name(t, *kind)
        ),
        Refusal::ClosedOver { square, zone, kind } => format!(
            "only the {} may pass over the {} ({}): not a {}",
            only_kinds(t, *zone),
            zone_name(t, *zone),
            n.square(*square),
            kind_name(t, *kind)
        ),
        Refusal::Neutral { square } => {
            format!("{} is neutral: no piece may stop there", n.square(*square))
        }
        Refusal::Blocked {
            from,
            to,
            by,
            kind,
            moves,
        } => {
            let mut way = format!(
                "the way from {} to {} is blocked by {}",
                n.square(*from),
                n.square(*to),
                n.piece(*by)
            );
            if !moves.is_empty() {
                way.push_str(": ");
                way.push_str(&n.can_play(*kind, *from, moves));
            }
            way
        }
        Refusal::NoMoveHere { from, legal } => format!(
            "the piece on {} has no legal move; legal moves: {}",
            n.square(*from),
            n.moves(legal)
        ),
        Refusal::Direction {
            direction,
            kind,
            from,
            moves,
        } => {
            let h = match direction {
                Direction::OneSquare => "moves one square at a time",
                Direction::ForwardsOnly => "moves forwards only",
                Direction::NotThatWay => "does not move that way",
            };
            format!(
                "a {} {h}: {}",
                kind_name(t, *kind),
                n.can_play(*kind, *from, moves)
            )
        }
        Refusal::MustEnclose {
            square,
            kind,
            moves,
        } => {
            let mut why = format!(
                "a placed {} must enclose at least one line: on {} it encloses none",
                kind_name(t, *kind),
                n.square(*square)
            );
            if !moves.is_empty() {
                why.push_str(&format!("; it may be placed on {}", n.moves(moves)));
            }
            why
        }
        Refusal::Opening {
            side,
            next_to_empty,
            moves,
        } => {
            let whose = crate::words::possessive(&side_name(t, *side));
            let from = if *next_to_empty {
                "one next to an empty square"
            } else {
                "one on the squares the opening names"
            };
            format!(
                "an opening move removes one of {whose} own pieces, {from}: {}",
                n.moves(moves)
            )
        }
        Refusal::NotNextToOwn {
            square,
            kind,
            side,
            moves,
        } => {
            let whose = crate::words::possessive(&side_name(t, *side));
            let mut why = format!(
                "a placed {} must go next to one of {whose} own pieces: none stands next to {}",
                kind_name(t, *kind),
                n.square(*square)
            );
            if !moves.is_empty() {
                why.push_str(&format!("; it may be placed on {}", n.moves(moves)));
            }
            why
        }
        Refusal::NoCopyHere {
            square,
            side,
            moves,
        } => {
            let mut why = format!(
                "a copy goes only where a piece of {} can copy itself: none reaches {}",
                crate::words::side(&side_name(t, *side)),
                n.square(*square)
            );
            if !moves.is_empty() {
                why.push_str(&format!("; copies may go to {}", n.moves(moves)));
            }
            why
        }
        Refusal::NoPass {
            verdict,
            placed,
            moves,
        } => {
            let (verb, what) = match placed {
                Some(kind) => (
                    "place",
                    format!(
                        "a {} can be placed on {}",
                        kind_name(t, *kind),
                        n.moves(moves)
                    ),
                ),
                None => ("move", format!("legal moves: {}", n.moves(moves))),
            };
            let rule = match verdict {
                Verdict::Pass => format!("a side passes only when it can't {verb}"),
                Verdict::Lose => format!("a side never passes: one that can't {verb} loses"),
                Verdict::Win => format!("a side never passes: one that can't {verb} wins"),
                Verdict::Draw => {
                    format!("a side never passes: when one can't {verb}, the game is drawn")
                }
            };
            format!("you can't pass: {what} ({rule})")
        }
        Refusal::HandEmpty { side, kind } => format!(
            "{} has no {} left in hand",
            side_name(t, *side),
            kind_name(t, *kind)
        ),
        Refusal::ChainGoesOn {
            kind,
            stop,
            captures,
        } => {
            let who = if t.game().capture.effect == crate::board::game::JumpEffect::Stack {
                "column".to_string()
            } else {
                kind_name(t, *kind)
            };
            format!(
                "a capture goes on while the {who} can jump again: it may not stop on {}; the capture goes on as {}",
                n.square(*stop),
                n.moves(captures)
            )
        }
        Refusal::HopOverOwn {
            kind,
            from,
            over,
            enemy,
            moves,
        } => {
            let k = kind_name(t, *kind);
            let there = match enemy {
                Some(p) => format!("{} is an enemy", n.piece(*p)),
                None => format!("{} is empty", n.square(*over)),
            };
            let mut why =
                format!("a {k} hops only over a piece of its own side next to it: {there}");
            if !moves.is_empty() {
                why.push_str("; ");
                why.push_str(&n.can_play(*kind, *from, moves));
            }
            why
        }
        Refusal::NoLine {
            kind,
            from,
            to,
            moves,
        } => {
            let mut why = format!(
                "no line of the board joins {} and {}: a {} moves and jumps only along the lines",
                n.square(*from),
                n.square(*to),
                kind_name(t, *kind)
            );
            if !moves.is_empty() {
                why.push_str("; its legal moves: ");
                why.push_str(&n.moves(moves));
            }
            why
        }
        Refusal::Still {
            kind,
            square,
            moves,
        } => {
            let k = kind_name(t, *kind);
            let mut why = format!(
                "a {k} never moves once placed (the {k} on {} stays there): place one from the hand on an empty square",
                n.square(*square)
            );
            if !moves.is_empty() {
                why.push_str(&format!("; it may be placed on {}", n.moves(moves)));
            }
            why
        }
        Refusal::CantMoveThere { kind, from, moves } => format!(
            "a {} on {} can't move there; its legal moves: {}",
            kind_name(t, *kind),
            n.square(*from),
            n.moves(moves)
        ),
    }
}

/// A precedence criterion as the rule a capture loses by: `a capture that
/// takes more pieces takes precedence`.
pub fn precedence(t: &Tables, criterion: Criterion) -> String {
    match criterion {
        Criterion::MostPieces => "a capture that takes more pieces takes precedence".to_string(),
        Criterion::MostValue => "a capture of a higher value takes precedence".to_string(),
        Criterion::MostOf(kind) => format!(
            "a capture that takes more pieces of the kind {} takes precedence",
            kind_name(t, kind)
        ),
        Criterion::FewestOf(kind) => format!(
            "a capture that takes fewer pieces of the kind {} takes precedence",
            kind_name(t, kind)
        ),
        Criterion::By(kind) => format!("a capture with a {} takes precedence", kind_name(t, kind)),
        Criterion::EarliestOf(kind) => format!(
            "a capture that takes a {} earlier takes precedence",
            kind_name(t, kind)
        ),
    }
}

/// Why a position's list of moves is incomplete: it is past
/// `board::movegen::MAX_CHAIN_STEPS` or `MAX_MOVES` (docs/limits.md).
pub fn overflow() -> String {
    use crate::board::movegen::{MAX_CHAIN_STEPS, MAX_MOVES};
    format!(
        "the position has too many captures to list: the search stopped at {MAX_CHAIN_STEPS} \
         chain steps or {MAX_MOVES} moves (the limits of docs/limits.md)"
    )
}
