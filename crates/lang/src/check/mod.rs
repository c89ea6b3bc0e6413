//! Semantic checks: the merged statements of a rule file (and the files it
//! extends) checked pass by pass, every problem collected. One file per
//! family of checks; the result is a `Resolved` game ready for `compile`.

pub mod board;
pub mod directions;
pub mod extends;
pub mod layout;
pub mod lines;
pub mod merge;
pub mod opening;
pub mod pieces;
pub mod race;
pub mod rules;
pub mod score;
pub mod setup;
pub mod sides;
pub mod stacks;
pub mod unused;
pub mod variant;
pub mod zones;

use crate::ast::File;
use crate::diagnostic::Diagnostic;
use crate::vocab::board::{
    CaptureRules, EndRules, JumpEffect, KindId, Lines, OpeningMove, Placing, SideId, Sq, Trigger,
    TriggerAction,
};

/// A game whose names are all resolved and whose checks all passed.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// PDN game type.
    pub pdn_game_type: Option<u32>,
    /// The board.
    pub board: board::Board,
    /// The sides.
    pub sides: sides::Sides,
    /// The kinds.
    pub kinds: pieces::Kinds,
    /// The zones.
    pub zones: zones::Zones,
    /// The start position.
    pub setup: Vec<(Sq, SideId, KindId)>,
    /// Capture rules (`custodian` is filled in by `compile`).
    pub capture: CaptureRules,
    /// `capture custodian`: its vectors per side, and whether runs count.
    pub custodian: Option<rules::CustodianVectors>,
    /// `capture neighbours`: its vectors per side.
    pub neighbours: Option<Vec<Vec<(i8, i8)>>>,
    /// Triggers.
    pub triggers: Vec<Trigger>,
    /// Placing pieces from a hand, when the game has it.
    pub placing: Option<Placing>,
    /// `lines DIRS only from SET`, when the game has it.
    pub lines: Option<Lines>,
    /// The opening moves, in order (empty: none).
    pub opening: Vec<OpeningMove>,
    /// End rules.
    pub end: EndRules,
}

/// A checked game of either kind.
#[derive(Clone, Debug)]
pub enum CheckedGame {
    /// A board game, ready for `compile::compile`.
    Board(Box<Resolved>),
    /// A race game, ready for `compile::race` (which also finds its circles
    /// of chained landings, on the tables).
    Race(Box<race::RaceSpec>),
}

/// Checks a chain of files (base first) under the given option values.
/// Returns the resolved board game when no error was found (`None` for a
/// race game: see `check_game`); every problem is pushed to `diags`.
pub fn check_files(
    files: &[File],
    default_title: &str,
    options: &[(String, String)],
    diags: &mut Vec<Diagnostic>,
) -> Option<Resolved> {
    match check_game(files, default_title, options, diags)? {
        CheckedGame::Board(r) => Some(*r),
        CheckedGame::Race(_) => None,
    }
}

