//! Reading a typed move: the legal move a player means by some text, or,
//! when there is none, which rule refuses it, as data (`MoveError`, with
//! the squares, pieces and moves it concerns; `narrate::board::refusal`
//! puts it in words).

use super::movegen::{Generator, MoveList};
use super::play::{moves_of, Move};
use super::position::{Position, PositionError};
use super::tables::{Powers, Tables, EMPTY};
use crate::board::game::{Criterion, KindId, SideId, Sq, Verdict, ZoneId};

/// Why no legal move is meant by a typed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Nothing was typed.
    Empty,
    /// Not squares joined by single `-` or `x` (the text, trimmed).
    Malformed {
        /// The text as typed, trimmed.
        text: String,
    },
    /// No squares at all (the text as typed).
    NotAMove {
        /// The text as typed.
        text: String,
    },
    /// A part of the text is not a square of the board.
    Square(PositionError),
    /// Several legal moves start and end so.
    Ambiguous {
        /// The text as typed.
        text: String,
        /// The legal moves it may mean.
        moves: Vec<Move>,
    },
    /// The squares name no legal move: the rule that refuses it.
    Refused {
        /// Whether the move was written with algebraic squares (the answer
        /// names squares and moves so too).
        algebraic: bool,
        /// The rule that refuses it.
        rule: Refusal,
    },
}

/// A piece on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceAt {
    /// Its side.
    pub side: SideId,
    /// Its kind.
    pub kind: KindId,
    /// Its square.
    pub square: Sq,
}

/// A limit of a jump line that forbids a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JumpLimit {
    /// `land-beyond`: a piece lands just beyond the piece it takes.
    LandBeyond,
    /// `no-reverse`: no straight turn back between two jumps.
    NoReverse,
    /// `must-continue`: land where the capture can go on, when it can.
    MustContinue,
    /// `straight`: every jump of a chain keeps the direction of the first.
    Straight,
}

/// Why a piece can't go to a square by its kind's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// It steps, one square at a time.
    OneSquare,
    /// It moves forwards only.
    ForwardsOnly,
    /// None of its moves goes that way.
    NotThatWay,
}

/// What a capture was typed over that holds nothing to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NothingToTake {
    /// A piece of the mover's own side.
    Own {
        /// The piece.
        piece: PieceAt,
        /// The side to move.
        mover: SideId,
    },
    /// An empty square.
    Empty {
        /// The square.
        square: Sq,
    },
    /// Empty squares between the two typed.
    EmptyBetween {
        /// The first typed square.
        from: Sq,
        /// The second typed square.
        to: Sq,
    },
}

/// What may be played instead of a capture over nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instead {
    /// The captures of the position.
    Captures(Vec<Move>),
    /// Every legal move (the piece has none).
    Legal(Vec<Move>),
    /// The moves of the piece.
    FromHere {
        /// The piece.
        kind: KindId,
        /// Its square.
        from: Sq,
        /// Its legal moves.
        moves: Vec<Move>,
    },
}

