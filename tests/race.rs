//! Race games: scripted turns that show every rule and decision of "Slow and
//! Steady" (docs/rules.md: rules 1-10, SS-1..SS-14) and the
//! other race games at work (tests/fixtures/race/*.script); seeded whole
//! games; records written by `play` and read back by `replay`; and the mean
//! length of a game against a band derived from the rules.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::load::{check, check_source, BundledLoader, Source};
use rulebook::narrate::race::{
    choice_text, parse_choice, positions_text, result_text, turn_text, why_not,
};
use rulebook::race::game::RaceGame;
use rulebook::race::{Policy, RaceState, Roll};
use rulebook::rng::Rng;

use crate::common::run;

// ------------------------------------------------------------------ helpers

pub(crate) fn load(game: &str, options: &[(String, String)]) -> RaceGame {
    let checked = check(&BundledLoader, game, options);
    let rendered = checked.render();
    checked
        .into_race()
        .unwrap_or_else(|| panic!("{game}: {rendered}"))
}

pub(crate) fn load_text(text: &str) -> RaceGame {
    let checked = check_source(
        Source {
            name: "test.rules".into(),
            text: text.into(),
        },
        &BundledLoader,
        &[],
    );
    let rendered = checked.render();
    checked.into_race().unwrap_or_else(|| panic!("{rendered}"))
}

pub(crate) fn seat(game: &RaceGame, name: &str) -> usize {
    game.seats
        .iter()
        .position(|s| s == name)
        .unwrap_or_else(|| panic!("no seat {name}"))
}

pub(crate) fn roll_of(text: &str) -> Roll {
    let faces: Vec<u8> = text
        .split_whitespace()
        .map(|f| f.parse().unwrap())
        .collect();
    Roll::new(&faces).unwrap()
}

