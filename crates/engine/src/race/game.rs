//! The compiled race game: what the checker hands the race engine
//! (`crate::race`), the counterpart of `Game` for games on a track with dice.
//!
//! A position on the track is a `u16`: `OUT` (0) for a piece off the track
//! (at the start, or sent back there), `1..cells` for the cells, `cells` for
//! a piece that has reached the finish. On a circuit it is the progress
//! along the seat's own path (its start cell is 1), mapped to the cells of
//! the shared loop by `rule_cell` and named by `label`; on paths it is the
//! step along the seat's path, mapped to the numbered named cells the same
//! way (`cells` is then one step past the path's last cell: finished).
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
    /// It says `stop`.
    pub stops: bool,
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
        let stops = effects.contains(&CellEffect::Stop);
        CellRule {
            moment,
            label,
            roll_tests,
            effects,
            span,
            only_targets,
            bump_like,
            targets,
            stops,
        }
    }

    /// Whether the roll tests hold for a piece that `entering` or not, for a
    /// rule without tests of the faces.
    fn roll_holds_entering(&self, entering: bool) -> bool {
        self.roll_tests.iter().all(|(negated, test)| {
            let holds = match test {
                RollTest::Entering => entering,
                RollTest::Faces { .. } => false,
            };
            holds != *negated
        })
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

/// What the landing rules do to a piece arriving on a cell, worked out
/// once when the game is compiled (`RaceGame::derive`) wherever that
/// depends only on the cell and on whether the piece is entering: none of
/// the rules it meets there tests the faces of the roll, repeats the roll
/// or moves other pieces. Play then reads it instead of applying the rules
/// one by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LandingPlan {
    /// No landing rule applies there: the piece stays.
    Nothing,
    /// What the rules do (the direction is the piece's own), and the rules
    /// that tell of it: `RaceGame::fired` of these indices.
    Fixed {
        /// The piece's landing, its direction aside.
        landed: Landed,
        /// The range of `RaceGame::fired` with the rules' events.
        fired: (u32, u32),
    },
    /// What the rules do depends on the roll's count and the piece's
    /// direction too (`repeat`): the `Fixed` plan of a count `c` and
    /// direction `d` is `RaceGame::count_plans` at `start + 2 * (c - low)`,
    /// plus 1 going back, `low` the smallest sum of a roll; its direction
    /// is the one the piece ends with.
    ByCount {
        /// Where this cell's plans start in `count_plans`.
        start: u32,
    },
    /// The rules must be applied at play time.
    Live,
}

/// What `plan_landing` found.
enum Planned {
    /// A plan (`Nothing` or `Fixed`).
    Fixed(LandingPlan),
    /// A rule repeats the roll: plan by count.
    ByCount,
    /// Live.
    Live,
}

/// At most this many plans by count (`LandingPlan::ByCount`) in a game:
/// beyond, the landings they would cover are made live.
const MAX_COUNT_PLANS: usize = 1 << 16;

/// What the resting rules of a cell do, worked out once when the game is
/// compiled (`RaceGame::derive`) where it is simple enough: nothing, or
/// one rule that sends the other pieces there out (`bump`, `opponents
/// out`) without tests of the roll, in a game where no piece is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RestingPlan {
    /// Nothing happens there (no rules, or a bump on a safe cell).
    Nothing,
    /// The other pieces on the cell go out (with `opponents`, only those
    /// of the other seats); the pieces sent out tell it.
    SendOut {
        /// `opponents out` rather than `others out`.
        opponents: bool,
    },
    /// No resting rule there, in a game whose rules hold pieces: the held
    /// pieces there are freed, and the piece is held if its landing said
    /// so.
    Free,
    /// The rules must be applied at play time.
    Live,
}

/// A rule a planned landing fires: its event, the roll's count aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fired {
    /// The rule.
    pub rule: u16,
    /// The cell it looked at.
    pub at: u16,
    /// Where the piece was after it.
    pub then: u16,
    /// A move of it could not be made.
    pub blocked: bool,
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

/// Rules of the roll are values of the vocabulary (a crate below the
/// engine); testing one against a roll is the engine's, so it is a trait.
pub trait RollRuleTest {
    /// Whether it applies to `roll`, the `doubles`-th double in a row (0
    /// when the roll is not a double) and the `same`-th roll in a row with
    /// these faces.
    fn holds(&self, roll: &Roll, doubles: u8, same: u8) -> bool;

