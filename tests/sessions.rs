//! One decision between board and race (issue 26, item 2): loading gives
//! one enum of compiled games (a board game with its tables built, or a
//! race game), and a game in progress of either kind offers the same verbs
//! with the same result shapes (`session::Session`), so that code written
//! once plays both.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use rulebook::agents::Strength;
use rulebook::board::Position;
use rulebook::load::{check, BundledLoader, Kind, Loaded};
use rulebook::record::{Header, Written};
use rulebook::session::{
    BoardSession, Ending, Next, RaceEnding, RaceNext, RaceSession, Session, Undo,
};

/// Every bundled game loads as exactly one kind, the kind its summary
/// names; a board game comes with its tables built.
#[test]
fn loading_gives_one_kind_and_a_board_game_its_tables() {
    let (mut boards, mut races) = (0, 0);
    for (name, _) in rulebook::bundled::GAMES {
        let checked = check(&BundledLoader, name, &[]);
        let summary = checked.summary().unwrap();
        match checked.loaded.as_ref().unwrap() {
            Loaded::Board(t) => {
                boards += 1;
                assert_eq!(summary.kind, Kind::Board, "{name}");
                assert_eq!(
                    t.squares(),
                    t.game().squares.len(),
                    "{name}: the tables are built"
                );
                assert!(checked.race().is_none() && checked.board().is_some());
            }
            Loaded::Race(r) => {
                races += 1;
                assert_eq!(summary.kind, Kind::Race, "{name}");
                assert_eq!(summary.title, r.title);
                assert!(checked.board().is_none() && checked.race().is_some());
            }
        }
        let loaded = checked.loaded.as_ref().unwrap();
        assert_eq!(loaded.kind(), summary.kind, "{name}");
        assert_eq!(loaded.title(), summary.title, "{name}");
    }
    assert!(
        boards > 0 && races > 0,
        "{boards} board games, {races} race games"
    );
    // A file with errors loads as neither.
    let bad = rulebook::load::check_source(
        rulebook::load::Source {
            name: "bad.rules".into(),
            text: "game \"x\"\nboard 0 x 0\n".into(),
        },
        &BundledLoader,
        &[],
    );
    assert!(bad.errors() > 0 && bad.loaded.is_none() && bad.summary().is_none());
}

/// What a front end written once for any kind does: nothing to undo at
/// the start, the person to move resigns, a second resignation does
/// nothing, and the record says who resigned and is written where asked.
fn resign_at_the_start<S: Session>(s: &mut S, path: &std::path::Path) -> (String, String) {
    assert_eq!(s.undo(), Undo::Nothing);
    assert!(s.redo().unwrap().is_none(), "nothing was taken back");
    assert!(s.ending().is_none() && s.result().is_none());
    s.record_to(path).unwrap();
    assert_eq!(s.record_news(), Written::Ok);
    assert!(s.resign().is_some(), "the game was not over");
    assert!(s.resign().is_none(), "a game over can't be resigned again");
    assert!(s.ending().is_some());
    assert_eq!(s.record_news(), Written::Ok);
    let result = s.result().unwrap();
    assert_eq!(result.reason, "resigned");
    let text = s.record_text();
    assert_eq!(std::fs::read_to_string(path).unwrap(), text);
    (result.resigned.unwrap(), text)
}

