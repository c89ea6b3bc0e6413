//! Race tracks drawn in their shape (issue 30, item 4): `layout serpentine
//! N | spiral | cross | lanes | tables | rows`. The coordinates of each
//! shape (`rulebook::layout`: every cell once, neighbours side by side,
//! the counts), the checker's diagnostics of a layout that can't draw its
//! track (snapshots), `fmt`, the terminal's serpentine, the SVG of every
//! bundled race game (written to target/race-layout/ and read back: every
//! cell drawn once, the jumps, the cross's homes and corners), and the
//! play page in headless Chromium at 1280 x 800 and 390 x 844 (a Ludo
//! cross, a serpentine with its ladders and snakes, a click on a cell of
//! Ur's lanes); the screenshots of docs/web.md's tracks are taken here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;
use std::path::PathBuf;

use rulebook::layout::{self, Plan, Spot};
use rulebook::load::{check_source, BundledLoader, Source};
use rulebook::race::game::{Layout, RaceGame};
use serde_json::json;

use crate::common::{
    assert_track_fits, choose_first_on_page, count, doc_shot, open, page_size, rect, roll_on_page,
};
use crate::web_browser::{Browser, ONE_AT_A_TIME};

fn load(game: &str) -> RaceGame {
    crate::race::load(game, &[])
}

fn fixture(name: &str) -> RaceGame {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/race_layout")
        .join(name);
    crate::race::load_text(&std::fs::read_to_string(path).unwrap())
}

/// Steps between two squares along rows and columns.
fn steps(a: Spot, b: Spot) -> u16 {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1)
}

/// Steps between two squares as a king moves (a diagonal is one).
fn king(a: Spot, b: Spot) -> u16 {
    a.0.abs_diff(b.0).max(a.1.abs_diff(b.1))
}

/// Every cell of the plan on its own square, inside the grid.
fn distinct_inside(plan: &Plan, count: usize) {
    assert_eq!(plan.cells.len(), count, "{plan:?}");
    let set: HashSet<Spot> = plan.cells.iter().copied().collect();
    assert_eq!(set.len(), count, "two cells on one square: {plan:?}");
    for &(x, y) in &plan.cells {
        assert!(
            x < plan.width && y < plan.height,
            "({x}, {y}) outside {plan:?}"
        );
    }
}

// ------------------------------------------------------------------ shapes

#[test]
fn a_file_that_says_nothing_keeps_ten_a_row() {
    let game = load("slow-and-steady");
    assert_eq!(game.layout, Layout::Rows);
    let plan = layout::plan(&game);
    distinct_inside(&plan, 100);
    assert_eq!((plan.width, plan.height), (10, 10));
    for c in 1..=100u16 {
        assert_eq!(plan.at(c), Some(((c - 1) % 10, (c - 1) / 10)));
    }
    // `layout rows` in a house rule puts the default back.
    let house = crate::race::load_text(
        "extends \"variants/snakes-and-ladders\"\ndescription \"Rows.\"\nlayout rows\n",
    );
    assert_eq!(house.layout, Layout::Rows);
}

#[test]
fn a_serpentine_runs_back_and_forth_from_the_bottom_left() {
    let game = load("variants/snakes-and-ladders");
    assert_eq!(game.layout, Layout::Serpentine(10));
    let plan = layout::plan(&game);
    distinct_inside(&plan, 100);
    assert_eq!((plan.width, plan.height), (10, 10));
    for c in 1..100u16 {
        assert_eq!(
            steps(plan.at(c).unwrap(), plan.at(c + 1).unwrap()),
            1,
            "{c}"
        );
    }
    assert_eq!(plan.at(1), Some((0, 9)));
    assert_eq!(plan.at(10), Some((9, 9)));
    assert_eq!(plan.at(11), Some((9, 8)));
    assert_eq!(plan.at(100), Some((0, 0)));
    // A last row not full: 20 cells in rows of 7, the top row half empty.
    let short = crate::race::load_text("game \"S\"\ntrack 20\ndice 1 d6\nlayout serpentine 7\n");
    let plan = layout::plan(&short);
    distinct_inside(&plan, 20);
    assert_eq!((plan.width, plan.height), (7, 3));
    assert_eq!(plan.at(15), Some((0, 0)));
    assert_eq!(plan.at(20), Some((5, 0)));
}

