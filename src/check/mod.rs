//! Semantic checks: the merged statements of a rule file (and the files it
//! extends) checked pass by pass, every problem collected. One file per
//! family of checks; the result is a `Resolved` game ready for `compile`.

pub mod board;
pub mod directions;
pub mod extends;
pub mod merge;
pub mod pieces;
pub mod race;
pub mod rules;
pub mod setup;
pub mod sides;
pub mod unused;
pub mod zones;

use crate::ast::File;
use crate::board::game::{CaptureRules, EndRules, KindId, SideId, Sq, Trigger};
use crate::diagnostic::Diagnostic;

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
    /// Triggers.
    pub triggers: Vec<Trigger>,
    /// End rules.
    pub end: EndRules,
}

/// A checked game of either kind.
#[derive(Clone, Debug)]
pub enum CheckedGame {
    /// A board game, ready for `compile::compile`.
    Board(Box<Resolved>),
    /// A race game, compiled (its circles of chained landings are found on
    /// the tables).
    Race(Box<crate::race::game::RaceGame>),
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
/// problem is pushed to `diags`.
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
        let spec = race::check_race(&merged, default_title, diags)?;
        let game = crate::compile::race::compile_race(&spec);
        race::check_cycles(&game, diags);
        if diags.iter().filter(|d| d.is_error()).count() > errors_before {
            return None;
        }
        return Some(CheckedGame::Race(Box::new(game)));
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
    let zones = zones::check_zones(&merged, board.as_ref(), &sides, diags);
    let kinds = pieces::check_pieces(&merged, &sides, &directions, &zones, diags);
    let setup = setup::check_setup(&merged, board.as_ref(), &sides, &kinds, &zones, diags);
    let capture = rules::check_capture(&merged, &kinds, diags);
    let custodian = rules::check_custodian(&merged, &sides, &directions, diags);
    let triggers = rules::check_triggers(&merged, &kinds, &zones, diags);
    let end = rules::check_end(&merged, &kinds, &zones, sides.list.len(), &setup, diags);
    removed_still_used(&merged, diags);
    // An unused zone or kind is often the echo of a misspelt name.
    if diags.iter().filter(|d| d.is_error()).count() == errors_before {
        unused::warn_unused(&merged, diags);
    }
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
        triggers,
        end,
    };
    let weights = crate::compile::weights(&resolved);
    rules::check_value_criterion(&merged, &resolved.capture.criteria, &weights, diags);
    Some(CheckedGame::Board(Box::new(resolved)))
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
