//! A run put together again from its shards: the rows of every shard, each
//! in index order, are merged by index (never all held at once) and summed
//! up as one run sums them, so the report is the one a single run prints,
//! byte for byte. Every game of the run must be there exactly once.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{GameRow, LabError, Run, RunInfo, Tally};

/// The rows of one shard, in increasing index.
pub type Rows<'a> = Box<dyn Iterator<Item = Result<GameRow, LabError>> + 'a>;

/// The run of `games` games of `info` from the rows of its shards.
pub fn merge(info: RunInfo, games: usize, shards: Vec<Rows<'_>>) -> Result<Run, LabError> {
    let mut shards = shards;
    let mut tally = Tally::new(info.seats.len(), &info.event_names);
    tally.name_scores(info.scores.clone().unwrap_or_default());
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut pending: Vec<Option<GameRow>> = Vec::with_capacity(shards.len());
    for (i, rows) in shards.iter_mut().enumerate() {
        let next = rows.next().transpose()?;
        if let Some(r) = &next {
            heap.push(Reverse((r.index, i)));
        }
        pending.push(next);
    }
    let mut expected: u64 = 0;
    while let Some(Reverse((index, i))) = heap.pop() {
        let Some(row) = pending.get_mut(i).and_then(Option::take) else {
            continue;
        };
        if index < expected {
            return Err(LabError::Doubled { game: index + 1 });
        }
        if index > expected || index >= games as u64 {
            return Err(LabError::Missing { game: expected + 1 });
        }
        tally.add(&row);
        expected += 1;
        if let Some(rows) = shards.get_mut(i) {
            let next = rows.next().transpose()?;
            if let Some(r) = &next {
                if r.index <= index {
                    return Err(LabError::OutOfOrder { game: r.index + 1 });
                }
                heap.push(Reverse((r.index, i)));
            }
            pending[i] = next;
        }
    }
    if expected < games as u64 {
        return Err(LabError::Missing { game: expected + 1 });
    }
    Ok(Run {
        summary: tally.summary(),
        info,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info() -> RunInfo {
        RunInfo {
            label: "g".into(),
            title: "G".into(),
            seats: vec!["A".into(), "B".into()],
            agents: vec!["random".into(), "random".into()],
            event_names: vec!["captures".into()],
            scores: None,
        }
    }

    fn row(index: u64) -> GameRow {
        GameRow {
            index,
            seed: index * 7,
            winner: Some((index % 2) as usize),
            reason: "last piece".into(),
            plies: 10 + (index * 13 % 17) as u32,
            events: vec![(index % 5) as u32],
            lead_changes: (index % 3) as u32,
            skips: 0,
            points: None,
        }
    }

    fn shard(i: u64, n: u64, games: u64) -> Rows<'static> {
        Box::new((i..games).step_by(n as usize).map(|g| Ok(row(g))))
    }

    #[test]
    fn shards_merge_to_the_whole_run() {
        let mut whole = Tally::new(2, &info().event_names);
        for g in 0..50 {
            whole.add(&row(g));
        }
        let merged = merge(info(), 50, (0..3).map(|i| shard(i, 3, 50)).collect());
        assert_eq!(
            merged.map(|r| r.summary).map_err(|e| e.to_string()),
            Ok(whole.summary())
        );
    }

    #[test]
    fn a_missing_or_doubled_shard_is_an_error() {
        let missing = merge(info(), 50, vec![shard(0, 3, 50), shard(2, 3, 50)]);
        assert_eq!(
            missing.map(|_| ()).map_err(|e| e.to_string()),
            Err("error: game 2 of the run is in none of the files: give every shard".to_string())
        );
        let twice = merge(
            info(),
            50,
            vec![shard(0, 2, 50), shard(1, 2, 50), shard(1, 2, 50)],
        );
        assert!(twice.is_err());
        let short = merge(info(), 60, vec![shard(0, 1, 50)]);
        assert!(short.is_err());
    }
}