/// The rule that refuses the move typed as starting on a square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over: there are no legal moves.
    GameOver,
    /// No piece stands on the start square.
    NoPiece {
        /// The start square.
        from: Sq,
    },
    /// The piece on the start square is not of the side to move.
    NotYours {
        /// The start square.
        from: Sq,
        /// The piece's side.
        owner: SideId,
        /// The side to move.
        to_move: SideId,
    },
    /// A limit of the jump line forbids the capture.
    Limit {
        /// The limit.
        limit: JumpLimit,
        /// The kind of the moving piece.
        kind: KindId,
        /// The start square.
        from: Sq,
        /// The piece's legal moves.
        moves: Vec<Move>,
    },
    /// Another capture takes precedence by the criterion.
    Precedence {
        /// The first criterion the capture loses by.
        criterion: Criterion,
        /// The captures of the position.
        captures: Vec<Move>,
    },
    /// A capture typed over squares with nothing to take.
    NothingToTake {
        /// What stands there.
        what: NothingToTake,
        /// What may be played.
        instead: Instead,
    },
    /// The captures must take the most pieces.
    MustTakeMost {
        /// The captures.
        captures: Vec<Move>,
        /// The most pieces a capture takes.
        most: usize,
    },
    /// A capture is compulsory.
    CaptureCompulsory {
        /// The captures.
        captures: Vec<Move>,
    },
    /// The square moved to is occupied.
    Occupied {
        /// The square.
        square: Sq,
    },
    /// The square moved to is neutral: no piece may stop there.
    Neutral {
        /// The square.
        square: Sq,
    },
    /// The square moved to is one that only some kinds may stop on
    /// (`zone ... only KIND`), and the piece is of none of them.
    KindOnly {
        /// The square.
        square: Sq,
        /// The zone whose `only` names the kinds.
        zone: ZoneId,
        /// The piece's kind.
        kind: KindId,
    },
    /// The move passes over a square that only some kinds may pass over
    /// (`zone ... only KIND ... closed`), and the piece is of none of them.
    ClosedOver {
        /// The square passed over.
        square: Sq,
        /// The zone whose `only` names the kinds.
        zone: ZoneId,
        /// The piece's kind.
        kind: KindId,
    },
    /// A piece stands in the way of a long move.
    Blocked {
        /// The start square.
        from: Sq,
        /// The square moved to.
        to: Sq,
        /// The piece in the way.
        by: PieceAt,
        /// The kind of the moving piece.
        kind: KindId,
        /// The piece's legal moves (maybe none).
        moves: Vec<Move>,
    },
    /// The piece has no legal move.
    NoMoveHere {
        /// The start square.
        from: Sq,
        /// Every legal move.
        legal: Vec<Move>,
    },
    /// The piece's kind does not move that way.
    Direction {
        /// Why.
        direction: Direction,
        /// The kind of the piece.
        kind: KindId,
        /// The start square.
        from: Sq,
        /// The piece's legal moves.
        moves: Vec<Move>,
    },
    /// A placed piece must enclose at least one line, and one placed on
    /// the square encloses none.
    MustEnclose {
        /// The square.
        square: Sq,
        /// The kind placed.
        kind: KindId,
        /// The legal placements.
        moves: Vec<Move>,
    },
    /// A placed piece must go next to a piece of the side placing
    /// (`place next-to own DIRS`), and none stands next to the square.
    NotNextToOwn {
        /// The square.
        square: Sq,
        /// The kind placed.
        kind: KindId,
        /// The side to move.
        side: SideId,
        /// The legal placements.
        moves: Vec<Move>,
    },
    /// A copy (`clone`) goes only where a copying step of a piece of the
    /// side to move reaches, and none reaches the square.
    NoCopyHere {
        /// The square.
        square: Sq,
        /// The side to move.
        side: SideId,
        /// The legal copies.
        moves: Vec<Move>,
    },
    /// An opening move (`opening remove own ...`) is due: the side to move
    /// removes one of its own pieces, and this is not one it may remove.
    Opening {
        /// The side to move.
        side: SideId,
        /// The removal must be next to an empty square (else from the
        /// squares the rule names).
        next_to_empty: bool,
        /// The legal removals.
        moves: Vec<Move>,
    },
    /// A pass typed while the side to move has a legal move: by the rule
    /// for a side that can't move (`end no-moves VERDICT`), a side passes
    /// only when it can't move (`pass`), or never (any other verdict).
    NoPass {
        /// What the rule file gives a side with no legal move.
        verdict: Verdict,
        /// The kind the side places, when the game's only moves are
        /// placements from the hand (a side then passes when it can't
        /// place); None when pieces move.
        placed: Option<KindId>,
        /// The legal moves.
        moves: Vec<Move>,
    },
    /// The side to move has no piece left in its hand.
    HandEmpty {
        /// The side to move.
        side: SideId,
        /// The kind placed.
        kind: KindId,
    },
    /// A capture typed as stopping on a square from which it must go on
    /// (`chain must-continue`): the piece can jump again there.
    ChainGoesOn {
        /// The kind of the moving piece (the top piece of a column).
        kind: KindId,
        /// The square the capture was typed as stopping on.
        stop: Sq,
        /// The captures that go on from there.
        captures: Vec<Move>,
    },
    /// A hop (`hop DIRS`) goes only over a piece of the mover's own side
    /// next to it, and the square hopped over holds an enemy or nothing.
    HopOverOwn {
        /// The kind of the moving piece.
        kind: KindId,
        /// The start square.
        from: Sq,
        /// The square hopped over.
        over: Sq,
        /// The enemy standing there (None: the square is empty).
        enemy: Option<PieceAt>,
        /// The piece's legal moves.
        moves: Vec<Move>,
    },
    /// No line of the board joins two squares of the move (`lines DIRS
    /// only from SET`): the piece can't go along it.
    NoLine {
        /// The kind of the moving piece.
        kind: KindId,
        /// The square the missing line starts from.
        from: Sq,
        /// The square it would reach.
        to: Sq,
        /// The piece's legal moves (maybe none).
        moves: Vec<Move>,
    },
    /// The piece never moves: its kind is placed from the hand and has no
    /// move of its own.
    Still {
        /// The kind of the piece.
        kind: KindId,
        /// Its square.
        square: Sq,
        /// The legal placements.
        moves: Vec<Move>,
    },
    /// The piece can't move there.
    CantMoveThere {
        /// The kind of the piece.
        kind: KindId,
        /// The start square.
        from: Sq,
        /// The piece's legal moves.
        moves: Vec<Move>,
    },
}

