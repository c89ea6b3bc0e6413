//! Problems found in rule files: plain data, rendered rustc-style as plain
//! text (`error[E002]: ...`, ` --> file:4:8`, the source line underlined).

use crate::source::{SourceMap, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term;
use codespan_reporting::term::termcolor::NoColor;
use std::fmt;

/// How bad a problem is: errors stop the game from being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The file can't be played.
    Error,
    /// Probably a mistake, but the file can be played.
    Warning,
}

/// The kind of a problem; each has a stable code (`E002`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// The text does not follow the grammar.
    Syntax,
    /// A direction name that is neither built in nor declared.
    UnknownDirection,
    /// A zone name that is not declared.
    UnknownZone,
    /// A piece kind that is not declared.
    UnknownKind,
    /// A side that is not declared.
    UnknownSide,
    /// An option that is not declared.
    UnknownOption,
    /// A value that the option does not have.
    UnknownOptionValue,
    /// The same thing declared twice in one file.
    Duplicate,
    /// A square outside the board.
    OffBoard,
    /// A piece set up on a square that is not playable.
    NotPlayable,
    /// Two pieces set up on one square.
    Overlap,
    /// A side that has no piece in the start position.
    SideWithoutPieces,
    /// A piece kind with no step, slide or jump.
    KindWithoutMoves,
    /// A board smaller than 4 or larger than 26.
    BoardSize,
    /// No `board` statement.
    MissingBoard,
    /// No `side` statement.
    NoSides,
    /// More than 8 sides.
    TooManySides,
    /// A square number in a game with the algebraic notation.
    NumericSquare,
    /// A square number outside 1..N.
    SquareNumber,
    /// A rank pattern that is 0, reversed or beyond the board.
    RankRange,
    /// An `extends` whose file can't be loaded.
    ExtendsLoad,
    /// Files that extend each other in a circle.
    ExtendsCycle,
    /// An `extends` that is not the first statement.
    ExtendsNotFirst,
    /// The vector `(0, 0)`.
    ZeroVector,
    /// A vector longer than any board.
    VectorRange,
    /// Two sides, or two piece kinds, with the same letter.
    DuplicateLetter,
    /// More piece kinds or directions than a game can hold.
    TooMany,
    /// `setup KIND at SQUARES` without a side.
    SetupNeedsSide,
    /// A set of directions that contains itself.
    DirectionCycle,
    /// A count that makes no sense (`repetition 1`, `after 0 plies`).
    CountRange,
    /// A zone that nothing uses.
    UnusedZone,
    /// A piece kind that is never set up nor reached.
    UnusedKind,
    /// A game without an `end` statement.
    NoEnd,
    /// A square of a zone that is not playable.
    ZoneNotPlayable,
    /// A statement of a board game in a race game, or the other way round.
    WrongKind,
    /// A track too short or too long.
    TrackSize,
    /// A cell number off the track, or a rule that moves a piece off it.
    CellNumber,
    /// Dice, or a face of a die, out of range.
    DiceRange,
    /// A number of players or seats out of range.
    PlayerCount,
    /// A race game without `dice`.
    MissingDice,
    /// A `resting on` rule that moves the piece.
    RestingMove,
    /// Chained landing rules that go round in a circle.
    CellCycle,
    /// A cell rule whose tests hold on no cell.
    RuleNeverApplies,
    /// Something a `remove` dropped is still used.
    RemovedStillUsed,
    /// A `remove` of something that is not defined.
    NothingToRemove,
    /// A capture precedence criterion that can never tell two captures apart.
    NeverDecides,
    /// A setting that has no effect where it is written.
    NoEffect,
    /// An effect or a target that can't apply to the rule it is in (`end
    /// turn` in a cell rule, `others` in a rule of the roll).
    EffectMisplaced,
    /// An end rule's outcome that can't apply to its condition (`end
    /// no-pieces pass`).
    OutcomeNotAllowed,
    /// An end rule that an earlier one always overrules, or that has no effect.
    EndNeverDecides,
    /// A file that extends another without a `description` of its own.
    NoOwnDescription,
    /// An inherited option whose `when` blocks a later file restates in full.
    OptionChangesNothing,
    /// A `layout` that can't draw this track (`cross` without a loop,
    /// `lanes` without paths, a serpentine of 1 column).
    LayoutShape,
    /// A `layout serpentine N` whose last row is left mostly empty.
    LayoutUneven,
    /// `capture stacks` with a rule it can't go with (custodian capture,
    /// capture of neighbours, capture by replacement, placing, copies).
    StackConflict,
}

