//! What several test files share: the command line run in-process, a
//! scratch folder of the test's own, and seeded random games.
// Each test file uses only some of these.
#![allow(dead_code)]

use rulebook::board::{Match, Position, Tables};
use rulebook::rng::Rng;

/// What a run of the command line gave: its exit code, standard output and
/// standard error.
pub struct Run {
    pub code: i32,
    pub out: String,
    pub err: String,
}

impl Run {
    /// (exit code, stdout, stderr).
    pub fn parts(self) -> (i32, String, String) {
        (self.code, self.out, self.err)
    }
}

/// Runs `rulebook ARGS` in-process, `input` as what is typed and `term` as
/// the terminal it believes it has: the one way every test runs the command
/// line (the others below are this one with defaults).
pub fn run_on(args: &[&str], input: &mut dyn std::io::BufRead, term: rulebook::cli::Term) -> Run {
    let mut all = vec!["rulebook"];
    all.extend_from_slice(args);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = rulebook::cli::run_with(all, input, &mut out, &mut err, term);
    Run {
        code,
        out: String::from_utf8_lossy(&out).into_owned(),
        err: String::from_utf8_lossy(&err).into_owned(),
    }
}

/// Runs the command line in-process with nothing to read; returns (exit
/// code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    run_input(args, "")
}

/// Runs the command line in-process with `input` typed; returns (exit
/// code, stdout, stderr).
pub fn run_input(args: &[&str], input: impl AsRef<[u8]>) -> (i32, String, String) {
    run_on(args, &mut input.as_ref(), rulebook::cli::Term::default()).parts()
}

/// Runs the command line, which must succeed; returns stdout.
pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

/// A fresh folder for one test, of a name no other run uses (two test runs
/// at once don't share it), removed when the value is dropped.
pub fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("rulebook-test-")
        .tempdir()
        .unwrap()
}

/// A game played to its end, or to `max_plies`, with seeded random moves
/// from `start`.
pub fn random_game<'t>(t: &'t Tables, start: &Position, seed: u64, max_plies: u32) -> Match<'t> {
    let mut m = Match::new(t, start.clone());
    let mut rng = Rng::new(seed);
    while m.outcome().is_none() && m.plies < max_plies {
        let n = m.legal().len() as u64;
        let mv = m.legal()[rng.below(n) as usize].clone();
        m.play(&mv);
    }
    m
}
