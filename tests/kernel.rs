//! The specialised kernel (`board::kernel`) against the general generator:
//! every bundled board game runs through both paths (perft from the start
//! and from the perft fixtures' positions, and the legal moves of positions
//! from seeded random games), and the two must agree exactly. A game that
//! fits no kernel goes through the general path both times.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use crate::common::kernels::playout_summary;
use crate::common::ok;
use rulebook::board::kernel::KMove;
use rulebook::board::{make, Generator, MoveList, Perft, Position, Tables};
use rulebook::bundled::GAMES;
use rulebook::load::{check, BundledLoader};
use rulebook::rng::Rng;

/// Option values: (name, value).
type Options = Vec<(String, String)>;

/// Every bundled board game, and the option values that change its moves.
fn board_games() -> Vec<(String, Options, Tables)> {
    let mut out = Vec::new();
    for &(name, _) in GAMES {
        let mut variants = vec![Vec::new()];
        if name == "draughts" {
            variants.push(vec![("kings".to_string(), "short".to_string())]);
        }
        for options in variants {
            let checked = check(&BundledLoader, name, &options);
            if let Some(t) = checked.into_board() {
                out.push((name.to_string(), options, t));
            }
        }
    }
    out
}

/// Perft to the depth where the general path passes `limit` leaves.
fn compare_perft(name: &str, t: &Tables, pos: &Position, limit: u64, max_depth: usize) -> usize {
    let mut fast = Perft::new(t, max_depth);
    let mut general = Perft::new(t, max_depth);
    general.use_kernel(false);
    let mut depth = 0;
    for d in 1..=max_depth {
        let want = general.count(pos, d);
        let got = fast.count(pos, d);
        assert_eq!(got, want, "{name} {} depth {d}", pos.to_fen(t));
        depth = d;
        if want > limit || want == 0 {
            break;
        }
    }
    depth
}

#[test]
fn the_bundled_draughts_games_have_a_kernel() {
    let games = board_games();
    let with: Vec<String> = games
        .iter()
        .filter(|(_, _, t)| t.kernel().is_some())
        .map(|(n, o, _)| format!("{n}{o:?}"))
        .collect();
    for want in [
        "draughts[]",
        "draughts[(\"kings\", \"short\")]",
        "variants/english[]",
        "variants/international[]",
        "variants/russian[]",
        "variants/giveaway[]",
    ] {
        assert!(
            with.iter().any(|w| w == want),
            "{want} has no kernel: {with:?}"
        );
    }
    // Games with constructs the kernel doesn't know take the general path,
    // or the 128-bit kernel where it knows them.
    for (name, _, t) in &games {
        if name.starts_with("other/") || name == "always-ready" {
            assert!(t.kernel().is_none(), "{name} should take the general path");
        }
        assert_eq!(
            t.wide_kernel().is_some(),
            name == "always-ready",
            "{name}: the 128-bit kernel"
        );
    }
}

#[test]
fn where_a_side_passes_the_general_path_counts() {
    let t = check(&BundledLoader, "always-ready", &[])
        .into_board()
        .unwrap();
    let k = t.wide_kernel().expect("a 128-bit kernel");
    // White's man on a11 can't move (b12 is taken, no jump lands on the
    // board): White passes, which the kernel doesn't play.
    let pos = Position::parse(&t, "W:Wa11:Bb12").unwrap();
    let p = k.position(&pos).unwrap();
    assert_eq!(k.perft(&p, 1, &mut Vec::new()), None);
    assert_eq!(k.perft(&p, 3, &mut Vec::new()), None);
    // Black to move first: the pass comes a ply down.
    let later = Position::parse(&t, "B:Wa11:Bb12,l12").unwrap();
    let p = k.position(&later).unwrap();
    assert!(k.perft(&p, 1, &mut Vec::new()).is_some());
    for pos in [pos, later] {
        let depth = compare_perft("always-ready", &t, &pos, 100_000, 8);
        assert!(depth >= 4, "only depth {depth}");
    }
}

#[test]
fn pieces_won_over_in_the_tree_count_as_the_general_path_counts() {
    let t = check(&BundledLoader, "always-ready", &[])
        .into_board()
        .unwrap();
    // White's g5-h6, Black's i7xg5 wins h6 over and ends on a White base
    // (g5), where the capturing man goes over to White: White then has
    // one move (g5xi7), not the three of a board where h6 were removed.
    let pos = Position::parse(&t, "W:Wg5,k3:Be11,a9,g9,f8,h8,l8,i7,e5,d4,g3").unwrap();
    let depth = compare_perft("always-ready", &t, &pos, 1_000_000, 8);
    assert!(depth >= 5, "only depth {depth}");
}

