//! Paths drawn as a cross (issue 27, item 1): `layout cross` on a track
//! written as `path` statements. The shape worked out from the paths
//! (`rulebook::vocab::cross`: the loop, each seat's home column and arm),
//! Parcheesi's cells where the plan puts them (every cell once, no two on
//! one square, the loop round the cross, each home column in line from
//! its arm's tip to the middle, each corner beside its start cell), the
//! checker's diagnostics of paths that have no cross's shape (snapshots),
//! the terminal's cross, the SVG, and the play page in headless Chromium
//! at 1280 x 800 and 390 x 844.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use rulebook::layout::{self, Spot};
use rulebook::race::game::{Layout, RaceGame};
use rulebook::vocab::cross::{path_cross, NotCross};

use crate::common::{
    assert_track_fits, choose_first_on_page, count, open, page_size, rect, roll_on_page,
};
use crate::race_layout::{diagnostics, num, svg_of, with_class};
use crate::web_browser::{Browser, ONE_AT_A_TIME};

fn parcheesi() -> RaceGame {
    crate::race::load("other/parcheesi", &[])
}

/// Steps between two squares along rows and columns.
fn steps(a: Spot, b: Spot) -> u16 {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1)
}

/// Steps between two squares as a king moves (a diagonal is one).
fn king(a: Spot, b: Spot) -> u16 {
    a.0.abs_diff(b.0).max(a.1.abs_diff(b.1))
}

// ------------------------------------------------------------------ the shape

#[test]
fn parcheesis_paths_are_a_loop_of_68_and_four_home_columns_of_7() {
    let game = parcheesi();
    assert_eq!(game.layout, Layout::Cross);
    let paths = game.paths.as_ref().unwrap();
    let shape = path_cross(paths).unwrap();
    // The loop: c1 to c68 in order, from the cell after red's last loop
    // cell (c68, where red's home column leaves it).
    let names: Vec<&str> = shape.ring.iter().map(|&c| paths.name(c)).collect();
    let expected: Vec<String> = (1..=68).map(|i| format!("c{i}")).collect();
    assert_eq!(names, expected);
    assert_eq!(shape.arm, 8);
    // Each seat on an arm of its own, a quarter turn apart in seat order.
    assert_eq!(shape.arms, vec![0, 1, 2, 3]);
    for (seat, letter) in ["r", "b", "g", "y"].iter().enumerate() {
        let home: Vec<&str> = shape.homes[seat].iter().map(|&c| paths.name(c)).collect();
        let want: Vec<String> = (1..=7).map(|i| format!("{letter}{i}")).collect();
        assert_eq!(home, want, "seat {seat}");
    }
    // Two seats only (the first two paths): the same loop, two arms.
    let two = crate::race::load_text(
        "game \"T\"\npath red: c5-c68 r1-r7\npath blue: c22-c68 c1-c17 b1-b7\nplayers 2\ndice 2 d6\nlayout cross\n",
    );
    let shape = path_cross(two.paths.as_ref().unwrap()).unwrap();
    assert_eq!(shape.ring.len(), 68);
    assert_eq!(shape.arms, vec![0, 1]);
}

