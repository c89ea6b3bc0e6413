//! The compiled race game: what the checker hands the race engine
//! (`crate::race`), the counterpart of `Game` for games on a track with dice.
//!
//! A position on the track is a `u16`: `OUT` (0) for a piece off the track
//! (at the start, or sent back there), `1..cells` for the cells, `cells` for
//! a piece that has reached the finish. On a circuit it is the progress
//! along the seat's own path (its start cell is 1), mapped to the cells of
//! the shared loop by `rule_cell` and named by `label`.
//!
//! Cell rules are compiled to a table indexed by cell: for each cell the
//! rules whose cell tests hold there, in the order of the rule file; only
//! the tests of the roll (`entering`, `roll 6 3`) are left for play time.
//!
//! Its values (finish, win, moments, targets, effects, roll rules, the
//! circuit) are the resolved vocabulary of the language,
//! `crate::vocab::race`, re-exported here.

use crate::race::Roll;
use crate::source::Span;
pub use crate::vocab::race::*;

/// The position of a piece that is off the track.
pub const OUT: u16 = 0;

/// One rule of the cells.
#[derive(Clone, Debug)]
pub struct CellRule {
    /// Landing or resting.
    pub moment: Moment,
    /// How events name it: its quoted name, or its tests in words
    /// (`contains 7`, `a double`).
    pub label: String,
    /// The tests of the roll, all of which must hold, each maybe negated.
    pub roll_tests: Vec<(bool, RollTest)>,
    /// What it does.
    pub effects: Vec<CellEffect>,
    /// Where it is written.
    pub span: Span,
    /// Its effects all act on pieces its targets pick (or say `stop`): its
    /// events are those of the pieces moved (worked out by `new`).
    pub only_targets: bool,
    /// It only sends the other pieces on its cell out (`bump`, `opponents
    /// out`): the pieces sent out tell it all.
    pub bump_like: bool,
    /// Some effect of it has a target.
    pub targets: bool,
}

impl CellRule {
    /// A rule with what the engine asks of its effects on every landing
    /// worked out once.
    pub fn new(
        moment: Moment,
        label: String,
        roll_tests: Vec<(bool, RollTest)>,
        effects: Vec<CellEffect>,
        span: Span,
    ) -> CellRule {
        let only_targets = effects
            .iter()
            .all(|e| matches!(e, CellEffect::Targeted(..) | CellEffect::Stop));
        let bump_like = effects.iter().all(|e| {
            matches!(
                e,
                CellEffect::Targeted(Target::Others | Target::Opponents, Action::Out)
                    | CellEffect::Stop
            )
        });
        let targets = effects
            .iter()
            .any(|e| matches!(e, CellEffect::Targeted(..)));
        CellRule {
            moment,
            label,
            roll_tests,
            effects,
            span,
            only_targets,
            bump_like,
            targets,
        }
    }

    /// Whether the roll tests hold for a piece that `entering` or not, with
    /// these dice.
    #[inline]
    pub fn roll_holds(&self, entering: bool, roll: &Roll) -> bool {
        self.roll_tests.iter().all(|(negated, test)| {
            let holds = match test {
                RollTest::Entering => entering,
                RollTest::Faces { faces } => roll.sorted() == *faces,
            };
            holds != *negated
        })
    }
}

/// The rules in force on each cell: an index range per cell into one list of
/// rule ids.
#[derive(Clone, Debug, Default)]
pub struct CellTable {
    /// `starts[c]..starts[c + 1]` is cell c's slice of `ids`.
    pub starts: Vec<u32>,
    /// Rule ids (indices into `RaceGame::rules`).
    pub ids: Vec<u16>,
}

