//! The colours of `rulebook check` on a terminal, in the manner of rustc:
//! the plain report of the diagnostics (`diagnostic::render_all`) with
//! escape codes added, so that the words stay those of the plain report
//! (which is what pipes, files and `NO_COLOR` get).

const RED: &str = "\x1b[1;31m";
const YELLOW: &str = "\x1b[1;33m";
const BLUE: &str = "\x1b[1;34m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

/// When `check` colours its report (`--color`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum When {
    /// On a terminal (standard output and standard error), unless
    /// `NO_COLOR` is set.
    #[default]
    Auto,
    /// Always, unless `NO_COLOR` is set.
    Always,
    /// Never.
    Never,
}

impl When {
    /// Whether to colour, for output of the kind `term` says; `NO_COLOR`
    /// wins over everything.
    pub(crate) fn colour(self, term: super::Term) -> bool {
        use std::io::IsTerminal;
        !term.no_color
            && match self {
                When::Never => false,
                When::Always => true,
                When::Auto => term.is_terminal && std::io::stderr().is_terminal(),
            }
    }
}

/// The plain report of diagnostics, coloured: the severity of a heading
/// or the summary (`error` red, `warning` yellow) and its message bold;
/// the gutter, `-->` and `=` blue; a primary underline and its label in
/// the colour of the severity, a secondary one blue. Source text is left
/// as it is.
pub(crate) fn report(plain: &str) -> String {
    let mut out = String::with_capacity(plain.len() * 5 / 4);
    let mut severity = RED;
    for line in plain.split_inclusive('\n') {
        let (line, end) = match line.strip_suffix('\n') {
            Some(l) => (l, "\n"),
            None => (line, ""),
        };
        if let Some(colour) = heading(line) {
            severity = colour;
            let (word, message) = line.split_at(line.find(':').unwrap_or(line.len()));
            out.push_str(&format!("{colour}{word}{RESET}{BOLD}{message}{RESET}"));
        } else {
            out.push_str(&body(line, severity));
        }
        out.push_str(end);
    }
    out
}

/// The colour of a heading line (`error[E001]: ...`, `warning: 2
/// warnings`), None for any other line.
fn heading(line: &str) -> Option<&'static str> {
    let starts = |word: &str| {
        line.strip_prefix(word)
            .is_some_and(|rest| rest.starts_with('[') || rest.starts_with(": "))
    };
    if starts("error") {
        Some(RED)
    } else if starts("warning") {
        Some(YELLOW)
    } else {
        None
    }
}

/// A line below a heading, coloured.
fn body(line: &str, severity: &str) -> String {
    let indent = line.len() - line.trim_start().len();
    let (space, rest) = line.split_at(indent);
    if let Some(place) = rest.strip_prefix("-->") {
        return format!("{space}{BLUE}-->{RESET}{place}");
    }
    if let Some(note) = rest.strip_prefix('=') {
        return match note.strip_prefix(" help:") {
            Some(help) => format!("{space}{BLUE}={RESET} {BOLD}help{RESET}:{help}"),
            None => format!("{space}{BLUE}={RESET}{note}"),
        };
    }
    // The gutter: a line number or nothing, then `|`.
    let Some(bar) = line.find('|') else {
        return line.to_string();
    };
    let gutter = &line[..bar];
    let number = gutter.trim();
    if !number.is_empty() && number.parse::<u64>().is_err() {
        return line.to_string();
    }
    let after = &line[bar + 1..];
    let coloured_gutter = if number.is_empty() {
        format!("{gutter}{BLUE}|{RESET}")
    } else {
        let pad = &gutter[..gutter.len() - gutter.trim_start().len()];
        let tail = &gutter[pad.len() + number.len()..];
        format!("{pad}{BLUE}{number}{tail}|{RESET}")
    };
    if !number.is_empty() {
        // A source line: its text as it is.
        return format!("{coloured_gutter}{after}");
    }
    let marks = after.trim_start();
    let lead = &after[..after.len() - marks.len()];
    let colour = if marks.starts_with('^') {
        severity
    } else if marks.starts_with('-') {
        BLUE
    } else {
        return format!("{coloured_gutter}{after}");
    };
    format!("{coloured_gutter}{lead}{colour}{marks}{RESET}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_stay_those_of_the_plain_report() {
        let plain = "error[E001]: expected `game`\n  --> x.rules:1:1\n  |\n1 | gmae \"X\"\n  | ^^^^ not a statement\n  = help: did you mean `game`?\n\nwarning[W001]: unused\n  --> x.rules:2:1\n  |\n2 | zone a\n  | ------ here\n\nerror: 1 error, 1 warning\n";
        let coloured = report(plain);
        assert!(coloured.contains(&format!(
            "{RED}error[E001]{RESET}{BOLD}: expected `game`{RESET}\n"
        )));
        assert!(coloured.contains(&format!("  {BLUE}-->{RESET} x.rules:1:1\n")));
        assert!(coloured.contains(&format!("{BLUE}1 |{RESET} gmae \"X\"\n")));
        assert!(coloured.contains(&format!(
            "  {BLUE}|{RESET} {RED}^^^^ not a statement{RESET}\n"
        )));
        assert!(coloured.contains(&format!("{YELLOW}warning[W001]{RESET}")));
        assert!(coloured.contains(&format!("{BLUE}------ here{RESET}")));
        assert!(coloured.contains(&format!("  {BLUE}={RESET} {BOLD}help{RESET}: did you mean")));
        assert!(coloured.ends_with(&format!(
            "{RED}error{RESET}{BOLD}: 1 error, 1 warning{RESET}\n"
        )));
        // Taking the escape codes out gives the plain report back.
        let mut stripped = coloured.clone();
        for code in [RED, YELLOW, BLUE, BOLD, RESET] {
            stripped = stripped.replace(code, "");
        }
        assert_eq!(stripped, plain);
    }
}
