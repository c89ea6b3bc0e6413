//! The key of a track picture: every cell that has a rule, with a mark (one
//! character) and a line of legend, built from the rule file's cell rules
//! and named by them (their quoted names, or their tests in words), never
//! by a game. The text picture, the SVG picture and the web page draw the
//! same marks from it.
//!
//! Rules that share a name are one entry (every `"a ladder"` of a file);
//! an entry's cells are the cells where its rules hold. A rule that holds
//! on every cell (`resting on any`) marks no cell: the legend says it
//! applies everywhere. Safe cells are an entry of their own (`*`).

use crate::race::game::{CellEffect, Moment, RaceGame};

/// The mark of the safe cells.
pub const SAFE_MARK: char = '*';

/// What an entry does to the piece, for its colour: up the track, down
/// it, a wait, a piece sent elsewhere, a safe cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// The piece moves on (forward, again by the roll, up to a later
    /// cell), or the player rolls again.
    Up,
    /// The piece moves back, down to an earlier cell, or out.
    Down,
    /// The player waits: turns missed, the piece held, no extra roll, the
    /// turn ends.
    Wait,
    /// Other pieces are sent somewhere (`bump`, `opponents out`).
    Hit,
    /// No rule sends another player's piece away here.
    Safe,
}

impl Kind {
    /// The word for it, as SVG classes and the web page name it.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Up => "up",
            Kind::Down => "down",
            Kind::Wait => "wait",
            Kind::Hit => "hit",
            Kind::Safe => "safe",
        }
    }
}

/// One entry of the legend: rules that share a name, and where they hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The mark drawn on its cells: a letter or digit from its name, unique
    /// in the legend (`*` for the safe cells).
    pub mark: char,
    /// The rule's name: its quoted name, its tests in words (`contains 7`,
    /// `a double`), or for a rule named by neither what it does.
    pub name: String,
    /// Landing or resting rules.
    pub moment: Moment,
    /// What it does, in words (`miss 1 turn`, `forward 3`); for rules
    /// that send the piece to a cell (`go to 38`) the cells are in
    /// `jumps` and this says the rest, if anything.
    pub does: String,
    /// Its colour: what it does to the piece on its first cell.
    pub kind: Kind,
    /// The cells it marks, in order (cells of the loop on a circuit).
    pub cells: Vec<u16>,
    /// For `go to` rules: from each cell, the cell the piece goes to.
    pub jumps: Vec<(u16, u16)>,
    /// On paths, the names of `cells` (empty where cells are numbered).
    pub names: Vec<String>,
}

/// The legend of a track: the entries that mark cells, then the rules
/// that apply on every cell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Legend {
    /// Entries with their marks, in the order of the rule file (the safe
    /// cells last).
    pub entries: Vec<Entry>,
    /// Rules that hold on every cell, in words: `every cell (resting): a
    /// capture: opponents out`.
    pub everywhere: Vec<String>,
    /// The rules of the roll, in words: `a third 6: last-moved out, end
    /// turn`.
    pub rolls: Vec<String>,
}

impl Legend {
    /// The legend of a game's track.
    pub fn of(game: &RaceGame) -> Legend {
        build(game)
    }

    /// The entries whose cells include `cell`, in legend order.
    pub fn at(&self, cell: u16) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(move |e| e.cells.binary_search(&cell).is_ok())
    }

    /// The most marks on one cell.
    pub fn widest(&self, last: u16) -> usize {
        (1..=last).map(|c| self.at(c).count()).max().unwrap_or(0)
    }
}

/// The last cell of the track drawn: the finish of a plain track, the last
/// cell of the loop of a circuit.
pub fn last_cell(game: &RaceGame) -> u16 {
    if let Some(paths) = &game.paths {
        return u16::try_from(paths.names.len()).unwrap_or(u16::MAX);
    }
    game.circuit.as_ref().map_or(game.cells, |c| c.cells)
}

/// The names of `cells` on paths (empty where cells are numbered).
fn names_of(game: &RaceGame, cells: &[u16]) -> Vec<String> {
    match &game.paths {
        Some(paths) => cells.iter().map(|&c| paths.name(c).to_string()).collect(),
        None => Vec::new(),
    }
}

/// The cells that have rules: 1 to the cell before the finish, or the
/// loop.
fn rule_cells(game: &RaceGame) -> u16 {
    if game.paths.is_some() {
        return last_cell(game);
    }
    game.circuit
        .as_ref()
        .map_or(game.cells.saturating_sub(1), |c| c.cells)
}

/// Words that don't make a mark.
const SMALL: [&str; 10] = [
    "a", "an", "the", "of", "on", "and", "not", "contains", "without", "rolled",
];

