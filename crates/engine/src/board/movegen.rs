//! Legal move generation: steps, slides, and jump chains (short and long),
//! with the capture rules of the game (compulsion, the most pieces, removal
//! at the end or at once, conversion, crowning mid-chain, landing rules) and
//! the merging of captures that differ only in order (DR-3).
//!
//! Moves go into a `MoveList` whose buffers are reused: after the first few
//! positions generation allocates nothing.

use super::bitboard::{shift, Bb, Layout};
use super::end::{eliminate, in_play, position_over, sides_in_play};
use super::position::Position;
use super::tables::{OpeningSquares, Powers, Tables, DEAD, EMPTY, NONE, NO_DIR, UNLIMITED};
use crate::board::game::{event, Criterion, Hostile, JumpEffect, MidChainCrown, Verdict};
use crate::vocab::limit;

/// One legal move. Its landing squares and captured squares live in the
/// owning `MoveList`'s arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRec {
    /// Start square, or NONE for a pass.
    pub from: u16,
    /// End square, or NONE for a pass.
    pub to: u16,
    /// Landing squares in order (the last is `to`); empty for a plain step
    /// or slide, whose only landing is `to`.
    /// They are `path_len` squares of the list's arena from `path_off`.
    pub path_off: u32,
    /// How many landing squares.
    pub path_len: u16,
    /// Captured squares, sorted: `cap_len` squares of the arena from
    /// `cap_off`.
    pub cap_off: u32,
    /// How many captured squares.
    pub cap_len: u16,
    /// The piece code that stands on `to` after the move.
    pub result: u8,
    /// Events of `game::event` the move causes.
    pub flags: u8,
}

impl MoveRec {
    /// Whether the move is a pass.
    pub fn is_pass(&self) -> bool {
        self.from == NONE
    }

    /// Whether the move places a piece from the hand: it starts and ends
    /// on the square it fills (no move of a piece does: a chain that comes
    /// back to its start has landings). A removal of the opening
    /// (`is_removal`) is written the same way, and counts as one too.
    #[inline]
    pub fn is_place(&self) -> bool {
        self.from == self.to && self.path_len == 0 && self.from != NONE
    }

    /// Whether the move is an opening move's removal of one of the mover's
    /// own pieces: a placement that leaves the square empty.
    #[inline]
    pub fn is_removal(&self) -> bool {
        self.is_place() && self.result == EMPTY
    }
}

/// A list of moves with its arena.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    /// The moves.
    pub moves: Vec<MoveRec>,
    /// The squares of every move's landings and captures.
    pub arena: Vec<u16>,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: Vec::with_capacity(64),
            arena: Vec::with_capacity(256),
        }
    }

    /// Empties the list, keeping its buffers.
    pub fn clear(&mut self) {
        self.moves.clear();
        self.arena.clear();
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether there are no moves.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The captured squares of a move.
    pub fn captured(&self, m: &MoveRec) -> &[u16] {
        let o = m.cap_off as usize;
        self.arena.get(o..o + usize::from(m.cap_len)).unwrap_or(&[])
    }

    /// The landing squares of a move (for a step or slide, just `to`).
    pub fn path(&self, m: &MoveRec) -> Vec<u16> {
        if m.is_pass() {
            return Vec::new();
        }
        if m.path_len == 0 {
            return vec![m.to];
        }
        let o = m.path_off as usize;
        self.arena
            .get(o..o + usize::from(m.path_len))
            .map(<[u16]>::to_vec)
            .unwrap_or_default()
    }
}

/// Scratch space for generation.
#[derive(Clone, Debug, Default)]
pub struct Generator {
    path: Vec<u16>,
    caps: Vec<u16>,
    sorted: Vec<u16>,
    aux: MoveList,
    /// Captures in the list start here.
    cap_begin: usize,
    arena_begin: usize,
    best: u16,
    /// The codes of the captured pieces, in the order of the chain.
    cap_codes: Vec<u8>,
    /// Per capture in the list, its score under each criterion (general
    /// path with criteria only), `criteria.len()` values each.
    scores: Vec<i64>,
    /// Count captures that take the same pieces along different paths as
    /// different moves (`perft --paths`).
    pub distinct_paths: bool,
    /// In a game of columns, the position's pieces under the top ones while
    /// its captures are searched (a jumped column's next piece comes up).
    under: Vec<Vec<u8>>,
    /// The squares a piece's hops reach, each with the index of the one it
    /// hopped from (`u32::MAX`: the start), for `hops`.
    hop_nodes: Vec<(u16, u32)>,
    /// Leave the precedence criteria out (to explain which one rules a
    /// capture out).
    pub all_captures: bool,
    /// Search every chain state however often it is reached (to compare
    /// with the remembering search in tests; the moves are the same).
    pub no_memo: bool,
    /// The chain states (square, piece, last direction, captured set) from
    /// which the chains of the current start square were already searched:
    /// a chain that reaches one again can only find moves already found
    /// (the same start, end, captured set and result: DR-3), so it stops.
    /// States are kept by a 128-bit fingerprint (see [`square_key`]).
    seen: std::collections::HashSet<u128, std::hash::BuildHasherDefault<KeyHasher>>,
    /// Chain steps searched in this generation (see [`MAX_CHAIN_STEPS`]).
    steps: u32,
    /// Search without cutting chains that can't reach the longest found
    /// under the majority rule (to compare in tests; the moves are the
    /// same).
    pub no_bound: bool,
    /// Per square, what the last flood of [`Generator::reach_bound`] saw.
    flood: Vec<FloodSq>,
    flood_stamp: u32,
    flood_stack: Vec<u16>,
    /// The jumps (from, victim, landing) the last flood found.
    flood_jumps: Vec<(u16, u16, u16)>,
    /// A generation stopped at [`MAX_CHAIN_STEPS`] or [`MAX_MOVES`].
    overflow: bool,
    /// The squares a copy was already put on (`clone`), one bit a square.
    cloned: Vec<u64>,
}

/// What one flood of [`Generator::reach_bound`] saw on one square. A field
/// is valid when its stamp is the flood's.
#[derive(Clone, Copy, Debug, Default)]
struct FloodSq {
    /// The flood reached this square (`cur` or a landing square).
    reached: u32,
    /// The flood met the piece on this square as a victim (and reset
    /// `usable` and `middle`).
    victim: u32,
    /// The flood set `land` and `from`.
    seen: u32,
    /// The victim of the jumps that land here ([`MANY`] for two or more).
    land: u16,
    /// The victim of the jumps that start here ([`MANY`] for two or more).
    from: u16,
    /// As a victim: a chain may take it.
    usable: bool,
    /// As a victim: a chain may take it and go on.
    middle: bool,
}

/// Two victims or more, in [`FloodSq`].
const MANY: u16 = NONE - 1;

impl FloodSq {
    fn touch(&mut self, stamp: u32) {
        if self.seen != stamp {
            self.seen = stamp;
            self.land = NONE;
            self.from = NONE;
        }
    }
    fn note_from(&mut self, stamp: u32, v: u16) {
        self.touch(stamp);
        self.from = merge_victim(self.from, v);
    }
    fn note_land(&mut self, stamp: u32, v: u16) {
        self.touch(stamp);
        self.land = merge_victim(self.land, v);
    }
    /// Whether a jump over a piece other than the one on `v` lands here.
    fn lands_other_than(&self, stamp: u32, v: u16) -> bool {
        self.seen == stamp && self.land != NONE && self.land != v
    }
    /// Whether a jump over a piece other than the one on `v` starts here.
    fn starts_other_than(&self, stamp: u32, v: u16) -> bool {
        self.seen == stamp && self.from != NONE && self.from != v
    }
}

fn merge_victim(old: u16, v: u16) -> u16 {
    if old == NONE || old == v {
        v
    } else {
        MANY
    }
}

/// The most jump-chain steps past a chain's third capture searched for one
/// side's moves in one position (docs/limits.md). Chains that reach a
/// state already searched stop at once, and under the majority rule so do
/// chains that can't reach the longest found, so this is only reached by
/// positions with an astronomical number of chain states (a flying king
/// facing a 7 x 7 lattice of men, tests/capture_search.rs); the
/// generation then stops, [`Generator::overflowed`] says so, and the
/// generator searches no chain past its third capture again until
/// [`Generator::clear_overflow`].
pub const MAX_CHAIN_STEPS: u32 = 4_000_000;

/// The most moves listed for one position (docs/limits.md); past it the
/// generation stops and [`Generator::overflowed`] says so.
pub const MAX_MOVES: usize = 20_000;

/// Chains of this many captures or more are looked up in `seen` (shorter
/// ones, the common case, are searched without the bookkeeping).
const MEMO_FROM: usize = 3;

/// The most chain states remembered in `seen` (2,097,152: a table of at
/// most some 70 MB, reached only by positions near [`MAX_CHAIN_STEPS`]):
/// past it the search goes on without remembering more.
const MEMO_STATES: usize = 1 << 21;

/// The hasher of the chain states' fingerprints: they are random-looking
/// already, so their low 64 bits are the hash (no SipHash on the way).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

