//! Typed errors (issue 26, item 3): the library's failures are enums a
//! caller matches by variant, each with the fields it needs, and their
//! `Display` is the message people read.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use rulebook::agents::Strength;
use rulebook::board::Position;
use rulebook::lab::{LabError, Shard};
use rulebook::load::{check, BundledLoader, LoadError, Loader};
use rulebook::narrate::race::{parse_position, PositionTextError};
use rulebook::session::{BoardSession, SessionError};
use rulebook::source::{read_text, ReadError};

/// The bounded reader says why it refuses a file, by variant: a folder, a
/// file past the limit (with the limit), text that is not UTF-8 (with the
/// line), a file that is not there (with the I/O error).
#[test]
fn the_reader_refuses_by_variant() {
    let scratch = common::scratch();
    let dir = scratch.path();
    assert!(matches!(
        read_text(dir, 100, "a rule file"),
        Err(ReadError::Directory {
            what: "a rule file"
        })
    ));
    let big = dir.join("big.rules");
    std::fs::write(&big, vec![b'x'; 200]).unwrap();
    let e = read_text(&big, 100, "a rule file").unwrap_err();
    assert!(
        matches!(
            e,
            ReadError::TooLarge {
                size: 200,
                limit: 100,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "it is 200 bytes, and a rule file may be at most 100 bytes (see docs/limits.md)"
    );
    let bad = dir.join("bad.rules");
    std::fs::write(&bad, b"fine\n\xff\n").unwrap();
    assert!(matches!(
        read_text(&bad, 100, "a rule file"),
        Err(ReadError::NotText { line: 2 })
    ));
    let missing = dir.join("missing.rules");
    match read_text(&missing, 100, "a rule file") {
        Err(ReadError::Io { path, error }) => {
            assert_eq!(path, missing);
            assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{other:?}"),
    }
}

/// A loader's error names what it found missing.
#[test]
fn the_bundled_loader_names_the_game_it_has_not() {
    match BundledLoader.load("no-such-game", None) {
        Err(LoadError::NoBundledGame { name }) => assert_eq!(name, "no-such-game"),
        other => panic!("{other:?}"),
    }
}

/// A record that can't be written is a `SessionError::Record` with its
/// path and the I/O error.
#[test]
fn a_record_not_written_names_its_path_and_error() {
    let scratch = common::scratch();
    let t = check(&BundledLoader, "draughts", &[]).into_board().unwrap();
    let view = BoardSession::players_view(&t);
    let humans = vec!["human".to_string(); 2];
    let mut s =
        BoardSession::new(&view, Position::start(&t), &humans, 1, Strength::default()).unwrap();
    let path = scratch.path().join("no-folder").join("game.jsonl");
    match s.record_to(&path) {
        Err(SessionError::Record { path: p, error }) => {
            assert_eq!(p, path);
            assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{:?}", other.err()),
    }
    let unknown = vec!["human".to_string(), "nobody".to_string()];
    assert!(matches!(
        BoardSession::new(&view, Position::start(&t), &unknown, 1, Strength::default()),
        Err(SessionError::Player(_))
    ));
}

/// The lab's and the race position reader's errors, by variant.
#[test]
fn a_bad_shard_and_a_bad_position_by_variant() {
    match Shard::parse("4/4") {
        Err(LabError::Shard { text }) => assert_eq!(text, "4/4"),
        other => panic!("{other:?}"),
    }
    let game = check(&BundledLoader, "slow-and-steady", &[])
        .loaded
        .and_then(|l| match l {
            rulebook::load::Loaded::Race(g) => Some(g),
            rulebook::load::Loaded::Board(_) => None,
        })
        .unwrap();
    assert_eq!(
        parse_position(&game, ""),
        Err(PositionTextError::NoSeatToRoll)
    );
    match parse_position(&game, "nobody:red 9") {
        Err(PositionTextError::NotASeat { text, seats }) => {
            assert_eq!(text, "nobody");
            assert!(!seats.is_empty());
        }
        other => panic!("{other:?}"),
    }
}
