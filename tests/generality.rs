//! The language says things no bundled game uses: four sides with their own
//! forward directions, orthogonal moves, captures in some directions only,
//! and a kind that men may not capture (tests/fixtures/games/four-winds.rules).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::board::{moves_of, Generator, Match, MoveList, Position, Tables};
use rulebook::load::{check, LoadError, Loader, Source};

struct Files;

impl Loader for Files {
    fn load(&self, name: &str, _base: Option<&str>) -> Result<Source, LoadError> {
        let text = std::fs::read_to_string(name).map_err(|e| LoadError::Loader(Box::new(e)))?;
        Ok(Source {
            name: name.to_string(),
            text,
        })
    }
}

fn four_winds() -> Tables {
    let checked = check(&Files, "tests/fixtures/games/four-winds.rules", &[]);
    assert_eq!(checked.warnings(), 0, "{}", checked.render());
    checked.into_board().unwrap()
}

fn moves(t: &Tables, fen: &str) -> Vec<String> {
    let mut p = Position::parse(t, fen).unwrap();
    let mut list = MoveList::new();
    Generator::new().generate(t, &mut p, &mut list);
    moves_of(t, &list)
        .into_iter()
        .map(|m| m.algebraic)
        .collect()
}

#[test]
fn each_side_moves_from_its_own_edge_orthogonally() {
    let t = four_winds();
    // South's forward is north: d4 steps to d5, and sideways to c4 and e4.
    assert_eq!(moves(&t, "S:Sd4:Wa1:Nh8:Eh1"), ["d4-d5", "d4-c4", "d4-e4"]);
    // West's forward is east: left is north.
    assert_eq!(moves(&t, "W:Sa8:Wd4:Nh8:Eh1"), ["d4-e4", "d4-d5", "d4-d3"]);
    // North and East.
    assert_eq!(moves(&t, "N:Sa8:Wa1:Nd4:Eh1"), ["d4-d3", "d4-e4", "d4-c4"]);
    assert_eq!(moves(&t, "E:Sa8:Wa1:Nh8:Ed4"), ["d4-c4", "d4-d3", "d4-d5"]);
}

#[test]
fn men_capture_forwards_only() {
    let t = four_winds();
    // An enemy behind the man can't be taken; one ahead-left must be.
    assert_eq!(moves(&t, "S:Sd4:Nd3:Wa1:Eh1"), ["d4-d5", "d4-c4", "d4-e4"]);
    assert_eq!(moves(&t, "S:Sd4:Nc5:Wa1:Eh1"), ["d4xb6"]);
}

#[test]
fn men_may_not_capture_a_chief() {
    let t = four_winds();
    assert_eq!(moves(&t, "S:Sd4:NCd5:Wa1:Eh1"), ["d4-c4", "d4-e4"]);
    // A chief may capture a chief.
    assert!(moves(&t, "N:SCd4:NCd5:Wa1:Eh1").contains(&"d5xd3".to_string()));
}

#[test]
fn turns_go_round_the_table_and_skip_sides_that_are_out() {
    let t = four_winds();
    let mut m = Match::new(&t, Position::parse(&t, "S:Sd4:Wa1:Nd6:Eh1").unwrap());
    let mv = m.parse_move("d4-d5").unwrap();
    m.play(&mv);
    assert_eq!(m.pos().side().0, 1, "West follows South");
    // South takes West's only piece: West is out, the turn skips it.
    let mut m = Match::new(&t, Position::parse(&t, "S:Sd4:Wc5:Nh8:Eh1").unwrap());
    let mv = m.parse_move("d4xb6").unwrap();
    m.play(&mv);
    assert_eq!(m.pos().side().0, 2, "North follows South when West is out");
    assert!(m.outcome().is_none());
}

#[test]
fn a_seeded_four_player_game() {
    let args = [
        "play",
        "tests/fixtures/games/four-winds.rules",
        "--seat",
        "1=random",
        "--seat",
        "2=random",
        "--seat",
        "3=random",
        "--seat",
        "4=random",
        "--seed",
        "4",
    ];
    let out = crate::common::ok(&args);
    assert!(out.contains("result: South won"), "{out}");
    insta::assert_snapshot!(out);
}
