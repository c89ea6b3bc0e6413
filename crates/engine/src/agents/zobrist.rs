//! `Zobrist`: a 64-bit hash of a position, one random key per (piece code,
//! square) and per side to move, kept up to date move by move without
//! allocating. The keys come from a fixed seed, so a hash is the same on every
//! run and every machine.

use crate::board::game::JumpEffect;
use crate::board::position::MAX_SIDES;
use crate::board::tables::EMPTY;
use crate::board::{MoveList, MoveRec, Position, Tables};
use crate::rng::Rng;

/// The keys of one game.
#[derive(Clone, Debug)]
pub struct Zobrist {
    /// `keys[code * n + sq]`; the keys of `EMPTY` are 0.
    keys: Vec<u64>,
    /// One key per side to move.
    side: [u64; MAX_SIDES],
    n: usize,
}

impl Zobrist {
    /// The keys for a game's tables.
    pub fn new(t: &Tables) -> Zobrist {
        let mut rng = Rng::new(0x5EED_2B0B_1157_C0DE);
        let ncodes = 1 + t.nsides * t.nkinds;
        let mut keys = vec![0u64; ncodes * t.n];
        for k in keys.iter_mut().skip(t.n) {
            *k = rng.next_u64();
        }
        let mut side = [0u64; MAX_SIDES];
        for s in &mut side {
            *s = rng.next_u64();
        }
        Zobrist { keys, side, n: t.n }
    }

    /// The key of a piece code on a square (0 for `EMPTY`).
    #[inline(always)]
    pub fn key(&self, code: u8, sq: usize) -> u64 {
        self.keys
            .get(usize::from(code) * self.n + sq)
            .copied()
            .unwrap_or(0)
    }

    /// The key of a side to move.
    pub fn side_key(&self, side: usize) -> u64 {
        self.side[side % MAX_SIDES]
    }

    /// The hash of a position.
    pub fn hash(&self, pos: &Position) -> u64 {
        self.side[usize::from(pos.to_move) % MAX_SIDES] ^ self.pieces(pos)
    }

    /// The hash of the pieces of a position, without the side to move: in
    /// a game of columns each piece under a top one has its square's key
    /// turned by its depth in the column.
    fn pieces(&self, pos: &Position) -> u64 {
        let mut h = 0;
        for (sq, &code) in pos.board.iter().enumerate() {
            if code != EMPTY {
                h ^= self.key(code, sq);
            }
        }
        for (sq, column) in pos.under.iter().enumerate() {
            for (depth, &code) in column.iter().rev().enumerate() {
                h ^= self.key(code, sq).rotate_left(7 * (depth as u32 % 9 + 1));
            }
        }
        h
    }

    /// `moved` in a game of columns: the move is made on a copy and its
    /// pieces hashed (columns change in more places than a move's squares).
    #[cold]
    fn moved_columns(
        &self,
        t: &Tables,
        pos: &Position,
        list: &MoveList,
        m: &MoveRec,
        hash: u64,
    ) -> u64 {
        let mut after = pos.clone();
        let to_move = after.to_move;
        crate::board::make(t, &mut after, list, m);
        after.to_move = to_move;
        hash ^ self.pieces(pos) ^ self.pieces(&after)
    }

    /// The hash of `pos` with the pieces moved as the move `m` of `list`
    /// moves them (called before the move is made; `hash` is the hash of
    /// `pos`). The turn is changed by `turn`, once the move is made.
    #[inline]
    pub fn moved(
        &self,
        t: &Tables,
        pos: &Position,
        list: &MoveList,
        m: &MoveRec,
        hash: u64,
    ) -> u64 {
        if m.is_pass() {
            return hash;
        }
        let mover = usize::from(pos.to_move);
        let from = usize::from(m.from);
        let mut h = hash ^ self.key(pos.board[from], from);
        let converted = match t.effect {
            JumpEffect::Convert(k) => Some((1 + mover * t.nkinds + usize::from(k.0)) as u8),
            JumpEffect::Stack => return self.moved_columns(t, pos, list, m, hash),
            _ => None,
        };
        for &c in list.captured(m) {
            let c = usize::from(c);
            h ^= self.key(pos.board[c], c);
            if let Some(code) = converted {
                h ^= self.key(code, c);
            }
        }
        h ^ self.key(m.result, usize::from(m.to))
    }

    /// The hash with the turn passed from side `from` to side `to`.
    #[inline]
    pub fn turn(&self, hash: u64, from: u8, to: u8) -> u64 {
        hash ^ self.side[usize::from(from) % MAX_SIDES] ^ self.side[usize::from(to) % MAX_SIDES]
    }
}