#[test]
fn parcheesi_is_drawn_round_a_cross_each_cell_once() {
    let game = parcheesi();
    let paths = game.paths.as_ref().unwrap();
    let shape = path_cross(paths).unwrap();
    let plan = layout::plan(&game);
    assert_eq!(plan.layout, Layout::Cross);
    // A grid of 19 x 19: arms of 8 round a middle of 3.
    assert_eq!((plan.width, plan.height, plan.arm), (19, 19, 8));
    assert_eq!(plan.centre, Some((9, 9)));
    assert_eq!(plan.middle, 3);
    // Every cell drawn once: 68 of the loop and 4 x 7 home cells, each on
    // a square of its own inside the grid.
    assert_eq!(plan.cells.len(), 96);
    assert_eq!(layout::last_cell(&game), 96);
    let squares: HashSet<Spot> = plan.cells.iter().copied().collect();
    assert_eq!(squares.len(), 96, "two cells on one square");
    for &(x, y) in &plan.cells {
        assert!(x < 19 && y < 19, "({x}, {y})");
    }
    // The loop: each cell beside the next, round and back to the first;
    // on the cross's arms (never in a corner or the middle).
    for (i, &c) in shape.ring.iter().enumerate() {
        let next = shape.ring[(i + 1) % shape.ring.len()];
        let (a, b) = (plan.at(c).unwrap(), plan.at(next).unwrap());
        assert_eq!(king(a, b), 1, "{} -> {}", paths.name(c), paths.name(next));
        let on_arm = (8..=10).contains(&a.0) || (8..=10).contains(&a.1);
        let in_middle = (8..=10).contains(&a.0) && (8..=10).contains(&a.1);
        assert!(on_arm && !in_middle, "{}: {a:?}", paths.name(c));
    }
    let loop_squares: HashSet<Spot> = shape.ring.iter().map(|&c| plan.at(c).unwrap()).collect();
    let centre = plan.centre.unwrap();
    let mut taken: HashSet<Spot> = loop_squares.clone();
    for (seat, home) in shape.homes.iter().enumerate() {
        // The plan's home squares are where the home column's cells are.
        let at: Vec<Spot> = home.iter().map(|&c| plan.at(c).unwrap()).collect();
        assert_eq!(plan.homes[seat], at, "seat {seat}");
        // In line towards the middle: the first beside the loop cell its
        // path leaves the loop at (the arm's tip), each next one step
        // nearer the middle along the arm's middle row or column, the last
        // beside the middle's three squares.
        let path = &paths.seats[seat];
        let tip = path[path.len() - home.len() - 1];
        let tip_at = plan.at(tip).unwrap();
        assert_eq!(steps(tip_at, at[0]), 1, "seat {seat}");
        assert!(
            tip_at.0 == 0 || tip_at.0 == 18 || tip_at.1 == 0 || tip_at.1 == 18,
            "seat {seat}: {tip_at:?} is no arm's tip"
        );
        for pair in at.windows(2) {
            assert_eq!(steps(pair[0], pair[1]), 1, "seat {seat}");
            assert_eq!(steps(pair[1], centre) + 1, steps(pair[0], centre));
        }
        assert!(
            at.iter().all(|s| s.0 == centre.0) || at.iter().all(|s| s.1 == centre.1),
            "seat {seat}: {at:?} is not in line with the middle"
        );
        assert_eq!(steps(*at.last().unwrap(), centre), 2, "seat {seat}");
        for sq in &at {
            assert!(taken.insert(*sq), "{sq:?} twice");
        }
        // The corner: arm x arm squares, empty, the start cell beside it.
        let (yx, yy) = plan.yards[seat];
        let corner: Vec<Spot> = (yx..yx + 8)
            .flat_map(|x| (yy..yy + 8).map(move |y| (x, y)))
            .collect();
        for sq in &corner {
            assert!(!squares.contains(sq), "{sq:?} of a corner is a cell");
        }
        let start = plan.at(path[0]).unwrap();
        assert!(
            corner.iter().any(|&sq| king(sq, start) == 1),
            "seat {seat}'s corner is not beside its start cell"
        );
    }
    // The four home columns up four different arms.
    let arms: HashSet<(bool, bool)> = plan
        .homes
        .iter()
        .map(|h| (h[0].0 < centre.0 || h[0].1 < centre.1, h[0].0 == centre.0))
        .collect();
    assert_eq!(arms.len(), 4, "{:?}", plan.homes);
}

