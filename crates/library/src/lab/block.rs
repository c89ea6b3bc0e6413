//! One block of a run's games, played on every thread of a pool: each
//! thread copies the start once and takes chunks of games from a shared
//! counter (a [`Handout`]) until the block is done; the chunks' rows are
//! put back in the block's order, so that they do not depend on the number
//! of threads.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::agents::GameState;

use super::GameRow;

/// How many chunks a thread's share of what is left of a block is cut
/// into: a chunk is `1 / (SHARES * threads)` of the games left, so the
/// first chunks are large (few trips to the shared counter and to the
/// progress bar) and the last ones one game long (the threads end the
/// block together, as a block ends when its last game does).
pub const SHARES: usize = 4;

/// A value alone on its own 128 bytes: two cache lines, as x86 processors
/// fetch lines in pairs. A counter that every thread writes then slows no
/// thread that reads what would otherwise lie beside it.
#[derive(Debug, Default)]
#[repr(align(128))]
struct Alone<T>(T);

/// Hands out the positions `0..len` of a block to whichever thread asks
/// next, in chunks that shrink with what is left (guided self-scheduling);
/// every position goes out once.
#[derive(Debug)]
pub struct Handout {
    next: Alone<AtomicUsize>,
    len: usize,
    /// What is left is divided by this to give a chunk (at least 1).
    parts: usize,
}

impl Handout {
    /// The positions `0..len`, for `threads` threads.
    pub fn new(len: usize, threads: usize) -> Handout {
        Handout {
            next: Alone(AtomicUsize::new(0)),
            len,
            parts: threads.max(1).saturating_mul(SHARES),
        }
    }

    /// The next positions to play, or `None` once all are out.
    pub fn take(&self) -> Option<Range<usize>> {
        let seen = self.next.0.load(Ordering::Relaxed);
        if seen >= self.len {
            return None;
        }
        // Another thread may take a chunk between the load and the add: the
        // size is then a little large for what is left, and the range is
        // still this thread's alone. The counter passes `len` by at most a
        // chunk a thread: no overflow.
        let size = ((self.len - seen) / self.parts).max(1);
        let begin = self.next.0.fetch_add(size, Ordering::Relaxed);
        (begin < self.len).then(|| begin..(begin + size).min(self.len))
    }
}

/// Plays the games `block` (increasing indices of a run) on every thread of
/// `pool`: `game` plays one into a thread's own copy of `start`, `tick` is
/// told of the games of each chunk once it is played. The rows are in
/// `block`'s order.
pub fn play_block<S, F>(
    block: &[usize],
    start: &S,
    pool: &rayon::ThreadPool,
    game: F,
    tick: &(dyn Fn(u64) + Sync),
) -> Vec<GameRow>
where
    S: GameState + Sync,
    F: Fn(&mut S, usize) -> GameRow + Sync,
{
    let handout = Handout::new(block.len(), pool.current_num_threads());
    let parts: Vec<(Vec<GameRow>, Vec<Range<usize>>)> = pool.broadcast(|_| {
        // One copy of the start a thread and block, whose buffers the games
        // reuse (no allocation per game for the state).
        let mut state = start.clone();
        let mut rows = Vec::new();
        let mut chunks = Vec::new();
        while let Some(range) = handout.take() {
            let games = block.get(range.clone()).unwrap_or_default();
            rows.extend(games.iter().map(|&g| game(&mut state, g)));
            tick(games.len() as u64);
            chunks.push(range);
        }
        (rows, chunks)
    });
    // Each thread's chunks are in the block's order: the chunks of all
    // threads (a few dozen), not the rows, are sorted, and each row moves
    // once, from its thread's rows to the block's.
    let mut order: Vec<(usize, usize, usize)> = parts
        .iter()
        .enumerate()
        .flat_map(|(t, (_, chunks))| chunks.iter().map(move |r| (r.start, r.len(), t)))
        .collect();
    order.sort_unstable();
    let mut threads: Vec<std::vec::IntoIter<GameRow>> = parts
        .into_iter()
        .map(|(rows, _)| rows.into_iter())
        .collect();
    let mut rows = Vec::with_capacity(block.len());
    for (_, len, t) in order {
        if let Some(from) = threads.get_mut(t) {
            rows.extend(from.by_ref().take(len));
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handout_gives_every_position_once_in_shrinking_chunks() {
        for len in [0, 1, 3, 4, 5, 64, 65, 1000, 65_536] {
            for threads in [0, 1, 2, 3, 8] {
                let h = Handout::new(len, threads);
                let mut all = Vec::new();
                let mut last = usize::MAX;
                while let Some(r) = h.take() {
                    assert!(!r.is_empty() && r.len() <= last, "{r:?} after {last}");
                    last = r.len();
                    all.extend(r);
                }
                assert_eq!(all, (0..len).collect::<Vec<_>>(), "{len} for {threads}");
                assert_eq!(h.take(), None);
                if len >= 64 {
                    // The first chunk is a share of the whole, the last one
                    // game.
                    assert_eq!(last, 1, "{len} for {threads}");
                }
            }
        }
    }

    #[test]
    fn a_block_takes_few_chunks() {
        let h = Handout::new(65_536, 2);
        let mut chunks = 0;
        while h.take().is_some() {
            chunks += 1;
        }
        // About SHARES * threads * ln(len) chunks, not len / 4.
        assert!(chunks < 150, "{chunks} chunks");
    }

    #[test]
    fn the_counter_is_alone_on_its_cache_lines() {
        assert_eq!(std::mem::align_of::<Alone<AtomicUsize>>(), 128);
        assert_eq!(std::mem::size_of::<Alone<AtomicUsize>>(), 128);
    }

    #[test]
    fn threads_share_a_handout_without_losing_or_doubling() {
        let h = Handout::new(10_000, 3);
        let mut all: Vec<usize> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..3)
                .map(|_| {
                    s.spawn(|| {
                        let mut mine = Vec::new();
                        while let Some(r) = h.take() {
                            mine.extend(r);
                        }
                        mine
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap_or_default())
                .collect()
        });
        all.sort_unstable();
        assert_eq!(all, (0..10_000).collect::<Vec<_>>());
    }
}
