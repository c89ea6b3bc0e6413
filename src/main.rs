//! The `rulebook` command.

use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let term = rulebook::cli::Term {
        is_terminal: std::io::IsTerminal::is_terminal(&std::io::stdout()),
        no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
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
