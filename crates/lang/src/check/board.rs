//! The board: its size, its playable squares and how squares are written.

use super::merge::Merged;
use crate::ast::{Spanned, SquareRef};
use crate::diagnostic::{Code, Diagnostic};
pub use crate::vocab::board::Board;
use crate::vocab::board::{Notation, Playable, Sq, SquareInfo};

/// Sizes a board may have, in files and in ranks.
pub const SIZES: std::ops::RangeInclusive<u32> = 3..=26;

/// Why a written square is not a playable square of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareProblem {
    /// Outside the board.
    OffBoard,
    /// On the board but not playable.
    NotPlayable,
    /// A number, but the notation is algebraic.
    Numeric,
    /// A number outside 1..N.
    NumberRange,
    /// On the board but a hole (`holes`).
    Hole,
}

/// Checks the board statements.
pub fn check_board(merged: &Merged, diags: &mut Vec<Diagnostic>) -> Option<Board> {
    let Some((width, height)) = &merged.board else {
        let mut d = Diagnostic::new(Code::MissingBoard, "the game has no `board`")
            .help("add one, such as `board 8 x 8` (files x ranks)");
        if let Some(anchor) = merged.anchor {
            d = d.primary(anchor, "this game needs a board");
        }
        diags.push(d);
        return None;
    };
    let mut ok = true;
    for (n, what) in [(width, "width"), (height, "height")] {
        if !SIZES.contains(&n.node) {
            diags.push(
                Diagnostic::new(
                    Code::BoardSize,
                    format!(
                        "board {what} {} is outside {}..{}",
                        n.node,
                        SIZES.start(),
                        SIZES.end()
                    ),
                )
                .primary(
                    n.span,
                    format!("a {what} from {} to {}", SIZES.start(), SIZES.end()),
                )
                .help(format!(
                    "boards have {lo} to {hi} files (a..z) and {lo} to {hi} ranks",
                    lo = SIZES.start(),
                    hi = SIZES.end()
                )),
            );
            ok = false;
        }
    }
    if !ok {
        return None;
    }
    let width = u8::try_from(width.node).ok()?;
    let height = u8::try_from(height.node).ok()?;
    let playable = merged.playable.unwrap_or(Playable::All);
    let holes = check_holes(merged, width, height, diags);
    let mut squares = Vec::new();
    let mut square_at = vec![None; usize::from(width) * usize::from(height)];
    for rank in (0..height).rev() {
        for file in 0..width {
            let even = (u32::from(file) + u32::from(rank)) % 2 == 0;
            let is_playable = match playable {
                Playable::All => true,
                Playable::Dark => even,
                Playable::Light => !even,
            };
            let cell = usize::from(rank) * usize::from(width) + usize::from(file);
            if !is_playable || holes.get(cell).copied().unwrap_or(false) {
                continue;
            }
            let index = u16::try_from(squares.len()).ok()?;
            if let Some(slot) =
                square_at.get_mut(usize::from(rank) * usize::from(width) + usize::from(file))
            {
                *slot = Some(Sq(index));
            }
            squares.push(SquareInfo {
                file,
                rank,
                algebraic: format!("{}{}", char::from(b'a' + file), u32::from(rank) + 1),
                number: index + 1,
            });
        }
    }
    Some(Board {
        width,
        height,
        playable,
        notation: merged.notation.unwrap_or(Notation::Algebraic),
        squares,
        square_at,
        holes,
    })
}

/// The cells (`rank * width + file`) that `holes` takes out of the board;
/// a hole off the board, or written as a number, is an error.
fn check_holes(merged: &Merged, width: u8, height: u8, diags: &mut Vec<Diagnostic>) -> Vec<bool> {
    let mut holes = vec![false; usize::from(width) * usize::from(height)];
    let Some((list, _)) = &merged.holes else {
        return holes;
    };
    let last_file = char::from(b'a' + width.saturating_sub(1));
    for square in list {
        match square.node {
            SquareRef::Algebraic { file, rank }
                if file < u32::from(width) && rank >= 1 && rank <= u32::from(height) =>
            {
                let cell = usize::try_from((rank - 1) * u32::from(width) + file).ok();
                if let Some(slot) = cell.and_then(|c| holes.get_mut(c)) {
                    *slot = true;
                }
            }
            SquareRef::Algebraic { file, rank } => {
                let letter = u8::try_from(file)
                    .ok()
                    .map_or('?', |f| char::from(b'a'.saturating_add(f)));
                diags.push(
                    Diagnostic::new(
                        Code::OffBoard,
                        format!("hole `{letter}{rank}` is off the board"),
                    )
                    .primary(square.span, format!("not on the {width} x {height} board"))
                    .help(format!(
                        "a hole is a square of the board, from a1 to {last_file}{height}"
                    )),
                );
            }
            SquareRef::Number(n) => diags.push(
                Diagnostic::new(
                    Code::NumericSquare,
                    format!("hole `{n}` is written as a number"),
                )
                .primary(square.span, "a square number")
                .help("squares are numbered without the holes: write a hole as file and rank, such as `c3`"),
            ),
        }
    }
    holes
}

