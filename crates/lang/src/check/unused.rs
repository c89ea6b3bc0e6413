//! Warnings for things declared but never used.

use super::merge::Merged;
use crate::ast::{Effect, EndCondition, PieceLine, Place};
use crate::diagnostic::{Code, Diagnostic};

/// Warns about zones nothing uses and kinds no piece can ever be.
pub fn warn_unused(merged: &Merged, diags: &mut Vec<Diagnostic>) {
    let mut zones_used: Vec<&str> = Vec::new();
    let mut kinds_used: Vec<&str> = Vec::new();
    for setup in &merged.setups {
        kinds_used.push(&setup.node.kind.node);
        if let Place::Zone(z) = &setup.node.place {
            zones_used.push(&z.name.node);
        }
    }
    for piece in &merged.pieces {
        for line in &piece.lines {
            if let PieceLine::Promote(kind, zone) = &line.node {
                kinds_used.push(&kind.node);
                zones_used.push(&zone.name.node);
            }
            if let PieceLine::Surrounded(Some(zone)) = &line.node {
                zones_used.push(&zone.name.node);
            }
            if let PieceLine::Place(..) = &line.node {
                // Placed from the hand.
                kinds_used.push(&piece.id.node);
            }
        }
    }
    for (zone, kind, _) in &merged.triggers {
        zones_used.push(&zone.name.node);
        kinds_used.push(&kind.node);
    }
    for (condition, _, _) in &merged.ends {
        if let EndCondition::Reach { zone, kind } = condition {
            zones_used.push(&zone.name.node);
            if let Some(k) = kind {
                kinds_used.push(&k.node);
            }
        }
    }
    if let Some(Effect::Convert(kind)) = &merged.effect {
        kinds_used.push(&kind.node);
    }
    // Looked up once per zone and kind: sets, for files with many of them.
    let zones_used: std::collections::HashSet<&str> = zones_used.into_iter().collect();
    let kinds_used: std::collections::HashSet<&str> = kinds_used.into_iter().collect();
    for zone in &merged.zones {
        let powers = zone.no_stop || zone.hostile.is_some() || zone.only.is_some();
        if !powers && !zones_used.contains(zone.name.node.as_str()) {
            diags.push(
                Diagnostic::new(Code::UnusedZone, format!("zone `{}` is never used", zone.name.node))
                    .primary(zone.name.span, "declared here")
                    .help("use it in a `setup`, `promote`, `on end at` or `end reach`, make it `no-stop`, or remove it"),
            );
        }
    }
    for piece in &merged.pieces {
        if !kinds_used.contains(piece.id.node.as_str()) {
            diags.push(
                Diagnostic::new(
                    Code::UnusedKind,
                    format!("piece `{}` never appears in a game", piece.id.node),
                )
                .primary(piece.id.span, "not set up, and no piece becomes one")
                .help("set it up with `setup`, or let a piece `promote` to it"),
            );
        }
    }
}