/// A 128-bit random-looking key of a number (a captured square, or a
/// chain's square, piece and last direction): the fingerprint of a chain
/// state is the XOR of its captured squares' keys and its place's key,
/// computed only for chains of [`MEMO_FROM`] captures or more. Two
/// different states of one search share a fingerprint with a probability
/// below 2^-80 even at [`MEMO_STATES`] states, far below any chance of a
/// hardware fault, so the moves found are those of the full search.
#[inline]
fn square_key(n: u64) -> u128 {
    // SplitMix64 (Steele, Lea and Flood 2014), twice with different streams.
    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    let a = mix(n
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(0x632b_e59b_d9b4_e019));
    let b = mix(n
        .wrapping_mul(0xd1b5_4a32_d192_ed03)
        .wrapping_add(0x8cb9_2ba7_2f3d_8dd7));
    u128::from(a) << 64 | u128::from(b)
}

impl Generator {
    /// A new generator, with room for the chains of nearly every position
    /// (random playouts that reach the general path only now and then
    /// don't grow it in the middle of a game).
    pub fn new() -> Generator {
        Generator {
            path: Vec::with_capacity(32),
            caps: Vec::with_capacity(32),
            sorted: Vec::with_capacity(32),
            cap_codes: Vec::with_capacity(32),
            ..Generator::default()
        }
    }

    /// Whether a generation since this generator was made (or since
    /// [`Generator::clear_overflow`]) stopped at [`MAX_CHAIN_STEPS`] or
    /// [`MAX_MOVES`], leaving its list incomplete.
    pub fn overflowed(&self) -> bool {
        self.overflow
    }

    /// The chain steps past a chain's third capture searched for the last
    /// side generated.
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// Forgets an overflow.
    pub fn clear_overflow(&mut self) {
        self.overflow = false;
    }

    /// All legal moves of the side to move. A side that can't move gets a
    /// single pass when the game says so and another side can move; a game
    /// that is over has no moves.
    pub fn generate(&mut self, t: &Tables, pos: &mut Position, list: &mut MoveList) {
        list.clear();
        if position_over(t, pos) {
            return;
        }
        self.generate_side(t, pos, pos.to_move, list);
        let drop_out = t.end.drop_out
            && t.end.no_moves == Verdict::Lose
            && list.is_empty()
            && sides_in_play(t, pos) > 2;
        if drop_out {
            // It loses and drops out; the others play on.
            list.moves.push(MoveRec {
                from: NONE,
                to: NONE,
                path_off: 0,
                path_len: 0,
                cap_off: 0,
                cap_len: 0,
                result: 0,
                flags: event::DROP_OUT as u8,
            });
            return;
        }
        if list.is_empty() && t.end.no_moves == Verdict::Pass {
            let mut aux = std::mem::take(&mut self.aux);
            let mut someone = false;
            for s in 0..t.nsides as u8 {
                if s != pos.to_move {
                    self.generate_side(t, pos, s, &mut aux);
                    if !aux.is_empty() {
                        someone = true;
                        break;
                    }
                }
            }
            self.aux = aux;
            if someone {
                list.moves.push(MoveRec {
                    from: NONE,
                    to: NONE,
                    path_off: 0,
                    path_len: 0,
                    cap_off: 0,
                    cap_len: 0,
                    result: 0,
                    flags: 0,
                });
            }
        }
    }

    /// The number of legal moves of the side to move, as `generate` would
    /// give, without writing the quiet moves down when no capture exists
    /// (perft's bulk count at the last ply).
    pub fn count(&mut self, t: &Tables, pos: &mut Position, list: &mut MoveList) -> usize {
        if position_over(t, pos) {
            return 0;
        }
        let side = pos.to_move;
        if t.general || !t.capture_compulsory || t.end.no_moves == Verdict::Pass || t.end.drop_out {
            self.generate(t, pos, list);
            return list.len();
        }
        if let Some(l) = &t.layout {
            return match count_bb(t, l, pos, side, false) {
                Some(n) => n,
                None => {
                    self.generate(t, pos, list);
                    list.len()
                }
            };
        }
        let mut total = 0;
        for sq in 0..t.n {
            let code = pos.board[sq];
            if code == EMPTY || t.code_side[usize::from(code)] != side {
                continue;
            }
            if t.any_jumps {
                pos.board[sq] = EMPTY;
                let jumps = Self::can_jump(t, &pos.board, sq as u16, code, side, NO_DIR);
                pos.board[sq] = code;
                if jumps {
                    self.generate(t, pos, list);
                    return list.len();
                }
            }
            for &to in t.steps(code, sq) {
                total += usize::from(pos.board[usize::from(to)] == EMPTY);
            }
            let from = sq as u16;
            for &d in &t.moves[usize::from(code)].slide {
                let mut to = t.step(from, d);
                while to != NONE && pos.board[usize::from(to)] == EMPTY {
                    if !t.no_stop[usize::from(to)] {
                        total += 1;
                    }
                    to = t.step(to, d);
                }
            }
        }
        total
    }

    /// The number of legal moves of the side to move when every one is a
    /// quiet move (no capture exists) and there is at least one, found
    /// with bitboards without writing them down; None otherwise (or when
    /// the game is over by the position, or the bitboards can't tell):
    /// `generate` decides. With [`Generator::nth_quiet`], a random
    /// playout builds only the move it draws.
    pub fn count_quiets(&self, t: &Tables, pos: &Position) -> Option<usize> {
        if t.general || !t.capture_compulsory || t.end.drop_out || position_over(t, pos) {
            return None;
        }
        let l = t.layout.as_ref()?;
        count_bb(t, l, pos, pos.to_move, true).filter(|&n| n > 0)
    }

    /// Puts quiet move `i` of the side to move, in the order of
    /// `generate`, alone into `list` (where `count_quiets` counted them);
    /// false when there is no such move.
    pub fn nth_quiet(&self, t: &Tables, pos: &Position, mut i: usize, list: &mut MoveList) -> bool {
        list.clear();
        let Some(l) = t.layout.as_ref() else {
            return false;
        };
        let side = pos.to_move;
        let first = 1 + usize::from(side) * t.nkinds;
        let mut own: Bb = 0;
        for b in pos.bb.get(first..first + t.nkinds).unwrap_or(&[]) {
            own |= b;
        }
        while own != 0 {
            let b = own.trailing_zeros() as usize;
            own &= own - 1;
            let Some(&sq) = l.sq_of.get(b) else {
                return false;
            };
            let sq = usize::from(sq);
            let code = pos.board[sq];
            let c = quiets_of(t, pos, sq, code);
            if i >= c {
                i -= c;
                continue;
            }
            push_quiets(t, pos, list, sq, code, side);
            if i >= list.moves.len() {
                return false;
            }
            list.moves.swap(0, i);
            list.moves.truncate(1);
            return true;
        }
        false
    }

    /// All legal moves of one side, ignoring passes.
    pub fn generate_side(&mut self, t: &Tables, pos: &mut Position, side: u8, list: &mut MoveList) {
        list.clear();
        self.cap_begin = 0;
        self.arena_begin = 0;
        self.best = 0;
        self.steps = 0;
        if t.general {
            self.generate_side_general(t, pos, side, list);
            return;
        }
        if let Some(l) = &t.layout {
            self.generate_side_bb(t, l, pos, side, list);
            return;
        }
        let n = t.n;
        if t.any_jumps {
            for sq in 0..n {
                let code = pos.board[sq];
                if code == EMPTY || t.code_side[usize::from(code)] != side {
                    continue;
                }
                if !t.moves[usize::from(code)].has_jumps() {
                    continue;
                }
                self.captures_from(t, pos, list, sq, code, side);
            }
            if !list.is_empty() && t.capture_compulsory {
                return;
            }
        }
        for sq in 0..n {
            let code = pos.board[sq];
            if code == EMPTY || t.code_side[usize::from(code)] != side {
                continue;
            }
            push_quiets(t, pos, list, sq, code, side);
        }
    }

    /// The jump chains of the piece on `sq`.
    #[inline]
    fn captures_from(
        &mut self,
        t: &Tables,
        pos: &mut Position,
        list: &mut MoveList,
        sq: usize,
        code: u8,
        side: u8,
    ) {
        let from = sq as u16;
        pos.board[sq] = EMPTY; // AR-13: the start square counts as empty
        if Self::can_jump(t, &pos.board, from, code, side, NO_DIR) {
            self.path.clear();
            self.caps.clear();
            self.cap_codes.clear();
            if !self.seen.is_empty() {
                self.seen.clear();
            }
            self.dfs(
                t,
                &mut pos.board,
                list,
                from,
                code,
                from,
                code,
                side,
                NO_DIR,
            );
        }
        pos.board[sq] = code;
    }

    /// `generate_side` with bitboards: only the pieces that can jump are
    /// searched, and only the side's pieces are visited.
    fn generate_side_bb(
        &mut self,
        t: &Tables,
        l: &Layout,
        pos: &mut Position,
        side: u8,
        list: &mut MoveList,
    ) {
        let first = 1 + usize::from(side) * t.nkinds;
        let mut own: Bb = 0;
        for b in &pos.bb[first..first + t.nkinds] {
            own |= b;
        }
        if t.any_jumps {
            let mut cand = capturers_bb(t, l, pos, side);
            while cand != 0 {
                let b = cand.trailing_zeros() as usize;
                cand &= cand - 1;
                let sq = usize::from(l.sq_of[b]);
                let code = pos.board[sq];
                self.captures_from(t, pos, list, sq, code, side);
            }
            if !list.is_empty() && t.capture_compulsory {
                return;
            }
        }
        while own != 0 {
            let b = own.trailing_zeros() as usize;
            own &= own - 1;
            let sq = usize::from(l.sq_of[b]);
            let code = pos.board[sq];
            push_quiets(t, pos, list, sq, code, side);
        }
    }