#[test]
fn kernel_and_general_perft_agree_on_every_bundled_game() {
    for (name, options, t) in board_games() {
        let label = format!("{name} {options:?}");
        let pos = Position::start(&t);
        let fast = Perft::new(&t, 1).uses_kernel(&pos);
        assert_eq!(
            fast,
            t.kernel().is_some() || t.wide_kernel().is_some(),
            "{label}"
        );
        let depth = compare_perft(&label, &t, &pos, 300_000, 12);
        assert!(depth >= 3, "{label}: only depth {depth}");
    }
}

#[test]
fn kernel_and_general_perft_agree_on_the_fixture_positions() {
    let mut checked = 0;
    for entry in std::fs::read_dir("tests/fixtures/perft").unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let mut game = String::new();
        for line in text.lines().map(str::trim) {
            if let Some(g) = line.strip_prefix("game ") {
                game = g.to_string();
            }
            if let Some(fen) = line.strip_prefix("fen ") {
                let t = check(&BundledLoader, &game, &[]).into_board().unwrap();
                let pos = Position::parse(&t, fen).unwrap();
                compare_perft(&game, &t, &pos, 200_000, 10);
                checked += 1;
            }
        }
    }
    assert!(checked >= 5, "only {checked} fixture positions");
}

/// The two copies of the kernel's perft walk (`Kernel::perft`, compiled
/// with popcnt, bmi1 and bmi2 where the processor has them, and
/// `Kernel::perft_portable`) count the same, from the start and from
/// positions of seeded random games of every game with a kernel.
#[test]
fn both_copies_of_the_kernel_walk_count_the_same() {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
    {
        use rulebook::board::kernel::{walk_copy, WalkCopy};
        assert_eq!(walk_copy(), WalkCopy::BitInstructions);
    }
    let mut positions = 0;
    for (name, options, t) in board_games() {
        let name = format!("{name} {options:?}");
        let Some(k) = t.kernel() else {
            continue;
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let start = k.position(&Position::start(&t)).unwrap();
        for d in 1..=6 {
            let n = k.perft(&start, d, &mut a);
            assert_eq!(n, k.perft_portable(&start, d, &mut b), "{name} depth {d}");
            assert!(n.is_some(), "{name} depth {d}");
        }
        each_position(&t, 1..=20, |ply, pos| {
            if ply % 4 == 0 {
                let kp = k.position(pos).unwrap();
                for d in 1..=3 {
                    let n = k.perft(&kp, d, &mut a);
                    let fen = pos.to_fen(&t);
                    assert_eq!(
                        n,
                        k.perft_portable(&kp, d, &mut b),
                        "{name} {fen} depth {d}"
                    );
                }
                positions += 1;
            }
        });
    }
    assert!(positions > 1_000, "only {positions} positions");
}

/// The kernel's own search of chains of short jumps (`short_dfs`, for
/// kinds that jump short alone) against its general chain search (`dfs`):
/// the same moves in the same order, and the same perft counts, in
/// positions of seeded random games of every game with a kernel.
#[test]
fn the_search_of_short_jumps_gives_the_moves_of_the_general_search() {
    let mut captures = 0;
    for (name, options, t) in board_games() {
        let name = format!("{name} {options:?}");
        let Some(k) = t.kernel() else {
            continue;
        };
        let mut general = k.clone();
        general.set_short_search(false);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let (mut la, mut lb) = (Vec::new(), Vec::new());
        each_position(&t, 1..=30, |ply, pos| {
            let kp = k.position(pos).unwrap();
            let fen = pos.to_fen(&t);
            assert!(k.generate(&kp, &mut a), "{name} {fen}");
            assert!(general.generate(&kp, &mut b), "{name} {fen}");
            assert_eq!(a, b, "{name} {fen}");
            if a.iter().any(|m| m.cap != 0) {
                captures += 1;
            }
            if ply % 4 == 0 {
                for d in 1..=3 {
                    assert_eq!(
                        k.perft(&kp, d, &mut la),
                        general.perft(&kp, d, &mut lb),
                        "{name} {fen} depth {d}"
                    );
                }
            }
        });
    }
    assert!(captures > 1_000, "only {captures} positions with a capture");
    // `rulebook bench` says which search the kinds' chains go through.
    let out = ok(&["bench", "draughts", "--depth", "2"]);
    assert!(
        out.contains("\n  capture search: the search of short jumps for 1 of 2 kinds; "),
        "{out}"
    );
    let out = ok(&["bench", "variants/english", "--depth", "2"]);
    assert!(
        out.contains("\n  capture search: the search of short jumps, for every kind\n"),
        "{out}"
    );
}

/// The count of captures at the last ply (`Kernel::count`: chains of
/// short jumps counted, not written down, and a chain that lands where no
/// jump can go on ended without a call) against the moves written down and
/// against the general chain search, in the positions with a capture of
/// seeded random games of every game with a kernel; and with the search
/// limit lowered, where both searches must give up at the same step.
#[test]
fn the_count_of_captures_gives_the_number_of_moves_written() {
    let (mut positions, mut long) = (0, 0);
    for (name, options, t) in board_games() {
        let name = format!("{name} {options:?}");
        let Some(k) = t.kernel() else {
            continue;
        };
        let mut general = k.clone();
        general.set_short_search(false);
        let (mut moves, mut scratch) = (Vec::new(), Vec::new());
        each_position(&t, 1..=40, |_, pos| {
            let kp = k.position(pos).unwrap();
            let fen = pos.to_fen(&t);
            assert!(k.generate(&kp, &mut moves), "{name} {fen}");
            if !moves.iter().any(|m| m.cap != 0) {
                return;
            }
            let n = Some(moves.len() as u64);
            assert_eq!(k.count(&kp, &mut scratch), n, "{name} {fen}");
            assert_eq!(general.count(&kp, &mut scratch), n, "{name} {fen}");
            if moves.iter().any(|m| m.cap.count_ones() >= 4) {
                long += 1;
            }
            for limit in 1..=4 {
                let (mut a, mut b) = (k.clone(), general.clone());
                a.set_max_steps(limit);
                b.set_max_steps(limit);
                assert_eq!(
                    a.count(&kp, &mut scratch),
                    b.count(&kp, &mut scratch),
                    "{name} {fen} limit {limit}"
                );
            }
            positions += 1;
        });
    }
    assert!(
        positions > 2_000,
        "only {positions} positions with a capture"
    );
    assert!(
        long > 10,
        "only {long} positions with a capture of four pieces"
    );
}

/// Calls `visit(ply, position)` for every position of seeded random games
/// of `t` (the seeds given, at most 200 plies a game) that has a move.
fn each_position(
    t: &Tables,
    seeds: std::ops::RangeInclusive<u64>,
    mut visit: impl FnMut(usize, &Position),
) {
    let mut gen = Generator::new();
    let mut list = MoveList::new();
    for seed in seeds {
        let mut rng = Rng::new(seed);
        let mut pos = Position::start(t);
        for ply in 0..200 {
            gen.generate(t, &mut pos, &mut list);
            if list.is_empty() {
                break;
            }
            visit(ply, &pos);
            let m = list.moves[rng.below(list.len() as u64) as usize];
            make(t, &mut pos, &list, &m);
        }
    }
}

/// A move as the kernel writes it, from the general generator's list.
fn as_kmove(t: &Tables, list: &MoveList, i: usize) -> KMove {
    let l = t.layout().unwrap();
    let m = &list.moves[i];
    let bit = |sq: u16| 1u64 << l.bit_of[usize::from(sq)];
    KMove {
        from: bit(m.from),
        to: bit(m.to),
        cap: list.captured(m).iter().fold(0, |a, &s| a | bit(s)),
        kind: 0,
        result: t.piece_of(m.result).unwrap().1 .0,
        ..KMove::default()
    }
}

fn key(m: &KMove) -> (u64, u64, u64, u8) {
    (m.from, m.to, m.cap, m.result)
}

#[test]
fn kernel_and_general_moves_agree_in_random_games() {
    let mut positions = 0;
    let mut captures = 0;
    for (name, options, t) in board_games() {
        let Some(k) = t.kernel() else {
            continue;
        };
        let mut gen = Generator::new();
        let mut list = MoveList::new();
        let mut kmoves = Vec::new();
        let mut scratch = Vec::new();
        for seed in 1..=60u64 {
            let mut rng = Rng::new(seed);
            let mut pos = Position::start(&t);
            for _ply in 0..200 {
                gen.generate(&t, &mut pos, &mut list);
                let kp = k.position(&pos).unwrap();
                assert!(k.generate(&kp, &mut kmoves), "{name}: search limit");
                let want: BTreeSet<_> = (0..list.len())
                    .map(|i| key(&as_kmove(&t, &list, i)))
                    .collect();
                let got: BTreeSet<_> = kmoves.iter().map(key).collect();
                assert_eq!(
                    got,
                    want,
                    "{name} {options:?} seed {seed}: {}",
                    pos.to_fen(&t)
                );
                assert_eq!(kmoves.len(), list.len(), "{name}: {}", pos.to_fen(&t));
                assert_eq!(
                    k.count(&kp, &mut scratch),
                    Some(list.len() as u64),
                    "{name}: {}",
                    pos.to_fen(&t)
                );
                positions += 1;
                if list.is_empty() {
                    break;
                }
                if list.moves.iter().any(|m| m.cap_len > 0) {
                    captures += 1;
                }
                let i = rng.below(list.len() as u64) as usize;
                let m = list.moves[i];
                let km = as_kmove(&t, &list, i);
                let next = kp.play(&KMove {
                    kind: t.piece_of(pos.codes()[usize::from(m.from)]).unwrap().1 .0,
                    ..km
                });
                make(&t, &mut pos, &list, &m);
                assert_eq!(k.position(&pos), Some(next), "{name}: play");
            }
        }
    }
    assert!(positions > 10_000, "only {positions} positions");
    assert!(captures > 1_000, "only {captures} positions with a capture");
}

/// A position whose capture search passes the kernel's limit is counted
/// by the general path, with the same count (the limit lowered so that an
/// ordinary capture passes it).
#[test]
fn past_the_kernel_search_limit_the_general_path_counts() {
    let mut t = check(&BundledLoader, "variants/international", &[])
        .into_board()
        .unwrap();
    // A white king on b2 and black men on c3, c5, ... i9 (a lattice with a
    // free square between any two): it can take them in many orders.
    let men: Vec<String> = ["c", "e", "g", "i"]
        .iter()
        .flat_map(|f| [3, 5, 7, 9].map(|r| format!("{f}{r}")))
        .collect();
    let pos = Position::parse(&t, &format!("W:WKb2:B{}", men.join(","))).unwrap();
    let mut general = Perft::new(&t, 3);
    general.use_kernel(false);
    let want: Vec<u64> = (1..=3).map(|d| general.count(&pos, d)).collect();
    let k = t.kernel().unwrap();
    let kp = k.position(&pos).unwrap();
    let mut moves = Vec::new();
    assert!(k.generate(&kp, &mut moves));
    assert_eq!(moves.len() as u64, want[0]);
    t.set_kernel_max_steps(3);
    let k = t.kernel().unwrap();
    assert!(!k.generate(&kp, &mut moves), "3 steps are not enough");
    assert!(moves.is_empty());
    assert!(k.count(&kp, &mut Vec::new()).is_none());
    assert!(k.perft(&kp, 2, &mut Vec::new()).is_none());
    let mut fast = Perft::new(&t, 3);
    assert!(fast.uses_kernel(&pos));
    let got: Vec<u64> = (1..=3).map(|d| fast.count(&pos, d)).collect();
    assert_eq!(got, want);
}

/// Plays a seeded random playout from `pos` with the kernel on or off; what
/// can be seen of the game at its end, and the generator's next output
/// (the draws it took).
/// `stepwise`: move by move through `GameState::play` (every list written
/// down) instead of `random_playout`.
fn playout(t: &Tables, pos: &Position, seed: u64, kernel: bool) -> String {
    playout_by(t, pos, seed, kernel, false)
}

fn playout_by(t: &Tables, pos: &Position, seed: u64, kernel: bool, stepwise: bool) -> String {
    use rulebook::agents::playout::random_playout;
    use rulebook::agents::{BoardGame, GameState};
    let mut g = BoardGame::new(t);
    g.use_kernel(kernel);
    let mut s = g.state(pos.clone());
    let mut rng = Rng::new(seed);
    let plies = if stepwise {
        let mut plies = 0;
        while s.move_count() > 0 {
            s.play(rng.below(s.move_count() as u64) as usize);
            plies += 1;
        }
        plies
    } else {
        random_playout(&mut s, &mut rng)
    };
    playout_summary(t, &s, plies, &mut rng)
}

#[test]
fn random_playouts_are_the_same_games_through_the_kernel() {
    let mut through_kernel = 0;
    for (name, options, t) in board_games() {
        let start = Position::start(&t);
        for seed in 0..40 {
            // Move by move with every list written down; the general path
            // with only the drawn quiet move built; the kernel.
            let want = playout_by(&t, &start, seed, false, true);
            let lean = playout(&t, &start, seed, false);
            assert_eq!(lean, want, "{name}{options:?} seed {seed} (general)");
            let got = playout(&t, &start, seed, true);
            assert_eq!(got, want, "{name}{options:?} seed {seed}");
        }
        through_kernel += usize::from(t.kernel().is_some());
    }
    assert!(through_kernel >= 6);
}

#[test]
fn random_playouts_from_the_fixture_positions_and_past_the_search_limit_agree() {
    // Kings that can take many pieces: long chains, long jumps, merged
    // paths and the majority rule, in both geometries.
    for (game, fen) in [
        (
            "variants/international",
            "W:WK46,K47,28,33:B12,13,14,17,18,19,22,23,24",
        ),
        ("draughts", "W:WK29,K30,22:B9,10,11,14,15,18,19"),
        ("variants/russian", "W:WK29,21,22:B6,7,10,11,14,15,18"),
        ("variants/english", "W:WK29,K30,21,22:B5,6,7,9,10,14,15,18"),
    ] {
        let mut t = check(&BundledLoader, game, &[]).into_board().unwrap();
        let pos = Position::parse(&t, fen).unwrap();
        for seed in 0..200 {
            assert_eq!(
                playout(&t, &pos, seed, true),
                playout(&t, &pos, seed, false),
                "{game} {fen} seed {seed}"
            );
        }
        // With a tiny search limit the general path plays the positions
        // the kernel gives up on: still the same games.
        t.set_kernel_max_steps(3);
        for seed in 0..50 {
            assert_eq!(
                playout(&t, &pos, seed, true),
                playout(&t, &pos, seed, false),
                "{game} {fen} seed {seed} (search limit 3)"
            );
        }
    }
}

/// A game with squares where no piece may stop, captures that win the
/// jumped piece over, a trigger that changes a piece's side, passes and
/// a 12 x 12 board: its playouts take the 128-bit playout kernel, and
/// they are the games the general path plays.
#[test]
fn always_ready_playouts_through_the_wide_kernel_are_the_same_games() {
    let t = check(&BundledLoader, "always-ready", &[])
        .into_board()
        .unwrap();
    assert!(t.kernel().is_none());
    let k = t.wide_kernel().expect("a playout kernel");
    let start = Position::start(&t);
    assert!(k.position(&start).is_some());
    for seed in 100..400 {
        assert_eq!(
            playout(&t, &start, seed, true),
            playout_by(&t, &start, seed, false, true),
            "seed {seed}"
        );
    }
}

#[test]
fn the_128_bit_kernel_counts_as_the_general_path_in_random_positions() {
    // Positions from seeded random games, every seventh ply: captures that
    // win pieces over, jumps onto squares where no piece may stop, kings.
    let t = check(&BundledLoader, "always-ready", &[])
        .into_board()
        .unwrap();
    let mut rng = Rng::new(5);
    let mut gen = Generator::new();
    let mut list = MoveList::new();
    let mut fast = Perft::new(&t, 4);
    let mut general = Perft::new(&t, 4);
    general.use_kernel(false);
    let mut checked = 0;
    for _ in 0..400 {
        let mut p = Position::start(&t);
        for ply in 0..200 {
            gen.generate(&t, &mut p, &mut list);
            if list.is_empty() {
                break;
            }
            let m = list.moves[rng.below(list.len() as u64) as usize];
            make(&t, &mut p, &list, &m);
            if ply % 7 == 0 {
                for d in 1..=3 {
                    let want = general.count(&p, d);
                    assert_eq!(fast.count(&p, d), want, "{} depth {d}", p.to_fen(&t));
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 5_000, "only {checked} positions");
}

#[test]
fn a_jump_onto_a_square_where_no_piece_may_stop_is_no_capture() {
    let t = check(&BundledLoader, "always-ready", &[])
        .into_board()
        .unwrap();
    // d4xf6 would land on f6, where no piece may stop (nor land on in a
    // chain, as the general path has it): no capture, and the quiet moves
    // count (3 with the man on k3; 1 without).
    for (fen, moves) in [("W:Wd4,k3:Be5,a9", 3), ("W:Wd4:Be5,a9", 1)] {
        let pos = Position::parse(&t, fen).unwrap();
        assert_eq!(Perft::new(&t, 1).count(&pos, 1), moves, "{fen}");
        let depth = compare_perft(fen, &t, &pos, 100_000, 8);
        assert!(depth >= 4, "{fen}: only depth {depth}");
    }
}
