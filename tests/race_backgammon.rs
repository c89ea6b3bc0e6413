//! Issue 27, third part: pieces that start on the track (`setup SEAT: N on
//! CELL, ...`), at work in house rules on bundled race games: where the
//! pieces stand at the start and after a restart, and the checker's
//! diagnostics of the new statement.

use rulebook::load::{check_source, BundledLoader, Source};
use rulebook::race::RaceState;

use crate::race::load_text;

// ------------------------------------------------------------------ setup

#[test]
fn a_setup_puts_pieces_on_the_paths_and_a_restart_puts_them_back() {
    let game = load_text(
        "extends \"other/royal-game-of-ur\"\ngame \"Ur, a head start\"\nsetup white: 2 on m3, 1 on a4\nsetup black: 1 on b2\n",
    );
    let state = RaceState::new(&game, 2).unwrap();
    let m3 = game.parse_label(0, "m3").unwrap();
    let a4 = game.parse_label(0, "a4").unwrap();
    let b2 = game.parse_label(1, "b2").unwrap();
    assert_eq!(state.pieces(0), &[m3, m3, a4, 0, 0, 0, 0]);
    assert_eq!(state.pieces(1), &[b2, 0, 0, 0, 0, 0, 0]);
    let mut again = state.clone();
    again.set_pieces(&game, 0, &[0; 7]).unwrap();
    again.restart(&game);
    assert_eq!(again, state);
}

#[test]
fn a_setup_on_a_numbered_track_and_on_a_loop() {
    let track = load_text(
        "game \"T\"\ntrack 30\nplayers 2\npieces 3 per player\ndice 1 d6\nsetup blue: 2 on 29, 1 on 4\n",
    );
    let state = RaceState::new(&track, 2).unwrap();
    assert_eq!(state.pieces(0), &[0, 0, 0]);
    assert_eq!(state.pieces(1), &[29, 29, 4]);
    // On a loop the cell is a cell of the loop: green starts on 14, so the
    // loop's cell 15 is its second step.
    let ludo = load_text("extends \"other/ludo\"\ngame \"L\"\nsetup green: 1 on 15, 1 on 13\n");
    let state = RaceState::new(&ludo, 2).unwrap();
    assert_eq!(state.pieces(1), &[52, 2, 0, 0]);
    assert_eq!(ludo.label(1, 2), "15");
}

/// A Ur-like game with `lines` added.
fn diagnose(lines: &str) -> String {
    let text = format!(
        "game \"Test\"\nplayers 2\nseats white black\npieces 7 per player\nfinish exact\npath white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 4 sticks\n{lines}"
    );
    let checked = check_source(
        Source {
            name: "test.rules".into(),
            text,
        },
        &BundledLoader,
        &[],
    );
    assert!(checked.loaded.is_none(), "{lines}: no error");
    checked.render()
}

#[test]
fn each_way_to_get_a_setup_wrong_is_named() {
    for (name, lines) in [
        (
            "setup-more-pieces-than-a-seat-has",
            "setup white: 5 on m3, 3 on a1\n",
        ),
        ("setup-off-the-seats-path", "setup white: 2 on b3\n"),
        ("setup-of-unknown-seat", "setup whte: 1 on a1\n"),
        ("setup-numbered-on-paths", "setup white: 1 on 5\n"),
        ("setup-on-a-run", "setup white: 1 on a1-a3\n"),
        ("setup-of-none", "setup white: 0 on a1\n"),
        ("setup-on-unknown-cell", "setup black: 1 on m9\n"),
        (
            "setup-twice",
            "setup white: 1 on a1\nsetup white: 1 on a2\n",
        ),
    ] {
        insta::assert_snapshot!(format!("diagnostic-{name}"), diagnose(lines));
    }
    let on_track = check_source(
        Source {
            name: "test.rules".into(),
            text: "game \"T\"\ntrack 30\nplayers 2\ndice 1 d6\nsetup red: 1 on 30, 1 on p3\n"
                .into(),
        },
        &BundledLoader,
        &[],
    );
    insta::assert_snapshot!("diagnostic-setup-on-a-numbered-track", on_track.render());
}

#[test]
fn a_setup_keeps_its_spelling_in_fmt() {
    let text = "setup white: 2 on p24, 5 on p13, 3 on p8, 5 on p6\n";
    let formatted = rulebook::format_rules::format_text(text).unwrap();
    assert_eq!(formatted, text);
    let messy = "setup   white :2 on p24 ,5 on p13\n";
    assert_eq!(
        rulebook::format_rules::format_text(messy).unwrap(),
        "setup white: 2 on p24, 5 on p13\n"
    );
}
