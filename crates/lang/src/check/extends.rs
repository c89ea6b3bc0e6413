//! `extends`: loading the chain of files a rule file builds on.

use crate::ast::{File, Statement};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::{Loader, Source, SourceMap};
use crate::syntax;

/// The longest chain of files that extend one another (docs/limits.md): it
/// also stops a circle that names cannot show (through symbolic links).
pub const MAX_CHAIN: usize = 32;

/// Parses `root` and every file it extends. Returns the trees base first,
/// or `None` when a file has a syntax error or can't be loaded (the problems
/// are in `diags`).
pub fn load_chain(
    root: Source,
    loader: &dyn Loader,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<File>> {
    let mut chain: Vec<File> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut current = root;
    let mut ok = true;
    loop {
        let id = sources.add(current.name.clone(), current.text.clone());
        names.push(current.name.clone());
        let (tree, syntax_errors) = syntax::parse(&current.text, id);
        let had_errors = !syntax_errors.is_empty();
        diags.extend(syntax_errors);
        let tree = tree.filter(|_| !had_errors)?;
        for statement in tree.statements.iter().skip(1) {
            if let Statement::Extends(name) = &statement.node {
                ok = false;
                diags.push(
                    Diagnostic::new(
                        Code::ExtendsNotFirst,
                        "`extends` must be the first statement",
                    )
                    .primary(
                        statement.span,
                        format!("extends `{}` after other statements", name.node),
                    )
                    .help("move it to the top of the file; a file extends at most one other"),
                );
            }
        }
        let base = match tree.statements.first().map(|s| &s.node) {
            Some(Statement::Extends(name)) => Some(name.clone()),
            _ => None,
        };
        chain.push(tree);
        let Some(base) = base else { break };
        if chain.len() >= MAX_CHAIN {
            diags.push(
                Diagnostic::new(
                    Code::TooMany,
                    format!("more than {MAX_CHAIN} files extend one another"),
                )
                .primary(
                    base.span,
                    format!("file number {} of the chain", chain.len()),
                )
                .help("a variant needs only the file it changes: extend that one directly"),
            );
            return None;
        }
        let loaded = match loader.load(&base.node, Some(&current.name)) {
            Ok(source) => source,
            Err(reason) => {
                diags.push(
                    Diagnostic::new(Code::ExtendsLoad, format!("can't load `{}`", base.node))
                        .primary(base.span, reason.to_string())
                        .help("name a bundled game (`rulebook list` shows them) or a rule file relative to this one"),
                );
                return None;
            }
        };
        if names.contains(&loaded.name) {
            let mut cycle = names.clone();
            cycle.push(loaded.name.clone());
            diags.push(
                Diagnostic::new(
                    Code::ExtendsCycle,
                    format!("`{}` extends itself", loaded.name),
                )
                .primary(base.span, "this closes a circle")
                .help(format!(
                    "the files extend each other in a circle: {}",
                    cycle.join(" -> ")
                )),
            );
            return None;
        }
        current = loaded;
    }
    chain.reverse();
    ok.then_some(chain)
}
