//! The English of the games: the engines return data (a race turn's
//! `Event`s, a board game's `Outcome` and `EndReason`, a board move's
//! `Event`s and `MoveError`, an `AgentError`), and this module puts it in
//! words, the one place the terminal, the web page, the records and the
//! language server take those words from.
//!
//! - `agent`: why a computer player can't be seated (`unknown agent`);
//! - `board`: how a board game ended (`White won: Black lost their last
//!   piece`), a move's rule events (`captures the man on 14`) and why a
//!   typed move is refused (`a capture is compulsory: 22x15`);
//! - `event`: a race turn's events (`landed on 27: contains 7, back 3 to
//!   24`);
//! - `race`: race turns, positions, results and why a choice is not
//!   allowed; a position or a choice read back from the same words;
//! - `legend`: the key of a track picture, the marks and lines of its cell
//!   rules;
//! - `lab`: the few words of the lab's tables (why a game ended, the
//!   names of the counted rule events).

pub mod agent;
pub mod board;
pub mod event;
pub mod lab;
pub mod legend;
pub mod race;
