//! Semantic checks: the merged statements of a rule file (and the files it
//! extends) checked pass by pass, every problem collected. One file per
//! family of checks; the result is a `Resolved` game ready for `compile`.

pub mod board;
pub mod directions;
pub mod extends;
pub mod merge;
pub mod pieces;
pub mod rules;
pub mod setup;
pub mod sides;
pub mod suggest;
pub mod unused;
pub mod zones;

use crate::ast::File;
use crate::diagnostic::Diagnostic;
use crate::game::{CaptureRules, EndRules, KindId, SideId, Sq, Trigger};

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
    /// Capture rules.
    pub capture: CaptureRules,
    /// Triggers.
    pub triggers: Vec<Trigger>,
    /// End rules.
    pub end: EndRules,
}

/// Checks a chain of files (base first) under the given option values.
/// Returns the resolved game when no error was found; every problem is
/// pushed to `diags`.
pub fn check_files(
    files: &[File],
    default_title: &str,
    options: &[(String, String)],
    diags: &mut Vec<Diagnostic>,
) -> Option<Resolved> {
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    let merged = merge::merge(files, options, diags);
    let board = board::check_board(&merged, diags);
    let sides = sides::check_sides(&merged, diags);
    let directions = directions::Directions::new(&merged, diags);
    let zones = zones::check_zones(&merged, board.as_ref(), &sides, diags);
    let kinds = pieces::check_pieces(&merged, &sides, &directions, &zones, diags);
    let setup = setup::check_setup(&merged, board.as_ref(), &sides, &kinds, &zones, diags);
    let capture = rules::check_capture(&merged, &kinds, diags);
    let triggers = rules::check_triggers(&merged, &kinds, &zones, diags);
    let end = rules::check_end(&merged, &kinds, diags);
    // An unused zone or kind is often the echo of a misspelt name.
    if diags.iter().filter(|d| d.is_error()).count() == errors_before {
        unused::warn_unused(&merged, diags);
    }
    if diags.iter().filter(|d| d.is_error()).count() > errors_before {
        return None;
    }
    Some(Resolved {
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
        triggers,
        end,
    })
}