#[test]
fn paths_of_other_shapes_are_no_cross() {
    let shape = |text: &str| {
        let game = crate::race::load_text(text);
        path_cross(game.paths.as_ref().unwrap())
    };
    // Ur: lanes of their own into a shared lane that is no loop.
    let ur = crate::race::load("other/royal-game-of-ur", &[]);
    assert!(matches!(
        path_cross(ur.paths.as_ref().unwrap()),
        Err(NotCross::Open { .. })
    ));
    // Backgammon: the same points, two ways round.
    let bg = crate::race::load("other/backgammon", &[]);
    assert!(matches!(
        path_cross(bg.paths.as_ref().unwrap()),
        Err(NotCross::TwoWays { .. })
    ));
    // A loop of 12 (arms of 1, no room for a home cell) with none: a
    // cross all the same.
    let small =
        shape("game \"S\"\npath red: c1-c12\npath blue: c4-c12 c1-c3\nplayers 2\ndice 1 d6\n")
            .unwrap();
    assert_eq!((small.arm, small.arms.clone()), (1, vec![0, 1]));
    assert!(small.homes.iter().all(Vec::is_empty));
    // A loop of 40 (an even quarter: corner cells, a middle of one
    // square) holds home columns as long as its arms.
    let even = shape(
        "game \"E\"\npath red: c1-c40 r1-r4\npath blue: c11-c40 c1-c10 b1-b4\nplayers 2\ndice 1 d6\n",
    )
    .unwrap();
    assert_eq!(even.arm, 4);
    let game = crate::race::load_text(
        "game \"E\"\npath red: c1-c40 r1-r4\npath blue: c11-c40 c1-c10 b1-b4\nplayers 2\ndice 1 d6\nlayout cross\n",
    );
    let plan = layout::plan(&game);
    assert_eq!((plan.width, plan.middle), (11, 1));
    let squares: HashSet<Spot> = plan.cells.iter().copied().collect();
    assert_eq!(squares.len(), 48);
    assert_eq!(
        steps(*plan.homes[0].last().unwrap(), plan.centre.unwrap()),
        1
    );
}

// ------------------------------------------------------------------ the checker

/// A game of `paths` drawn as a cross.
fn with_paths(paths: &str, players: &str) -> String {
    format!("game \"Cross\"\n{paths}players {players}\ndice 2 d6\nlayout cross\n")
}

#[test]
fn paths_that_have_no_cross_shape_are_said_where_they_are_written() {
    let cases = [
        (
            "nothing-shared",
            with_paths("path red: a1-a12\npath blue: b1-b12\n", "2"),
        ),
        (
            "two-ways",
            with_paths("path red: p1-p12\npath blue: p12-p1\n", "2"),
        ),
        (
            "no-loop",
            with_paths("path red: a1-a3 m1-m4 a4\npath blue: b1-b3 m1-m4 b4\n", "2"),
        ),
        (
            "a-lane-into-the-loop",
            with_paths(
                "path red: e1 c1-c12 r1\npath blue: c7-c12 c1-c6 b1 b2\n",
                "2",
            ),
        ),
        (
            "loop-of-50",
            with_paths("path red: c1-c50 r1\npath blue: c26-c50 c1-c25 b1\n", "2"),
        ),
        (
            "home-columns-not-a-quarter-apart",
            with_paths("path red: c1-c52 r1\npath blue: c16-c52 c1-c15 b1\n", "2"),
        ),
        (
            "two-home-columns-on-one-arm",
            with_paths(
                "path red: c1-c52 r1\npath blue: c1-c52 b1\npath green: c14-c52 c1-c13 g1\n",
                "3",
            ),
        ),
        (
            "home-column-too-long",
            with_paths(
                "path red: c1-c52 r1-r6\npath blue: c14-c52 c1-c13 b1-b6\n",
                "2",
            ),
        ),
        (
            "five-seats",
            format!(
                "game \"Cross\"\nseats a b c d e\n{}players 5\ndice 1 d6\nlayout cross\n",
                (0..5)
                    .map(|i| {
                        let start = 4 * i + 1;
                        if start == 1 {
                            "path a: c1-c20\n".to_string()
                        } else {
                            format!(
                                "path {}: c{start}-c20 c1-c{}\n",
                                ["a", "b", "c", "d", "e"][i],
                                start - 1
                            )
                        }
                    })
                    .collect::<String>()
            ),
        ),
    ];
    for (name, text) in cases {
        let rendered = diagnostics(&text);
        assert!(rendered.contains("[E070]"), "{name}:\n{text}\n{rendered}");
        // Only the layout is wrong: no other error.
        assert_eq!(rendered.matches("error[").count(), 1, "{name}:\n{rendered}");
        insta::assert_snapshot!(format!("diagnostic-paths-{name}"), rendered);
    }
    // Paths of a cross's shape: nothing to say; a house rule drawing Ur
    // as a cross is refused at its `layout`.
    for text in [
        with_paths(
            "path red: c5-c68 r1-r7\npath blue: c22-c68 c1-c17 b1-b7\n",
            "2",
        ),
        with_paths(
            "path red: c1-c40 r1-r4\npath blue: c11-c40 c1-c10 b1-b4\n",
            "2",
        ),
    ] {
        let rendered = diagnostics(&text);
        assert!(rendered.trim().is_empty(), "{text}\n{rendered}");
    }
    let ur = diagnostics(
        "extends \"other/royal-game-of-ur\"\ndescription \"Ur drawn round.\"\nlayout cross\n",
    );
    assert!(
        ur.contains("[E070]") && ur.contains("layout.rules:3:1"),
        "{ur}"
    );
}