    /// Whether it ends the turn: the roll is not played.
    fn ends_turn(&self) -> bool;
}

impl RollRuleTest for RollRule {
    fn holds(&self, roll: &Roll, doubles: u8, same: u8) -> bool {
        match self.condition {
            RollCondition::Faces(f) => roll.sorted() == f,
            RollCondition::DoublesInARow(n) => doubles == n,
            RollCondition::FacesInARow(f, n) => roll.sorted() == f && same == n,
        }
    }

    fn ends_turn(&self) -> bool {
        self.effects.contains(&CellEffect::EndTurn)
    }
}

/// The cell of the loop under seat `seat`'s piece at progress `p`: 0 out,
/// on the home cells or finished.
fn loop_cell(c: &Circuit, seat: usize, p: u16) -> u16 {
    if p == OUT || p > c.cells {
        return 0;
    }
    let start = c.starts.get(seat).copied().unwrap_or(1);
    (start - 1 + p - 1) % c.cells + 1
}

/// A compiled race game.
///
/// Built only by `compile` (through `RaceGame::new`, which is the
/// engine's), and read-only outside the engine (its fields are the
/// engine's; the outside reads them through accessors and, for the
/// settings, `Deref`), so these invariants hold for as long as it lives:
/// - the cell tables (`landing()`, `resting()`) name only rules of
///   `rules()`, and a cell's rules are those whose cell tests hold there;
/// - what `derive` works out from the rules (whether pieces may be held or
///   stuck, the loop cells and spots of a circuit, the landing and resting
///   plans) is of these settings and these rules: a planned turn plays as
///   the rules applied one by one do ([`RaceGame::unplanned`]: the same
///   game without the plans, every turn by the rules one by one).
#[derive(Clone, Debug)]
pub struct RaceGame {
    /// The settings as checked (title, track, players, dice, entry,
    /// finish, outcome...), read as the game's own fields (`game.faces`)
    /// through `Deref`.
    pub(crate) settings: RaceSettings,
    /// Every cell rule, in the order of the rule file.
    pub(crate) rules: Vec<CellRule>,
    /// The landing rules of each cell.
    pub(crate) landing: CellTable,
    /// The resting rules of each cell.
    pub(crate) resting: CellTable,
    /// Some cell rule holds a piece (`held`): pieces may have to be freed
    /// (set by `derive`).
    pub(crate) holds_pieces: bool,
    /// The game may end drawn, all pieces held or stuck before an exact
    /// finish: some rule holds pieces or the finish is exact, and no rule of
    /// the roll moves pieces (set by `derive`).
    pub(crate) may_stick: bool,
    /// On a circuit, `rule_cell` of every seat and position, seat by seat
    /// (set by `derive`; empty on a plain track).
    pub(crate) loop_cells: Vec<u16>,
    /// On a circuit, `spot` of every position, seat by seat (set by
    /// `derive`; empty on a plain track, whose spots are its cells).
    pub(crate) spots: Vec<u32>,
    /// The landing plans (set by `derive`), indexed by `plan_index`.
    pub(crate) landing_plans: Vec<LandingPlan>,
    /// The events of the rules the fixed landing plans fire.
    pub(crate) fired: Vec<Fired>,
    /// The fixed plans of the landings planned by count (set by `derive`;
    /// see `LandingPlan::ByCount`).
    pub(crate) count_plans: Vec<LandingPlan>,
    /// The resting plans (set by `derive`), seat by seat on a circuit.
    pub(crate) resting_plans: Vec<RestingPlan>,
    /// The steps between plans of one seat and the next (0 on a plain
    /// track, where one row serves every seat), and between the plans of
    /// pieces not entering and entering (set by `derive`).
    pub(crate) plan_strides: (usize, usize),
}

impl std::ops::Deref for RaceGame {
    type Target = RaceSettings;

    #[inline]
    fn deref(&self) -> &RaceSettings {
        &self.settings
    }
}

