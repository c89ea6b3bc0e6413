//! Whole games as snapshots: scripted games that show each rule of
//! docs/rules.md at work (tests/fixtures/scripts/*.script; a script's
//! `game x.rules` is a house rule of tests/fixtures/games), and full games
//! between seeded random players for every bundled game and variant.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::board::{Match, Position, Tables};
use rulebook::format::text::board::render as render_board;
use rulebook::load::{check, BundledLoader, LoadError, Loader, Source};

/// Bundled games by name; test games by path (`tests/fixtures/games/x.rules`,
/// or relative to the file that extends them), or by file name alone in
/// tests/fixtures/games (the house rules of the docs).
struct FixtureGames;

impl Loader for FixtureGames {
    fn load(&self, name: &str, base: Option<&str>) -> Result<Source, LoadError> {
        if !name.ends_with(".rules") {
            return BundledLoader.load(name, base);
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let fixtures = root.join("tests/fixtures/games");
        if let Ok(text) = std::fs::read_to_string(fixtures.join(name)) {
            return Ok(Source {
                name: name.to_string(),
                text,
            });
        }
        let beside = base
            .and_then(|b| std::path::Path::new(b).parent())
            .map_or_else(|| root.join(name), |dir| root.join(dir).join(name));
        match std::fs::read_to_string(&beside) {
            Ok(text) => Ok(Source {
                name: beside
                    .strip_prefix(root)
                    .unwrap_or(&beside)
                    .display()
                    .to_string(),
                text,
            }),
            Err(_) => BundledLoader.load(name, base),
        }
    }
}

fn load(game: &str, options: &[(String, String)]) -> Tables {
    let checked = check(&FixtureGames, game, options);
    match checked.board().cloned() {
        Some(t) => t,
        None => panic!("{game}: {}", checked.render()),
    }
}

/// Runs a script: `game`, `option`, `position`, then `moves` (list the legal
/// moves), `play MOVE` (must be legal: shows the events) and `try MOVE` (must
/// be illegal: shows the explanation). Returns the transcript.
fn run_script(text: &str) -> String {
    let mut out = String::new();
    let mut game = None;
    let mut options = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.peek() {
        let line = line.trim();
        if let Some(c) = line.strip_prefix('#') {
            out.push_str(&format!("#{c}\n"));
        } else if let Some(g) = line.strip_prefix("game ") {
            game = Some(g.trim().to_string());
        } else if let Some(o) = line.strip_prefix("option ") {
            let (k, v) = o.split_once('=').unwrap();
            options.push((k.trim().to_string(), v.trim().to_string()));
        } else if !line.is_empty() {
            break;
        }
        lines.next();
    }
    let t = load(game.as_deref().expect("a script names its game"), &options);
    let mut pos = Position::start(&t);
    let mut m: Option<Match> = None;
    for line in lines {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (cmd, arg) = line.split_once(' ').unwrap_or((line, ""));
        if cmd == "position" {
            pos = Position::parse(&t, arg).unwrap();
            continue;
        }
        let game = m.get_or_insert_with(|| {
            out.push_str(&format!("\n{}\n", t.game().title));
            out.push_str(&render_board(&t, &pos));
            Match::new(&t, pos.clone())
        });
        match cmd {
            "moves" => {
                let all: Vec<&str> = game.legal().iter().map(|m| m.notation.as_str()).collect();
                out.push_str(&format!(
                    "\nlegal moves: {}\n",
                    if all.is_empty() {
                        "none".to_string()
                    } else {
                        all.join(" ")
                    }
                ));
            }
            "try" => {
                let why = game
                    .parse_move(arg)
                    .expect_err(&format!("{arg} should be illegal"));
                let why = rulebook::narrate::board::refusal(&t, &why);
                out.push_str(&format!("\n> {arg}\nillegal: {why}\n"));
            }
            "play" => {
                let mv = game
                    .parse_move(arg)
                    .unwrap_or_else(|e| panic!("{arg}: {e:?}"));
                let side = game.pos().side().0;
                let events = game.play(&mv);
                out.push_str(&format!(
                    "\n> {arg}\n{}: {}\n",
                    t.game().sides[usize::from(side)].name,
                    mv.notation
                ));
                for e in events {
                    let e = rulebook::narrate::board::describe(&t, &e);
                    out.push_str(&format!("  {e}\n"));
                }
            }
            other => panic!("unknown script command {other}"),
        }
    }
    let game = m.expect("a script does something");
    out.push('\n');
    out.push_str(&render_board(&t, game.pos()));
    match game.outcome() {
        Some(o) => out.push_str(&format!(
            "game over: {}\n",
            rulebook::narrate::board::outcome(&t, o)
        )),
        None => out.push_str("game goes on\n"),
    }
    out
}

#[test]
fn scripted_games() {
    insta::glob!("fixtures/scripts/*.script", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        insta::assert_snapshot!(run_script(&text));
    });
}

fn play_random(game: &str, seed: u64) -> String {
    crate::common::ok(&[
        "play",
        game,
        "--seat",
        "1=random",
        "--seat",
        "2=random",
        "--seed",
        &seed.to_string(),
    ])
}

#[test]
fn random_games() {
    for (name, _) in rulebook::bundled::GAMES {
        let transcript = play_random(name, 1);
        assert!(
            transcript.contains("result:"),
            "{name}: the game did not end:\n{transcript}"
        );
        // The same seed gives the same game.
        assert_eq!(transcript, play_random(name, 1));
        insta::assert_snapshot!(format!("random-{}", name.replace('/', "-")), transcript);
    }
}