/// Runs a script. Header lines: `game NAME`, `option NAME=VALUE`,
/// `players N`, `house LINE` (a line of a house rule that extends the game). Then: `put SEAT CELL|out|finished ...` (a seat's pieces),
/// `owe SEAT N` (turns to miss), `to-roll SEAT`, `choices FACES` (the legal
/// choices of a roll), `roll FACES: CHOICE` (a turn: the events and the
/// positions), `try FACES: CHOICE` (must be illegal: the engine's reason and
/// the choices), `refuse FACES: CHOICE` (must be illegal and change nothing:
/// why, in the words of `narrate`), `show` (the position again, after the
/// next `put`s), `dice SEED N` (the first N rolls from a seed). `#` lines are copied. Returns the transcript.
pub(crate) fn run_script(text: &str) -> String {
    let mut out = String::new();
    let mut name = None;
    let mut options = Vec::new();
    let mut players = 2;
    let mut house = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.peek() {
        let line = line.trim();
        if let Some(c) = line.strip_prefix('#') {
            out.push_str(&format!("#{c}\n"));
        } else if let Some(g) = line.strip_prefix("game ") {
            name = Some(g.trim().to_string());
        } else if let Some(o) = line.strip_prefix("option ") {
            let (k, v) = o.split_once('=').unwrap();
            options.push((k.trim().to_string(), v.trim().to_string()));
        } else if let Some(n) = line.strip_prefix("players ") {
            players = n.trim().parse().unwrap();
        } else if let Some(h) = line.strip_prefix("house ") {
            house.push_str(h);
            house.push('\n');
        } else if !line.is_empty() {
            break;
        }
        lines.next();
    }
    let name = name.expect("a script names its game");
    let game = if house.is_empty() {
        load(&name, &options)
    } else {
        load_text(&format!("extends \"{name}\"\n{house}"))
    };
    let mut state = RaceState::new(&game, players).unwrap();
    let mut shown = false;
    let mut choices = Vec::new();
    let mut events = Vec::new();
    let mut comment = false;
    for line in lines {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(c) = line.strip_prefix('#') {
            if !comment {
                out.push('\n');
            }
            out.push_str(&format!("#{c}\n"));
            comment = true;
            continue;
        }
        comment = false;
        let (cmd, arg) = line.split_once(' ').unwrap_or((line, ""));
        match cmd {
            "put" => {
                let mut words = arg.split_whitespace();
                let s = seat(&game, words.next().unwrap());
                let cells: Vec<u16> = words
                    .map(|w| match w {
                        "out" => 0,
                        "finished" => game.cells,
                        n => game
                            .parse_label(s, n)
                            .unwrap_or_else(|| panic!("no cell {n}")),
                    })
                    .collect();
                state.set_pieces(&game, s, &cells).unwrap();
                continue;
            }
            "owe" => {
                let (s, n) = arg.split_once(' ').unwrap();
                let mut owed: Vec<u8> = (0..players).map(|i| state.owed(i)).collect();
                owed[seat(&game, s)] = n.trim().parse().unwrap();
                let to = state.to_roll();
                state.set_turn(to, &owed);
                continue;
            }
            "to-roll" => {
                let owed: Vec<u8> = (0..players).map(|i| state.owed(i)).collect();
                state.set_turn(seat(&game, arg.trim()), &owed);
                continue;
            }
            "show" => {
                shown = false;
                continue;
            }
            "dice" => {
                let (seed, n) = arg.split_once(' ').unwrap();
                let mut rng = Rng::new(seed.parse().unwrap());
                let rolls: Vec<String> = (0..n.trim().parse::<usize>().unwrap())
                    .map(|_| game.throw(&mut rng).to_string())
                    .collect();
                out.push_str(&format!("\nseed {seed}: {}\n", rolls.join(" ")));
                continue;
            }
            _ => {}
        }
        if !shown {
            shown = true;
            out.push_str(&format!("\n{}, {players} players\n", game.title));
            out.push_str(&format!(
                "{} to roll: {}\n",
                game.seats[state.to_roll()],
                positions_text(&game, &state)
            ));
        }
        match cmd {
            "choices" => {
                let roll = roll_of(arg);
                state.choices(&game, &roll, &mut choices);
                let who = state.to_roll();
                let listed: Vec<String> = choices
                    .iter()
                    .map(|&c| choice_text(&game, who, c))
                    .collect();
                out.push_str(&format!("\nchoices with {roll}: {}\n", listed.join(", ")));
            }
            "refuse" => {
                let (faces, choice) = arg.split_once(':').unwrap();
                let roll = roll_of(faces);
                let who = state.to_roll();
                let choice = parse_choice(&game, who, choice).unwrap();
                let before = state.clone();
                let result = state.apply(&game, &roll, choice, &mut events);
                result.expect_err(&format!("{line} should be illegal"));
                assert_eq!(state, before, "{line}: an illegal choice changes nothing");
                out.push_str(&format!(
                    "\n> {} rolls {roll}, choice: {}\nrefused: {}\n",
                    game.seats[who],
                    choice_text(&game, who, choice),
                    why_not(&game, &state, who, &roll, choice)
                ));
            }
            "roll" | "try" => {
                let (faces, choice) = arg.split_once(':').unwrap();
                let roll = roll_of(faces);
                let who = state.to_roll();
                let choice = parse_choice(&game, who, choice).unwrap();
                let number = state.rolls() + 1;
                let result = state.apply(&game, &roll, choice, &mut events);
                if cmd == "try" {
                    let why = result.expect_err(&format!("{line} should be illegal"));
                    state.choices(&game, &roll, &mut choices);
                    let listed: Vec<String> = choices
                        .iter()
                        .map(|&c| choice_text(&game, who, c))
                        .collect();
                    out.push_str(&format!(
                        "\n> {} rolls {roll}, choice: {}\nillegal: {why}; the choices are {}\n",
                        game.seats[who],
                        choice_text(&game, who, choice),
                        listed.join(", ")
                    ));
                } else {
                    result.unwrap_or_else(|e| panic!("{line}: {e}"));
                    out.push('\n');
                    out.push_str(&turn_text(
                        &game, &state, number, who, &roll, choice, &events,
                    ));
                }
            }
            other => panic!("unknown script command {other}"),
        }
    }
    if shown {
        out.push('\n');
        out.push_str(&result_text(&game, &state));
    }
    out
}

// ------------------------------------------------------------------ scripts

#[test]
fn scripted_turns() {
    insta::glob!("fixtures/race/*.script", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(run_script(&text));
    });
}

/// Asserts that tests/fixtures/`folder` has a script whose name starts with
/// each of `ids`.
pub(crate) fn assert_scripts(folder: &str, ids: impl IntoIterator<Item = String>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(folder);
    let names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for id in ids {
        assert!(
            names.iter().any(|n| n.starts_with(&id)),
            "no script for {id}"
        );
    }
}

#[test]
fn every_rule_and_decision_has_a_script() {
    assert_scripts(
        "race",
        (1..=10)
            .map(|n| format!("rule-{n:02}-"))
            .chain((1..=14).map(|n| format!("ss-{n:02}-"))),
    );
}

// ------------------------------------------------------------------ the dice

