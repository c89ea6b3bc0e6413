//! The compiled race turn (`rulebook::race::fast`) against the general
//! turn: seeded whole games between random players give the same games
//! (the faces, the choices, the one drawn, every piece's position and the
//! turns owed after each turn, the rolls and the winner) for every bundled
//! race game it covers, their options and house rules; the rule files it
//! doesn't cover are played by the general turn, and the bench says which
//! path ran.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::lab::bench::{play_one, race};
use rulebook::load::{check, BundledLoader};
use rulebook::race::fast::{FastRace, NotCovered};
use rulebook::race::game::RaceGame;
use rulebook::race::{agent_seed, Choice, RaceState};
use rulebook::rng::Rng;

use crate::race::{load, load_text};

/// One turn as both paths see it.
#[derive(Debug, PartialEq)]
pub(crate) struct Turn {
    seat: usize,
    faces: Vec<u8>,
    choices: Vec<Choice>,
    picked: usize,
    pieces: Vec<u16>,
    owed: Vec<u8>,
}

/// A game by the general turn, as `lab::bench::play_one` plays it, turn by
/// turn.
pub(crate) fn general(
    game: &RaceGame,
    players: usize,
    seed: u64,
) -> (Vec<Turn>, u32, Option<usize>) {
    let mut state = RaceState::new(game, players).unwrap();
    let mut dice = Rng::new(seed);
    let mut pick = Rng::new(agent_seed(seed, 0));
    let (mut choices, mut events) = (Vec::new(), Vec::new());
    let mut turns = Vec::new();
    while !state.is_over() && state.rolls() < 100_000 {
        let seat = state.to_roll();
        let roll = game.throw(&mut dice);
        state.choices(game, &roll, &mut choices);
        let picked = pick.below(choices.len() as u64) as usize;
        state
            .apply_listed(game, &roll, choices[picked], &mut events)
            .unwrap();
        turns.push(Turn {
            seat,
            faces: roll.faces().to_vec(),
            choices: choices.clone(),
            picked,
            pieces: (0..players)
                .flat_map(|s| state.pieces(s).to_vec())
                .collect(),
            owed: (0..players).map(|s| state.owed(s)).collect(),
        });
    }
    (turns, state.rolls(), state.winner())
}

/// The same game by the compiled turn.
pub(crate) fn compiled(fast: &FastRace, seed: u64) -> (Vec<Turn>, u32, Option<usize>) {
    let mut turns = Vec::new();
    let (rolls, winner) = fast.play_traced(seed, |t| {
        turns.push(Turn {
            seat: t.seat,
            faces: t.faces.to_vec(),
            choices: t.choices.to_vec(),
            picked: t.picked,
            pieces: t.pieces.to_vec(),
            owed: t.owed.to_vec(),
        })
    });
    (turns, rolls, winner)
}

