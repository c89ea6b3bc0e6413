//! A game in progress, for any front end (the prompt of `play`, a web page,
//! an editor): [`board::BoardSession`] for board games: legal moves, a move
//! entered by its notation, a unique prefix or square by square, undo and
//! redo, a hint, resign, and the record to save and resume from; and
//! [`race::RaceSession`] for race games: the roll, the legal choices, the
//! choice of a person or a computer player, undo and redo where a person
//! plays, a hint, the turn played as data and the record.

pub mod board;
pub mod race;

pub use board::{
    move_list, move_number, read_move, BoardSession, Ending, Entry, Next, Reading, Seat, Turn, Undo,
};
pub use race::{RaceNext, RaceSession, RaceUndo};

/// A fresh seed for a game played without one: different on every call
/// (from the system's randomness, as the standard library's hash maps get
/// theirs, and the clock), below 10^9 so that it is easy to type again.
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.write_u32(std::process::id());
    h.finish() % 1_000_000_000
}
