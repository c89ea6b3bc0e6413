//! The computer players: the agents' view of a board game ends every game
//! where `Match` does, a random playout allocates nothing per move, and a
//! stronger agent beats a weaker one in short seeded matches by a margin
//! that chance does not explain.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// The counting allocator implements `GlobalAlloc`, an unsafe trait.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use rulebook::agents::arena::{game_seed, make_agents, play_game};
use rulebook::agents::playout::random_playout;
use rulebook::agents::zobrist::Zobrist;
use rulebook::agents::{BoardGame, EndCause, GameState, Strength};
use rulebook::board::{Match, Outcome, Position, Tables};
use rulebook::load::{check, BundledLoader};
use rulebook::rng::Rng;

/// Counts the allocations of the current thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

fn load(game: &str) -> Tables {
    let checked = check(&BundledLoader, game, &[]);
    match checked.board().cloned() {
        Some(t) => t,
        None => panic!("{}", checked.render()),
    }
}

/// Every bundled game, the test games of tests/fixtures/games and the small
/// game for three below.
fn all_games() -> Vec<(String, Tables)> {
    let mut games: Vec<(String, Tables)> = rulebook::bundled::GAMES
        .iter()
        // Race games (a `track`) are played by `rulebook::race`.
        .filter(|(name, _)| check(&BundledLoader, name, &[]).race().is_none())
        .map(|(name, _)| (name.to_string(), load(name)))
        .collect();
    let mut files: Vec<_> = std::fs::read_dir("tests/fixtures/games")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    files.sort();
    for f in files {
        let name = f.to_string_lossy().into_owned();
        let checked = check(&rulebook::cli::FsLoader, &name, &[]);
        match checked.board().cloned() {
            Some(t) => games.push((name, t)),
            None => panic!("{}", checked.render()),
        }
    }
    games.push(("three".into(), three()));
    games
}

#[test]
fn board_state_ends_every_game_where_match_does() {
    for (name, t) in all_games() {
        let t = &t;
        let game = BoardGame::with_max_plies(t, u32::MAX);
        let zobrist = Zobrist::new(t);
        for seed in 0..12 {
            let mut rng = Rng::new(seed);
            let mut m = Match::new(t, Position::start(t));
            let mut s = game.start();
            while m.outcome().is_none() {
                assert_eq!(s.move_count(), m.legal().len(), "{name} seed {seed}");
                assert!(!s.is_over());
                assert_eq!(s.hash(), zobrist.hash(m.pos()), "{name}: incremental hash");
                let i = rng.below(m.legal().len() as u64) as usize;
                let mv = m.legal()[i].clone();
                m.play(&mv);
                s.play(i);
                assert_eq!(s.position(), m.pos());
            }
            let ending = s.ending().expect("over");
            match m.outcome().unwrap() {
                Outcome::Win { winner, .. } => {
                    assert_eq!(ending.winner, Some(usize::from(winner.0)), "{name} {seed}")
                }
                Outcome::Draw { .. } => assert_eq!(ending.winner, None, "{name} {seed}"),
            }
            assert_eq!(s.plies(), m.plies);
            // The agents' view of a game played so far, as `play` builds it.
            let replayed = game.replay(Position::start(t), m.played());
            assert_eq!(replayed.hash(), s.hash());
            assert_eq!(replayed.ending(), s.ending());
            assert_eq!(replayed.plies(), s.plies());
        }
    }
}

#[test]
fn a_playout_allocates_nothing_per_move() {
    for game in ["variants/english", "draughts", "always-ready"] {
        let t = load(game);
        let g = BoardGame::new(&t);
        let start = g.start();
        let mut work = start.clone();
        let mut rng = Rng::new(5);
        // Warm the buffers up.
        for _ in 0..200 {
            work.clone_from(&start);
            random_playout(&mut work, &mut rng);
        }
        let before = allocations();
        let mut plies = 0;
        for _ in 0..200 {
            work.clone_from(&start);
            plies += random_playout(&mut work, &mut rng);
        }
        assert!(plies > 2000, "{game}: {plies} plies");
        assert_eq!(allocations() - before, 0, "{game}: allocations in playouts");
    }
}

/// One-sided sign test: the chance of at least `wins` wins in `wins +
/// losses` games between equal players (draws left out), P(X >= wins) for
/// X ~ Binomial(wins + losses, 1/2).
fn sign_test(wins: u32, losses: u32) -> f64 {
    let n = wins + losses;
    let mut p = 0.0;
    let mut c = 1.0f64; // C(n, k)
    for k in 0..=n {
        if k >= wins {
            p += c;
        }
        c = c * f64::from(n - k) / f64::from(k + 1);
    }
    p / 2f64.powi(n as i32)
}

#[test]
fn sign_test_is_the_binomial_tail() {
    assert!((sign_test(5, 0) - 1.0 / 32.0).abs() < 1e-12);
    assert!((sign_test(0, 3) - 1.0).abs() < 1e-12);
    assert!((sign_test(9, 1) - 11.0 / 1024.0).abs() < 1e-12);
}

