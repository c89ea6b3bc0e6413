//! rulebook's language: a rule file from text to its checked, resolved
//! form. [`source`] holds the files and spans (and the one bounded reader of
//! text files), [`syntax`] parses a file into the tree of [`ast`], and
//! [`check`] finds every problem (each a [`diagnostic::Diagnostic`]) and
//! resolves names into the values of [`vocab`]; [`format_rules`] is the
//! canonical layout of a rule file. [`bundled`] holds the rule files of
//! `games/`, embedded at build time.
//!
//! Architecture Invariant: this crate knows nothing of the engines, the
//! library or the front ends, reads no file except through
//! [`source::read_text`], and has no command-line parsing.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod ast;
pub mod bundled;
pub mod check;
pub mod diagnostic;
pub mod format_rules;
pub mod rng;
pub mod shown;
pub mod source;
pub mod suggest;
pub mod syntax;
pub mod vocab;
pub mod words;
