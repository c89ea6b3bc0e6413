//! The output formats, one module each: JSON ([`json`], serde types), CSV
//! ([`csv`], the `csv` crate), SVG pictures ([`svg`]: charts and boards) and
//! text reports ([`text`]). PDN, the exchange format for game records, is
//! [`crate::pdn`]. Front ends choose a format and print what it returns.

pub mod colour;
pub mod csv;
pub mod json;
pub mod parquet;
pub mod svg;
pub mod text;
