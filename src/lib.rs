//! rulebook: plays board games from rule files.
//!
//! The pipeline: `grammar/rules.pest` -> `syntax` (AST with spans) -> `check`
//! (all problems collected as `Diagnostic`s) -> `compile` (a `Game` of tables)
//! -> `engine` (positions, legal moves, play, perft). A rule file with a
//! `track` is a race game instead: it compiles to a `RaceGame`
//! (`race_game`), played by `race` (rolls, choices, cell rules). The library
//! does no I/O: rule files reach it through a `Loader`.

pub mod agents;
pub mod ast;
pub mod board_record;
pub mod bundled;
pub mod check;
pub mod cli;
pub mod compile;
pub mod diagnostic;
pub mod engine;
pub mod format;
pub mod game;
pub mod lab;
pub mod load;
pub mod pdn;
pub mod race;
pub mod race_game;
pub mod rng;
pub mod session;
pub mod source;
pub mod syntax;
pub mod vocab;
