//! Bitboards for boards whose playable squares fit a 128-bit layout in which
//! every direction vector is one constant shift: bit = (row * stride + file)
//! / q, with row counted from the top rank (so bits run in the order of the
//! square numbers), q = 2 on boards that use one colour (stride odd, so all
//! playable squares share a parity) and q = 1 otherwise. Per direction, a mask of the bits whose step stays
//! on a playable square stops shifts from wrapping round the edges.
//!
//! They serve the hot path of perft and playouts: "can the side to move
//! capture?" and "how many quiet moves?" without visiting squares one by one.
//! Jump chains are still followed square by square (movegen.rs).

use crate::board::game::{Game, Playable};

/// A 128-bit board.
pub type Bb = u128;

/// The layout of one game's board, and the masks per direction.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Bit of each playable square (index by `Sq`).
    pub bit_of: Vec<u8>,
    /// Square of each bit (`u16::MAX` for none).
    pub sq_of: Vec<u16>,
    /// All playable bits.
    pub valid: Bb,
    /// Shift of each direction (index by `DirId`).
    pub off: Vec<i32>,
    /// Bits whose step along the direction lands on a playable square.
    pub from_ok: Vec<Bb>,
    /// Bits whose two steps along the direction land on playable squares.
    pub jump_ok: Vec<Bb>,
}

/// Shifts a board by a signed offset.
#[inline(always)]
pub fn shift(b: Bb, off: i32) -> Bb {
    if off >= 0 {
        b << off
    } else {
        b >> (-off)
    }
}

impl Layout {
    /// The layout of a game, or None when its board does not fit.
    pub fn new(g: &Game) -> Option<Layout> {
        let w = i32::from(g.width);
        let (stride, q) = match g.playable {
            Playable::All => (w, 1),
            Playable::Dark | Playable::Light => (if w % 2 == 0 { w + 1 } else { w + 2 }, 2),
        };
        let h = i32::from(g.height);
        let parity = g.squares.first().map_or(0, |s| {
            ((h - 1 - i32::from(s.rank)) * stride + i32::from(s.file)) % q
        });
        let bit = |file: i32, rank: i32| ((h - 1 - rank) * stride + file - parity) / q;
        let mut bit_of = Vec::with_capacity(g.squares.len());
        let mut sq_of = vec![u16::MAX; 128];
        let mut valid: Bb = 0;
        for (i, s) in g.squares.iter().enumerate() {
            let b = bit(i32::from(s.file), i32::from(s.rank));
            if !(0..128).contains(&b) {
                return None;
            }
            let slot = sq_of.get_mut(b as usize)?;
            if *slot != u16::MAX {
                return None;
            }
            *slot = i as u16;
            bit_of.push(b as u8);
            valid |= 1 << b;
        }
        let mut off = Vec::with_capacity(g.dirs.len());
        let mut from_ok = Vec::with_capacity(g.dirs.len());
        let mut jump_ok = Vec::with_capacity(g.dirs.len());
        for &(dx, dy) in &g.dirs {
            let (dx, dy) = (i32::from(dx), i32::from(dy));
            let raw = -dy * stride + dx;
            let o = if raw % q == 0 { raw / q } else { 0 };
            let mut ok: Bb = 0;
            let mut ok2: Bb = 0;
            for s in &g.squares {
                let (f, r) = (i32::from(s.file), i32::from(s.rank));
                let b = bit(f, r);
                let one = g.square(f + dx, r + dy).is_some();
                // The shift must land on the bit of the target square.
                if one && raw % q == 0 && bit(f + dx, r + dy) == b + o {
                    ok |= 1 << b;
                    if g.square(f + 2 * dx, r + 2 * dy).is_some() {
                        ok2 |= 1 << b;
                    }
                }
            }
            off.push(o);
            from_ok.push(ok);
            jump_ok.push(ok2);
        }
        Some(Layout {
            bit_of,
            sq_of,
            valid,
            off,
            from_ok,
            jump_ok,
        })
    }
}