/// Finds the legal move meant by `text`, or says which rule refuses it.
pub fn find_move(
    t: &Tables,
    pos: &Position,
    legal: &[Move],
    text: &str,
) -> Result<Move, MoveError> {
    let norm = text.trim().to_lowercase().replace(':', "x");
    if norm.is_empty() {
        return Err(MoveError::Empty);
    }
    if let Some(m) = legal
        .iter()
        .find(|m| m.notation == norm || m.algebraic == norm)
    {
        return Ok(m.clone());
    }
    if norm == "pass" && super::position::parse_square(t, &norm).is_err() {
        return Err(MoveError::Refused {
            algebraic: false,
            rule: no_pass(t, pos, legal),
        });
    }
    if t.places {
        if let Some(found) = placement(t, pos, legal, &norm) {
            return found;
        }
    }
    if let Some(i) = t.opening_move(pos) {
        if !legal.is_empty() {
            let next_to_empty = matches!(
                t.opening.get(i),
                Some(super::tables::OpeningSquares::NextToEmpty(_))
            );
            return Err(MoveError::Refused {
                algebraic: norm.starts_with(|c: char| c.is_ascii_alphabetic()),
                rule: Refusal::Opening {
                    side: pos.side(),
                    next_to_empty,
                    moves: legal.to_vec(),
                },
            });
        }
    }
    // Squares joined by single `-` or `x`: `22x18x`, `-22-18` and `22--18`
    // are not moves.
    if norm.starts_with(['-', 'x'])
        || norm.ends_with(['-', 'x'])
        || norm.contains("--")
        || norm.contains("xx")
        || norm.contains("-x")
        || norm.contains("x-")
    {
        return Err(MoveError::Malformed {
            text: text.trim().to_string(),
        });
    }
    // Start and end only.
    let parts: Vec<&str> = norm.split(['-', 'x']).collect();
    let squares: Result<Vec<Sq>, _> = parts
        .iter()
        .map(|p| super::position::parse_square(t, p))
        .collect();
    let squares = match squares {
        Ok(s) if !s.is_empty() => s,
        Ok(_) => {
            return Err(MoveError::NotAMove {
                text: text.to_string(),
            })
        }
        Err(e) => return Err(MoveError::Square(e)),
    };
    let from = squares[0];
    let to = squares.last().copied();
    let matching: Vec<&Move> = legal
        .iter()
        .filter(|m| {
            m.from == Some(from)
                && (squares.len() == 1 || m.path.last().copied() == to)
                && (squares.len() <= 2 || m.path.starts_with(&squares[1..]))
        })
        .collect();
    if matching.len() == 1 {
        return Ok(matching[0].clone());
    }
    if matching.len() > 1 {
        return Err(MoveError::Ambiguous {
            text: text.to_string(),
            moves: matching.into_iter().cloned().collect(),
        });
    }
    if t.clones {
        if let Some(found) = copy(t, pos, legal, &squares, &norm) {
            return found;
        }
    }
    let algebraic = parts
        .iter()
        .any(|p| p.starts_with(|c: char| c.is_ascii_alphabetic()));
    let capture = norm.contains('x') || squares.len() > 2;
    Err(MoveError::Refused {
        algebraic,
        rule: explain(t, pos, legal, from, &squares, capture),
    })
}