    #[inline(always)]
    fn capturable(t: &Tables, v: u8, _side: u8, code: u8) -> bool {
        t.can_capture(code, v)
    }

    /// Whether a piece of `code` on `cur` has any jump (for AR-11); `last`
    /// is the direction of the jump that brought it there (for `no-reverse`).
    fn can_jump(t: &Tables, board: &[u8], cur: u16, code: u8, side: u8, last: u8) -> bool {
        let m = &t.moves[usize::from(code)];
        let kept = t.any_limits && last != NO_DIR;
        for &(over, land) in t.jumps(code, usize::from(cur)) {
            if board[usize::from(land)] == EMPTY
                && Self::capturable(t, board[usize::from(over)], side, code)
                && !(kept && bends(t, code, short_dir(t, code, cur, over), last))
            {
                return true;
            }
        }
        for &d in &m.long_jump {
            let lim = t.limits(code, d);
            if lim & limit::NO_REVERSE != 0 && last != NO_DIR && t.rev[usize::from(last)] == d {
                continue;
            }
            if lim & limit::STRAIGHT != 0 && last != NO_DIR && last != d {
                continue;
            }
            let mut sq = t.step(cur, d);
            while sq != NONE && board[usize::from(sq)] == EMPTY {
                sq = t.step(sq, d);
            }
            if sq == NONE || !Self::capturable(t, board[usize::from(sq)], side, code) {
                continue;
            }
            let mut land = t.step(sq, d);
            while land != NONE && board[usize::from(land)] == EMPTY {
                if !t.no_stop[usize::from(land)] {
                    return true;
                }
                if lim & limit::LAND_BEYOND != 0 {
                    break;
                }
                land = t.step(land, d);
            }
        }
        false
    }

