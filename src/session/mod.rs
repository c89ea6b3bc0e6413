//! A game in progress, for any front end (the prompt of `play`, a web page,
//! an editor): [`board::BoardSession`] for board games: legal moves, a move
//! entered by its notation, a unique prefix or square by square, undo and
//! redo, a hint, resign, and the record to save and resume from; and
//! [`race::RaceSession`] for race games: the roll, the legal choices, the
//! choice of a person or a computer player, undo and redo where a person
//! plays, a hint, the turn played as data and the record.

pub mod board;
pub mod race;

pub use board::{read_move, BoardSession, Ending, Entry, Next, Reading, Seat, Turn, Undo};
pub use race::{RaceNext, RaceSession, RaceUndo};
