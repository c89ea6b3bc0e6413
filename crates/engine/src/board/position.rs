//! `Position`: the board, the side to move and the piece counts, with the
//! PDN-FEN style position strings (`W:W21,22,K5:B1,2`).

use super::bitboard::Bb;
use super::tables::{Tables, EMPTY, UNLIMITED};
use crate::board::game::{KindId, Notation, SideId, Sq};

/// The most sides a game may have.
pub const MAX_SIDES: usize = 8;

/// A position: what stands on every playable square, and who moves.
///
/// Its fields are the engine's: outside the engine a position is made by
/// [`Position::start`], [`Position::parse`] or [`Position::from_setup`]
/// (an unchecked setup checked, refused with a named [`PositionError`]),
/// changed only by playing moves, and read through accessors
/// ([`Position::side`], [`Position::piece`], [`Position::count`]...). So
/// for the tables it was made with, it keeps these invariants:
/// - one code per playable square, each empty or a piece of a side and a
///   kind of the game (or `DEAD` within a move being made);
/// - the pieces of each side are counted (`count`), and the bitboards, when
///   the board has a layout, hold exactly the squares of each code;
/// - the side to move is a side of the game;
/// - in a game that places pieces from a hand, a side's finite hand counts
///   down by one for each piece it places (`UNLIMITED`: no limit, never
///   counted down); in a game that places none, every hand is 0;
/// - in a game of columns (`capture stacks`) the board holds each column's
///   top piece (its owner and how it moves, and what the counts count) and
///   `under` the pieces beneath it, one list per square, empty under an
///   empty square; in every other game `under` is empty (no work per move).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Piece code per square (see `Tables`). Change it only through `put`
    /// or `make`, which keep the counts and bitboards right.
    pub(crate) board: Vec<u8>,
    /// Per piece code, its squares as a bitboard (empty when the board has
    /// no bitboard layout).
    pub(crate) bb: Vec<Bb>,
    /// The side to move.
    pub(crate) to_move: u8,
    /// Pieces per side.
    pub(crate) count: [u16; MAX_SIDES],
    /// Sides that lost and dropped out (bit s: side s), in games of more
    /// than two sides whose losers drop out.
    pub(crate) out: u8,
    /// Pieces in hand per side, in a game that places them (`UNLIMITED`:
    /// no limit; 0 in a game that places none).
    pub(crate) hand: [u16; MAX_SIDES],
    /// In a game of columns, per square the codes of the pieces under the
    /// top one, bottom first (empty in every other game).
    pub(crate) under: Vec<Vec<u8>>,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            board: self.board.clone(),
            bb: self.bb.clone(),
            to_move: self.to_move,
            count: self.count,
            out: self.out,
            hand: self.hand,
            under: self.under.clone(),
        }
    }

    /// Copies into the existing buffers: no allocation.
    fn clone_from(&mut self, source: &Position) {
        self.board.clone_from(&source.board);
        self.bb.clone_from(&source.bb);
        self.to_move = source.to_move;
        self.count = source.count;
        self.out = source.out;
        self.hand = source.hand;
        self.under.clone_from(&source.under);
    }
}

