//! Position strings for every bundled game: never a panic; whatever parses
//! prints back to itself and has legal moves computed without a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rulebook::board::{Generator, MoveList, Position, Tables};
use rulebook::load::{check, BundledLoader};

/// The bundled board games, checked once.
fn games() -> &'static [Tables] {
    static GAMES: std::sync::OnceLock<Vec<Tables>> = std::sync::OnceLock::new();
    GAMES.get_or_init(|| {
        rulebook::bundled::GAMES
            .iter()
            .filter_map(|(name, _)| check(&BundledLoader, name, &[]).into_board())
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for t in games() {
        if let Ok(p) = Position::parse(t, &text) {
            assert_eq!(Position::parse(t, &p.to_fen(t)).ok(), Some(p.clone()));
            let mut q = p.clone();
            let mut list = MoveList::new();
            Generator::new().generate(t, &mut q, &mut list);
        }
    }
});
