//! Checked race game -> `RaceGame`: the cell rules become a table indexed
//! by cell, holding for each cell the rules whose cell tests hold there, in
//! the order of the rule file. Never fails.

use crate::check::race::RaceSpec;
use crate::race::game::{CellRule, CellTable, Moment, RaceGame};

/// Builds the tables of a checked race game.
pub fn compile_race(spec: &RaceSpec) -> RaceGame {
    let rules: Vec<CellRule> = spec
        .rules
        .iter()
        .map(|r| CellRule {
            moment: r.moment,
            label: r.label.clone(),
            roll_tests: r.roll_tests.clone(),
            effects: r.effects.clone(),
            span: r.span,
        })
        .collect();
    let table = |moment: Moment| {
        let mut t = CellTable::default();
        for cell in 0..=spec.rule_cells + 1 {
            t.starts.push(t.ids.len() as u32);
            // The finish and the start have no rules (SS-4: n < 100); on a
            // circuit, every cell of the loop may have some.
            if cell == 0 || cell > spec.rule_cells {
                continue;
            }
            for (id, r) in spec.rules.iter().enumerate() {
                if r.moment == moment && r.holds_on(cell) {
                    if let Ok(id) = u16::try_from(id) {
                        t.ids.push(id);
                    }
                }
            }
        }
        t.starts.push(t.ids.len() as u32);
        t
    };
    RaceGame {
        title: spec.title.clone(),
        description: spec.description.clone(),
        cells: spec.cells,
        circuit: spec.circuit.clone(),
        safe: spec.safe.clone(),
        enter_at_start: spec.enter_at_start,
        roll_rules: spec.roll_rules.clone(),
        outcome: spec.outcome,
        order: spec.order,
        min_players: spec.min_players,
        max_players: spec.max_players,
        seats: spec.seats.clone(),
        pieces: spec.pieces,
        dice: spec.dice,
        faces: spec.faces,
        enter: spec.enter,
        extra: spec.extra,
        finish: spec.finish,
        win: spec.win,
        compulsory: spec.compulsory,
        chain: spec.chain,
        landing: table(Moment::Landing),
        resting: table(Moment::Resting),
        rules,
    }
}
