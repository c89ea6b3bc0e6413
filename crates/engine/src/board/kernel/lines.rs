//! The kernel of lines: a fast path for rule files whose moves only place
//! pieces (the family of Gomoku and tic-tac-toe). Two sides, one kind,
//! placements from an unlimited hand on any empty square; pieces never
//! move and are never taken; the game ends by `end line N [exactly] DIRS`
//! (a row of a side's pieces) and when the board is full (`end no-moves`,
//! `end most-pieces`). Boards of any size (Gomoku's 225 squares, 361 on
//! 19 x 19) and shape (holes are walls); not boards whose `lines` join
//! only some squares.
//!
//! A position is an [`LPos`]: a mailbox of the board with a margin of
//! walls (so that a step along a direction is one constant offset and
//! never leaves the array) and the list of the empty squares in square
//! order. The general generator lists the placements by square, so the
//! i-th legal move is the i-th empty square: a random playout draws
//! `rng.below(n)` among the `n` empty squares as the general path does,
//! takes that entry out of the list, and looks for a row only through the
//! piece just placed (a row that doesn't hold it was there before the
//! move, when the game went on). Perft counts the last ply as the number
//! of empty squares, and plays the plies before it by make and unmake on
//! one position.

use crate::board::game::{EndCondition, PlaceRule};
use crate::board::position::Position;
use crate::board::tables::{Tables, EMPTY, UNLIMITED};
use crate::rng::Rng;

use super::playout::{self, PlayoutKernel};
use super::PlayoutHost;

/// A cell of the mailbox that is no square (the margin, or a hole).
const WALL: u8 = u8::MAX;

/// Why a rule file has no kernel of lines (another kernel or the general
/// path plays it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoLines {
    /// Not tried: a kernel before it in the order of `Tables::new` plays
    /// the game.
    Other,
    /// Not a game of placements alone: nothing is placed, or pieces move
    /// or are captured.
    Plain,
    /// Not two sides.
    Sides,
    /// More than one kind of piece.
    Kinds,
    /// A hand that runs out.
    Hand,
    /// Placements only where they enclose or next to one's own.
    Placing,
    /// Squares where no piece may stop, squares with powers, triggers,
    /// crowning.
    Squares,
    /// End rules other than rows and a full board (`line`, `no-moves`,
    /// `most-pieces`), or sides that drop out.
    End,
    /// A board whose `lines` join only some squares, or one too large for
    /// the mailbox.
    Board,
}

/// One direction along which a `line` rule counts a row: the offset of a
/// step in the mailbox, and whether the row must be exactly the rule's
/// length (`exactly`, where the opposite direction is one of the game's
/// too; without it the general path counts a row from every piece, and
/// `exactly N` holds wherever N or more are in a row).
#[derive(Clone, Copy, Debug)]
struct Axis {
    off: isize,
    exact: bool,
}

/// One `line` rule for one side: the length and the axes (a direction and
/// its opposite are one axis: a row along one is a row along the other).
#[derive(Clone, Debug)]
struct Row {
    length: u32,
    axes: Vec<Axis>,
}

/// The kernel of lines of one game (see the module comment).
#[derive(Clone, Debug)]
pub struct LineKernel {
    /// Cells of the mailbox.
    cells: usize,
    /// The mailbox cell of each square.
    cell_of: Vec<usize>,
    /// The square of each cell of the mailbox (`u16::MAX`: a wall).
    sq_of: Vec<u16>,
    /// Per side, the `line` rules.
    rows: [Vec<Row>; 2],
    /// Per side, the code of the piece it places.
    code: [u8; 2],
}

/// A position of the kernel of lines: the mailbox (`EMPTY`, a piece code,
/// or `WALL`), the empty squares in square order, and the side to move.
/// `Default` is empty and allocates nothing (a scratch buffer).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LPos {
    cells: Vec<u8>,
    empty: Vec<u16>,
    side: u8,
}

impl LPos {
    /// The empty squares, in square order.
    pub fn empty(&self) -> &[u16] {
        &self.empty
    }
}