    /// The code a piece becomes on landing at `land` in the middle of a chain,
    /// and whether the chain stops there.
    #[inline(always)]
    fn crown_mid(t: &Tables, code: u8, land: u16) -> (u8, bool) {
        let promo = t.promo_to[usize::from(code)];
        if promo != 0 && t.promo_at[usize::from(code) * t.n + usize::from(land)] {
            match t.mid_chain {
                MidChainCrown::Stay => (code, false),
                MidChainCrown::Continue => (promo, false),
                MidChainCrown::Stop => (code, true),
            }
        } else {
            (code, false)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &mut self,
        t: &Tables,
        board: &mut [u8],
        list: &mut MoveList,
        from: u16,
        start_code: u8,
        cur: u16,
        code: u8,
        side: u8,
        last: u8,
    ) {
        let depth = self.caps.len();
        // Chains of fewer than MEMO_FROM captures, the common case, are
        // neither counted nor remembered (out of line: the common path
        // pays one comparison): their number is bounded by the moves of a
        // piece to that power.
        if depth >= MEMO_FROM && self.deep_chain_stops(t, board, cur, code, last) {
            return;
        }
        if depth > 0 && !t.must_continue {
            self.emit(t, list, from, cur, start_code, code, side);
        }
        let mut extended = false;
        let m = &t.moves[usize::from(code)];
        for &(over, land) in t.jumps(code, usize::from(cur)) {
            if board[usize::from(land)] != EMPTY
                || !Self::capturable(t, board[usize::from(over)], side, code)
            {
                continue;
            }
            let d = if t.any_limits {
                let d = short_dir(t, code, cur, over);
                if bends(t, code, d, last) {
                    continue;
                }
                d
            } else {
                NO_DIR
            };
            extended = true;
            self.jump(t, board, list, from, start_code, over, land, code, side, d);
        }
        for &d in &m.long_jump {
            let lim = t.limits(code, d);
            if lim & limit::NO_REVERSE != 0 && last != NO_DIR && t.rev[usize::from(last)] == d {
                continue;
            }
            if lim & limit::STRAIGHT != 0 && last != NO_DIR && last != d {
                continue;
            }
            let mut sq = t.step(cur, d);
            while sq != NONE && board[usize::from(sq)] == EMPTY {
                sq = t.step(sq, d);
            }
            if sq == NONE || !Self::capturable(t, board[usize::from(sq)], side, code) {
                continue;
            }
            let over = sq;
            let first = t.step(over, d);
            if first == NONE || board[usize::from(first)] != EMPTY {
                continue;
            }
            // AR-11: where the chain can go on from some landing square, only
            // those squares are allowed.
            let beyond = lim & limit::LAND_BEYOND != 0;
            let mut only_continuing = false;
            if t.long_must_continue || lim & limit::MUST_CONTINUE != 0 {
                let saved = board[usize::from(over)];
                board[usize::from(over)] = self.jumped_code(t, over, side);
                let mut land = first;
                while land != NONE && board[usize::from(land)] == EMPTY {
                    if !t.no_stop[usize::from(land)] {
                        let (c2, stop) = Self::crown_mid(t, code, land);
                        if !stop && Self::can_jump(t, board, land, c2, side, d) {
                            only_continuing = true;
                            break;
                        }
                    }
                    if beyond {
                        break;
                    }
                    land = t.step(land, d);
                }
                self.unjumped(t, over, board[usize::from(over)]);
                board[usize::from(over)] = saved;
            }
            let mut land = first;
            while land != NONE && board[usize::from(land)] == EMPTY {
                if !t.no_stop[usize::from(land)] {
                    let ok = if only_continuing {
                        let saved = board[usize::from(over)];
                        board[usize::from(over)] = self.jumped_code(t, over, side);
                        let (c2, stop) = Self::crown_mid(t, code, land);
                        let ok = !stop && Self::can_jump(t, board, land, c2, side, d);
                        self.unjumped(t, over, board[usize::from(over)]);
                        board[usize::from(over)] = saved;
                        ok
                    } else {
                        true
                    };
                    if ok {
                        extended = true;
                        self.jump(t, board, list, from, start_code, over, land, code, side, d);
                    }
                }
                if beyond {
                    break;
                }
                land = t.step(land, d);
            }
        }
        if depth > 0 && !extended && t.must_continue {
            self.emit(t, list, from, cur, start_code, code, side);
        }
    }

    /// For a chain of [`MEMO_FROM`] captures or more: counts the step, and
    /// whether the search stops here, past [`MAX_CHAIN_STEPS`] or at a
    /// state already searched (which it then remembers).
    ///
    /// Under the majority rule it also stops a chain that can't take as
    /// many pieces as the longest chain found so far: its captures so far
    /// plus every piece it could still reach ([`Generator::reach_bound`])
    /// fall short, so every move it leads to would be dropped by `emit`.
    #[cold]
    #[inline(never)]
    fn deep_chain_stops(&mut self, t: &Tables, board: &[u8], cur: u16, code: u8, last: u8) -> bool {
        self.steps += 1;
        if self.steps > MAX_CHAIN_STEPS || self.overflow {
            self.overflow = true;
            return true;
        }
        if self.memo(t) {
            let last = if t.any_limits { last } else { NO_DIR };
            let here = u64::from(cur) | u64::from(code) << 16 | u64::from(last) << 24;
            let key = self.caps.iter().fold(square_key(here | 1 << 40), |k, &c| {
                k ^ square_key(u64::from(c))
            });
            if self.seen.contains(&key) {
                return true;
            }
            if self.seen.len() < MEMO_STATES {
                self.seen.insert(key);
            }
        }
        // A state cut here is cut again if it is reached again (the same
        // captured set is the same depth and board, and `best` only grows),
        // so remembering it above stays exact.
        if t.capture_most && !self.no_bound && !t.stacks {
            let depth = self.caps.len();
            let best = usize::from(self.best);
            if depth < best && depth + self.reach_bound(t, board, cur, code) < best {
                return true;
            }
        }
        false
    }

    /// An upper bound on the pieces a chain standing on `cur` with a piece
    /// of `code` can still take. A flood of the board from `cur` along
    /// every jump of the piece (and of what it may be crowned into
    /// mid-chain) finds every jump a chain could make from here: it is
    /// generous wherever a rule could only forbid (it ignores landing
    /// limits and squares where a piece may not stop, and where pieces
    /// are removed at once it lets a ray go on past a victim and land on
    /// victims' squares). Pieces already taken are dead, gone or converted
    /// on `board`, so they are not met.
    ///
    /// A chain takes only pieces met by the flood, and of those only the
    /// ones with a jump from `cur` or from a square where a jump over
    /// another piece lands; and all but its last capture land where a
    /// jump over another piece starts. So of the pieces that can only be
    /// taken last, a chain takes at most one.
    fn reach_bound(&mut self, t: &Tables, board: &[u8], cur: u16, code: u8) -> usize {
        let mut codes = [code; 4];
        let mut ncodes = 1;
        if t.mid_chain == MidChainCrown::Continue {
            let mut c = code;
            while ncodes < codes.len() {
                let p = t.promo_to[usize::from(c)];
                if p == 0 || codes[..ncodes].contains(&p) {
                    break;
                }
                codes[ncodes] = p;
                ncodes += 1;
                c = p;
            }
        }
        let codes = &codes[..ncodes];
        // A piece removed at once leaves its square empty for the rest of
        // the chain: the flood then goes past victims and lands on their
        // squares, and counts only (no jumps are listed).
        let at_once = matches!(t.effect, JumpEffect::RemoveAtOnce);
        if self.flood.len() != t.n {
            self.flood.clear();
            self.flood.resize(t.n, FloodSq::default());
            self.flood_stamp = 0;
        }
        self.flood_stamp = self.flood_stamp.wrapping_add(1);
        if self.flood_stamp == 0 {
            self.flood.fill(FloodSq::default());
            self.flood_stamp = 1;
        }
        let stamp = self.flood_stamp;
        let victim_of = |c: u8, v: u8| v != EMPTY && v != DEAD && t.can_capture(c, v);
        let mut stack = std::mem::take(&mut self.flood_stack);
        let mut fl = std::mem::take(&mut self.flood);
        let mut jumps = std::mem::take(&mut self.flood_jumps);
        let mut victims = 0usize;
        stack.clear();
        jumps.clear();
        let mut note = |fl: &mut [FloodSq], s: u16, v: u16, l: u16| {
            let fv = &mut fl[usize::from(v)];
            if fv.victim != stamp {
                fv.victim = stamp;
                fv.usable = false;
                fv.middle = false;
                victims += 1;
            }
            if !at_once {
                fl[usize::from(s)].note_from(stamp, v);
                fl[usize::from(l)].note_land(stamp, v);
                jumps.push((s, v, l));
            }
        };
        stack.push(cur);
        fl[usize::from(cur)].reached = stamp;
        while let Some(s) = stack.pop() {
            for &c in codes {
                for &(over, land) in t.jumps(c, usize::from(s)) {
                    let (o, l) = (usize::from(over), usize::from(land));
                    let open = board[l] == EMPTY || (at_once && victim_of(c, board[l]));
                    if !open || !victim_of(c, board[o]) {
                        continue;
                    }
                    note(&mut fl, s, over, land);
                    if fl[l].reached != stamp {
                        fl[l].reached = stamp;
                        stack.push(land);
                    }
                }
                for &d in &t.moves[usize::from(c)].long_jump {
                    let mut sq = t.step(s, d);
                    let mut passed = NONE;
                    while sq != NONE {
                        let i = usize::from(sq);
                        let v = board[i];
                        let landing = if v == EMPTY {
                            if passed != NONE {
                                note(&mut fl, s, passed, sq);
                            }
                            passed != NONE
                        } else if victim_of(c, v) {
                            if passed != NONE && !at_once {
                                break;
                            }
                            note(&mut fl, s, sq, sq);
                            let landing = passed != NONE;
                            passed = sq;
                            landing
                        } else {
                            break;
                        };
                        if landing && fl[i].reached != stamp {
                            fl[i].reached = stamp;
                            stack.push(sq);
                        }
                        sq = t.step(sq, d);
                    }
                }
            }
        }
        let mut bound = victims;
        if !at_once {
            // The jump noted when a ray meets its victim (landing on the
            // victim's own square) is only a count: it is not a jump.
            let mut usable = 0usize;
            let mut last_only = 0usize;
            for &(s, v, l) in &jumps {
                if l == v {
                    continue;
                }
                let fs = fl[usize::from(s)];
                let entered = s == cur || fs.lands_other_than(stamp, v);
                if !entered {
                    continue;
                }
                let goes_on = fl[usize::from(l)].starts_other_than(stamp, v);
                let fv = &mut fl[usize::from(v)];
                if !fv.usable {
                    fv.usable = true;
                    usable += 1;
                    last_only += 1;
                }
                if goes_on && !fv.middle {
                    fv.middle = true;
                    last_only -= 1;
                }
            }
            bound = usable - last_only.saturating_sub(1);
        }
        self.flood = fl;
        self.flood_jumps = jumps;
        self.flood_stack = stack;
        bound
    }

    /// Whether a chain state searched once need not be searched again: the
    /// moves it leads to are known by their start, end, captured set and
    /// result, unless paths are counted apart or a criterion looks at the
    /// order of the captures.
    fn memo(&self, t: &Tables) -> bool {
        !self.distinct_paths
            && !self.no_memo
            && !t.stacks
            && !t
                .criteria
                .iter()
                .any(|c| matches!(c, Criterion::EarliestOf(_)))
    }

    /// The scores of the captures of the last generation, `criteria.len()`
    /// per capture in list order (with `all_captures`, every capture).
    pub fn scores(&self) -> &[i64] {
        &self.scores
    }

    /// The score of the chain being emitted under each criterion: higher
    /// is better.
    fn score(&self, t: &Tables, start_code: u8) -> Vec<i64> {
        let kind_of = |c: u8| t.code_kind[usize::from(c)];
        let count = |k: u8| self.cap_codes.iter().filter(|&&c| kind_of(c) == k).count() as i64;
        t.criteria
            .iter()
            .map(|c| match *c {
                Criterion::MostPieces => self.caps.len() as i64,
                Criterion::MostValue => self
                    .cap_codes
                    .iter()
                    .map(|&c| t.weight.get(usize::from(c)).copied().unwrap_or(0))
                    .fold(0i64, |a, w| {
                        a.saturating_add(i64::try_from(w).unwrap_or(i64::MAX))
                    }),
                Criterion::MostOf(k) => count(k.0),
                Criterion::FewestOf(k) => -count(k.0),
                Criterion::By(k) => i64::from(kind_of(start_code) == k.0),
                Criterion::EarliestOf(k) => {
                    // Bit 62 for the first capture, 61 for the second...: the
                    // earlier the positions, the larger the number.
                    let mut mask = 0i64;
                    for (i, &c) in self.cap_codes.iter().enumerate().take(62) {
                        if kind_of(c) == k.0 {
                            mask |= 1i64 << (62 - i);
                        }
                    }
                    mask
                }
            })
            .collect()
    }

    /// Keeps only the best captures under the criteria (the whole list is
    /// captures: the general path generates them first).
    fn keep_best(&mut self, t: &Tables, list: &mut MoveList) {
        let k = t.criteria.len();
        if k == 0 || list.moves.len() < 2 || self.scores.len() != list.moves.len() * k {
            return;
        }
        let Some(best) = self.scores.chunks(k).max().map(<[i64]>::to_vec) else {
            return;
        };
        let mut write = 0;
        for i in 0..list.moves.len() {
            if self.scores.get(i * k..(i + 1) * k) == Some(best.as_slice()) {
                list.moves.swap(write, i);
                write += 1;
            }
        }
        list.moves.truncate(write);
    }

    /// The general path of `generate_side`: captures by jumps and by
    /// replacement, precedence by criteria, then the quiet moves with their
    /// custodian captures.
    fn generate_side_general(
        &mut self,
        t: &Tables,
        pos: &mut Position,
        side: u8,
        list: &mut MoveList,
    ) {
        self.scores.clear();
        if let Some(i) = t.opening_move(pos) {
            removals(t, pos, list, side, i);
            return;
        }
        let n = t.n;
        if t.stacks {
            std::mem::swap(&mut self.under, &mut pos.under);
        }
        for sq in 0..n {
            let code = pos.board[sq];
            if code == EMPTY || code == DEAD || t.code_side[usize::from(code)] != side {
                continue;
            }
            let m = &t.moves[usize::from(code)];
            if m.has_jumps() {
                self.captures_from(t, pos, list, sq, code, side);
            }
            if m.has_replacement() {
                self.replacements(t, pos, list, sq, code, side);
            }
        }
        if t.stacks {
            std::mem::swap(&mut self.under, &mut pos.under);
        }
        if t.use_criteria && !self.all_captures {
            self.keep_best(t, list);
        }
        if !list.is_empty() && t.capture_compulsory {
            return;
        }
        for sq in 0..n {
            let code = pos.board[sq];
            if code == EMPTY || code == DEAD || t.code_side[usize::from(code)] != side {
                continue;
            }
            self.quiets_general(t, pos, list, sq, code, side);
        }
        if t.places {
            self.placements(t, pos, list, side);
        }
        if t.clones {
            self.clones(t, pos, list, side);
        }
    }

    /// The copies (`clone`) of the pieces of `side`: one move per empty
    /// square and kind that a copying step of some piece reaches, written
    /// and played as a placement on that square (the copies are alike, so
    /// which piece left it is no part of the move), with the captures it
    /// makes (custodian, neighbours).
    fn clones(&mut self, t: &Tables, pos: &Position, list: &mut MoveList, side: u8) {
        let first = 1 + usize::from(side) * t.nkinds;
        for code in first..first + t.nkinds {
            let code = code as u8;
            if t.moves[usize::from(code)].clone.is_empty() {
                continue;
            }
            self.cloned.clear();
            self.cloned.resize(t.n.div_ceil(64), 0);
            for sq in 0..t.n {
                if pos.board[sq] != code {
                    continue;
                }
                for &d in &t.moves[usize::from(code)].clone {
                    let to = t.step(sq as u16, d);
                    if to == NONE
                        || pos.board[usize::from(to)] != EMPTY
                        || t.no_stop[usize::from(to)]
                        || t.powers()
                            .is_some_and(|p| !p.may_stop(t.code_kind[usize::from(code)], to))
                    {
                        continue;
                    }
                    let (w, b) = (usize::from(to) / 64, usize::from(to) % 64);
                    if self.cloned[w] & (1 << b) != 0 {
                        continue;
                    }
                    self.cloned[w] |= 1 << b;
                    self.caps.clear();
                    self.cap_codes.clear();
                    self.enclosed(t, &pos.board, NONE, to, code, side);
                    if self.caps.is_empty() {
                        push_quiet(t, list, to, to, code, side);
                        continue;
                    }
                    self.push_enclosing(t, list, to, to, code, side);
                }
            }
        }
    }

    /// Pushes the move `from` -> `to` of a piece of `code` that captures
    /// (or wins over) the pieces in `caps`, and nothing by a jump.
    #[allow(clippy::too_many_arguments)]
    fn push_enclosing(
        &mut self,
        t: &Tables,
        list: &mut MoveList,
        from: u16,
        to: u16,
        code: u8,
        side: u8,
    ) {
        let (result, mut flags) = finish(t, to, code, side);
        flags |= match t.effect {
            JumpEffect::Convert(_) => event::CONVERSION as u8,
            _ => event::CAPTURE as u8,
        };
        self.caps.sort_unstable();
        let cap_off = list.arena.len() as u32;
        list.arena.extend_from_slice(&self.caps);
        list.moves.push(MoveRec {
            from,
            to,
            path_off: cap_off,
            path_len: 0,
            cap_off,
            cap_len: self.caps.len() as u16,
            result,
            flags,
        });
    }

    /// The placements from the hand of `side`: a piece of its placed kind
    /// on each empty square (where it must enclose, only where it encloses
    /// a line; where it must go next to its own, only there), with the
    /// custodian captures it makes.
    fn placements(&mut self, t: &Tables, pos: &Position, list: &mut MoveList, side: u8) {
        if pos.hand.get(usize::from(side)).copied().unwrap_or(0) == 0 {
            return;
        }
        let Some(&code) = t.place_code.get(usize::from(side)) else {
            return;
        };
        for sq in 0..t.n {
            if pos.board[sq] != EMPTY || t.no_stop[sq] {
                continue;
            }
            let to = sq as u16;
            if t.powers()
                .is_some_and(|p| !p.may_stop(t.code_kind[usize::from(code)], to))
            {
                continue;
            }
            if !next_to_own(t, &pos.board, sq, side) {
                continue;
            }
            self.caps.clear();
            self.cap_codes.clear();
            self.enclosed(t, &pos.board, NONE, to, code, side);
            if self.caps.is_empty() {
                if !t.place_encloses {
                    push_quiet(t, list, to, to, code, side);
                }
                continue;
            }
            let (result, mut flags) = finish(t, to, code, side);
            flags |= match t.effect {
                JumpEffect::Convert(_) => event::CONVERSION as u8,
                _ => event::CAPTURE as u8,
            };
            self.caps.sort_unstable();
            let cap_off = list.arena.len() as u32;
            list.arena.extend_from_slice(&self.caps);
            list.moves.push(MoveRec {
                from: to,
                to,
                path_off: cap_off,
                path_len: 0,
                cap_off,
                cap_len: self.caps.len() as u16,
                result,
                flags,
            });
        }
    }

    /// The captures by replacement of the piece on `sq`.
    fn replacements(
        &mut self,
        t: &Tables,
        pos: &Position,
        list: &mut MoveList,
        sq: usize,
        code: u8,
        side: u8,
    ) {
        let from = sq as u16;
        let m = &t.moves[usize::from(code)];
        let board = &pos.board;
        let victim = |to: u16| {
            to != NONE && !t.no_stop[usize::from(to)] && {
                let v = board[usize::from(to)];
                v != EMPTY && v != DEAD && t.can_capture(code, v)
            }
        };
        for &d in &m.step_cap {
            let to = t.step(from, d);
            if victim(to) {
                self.replace(t, board, list, from, to, code, side);
            }
        }
        for &d in &m.slide_cap {
            let mut to = t.step(from, d);
            while to != NONE && board[usize::from(to)] == EMPTY {
                to = t.step(to, d);
            }
            if victim(to) {
                self.replace(t, board, list, from, to, code, side);
            }
        }
    }

    /// Emits the capture by replacement `from` -> `to`, with its custodian
    /// captures.
    #[allow(clippy::too_many_arguments)]
    fn replace(
        &mut self,
        t: &Tables,
        board: &[u8],
        list: &mut MoveList,
        from: u16,
        to: u16,
        code: u8,
        side: u8,
    ) {
        self.path.clear();
        self.caps.clear();
        self.cap_codes.clear();
        self.path.push(to);
        self.caps.push(to);
        self.cap_codes.push(board[usize::from(to)]);
        self.enclosed(t, board, from, to, code, side);
        self.emit(t, list, from, to, code, code, side);
    }

    /// Adds to `caps` the enemies that a piece of `code` arriving on `to`
    /// from `from` encloses (custodian capture).
    fn enclosed(&mut self, t: &Tables, board: &[u8], from: u16, to: u16, code: u8, side: u8) {
        let Some(dirs) = t.custodian.get(usize::from(side)) else {
            return;
        };
        if let Some(p) = t.powers() {
            if !p.armed.get(usize::from(code)).copied().unwrap_or(true) {
                // An unarmed piece takes no part in capturing.
                return;
            }
            self.enclosed_with_powers(t, p, board, from, to, code, side, dirs);
        } else {
            self.enclosed_lines(t, board, from, to, code, side, dirs);
        }
        if t.custodian_corners {
            self.enclosed_in_corners(t, board, from, to, code, side, dirs);
        }
        if let Some(dirs) = t.neighbours.get(usize::from(side)) {
            for &d in dirs {
                let s = t.step(to, d);
                if s == NONE || s == from {
                    continue;
                }
                let v = board[usize::from(s)];
                if v == EMPTY || v == DEAD || !t.can_capture(code, v) || self.caps.contains(&s) {
                    continue;
                }
                self.caps.push(s);
                self.cap_codes.push(v);
            }
        }
    }

    /// The enemies enclosed on a line between the piece arriving on `to` and
    /// a friendly piece (custodian capture without squares with powers).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn enclosed_lines(
        &mut self,
        t: &Tables,
        board: &[u8],
        from: u16,
        to: u16,
        code: u8,
        side: u8,
        dirs: &[u8],
    ) {
        for &d in dirs {
            let begin = self.caps.len();
            let mut s = t.step(to, d);
            while s != NONE && s != from {
                let v = board[usize::from(s)];
                if v == EMPTY || v == DEAD || !t.can_capture(code, v) || self.caps.contains(&s) {
                    break;
                }
                self.caps.push(s);
                self.cap_codes.push(v);
                s = t.step(s, d);
                if !t.custodian_multiple {
                    break;
                }
            }
            let closed = self.caps.len() > begin && s != NONE && s != from && {
                let v = board[usize::from(s)];
                v != EMPTY && v != DEAD && t.code_side[usize::from(v)] == side
            };
            if !closed {
                self.caps.truncate(begin);
                self.cap_codes.truncate(begin);
            }
        }
    }