#[test]
fn a_serpentines_jumps_are_its_ladders_and_snakes() {
    let game = load("variants/snakes-and-ladders");
    let jumps = layout::jumps(&game);
    assert_eq!(jumps.len(), 19, "{jumps:?}");
    assert_eq!(jumps.iter().filter(|(a, b)| b > a).count(), 9);
    assert!(jumps.contains(&(80, 100)) && jumps.contains(&(98, 78)));
    // `forward N` and `back N` jump too; `out` does not.
    let game = load("slow-and-steady");
    let jumps = layout::jumps(&game);
    assert!(jumps.contains(&(12, 15)), "{jumps:?}");
    assert!(jumps.contains(&(27, 24)), "{jumps:?}");
    assert!(!jumps.iter().any(|&(a, _)| a == 10 || a == 70), "{jumps:?}");
}

#[test]
fn a_spiral_goes_round_and_in_to_the_finish_in_the_middle() {
    let game = load("variants/goose");
    assert_eq!(game.layout, Layout::Spiral);
    let plan = layout::plan(&game);
    distinct_inside(&plan, 63);
    assert_eq!((plan.width, plan.height), (8, 8));
    for c in 1..63u16 {
        assert_eq!(
            steps(plan.at(c).unwrap(), plan.at(c + 1).unwrap()),
            1,
            "{c}"
        );
    }
    // The first cell on the bottom row, the finish off every edge.
    assert_eq!(plan.at(1).unwrap().1, 7);
    let (x, y) = plan.at(63).unwrap();
    assert!((2..6).contains(&x) && (2..6).contains(&y), "({x}, {y})");
    // Any length: every cell once, each beside the next.
    for n in [2u16, 3, 5, 10, 37, 100, 999] {
        let game = crate::race::load_text(&format!(
            "game \"S\"\ntrack {n}\ndice 1 d2\nlayout spiral\n"
        ));
        let plan = layout::plan(&game);
        distinct_inside(&plan, usize::from(n));
        for c in 1..n {
            assert_eq!(
                steps(plan.at(c).unwrap(), plan.at(c + 1).unwrap()),
                1,
                "{n}: {c}"
            );
        }
    }
}

/// The checks of a cross: the loop round it, each seat's home cells from
/// the end of its lap up an arm, its corner beside its start cell.
fn check_cross(game: &RaceGame, side: u16, arm: u16) -> Plan {
    let circuit = game.circuit.as_ref().unwrap();
    let plan = layout::plan(game);
    assert_eq!(plan.layout, Layout::Cross);
    let loop_cells = usize::from(circuit.cells);
    distinct_inside(&plan, loop_cells);
    assert_eq!((plan.width, plan.height, plan.arm), (side, side, arm));
    for c in 1..=circuit.cells {
        let next = c % circuit.cells + 1;
        assert_eq!(
            king(plan.at(c).unwrap(), plan.at(next).unwrap()),
            1,
            "{c} -> {next}"
        );
    }
    let loop_squares: HashSet<Spot> = plan.cells.iter().copied().collect();
    let mut homes = HashSet::new();
    assert_eq!(plan.homes.len(), circuit.starts.len());
    assert_eq!(plan.yards.len(), circuit.starts.len());
    for (seat, home) in plan.homes.iter().enumerate() {
        assert_eq!(home.len(), usize::from(circuit.home));
        let start = circuit.starts[seat];
        let last = (start + circuit.cells - 2) % circuit.cells + 1;
        assert_eq!(steps(plan.at(last).unwrap(), home[0]), 1, "seat {seat}");
        for pair in home.windows(2) {
            assert_eq!(steps(pair[0], pair[1]), 1);
        }
        for &h in home {
            assert!(!loop_squares.contains(&h), "{h:?} is a loop cell");
            assert!(homes.insert(h), "{h:?} twice");
        }
        // The corner: arm x arm squares, empty, the start cell beside it.
        let (yx, yy) = plan.yards[seat];
        let corner: Vec<Spot> = (yx..yx + arm)
            .flat_map(|x| (yy..yy + arm).map(move |y| (x, y)))
            .collect();
        for sq in &corner {
            assert!(!loop_squares.contains(sq) && !homes.contains(sq), "{sq:?}");
        }
        let s = plan.at(start).unwrap();
        assert!(
            corner.iter().any(|&sq| king(sq, s) == 1),
            "seat {seat}'s corner"
        );
    }
    plan
}

