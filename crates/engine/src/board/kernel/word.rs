//! The board word of a kernel: `u64` where the playable squares fit in 64
//! bits (8 x 8 and 10 x 10 boards of one colour), `u128` beyond. The
//! kernel is generic over it, so each word gets its own compiled code.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// An unsigned integer used as a bitboard.
pub trait Word:
    Copy
    + Default
    + Debug
    + Eq
    + Hash
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + 'static
{
    /// No bit.
    const ZERO: Self;
    /// The number of bits.
    const BITS: u32;
    /// Whether a kernel on this word may have squares where no piece may
    /// stop, captures that convert and triggers (the 128-bit playout
    /// kernel); the 64-bit kernel, which counts perft, takes none, and its
    /// code is compiled without them.
    const RICH: bool;
    /// The number of bits set.
    fn ones(self) -> u32;
    /// The number of the lowest bit set (`BITS` for none).
    fn low(self) -> u32;
    /// The lowest bit set, alone.
    fn lowest(self) -> Self;
    /// Without its lowest bit.
    fn clear_lowest(self) -> Self;
    /// From a 128-bit board, when it fits.
    fn from_bb(b: u128) -> Option<Self>;
}

macro_rules! word {
    ($t:ty, $rich:expr) => {
        impl Word for $t {
            const ZERO: Self = 0;
            const RICH: bool = $rich;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn low(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn lowest(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn from_bb(b: u128) -> Option<Self> {
                <$t>::try_from(b).ok()
            }
        }
    };
}

word!(u64, false);
word!(u128, true);