/// SS-8: the dice are fixed by the seed, on every machine and release.
#[test]
fn ss_08_the_first_rolls_of_a_seed_are_pinned() {
    let mut rng = Rng::new(5);
    let rolls: Vec<String> = (0..12)
        .map(|_| Roll::random(2, 6, &mut rng).to_string())
        .collect();
    assert_eq!(
        rolls.join(" "),
        "2+4 4+5 4+5 4+5 3+3 6+2 3+5 4+6 5+5 3+5 3+3 1+6"
    );
    // The reference outputs of xoshiro256** seeded by SplitMix64 from 0.
    let mut rng = Rng::new(0);
    let raw: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
    assert_eq!(
        raw,
        [
            0x99EC_5F36_CB75_F2B4,
            0xBF6E_1F78_4956_452A,
            0x1A5F_849D_4933_E6E0
        ]
    );
}

// ------------------------------------------------------------------ whole games

fn random_game(game: &str, players: usize, seed: u64) -> String {
    let players_arg = players.to_string();
    let seed_arg = seed.to_string();
    let seats: Vec<String> = (1..=players).map(|i| format!("{i}=random")).collect();
    let mut args = vec!["play", game, "--players", &players_arg, "--seed", &seed_arg];
    for s in &seats {
        args.push("--seat");
        args.push(s);
    }
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("result:"), "the game did not end:\n{out}");
    out
}

/// Seeded whole games between random players; the two-player game of every
/// bundled game is `random_games` in tests/games.rs
/// (`games__random-slow-and-steady.snap`).
#[test]
fn seeded_random_games_for_3_and_6_players() {
    for players in [3, 6] {
        let transcript = random_game("slow-and-steady", players, 1);
        assert_eq!(transcript, random_game("slow-and-steady", players, 1));
        insta::assert_snapshot!(format!("slow-and-steady-{players}-players"), transcript);
    }
}

/// Ludo with four players: seeded whole games between random players (the
/// two-player game is in tests/games.rs with every bundled game).
#[test]
fn seeded_ludo_for_4_players() {
    let transcript = random_game("other/ludo", 4, 1);
    assert_eq!(transcript, random_game("other/ludo", 4, 1));
    assert!(
        transcript.contains("taken: "),
        "no capture in:\n{transcript}"
    );
    assert!(
        transcript.contains(" to h"),
        "no home cell in:\n{transcript}"
    );
    insta::assert_snapshot!("ludo-4-players", transcript);
}