/// Why a position string (or a square in it) was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A list of pieces without the letter of its side.
    NoSide,
    /// A letter that is no side's; the sides' letters and names.
    NotASide {
        /// The letter.
        letter: char,
        /// Each side's letter and name.
        sides: Vec<(char, String)>,
    },
    /// The first field is not one letter (the side to move).
    FirstField {
        /// The field.
        text: String,
    },
    /// An upper-case letter that is no kind's, in a piece of the list.
    NotAPiece {
        /// The letter.
        letter: char,
        /// The piece of the list it is in.
        item: String,
    },
    /// Two pieces on one square.
    TwoPieces {
        /// The square.
        square: String,
    },
    /// A range of squares from high to low.
    Reversed {
        /// The range.
        range: String,
    },
    /// Text that is no square (already cut to be shown).
    NotASquare {
        /// The text, cut.
        shown: String,
    },
    /// A square number past the last square.
    NumberOffBoard {
        /// The number.
        number: String,
        /// How many squares the board has.
        squares: usize,
    },
    /// A square of the board that is not played on.
    NotPlayable {
        /// The square.
        square: String,
    },
    /// A hole: a square taken out of the board (`holes`).
    Hole {
        /// The square.
        square: String,
    },
    /// A file and rank outside the board.
    OffBoard {
        /// The square.
        square: String,
    },
    /// A side number that is no side of the game (in a setup).
    NoSuchSide {
        /// The number, from 0.
        side: usize,
        /// How many sides the game has.
        sides: usize,
    },
    /// A kind number that is no kind of the game (in a setup).
    NoSuchKind {
        /// The number, from 0.
        kind: usize,
        /// How many kinds the game has.
        kinds: usize,
    },
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::NoSide => {
                f.write_str("a side letter is missing before a list of pieces")
            }
            PositionError::NotASide { letter, sides } => {
                let sides: Vec<String> = sides
                    .iter()
                    .map(|(l, name)| format!("{l} ({name})"))
                    .collect();
                write!(
                    f,
                    "`{letter}` is not a side: the sides are {}",
                    sides.join(", ")
                )
            }
            PositionError::FirstField { text } => write!(
                f,
                "a position starts with the letter of the side to move, then `:`, not `{text}`"
            ),
            PositionError::NotAPiece { letter, item } => {
                write!(f, "`{letter}` in `{item}` is not a piece letter")
            }
            PositionError::TwoPieces { square } => write!(f, "two pieces on {square}"),
            PositionError::Reversed { range } => write!(f, "the range `{range}` is reversed"),
            PositionError::NotASquare { shown } => write!(f, "`{shown}` is not a square"),
            PositionError::NumberOffBoard { number, squares } => write!(
                f,
                "square {number} is not on the board: squares are numbered 1 to {squares}"
            ),
            PositionError::NotPlayable { square } => write!(f, "{square} is not a playable square"),
            PositionError::Hole { square } => {
                write!(f, "{square} is a hole: not part of the board")
            }
            PositionError::OffBoard { square } => write!(f, "{square} is not on the board"),
            PositionError::NoSuchSide { side, sides } => write!(
                f,
                "side {side} is not a side of the game: it has {sides}, numbered from 0"
            ),
            PositionError::NoSuchKind { kind, kinds } => write!(
                f,
                "kind {kind} is not a kind of the game: it has {kinds}, numbered from 0"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The start position of the game.
    pub fn start(t: &Tables) -> Position {
        let mut p = Position {
            board: vec![EMPTY; t.n],
            bb: Position::empty_bb(t),
            to_move: t.game.first.0,
            count: [0; MAX_SIDES],
            out: 0,
            hand: t.hand_start,
            under: Position::no_columns(t),
        };
        for &(sq, side, kind) in &t.game.setup {
            p.put(t, sq, Some((side, kind)));
        }
        p
    }

    /// The lists of pieces under the top ones: one empty list per square in
    /// a game of columns, none in any other.
    fn no_columns(t: &Tables) -> Vec<Vec<u8>> {
        if t.stacks {
            vec![Vec::new(); t.n]
        } else {
            Vec::new()
        }
    }

    /// How many pieces stand on a square: its column's height (0: empty; 1
    /// in a game without columns wherever a piece stands).
    pub fn height(&self, sq: Sq) -> usize {
        let i = usize::from(sq.0);
        match self.board.get(i) {
            None | Some(&EMPTY) => 0,
            Some(_) => 1 + self.under.get(i).map_or(0, Vec::len),
        }
    }

    /// The pieces standing on a square, top first: the column in a game of
    /// columns, the one piece (or none) in any other.
    pub fn column(&self, t: &Tables, sq: Sq) -> Vec<(SideId, KindId)> {
        let mut out: Vec<(SideId, KindId)> = self.piece(t, sq).into_iter().collect();
        if let Some(under) = self.under.get(usize::from(sq.0)) {
            out.extend(under.iter().rev().filter_map(|&c| t.piece_of(c)));
        }
        out
    }

    /// Puts pieces under the top one of a square (bottom first), keeping
    /// nothing else: for setting up columns.
    fn put_under(&mut self, sq: Sq, codes: Vec<u8>) {
        if let Some(u) = self.under.get_mut(usize::from(sq.0)) {
            *u = codes;
        }
    }

    fn empty_bb(t: &Tables) -> Vec<Bb> {
        if t.layout.is_some() {
            vec![0; 1 + t.nsides * t.nkinds]
        } else {
            Vec::new()
        }
    }

    /// Sets the board code of a square, keeping the bitboards right (not the
    /// counts).
    #[inline(always)]
    pub(crate) fn set_code(&mut self, t: &Tables, sq: usize, code: u8) {
        if let Some(l) = &t.layout {
            let bit: Bb = 1 << l.bit_of[sq];
            // bb[0] (empty) stays 0: emptiness is derived from the others.
            let old = usize::from(self.board[sq]);
            if old != 0 {
                if let Some(b) = self.bb.get_mut(old) {
                    *b &= !bit;
                }
            }
            if code != EMPTY {
                if let Some(b) = self.bb.get_mut(usize::from(code)) {
                    *b |= bit;
                }
            }
        }
        self.board[sq] = code;
    }

    /// A position from an unchecked setup: the side to move and the pieces
    /// on the board, each `(square, side, kind)`. Refused, by its named
    /// kind, when the side to move or a piece's side is no side of the game
    /// (`NoSuchSide`), a kind is no kind of it (`NoSuchKind`), a square is
    /// not on the board (`NumberOffBoard`) or two pieces share a square
    /// (`TwoPieces`).
    pub fn from_setup(
        t: &Tables,
        to_move: SideId,
        pieces: &[(Sq, SideId, KindId)],
    ) -> Result<Position, PositionError> {
        let side = |s: SideId| {
            if usize::from(s.0) < t.nsides {
                Ok(s)
            } else {
                Err(PositionError::NoSuchSide {
                    side: usize::from(s.0),
                    sides: t.nsides,
                })
            }
        };
        let mut p = Position {
            board: vec![EMPTY; t.n],
            bb: Position::empty_bb(t),
            to_move: side(to_move)?.0,
            count: [0; MAX_SIDES],
            out: 0,
            hand: t.hand_start,
            under: Position::no_columns(t),
        };
        for &(sq, s, kind) in pieces {
            side(s)?;
            if usize::from(kind.0) >= t.nkinds {
                return Err(PositionError::NoSuchKind {
                    kind: usize::from(kind.0),
                    kinds: t.nkinds,
                });
            }
            match p.board.get(usize::from(sq.0)) {
                None => {
                    return Err(PositionError::NumberOffBoard {
                        number: (usize::from(sq.0) + 1).to_string(),
                        squares: t.n,
                    })
                }
                Some(&code) if code != EMPTY => {
                    return Err(PositionError::TwoPieces {
                        square: square_name(t, sq),
                    })
                }
                Some(_) => p.put(t, sq, Some((s, kind))),
            }
        }
        Ok(p)
    }

    /// The pieces on the board, each `(square, side, kind)`, square by
    /// square: the setup [`Position::from_setup`] takes.
    pub fn pieces(&self, t: &Tables) -> Vec<(Sq, SideId, KindId)> {
        (0..self.board.len())
            .filter_map(|i| {
                let sq = Sq(u16::try_from(i).ok()?);
                let (side, kind) = self.piece(t, sq)?;
                Some((sq, side, kind))
            })
            .collect()
    }

    /// The code of every playable square, square by square (see `Tables`:
    /// [`Tables::piece_of`] gives a code's side and kind).
    #[inline]
    pub fn codes(&self) -> &[u8] {
        &self.board
    }

    /// Per piece code, its squares as a bitboard (empty when the board has
    /// no bitboard layout).
    #[inline]
    pub fn bitboards(&self) -> &[Bb] {
        &self.bb
    }

    /// How many pieces a side has on the board.
    #[inline]
    pub fn count(&self, side: SideId) -> u16 {
        self.count.get(usize::from(side.0)).copied().unwrap_or(0)
    }

    /// The pieces a side has in hand, in a game that places them from a
    /// hand with a limit (None: no hand, or an unlimited one).
    #[inline]
    pub fn hand(&self, t: &Tables, side: SideId) -> Option<u16> {
        if !t.places {
            return None;
        }
        self.hand
            .get(usize::from(side.0))
            .copied()
            .filter(|&h| h != UNLIMITED)
    }

    /// Whether a side has lost and dropped out (in games of more than two
    /// sides whose losers drop out).
    #[inline]
    pub fn is_out(&self, side: SideId) -> bool {
        side.0 < 8 && self.out & (1 << side.0) != 0
    }

    /// Puts a piece (or nothing) on a square, keeping the counts right.
    pub(crate) fn put(&mut self, t: &Tables, sq: Sq, piece: Option<(SideId, KindId)>) {
        let i = usize::from(sq.0);
        let Some(&old) = self.board.get(i) else {
            return;
        };
        if old != EMPTY {
            let s = usize::from(t.code_side[usize::from(old)]);
            if let Some(c) = self.count.get_mut(s) {
                *c = c.saturating_sub(1);
            }
        }
        let new = piece.map_or(EMPTY, |(s, k)| t.code(s, k));
        self.set_code(t, i, new);
        if let Some((s, _)) = piece {
            if let Some(c) = self.count.get_mut(usize::from(s.0)) {
                *c += 1;
            }
        }
    }

    /// The piece on a square.
    pub fn piece(&self, t: &Tables, sq: Sq) -> Option<(SideId, KindId)> {
        t.piece_of(*self.board.get(usize::from(sq.0))?)
    }

    /// The side to move.
    pub fn side(&self) -> SideId {
        SideId(self.to_move)
    }

    /// Parses a position string: the side to move, then each side's pieces,
    /// `W:W21,22,K5:B1,2` (a kind letter before a square marks that kind;
    /// ranges `1-12` are accepted; squares numeric or algebraic).
    pub fn parse(t: &Tables, text: &str) -> Result<Position, PositionError> {
        let g = &t.game;
        let text = text.trim().trim_end_matches('.');
        let mut fields = text.split(':');
        let first = fields.next().unwrap_or("").trim();
        let side_of = |s: &str| -> Result<u8, PositionError> {
            let mut chars = s.chars();
            let c = chars.next().ok_or(PositionError::NoSide)?;
            g.sides
                .iter()
                .position(|sd| sd.letter.eq_ignore_ascii_case(&c))
                .map(|i| i as u8)
                .ok_or_else(|| PositionError::NotASide {
                    letter: c,
                    sides: g.sides.iter().map(|s| (s.letter, s.name.clone())).collect(),
                })
        };
        if first.chars().count() != 1 {
            return Err(PositionError::FirstField {
                text: first.to_string(),
            });
        }
        let mut p = Position {
            board: vec![EMPTY; t.n],
            bb: Position::empty_bb(t),
            to_move: side_of(first)?,
            count: [0; MAX_SIDES],
            out: 0,
            hand: t.hand_start,
            under: Position::no_columns(t),
        };
        for field in fields {
            let field = field.trim();
            if field.is_empty() {
                continue;
            }
            let side = side_of(field)?;
            let rest: String = field.chars().skip(1).collect();
            for item in rest.split(',') {
                let item = item.trim();
                if item.is_empty() {
                    continue;
                }
                // `+30`: the pieces in hand.
                if let Some(n) = item.strip_prefix('+').filter(|_| t.places) {
                    let count = n
                        .parse::<u16>()
                        .ok()
                        .filter(|&c| c != UNLIMITED)
                        .ok_or_else(|| PositionError::NotASquare {
                            shown: crate::shown::shown(item).to_string(),
                        })?;
                    if let Some(h) = p.hand.get_mut(usize::from(side)) {
                        *h = count;
                    }
                    continue;
                }
                let (kind, sqtext) = match item.chars().next() {
                    Some(c) if c.is_ascii_uppercase() => {
                        let k = g
                            .kinds
                            .iter()
                            .enumerate()
                            .skip(1)
                            .find(|(_, k)| k.letter == c)
                            .map(|(i, _)| i as u8)
                            .ok_or_else(|| PositionError::NotAPiece {
                                letter: c,
                                item: item.to_string(),
                            })?;
                        (k, &item[c.len_utf8()..])
                    }
                    _ => (0, item),
                };
                let (sqtext, under) = match sqtext.split_once('(') {
                    Some((sq, rest)) if t.stacks => (sq, Some(parse_column(t, rest, item)?)),
                    _ => (sqtext, None),
                };
                let squares = parse_range(t, sqtext)?;
                for sq in squares {
                    if p.board[usize::from(sq.0)] != EMPTY {
                        return Err(PositionError::TwoPieces {
                            square: square_name(t, sq),
                        });
                    }
                    p.put(t, sq, Some((SideId(side), KindId(kind))));
                    if let Some(under) = &under {
                        p.put_under(sq, under.clone());
                    }
                }
            }
        }
        Ok(p)
    }

    /// The position string, in the game's notation.
    pub fn to_fen(&self, t: &Tables) -> String {
        let g = &t.game;
        let mut out = String::new();
        if let Some(s) = g.sides.get(usize::from(self.to_move)) {
            out.push(s.letter);
        }
        for (si, side) in g.sides.iter().enumerate() {
            out.push(':');
            out.push(side.letter);
            let mut items = Vec::new();
            for k in 0..t.nkinds {
                for sq in 0..t.n {
                    let code = self.board[sq];
                    if code != EMPTY
                        && usize::from(t.code_side[usize::from(code)]) == si
                        && usize::from(t.code_kind[usize::from(code)]) == k
                    {
                        let mut s = String::new();
                        if k > 0 {
                            s.push(g.kinds[k].letter);
                        }
                        s.push_str(&square_name(t, Sq(sq as u16)));
                        if let Some(under) = self.under.get(sq).filter(|u| !u.is_empty()) {
                            s.push('(');
                            for &c in under.iter().rev() {
                                write_under(t, &mut s, c);
                            }
                            s.push(')');
                        }
                        items.push(s);
                    }
                }
            }
            if let Some(h) = self.hand(t, SideId(si as u8)) {
                items.push(format!("+{h}"));
            }
            out.push_str(&items.join(","));
        }
        out
    }
}

