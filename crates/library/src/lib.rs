//! rulebook's library, what every front end calls: [`load`] loads a rule
//! file (and what it `extends`) through a `source::Loader`, checks it and
//! compiles it; [`narrate`] puts the engines' data in English; [`record`]
//! and [`pdn`] read and write game records; [`session`] is a game in
//! progress, played turn by turn; [`lab`] plays many games and sums them
//! up; [`layout`] places the cells of a race track in its shape;
//! [`format`](mod@format) writes every output (JSON, CSV, Parquet, SVG,
//! text).
//!
//! Architecture Invariant: the library crate knows nothing of the front
//! ends: no command-line parsing, no terminal, no web server, no language
//! server. It does no I/O of its own except files a caller hands it to
//! write (the lab's row files, a game's record) and rule files read through
//! a `Loader`. All the English that people read of a game comes from
//! [`narrate`].
//!
//! The modules of the crates below are re-exported here (`crate::board`,
//! `crate::vocab`...), so the library's modules name them as before.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub use rulebook_engine::{
    agents, ast, board, bundled, check, compile, diagnostic, format_rules, race, rng, shown,
    source, suggest, syntax, vocab, words,
};

pub mod format;
pub mod lab;
pub mod layout;
pub mod load;
pub mod narrate;
pub mod pdn;
pub mod record;
pub mod session;