impl CellTable {
    /// The rules of a cell, in order.
    pub fn at(&self, cell: u16) -> &[u16] {
        let c = usize::from(cell);
        match (self.starts.get(c), self.starts.get(c + 1)) {
            (Some(&a), Some(&b)) => self.ids.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// What the landing rules did to a piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Landed {
    /// Where the piece ends: `OUT`, a cell, or `cells` (finished).
    pub at: u16,
    /// The direction it was moving in at the end (+1 or -1).
    pub dir: i8,
    /// Turns the player is to miss.
    pub miss: u8,
    /// `Some(false)`: the extra roll is lost; `Some(true)`: one is given.
    pub extra: Option<bool>,
    /// The piece is held.
    pub held: bool,
    /// A rule ended the turn (`end turn`).
    pub end_turn: bool,
}

/// What one rule's effects did to the piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The rule says `stop`.
    pub stop: bool,
    /// A move of the rule could not move the piece (out, finished, or past
    /// the finish with `finish exact`).
    pub blocked: bool,
}

/// Rules of the roll are values of the vocabulary; testing one against a
/// roll is the engine's.
impl RollRule {
    /// Whether it applies to `roll`, the `doubles`-th double in a row (0
    /// when the roll is not a double) and the `same`-th roll in a row with
    /// these faces.
    pub fn holds(&self, roll: &Roll, doubles: u8, same: u8) -> bool {
        match self.condition {
            RollCondition::Faces(f) => roll.sorted() == f,
            RollCondition::DoublesInARow(n) => doubles == n,
            RollCondition::FacesInARow(f, n) => roll.sorted() == f && same == n,
        }
    }

    /// Whether it ends the turn: the roll is not played.
    pub fn ends_turn(&self) -> bool {
        self.effects.contains(&CellEffect::EndTurn)
    }
}

/// A compiled race game.
#[derive(Clone, Debug)]
pub struct RaceGame {
    /// Title.
    pub title: String,
    /// The rule file's description.
    pub description: String,
    /// The length of a piece's path; its last cell is the finish (on a
    /// `circuit`, the cells of the loop and of a home run).
    pub cells: u16,
    /// The loop with a start cell per seat and home runs, when the track is
    /// one (positions are then progress along each seat's path).
    pub circuit: Option<Circuit>,
    /// Cells where no rule sends another player's piece anywhere (indexed
    /// by cell number; empty: none).
    pub safe: Vec<bool>,
    /// An entering piece is put on its start cell (`enter ... at start`)
    /// instead of moving the roll from before the first cell.
    pub enter_at_start: bool,
    /// The rules of the roll, in the order of the rule file.
    pub roll_rules: Vec<RollRule>,
    /// Who ranks first.
    pub outcome: Outcome,
    /// `finishing order`: play on until every player but one is home, and
    /// report the order.
    pub order: bool,
    /// The fewest players.
    pub min_players: u8,
    /// The most players.
    pub max_players: u8,
    /// The names of the seats, in order (at least `max_players`).
    pub seats: Vec<String>,
    /// Pieces per player.
    pub pieces: u8,
    /// Dice rolled at once.
    pub dice: u8,
    /// Faces of each die.
    pub faces: u8,
    /// When a piece enters.
    pub enter: Enter,
    /// When a roll earns another.
    pub extra: Extra,
    /// The finish rule.
    pub finish: Finish,
    /// Who wins.
    pub win: Win,
    /// A move must be made when one exists (SS-2).
    pub compulsory: bool,
    /// A piece moved by a landing rule lands again where it arrives.
    pub chain: bool,
    /// Every cell rule, in the order of the rule file.
    pub rules: Vec<CellRule>,
    /// The landing rules of each cell.
    pub landing: CellTable,
    /// The resting rules of each cell.
    pub resting: CellTable,
    /// Some cell rule holds a piece (`held`): pieces may have to be freed
    /// (set by `derive`).
    pub holds_pieces: bool,
    /// The game may end drawn, all pieces held or stuck before an exact
    /// finish: some rule holds pieces or the finish is exact, and no rule of
    /// the roll moves pieces (set by `derive`).
    pub may_stick: bool,
}

impl RaceGame {
    /// Works out from the rules what the engine asks on every turn
    /// (`holds_pieces`, `may_stick`).
    pub fn derive(&mut self) {
        self.holds_pieces = self
            .rules
            .iter()
            .any(|r| r.effects.contains(&CellEffect::Held));
        let rolls_move = self.roll_rules.iter().any(|r| {
            r.effects
                .iter()
                .any(|e| matches!(e, CellEffect::Targeted(..)))
        });
        self.may_stick = !rolls_move && (self.holds_pieces || self.finish == Finish::Exact);
    }

    /// The smallest and largest sum of a roll.
    pub fn sums(&self) -> (u16, u16) {
        let n = u16::from(self.dice);
        (n, n * u16::from(self.faces))
    }