/// One piece under a column's top, as a position string writes it: its
/// side's letter in lower case, then its kind's letter unless it is of the
/// first kind (`b`, `wK`).
fn write_under(t: &Tables, out: &mut String, code: u8) {
    let g = &t.game;
    let Some((side, kind)) = t.piece_of(code) else {
        return;
    };
    if let Some(sd) = g.sides.get(usize::from(side.0)) {
        out.extend(sd.letter.to_lowercase());
    }
    if kind.0 > 0 {
        if let Some(k) = g.kinds.get(usize::from(kind.0)) {
            out.push(k.letter);
        }
    }
}

/// The pieces under a column's top in a position string, top first, up to
/// the closing `)`: each a side's letter in lower case, then a kind's
/// letter in upper case unless of the first kind (`bwK)`). Returned bottom
/// first, as codes.
fn parse_column(t: &Tables, text: &str, item: &str) -> Result<Vec<u8>, PositionError> {
    let g = &t.game;
    let body = text
        .strip_suffix(')')
        .ok_or_else(|| PositionError::NotASquare {
            shown: crate::shown::shown(item).to_string(),
        })?;
    let mut top_first: Vec<(u8, u8)> = Vec::new();
    for c in body.chars() {
        if c.is_ascii_lowercase() {
            let side = g
                .sides
                .iter()
                .position(|sd| sd.letter.eq_ignore_ascii_case(&c))
                .ok_or_else(|| PositionError::NotASide {
                    letter: c,
                    sides: g.sides.iter().map(|s| (s.letter, s.name.clone())).collect(),
                })?;
            top_first.push((side as u8, 0));
        } else if c.is_ascii_uppercase() {
            let kind = g
                .kinds
                .iter()
                .enumerate()
                .skip(1)
                .find(|(_, k)| k.letter == c)
                .map(|(i, _)| i as u8);
            match (kind, top_first.last_mut()) {
                (Some(k), Some(last)) if last.1 == 0 => last.1 = k,
                _ => {
                    return Err(PositionError::NotAPiece {
                        letter: c,
                        item: crate::shown::shown(item).to_string(),
                    })
                }
            }
        } else if !c.is_whitespace() {
            return Err(PositionError::NotASquare {
                shown: crate::shown::shown(item).to_string(),
            });
        }
    }
    Ok(top_first
        .iter()
        .rev()
        .map(|&(s, k)| t.code(SideId(s), KindId(k)))
        .collect())
}

