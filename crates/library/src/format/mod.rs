//! The output formats, one module each: JSON ([`json`], serde types), CSV
//! ([`csv`], the `csv` crate), SVG pictures ([`svg`]: charts and boards),
//! text reports ([`text`]) and a game's rules as a printable page
//! ([`rules_html`]). PDN, the exchange format for game records, is
//! [`crate::pdn`]. Front ends choose a format and print what it returns.

pub mod colour;
pub mod csv;
pub mod json;
pub mod parquet;
pub mod rules_html;
pub mod svg;
pub mod text;
