//! A board game in progress through the library's session (`BoardSession`):
//! moves by prefix and square by square, undo, redo, hint and the record.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::agents::Strength;
use rulebook::board::{Position, Tables};
use rulebook::load::{check, BundledLoader};
use rulebook::session::{BoardSession, Ending, Entry, Next, Undo};
fn draughts() -> Tables {
    check(&BundledLoader, "draughts", &[]).into_board().unwrap()
}

#[test]
fn moves_by_prefix_undo_redo_and_the_record() {
    let t = draughts();
    let view = BoardSession::players_view(&t);
    let humans = vec!["human".to_string(); 2];
    let mut s = BoardSession::new(&view, Position::start(&t), &humans, 1, Strength::default())
        .unwrap()
        .named("draughts", &[]);
    assert!(s.human_to_move() && s.has_humans());
    assert_eq!(s.undo(), Undo::Nothing);
    let Entry::Play(m) = s.enter("", "24-2") else {
        panic!("a unique prefix is a move")
    };
    assert_eq!(m.notation, "24-20");
    assert!(matches!(s.enter("", "2"), Entry::Unclear(_)));
    assert!(matches!(s.enter("", "11-19"), Entry::Illegal(_)));
    s.play(&m);
    let reply = s.hint().unwrap();
    s.play(&reply);
    assert_eq!(s.undo(), Undo::Back);
    assert_eq!(s.game().plies, 0);
    assert_eq!(
        s.redo().unwrap().map(|t| t.mv.notation),
        Some("24-20".to_string())
    );
    let record = s.record();
    assert_eq!(record.plies.len(), 1);
}

#[test]
fn a_capture_typed_square_by_square() {
    let t = draughts();
    let view = BoardSession::players_view(&t);
    // White on 27 takes 23, then from 18 either 14 or 15: 27x18x9 and
    // 27x18x11.
    let pos = Position::parse(&t, "W:W27:B23,15,14").unwrap();
    let humans = vec!["human".to_string(); 2];
    let s = BoardSession::new(&view, pos, &humans, 1, Strength::default()).unwrap();
    let legal: Vec<&str> = s
        .game()
        .legal()
        .iter()
        .map(|m| m.notation.as_str())
        .collect();
    match s.enter("", "27") {
        Entry::GoOn { so_far, moves } => {
            assert_eq!(so_far, "27");
            assert_eq!(moves, vec!["27x18x11", "27x18x9"]);
            assert!(matches!(s.enter("27", "18"), Entry::GoOn { .. }));
            let Entry::Play(m) = s.enter(&so_far, &moves[0][3..]) else {
                panic!("the rest of the path is a move")
            };
            assert_eq!(m.notation, moves[0]);
        }
        other => panic!("{other:?} for {legal:?}"),
    }
    let computer = vec!["random".to_string(), "human".to_string()];
    let mut c = BoardSession::new(
        &view,
        Position::start(&t),
        &computer,
        1,
        Strength::default(),
    )
    .unwrap();
    assert!(!c.human_to_move());
    assert!(c.computer_move().is_some());
}

#[test]
fn the_game_advances_turn_by_turn_to_its_end() {
    let t = draughts();
    let view = BoardSession::players_view(&t);
    // Two computer players: each advance plays one turn, numbered from 1,
    // until the ply limit ends the game undecided.
    let computers = vec!["random".to_string(), "random".to_string()];
    let mut s = BoardSession::new(
        &view,
        Position::start(&t),
        &computers,
        3,
        Strength::default(),
    )
    .unwrap()
    .with_max_plies(6);
    for ply in 1..=6 {
        let Next::Played(turn) = s.advance().unwrap() else {
            panic!("a computer player is to move")
        };
        assert_eq!(turn.ply, ply);
        assert_eq!(turn.side, usize::from(ply % 2 == 0));
        assert_eq!(s.game().played().last(), Some(&turn.mv));
        assert_eq!(turn.ending.is_some(), ply == 6, "{turn:?}");
    }
    assert!(matches!(s.advance().unwrap(), Next::Over(Ending::Limit(6))));
    assert_eq!(s.ending(), Some(Ending::Limit(6)));

    // A person is to move: the front end gives the move.
    let humans = vec!["human".to_string(); 2];
    let mut s =
        BoardSession::new(&view, Position::start(&t), &humans, 1, Strength::default()).unwrap();
    assert!(matches!(s.advance().unwrap(), Next::Person));
    let Entry::Play(m) = s.enter("", "22-18") else {
        panic!("22-18 is legal")
    };
    let turn = s.play_turn(&m);
    assert_eq!((turn.ply, turn.side, turn.ending), (1, 0, None));
    // The side to move (the second) resigns: the first wins.
    assert_eq!(s.resign(), Some(Ending::Resigned(1)));
    assert_eq!(s.winners_if_resigns(1), vec![0]);
    assert!(matches!(
        s.advance().unwrap(),
        Next::Over(Ending::Resigned(1))
    ));
    assert_eq!(s.resign(), None, "a game over can't be resigned again");

    // A game the rules end: the last man taken.
    let pos = Position::parse(&t, "W:W27:B23").unwrap();
    let mut s = BoardSession::new(&view, pos, &computers, 1, Strength::default()).unwrap();
    let Next::Played(turn) = s.advance().unwrap() else {
        panic!("white takes")
    };
    assert_eq!(turn.mv.notation, "27x18");
    assert!(matches!(turn.ending, Some(Ending::Rules(_))), "{turn:?}");
    assert!(matches!(s.advance().unwrap(), Next::Over(Ending::Rules(_))));
}