    /// Moves `count` cells from `from` in direction `dir` (+1 or -1).
    /// Forward past the finish: `finish past` stops on it, `finish bounce`
    /// goes back the rest of the count (and the direction turns), `finish
    /// exact` does not move. Back past the start: out. Returns where and the
    /// direction after.
    pub fn advance(&self, from: u16, count: u16, dir: i8) -> (u16, i8) {
        let n = self.cells;
        if dir < 0 {
            return (from.saturating_sub(count), -1);
        }
        let to = u32::from(from) + u32::from(count);
        if to <= u32::from(n) {
            return (u16::try_from(to).unwrap_or(n), 1);
        }
        match self.finish {
            Finish::Past => (n, 1),
            Finish::Exact => (from, 1),
            Finish::Bounce => {
                let back = to - u32::from(n);
                (
                    u16::try_from(u32::from(n).saturating_sub(back)).unwrap_or(OUT),
                    -1,
                )
            }
        }
    }

    /// The cell number whose rules apply to seat `seat`'s piece at `p`
    /// (its progress on a circuit): the loop cell, 0 on the home cells, out
    /// or finished (no rules there).
    pub fn rule_cell(&self, seat: usize, p: u16) -> u16 {
        match &self.circuit {
            None => p,
            Some(c) => {
                if p == OUT || p > c.cells {
                    return 0;
                }
                let start = c.starts.get(seat).copied().unwrap_or(1);
                (start - 1 + p - 1) % c.cells + 1
            }
        }
    }

    /// The progress of seat `seat` at cell `cell` of the loop (`go to N`
    /// on a circuit); the cell itself on a plain track.
    pub fn progress_at(&self, seat: usize, cell: u16) -> u16 {
        match &self.circuit {
            None => cell,
            Some(c) => {
                if cell == 0 || cell > c.cells {
                    return cell.min(self.cells);
                }
                let start = c.starts.get(seat).copied().unwrap_or(1);
                (cell + c.cells - start) % c.cells + 1
            }
        }
    }

    /// Where a piece is, for telling which pieces share a cell: 0 out,
    /// `u32::MAX` finished, the cell number on a plain track or the loop, a
    /// number of the seat's own above the loop on its home cells.
    pub fn spot(&self, seat: usize, p: u16) -> u32 {
        if p == OUT {
            return 0;
        }
        if p >= self.cells {
            return u32::MAX;
        }
        match &self.circuit {
            Some(c) if p > c.cells => {
                u32::from(c.cells) + 1 + seat as u32 * u32::from(c.home) + u32::from(p - c.cells)
            }
            _ => u32::from(self.rule_cell(seat, p)),
        }
    }

    /// Whether seat `seat`'s piece at `p` stands on a safe cell.
    pub fn is_safe(&self, seat: usize, p: u16) -> bool {
        let cell = self.rule_cell(seat, p);
        cell != 0 && self.safe.get(usize::from(cell)).copied().unwrap_or(false)
    }

    /// A position in words for seat `seat`: `out`, `finished`, the cell
    /// number, or on a circuit `h2` for the second home cell.
    pub fn label(&self, seat: usize, p: u16) -> String {
        if p == OUT {
            return "out".to_string();
        }
        if p >= self.cells {
            return "finished".to_string();
        }
        match &self.circuit {
            Some(c) if p > c.cells => format!("h{}", p - c.cells),
            _ => self.rule_cell(seat, p).to_string(),
        }
    }

    /// The position seat `seat` names with `text` (a label of `label`, but
    /// not `out` or `finished`).
    pub fn parse_label(&self, seat: usize, text: &str) -> Option<u16> {
        let t = text.trim();
        match &self.circuit {
            None => t.parse().ok(),
            Some(c) => {
                if let Some(h) = t.strip_prefix('h') {
                    let k: u16 = h.parse().ok()?;
                    return (k >= 1 && k < c.home).then_some(c.cells + k);
                }
                let cell: u16 = t.parse().ok()?;
                (1..=c.cells)
                    .contains(&cell)
                    .then(|| self.progress_at(seat, cell))
            }
        }
    }

    /// The landing (or resting) rules for seat `seat`'s piece at `p`.
    pub fn rules_at(&self, moment: Moment, seat: usize, p: u16) -> &[u16] {
        let cell = self.rule_cell(seat, p);
        match moment {
            Moment::Landing => self.landing.at(cell),
            Moment::Resting => self.resting.at(cell),
        }
    }

