//! Capture rules, triggers and the end of the game.

use super::merge::Merged;
use super::pieces::Kinds;
use super::zones::Zones;
use crate::ast::{Effect, Event};
use crate::diagnostic::{Code, Diagnostic};
use crate::game::{
    event, CaptureChoice, CaptureRules, Counter, EndRules, JumpEffect, LongLanding, MidChainCrown,
    NoMoves, Trigger, TriggerAction,
};

/// Checks the capture settings.
pub fn check_capture(merged: &Merged, kinds: &Kinds, diags: &mut Vec<Diagnostic>) -> CaptureRules {
    let effect = match &merged.effect {
        None | Some(Effect::RemoveAtOnce) => JumpEffect::RemoveAtOnce,
        Some(Effect::RemoveAtEnd) => JumpEffect::RemoveAtEnd,
        Some(Effect::Convert(kind)) => match kinds.lookup(kind, diags) {
            Some(k) => JumpEffect::Convert(k),
            None => JumpEffect::RemoveAtOnce,
        },
    };
    CaptureRules {
        compulsory: merged.compulsory.unwrap_or(false),
        choice: if merged.most.unwrap_or(false) {
            CaptureChoice::Most
        } else {
            CaptureChoice::Free
        },
        effect,
        must_continue: merged.must_continue.unwrap_or(true),
        mid_chain: merged.crown.unwrap_or(MidChainCrown::Stay),
        long_landing: merged.long_landing.unwrap_or(LongLanding::Any),
    }
}

/// Checks the `on end at` triggers.
pub fn check_triggers(
    merged: &Merged,
    kinds: &Kinds,
    zones: &Zones,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Trigger> {
    let mut triggers = Vec::new();
    for (zone, kind, span) in &merged.triggers {
        let z = zones.lookup_ref(zone, diags);
        let k = kinds.lookup(kind, diags);
        if let (Some(z), Some(k)) = (z, k) {
            triggers.push(Trigger {
                zone: z,
                whose: zone.whose,
                action: TriggerAction::Convert(k),
                span: *span,
            });
        }
    }
    triggers
}

/// Checks the end rules.
pub fn check_end(merged: &Merged, kinds: &Kinds, diags: &mut Vec<Diagnostic>) -> EndRules {
    if !merged.any_end {
        let mut d = Diagnostic::new(Code::NoEnd, "the game has no end condition")
            .help("add an `end` statement, such as `end no-moves lose`");
        if let Some(anchor) = merged.anchor {
            d = d.primary(anchor, "nothing says how this game ends");
        }
        diags.push(d);
    }
    let mut repetition = None;
    if let Some(n) = &merged.repetition {
        if n.node < 2 {
            diags.push(
                Diagnostic::new(
                    Code::CountRange,
                    format!("a repetition count of {} can't be reached", n.node),
                )
                .primary(
                    n.span,
                    "a position occurs at least once, so this is at least 2",
                )
                .help("the usual rule is `end repetition 3 draw`"),
            );
        } else {
            repetition = Some(n.node);
        }
    }
    let mut counters = Vec::new();
    if let Some((plies, events)) = &merged.draw_after {
        if plies.node == 0 {
            diags.push(
                Diagnostic::new(
                    Code::CountRange,
                    "a draw after 0 plies ends every game at once",
                )
                .primary(plies.span, "at least 1")
                .help("count the plies (single moves) of the draw rule, such as 40"),
            );
        }
        let mut counter = Counter {
            plies: plies.node,
            reset: 0,
            reset_move_of: 0,
        };
        for e in events {
            match &e.node {
                Event::Capture => counter.reset |= event::CAPTURE,
                Event::Conversion => counter.reset |= event::CONVERSION,
                Event::Promotion => counter.reset |= event::PROMOTION,
                Event::MoveOf(kind) => {
                    if let Some(k) = kinds.lookup(kind, diags) {
                        counter.reset_move_of |= 1u32 << k.0.min(31);
                    }
                }
            }
        }
        counters.push(counter);
    }
    EndRules {
        no_pieces_lose: merged.no_pieces,
        no_moves: merged.no_moves.unwrap_or(NoMoves::Lose),
        repetition,
        counters,
    }
}