impl Code {
    /// Every code, in order.
    pub const ALL: [Code; 55] = [
        Code::Syntax,
        Code::UnknownDirection,
        Code::UnknownZone,
        Code::UnknownKind,
        Code::UnknownSide,
        Code::UnknownOption,
        Code::UnknownOptionValue,
        Code::Duplicate,
        Code::OffBoard,
        Code::NotPlayable,
        Code::Overlap,
        Code::SideWithoutPieces,
        Code::KindWithoutMoves,
        Code::BoardSize,
        Code::MissingBoard,
        Code::NoSides,
        Code::TooManySides,
        Code::NumericSquare,
        Code::SquareNumber,
        Code::RankRange,
        Code::ExtendsLoad,
        Code::ExtendsCycle,
        Code::ExtendsNotFirst,
        Code::ZeroVector,
        Code::VectorRange,
        Code::DuplicateLetter,
        Code::TooMany,
        Code::SetupNeedsSide,
        Code::DirectionCycle,
        Code::CountRange,
        Code::UnusedZone,
        Code::UnusedKind,
        Code::NoEnd,
        Code::ZoneNotPlayable,
        Code::WrongKind,
        Code::TrackSize,
        Code::CellNumber,
        Code::DiceRange,
        Code::PlayerCount,
        Code::MissingDice,
        Code::RestingMove,
        Code::CellCycle,
        Code::RuleNeverApplies,
        Code::RemovedStillUsed,
        Code::NothingToRemove,
        Code::NeverDecides,
        Code::NoEffect,
        Code::EffectMisplaced,
        Code::OutcomeNotAllowed,
        Code::EndNeverDecides,
        Code::NoOwnDescription,
        Code::OptionChangesNothing,
        Code::LayoutShape,
        Code::LayoutUneven,
        Code::StackConflict,
    ];