impl RaceGame {
    /// The game of these settings and cell rules, with the landing and
    /// resting rules of each cell: what the engine asks on every turn is
    /// worked out at once (`derive`).
    pub(crate) fn new(
        settings: RaceSettings,
        rules: Vec<CellRule>,
        landing: CellTable,
        resting: CellTable,
    ) -> RaceGame {
        let mut game = RaceGame {
            settings,
            rules,
            landing,
            resting,
            holds_pieces: false,
            may_stick: false,
            loop_cells: Vec::new(),
            spots: Vec::new(),
            landing_plans: Vec::new(),
            fired: Vec::new(),
            count_plans: Vec::new(),
            resting_plans: Vec::new(),
            plan_strides: (0, 0),
        };
        game.derive();
        game
    }

    /// The settings as checked (also read as the game's own fields).
    #[inline]
    pub fn settings(&self) -> &RaceSettings {
        &self.settings
    }

    /// Every cell rule, in the order of the rule file.
    #[inline]
    pub fn rules(&self) -> &[CellRule] {
        &self.rules
    }

    /// The landing rules of each cell.
    #[inline]
    pub fn landing(&self) -> &CellTable {
        &self.landing
    }

    /// The resting rules of each cell.
    #[inline]
    pub fn resting(&self) -> &CellTable {
        &self.resting
    }

    /// Some cell rule holds a piece (`held`): pieces may have to be freed.
    #[inline]
    pub fn holds_pieces(&self) -> bool {
        self.holds_pieces
    }

    /// The game may end drawn, all pieces held or stuck before an exact
    /// finish.
    #[inline]
    pub fn may_stick(&self) -> bool {
        self.may_stick
    }

    /// The plans of a landing on every cell (none in an `unplanned` game):
    /// see `landing_plan`.
    #[inline]
    pub fn landing_plans(&self) -> &[LandingPlan] {
        &self.landing_plans
    }

    /// Works out from the rules what the engine asks on every turn
    /// (`holds_pieces`, `may_stick`).
    fn derive(&mut self) {
        self.holds_pieces = self
            .rules
            .iter()
            .any(|r| r.effects.contains(&CellEffect::Held));
        let rolls_move = self.roll_rules.iter().any(|r| {
            r.effects
                .iter()
                .any(|e| matches!(e, CellEffect::Targeted(..)))
        });
        self.may_stick =
            !rolls_move && !self.each_die && (self.holds_pieces || self.finish == Finish::Exact);
        self.loop_cells = match &self.circuit {
            None => Vec::new(),
            Some(c) => (0..c.starts.len())
                .flat_map(|seat| (0..=self.cells).map(move |p| loop_cell(c, seat, p)))
                .collect(),
        };
        // Only a circuit needs a table (`spot` of a plain track is the
        // cell); `spot_of` works each spot out without it.
        let rows = match (&self.circuit, &self.paths) {
            (Some(c), _) => c.starts.len(),
            (None, Some(paths)) => paths.seats.len(),
            (None, None) => 0,
        };
        self.spots = (0..rows)
            .flat_map(|seat| (0..=self.cells).map(move |p| (seat, p)))
            .map(|(seat, p)| self.spot_of(seat, p))
            .collect();
        let width = usize::from(self.cells) + 1;
        let seats = self.plan_seats();
        self.plan_strides = (if seats == 1 { 0 } else { width }, seats * width);
        self.plan_landings();
    }

    /// The same game without the tables `derive` works out (landing and
    /// resting plans, loop cells, spots): every turn takes the general
    /// path. Tests play games both ways and compare them.
    pub fn unplanned(&self) -> RaceGame {
        RaceGame {
            loop_cells: Vec::new(),
            spots: Vec::new(),
            landing_plans: Vec::new(),
            fired: Vec::new(),
            count_plans: Vec::new(),
            resting_plans: Vec::new(),
            ..self.clone()
        }
    }

    /// The seats the landing plans tell apart: on a circuit each seat sees
    /// the rules of other cells at the same progress; on a plain track one
    /// plan serves them all.
    fn plan_seats(&self) -> usize {
        if self.circuit.is_some() || self.paths.is_some() {
            usize::from(self.max_players).max(1)
        } else {
            1
        }
    }

