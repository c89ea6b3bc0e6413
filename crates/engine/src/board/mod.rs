//! Board games: the compiled game ([`game::Game`], what `compile` makes of
//! a rule file) and the engine that plays it. `Tables` are built once per
//! game; `Generator` finds the legal moves of a `Position`; `Match` plays a
//! game with its history and draw rules; `Perft` counts the move tree. The
//! counterpart of [`crate::race`] for race games.

pub mod bitboard;
pub mod end;
pub mod game;
pub mod kernel;
pub mod movegen;
pub mod perft;
pub mod play;
pub mod position;
pub mod tables;

pub use movegen::{make, make_undoable, unmake, Generator, MoveList, MoveRec, Undo};
pub use perft::Perft;
pub use play::{find_move, moves_of, EndReason, Match, Move, Outcome};
pub use position::{Position, PositionError};
pub use tables::Tables;