#[test]
fn a_cross_has_the_loop_round_it_and_the_home_cells_up_its_arms() {
    let ludo = load("other/ludo");
    let plan = check_cross(&ludo, 15, 6);
    // No corner cells on a loop of 52: the finishes are the middle's
    // triangles, three squares wide.
    assert_eq!(plan.middle, 3);
    assert_eq!(plan.centre, Some((7, 7)));
    let mensch = load("other/mensch-aergere-dich-nicht");
    let plan = check_cross(&mensch, 11, 4);
    assert_eq!(plan.middle, 1);
    assert_eq!(plan.centre, Some((5, 5)));
    assert_eq!(Layout::cross_arm(52), Some(6));
    assert_eq!(Layout::cross_arm(40), Some(4));
    assert_eq!(Layout::cross_arm(12), Some(1));
    assert_eq!(Layout::cross_arm(50), None);
    assert_eq!(Layout::cross_arm(8), None);
}

#[test]
fn lanes_put_the_shared_cells_in_the_middle_and_each_seats_beside() {
    let game = load("other/royal-game-of-ur");
    assert_eq!(game.layout, Layout::Lanes);
    let paths = game.paths.as_ref().unwrap();
    let plan = layout::plan(&game);
    distinct_inside(&plan, 20);
    // Ur's board: 3 x 8, a gap of two squares in each outer row.
    assert_eq!((plan.width, plan.height), (8, 3));
    for path in &paths.seats {
        for pair in path.windows(2) {
            let (a, b) = (plan.at(pair[0]).unwrap(), plan.at(pair[1]).unwrap());
            assert_eq!(
                steps(a, b),
                1,
                "{} -> {}",
                paths.name(pair[0]),
                paths.name(pair[1])
            );
        }
    }
    let at = |name: &str| plan.at(paths.number(name).unwrap()).unwrap();
    for i in 1..=8u16 {
        assert_eq!(at(&format!("m{i}")), (i - 1, 1));
    }
    assert_eq!(
        (at("a1"), at("a4"), at("a5"), at("a6")),
        ((3, 0), (0, 0), (7, 0), (6, 0))
    );
    assert_eq!(
        (at("b1"), at("b4"), at("b5"), at("b6")),
        ((3, 2), (0, 2), (7, 2), (6, 2))
    );
    for gap in [(4, 0), (5, 0), (4, 2), (5, 2)] {
        assert!(!plan.cells.contains(&gap), "{gap:?}");
    }
}

#[test]
fn tables_lay_two_opposite_paths_in_two_rows_round_a_u() {
    let game = fixture("tables.rules");
    assert_eq!(game.layout, Layout::Tables);
    let paths = game.paths.as_ref().unwrap();
    let plan = layout::plan(&game);
    distinct_inside(&plan, 24);
    // 12 points a row and the bar between the sixth and the seventh.
    assert_eq!((plan.width, plan.height), (13, 2));
    assert!(!plan.cells.iter().any(|&(x, _)| x == 6), "the bar is empty");
    let at = |name: &str| plan.at(paths.number(name).unwrap()).unwrap();
    assert_eq!(
        (at("p24"), at("p13"), at("p12"), at("p1")),
        ((12, 0), (0, 0), (0, 1), (12, 1))
    );
    for path in &paths.seats {
        for pair in path.windows(2) {
            let d = steps(plan.at(pair[0]).unwrap(), plan.at(pair[1]).unwrap());
            assert!(d == 1 || d == 2, "across the bar only: {d}");
        }
    }
}

// ------------------------------------------------------------------ the checker

