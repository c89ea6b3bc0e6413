//! rulebook: plays board games and race games from rule files.
//!
//! The layers are the workspace's crates (`rulebook-lang`,
//! `rulebook-engine`, `rulebook-library`), re-exported here under their
//! modules' names; this crate adds the front ends: [`cli`], and `web` and
//! `lsp` behind the features of the same names. The pipeline
//! (docs/architecture.md draws it and says what each module may import):
//!
//! ```text
//! grammar/rules.pest -> syntax (ast) -> check -> compile
//!     -> board (compiled board game + engine) | race (compiled race game + engine)
//!     -> agents -> session (a game in progress) | lab (many games, statistics)
//!     -> format (JSON, CSV, Parquet, SVG, text) -> front ends (cli)
//! ```
//!
//! [`load`] loads a rule file (and what it `extends`) through a
//! [`source::Loader`], checks it (every problem a [`diagnostic::Diagnostic`])
//! and compiles it to a [`board::game::Game`] or, for a file with a
//! `track`, a [`race::game::RaceGame`]. [`board`] and [`race`] play them;
//! [`agents`] are the computer players; [`session`] is a game in progress
//! for any front end; [`lab`] plays many games and sums them up; [`format`](mod@format)
//! writes every output. [`cli`] only parses arguments, calls these and
//! prints. The library does no I/O of its own except files a caller asks it
//! to write.
#![forbid(unsafe_code)]

pub use rulebook_engine::{agents, board, compile, race};
pub use rulebook_lang::{
    ast, bundled, check, diagnostic, format_rules, rng, shown, source, suggest, syntax, vocab,
    words,
};
pub use rulebook_library::{format, lab, layout, load, narrate, pdn, record, session};

pub mod cli;
#[cfg(feature = "lsp")]
pub mod lsp;
#[cfg(feature = "web")]
pub mod web;