impl LineKernel {
    /// The kernel of lines of a game, or why it has none.
    pub fn new(t: &Tables) -> Result<LineKernel, NoLines> {
        let moves = t.moves.iter().any(|m| {
            !m.step.is_empty()
                || !m.slide.is_empty()
                || !m.short_jump.is_empty()
                || !m.long_jump.is_empty()
                || !m.hop.is_empty()
                || !m.step_cap.is_empty()
                || !m.slide_cap.is_empty()
                || !m.clone.is_empty()
        });
        let captures = t.custodian.iter().any(|v| !v.is_empty())
            || t.neighbours.iter().any(|v| !v.is_empty())
            || t.stacks
            || t.any_jumps;
        if !t.places || moves || captures || !t.opening.is_empty() {
            return Err(NoLines::Plain);
        }
        if t.nsides != 2 {
            return Err(NoLines::Sides);
        }
        if t.nkinds != 1 {
            return Err(NoLines::Kinds);
        }
        if t.hand_start.iter().take(2).any(|&h| h != UNLIMITED) {
            return Err(NoLines::Hand);
        }
        if t.game.placing.as_ref().map(|p| p.rule) != Some(PlaceRule::Anywhere) {
            return Err(NoLines::Placing);
        }
        if t.no_stop.iter().any(|&b| b)
            || t.powers.is_some()
            || t.trigger_to.iter().any(Option::is_some)
            || t.promo_to.iter().any(|&c| c != 0)
        {
            return Err(NoLines::Squares);
        }
        if t.end.drop_out {
            return Err(NoLines::End);
        }
        let ends_by_rows_and_fullness = t.game.end.rules.iter().all(|r| {
            matches!(
                r.condition,
                EndCondition::Line { .. } | EndCondition::NoMoves | EndCondition::MostPieces
            )
        });
        if !ends_by_rows_and_fullness {
            return Err(NoLines::End);
        }
        if t.game.lines.is_some() {
            return Err(NoLines::Board);
        }
        let code = [t.place_code[0], t.place_code[1]];
        if code.iter().any(|&c| c == EMPTY || c == WALL) {
            return Err(NoLines::Placing);
        }
        // The line rules' directions, as the general path reads them: the
        // vectors that are directions of the game.
        let dirs_of = |vs: &[(i8, i8)]| -> Vec<(i8, i8)> {
            vs.iter()
                .copied()
                .filter(|v| t.game.dirs.contains(v))
                .collect()
        };
        let margin = t
            .game
            .end
            .rules
            .iter()
            .filter_map(|r| match &r.condition {
                EndCondition::Line { dirs, .. } => Some(dirs),
                _ => None,
            })
            .flatten()
            .flatten()
            .map(|&(dx, dy)| dx.unsigned_abs().max(dy.unsigned_abs()))
            .max()
            .unwrap_or(1)
            .max(1);
        let margin = usize::from(margin);
        let width = usize::from(t.game.width) + 2 * margin;
        let height = usize::from(t.game.height) + 2 * margin;
        let cells = width * height;
        if t.n >= usize::from(u16::MAX) || cells > 1 << 20 {
            return Err(NoLines::Board);
        }
        let mut cell_of = Vec::with_capacity(t.n);
        let mut sq_of = vec![u16::MAX; cells];
        for (i, s) in t.game.squares.iter().enumerate() {
            let c = (usize::from(s.rank) + margin) * width + usize::from(s.file) + margin;
            let slot = sq_of.get_mut(c).ok_or(NoLines::Board)?;
            *slot = u16::try_from(i).map_err(|_| NoLines::Board)?;
            cell_of.push(c);
        }
        let mut rows: [Vec<Row>; 2] = [Vec::new(), Vec::new()];
        for rule in &t.game.end.rules {
            let EndCondition::Line {
                length,
                exact,
                dirs,
            } = &rule.condition
            else {
                continue;
            };
            for (s, side_rows) in rows.iter_mut().enumerate() {
                let vs = dirs_of(dirs.get(s).map_or(&[][..], Vec::as_slice));
                let mut axes: Vec<Axis> = Vec::new();
                for (i, &(dx, dy)) in vs.iter().enumerate() {
                    let back = (-dx, -dy);
                    // One axis for a direction and its opposite.
                    if vs.get(..i).is_some_and(|before| before.contains(&back)) {
                        continue;
                    }
                    let off = isize::from(dy) * width as isize + isize::from(dx);
                    axes.push(Axis {
                        off,
                        exact: *exact && t.game.dirs.contains(&back),
                    });
                }
                side_rows.push(Row {
                    length: *length,
                    axes,
                });
            }
        }
        Ok(LineKernel {
            cells,
            cell_of,
            sq_of,
            rows,
            code,
        })
    }