/// The mark of a name: the first character of its last real word (`a
/// ladder` L, `contains 7` 7), else of its other words, else any of its
/// letters or digits, else the first free letter or digit; `?` when all
/// are taken.
fn choose_mark(name: &str, taken: &[char]) -> char {
    let words: Vec<&str> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let real: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !SMALL.contains(&w.to_lowercase().as_str()))
        .collect();
    let firsts = real
        .iter()
        .rev()
        .chain(words.iter().rev())
        .filter_map(|w| w.chars().next());
    let rest = name.chars().filter(|c| c.is_alphanumeric());
    let spare = ('A'..='Z').chain('0'..='9');
    firsts
        .chain(rest)
        .chain(spare)
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .find(|c| !taken.contains(c) && *c != SAFE_MARK)
        .unwrap_or('?')
}

/// Effects in words, as the rule file says them; `go to` left out when
/// `jumps` lists it.
fn effect_words(effects: &[CellEffect], with_go_to: bool) -> String {
    let words: Vec<String> = effects
        .iter()
        .filter_map(|e| match *e {
            CellEffect::Forward(k) => Some(format!("forward {k}")),
            CellEffect::Back(k) => Some(format!("back {k}")),
            CellEffect::GoTo(c) if with_go_to => Some(format!("go to {c}")),
            CellEffect::GoTo(_) => None,
            CellEffect::Out => Some("out".to_string()),
            CellEffect::Repeat => Some("moves again by the roll".to_string()),
            CellEffect::Miss(k) => Some(format!("miss {}", crate::words::count(k.into(), "turn"))),
            CellEffect::NoExtraRoll => Some("no extra roll".to_string()),
            CellEffect::ExtraRoll => Some("roll again".to_string()),
            CellEffect::Held => Some("held until another piece comes".to_string()),
            CellEffect::Targeted(t, a) => Some(t.with(a)),
            CellEffect::EndTurn => Some("the turn ends".to_string()),
            CellEffect::Stop => None,
        })
        .collect();
    words.join(", ")
}

/// What a rule does to a piece on `cell`, for its colour.
fn kind_of(game: &RaceGame, effects: &[CellEffect], cell: u16) -> Kind {
    let mut kind = None;
    for e in effects {
        let k = match *e {
            CellEffect::Forward(_) | CellEffect::Repeat | CellEffect::ExtraRoll => Kind::Up,
            CellEffect::Back(_) | CellEffect::Out => Kind::Down,
            CellEffect::GoTo(to) => {
                // On a circuit, compare progress along the first seat's path.
                if game.progress_at(0, to) > game.progress_at(0, cell) {
                    Kind::Up
                } else {
                    Kind::Down
                }
            }
            CellEffect::Miss(_)
            | CellEffect::Held
            | CellEffect::NoExtraRoll
            | CellEffect::EndTurn => Kind::Wait,
            CellEffect::Targeted(..) => Kind::Hit,
            CellEffect::Stop => continue,
        };
        // A move of the piece says more than what comes with it.
        let moves = matches!(k, Kind::Up | Kind::Down) && e.moves();
        if moves {
            return k;
        }
        kind.get_or_insert(k);
    }
    kind.unwrap_or(Kind::Wait)
}

fn build(game: &RaceGame) -> Legend {
    let last = rule_cells(game);
    let mut legend = Legend::default();
    let mut taken: Vec<char> = Vec::new();
    // Where each rule holds, from the compiled tables.
    let mut holds: Vec<Vec<u16>> = vec![Vec::new(); game.rules().len()];
    for cell in 1..=last {
        for table in [&game.landing(), &game.resting()] {
            for &id in table.at(cell) {
                if let Some(h) = holds.get_mut(usize::from(id)) {
                    h.push(cell);
                }
            }
        }
    }
    for (id, rule) in game.rules().iter().enumerate() {
        let cells = holds.get(id).cloned().unwrap_or_default();
        if cells.is_empty() {
            continue;
        }
        let jumps_here = rule
            .effects
            .iter()
            .any(|e| matches!(e, CellEffect::GoTo(_)));
        let does = effect_words(&rule.effects, !jumps_here);
        let resting = rule.moment == Moment::Resting;
        if cells.len() == usize::from(last) && last > 1 {
            let mut text = "every cell".to_string();
            if resting {
                text.push_str(" (resting)");
            }
            text.push_str(": ");
            if !rule.label.is_empty() {
                text.push_str(&format!("{}: ", rule.label));
            }
            text.push_str(&effect_words(&rule.effects, true));
            legend.everywhere.push(text);
            continue;
        }
        let name = if rule.label.is_empty() {
            effect_words(&rule.effects, true)
        } else {
            rule.label.clone()
        };
        let jumps: Vec<(u16, u16)> = rule
            .effects
            .iter()
            .find_map(|e| match *e {
                CellEffect::GoTo(to) => Some(to),
                _ => None,
            })
            .map(|to| cells.iter().map(|&c| (c, to)).collect())
            .unwrap_or_default();
        let kind = kind_of(game, &rule.effects, cells.first().copied().unwrap_or(1));
        // Rules of one name and moment (every "a ladder") are one entry.
        if let Some(e) = legend
            .entries
            .iter_mut()
            .find(|e| e.name == name && e.moment == rule.moment)
        {
            for c in cells {
                if let Err(i) = e.cells.binary_search(&c) {
                    e.cells.insert(i, c);
                }
            }
            if game.paths.is_some() {
                e.names = names_of(game, &e.cells);
            }
            e.jumps.extend(jumps);
            e.jumps.sort_unstable();
            if e.does.is_empty() {
                e.does = does;
            } else if !does.is_empty() && !e.does.split(", ").any(|w| w == does) {
                e.does.push_str(&format!(", {does}"));
            }
            continue;
        }
        let mark = choose_mark(&name, &taken);
        taken.push(mark);
        legend.entries.push(Entry {
            mark,
            name,
            moment: rule.moment,
            does,
            kind,
            names: names_of(game, &cells),
            cells,
            jumps,
        });
    }
    let safe: Vec<u16> = (1..=last)
        .filter(|&c| game.safe.get(usize::from(c)).copied().unwrap_or(false))
        .collect();
    if !safe.is_empty() {
        legend.entries.push(Entry {
            mark: SAFE_MARK,
            name: "safe cell".to_string(),
            moment: Moment::Resting,
            does: if game.closed.is_empty() {
                "no piece is sent away here".to_string()
            } else {
                "no piece is sent away here, and no second piece lands".to_string()
            },
            kind: Kind::Safe,
            names: names_of(game, &safe),
            cells: safe,
            jumps: Vec::new(),
        });
    }
    for r in &game.roll_rules {
        legend
            .rolls
            .push(format!("{}: {}", r.label, effect_words(&r.effects, true)));
    }
    legend
}

