//! The driver of the kernels' tests (tests/kernel_steps.rs, kernel_flips.rs,
//! kernel_slides.rs, kernel_lines.rs): each kernel against the general path
//! in positions of seeded random games (its moves, through a `Probe`, and
//! perft), from given positions (perft and whole playouts), in seeded
//! playouts ply by ply and whole, and on rule files it refuses (they fall
//! back, play alike and `bench` says why). Each test file keeps only its
//! rule files and its own cases.

use super::ok;
use rulebook::agents::{BoardGame, BoardState, GameState};
use rulebook::board::{make, Generator, MoveList, Perft, Position, Tables};
use rulebook::rng::Rng;

/// A seeded random playout from `pos` (at most `max_plies` plies a game),
/// through the kernel or the general path; what can be seen of the game at
/// its end and the generator's next output.
pub fn seeded_playout(
    t: &Tables,
    pos: &Position,
    seed: u64,
    kernel: bool,
    max_plies: u32,
) -> String {
    let mut g = BoardGame::with_max_plies(t, max_plies);
    g.use_kernel(kernel);
    let mut s = g.state(pos.clone());
    let mut rng = Rng::new(seed);
    let plies = s.random_plies(&mut rng, u32::MAX);
    playout_summary(t, &s, plies, &mut rng)
}

/// What can be seen of a playout of `plies` plies at its end, and the
/// generator's next output (so two playouts that drew differently differ).
pub fn playout_summary(t: &Tables, s: &BoardState<'_>, plies: u32, rng: &mut Rng) -> String {
    format!(
        "plies {plies} {} ending {:?} events {:?} hash {:x} at {} next {:x}",
        s.plies(),
        s.ending(),
        s.event_counts(),
        s.hash(),
        s.position().to_fen(t),
        rng.next_u64()
    )
}

/// The positions of a seeded random game ply by ply, and its end: move by
/// move with every list written down (`stepwise`), or by one-ply calls
/// of `random_plies` (through the kernel when it is on).
pub fn seeded_plies(t: &Tables, seed: u64, kernel: bool, stepwise: bool) -> Vec<String> {
    let mut g = BoardGame::new(t);
    g.use_kernel(kernel);
    let mut s = g.start();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while s.move_count() > 0 {
        if stepwise {
            s.play(rng.below(s.move_count() as u64) as usize);
        } else {
            assert_eq!(s.random_plies(&mut rng, 1), 1);
        }
        out.push(format!("{} {:x}", s.position().to_fen(t), s.hash()));
    }
    out.push(format!("{:?} {:?}", s.ending(), s.event_counts()));
    out
}

/// From `pos`: perft at depths 1 to `depth`, and the whole seeded playouts
/// of seeds `0..seeds` (at most `max_plies` plies), are the same through
/// the kernel and through the general path.
pub fn both_paths_agree(
    label: &str,
    t: &Tables,
    pos: &Position,
    depth: usize,
    seeds: u64,
    max_plies: u32,
) {
    let mut fast = Perft::new(t, depth);
    let mut general = Perft::new(t, depth);
    general.use_kernel(false);
    for d in 1..=depth {
        assert_eq!(
            fast.count(pos, d),
            general.count(pos, d),
            "{label} depth {d}: {}",
            pos.to_fen(t)
        );
    }
    for seed in 0..seeds {
        assert_eq!(
            seeded_playout(t, pos, seed, true, max_plies),
            seeded_playout(t, pos, seed, false, max_plies),
            "{label} seed {seed}: {}",
            pos.to_fen(t)
        );
    }
}

/// The line of `rulebook bench GAME --depth 1` that says what played the
/// game (`GAME`: a bundled name or a rule file's path).
pub fn played_by(game: &str) -> String {
    let out = ok(&["bench", game, "--depth", "1"]);
    out.lines()
        .find(|l| l.starts_with("  played by "))
        .unwrap_or_else(|| panic!("{game}: {out}"))
        .to_string()
}

/// A rule file (`text`, its tables `t`) that the kernel refuses: the
/// kernel doesn't count its start (`uses`: whether a perft goes through
/// the kernel), the two paths count perft to `depth` and play the seeds
/// `0..seeds` alike (at most `max_plies` plies), and `bench` says the
/// general path played it and why the nearest kernel refused it. That line
/// of `bench`.
pub fn falls_back(
    text: &str,
    t: &Tables,
    uses: impl Fn(&Perft, &Position) -> bool,
    depth: usize,
    (seeds, max_plies): (u64, u32),
) -> String {
    let start = Position::start(t);
    assert!(!uses(&Perft::new(t, 1), &start), "{text}");
    both_paths_agree(text, t, &start, depth, seeds, max_plies);
    let dir = super::scratch();
    let path = dir.path().join("game.rules");
    std::fs::write(&path, text).unwrap();
    let line = played_by(path.to_str().unwrap());
    assert!(
        line.starts_with("  played by the general path: the kernel of "),
        "{text}: {line}"
    );
    line
}

