//! docs/language.md kept true: every rule file it shows checks, every house
//! rule it shows plays, and every construct of the grammar has a house rule.
//!
//! The document's convention: a code block whose first statement is
//! `extends "NAME"` is a house rule built on the bundled game NAME; it is the
//! whole file a user writes (docs/language.md, "Options and house rules").
//! Each must name a bundled game, have its own `game` title, check with no
//! error and play a seeded random game to its end. A block whose first
//! statement is `game "..."` is a complete rule file and must check too; the
//! other blocks are fragments (a statement or two, a shell session, output).

use rulebook::agents::{BoardGame, EndCause, Ending, GameState, RaceNode};
use rulebook::load::{check_source, BundledLoader, Checked, Loaded, Source};
use rulebook::race::RaceState;
use rulebook::rng::Rng;
use std::path::Path;

/// A code block of the document: the line of its opening fence and its text.
struct Block {
    line: usize,
    text: String,
}

impl Block {
    /// The first statement's line: neither blank nor a comment.
    fn first_statement(&self) -> &str {
        self.text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with("//"))
            .unwrap_or("")
    }

    /// The bundled game a house rule is built on: the name its first
    /// statement, `extends "NAME"`, gives.
    fn built_on(&self) -> Option<&str> {
        let rest = self.first_statement().strip_prefix("extends ")?;
        rest.trim().strip_prefix('"')?.split('"').next()
    }

    /// Whether the block is a complete rule file of its own.
    fn is_file(&self) -> bool {
        self.first_statement().starts_with("game ")
    }

    /// Where the block is, for messages.
    fn at(&self) -> String {
        format!("docs/language.md:{}", self.line)
    }
}

/// The document's text.
fn document() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/language.md");
    std::fs::read_to_string(path).unwrap()
}

/// Every fenced code block of `text`, in order.
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            match open.take() {
                Some((start, body)) => out.push(Block {
                    line: start,
                    text: body,
                }),
                None => open = Some((i + 1, String::new())),
            }
        } else if let Some((_, body)) = open.as_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    assert!(
        open.is_none(),
        "a code block of docs/language.md is never closed"
    );
    out
}

/// The house rules of the document.
fn house_rules(all: &[Block]) -> Vec<&Block> {
    all.iter().filter(|b| b.built_on().is_some()).collect()
}

/// A block checked as the file a user saves next to nothing: what it
/// extends comes from the bundled games.
fn check_block(block: &Block) -> Checked {
    check_source(
        Source {
            name: format!("language.md-{}.rules", block.line),
            text: block.text.clone(),
        },
        &BundledLoader,
        &[],
    )
}

/// The most plies (board) or rolls (race) a random game is given; a game
/// that needs more is reported as not ending.
const LIMIT: u32 = 100_000;

/// A seeded random game of `loaded` played to its end, as the computer
/// players play it (board: every side; race: the fewest players the file
/// allows).
fn random_ending(loaded: &Loaded, seed: u64) -> Option<Ending> {
    let mut rng = Rng::new(seed);
    match loaded {
        Loaded::Board(t) => {
            let game = BoardGame::with_max_plies(t, LIMIT);
            let mut state = game.start();
            state.random_plies(&mut rng, u32::MAX);
            state.ending()
        }
        Loaded::Race(game) => {
            let players = usize::from(loaded.players().0);
            let state = RaceState::new(game, players).ok()?;
            let mut node = RaceNode::new(game, state, LIMIT);
            node.random_plies(&mut rng, u32::MAX);
            node.ending()
        }
    }
}

#[test]
fn every_complete_rule_file_of_the_document_checks() {
    let text = document();
    let all = blocks(&text);
    let files: Vec<&Block> = all.iter().filter(|b| b.is_file()).collect();
    assert!(files.len() >= 2, "the document shows whole rule files");
    for block in files {
        let checked = check_block(block);
        assert_eq!(
            checked.errors(),
            0,
            "{}: the rule file does not check:\n{}",
            block.at(),
            checked.render()
        );
        let loaded = checked.loaded.as_ref().unwrap();
        let ending = random_ending(loaded, 1);
        assert!(
            ends_by_the_rules(ending),
            "{}: a random game does not end: {ending:?}",
            block.at()
        );
    }
}

