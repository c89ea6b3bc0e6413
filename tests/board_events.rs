//! A board move's rule events and why a typed move is refused are data
//! (`board::Event`, `board::MoveError`), matched by variant, and
//! `narrate::board` words them.

use rulebook::board::refusal::{Instead, NothingToTake};
use rulebook::board::{Event, Match, MoveError, Position, Refusal, Tables};
use rulebook::load::{check, BundledLoader};

fn draughts() -> Tables {
    let checked = check(&BundledLoader, "draughts", &[]);
    match checked.board().cloned() {
        Some(t) => t,
        None => panic!("{}", checked.render()),
    }
}

/// The match of draughts at a position given as FEN.
fn at<'t>(t: &'t Tables, fen: &str) -> Match<'t> {
    Match::new(t, Position::parse(t, fen).unwrap())
}

fn square(t: &Tables, name: &str) -> rulebook::board::game::Sq {
    rulebook::board::position::parse_square(t, name).unwrap()
}

#[test]
fn a_double_capture_gives_two_capture_events_in_the_order_jumped() {
    let t = draughts();
    let mut m = at(&t, "W:W22,K30:B18,19");
    let mv = m.parse_move("22x15x24").unwrap();
    let events = m.play(&mv);
    let man = match events.first() {
        Some(Event::Capture { kind, .. }) => *kind,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        events,
        vec![
            Event::Capture {
                kind: man,
                square: square(&t, "18")
            },
            Event::Capture {
                kind: man,
                square: square(&t, "19")
            },
        ]
    );
    let words: Vec<String> = events
        .iter()
        .map(|e| rulebook::narrate::board::describe(&t, e))
        .collect();
    assert_eq!(words, ["captures the man on 18", "captures the man on 19"]);
}

#[test]
fn a_step_when_a_capture_exists_is_refused_by_the_compulsory_capture() {
    let t = draughts();
    let m = at(&t, "W:W22,K30:B18,19");
    let err = m.parse_move("22-17").unwrap_err();
    let MoveError::Refused {
        algebraic: false,
        rule: Refusal::CaptureCompulsory { captures },
    } = &err
    else {
        panic!("{err:?}");
    };
    let notations: Vec<&str> = captures.iter().map(|m| m.notation.as_str()).collect();
    assert_eq!(notations, ["22x15x24"]);
    assert_eq!(
        rulebook::narrate::board::refusal(&t, &err),
        "a capture is compulsory: 22x15x24"
    );
}

#[test]
fn a_capture_over_an_empty_square_names_the_square_and_the_captures() {
    let t = draughts();
    let m = at(&t, "W:W22,K30:B18,19");
    let err = m.parse_move("22x13").unwrap_err();
    match &err {
        MoveError::Refused {
            rule:
                Refusal::NothingToTake {
                    what: NothingToTake::Empty { square: s },
                    instead: Instead::Captures(captures),
                },
            ..
        } => {
            assert_eq!(*s, square(&t, "17"));
            assert_eq!(captures.len(), 1);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn other_refusals_are_told_apart_by_variant() {
    let t = draughts();
    let m = at(&t, "W:W22,K30:B18,19");
    assert_eq!(m.parse_move(""), Err(MoveError::Empty));
    assert_eq!(
        m.parse_move("22--18"),
        Err(MoveError::Malformed {
            text: "22--18".into()
        })
    );
    assert!(matches!(m.parse_move("99-18"), Err(MoveError::Square(_))));
    assert!(matches!(
        m.parse_move("21-17"),
        Err(MoveError::Refused {
            rule: Refusal::NoPiece { .. },
            ..
        })
    ));
    assert!(matches!(
        m.parse_move("18-23"),
        Err(MoveError::Refused {
            rule: Refusal::NotYours { .. },
            ..
        })
    ));
}

#[test]
fn an_unknown_agent_is_an_agent_error_with_its_name() {
    let t = draughts();
    let g = rulebook::agents::BoardGame::new(&t);
    let s = g.start();
    let strength = rulebook::agents::Strength::default();
    let err = rulebook::agents::by_name("minimax", 1, strength, &s).err();
    assert_eq!(
        err,
        Some(rulebook::agents::AgentError::Unknown {
            name: "minimax".into()
        })
    );
    let human = rulebook::agents::by_name("human", 1, strength, &s).err();
    assert_eq!(human, Some(rulebook::agents::AgentError::Human));
}