    /// The stable code, `E001`..`E0nn` for errors, `W001`.. for warnings.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "E001",
            Code::UnknownDirection => "E002",
            Code::UnknownZone => "E003",
            Code::UnknownKind => "E004",
            Code::UnknownSide => "E005",
            Code::UnknownOption => "E006",
            Code::UnknownOptionValue => "E007",
            Code::Duplicate => "E008",
            Code::OffBoard => "E009",
            Code::NotPlayable => "E010",
            Code::Overlap => "E011",
            Code::SideWithoutPieces => "E012",
            Code::KindWithoutMoves => "E013",
            Code::BoardSize => "E014",
            Code::MissingBoard => "E015",
            Code::NoSides => "E016",
            Code::TooManySides => "E017",
            Code::NumericSquare => "E018",
            Code::SquareNumber => "E019",
            Code::RankRange => "E020",
            Code::ExtendsLoad => "E021",
            Code::ExtendsCycle => "E022",
            Code::ExtendsNotFirst => "E023",
            Code::ZeroVector => "E024",
            Code::VectorRange => "E025",
            Code::DuplicateLetter => "E026",
            Code::TooMany => "E027",
            Code::SetupNeedsSide => "E028",
            Code::DirectionCycle => "E029",
            Code::CountRange => "E030",
            Code::WrongKind => "E031",
            Code::TrackSize => "E032",
            Code::CellNumber => "E033",
            Code::DiceRange => "E034",
            Code::PlayerCount => "E035",
            Code::MissingDice => "E036",
            Code::RestingMove => "E037",
            Code::CellCycle => "E038",
            Code::EffectMisplaced => "E060",
            Code::OutcomeNotAllowed => "E039",
            Code::UnusedZone => "W001",
            Code::UnusedKind => "W002",
            Code::NoEnd => "W003",
            Code::ZoneNotPlayable => "W004",
            Code::RuleNeverApplies => "W005",
            Code::RemovedStillUsed => "E050",
            Code::NothingToRemove => "E051",
            Code::NeverDecides => "W050",
            Code::NoEffect => "W051",
            Code::EndNeverDecides => "W006",
            Code::NoOwnDescription => "W007",
            Code::OptionChangesNothing => "W008",
            Code::LayoutShape => "E070",
            Code::LayoutUneven => "W070",
            Code::StackConflict => "E090",
        }
    }

    /// Whether problems of this kind are errors or warnings.
    pub fn severity(self) -> Severity {
        match self {
            Code::UnusedZone
            | Code::UnusedKind
            | Code::NoEnd
            | Code::ZoneNotPlayable
            | Code::RuleNeverApplies
            | Code::NeverDecides
            | Code::NoEffect
            | Code::EndNeverDecides
            | Code::NoOwnDescription
            | Code::OptionChangesNothing
            | Code::LayoutUneven => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A span with a note on what is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The text pointed at.
    pub span: Span,
    /// What is wrong with it.
    pub text: String,
    /// The main place of the problem (`^^^`) or a related one (`---`).
    pub primary: bool,
}

/// One problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Its kind.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// One line saying what is wrong.
    pub message: String,
    /// Where; the first label is the primary one.
    pub labels: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A problem of kind `code`, with no place yet.
    pub fn new(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            labels: Vec::new(),
            help: None,
        }
    }

    /// Adds the primary label.
    pub fn primary(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            text: text.into(),
            primary: true,
        });
        self
    }

    /// Adds a secondary label.
    pub fn secondary(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            text: text.into(),
            primary: false,
        });
        self
    }

    /// Sets the help line.
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Sets the help line if there is one.
    pub fn maybe_help(mut self, help: Option<String>) -> Diagnostic {
        if help.is_some() {
            self.help = help;
        }
        self
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The span of the primary label, if any.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.iter().find(|l| l.primary).map(|l| l.span)
    }

    /// Where it sorts in a report: by file, then position; problems with no
    /// place first.
    pub fn sort_key(&self) -> (u16, u32, u32) {
        match self.primary_span() {
            Some(s) => (s.file.0.saturating_add(1), s.begin, s.end),
            None => (0, 0, 0),
        }
    }

    /// The problem rendered as plain text, rustc-style.
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut diagnostic = match self.severity {
            Severity::Error => cs::Diagnostic::error(),
            Severity::Warning => cs::Diagnostic::warning(),
        }
        .with_code(self.code.as_str())
        .with_message(&self.message)
        .with_labels(
            self.labels
                .iter()
                .filter(|l| sources.get(l.span.file).is_some())
                .map(|l| {
                    let style = if l.primary {
                        cs::LabelStyle::Primary
                    } else {
                        cs::LabelStyle::Secondary
                    };
                    cs::Label::new(
                        style,
                        l.span.file,
                        l.span.begin as usize..l.span.end as usize,
                    )
                    .with_message(&l.text)
                })
                .collect(),
        );
        if let Some(help) = &self.help {
            diagnostic = diagnostic.with_notes(vec![format!("help: {help}")]);
        }
        let config = term::Config {
            chars: term::Chars::ascii(),
            ..term::Config::default()
        };
        let mut out = NoColor::new(Vec::new());
        match term::emit(&mut out, &config, sources, &diagnostic) {
            Ok(()) => cut_long_lines(&String::from_utf8_lossy(&out.into_inner())),
            // A span that doesn't fit its file: say what we can without it.
            Err(_) => {
                let mut s = format!(
                    "{}[{}]: {}\n",
                    self.severity_word(),
                    self.code,
                    self.message
                );
                if let Some(help) = &self.help {
                    s.push_str(&format!("  = help: {help}\n"));
                }
                s
            }
        }
    }

    fn severity_word(&self) -> &'static str {
        match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// The longest source line a report shows whole; a longer one is cut to a