/// Whether a game ended by its rules (not by the limit of plies or rolls).
fn ends_by_the_rules(ending: Option<Ending>) -> bool {
    ending.is_some_and(|e| {
        !matches!(
            e.reason,
            EndCause::PlyLimit | EndCause::RollLimit | EndCause::Unfinished
        )
    })
}

#[test]
fn every_house_rule_is_built_on_a_bundled_game_and_plays_to_its_end() {
    let text = document();
    let all = blocks(&text);
    let rules = house_rules(&all);
    assert!(rules.len() >= 40, "{} house rules", rules.len());
    let mut titles = std::collections::HashSet::new();
    let mut wrong = Vec::new();
    for block in rules {
        if let Err(why) = house_rule_plays(block, &mut titles) {
            wrong.push(format!("{}: {why}", block.at()));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Why the house rule `block` is not a bundled game's house rule that
/// checks and plays to its end, if it isn't; `titles` are the titles of the
/// house rules before it.
fn house_rule_plays(
    block: &Block,
    titles: &mut std::collections::HashSet<String>,
) -> Result<(), String> {
    let base = block.built_on().unwrap_or("");
    if rulebook::bundled::get(base).is_none() {
        return Err(format!("`{base}` is no bundled game"));
    }
    let checked = check_block(block);
    let Some(loaded) = checked.loaded.as_ref() else {
        return Err(format!(
            "the house rule on `{base}` does not check:\n{}",
            checked.render()
        ));
    };
    let bundled = rulebook::load::check(&BundledLoader, base, &[]);
    let base_title = bundled.loaded.as_ref().map(|l| l.title().to_string());
    if Some(loaded.title().to_string()) == base_title {
        return Err(format!(
            "the house rule on `{base}` has no `game` title of its own"
        ));
    }
    if !titles.insert(loaded.title().to_string()) {
        return Err(format!("two house rules are called \"{}\"", loaded.title()));
    }
    let ending = random_ending(loaded, 1);
    if !ends_by_the_rules(ending) {
        return Err(format!(
            "a random game of the house rule on `{base}` (seed 1) does not end: {ending:?}"
        ));
    }
    Ok(())
}

// ------------------------------------------------------------------ coverage

/// Every construct of the language, as words a house rule writes: `N` is any
/// number, `*` any one word (a name, a cell, a string). The key names the
/// grammar's rule (`LIST.ALTERNATIVE` for the alternatives of the lists in
/// `GRAMMAR_LISTS`) or, after a `#`, a setting of a statement.
const CONSTRUCTS: &[(&str, &str)] = &[
    // statements of a file
    ("statement.extends_stmt", "extends *"),
    ("statement.option_stmt", "option * ="),
    ("statement.remove_option_stmt", "remove option *"),
    ("statement.when_stmt", "when * = *"),
    ("inner_statement.game_stmt", "game *"),
    ("inner_statement.description_stmt", "description *"),
    ("inner_statement.board_stmt", "board N x N"),
    ("inner_statement.playable_stmt", "playable"),
    ("inner_statement.holes_stmt", "holes"),
    ("inner_statement.lines_stmt", "lines * only from"),
    ("inner_statement.opening_stmt", "opening remove own on"),
    ("opening_stmt#next-to", "opening remove own next-to empty"),
    ("inner_statement.notation_stmt", "notation"),
    ("inner_statement.pdn_stmt", "pdn gametype N"),
    ("inner_statement.side_stmt", "side * * forward"),
    ("side_stmt#letter", "letter"),
    ("inner_statement.first_stmt", "first *"),
    ("inner_statement.directions_stmt", "directions * ="),
    ("inner_statement.zone_stmt", "zone * ="),
    ("zone_stmt#ranks", "zone * = ranks N - N"),
    ("zone_stmt#rank", "zone * = rank"),
    ("zone_stmt#side-lists", "zone * = * :"),
    ("zone_property.kw_no_stop", "no-stop"),
    ("zone_property.hostile_property", "hostile"),
    ("hostile_property#when-empty", "hostile when-empty"),
    ("zone_property.only_property", "only"),
    ("only_property#closed", "closed"),
    ("inner_statement.piece_stmt", "piece * *"),
    ("inner_statement.race_setup_stmt", "setup * : N on"),
    ("inner_statement.setup_stmt", "setup * * at"),
    ("inner_statement.hand_stmt", "hand"),
    ("inner_statement.capture_stmt", "capture"),
    ("inner_statement.chain_stmt", "chain"),
    ("chain_stmt#must-continue", "chain must-continue"),
    ("chain_stmt#may-stop", "chain may-stop"),
    ("inner_statement.crown_stmt", "crown mid-chain"),
    ("crown_stmt#stay", "crown mid-chain stay"),
    ("crown_stmt#continue", "crown mid-chain continue"),
    ("crown_stmt#stop", "crown mid-chain stop"),
    ("inner_statement.long_landing_stmt", "long-landing"),
    ("long_landing_stmt#any", "long-landing any"),
    (
        "long_landing_stmt#must-continue",
        "long-landing must-continue",
    ),
    ("inner_statement.on_stmt", "on end at"),
    ("inner_statement.end_stmt", "end"),
    ("inner_statement.track_stmt", "track N"),
    ("track_stmt#loop", "track N loop starts"),
    ("track_stmt#kept", "kept"),
    ("inner_statement.players_stmt", "players N"),
    ("inner_statement.seats_stmt", "seats"),
    ("inner_statement.pieces_stmt", "pieces N per player"),
    ("inner_statement.dice_stmt", "dice N *"),
    ("dice_stmt#values", "dice N * : N = N"),
    ("inner_statement.move_stmt", "move"),
    ("move_stmt#by-sum", "move by sum"),
    ("move_stmt#compulsory", "move compulsory"),
    ("move_stmt#optional", "move optional"),
    ("move_stmt#back", "move back when blocked"),
    ("move_stmt#each-die", "move each die"),
    ("move_stmt#doubles", "move doubles N times"),
    ("move_stmt#most-dice", "move most dice"),
    ("inner_statement.enter_stmt", "enter"),
    ("enter_stmt#always", "enter always"),
    ("enter_stmt#on", "enter on N"),
    ("enter_stmt#at-start", "at start"),
    ("enter_stmt#sum", "or sum N"),
    ("enter_stmt#compulsory", "enter compulsory"),
    ("enter_stmt#first", "enter first"),
    ("inner_statement.extra_stmt", "extra roll"),
    ("extra_stmt#never", "extra roll never"),
    ("extra_stmt#doubles", "extra roll on doubles"),
    ("extra_stmt#faces", "extra roll on N"),
    ("inner_statement.finish_stmt", "finish"),
    ("finish_stmt#exact", "finish exact"),
    ("finish_stmt#bounce", "finish exact bounce"),
    ("finish_stmt#furthest", "finish exact or from furthest"),
    ("finish_stmt#past", "finish past"),
    ("inner_statement.win_stmt", "win"),
    ("win_stmt#first", "win first piece"),
    ("win_stmt#all", "win all pieces"),
    ("inner_statement.landing_rules_stmt", "landing rules"),
    ("landing_rules_stmt#once", "landing rules once"),
    ("landing_rules_stmt#chain", "landing rules chain"),
    ("inner_statement.cell_rule_stmt", "landing on"),
    ("cell_rule_stmt#resting", "resting on"),
    ("cell_rule_stmt#and", "and"),
    ("inner_statement.remove_stmt", "remove zone"),
    ("remove_stmt#piece", "remove piece"),
    ("remove_stmt#trigger", "remove on end at"),
    ("remove_stmt#end", "remove end"),
    ("inner_statement.safe_stmt", "safe cells"),
    ("safe_stmt#closed", "closed"),
    ("inner_statement.outcome_stmt", "outcome"),
    ("outcome_stmt#first-home", "outcome first-home"),
    ("outcome_stmt#last-home", "outcome last-home"),
    ("inner_statement.finishing_stmt", "finishing order"),
    ("inner_statement.roll_rule_stmt", "rolling"),
    ("roll_rule_stmt#faces-run", "times in a row"),
    ("roll_rule_stmt#doubles-run", "doubles in a row"),
    (
        "inner_statement.no_landing_stmt",
        "no landing on own pieces",
    ),
    (
        "no_landing_stmt#opponent",
        "no landing on N or more opponent pieces",
    ),
    ("no_landing_stmt#blockade", "no landing on N or more pieces"),
    (
        "inner_statement.tries_stmt",
        "tries N when no piece can move",
    ),
    ("inner_statement.leave_start_stmt", "leave start first"),
    (
        "inner_statement.bear_off_stmt",
        "bear off when all in last N",
    ),
    ("inner_statement.path_stmt", "path * :"),
    ("inner_statement.throw_stmt", "throw N sticks"),
    ("throw_stmt#values", "throw N sticks : N = N"),
    ("inner_statement.protect_stmt", "protected in rows of N"),
    ("inner_statement.no_passing_stmt", "no passing rows of N"),
    ("no_passing_stmt#stack", "no passing N on a cell"),
    ("no_passing_stmt#cells", "no passing cells"),
    ("inner_statement.layout_stmt", "layout"),
    ("inner_statement.bonus_stmt", "bonus N after capture"),
    ("bonus_stmt#home", "bonus N after home"),
    ("inner_statement.score_stmt", "score N"),
    ("score_stmt#left", "score pieces left"),
    ("score_stmt#when", "score N when"),
    ("score_stmt#none-off", "has borne off none"),
    ("score_place.kw_out", "has a piece out"),
    ("score_place.score_last", "winner's last N"),
    // piece lines
    ("piece_line.step_line", "step"),
    ("piece_line.slide_line", "slide"),
    ("replacement.kw_captures", "captures"),
    ("replacement.kw_captures_only", "captures-only"),
    ("replacement.kw_clone", "clone"),
    ("piece_line.jump_line", "jump short"),
    ("jump_line#long", "jump long"),
    ("jump_limit.kw_land_beyond", "land-beyond"),
    ("jump_limit.kw_no_reverse", "no-reverse"),
    ("jump_limit.kw_must_continue", "diagonal must-continue"),
    ("jump_limit.kw_straight", "straight"),
    ("piece_line.hop_line", "hop"),
    ("piece_line.promote_line", "promote * at"),
    ("piece_line.immune_line", "immune to"),
    ("piece_line.value_line", "value N"),
    ("piece_line.place_line", "place"),
    ("place_line#anywhere", "place anywhere"),
    ("place_line#enclosing", "place enclosing"),
    ("place_line#next-to", "place next-to own"),
    ("piece_line.captured_line", "captured surrounded"),
    ("piece_line.unarmed_line", "unarmed"),
    // capture settings
    ("capture_setting.precedence", "capture precedence"),
    ("criterion.crit_most_pieces", "most pieces"),
    ("criterion.crit_most_value", "most value"),
    ("criterion.crit_most_kind", "precedence most king"),
    ("criterion.crit_fewest_kind", "fewest *"),
    ("criterion.crit_by_kind", "precedence by *"),
    ("criterion.crit_earliest_kind", "earliest *"),
    ("capture_setting.custodian", "capture custodian"),
    ("custodian#multiple", "multiple"),
    ("custodian#corners", "corners"),
    ("capture_setting.neighbours", "capture neighbours"),
    ("capture_setting.edge", "capture edge hostile"),
    ("edge#neutral", "capture edge neutral"),
    ("capture_setting.kw_compulsory", "capture compulsory"),
    ("capture_setting.kw_optional", "capture optional"),
    ("capture_setting.kw_most", "capture most"),
    ("capture_setting.kw_free", "capture free"),
    ("capture_setting.removes", "capture removes at-end"),
    ("removes#at-once", "capture removes at-once"),
    ("capture_setting.converts", "capture converts to"),
    ("capture_setting.kw_stacks", "capture stacks"),
    // end rules
    ("end_rule.end_no_pieces", "end no-pieces"),
    ("end_rule.end_no_moves", "end no-moves"),
    ("end_no_moves#pass", "end no-moves pass"),
    ("end_rule.end_repetition", "end repetition N"),
    ("end_rule.end_draw_after", "end draw after N plies without"),
    ("end_rule.end_after", "end after N plies without"),
    ("end_rule.end_reach", "end reach"),
    ("end_rule.end_reduced_to", "end reduced-to N"),
    ("end_rule.end_loser", "end loser drops-out"),
    ("end_loser#ends-game", "end loser ends-game"),
    ("end_rule.end_most_pieces", "end most-pieces"),
    ("end_rule.end_line", "end line N"),
    ("end_line#exactly", "end line exactly N"),
    ("end_rule.end_captured", "end captured *"),
    // tests of cell rules
    ("test_atom.digit_test", "digit N"),
    ("test_atom.kw_double", "on double"),
    ("test_atom.cells_test", "cells N"),
    ("cells_test#cell", "cell N"),
    ("test_atom.multiple_test", "multiple of N"),
    ("test_atom.kw_any", "on any"),
    ("test_atom.kw_entering", "entering"),
    ("test_atom.roll_test", "roll N"),
    ("test_term#not", "not"),
    // effects
    ("cell_effect.targeted_effect", "opponents out"),
    ("cell_effect.forward_effect", ": forward N"),
    ("cell_effect.back_effect", ": back N"),
    ("cell_effect.go_effect", "go to N"),
    ("cell_effect.kw_out", ": out"),
    ("cell_effect.miss_effect", "miss N"),
    ("cell_effect.no_extra_effect", "no extra roll"),
    ("cell_effect.extra_effect", ": extra roll"),
    ("cell_effect.repeat_effect", "repeat move"),
    ("cell_effect.kw_held", "held"),
    ("cell_effect.kw_bump", "bump"),
    ("cell_effect.kw_stop", "stop"),
    ("cell_effect.end_turn_effect", "end turn"),
    ("targeted_effect#swap", "swap"),
    ("target.kw_others", "others"),
    ("target.kw_opponents", "opponents"),
    ("target.kw_furthest", "furthest"),
    ("target.kw_hindmost", "hindmost"),
    ("target.kw_own_pieces", "own-pieces"),
    ("target.kw_last_moved", "last-moved"),
];

/// The lists of the grammar whose alternatives are each a construct.
const GRAMMAR_LISTS: &[&str] = &[
    "statement",
    "inner_statement",
    "zone_property",
    "capture_setting",
    "criterion",
    "end_rule",
    "piece_line",
    "replacement",
    "jump_limit",
    "test_atom",
    "cell_effect",
    "target",
    "score_place",
];

/// The alternatives of the rule `name` of the grammar (`name = { a | b }`).
fn alternatives(grammar: &str, name: &str) -> Vec<String> {
    let start = grammar
        .lines()
        .position(|l| l.starts_with(&format!("{name} = ")))
        .unwrap_or_else(|| panic!("no rule {name} in the grammar"));
    let mut body = String::new();
    for line in grammar.lines().skip(start) {
        body.push_str(line);
        body.push(' ');
        if line.trim_end().ends_with('}') {
            break;
        }
    }
    let inner = body
        .split_once('{')
        .and_then(|(_, rest)| rest.rsplit_once('}'))
        .map(|(inner, _)| inner)
        .unwrap_or("");
    inner
        .split('|')
        .map(|a| a.trim().to_string())
        .filter(|a| !a.is_empty())
        .collect()
}

/// The words of a rule file: strings as one word `"`, comments left out,
/// `:`, `=`, `-` (between numbers) and `,` words of their own, braces
/// dropped.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        let mut code = String::new();
        // Strings become one word; a comment ends the line.
        loop {
            let quote = rest.find('"');
            let comment = rest.find("//");
            match (quote, comment) {
                (Some(q), c) if c.is_none_or(|c| q < c) => {
                    code.push_str(&rest[..q]);
                    code.push_str(" \" ");
                    let after = &rest[q + 1..];
                    rest = after.find('"').map_or("", |e| &after[e + 1..]);
                }
                (_, Some(c)) => {
                    code.push_str(&rest[..c]);
                    break;
                }
                _ => {
                    code.push_str(rest);
                    break;
                }
            }
        }
        let spaced = code
            .replace(['{', '}'], " ")
            .replace(':', " : ")
            .replace('=', " = ")
            .replace(',', " , ");
        for w in spaced.split_whitespace() {
            // `1-3` in `ranks 1-3`: three words.
            match w.split_once('-') {
                Some((a, b))
                    if !a.is_empty()
                        && a.chars().all(|c| c.is_ascii_digit())
                        && b.chars().all(|c| c.is_ascii_digit()) =>
                {
                    out.extend([a.to_string(), "-".to_string(), b.to_string()]);
                }
                _ => out.push(w.to_string()),
            }
        }
    }
    out
}

/// Whether `pattern` occurs in `words`.
fn occurs(pattern: &str, words: &[String]) -> bool {
    let p: Vec<&str> = pattern.split_whitespace().collect();
    words.windows(p.len()).any(|w| {
        w.iter().zip(&p).all(|(word, pat)| match *pat {
            "N" => !word.is_empty() && word.chars().all(|c| c.is_ascii_digit() || c == '.'),
            "*" => true,
            _ => word == pat,
        })
    })
}

#[test]
fn every_construct_of_the_grammar_is_listed() {
    let grammar =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar/rules.pest"))
            .unwrap();
    for list in GRAMMAR_LISTS {
        for alt in alternatives(&grammar, list) {
            if alt == "inner_statement" {
                continue;
            }
            let key = format!("{list}.{alt}");
            assert!(
                CONSTRUCTS.iter().any(|(k, _)| *k == key),
                "the grammar's {key} has no entry in CONSTRUCTS (tests/docs_language.rs)"
            );
        }
    }
}

#[test]
fn every_construct_has_a_house_rule_in_the_document() {
    let text = document();
    let all = blocks(&text);
    let rules: Vec<Vec<String>> = house_rules(&all).iter().map(|b| words(&b.text)).collect();
    let missing: Vec<String> = CONSTRUCTS
        .iter()
        .filter(|(_, pattern)| !rules.iter().any(|w| occurs(pattern, w)))
        .map(|(key, pattern)| format!("{key} (`{pattern}`)"))
        .collect();
    assert!(
        missing.is_empty(),
        "no house rule of docs/language.md writes:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_words_of_a_rule_file() {
    let w = words(
        "zone home = ranks 1-3 // the first three\ngame \"A: b\"\nsetup white: 2 on p24, 5 on p13",
    );
    assert_eq!(
        w,
        [
            "zone", "home", "=", "ranks", "1", "-", "3", "game", "\"", "setup", "white", ":", "2",
            "on", "p24", ",", "5", "on", "p13"
        ]
    );
    assert!(occurs("zone * = ranks N - N", &w));
    assert!(occurs("setup * : N on", &w));
    assert!(!occurs("setup * at", &w));
}

// ------------------------------------------------------------------ must hold

/// The head of a race on two paths (issue 27's examples).
const PATHS: &str =
    "game \"Test\"\nplayers 2\nseats white black\npieces 4 per player\nfinish exact\n";

/// The mistakes the two issues name, each as `check` must report it: the
/// code, where (line and column of the underlined text) and a hint.
#[test]
fn each_mistake_the_issues_name_is_reported_with_its_place_and_a_hint() {
    let paths = "path white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\n";
    let cases: Vec<(&str, String, &str, usize, usize)> = vec![
        (
            "a path that comes back to a cell never reaches its end",
            format!("{PATHS}path white: a1-a4 m1-m8 a4 a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 4 sticks\n"),
            "E033",
            6,
            25,
        ),
        (
            "a throw that moves nothing: no path is ever run to its end",
            format!("{PATHS}{paths}throw 4 sticks: 0 = 0, 1 = 0, 2 = 0, 3 = 0, 4 = 0\n"),
            "E034",
            8,
            17,
        ),
        (
            "a seat without a path",
            format!("{PATHS}path white: a1-a4 m1-m8 a5-a6\nthrow 4 sticks\n"),
            "E032",
            6,
            6,
        ),
        (
            "a throw table that doesn't cover its faces",
            format!("{PATHS}{paths}throw 4 sticks: 0 = 5, 1 = 1, 2 = 2\n"),
            "E034",
            8,
            17,
        ),
        (
            "a blockade larger than the pieces a seat has",
            format!("{PATHS}{paths}dice 2 d6\nmove each die\nno landing on 5 or more pieces\n"),
            "E030",
            10,
            15,
        ),
        (
            "a placement with no hand",
            "game \"G\"\nboard 8 x 8\nside black \"Black\" forward north\nside white \"White\" forward south\npiece disc \"Disc\" {\n  place anywhere\n}\nend no-moves draw\n".to_string(),
            "E060",
            6,
            3,
        ),
        (
            "a stack rule in a game whose captures remove",
            "extends \"draughts\"\ngame \"G\"\ncapture stacks\ncapture removes at-once\n".to_string(),
            "E008",
            4,
            1,
        ),
        (
            "a stack rule with a capture that removes enclosed pieces",
            "extends \"draughts\"\ngame \"G\"\ncapture custodian orthogonal\ncapture stacks\n"
                .to_string(),
            "E090",
            4,
            1,
        ),
        (
            "a line longer than the board",
            "extends \"other/gomoku\"\ngame \"G\"\nend line 16 win\n".to_string(),
            "E030",
            3,
            10,
        ),
        (
            "a hostile edge with no piece captured surrounded",
            "extends \"other/hasami-shogi\"\ngame \"G\"\ncapture edge hostile\n".to_string(),
            "E060",
            3,
            1,
        ),
        (
            "a hostile square off the board",
            "extends \"other/brandubh\"\ngame \"G\"\nzone corners = a1 a7 g1 g7 h8 hostile only king\n"
                .to_string(),
            "E009",
            3,
            28,
        ),
    ];
    for (what, text, code, line, col) in cases {
        let checked = check_source(
            Source {
                name: "test.rules".to_string(),
                text,
            },
            &BundledLoader,
            &[],
        );
        let rendered = checked.render();
        let found = checked.diagnostics.iter().any(|d| {
            d.code.as_str() == code
                && d.primary_span()
                    .and_then(|s| checked.sources.location(s))
                    .is_some_and(|(f, l, c)| f == "test.rules" && l == line && c == col)
        });
        assert!(found, "{what}: no {code} at {line}:{col}:\n{rendered}");
        assert!(
            rendered.contains(&format!("--> test.rules:{line}:{col}")),
            "{what}: the place is not shown:\n{rendered}"
        );
        assert!(
            rendered.contains('^'),
            "{what}: nothing underlined:\n{rendered}"
        );
        assert!(
            rendered.contains("= help: "),
            "{what}: no hint:\n{rendered}"
        );
    }
}

/// The one mistake of the list the checker learnt for this test: a table of
/// throws that are all 0.
#[test]
fn a_throw_that_moves_nothing_is_named() {
    let text = format!(
        "{PATHS}path white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 4 sticks: 0 = 0, 1 = 0, 2 = 0, 3 = 0, 4 = 0\n"
    );
    let checked = check_source(
        Source {
            name: "test.rules".to_string(),
            text,
        },
        &BundledLoader,
        &[],
    );
    assert!(checked.loaded.is_none());
    insta::assert_snapshot!("diagnostic-throw-that-moves-nothing", checked.render());
    // One value of 1 or more is enough.
    let text = format!(
        "{PATHS}path white: a1-a4 m1-m8 a5-a6\npath black: b1-b4 m1-m8 b5-b6\nthrow 4 sticks: 0 = 0, 1 = 0, 2 = 0, 3 = 0, 4 = 1\n"
    );
    let checked = check_source(
        Source {
            name: "test.rules".to_string(),
            text,
        },
        &BundledLoader,
        &[],
    );
    assert_eq!(checked.errors(), 0, "{}", checked.render());
}
