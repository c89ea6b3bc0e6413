//! Checked game -> `Game` tables: directions interned into `DirId`s,
//! promotion squares per side, values and immunities as numbers. Never fails:
//! everything that could go wrong was checked.

pub mod race;

use crate::board::game::{Custodian, DirId, Game, KindInfo, Moves};
use crate::check::pieces::VectorMoves;
use crate::check::Resolved;

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
        let crate::board::game::TriggerAction::Convert(kind) = t.action;
        Some(kind.0) == id
    }) || matches!(r.capture.effect, crate::board::game::JumpEffect::Convert(kind) if Some(kind.0) == id);
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

/// Builds the tables of a checked game.
pub fn compile(r: &Resolved) -> Game {
    let mut dirs: Vec<(i8, i8)> = Vec::new();
    let mut intern = |list: &[(i8, i8)]| -> Vec<DirId> {
        let mut ids = Vec::new();
        for v in list {
            let i = match dirs.iter().position(|d| d == v) {
                Some(i) => i,
                None => {
                    dirs.push(*v);
                    dirs.len() - 1
                }
            };
            // More than 256 distinct vectors can't be written on a 26 x 26
            // board with steps of at most 25... but stay total anyway.
            if let Ok(i) = u8::try_from(i) {
                let id = DirId(i);
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        ids
    };
    let mut kinds = Vec::new();
    let weights = weights(r);
    for (k, kind) in r.kinds.list.iter().enumerate() {
        let moves = kind
            .moves
            .iter()
            .map(|m: &VectorMoves| Moves {
                step: intern(&m.step),
                slide: intern(&m.slide),
                short_jump: intern(&m.short_jump),
                long_jump: intern(&m.long_jump),
                step_capture: intern(&m.step_capture),
                slide_capture: intern(&m.slide_capture),
                limits: m
                    .limits
                    .iter()
                    .filter_map(|(v, bits)| intern(&[*v]).first().map(|d| (*d, *bits)))
                    .collect(),
            })
            .collect();
        let promotion = kind.promotion.map(|(target, zone, whose)| {
            let per_side = (0..r.sides.list.len())
                .map(|s| r.zones.seen_by(zone, whose, s))
                .collect();
            (target, per_side)
        });
        let immune_to = kind
            .immune_to
            .iter()
            .fold(0u32, |bits, k| bits | (1u32 << k.0.min(31)));
        let weight = weights.get(k).copied().unwrap_or(1000);
        // Evaluation counts whole pieces: the value rounded.
        let value = i32::try_from(weight.saturating_add(500) / 1000).unwrap_or(i32::MAX);
        kinds.push(KindInfo {
            id: kind.id.clone(),
            name: kind.name.clone(),
            letter: kind.letter,
            moves,
            promotion,
            immune_to,
            value,
            weight,
            span: kind.span,
        });
    }
    let mut capture = r.capture.clone();
    capture.custodian = r.custodian.as_ref().map(|c| Custodian {
        dirs: c.per_side.iter().map(|v| intern(v)).collect(),
        multiple: c.multiple,
        corners: c.corners,
    });
    Game {
        title: r.title.clone(),
        description: r.description.clone(),
        pdn_game_type: r.pdn_game_type,
        width: r.board.width,
        height: r.board.height,
        playable: r.board.playable,
        notation: r.board.notation,
        squares: r.board.squares.clone(),
        square_at: r.board.square_at.clone(),
        dirs,
        sides: r.sides.list.clone(),
        first: r.sides.first,
        kinds,
        zones: r.zones.list.clone(),
        setup: r.setup.clone(),
        capture,
        triggers: r.triggers.clone(),
        end: r.end.clone(),
    }
}