/// A placement typed as its square (`d3`) or as `@d3`: the legal one, or
/// the rule that refuses it. None when the text is no placement: squares
/// joined by `-` or `x`, or a square (typed without `@`) that holds a
/// piece, which a move starts from.
fn placement(
    t: &Tables,
    pos: &Position,
    legal: &[Move],
    norm: &str,
) -> Option<Result<Move, MoveError>> {
    let (text, explicit) = match norm.strip_prefix('@') {
        Some(rest) => (rest.trim(), true),
        None => (norm, false),
    };
    if !explicit && norm.contains(['-', 'x']) {
        return None;
    }
    let sq = match super::position::parse_square(t, text) {
        Ok(sq) => sq,
        Err(e) if explicit => return Some(Err(MoveError::Square(e))),
        Err(_) => return None,
    };
    if let Some(m) = legal
        .iter()
        .find(|m| m.is_placement() && m.path.first() == Some(&sq))
    {
        return Some(Ok(m.clone()));
    }
    let occupied = pos
        .board
        .get(usize::from(sq.0))
        .is_some_and(|&c| c != EMPTY);
    // Where pieces also move, a piece's square starts a move.
    if occupied && !explicit && pieces_move(t) {
        return None;
    }
    let side = pos.side();
    let kind = placed_kind(t, side);
    let rule = if legal.is_empty() {
        Refusal::GameOver
    } else if occupied {
        Refusal::Occupied { square: sq }
    } else if t.no_stop.get(usize::from(sq.0)).copied().unwrap_or(false) {
        Refusal::Neutral { square: sq }
    } else if pos.hand.get(usize::from(side.0)).copied().unwrap_or(0) == 0 {
        Refusal::HandEmpty { side, kind }
    } else if !super::movegen::next_to_own(t, &pos.board, usize::from(sq.0), side.0) {
        Refusal::NotNextToOwn {
            square: sq,
            kind,
            side,
            moves: legal.iter().filter(|m| m.is_placement()).cloned().collect(),
        }
    } else {
        Refusal::MustEnclose {
            square: sq,
            kind,
            moves: legal.iter().filter(|m| m.is_placement()).cloned().collect(),
        }
    };
    Some(Err(MoveError::Refused {
        algebraic: text.starts_with(|c: char| c.is_ascii_alphabetic()),
        rule,
    }))
}

/// Whether any piece of the game moves (steps, slides, jumps or captures by
/// replacement), rather than only being placed from the hand.
fn pieces_move(t: &Tables) -> bool {
    t.moves
        .iter()
        .any(|m| !m.step.is_empty() || !m.slide.is_empty() || m.has_jumps() || m.has_replacement())
}

/// The kind of piece `side` places from its hand.
fn placed_kind(t: &Tables, side: SideId) -> KindId {
    t.place_code
        .get(usize::from(side.0))
        .and_then(|&c| t.code_kind.get(usize::from(c)))
        .map_or(KindId(0), |&k| KindId(k))
}

/// Why a typed `pass` is refused: the game is over, or the side to move
/// has a legal move (which the pass would be only without one).
fn no_pass(t: &Tables, pos: &Position, legal: &[Move]) -> Refusal {
    if legal.is_empty() {
        return Refusal::GameOver;
    }
    Refusal::NoPass {
        verdict: t.end.no_moves,
        placed: (t.places && !pieces_move(t)).then(|| placed_kind(t, pos.side())),
        moves: legal.to_vec(),
    }
}

