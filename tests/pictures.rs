//! Pictures for people (issue 12): the race track with the marks of its
//! cell rules, a legend, the pieces and whose turn it is, as text (plain
//! and coloured) and as SVG; race positions given to `show`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::cli::Term;

use crate::common::Run;

fn run_term(args: &[&str], input: &str, term: Term) -> Run {
    crate::common::run_on(args, &mut input.as_bytes(), term)
}

fn run(args: &[&str]) -> Run {
    run_term(args, "", Term::default())
}

fn race(name: &str) -> rulebook::race::game::RaceGame {
    let checked = rulebook::load::check(&rulebook::cli::FsLoader, name, &[]);
    checked.into_race().expect("a race game")
}

const RACES: [&str; 4] = [
    "slow-and-steady",
    "variants/snakes-and-ladders",
    "variants/goose",
    "other/ludo",
];

#[test]
fn show_draws_every_race_track_with_its_marks_and_legend() {
    for name in RACES {
        let r = run(&["show", name]);
        assert_eq!(r.code, 0, "{name}: {}", r.err);
        assert!(!r.out.contains('\x1b'), "piped output is plain");
        insta::assert_snapshot!(format!("show-{}", name.replace('/', "-")), r.out);
    }
}

#[test]
fn every_cell_with_a_rule_has_a_mark_and_every_mark_a_legend_line() {
    for name in RACES {
        let game = race(name);
        let legend = rulebook::narrate::legend::Legend::of(&game);
        let text = run(&["show", name]).out;
        let last = rulebook::narrate::legend::last_cell(&game);
        for cell in 1..last {
            let rules = game.landing().at(cell).len() + game.resting().at(cell).len();
            let everywhere = legend.everywhere.len();
            let safe = game.safe.get(usize::from(cell)).copied().unwrap_or(false);
            let marked = legend.at(cell).count();
            assert_eq!(
                marked > 0,
                rules > everywhere || safe,
                "{name} cell {cell}: {marked} marks for {rules} rules"
            );
            if marked > 0 {
                let marks: String = legend.at(cell).map(|e| e.mark).take(3).collect();
                assert!(
                    text.contains(&format!("{cell}[{marks}]")),
                    "{name}: cell {cell} [{marks}] not drawn"
                );
            }
        }
        let mut marks: Vec<char> = legend.entries.iter().map(|e| e.mark).collect();
        for m in &marks {
            assert!(
                text.lines().any(|l| l.starts_with(&format!("{m} "))),
                "{name}: no legend line for {m}"
            );
        }
        marks.sort_unstable();
        marks.dedup();
        assert_eq!(
            marks.len(),
            legend.entries.len(),
            "{name}: marks are unique"
        );
    }
}

