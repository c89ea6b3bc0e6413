//! rulebook's engines: [`compile`] turns a checked rule file into the
//! tables of a [`board::game::Game`] or a [`race::game::RaceGame`];
//! [`board`] and [`race`] play them (positions, legal moves, play, end
//! rules, events); [`agents`] are the computer players over the
//! [`agents::GameState`] trait.
//!
//! Architecture Invariant: the engine crate does no I/O and produces no
//! English for people to read: it returns data (an outcome's reason, a race
//! turn's events, why a choice is not allowed), put in words by the library
//! crate's `narrate`. It knows nothing of the library or the front ends.
//!
//! The language crate's modules are re-exported here (`crate::vocab`,
//! `crate::source`...), so the engine's modules name them as before.
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub use rulebook_lang::{
    ast, bundled, check, diagnostic, format_rules, rng, shown, source, suggest, syntax, vocab,
    words,
};

pub mod agents;
pub mod board;
pub mod compile;
pub mod race;