/// A copy (`clone`) typed as its square (`b6`) that no piece makes: the
/// rule that refuses it. None when the text is no such square (a copy is
/// written as its square only: `a7-b6` is read as a move of the piece on
/// a7).
fn copy(
    t: &Tables,
    pos: &Position,
    legal: &[Move],
    squares: &[Sq],
    norm: &str,
) -> Option<Result<Move, MoveError>> {
    let &[to] = squares else {
        return None;
    };
    if pos.board.get(usize::from(to.0)).copied().unwrap_or(EMPTY) != EMPTY {
        return None;
    }
    let rule = if legal.is_empty() {
        Refusal::GameOver
    } else if t.no_stop.get(usize::from(to.0)).copied().unwrap_or(false) {
        Refusal::Neutral { square: to }
    } else {
        Refusal::NoCopyHere {
            square: to,
            side: pos.side(),
            moves: legal.iter().filter(|m| m.is_placement()).cloned().collect(),
        }
    };
    Some(Err(MoveError::Refused {
        algebraic: norm.starts_with(|c: char| c.is_ascii_alphabetic()),
        rule,
    }))
}

/// The squares strictly between `a` and `b` when they lie on one line
/// (along a row, a column or a diagonal of the board's geometry), nearest
/// `a` first; `None` when they don't.
fn between(t: &Tables, a: Sq, b: Sq) -> Option<Vec<Sq>> {
    let w = way(t, a, b)?;
    if w.n == 0
        || !t
            .game
            .dirs
            .iter()
            .any(|&(x, y)| (i32::from(x), i32::from(y)) == w.unit)
    {
        return None;
    }
    Some((1..w.n).filter_map(|i| w.square(t, i)).collect())
}

/// The way from one square to another on the board's grid (the explanations
/// measure moves with it): where it starts (file, rank), how far the other
/// square is (files, ranks), the smallest step along it and how many such
/// steps make it (0 from a square to itself, whose step is `(0, 0)`).
struct Way {
    at: (i32, i32),
    offset: (i32, i32),
    unit: (i32, i32),
    n: i32,
}

impl Way {
    /// The square `i` steps along the way from its start, if there is one.
    fn square(&self, t: &Tables, i: i32) -> Option<Sq> {
        t.game
            .square(self.at.0 + self.unit.0 * i, self.at.1 + self.unit.1 * i)
    }
}

/// The way from `a` to `b`.
fn way(t: &Tables, a: Sq, b: Sq) -> Option<Way> {
    let g = &t.game;
    let pa = g.squares.get(usize::from(a.0))?;
    let pb = g.squares.get(usize::from(b.0))?;
    let at = (i32::from(pa.file), i32::from(pa.rank));
    let offset = (i32::from(pb.file) - at.0, i32::from(pb.rank) - at.1);
    let n = gcd(offset.0.unsigned_abs(), offset.1.unsigned_abs()) as i32;
    let unit = if n == 0 {
        (0, 0)
    } else {
        (offset.0 / n, offset.1 / n)
    };
    Some(Way {
        at,
        offset,
        unit,
        n,
    })
}

/// The piece on `sq`, if there is one.
fn piece_at(t: &Tables, pos: &Position, sq: Sq) -> Option<PieceAt> {
    pos.piece(t, sq).map(|(side, kind)| PieceAt {
        side,
        kind,
        square: sq,
    })
}

/// A move of a piece of `kind` from `from` to `to` that a square only some
/// kinds may stop on or pass over forbids: the rule that refuses it.
fn kind_only(p: &Powers, t: &Tables, from: Sq, to: Sq, kind: KindId) -> Option<Refusal> {
    if !p.may_stop(kind.0, to.0) {
        return Some(Refusal::KindOnly {
            square: to,
            zone: p.only_zone(to.0)?,
            kind,
        });
    }
    let over = between(t, from, to)?;
    let square = over.into_iter().find(|c| !p.may_pass(kind.0, c.0))?;
    Some(Refusal::ClosedOver {
        square,
        zone: p.only_zone(square.0)?,
        kind,
    })
}