#[test]
fn a_race_position_shows_the_pieces_and_whose_turn_it_is() {
    let r = run(&[
        "show",
        "variants/goose",
        "--position",
        "blue:red 9,:blue 19:green finished",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    insta::assert_snapshot!("show-goose-position", r.out);
    assert!(r
        .out
        .contains("blue to roll   blue:red 9:blue 19:green finished"));
    let r = run(&[
        "show",
        "other/ludo",
        "--position",
        "2:red 9,h3,finished:green 9,2,h5,h5",
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    insta::assert_snapshot!("show-ludo-position", r.out);
}

#[test]
fn race_positions_read_back_as_written() {
    let game = race("other/ludo");
    for text in [
        "red:red out,out,out,out:green out,out,out,out",
        "green:red 9,h3,finished,out:green 9,2,out,out:yellow 20,out,out,out",
        "blue:red 1,1,1,1:green 14,out,out,out:yellow out,out,out,out:blue h5,h5,h5,h5",
    ] {
        let state = rulebook::narrate::race::parse_position(&game, text).unwrap();
        assert_eq!(rulebook::narrate::race::position_text(&game, &state), text);
    }
    let state = rulebook::narrate::race::parse_position(&game, "2:red 9").unwrap();
    assert_eq!(state.to_roll(), 1);
    assert_eq!(state.players(), 2);
    // Progress along red's path: cell 9 is the 9th cell from its start 1;
    // green's cell 14 is its start.
    assert_eq!(state.pieces(0), &[9, 0, 0, 0]);
    let state = rulebook::narrate::race::parse_position(&game, "red:green 14").unwrap();
    assert_eq!(state.pieces(1), &[1, 0, 0, 0]);
}

#[test]
fn bad_race_positions_are_errors_that_say_why() {
    for (position, says) in [
        ("", "starts with the seat to roll"),
        (
            "purple:red 9",
            "`purple` is not a seat; the seats are red, blue",
        ),
        ("red:red 9,10", "red has 1 piece, and 2 are listed"),
        ("red:red 64", "`64` is not a cell of red"),
        ("red:red 0", "`0` is not a cell of red"),
        ("red:red x", "`x` is not a cell of red"),
        ("red:red 9:red 10", "red is named twice"),
        ("red::blue 3", "an empty field"),
        ("7:red 9", "`7` is not a seat"),
    ] {
        let r = run(&["show", "variants/goose", "--position", position]);
        assert_eq!(r.code, 2, "{position}");
        assert!(r.err.contains(says), "{position}: {}", r.err);
        assert!(r.out.is_empty());
    }
}

#[test]
fn the_track_is_coloured_on_a_terminal_and_plain_otherwise() {
    let args = ["show", "variants/goose", "--position", "red:red 9:blue 19"];
    let tty = Term {
        is_terminal: true,
        no_color: false,
        stdin_is_terminal: true,
    };
    let coloured = run_term(&args, "", tty).out;
    // The marks by what they do (a goose moves on: green), the pieces in
    // their seats' colours (red on red, blue on blue), Unicode arrows.
    assert!(coloured.contains("\x1b[1;32mG\x1b[0m"), "{coloured}");
    assert!(coloured.contains("\x1b[1;41;97mR\x1b[0m"), "{coloured}");
    assert!(coloured.contains("\x1b[1;44;97mB\x1b[0m"), "{coloured}");
    assert!(coloured.contains("6\u{2192}12"));
    let no_color = run_term(
        &args,
        "",
        Term {
            no_color: true,
            ..tty
        },
    )
    .out;
    assert!(!no_color.contains('\x1b'));
    assert!(no_color.contains("6\u{2192}12"));
    let piped = run(&args).out;
    assert!(!piped.contains('\x1b'));
    assert!(piped.contains("6->12"));
    // Without the escapes, the coloured picture is the plain one.
    let stripped = coloured
        .split('\x1b')
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part
            } else {
                part.split_once('m').map_or(part, |(_, rest)| rest)
            }
        })
        .collect::<String>();
    assert_eq!(stripped, no_color);
}

#[test]
fn the_track_at_the_prompt_has_the_marks() {
    // Every roll of snakes and ladders leaves one choice: the people's
    // game plays without asking, and the track shows at the end.
    let r = run_term(
        &["play", "variants/snakes-and-ladders", "--seed", "1"],
        "",
        Term::default(),
    );
    assert!(r.out.contains("  1[L]"), "{}", r.out);
    assert!(r.out.contains("L a ladder: 1->38, 4->14"), "{}", r.out);
    assert!(r.out.contains("result: "), "{}", r.out);
    // `track` at a roll with a choice (seed 4: red's 14th roll).
    let r = run_term(
        &[
            "play",
            "slow-and-steady",
            "--seat",
            "2=random",
            "--seed",
            "4",
        ],
        "track\n",
        Term::default(),
    );
    assert_eq!(
        r.out.matches("R red: 1 out, 0 finished, to roll").count(),
        2,
        "{}",
        r.out
    );
    assert!(r.out.contains("0 contains 0: out"), "{}", r.out);
}

fn svg(args: &[&str], name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("rulebook-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    let mut all = args.to_vec();
    all.extend_from_slice(&["--svg", file.to_str().unwrap()]);
    let r = run(&all);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.starts_with("wrote "));
    std::fs::read_to_string(&file).unwrap()
}

#[test]
fn the_race_svg_has_the_marks_arrows_pieces_and_turn() {
    let text = svg(
        &[
            "show",
            "variants/snakes-and-ladders",
            "--position",
            "blue:red 38:blue 16:green finished",
        ],
        "sl.svg",
    );
    let doc = roxmltree::Document::parse(&text).unwrap();
    let class = |c: &str| {
        doc.descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|a| a.split(' ').any(|w| w == c))
            })
            .count()
    };
    assert_eq!(class("cell"), 100);
    // 9 ladders and 10 snakes: a mark on each cell, an arrow each, and the
    // two marks of the legend.
    assert_eq!(class("jump"), 19);
    assert_eq!(class("up"), 9 + 9 + 1);
    assert_eq!(class("down"), 10 + 10 + 1);
    // Three pieces on the track, three in the seats' lines.
    let pieces: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .collect();
    assert_eq!(pieces.len(), 6);
    for (seat, fill) in [
        ("red", "#c0392b"),
        ("blue", "#2e6fb5"),
        ("green", "#2e8b57"),
    ] {
        assert!(
            pieces
                .iter()
                .filter(|p| p.attribute("data-seat") == Some(seat))
                .all(|p| p.attribute("fill") == Some(fill)),
            "{seat} is drawn in {fill}"
        );
    }
    let turn = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("turn"))
        .unwrap();
    assert_eq!(turn.text(), Some("blue to roll"));
    assert!(text.contains("a ladder: 1\u{2192}38, 4\u{2192}14"));
}

#[test]
fn every_bundled_race_game_has_an_svg_track() {
    for name in RACES {
        let game = race(name);
        let legend = rulebook::narrate::legend::Legend::of(&game);
        let text = svg(&["show", name], "track.svg");
        let doc = roxmltree::Document::parse(&text).unwrap();
        let cells = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("cell"))
            .count();
        assert_eq!(
            cells,
            usize::from(rulebook::narrate::legend::last_cell(&game)),
            "{name}"
        );
        let marks = doc
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("mark ")))
            .count();
        let on_cells: usize = legend.entries.iter().map(|e| e.cells.len()).sum();
        assert_eq!(marks, on_cells + legend.entries.len(), "{name}");
    }
}
