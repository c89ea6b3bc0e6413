//! Why a game ended, as the engine gives it (an `EndReason`, a lab
//! `EndCause`) and as people read it: in games of three or more sides where
//! a side that loses drops out, the reason names what happened to the side
//! whose dropping out ended the game (down to N pieces, out of moves), and a
//! side that drops out is told as it happens; the lab's labels and event
//! names come from `narrate::lab`.

use rulebook::agents::{BoardGame, BoardState, Counted, EndCause, GameState};
use rulebook::board::end::Cause;
use rulebook::board::game::SideId;
use rulebook::board::{EndReason, Event, Match, Position, Tables};
use rulebook::cli::FsLoader;
use rulebook::load::check;
use rulebook::narrate;

fn tables(file: &str) -> Tables {
    let checked = check(&FsLoader, file, &[]);
    assert_eq!(checked.errors(), 0, "{}", checked.render());
    checked.into_board().unwrap()
}

/// Plays `moves` from `fen` in a `Match`: the last move's events, in
/// words too, and the result.
fn play(t: &Tables, fen: &str, moves: &[&str]) -> (Vec<Event>, Vec<String>, Option<String>) {
    let mut m = Match::new(t, Position::parse(t, fen).unwrap());
    let mut events = Vec::new();
    for mv in moves {
        let mv = m.parse_move(mv).unwrap();
        events = m.play(&mv);
    }
    let words = events
        .iter()
        .map(|e| narrate::board::describe(t, e))
        .collect();
    let result = m.outcome().map(|o| narrate::board::outcome(t, o));
    (events, words, result)
}

/// The lab's label for the game after `moves` from `fen`, played by the
/// agents' `BoardState`.
fn lab_label(t: &Tables, fen: &str, moves: &[&str]) -> Option<&'static str> {
    let g = BoardGame::new(t);
    let mut s = BoardState::new(&g, Position::parse(t, fen).unwrap());
    let mut m = Match::new(t, Position::parse(t, fen).unwrap());
    for mv in moves {
        let want = m.parse_move(mv).unwrap();
        let i = m
            .legal()
            .iter()
            .position(|x| x.notation == want.notation)
            .unwrap();
        s.play(i);
        m.play(&want);
    }
    s.ending().map(|e| narrate::lab::ending(e.reason))
}

#[test]
fn a_side_reduced_to_one_piece_ends_a_game_of_four_by_that_reason() {
    let t = tables("tests/fixtures/games/four-winds-reduced.rules");
    // North and East are out (no pieces); South takes one of West's two men.
    let fen = "S:Sd4,h1:Wc5,a1:N:E";
    let (events, words, result) = play(&t, fen, &["d4xb6"]);
    assert!(events.contains(&Event::Eliminated {
        side: SideId(1),
        reason: EndReason::ReducedTo {
            side: SideId(1),
            left: 1
        },
    }));
    assert_eq!(
        words,
        [
            "captures the man on c5",
            "West is down to 1 piece: loses and leaves the game"
        ]
    );
    assert_eq!(
        result.as_deref(),
        Some("South won: West is down to 1 piece")
    );
    assert_eq!(lab_label(&t, fen, &["d4xb6"]), Some("few pieces left"));
}

#[test]
fn a_side_out_of_moves_is_not_named_for_a_last_piece_it_still_has() {
    let t = tables("tests/fixtures/games/four-winds-out.rules");
    // East's man on a8 can't move (South's man on a7 blocks it): East
    // drops out by its pass, keeping its piece; North has no pieces.
    let fen = "E:Sd4,a7:Wc5:N:Ea8";
    let (events, words, result) = play(&t, fen, &["pass"]);
    assert_eq!(events, [Event::DropOut { side: SideId(3) }]);
    assert_eq!(words, ["East cannot move: loses and leaves the game"]);
    assert_eq!(result, None);
    // South takes West's last man: South is left alone, and the reason is
    // West's last piece, not East's (East has one).
    let (_, words, result) = play(&t, fen, &["pass", "d4xb6"]);
    assert_eq!(
        words,
        [
            "captures the man on c5",
            "West lost their last piece: loses and leaves the game"
        ]
    );
    assert_eq!(
        result.as_deref(),
        Some("South won: West lost their last piece")
    );
    assert_eq!(lab_label(&t, fen, &["pass", "d4xb6"]), Some("last piece"));
}

#[test]
fn a_side_that_loses_its_last_piece_drops_out_as_it_happens() {
    let t = tables("tests/fixtures/games/four-winds.rules");
    // South takes West's only man; North and East play on.
    let (events, words, result) = play(&t, "S:Sd4:Wc5:Nh8:Eh1", &["d4xb6"]);
    assert_eq!(
        events.last(),
        Some(&Event::Eliminated {
            side: SideId(1),
            reason: EndReason::LastPiece { side: SideId(1) },
        })
    );
    assert_eq!(
        words,
        [
            "captures the man on c5",
            "West lost their last piece: loses and leaves the game"
        ]
    );
    assert_eq!(result, None);
    // The last of them: the game ends by that reason.
    let fen = "S:Sd4:Wc5:N:E";
    let (_, _, result) = play(&t, fen, &["d4xb6"]);
    assert_eq!(
        result.as_deref(),
        Some("South won: West lost their last piece")
    );
    assert_eq!(lab_label(&t, fen, &["d4xb6"]), Some("last piece"));
}