impl Board {
    /// The playable square at 0-based (file, rank).
    pub fn at(&self, file: u32, rank: u32) -> Option<Sq> {
        if file >= u32::from(self.width) || rank >= u32::from(self.height) {
            return None;
        }
        let i = usize::try_from(rank * u32::from(self.width) + file).ok()?;
        self.square_at.get(i).copied().flatten()
    }

    /// The playable square a written square means.
    pub fn resolve(&self, square: SquareRef) -> Result<Sq, SquareProblem> {
        match square {
            SquareRef::Algebraic { file, rank } => {
                if file >= u32::from(self.width) || rank == 0 || rank > u32::from(self.height) {
                    return Err(SquareProblem::OffBoard);
                }
                self.at(file, rank - 1).ok_or_else(|| {
                    let at = |n: u32| i32::try_from(n).unwrap_or(-1);
                    if self.hole(at(file), at(rank - 1)) {
                        SquareProblem::Hole
                    } else {
                        SquareProblem::NotPlayable
                    }
                })
            }
            SquareRef::Number(n) => {
                if self.notation == Notation::Algebraic {
                    return Err(SquareProblem::Numeric);
                }
                if n == 0 || n as usize > self.squares.len() {
                    return Err(SquareProblem::NumberRange);
                }
                u16::try_from(n - 1)
                    .map(Sq)
                    .map_err(|_| SquareProblem::NumberRange)
            }
        }
    }

    /// `8 x 8`
    fn size(&self) -> String {
        format!("{} x {}", self.width, self.height)
    }

    /// The diagnostic for a square that can't be used; `not_playable` is the
    /// code for a square that is on the board but not playable.
    pub fn problem(
        &self,
        square: &Spanned<SquareRef>,
        problem: SquareProblem,
        not_playable: Code,
    ) -> Diagnostic {
        let text = match square.node {
            SquareRef::Algebraic { file, rank } => {
                let letter = u8::try_from(file)
                    .ok()
                    .map_or('?', |f| char::from(b'a'.saturating_add(f)));
                format!("{letter}{rank}")
            }
            SquareRef::Number(n) => n.to_string(),
        };
        let last_file = char::from(b'a' + self.width.saturating_sub(1));
        match problem {
            SquareProblem::OffBoard => {
                Diagnostic::new(Code::OffBoard, format!("square `{text}` is off the board"))
                    .primary(square.span, format!("not on the {} board", self.size()))
                    .help(format!("squares go from a1 to {last_file}{}", self.height))
            }
            SquareProblem::NotPlayable => {
                let (message, label, help) = if not_playable == Code::ZoneNotPlayable {
                    (
                        format!("square `{text}` of the zone is not playable"),
                        "no piece can stand here, so this has no effect",
                        "remove the square from the zone",
                    )
                } else {
                    (
                        format!("square `{text}` is not playable"),
                        "no piece can stand here",
                        "pieces stand only on the playable squares (see `playable`)",
                    )
                };
                Diagnostic::new(not_playable, message)
                    .primary(square.span, label)
                    .help(help)
            }
            SquareProblem::Hole => {
                let (message, label, help) = if not_playable == Code::ZoneNotPlayable {
                    (
                        format!("square `{text}` of the zone is a hole"),
                        "not part of the board (see `holes`), so this has no effect",
                        "remove the square from the zone",
                    )
                } else {
                    (
                        format!("square `{text}` is a hole"),
                        "not part of the board: no piece can stand here",
                        "set the piece up on another square, or take the square out of `holes`",
                    )
                };
                Diagnostic::new(not_playable, message)
                    .primary(square.span, label)
                    .help(help)
            }
            SquareProblem::Numeric => Diagnostic::new(
                Code::NumericSquare,
                format!("square number `{text}` in a game with algebraic notation"),
            )
            .primary(square.span, "a square number")
            .help("write the square as file and rank, such as `c3`, or add `notation numeric`"),
            SquareProblem::NumberRange => Diagnostic::new(
                Code::SquareNumber,
                format!("there is no square number {text}"),
            )
            .primary(
                square.span,
                format!("squares are numbered 1 to {}", self.squares.len()),
            )
            .help(format!(
                "this board has {} playable squares",
                self.squares.len()
            )),
        }
    }
}