/// How a kernel's test reads the kernel in a position of a game: its moves
/// against the general generator's list, and its move played.
pub trait Probe {
    /// The kernel's moves and count in `pos` are the general `list`'s.
    fn moves(&mut self, t: &Tables, pos: &Position, list: &MoveList);
    /// After move `i` of the list of the last `moves`, the general path
    /// reached `after`: the kernel's move `i` reaches it too.
    fn played(&mut self, t: &Tables, after: &Position, i: usize);
}

/// What `random_positions` went through.
#[derive(Debug, Default)]
pub struct Visited {
    /// Positions looked at.
    pub positions: usize,
    /// Of them, those where perft went deeper than at the second ply.
    pub deep: usize,
}

/// In every position of the seeded random games `seeds` of `t` (at most
/// `plies` plies each): the kernel's moves and its move played agree with
/// the general path's (`probe`), and perft to `depth_at(ply)` on both
/// paths.
pub fn random_positions(
    label: &str,
    t: &Tables,
    seeds: std::ops::RangeInclusive<u64>,
    plies: usize,
    depth_at: impl Fn(usize) -> usize,
    probe: &mut impl Probe,
) -> Visited {
    let mut gen = Generator::new();
    let mut list = MoveList::new();
    let mut fast = Perft::new(t, 3);
    let mut general = Perft::new(t, 3);
    general.use_kernel(false);
    let mut seen = Visited::default();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let mut pos = Position::start(t);
        for ply in 0..plies {
            gen.generate(t, &mut pos, &mut list);
            probe.moves(t, &pos, &list);
            let depth = depth_at(ply);
            for d in 1..=depth {
                assert_eq!(
                    fast.count(&pos, d),
                    general.count(&pos, d),
                    "{label} seed {seed} depth {d}: {}",
                    pos.to_fen(t)
                );
            }
            seen.deep += usize::from(depth > depth_at(1));
            seen.positions += 1;
            if list.is_empty() {
                break;
            }
            let i = rng.below(list.len() as u64) as usize;
            let m = list.moves[i];
            make(t, &mut pos, &list, &m);
            probe.played(t, &pos, i);
        }
    }
    seen
}

/// What `same_playouts` played through the kernel.
#[derive(Debug, Default)]
pub struct Played {
    /// Whole playouts from the start (`seeded_playout`'s text).
    pub whole: Vec<String>,
    /// The ends of the games played ply by ply.
    pub ends: Vec<String>,
}

/// Seeded games of `t`, seeds `0..seeds`, are the same through the kernel
/// and the general path: ply by ply (the general path writing down every
/// list, the kernel called for one ply at a time), whole with the default
/// ply limit and a short one (the kernel hands the last plies to the
/// general path), and whole from positions in the middle of games (`seed
/// % 9 * stride` random plies from the start).
pub fn same_playouts(label: &str, t: &Tables, seeds: u64, stride: u64) -> Played {
    let mut played = Played::default();
    let start = Position::start(t);
    for seed in 0..seeds {
        let want = seeded_plies(t, seed, false, true);
        assert_eq!(
            seeded_plies(t, seed, true, false),
            want,
            "{label} seed {seed}"
        );
        assert!(want.len() > 1);
        played.ends.push(want.last().cloned().unwrap_or_default());
        for max in [1000, 7] {
            let got = seeded_playout(t, &start, seed, true, max);
            assert_eq!(
                got,
                seeded_playout(t, &start, seed, false, max),
                "{label} seed {seed} max {max}"
            );
            played.whole.push(got);
        }
    }
    let mut rng = Rng::new(99);
    for seed in 0..seeds {
        let mut g = BoardGame::new(t);
        g.use_kernel(false);
        let mut s = g.start();
        for _ in 0..(seed % 9) * stride {
            if s.move_count() == 0 {
                break;
            }
            s.play(rng.below(s.move_count() as u64) as usize);
        }
        let pos = s.position().clone();
        assert_eq!(
            seeded_playout(t, &pos, seed, true, 1000),
            seeded_playout(t, &pos, seed, false, 1000),
            "{label} seed {seed} from {}",
            pos.to_fen(t)
        );
    }
    played
}
