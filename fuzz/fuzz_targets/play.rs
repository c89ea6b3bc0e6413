//! Play a bundled game with moves chosen by the input bytes, taking moves
//! back now and then; checks that undo restores the position.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rulebook::board::{Match, Position};
use rulebook::load::{check, BundledLoader};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let games = rulebook::bundled::GAMES;
    let (name, _) = games[usize::from(first) % games.len()];
    let Some(t) = check(&BundledLoader, name, &[]).into_board() else {
        return;
    };
    let mut m = Match::new(&t, Position::start(&t));
    for &b in rest {
        if b == 255 {
            let before = m.pos.clone();
            if let Some(mv) = m.legal().first().cloned() {
                m.play(&mv);
                assert!(m.undo());
                assert_eq!(m.pos, before);
            }
            continue;
        }
        let n = m.legal().len();
        if n == 0 {
            break;
        }
        let mv = m.legal()[usize::from(b) % n].clone();
        m.play(&mv);
    }
});
