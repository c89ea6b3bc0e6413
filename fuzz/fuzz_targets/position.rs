//! Position strings for every bundled game: never a panic; whatever parses
//! prints back to itself and has legal moves computed without a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rulebook::engine::{Generator, MoveList, Position, Tables};
use rulebook::load::{check, BundledLoader};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for (name, _) in rulebook::bundled::GAMES {
        let Some(game) = check(&BundledLoader, name, &[]).game else {
            continue;
        };
        let t = Tables::new(game);
        if let Ok(p) = Position::parse(&t, &text) {
            assert_eq!(Position::parse(&t, &p.to_fen(&t)).ok(), Some(p.clone()));
            let mut q = p.clone();
            let mut list = MoveList::new();
            Generator::new().generate(&t, &mut q, &mut list);
        }
    }
});
