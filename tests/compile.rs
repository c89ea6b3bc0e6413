//! What the checker compiles: squares, relative zones and directions,
//! options, `extends` replacement, defaults.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::board::game::{EndCondition, Game, JumpEffect, Sq, SquareSet, Verdict, Whose};
use rulebook::load::{check, check_source, BundledLoader, Source};

/// Compiles `text`, which must check without errors.
fn game(text: &str) -> Game {
    game_with(text, &[])
}

fn game_with(text: &str, options: &[(&str, &str)]) -> Game {
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let source = Source {
        name: "test.rules".to_string(),
        text: text.to_string(),
    };
    let checked = check_source(source, &BundledLoader, &options);
    assert_eq!(checked.errors(), 0, "{}", checked.render());
    checked.into_board().unwrap().into_game()
}

fn names(g: &Game, set: &SquareSet) -> Vec<String> {
    let mut v: Vec<String> = set
        .iter()
        .map(|s| g.squares[usize::from(s.0)].algebraic.clone())
        .collect();
    v.sort();
    v
}

fn vectors(g: &Game, ids: &[rulebook::board::game::DirId]) -> Vec<(i8, i8)> {
    ids.iter().map(|d| g.dirs[usize::from(d.0)]).collect()
}

const FOUR: &str = "board 4 x 4
side n \"North\" forward north
side s \"South\" forward south
side e \"East\" forward east
side w \"West\" forward west
zone edge = rank 1
zone far = rank last
piece man \"Man\" { step forward forward-left  jump short left  promote king at far }
piece king \"King\" letter K { slide any }
setup n man at a1
setup s man at d4
setup e man at a3
setup w man at d2
end no-moves lose
";

#[test]
fn relative_zones_follow_each_side() {
    let g = game(FOUR);
    let edge = &g.zones[0];
    assert_eq!(names(&g, &edge.squares[0]), ["a1", "b1", "c1", "d1"]);
    assert_eq!(names(&g, &edge.squares[1]), ["a4", "b4", "c4", "d4"]);
    assert_eq!(names(&g, &edge.squares[2]), ["a1", "a2", "a3", "a4"]);
    assert_eq!(names(&g, &edge.squares[3]), ["d1", "d2", "d3", "d4"]);
    let far = &g.zones[1];
    assert_eq!(names(&g, &far.squares[2]), ["d1", "d2", "d3", "d4"]);
    assert_eq!(names(&g, &far.squares[3]), ["a1", "a2", "a3", "a4"]);
    assert!(edge.per_side);
}

#[test]
fn relative_directions_follow_each_side() {
    let g = game(FOUR);
    let man = &g.kinds[0];
    // north: forward n, forward-left nw, left w
    assert_eq!(vectors(&g, &man.moves[0].step), [(0, 1), (-1, 1)]);
    assert_eq!(vectors(&g, &man.moves[0].short_jump), [(-1, 0)]);
    // south: forward s, forward-left se, left e
    assert_eq!(vectors(&g, &man.moves[1].step), [(0, -1), (1, -1)]);
    assert_eq!(vectors(&g, &man.moves[1].short_jump), [(1, 0)]);
    // east: forward e, forward-left ne, left n
    assert_eq!(vectors(&g, &man.moves[2].step), [(1, 0), (1, 1)]);
    assert_eq!(vectors(&g, &man.moves[2].short_jump), [(0, 1)]);
    // west: forward w, forward-left sw, left s
    assert_eq!(vectors(&g, &man.moves[3].step), [(-1, 0), (-1, -1)]);
    // each vector once in the table
    let mut dirs = g.dirs.clone();
    dirs.sort();
    dirs.dedup();
    assert_eq!(dirs.len(), g.dirs.len());
    assert_eq!(vectors(&g, &g.kinds[1].moves[0].slide).len(), 8);
}

#[test]
fn squares_are_numbered_from_the_top() {
    let g = check(&BundledLoader, "draughts", &[])
        .into_board()
        .unwrap()
        .into_game();
    assert_eq!(g.squares.len(), 32);
    assert_eq!(
        (g.squares[0].algebraic.as_str(), g.squares[0].number),
        ("b8", 1)
    );
    assert_eq!(g.squares[3].algebraic, "h8");
    assert_eq!(g.squares[28].algebraic, "a1");
    assert_eq!(g.squares[31].algebraic, "g1");
    assert_eq!(g.square(0, 0), Some(Sq(28)));
    assert_eq!(g.square(1, 0), None);
    assert_eq!(g.setup.len(), 24);
}

#[test]
fn numeric_squares_in_a_numeric_game() {
    let g = game("extends \"draughts\"\nsetup white king at 1 32\nsetup black man at 13\n");
    let placed: Vec<(String, u8, u8)> = g
        .setup
        .iter()
        .map(|(s, side, k)| (g.squares[usize::from(s.0)].algebraic.clone(), side.0, k.0))
        .collect();
    assert_eq!(
        placed,
        [
            ("b8".into(), 0, 1),
            ("a5".into(), 1, 0),
            ("g1".into(), 0, 1)
        ]
    );
}