/// The rendered diagnostics of a text.
pub(crate) fn diagnostics(text: &str) -> String {
    check_source(
        Source {
            name: "layout.rules".into(),
            text: text.into(),
        },
        &BundledLoader,
        &[],
    )
    .render()
}

const PLAIN: &str = "game \"Plain\"\ntrack 63\ndice 2 d6\n";
const LOOP: &str =
    "game \"Loop\"\ntrack 52 loop starts 1 14 27 40 home 6\nplayers 2-4\ndice 1 d6\n";
const PATHS: &str =
    "game \"Paths\"\npath red: a1-a3 m1-m4 a4\npath blue: b1-b3 m1-m4 b4\nplayers 2\ndice 1 d6\n";

#[test]
fn each_layout_that_cant_draw_its_track_is_said_where_it_is_written() {
    let cases = [
        ("serpentine-1", format!("{PLAIN}layout serpentine 1\n"), "E070"),
        ("serpentine-too-wide", format!("{PLAIN}layout serpentine 64\n"), "E070"),
        ("serpentine-uneven", format!("{PLAIN}layout serpentine 10\n"), "W070"),
        ("serpentine-on-a-loop", format!("{LOOP}layout serpentine 13\n"), "E070"),
        ("spiral-on-paths", format!("{PATHS}layout spiral\n"), "E070"),
        ("cross-without-a-loop", format!("{PLAIN}layout cross\n"), "E070"),
        (
            "cross-of-50",
            "game \"L\"\ntrack 50 loop starts 1 14 27 40 home 6\nplayers 2-4\ndice 1 d6\nlayout cross\n".to_string(),
            "E070",
        ),
        (
            "cross-home-too-long",
            "game \"L\"\ntrack 40 loop starts 1 11 21 31 home 5\nplayers 2-4\ndice 1 d6\nlayout cross\n".to_string(),
            "E070",
        ),
        (
            "cross-two-starts-on-an-arm",
            "game \"L\"\ntrack 52 loop starts 1 5 27 40 home 6\nplayers 2-4\ndice 1 d6\nlayout cross\n".to_string(),
            "E070",
        ),
        ("lanes-without-paths", format!("{PLAIN}layout lanes\n"), "E070"),
        ("tables-without-paths", format!("{LOOP}layout tables\n"), "E070"),
        (
            "tables-of-odd-cells",
            "game \"P\"\npath red: a1-a3 m1-m4\npath blue: b1-b2 m1-m4 a3\nplayers 2\ndice 1 d6\nlayout tables\n"
                .to_string(),
            "E070",
        ),
        ("layout-twice", format!("{PLAIN}layout spiral\nlayout serpentine 9\n"), "E008"),
        ("layout-on-a-board", "extends \"draughts\"\ndescription \"B.\"\nlayout spiral\n".to_string(), "E031"),
        ("layout-misspelt", format!("{PLAIN}layout spirale\n"), "E001"),
    ];
    for (name, text, code) in cases {
        let rendered = diagnostics(&text);
        assert!(
            rendered.contains(&format!("[{code}]")),
            "{name}:\n{rendered}"
        );
        insta::assert_snapshot!(format!("diagnostic-{name}"), rendered);
    }
    // Shapes that fit: nothing to say.
    for text in [
        format!("{PLAIN}layout serpentine 9\n"),
        format!("{PLAIN}layout spiral\n"),
        format!("{LOOP}layout cross\n"),
        format!("{PATHS}layout lanes\n"),
        format!("{PATHS}layout tables\n"),
        format!("{PATHS}layout rows\n"),
    ] {
        let rendered = diagnostics(&text);
        assert!(rendered.trim().is_empty(), "{text}\n{rendered}");
    }
}