    /// Applies the landing rules where seat `seat`'s piece arrived, at `cell`
    /// moving in direction `dir` after a roll of `count`; with `chain`,
    /// again wherever a rule moves it (or turns it round). `holds(rule)`
    /// says whether a rule's roll tests hold; `fired(rule, cell, then,
    /// blocked)` is told each rule applied, the cell it looked at, where the
    /// piece was after it and whether a move of it could not be made; it
    /// may move the piece itself (effects with a target).
    pub fn land(
        &self,
        seat: usize,
        cell: u16,
        count: u16,
        dir: i8,
        holds: impl Fn(&CellRule) -> bool,
        mut fired: impl FnMut(u16, u16, &mut u16, bool),
    ) -> Landed {
        let n = self.cells;
        let mut out = Landed {
            at: cell,
            dir,
            ..Landed::default()
        };
        let mut here = cell;
        // A checked game has no circle of chained landings; stay total anyway.
        for _ in 0..usize::from(n) * 2 + 1 {
            let mut p = here;
            let mut d = out.dir;
            let before = out.dir;
            for &id in self.rules_at(Moment::Landing, seat, here) {
                let Some(rule) = self.rules.get(usize::from(id)) else {
                    continue;
                };
                if !holds(rule) {
                    continue;
                }
                let applied = self.apply_effects(rule, seat, &mut p, &mut d, count, &mut out);
                fired(id, here, &mut p, applied.blocked);
                if applied.stop {
                    break;
                }
            }
            out.at = p;
            out.dir = d;
            // A piece that bounced back onto the cell it left was moved all
            // the same: its direction turned (issue 9, item 10).
            if !self.chain || (p == here && d == before) || p == OUT || p >= n {
                break;
            }
            here = p;
        }
        out
    }

    /// Applies one rule's effects on the moved piece of seat `seat` at `p`
    /// moving in direction `d`. Moves don't move a piece that is out or
    /// finished; effects with a target are left to the caller.
    pub fn apply_effects(
        &self,
        rule: &CellRule,
        seat: usize,
        p: &mut u16,
        d: &mut i8,
        count: u16,
        out: &mut Landed,
    ) -> Applied {
        self.apply_list(&rule.effects, seat, p, d, count, out)
    }

    /// `apply_effects` on a list of effects.
    pub fn apply_list(
        &self,
        effects: &[CellEffect],
        seat: usize,
        p: &mut u16,
        d: &mut i8,
        count: u16,
        out: &mut Landed,
    ) -> Applied {
        let n = self.cells;
        let mut applied = Applied::default();
        for &effect in effects {
            let on_track = *p != OUT && *p < n;
            let was = (*p, *d);
            match effect {
                CellEffect::Forward(k) if on_track => *p = self.advance(*p, k, 1).0,
                CellEffect::Back(k) if on_track => *p = p.saturating_sub(k),
                CellEffect::GoTo(c) if on_track => *p = self.progress_at(seat, c).min(n),
                CellEffect::Out => *p = OUT,
                CellEffect::Repeat if on_track => (*p, *d) = self.advance(*p, count, *d),
                CellEffect::Miss(k) => out.miss = out.miss.saturating_add(k),
                CellEffect::NoExtraRoll => out.extra = Some(false),
                CellEffect::ExtraRoll => out.extra = Some(true),
                CellEffect::Held => out.held = true,
                CellEffect::Stop => applied.stop = true,
                CellEffect::EndTurn => out.end_turn = true,
                CellEffect::Targeted(..) => {}
                CellEffect::Forward(_)
                | CellEffect::Back(_)
                | CellEffect::GoTo(_)
                | CellEffect::Repeat => {}
            }
            if effect.moves() && effect != CellEffect::Out && was == (*p, *d) {
                applied.blocked = true;
            }
        }
        applied
    }

    /// Where `action` puts seat `seat`'s piece at `p` (a piece out or
    /// finished stays, except that `out` sends any piece on the track out).
    pub fn act(&self, seat: usize, p: u16, action: Action) -> u16 {
        let on_track = p != OUT && p < self.cells;
        if !on_track {
            return p;
        }
        match action {
            Action::Forward(k) => self.advance(p, k, 1).0,
            Action::Back(k) => p.saturating_sub(k),
            Action::GoTo(c) => self.progress_at(seat, c).min(self.cells),
            Action::Out => OUT,
        }
    }
}
