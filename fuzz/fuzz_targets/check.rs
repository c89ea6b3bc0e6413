//! Parse and check any text as a rule file (with the bundled games reachable
//! through `extends`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use rulebook::load::{check_source, BundledLoader, Source};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let checked = check_source(
        Source {
            name: "fuzz.rules".into(),
            text,
        },
        &BundledLoader,
        &[],
    );
    let _ = checked.render();
    if let Some(t) = checked.into_board() {
        // Whatever checks must compile to tables and play.
        let mut p = rulebook::board::Position::start(&t);
        let mut list = rulebook::board::MoveList::new();
        rulebook::board::Generator::new().generate(&t, &mut p, &mut list);
    }
});