/// A house rule with every new race construct (rules of the roll, targets,
/// a misère outcome with the finishing order) ends, replays, and records
/// the doubles in a row and the order in the state.
#[test]
fn house_rules_with_the_new_constructs_play_and_replay() {
    let rules = temp("house.rules");
    std::fs::write(
        &rules,
        "extends \"slow-and-steady\"\n\
         outcome last-home lose\n\
         finishing order\n\
         rolling 6 6 \"boxcars\": furthest out\n\
         rolling 3 doubles in a row: last-moved out, end turn\n\
         landing on digit 0: out, stop\n\
         landing on digit 1: forward 3\n\
         landing on digit 7: back 3\n\
         landing on double: miss 2 turns, no extra roll\n\
         resting on digit 5: others back 5\n\
         resting on digit 9: opponents out\n",
    )
    .unwrap();
    let game = rules.to_str().unwrap();
    let mut seen_order = false;
    for seed in 0..6 {
        let file = temp(&format!("house-{seed}.jsonl"));
        let file = file.to_str().unwrap();
        let seed_arg = seed.to_string();
        let (code, played, err) = run(&[
            "play",
            game,
            "--players",
            "3",
            "--seed",
            &seed_arg,
            "--record",
            file,
            "--seat",
            "1=random",
            "--seat",
            "2=random",
            "--seat",
            "3=random",
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(played.contains("result: "), "{played}");
        assert!(played.contains(" loses"), "{played}");
        let (code, replayed, err) = run(&["replay", file]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(turns(&played), turns(&replayed));
        let (code, json, err) = run(&["replay", file, "--json"]);
        assert_eq!(code, 0, "{err}");
        let last: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
        let state = &last["state"];
        assert!(state.get("doubles_in_a_row").is_some(), "{state}");
        assert_eq!(state["order"].as_array().unwrap().len(), 3, "{state}");
        assert_eq!(state["loser"], state["order"][2], "{state}");
        seen_order = true;
    }
    assert!(seen_order);
}

#[test]
fn the_other_race_games_end() {
    for game in [
        "variants/slow-and-steady-both-pieces",
        "variants/snakes-and-ladders",
        "variants/goose",
        "other/ludo",
    ] {
        for seed in 0..20 {
            random_game(game, 4, seed);
        }
    }
}

/// The tables `RaceGame::derive` works out (what a landing or a resting
/// rule does on each cell, the spots of a circuit) change nothing: seeded
/// random games of every bundled race game and of the house rules of every
/// script, played with them and by the general path, give the same events
/// turn by turn and the same end.
#[test]
fn planned_turns_play_as_the_general_path() {
    let mut games: Vec<(String, RaceGame)> = Vec::new();
    for name in [
        "slow-and-steady",
        "variants/slow-and-steady-both-pieces",
        "variants/snakes-and-ladders",
        "variants/goose",
        "other/ludo",
    ] {
        games.push((name.to_string(), load(name, &[])));
    }
    let three_sixes = [("three-sixes".to_string(), "yes".to_string())];
    games.push(("ludo, three sixes".into(), load("other/ludo", &three_sixes)));
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
    assert!(games.len() >= 10, "{}", games.len());
    let mut turns = 0u64;
    let mut planned_cells = 0;
    let mut by_count = 0;
    for (name, planned) in &games {
        let general = planned.unplanned();
        planned_cells += planned
            .landing_plans()
            .iter()
            .filter(|p| matches!(p, rulebook::race::game::LandingPlan::Fixed { .. }))
            .count();
        by_count += planned
            .landing_plans()
            .iter()
            .filter(|p| matches!(p, rulebook::race::game::LandingPlan::ByCount { .. }))
            .count();
        let most = usize::from(planned.max_players).min(4);
        for players in usize::from(planned.min_players).max(2)..=most {
            for seed in 0..100u64 {
                let mut a = RaceState::new(planned, players).unwrap();
                let mut b = RaceState::new(&general, players).unwrap();
                let mut dice = Rng::new(seed);
                let mut pick = Rng::new(seed ^ 0x5eed);
                let (mut ca, mut cb, mut ea, mut eb) = (vec![], vec![], vec![], vec![]);
                while !a.is_over() && a.rolls() < 5_000 {
                    let roll = Roll::random(planned.dice, planned.faces, &mut dice);
                    a.choices(planned, &roll, &mut ca);
                    b.choices(&general, &roll, &mut cb);
                    assert_eq!(ca, cb, "{name}, {players} players, seed {seed}");
                    let choice = ca[pick.below(ca.len() as u64) as usize];
                    a.apply(planned, &roll, choice, &mut ea).unwrap();
                    b.apply(&general, &roll, choice, &mut eb).unwrap();
                    assert_eq!(
                        ea, eb,
                        "{name}, {players} players, seed {seed}, roll {roll}"
                    );
                    assert_eq!(a, b, "{name}, {players} players, seed {seed}");
                    turns += 1;
                }
                // A bench plays the next game in the same state.
                a.restart(planned);
                assert_eq!(a, RaceState::new(planned, players).unwrap(), "{name}");
            }
        }
    }
    // The plans were used: most cells with landing rules have one.
    assert!(planned_cells > 100, "{planned_cells}");
    // The geese of the goose game repeat the roll: planned by count.
    assert!(by_count >= 13, "{by_count}");
    assert!(turns > 100_000, "{turns}");
}

/// The agents of `rulebook::agents` see a race as a `RaceNode`: the roll is
/// a chance node, the choices are the moves.
#[test]
fn the_lab_agents_play_race_games() {
    for agent in ["greedy", "mcts"] {
        let seat = format!("1={agent}");
        let (code, out, err) = run(&[
            "play",
            "slow-and-steady",
            "--seat",
            &seat,
            "--seat",
            "2=random",
            "--seed",
            "4",
            "--playouts",
            "50",
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains(&format!("red ({agent})")) && out.contains("result:"),
            "{out}"
        );
    }
    let (code, _, err) = run(&["play", "slow-and-steady", "--seat", "1=alphabeta"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("alphabeta plays two-player games without dice"),
        "{err}"
    );
}

/// `play` with a person at seat 1 and a computer at seat 2, the person's
/// lines given: the exit code and the output.
fn play_person(seed: &str, input: &str) -> (i32, String) {
    let args = [
        "play",
        "slow-and-steady",
        "--seat",
        "2=random",
        "--seed",
        seed,
    ];
    let (code, out, _) = crate::common::run_input(&args, input);
    (code, out)
}

#[test]
fn a_person_chooses_by_typing() {
    // Seed 4: red's first roll with a choice is the 14th, 1+6.
    let (code, out) = play_person("4", "help\n24\nenter\n");
    assert_eq!(code, 0);
    assert!(
        out.contains("red rolls 1+6: choose enter, 45 [45]> "),
        "{out}"
    );
    assert!(
        out.contains("Type a cell number, \"enter\" or \"pass\".\nEnter alone takes"),
        "{out}"
    );
    assert!(
        out.contains("`24` is not a choice: red has no piece on 24; the choices are enter, 45"),
        "{out}"
    );
    assert!(out.contains("14. red rolls 1+6, choice: enter\n"), "{out}");
    assert!(out.ends_with("end of input: game abandoned\n"), "{out}");
}

#[test]
fn ss_01_the_rule_that_forbids_entering_is_named() {
    let game = load("slow-and-steady", &[]);
    let state =
        rulebook::narrate::race::parse_position(&game, "red:red 20,out:blue out,out").unwrap();
    let why = rulebook::narrate::race::why_not(
        &game,
        &state,
        0,
        &roll_of("2 4"),
        rulebook::race::Choice::Enter,
    );
    assert_eq!(
        why,
        "a piece enters only when a die shows 6, and the roll is 2+4"
    );
}

#[test]
fn a_forced_roll_is_played_without_asking_and_enter_takes_the_default() {
    // Seed 4: red's first 13 rolls leave one choice each; the 14th, 1+6,
    // leaves enter or 45, and Enter takes the suggestion in brackets.
    let (code, out) = play_person("4", "\nmoves\nmoves\n");
    assert_eq!(code, 0);
    // A forced choice is one line, and so is a pass.
    assert!(
        out.contains(
            "1. red rolls 2+6, choice: enter (the only choice)\n     enters on 8\n2. blue"
        ),
        "{out}"
    );
    assert!(
        out.contains("11. blue rolls 2+1, choice: pass\n12. red"),
        "{out}"
    );
    // No prompt before the 14th roll; Enter plays 45.
    assert_eq!(out.matches("> ").count(), 4, "{out}");
    assert!(
        out.contains("red rolls 1+6: choose enter, 45 [45]> 14. red rolls 1+6, choice: 45"),
        "{out}"
    );
    // The track only when something moved: once before each prompt that
    // follows a move, not again for `moves` at the same roll.
    assert_eq!(out.matches("R red: ").count(), 2, "{out}");
    // With a person playing, the positions are left to the track.
    assert!(!out.contains(" · "), "{out}");
}

#[test]
fn players_out_of_range_are_refused() {
    let (code, _, err) = run(&["play", "slow-and-steady", "--players", "7"]);
    assert_eq!(code, 2);
    assert!(err.contains("2 to 6 players, not 7"), "{err}");
}

// ------------------------------------------------------------------ records

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-race-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The turns of a transcript (from the first numbered line on).
pub(crate) fn turns(transcript: &str) -> String {
    let at = transcript.find("\n1. ").unwrap();
    transcript[at..].to_string()
}

#[test]
fn a_replayed_record_gives_the_same_game() {
    for (game, players) in [
        ("slow-and-steady", "3"),
        ("variants/goose", "4"),
        ("other/ludo", "4"),
        ("draughts", "2"),
    ] {
        let file = temp(&format!("{}.jsonl", game.replace('/', "-")));
        let file = file.to_str().unwrap();
        let mut args = vec![
            "play", game, "--seed", "9", "--record", file, "--seat", "1=random", "--seat",
            "2=random",
        ];
        if players != "2" {
            args.extend(["--players", players, "--seat", "3=random"]);
        }
        if players == "4" {
            args.extend(["--seat", "4=random"]);
        }
        let (code, played, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        let (code, replayed, err) = run(&["replay", file]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(turns(&played), turns(&replayed), "{game}");
        let (code, json, err) = run(&["replay", file, "--json"]);
        assert_eq!(code, 0, "{err}");
        let lines = std::fs::read_to_string(file).unwrap().lines().count();
        assert_eq!(
            json.lines().count(),
            lines - 1,
            "{game}: one object per turn"
        );
        for line in json.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(v.get("player").is_some() && v.get("events").is_some());
        }
    }
}

#[test]
fn replay_json_holds_the_state() {
    let file = temp("state.jsonl");
    std::fs::write(
        &file,
        "{\"game\":\"slow-and-steady\",\"players\":2}\n\
         {\"player\":\"red\",\"dice\":[6,5],\"choice\":\"enter\"}\n",
    )
    .unwrap();
    let (code, json, err) = run(&["replay", file.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json.trim(),
        r#"{"turn":1,"player":"red","dice":[6,5],"choice":"enter","events":["enters on 11","landed on 11: contains 1, forward 3 to 14","landed on 11: a double, misses 2 turns, no extra roll"],"state":{"pieces":{"red":[14,"out"],"blue":["out","out"]},"held":{},"skipped_turns_owed":{"red":2,"blue":0},"to_roll":"blue","winner":null}}"#
    );
}

#[test]
fn replay_names_the_bad_line() {
    let cases = [
        (
            "{\"player\":\"red\",\"dice\":[5,3],\"choice\":\"enter\"}",
            "bad.jsonl:2: red can't play `enter` with 5+3: the choices are pass",
        ),
        (
            "{\"player\":\"blue\",\"dice\":[5,3],\"choice\":\"pass\"}",
            "bad.jsonl:2: it is red's turn, not blue's",
        ),
        (
            "{\"player\":\"red\",\"dice\":[5,9],\"choice\":\"pass\"}",
            "bad.jsonl:2: a die of this game shows 1 to 6, not 9",
        ),
        (
            "{\"player\":\"red\",\"dice\":[5],\"choice\":\"pass\"}",
            "bad.jsonl:2: this game rolls 2 dice, not 1",
        ),
        (
            "{\"player\":\"red\",\"dice\":[5,3],\"choice\":\"jump\"}",
            "bad.jsonl:2: `\"jump\"` is not a choice",
        ),
        ("{\"player\":\"red\"}", "bad.jsonl:2: not a turn"),
        ("not json", "bad.jsonl:2: not a turn"),
    ];
    for (line, expected) in cases {
        let file = temp("bad.jsonl");
        std::fs::write(
            &file,
            format!("{{\"game\":\"slow-and-steady\",\"players\":2}}\n{line}\n"),
        )
        .unwrap();
        let (code, _, err) = run(&["replay", file.to_str().unwrap()]);
        assert_eq!(code, 1, "{line}");
        assert!(err.contains(expected), "{line}: {err}");
    }
    let file = temp("bad.jsonl");
    std::fs::write(
        &file,
        "{\"game\":\"draughts\"}\n{\"player\":\"white\",\"move\":\"22-17\"}\n{\"player\":\"black\",\"move\":\"9-14\"}\n{\"player\":\"white\",\"move\":\"22-18\"}\n",
    )
    .unwrap();
    let (code, _, err) = run(&["replay", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.jsonl:4: 22-18 is illegal"), "{err}");
}

// ------------------------------------------------------------------ game length

/// The mean number of rolls a lone player needs to bring a piece of "Slow
/// and Steady" home, playing the fixed policy `first` (enter whenever a 6
/// allows it, otherwise move the piece nearest the finish).
///
/// The band is derived from the rules, not from the engine: one player's
/// game is a Markov chain on the two pieces' cells (missed turns and extra
/// rolls change who rolls, not how many rolls it takes, so a lone player's
/// roll count ignores them). `expected_rolls` below writes rules 1-10 and
/// SS-1..SS-14 out again on their own and solves the chain for the mean E
/// and the second moment M of the number of rolls. The mean of N seeded
/// games then lies within 4 standard errors, 4 sqrt((M - E^2) / N), of E
/// (a chance of about 6e-5 to fail for a correct engine; with these seeds it
/// is fixed anyway).
#[test]
fn mean_game_length_lies_in_the_derived_band() {
    let game = load_text("extends \"slow-and-steady\"\nplayers 1-6\n");
    let (e, m) = expected_rolls();
    let sd = (m - e * e).sqrt();
    let n = 4000;
    let mut total = 0u64;
    let mut choices = Vec::new();
    let mut events = Vec::new();
    for seed in 0..n {
        let mut state = RaceState::new(&game, 1).unwrap();
        let mut dice = Rng::new(seed);
        let mut policy = Policy::First;
        while !state.is_over() {
            let roll = Roll::random(game.dice, game.faces, &mut dice);
            state.choices(&game, &roll, &mut choices);
            let c = choices[policy.choose(&choices)];
            state.apply(&game, &roll, c, &mut events).unwrap();
        }
        total += u64::from(state.rolls());
    }
    let mean = total as f64 / n as f64;
    let band = 4.0 * sd / (n as f64).sqrt();
    assert!(
        (mean - e).abs() <= band,
        "mean {mean:.2} rolls, expected {e:.2} +- {band:.2} (sd {sd:.2})"
    );
    // The chain's own answer (61.52 rolls, sd 41.06), so that a change to
    // the rules written out below shows.
    assert!(
        (e - 61.52).abs() < 0.01 && (sd - 41.06).abs() < 0.01,
        "E = {e}, sd = {sd}"
    );
}

/// Rules 4-7 and 10 on a landing cell (SS-3, SS-4): out, or the cell after
/// the +3 / -3 shift.
fn land(t: u32) -> u32 {
    let digits = |n: u32, d: u32| n.to_string().contains(char::from_digit(d, 10).unwrap());
    if digits(t, 0) {
        return 0;
    }
    let mut p = t as i32;
    if digits(t, 1) {
        p += 3;
    }
    if digits(t, 7) {
        p -= 3;
    }
    p as u32
}

/// One roll of the lone player from (a, b) (0 = out) with the `first`
/// policy: the next state, or `None` when a piece reaches 100.
fn step(a: u32, b: u32, d1: u32, d2: u32) -> Option<(u32, u32)> {
    let s = d1 + d2;
    let six = d1 == 6 || d2 == 6;
    // Which piece moves: enter first (rule 1, SS-1), else the one nearest
    // the finish; with none, pass (SS-2).
    let (mover, other) = if six && (a == 0 || b == 0) {
        if a == 0 {
            (a, b)
        } else {
            (b, a)
        }
    } else if a.max(b) > 0 {
        (a.max(b), a.min(b))
    } else {
        return Some((a, b));
    };
    let mut t = mover + s;
    if t == 100 {
        return None;
    }
    if t > 100 {
        t = 200 - t; // rule 9: bounce
    }
    let p = land(t);
    // Rule 3, SS-5: the earlier piece on a 5-cell goes out.
    let other = if p != 0 && p == other && p.to_string().contains('5') {
        0
    } else {
        other
    };
    Some((p, other))
}

/// The mean and second moment of the rolls to finish, from both pieces out,
/// by Gauss-Seidel iteration on the chain's equations
/// E(x) = 1 + mean over rolls of E(next), M(x) = 1 + mean(2 E(next) + M(next)).
fn expected_rolls() -> (f64, f64) {
    let idx = |a: u32, b: u32| (a * 100 + b) as usize;
    let mut e = vec![0.0f64; 100 * 100];
    let mut m = vec![0.0f64; 100 * 100];
    let mut next: Vec<[Option<usize>; 36]> = Vec::with_capacity(100 * 100);
    for a in 0..100 {
        for b in 0..100 {
            let mut row = [None; 36];
            for (k, slot) in row.iter_mut().enumerate() {
                let (d1, d2) = (k as u32 / 6 + 1, k as u32 % 6 + 1);
                *slot = step(a, b, d1, d2).map(|(x, y)| idx(x.max(y), x.min(y)));
            }
            next.push(row);
        }
    }
    for pass in 0..2 {
        for _ in 0..100_000 {
            let mut change = 0.0f64;
            for i in 0..e.len() {
                let mut sum = 0.0;
                for j in next[i].iter().flatten() {
                    sum += if pass == 0 {
                        e[*j]
                    } else {
                        2.0 * e[*j] + m[*j]
                    };
                }
                let v = 1.0 + sum / 36.0;
                let slot = if pass == 0 { &mut e[i] } else { &mut m[i] };
                change = change.max((v - *slot).abs());
                *slot = v;
            }
            if change < 1e-10 {
                break;
            }
        }
    }
    (e[0], m[0])
}

#[test]
fn junk_records_never_panic_replay() {
    let (code, _, _) = run(&[
        "play",
        "slow-and-steady",
        "--players",
        "2",
        "--seat",
        "1=random",
        "--seat",
        "2=random",
        "--seed",
        "3",
        "--record",
        temp("junk-seed.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let good = std::fs::read(temp("junk-seed.jsonl")).unwrap();
    let mut rng = rulebook::rng::Rng::new(17);
    const ALPHABET: &[u8] = b"{}[]\":,0123456789 \nabcdefghijklmnopqrstuvwxyz";
    for i in 0..300 {
        let mut bytes = good.clone();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(bytes.len() as u64 + 1) as usize;
            match rng.below(3) {
                0 if at < bytes.len() => {
                    bytes.remove(at);
                }
                1 => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len() as u64) as usize]),
                _ => bytes.truncate(at.max(1)),
            }
        }
        let file = temp(&format!("junk-{}.jsonl", i % 4));
        std::fs::write(&file, &bytes).unwrap();
        let (code, _, err) = run(&["replay", file.to_str().unwrap()]);
        assert!(code <= 2, "exit {code}");
        if code != 0 {
            // Always a message: a line of the record, or the game it names.
            assert!(err.contains(".jsonl:") || err.contains("error"), "{err}");
        }
    }
}

#[test]
fn a_person_at_a_race_game_uses_the_prompt_commands() {
    let saved = temp("prompt-save.jsonl");
    let script = format!(
        "help\ntrack\nmoves\nhint\nrules\nenter\nundo\nenter\nundo\nredo\nsave {}\nresign\n",
        saved.display()
    );
    let args = [
        "play",
        "slow-and-steady",
        "--players",
        "2",
        "--seat",
        "2=random",
        "--seed",
        "4",
    ];
    let (code, out, _) = crate::common::run_input(&args, script);
    assert_eq!(code, 0);
    for expected in [
        "undo, redo    take back your last choice",
        "R red: 1 out, 0 finished",
        "hint: 45",
        "Two or more players race",
        "taken back",
        "redo: enter",
        "saved 15 turns to",
        "red resigns",
    ] {
        assert!(out.contains(expected), "{expected:?} missing:\n{out}");
    }
    // The same dice come again after an undo (back past the rolls that
    // left one choice): red's roll is 1+6 each time.
    assert_eq!(
        out.matches("14. red rolls 1+6, choice: enter").count(),
        3,
        "{out}"
    );
    // The saved game replays.
    let (code, replayed, err) = run(&["replay", saved.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        replayed.contains("2. blue rolls 3+6, choice: enter"),
        "{replayed}"
    );
}

/// The arguments of `play GAME` between two random players with `seed`,
/// recording to `record` when given.
pub(crate) fn two_random_args<'a>(
    game: &'a str,
    seed: &'a str,
    record: Option<&'a str>,
) -> Vec<&'a str> {
    let mut args = vec![
        "play", game, "--seat", "1=random", "--seat", "2=random", "--seed", seed,
    ];
    if let Some(file) = record {
        args.extend(["--record", file]);
    }
    args
}

/// The transcript of a whole game of `game` between two random players
/// with `seed` (recorded to `record` when given); the game must end.
pub(crate) fn two_random(game: &str, seed: &str, record: Option<&str>) -> String {
    let (code, out, err) = crate::common::run(&two_random_args(game, seed, record));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("result:"), "the game did not end:\n{out}");
    out
}

/// A seeded game of two random players of `game` recorded to a file and
/// replayed by `replay`, which must show the same turns; the record's text.
pub(crate) fn recorded_and_replayed(game: &str, seed: &str) -> String {
    let dir = crate::common::scratch();
    let file = dir.path().join("game.jsonl");
    let file = file.to_str().unwrap();
    let played = two_random(game, seed, Some(file));
    let (code, replayed, err) = crate::common::run(&["replay", file]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(turns(&played), turns(&replayed));
    std::fs::read_to_string(file).unwrap()
}

/// The greedy and MCTS players (with `playouts` playouts a move) each play
/// a seeded game of `game` against a random player, to its end.
pub(crate) fn computer_players_play(game: &str, playouts: &str) {
    for agent in ["greedy", "mcts"] {
        let seat = format!("1={agent}");
        let (code, out, err) = crate::common::run(&[
            "play",
            game,
            "--seat",
            &seat,
            "--seat",
            "2=random",
            "--seed",
            "3",
            "--playouts",
            playouts,
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("result:"),
            "{agent}: the game did not end:\n{out}"
        );
    }
}

/// The two tests of a module of race rules: its scripts
/// (`GLOB`, under tests/) as snapshots, and a script for every rule id.
/// A macro, so that the snapshots keep the module's names.
macro_rules! script_tests {
    ($glob:literal, $folder:literal, $ids:expr) => {
        #[test]
        fn scripted_turns() {
            insta::glob!($glob, |path| {
                let text = std::fs::read_to_string(path).unwrap();
                insta::assert_snapshot!(crate::race::run_script(&text));
            });
        }

        /// Every rule of the game's section in docs/rules.md that a turn
        /// shows has a script.
        #[test]
        fn every_rule_has_a_script() {
            crate::race::assert_scripts($folder, $ids);
        }
    };
}
pub(crate) use script_tests;

/// The diagnostics of the rule file `text` (named `test.rules`), which must
/// have an error (`lines` are the lines the test added, for the message).
pub(crate) fn diagnose_text(text: String, lines: &str) -> String {
    let checked = rulebook::load::check_source(
        rulebook::load::Source {
            name: "test.rules".into(),
            text,
        },
        &rulebook::load::BundledLoader,
        &[],
    );
    assert!(checked.loaded.is_none(), "{lines}: no error");
    checked.render()
}