#[test]
fn fmt_keeps_the_layout() {
    let text = "game \"T\"\ntrack 100\nlayout   serpentine    10   // back and forth\ndice 1 d6\n";
    let out = rulebook::format_rules::format_text(text).unwrap();
    assert_eq!(
        out,
        "game \"T\"\ntrack 100\nlayout serpentine 10  // back and forth\ndice 1 d6\n"
    );
    for game in [
        "variants/snakes-and-ladders",
        "variants/goose",
        "other/ludo",
        "other/mensch-aergere-dich-nicht",
        "other/royal-game-of-ur",
    ] {
        let text = rulebook::bundled::GAMES
            .iter()
            .find(|(name, _)| *name == game)
            .map(|(_, t)| *t)
            .unwrap();
        assert!(text.contains("\nlayout "), "{game}");
        assert_eq!(
            rulebook::format_rules::format_text(text).unwrap(),
            text,
            "{game}"
        );
    }
}

#[test]
fn the_terminal_draws_a_serpentine_in_its_rows() {
    let (code, out, err) = crate::common::run(&["show", "variants/snakes-and-ladders"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("100 "), "{out}");
    assert!(lines[1].starts_with(" 81 "), "{out}");
    assert!(lines[9].starts_with("  1[L]"), "{out}");
    assert!(lines[9].trim_end().ends_with("10"), "{out}");
}

// ------------------------------------------------------------------ the SVG

/// `show GAME --svg` written to target/race-layout/FILE and parsed.
pub(crate) fn svg_of(args: &[&str], file: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/race-layout");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file);
    let mut all = args.to_vec();
    all.extend_from_slice(&["--svg", path.to_str().unwrap()]);
    let (code, _, err) = crate::common::run(&all);
    assert_eq!(code, 0, "{err}");
    std::fs::read_to_string(&path).unwrap()
}

/// The elements of `doc` whose class has `word`.
pub(crate) fn with_class<'a>(
    doc: &'a roxmltree::Document<'a>,
    word: &str,
) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|a| a.split(' ').any(|w| w == word))
        })
        .collect()
}

pub(crate) fn num(n: &roxmltree::Node<'_, '_>, a: &str) -> f64 {
    n.attribute(a).unwrap().parse().unwrap()
}

#[test]
fn every_bundled_race_game_draws_each_cell_once_in_its_shape() {
    for (game, file) in [
        ("variants/snakes-and-ladders", "snakes-and-ladders.svg"),
        ("variants/goose", "goose.svg"),
        ("other/ludo", "ludo.svg"),
        ("other/mensch-aergere-dich-nicht", "mensch.svg"),
        ("other/royal-game-of-ur", "ur.svg"),
        ("other/backgammon", "backgammon.svg"),
        ("slow-and-steady", "slow-and-steady.svg"),
    ] {
        let race = load(game);
        let plan = layout::plan(&race);
        let text = svg_of(&["show", game], file);
        let doc = roxmltree::Document::parse(&text).unwrap();
        let (width, height) = (
            num(&doc.root_element(), "width"),
            num(&doc.root_element(), "height"),
        );
        let cells = with_class(&doc, "cell");
        let last = usize::from(layout::last_cell(&race));
        assert_eq!(cells.len(), last, "{game}");
        let mut numbers: Vec<usize> = cells
            .iter()
            .map(|c| c.attribute("data-cell").unwrap().parse().unwrap())
            .collect();
        numbers.sort_unstable();
        assert_eq!(
            numbers,
            (1..=last).collect::<Vec<_>>(),
            "{game}: each cell once"
        );
        // Each on a square of its own, inside the picture, where the plan
        // puts it.
        let corners: HashSet<(i64, i64)> = cells
            .iter()
            .map(|c| (num(c, "x") as i64, num(c, "y") as i64))
            .collect();
        assert_eq!(corners.len(), last, "{game}: two cells on one square");
        for c in &cells {
            let n: u16 = c.attribute("data-cell").unwrap().parse().unwrap();
            let (gx, gy) = plan.at(n).unwrap();
            assert_eq!(
                num(c, "x"),
                f64::from(20 + i32::from(gx) * 60),
                "{game} {n}"
            );
            assert_eq!(
                num(c, "y"),
                f64::from(44 + i32::from(gy) * 60),
                "{game} {n}"
            );
            assert!(num(c, "x") + 60.0 <= width && num(c, "y") + 60.0 <= height);
        }
        let jumps = with_class(&doc, "jump");
        let legend = rulebook::narrate::legend::Legend::of(&race);
        let go_to: usize = legend.entries.iter().map(|e| e.jumps.len()).sum();
        match race.layout {
            Layout::Serpentine(_) => {
                assert_eq!(with_class(&doc, "ladder").len(), 9, "{game}");
                assert_eq!(with_class(&doc, "snake").len(), 10, "{game}");
                assert_eq!(with_class(&doc, "snake-head").len(), 10, "{game}");
                assert_eq!(jumps.len(), 19, "{game}");
            }
            Layout::Cross => {
                let c = race.circuit.as_ref().unwrap();
                let homes = with_class(&doc, "home");
                let drawn = if plan.middle == 3 { c.home - 1 } else { c.home };
                assert_eq!(homes.len(), 4 * usize::from(drawn), "{game}");
                assert_eq!(with_class(&doc, "yard").len(), 4, "{game}");
                assert_eq!(with_class(&doc, "middle").len(), 4, "{game}");
                assert_eq!(with_class(&doc, "start").len(), 4, "{game}");
                for h in &homes {
                    let at = (num(h, "x") as i64, num(h, "y") as i64);
                    assert!(!corners.contains(&at), "{game}: a home cell on the loop");
                }
                // Every piece is out, four in each corner.
                let yards = with_class(&doc, "yard");
                let pieces = with_class(&doc, "piece");
                for y in &yards {
                    let (x0, y0) = (num(y, "x"), num(y, "y"));
                    let (x1, y1) = (x0 + num(y, "width"), y0 + num(y, "height"));
                    let inside = pieces
                        .iter()
                        .filter(|p| {
                            let (px, py) = (num(p, "cx"), num(p, "cy"));
                            (x0..x1).contains(&px) && (y0..y1).contains(&py)
                        })
                        .count();
                    let seat = y.attribute("data-seat").unwrap();
                    let playing = race
                        .seats
                        .iter()
                        .take(usize::from(race.min_players))
                        .any(|s| s == seat);
                    assert_eq!(inside, if playing { 4 } else { 0 }, "{game}: {seat}");
                }
            }
            _ => assert_eq!(jumps.len(), go_to, "{game}"),
        }
    }
}