/// A race game through `RaceSession::advance`: computer turns come back
/// played, a person's roll waits (the same roll until they choose), the game
/// ends by the rules or at the limit of rolls.
#[test]
fn a_race_game_advances_turn_by_turn() {
    use rulebook::record::Header;
    use rulebook::session::{RaceEnding, RaceNext, RaceSession};
    let game = check(&BundledLoader, "slow-and-steady", &[])
        .into_race()
        .unwrap();
    let header = Header {
        game: "slow-and-steady".into(),
        ..Header::default()
    };
    let names = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
    // Two computers: to the end; every turn numbered in order.
    let mut s = RaceSession::new(
        &game,
        &names("random", "first"),
        3,
        Strength::default(),
        10_000,
        header.clone(),
        None,
    )
    .unwrap();
    let mut number = 0;
    loop {
        match s.advance().unwrap() {
            RaceNext::Played(p) => {
                number += 1;
                assert_eq!(p.number, number);
            }
            RaceNext::Over(RaceEnding::Limit(n)) => panic!("limit reached after {n} rolls"),
            RaceNext::Over(_) => break,
            RaceNext::Person(_) => panic!("no person plays"),
        }
    }
    assert!(s.is_over());
    assert_eq!(s.state().rolls(), number);
    assert!(matches!(s.advance().unwrap(), RaceNext::Over(_)));
    // A person first: the roll waits for them, the computer plays after.
    let mut s = RaceSession::new(
        &game,
        &names("human", "first"),
        3,
        Strength::default(),
        10_000,
        header.clone(),
        None,
    )
    .unwrap();
    let RaceNext::Person(roll) = s.advance().unwrap() else {
        panic!("the person rolls first");
    };
    let RaceNext::Person(again) = s.advance().unwrap() else {
        panic!("still the person's turn");
    };
    assert_eq!(
        roll.faces(),
        again.faces(),
        "the same roll until they choose"
    );
    let c = s.choices()[0];
    let p = s.choose(c).unwrap();
    assert_eq!((p.number, p.seat), (1, 0));
    let RaceNext::Played(p) = s.advance().unwrap() else {
        panic!("the computer's turn");
    };
    assert_eq!((p.number, p.seat), (2, 1));
    // The limit of rolls.
    let mut s = RaceSession::new(
        &game,
        &names("random", "random"),
        3,
        Strength::default(),
        5,
        header,
        None,
    )
    .unwrap();
    for _ in 0..5 {
        assert!(matches!(s.advance().unwrap(), RaceNext::Played(_)));
    }
    assert!(matches!(
        s.advance().unwrap(),
        RaceNext::Over(RaceEnding::Limit(5))
    ));
}

/// Issue 12, items 4 and 7: a session resumed from its record has the
/// moves to undo; a resignation is in the record, and a record that holds
/// one resumes as a game over.
#[test]
fn a_session_resumes_from_its_record_with_undo_and_resignation() {
    use rulebook::record::BoardRecord;
    let t = draughts();
    let view = BoardSession::players_view(&t);
    let humans = vec!["human".to_string(); 2];
    let mut s = BoardSession::new(&view, Position::start(&t), &humans, 7, Strength::default())
        .unwrap()
        .named("draughts", &[]);
    for text in ["22-18", "11-15"] {
        let Entry::Play(m) = s.enter("", text) else {
            panic!("{text} is legal")
        };
        s.play(&m);
    }
    let rec = BoardRecord::parse(&s.record().to_jsonl()).unwrap();
    assert_eq!(rec.header.seed, Some(7));
    assert_eq!(rec.header.agents, humans);
    let mut r = BoardSession::resume(&view, &rec, &humans, 7, Strength::default()).unwrap();
    assert_eq!(r.game().pos(), s.game().pos());
    assert_eq!(r.move_list(), vec!["1. 22-18 11-15".to_string()]);
    assert_eq!(r.undo(), Undo::Back);
    assert_eq!(r.game().pos(), &Position::start(&t));
    // Resigned: the record says who wins, and resumes as over.
    assert_eq!(s.resign(), Some(Ending::Resigned(0)));
    let rec = BoardRecord::parse(&s.record().to_jsonl()).unwrap();
    let result = rec.header.result.clone().unwrap();
    assert_eq!(
        (
            result.winner.as_deref(),
            result.reason.as_str(),
            result.resigned.as_deref()
        ),
        (Some("black"), "resigned", Some("white"))
    );
    let mut over = BoardSession::resume(&view, &rec, &humans, 7, Strength::default()).unwrap();
    assert!(matches!(
        over.advance(),
        Ok(Next::Over(Ending::Resigned(0)))
    ));
}