/// Every bundled race game with its options, the house rules of the race
/// scripts, and house rules that reach the compiled turn's other
/// switches.
fn games() -> Vec<(String, RaceGame)> {
    let mut games = Vec::new();
    for (name, _) in rulebook::bundled::GAMES {
        if let Some(game) = check(&BundledLoader, name, &[]).into_race() {
            games.push((name.to_string(), game));
        }
    }
    let opt = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
    for rule in ["exact", "bounce"] {
        let game = load("variants/snakes-and-ladders", &opt("finish-rule", rule));
        games.push((format!("snakes, finish {rule}"), game));
    }
    games.push((
        "ludo, three sixes".into(),
        load("other/ludo", &opt("three-sixes", "yes")),
    ));
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/race");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    scripts.sort();
    for path in scripts {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut name = None;
        let mut house = String::new();
        for line in text.lines() {
            if let Some(g) = line.strip_prefix("game ") {
                name = Some(g.trim().to_string());
            } else if let Some(h) = line.strip_prefix("house ") {
                house.push_str(h);
                house.push('\n');
            }
        }
        if let (Some(name), false) = (name, house.is_empty()) {
            let game = load_text(&format!("extends \"{name}\"\n{house}"));
            games.push((path.display().to_string(), game));
        }
    }
    for (name, house) in [
        // An exact finish: pieces stick before it, games end drawn.
        ("exact finish", "finish exact\n"),
        (
            "finish past, extra roll on 6",
            "finish past\nextra roll on 6\n",
        ),
        (
            "three pieces, all home",
            "pieces 3 per player\nwin all pieces\n",
        ),
        ("three dice, enter always", "dice 3 d4\nenter always\n"),
        ("optional moves", "move optional\n"),
        ("extra roll on values", "extra roll on 2 5\n"),
        (
            "bumps of opponents only",
            "resting on any \"a capture\": opponents out\n",
        ),
        ("setup", "setup red: 1 on 3\nsetup blue: 1 on 4, 1 on 8\n"),
        // A landing rule that tests the faces: compiled roll by roll.
        (
            "a first throw's faces",
            "landing on cell 9 and entering and roll 6 3: go to 26\n",
        ),
    ] {
        let game = load_text(&format!("extends \"slow-and-steady\"\n{house}"));
        games.push((name.to_string(), game));
    }
    // A short track with an exact finish: both pieces stick before it and
    // the game is drawn.
    let stuck = "game \"Stuck\"\ntrack 12\nplayers 2\npieces 1 per player\ndice 2 d6\n\
        move by sum\nenter always\nfinish exact\nwin first piece\n";
    games.push(("drawn".to_string(), load_text(stuck)));
    // Held pieces, two a seat, freed by another arriving (and held in
    // turn); games drawn when every piece is held or stuck.
    let held = "game \"Held\"\ntrack 40\nplayers 2-4\npieces 2 per player\ndice 2 d6\n\
        move by sum\nenter on 6\nfinish exact\nwin first piece\n\
        landing on cells 7 13 20: held\n";
    games.push(("held".to_string(), load_text(held)));
    // Rules of the choices on a short plain track: three pieces a seat
    // that never share a cell, a start to leave first, closed cells taken
    // by anyone, a landing rule that moves a piece onto a cell of its own
    // (refused where it comes to rest), bumps.
    let plain = "game \"Rules\"\ntrack 40\nplayers 2-4\npieces 3 per player\ndice 1 d6\n\
        move by sum\nenter on 6 at start\nextra roll on 6\nfinish exact\nwin all pieces\n\
        no landing on own pieces\nleave start first\nsafe cells 12 20 closed\n\
        landing on cell 8: forward 4\nlanding on cell 30: back 5\n\
        resting on any \"a capture\": opponents out\n";
    games.push(("rules of the choices".to_string(), load_text(plain)));
    // No landing on own pieces, but a setup of two pieces of a seat on one
    // cell (the one that leaves it leaves the other there), and cells
    // that cost turns (the seats that owe them miss them).
    let stacked = "game \"Rules 3\"\ntrack 40\nplayers 2-4\nseats red blue green yellow\n\
        pieces 3 per player\ndice 1 d6\nmove by sum\nenter always\nextra roll on 6\n\
        finish exact\nwin all pieces\nno landing on own pieces\nsetup red: 2 on 3\n\
        setup blue: 2 on 5, 1 on 9\nlanding on cell 15: miss 1 turn\n\
        landing on cell 22: miss 2 turns\nresting on any \"a capture\": opponents out\n";
    games.push((
        "stacked setup, turns missed".to_string(),
        load_text(stacked),
    ));
    for (name, house) in [
        // Entering compulsory, three tries, moves optional, a bounce
        // that lands where the piece was.
        (
            "enter compulsory, tries, optional",
            "enter compulsory\ntries 3 when no piece can move\nmove optional\n\
             finish exact bounce\n",
        ),
        // Tries alone (no other rule of the choices).
        ("tries", "tries 3 when no piece can move\nfinish exact\n"),
    ] {
        let text = format!(
            "game \"Rules 2\"\ntrack 30\nplayers 2-4\npieces 2 per player\ndice 1 d6\n\
             move by sum\nenter on 6\nextra roll on 6\nwin all pieces\n\
             resting on any \"a capture\": opponents out\n{house}"
        );
        games.push((name.to_string(), load_text(&text)));
    }
    // Sticks: throws of 0 pass, extra rolls by the throw's value.
    let sticks = "game \"Sticks\"\ntrack 24\nplayers 2-3\npieces 3 per player\n\
        throw 3 sticks\nmove by sum\nenter always\nextra roll on 3\nfinish past\n\
        win all pieces\nresting on any \"a capture\": opponents out\n";
    games.push(("sticks".to_string(), load_text(sticks)));
    let valued = "game \"Valued sticks\"\ntrack 20\nplayers 2\npieces 4 per player\n\
        throw 4 sticks: 0 = 5, 1 = 1, 2 = 2, 3 = 3, 4 = 4\nmove by sum\nenter always\n\
        extra roll on 1 4 5\nfinish exact\nwin all pieces\nno landing on own pieces\n\
        resting on any \"a capture\": opponents out\n";
    games.push(("valued sticks".to_string(), load_text(valued)));
    // Rows, passing, moves back and swaps on a plain track, three seats;
    // without `no landing on own pieces`, own pieces swapped too; rows of
    // lengths other than two and three.
    for (name, own, rows) in [
        ("walls", "no landing on own pieces\n", (2, 3)),
        ("walls, own pieces swapped", "", (2, 3)),
        (
            "walls of three and four",
            "no landing on own pieces\n",
            (3, 4),
        ),
    ] {
        let text = format!(
            "game \"Walls\"\ntrack 36\nplayers 2-3\npieces 4 per player\ndice 1 d6\n\
             move by sum\nenter always\nextra roll on 6\nfinish exact\nwin all pieces\n\
             move back when blocked\nprotected in rows of {}\nno passing rows of {}\n\
             no passing cell 20\nlanding on cell 25: go to 10\n\
             resting on any \"a swap\": others swap\n{own}",
            rows.0, rows.1
        );
        games.push((name.to_string(), load_text(&text)));
    }
    // Mensch with two pieces on its four kept home cells, and Ur without
    // its closed rosette.
    games.push((
        "mensch, two pieces".to_string(),
        load_text("extends \"other/mensch-aergere-dich-nicht\"\npieces 2 per player\n"),
    ));
    games.push((
        "ur, open rosette".to_string(),
        load_text("extends \"other/royal-game-of-ur\"\nsafe cell m4\n"),
    ));
    // A closed cell on a loop: under a different position of each seat
    // (the closed cells taken found spot by spot, not by one AND).
    games.push((
        "mensch, a closed cell".to_string(),
        load_text("extends \"other/mensch-aergere-dich-nicht\"\nsafe cell 15 closed\n"),
    ));
    games
}

