//! Race games: the track, the players and their pieces, the dice, entry,
//! extra rolls, the finish, and the cell rules with their tests and effects.
//! The result is a `RaceSpec`, ready for `compile::race`, which builds the
//! tables and finds circles of chained landings on them (`E038`).

use super::merge::{duplicate, Merged};
use crate::ast::{
    CellEffectDecl, EnterDecl, ExtraDecl, RollConditionDecl, RollRuleDecl, SetupCell, Spanned,
    TargetAction, TestAtom,
};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;
use crate::suggest::unknown_help;
use crate::vocab::race::{
    Action, CellEffect, Circuit, Enter, Extra, Finish, Moment, Outcome, Paths, RaceSettings,
    RollCondition, RollRule, RollTest, Target, Win, MAX_DICE, MAX_STICKS,
};
use std::collections::HashMap;

/// Track lengths a game may have.
pub const TRACK: std::ops::RangeInclusive<u32> = 2..=1000;
/// How many dice may be rolled at once.
pub const DICE: std::ops::RangeInclusive<u32> = 1..=MAX_DICE as u32;
/// How many faces a die may have.
pub const FACES: std::ops::RangeInclusive<u32> = 2..=20;
/// How many players a game may have.
pub const PLAYERS: std::ops::RangeInclusive<u32> = 1..=8;
/// How many pieces each player may have.
pub const PIECES: std::ops::RangeInclusive<u32> = 1..=15;
/// The seat names when the rule file gives none.
pub const DEFAULT_SEATS: [&str; 8] = [
    "red", "blue", "green", "yellow", "white", "black", "purple", "orange",
];

/// A test of a cell rule that looks at the cell's number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellTest {
    /// The number contains the digit.
    Digit(u8),
    /// The number has two or more digits, all the same (11, 22, ...).
    Double,
    /// The number is one of these ranges (single cells are ranges of one).
    Cells(Vec<(u16, u16)>),
    /// The number is a multiple of this.
    Multiple(u16),
    /// Every cell.
    Any,
}

impl CellTest {
    /// Whether the test holds on cell `n`.
    pub fn holds(&self, n: u16) -> bool {
        match self {
            CellTest::Digit(d) => {
                let mut m = n;
                loop {
                    if m % 10 == u16::from(*d) {
                        return true;
                    }
                    m /= 10;
                    if m == 0 {
                        return false;
                    }
                }
            }
            CellTest::Double => {
                let last = n % 10;
                let mut m = n / 10;
                if m == 0 {
                    return false;
                }
                while m > 0 {
                    if m % 10 != last {
                        return false;
                    }
                    m /= 10;
                }
                true
            }
            CellTest::Cells(ranges) => ranges.iter().any(|&(a, b)| a <= n && n <= b),
            CellTest::Multiple(k) => *k > 0 && n.is_multiple_of(*k),
            CellTest::Any => true,
        }
    }
}

/// A checked cell rule.
#[derive(Clone, Debug)]
pub struct SpecRule {
    /// Landing or resting.
    pub moment: Moment,
    /// How events name it.
    pub label: String,
    /// Tests of the cell, each maybe negated.
    pub cell_tests: Vec<(bool, CellTest)>,
    /// Tests of the roll, each maybe negated.
    pub roll_tests: Vec<(bool, RollTest)>,
    /// Effects, in order.
    pub effects: Vec<CellEffect>,
    /// The statement.
    pub span: Span,
}

impl SpecRule {
    /// Whether all its cell tests hold on cell `n`.
    pub fn holds_on(&self, n: u16) -> bool {
        self.cell_tests
            .iter()
            .all(|(negated, test)| test.holds(n) != *negated)
    }
}

/// A checked race game, before its tables are built: its settings (read
/// as its own fields) and its cell rules.
#[derive(Clone, Debug)]
pub struct RaceSpec {
    /// The settings, which the compiled game keeps as they are.
    pub settings: RaceSettings,
    /// The highest cell number a cell rule may name (the cells before the
    /// finish; on a circuit, the cells of the loop).
    pub rule_cells: u16,
    /// Cell rules.
    pub rules: Vec<SpecRule>,
}

impl std::ops::Deref for RaceSpec {
    type Target = RaceSettings;

    fn deref(&self) -> &RaceSettings {
        &self.settings
    }
}

/// `E031`: a statement of the other kind of game.
pub fn wrong_kind(word: &str, at: Span, kind: &str, because: Option<(Span, &str)>) -> Diagnostic {
    let (belongs, help) = if kind == "race" {
        (
            "board games",
            "remove it: a race game is described by `track`, `players`, `pieces`, `dice` and cell rules",
        )
    } else {
        (
            "race games",
            "remove it, or make this a race game with `track N` instead of `board`",
        )
    };
    let mut d = Diagnostic::new(
        Code::WrongKind,
        format!("`{word}` belongs to {belongs}, and this is a {kind} game"),
    )
    .primary(at, format!("not part of a {kind} game"));
    if let Some((span, text)) = because {
        d = d.secondary(span, text);
    }
    d.help(help)
}