#[test]
fn board_and_race_sessions_answer_the_same_verbs() {
    let scratch = common::scratch();
    let humans = vec!["human".to_string(); 2];

    let t = check(&BundledLoader, "draughts", &[]).into_board().unwrap();
    let view = BoardSession::players_view(&t);
    let mut board = BoardSession::new(&view, Position::start(&t), &humans, 1, Strength::default())
        .unwrap()
        .named("draughts", &[]);
    assert!(matches!(board.advance().unwrap(), Next::Person));
    assert!(board.hint().is_some());
    let (who, text) = resign_at_the_start(&mut board, &scratch.path().join("board.jsonl"));
    assert_eq!(who, "white");
    assert!(text.starts_with("{\"game\":\"draughts\""), "{text}");
    assert_eq!(board.ending(), Some(Ending::Resigned(0)));
    assert!(matches!(
        board.advance().unwrap(),
        Next::Over(Ending::Resigned(0))
    ));

    let race = check(&BundledLoader, "slow-and-steady", &[])
        .into_race()
        .unwrap();
    let header = Header {
        game: "slow-and-steady".into(),
        ..Header::default()
    };
    let mut race =
        RaceSession::new(&race, &humans, 1, Strength::default(), 10_000, header, None).unwrap();
    assert!(matches!(race.advance().unwrap(), RaceNext::Person(_)));
    let (who, text) = resign_at_the_start(&mut race, &scratch.path().join("race.jsonl"));
    assert_eq!(who, race.game().seats[0]);
    assert!(text.starts_with("{\"game\":\"slow-and-steady\""), "{text}");
    assert_eq!(race.ending(), Some(RaceEnding::Resigned(0)));
    assert!(matches!(
        race.advance().unwrap(),
        RaceNext::Over(RaceEnding::Resigned(0))
    ));
}

/// Undo and redo have one shape for both kinds: a turn taken back is
/// `Undo::Back`, and redo gives the turn played again.
#[test]
fn undo_and_redo_have_one_shape() {
    let humans = vec!["human".to_string(); 2];
    let t = check(&BundledLoader, "draughts", &[]).into_board().unwrap();
    let view = BoardSession::players_view(&t);
    let mut board =
        BoardSession::new(&view, Position::start(&t), &humans, 1, Strength::default()).unwrap();
    for _ in 0..2 {
        let m = board.game().legal()[0].clone();
        board.play_turn(&m);
    }
    assert_eq!(Session::undo(&mut board), Undo::Back);
    let again = Session::redo(&mut board).unwrap().unwrap();
    assert_eq!((again.ply, again.side), (1, 0));

    let game = check(&BundledLoader, "slow-and-steady", &[])
        .into_race()
        .unwrap();
    let header = Header::default();
    let mut race =
        RaceSession::new(&game, &humans, 5, Strength::default(), 10_000, header, None).unwrap();
    // Play until a person has chosen among several choices, then once more.
    let mut chosen = 0;
    while chosen < 2 {
        let RaceNext::Person(_) = race.advance().unwrap() else {
            panic!("two people play");
        };
        let several = race.choices().len() > 1;
        let c = race.choices()[0];
        race.choose(c).unwrap();
        chosen += usize::from(several);
    }
    assert!(matches!(race.advance().unwrap(), RaceNext::Person(_)));
    assert_eq!(Session::undo(&mut race), Undo::Back);
    assert!(matches!(race.advance().unwrap(), RaceNext::Person(_)));
    let again = Session::redo(&mut race).unwrap();
    assert!(again.is_some(), "the choice taken back is played again");
}

/// A race game resumed from its record with a flag of board games: its
/// warnings come first, then the refusal, as when the game was loaded
/// twice (once to learn its kind).
#[test]
fn a_resumed_race_game_warns_before_refusing_a_board_flag() {
    let scratch = common::scratch();
    let dir = scratch.path();
    let rules = std::fs::read_to_string("games/slow-and-steady.rules").unwrap();
    let rules = format!("{rules}landing on cells 50 and digit 9: forward 3\n");
    std::fs::write(dir.join("ss.rules"), rules).unwrap();
    let record = dir.join("game.jsonl");
    std::fs::write(
        &record,
        "{\"game\":\"ss.rules\",\"options\":[],\"players\":2,\"seed\":1}\n",
    )
    .unwrap();
    let (code, out, err) = common::run(&[
        "play",
        "--resume",
        record.to_str().unwrap(),
        "--white",
        "human",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    let warning = err.find("warning[W005]").expect(&err);
    let refusal = err
        .find("`--white` names a side of a board game")
        .expect(&err);
    assert!(warning < refusal, "{err}");
}
