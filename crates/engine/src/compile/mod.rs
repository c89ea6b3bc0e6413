//! Checked game -> `Game` tables: directions interned into `DirId`s,
//! promotion squares per side, values and immunities as numbers. Never fails:
//! everything that could go wrong was checked, except what only the tables
//! show (a race game's circles of chained landings, `race::check_cycles`).

pub mod race;

use crate::board::game::{Custodian, DirId, Game, KindInfo, Moves, Sq, SquareSet};
use crate::check::pieces::VectorMoves;
use crate::check::{weights, CheckedGame, Resolved};
use crate::diagnostic::Diagnostic;
use crate::race::game::RaceGame;

/// A compiled game of either kind.
#[derive(Clone, Debug)]
pub enum Compiled {
    /// A board game.
    Board(Box<Game>),
    /// A race game.
    Race(Box<RaceGame>),
}

/// Builds the tables of a checked game of either kind; a race game's are
/// then searched for circles of chained landings (`E038`, pushed to `diags`).
pub fn compile_game(checked: &CheckedGame, diags: &mut Vec<Diagnostic>) -> Compiled {
    match checked {
        CheckedGame::Board(r) => Compiled::Board(Box::new(compile(r))),
        CheckedGame::Race(spec) => {
            let game = race::compile_race(spec);
            race::check_cycles(&game, diags);
            Compiled::Race(Box::new(game))
        }
    }
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
                hop: intern(&m.hop),
                step_capture: intern(&m.step_capture),
                slide_capture: intern(&m.slide_capture),
                limits: m
                    .limits
                    .iter()
                    .filter_map(|(v, bits)| intern(&[*v]).first().map(|d| (*d, *bits)))
                    .collect(),
                clone: intern(&m.clone),
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
        let surrounded = kind.surrounded.map(|(at, _)| {
            (0..r.sides.list.len())
                .map(|s| match at {
                    Some((zone, whose)) => r.zones.seen_by(zone, whose, s),
                    None => {
                        let mut all = SquareSet::with_capacity(r.board.squares.len());
                        for i in 0..r.board.squares.len() {
                            if let Ok(i) = u16::try_from(i) {
                                all.insert(Sq(i));
                            }
                        }
                        all
                    }
                })
                .collect()
        });
        kinds.push(KindInfo {
            surrounded,
            unarmed: kind.unarmed.is_some(),
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
        edge: c.edge,
    });
    if let Some(per_side) = &r.neighbours {
        capture.neighbours = per_side.iter().map(|v| intern(v)).collect();
    }
    // A line's directions are interned too: the end rules walk them on the
    // tables' neighbours.
    for rule in &r.end.rules {
        if let crate::board::game::EndCondition::Line { dirs: per_side, .. } = &rule.condition {
            for v in per_side {
                intern(v);
                // And the reverse: a row is walked from its first piece.
                let back: Vec<(i8, i8)> = v.iter().map(|&(x, y)| (-x, -y)).collect();
                intern(&back);
            }
        }
    }
    Game {
        title: r.title.clone(),
        description: r.description.clone(),
        pdn_game_type: r.pdn_game_type,
        board: r.board.clone(),
        dirs,
        sides: r.sides.list.clone(),
        first: r.sides.first,
        kinds,
        zones: r.zones.list.clone(),
        setup: r.setup.clone(),
        capture,
        triggers: r.triggers.clone(),
        placing: r.placing.clone(),
        lines: r.lines.clone(),
        opening: r.opening.clone(),
        end: r.end.clone(),
    }
}