#[test]
fn two_sides_never_drop_out() {
    let t = tables("tests/fixtures/games/down-to-one.rules");
    let m = Match::new(&t, Position::start(&t));
    let mut m2 = Match::new(&t, m.pos().clone());
    let mv = m2.legal()[0].clone();
    let events = m2.play(&mv);
    assert!(events
        .iter()
        .all(|e| !matches!(e, Event::Eliminated { .. } | Event::DropOut { .. })));
}

#[test]
fn the_lab_reads_its_labels_from_narrate() {
    let labels = [
        (EndCause::Board(Cause::LastPiece), "last piece"),
        (EndCause::Board(Cause::NoPiecesLeft), "no pieces left"),
        (EndCause::Board(Cause::NoSideCanMove), "no side can move"),
        (EndCause::Board(Cause::CannotMove), "cannot move"),
        (EndCause::Board(Cause::Repetition), "repetition"),
        (EndCause::Board(Cause::NoProgress), "no progress"),
        (EndCause::Board(Cause::ReachedZone), "reached zone"),
        (EndCause::Board(Cause::FewPiecesLeft), "few pieces left"),
        (EndCause::PlyLimit, "ply limit"),
        (EndCause::HomeFirst, "home first"),
        (EndCause::NoOneCanMove, "no one can move"),
        (EndCause::RollLimit, "roll limit"),
        (EndCause::Unfinished, "unfinished"),
    ];
    for (cause, words) in labels {
        assert_eq!(narrate::lab::ending(cause), words);
    }
    let t = tables("tests/fixtures/games/four-winds.rules");
    let g = BoardGame::new(&t);
    let s = BoardState::new(&g, Position::start(&t));
    let names: Vec<&str> = s
        .counted()
        .iter()
        .map(|&e| narrate::lab::counted(e))
        .collect();
    assert_eq!(
        names,
        [
            "captures",
            "pieces removed",
            "jump conversions",
            "pieces won over",
            "zone conversions",
            "promotions",
            "passes"
        ]
    );
    assert_eq!(narrate::lab::counted(Counted::ExtraRolls), "extra rolls");
}

/// The lab names a game's conversions by what wins pieces over in it:
/// jumps (and, at 0, every game whose captures remove: the columns of the
/// existing games stay), enclosed lines (`capture custodian`), neighbours
/// (`capture neighbours`), or several of these.
#[test]
fn each_kind_of_conversion_has_its_own_name() {
    use crate::common::{board_game, board_text, ok, path_arg, scratch};
    let named = |t: &Tables| {
        let g = BoardGame::new(t);
        let s = BoardState::new(&g, Position::start(t));
        narrate::lab::counted(s.counted()[2])
    };
    for (game, name) in [
        ("always-ready", "jump conversions"),
        ("draughts", "jump conversions"),
        ("other/hasami-shogi", "jump conversions"),
        ("other/reversi", "custodian conversions"),
        ("other/ataxx", "neighbour conversions"),
    ] {
        assert_eq!(named(&board_game(game, &[])), name, "{game}");
    }
    let won_over = tables("tests/fixtures/games/hasami-win-over.rules");
    assert_eq!(named(&won_over), "custodian conversions");
    let both = board_text("extends \"always-ready\"\ncapture custodian orthogonal\n");
    assert_eq!(named(&both), "conversions");
    // A game of Reversi counts its conversions under that name: every
    // placement turns discs over.
    let reversi = board_game("other/reversi", &[]);
    let g = BoardGame::new(&reversi);
    let mut s = BoardState::new(&g, Position::start(&reversi));
    for _ in 0..10 {
        s.play(0);
    }
    let counts = s.event_counts();
    assert_eq!(counts[2], 10, "{counts:?}");
    assert!(counts[3] >= 10, "{counts:?}");
    assert_eq!(counts[0], 0, "{counts:?}");
    // The CSV columns follow the names.
    let d = scratch();
    for (game, column) in [
        ("other/reversi", "custodian_conversions"),
        ("always-ready", "jump_conversions"),
    ] {
        let csv = d.path().join("rows.csv");
        ok(&[
            "simulate",
            game,
            "--games",
            "2",
            "--seed",
            "1",
            "--csv",
            path_arg(&csv),
        ]);
        let text = std::fs::read_to_string(&csv).unwrap();
        let head = text.lines().next().unwrap();
        assert!(
            head.contains(&format!(",{column},pieces_won_over,")),
            "{head}"
        );
    }
}
