//! The `rulebook` command.

use std::process::ExitCode;

fn main() -> ExitCode {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let code = rulebook::cli::run(
        std::env::args_os(),
        &mut input,
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}