/// The name of a square in the game's notation.
pub fn square_name(t: &Tables, sq: Sq) -> String {
    match t.game.squares.get(usize::from(sq.0)) {
        Some(info) => match t.game.notation {
            Notation::Numeric => info.number.to_string(),
            Notation::Algebraic => info.algebraic.clone(),
        },
        None => "?".into(),
    }
}

/// The algebraic name of a square.
pub fn algebraic(t: &Tables, sq: Sq) -> String {
    t.game
        .squares
        .get(usize::from(sq.0))
        .map_or_else(|| "?".into(), |i| i.algebraic.clone())
}

/// Parses one square, numeric or algebraic.
pub fn parse_square(t: &Tables, text: &str) -> Result<Sq, PositionError> {
    let text = text.trim();
    let g = &t.game;
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_digit()) {
        let n: usize = text.parse().map_err(|_| PositionError::NotASquare {
            shown: crate::shown::shown(text).to_string(),
        })?;
        if n >= 1 && n <= t.n {
            return Ok(Sq((n - 1) as u16));
        }
        return Err(PositionError::NumberOffBoard {
            number: text.to_string(),
            squares: t.n,
        });
    }
    let mut chars = text.chars();
    let file = chars.next().filter(|c| c.is_ascii_lowercase());
    // Digits only: `a+5` is not `a5`.
    let digits = chars.as_str();
    let rank: Option<i32> =
        if !digits.is_empty() && digits.len() <= 3 && digits.bytes().all(|b| b.is_ascii_digit()) {
            digits.parse().ok()
        } else {
            None
        };
    match (file, rank) {
        (Some(f), Some(r)) => {
            let fi = i32::from(f as u8 - b'a');
            match g.square(fi, r - 1) {
                Some(sq) => Ok(sq),
                None if g.hole(fi, r - 1) => Err(PositionError::Hole {
                    square: text.to_string(),
                }),
                None if fi < i32::from(g.width) && r >= 1 && r <= i32::from(g.height) => {
                    Err(PositionError::NotPlayable {
                        square: text.to_string(),
                    })
                }
                None => Err(PositionError::OffBoard {
                    square: text.to_string(),
                }),
            }
        }
        _ => Err(PositionError::NotASquare {
            shown: crate::shown::shown(text).to_string(),
        }),
    }
}

fn parse_range(t: &Tables, text: &str) -> Result<Vec<Sq>, PositionError> {
    if let Some((a, b)) = text.split_once('-') {
        let (a, b) = (parse_square(t, a)?, parse_square(t, b)?);
        if a > b {
            return Err(PositionError::Reversed {
                range: text.to_string(),
            });
        }
        return Ok((a.0..=b.0).map(Sq).collect());
    }
    Ok(vec![parse_square(t, text)?])
}
