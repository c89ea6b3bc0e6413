//! The English of the games: the engines return data (a race turn's
//! `Event`s, a board game's `Outcome` and `EndReason`), and this module puts
//! it in words, the one place the terminal, the web page, the records and
//! the language server take those words from.
//!
//! - `board`: how a board game ended (`White won: Black lost their last
//!   piece`);
//! - `event`: a race turn's events (`landed on 27: contains 7, back 3 to
//!   24`);
//! - `race`: race turns, positions, results and why a choice is not
//!   allowed; a position or a choice read back from the same words;
//! - `legend`: the key of a track picture, the marks and lines of its cell
//!   rules.

pub mod board;
pub mod event;
pub mod legend;
pub mod race;
