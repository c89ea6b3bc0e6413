//! Move strings typed by a player: never a panic; an accepted string names a
//! legal move.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rulebook::engine::{find_move, moves_of, Generator, MoveList, Position, Tables};
use rulebook::load::{check, BundledLoader};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for (name, _) in rulebook::bundled::GAMES {
        let Some(game) = check(&BundledLoader, name, &[]).game else {
            continue;
        };
        let t = Tables::new(game);
        let mut p = Position::start(&t);
        let mut list = MoveList::new();
        Generator::new().generate(&t, &mut p, &mut list);
        let legal = moves_of(&t, &list);
        if let Ok(m) = find_move(&t, &p, &legal, &text) {
            assert!(legal.contains(&m));
        }
    }
});