    /// Custodian capture with squares with powers and kinds with
    /// conditions: an enemy is enclosed between the (armed) piece arriving
    /// on `to` and an armed friendly piece or a square hostile to it; a
    /// piece of a kind `captured surrounded` on its squares is taken only
    /// when every neighbour along the directions holds the arriving piece,
    /// an armed friendly piece or a square hostile to it (a side off the
    /// board, the edge or a hole, counts only with `capture edge hostile`).
    #[allow(clippy::too_many_arguments)]
    fn enclosed_with_powers(
        &mut self,
        t: &Tables,
        p: &Powers,
        board: &[u8],
        from: u16,
        to: u16,
        code: u8,
        side: u8,
        dirs: &[u8],
    ) {
        let n = t.n;
        let only_surrounded = |v: u8, s: u16| {
            p.surrounded
                .get(usize::from(v) * n + usize::from(s))
                .copied()
                .unwrap_or(false)
        };
        for &d in dirs {
            let begin = self.caps.len();
            let mut s = t.step(to, d);
            let mut victim = EMPTY;
            while s != NONE && s != from {
                let v = board[usize::from(s)];
                if v == EMPTY
                    || v == DEAD
                    || !t.can_capture(code, v)
                    || self.caps.contains(&s)
                    || only_surrounded(v, s)
                {
                    break;
                }
                victim = v;
                self.caps.push(s);
                self.cap_codes.push(v);
                s = t.step(s, d);
                if !t.custodian_multiple {
                    break;
                }
            }
            let closed =
                self.caps.len() > begin && s != NONE && closes(t, p, board, from, s, side, victim);
            if !closed {
                self.caps.truncate(begin);
                self.cap_codes.truncate(begin);
            }
        }
        for &d in dirs {
            let s = t.step(to, d);
            if s == NONE || s == from || self.caps.contains(&s) {
                continue;
            }
            let v = board[usize::from(s)];
            if v == EMPTY || v == DEAD || !t.can_capture(code, v) || !only_surrounded(v, s) {
                continue;
            }
            let surrounded = dirs.iter().all(|&d2| {
                let around = t.step(s, d2);
                if around == NONE {
                    return p.edge;
                }
                around == to || closes(t, p, board, from, around, side, v)
            });
            if surrounded {
                self.caps.push(s);
                self.cap_codes.push(v);
            }
        }
    }

