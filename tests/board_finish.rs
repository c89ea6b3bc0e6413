//! What issue 28 left before it could be resolved: the rules page
//! (`format::rules_html`) describes every board construct the issue added
//! (a page of a game using it holds its sentence), a move refused by one of
//! them names the rule (a chain of a column stopped half-way, a hop over an
//! enemy, a way with no line, a placed piece moved), and the computer
//! players and `simulate` play every new game to its end.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::board::game::Verdict;
use rulebook::board::{Match, MoveError, Position, Refusal, Tables};
use rulebook::format::rules_html::page;
use rulebook::load::Loaded;

use crate::common::board_game as bundled;
use crate::common::board_text as tables;
use crate::common::page_size;

/// The words of a page as a reader sees them: the style and pictures left
/// out, the markup removed, the entities read back.
fn words(t: Tables) -> String {
    let mut s = page(&Loaded::Board(Box::new(t)), &[], &[]);
    for (open, close) in [("<style>", "</style>"), ("<svg", "</svg>")] {
        while let Some(a) = s.find(open) {
            let b = s[a..].find(close).map(|b| a + b + close.len()).unwrap();
            s.replace_range(a..b, "");
        }
    }
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if in_tag => {}
            _ => out.push(c),
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Where a rules page comes from: a bundled game with options, or the
/// text of a rule file (which may extend a bundled game).
enum Of {
    Game(&'static str, &'static [(&'static str, &'static str)]),
    Text(&'static str),
}

/// The words of the page of `of`.
fn page_of(of: &Of) -> String {
    match of {
        Of::Game(name, options) => words(bundled(name, options)),
        Of::Text(text) => words(tables(text)),
    }
}

/// The rules page of a game using each construct holds its sentences; the
/// page of a game without it says nothing of it.
#[test]
fn the_rules_page_describes_each_construct() {
    use Of::{Game, Text};
    let pages: &[(&str, Of, &[&str])] = &[
        (
            "lines only from some points",
            Game("other/alquerque", &[]),
            &["The board is drawn as lines between points. Along the diagonals, a line joins two neighbouring points only when both are among a5, c5, e5, b4, d4, a3, c3, e3, b2, d2, a1, c1 and e1; pieces move and jump that way only along these lines."],
        ),
        (
            "opening removals",
            Game("other/konane", &[]),
            &[
                "Opening",
                "The first move of the game: Black removes one of its own pieces from h8, e5, d4 or a1, instead of moving.",
                "Move 2: White removes one of its own pieces that stands next to an empty square (along the ranks and files), instead of moving.",
            ],
        ),
        (
            "opening removals on a small board",
            Game("other/konane", &[("size", "small")]),
            &["Black removes one of its own pieces from f6, d4, c3 or a1"],
        ),
        (
            "straight chains",
            Game("other/konane", &[]),
            &["Jumping forward, backward, right and left, it keeps one direction through a chain of jumps: every jump after the first goes the same way as the first, and the chain may not turn."],
        ),
        (
            "hops",
            Game("variants/leapfrog", &[]),
            &["Hops over a piece of its own side next to it onto the empty square just beyond, capturing nothing, and may hop on"],
        ),
        (
            "placing where it encloses, passing",
            Game("other/reversi", &[]),
            &[
                "Is placed from the hand on an empty square, only where it encloses at least one line of enemies; each side has as many as it needs in hand at the start.",
                "When the side to move can't move, it passes its turn.",
            ],
        ),
        (
            "placing anywhere",
            Game("other/gomoku", &[]),
            &["Is placed from the hand on an empty square; each side has as many as it needs in hand at the start."],
        ),
        (
            "a counted hand",
            Text("extends \"other/gomoku\"\nhand 60\n"),
            &["each side has 60 pieces in hand at the start"],
        ),
        (
            "clones and neighbours won over",
            Game("other/ataxx", &[]),
            &[
                "Copies itself onto an empty square next to it, staying where it is (a new piece)",
                "After a move, the enemies next to the square the piece reached go over to that side (as a stone)",
            ],
        ),
        (
            "lines won over after a placement, the end by count",
            Game("other/reversi", &[]),
            &[
                "Custodian capture: after a move or a placement, a run of enemies enclosed on a line between the piece that moved and another piece of its side goes over to that side (as a disc)",
                "When neither side can move, the pieces on the board are counted: equal counts draw; otherwise, the side with the most pieces wins.",
            ],
        ),
        (
            "the end by a line, nothing captured",
            Game("other/gomoku", &[]),
            &[
                "When a side has 5 of its pieces in an unbroken line (or more), that side wins.",
                "Nothing is ever captured: a piece stays on the board to the end.",
            ],
        ),
        (
            "the end by an exact line along ranks and files",
            Text("extends \"other/gomoku\"\nend line exactly 4 orthogonal win\n"),
            &["When a side has exactly 4 of its pieces in an unbroken line along forward and right (a longer line does not count), that side wins."],
        ),
        (
            "columns",
            Game("other/lasca", &[]),
            &[
                "A piece jumped over is not removed: it goes under the jumping piece, and the column moves as one, owned and moved by its top piece.",
                "A column is crowned through its top piece: only the top piece changes kind; the pieces under it stay as they are.",
            ],
        ),
        (
            "squares with powers",
            Game("other/brandubh", &[]),
            &[
                "The throne zone (d4): only the king may stop there; the other pieces may pass over it while it is empty; it is hostile: it closes an enclosure like an enemy piece against a piece enclosed between it and an enemy, unless a piece of the enclosed piece's own side stands on it.",
                "The corners zone (a7, g7, a1 and g1): only the king may stop there",
                "A king on d5 c4 d4 e4 d3 is taken only when enemies or hostile squares stand on all its sides (the board's edge never counts).",
                "When a side that had a king at the start has none left, it loses.",
                "When a king of a side ends a move on the corners zone (a7, g7, a1 and g1), that side wins.",
            ],
        ),
        (
            "a closed zone",
            Game("other/brandubh", &[("throne", "closed")]),
            &["The throne zone (d4): only the king may stop there or pass over it; the other pieces go round"],
        ),
        (
            "a zone hostile while empty",
            Text("extends \"other/hasami-shogi\"\nzone corners = a1 a9 i1 i9 hostile when-empty\ncapture custodian orthogonal\n"),
            &["The corners zone (a9, i9, a1 and i1): while empty, it is hostile"],
        ),
        (
            "an unarmed kind",
            Text("extends \"other/brandubh\"\npiece king \"King\" letter K {\n  slide orthogonal\n  captured surrounded at palace\n  unarmed\n}\n"),
            &["A king takes no part in captures: it neither encloses an enemy nor closes an enclosure."],
        ),
        (
            "a hostile edge",
            Text("extends \"other/brandubh\"\ncapture edge hostile\n"),
            &["A king on d5 c4 d4 e4 d3 is taken only when enemies or hostile squares stand on all its sides (the board's edge counts as a hostile square)."],
        ),
        (
            "holes",
            Game("other/ataxx", &[("blockers", "cross")]),
            &[
                "7 x 7, played on every square but the holes",
                "c3, e3, c5 and e5 are not part of the board: no piece stands there, and no move passes over them.",
            ],
        ),
    ];
    for (what, of, sentences) in pages {
        let text = page_of(of);
        for s in *sentences {
            assert!(text.contains(s), "{what}: missing {s:?} in:\n{text}");
        }
    }
    // A sentence said once, however many directions it covers.
    let konane = page_of(&Game("other/konane", &[]));
    assert_eq!(konane.matches("keeps one direction").count(), 1, "{konane}");
    let without: &[(Of, &str)] = &[
        (Game("other/breakthrough", &[]), "lines between points"),
        (Game("draughts", &[]), "instead of moving"),
        (Game("draughts", &[]), "Nothing is ever captured"),
        (Game("other/ataxx", &[]), "holes"),
    ];
    for (of, words) in without {
        let text = page_of(of);
        assert!(!text.contains(words), "{words:?} in:\n{text}");
    }
}

/// The refusal of `text` in `pos` (a position string), as data and in words.
fn refused(t: &Tables, pos: &str, text: &str) -> (Refusal, String) {
    let m = Match::new(t, Position::parse(t, pos).unwrap());
    let why = m.parse_move(text).expect_err(text);
    let words = rulebook::narrate::board::refusal(t, &why);
    match why {
        MoveError::Refused { rule, .. } => (rule, words),
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn a_column_chain_stopped_half_way_names_the_rule() {
    let t = bundled("other/lasca", &[]);
    // LA-3: the officer takes the top of d4 and must go back over the
    // black soldier that comes up.
    let (rule, words) = refused(&t, "W:WOc3:Bd4(b),a7", "c3xe5");
    assert!(matches!(rule, Refusal::ChainGoesOn { .. }), "{rule:?}");
    assert_eq!(
        words,
        "a capture goes on while the column can jump again: it may not stop on e5; the capture goes on as c3xe5xc3"
    );
    // Two ways on: both are named.
    let (_, words) = refused(&t, "W:WOa3:Bb4,d6,b6", "a3xc5");
    assert!(
        words.ends_with("the capture goes on as a3xc5xe7 or a3xc5xa7"),
        "{words}"
    );
    // The same rule in a game whose captures remove: the piece is named.
    let alquerque = bundled("other/alquerque", &[]);
    let (rule, words) = refused(&alquerque, "W:Wc3,d2:Bb2,b4,c4,e3", "c3xc5");
    assert!(matches!(rule, Refusal::ChainGoesOn { .. }), "{rule:?}");
    assert!(
        words.starts_with("a capture goes on while the man can jump again: it may not stop on c5"),
        "{words}"
    );
}

#[test]
fn a_konane_chain_that_turns_names_the_rule() {
    let t = bundled("other/konane", &[]);
    let (rule, words) = refused(&t, "B:Ba1,h8:Wb1,d1,c2,h1", "a1xc1xc3");
    assert!(matches!(rule, Refusal::Limit { .. }), "{rule:?}");
    assert!(
        words.starts_with("a chain of jumps must keep one direction"),
        "{words}"
    );
}

#[test]
fn a_hop_over_an_enemy_or_a_gap_names_the_rule() {
    let t = bundled("variants/leapfrog", &[]);
    let (rule, words) = refused(&t, "W:Wa2,h1:Ba3,h8", "a2-a4");
    assert!(matches!(rule, Refusal::HopOverOwn { .. }), "{rule:?}");
    assert_eq!(
        words,
        "a piece hops only over a piece of its own side next to it: the Black piece on a3 is an enemy; the piece on a2 can play a2-b3"
    );
    let (_, words) = refused(&t, "W:Wa2,h1:Bh8", "a2-a4");
    assert!(
        words.starts_with("a piece hops only over a piece of its own side next to it: a3 is empty"),
        "{words}"
    );
    // Over a piece of its own it is legal.
    let m = Match::new(&t, Position::parse(&t, "W:Wa2,a3,h1:Bh8").unwrap());
    assert!(m.parse_move("a2-a4").is_ok());
}

#[test]
fn a_move_along_no_line_names_the_rule() {
    let t = bundled("other/alquerque", &[]);
    for (pos, text) in [("W:Wb1:Be5", "b1-c2"), ("W:Wb1:Bc2,e5", "b1xd3")] {
        let (rule, words) = refused(&t, pos, text);
        assert!(matches!(rule, Refusal::NoLine { .. }), "{text}: {rule:?}");
        assert!(
            words.starts_with(
                "no line of the board joins b1 and c2: a man moves and jumps only along the lines"
            ),
            "{words}"
        );
    }
    // From a point of the diagonals the step is legal.
    let m = Match::new(&t, Position::parse(&t, "W:Wc1:Be5").unwrap());
    assert!(m.parse_move("c1-d2").is_ok());
}

#[test]
fn a_placed_piece_moved_names_the_rule() {
    let t = bundled("other/reversi", &[]);
    let start = Position::start(&t).to_fen(&t);
    let (rule, words) = refused(&t, &start, "d5-d3");
    assert!(matches!(rule, Refusal::Still { .. }), "{rule:?}");
    assert_eq!(
        words,
        "a disc never moves once placed (the disc on d5 stays there): place one from the hand on an empty square; it may be placed on e6 or f5 or c4 or d3"
    );
    // Where it encloses nothing, the placement is refused by its rule.
    let (rule, words) = refused(&t, &start, "a1");
    assert!(matches!(rule, Refusal::MustEnclose { .. }), "{rule:?}");
    assert!(
        words.starts_with("a placed disc must enclose at least one line"),
        "{words}"
    );
    let gomoku = bundled("other/gomoku", &[]);
    let (rule, _) = refused(&gomoku, "B:Bh8:Wa1", "h8-h9");
    assert!(matches!(rule, Refusal::Still { .. }), "{rule:?}");
}

#[test]
fn the_other_constructs_keep_their_own_refusals() {
    let brandubh = bundled("other/brandubh", &[]);
    let (rule, words) = refused(&brandubh, "A:Aa2:Dg5,Kf6", "a2-a1");
    assert!(matches!(rule, Refusal::KindOnly { .. }), "{rule:?}");
    assert_eq!(
        words,
        "only the king may stop on the corners (a1): not a soldier"
    );
    let closed = bundled("other/brandubh", &[("throne", "closed")]);
    let (rule, _) = refused(&closed, "A:Ac4:Dg5,Kf6", "c4-e4");
    assert!(matches!(rule, Refusal::ClosedOver { .. }), "{rule:?}");
    let ataxx = bundled("other/ataxx", &[]);
    let start = Position::start(&ataxx).to_fen(&ataxx);
    let (rule, _) = refused(&ataxx, &start, "d4");
    assert!(matches!(rule, Refusal::NoCopyHere { .. }), "{rule:?}");
    let konane = bundled("other/konane", &[]);
    let start = Position::start(&konane).to_fen(&konane);
    let (rule, _) = refused(&konane, &start, "c3");
    assert!(matches!(rule, Refusal::Opening { .. }), "{rule:?}");
}

/// The refusal of a pass typed at the start of a game: what the rule file
/// gives a side that can't move, whether the game's moves are placements,
/// and the words.
fn pass_at_start(t: &Tables) -> ((Verdict, bool), String) {
    let (rule, words) = refused(t, &Position::start(t).to_fen(t), " pass ");
    match rule {
        Refusal::NoPass {
            verdict, placed, ..
        } => ((verdict, placed.is_some()), words),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_pass_while_a_move_is_legal_names_the_rule() {
    // Reversi (RV-5): placements from the hand and `end no-moves pass`.
    let reversi = bundled("other/reversi", &[]);
    let (rule, words) = pass_at_start(&reversi);
    assert_eq!(rule, (Verdict::Pass, true));
    assert_eq!(
        words,
        "you can't pass: a disc can be placed on e6 or f5 or c4 or d3 (a side passes only when it can't place)"
    );
    // Typed in capitals, the same.
    let start = Position::start(&reversi).to_fen(&reversi);
    let (_, shouted) = refused(&reversi, &start, "PASS");
    assert_eq!(shouted, words);
    // With no placement left the pass is the move: Black can't enclose the
    // white disc in the corner (White can place on c1).
    let m = Match::new(&reversi, Position::parse(&reversi, "B:Wa1:Bb1").unwrap());
    assert!(m.parse_move("pass").unwrap().is_pass());
    // Ataxx (AX-3): its stones move, so the rule speaks of moving.
    let (rule, words) = pass_at_start(&bundled("other/ataxx", &[]));
    assert_eq!(rule, (Verdict::Pass, false));
    assert!(
        words.starts_with("you can't pass: legal moves: "),
        "{words}"
    );
    assert!(
        words.ends_with(" (a side passes only when it can't move)"),
        "{words}"
    );
    // The words come from the rule file, not the game: Reversi where a
    // side that can't place loses never passes.
    let no_pass = tables("extends \"other/reversi\"\nend no-moves lose\n");
    let (rule, words) = pass_at_start(&no_pass);
    assert_eq!(rule, (Verdict::Lose, true));
    assert!(
        words.ends_with("(a side never passes: one that can't place loses)"),
        "{words}"
    );
    // Draughts: a side that can't move loses.
    let (rule, words) = pass_at_start(&bundled("draughts", &[]));
    assert_eq!(rule, (Verdict::Lose, false));
    assert!(
        words.ends_with("(a side never passes: one that can't move loses)"),
        "{words}"
    );
    // A game that is over refuses the pass as over: neither side can place.
    let (rule, _) = refused(&reversi, "B:Wa1:Bh8", "pass");
    assert_eq!(rule, Refusal::GameOver);
}

/// Plays a move by clicking its squares in turn, then waits until the page
/// has played it (the ply count grows). The wait is long: the server
/// answers a move once it is played, and on a loaded machine a debug
/// build's computer player may take a while over the game before.
fn play_by_clicks(b: &crate::web_browser::Browser, game: &str, squares: &[String]) {
    let before = b.js("return Number(document.body.dataset.ply);");
    let changed = format!("Number(document.body.dataset.ply) !== {before}");
    for s in squares {
        b.click(&format!("#board rect.hit[data-square=\"{s}\"]"));
        if b.js(&format!("return {changed};")) == serde_json::json!(true) {
            return;
        }
    }
    let start = std::time::Instant::now();
    while b.js(&format!("return {changed};")) != serde_json::json!(true) {
        if start.elapsed() > std::time::Duration::from_secs(120) {
            b.shot(&format!("{game}-stuck"));
            panic!(
                "{game}: the move {squares:?} was not played; message {:?}",
                b.text("#message")
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A whole game of each new board game in headless Chromium, the person
/// clicking (the move that takes the most, else the first) against
/// `greedy`, to the end message; screenshots of the middle and the end at
/// desktop width and of the end on a phone, under
/// target/web-screenshots/finish-*.png.
#[test]
fn every_new_board_game_is_played_to_its_end_in_the_browser() {
    use crate::web_browser::{pick, Browser, ONE_AT_A_TIME};
    use serde_json::json;
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let b = Browser::new("finish");
    let goes_on = ["lasca", "bashni", "alquerque"];
    for game in [
        "reversi",
        "ataxx",
        "lasca",
        "bashni",
        "brandubh",
        "tablut",
        "konane",
        "alquerque",
        "gomoku",
    ] {
        page_size(&b, 1200, 900);
        b.goto(&format!("/?game=other/{game}"));
        b.wait("document.querySelectorAll('[data-side]').length === 2", 10);
        b.select("[data-side='1']", "greedy");
        b.click("#start");
        b.wait("document.body.dataset.turn", 10);
        let mut moves = 0;
        let mut columns = false;
        let mut stopped = false;
        loop {
            b.wait("['human', 'over'].includes(document.body.dataset.turn)", 60);
            columns |=
                b.js("return !!document.querySelector('#board text.height');") == json!(true);
            if b.js("return document.body.dataset.turn;") == json!("over") {
                break;
            }
            let legal = b.js("return state.legal;");
            let squares = pick(legal.as_array().unwrap());
            if squares.len() >= 3 && goes_on.contains(&game) && !stopped {
                // A chain stopped half-way, by clicking the square it has
                // reached again: refused, naming the rule.
                for s in &squares[..2] {
                    b.click(&format!("#board rect.hit[data-square=\"{s}\"]"));
                }
                b.click(&format!("#board rect.hit[data-square=\"{}\"]", squares[1]));
                b.wait("document.getElementById('message').textContent !== ''", 10);
                let said = b.text("#message");
                assert!(
                    said.starts_with("a capture goes on while the"),
                    "{game}: {said}"
                );
                b.shot(&format!("{game}-stopped"));
                stopped = true;
            }
            play_by_clicks(&b, game, &squares);
            moves += 1;
            if moves == 12 {
                b.shot(&format!("{game}-middle"));
            }
            assert!(moves < 700, "{game}: the game did not end");
        }
        let status = b.text("#status");
        assert!(status.starts_with("Game over:"), "{game}: {status}");
        if game == "lasca" || game == "bashni" {
            assert!(columns, "{game}: no column was drawn");
        }
        b.shot(&format!("{game}-over"));
        page_size(&b, 390, 844);
        b.shot(&format!("{game}-over-phone"));
        let wide = b.js("return document.documentElement.scrollWidth;");
        assert!(wide.as_u64().unwrap() <= 390, "{game}: {wide} px wide");
        eprintln!("{game}: {moves} moves of the person; {status}");
    }
}

/// The material of each side in a position, as the agents see it.
fn material(t: &Tables, pos: &str) -> [f64; 2] {
    use rulebook::agents::state::{Features, GameState};
    let g = rulebook::agents::BoardGame::new(t);
    let s = g.state(Position::parse(t, pos).unwrap());
    let mut f = [Features::default(); 2];
    s.features(&mut f);
    [f[0].material, f[1].material]
}

#[test]
fn the_agents_count_what_a_column_capture_takes() {
    use rulebook::agents::state::{Counted, GameState};
    let t = bundled("other/lasca", &[]);
    let soldier = material(&t, "W:Wa1:Bg7")[0];
    assert!(soldier > 0.0);
    // The pieces of its owner right under the top count: a capture takes
    // only the top, and the column stays its owner's while they last.
    assert_eq!(material(&t, "W:Wa1(ww):Bg7")[0], 3.0 * soldier);
    // A prisoner counts for nobody, nor what is under it, until freed.
    assert_eq!(material(&t, "W:Wa1(bw):Bg7"), [soldier, soldier]);
    assert_eq!(material(&t, "W:Wa1:Bg7(ww)"), [soldier, soldier]);
    // The officer takes the top of d4 twice in one move (LA-3): two pieces
    // taken, as the lab counts them; Black is left with a7 alone.
    let g = rulebook::agents::BoardGame::new(&t);
    let mut s = g.state(Position::parse(&t, "W:WOc3:Bd4(b),a7").unwrap());
    assert_eq!(s.move_count(), 1);
    s.play(0);
    let taken = s
        .counted()
        .iter()
        .position(|c| *c == Counted::PiecesRemoved)
        .map(|i| s.event_counts()[i]);
    assert_eq!(taken, Some(2));
    let after = s.position().to_fen(&t);
    assert_eq!(material(&t, &after)[1], soldier, "{after}");
}

/// `simulate` with greedy against mcts (and mcts against greedy), a few
/// seeded games of each new board game: every game ends by one of its
/// rules, well before the ply limit.
#[test]
fn greedy_and_mcts_play_every_new_game_to_its_end() {
    for game in [
        "reversi",
        "ataxx",
        "lasca",
        "bashni",
        "brandubh",
        "tablut",
        "konane",
        "alquerque",
        "gomoku",
    ] {
        for agents in ["greedy,mcts", "mcts,greedy"] {
            let out = crate::common::ok(&[
                "simulate",
                &format!("other/{game}"),
                "--games",
                "2",
                "--agents",
                agents,
                "--playouts",
                "30",
                "--seed",
                "3",
                "--jobs",
                "1",
                "--quiet",
                "--json",
            ]);
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(v["games"], 2, "{game}: {out}");
            let endings = v["endings"].as_object().unwrap();
            let ended: u64 = endings.values().map(|n| n.as_u64().unwrap()).sum();
            assert_eq!(ended, 2, "{game} {agents}: {out}");
            assert!(!endings.contains_key("ply limit"), "{game} {agents}: {out}");
            assert!(
                v["length"]["max"].as_f64().unwrap() < 400.0,
                "{game}: {out}"
            );
        }
    }
}