// ------------------------------------------------------------------ the pictures

const POSITION: &str = "red:red c5,r3,out,finished:blue c22,c23,c23,out:green out,out,out,out:yellow c60,y7,finished,finished";

#[test]
fn the_terminal_draws_parcheesi_as_a_cross() {
    let (code, out, err) = crate::common::run(&["show", "other/parcheesi", "--position", POSITION]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // Two lines a square, 19 squares high, then the legend.
    let grid = &lines[..38];
    assert!(lines[38].starts_with("* safe cell"), "{out}");
    for line in grid {
        assert!(line.chars().count() <= 78, "{line:?}");
    }
    // Every cell's name once, on the first line of its square, where the
    // plan puts it (four characters a square).
    let game = parcheesi();
    let paths = game.paths.as_ref().unwrap();
    let plan = layout::plan(&game);
    let words: Vec<&str> = grid
        .iter()
        .step_by(2)
        .flat_map(|l| l.split_whitespace())
        .collect();
    let names: HashSet<&str> = words.iter().copied().filter(|w| *w != "home").collect();
    assert_eq!(names.len(), 96, "{out}");
    assert_eq!(words.len(), 97, "each name once, and home: {out}");
    for c in 1..=96u16 {
        let (x, y) = plan.at(c).unwrap();
        let name = paths.name(c);
        let line: Vec<char> = grid[2 * usize::from(y)].chars().collect();
        let square: String = line.iter().skip(4 * usize::from(x)).take(3).collect();
        assert_eq!(square.trim(), name, "{name} at ({x}, {y})");
    }
    // The pieces: under their cells, out in their corners, finished in
    // the middle.
    let under = |c: &str| {
        let n = paths.number(c).unwrap();
        let (x, y) = plan.at(n).unwrap();
        let line: Vec<char> = grid[2 * usize::from(y) + 1].chars().collect();
        line.iter()
            .skip(4 * usize::from(x))
            .take(3)
            .collect::<String>()
            .trim_end()
            .to_string()
    };
    assert_eq!(under("c5"), "*R");
    assert_eq!(under("r3"), "R");
    assert_eq!(under("c23"), "BB");
    assert_eq!(under("y7"), "Y");
    assert_eq!(under("c60"), "Y");
    let letters = |ch: char| grid.iter().map(|l| l.matches(ch).count()).sum::<usize>();
    assert_eq!(letters('R'), 4, "{out}");
    assert_eq!(letters('B'), 4, "{out}");
    assert_eq!(letters('G'), 4, "{out}");
    assert_eq!(letters('Y'), 4, "{out}");
    // Green's four out, in its corner (the bottom right).
    let (gx, gy) = plan.yards[2];
    let row = grid[2 * usize::from(gy) + 9];
    assert_eq!(row.matches('G').count(), 4, "{row}");
    assert!(row.find('G').unwrap() >= 4 * usize::from(gx), "{row}");
}

#[test]
fn the_svg_draws_parcheesi_as_a_cross_with_its_home_columns_and_corners() {
    let text = svg_of(
        &["show", "other/parcheesi", "--position", POSITION],
        "parcheesi-position.svg",
    );
    let doc = roxmltree::Document::parse(&text).unwrap();
    let game = parcheesi();
    let plan = layout::plan(&game);
    let paths = game.paths.as_ref().unwrap();
    let cells = with_class(&doc, "cell");
    assert_eq!(cells.len(), 96);
    let corners: HashSet<(i64, i64)> = cells
        .iter()
        .map(|c| (num(c, "x") as i64, num(c, "y") as i64))
        .collect();
    assert_eq!(corners.len(), 96, "two cells on one square");
    for c in &cells {
        let n: u16 = c.attribute("data-cell").unwrap().parse().unwrap();
        let (gx, gy) = plan.at(n).unwrap();
        assert_eq!(num(c, "x"), f64::from(20 + i32::from(gx) * 60));
        assert_eq!(num(c, "y"), f64::from(44 + i32::from(gy) * 60));
    }
    // The home columns' cells in their seats' colours, seven a seat; the
    // four corners, start cells and triangles of the middle.
    for seat in ["red", "blue", "green", "yellow"] {
        let home = cells
            .iter()
            .filter(|c| c.attribute("data-seat") == Some(seat))
            .count();
        assert_eq!(home, 7, "{seat}");
    }
    assert_eq!(with_class(&doc, "yard").len(), 4);
    assert_eq!(with_class(&doc, "middle").len(), 4);
    let starts = with_class(&doc, "start");
    assert_eq!(starts.len(), 4);
    for (s, seat) in starts.iter().zip(["red", "blue", "green", "yellow"]) {
        assert_eq!(s.attribute("data-seat"), Some(seat));
    }
    // The pieces where they stand: on the track, out in the corners,
    // finished in the middle.
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
    let inside = |(x0, y0): (f64, f64), side: f64, seat: &str| {
        pieces
            .iter()
            .filter(|(s, px, py)| {
                s == seat && (x0..x0 + side).contains(px) && (y0..y0 + side).contains(py)
            })
            .count()
    };
    let square = |(x, y): Spot| {
        (
            f64::from(20 + i32::from(x) * 60),
            f64::from(44 + i32::from(y) * 60),
        )
    };
    let cell = |name: &str| square(plan.at(paths.number(name).unwrap()).unwrap());
    assert_eq!(inside(cell("c5"), 60.0, "red"), 1);
    assert_eq!(inside(cell("r3"), 60.0, "red"), 1);
    assert_eq!(inside(cell("c23"), 60.0, "blue"), 2);
    assert_eq!(inside(cell("y7"), 60.0, "yellow"), 1);
    let corner = |seat: usize| square(plan.yards[seat]);
    assert_eq!(inside(corner(0), 480.0, "red"), 1);
    assert_eq!(inside(corner(1), 480.0, "blue"), 1);
    assert_eq!(inside(corner(2), 480.0, "green"), 4);
    assert_eq!(inside(corner(3), 480.0, "yellow"), 0);
    let (mx, my) = square((8, 8));
    assert_eq!(inside((mx, my), 180.0, "red"), 1);
    assert_eq!(inside((mx, my), 180.0, "yellow"), 2);
    // Red's finished piece in the middle's left third, by its home column;
    // yellow's in the bottom third.
    assert_eq!(inside(square((8, 9)), 60.0, "red"), 1);
    assert_eq!(inside(square((9, 10)), 60.0, "yellow"), 2);
}

#[test]
fn the_play_page_draws_parcheesi_as_a_cross_on_a_desktop_and_a_phone() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("race-cross");
    for (w, h, suffix) in [(1280u32, 800u32, ""), (390, 844, "-phone")] {
        page_size(&b, w, h);
        open(&b, "other/parcheesi");
        assert_eq!(count(&b, "#track-svg rect.cell"), 96);
        assert_eq!(count(&b, "#track-svg rect.cell[data-seat]"), 28);
        assert_eq!(count(&b, "#track-svg rect.yard"), 4);
        assert_eq!(count(&b, "#track-svg rect.start"), 4);
        assert_eq!(count(&b, "#track-svg polygon.middle"), 4);
        assert_track_fits(&b, w);
        // Red's start cell at the left arm, blue's at the top one.
        let red = rect(&b, "#track-svg rect.start[data-seat=\"red\"]");
        let blue = rect(&b, "#track-svg rect.start[data-seat=\"blue\"]");
        assert!(red[2] < blue[2] && red[0] > blue[0], "{red:?} {blue:?}");
        b.shot(&format!("parcheesi{suffix}"));
        // A few turns: the pieces enter on their start cells.
        for _ in 0..6 {
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
                    choose_first_on_page(&b);
                }
            }
        }
        assert!(count(&b, "#track-svg circle.piece") >= 8);
        b.shot(&format!("parcheesi-played{suffix}"));
    }
}