/// Checks the race statements of a game that has a `track` (or race
/// statements and no `board`).
pub fn check_race(merged: &Merged, title: &str, diags: &mut Vec<Diagnostic>) -> Option<RaceSpec> {
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    let because = merged
        .track
        .map(|t| (t.span, "this `track` makes it a race game"));
    for (word, at) in &merged.board_only {
        diags.push(wrong_kind(word, *at, "race", because));
    }
    // Paths describe the track themselves: no `track` then.
    let on_paths = merged.track.is_none() && !merged.paths.is_empty();
    let cells = if on_paths {
        None
    } else {
        check_track(merged, diags)
    };
    let sticks = merged.throw.is_some() && merged.dice.is_none();
    let (dice, faces) = match merged.throw.filter(|_| sticks) {
        Some(n) => (check_throw(n, diags), Some(1)),
        None => check_dice(merged, diags),
    };
    let throw_values = match (sticks, dice) {
        (true, Some(n)) => check_values(merged, Keys::Sticks(n), diags),
        _ => Vec::new(),
    };
    let face_values = match (sticks, faces) {
        (false, Some(f)) => check_values(merged, Keys::Faces(f), diags),
        _ => Vec::new(),
    };
    // With a table of values, a die moves its largest value at most.
    let tabled = !face_values.is_empty();
    if let (Some(track), Some((count, face))) = (merged.track, merged.dice) {
        let most = face_values
            .iter()
            .max()
            .map_or(u64::from(face.node), |&v| u64::from(v));
        let largest = u64::from(count.node) * most;
        if cells.is_some() && dice.is_some() && u64::from(track.node) < largest {
            let d = Diagnostic::new(
                Code::TrackSize,
                format!(
                    "a track of {} cells is shorter than the largest roll, {largest}",
                    track.node
                ),
            );
            diags.push(if merged.layers.dice > merged.layers.track {
                // The dice were restated by a house rule: its line is the
                // one to change.
                d.primary(count.span.to(face.span), "too many for this track")
                    .secondary(track.span, format!("inherited: `track {}`", track.node))
                    .help(format!(
                        "the inherited `track {}` is shorter than the largest roll of these dice: roll fewer or smaller dice, or restate the track in this file, at least `track {largest}`",
                        track.node
                    ))
            } else {
                d.primary(track.span, "too short for these dice")
                    .secondary(count.span.to(face.span), "these dice")
                    .help(format!("make the track at least {largest} cells long"))
            });
        }
    }
    let (min_players, max_players) = check_players(merged, diags);
    let seats = check_seats(merged, max_players, diags);
    let paths = if on_paths {
        check_paths(merged, &seats, max_players, diags)
    } else {
        None
    };
    let pieces = match merged.pieces_per_player {
        None => 1,
        Some(n) if PIECES.contains(&n.node) => n.node as u8,
        Some(n) => {
            diags.push(
                Diagnostic::new(
                    Code::CountRange,
                    format!("{} pieces per player is outside 1..15", n.node),
                )
                .primary(n.span, "from 1 to 15")
                .help("each player has 1 to 15 pieces, such as `pieces 2 per player`"),
            );
            1
        }
    };
    let enter = match merged.enter {
        None | Some(EnterDecl::Always) => Enter::Always,
        Some(EnterDecl::OnFace(f)) => Enter::OnFace(inherited_face(
            merged,
            f,
            faces,
            merged.layers.enter,
            &format!("enter on {}", f.node),
            diags,
        )),
    };
    if let (Enter::OnFace(f), Some(EnterDecl::OnFace(written))) = (enter, merged.enter) {
        if face_values.get(usize::from(f)) == Some(&0) {
            diags.push(
                Diagnostic::new(
                    Code::DiceRange,
                    format!("a piece enters on {f}, but a {f} is worth 0 and moves nothing"),
                )
                .primary(written.span, format!("a {f} moves nothing"))
                .help(format!(
                    "a die worth 0 moves no piece, entering included: give the {f} a value of 1 or more in the dice's table, or enter on another face"
                )),
            );
        }
    }
    let extra = match merged.extra {
        None | Some(ExtraDecl::Never) => Extra::Never,
        Some(ExtraDecl::Doubles(span)) => {
            if dice == Some(1) {
                let restated = merged
                    .dice
                    .filter(|_| merged.layers.dice > merged.layers.extra);
                let d = Diagnostic::new(Code::DiceRange, "doubles need two dice or more");
                diags.push(match restated {
                    // The house rule restated the dice: point at its line,
                    // and name the inherited statement it breaks.
                    Some((count, faces)) => d
                        .primary(count.span.to(faces.span), "one die never shows a double")
                        .secondary(span, "inherited: `extra roll on doubles`")
                        .help("the inherited `extra roll on doubles` needs two dice or more: restate it in this file too, such as `extra roll on 6` or `extra roll never`, or keep two dice"),
                    None => d
                        .primary(span, "one die never shows a double")
                        .help("roll more dice (`dice 2 d6`), or give the extra roll on a face: `extra roll on 6`"),
                });
            }
            Extra::Doubles
        }
        Some(ExtraDecl::OnFace(f)) if sticks => {
            Extra::OnValues(throw_mask(&[f], dice, &throw_values, diags))
        }
        Some(ExtraDecl::OnValues(ref values)) if sticks => {
            Extra::OnValues(throw_mask(values, dice, &throw_values, diags))
        }
        Some(ExtraDecl::OnValues(ref values)) => Extra::OnValues(
            values
                .iter()
                .fold(0, |mask, &f| mask | 1u64 << face_of(f, faces, diags)),
        ),
        Some(ExtraDecl::OnFace(f)) => Extra::OnFace(inherited_face(
            merged,
            f,
            faces,
            merged.layers.extra,
            &format!("extra roll on {}", f.node),
            diags,
        )),
    };
    let circuit =
        cells.and_then(|loop_cells| check_circuit(merged, loop_cells, max_players, diags));
    // Cell rules name the cells before the finish; on a circuit, the cells
    // of the loop (the home cells have none).
    let rule_cells = match (&circuit, &paths, cells) {
        (Some(c), _, _) => Some(c.cells),
        (None, Some(p), _) => u16::try_from(p.names.len()).ok(),
        (None, None, Some(n)) => Some(n - 1),
        _ => None,
    };
    // On paths a piece finishes one step past its path's last cell.
    let path = match (&circuit, &paths, cells) {
        (Some(c), _, _) => Some(c.cells + c.home),
        (None, Some(p), _) => p
            .seats
            .first()
            .and_then(|s| u16::try_from(s.len() + 1).ok()),
        (None, None, n) => n,
    };
    let mut rules = Vec::new();
    let mut safe = Vec::new();
    if let Some(n) = rule_cells {
        for rule in &merged.cell_rules {
            if let Some(r) = check_rule(rule, n + 1, paths.as_ref(), dice, faces, diags) {
                rules.push(r);
            }
        }
        safe = check_safe(merged, n, circuit.is_some(), paths.as_ref(), diags);
    }
    let closed = if merged.closed.is_some() {
        safe.clone()
    } else {
        Vec::new()
    };
    let mut roll_rules = Vec::new();
    if let Some(n) = rule_cells {
        for rule in &merged.roll_rules {
            if let Some(r) = check_roll_rule(rule, n + 1, dice, faces, diags) {
                roll_rules.push(r);
            }
        }
    }
    let turn_rules = check_turn_rules(merged, circuit.as_ref(), pieces, diags);
    let rows = check_row_rules(
        merged,
        pieces,
        rule_cells,
        circuit.is_some(),
        paths.as_ref(),
        diags,
    );
    let setup = match path {
        Some(length) => check_setups(
            merged,
            &seats,
            pieces,
            Track {
                length,
                circuit: circuit.as_ref(),
                paths: paths.as_ref(),
            },
            diags,
        ),
        None => Vec::new(),
    };
    let layout = super::layout::check_layout(
        merged,
        &super::layout::Track {
            cells: if paths.is_some() { None } else { cells },
            circuit: circuit.as_ref(),
            paths: paths.as_ref(),
            seats: &seats,
        },
        diags,
    );
    let scores = super::score::check_scores(
        merged,
        &super::score::ScoreGame {
            max_players,
            path_cells: path.map(|p| p.saturating_sub(1)),
            pieces,
        },
        diags,
    );
    let finish = match (&circuit, merged.finish) {
        // Kept home cells are moved up by the exact count (MA-2).
        (Some(c), None) if c.kept => Finish::Exact,
        (_, f) => f.unwrap_or(Finish::Past),
    };
    if diags.iter().filter(|d| d.is_error()).count() > errors_before {
        return None;
    }
    let kept = circuit.as_ref().is_some_and(|c| c.kept);
    let rows_in_force = rows.in_force();
    let captures = rules.iter().any(|r| {
        r.effects.iter().any(|e| {
            matches!(
                e,
                CellEffect::Targeted(Target::Opponents | Target::Others, Action::Out)
            )
        })
    });
    let dice_rules = check_dice_rules(merged, pieces, path, (dice, faces), sticks, captures, diags);
    if diags.iter().filter(|d| d.is_error()).count() > errors_before {
        return None;
    }
    Some(RaceSpec {
        settings: RaceSettings {
            title: merged
                .game
                .as_ref()
                .map_or_else(|| title.to_string(), |g| g.node.clone()),
            description: merged
                .description
                .as_ref()
                .map_or_else(String::new, |d| d.node.clone()),
            cells: path?,
            circuit,
            paths,
            layout,
            safe,
            closed,
            sticks,
            throw_values,
            face_values,
            setup,
            enter_at_start: merged.enter_at_start,
            roll_rules,
            outcome: merged.outcome.map_or(Outcome::FirstHomeWins, |o| o.node),
            order: merged.order,
            scores,
            min_players,
            max_players,
            seats,
            pieces,
            dice: dice?,
            faces: faces?,
            enter,
            extra,
            finish,
            win: merged.win.unwrap_or(Win::FirstPiece),
            compulsory: merged.move_compulsory.unwrap_or(true),
            chain: merged.chain.unwrap_or(false),
            no_landing_own: turn_rules.no_landing_own,
            enter_compulsory: turn_rules.enter_compulsory,
            tries: turn_rules.tries,
            leave_start: turn_rules.leave_start,
            protect_rows: rows.protect,
            pass_rows: rows.block,
            pass_stack: rows.stack,
            no_passing: rows.no_passing,
            move_back: rows.move_back,

            each_die: dice_rules.each_die,
            doubles_times: dice_rules.doubles_times,
            most_dice: dice_rules.most_dice,
            point: dice_rules.point,
            enter_first: dice_rules.enter_first,
            stack_landing: dice_rules.stack_landing,
            enter_sum: dice_rules.enter_sum,
            bonus_capture: dice_rules.bonus_capture,
            bonus_home: dice_rules.bonus_home,
            bear_off_last: dice_rules.bear_off_last,
            finish_furthest: dice_rules.finish_furthest,
            restricted: rows_in_force
                || dice_rules.each_die
                || turn_rules.no_landing_own
                || turn_rules.enter_compulsory
                || turn_rules.leave_start
                || dice_rules.stack_landing > 0
                || kept
                || sticks
                || tabled
                || merged.closed.is_some(),
        },
        rule_cells: rule_cells?,
        rules,
    })
}

fn check_track(merged: &Merged, diags: &mut Vec<Diagnostic>) -> Option<u16> {
    let Some(track) = merged.track else {
        let mut d = Diagnostic::new(Code::TrackSize, "the race game has no `track`")
            .help("add one, such as `track 100` (cells 1 to 100; the last is the finish)");
        if let Some(anchor) = merged.anchor {
            d = d.primary(anchor, "this game has dice but no track");
        }
        diags.push(d);
        return None;
    };
    if !TRACK.contains(&track.node) {
        diags.push(
            Diagnostic::new(
                Code::TrackSize,
                format!("a track of {} cells is outside 2..1000", track.node),
            )
            .primary(track.span, "from 2 to 1000 cells")
            .help("a track has 2 to 1000 cells; the last one is the finish"),
        );
        return None;
    }
    u16::try_from(track.node).ok()
}

fn check_dice(merged: &Merged, diags: &mut Vec<Diagnostic>) -> (Option<u8>, Option<u8>) {
    let Some((count, faces)) = merged.dice else {
        let mut d = Diagnostic::new(Code::MissingDice, "the race game has no `dice`")
            .help("add them, such as `dice 2 d6` (two dice of six faces)");
        if let Some(anchor) = merged.anchor {
            d = d.primary(anchor, "this game needs dice");
        }
        diags.push(d);
        return (None, None);
    };
    let mut ok = |n: Spanned<u32>, range: &std::ops::RangeInclusive<u32>, what: &str| {
        if range.contains(&n.node) {
            u8::try_from(n.node).ok()
        } else {
            let message = if what == "dice" {
                format!("{} dice: a game rolls 1 to 4 dice", n.node)
            } else {
                format!("`d{}`: a die has 2 to 20 faces", n.node)
            };
            diags.push(
                Diagnostic::new(Code::DiceRange, message)
                    .primary(n.span, format!("from {} to {}", range.start(), range.end()))
                    .help("a game rolls 1 to 4 dice of 2 to 20 faces, such as `dice 2 d6`"),
            );
            None
        }
    };
    let c = ok(count, &DICE, "dice");
    let f = ok(faces, &FACES, "faces");
    (c, f)
}

fn check_players(merged: &Merged, diags: &mut Vec<Diagnostic>) -> (u8, u8) {
    let Some((min, max)) = merged.players else {
        return (2, 6);
    };
    for n in [min, max] {
        if !PLAYERS.contains(&n.node) {
            diags.push(
                Diagnostic::new(
                    Code::PlayerCount,
                    format!("{} players is outside 1..8", n.node),
                )
                .primary(n.span, "from 1 to 8")
                .help("a race game has 1 to 8 players, such as `players 2-6`"),
            );
            return (2, 6);
        }
    }
    if min.node > max.node {
        diags.push(
            Diagnostic::new(
                Code::PlayerCount,
                format!("players {}-{} is reversed", min.node, max.node),
            )
            .primary(min.span.to(max.span), "the fewest come first")
            .help(format!("write `players {}-{}`", max.node, min.node)),
        );
        return (2, 6);
    }
    (min.node as u8, max.node as u8)
}

fn check_seats(merged: &Merged, max_players: u8, diags: &mut Vec<Diagnostic>) -> Vec<String> {
    let Some(names) = &merged.seats else {
        return DEFAULT_SEATS.iter().map(|s| (*s).to_string()).collect();
    };
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for n in names {
        if let Some(first) = seen.insert(&n.node, n.span) {
            diags.push(duplicate(&format!("seat `{}`", n.node), n.span, first));
        }
    }
    if names.len() < usize::from(max_players) {
        let at = names
            .first()
            .map_or(Span::default(), |f| f.span)
            .to(names.last().map_or(Span::default(), |l| l.span));
        let mut d = Diagnostic::new(
            Code::PlayerCount,
            format!("{} seat names for up to {max_players} players", names.len()),
        )
        .primary(at, format!("{max_players} names needed"));
        if let Some((_, max)) = merged.players {
            d = d.secondary(max.span, "the most players");
        }
        diags.push(d.help("name one seat per player, in seat order"));
    }
    names.iter().map(|n| n.node.clone()).collect()
}

