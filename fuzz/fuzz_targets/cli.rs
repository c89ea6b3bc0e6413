//! The command line's argument surface: any words after any subcommand are
//! parsed (every number checked against its range: docs/limits.md), and
//! the commands whose arguments are small are run, in memory: no option
//! that writes a file, every number at most 3, simulations kept short.
//! Never a panic, an abort or a hang.
#![no_main]
use libfuzzer_sys::fuzz_target;

const COMMANDS: &[&str] = &[
    "list", "check", "show", "moves", "perft", "export", "import", "play", "simulate",
    "merge", "compare", "replay", "fmt", "lsp", "bench", "help",
];

/// Options that write files, run the language server on the real stdin,
/// or think for a long time: parsed, never run.
const NOT_RUN: &[&str] = &[
    "--record", "--csv", "--svg", "--parquet", "-o", "--output", "--think", "mcts",
    "alphabeta", "fmt", "lsp", "bench", "--jobs",
];

/// A word that is a number is at most 3 (perft depth, games, plies...);
/// numbers inside other words (positions, moves, shards) stay as they are.
fn small(word: &str) -> bool {
    word.parse::<f64>().map_or(true, |x| x <= 3.0)
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let (words, input) = text.split_once('\n').unwrap_or((&text, ""));
    let command = COMMANDS[usize::from(first) % COMMANDS.len()];
    let mut args = vec!["rulebook", command];
    args.extend(words.split(' ').filter(|w| !w.is_empty()).take(16));
    let parsed = rulebook::cli::parse_args(&args);
    if parsed.is_err() || args.iter().any(|w| NOT_RUN.iter().any(|n| w.contains(n))) {
        return;
    }
    if !args.iter().all(|w| small(w)) {
        return;
    }
    if matches!(command, "simulate" | "compare") {
        if !args.contains(&"--games") {
            args.extend(["--games", "2"]);
        }
        if !args.contains(&"--max-plies") {
            args.extend(["--max-plies", "40"]);
        }
        args.push("--quiet");
    }
    if command == "play" && !args.contains(&"--max-plies") {
        args.extend(["--max-plies", "40"]);
    }
    let mut input = input.as_bytes();
    let _ = rulebook::cli::run(&args, &mut input, &mut std::io::sink(), &mut std::io::sink());
});