/// Plays `games` games of `strong` against `weak`, the strong agent in
/// each seat half the time; returns (strong wins, strong losses, draws).
fn duel(game: &str, strong: &str, weak: &str, games: u64, strength: Strength) -> (u32, u32, u32) {
    let t = load(game);
    let g = BoardGame::new(&t);
    let start = g.start();
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for i in 0..games {
        let strong_seat = (i % 2) as usize;
        let names: Vec<String> = if strong_seat == 0 {
            vec![strong.into(), weak.into()]
        } else {
            vec![weak.into(), strong.into()]
        };
        let seed = game_seed(2024, i);
        let mut agents = make_agents(&names, seed, strength, &start).unwrap();
        let r = play_game(start.clone(), &mut agents, seed);
        match r.winner {
            Some(w) if w == strong_seat => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
    }
    (wins, losses, draws)
}

/// The stronger agent must win significantly more of the decided games:
/// a one-sided sign test on wins against losses (draws left out) at
/// p < 0.01, over 40 seeded games with the seats swapped every game.
fn assert_stronger(game: &str, strong: &str, weak: &str, strength: Strength) {
    let (w, l, d) = duel(game, strong, weak, 40, strength);
    let p = sign_test(w, l);
    println!(
        "{game}: {strong} against {weak}: {w} wins, {l} losses, {d} draws, sign test p = {p:.2e}"
    );
    assert!(
        p < 0.01,
        "{game}: {strong} against {weak}: {w} wins, {l} losses, {d} draws (p = {p:.3})"
    );
}

#[test]
fn greedy_beats_random() {
    for game in ["draughts", "always-ready"] {
        assert_stronger(game, "greedy", "random", Strength::default());
    }
}

#[test]
fn mcts_beats_greedy() {
    let strength = Strength {
        playouts: Some(300),
        ..Strength::default()
    };
    for game in ["draughts", "always-ready"] {
        assert_stronger(game, "mcts", "greedy", strength);
    }
}

#[test]
fn alphabeta_at_depth_4_beats_greedy() {
    let strength = Strength {
        depth: Some(4),
        ..Strength::default()
    };
    for game in ["draughts", "always-ready"] {
        assert_stronger(game, "alphabeta", "greedy", strength);
    }
}

#[test]
fn the_same_seed_gives_the_same_choice() {
    let t = load("draughts");
    let g = BoardGame::new(&t);
    let start = g.start();
    let strength = Strength {
        playouts: Some(200),
        depth: Some(3),
        think: None,
    };
    for name in ["random", "greedy", "mcts", "alphabeta"] {
        let names = vec![name.to_string(), name.to_string()];
        let a = play_game(
            start.clone(),
            &mut make_agents(&names, 9, strength, &start).unwrap(),
            9,
        );
        let b = play_game(
            start.clone(),
            &mut make_agents(&names, 9, strength, &start).unwrap(),
            9,
        );
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn alphabeta_is_for_two_players_without_dice() {
    let t = load("draughts");
    let g = BoardGame::new(&t);
    let s = g.start();
    assert!(rulebook::agents::by_name("alphabeta", 1, Strength::default(), &s).is_ok());
    let err = rulebook::agents::by_name("minimax", 1, Strength::default(), &s)
        .err()
        .unwrap();
    assert_eq!(
        rulebook::narrate::agent::error(&err),
        "unknown agent `minimax`: the players are human, random, first, greedy, mcts, alphabeta"
    );
}

/// A small game for three.
const THREE: &str = r#"
game "Three corners"
board 6 x 6
side red "Red" forward north
side blue "Blue" forward south
side green "Green" forward east
piece man "Man" { step any  jump short any }
setup red man at a1 b1 c1
setup blue man at d6 e6 f6
setup green man at a4 a5 a6
end no-pieces lose
end no-moves pass
end repetition 3 draw
end draw after 60 plies without capture
"#;

fn three() -> Tables {
    let source = rulebook::load::Source {
        name: "three.rules".into(),
        text: THREE.into(),
    };
    let checked = rulebook::load::check_source(source, &BundledLoader, &[]);
    match checked.board().cloned() {
        Some(t) => t,
        None => panic!("{}", checked.render()),
    }
}

#[test]
fn mcts_and_greedy_play_three_seats_alphabeta_declines() {
    let t = three();
    let g = BoardGame::new(&t);
    let start = g.start();
    assert_eq!(start.seats(), 3);
    let err = rulebook::agents::by_name("alphabeta", 1, Strength::default(), &start)
        .err()
        .unwrap();
    assert_eq!(
        rulebook::narrate::agent::error(&err),
        "alphabeta plays two-player games without dice; this game has 3 seats: use mcts"
    );
    let strength = Strength {
        playouts: Some(200),
        ..Strength::default()
    };
    let names: Vec<String> = ["mcts", "greedy", "random"].map(String::from).to_vec();
    let r = play_game(
        start.clone(),
        &mut make_agents(&names, 3, strength, &start).unwrap(),
        3,
    );
    assert!(r.plies > 0 && r.reason != EndCause::Unfinished, "{r:?}");
}

/// Giveaway draughts turns the goal round (`end no-pieces win`, `end
/// no-moves win`): the agents read it from the end rules, so their
/// evaluation prefers the side with fewer pieces there (and the side with
/// more in draughts), and each of them beats random at it.
#[test]
fn agents_play_towards_the_goal_of_giveaway() {
    let fewer_white = "W:W22:B1,2,18";
    for (game, ahead) in [("variants/giveaway", true), ("draughts", false)] {
        let t = load(game);
        let g = BoardGame::new(&t);
        let s = g.state(Position::parse(&t, fewer_white).unwrap());
        let white = rulebook::agents::eval::relative(&s, 0);
        assert_eq!(white > 0.0, ahead, "{game}: White's standing {white}");
    }
    assert_stronger("variants/giveaway", "greedy", "random", Strength::default());
    let depth = Strength {
        depth: Some(3),
        ..Strength::default()
    };
    assert_stronger("variants/giveaway", "alphabeta", "random", depth);
    let playouts = Strength {
        playouts: Some(100),
        ..Strength::default()
    };
    assert_stronger("variants/giveaway", "mcts", "random", playouts);
}