/// A face of a die, checked against the dice's faces.
/// The face `f` of a statement (`enter on 6`, written in layer `layer`) as
/// `face_of` checks it; when a later house rule restated the dice so that
/// the face is gone, the problem is reported at the dice, naming the
/// inherited statement `what` (issue 9, item 10).
fn inherited_face(
    merged: &Merged,
    f: Spanned<u32>,
    faces: Option<u8>,
    layer: usize,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> u8 {
    match (faces, merged.dice) {
        (Some(n), Some((_, die)))
            if merged.layers.dice > layer && (f.node == 0 || f.node > u32::from(n)) =>
        {
            diags.push(
                Diagnostic::new(
                    Code::DiceRange,
                    format!("no die of this game shows {}", f.node),
                )
                .primary(die.span, format!("the faces are 1 to {n}"))
                .secondary(f.span, format!("inherited: `{what}`"))
                .help(format!(
                    "the inherited `{what}` names a face these dice don't have: restate it in this file too, with a face from 1 to {n}, or keep dice that show {}",
                    f.node
                )),
            );
            1
        }
        _ => face_of(f, faces, diags),
    }
}

fn face_of(f: Spanned<u32>, faces: Option<u8>, diags: &mut Vec<Diagnostic>) -> u8 {
    let Some(faces) = faces else {
        return 1;
    };
    if f.node == 0 || f.node > u32::from(faces) {
        diags.push(
            Diagnostic::new(
                Code::DiceRange,
                format!("no die of this game shows {}", f.node),
            )
            .primary(f.span, format!("the faces are 1 to {faces}"))
            .help("name a face of the dice"),
        );
        return 1;
    }
    f.node as u8
}

/// `E033` for a cell outside `range` (`what` says which cells are allowed).
fn cell_number(n: Spanned<u32>, cells: u16, what: &str) -> Diagnostic {
    let message = if n.node == u32::from(cells) {
        format!("cell {} is the finish: {what}", n.node)
    } else {
        format!("cell {} is off the track", n.node)
    };
    Diagnostic::new(Code::CellNumber, message)
        .primary(n.span, format!("the track has cells 1 to {cells}"))
        .help(format!("the cells are numbered 1 to {cells}; {what}"))
}

/// `E033` on a circuit: a cell number that is not a cell of the loop.
fn loop_cell(n: Spanned<u32>, loop_cells: u16, what: &str) -> Diagnostic {
    Diagnostic::new(
        Code::CellNumber,
        format!("cell {} is not on the loop", n.node),
    )
    .primary(n.span, format!("the loop has cells 1 to {loop_cells}"))
    .help(format!(
        "the cells of the loop are numbered 1 to {loop_cells}; {what}"
    ))
}

fn check_rule(
    rule: &Spanned<crate::ast::CellRuleDecl>,
    cells: u16,
    paths: Option<&Paths>,
    dice: Option<u8>,
    faces: Option<u8>,
    diags: &mut Vec<Diagnostic>,
) -> Option<SpecRule> {
    let decl = &rule.node;
    let mut ok = true;
    let mut cell_tests = Vec::new();
    let mut roll_tests = Vec::new();
    let mut words = Vec::new();
    for term in &decl.tests {
        let t = &term.node;
        let not = if t.negated { "not " } else { "" };
        match &t.atom {
            TestAtom::Digit(d) => {
                if d.node > 9 {
                    diags.push(
                        Diagnostic::new(Code::CountRange, format!("{} is not a digit", d.node))
                            .primary(d.span, "a digit is 0 to 9")
                            .help("`digit 7` holds on cells whose number contains a 7"),
                    );
                    ok = false;
                    continue;
                }
                words.push(if t.negated {
                    format!("without {}", d.node)
                } else {
                    format!("contains {}", d.node)
                });
                cell_tests.push((t.negated, CellTest::Digit(d.node as u8)));
            }
            TestAtom::Double => {
                words.push(format!("{not}a double"));
                cell_tests.push((t.negated, CellTest::Double));
            }
            TestAtom::Any => {
                cell_tests.push((t.negated, CellTest::Any));
            }
            TestAtom::Multiple(k) => {
                if k.node == 0 || k.node > u32::from(cells) {
                    diags.push(
                        Diagnostic::new(
                            Code::CountRange,
                            format!("multiples of {} are not on the track", k.node),
                        )
                        .primary(k.span, format!("from 1 to {cells}"))
                        .help("`multiple of 9` holds on cells 9, 18, 27, ..."),
                    );
                    ok = false;
                    continue;
                }
                words.push(format!("{not}a multiple of {}", k.node));
                cell_tests.push((t.negated, CellTest::Multiple(k.node as u16)));
            }
            TestAtom::Named(written) => match named_cells(written, paths, diags) {
                Some(numbers) => {
                    if t.negated {
                        words.push("not listed".to_string());
                    }
                    let ranges = numbers.into_iter().map(|n| (n, n)).collect();
                    cell_tests.push((t.negated, CellTest::Cells(ranges)));
                }
                None => ok = false,
            },
            TestAtom::Cells(items) if paths.is_some() => {
                for (from, _) in items {
                    if let Some(p) = paths {
                        diags.push(numbered_on_paths(*from, p));
                    }
                }
                ok = false;
            }
            TestAtom::Cells(items) => {
                let mut ranges = Vec::new();
                for (from, to) in items {
                    let ends: Vec<Spanned<u32>> = match to {
                        Some(to) => vec![*from, *to],
                        None => vec![*from],
                    };
                    let to = to.unwrap_or(*from);
                    let mut item_ok = true;
                    for n in ends {
                        if n.node == 0 || n.node >= u32::from(cells) {
                            diags.push(cell_number(n, cells, "rules apply on cells before it"));
                            item_ok = false;
                        }
                    }
                    if item_ok && from.node > to.node {
                        diags.push(
                            Diagnostic::new(
                                Code::CellNumber,
                                format!("cells {}-{} is reversed", from.node, to.node),
                            )
                            .primary(from.span.to(to.span), "the lower cell comes first")
                            .help(format!("write `{}-{}`", to.node, from.node)),
                        );
                        item_ok = false;
                    }
                    if item_ok {
                        ranges.push((from.node as u16, to.node as u16));
                    } else {
                        ok = false;
                    }
                }
                if t.negated {
                    words.push("not listed".to_string());
                }
                cell_tests.push((t.negated, CellTest::Cells(ranges)));
            }
            TestAtom::Entering => {
                words.push(format!("{not}entering"));
                roll_tests.push((t.negated, RollTest::Entering));
            }
            TestAtom::Roll(values) => {
                let mut sorted = [0u8; MAX_DICE];
                let count_ok = dice.is_none_or(|d| values.len() == usize::from(d));
                if !count_ok {
                    let span = values
                        .first()
                        .map_or(term.span, |f| f.span)
                        .to(values.last().map_or(term.span, |l| l.span));
                    diags.push(
                        Diagnostic::new(
                            Code::DiceRange,
                            format!(
                                "a roll of {} dice in a game of {}",
                                values.len(),
                                dice.unwrap_or(0)
                            ),
                        )
                        .primary(span, "one face per die")
                        .help("name the face of every die, such as `roll 6 3` with two dice"),
                    );
                    ok = false;
                    continue;
                }
                if faces_beyond_dice(values, term.span, diags) {
                    ok = false;
                    continue;
                }
                for (slot, v) in sorted.iter_mut().zip(values) {
                    *slot = face_of(*v, faces, diags);
                }
                let n = values.len();
                if let Some(part) = sorted.get_mut(..n) {
                    part.sort_unstable();
                }
                let shown: Vec<String> = values.iter().map(|v| v.node.to_string()).collect();
                words.push(format!("{not}rolled {}", shown.join("+")));
                roll_tests.push((t.negated, RollTest::Faces { faces: sorted }));
            }
        }
    }
    let mut effects = Vec::new();
    for e in &decl.effects {
        let number = |n: Spanned<u32>, what: &str, diags: &mut Vec<Diagnostic>| {
            if n.node == 0 || n.node > u32::from(cells) {
                diags.push(
                    Diagnostic::new(
                        Code::CountRange,
                        format!("`{what} {}` makes no sense here", n.node),
                    )
                    .primary(n.span, format!("from 1 to {cells}"))
                    .help(format!("`{what}` takes 1 to {cells}")),
                );
                None
            } else {
                Some(n.node as u16)
            }
        };
        let effect = match e.node {
            CellEffectDecl::Forward(n) => number(n, "forward", diags).map(CellEffect::Forward),
            CellEffectDecl::Back(n) => number(n, "back", diags).map(CellEffect::Back),
            CellEffectDecl::Miss(n) => {
                if n.node == 0 || n.node > 255 {
                    diags.push(
                        Diagnostic::new(
                            Code::CountRange,
                            format!("`miss {} turns` makes no sense", n.node),
                        )
                        .primary(n.span, "from 1 to 255")
                        .help("such as `miss 2 turns`"),
                    );
                    None
                } else {
                    Some(CellEffect::Miss(n.node as u8))
                }
            }
            CellEffectDecl::GoTo(n) => {
                if n.node == 0 || n.node > u32::from(cells) {
                    diags.push(cell_number(
                        n,
                        cells,
                        "write `out` to send a piece back to the start",
                    ));
                    None
                } else {
                    Some(CellEffect::GoTo(n.node as u16))
                }
            }
            CellEffectDecl::Out => Some(CellEffect::Out),
            CellEffectDecl::NoExtraRoll => Some(CellEffect::NoExtraRoll),
            CellEffectDecl::ExtraRoll => Some(CellEffect::ExtraRoll),
            CellEffectDecl::Repeat => Some(CellEffect::Repeat),
            CellEffectDecl::Held => Some(CellEffect::Held),
            CellEffectDecl::Bump => Some(CellEffect::Targeted(Target::Others, Action::Out)),
            CellEffectDecl::Stop => Some(CellEffect::Stop),
            CellEffectDecl::Targeted(t, a) => target_action(t.node, a, e.span, cells, diags),
            CellEffectDecl::EndTurn => {
                diags.push(
                    Diagnostic::new(
                        Code::EffectMisplaced,
                        "`end turn` belongs to a rule of the roll",
                    )
                    .primary(e.span, "a cell rule applies after the move")
                    .help("write it in a rule of the roll, such as `rolling 3 doubles in a row: end turn`; to stop the later cell rules, write `stop`"),
                );
                None
            }
        };
        match effect {
            Some(effect) => {
                if decl.moment == Moment::Resting && effect.moves() && effect != CellEffect::Out {
                    diags.push(
                        Diagnostic::new(
                            Code::RestingMove,
                            "a `resting on` rule can't move the piece",
                        )
                        .primary(e.span, "this moves the piece on")
                        .help("move it in a `landing on` rule: the piece comes to rest after the landing rules"),
                    );
                    ok = false;
                }
                effects.push(effect);
            }
            None => ok = false,
        }
    }
    if !ok {
        return None;
    }
    let label = match &decl.name {
        Some(name) => name.node.clone(),
        None => words.join(" and "),
    };
    let spec = SpecRule {
        moment: decl.moment,
        label,
        cell_tests,
        roll_tests,
        effects,
        span: rule.span,
    };
    if !(1..cells).any(|c| spec.holds_on(c)) {
        let tests = decl
            .tests
            .first()
            .map_or(rule.span, |f| f.span)
            .to(decl.tests.last().map_or(rule.span, |l| l.span));
        diags.push(
            Diagnostic::new(Code::RuleNeverApplies, "this rule applies on no cell")
                .primary(
                    tests,
                    format!("holds on none of the cells 1 to {}", cells - 1),
                )
                .help(
                    "rules apply on the cells before the finish; check the numbers and the tests",
                ),
        );
    }
    Some(spec)
}

/// An effect with a target, its number checked like the moved piece's.
fn target_action(
    target: Target,
    action: TargetAction,
    span: Span,
    cells: u16,
    diags: &mut Vec<Diagnostic>,
) -> Option<CellEffect> {
    let number = |n: Spanned<u32>, what: &str, diags: &mut Vec<Diagnostic>| {
        if n.node == 0 || n.node > u32::from(cells) {
            diags.push(
                Diagnostic::new(
                    Code::CountRange,
                    format!("`{what} {}` makes no sense here", n.node),
                )
                .primary(n.span, format!("from 1 to {cells}"))
                .help(format!("`{what}` takes 1 to {cells}")),
            );
            None
        } else {
            Some(n.node as u16)
        }
    };
    let action = match action {
        TargetAction::Forward(n) => Action::Forward(number(n, "forward", diags)?),
        TargetAction::Back(n) => Action::Back(number(n, "back", diags)?),
        TargetAction::GoTo(n) => Action::GoTo(number(n, "go to", diags)?),
        TargetAction::Out => Action::Out,
        TargetAction::Swap if !target.on_cell() => {
            diags.push(
                Diagnostic::new(
                    Code::EffectMisplaced,
                    format!("`{} swap` has no cell to swap with", target.word()),
                )
                .primary(span, "these pieces are not where the moved piece lands")
                .help("a swap sends the pieces on the landing cell to the cell the moved piece came from: write `opponents swap` or `others swap`"),
            );
            return None;
        }
        TargetAction::Swap => Action::Swap,
    };
    Some(CellEffect::Targeted(target, action))
}

/// `track N loop starts S ... home H`: the start cells on the loop, one per
/// seat, and the home cells.
fn check_circuit(
    merged: &Merged,
    loop_cells: u16,
    max_players: u8,
    diags: &mut Vec<Diagnostic>,
) -> Option<Circuit> {
    let decl = merged.circuit.as_ref()?;
    let mut ok = true;
    let mut starts = Vec::new();
    for s in &decl.starts {
        if s.node == 0 || s.node > u32::from(loop_cells) {
            diags.push(loop_cell(
                *s,
                loop_cells,
                "start cells are cells of the loop",
            ));
            ok = false;
        } else {
            starts.push(s.node as u16);
        }
    }
    if decl.starts.len() < usize::from(max_players) {
        let at = decl
            .starts
            .first()
            .map_or(decl.cells.span, |f| f.span)
            .to(decl.starts.last().map_or(decl.cells.span, |l| l.span));
        diags.push(
            Diagnostic::new(
                Code::PlayerCount,
                format!(
                    "{} start cells for up to {max_players} players",
                    decl.starts.len()
                ),
            )
            .primary(at, format!("{max_players} start cells needed"))
            .help("give each seat its start cell on the loop, in seat order, such as `starts 1 14 27 40`"),
        );
        ok = false;
    }
    if decl.home.node == 0 || decl.home.node > 64 {
        diags.push(
            Diagnostic::new(
                Code::CountRange,
                format!("{} home cells is outside 1..64", decl.home.node),
            )
            .primary(decl.home.span, "from 1 to 64")
            .help("the home cells follow the lap; the last one is the finish, such as `home 6`"),
        );
        ok = false;
    }
    ok.then_some(Circuit {
        cells: loop_cells,
        starts,
        home: decl.home.node as u16,
        kept: decl.kept.is_some(),
    })
}

/// The most rolls `tries` may give a turn.
pub const TRIES: std::ops::RangeInclusive<u32> = 1..=20;

/// The rules of the choices and of the turn, checked (`enter compulsory`,
/// `no landing on own pieces`, `tries`, `leave start first`).
struct TurnRules {
    no_landing_own: bool,
    enter_compulsory: bool,
    tries: u8,
    leave_start: bool,
}

/// Checks `enter compulsory`, `tries`, `leave start first` and kept home
/// cells against the rest of the game: each needs what it speaks of.
fn check_turn_rules(
    merged: &Merged,
    circuit: Option<&Circuit>,
    pieces: u8,
    diags: &mut Vec<Diagnostic>,
) -> TurnRules {
    let enters_on_face = matches!(merged.enter, Some(EnterDecl::OnFace(_)));
    if let (Some(span), false) = (merged.enter_compulsory, enters_on_face) {
        diags.push(
            Diagnostic::new(
                Code::EffectMisplaced,
                "`enter compulsory` needs an entering rule",
            )
            .primary(span, "no roll is an entering one")
            .help("say which roll lets a piece enter, such as `enter on 6 at start`: entering is then the only choice on that roll"),
        );
    }
    let mut tries = 1;
    if let Some((n, span)) = merged.tries {
        if !TRIES.contains(&n.node) {
            diags.push(
                Diagnostic::new(
                    Code::CountRange,
                    format!("`tries {}` is outside 1..20", n.node),
                )
                .primary(n.span, "from 1 to 20")
                .help("a turn has at least its one roll: `tries 3 when no piece can move` gives up to 3"),
            );
        } else if !enters_on_face {
            diags.push(
                Diagnostic::new(Code::EffectMisplaced, "`tries` needs an entering rule")
                    .primary(span, "no roll is tried for")
                    .help("the tries are for rolling the face that lets a piece enter: say which, such as `enter on 6`"),
            );
        } else {
            tries = n.node as u8;
        }
    }
    if let (Some(span), false) = (merged.leave_start, merged.enter_at_start) {
        diags.push(
            Diagnostic::new(Code::EffectMisplaced, "`leave start first` needs a start cell")
                .primary(span, "no piece is put on a start cell")
                .help("the start cell is where `enter ... at start` puts a piece: write `enter on 6 at start`"),
        );
    }
    if let (Some(c), Some(decl)) = (circuit, merged.circuit.as_ref()) {
        if let (true, Some(kept)) = (c.kept, decl.kept) {
            if u16::from(pieces) > c.home {
                let mut d = Diagnostic::new(
                    Code::CountRange,
                    format!("{} kept home cells can't hold {} pieces", c.home, pieces),
                )
                .primary(decl.home.span.to(kept), "one piece on each home cell");
                if let Some(p) = merged.pieces_per_player {
                    d = d.secondary(p.span, "the pieces of each player");
                }
                diags.push(d.help(format!(
                    "every piece must find a home cell of its own: give at least `home {pieces} kept`, or fewer pieces"
                )));
            }
            if let Some(f) = merged.finish.filter(|f| *f != Finish::Exact) {
                let word = if f == Finish::Past {
                    "past"
                } else {
                    "exact bounce"
                };
                diags.push(
                    Diagnostic::new(
                        Code::EffectMisplaced,
                        format!("kept home cells are moved up by the exact count, not `finish {word}`"),
                    )
                    .primary(kept, "pieces stay on these home cells")
                    .help("remove the `finish` statement (or write `finish exact`): a piece that would pass the last home cell can't move"),
                );
            }
        }
    }
    TurnRules {
        no_landing_own: merged.no_landing_own.is_some(),
        enter_compulsory: merged.enter_compulsory.is_some(),
        tries,
        leave_start: merged.leave_start.is_some(),
    }
}

/// `protected in rows`, `no passing ...` and `move back when blocked`,
/// checked.
struct RowRules {
    protect: u8,
    block: u8,
    stack: u8,
    no_passing: Vec<bool>,
    move_back: bool,
}

impl RowRules {
    fn in_force(&self) -> bool {
        self.protect > 0
            || self.block > 0
            || self.stack > 0
            || !self.no_passing.is_empty()
            || self.move_back
    }
}

/// Checks `protected in rows of N` and `no passing rows of N` (a row is 2
/// pieces or more, and no more than a seat has) and the cells of `no
/// passing cells ...`.
fn check_row_rules(
    merged: &Merged,
    pieces: u8,
    rule_cells: Option<u16>,
    on_loop: bool,
    paths: Option<&Paths>,
    diags: &mut Vec<Diagnostic>,
) -> RowRules {
    let mut row = |what: &str, example: &str, written: Option<(Spanned<u32>, Span)>| {
        let (n, _) = written?;
        if n.node < 2 {
            diags.push(
                Diagnostic::new(
                    Code::CountRange,
                    format!(
                        "a row of {} is no row",
                        crate::words::count(u64::from(n.node), "piece")
                    ),
                )
                .primary(n.span, "2 pieces or more")
                .help(format!(
                    "{what} are of 2 pieces or more on cells in a row, such as `{example}`"
                )),
            );
            return None;
        }
        if n.node > u32::from(pieces) {
            let mut d = Diagnostic::new(
                Code::CountRange,
                format!("no seat has {} pieces to make a row of them", n.node),
            )
            .primary(n.span, format!("each seat has {pieces}"));
            if let Some(p) = merged.pieces_per_player {
                d = d.secondary(p.span, "the pieces of each player");
            }
            diags.push(d.help(format!(
                "a row can't be longer than a seat's pieces: give a row of 2 to {pieces}, or more pieces"
            )));
            return None;
        }
        Some(n.node as u8)
    };
    let protect = row("protected rows", "protected in rows of 2", merged.protected).unwrap_or(0);
    let block = row(
        "rows no one passes",
        "no passing rows of 3",
        merged.passing_rows,
    )
    .unwrap_or(0);
    let mut stack = 0;
    if let Some((n, _)) = merged.passing_stack {
        if n.node < 2 {
            diags.push(
                Diagnostic::new(
                    Code::CountRange,
                    format!(
                        "{} on a cell is no blockade",
                        crate::words::count(u64::from(n.node), "piece")
                    ),
                )
                .primary(n.span, "2 pieces or more")
                .help("a blockade is 2 pieces or more of one seat on a cell, such as `no passing 2 on a cell`"),
            );
        } else if n.node > u32::from(pieces) {
            let mut d = Diagnostic::new(
                Code::CountRange,
                format!("no seat has {} pieces to put on a cell", n.node),
            )
            .primary(n.span, format!("each seat has {pieces}"));
            if let Some(p) = merged.pieces_per_player {
                d = d.secondary(p.span, "the pieces of each player");
            }
            diags.push(d.help(format!(
                "a blockade can't be more than a seat's pieces: give 2 to {pieces}, or more pieces"
            )));
        } else {
            stack = n.node as u8;
        }
    }
    let mut no_passing = Vec::new();
    if let (Some(cells), Some(rule_cells)) = (&merged.passing_cells, rule_cells) {
        no_passing = vec![false; usize::from(rule_cells) + 1];
        if !cells.names.is_empty() {
            for n in named_cells(&cells.names, paths, diags).unwrap_or_default() {
                if let Some(slot) = no_passing.get_mut(usize::from(n)) {
                    *slot = true;
                }
            }
        }
        for (from, to) in &cells.numbers {
            if let Some(p) = paths {
                diags.push(numbered_on_paths(*from, p));
                continue;
            }
            let ends: Vec<Spanned<u32>> = match to {
                Some(to) => vec![*from, *to],
                None => vec![*from],
            };
            let mut ok = true;
            for n in ends {
                if n.node == 0 || n.node > u32::from(rule_cells) {
                    diags.push(if on_loop {
                        loop_cell(n, rule_cells, "cells no one passes are cells of the loop")
                    } else {
                        cell_number(n, rule_cells + 1, "cells no one passes are cells before it")
                    });
                    ok = false;
                }
            }
            let to = to.unwrap_or(*from);
            if ok && from.node > to.node {
                diags.push(
                    Diagnostic::new(
                        Code::CellNumber,
                        format!("cells {}-{} is reversed", from.node, to.node),
                    )
                    .primary(from.span.to(to.span), "the lower cell comes first")
                    .help(format!("write `{}-{}`", to.node, from.node)),
                );
                ok = false;
            }
            if ok {
                for c in from.node..=to.node {
                    if let Some(slot) = no_passing.get_mut(c as usize) {
                        *slot = true;
                    }
                }
            }
        }
    }
    RowRules {
        protect,
        block,
        stack,
        no_passing,
        move_back: merged.move_back.is_some(),
    }
}

/// Whether a roll's faces named one by one (`roll 0 1 1 0 0 1`, `rolling
/// ...`) are more than `MAX_DICE`: only sticks throw more, and a rule tests
/// what their throw is worth, not each stick (refused with a diagnostic).
fn faces_beyond_dice(values: &[Spanned<u32>], span: Span, diags: &mut Vec<Diagnostic>) -> bool {
    if values.len() <= MAX_DICE {
        return false;
    }
    let span = values
        .first()
        .map_or(span, |f| f.span)
        .to(values.last().map_or(span, |l| l.span));
    diags.push(
        Diagnostic::new(
            Code::DiceRange,
            format!(
                "a rule names the faces of {} sticks; it may name at most {MAX_DICE}",
                values.len()
            ),
        )
        .primary(span, format!("at most {MAX_DICE} faces"))
        .help("name faces one by one with at most 4 dice or sticks; with more sticks, `extra roll on ...` names what a throw is worth"),
    );
    true
}

/// With sticks, the values of `extra roll on ...` as a mask of throws,
/// each a value some throw is worth.
fn throw_mask(
    values: &[Spanned<u32>],
    sticks: Option<u8>,
    table: &[u16],
    diags: &mut Vec<Diagnostic>,
) -> u64 {
    let worth: Vec<u32> = if table.is_empty() {
        (0..=u32::from(sticks.unwrap_or(0))).collect()
    } else {
        table.iter().map(|&v| u32::from(v)).collect()
    };
    let mut mask = 0u64;
    for v in values {
        if worth.contains(&v.node) && v.node < 64 {
            mask |= 1 << v.node;
            continue;
        }
        let mut shown: Vec<u32> = worth.clone();
        shown.sort_unstable();
        shown.dedup();
        let shown: Vec<String> = shown.iter().map(u32::to_string).collect();
        diags.push(
            Diagnostic::new(
                Code::DiceRange,
                format!("no throw of these sticks is worth {}", v.node),
            )
            .primary(v.span, format!("the throws are worth {}", shown.join(", ")))
            .help("with sticks, `extra roll on ...` names what a throw is worth, such as `extra roll on 1 4 5`"),
        );
    }
    mask
}

/// `safe cells ...`: the cells, each from 1 to `rule_cells`.
fn check_safe(
    merged: &Merged,
    rule_cells: u16,
    on_loop: bool,
    paths: Option<&Paths>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<bool> {
    if merged.safe.is_empty() && merged.safe_names.is_empty() {
        return Vec::new();
    }
    let mut safe = vec![false; usize::from(rule_cells) + 1];
    if !merged.safe_names.is_empty() {
        for n in named_cells(&merged.safe_names, paths, diags).unwrap_or_default() {
            if let Some(slot) = safe.get_mut(usize::from(n)) {
                *slot = true;
            }
        }
    }
    for (from, to) in &merged.safe {
        if let Some(p) = paths {
            diags.push(numbered_on_paths(*from, p));
            continue;
        }
        let ends: Vec<Spanned<u32>> = match to {
            Some(to) => vec![*from, *to],
            None => vec![*from],
        };
        let to = to.unwrap_or(*from);
        let mut ok = true;
        for n in ends {
            if n.node == 0 || n.node > u32::from(rule_cells) {
                diags.push(if on_loop {
                    loop_cell(n, rule_cells, "safe cells are cells of the loop")
                } else {
                    cell_number(n, rule_cells + 1, "safe cells are cells before it")
                });
                ok = false;
            }
        }
        if ok {
            for c in from.node..=to.node {
                if let Some(slot) = safe.get_mut(c as usize) {
                    *slot = true;
                }
            }
        }
    }
    safe
}

/// A rule of the roll: its faces or run of doubles, and effects that need
/// no moved piece and no cell.
fn check_roll_rule(
    rule: &Spanned<RollRuleDecl>,
    cells: u16,
    dice: Option<u8>,
    faces: Option<u8>,
    diags: &mut Vec<Diagnostic>,
) -> Option<RollRule> {
    let decl = &rule.node;
    let mut ok = true;
    let (condition, words) = match &decl.condition {
        RollConditionDecl::Faces(values) => {
            if dice.is_some_and(|d| values.len() != usize::from(d)) {
                diags.push(
                    Diagnostic::new(
                        Code::DiceRange,
                        format!(
                            "a roll of {} dice in a game of {}",
                            values.len(),
                            dice.unwrap_or(0)
                        ),
                    )
                    .primary(decl.condition_span, "one face per die")
                    .help("name the face of every die, such as `rolling 6 6` with two dice"),
                );
                return None;
            }
            if faces_beyond_dice(values, decl.condition_span, diags) {
                return None;
            }
            let mut sorted = [0u8; MAX_DICE];
            for (slot, v) in sorted.iter_mut().zip(values) {
                *slot = face_of(*v, faces, diags);
            }
            if let Some(part) = sorted.get_mut(..values.len()) {
                part.sort_unstable();
            }
            let shown: Vec<String> = values.iter().map(|v| v.node.to_string()).collect();
            (RollCondition::Faces(sorted), shown.join("+"))
        }
        RollConditionDecl::FacesInARow(values, n) => {
            if dice.is_some_and(|d| values.len() != usize::from(d)) {
                diags.push(
                    Diagnostic::new(
                        Code::DiceRange,
                        format!(
                            "a roll of {} dice in a game of {}",
                            values.len(),
                            dice.unwrap_or(0)
                        ),
                    )
                    .primary(decl.condition_span, "one face per die")
                    .help("name the face of every die, then how many times: `rolling 6 3 times in a row` with one die"),
                );
                return None;
            }
            if faces_beyond_dice(values, decl.condition_span, diags) {
                return None;
            }
            if n.node == 0 || n.node > 255 {
                diags.push(
                    Diagnostic::new(
                        Code::CountRange,
                        format!("{} times in a row makes no sense", n.node),
                    )
                    .primary(n.span, "from 1 to 255")
                    .help("such as `rolling 6 3 times in a row`"),
                );
                return None;
            }
            let mut sorted = [0u8; MAX_DICE];
            for (slot, v) in sorted.iter_mut().zip(values) {
                *slot = face_of(*v, faces, diags);
            }
            if let Some(part) = sorted.get_mut(..values.len()) {
                part.sort_unstable();
            }
            let shown: Vec<String> = values.iter().map(|v| v.node.to_string()).collect();
            (
                RollCondition::FacesInARow(sorted, n.node as u8),
                format!("{} {} times in a row", shown.join("+"), n.node),
            )
        }
        RollConditionDecl::DoublesInARow(n) => {
            if dice == Some(1) {
                diags.push(
                    Diagnostic::new(Code::DiceRange, "doubles need two dice or more")
                        .primary(decl.condition_span, "one die never shows a double")
                        .help("roll more dice (`dice 2 d6`), or name the faces: `rolling 6`"),
                );
                ok = false;
            }
            if n.node == 0 || n.node > 255 {
                diags.push(
                    Diagnostic::new(
                        Code::CountRange,
                        format!("{} doubles in a row makes no sense", n.node),
                    )
                    .primary(n.span, "from 1 to 255")
                    .help("such as `rolling 3 doubles in a row`"),
                );
                return None;
            }
            (
                RollCondition::DoublesInARow(n.node as u8),
                format!("{} doubles in a row", n.node),
            )
        }
    };
    let mut effects = Vec::new();
    for e in &decl.effects {
        let misplaced = |what: &str, why: &str, help: &str| {
            Diagnostic::new(
                Code::EffectMisplaced,
                format!("{what} can't apply to a rule of the roll"),
            )
            .primary(e.span, why.to_string())
            .help(help.to_string())
        };
        let effect = match e.node {
            CellEffectDecl::Targeted(t, a) if t.node.on_cell() => {
                let _ = a;
                diags.push(
                    Diagnostic::new(
                        Code::EffectMisplaced,
                        format!("the target `{}` can't apply to a rule of the roll", t.node.word()),
                    )
                    .primary(t.span, "picks pieces on the cell of a landing, and a roll has no cell")
                    .help("pick the player's pieces with `furthest`, `hindmost`, `own-pieces` or `last-moved`, or write a `landing on` rule"),
                );
                None
            }
            CellEffectDecl::Targeted(t, a) => target_action(t.node, a, e.span, cells, diags),
            CellEffectDecl::Miss(n) if (1..=255).contains(&n.node) => {
                Some(CellEffect::Miss(n.node as u8))
            }
            CellEffectDecl::NoExtraRoll => Some(CellEffect::NoExtraRoll),
            CellEffectDecl::ExtraRoll => Some(CellEffect::ExtraRoll),
            CellEffectDecl::EndTurn => Some(CellEffect::EndTurn),
            CellEffectDecl::Miss(n) => {
                diags.push(
                    Diagnostic::new(
                        Code::CountRange,
                        format!("`miss {} turns` makes no sense", n.node),
                    )
                    .primary(n.span, "from 1 to 255")
                    .help("such as `miss 2 turns`"),
                );
                None
            }
            _ => {
                diags.push(misplaced(
                    "an effect on the moved piece",
                    "no piece has moved when the roll is looked at",
                    "give the effect a target (`furthest out`, `last-moved back 3`), or write it in a `landing on` rule",
                ));
                None
            }
        };
        match effect {
            Some(effect) => effects.push(effect),
            None => ok = false,
        }
    }
    if !ok {
        return None;
    }
    Some(RollRule {
        label: decl.name.as_ref().map_or(words, |n| n.node.clone()),
        condition,
        effects,
        span: rule.span,
    })
}

/// The most cells a game's paths may name, and the longest path.
pub const PATH_CELLS: usize = 999;

/// A written cell or run of cells (`a4`, `a1-a4`, `p24-p1`) as names, or
/// the `E033` that says why it is not one.
fn expand_range(written: &Spanned<String>) -> Result<Vec<String>, Diagnostic> {
    let split = |s: &str| -> Option<(String, u32)> {
        let digits = s.find(|c: char| c.is_ascii_digit())?;
        let (prefix, number) = s.split_at(digits);
        let n = number.parse().ok()?;
        (!prefix.is_empty() && prefix.chars().all(|c| c.is_ascii_lowercase()))
            .then(|| (prefix.to_string(), n))
    };
    let bad = |why: &str, help: &str| {
        Diagnostic::new(
            Code::CellNumber,
            format!("`{}` is not a cell name: {why}", written.node),
        )
        .primary(
            written.span,
            "a cell is letters then a number, such as `m4`",
        )
        .help(help.to_string())
    };
    let (from, to) = match written.node.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (written.node.trim(), written.node.trim()),
    };
    let (Some((p, a)), Some((q, b))) = (split(from), split(to)) else {
        return Err(bad(
            "it has no letters before its number",
            "on paths the cells are named, such as `m4`, or a run of them such as `a1-a4`",
        ));
    };
    if p != q {
        return Err(bad(
            "the two ends of a run have different letters",
            &format!("a run counts from one cell to another of the same letters, such as `{p}{a}-{p}{b}`"),
        ));
    }
    if a.abs_diff(b) as usize >= PATH_CELLS {
        return Err(bad(
            "the run is too long",
            &format!("a path has at most {PATH_CELLS} cells"),
        ));
    }
    let numbers: Vec<u32> = if a <= b {
        (a..=b).collect()
    } else {
        (b..=a).rev().collect()
    };
    Ok(numbers.into_iter().map(|n| format!("{p}{n}")).collect())
}

/// `path SEAT: CELLS`: every seat's path, its cells named and numbered in
/// the order the paths first name them.
fn check_paths(
    merged: &Merged,
    seats: &[String],
    max_players: u8,
    diags: &mut Vec<Diagnostic>,
) -> Option<Paths> {
    let mut ok = true;
    let mut names: Vec<String> = Vec::new();
    let mut by_seat: Vec<Option<(Vec<u16>, Span, bool)>> = vec![None; usize::from(max_players)];
    for decl in &merged.paths {
        let Some(seat) = seats.iter().position(|s| *s == decl.seat.node) else {
            diags.push(
                Diagnostic::new(
                    Code::PlayerCount,
                    format!("no seat is named `{}`", decl.seat.node),
                )
                .primary(decl.seat.span, "not a seat of this game")
                .help(unknown_help(
                    &decl.seat.node,
                    seats.iter().map(String::as_str),
                    "name the seats with `seats`, then give each its path",
                )),
            );
            ok = false;
            continue;
        };
        if seat >= by_seat.len() {
            diags.push(
                Diagnostic::new(
                    Code::PlayerCount,
                    format!("seat `{}` never plays: at most {max_players} players", decl.seat.node),
                )
                .primary(decl.seat.span, "a seat past the most players")
                .help(if merged.seats.is_none() {
                    // The seats were never named: the paths name them.
                    let named: Vec<&str> = merged.paths.iter().map(|p| p.seat.node.as_str()).collect();
                    format!(
                        "without `seats` the seats are {}: name the seats of the paths first, such as `seats {}`",
                        seats.iter().take(usize::from(max_players)).map(String::as_str).collect::<Vec<_>>().join(", "),
                        named.join(" ")
                    )
                } else {
                    "give paths to the seats that play (the first ones of `seats`), or let more play with `players`".to_string()
                }),
            );
            ok = false;
            continue;
        }
        let mut path: Vec<u16> = Vec::new();
        let mut at: Vec<Span> = Vec::new();
        let mut whole = true;
        for written in &decl.cells {
            let cells = match expand_range(written) {
                Ok(cells) => cells,
                Err(d) => {
                    diags.push(d);
                    whole = false;
                    continue;
                }
            };
            for name in cells {
                let number = match names.iter().position(|n| *n == name) {
                    Some(i) => i + 1,
                    None => {
                        names.push(name.clone());
                        names.len()
                    }
                };
                let Ok(number) = u16::try_from(number) else {
                    ok = false;
                    continue;
                };
                if let Some(i) = path.iter().position(|&c| c == number) {
                    let first = at.get(i).copied().unwrap_or(written.span);
                    diags.push(
                        Diagnostic::new(
                            Code::CellNumber,
                            format!("the path of `{}` goes through {name} twice", decl.seat.node),
                        )
                        .primary(written.span, format!("{name} again"))
                        .secondary(first, "first here")
                        .help("a path goes through each cell once: name another cell, or end the path before it"),
                    );
                    whole = false;
                    continue;
                }
                path.push(number);
                at.push(written.span);
            }
        }
        let span = decl
            .seat
            .span
            .to(decl.cells.last().map_or(decl.seat.span, |c| c.span));
        ok &= whole;
        if let Some(slot) = by_seat.get_mut(seat) {
            // A path with a mistake of its own is not measured against
            // the others.
            *slot = Some((path, span, whole));
        }
    }
    if names.len() > PATH_CELLS {
        diags.push(
            Diagnostic::new(
                Code::TrackSize,
                format!(
                    "the paths name {} cells, more than {PATH_CELLS}",
                    names.len()
                ),
            )
            .primary(
                merged
                    .paths
                    .first()
                    .map_or(Span::default(), |p| p.seat.span),
                "too many cells",
            )
            .help(format!(
                "the paths of a game name at most {PATH_CELLS} cells"
            )),
        );
        return None;
    }
    let anchor = merged
        .paths
        .first()
        .map(|p| p.seat.span)
        .or(merged.anchor)
        .unwrap_or_default();
    for (seat, slot) in by_seat.iter().enumerate() {
        if slot.is_none() {
            let name = seats.get(seat).map_or("?", String::as_str);
            diags.push(
                Diagnostic::new(Code::TrackSize, format!("seat `{name}` has no path"))
                    .primary(anchor, format!("a path for every seat, `{name}` too"))
                    .help(format!(
                        "give each of the {max_players} seats a path: `path {name}: ...` and the cells its pieces go through, in order"
                    )),
            );
            ok = false;
        }
    }
    let mut lengths = by_seat.iter().flatten().filter(|(_, _, whole)| *whole);
    if let Some((first, first_at, _)) = lengths.next() {
        for (path, at, _) in lengths {
            if path.len() != first.len() {
                diags.push(
                    Diagnostic::new(
                        Code::TrackSize,
                        format!(
                            "a path of {} cells and one of {}: the paths don't end together",
                            first.len(),
                            path.len()
                        ),
                    )
                    .primary(*at, format!("{} cells", path.len()))
                    .secondary(*first_at, format!("{} cells", first.len()))
                    .help("every path has the same number of cells: a piece finishes one step past the last, and the pieces race the same distance"),
                );
                ok = false;
                break;
            }
        }
    }
    if !ok {
        return None;
    }
    Some(Paths {
        names,
        seats: by_seat.into_iter().flatten().map(|(p, _, _)| p).collect(),
    })
}

/// Cells named by the paths (`cells m4 a1-a4`, `safe cells m4`) as their
/// numbers; `E033` for a name no path has, or cells named where the track
/// numbers them.
fn named_cells(
    written: &[Spanned<String>],
    paths: Option<&Paths>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u16>> {
    let mut out = Vec::new();
    let mut ok = true;
    for w in written {
        let Some(paths) = paths else {
            diags.push(
                Diagnostic::new(
                    Code::CellNumber,
                    format!("cell `{}` is named, and this track numbers its cells", w.node),
                )
                .primary(w.span, "a name")
                .help("cells have names only on paths (`path red: a1-a4 ...`); here name a cell by its number"),
            );
            ok = false;
            continue;
        };
        let names = match expand_range(w) {
            Ok(names) => names,
            Err(d) => {
                diags.push(d);
                ok = false;
                continue;
            }
        };
        for name in names {
            match paths.number(&name) {
                Some(n) => out.push(n),
                None => {
                    diags.push(
                        Diagnostic::new(
                            Code::CellNumber,
                            format!("no path goes through a cell `{name}`"),
                        )
                        .primary(w.span, "not a cell of the paths")
                        .help(unknown_help(
                            &name,
                            paths.names.iter().map(String::as_str),
                            "name a cell that a `path` goes through",
                        )),
                    );
                    ok = false;
                }
            }
        }
    }
    ok.then_some(out)
}

/// `E033`: a cell named by number on paths, whose cells have names.
fn numbered_on_paths(n: Spanned<u32>, paths: &Paths) -> Diagnostic {
    let example = paths.names.first().map_or("m4", String::as_str);
    Diagnostic::new(
        Code::CellNumber,
        format!("cell {}: the cells of the paths are named", n.node),
    )
    .primary(n.span, "a number")
    .help(format!(
        "name the cell as the paths do, such as `{example}`"
    ))
}

/// The rules of dice used one by one, checked.
struct DiceRules {
    each_die: bool,
    doubles_times: u8,
    most_dice: bool,
    point: u8,
    enter_first: bool,
    stack_landing: u8,
    enter_sum: u8,
    bonus_capture: u8,
    bonus_home: u8,
    bear_off_last: u16,
    finish_furthest: bool,
}

/// `move each die` and the rules that need it: `move doubles N times`,
/// `move most dice`, `no landing on N or more opponent pieces`, `enter
/// first`, `bear off when all in last N`, `finish exact or from furthest`,
/// `enter on F or sum S`, `bonus N after ...`; and `no landing on N or more
/// pieces` (of both kinds of move).
fn check_dice_rules(
    merged: &Merged,
    pieces: u8,
    path: Option<u16>,
    (dice, faces): (Option<u8>, Option<u8>),
    sticks: bool,
    captures: bool,
    diags: &mut Vec<Diagnostic>,
) -> DiceRules {
    let each_die = merged.each_die.is_some();
    let needs = |what: &str, span: Span, diags: &mut Vec<Diagnostic>| {
        if !each_die {
            diags.push(
                Diagnostic::new(
                    Code::EffectMisplaced,
                    format!("`{what}` needs `move each die`"),
                )
                .primary(span, "a rule of dice used one by one")
                .help("it speaks of the moves of single dice: add `move each die`, so that each die moves a piece on its own"),
            );
        }
    };
    if let (Some(span), true) = (merged.each_die, sticks) {
        diags.push(
            Diagnostic::new(
                Code::EffectMisplaced,
                "`move each die` needs dice, not sticks",
            )
            .primary(span, "a throw of sticks counts as one")
            .help("roll dice, such as `dice 2 d6`, or move by the throw with `move by sum`"),
        );
    }
    let mut doubles_times = dice.unwrap_or(1);
    if let Some(n) = merged.doubles_times {
        needs("move doubles", n.span, diags);
        let low = u32::from(dice.unwrap_or(2));
        if n.node < low || n.node > MAX_DICE as u32 {
            diags.push(
                Diagnostic::new(
                    Code::CountRange,
                    format!("`move doubles {} times` is outside {low}..{MAX_DICE}", n.node),
                )
                .primary(n.span, format!("from {low} to {MAX_DICE}"))
                .help(format!("a double is played at least once a die and at most {MAX_DICE} times, such as `move doubles 4 times`")),
            );
        } else if dice == Some(1) {
            diags.push(
                Diagnostic::new(Code::DiceRange, "doubles need two dice or more")
                    .primary(n.span, "one die never shows a double")
                    .help("roll more dice (`dice 2 d6`), or remove `move doubles`"),
            );
        } else {
            doubles_times = n.node as u8;
        }
    }
    if let Some(span) = merged.most_dice {
        needs("move most dice", span, diags);
    }
    if let Some(span) = merged.enter_first {
        needs("enter first", span, diags);
    }
    if let Some(span) = merged.finish_furthest {
        needs("finish exact or from furthest", span, diags);
    }
    let mut point = 0;
    if let Some(n) = merged.point {
        needs("no landing on N or more opponent pieces", n.span, diags);
        if n.node == 0 || n.node > u32::from(pieces) {
            let mut d = Diagnostic::new(
                Code::CountRange,
                format!("a point of {} pieces, and a player has {pieces}", n.node),
            )
            .primary(n.span, format!("from 1 to {pieces}"));
            if let Some(p) = merged.pieces_per_player {
                d = d.secondary(p.span, "the pieces of each player");
            }
            diags.push(d.help("a point is held by some of one player's pieces: make it no larger than the pieces a player has, such as `no landing on 2 or more opponent pieces`"));
        } else {
            point = n.node as u8;
        }
    }
    let mut stack_landing = 0;
    if let Some(n) = merged.stack_landing {
        if n.node < 2 || n.node > u32::from(pieces) {
            let mut d = Diagnostic::new(
                Code::CountRange,
                format!(
                    "a blockade of {}, and a player has {pieces}",
                    crate::words::count(u64::from(n.node), "piece")
                ),
            )
            .primary(n.span, format!("from 2 to {pieces}"));
            if let Some(p) = merged.pieces_per_player {
                d = d.secondary(p.span, "the pieces of each player");
            }
            diags.push(d.help("a blockade is two or more pieces of one player on a cell, no more than a player has: such as `no landing on 2 or more pieces`; `no landing on own pieces` keeps every piece alone"));
        } else {
            stack_landing = n.node as u8;
        }
    }
    let mut enter_sum = 0;
    if let Some(n) = merged.enter_sum {
        needs("enter on F or sum S", n.span, diags);
        let (count, top) = (dice.unwrap_or(1), faces.unwrap_or(6));
        let most = 2 * u32::from(top);
        if count < 2 {
            diags.push(
                Diagnostic::new(
                    Code::DiceRange,
                    "entering on a sum of two dice, with one die",
                )
                .primary(n.span, "one die has no sum of two")
                .help(
                    "roll two dice or more (`dice 2 d6`), or enter on a face alone (`enter on 5`)",
                ),
            );
        } else if n.node < 2 || n.node > most {
            diags.push(
                Diagnostic::new(
                    Code::CountRange,
                    format!("two dice of {top} faces never add up to {}", n.node),
                )
                .primary(n.span, format!("from 2 to {most}"))
                .help(format!("two dice add up to 2 to {most}: give a sum they can make, such as `enter on 5 or sum 5`")),
            );
        } else {
            enter_sum = n.node as u8;
        }
    }
    let bonus = |b: Option<(Spanned<u32>, Span)>, what: &str, diags: &mut Vec<Diagnostic>| {
        let (n, span) = b?;
        needs(what, span, diags);
        if n.node == 0 || n.node > 31 {
            diags.push(
                Diagnostic::new(Code::CountRange, format!("a bonus of {} cells", n.node))
                    .primary(n.span, "from 1 to 31")
                    .help("a bonus moves one piece on by 1 to 31 cells, such as `bonus 20 after capture`"),
            );
            return None;
        }
        Some(n.node as u8)
    };
    let bonus_capture = bonus(merged.bonus_capture, "bonus N after capture", diags).unwrap_or(0);
    let bonus_home = bonus(merged.bonus_home, "bonus N after home", diags).unwrap_or(0);
    if let (Some((_, span)), false) = (merged.bonus_capture, captures) {
        diags.push(
            Diagnostic::new(
                Code::EffectMisplaced,
                "a bonus after a capture, and no rule sends a piece out",
            )
            .primary(span, "never earned")
            .help("add the capture it follows, such as `resting on any: opponents out`, or remove the bonus"),
        );
    }
    let mut bear_off_last = 0;
    if let Some((n, span)) = merged.bear_off {
        needs("bear off", span, diags);
        let cells = path.unwrap_or(0).saturating_sub(1);
        if n.node == 0 || n.node > u32::from(cells) {
            diags.push(
                Diagnostic::new(
                    Code::CountRange,
                    format!("the last {} cells of a path of {cells}", n.node),
                )
                .primary(n.span, format!("from 1 to {cells}"))
                .help(format!("the home cells are the last cells of a piece's path, before it bears off: give 1 to {cells}, such as `bear off when all in last 6`")),
            );
        } else {
            bear_off_last = n.node as u16;
        }
    }
    DiceRules {
        each_die,
        doubles_times,
        most_dice: merged.most_dice.is_some(),
        point,
        enter_first: merged.enter_first.is_some(),
        stack_landing,
        enter_sum,
        bonus_capture,
        bonus_home,
        bear_off_last,
        finish_furthest: merged.finish_furthest.is_some(),
    }
}

/// What a setup's cells are checked against: a piece's path (its length,
/// the finish), the loop, or the named paths.
#[derive(Clone, Copy)]
struct Track<'a> {
    length: u16,
    circuit: Option<&'a Circuit>,
    paths: Option<&'a Paths>,
}

/// `setup SEAT: N on CELL, ...`: each seat's pieces that start on the
/// track, as positions along its path (the furthest first); a seat of the
/// game, at least one piece on each cell named, a cell on the seat's
/// path before the finish, no more pieces than the seat has.
fn check_setups(
    merged: &Merged,
    seats: &[String],
    pieces: u8,
    track: Track<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Vec<u16>> {
    if merged.race_setups.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<Vec<u16>> = vec![Vec::new(); seats.len()];
    for decl in &merged.race_setups {
        let Some(seat) = seats.iter().position(|s| *s == decl.seat.node) else {
            diags.push(
                Diagnostic::new(
                    Code::PlayerCount,
                    format!("no seat is named `{}`", decl.seat.node),
                )
                .primary(decl.seat.span, "not a seat of this game")
                .help(unknown_help(
                    &decl.seat.node,
                    seats.iter().map(String::as_str),
                    "set up the pieces of a seat named by `seats`",
                )),
            );
            continue;
        };
        let mut at: Vec<u16> = Vec::new();
        let mut total: u32 = 0;
        for (count, cell) in &decl.counts {
            if count.node == 0 {
                diags.push(
                    Diagnostic::new(Code::CountRange, "a setup of 0 pieces")
                        .primary(count.span, "at least 1")
                        .help(
                            "set up at least one piece on each cell named, or leave the cell out",
                        ),
                );
                continue;
            }
            total = total.saturating_add(count.node);
            let Some(step) = setup_step(seat, &decl.seat.node, cell, track, diags) else {
                continue;
            };
            let n = usize::try_from(count.node).unwrap_or(usize::MAX);
            if n <= usize::from(pieces) {
                at.extend(std::iter::repeat_n(step, n));
            }
        }
        if total > u32::from(pieces) {
            let mut d = Diagnostic::new(
                Code::CountRange,
                format!(
                    "{total} pieces set up for `{}`, who has {pieces}",
                    decl.seat.node
                ),
            )
            .primary(decl.span, format!("{total} pieces"));
            if let Some(p) = merged.pieces_per_player {
                d = d.secondary(p.span, "the pieces of each player");
            }
            diags.push(d.help(format!(
                "set up at most {pieces} pieces per seat, or give each player more with `pieces {total} per player`"
            )));
            continue;
        }
        at.sort_unstable_by(|a, b| b.cmp(a));
        if let Some(slot) = out.get_mut(seat) {
            *slot = at;
        }
    }
    out
}

/// The position along seat `seat`'s path of a setup's cell, or `E033`.
fn setup_step(
    seat: usize,
    seat_name: &str,
    cell: &SetupCell,
    track: Track<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<u16> {
    const WHAT: &str = "a piece is set up on a cell before the finish";
    match (cell, track.paths) {
        (SetupCell::Named(name), Some(paths)) => {
            let number = named_cells(std::slice::from_ref(name), Some(paths), diags)?;
            let [number] = number.as_slice() else {
                diags.push(
                    Diagnostic::new(
                        Code::CellNumber,
                        format!("`{}` is a run of cells: a setup names one", name.node),
                    )
                    .primary(name.span, "several cells")
                    .help("name one cell for each count, such as `2 on p24, 5 on p13`"),
                );
                return None;
            };
            let step = paths.step(seat, *number);
            if step == 0 {
                diags.push(
                    Diagnostic::new(
                        Code::CellNumber,
                        format!("`{}` is not on {seat_name}'s path", name.node),
                    )
                    .primary(name.span, format!("not a cell of `path {seat_name}`"))
                    .help(format!(
                        "a piece starts on a cell of its seat's own path: name one that `path {seat_name}` goes through"
                    )),
                );
                return None;
            }
            Some(step)
        }
        (SetupCell::Named(name), None) => {
            named_cells(std::slice::from_ref(name), None, diags);
            None
        }
        (SetupCell::Number(n), Some(paths)) => {
            diags.push(numbered_on_paths(*n, paths));
            None
        }
        (SetupCell::Number(n), None) => match track.circuit {
            Some(c) => {
                let Some(cell) = u16::try_from(n.node)
                    .ok()
                    .filter(|&v| (1..=c.cells).contains(&v))
                else {
                    diags.push(loop_cell(*n, c.cells, WHAT));
                    return None;
                };
                let start = c.starts.get(seat).copied().unwrap_or(1);
                Some((cell + c.cells - start) % c.cells + 1)
            }
            None => {
                let ok = u16::try_from(n.node)
                    .ok()
                    .filter(|&v| v >= 1 && v < track.length);
                if ok.is_none() {
                    diags.push(cell_number(*n, track.length, WHAT));
                }
                ok
            }
        },
    }
}

/// `throw N sticks`: how many sticks (more than dice: Pachisi throws six
/// or seven cowries).
fn check_throw(n: Spanned<u32>, diags: &mut Vec<Diagnostic>) -> Option<u8> {
    if (1..=MAX_STICKS as u32).contains(&n.node) {
        return u8::try_from(n.node).ok();
    }
    diags.push(
        Diagnostic::new(
            Code::DiceRange,
            format!("{} sticks: a game throws 1 to {MAX_STICKS} sticks", n.node),
        )
        .primary(n.span, format!("from 1 to {MAX_STICKS}"))
        .help("a throw of sticks counts the marked ones, such as `throw 4 sticks` (0 to 4)"),
    );
    None
}

/// The values a count of sticks may move (Pachisi's seven cowries go up
/// to 35; `extra roll on ...` keeps the values as bits of a `u64`).
pub const THROW_VALUE: std::ops::RangeInclusive<u32> = 0..=40;

/// What a table of values is keyed by: the counts of marked sticks of a
/// throw (`throw N sticks: C = V, ...`) or the faces of a die (`dice N dF:
/// F = V, ...`), in the words of its diagnostics.
#[derive(Clone, Copy)]
enum Keys {
    /// N sticks: counts 0 to N.
    Sticks(u8),
    /// Dice of F faces: faces 1 to F.
    Faces(u8),
}

impl Keys {
    /// The lowest and highest key.
    fn range(self) -> (u8, u8) {
        match self {
            Keys::Sticks(n) => (0, n),
            Keys::Faces(f) => (1, f),
        }
    }

    /// A key in words: `3 marked`, `face 3`.
    fn key(self, k: u32) -> String {
        match self {
            Keys::Sticks(_) => format!("{k} marked"),
            Keys::Faces(_) => format!("face {k}"),
        }
    }

    /// What a key is: `count`, `face`.
    fn one(self) -> &'static str {
        match self {
            Keys::Sticks(_) => "count",
            Keys::Faces(_) => "face",
        }
    }

    /// What the table's keys are in a hint.
    fn each(self) -> &'static str {
        match self {
            Keys::Sticks(_) => "count of marked sticks",
            Keys::Faces(_) => "face",
        }
    }
}

/// The table of values of `throw N sticks: C = V, ...` or `dice N dF: F =
/// V, ...`: a value for every key (count of marked sticks from 0 to N,
/// face from 1 to F), each key once, each value from 0 to 40, not every
/// one 0. Indexed by the key (a die's table has a 0 for the face 0 no die
/// shows).
fn check_values(merged: &Merged, keys: Keys, diags: &mut Vec<Diagnostic>) -> Vec<u16> {
    let written = &merged.throw_values;
    if written.is_empty() {
        return Vec::new();
    }
    let (low, high) = keys.range();
    let mut values: Vec<Option<u16>> = vec![None; usize::from(high) + 1];
    if let Some(below) = values.get_mut(..usize::from(low)) {
        below.fill(Some(0));
    }
    let mut ok = true;
    for (key, value) in written {
        let Some(slot) = values
            .get_mut(key.node as usize)
            .filter(|_| key.node >= u32::from(low))
        else {
            let never = match keys {
                Keys::Sticks(n) => format!("{n} sticks never show {} marked", key.node),
                Keys::Faces(f) => format!("a d{f} never shows {}", key.node),
            };
            diags.push(
                Diagnostic::new(Code::DiceRange, never)
                    .primary(key.span, format!("the {}s are {low} to {high}", keys.one()))
                    .help(format!(
                        "give a value for each {}, {low} to {high}",
                        keys.each()
                    )),
            );
            ok = false;
            continue;
        };
        if slot.is_some() {
            diags.push(
                Diagnostic::new(
                    Code::Duplicate,
                    format!("the value of {} is given twice", keys.key(key.node)),
                )
                .primary(key.span, "given again here")
                .help(format!("give each {} one value", keys.each())),
            );
            ok = false;
            continue;
        }
        if !THROW_VALUE.contains(&value.node) {
            let what = match keys {
                Keys::Sticks(_) => "a throw of",
                Keys::Faces(_) => "a value of",
            };
            diags.push(
                Diagnostic::new(
                    Code::DiceRange,
                    format!(
                        "{what} {} is outside {}..{}",
                        value.node,
                        THROW_VALUE.start(),
                        THROW_VALUE.end()
                    ),
                )
                .primary(
                    value.span,
                    format!("from {} to {}", THROW_VALUE.start(), THROW_VALUE.end()),
                )
                .help(format!(
                    "a {} moves a piece {} to {} cells",
                    match keys {
                        Keys::Sticks(_) => "throw",
                        Keys::Faces(_) => "face",
                    },
                    THROW_VALUE.start(),
                    THROW_VALUE.end()
                )),
            );
            ok = false;
            continue;
        }
        *slot = Some(value.node as u16);
    }
    let missing: Vec<String> = values
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_none())
        .map(|(c, _)| c.to_string())
        .collect();
    let at = written
        .first()
        .map_or(Span::default(), |(c, _)| c.span)
        .to(written.last().map_or(Span::default(), |(_, v)| v.span));
    if ok && !missing.is_empty() {
        let first = missing.first().map_or("0", String::as_str);
        let (message, help) = match keys {
            Keys::Sticks(n) => (
                format!("the throw's values leave out {} marked", missing.join(", ")),
                format!(
                    "{n} sticks show 0 to {n} marked: give each a value, such as `{first} = 0`"
                ),
            ),
            Keys::Faces(f) => (
                format!(
                    "the dice's values leave out face{} {}",
                    if missing.len() == 1 { "" } else { "s" },
                    missing.join(", ")
                ),
                format!(
                    "a d{f} shows 1 to {f}: give each face a value, such as `{first} = {first}`"
                ),
            ),
        };
        diags.push(
            Diagnostic::new(Code::DiceRange, message)
                .primary(
                    at,
                    format!("every {} from {low} to {high} needs a value", keys.one()),
                )
                .help(help),
        );
        ok = false;
    }
    // A table of zeros moves nothing: no piece would ever reach the end of
    // its path.
    if ok && values.iter().all(|v| *v == Some(0)) {
        let (message, each) = match keys {
            Keys::Sticks(_) => ("no throw moves a piece", "every count moves 0 cells"),
            Keys::Faces(_) => ("no roll moves a piece", "every face moves 0 cells"),
        };
        diags.push(
            Diagnostic::new(
                Code::DiceRange,
                format!("{message}: every value is 0, so no piece ever reaches the end"),
            )
            .primary(at, each)
            .help(format!(
                "give some {} a value of 1 or more, such as `{high} = {high}`",
                keys.one()
            )),
        );
        ok = false;
    }
    if !ok {
        return Vec::new();
    }
    values.into_iter().map(|v| v.unwrap_or(0)).collect()
}
