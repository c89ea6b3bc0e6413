//! `replay` of a board game's record in flat memory (issue 11, item 14):
//! it used to keep every ply several times over (the parsed record, the
//! moves with their events, the undo history: 1.3 KB a ply). The bytes
//! allocated at once are counted by this test binary's allocator; the only
//! thing that grows with the record is its text (about 35 bytes a ply).
#![allow(clippy::unwrap_used, clippy::expect_used)]
// The counting allocator implements `GlobalAlloc`, an unsafe trait.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static A: Counting = Counting;

fn run(args: &[&str]) -> i32 {
    let mut all = vec!["rulebook"];
    all.extend_from_slice(args);
    rulebook::cli::run(
        all,
        &mut std::io::empty(),
        &mut std::io::sink(),
        &mut std::io::sink(),
    )
}

/// The most bytes allocated at once while `replay` reads `file`, above
/// what was allocated before.
fn peak_of_replay(file: &Path) -> usize {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    assert_eq!(run(&["replay", file.to_str().unwrap()]), 0);
    PEAK.load(Ordering::Relaxed) - base
}

#[test]
fn replay_of_a_long_board_record_keeps_memory_flat() {
    // A folder of this run's own: two runs of the suite at once (two
    // checkouts on one machine) must not write each other's records.
    let dir = std::env::temp_dir().join(format!("rulebook-replay-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The game beside its records (a record may name a rule file in its
    // own folder).
    let game = dir.join("endless.rules");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records/endless.rules"),
        &game,
    )
    .unwrap();
    let record = |plies: u32| {
        let file = dir.join(format!("{plies}.jsonl"));
        let code = run(&[
            "play",
            game.to_str().unwrap(),
            "--white",
            "random",
            "--black",
            "random",
            "--max-plies",
            &plies.to_string(),
            "--record",
            file.to_str().unwrap(),
        ]);
        assert_eq!(code, 0);
        file
    };
    let short = record(2_000);
    let long = record(40_000);
    let text = std::fs::metadata(&long).unwrap().len() as usize
        - std::fs::metadata(&short).unwrap().len() as usize;
    let (a, b) = (peak_of_replay(&short), peak_of_replay(&long));
    let per_ply = b.saturating_sub(a) / 38_000;
    // The text of the record is read whole; beyond it, a few bytes a ply
    // at most (it was 1.3 KB).
    assert!(
        b.saturating_sub(a) < text + 38_000 * 4,
        "{a} bytes for 2,000 plies, {b} for 40,000: {per_ply} a ply (text {text} bytes)"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