    /// Custodian capture in the corners: an enemy on a corner next to `to`
    /// whose other neighbours along the directions all hold friendly pieces.
    #[allow(clippy::too_many_arguments)]
    fn enclosed_in_corners(
        &mut self,
        t: &Tables,
        board: &[u8],
        from: u16,
        to: u16,
        code: u8,
        side: u8,
        dirs: &[u8],
    ) {
        for &d in dirs {
            let s = t.step(to, d);
            if s == NONE || !t.corner[usize::from(s)] || self.caps.contains(&s) {
                continue;
            }
            let v = board[usize::from(s)];
            if v == EMPTY || v == DEAD || !t.can_capture(code, v) {
                continue;
            }
            let mut others = 0;
            let closed = dirs.iter().all(|&d2| {
                let n = t.step(s, d2);
                if n == NONE || n == to {
                    return true;
                }
                others += 1;
                let w = board[usize::from(n)];
                n != from && w != EMPTY && w != DEAD && t.code_side[usize::from(w)] == side
            });
            if closed && others > 0 {
                self.caps.push(s);
                self.cap_codes.push(v);
            }
        }
    }

    /// The steps and slides of the piece on `sq`, each with the custodian
    /// captures it makes.
    fn quiets_general(
        &mut self,
        t: &Tables,
        pos: &Position,
        list: &mut MoveList,
        sq: usize,
        code: u8,
        side: u8,
    ) {
        let from = sq as u16;
        for &to in t.steps(code, sq) {
            if pos.board[usize::from(to)] == EMPTY {
                self.quiet_general(t, &pos.board, list, from, to, code, side);
            }
        }
        if let Some(p) = t.powers() {
            // Squares only some kinds may stop on or pass over.
            let kind = t.code_kind[usize::from(code)];
            for &d in &t.moves[usize::from(code)].slide {
                let mut to = t.step(from, d);
                while to != NONE && pos.board[usize::from(to)] == EMPTY {
                    if !t.no_stop[usize::from(to)] && p.may_stop(kind, to) {
                        self.quiet_general(t, &pos.board, list, from, to, code, side);
                    }
                    if !p.may_pass(kind, to) {
                        break;
                    }
                    to = t.step(to, d);
                }
            }
            return;
        }
        for &d in &t.moves[usize::from(code)].slide {
            let mut to = t.step(from, d);
            while to != NONE && pos.board[usize::from(to)] == EMPTY {
                if !t.no_stop[usize::from(to)] {
                    self.quiet_general(t, &pos.board, list, from, to, code, side);
                }
                to = t.step(to, d);
            }
        }
        if !t.moves[usize::from(code)].hop.is_empty() {
            self.hops(t, &pos.board, list, from, code, side);
        }
    }

    /// The moves by hops (`hop`) of the piece on `from`: over a piece of
    /// its own side next to it onto the empty square beyond, again and
    /// again, never back onto a square of the chain (nor onto `from`).
    /// Every square a chain reaches ends one move, whatever the chain
    /// (nothing is captured, so the board stays as it is): the squares are
    /// searched breadth first, each once, and each move's landings are the
    /// shortest chain there (the first found).
    #[cold]
    fn hops(
        &mut self,
        t: &Tables,
        board: &[u8],
        list: &mut MoveList,
        from: u16,
        code: u8,
        side: u8,
    ) {
        let mut nodes = std::mem::take(&mut self.hop_nodes);
        nodes.clear();
        nodes.push((from, u32::MAX));
        let mut i = 0;
        while let Some(&(cur, _)) = nodes.get(i) {
            for &d in &t.moves[usize::from(code)].hop {
                let over = t.step(cur, d);
                // The start square is empty once the piece has left it.
                if over == NONE || over == from {
                    continue;
                }
                let o = board[usize::from(over)];
                if o == EMPTY || o == DEAD || t.code_side[usize::from(o)] != side {
                    continue;
                }
                let land = t.step(over, d);
                if land == NONE
                    || board[usize::from(land)] != EMPTY
                    || t.no_stop[usize::from(land)]
                    || nodes.iter().any(|&(s, _)| s == land)
                {
                    continue;
                }
                if list.moves.len() >= MAX_MOVES {
                    self.overflow = true;
                    self.hop_nodes = nodes;
                    return;
                }
                nodes.push((land, i as u32));
                // The landings, from the last back to the first.
                self.path.clear();
                let mut at = nodes.len() - 1;
                while let Some(&(s, parent)) = nodes.get(at) {
                    if parent == u32::MAX {
                        break;
                    }
                    self.path.push(s);
                    at = parent as usize;
                }
                self.path.reverse();
                let (result, flags) = finish(t, land, code, side);
                let path_off = list.arena.len() as u32;
                list.arena.extend_from_slice(&self.path);
                list.moves.push(MoveRec {
                    from,
                    to: land,
                    path_off,
                    path_len: self.path.len() as u16,
                    cap_off: list.arena.len() as u32,
                    cap_len: 0,
                    result,
                    flags,
                });
            }
            i += 1;
        }
        self.hop_nodes = nodes;
    }

    #[allow(clippy::too_many_arguments)]
    fn quiet_general(
        &mut self,
        t: &Tables,
        board: &[u8],
        list: &mut MoveList,
        from: u16,
        to: u16,
        code: u8,
        side: u8,
    ) {
        self.caps.clear();
        self.cap_codes.clear();
        self.enclosed(t, board, from, to, code, side);
        if self.caps.is_empty() {
            push_quiet(t, list, from, to, code, side);
            return;
        }
        let (result, mut flags) = finish(t, to, code, side);
        flags |= match t.effect {
            JumpEffect::Convert(_) => event::CONVERSION as u8,
            _ => event::CAPTURE as u8,
        };
        self.caps.sort_unstable();
        let cap_off = list.arena.len() as u32;
        list.arena.extend_from_slice(&self.caps);
        list.moves.push(MoveRec {
            from,
            to,
            path_off: cap_off,
            path_len: 0,
            cap_off,
            cap_len: self.caps.len() as u16,
            result,
            flags,
        });
    }

    /// The code on the square `over` once its piece is jumped (a
    /// column's next piece comes up: [`Generator::unjumped`] puts it back).
    #[inline(always)]
    fn jumped_code(&mut self, t: &Tables, over: u16, side: u8) -> u8 {
        match t.effect {
            JumpEffect::RemoveAtOnce => EMPTY,
            JumpEffect::RemoveAtEnd => DEAD,
            JumpEffect::Convert(k) => (1 + usize::from(side) * t.nkinds + usize::from(k.0)) as u8,
            JumpEffect::Stack => self
                .under
                .get_mut(usize::from(over))
                .and_then(Vec::pop)
                .unwrap_or(EMPTY),
        }
    }

