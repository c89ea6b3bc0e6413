//! Any bytes as a shard's Parquet file for `merge`: opened, checked as one
//! run, its rows read and summed up. Never a panic: a damaged file is an
//! error naming it (a panic inside the Parquet reader is caught and becomes
//! that error, see `format::parquet`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use rulebook::format::parquet::{one_run, ShardFile};

fuzz_target!(|data: &[u8]| {
    // The reader takes a file: one per fuzzing process, written again for
    // each input.
    let path = std::env::temp_dir().join(format!("rulebook-fuzz-merge-{}.parquet", std::process::id()));
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let Ok(shard) = ShardFile::open(&path) else {
        return;
    };
    let shards = vec![shard];
    let _ = one_run(&shards);
    for shard in shards {
        let _ = shard.whole();
        let info = shard.meta.run.clone();
        let games = shard.meta.games;
        let _ = rulebook::lab::merge::merge(info, games, vec![shard.rows()]);
    }
});
