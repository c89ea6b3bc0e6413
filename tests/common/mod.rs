//! What several test files share: the command line run in-process, a
//! scratch folder of the test's own, and seeded random games.
// Each test file uses only some of these.
#![allow(dead_code)]

use rulebook::board::{Match, Position, Tables};
use rulebook::rng::Rng;

/// Runs the command line in-process with nothing to read; returns (exit
/// code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["rulebook"];
    all.extend_from_slice(args);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = rulebook::cli::run(all, &mut std::io::empty(), &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
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