/// One letter per seat, unique among the first `players` seats: the first
/// letter of its name, else another of its letters, else a free letter
/// (`red blue black`: R B L).
pub fn seat_letters(game: &RaceGame, players: usize) -> Vec<char> {
    let mut letters: Vec<char> = Vec::with_capacity(players);
    for seat in 0..players {
        let name = game.seats.get(seat).map_or("", String::as_str);
        let letter = name
            .chars()
            .chain('A'..='Z')
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_uppercase())
            .find(|c| !letters.contains(c))
            .unwrap_or('?');
        letters.push(letter);
    }
    letters
}

/// Cells in words, runs of three or more as ranges: `1 10-19 21`.
pub fn cells_text(cells: &[u16]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while let Some(&start) = cells.get(i) {
        let mut j = i;
        while cells
            .get(j + 1)
            .is_some_and(|&n| Some(n) == cells.get(j).map(|c| c + 1))
        {
            j += 1;
        }
        let end = cells.get(j).copied().unwrap_or(start);
        if j >= i + 2 {
            parts.push(format!("{start}-{end}"));
        } else {
            for c in cells.get(i..=j).unwrap_or(&[]) {
                parts.push(c.to_string());
            }
        }
        i = j + 1;
    }
    parts.join(" ")
}

impl Entry {
    /// The entry in words after its mark: `a ladder: 1 to 38, 4 to 14`,
    /// `the inn: miss 1 turn; cell 19`, `contains 5 (resting): others out;
    /// cells 5 15 25`. `arrow` joins a jump's cells (`to`, `->`, `→`).
    pub fn text(&self, arrow: &str) -> String {
        let mut s = self.name.clone();
        if self.moment == Moment::Resting && self.kind != Kind::Safe {
            s.push_str(" (resting)");
        }
        let mut what = Vec::new();
        if !self.does.is_empty() && self.does != self.name {
            what.push(self.does.clone());
        }
        if self.jumps.is_empty() {
            let n = self.cells.len();
            let noun = if n == 1 { "cell" } else { "cells" };
            let list = if self.names.is_empty() {
                format!("{noun} {}", cells_text(&self.cells))
            } else {
                format!("{noun} {}", self.names.join(" "))
            };
            if what.is_empty() {
                s.push_str(&format!(": {list}"));
            } else {
                s.push_str(&format!(": {}; {list}", what.join(", ")));
            }
        } else {
            let jumps: Vec<String> = self
                .jumps
                .iter()
                .map(|(from, to)| format!("{from}{arrow}{to}"))
                .collect();
            s.push_str(&format!(": {}", jumps.join(", ")));
            if !what.is_empty() {
                s.push_str(&format!("; {}", what.join(", ")));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_come_from_the_name_and_are_unique() {
        let mut taken = Vec::new();
        for (name, want) in [
            ("a ladder", 'L'),
            ("a snake", 'S'),
            ("contains 0", '0'),
            ("contains 1", '1'),
            ("a double", 'D'),
            ("death", 'E'),
            ("6 and 3 on the first throw", 'T'),
            ("5 and 4 on the first throw", 'F'),
            ("", 'A'),
        ] {
            let m = choose_mark(name, &taken);
            assert_eq!(m, want, "{name}");
            taken.push(m);
        }
    }

    #[test]
    fn cells_in_words_use_ranges() {
        assert_eq!(cells_text(&[1, 10, 11, 12, 13, 21, 22]), "1 10-13 21 22");
        assert_eq!(cells_text(&[]), "");
        assert_eq!(cells_text(&[5]), "5");
    }
}