/// Seeded games of every covered game give the same turns on both paths;
/// the bench's `play_one` gives the same rolls and winner.
#[test]
fn compiled_turns_play_as_the_general_turn() {
    let mut covered = Vec::new();
    let mut turns = 0usize;
    let mut draws = 0usize;
    for (name, game) in games() {
        let reference = game.unplanned();
        let most = usize::from(game.max_players).min(4);
        for players in usize::from(game.min_players).max(2)..=most {
            let Ok(fast) = FastRace::new(&game, players) else {
                continue;
            };
            assert_eq!(fast.players(), players);
            if !covered.contains(&name) {
                covered.push(name.clone());
            }
            let mut state = RaceState::new(&game, players).unwrap();
            let (mut choices, mut events) = (Vec::new(), Vec::new());
            for seed in 0..40u64 {
                let want = general(&reference, players, seed);
                let got = compiled(&fast, seed);
                for (i, (a, b)) in want.0.iter().zip(&got.0).enumerate() {
                    assert_eq!(a, b, "{name}, {players} players, seed {seed}, turn {i}");
                }
                assert_eq!(want.0.len(), got.0.len(), "{name}, seed {seed}");
                assert_eq!((want.1, want.2), (got.1, got.2), "{name}, seed {seed}");
                assert_eq!(fast.play(seed), (got.1, got.2), "{name}, seed {seed}");
                state.restart(&game);
                let bench = play_one(&game, &mut state, seed, &mut choices, &mut events).unwrap();
                assert_eq!(bench, (got.1, got.2), "{name}, seed {seed}");
                draws += usize::from(state.is_drawn());
                turns += got.0.len();
            }
        }
    }
    for name in [
        "slow-and-steady",
        "variants/slow-and-steady-both-pieces",
        "variants/snakes-and-ladders",
        "variants/goose",
        "other/ludo",
        "snakes, finish exact",
        "snakes, finish bounce",
        "exact finish",
        "finish past, extra roll on 6",
        "three pieces, all home",
        "three dice, enter always",
        "optional moves",
        "extra roll on values",
        "bumps of opponents only",
        "setup",
        "a first throw's faces",
        "held",
        "drawn",
        "other/mensch-aergere-dich-nicht",
        "other/royal-game-of-ur",
        "other/senet",
        "walls",
        "walls, own pieces swapped",
        "rules of the choices",
        "enter compulsory, tries, optional",
        "tries",
        "sticks",
        "valued sticks",
        "mensch, two pieces",
        "ur, open rosette",
        "mensch, a closed cell",
    ] {
        assert!(
            covered.iter().any(|c| c == name),
            "{name} not compiled: {covered:?}"
        );
    }
    assert!(turns > 30_000, "{turns}");
    assert!(draws > 0, "no drawn game");
}

