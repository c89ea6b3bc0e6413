//! PDN files and board-game records from anywhere: never a panic; what is
//! read plays out move by move, stopping at the first bad one.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rulebook::record::BoardRecord;
use rulebook::board::Tables;
use rulebook::load::{check, BundledLoader};

fn draughts() -> &'static Tables {
    static T: std::sync::OnceLock<Option<Tables>> = std::sync::OnceLock::new();
    T.get_or_init(|| check(&BundledLoader, "draughts", &[]).into_board())
        .as_ref()
        .unwrap_or_else(|| std::process::abort())
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let t = draughts();
    if let Ok(game) = rulebook::pdn::parse_first(&text) {
        let (start, moves, _) = rulebook::pdn::play(t, &game);
        let _ = rulebook::pdn::write(t, "fuzz", &start, &moves);
    }
    match BoardRecord::parse(&text) {
        Ok(r) => {
            let _ = r.replay(t);
        }
        Err(p) => {
            if let Some(r) = p.record {
                let _ = r.replay(t);
            }
        }
    }
});