#[test]
fn a_cross_draws_pieces_in_their_corners_home_cells_and_middle() {
    let text = svg_of(
        &[
            "show",
            "other/ludo",
            "--position",
            "green:red 5,h2,out,finished:green 20,out,out,out",
        ],
        "ludo-position.svg",
    );
    let doc = roxmltree::Document::parse(&text).unwrap();
    let plan = layout::plan(&load("other/ludo"));
    let pieces: Vec<(String, f64, f64)> = with_class(&doc, "piece")
        .iter()
        .map(|p| {
            (
                p.attribute("data-seat").unwrap().to_string(),
                num(p, "cx"),
                num(p, "cy"),
            )
        })
        .collect();
    let in_square = |(x, y): Spot, seat: &str| {
        let (x0, y0) = (
            f64::from(20 + i32::from(x) * 60),
            f64::from(44 + i32::from(y) * 60),
        );
        pieces
            .iter()
            .filter(|(s, px, py)| {
                s == seat && (x0..x0 + 60.0).contains(px) && (y0..y0 + 60.0).contains(py)
            })
            .count()
    };
    // Red: one on cell 5, one in its second home cell, one finished in
    // the middle's triangle, one out in its corner; green: one on 20,
    // three out.
    assert_eq!(in_square(plan.at(5).unwrap(), "red"), 1);
    assert_eq!(in_square(plan.homes[0][1], "red"), 1);
    assert_eq!(in_square(plan.homes[0][5], "red"), 1);
    assert_eq!(in_square(plan.at(20).unwrap(), "green"), 1);
    let corner = |seat: usize, name: &str| {
        let (x, y) = plan.yards[seat];
        (0..6)
            .flat_map(|i| (0..6).map(move |j| (x + i, y + j)))
            .map(|sq| in_square(sq, name))
            .sum::<usize>()
    };
    assert_eq!(corner(0, "red"), 1);
    assert_eq!(corner(1, "green"), 3);
}