/// The bundled games with rules of the choices run the copies of the loop
/// compiled for their shapes, and the bench says so; a rule file of
/// another shape (a house rule added) runs the copy that reads the rules
/// as it plays, with two seats and with more (the games above compare both
/// with the general turn).
#[test]
fn race_games_run_the_copy_compiled_for_their_shape() {
    let all = games();
    let find = |name: &str| {
        all.iter()
            .find(|(n, _)| n == name)
            .map(|(_, g)| g)
            .unwrap_or_else(|| panic!("{name} missing"))
    };
    let shaped = |name: &str, players: usize| FastRace::new(find(name), players).unwrap().shaped();
    for (name, players) in [
        ("other/senet", 2),
        ("other/royal-game-of-ur", 2),
        ("other/mensch-aergere-dich-nicht", 2),
        ("other/mensch-aergere-dich-nicht", 3),
        ("other/mensch-aergere-dich-nicht", 4),
    ] {
        assert!(shaped(name, players), "{name}, {players} players");
        let speed = race(find(name), 0.01, 1).unwrap();
        assert!(speed.shaped && speed.path.is_ok(), "{name}");
    }
    for (name, players) in [
        ("ur, open rosette", 2),
        ("mensch, a closed cell", 2),
        ("mensch, a closed cell", 4),
        ("walls", 2),
        ("slow-and-steady", 2),
        ("other/ludo", 4),
    ] {
        assert!(!shaped(name, players), "{name}, {players} players");
    }
    let speed = race(find("slow-and-steady"), 0.01, 1).unwrap();
    assert!(!speed.shaped && speed.path.is_ok());
}

