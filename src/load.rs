//! The public entry point: load a rule file (and what it extends), check it,
//! compile it. No I/O here: files come through a `Loader`.

use crate::check::{self, CheckedGame};
use crate::compile;
use crate::diagnostic::{self, Diagnostic};
use crate::game::Game;
use crate::race_game::RaceGame;
use crate::source::SourceMap;
pub use crate::source::{BundledLoader, Loader, Source};

/// The outcome of a check: the game when there is no error, and every
/// problem found.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The compiled board game; `Some` exactly when there is no error and
    /// the file describes a board game.
    pub game: Option<Game>,
    /// The compiled race game; `Some` exactly when there is no error and
    /// the file describes a race game (it has a `track`).
    pub race: Option<RaceGame>,
    /// Errors and warnings, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// The files the diagnostics point into.
    pub sources: SourceMap,
}

impl Checked {
    /// Every diagnostic as plain text, in source order, then a summary line
    /// (`error: 2 errors, 1 warning`) when there is any.
    pub fn render(&self) -> String {
        diagnostic::render_all(&self.diagnostics, &self.sources)
    }

    /// The number of errors.
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    /// The number of warnings.
    pub fn warnings(&self) -> usize {
        self.diagnostics.len() - self.errors()
    }
}

/// Loads the file `name` through `loader` and checks it with the given
/// option values (`("kings", "short")`).
pub fn check(loader: &dyn Loader, name: &str, options: &[(String, String)]) -> Checked {
    match loader.load(name, None) {
        Ok(source) => check_source(source, loader, options),
        Err(reason) => Checked {
            game: None,
            race: None,
            diagnostics: vec![Diagnostic::new(
                crate::diagnostic::Code::ExtendsLoad,
                format!("can't load `{name}`: {reason}"),
            )],
            sources: SourceMap::new(),
        },
    }
}

/// Checks a rule file given as text; files it extends come through
/// `loader`.
pub fn check_source(source: Source, loader: &dyn Loader, options: &[(String, String)]) -> Checked {
    let mut sources = SourceMap::new();
    let mut diagnostics = Vec::new();
    let title = source.name.clone();
    let files = check::extends::load_chain(source, loader, &mut sources, &mut diagnostics);
    let resolved = files
        .as_ref()
        .and_then(|files| check::check_game(files, &title, options, &mut diagnostics));
    if let (Some(files), Some(_)) = (&files, &resolved) {
        check_other_values(files, &title, options, &mut diagnostics);
    }
    let resolved = resolved.filter(|_| diagnostics.iter().all(|d| !d.is_error()));
    let (game, race) = match resolved {
        Some(CheckedGame::Board(r)) => (Some(compile::compile(&r)), None),
        Some(CheckedGame::Race(r)) => (None, Some(*r)),
        None => (None, None),
    };
    Checked {
        game,
        race,
        diagnostics,
        sources,
    }
}

/// Checks the game once more for every value of every option that was not
/// chosen, so that a mistake in a `when` block is found without playing
/// that house rule. Errors found only then are added, saying which value.
fn check_other_values(
    files: &[crate::ast::File],
    title: &str,
    options: &[(String, String)],
    diagnostics: &mut Vec<Diagnostic>,
) {
    for (name, values) in check::merge::declared_options(files) {
        let chosen = options
            .iter()
            .rev()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
            .or_else(|| values.first().cloned());
        for value in values.iter().filter(|v| Some(*v) != chosen.as_ref()) {
            let mut these: Vec<(String, String)> = options
                .iter()
                .filter(|(k, _)| *k != name)
                .cloned()
                .collect();
            these.push((name.clone(), value.clone()));
            let mut found = Vec::new();
            check::check_game(files, title, &these, &mut found);
            for d in found.into_iter().filter(Diagnostic::is_error) {
                let known = diagnostics
                    .iter()
                    .any(|k| k.code == d.code && k.labels == d.labels && k.message == d.message);
                if !known {
                    let mut d = d;
                    d.message = format!("{} (with option `{name} = {value}`)", d.message);
                    diagnostics.push(d);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn bundled_games_check_clean() {
        for (name, _) in crate::bundled::GAMES {
            let checked = check(&BundledLoader, name, &[]);
            assert_eq!(checked.render(), "", "{name}");
            assert!(checked.game.is_some() || checked.race.is_some());
        }
    }
}
