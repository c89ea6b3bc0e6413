//! What a variant (a file that `extends` another) leaves over from the file
//! it builds on: the description of the other game, shown as its own (W007),
//! and inherited options whose `when` blocks it restates in full, so that
//! choosing them changes nothing (W008).

use crate::ast::{File, Spanned, Statement};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;

/// Warns about the root file of a chain (the last of `files`, base first)
/// that extends another: no `description` of its own, and options in force
/// that change nothing.
pub fn check_variant(files: &[File], diags: &mut Vec<Diagnostic>) {
    let Some(root) = files.last() else { return };
    let Some(extends) = root
        .statements
        .first()
        .filter(|s| matches!(s.node, Statement::Extends(_)))
    else {
        return;
    };
    let own = root
        .statements
        .iter()
        .any(|s| matches!(s.node, Statement::Description(_)));
    if !own {
        let base = match &extends.node {
            Statement::Extends(name) => name.node.as_str(),
            _ => "",
        };
        diags.push(
            Diagnostic::new(
                Code::NoOwnDescription,
                "this variant has no `description` of its own",
            )
            .primary(
                extends.span,
                format!("it shows the description of `{base}`"),
            )
            .help("add a description saying what this variant changes"),
        );
    }
    for (name, _) in super::merge::declared_options(files) {
        if let Some(d) = changes_nothing(files, &name) {
            diags.push(d);
        }
    }
}

/// What a statement sets, for telling whether a later statement replaces
/// it: the key of a named or single statement; setups, cell rules and rules
/// of the roll are replaced all together by a later file that states any.
/// `None` for what no later statement undoes (a `remove`).
fn sets(statement: &Spanned<Statement>) -> Option<String> {
    match &statement.node {
        Statement::Setup(_) => Some("setup".into()),
        Statement::CellRule(_) => Some("cell rules".into()),
        Statement::RollRule(_) => Some("roll rules".into()),
        Statement::Remove(_) | Statement::MoveBySum | Statement::When { .. } => None,
        _ => super::merge::key(statement).map(|(k, _, _)| k),
    }
}

/// A W008 warning when option `name` has `when` blocks and a later file
/// restates, outside any block, everything each of them sets.
fn changes_nothing(files: &[File], name: &str) -> Option<Diagnostic> {
    let mut declared: Option<Span> = None;
    let mut restated: Option<(Span, String)> = None;
    let mut blocks = 0;
    for (i, file) in files.iter().enumerate() {
        for statement in &file.statements {
            match &statement.node {
                Statement::Option { name: n, .. } if n.node == name => declared = Some(n.span),
                Statement::When {
                    option,
                    value,
                    body,
                } if option.node == name => {
                    blocks += 1;
                    if body.is_empty() {
                        return None;
                    }
                    for inner in body {
                        let key = sets(inner)?;
                        let later = files.get(i + 1..).unwrap_or_default();
                        let last = later
                            .iter()
                            .flat_map(|f| f.statements.iter())
                            .rfind(|s| sets(s).as_deref() == Some(key.as_str()))?;
                        if restated.is_none() {
                            restated = Some((head(last), value.node.clone()));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let (at, value) = restated.filter(|_| blocks > 0)?;
    let mut d = Diagnostic::new(
        Code::OptionChangesNothing,
        format!("option `{name}` changes nothing in this variant"),
    )
    .primary(
        at,
        format!("restates what `when {name} = {value}` sets, whatever the option's value"),
    );
    if let Some(span) = declared {
        d = d.secondary(span, "the option is declared here");
    }
    Some(d.help(format!(
        "drop it with `remove option {name}`, or restate its changes in a `when {name} = ...` block here"
    )))
}

/// A statement up to its name (`piece king`), or the whole of a statement
/// that names nothing.
fn head(statement: &Spanned<Statement>) -> Span {
    match super::merge::key(statement) {
        Some((_, _, name)) if name != statement.span && name.begin >= statement.span.begin => {
            Span {
                end: name.end,
                ..statement.span
            }
        }
        _ => statement.span,
    }
}
