//! The language server's stdio framing (`rulebook::lsp::transport`): any
//! bytes as the stream an editor sends, read message by message with a
//! small size limit until the stream ends or can't be followed. It must
//! never panic, never hold more than the limit of one message, and always
//! move on (every message read, skipped or refused uses up input).
#![no_main]
use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use rulebook::lsp::transport::{read_message, Incoming};

fuzz_target!(|data: &[u8]| {
    // A small limit, so that lengths on both sides of it are reached.
    let max = 64;
    let mut input = Cursor::new(data);
    loop {
        let before = input.position();
        match read_message(&mut input, max) {
            Ok(Incoming::Message(m)) => {
                let mut out = Vec::new();
                m.write(&mut out).expect("a message is written back");
            }
            Ok(Incoming::Refused(why)) => assert!(!why.is_empty()),
            Ok(Incoming::End) | Err(_) => break,
        }
        assert!(input.position() > before, "no input was used up");
    }
});
