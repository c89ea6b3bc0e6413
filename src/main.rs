//! The `rulebook` command.
#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    // Not `stdin().lock()`: `rulebook lsp` reads stdin on a thread of its own.
    let mut input = std::io::BufReader::new(std::io::stdin());
    let term = rulebook::cli::Term {
        is_terminal: std::io::IsTerminal::is_terminal(&std::io::stdout()),
        no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        stdin_is_terminal: std::io::IsTerminal::is_terminal(&std::io::stdin()),
    };
    let code = rulebook::cli::run_with(
        std::env::args_os(),
        &mut input,
        &mut std::io::stdout(),
        &mut std::io::stderr(),
        term,
    );
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}