/// Every bundled race game the compiled turn takes, for 2 to 4 players
/// (as many as it allows), plays seeds 1000 to 1299 as the general turn
/// does, turn by turn: the same faces, choices, the one drawn, positions
/// and turns owed, the same rolls and winner (and `play` agrees).
#[test]
fn bundled_games_play_seeds_1000_to_1299_as_the_general_turn() {
    let mut taken = Vec::new();
    for (name, _) in rulebook::bundled::GAMES {
        let Some(game) = check(&BundledLoader, name, &[]).into_race() else {
            continue;
        };
        let reference = game.unplanned();
        let most = usize::from(game.max_players).min(4);
        for players in usize::from(game.min_players).max(2)..=most {
            let Ok(fast) = FastRace::new(&game, players) else {
                continue;
            };
            taken.push(format!("{name}, {players}"));
            for seed in 1000..1300u64 {
                let want = general(&reference, players, seed);
                let got = compiled(&fast, seed);
                if let Some((i, (a, b))) = want
                    .0
                    .iter()
                    .zip(&got.0)
                    .enumerate()
                    .find(|(_, (a, b))| a != b)
                {
                    panic!("{name}, {players} players, seed {seed}, turn {i}:\n{a:?}\n{b:?}");
                }
                assert_eq!(want.0.len(), got.0.len(), "{name}, {players}, seed {seed}");
                assert_eq!(
                    (want.1, want.2),
                    (got.1, got.2),
                    "{name}, {players}, seed {seed}"
                );
                assert_eq!(
                    fast.play(seed),
                    (got.1, got.2),
                    "{name}, {players}, seed {seed}"
                );
            }
        }
    }
    for name in [
        "slow-and-steady, 2",
        "variants/goose, 2",
        "other/ludo, 4",
        "other/mensch-aergere-dich-nicht, 4",
        "other/royal-game-of-ur, 2",
        "other/senet, 2",
    ] {
        assert!(
            taken.iter().any(|t| t == name),
            "{name} not taken: {taken:?}"
        );
    }
}

/// The rule files the compiled turn doesn't cover are refused with the
/// reason, and the bench plays them by the general turn (and says so).
#[test]
fn uncovered_rule_files_take_the_general_turn() {
    let opt = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
    let cases: Vec<(RaceGame, NotCovered)> = vec![
        (
            load("other/ludo", &opt("three-sixes", "yes")),
            NotCovered::RollRules,
        ),
        // Rows on a circuit.
        (
            load_text("extends \"other/ludo\"\nprotected in rows of 2\n"),
            NotCovered::Choices,
        ),
        (load("other/backgammon", &[]), NotCovered::EachDie),
        // Rules of the choices need a seat's positions in a word.
        (
            load_text("extends \"slow-and-steady\"\nno landing on own pieces\n"),
            NotCovered::Size,
        ),
        (
            load_text(
                "game \"Held\"\ntrack 40\nplayers 2\npieces 2 per player\ndice 2 d6\n\
                 move by sum\nenter on 6\nno landing on own pieces\n\
                 landing on cell 7: held\n",
            ),
            NotCovered::Held,
        ),
        (
            load_text("extends \"slow-and-steady\"\nlanding on cell 9: others out\n"),
            NotCovered::LiveRule,
        ),
        (
            load_text("extends \"slow-and-steady\"\noutcome last-home lose\n"),
            NotCovered::Outcome,
        ),
    ];
    for (game, why) in cases {
        let players = usize::from(game.min_players.max(2).min(game.max_players));
        assert_eq!(
            FastRace::new(&game, players).err(),
            Some(why),
            "{}",
            game.title
        );
        let speed = race(&game, 0.01, 1).unwrap();
        assert_eq!(speed.path, Err(why), "{}", game.title);
        // Whole batches of 1,000 games (none when the thread started
        // after the time was up).
        assert!(
            speed.games.is_multiple_of(1000) && speed.rolls >= speed.games,
            "{}: {speed:?}",
            game.title
        );
    }
    let ss = load("slow-and-steady", &[]);
    let speed = race(&ss, 0.01, 1).unwrap();
    assert_eq!(speed.path, Ok(()));
    assert!(speed.games.is_multiple_of(1000) && speed.rolls >= speed.games);
}
