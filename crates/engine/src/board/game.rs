//! The compiled game: what the checker hands the engine.
//!
//! Everything is a table indexed by small id types; no names are looked up
//! while a game is played. A `Game` is only built by `compile` from a checked
//! rule file, so the engine may rely on every invariant documented here. Its
//! values (ids, square sets, sides, zones, capture and end rules) are the
//! resolved vocabulary of the language, `crate::vocab::board`, re-exported
//! here.

use crate::source::Span;
pub use crate::vocab::board::*;
pub use crate::vocab::{Elimination, Verdict};

/// The moves of one piece kind for one side (relative directions resolved).
#[derive(Clone, Debug, Default)]
pub struct Moves {
    /// One square onto an empty square.
    pub step: Vec<DirId>,
    /// Any number of empty squares along the direction.
    pub slide: Vec<DirId>,
    /// Over an adjacent enemy onto the empty square just beyond.
    pub short_jump: Vec<DirId>,
    /// Over empty squares, one enemy, onto any empty square beyond.
    pub long_jump: Vec<DirId>,
    /// Over an adjacent piece of the mover's side onto the empty square
    /// just beyond, capturing nothing; hops chain (`hop`).
    pub hop: Vec<DirId>,
    /// Steps that may end on an enemy, which is captured (replacement).
    pub step_capture: Vec<DirId>,
    /// Slides that may end on the first enemy met, which is captured.
    pub slide_capture: Vec<DirId>,
    /// The limits of jumps along a direction: bits of `vocab::limit`.
    pub limits: Vec<(DirId, u8)>,
    /// Steps that leave the piece where it is and put a copy of it on the
    /// empty square (`clone`).
    pub clone: Vec<DirId>,
}

/// One piece kind.
#[derive(Clone, Debug)]
pub struct KindInfo {
    /// The identifier in the rule file (`man`).
    pub id: String,
    /// The display name (`Man`).
    pub name: String,
    /// The letter that marks it in position strings (`K`); kind 0 has none.
    pub letter: char,
    /// Its moves, indexed by side.
    pub moves: Vec<Moves>,
    /// Promotion: the new kind and, per side, the squares that crown a piece
    /// of that side.
    pub promotion: Option<(KindId, Vec<SquareSet>)>,
    /// Kinds that may not capture this kind (bit k set: kind k can't).
    pub immune_to: u32,
    /// Material value for evaluation (default 1; promoted kinds 3), rounded.
    pub value: i32,
    /// The value in thousandths, for the `most value` criterion.
    pub weight: u64,
    /// Per side, the squares where a piece of the kind is captured only
    /// when surrounded (`captured surrounded [at ZONE]`; None: captured
    /// like the others everywhere).
    pub surrounded: Option<Vec<SquareSet>>,
    /// It takes no part in capturing (`unarmed`).
    pub unarmed: bool,
    /// Where the kind is declared.
    pub span: Span,
}

/// A compiled game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The game's title.
    pub title: String,
    /// The rule file's description of the game.
    pub description: String,
    /// The game's number in PDN files (`pdn gametype`).
    pub pdn_game_type: Option<u32>,
    /// The board as checked: width, height, playable squares (indexed by
    /// `Sq`), notation, `rank * width + file` to the square there; read as
    /// the game's own fields (`game.width`) through `Deref`.
    pub board: Board,
    /// Direction vectors (dx, dy), indexed by `DirId`.
    pub dirs: Vec<(i8, i8)>,
    /// Sides in seat order.
    pub sides: Vec<SideInfo>,
    /// Who moves first.
    pub first: SideId,
    /// Piece kinds.
    pub kinds: Vec<KindInfo>,
    /// Zones.
    pub zones: Vec<ZoneInfo>,
    /// The start position.
    pub setup: Vec<(Sq, SideId, KindId)>,
    /// Capture rules.
    pub capture: CaptureRules,
    /// Rules applied when a move ends.
    pub triggers: Vec<Trigger>,
    /// Placing pieces from a hand, when the game has it.
    pub placing: Option<Placing>,
    /// `lines DIRS only from SET`: directions whose lines join only some
    /// squares (None: every line of the grid).
    pub lines: Option<Lines>,
    /// The opening moves, in order: each a removal of one of the mover's
    /// own pieces (empty: none).
    pub opening: Vec<OpeningMove>,
    /// End of game.
    pub end: EndRules,
}

impl std::ops::Deref for Game {
    type Target = Board;

    #[inline]
    fn deref(&self) -> &Board {
        &self.board
    }
}

impl Game {
    /// The playable square at (file, rank), both 0-based.
    pub fn square(&self, file: i32, rank: i32) -> Option<Sq> {
        if file < 0 || rank < 0 || file >= i32::from(self.width) || rank >= i32::from(self.height) {
            return None;
        }
        let i = usize::try_from(rank * i32::from(self.width) + file).ok()?;
        self.square_at.get(i).copied().flatten()
    }

    /// The square one vector `v` from `sq` along a line of the board: none
    /// off the board, on a hole, or where `lines` joins no such pair.
    pub fn linked(&self, sq: Sq, v: (i8, i8)) -> Option<Sq> {
        let info = self.squares.get(usize::from(sq.0))?;
        let to = self.square(
            i32::from(info.file) + i32::from(v.0),
            i32::from(info.rank) + i32::from(v.1),
        )?;
        match &self.lines {
            Some(lines) if !lines.joins(v, sq, to) => None,
            _ => Some(to),
        }
    }

    /// The squares that are no-stop (union of no-stop zones).
    pub fn no_stop(&self) -> SquareSet {
        let mut s = SquareSet::with_capacity(self.squares.len());
        for z in self.zones.iter().filter(|z| z.no_stop) {
            for v in &z.squares {
                s.union_with(v);
            }
        }
        s
    }
}
