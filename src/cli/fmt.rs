//! `rulebook fmt`: reads each rule file through the one bounded reader
//! (a regular file of at most 1 MiB, UTF-8, a byte order mark skipped),
//! lays it out with [`crate::format_rules::format_text`] and replaces it
//! atomically (`record::write_atomic`): a write that fails leaves the
//! original whole. `rulebook fmt -` reads standard input and writes the
//! formatted text to standard output (as editors' formatter plugins pipe
//! it), under the same limits.

use std::io::{BufRead, Read, Write};

use crate::source::{ReadError, MAX_RULE_FILE};

use crate::format_rules::format_text;

/// The arguments of `rulebook fmt` (run by [`run`], which reads and writes
/// the files).
#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// Rule files to format in place; `-` reads standard input and writes
    /// the formatted text to standard output.
    #[arg(required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// Change no file: show the differences and exit 1 if any file is not
    /// formatted.
    #[arg(long)]
    pub check: bool,
}

/// Runs `rulebook fmt`; returns the exit code (1: a file has syntax errors
/// or, with `--check`, is not formatted; 2: a file can't be read or written).
/// Every error names its file.
pub(crate) fn run(
    args: &FmtArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let mut code = 0;
    let mut stdin_read = false;
    for path in &args.files {
        if path.as_os_str() == "-" {
            if std::mem::replace(&mut stdin_read, true) {
                let _ = writeln!(err, "error: `-` (standard input) is named twice");
                code = 2;
                continue;
            }
            code = code.max(standard(args.check, input, out, err));
            continue;
        }
        let name = path.to_string_lossy().into_owned();
        let text = match super::loader::read_text(path, super::loader::MAX_RULE_FILE, "a rule file")
        {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "error: can't read `{name}`: {e}");
                code = 2;
                continue;
            }
        };
        let Some(formatted) = format_or_report(&name, &text, err) else {
            code = code.max(1);
            continue;
        };
        if formatted == text {
            continue;
        }
        if args.check {
            let diff = similar::TextDiff::from_lines(&text, &formatted);
            let _ = write!(
                out,
                "{}",
                diff.unified_diff()
                    .context_radius(2)
                    .header(&name, &format!("{name} (formatted)"))
            );
            code = code.max(1);
        } else if let Err(e) = crate::record::write_atomic(path, formatted.as_bytes()) {
            let _ = writeln!(
                err,
                "error: can't write `{name}`: {e}; it is left as it was"
            );
            code = 2;
        }
    }
    if args.check && code == 1 {
        let _ = writeln!(
            err,
            "error: some files are not formatted; `rulebook fmt FILE` formats them"
        );
    }
    code
}

/// The text formatted, or `None` after writing its syntax errors to `err`
/// (named `name`).
fn format_or_report(name: &str, text: &str, err: &mut dyn Write) -> Option<String> {
    match format_text(text) {
        Ok(f) => Some(f),
        Err(diagnostics) => {
            let mut sources = crate::source::SourceMap::new();
            sources.add(name.to_string(), text.to_string());
            let _ = write!(
                err,
                "{}",
                crate::diagnostic::render_all(&diagnostics, &sources)
            );
            None
        }
    }
}

/// The name standard input is given in diagnostics and differences.
const STDIN: &str = "<stdin>";

/// `rulebook fmt -`: formats standard input to standard output (with
/// `--check`, writes the differences instead, as for a file); returns the
/// exit code as [`run`] does. On syntax errors nothing is written to
/// standard output, so a plugin leaves the editor's text as it was.
fn standard(check: bool, input: &mut dyn BufRead, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let text = match read_input(input) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(err, "error: can't read standard input: {e}");
            return 2;
        }
    };
    let Some(formatted) = format_or_report(STDIN, &text, err) else {
        return 1;
    };
    if !check {
        return match out
            .write_all(formatted.as_bytes())
            .and_then(|()| out.flush())
        {
            Ok(()) => 0,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
            Err(e) => {
                let _ = writeln!(err, "error: can't write standard output: {e}");
                1
            }
        };
    }
    if formatted == text {
        return 0;
    }
    let diff = similar::TextDiff::from_lines(&text, &formatted);
    let _ = write!(
        out,
        "{}",
        diff.unified_diff()
            .context_radius(2)
            .header(STDIN, &format!("{STDIN} (formatted)"))
    );
    1
}

/// Standard input as the text of a rule file, under the limits of a rule
/// file read from disk: at most [`MAX_RULE_FILE`] bytes, UTF-8, a byte
/// order mark skipped.
fn read_input(input: &mut dyn BufRead) -> Result<String, ReadError> {
    let mut bytes = Vec::new();
    input
        .take(MAX_RULE_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| ReadError::Io {
            path: STDIN.into(),
            error,
        })?;
    if bytes.len() as u64 > MAX_RULE_FILE {
        return Err(ReadError::TooLarge {
            size: bytes.len() as u64,
            limit: MAX_RULE_FILE,
            what: "a rule file",
        });
    }
    if bytes.starts_with(b"\xef\xbb\xbf") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..good].iter().filter(|&&b| b == b'\n').count();
        ReadError::NotText { line }
    })
}