/// Why no legal move starts at `from` and visits `squares` (typed as a
/// capture when `capture`).
fn explain(
    t: &Tables,
    pos: &Position,
    legal: &[Move],
    from: Sq,
    squares: &[Sq],
    capture: bool,
) -> Refusal {
    let mover = pos.to_move;
    let owned = |ms: Vec<&Move>| ms.into_iter().cloned().collect::<Vec<Move>>();
    if legal.is_empty() {
        return Refusal::GameOver;
    }
    let kind = match pos.piece(t, from) {
        None => return Refusal::NoPiece { from },
        Some((s, _)) if s.0 != mover => {
            return Refusal::NotYours {
                from,
                owner: s,
                to_move: SideId(mover),
            };
        }
        Some((_, k)) => k,
    };
    let captures: Vec<&Move> = legal.iter().filter(|m| m.is_capture()).collect();
    let from_here: Vec<&Move> = legal.iter().filter(|m| m.from == Some(from)).collect();
    let code = pos.board.get(usize::from(from.0)).copied().unwrap_or(EMPTY);
    if t.places && t.moves.get(usize::from(code)).is_some_and(is_still) {
        return Refusal::Still {
            kind,
            square: from,
            moves: legal.iter().filter(|m| m.is_placement()).cloned().collect(),
        };
    }
    if t.any_limits && squares.len() >= 2 {
        if let Some(limit) = limit_reason(t, pos, from, squares) {
            return Refusal::Limit {
                limit,
                kind,
                from,
                moves: owned(from_here),
            };
        }
    }
    if t.use_criteria && squares.len() >= 2 && !captures.is_empty() {
        if let Some(criterion) = precedence_reason(t, pos, from, squares) {
            return Refusal::Precedence {
                criterion,
                captures: owned(captures),
            };
        }
    }
    // A capture typed as stopping where it must go on.
    if capture && t.must_continue && squares.len() >= 2 {
        let typed = &squares[1..];
        let going_on: Vec<Move> = from_here
            .iter()
            .filter(|m| m.is_capture() && m.path.len() > typed.len() && m.path.starts_with(typed))
            .map(|m| (*m).clone())
            .collect();
        if let Some(&stop) = typed.last().filter(|_| !going_on.is_empty()) {
            return Refusal::ChainGoesOn {
                kind,
                stop,
                captures: going_on,
            };
        }
    }
    // A capture typed over squares that hold nothing to take.
    if capture {
        if let Some(over) = squares.get(1).and_then(|&to| between(t, from, to)) {
            let takes = |c: &Sq| pos.piece(t, *c).is_some_and(|(s, _)| s.0 != mover);
            if !over.is_empty() && !over.iter().any(takes) {
                let what = match over.iter().find_map(|c| piece_at(t, pos, *c)) {
                    Some(piece) => NothingToTake::Own {
                        piece,
                        mover: SideId(mover),
                    },
                    None if over.len() == 1 => NothingToTake::Empty { square: over[0] },
                    None => NothingToTake::EmptyBetween {
                        from,
                        to: squares[1],
                    },
                };
                let instead = if !captures.is_empty() {
                    Instead::Captures(owned(captures))
                } else if from_here.is_empty() {
                    Instead::Legal(legal.to_vec())
                } else {
                    Instead::FromHere {
                        kind,
                        from,
                        moves: owned(from_here),
                    }
                };
                return Refusal::NothingToTake { what, instead };
            }
        }
    }
    if !captures.is_empty() && t.capture_compulsory {
        let most = captures.iter().map(|m| m.captured.len()).max().unwrap_or(0);
        if t.capture_most && most > 1 && capture {
            return Refusal::MustTakeMost {
                captures: owned(captures),
                most,
            };
        }
        return Refusal::CaptureCompulsory {
            captures: owned(captures),
        };
    }
    if let Some(&to) = squares.get(1) {
        if let Some(code) = pos.board.get(usize::from(to.0)) {
            if *code != EMPTY {
                return Refusal::Occupied { square: to };
            }
        }
        if t.no_stop.get(usize::from(to.0)).copied().unwrap_or(false) {
            return Refusal::Neutral { square: to };
        }
        if let Some(p) = t.powers() {
            if let Some(refusal) = kind_only(p, t, from, to, kind) {
                return refusal;
            }
        }
        if let Some((a, b)) = missing_line(t, from, to) {
            return Refusal::NoLine {
                kind,
                from: a,
                to: b,
                moves: owned(from_here),
            };
        }
        if let Some((over, enemy)) = hop_over_other(t, pos, code, from, to) {
            return Refusal::HopOverOwn {
                kind,
                from,
                over,
                enemy,
                moves: owned(from_here),
            };
        }
        // A piece in the way of a long move.
        if let Some(over) = between(t, from, to) {
            if let Some(by) = over.iter().find_map(|c| piece_at(t, pos, *c)) {
                if direction_hint(t, pos, from, to).is_none() && !capture {
                    return Refusal::Blocked {
                        from,
                        to,
                        by,
                        kind,
                        moves: owned(from_here),
                    };
                }
            }
        }
    }
    if from_here.is_empty() {
        return Refusal::NoMoveHere {
            from,
            legal: legal.to_vec(),
        };
    }
    match squares
        .get(1)
        .and_then(|&to| direction_hint(t, pos, from, to))
    {
        Some(direction) => Refusal::Direction {
            direction,
            kind,
            from,
            moves: owned(from_here),
        },
        None => Refusal::CantMoveThere {
            kind,
            from,
            moves: owned(from_here),
        },
    }
}

