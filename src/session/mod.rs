//! A game in progress, for any front end (the prompt of `play`, a web page,
//! an editor): [`board::BoardSession`] for board games: legal moves, a move
//! entered by its notation, a unique prefix or square by square, undo and
//! redo, a hint, resign, and the record to save and resume from.
//!
//! Race games in progress are played by `race::RaceState` with the turn
//! loop of `cli::race` (not yet moved here).

pub mod board;

pub use board::{read_move, BoardSession, Entry, Reading, Seat, Undo};