/// Checks a chain of files (base first) under the given option values: a
/// race game when it has a `track` (or race statements and no `board`), a
/// board game otherwise. Returns the game when no error was found; every
/// problem is pushed to `diags`. A race game whose own statements are right
/// is returned even when merging the files found errors, so that
/// `compile::compile_game` still looks for circles of chained landings on
/// its tables: the caller looks at `diags`.
pub fn check_game(
    files: &[File],
    default_title: &str,
    options: &[(String, String)],
    diags: &mut Vec<Diagnostic>,
) -> Option<CheckedGame> {
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    let merged = merge::merge(files, options, diags);
    let race = merged.track.is_some() || (merged.board.is_none() && !merged.race_only.is_empty());
    if race {
        // Returned even when merging found errors: circles of chained
        // landings are still looked for on its tables (`compile::race`).
        let spec = race::check_race(&merged, default_title, diags);
        variant_warnings(files, errors_before, diags);
        return Some(CheckedGame::Race(Box::new(spec?)));
    }
    let because = merged
        .board
        .map(|(w, h)| (w.span.to(h.span), "this `board` makes it a board game"));
    for (word, at) in &merged.race_only {
        diags.push(race::wrong_kind(word, *at, "board", because));
    }
    let board = board::check_board(&merged, diags);
    let sides = sides::check_sides(&merged, diags);
    let directions = directions::Directions::new(&merged, diags);
    let mut zones = zones::check_zones(&merged, board.as_ref(), &sides, diags);
    let kinds = pieces::check_pieces(&merged, &sides, &directions, &zones, diags);
    zones::resolve_only(&merged, &mut zones, |n, d| kinds.lookup(n, d), diags);
    rules::check_square_powers(&merged, &kinds, &zones, diags);
    let setup = setup::check_setup(&merged, board.as_ref(), &sides, &kinds, &zones, diags);
    let capture = rules::check_capture(&merged, &kinds, diags);
    let custodian = rules::check_custodian(&merged, &sides, &directions, diags);
    let neighbours = rules::check_neighbours(&merged, &sides, &directions, diags);
    let triggers = rules::check_triggers(&merged, &kinds, &zones, diags);
    let placing = rules::check_placing(&merged, &sides, &kinds, &setup, diags);
    stacks::check_stacks(&merged, diags);
    let board_lines = lines::check_lines(&merged, board.as_ref(), &sides, &directions, diags);
    let fills = merged
        .hands
        .first()
        .map(|h| h.2)
        .or_else(|| rules::first_clone(&merged));
    let opening = opening::check_opening(
        &merged,
        board.as_ref(),
        &sides,
        &directions,
        &setup,
        fills,
        diags,
    );
    let lines = rules::LineContext {
        board: board.as_ref(),
        sides: Some(&sides),
        directions: Some(&directions),
    };
    let end = rules::check_end(
        &merged,
        &kinds,
        &zones,
        sides.list.len(),
        &setup,
        lines,
        diags,
    );
    removed_still_used(&merged, diags);
    // An unused zone or kind is often the echo of a misspelt name.
    if diags.iter().filter(|d| d.is_error()).count() == errors_before {
        unused::warn_unused(&merged, diags);
    }
    variant_warnings(files, errors_before, diags);
    if diags.iter().filter(|d| d.is_error()).count() > errors_before {
        return None;
    }
    let resolved = Resolved {
        title: merged
            .game
            .as_ref()
            .map_or_else(|| default_title.to_string(), |g| g.node.clone()),
        description: merged
            .description
            .as_ref()
            .map_or_else(String::new, |d| d.node.clone()),
        pdn_game_type: merged.pdn,
        board: board?,
        sides,
        kinds,
        zones,
        setup,
        capture,
        custodian,
        neighbours,
        triggers,
        placing,
        lines: board_lines,
        opening,
        end,
    };
    let weights = weights(&resolved);
    rules::check_value_criterion(&merged, &resolved.capture.criteria, &weights, diags);
    Some(CheckedGame::Board(Box::new(resolved)))
}

/// What a variant leaves over from the file it extends (`variant`): said
/// only of a file with no error, whose mistakes come first.
fn variant_warnings(files: &[File], errors_before: usize, diags: &mut Vec<Diagnostic>) {
    if diags.iter().filter(|d| d.is_error()).count() == errors_before {
        variant::check_variant(files, diags);
    }
}

/// Whether kind `k` only ever appears by promotion (its default value is
/// then 3, else 1).
fn promoted_only(r: &Resolved, k: usize) -> bool {
    let id = u8::try_from(k).ok();
    let promoted = r.kinds.list.iter().any(|other| {
        other
            .promotion
            .is_some_and(|(target, _, _)| Some(target.0) == id)
    });
    let set_up = r.setup.iter().any(|(_, _, kind)| Some(kind.0) == id);
    let converted = r.triggers.iter().any(|t| {
        let TriggerAction::Convert(kind) = t.action;
        Some(kind.0) == id
    }) || matches!(r.capture.effect, JumpEffect::Convert(kind) if Some(kind.0) == id);
    promoted && !set_up && !converted
}

/// The value of each kind in thousandths: as written, else 3 for a kind
/// that only promotion reaches and 1 for the others.
pub fn weights(r: &Resolved) -> Vec<u64> {
    (0..r.kinds.list.len())
        .map(|k| {
            r.kinds
                .list
                .get(k)
                .and_then(|kind| kind.value)
                .unwrap_or(if promoted_only(r, k) { 3000 } else { 1000 })
        })
        .collect()
}

/// Turns "unknown zone / piece" problems about a name that a `remove`
/// dropped into "removed but still used", pointing at the `remove`.
fn removed_still_used(merged: &merge::Merged, diags: &mut [Diagnostic]) {
    use crate::diagnostic::{Code, Severity};
    for d in diags.iter_mut() {
        let what = match d.code {
            Code::UnknownZone => "zone",
            Code::UnknownKind => "piece",
            _ => continue,
        };
        let Some((_, name, at)) = merged
            .removed
            .iter()
            .find(|(w, name, _)| *w == what && d.message.ends_with(&format!("`{name}`")))
        else {
            continue;
        };
        d.code = Code::RemovedStillUsed;
        d.severity = Severity::Error;
        d.message = format!("{what} `{name}` was removed but is still used");
        if let Some(l) = d.labels.first_mut() {
            l.text = format!("uses the removed {what}");
        }
        *d = d.clone().secondary(*at, "removed here").help(format!(
            "remove or restate what uses `{name}` too, or keep the {what}"
        ));
    }
}