    /// The kernel's form of a position (None if it doesn't fit: a side
    /// out, a hand that is not unlimited, counts that disagree).
    pub fn position(&self, pos: &Position) -> Option<LPos> {
        let mut p = LPos::default();
        self.position_into(pos, &mut p).then_some(p)
    }

    /// `position` into the buffers of `p` (no allocation once they are
    /// large enough); false if the position doesn't fit.
    pub fn position_into(&self, pos: &Position, p: &mut LPos) -> bool {
        if pos.out != 0 || pos.to_move > 1 || pos.board.len() != self.cell_of.len() {
            return false;
        }
        if pos.hand.iter().take(2).any(|&h| h != UNLIMITED) {
            return false;
        }
        p.cells.clear();
        p.cells.extend(
            self.sq_of
                .iter()
                .map(|&sq| if sq == u16::MAX { WALL } else { EMPTY }),
        );
        p.empty.clear();
        p.side = pos.to_move;
        let mut count = [0u16; 2];
        for ((sq, &code), &c) in pos.board.iter().enumerate().zip(&self.cell_of) {
            if code == EMPTY {
                p.empty.push(sq as u16);
                continue;
            }
            let Some(s) = self.code.iter().position(|&k| k == code) else {
                return false;
            };
            count[s] += 1;
            if let Some(cell) = p.cells.get_mut(c) {
                *cell = code;
            }
        }
        count[..] == pos.count[..2]
    }

    /// Writes a kernel position back into a `Position` of the game (its
    /// buffers reused; the hands are left as they are, unlimited).
    pub fn write_position(&self, t: &Tables, p: &LPos, pos: &mut Position) {
        pos.to_move = p.side;
        for (sq, &c) in self.cell_of.iter().enumerate() {
            let code = p.cells.get(c).copied().unwrap_or(EMPTY);
            let Some(&old) = pos.board.get(sq) else {
                continue;
            };
            if old == code {
                continue;
            }
            for (s, &k) in self.code.iter().enumerate() {
                if k == old {
                    pos.count[s] = pos.count[s].saturating_sub(1);
                }
                if k == code {
                    pos.count[s] += 1;
                }
            }
            pos.set_code(t, sq, code);
        }
    }

    /// The pieces of `code` in a row from `cell` (not counted) along
    /// `off`, up to `max`.
    #[inline(always)]
    fn run(cells: &[u8], cell: usize, off: isize, code: u8, max: u32) -> u32 {
        let mut n = 0;
        let mut at = cell;
        while n < max {
            at = at.wrapping_add_signed(off);
            if cells.get(at) != Some(&code) {
                break;
            }
            n += 1;
        }
        n
    }

    /// Whether the piece of side `s` on `cell` stands in a row of one of
    /// the side's `line` rules.
    #[inline(always)]
    fn row_through(&self, cells: &[u8], cell: usize, s: usize) -> bool {
        let code = self.code[s & 1];
        self.rows[s & 1].iter().any(|r| {
            r.axes.iter().any(|a| {
                let n = 1
                    + Self::run(cells, cell, a.off, code, r.length)
                    + Self::run(cells, cell, a.off.wrapping_neg(), code, r.length);
                if a.exact {
                    n == r.length
                } else {
                    n >= r.length
                }
            })
        })
    }

