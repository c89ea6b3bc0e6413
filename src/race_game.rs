//! The compiled race game: what the checker hands the race engine
//! (`crate::race`), the counterpart of `Game` for games on a track with dice.
//!
//! A position on the track is a `u16`: `OUT` (0) for a piece off the track
//! (at the start, or sent back there), `1..cells` for the cells, `cells` for
//! a piece that has reached the finish. Cell rules are compiled to a table
//! indexed by cell: for each cell the rules whose cell tests hold there, in
//! the order of the rule file; only the tests of the roll (`entering`,
//! `roll 6 3`) are left for play time.

use crate::race::Roll;
use crate::source::Span;

/// The position of a piece that is off the track.
pub const OUT: u16 = 0;

/// The most dice a game may roll at once.
pub const MAX_DICE: usize = 4;

/// What a roll that goes past the finish does (rule 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Reaching or passing the last cell finishes the piece.
    Past,
    /// Only the exact count finishes; a piece that would pass it can't move.
    Exact,
    /// Only the exact count finishes; the rest of the count goes back from
    /// the finish (from 98, 5+3 counts 2 up to 100 and 6 back, to 94).
    Bounce,
}

/// Who wins (SS-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Win {
    /// The first player to bring a piece to the finish.
    FirstPiece,
    /// The first player to bring all their pieces to the finish.
    AllPieces,
}

/// When a cell rule is looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// On the landing cell: where the dice put the piece (SS-3).
    Landing,
    /// Where the piece comes to rest, after the landing rules (SS-5).
    Resting,
}

/// When an out piece may enter the track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enter {
    /// On any roll.
    Always,
    /// On a roll where a die shows this face (rule 1, SS-1).
    OnFace(u8),
}

/// When a roll earns another roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// Never.
    Never,
    /// When all the dice show the same face (rule 8).
    Doubles,
    /// When a die shows this face.
    OnFace(u8),
}

/// A test of a cell rule that looks at the roll, not at the cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollTest {
    /// The piece entered the track with this roll.
    Entering,
    /// The dice show these faces, in any order (sorted, `count` of them).
    Faces {
        /// The faces, sorted, unused slots 0.
        faces: [u8; MAX_DICE],
    },
}

/// What a cell rule does, in the order written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellEffect {
    /// Moves the piece on by N cells.
    Forward(u16),
    /// Moves the piece back by N cells (past the start: out).
    Back(u16),
    /// Puts the piece on cell N (the last cell: finished).
    GoTo(u16),
    /// The piece leaves the track and must enter again.
    Out,
    /// The player misses their next N turns (SS-12).
    Miss(u8),
    /// An extra roll earned by this roll is lost (SS-6).
    NoExtraRoll,
    /// The player rolls again.
    ExtraRoll,
    /// The piece moves again by the same count, in the same direction.
    Repeat,
    /// The piece can't move until another piece comes to rest on its cell.
    Held,
    /// Every other piece on the cell goes out (rule 3: the earlier one).
    Bump,
    /// No later rule applies to this landing.
    Stop,
}

impl CellEffect {
    /// Whether it moves the piece.
    pub fn moves(self) -> bool {
        matches!(
            self,
            CellEffect::Forward(_)
                | CellEffect::Back(_)
                | CellEffect::GoTo(_)
                | CellEffect::Out
                | CellEffect::Repeat
        )
    }
}

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
}

impl CellRule {
    /// Whether the roll tests hold for a piece that `entering` or not, with
    /// these dice.
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
    /// Other pieces on its cell go out.
    pub bump: bool,
}

/// A compiled race game.
#[derive(Clone, Debug)]
pub struct RaceGame {
    /// Title.
    pub title: String,
    /// The rule file's description.
    pub description: String,
    /// The number of cells; the last one is the finish.
    pub cells: u16,
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
}

impl RaceGame {
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

    /// Applies the landing rules of cell `cell` to a piece that arrived there
    /// moving in direction `dir` after a roll of `count`; with `chain`, again
    /// wherever a rule moves it. `holds(rule)` says whether a rule's roll
    /// tests hold; `fired(rule, cell, then)` is told each rule applied, the
    /// cell it looked at and where the piece was after it.
    pub fn land(
        &self,
        cell: u16,
        count: u16,
        dir: i8,
        holds: impl Fn(&CellRule) -> bool,
        mut fired: impl FnMut(u16, u16, u16),
    ) -> Landed {
        let n = self.cells;
        let mut out = Landed {
            at: cell,
            dir,
            ..Landed::default()
        };
        let mut here = cell;
        // A checked game has no circle of chained landings; stay total anyway.
        for _ in 0..=usize::from(n) * 2 {
            let mut p = here;
            let mut d = out.dir;
            for &id in self.landing.at(here) {
                let Some(rule) = self.rules.get(usize::from(id)) else {
                    continue;
                };
                if !holds(rule) {
                    continue;
                }
                let stop = self.apply_effects(rule, &mut p, &mut d, count, &mut out);
                fired(id, here, p);
                if stop {
                    break;
                }
            }
            out.at = p;
            out.dir = d;
            if !self.chain || p == here || p == OUT || p >= n {
                break;
            }
            here = p;
        }
        out
    }

    /// Applies one rule's effects to a piece at `p` moving in direction `d`;
    /// returns whether the rule says `stop`. Moves don't move a piece that
    /// is out or finished.
    pub fn apply_effects(
        &self,
        rule: &CellRule,
        p: &mut u16,
        d: &mut i8,
        count: u16,
        out: &mut Landed,
    ) -> bool {
        let n = self.cells;
        let mut stop = false;
        for &effect in &rule.effects {
            let on_track = *p != OUT && *p < n;
            match effect {
                CellEffect::Forward(k) if on_track => *p = self.advance(*p, k, 1).0,
                CellEffect::Back(k) if on_track => *p = p.saturating_sub(k),
                CellEffect::GoTo(c) if on_track => *p = c.min(n),
                CellEffect::Out => *p = OUT,
                CellEffect::Repeat if on_track => (*p, *d) = self.advance(*p, count, *d),
                CellEffect::Miss(k) => out.miss = out.miss.saturating_add(k),
                CellEffect::NoExtraRoll => out.extra = Some(false),
                CellEffect::ExtraRoll => out.extra = Some(true),
                CellEffect::Held => out.held = true,
                CellEffect::Bump => out.bump = true,
                CellEffect::Stop => stop = true,
                _ => {}
            }
        }
        stop
    }
}