// ------------------------------------------------------------------ the web page

#[test]
fn the_play_page_draws_a_cross_and_a_serpentine_on_a_desktop_and_a_phone() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("race-layout");
    for (w, h, suffix) in [(1280u32, 800u32, ""), (390, 844, "-phone")] {
        page_size(&b, w, h);
        open(&b, "other/ludo");
        // The cross: four corners, five home cells up each arm, the
        // middle's four triangles, the 52 cells of the loop.
        assert_eq!(count(&b, "#track-svg rect.cell"), 52);
        assert_eq!(count(&b, "#track-svg rect.yard"), 4);
        assert_eq!(count(&b, "#track-svg rect.home"), 20);
        assert_eq!(count(&b, "#track-svg polygon.middle"), 4);
        assert_track_fits(&b, w);
        // The Roll button in view without scrolling, touch-sized on a phone.
        let roll = rect(&b, "#roll");
        assert!(roll[1] <= f64::from(h), "{roll:?}");
        if suffix == "-phone" {
            assert!(roll[4] >= 44.0, "{roll:?}");
        }
        doc_shot(
            &b,
            &format!("cross{suffix}"),
            &format!("web-track-cross{suffix}.png"),
        );
        open(&b, "variants/snakes-and-ladders");
        assert_eq!(count(&b, "#track-svg rect.cell"), 100);
        assert_eq!(count(&b, "#track-svg path.ladder"), 9);
        assert_eq!(count(&b, "#track-svg path.snake"), 10);
        // Cell 1 at the bottom left, 100 at the top left.
        let one = rect(&b, "#track-svg rect.cell[data-cell=\"1\"]");
        let hundred = rect(&b, "#track-svg rect.cell[data-cell=\"100\"]");
        assert!(
            one[0] > hundred[0] && (one[2] - hundred[2]).abs() < 1.0,
            "{one:?} {hundred:?}"
        );
        let wide = b.js("return document.documentElement.scrollWidth;");
        assert!(wide.as_u64().unwrap() <= u64::from(w), "{wide} px wide");
        // A few rolls: the pieces go up the ladders and down the snakes
        // on the drawing.
        for _ in 0..4 {
            b.wait("['roll', 'over'].includes(document.body.dataset.turn)", 30);
            if b.js("return document.body.dataset.turn;") == json!("over") {
                break;
            }
            roll_on_page(&b);
        }
        b.wait("['roll', 'over'].includes(document.body.dataset.turn)", 30);
        assert!(count(&b, "#track-svg circle.piece") >= 2);
        doc_shot(
            &b,
            &format!("serpentine{suffix}"),
            &format!("web-track-serpentine{suffix}.png"),
        );
    }
}

#[test]
fn a_click_on_a_cell_of_a_shaped_track_still_plays_its_move() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("race-layout-click");
    page_size(&b, 1280, 800);
    open(&b, "other/royal-game-of-ur");
    assert_eq!(count(&b, "#track-svg rect.cell"), 20);
    let mut clicked = false;
    for _ in 0..200 {
        b.wait(
            "['roll', 'choose', 'over'].includes(document.body.dataset.turn)",
            30,
        );
        match b.js("return document.body.dataset.turn;").as_str().unwrap() {
            "over" => break,
            "roll" => {
                roll_on_page(&b);
            }
            _ => {
                // A piece on the lanes that can move: click its cell.
                let cell = b.js(
                    "const c = state.choices.find((c) => c.cell !== null); return c ? c.cell : null;",
                );
                if let Some(cell) = cell.as_u64() {
                    let before = b.js("return state.turns.length;");
                    b.click(&format!("#track-svg rect.hit[data-cell=\"{cell}\"]"));
                    b.wait(&format!("state.turns.length > {before}"), 10);
                    let last = b.js("return state.turns[state.turns.length - 1].choice;");
                    assert!(last.as_str().is_some(), "{last}");
                    clicked = true;
                    break;
                }
                choose_first_on_page(&b);
            }
        }
    }
    assert!(clicked, "no piece on the lanes came to be clicked");
    b.shot("ur-clicked");
}
