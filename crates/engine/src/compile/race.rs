//! Checked race game -> `RaceGame`: the cell rules become a table indexed
//! by cell, holding for each cell the rules whose cell tests hold there, in
//! the order of the rule file. Never fails. The one check that needs the
//! tables is here too: `check_cycles` finds a landing that, with `landing
//! rules chain`, moves a piece on and on forever (`E038`).

use crate::check::race::RaceSpec;
use crate::diagnostic::{Code, Diagnostic};
use crate::race::game::{CellRule, CellTable, Landed, Moment, RaceGame, OUT};

/// Builds the tables of a checked race game.
pub fn compile_race(spec: &RaceSpec) -> RaceGame {
    let rules: Vec<CellRule> = spec
        .rules
        .iter()
        .map(|r| {
            CellRule::new(
                r.moment,
                r.label.clone(),
                r.roll_tests.clone(),
                r.effects.clone(),
                r.span,
            )
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
    RaceGame::new(
        spec.settings.clone(),
        rules,
        table(Moment::Landing),
        table(Moment::Resting),
    )
}

/// `E038`: with `landing rules chain`, a landing that moves the piece on and
/// on forever. Every roll's sum, every cell and both directions are tried;
/// rules with tests of the roll are taken both as holding and as not.
pub fn check_cycles(game: &RaceGame, diags: &mut Vec<Diagnostic>) {
    if !game.chain {
        return;
    }
    let (low, high) = game.sums();
    let nodes = usize::from(game.cells) * 2;
    // On a circuit each seat's path meets the rules in its own order.
    let seats = match (&game.circuit, &game.paths) {
        (Some(c), _) => c.starts.len().max(1),
        (None, Some(p)) => p.seats.len().max(1),
        (None, None) => 1,
    };
    for seat in 0..seats {
        for count in low..=high {
            // 0: not seen, 1: on the current path, 2: done.
            let mut color = vec![0u8; nodes];
            for start in 1..game.cells {
                for dir in [1i8, -1] {
                    if let Some(cycle) = find_cycle(game, seat, count, start, dir, &mut color) {
                        report_cycle(game, seat, count, &cycle, diags);
                        return;
                    }
                }
            }
        }
    }
}

fn node(cell: u16, dir: i8) -> usize {
    usize::from(cell) * 2 + usize::from(dir < 0)
}

/// Where one landing on `cell` (no chaining) may send the piece: one
/// result per choice of the roll-dependent rules there.
fn successors(game: &RaceGame, seat: usize, cell: u16, count: u16, dir: i8) -> Vec<(u16, i8)> {
    let ids = game.rules_at(Moment::Landing, seat, cell);
    let dynamic: Vec<u16> = ids
        .iter()
        .copied()
        .filter(|&id| {
            game.rules
                .get(usize::from(id))
                .is_some_and(|r| !r.roll_tests.is_empty())
        })
        .take(6)
        .collect();
    let mut out = Vec::new();
    for mask in 0u32..(1 << dynamic.len()) {
        let holds = |id: u16| match dynamic.iter().position(|&d| d == id) {
            Some(i) => mask & (1 << i) != 0,
            None => true,
        };
        let mut p = cell;
        let mut d = dir;
        let mut landed = Landed::default();
        for &id in ids {
            let Some(rule) = game.rules.get(usize::from(id)) else {
                continue;
            };
            if !holds(id) {
                continue;
            }
            if game
                .apply_effects(rule, seat, &mut p, &mut d, count, &mut landed)
                .stop
            {
                break;
            }
        }
        // A piece turned round on its cell (a bounce) lands again too.
        if (p != cell || d != dir) && p != OUT && p < game.cells && !out.contains(&(p, d)) {
            out.push((p, d));
        }
    }
    out
}

/// A cell on the path of the search, its direction and the successors
/// still to visit.
type PathStep = (u16, i8, Vec<(u16, i8)>);

/// A depth-first search from (start, dir); the cells of a circle if one is
/// reachable.
fn find_cycle(
    game: &RaceGame,
    seat: usize,
    count: u16,
    start: u16,
    dir: i8,
    color: &mut [u8],
) -> Option<Vec<u16>> {
    if color.get(node(start, dir)).copied() != Some(0) {
        return None;
    }
    let mut path: Vec<PathStep> = Vec::new();
    path.push((start, dir, successors(game, seat, start, count, dir)));
    if let Some(c) = color.get_mut(node(start, dir)) {
        *c = 1;
    }
    while let Some((cell, d, next)) = path.last_mut() {
        let (cell, d) = (*cell, *d);
        match next.pop() {
            Some((to, to_dir)) => match color.get(node(to, to_dir)).copied() {
                Some(0) => {
                    if let Some(c) = color.get_mut(node(to, to_dir)) {
                        *c = 1;
                    }
                    let succ = successors(game, seat, to, count, to_dir);
                    path.push((to, to_dir, succ));
                }
                Some(1) => {
                    let from = path
                        .iter()
                        .position(|(c, pd, _)| *c == to && *pd == to_dir)?;
                    let mut cycle: Vec<u16> = path.iter().skip(from).map(|(c, _, _)| *c).collect();
                    cycle.push(to);
                    return Some(cycle);
                }
                _ => {}
            },
            None => {
                if let Some(c) = color.get_mut(node(cell, d)) {
                    *c = 2;
                }
                path.pop();
            }
        }
    }
    None
}

fn report_cycle(
    game: &RaceGame,
    seat: usize,
    count: u16,
    cycle: &[u16],
    diags: &mut Vec<Diagnostic>,
) {
    let first = cycle.first().copied().unwrap_or(0);
    let rule = game
        .rules_at(Moment::Landing, seat, first)
        .iter()
        .filter_map(|&id| game.rules.get(usize::from(id)))
        .find(|r| r.effects.iter().any(|e| e.moves()));
    let path: Vec<String> = cycle.iter().map(|&c| game.label(seat, c)).collect();
    let mut d = Diagnostic::new(
        Code::CellCycle,
        format!(
            "chained landing rules go round in a circle: {}",
            path.join(" -> ")
        ),
    );
    if let Some(rule) = rule {
        d = d.primary(rule.span, format!("moves the piece on from {first}"));
    }
    for id in cycle.iter().skip(1).filter_map(|c| {
        game.rules_at(Moment::Landing, seat, *c)
            .iter()
            .find(|&&id| {
                game.rules
                    .get(usize::from(id))
                    .is_some_and(|r| r.effects.iter().any(|e| e.moves()))
            })
    }) {
        if let Some(r) = game.rules.get(usize::from(*id)) {
            if d.labels.iter().all(|l| l.span != r.span) {
                d = d.secondary(r.span, "and on from here");
            }
        }
    }
    diags.push(d.help(format!(
        "with `landing rules chain` a piece moved by a rule lands again; here it never stops (on a roll of {count}). Break the circle, or write `landing rules once`"
    )));
}