    /// Where the plan of a landing on `p` by seat `seat`'s piece is in
    /// `landing_plans`.
    #[inline]
    fn plan_index(&self, entering: bool, seat: usize, p: u16) -> usize {
        let (per_seat, per_entering) = self.plan_strides;
        usize::from(entering) * per_entering + seat * per_seat + usize::from(p)
    }

    /// The plan of a landing on `p` (`Live` where there is none).
    #[inline]
    pub fn landing_plan(&self, entering: bool, seat: usize, p: u16) -> LandingPlan {
        self.landing_plans
            .get(self.plan_index(entering, seat, p))
            .copied()
            .unwrap_or(LandingPlan::Live)
    }

    /// The fixed plan of a landing planned by count (`ByCount { start }`)
    /// after a roll of `count`, the piece moving in direction `dir`
    /// (`Live` where there is none).
    #[inline]
    pub fn count_plan(&self, start: u32, count: u16, dir: i8) -> LandingPlan {
        let (low, _) = self.sums();
        let i = start as usize + 2 * usize::from(count.wrapping_sub(low)) + usize::from(dir < 0);
        self.count_plans
            .get(i)
            .copied()
            .unwrap_or(LandingPlan::Live)
    }

    /// The plan of the resting rules for seat `seat`'s piece at `p`
    /// (`Live` where there is none).
    #[inline]
    pub fn resting_plan(&self, seat: usize, p: u16) -> RestingPlan {
        if p > self.cells {
            return RestingPlan::Live;
        }
        self.resting_plans
            .get(seat * self.plan_strides.0 + usize::from(p))
            .copied()
            .unwrap_or(RestingPlan::Live)
    }

    /// The resting plan of one cell (see `RestingPlan`).
    fn plan_resting(&self, seat: usize, p: u16) -> RestingPlan {
        if p == OUT || p >= self.cells {
            return RestingPlan::Live;
        }
        let ids = self.rules_at(Moment::Resting, seat, p);
        if ids.is_empty() {
            return if self.holds_pieces {
                RestingPlan::Free
            } else {
                RestingPlan::Nothing
            };
        }
        let [id] = ids else {
            return RestingPlan::Live;
        };
        let Some(rule) = self.rules.get(usize::from(*id)) else {
            return RestingPlan::Live;
        };
        if self.holds_pieces || !rule.roll_tests.is_empty() {
            return RestingPlan::Live;
        }
        let opponents = match rule.effects.as_slice() {
            [CellEffect::Targeted(t, Action::Out)]
            | [CellEffect::Targeted(t, Action::Out), CellEffect::Stop] => match t {
                Target::Others => false,
                Target::Opponents => true,
                _ => return RestingPlan::Live,
            },
            _ => return RestingPlan::Live,
        };
        if self.is_safe(seat, p) {
            return RestingPlan::Nothing;
        }
        RestingPlan::SendOut { opponents }
    }

    /// Works out `landing_plans` and `fired`: for every cell, seat (on a
    /// circuit) and entering or not, the landing as `land` makes it.
    fn plan_landings(&mut self) {
        let mut plans = Vec::new();
        let mut fired = Vec::new();
        let mut by_count = Vec::new();
        for entering in [false, true] {
            for seat in 0..self.plan_seats() {
                for p in 0..=self.cells {
                    let plan = match self.plan_landing(entering, seat, p, 0, 1, &mut fired) {
                        Planned::Fixed(plan) => plan,
                        Planned::Live => LandingPlan::Live,
                        Planned::ByCount => {
                            self.plan_by_count(entering, seat, p, &mut by_count, &mut fired)
                        }
                    };
                    plans.push(plan);
                }
            }
        }
        self.landing_plans = plans;
        self.fired = fired;
        self.count_plans = by_count;
        let mut resting = Vec::new();
        for seat in 0..self.plan_seats() {
            for p in 0..=self.cells {
                resting.push(self.plan_resting(seat, p));
            }
        }
        self.resting_plans = resting;
    }