/// Whether a kind has no move of its own (a piece placed from the hand
/// that stays where it is put).
fn is_still(m: &super::tables::KindMoves) -> bool {
    m.step.is_empty()
        && m.slide.is_empty()
        && !m.has_jumps()
        && !m.has_replacement()
        && m.clone.is_empty()
        && m.hop.is_empty()
}

/// The first two neighbouring squares of the straight way from `from` to
/// `to` that no line of the board joins (`lines DIRS only from SET`).
fn missing_line(t: &Tables, from: Sq, to: Sq) -> Option<(Sq, Sq)> {
    let lines = t.game.lines.as_ref()?;
    let w = way(t, from, to)?;
    if w.n == 0 {
        return None;
    }
    let unit = (i8::try_from(w.unit.0).ok()?, i8::try_from(w.unit.1).ok()?);
    if !lines.dirs.contains(&unit) {
        return None;
    }
    let mut here = from;
    for i in 1..=w.n {
        let next = w.square(t, i)?;
        if !lines.joins(unit, here, next) {
            return Some((here, next));
        }
        here = next;
    }
    None
}

/// A hop (`hop DIRS`) of the piece of `code` from `from` to `to`, two
/// squares away along one of its hop directions, over a square that holds
/// an enemy (`Some`) or nothing (`None`): the square hopped over.
fn hop_over_other(
    t: &Tables,
    pos: &Position,
    code: u8,
    from: Sq,
    to: Sq,
) -> Option<(Sq, Option<PieceAt>)> {
    let m = t.moves.get(usize::from(code))?;
    if m.hop.is_empty() {
        return None;
    }
    let g = &t.game;
    let w = way(t, from, to)?;
    let (dx, dy) = w.offset;
    if dx % 2 != 0 || dy % 2 != 0 {
        return None;
    }
    let unit = (dx / 2, dy / 2);
    let along = m.hop.iter().any(|&d| {
        g.dirs
            .get(usize::from(d))
            .is_some_and(|&(x, y)| (i32::from(x), i32::from(y)) == unit)
    });
    if !along || unit == (0, 0) {
        return None;
    }
    let over = g.square(w.at.0 + unit.0, w.at.1 + unit.1)?;
    match piece_at(t, pos, over) {
        None => Some((over, None)),
        Some(p) if p.side.0 != pos.to_move => Some((over, Some(p))),
        Some(_) => None,
    }
}

