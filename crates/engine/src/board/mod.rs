//! Board games: the compiled game ([`game::Game`], what `compile` makes of
//! a rule file) and the engine that plays it. `Tables` are built once per
//! game; `Generator` finds the legal moves of a `Position`; `Match` plays a
//! game with its history and draw rules, its moves' rule events as data
//! (`Event`); `find_move` reads a typed move or says which rule refuses it
//! (`MoveError`); `Perft` counts the move tree. The
//! counterpart of [`crate::race`] for race games.

pub mod bitboard;
pub mod end;
pub mod game;
pub mod kernel;
pub mod movegen;
pub mod perft;
pub mod play;
pub mod position;
pub mod refusal;
pub mod tables;

pub use movegen::{make, make_undoable, unmake, Generator, MoveList, MoveRec, Undo};
pub use perft::Perft;
pub use play::{moves_of, EndReason, Event, Match, Move, Outcome};
pub use position::{Position, PositionError};
pub use refusal::{find_move, MoveError, Refusal};
pub use tables::Tables;