/// window of this many characters around what is underlined, with `...`
/// where text was left out (docs/limits.md).
pub const SHOWN_LINE: usize = 120;

/// Cuts the source lines of a rendered report that are longer than
/// `SHOWN_LINE`, and their underlines with them, to the same window around
/// the first mark (`^` or `-`) under them, so that a huge line is not
/// printed whole.
fn cut_long_lines(report: &str) -> String {
    let lines: Vec<&str> = report.lines().collect();
    let mut out = String::with_capacity(report.len().min(64 * 1024));
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        // A source line: its number, then `| `.
        let bar = line
            .find("| ")
            .filter(|&b| line[..b].trim().parse::<u64>().is_ok());
        let Some(bar) = bar else {
            out.push_str(line);
            out.push('\n');
            i += 1;
            continue;
        };
        let text_len = line[bar + 2..].chars().count();
        if text_len <= SHOWN_LINE {
            out.push_str(line);
            out.push('\n');
            i += 1;
            continue;
        }
        // The block: this line and the underline lines after it.
        let mut end = i + 1;
        while end < lines.len()
            && lines[end].trim_start().starts_with('|')
            && lines[end].contains(['^', '-'])
        {
            end += 1;
        }
        let mark = lines[i + 1..end]
            .iter()
            .filter_map(|l| {
                let b = l.find('|')?;
                let rest = l.get(b + 2..)?;
                rest.chars().position(|c| c == '^' || c == '-')
            })
            .min()
            .unwrap_or(0);
        let from = mark.saturating_sub(SHOWN_LINE / 3);
        for (k, l) in lines[i..end].iter().enumerate() {
            let Some(b) = l.find('|') else { continue };
            let head = &l[..(b + 2).min(l.len())];
            let body: Vec<char> = l.get(b + 2..).unwrap_or("").chars().collect();
            // The source line is cut on both sides; an underline keeps its
            // message whole.
            let to = if k == 0 {
                (from + SHOWN_LINE).min(body.len())
            } else {
                body.len()
            };
            let window: String = body
                .get(from.min(body.len())..to)
                .unwrap_or(&[])
                .iter()
                .collect();
            out.push_str(head);
            if from > 0 {
                out.push_str("...");
            }
            out.push_str(window.trim_end());
            if to < body.len() && body[to..].iter().any(|c| !c.is_whitespace()) {
                out.push_str("...");
            }
            out.push('\n');
        }
        i = end;
    }
    out
}

/// All problems, in source order, then a summary line when there are any.
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap) -> String {
    let mut sorted: Vec<&Diagnostic> = diagnostics.iter().collect();
    sorted.sort_by_key(|d| d.sort_key());
    let mut out = String::new();
    for d in &sorted {
        out.push_str(d.render(sources).trim_end());
        out.push_str("\n\n");
    }
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics.len() - errors;
    if let Some(summary) = summary(errors, warnings) {
        out.push_str(&summary);
        out.push('\n');
    }
    out
}

/// `error: 2 errors, 1 warning` (or `warning: 1 warning`), `None` when
/// there is nothing to report.
pub fn summary(errors: usize, warnings: usize) -> Option<String> {
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("1 {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    match (errors, warnings) {
        (0, 0) => None,
        (0, w) => Some(format!("warning: {}", plural(w, "warning"))),
        (e, 0) => Some(format!("error: {}", plural(e, "error"))),
        (e, w) => Some(format!(
            "error: {}, {}",
            plural(e, "error"),
            plural(w, "warning")
        )),
    }
}