    /// Takes back [`Generator::jumped_code`] on `over`, where `up` came up.
    #[inline(always)]
    fn unjumped(&mut self, t: &Tables, over: u16, up: u8) {
        if let JumpEffect::Stack = t.effect {
            if up != EMPTY {
                if let Some(u) = self.under.get_mut(usize::from(over)) {
                    u.push(up);
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn jump(
        &mut self,
        t: &Tables,
        board: &mut [u8],
        list: &mut MoveList,
        from: u16,
        start_code: u8,
        over: u16,
        land: u16,
        code: u8,
        side: u8,
        dir: u8,
    ) {
        let saved = board[usize::from(over)];
        board[usize::from(over)] = self.jumped_code(t, over, side);
        self.path.push(land);
        self.caps.push(over);
        self.cap_codes.push(saved);
        let (next, stop) = Self::crown_mid(t, code, land);
        if stop {
            self.emit(t, list, from, land, start_code, code, side);
        } else {
            self.dfs(t, board, list, from, start_code, land, next, side, dir);
        }
        self.path.pop();
        self.caps.pop();
        self.cap_codes.pop();
        self.unjumped(t, over, board[usize::from(over)]);
        board[usize::from(over)] = saved;
    }

    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        t: &Tables,
        list: &mut MoveList,
        from: u16,
        to: u16,
        start_code: u8,
        code: u8,
        side: u8,
    ) {
        let ncap = self.caps.len() as u16;
        if t.capture_most {
            if ncap < self.best {
                return;
            }
            if ncap > self.best {
                self.best = ncap;
                list.moves.truncate(self.cap_begin);
                list.arena.truncate(self.arena_begin);
            }
        }
        let (result, mut flags) = finish(t, to, code, side);
        if code != start_code {
            flags |= event::PROMOTION as u8;
        }
        flags |= match t.effect {
            JumpEffect::Convert(_) => event::CONVERSION as u8,
            _ => event::CAPTURE as u8,
        };
        if t.general && self.caps.contains(&to) {
            // Taken by replacement: removed, whatever the capture effect.
            flags |= event::CAPTURE as u8;
        }
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.caps);
        // In a game of columns the order of the captures is the order of
        // the pieces under the captor: they stay in the order taken.
        if !t.stacks {
            self.sorted.sort_unstable();
        }
        // DR-3: the same start, end, captured set (and result) is one move
        // (unless paths are counted apart).
        let mut same = None;
        if !self.distinct_paths {
            for (i, m) in list.moves[self.cap_begin..].iter().enumerate() {
                if m.from == from
                    && m.to == to
                    && m.cap_len == ncap
                    && m.result == result
                    && list.arena[m.cap_off as usize..m.cap_off as usize + usize::from(ncap)]
                        == self.sorted[..]
                {
                    same = Some(self.cap_begin + i);
                    break;
                }
            }
        }
        let scored = t.use_criteria && !self.all_captures;
        if let Some(i) = same {
            if scored {
                // The same move by another order of captures: keep its best
                // score (the order matters to `earliest`).
                let k = t.criteria.len();
                let new = self.score(t, start_code);
                if let Some(old) = self.scores.get_mut(i * k..(i + 1) * k) {
                    if new.as_slice() > &*old {
                        old.copy_from_slice(&new);
                    }
                }
            }
            return;
        }
        if scored || self.all_captures {
            let new = self.score(t, start_code);
            self.scores.extend_from_slice(&new);
        }
        if list.moves.len() >= MAX_MOVES {
            // Past the limit: the search stops (the next chain step sees it).
            self.overflow = true;
            self.steps = MAX_CHAIN_STEPS;
            return;
        }
        let path_off = list.arena.len() as u32;
        list.arena.extend_from_slice(&self.path);
        let cap_off = list.arena.len() as u32;
        list.arena.extend_from_slice(&self.sorted);
        list.moves.push(MoveRec {
            from,
            to,
            path_off,
            path_len: self.path.len() as u16,
            cap_off,
            cap_len: ncap,
            result,
            flags,
        });
    }
}

/// Whether a piece placed by `side` on `sq` may go there as far as
/// `place next-to own` goes: always when the game has no such rule, else
/// when a piece of `side` stands next to it along one of its directions.
pub(crate) fn next_to_own(t: &Tables, board: &[u8], sq: usize, side: u8) -> bool {
    if t.place_next.is_empty() {
        return true;
    }
    t.place_next.get(sq).is_some_and(|next| {
        next.iter().any(|&s| {
            let code = board.get(usize::from(s)).copied().unwrap_or(EMPTY);
            code != EMPTY && code != DEAD && t.code_side[usize::from(code)] == side
        })
    })
}

/// The removals of opening move `i` for `side`: one move per piece of the
/// side it may remove, written and played as a placement of nothing on
/// its square (from and to that square, no landings, no piece left).
#[cold]
fn removals(t: &Tables, pos: &Position, list: &mut MoveList, side: u8, i: usize) {
    let Some(rule) = t.opening.get(i) else {
        return;
    };
    for sq in 0..t.n {
        let code = pos.board[sq];
        if code == EMPTY || code == DEAD || t.code_side[usize::from(code)] != side {
            continue;
        }
        let ok = match rule {
            OpeningSquares::From(set) => set.get(sq).copied().unwrap_or(false),
            OpeningSquares::NextToEmpty(next) => next
                .get(sq)
                .is_some_and(|v| v.iter().any(|&s| pos.board[usize::from(s)] == EMPTY)),
        };
        if ok {
            let off = list.arena.len() as u32;
            list.moves.push(MoveRec {
                from: sq as u16,
                to: sq as u16,
                path_off: off,
                path_len: 0,
                cap_off: off,
                cap_len: 0,
                result: EMPTY,
                flags: 0,
            });
        }
    }
}

/// Whether a jump of `code` along `d` after a jump along `last` leaves the
/// direction a `straight` line must keep (never for the first jump).
#[inline]
fn bends(t: &Tables, code: u8, d: u8, last: u8) -> bool {
    last != NO_DIR && d != last && t.limits(code, d) & limit::STRAIGHT != 0
}

/// Whether square `sq` closes an enclosure of the enemy `victim` for
/// `side` (custodian capture with powers): an armed piece of `side` stands
/// there, or the square is hostile to the victim (`hostile`: unless a piece
/// of the victim's side stands there; `when-empty`: while empty). The
/// square `from` the moving piece left counts as empty.
#[allow(clippy::too_many_arguments)]
fn closes(t: &Tables, p: &Powers, board: &[u8], from: u16, sq: u16, side: u8, victim: u8) -> bool {
    let w = if sq == from {
        EMPTY
    } else {
        board.get(usize::from(sq)).copied().unwrap_or(EMPTY)
    };
    let occupied = w != EMPTY && w != DEAD;
    if occupied
        && t.code_side[usize::from(w)] == side
        && p.armed.get(usize::from(w)).copied().unwrap_or(true)
    {
        return true;
    }
    match p.hostile.get(usize::from(sq)) {
        Some(Hostile::Always) => {
            !occupied || t.code_side[usize::from(w)] != t.code_side[usize::from(victim)]
        }
        Some(Hostile::WhenEmpty) => w == EMPTY,
        _ => false,
    }
}

/// The direction of the short jump of `code` from `cur` over `over`.
fn short_dir(t: &Tables, code: u8, cur: u16, over: u16) -> u8 {
    t.moves[usize::from(code)]
        .short_jump
        .iter()
        .copied()
        .find(|&d| t.step(cur, d) == over)
        .unwrap_or(NO_DIR)
}

/// The code standing on `to` at the end of a move by `code` of `side`, after
/// end-of-move promotion and triggers (AR-9: a trigger's conversion wins),
/// and the events they cause.
#[inline(always)]
fn finish(t: &Tables, to: u16, code: u8, side: u8) -> (u8, u8) {
    let n = t.n;
    if let Some((ns, nk)) = t.trigger_to[usize::from(side) * n + usize::from(to)] {
        let c = (1 + usize::from(ns) * t.nkinds + usize::from(nk)) as u8;
        let flags = if ns != side {
            event::CONVERSION as u8
        } else {
            0
        };
        return (c, flags);
    }
    let promo = t.promo_to[usize::from(code)];
    if promo != 0 && t.promo_at[usize::from(code) * n + usize::from(to)] {
        return (promo, event::PROMOTION as u8);
    }
    (code, 0)
}

/// The pieces that a piece of `code` may jump.
#[inline(always)]
fn victims_bb(t: &Tables, pos: &Position, code: usize) -> Bb {
    let mut victims: Bb = 0;
    for &v in &t.victims[code] {
        victims |= pos.bb[usize::from(v)];
    }
    victims
}

/// Where the short jumps of `pcs` along direction `d` land: over a victim,
/// onto a square where a piece may stop.
#[inline(always)]
fn short_landings(l: &Layout, pcs: Bb, victims: Bb, stop_ok: Bb, d: usize) -> Bb {
    let o = l.off[d];
    shift(shift(pcs & l.jump_ok[d], o) & victims, o) & stop_ok
}

/// With bitboards, the number of legal moves when capturing is compulsory:
/// the quiet moves when there is no capture, or the captures when every one
/// is a single short jump that can't go on. None when the full generator
/// must decide (longer chains, long jumps, crowning in a chain).
#[inline]
fn count_bb(t: &Tables, l: &Layout, pos: &Position, side: u8, quiet_only: bool) -> Option<usize> {
    let mut occ: Bb = 0;
    for b in &pos.bb[1..] {
        occ |= b;
    }
    let empty = l.valid & !occ;
    let stop_ok = empty & !t.no_stop_bb;
    let first = 1 + usize::from(side) * t.nkinds;
    let mut captures = 0usize;
    for code in first..first + t.nkinds {
        let pcs = pos.bb[code];
        if pcs == 0 || !t.moves[code].has_jumps() {
            continue;
        }
        let m = &t.moves[code];
        let victims = victims_bb(t, pos, code);
        for &d in &m.long_jump {
            let d = usize::from(d);
            let o = l.off[d];
            let mut ray = shift(pcs & l.from_ok[d], o);
            while ray != 0 {
                if shift(ray & victims & l.from_ok[d], o) & empty != 0 {
                    return None;
                }
                ray = shift(ray & empty & l.from_ok[d], o);
            }
        }
        for &d in &m.short_jump {
            let d = usize::from(d);
            let mut lands = short_landings(l, pcs, victims, stop_ok, d);
            while lands != 0 {
                let land = lands.trailing_zeros() as i32;
                lands &= lands - 1;
                let over = land - l.off[d];
                let from = over - l.off[d];
                let land_bit: Bb = 1 << land;
                if t.promo_bb[code] & land_bit != 0 {
                    match t.mid_chain {
                        MidChainCrown::Stop => {
                            captures += 1;
                            continue;
                        }
                        MidChainCrown::Continue => return None,
                        MidChainCrown::Stay => {}
                    }
                }
                // Can the chain go on from `land`? The jumped piece can't be
                // jumped again, and the start square is empty now (AR-13).
                let victims2 = victims & !(1 << over);
                let stop2 = (stop_ok | (1 << from)) & !t.no_stop_bb;
                for &d2 in &m.short_jump {
                    if short_landings(l, land_bit, victims2, stop2, usize::from(d2)) != 0 {
                        return None;
                    }
                }
                captures += 1;
            }
        }
    }
    if captures > 0 {
        return if quiet_only { None } else { Some(captures) };
    }
    let mut total = 0usize;
    for code in first..first + t.nkinds {
        let pcs = pos.bb[code];
        if pcs == 0 {
            continue;
        }
        let m = &t.moves[code];
        for &d in &m.step {
            let d = usize::from(d);
            total += (shift(pcs & l.from_ok[d], l.off[d]) & stop_ok).count_ones() as usize;
        }
        for &d in &m.slide {
            let d = usize::from(d);
            let o = l.off[d];
            let mut ray = shift(pcs & l.from_ok[d], o) & empty;
            while ray != 0 {
                total += (ray & !t.no_stop_bb).count_ones() as usize;
                ray = shift(ray & l.from_ok[d], o) & empty;
            }
        }
    }
    Some(total)
}

/// The own pieces that may have a first jump: exact for short jumps, and
/// every piece that has long jumps (the search decides).
#[inline]
fn capturers_bb(t: &Tables, l: &Layout, pos: &Position, side: u8) -> Bb {
    let mut occ: Bb = 0;
    for b in &pos.bb[1..] {
        occ |= b;
    }
    let stop_ok = l.valid & !occ & !t.no_stop_bb;
    let first = 1 + usize::from(side) * t.nkinds;
    let mut cand: Bb = 0;
    for code in first..first + t.nkinds {
        let pcs = pos.bb[code];
        if pcs == 0 {
            continue;
        }
        let m = &t.moves[code];
        if !m.long_jump.is_empty() {
            cand |= pcs;
            continue;
        }
        if m.short_jump.is_empty() {
            continue;
        }
        let victims = victims_bb(t, pos, code);
        for &d in &m.short_jump {
            let d = usize::from(d);
            cand |= shift(short_landings(l, pcs, victims, stop_ok, d), -2 * l.off[d]);
        }
    }
    cand
}

/// The number of steps and slides of the piece on `sq` (what
/// `push_quiets` pushes).
#[inline]
fn quiets_of(t: &Tables, pos: &Position, sq: usize, code: u8) -> usize {
    let mut n = 0;
    for &to in t.steps(code, sq) {
        n += usize::from(pos.board[usize::from(to)] == EMPTY);
    }
    let from = sq as u16;
    for &d in &t.moves[usize::from(code)].slide {
        let mut to = t.step(from, d);
        while to != NONE && pos.board[usize::from(to)] == EMPTY {
            n += usize::from(!t.no_stop[usize::from(to)]);
            to = t.step(to, d);
        }
    }
    n
}

/// The steps and slides of the piece on `sq`.
#[inline(always)]
fn push_quiets(t: &Tables, pos: &Position, list: &mut MoveList, sq: usize, code: u8, side: u8) {
    let from = sq as u16;
    for &to in t.steps(code, sq) {
        if pos.board[usize::from(to)] == EMPTY {
            push_quiet(t, list, from, to, code, side);
        }
    }
    for &d in &t.moves[usize::from(code)].slide {
        let mut to = t.step(from, d);
        while to != NONE && pos.board[usize::from(to)] == EMPTY {
            if !t.no_stop[usize::from(to)] {
                push_quiet(t, list, from, to, code, side);
            }
            to = t.step(to, d);
        }
    }
}

#[inline(always)]
fn push_quiet(t: &Tables, list: &mut MoveList, from: u16, to: u16, code: u8, side: u8) {
    let (result, flags) = finish(t, to, code, side);
    list.moves.push(MoveRec {
        from,
        to,
        path_off: 0,
        path_len: 0,
        cap_off: 0,
        cap_len: 0,
        result,
        flags,
    });
}

/// What `unmake` needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    from_code: u8,
    to_code: u8,
    caps_at: u32,
    count: [u16; super::position::MAX_SIDES],
    to_move: u8,
    out: u8,
}

/// Plays a move like `make`, saving what `unmake` needs; the codes of the
/// captured pieces go on `stack` (reused: no allocation once warm).
pub fn make_undoable(
    t: &Tables,
    pos: &mut Position,
    list: &MoveList,
    m: &MoveRec,
    stack: &mut Vec<u8>,
) -> Undo {
    let caps_at = stack.len() as u32;
    for &c in list.captured(m) {
        stack.push(pos.board[usize::from(c)]);
    }
    let u = Undo {
        from_code: if m.is_pass() {
            0
        } else {
            pos.board[usize::from(m.from)]
        },
        to_code: if m.is_pass() {
            0
        } else {
            pos.board[usize::from(m.to)]
        },
        caps_at,
        count: pos.count,
        to_move: pos.to_move,
        out: pos.out,
    };
    make(t, pos, list, m);
    u
}

/// Takes back a move played by `make_undoable`.
pub fn unmake(
    t: &Tables,
    pos: &mut Position,
    list: &MoveList,
    m: &MoveRec,
    u: Undo,
    stack: &mut Vec<u8>,
) {
    if !m.is_pass() {
        if t.fills {
            unfill(t, pos, list, m, u.to_move);
        }
        pos.set_code(t, usize::from(m.to), u.to_code);
        let at = u.caps_at as usize;
        for (i, &c) in list.captured(m).iter().enumerate() {
            let code = stack.get(at + i).copied().unwrap_or(EMPTY);
            pos.set_code(t, usize::from(c), code);
        }
        pos.set_code(t, usize::from(m.from), u.from_code);
        stack.truncate(at);
    }
    pos.count = u.count;
    pos.to_move = u.to_move;
    pos.out = u.out;
}

/// Takes back what `make` did beyond moving the piece, in a game that
/// places pieces, copies them or moves columns (before the squares' codes
/// are put back): a placed piece goes back to the hand; a column's pieces
/// taken under it go back on top of the squares they were taken from, last
/// taken first, and the rest of it back to its start.
#[cold]
fn unfill(t: &Tables, pos: &mut Position, list: &MoveList, m: &MoveRec, mover: u8) {
    if m.is_place() {
        if t.places {
            if let Some(h) = pos.hand.get_mut(usize::from(mover)) {
                if *h != UNLIMITED {
                    *h += 1;
                }
            }
        }
        return;
    }
    if !t.stacks {
        return;
    }
    let (from, to) = (usize::from(m.from), usize::from(m.to));
    let Some(column) = pos.under.get_mut(to) else {
        return;
    };
    let mut column = std::mem::take(column);
    // The column leaves its end square (a chain may end where it took a
    // lone piece): what comes up there is nothing.
    pos.set_code(t, to, EMPTY);
    let caps = list.captured(m);
    let taken = caps.len().min(column.len());
    // Bottom first: the last piece taken is at the very bottom.
    let rest = column.split_off(taken);
    for (&c, &code) in caps.iter().rev().zip(&column) {
        let c = usize::from(c);
        let up = pos.board[c];
        if up != EMPTY {
            if let Some(u) = pos.under.get_mut(c) {
                u.push(up);
            }
        }
        pos.set_code(t, c, code);
    }
    if let Some(u) = pos.under.get_mut(from) {
        *u = rest;
    }
}

/// A column moves from `from` to `to` (the pieces it took already under
/// it): the pieces under its top go along.
#[cold]
fn move_column(pos: &mut Position, from: usize, to: usize) {
    if from != to {
        let column = pos
            .under
            .get_mut(from)
            .map(std::mem::take)
            .unwrap_or_default();
        if let Some(u) = pos.under.get_mut(to) {
            *u = column;
        }
    }
}

/// A new piece of `mover` came onto the board: from its hand, or as a
/// copy (`clone`, no hand).
#[cold]
fn filled(t: &Tables, pos: &mut Position, mover: u8) {
    if let Some(c) = pos.count.get_mut(usize::from(mover)) {
        *c += 1;
    }
    if !t.places {
        return;
    }
    if let Some(h) = pos.hand.get_mut(usize::from(mover)) {
        if *h != UNLIMITED {
            *h = h.saturating_sub(1);
        }
    }
}

/// Plays a move of `list` on `pos` (the move must come from generating on
/// `pos`).
pub fn make(t: &Tables, pos: &mut Position, list: &MoveList, m: &MoveRec) {
    let mover = pos.to_move;
    if !m.is_pass() {
        let from = usize::from(m.from);
        pos.set_code(t, from, EMPTY);
        let o = m.cap_off as usize;
        for &c in &list.arena[o..o + usize::from(m.cap_len)] {
            let c = usize::from(c);
            let old = pos.board[c];
            let os = usize::from(t.code_side[usize::from(old)]);
            if let Some(cnt) = pos.count.get_mut(os) {
                *cnt = cnt.saturating_sub(1);
            }
            match t.effect {
                // A piece taken by replacement is removed: the captor stands
                // on its square.
                JumpEffect::Convert(k) if c != usize::from(m.to) => {
                    let code = (1 + usize::from(mover) * t.nkinds + usize::from(k.0)) as u8;
                    pos.set_code(t, c, code);
                    pos.count[usize::from(mover)] += 1;
                }
                // The top piece goes under the jumping column (at the
                // bottom: the pieces taken lie in the order taken); the
                // next one comes up.
                JumpEffect::Stack => {
                    let up = pos.under.get_mut(c).and_then(Vec::pop).unwrap_or(EMPTY);
                    pos.set_code(t, c, up);
                    if up != EMPTY {
                        let us = usize::from(t.code_side[usize::from(up)]);
                        if let Some(cnt) = pos.count.get_mut(us) {
                            *cnt += 1;
                        }
                    }
                    if let Some(u) = pos.under.get_mut(from) {
                        u.insert(0, old);
                    }
                }
                _ => pos.set_code(t, c, EMPTY),
            }
        }
        pos.set_code(t, usize::from(m.to), m.result);
        let rs = t.code_side[usize::from(m.result)];
        if t.fills {
            if m.is_place() {
                filled(t, pos, mover);
            } else if t.stacks {
                move_column(pos, from, usize::from(m.to));
            }
        }
        if rs != mover {
            pos.count[usize::from(mover)] = pos.count[usize::from(mover)].saturating_sub(1);
            // A removal (an opening move) leaves no piece: nobody gains one.
            if let Some(c) = pos.count.get_mut(usize::from(rs)) {
                *c += 1;
            }
        }
    }
    let mut next = (usize::from(mover) + 1) % t.nsides;
    if t.end.drop_out {
        if m.is_pass() && u32::from(m.flags) & event::DROP_OUT != 0 {
            pos.out |= 1 << mover;
        }
        eliminate(t, pos);
        // A side out of play is skipped: the turn goes to the next one.
        for _ in 0..t.nsides {
            if in_play(t, pos, next) {
                break;
            }
            next = (next + 1) % t.nsides;
        }
    }
    pos.to_move = next as u8;
}
