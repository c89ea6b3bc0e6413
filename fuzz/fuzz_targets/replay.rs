//! `rulebook replay` on any file: a race or board record written by anyone.
//! Never a panic; a bad line is reported, not crashed on.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let path = std::env::temp_dir().join(format!("rulebook-fuzz-replay-{}.jsonl", std::process::id()));
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let mut out = Vec::new();
    let mut err = Vec::new();
    let args = ["rulebook", "replay", path.to_str().unwrap_or("x")];
    let code = rulebook::cli::run(args, &mut std::io::empty(), &mut out, &mut err);
    assert!(code == 0 || code == 1 || code == 2);
});
