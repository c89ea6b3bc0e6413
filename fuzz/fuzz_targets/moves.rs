//! Move strings typed by a player: never a panic; an accepted string names a
//! legal move.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rulebook::board::{find_move, moves_of, Generator, MoveList, Position, Tables};
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
        let mut p = Position::start(t);
        let mut list = MoveList::new();
        Generator::new().generate(t, &mut p, &mut list);
        let legal = moves_of(t, &list);
        if let Ok(m) = find_move(t, &p, &legal, &text) {
            assert!(legal.contains(&m));
        }
    }
});
