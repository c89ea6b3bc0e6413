//! Checked game -> `Game` tables: directions interned into `DirId`s,
//! promotion squares per side, values and immunities as numbers. Never fails:
//! everything that could go wrong was checked.

pub mod race;

use crate::check::pieces::VectorMoves;
use crate::check::Resolved;
use crate::game::{DirId, Game, KindInfo, Moves};

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
    let promoted_only = |k: usize| {
        let id = u8::try_from(k).ok();
        let promoted = r.kinds.list.iter().any(|other| {
            other
                .promotion
                .is_some_and(|(target, _, _)| Some(target.0) == id)
        });
        let set_up = r.setup.iter().any(|(_, _, kind)| Some(kind.0) == id);
        let converted = r.triggers.iter().any(|t| {
            let crate::game::TriggerAction::Convert(kind) = t.action;
            Some(kind.0) == id
        }) || matches!(r.capture.effect, crate::game::JumpEffect::Convert(kind) if Some(kind.0) == id);
        promoted && !set_up && !converted
    };
    for (k, kind) in r.kinds.list.iter().enumerate() {
        let moves = kind
            .moves
            .iter()
            .map(|m: &VectorMoves| Moves {
                step: intern(&m.step),
                slide: intern(&m.slide),
                short_jump: intern(&m.short_jump),
                long_jump: intern(&m.long_jump),
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
        let value = kind.value.unwrap_or(if promoted_only(k) { 3 } else { 1 });
        kinds.push(KindInfo {
            id: kind.id.clone(),
            name: kind.name.clone(),
            letter: kind.letter,
            moves,
            promotion,
            immune_to,
            value,
            span: kind.span,
        });
    }
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
        capture: r.capture.clone(),
        triggers: r.triggers.clone(),
        end: r.end.clone(),
    }
}
