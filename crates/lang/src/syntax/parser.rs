//! The pest parser derived from `grammar/rules.pest`.

/// The parser; `Rule` has one variant per grammar rule.
#[derive(pest_derive::Parser)]
#[grammar = "../../grammar/rules.pest"]
pub struct RulesParser;
