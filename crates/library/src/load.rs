//! The public entry point: load a rule file (and what it extends), check it,
//! compile it. No I/O here: files come through a `Loader`.

use crate::board::Tables;
use crate::check;
use crate::compile::{self, Compiled};
use crate::diagnostic::{self, Diagnostic};
use crate::race::game::RaceGame;
use crate::source::SourceMap;
pub use crate::source::{BundledLoader, LoadError, Loader, Source};

/// A game loaded and compiled, ready to play: a board game with its
/// tables built, or a race game. The one place where the kind of a game is
/// decided; a front end matches on it only to draw.
#[derive(Clone, Debug)]
pub enum Loaded {
    /// A board game (`board W x H`), its tables built.
    Board(Box<Tables>),
    /// A race game (it has a `track`).
    Race(Box<RaceGame>),
}

impl Loaded {
    /// Board or race.
    pub fn kind(&self) -> Kind {
        match self {
            Loaded::Board(_) => Kind::Board,
            Loaded::Race(_) => Kind::Race,
        }
    }

    /// The title (`game "..."`).
    pub fn title(&self) -> &str {
        match self {
            Loaded::Board(t) => &t.game().title,
            Loaded::Race(r) => &r.title,
        }
    }

    /// The description (`description "..."`).
    pub fn description(&self) -> &str {
        match self {
            Loaded::Board(t) => &t.game().description,
            Loaded::Race(r) => &r.description,
        }
    }

    /// The names of the sides (board) or seats (race), in order.
    pub fn seat_names(&self) -> Vec<String> {
        match self {
            Loaded::Board(t) => t.game().sides.iter().map(|s| s.name.clone()).collect(),
            Loaded::Race(r) => r.seats.clone(),
        }
    }

    /// The fewest and the most players.
    pub fn players(&self) -> (u8, u8) {
        match self {
            Loaded::Board(t) => {
                let n = u8::try_from(t.game().sides.len()).unwrap_or(u8::MAX);
                (n, n)
            }
            Loaded::Race(r) => (r.min_players, r.max_players),
        }
    }
}

/// The outcome of a check: the game when there is no error, and every
/// problem found.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The compiled game, board or race; `Some` exactly when there is no
    /// error.
    pub loaded: Option<Loaded>,
    /// Errors and warnings, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// The files the diagnostics point into.
    pub sources: SourceMap,
    /// The options the file and what it extends declare, each with its
    /// values; the first value is the default.
    pub options: Vec<(String, Vec<String>)>,
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

    /// The board game's tables, when the file is a board game without
    /// errors.
    pub fn board(&self) -> Option<&Tables> {
        match &self.loaded {
            Some(Loaded::Board(t)) => Some(t),
            _ => None,
        }
    }

    /// The race game, when the file is a race game without errors.
    pub fn race(&self) -> Option<&RaceGame> {
        match &self.loaded {
            Some(Loaded::Race(r)) => Some(r),
            _ => None,
        }
    }

    /// The board game's tables, taken out.
    pub fn into_board(self) -> Option<Tables> {
        match self.loaded {
            Some(Loaded::Board(t)) => Some(*t),
            _ => None,
        }
    }

    /// The race game, taken out.
    pub fn into_race(self) -> Option<RaceGame> {
        match self.loaded {
            Some(Loaded::Race(r)) => Some(*r),
            _ => None,
        }
    }

    /// What a list of games shows of this one: title, kind, players and
    /// options; `None` when the file has errors.
    pub fn summary(&self) -> Option<Summary> {
        let g = self.loaded.as_ref()?;
        let (min, max) = g.players();
        Some(Summary {
            title: g.title().to_string(),
            kind: g.kind(),
            min_players: min,
            max_players: max,
            options: self.options.clone(),
        })
    }
}

/// The kind of a game: played on a board, or a race along a track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A board game (`board W x H`).
    Board,
    /// A race game (`track N`).
    Race,
}

impl Kind {
    /// `board` or `race`.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Board => "board",
            Kind::Race => "race",
        }
    }
}

/// A game as a list of games shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The title (`game "..."`).
    pub title: String,
    /// Board or race game.
    pub kind: Kind,
    /// The fewest players.
    pub min_players: u8,
    /// The most players.
    pub max_players: u8,
    /// The declared options with their values, the default first.
    pub options: Vec<(String, Vec<String>)>,
}

impl Summary {
    /// `2`, or `2-6` for a range.
    pub fn players(&self) -> String {
        if self.min_players == self.max_players {
            self.min_players.to_string()
        } else {
            format!("{}-{}", self.min_players, self.max_players)
        }
    }