#[test]
fn variants_replace_what_they_restate() {
    let g = check(&BundledLoader, "variants/international", &[])
        .into_board()
        .unwrap()
        .into_game();
    assert_eq!((g.width, g.height, g.squares.len()), (10, 10, 50));
    assert_eq!(g.setup.len(), 40);
    assert_eq!(g.end.counters().next().unwrap().1.plies, 50);
    assert_eq!(g.end.repetition().map(|r| r.1), Some(3));
    let e = check(&BundledLoader, "variants/english", &[])
        .into_board()
        .unwrap()
        .into_game();
    assert_eq!(e.first.0, 1);
    assert!(e.kinds[1].moves[0].slide.is_empty());
    assert_eq!(e.kinds[1].moves[0].step.len(), 4);
    assert_eq!(e.title, "English checkers");
}

#[test]
fn options_apply_their_when_blocks() {
    let flying = check(&BundledLoader, "draughts", &[])
        .into_board()
        .unwrap()
        .into_game();
    assert_eq!(flying.kinds[1].moves[0].slide.len(), 4);
    let short = [("kings".to_string(), "short".to_string())];
    let g = check(&BundledLoader, "draughts", &short)
        .into_board()
        .unwrap()
        .into_game();
    assert!(g.kinds[1].moves[0].slide.is_empty());
    assert_eq!(g.kinds[1].moves[0].step.len(), 4);
    assert_eq!(g.kinds[1].id, "king");
    // The base's option also works on a variant.
    let r = check(&BundledLoader, "variants/russian", &short)
        .into_board()
        .unwrap()
        .into_game();
    assert!(r.kinds[1].moves[0].slide.is_empty());
}

#[test]
fn a_later_setup_layer_replaces_the_earlier() {
    let g = game("extends \"draughts\"\nsetup white man at c3\nsetup black man at f6\n");
    assert_eq!(g.setup.len(), 2);
    let g = game_with(
        "extends \"draughts\"\noption start = full sparse\nwhen start = sparse {\n  setup white man at c3\n  setup black king at f6\n}\n",
        &[("start", "sparse")],
    );
    assert_eq!(g.setup.len(), 2);
}

#[test]
fn enemy_zones_and_triggers() {
    let g = check(&BundledLoader, "always-ready", &[])
        .into_board()
        .unwrap()
        .into_game();
    let (king, per_side) = g.kinds[0].promotion.clone().unwrap();
    assert_eq!(king.0, 1);
    assert_eq!(
        names(&g, &per_side[0]),
        ["b12", "d12", "f12", "h12", "j12", "l12"]
    );
    assert_eq!(
        names(&g, &per_side[1]),
        ["a1", "c1", "e1", "g1", "i1", "k1"]
    );
    assert_eq!(g.triggers.len(), 1);
    assert_eq!(g.triggers[0].whose, Whose::Enemy);
    assert_eq!(
        g.capture.effect,
        JumpEffect::Convert(rulebook::board::game::KindId(0))
    );
    assert_eq!(g.end.no_moves(), Verdict::Pass);
    assert_eq!(names(&g, &g.no_stop()), ["f6", "g7"]);
}

#[test]
fn defaults() {
    let g = game(
        "board 4 x 4\nside red \"Red\" forward north\npiece pawn \"Pawn\" { step n }\nzone far = rank last\nsetup red pawn at a1\npiece queen \"Queen\" { slide any  immune to pawn }\npiece bishop \"B\" { step ne  promote queen at far }\nsetup red bishop at b1\nend no-pieces lose\n",
    );
    assert_eq!(g.title, "test.rules");
    assert_eq!(g.sides[0].letter, 'R');
    assert_eq!(g.kinds[0].letter, 'P');
    assert_eq!(g.kinds[1].value, 3);
    assert_eq!(g.kinds[0].value, 1);
    assert_eq!(g.kinds[1].immune_to, 1);
    assert!(!g.capture.compulsory);
    assert!(g.capture.must_continue);
    assert_eq!(g.capture.effect, JumpEffect::RemoveAtOnce);
    // The rule written, then the one every game has: a side that can't
    // move loses.
    assert_eq!(g.end.rules.len(), 2);
    assert!(matches!(g.end.rules[0].condition, EndCondition::NoPieces));
    assert_eq!(g.end.rules[0].verdict, Verdict::Lose);
    assert!(matches!(g.end.rules[1].condition, EndCondition::NoMoves));
    assert_eq!(g.end.rules[1].verdict, Verdict::Lose);
    assert!(g.end.rules[1].span.is_none());
    assert_eq!(g.squares.len(), 16);
}
