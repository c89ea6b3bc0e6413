//! `rulebook fmt`: reads each rule file through the one bounded reader
//! (a regular file of at most 1 MiB, UTF-8, a byte order mark skipped),
//! lays it out with [`crate::format_rules::format_text`] and replaces it
//! atomically (`record::write_atomic`): a write that fails leaves the
//! original whole.

use std::io::Write;

use crate::format_rules::format_text;

/// The arguments of `rulebook fmt` (run by [`run`], which reads and writes
/// the files).
#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// Rule files to format in place.
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
pub(crate) fn run(args: &FmtArgs, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let mut code = 0;
    for path in &args.files {
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
        let formatted = match format_text(&text) {
            Ok(f) => f,
            Err(diagnostics) => {
                let mut sources = crate::source::SourceMap::new();
                sources.add(name.clone(), text);
                let _ = write!(
                    err,
                    "{}",
                    crate::diagnostic::render_all(&diagnostics, &sources)
                );
                code = code.max(1);
                continue;
            }
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