    /// Whether a side has a row of one of its `line` rules anywhere (the
    /// game is over by the position).
    fn any_row(&self, p: &LPos) -> bool {
        self.cell_of.iter().any(|&c| {
            let code = p.cells.get(c).copied().unwrap_or(EMPTY);
            self.code
                .iter()
                .position(|&k| k == code)
                .is_some_and(|s| self.row_through(&p.cells, c, s))
        })
    }

    /// The number of legal moves in `p` as the general generator lists
    /// them: the empty squares, 0 where the game is over by a row.
    pub fn count(&self, p: &LPos) -> u64 {
        if self.any_row(p) {
            0
        } else {
            p.empty.len() as u64
        }
    }

    /// Perft: the number of leaves of the move tree to `depth` plies.
    pub fn perft(&self, p: &LPos, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.any_row(p) || p.cells.len() != self.cells {
            return 0;
        }
        let mut q = p.clone();
        self.walk(&mut q, depth)
    }

    /// Perft below a position where the game goes on: each placement
    /// made and unmade on `p`; a child one ply from the leaves counts its
    /// empty squares, unless the placement made a row.
    fn walk(&self, p: &mut LPos, depth: usize) -> u64 {
        if depth <= 1 {
            return p.empty.len() as u64;
        }
        let s = usize::from(p.side & 1);
        let code = self.code[s];
        let n = p.empty.len();
        let mut total = 0;
        for i in 0..n {
            let Some(&sq) = p.empty.get(i) else {
                break;
            };
            let c = self.cell_of.get(usize::from(sq)).copied().unwrap_or(0);
            if let Some(cell) = p.cells.get_mut(c) {
                *cell = code;
            }
            if !self.row_through(&p.cells, c, s) {
                if depth == 2 {
                    total += n as u64 - 1;
                } else {
                    p.empty.remove(i);
                    p.side ^= 1;
                    total += self.walk(p, depth - 1);
                    p.side ^= 1;
                    p.empty.insert(i, sq);
                }
            }
            if let Some(cell) = p.cells.get_mut(c) {
                *cell = EMPTY;
            }
        }
        total
    }

    /// Plays at most `max` random plies from `p`, a position where the
    /// game goes on (see `playout::random_plies`): the i-th move is the
    /// i-th empty square. Stops after a ply that makes a row or fills the
    /// board, or when `host` says so. The plies played.
    // A function of its own, with the host inlined into its loop (inlined
    // into its caller, the host's `played` is a call a ply).
    #[inline(never)]
    pub fn random_plies<H: PlayoutHost>(
        &self,
        p: &mut LPos,
        rng: &mut Rng,
        max: u32,
        host: &mut H,
    ) -> u32 {
        playout::random_plies(self, p, rng, max, host)
    }
}

impl PlayoutKernel for LineKernel {
    type W = u64;
    type Pos = LPos;
    type Counted = ();
    /// The place of the square in the list of empty squares.
    type Move = usize;

    #[inline(always)]
    fn count_moves(&self, p: &LPos) -> Option<(u64, ())> {
        Some((p.empty.len() as u64, ()))
    }

    #[inline(always)]
    fn nth_move(&self, _: &LPos, _: &(), i: u64) -> Option<usize> {
        Some(i as usize)
    }

    #[inline(always)]
    fn make_move<H: PlayoutHost>(&self, p: &mut LPos, i: usize, host: &mut H) -> bool {
        let sq = p.empty.remove(i);
        let s = usize::from(p.side & 1);
        let code = self.code[s];
        let c = self.cell_of.get(usize::from(sq)).copied().unwrap_or(0);
        if let Some(cell) = p.cells.get_mut(c) {
            *cell = code;
        }
        p.side ^= 1;
        host.placed(s as u8, 0, code, sq) && !self.row_through(&p.cells, c, s)
    }
}
