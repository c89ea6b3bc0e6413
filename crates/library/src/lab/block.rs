//! One block of a run's games, played on every thread of a pool: each
//! thread copies the start once, takes [`GRAIN`] games at a time from a
//! shared counter (a [`Handout`]) until the block is done, and the rows come
//! back in the block's order, so that they do not depend on the number of
//! threads.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::agents::GameState;

use super::GameRow;

/// Games a thread takes at a time: few enough that the threads end a block
/// together (a block ends when its last game does), enough that taking them
/// and telling the progress bar cost nothing next to the games.
pub const GRAIN: usize = 4;

/// Hands out the positions `0..len` of a block, `grain` at a time, to
/// whichever thread asks next; every position goes out once.
#[derive(Debug)]
pub struct Handout {
    next: AtomicUsize,
    len: usize,
    grain: usize,
}

impl Handout {
    /// The positions `0..len`, `grain` at a time (at least 1).
    pub fn new(len: usize, grain: usize) -> Handout {
        Handout {
            next: AtomicUsize::new(0),
            len,
            grain: grain.max(1),
        }
    }

    /// The next positions to play, or `None` once all are out.
    pub fn take(&self) -> Option<Range<usize>> {
        // The counter passes `len` by at most `grain` a thread: no overflow.
        let begin = self.next.fetch_add(self.grain, Ordering::Relaxed);
        (begin < self.len).then(|| begin..(begin + self.grain).min(self.len))
    }
}

/// Plays the games `block` (increasing indices of a run) on every thread of
/// `pool`: `game` plays one into a thread's own copy of `start`, `tick` is
/// told of every [`GRAIN`] games played. The rows are in `block`'s order.
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
    let handout = Handout::new(block.len(), GRAIN);
    let parts: Vec<Vec<GameRow>> = pool.broadcast(|_| {
        // One copy of the start a thread and block, whose buffers the games
        // reuse (no allocation per game for the state).
        let mut state = start.clone();
        let mut rows = Vec::new();
        while let Some(range) = handout.take() {
            let games = block.get(range).unwrap_or_default();
            rows.extend(games.iter().map(|&g| game(&mut state, g)));
            tick(games.len() as u64);
        }
        rows
    });
    let mut rows: Vec<GameRow> = parts.into_iter().flatten().collect();
    // Each thread's rows are already in order: the sort merges the runs.
    rows.sort_by_key(|r| r.index);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handout_gives_every_position_once_in_grains() {
        for len in [0, 1, 3, 4, 5, 64, 65, 1000] {
            for grain in [0, 1, 4, 7] {
                let h = Handout::new(len, grain);
                let mut all = Vec::new();
                while let Some(r) = h.take() {
                    assert!(!r.is_empty() && r.len() <= grain.max(1), "{r:?}");
                    all.extend(r);
                }
                assert_eq!(all, (0..len).collect::<Vec<_>>(), "{len} by {grain}");
                assert_eq!(h.take(), None);
            }
        }
    }

    #[test]
    fn threads_share_a_handout_without_losing_or_doubling() {
        let h = Handout::new(10_000, GRAIN);
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
