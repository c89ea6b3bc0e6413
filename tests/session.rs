//! A board game in progress through the library's session (`BoardSession`):
//! moves by prefix and square by square, undo, redo, hint and the record.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::agents::Strength;
use rulebook::board::{Position, Tables};
use rulebook::load::{check, BundledLoader};
use rulebook::session::{BoardSession, Entry, Undo};
fn draughts() -> Tables {
    Tables::new(check(&BundledLoader, "draughts", &[]).game.unwrap())
}

#[test]
fn moves_by_prefix_undo_redo_and_the_record() {
    let t = draughts();
    let view = BoardSession::players_view(&t);
    let humans = vec!["human".to_string(); 2];
    let mut s =
        BoardSession::new(&view, Position::start(&t), &humans, 1, Strength::default()).unwrap();
    assert!(s.human_to_move() && s.has_humans());
    assert_eq!(s.undo_turn(), Undo::Nothing);
    let Entry::Play(m) = s.enter("", "24-2") else {
        panic!("a unique prefix is a move")
    };
    assert_eq!(m.notation, "24-20");
    assert!(matches!(s.enter("", "2"), Entry::Unclear(_)));
    assert!(matches!(s.enter("", "11-19"), Entry::Illegal(_)));
    s.play(&m);
    let reply = s.hint().unwrap();
    s.play(&reply);
    assert_eq!(s.undo_turn(), Undo::Back);
    assert_eq!(s.game().plies, 0);
    assert_eq!(s.redo().map(|(m, _)| m.notation), Some("24-20".to_string()));
    let record = s.record("draughts", &[]);
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