    /// The plans of a landing on `p` whose rules `repeat` the roll: one
    /// for each count and direction, into `by_count`; `Live` when one of
    /// them can't be planned or there would be too many.
    fn plan_by_count(
        &self,
        entering: bool,
        seat: usize,
        p: u16,
        by_count: &mut Vec<LandingPlan>,
        fired: &mut Vec<Fired>,
    ) -> LandingPlan {
        let (low, high) = self.sums();
        let start = by_count.len();
        let size = 2 * usize::from(high.saturating_sub(low) + 1);
        let (Ok(first), true) = (u32::try_from(start), start + size <= MAX_COUNT_PLANS) else {
            return LandingPlan::Live;
        };
        let told = fired.len();
        for count in low..=high {
            for dir in [1, -1] {
                match self.plan_landing(entering, seat, p, count, dir, fired) {
                    Planned::Fixed(plan) => by_count.push(plan),
                    Planned::Live | Planned::ByCount => {
                        by_count.truncate(start);
                        fired.truncate(told);
                        return LandingPlan::Live;
                    }
                }
            }
        }
        LandingPlan::ByCount { start: first }
    }

    /// The plan of one landing after a roll of `count` (0: any), the
    /// piece moving in direction `dir`; the events of its rules go to
    /// `fired`. With count 0 a landing that repeats the roll asks for
    /// plans by count.
    fn plan_landing(
        &self,
        entering: bool,
        seat: usize,
        p: u16,
        count: u16,
        dir: i8,
        fired: &mut Vec<Fired>,
    ) -> Planned {
        if p == OUT || p >= self.cells || self.rules_at(Moment::Landing, seat, p).is_empty() {
            return Planned::Fixed(LandingPlan::Nothing);
        }
        let live = std::cell::Cell::new(false);
        let repeats = std::cell::Cell::new(false);
        let mut told = Vec::new();
        let landed = self.land(
            seat,
            p,
            count,
            dir,
            |r| {
                let faces = r
                    .roll_tests
                    .iter()
                    .any(|(_, t)| matches!(t, RollTest::Faces { .. }));
                // A test of the faces matters only where the other tests
                // hold (`entering and roll 6 3` never holds for a piece
                // already on the track).
                let others_hold = r.roll_tests.iter().all(|(negated, t)| match t {
                    RollTest::Entering => entering != *negated,
                    RollTest::Faces { .. } => true,
                });
                if (faces && others_hold) || r.targets {
                    live.set(true);
                }
                let holds = r.roll_holds_entering(entering);
                if holds && r.effects.contains(&CellEffect::Repeat) {
                    repeats.set(true);
                }
                holds
            },
            |rule, at, then, blocked| {
                told.push(Fired {
                    rule,
                    at,
                    then: *then,
                    blocked,
                })
            },
        );
        if live.get() {
            return Planned::Live;
        }
        if repeats.get() && count == 0 {
            return Planned::ByCount;
        }
        let (Ok(start), Ok(_)) = (
            u32::try_from(fired.len()),
            u32::try_from(fired.len() + told.len()),
        ) else {
            return Planned::Live;
        };
        fired.extend(told.into_iter().filter(|f| {
            self.rules
                .get(usize::from(f.rule))
                .is_some_and(|r| !r.only_targets)
        }));
        Planned::Fixed(LandingPlan::Fixed {
            landed,
            fired: (start, fired.len() as u32),
        })
    }

    /// A roll of this game's dice (or throw of its sticks) from `rng`.
    #[inline]
    pub fn throw(&self, rng: &mut crate::rng::Rng) -> Roll {
        if self.sticks {
            Roll::sticks(self.dice, rng)
        } else {
            Roll::random(self.dice, self.faces, rng)
        }
    }

    /// What `roll` moves: the sum of its faces, what the table of a throw
    /// of sticks gives it, or the sum of its dice's values in the dice's
    /// table.
    #[inline]
    pub fn count(&self, roll: &Roll) -> u16 {
        if self.face_values.is_empty() {
            self.value_of(roll.sum())
        } else {
            self.worth(roll)
        }
    }

    /// The sum of the values of `roll`'s dice in the dice's table.
    #[inline(never)]
    fn worth(&self, roll: &Roll) -> u16 {
        roll.faces().iter().map(|&f| self.face_value(f)).sum()
    }