/// When a capture from `from` along `squares` would be legal without the
/// limits of the jump lines: the limit that forbids it.
fn limit_reason(t: &Tables, pos: &Position, from: Sq, squares: &[Sq]) -> Option<JumpLimit> {
    let mut free = t.clone();
    free.any_limits = false;
    let mut gen = Generator::new();
    let mut p = pos.clone();
    let mut list = MoveList::new();
    gen.generate(&free, &mut p, &mut list);
    let to = squares.last().copied();
    let found = moves_of(&free, &list).into_iter().find(|m| {
        m.from == Some(from)
            && m.is_capture()
            && m.path.last().copied() == to
            && (squares.len() <= 2 || m.path.starts_with(&squares[1..]))
    })?;
    let code = *pos.board.get(usize::from(from.0))?;
    let mut prev = from;
    let mut last_dir: Option<(i32, i32)> = None;
    for &land in &found.path {
        let w = way(t, prev, land)?;
        let unit = w.unit;
        let d = t
            .game
            .dirs
            .iter()
            .position(|&(x, y)| (i32::from(x), i32::from(y)) == unit)
            .and_then(|d| u8::try_from(d).ok());
        let flags = d.map_or(0, |d| t.limits(code, d));
        let before = w.square(t, w.n - 1);
        if flags & crate::vocab::limit::LAND_BEYOND != 0
            && !before.is_some_and(|s| found.captured.contains(&s))
        {
            return Some(JumpLimit::LandBeyond);
        }
        if flags & crate::vocab::limit::NO_REVERSE != 0 && last_dir == Some((-unit.0, -unit.1)) {
            return Some(JumpLimit::NoReverse);
        }
        if flags & crate::vocab::limit::STRAIGHT != 0 && last_dir.is_some_and(|l| l != unit) {
            return Some(JumpLimit::Straight);
        }
        if flags & crate::vocab::limit::MUST_CONTINUE != 0 {
            return Some(JumpLimit::MustContinue);
        }
        last_dir = Some(unit);
        prev = land;
    }
    None
}

/// When a capture from `from` along `squares` exists but another is preferred
/// by the precedence criteria: the first criterion it loses by.
fn precedence_reason(t: &Tables, pos: &Position, from: Sq, squares: &[Sq]) -> Option<Criterion> {
    let mut gen = Generator::new();
    gen.all_captures = true;
    let mut p = pos.clone();
    let mut list = MoveList::new();
    gen.generate_side(t, &mut p, pos.to_move, &mut list);
    let k = t.criteria.len();
    let scores = gen.scores();
    if k == 0 {
        return None;
    }
    let best = scores.chunks(k).max()?;
    let to = squares.last().copied();
    let candidate = list.moves.iter().enumerate().find_map(|(i, m)| {
        let path: Vec<Sq> = list.path(m).into_iter().map(Sq).collect();
        let matches = m.from == from.0
            && m.cap_len > 0
            && (path.last().copied() == to)
            && (squares.len() <= 2 || path.starts_with(&squares[1..]));
        matches.then(|| scores.get(i * k..(i + 1) * k)).flatten()
    })?;
    let j = (0..k).find(|&j| candidate.get(j) < best.get(j))?;
    t.criteria.get(j).copied()
}

/// Why a piece can't go from `from` to `to` by its kind's moves: it moves
/// one square at a time, forwards only, or not that way.
fn direction_hint(t: &Tables, pos: &Position, from: Sq, to: Sq) -> Option<Direction> {
    let g = &t.game;
    let code = usize::from(*pos.board.get(usize::from(from.0))?);
    let (side, _) = pos.piece(t, from)?;
    let Way { unit, n, .. } = way(t, from, to)?;
    let m = t.moves.get(code)?;
    let vec_of = |d: &u8| {
        g.dirs
            .get(usize::from(*d))
            .map_or((0, 0), |&(x, y)| (i32::from(x), i32::from(y)))
    };
    let steps: Vec<(i32, i32)> = m.step.iter().map(vec_of).collect();
    let slides: Vec<(i32, i32)> = m.slide.iter().map(vec_of).collect();
    if slides.contains(&unit) {
        return None;
    }
    if steps.contains(&unit) && n > 1 {
        return Some(Direction::OneSquare);
    }
    if !steps.contains(&unit) && !steps.is_empty() {
        let f = g.sides.get(usize::from(side.0))?.forward;
        let fwd = (i32::from(f.0), i32::from(f.1));
        let all_forward = steps.iter().all(|s| s.0 * fwd.0 + s.1 * fwd.1 > 0);
        if all_forward && unit.0 * fwd.0 + unit.1 * fwd.1 <= 0 {
            return Some(Direction::ForwardsOnly);
        }
        return Some(Direction::NotThatWay);
    }
    None
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