    /// `goal=capture-all|five kings=long|short` (the default first), or
    /// empty.
    pub fn options_text(&self) -> String {
        let words: Vec<String> = self
            .options
            .iter()
            .map(|(n, v)| format!("{n}={}", v.join("|")))
            .collect();
        words.join(" ")
    }
}

/// Loads the file `name` through `loader` and checks it with the given
/// option values (`("kings", "short")`).
pub fn check(loader: &dyn Loader, name: &str, options: &[(String, String)]) -> Checked {
    match loader.load(name, None) {
        Ok(source) => check_source(source, loader, options),
        Err(reason) => Checked {
            loaded: None,
            diagnostics: vec![Diagnostic::new(
                crate::diagnostic::Code::ExtendsLoad,
                format!("can't load `{name}`: {reason}"),
            )],
            sources: SourceMap::new(),
            options: Vec::new(),
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
    let declared = files
        .as_deref()
        .map(check::merge::declared_options)
        .unwrap_or_default();
    let compiled = files
        .as_ref()
        .and_then(|files| check_and_compile(files, &title, options, &mut diagnostics));
    if let (Some(files), Some(_)) = (&files, &compiled) {
        check_other_values(files, &title, options, &mut diagnostics);
    }
    let compiled = compiled.filter(|_| diagnostics.iter().all(|d| !d.is_error()));
    let loaded = compiled.map(|c| match c {
        Compiled::Board(g) => Loaded::Board(Box::new(Tables::new(*g))),
        Compiled::Race(r) => Loaded::Race(r),
    });
    Checked {
        loaded,
        diagnostics,
        sources,
        options: declared,
    }
}

/// How many lines [`check_source_recovering`] blanks at most, and how many
/// bytes its parses may read in all, to check past syntax errors.
const RECOVERY_LINES: usize = 64;
const RECOVERY_BUDGET: usize = 4 << 20;

/// Codes of the errors a blanked statement may cause by its absence alone
/// (no sides, no board, a side without pieces...): not reported from the
/// rest of a file whose syntax errors were blanked.
const ABSENCE_CODES: &[diagnostic::Code] = &[
    diagnostic::Code::MissingBoard,
    diagnostic::Code::NoSides,
    diagnostic::Code::SideWithoutPieces,
    diagnostic::Code::KindWithoutMoves,
    diagnostic::Code::MissingDice,
    diagnostic::Code::SetupNeedsSide,
    diagnostic::Code::ExtendsNotFirst,
];

/// Checks a rule file given as text as [`check_source`] does, and when the
/// text has syntax errors, also checks the rest of it: the lines of its
/// syntax errors are blanked until it parses (as the language server reads
/// a half-typed file, [`crate::syntax::parse_blanking`]), and the errors of
/// that check are added, unless they may come from the blanked lines: a
/// syntax error, a warning, an error on a blanked line, one that a missing
/// statement causes (no sides, no board...), or one naming (`` `name` ``)
/// a word written on a blanked line. The diagnostics are in source order;
/// the sources are the text as given. A text without syntax errors gets
/// exactly what [`check_source`] gives.
pub fn check_source_recovering(
    source: Source,
    loader: &dyn Loader,
    options: &[(String, String)],
) -> Checked {
    use crate::source::FileId;
    let name = source.name.clone();
    let text = source.text.clone();
    let first = check_source(source, loader, options);
    let syntax_here = first.diagnostics.iter().any(|d| {
        d.code == diagnostic::Code::Syntax && d.primary_span().is_some_and(|s| s.file == FileId(0))
    });
    if !syntax_here {
        return first;
    }
    let Some(blanked) =
        crate::syntax::parse_blanking(&text, RECOVERY_LINES, RECOVERY_BUDGET, |t, _| t.to_string())
    else {
        return first;
    };
    // The byte ranges of the blanked lines, and the words they held.
    let mut gone: Vec<std::ops::Range<usize>> = Vec::new();
    let mut words: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut at = 0;
    for (old, new) in text.split('\n').zip(blanked.split('\n')) {
        if old != new {
            gone.push(at..at + old.len());
            words.extend(
                old.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                    .filter(|w| !w.is_empty()),
            );
        }
        at += old.len() + 1;
    }
    let second = check_source(
        Source {
            name,
            text: blanked,
        },
        loader,
        options,
    );
    let names_gone = |d: &Diagnostic| {
        let mut quoted = d.message.split('`').skip(1).step_by(2);
        quoted.any(|q| words.contains(q))
    };
    let on_gone = |s: crate::source::Span| {
        let (b, e) = (s.begin as usize, s.end as usize);
        s.file == FileId(0)
            && gone
                .iter()
                .any(|g| b <= g.end && (e > g.start || b >= g.start))
    };
    let added: Vec<Diagnostic> = second
        .diagnostics
        .iter()
        .filter(|d| {
            d.is_error()
                && d.code != diagnostic::Code::Syntax
                && !ABSENCE_CODES.contains(&d.code)
                && !names_gone(d)
                && d.primary_span().is_some_and(|s| !on_gone(s))
        })
        .cloned()
        .collect();
    if added.is_empty() {
        return first;
    }
    let mut diagnostics = first.diagnostics;
    diagnostics.extend(added);
    // Source order; those of no place (a count of syntax errors) last.
    diagnostics.sort_by_key(|d| match d.primary_span() {
        Some(s) => (0, s.file.0, s.begin, s.end),
        None => (1, 0, 0, 0),
    });
    // The files of the second check (what the text extends too), the text
    // as given in place of its blanked copy.
    let mut sources = SourceMap::new();
    for i in 0..second.sources.len() {
        let Some(f) = second.sources.get(FileId(i as u16)) else {
            continue;
        };
        let body = if i == 0 { text.clone() } else { f.text.clone() };
        sources.add(f.name.clone(), body);
    }
    Checked {
        loaded: None,
        diagnostics,
        sources,
        options: second.options,
    }
}

/// Checks a chain of files under the given option values and builds the
/// tables; the game when no error was found (circles of chained landings, an
/// error, are found on a race game's tables).
fn check_and_compile(
    files: &[crate::ast::File],
    title: &str,
    options: &[(String, String)],
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Compiled> {
    let errors = |d: &[Diagnostic]| d.iter().filter(|d| d.is_error()).count();
    let before = errors(diagnostics);
    let checked = check::check_game(files, title, options, diagnostics)?;
    let compiled = compile::compile_game(&checked, diagnostics);
    (errors(diagnostics) == before).then_some(compiled)
}

/// Checks the game again with the values of the options that were not
/// chosen, so that a mistake in a `when` block is found without playing
/// that house rule. Errors found only then are added, saying which value.
///
/// Only values that some `when` block names change the game. They are
/// checked in rounds: round k gives every option its k-th such value (the
/// others keep theirs), so a file is checked again at most once per value
/// of its longest option, however many options it has. An error inside a
/// block names that block's value; one outside every block names the
/// values of its round.
fn check_other_values(
    files: &[crate::ast::File],
    title: &str,
    options: &[(String, String)],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let blocks = check::merge::when_values(files);
    let mut others: Vec<(String, Vec<String>)> = Vec::new();
    for (name, values) in check::merge::declared_options(files) {
        let chosen = options
            .iter()
            .rev()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
            .or_else(|| values.first().cloned());
        let rest: Vec<String> = values
            .into_iter()
            .filter(|v| {
                Some(v) != chosen.as_ref() && blocks.contains_key(&(name.clone(), v.clone()))
            })
            .collect();
        if !rest.is_empty() {
            others.push((name, rest));
        }
    }
    let rounds = others.iter().map(|(_, v)| v.len()).max().unwrap_or(0);
    let mut known: std::collections::HashSet<String> = diagnostics
        .iter()
        .map(|d| format!("{:?}{:?}{}", d.code, d.labels, d.message))
        .collect();
    for round in 0..rounds {
        let set: Vec<(String, String)> = others
            .iter()
            .filter_map(|(name, values)| values.get(round).map(|v| (name.clone(), v.clone())))
            .collect();
        let mut these: Vec<(String, String)> = options
            .iter()
            .filter(|(k, _)| !set.iter().any(|(n, _)| n == k))
            .cloned()
            .collect();
        these.extend(set.iter().cloned());
        let mut found = Vec::new();
        check_and_compile(files, title, &these, &mut found);
        for mut d in found.into_iter().filter(Diagnostic::is_error) {
            if !known.insert(format!("{:?}{:?}{}", d.code, d.labels, d.message)) {
                continue;
            }
            let inside = |pair: &(String, String)| {
                blocks.get(pair).is_some_and(|spans| {
                    spans.iter().any(|b| {
                        d.labels.iter().any(|l| {
                            l.span.file == b.file && l.span.begin >= b.begin && l.span.end <= b.end
                        })
                    })
                })
            };
            let named: Vec<&(String, String)> = match set.iter().find(|p| inside(p)) {
                Some(p) => vec![p],
                None => set.iter().collect(),
            };
            let words: Vec<String> = named.iter().map(|(n, v)| format!("`{n} = {v}`")).collect();
            let s = if words.len() == 1 { "" } else { "s" };
            d.message = format!("{} (with option{s} {})", d.message, words.join(", "));
            diagnostics.push(d);
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
            assert!(checked.loaded.is_some());
        }
    }
}