    /// The smallest and largest count of a roll.
    pub fn sums(&self) -> (u16, u16) {
        if let (Some(&low), Some(&high)) = (
            self.throw_values.iter().min(),
            self.throw_values.iter().max(),
        ) {
            return (low, high);
        }
        let n = u16::from(self.dice);
        // The dice's table: its index 0 is no face.
        if let (Some(&low), Some(&high)) = (
            self.face_values.iter().skip(1).min(),
            self.face_values.iter().skip(1).max(),
        ) {
            return (n * low, n * high);
        }
        (n * u16::from(self.low_face()), n * u16::from(self.faces))
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
    #[inline]
    pub fn rule_cell(&self, seat: usize, p: u16) -> u16 {
        match &self.circuit {
            None => match &self.paths {
                None => p,
                Some(paths) => paths.cell(seat, p),
            },
            Some(c) => {
                let width = usize::from(self.cells) + 1;
                if seat < c.starts.len() && usize::from(p) < width {
                    if let Some(&cell) = self.loop_cells.get(seat * width + usize::from(p)) {
                        return cell;
                    }
                }
                loop_cell(c, seat, p)
            }
        }
    }

    /// The progress of seat `seat` at cell `cell` of the loop (`go to N`
    /// on a circuit); the cell itself on a plain track.
    pub fn progress_at(&self, seat: usize, cell: u16) -> u16 {
        match &self.circuit {
            None => match &self.paths {
                None => cell,
                Some(paths) => paths.step(seat, cell),
            },
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
    #[inline]
    pub fn spot(&self, seat: usize, p: u16) -> u32 {
        // On a plain track the spot is the cell (out is 0).
        if self.circuit.is_none() && self.paths.is_none() {
            return if p >= self.cells {
                u32::MAX
            } else {
                u32::from(p)
            };
        }
        let width = usize::from(self.cells) + 1;
        if usize::from(p) < width {
            if let Some(&spot) = self.spots.get(seat * width + usize::from(p)) {
                return spot;
            }
        }
        self.spot_of(seat, p)
    }

    /// `spot`, worked out.
    fn spot_of(&self, seat: usize, p: u16) -> u32 {
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
        if let (Some(paths), true) = (&self.paths, p < self.cells) {
            return paths.name(paths.cell(seat, p)).to_string();
        }
        match &self.circuit {
            Some(c) if c.kept && p > c.cells => format!("h{}", p.min(self.cells) - c.cells),
            _ if p >= self.cells => "finished".to_string(),
            Some(c) if p > c.cells => format!("h{}", p - c.cells),
            _ => self.rule_cell(seat, p).to_string(),
        }
    }

    /// The position seat `seat` names with `text` (a label of `label`, but
    /// not `out` or `finished`).
    pub fn parse_label(&self, seat: usize, text: &str) -> Option<u16> {
        let t = text.trim();
        if let Some(paths) = &self.paths {
            let step = paths.step(seat, paths.number(t)?);
            return (step != OUT).then_some(step);
        }
        match &self.circuit {
            None => t.parse().ok(),
            Some(c) => {
                if let Some(h) = t.strip_prefix('h') {
                    let k: u16 = h.parse().ok()?;
                    let last = if c.kept { c.home } else { c.home - 1 };
                    return (k >= 1 && k <= last).then_some(c.cells + k);
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
        if !self.chain && self.holds_pieces && out.at != cell && !out.held {
            out.held = self.holds_arrival(seat, out.at, &holds);
        }
        out
    }

    /// Whether a piece that a landing rule moved onto `p` (its rules not
    /// applied: no `landing rules chain`) is held there: a landing rule of
    /// that cell whose roll tests hold has `held`, as for a piece the dice
    /// put there.
    fn holds_arrival(&self, seat: usize, p: u16, holds: &impl Fn(&CellRule) -> bool) -> bool {
        if p == OUT || p >= self.cells {
            return false;
        }
        self.rules_at(Moment::Landing, seat, p).iter().any(|&id| {
            self.rules
                .get(usize::from(id))
                .is_some_and(|r| r.effects.contains(&CellEffect::Held) && holds(r))
        })
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
        // Effects with a target, and `stop`, leave the piece as it is.
        if rule.only_targets {
            return Applied {
                stop: rule.stops,
                blocked: false,
            };
        }
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
            // A swap needs the cell the mover came from: the state's.
            Action::Swap => p,
        }
    }
}
