//! Dice used one by one (`move each die`): each die moves a piece on its
//! own, in the order the player chooses, a double as many times as `move
//! doubles N times` says; a turn's choice is the whole sequence
//! (`Choice::Dice`). Here too the rules that speak of single dice: points
//! (`no landing on N or more opponent pieces`), `enter first`, `bear off
//! when all in last N`, `finish exact or from furthest`, `move most dice`,
//! and `move back when blocked` die by die: a die that can move no piece
//! forward (nor enter one) moves a piece back by its value.
//!
//! The choices of a roll are the sequences that leave distinct positions
//! (the first sequence found for each, dice in the order rolled, pieces
//! furthest first); any other order that the rules allow is as legal, and
//! plays as written.

use super::{RaceState, Refusal};
use crate::race::game::{Enter, Finish, Landed, LandingPlan, RaceGame, OUT};
use crate::race::{Choice, Event, Roll, Step, Steps, MAX_STEPS};

/// The positions searched, with the dice left: a set keyed without
/// SipHash (a tenth of a backgammon turn went to hashing them).
type Seen = std::collections::HashSet<(Vec<u16>, [u8; MAX_LEFT]), BuildFast>;

/// Builds [`FastHasher`]s.
type BuildFast = std::hash::BuildHasherDefault<FastHasher>;

/// FxHash's mix over words of the bytes: the keys are short, made by the
/// engine (no one chooses them to collide) and hashed many times a turn.
#[derive(Default)]
struct FastHasher(u64);

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            self.add(u64::from_le_bytes(b));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            if let Some(head) = b.get_mut(..rest.len()) {
                head.copy_from_slice(rest);
            }
            self.add(u64::from_le_bytes(b));
        }
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

/// What the search keeps for one depth, reused from move to move instead
/// of a new state (five vectors) and event list for each: the position
/// after a move, its events, and the pieces' positions the search below
/// tries.
struct Scratch {
    state: RaceState,
    events: Vec<Event>,
    froms: Vec<u16>,
}

/// The dice of a turn left to use (bonuses earned among them), kept on
/// the stack.
#[derive(Clone, Copy, Default)]
struct Left {
    dice: [u8; MAX_LEFT],
    len: u8,
}

impl Left {
    /// These dice (at most `MAX_LEFT`).
    fn of(dice: &[u8]) -> Left {
        let mut left = Left::default();
        for &d in dice {
            left.push(d);
        }
        left
    }

    /// One more die, when there is room.
    fn push(&mut self, die: u8) {
        if let Some(slot) = self.dice.get_mut(usize::from(self.len)) {
            *slot = die;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for Left {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.dice.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

/// A sequence found, with the dice it used and the position it leaves.
#[derive(Clone)]
struct Found {
    steps: Steps,
    dice: [u8; MAX_STEPS],
    key: Vec<u16>,
}

/// The mark of a bonus move among the dice left (`bonus N after ...`): a
/// bonus moves a piece on the track as a die would, but never enters one.
pub(super) const BONUS: u8 = 0x80;

/// Which moves the rules of the turn's order allow next in a sequence,
/// die by die: while a piece of the player waits outside, `leave start
/// first` (a piece on the start cell that some die left can move must
/// move), then `enter compulsory` (an entry that some die left, or a pair
/// adding up to the entering sum, can make must be made).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Any move.
    Any,
    /// Only a move of a piece on the start cell (`leave start first`).
    Start,
    /// Only an entry (`enter compulsory`).
    Enter,
}

impl Next {
    /// Whether a move of the piece at `from` may come next.
    fn allows(self, from: u16) -> bool {
        match self {
            Next::Any => true,
            Next::Start => from == START,
            Next::Enter => from == OUT,
        }
    }

    /// The rule that rules out any other move.
    fn refusal(self) -> Option<Refusal> {
        match self {
            Next::Any => None,
            Next::Start => Some(Refusal::StartFirst),
            Next::Enter => Some(Refusal::MustEnter),
        }
    }
}

/// A seat's start cell, where `enter ... at start` puts a piece.
const START: u16 = 1;

/// The most dice (with bonuses) a turn keeps track of.
const MAX_LEFT: usize = 2 * MAX_STEPS;

/// The dice left, sorted, as a key of the positions searched.
fn left_key(left: &[u8]) -> [u8; MAX_LEFT] {
    let mut key = [0u8; MAX_LEFT];
    for (slot, &d) in key.iter_mut().zip(left) {
        *slot = d;
    }
    key.sort_unstable();
    key
}

/// The dice left after using die `j` and then earning `bonus` (0: none).
fn after_die(left: &[u8], j: usize, bonus: u8) -> Left {
    let mut next = Left::default();
    for (i, &d) in left.iter().enumerate() {
        if i != j {
            next.push(d);
        }
    }
    if bonus > 0 {
        next.push(bonus | BONUS);
    }
    next
}

/// The pairs of dice left (no bonus) that add up to `sum`, each pair of
/// faces once (`enter on F or sum S`).
fn sum_pairs(left: &[u8], sum: u8) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    if sum == 0 {
        return pairs;
    }
    for a in 0..left.len() {
        for b in a + 1..left.len() {
            let (x, y) = (left[a], left[b]);
            if x & BONUS != 0 || y & BONUS != 0 || u16::from(x) + u16::from(y) != u16::from(sum) {
                continue;
            }
            let faces = (x.min(y), x.max(y));
            if pairs
                .iter()
                .any(|&(c, d)| (left[c].min(left[d]), left[c].max(left[d])) == faces)
            {
                continue;
            }
            pairs.push((a, b));
        }
    }
    pairs
}

/// How far die `die` of the dice left moves a piece: a bonus move its
/// count, a die its face's value (the face itself without a table).
fn die_value(game: &RaceGame, die: u8) -> u16 {
    if die & BONUS != 0 {
        u16::from(die & !BONUS)
    } else {
        game.face_value(die)
    }
}

/// The larger of two dice by what they move (the first when they move as
/// far): the die `move most dice` plays when only one can be.
fn larger_die(game: &RaceGame, a: u8, b: u8) -> u8 {
    if die_value(game, b) > die_value(game, a) {
        b
    } else {
        a
    }
}

/// The step of a piece that enters, `by` cells on.
fn entry(by: u16) -> Step {
    Step {
        from: OUT,
        by,
        back: false,
    }
}

/// The dice left after using the pair `(a, b)` (a before b).
fn after_pair(left: &[u8], (a, b): (usize, usize), bonus: u8) -> Left {
    let next = after_die(left, b, 0);
    after_die(&next, a, bonus)
}

impl RaceState {
    /// The index of a piece of seat `seat` at `from` that may move (not
    /// held there), if it has one.
    fn free_piece(&self, seat: usize, from: u16) -> Option<usize> {
        let k = usize::from(self.pieces);
        (seat * k..seat * k + k).find(|&i| self.pos[i] == from && !self.held[i])
    }

    /// The dice a roll gives to use one by one, by their faces: a double
    /// `doubles_times` times, else each die once; a die worth 0 in the
    /// dice's table is not used.
    fn dice_of(game: &RaceGame, roll: &Roll) -> Left {
        let faces = roll.faces();
        let mut left = if faces.len() > 1 && roll.is_double() {
            let n = usize::from(game.doubles_times).clamp(1, MAX_STEPS);
            Left::of(&[faces[0]; MAX_STEPS][..n])
        } else {
            let n = faces.len().min(MAX_STEPS);
            Left::of(&faces[..n])
        };
        if !game.face_values.is_empty() {
            let worth: Vec<u8> = left
                .iter()
                .copied()
                .filter(|&d| game.face_value(d) > 0)
                .collect();
            left = Left::of(&worth);
        }
        left
    }

    /// The state of the next depth of a search, from this one: a slot of
    /// `scratch` (made the first time), or one of `spare` past its end.
    fn scratch_from<'a>(
        &self,
        slot: Option<&'a mut Option<Scratch>>,
        spare: &'a mut Option<Scratch>,
    ) -> &'a mut Scratch {
        let slot = slot.unwrap_or(spare);
        let sc = slot.get_or_insert_with(|| Scratch {
            state: self.clone(),
            events: Vec::new(),
            froms: Vec::new(),
        });
        sc.state.clone_from(self);
        sc.events.clear();
        sc
    }

    /// How far an out piece of seat `seat` enters (`enter at start`: to
    /// its start cell; else by `count`), or the rule that forbids it.
    fn enter_step(
        &self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        count: u16,
    ) -> Result<u16, Refusal> {
        let land = if game.enter_at_start { START } else { count };
        if land >= game.cells {
            return Err(Refusal::NoDie);
        }
        match self.landing_refusal(
            game,
            seat,
            None,
            OUT,
            land,
            self.rest_at(game, roll, seat, true, land, land),
        ) {
            Some(r) => Err(r),
            None => Ok(land),
        }
    }

    /// Whether seat `seat`'s own pieces close every cell where a piece of
    /// theirs enters (a blockade of their own on the start cell, a piece of
    /// theirs there with `no landing on own pieces`, a closed cell they
    /// hold): no throw can then enter a piece until one of them moves, so
    /// `enter first` can't be obeyed and lets the other pieces move. An
    /// entry that an opponent closes keeps the rule (backgammon's closed
    /// board): the opponent will open it.
    fn entry_closed_by_own(&self, game: &RaceGame, roll: &Roll, seat: usize) -> bool {
        if !game.own_pieces_close_cells() {
            return false;
        }
        let own_refusal = |count: u16| match self.enter_step(game, roll, seat, count) {
            Ok(_) => false,
            Err(Refusal::OwnPiece { .. }) | Err(Refusal::NoDie) => true,
            Err(Refusal::OnBlockade { seat: whose, .. }) => usize::from(whose) == seat,
            Err(Refusal::Closed { at }) => {
                let spot = game.spot(seat, at);
                self.pieces(seat)
                    .iter()
                    .any(|&q| q != OUT && q < game.cells && game.spot(seat, q) == spot)
            }
            Err(_) => false,
        };
        if game.enter_at_start {
            return own_refusal(START);
        }
        let entering = match game.enter {
            Enter::Always => 1..=game.faces,
            Enter::OnFace(f) => f..=f,
        };
        entering
            .map(|f| game.face_value(f))
            .filter(|&v| v > 0)
            .chain((game.enter_sum > 0).then_some(u16::from(game.enter_sum)))
            .all(own_refusal)
    }

    /// Which moves of seat `seat` may come next with the dice `left`
    /// (`leave start first`, `enter compulsory`, die by die); `Next::Any`
    /// at the cost of one test in a game without these rules.
    fn next_allowed(&self, game: &RaceGame, roll: &Roll, seat: usize, left: &[u8]) -> Next {
        if !game.leave_start && !game.enter_compulsory {
            return Next::Any;
        }
        let k = usize::from(self.pieces);
        let own = self.pos.get(seat * k..seat * k + k).unwrap_or(&[]);
        if !own.contains(&OUT) {
            return Next::Any;
        }
        if game.leave_start
            && own.contains(&START)
            && left
                .iter()
                .any(|&d| self.die_step(game, roll, seat, START, d).is_ok())
        {
            return Next::Start;
        }
        if game.enter_compulsory
            && (left
                .iter()
                .any(|&d| self.die_step(game, roll, seat, OUT, d).is_ok())
                || (game.enter_sum > 0
                    && !sum_pairs(left, game.enter_sum).is_empty()
                    && self
                        .enter_step(game, roll, seat, u16::from(game.enter_sum))
                        .is_ok()))
        {
            return Next::Enter;
        }
        Next::Any
    }

    /// Where the landing rules of cell `land` leave seat `seat`'s piece
    /// that moved `dist` to it (`entering` the track).
    fn rest_at(
        &self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        entering: bool,
        land: u16,
        dist: u16,
    ) -> u16 {
        if land == OUT || land >= game.cells {
            return land;
        }
        match game.landing_plan(entering, seat, land) {
            LandingPlan::Nothing => land,
            LandingPlan::Fixed { landed, .. } => landed.at,
            _ => {
                game.land(
                    seat,
                    land,
                    dist,
                    1,
                    |r| r.roll_holds(entering, roll),
                    |_, _, _, _| {},
                )
                .at
            }
        }
    }

    /// Whether die `die` of the dice `left` can move no piece of seat
    /// `seat` forward, in a game with `move back when blocked`: no piece on
    /// the track moves by it, none enters with it, nor with another die
    /// left that adds up to the entering sum. Such a die moves a piece back
    /// (`back_step`). A bonus move is no die: it never moves back.
    pub(super) fn die_blocked(
        &self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        left: &[u8],
        die: u8,
    ) -> bool {
        if !game.move_back || die & BONUS != 0 {
            return false;
        }
        let own = self.pieces(seat);
        let forward = own
            .iter()
            .any(|&p| p < game.cells && self.die_step(game, roll, seat, p, die).is_ok());
        let by_sum = || {
            game.enter_sum > 0
                && own.contains(&OUT)
                && sum_pairs(left, game.enter_sum)
                    .iter()
                    .any(|&(a, b)| left[a] == die || left[b] == die)
                && self
                    .enter_step(game, roll, seat, u16::from(game.enter_sum))
                    .is_ok()
        };
        !forward && !by_sum()
    }

    /// How far seat `seat`'s piece at `from` moves back with die `die`
    /// (`move back when blocked`, for a die that `die_blocked`), under the
    /// rules of the choices as a move back by the whole roll; or the rule
    /// that forbids it.
    fn back_step(
        &self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        from: u16,
        die: u8,
    ) -> Result<u16, Refusal> {
        if game.enter_first && self.pieces(seat).contains(&OUT) {
            return Err(Refusal::EnterFirst);
        }
        let i = self.free_piece(seat, from).ok_or(Refusal::NoDie)?;
        let by = die_value(game, die);
        match self.back_refusal(game, seat, i, roll, by) {
            None => Err(Refusal::NoDie),
            Some(Some(r)) => Err(r),
            Some(None) => Ok(by),
        }
    }

    /// The move of seat `seat`'s piece at `from` with die `die`: forward
    /// (`die_step`), or back when the die can move no piece forward
    /// (`blocked`, as `die_blocked` found); or the rule that forbids it.
    pub(super) fn step_of(
        &self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        from: u16,
        die: u8,
        blocked: bool,
    ) -> Result<Step, Refusal> {
        let (by, back) = if blocked {
            (self.back_step(game, roll, seat, from, die)?, true)
        } else {
            (self.die_step(game, roll, seat, from, die)?, false)
        };
        Ok(Step { from, by, back })
    }

    /// How far seat `seat`'s piece at `from` moves with die `die` (a bonus
    /// move when marked `BONUS`), or the rule that forbids it.
    pub(super) fn die_step(
        &self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        from: u16,
        die: u8,
    ) -> Result<u16, Refusal> {
        let k = usize::from(self.pieces);
        let own = self.pos.get(seat * k..seat * k + k).unwrap_or(&[]);
        let bonus = die & BONUS != 0;
        let face = die & !BONUS;
        let die = die_value(game, die);
        if from == OUT {
            let allowed = !bonus
                && match game.enter {
                    Enter::Always => true,
                    Enter::OnFace(f) => face == f,
                };
            if !allowed {
                return Err(Refusal::NoDie);
            }
            return self.enter_step(game, roll, seat, die);
        }
        if game.enter_first && own.contains(&OUT) && !self.entry_closed_by_own(game, roll, seat) {
            return Err(Refusal::EnterFirst);
        }
        if from >= game.cells {
            return Err(Refusal::NoDie);
        }
        let to = from + die;
        let dist = if to < game.cells {
            die
        } else {
            if game.bear_off_last > 0 {
                let home = game.cells.saturating_sub(game.bear_off_last);
                if own.iter().any(|&p| p < home) {
                    return Err(Refusal::NotAllHome {
                        last: game.bear_off_last,
                    });
                }
            }
            if to > game.cells {
                let further = own.iter().any(|&p| p != OUT && p < from);
                match game.finish {
                    Finish::Past => {}
                    Finish::Exact if game.finish_furthest && !further => {}
                    Finish::Exact if game.finish_furthest => {
                        return Err(Refusal::FurtherBack { at: from });
                    }
                    _ => return Err(Refusal::NoDie),
                }
            }
            game.cells - from
        };
        let land = from + dist;
        // Only the rules of own pieces and closed cells look at the mover.
        let kept = game.circuit.as_ref().is_some_and(|c| c.kept);
        let mover = if game.no_landing_own || kept || !game.closed.is_empty() {
            self.free_piece(seat, from)
        } else {
            None
        };
        let rest = self.rest_at(game, roll, seat, false, land, dist);
        match self.landing_refusal(game, seat, mover, from, land, rest) {
            Some(r) => Err(r),
            None => Ok(dist),
        }
    }

    /// Every sequence of the seat to roll's moves for `roll` that the
    /// rules allow (with `move most dice`, only the longest, and the
    /// larger die's when one die can be used), maybe one for each position
    /// they leave.
    fn dice_sequences(&self, game: &RaceGame, roll: &Roll, distinct: bool) -> Vec<Found> {
        let dice = Self::dice_of(game, roll);
        let n = dice.len();
        let mut found = Vec::new();
        let mut seen = Seen::default();
        let mut scratch: [Option<Scratch>; MAX_STEPS] = Default::default();
        self.dice_search(
            game,
            roll,
            &dice,
            (0, Steps::default()),
            &mut found,
            &mut seen,
            &mut Vec::new(),
            &mut scratch,
        );
        if game.most_dice {
            let most = found.iter().map(|f| f.steps.len()).max().unwrap_or(0);
            found.retain(|f| f.steps.len() == most);
            if most == 1 && n == 2 && dice[0] != dice[1] {
                let larger = larger_die(game, dice[0], dice[1]);
                if found.iter().any(|f| f.dice[0] == larger) {
                    found.retain(|f| f.dice[0] == larger);
                }
            }
        }
        if distinct {
            let mut seen = std::collections::HashSet::with_capacity_and_hasher(
                found.len(),
                BuildFast::default(),
            );
            let first: Vec<bool> = found
                .iter()
                .map(|f| seen.insert(f.key.as_slice()))
                .collect();
            let mut first = first.into_iter();
            found.retain(|_| first.next().unwrap_or(true));
        }
        found
    }

    /// The search of `dice_sequences`: from this position, with the dice
    /// `left` (bonuses earned on the way among them), the steps so far
    /// `steps`. A position met before with the same dice left (`seen`: by
    /// another order of the same moves) is not searched again: it leads to
    /// the same positions.
    /// `froms` holds this depth's positions to try and `scratch` the
    /// states of the depths below (`depth` moves made so far).
    #[allow(clippy::too_many_arguments)]
    fn dice_search(
        &self,
        game: &RaceGame,
        roll: &Roll,
        left: &[u8],
        (depth, steps): (usize, Steps),
        found: &mut Vec<Found>,
        seen: &mut Seen,
        froms: &mut Vec<u16>,
        scratch: &mut [Option<Scratch>],
    ) {
        if depth > 0 && !seen.insert((self.position_key(), left_key(left))) {
            return;
        }
        let seat = self.to_roll();
        let k = usize::from(self.pieces);
        let mut any = false;
        // The pieces' positions, furthest first, each once.
        froms.clear();
        froms.extend(
            self.pos
                .get(seat * k..seat * k + k)
                .unwrap_or(&[])
                .iter()
                .copied()
                .filter(|&p| p < game.cells),
        );
        froms.sort_unstable_by(|a, b| b.cmp(a));
        froms.dedup();
        let froms: &[u16] = froms;
        let (mine, deeper) = match scratch.split_first_mut() {
            Some((mine, deeper)) => (Some(mine), deeper),
            None => (None, <&mut [Option<Scratch>]>::default()),
        };
        let mut mine = mine;
        let mut spare = None;
        let next_rule = self.next_allowed(game, roll, seat, left);
        for (j, &die) in left.iter().enumerate() {
            if left[..j].contains(&die) {
                continue;
            }
            let blocked = self.die_blocked(game, roll, seat, left, die);
            for &from in froms {
                if !next_rule.allows(from) {
                    continue;
                }
                let Ok(step) = self.step_of(game, roll, seat, from, die, blocked) else {
                    continue;
                };
                let Some(next_steps) = steps.and(step) else {
                    continue;
                };
                any = true;
                // Each sequence found below used this die at this depth.
                let before = found.len();
                self.search_after(
                    game,
                    roll,
                    step,
                    |bonus| after_die(left, j, bonus),
                    (depth + 1, next_steps),
                    (found, seen),
                    (mine.as_deref_mut(), &mut spare, &mut *deeper),
                );
                for f in found.iter_mut().skip(before) {
                    if let Some(d) = f.dice.get_mut(depth) {
                        *d = die;
                    }
                }
            }
        }
        // Two dice that add up to the entering sum, used together.
        if game.enter_sum > 0 && froms.last() == Some(&OUT) && next_rule.allows(OUT) {
            for pair in sum_pairs(left, game.enter_sum) {
                let Ok(dist) = self.enter_step(game, roll, seat, u16::from(game.enter_sum)) else {
                    break;
                };
                let Some(next_steps) = steps.with(OUT, dist) else {
                    break;
                };
                any = true;
                self.search_after(
                    game,
                    roll,
                    entry(dist),
                    |bonus| after_pair(left, pair, bonus),
                    (depth + 1, next_steps),
                    (found, seen),
                    (mine.as_deref_mut(), &mut spare, &mut *deeper),
                );
            }
        }
        if !any && !steps.is_empty() {
            found.push(Found {
                steps,
                dice: [0; MAX_STEPS],
                key: self.position_key(),
            });
        }
    }

    /// One branch of `dice_search`: the move `step` made on a scratch
    /// state of the next depth (a slot of `scratch`, or `spare`), and the
    /// search from there with the dice `rest` leaves once the bonus the
    /// move earned is known (0: none), the steps so far `steps` at depth
    /// `depth`.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn search_after(
        &self,
        game: &RaceGame,
        roll: &Roll,
        step: Step,
        rest: impl FnOnce(u8) -> Left,
        (depth, steps): (usize, Steps),
        (found, seen): (&mut Vec<Found>, &mut Seen),
        (slot, spare, deeper): (
            Option<&mut Option<Scratch>>,
            &mut Option<Scratch>,
            &mut [Option<Scratch>],
        ),
    ) {
        let seat = self.to_roll();
        let Scratch {
            state: next,
            events,
            froms: next_froms,
        } = self.scratch_from(slot, spare);
        let bonus = next.bonus_step(game, roll, seat, step, events);
        next.dice_search(
            game,
            roll,
            &rest(bonus),
            (depth, steps),
            found,
            seen,
            next_froms,
            deeper,
        );
    }

    /// Every seat's pieces, sorted seat by seat: the position, whichever
    /// piece stands where.
    fn position_key(&self) -> Vec<u16> {
        let mut key = Vec::with_capacity(self.pos.len());
        for s in 0..self.players() {
            let start = key.len();
            key.extend_from_slice(self.pieces(s));
            if let Some(part) = key.get_mut(start..) {
                part.sort_unstable();
            }
        }
        key
    }

    /// Whether some die of `left` (or a pair of them adding up to the
    /// entering sum) still moves a piece of seat `seat`, forward or back.
    fn any_die_moves(&self, game: &RaceGame, roll: &Roll, seat: usize, left: &[u8]) -> bool {
        let k = usize::from(self.pieces);
        let own = self.pos.get(seat * k..seat * k + k).unwrap_or(&[]);
        let single = left.iter().any(|&d| {
            let blocked = self.die_blocked(game, roll, seat, left, d);
            own.iter()
                .any(|&p| p < game.cells && self.step_of(game, roll, seat, p, d, blocked).is_ok())
        });
        single
            || (game.enter_sum > 0
                && own.contains(&OUT)
                && !sum_pairs(left, game.enter_sum).is_empty()
                && self
                    .enter_step(game, roll, seat, u16::from(game.enter_sum))
                    .is_ok())
    }

    /// Whether the steps `steps` can be played in order from here with the
    /// dice `left` (one die each, any that moves the piece so far, or two
    /// that add up to the entering sum), and leave no die that could still
    /// move a piece (unless the turn has all its `MAX_STEPS` steps); the die
    /// of the first step played goes to `first`.
    #[allow(clippy::too_many_arguments)]
    fn steps_fit(
        &self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        steps: &[Step],
        played: usize,
        left: &[u8],
        first: &mut Vec<u8>,
    ) -> bool {
        let Some((&step, rest)) = steps.split_first() else {
            // Nothing may be left that a die could still move.
            return played >= MAX_STEPS || !self.any_die_moves(game, roll, seat, left);
        };
        let Step { from, by, back } = step;
        // The step moves a piece the seat has there now (written in
        // another order, a later step may not have its piece yet).
        if self.free_piece(seat, from).is_none()
            || !self.next_allowed(game, roll, seat, left).allows(from)
        {
            return false;
        }
        let mut fits = false;
        for (j, &d) in left.iter().enumerate() {
            if left[..j].contains(&d)
                || self.step_of(
                    game,
                    roll,
                    seat,
                    from,
                    d,
                    self.die_blocked(game, roll, seat, left, d),
                ) != Ok(step)
            {
                continue;
            }
            let mut next = self.clone();
            let mut events = Vec::new();
            let bonus = next.bonus_step(game, roll, seat, step, &mut events);
            let others = after_die(left, j, bonus);
            if next.steps_fit(game, roll, seat, rest, played + 1, &others, first) {
                first.push(d);
                fits = true;
            }
        }
        if from == OUT && !back && game.enter_sum > 0 {
            for pair in sum_pairs(left, game.enter_sum) {
                if self.enter_step(game, roll, seat, u16::from(game.enter_sum)) != Ok(by) {
                    break;
                }
                let mut next = self.clone();
                let mut events = Vec::new();
                let bonus = next.bonus_step(game, roll, seat, step, &mut events);
                let others = after_pair(left, pair, bonus);
                if next.steps_fit(game, roll, seat, rest, played + 1, &others, first) {
                    first.push(game.enter_sum);
                    fits = true;
                }
            }
        }
        fits
    }

    /// The choices of a roll with dice used one by one: a sequence for
    /// each position the rules allow, or `pass`.
    #[inline(never)]
    pub(super) fn dice_choices(&self, game: &RaceGame, roll: &Roll, out: &mut Vec<Choice>) {
        for f in self.dice_sequences(game, roll, true) {
            out.push(Choice::Dice(f.steps));
        }
        if out.is_empty() {
            out.push(Choice::Pass);
        }
    }

    /// Whether `choice` is a sequence the rules allow for `roll` (in any
    /// order), or `pass` when there is none.
    pub(super) fn dice_legal(&self, game: &RaceGame, roll: &Roll, choice: Choice) -> bool {
        let found = self.dice_sequences(game, roll, false);
        let steps = match choice {
            Choice::Pass => return found.is_empty(),
            Choice::Dice(steps) => steps,
            _ => return false,
        };
        let dice = Self::dice_of(game, roll);
        let n = dice.len();
        let most = found.iter().map(|f| f.steps.len()).max().unwrap_or(0);
        if game.most_dice && steps.len() != most {
            return false;
        }
        let list: Vec<Step> = steps.iter().collect();
        // The dice each way of playing the steps used first (in reverse:
        // innermost first, the first step's die pushed last).
        let mut firsts = Vec::new();
        if !self.steps_fit(game, roll, self.to_roll(), &list, 0, &dice, &mut firsts) {
            return false;
        }
        if game.most_dice && most == 1 && n == 2 && dice[0] != dice[1] {
            let larger = larger_die(game, dice[0], dice[1]);
            if found.iter().any(|f| f.dice[0] == larger) {
                return firsts.contains(&larger);
            }
        }
        true
    }

    /// Which rule rules out `choice` for `roll`, with dice used one by
    /// one.
    pub(super) fn dice_refusal(
        &self,
        game: &RaceGame,
        roll: &Roll,
        choice: Choice,
    ) -> Option<Refusal> {
        if self.dice_legal(game, roll, choice) {
            return None;
        }
        let seat = self.to_roll();
        let dice = Self::dice_of(game, roll);
        let n = dice.len();
        let all = self.dice_sequences(game, roll, false);
        let most = all.iter().map(|f| f.steps.len()).max().unwrap_or(0);
        let Choice::Dice(steps) = choice else {
            return (choice == Choice::Pass && most > 0).then_some(Refusal::MustMove);
        };
        let mut left = dice;
        let mut now = self.clone();
        for step in steps.iter() {
            let Step { from, by, back } = step;
            if now.free_piece(seat, from).is_none() {
                return Some(Refusal::NoPieceThere { at: from });
            }
            let fits = left.iter().position(|&d| {
                let blocked = now.die_blocked(game, roll, seat, &left, d);
                now.step_of(game, roll, seat, from, d, blocked) == Ok(step)
            });
            let pair = if from == OUT && !back && fits.is_none() {
                sum_pairs(&left, game.enter_sum)
                    .first()
                    .copied()
                    .filter(|_| {
                        now.enter_step(game, roll, seat, u16::from(game.enter_sum)) == Ok(by)
                    })
            } else {
                None
            };
            if fits.is_some() || pair.is_some() {
                let next_rule = now.next_allowed(game, roll, seat, &left);
                if !next_rule.allows(from) {
                    return next_rule.refusal();
                }
            }
            match (fits, pair) {
                (Some(j), _) => {
                    let mut events = Vec::new();
                    let bonus = now.bonus_step(game, roll, seat, step, &mut events);
                    left = after_die(&left, j, bonus);
                }
                (None, Some(pair)) => {
                    let mut events = Vec::new();
                    let bonus = now.bonus_step(game, roll, seat, step, &mut events);
                    left = after_pair(&left, pair, bonus);
                }
                (None, None) if back => {
                    return Some(now.back_refusal_of(game, roll, seat, &left, step))
                }
                (None, None) => {
                    // The rule that stops the die of this distance, or any
                    // die left.
                    let reason = left
                        .iter()
                        .filter(|&&d| die_value(game, d) >= by)
                        .chain(left.iter())
                        .find_map(|&d| now.die_step(game, roll, seat, from, d).err());
                    return reason.or(Some(Refusal::NoDie));
                }
            }
        }
        if steps.len() < most {
            return Some(Refusal::MostDice { most: most as u8 });
        }
        if game.most_dice && most == 1 && n == 2 {
            return Some(Refusal::LargerDie {
                die: larger_die(game, dice[0], dice[1]),
            });
        }
        None
    }

    /// Which rule rules out the move back `step` with the dice `left`: a
    /// die of its length that can move a piece forward moves none back
    /// (`move back when blocked`), else the rule that stops the move back.
    fn back_refusal_of(
        &self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        left: &[u8],
        step: Step,
    ) -> Refusal {
        let Some(&die) = left
            .iter()
            .find(|&&d| d & BONUS == 0 && die_value(game, d) == step.by)
        else {
            return Refusal::NoDie;
        };
        if !game.move_back {
            return Refusal::NoDie;
        }
        if !self.die_blocked(game, roll, seat, left, die) {
            return Refusal::NotBlocked { die };
        }
        self.back_step(game, roll, seat, step.from, die)
            .err()
            .unwrap_or(Refusal::NoDie)
    }

    /// `play_step`, and the bonus move it earns (0: none): `bonus N after
    /// capture` when it sent an opponent's piece out, `bonus N after home`
    /// when it finished the piece.
    #[allow(clippy::too_many_arguments)]
    fn bonus_step(
        &mut self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        step: Step,
        events: &mut Vec<Event>,
    ) -> u8 {
        if game.bonus_capture == 0 && game.bonus_home == 0 {
            self.play_step(game, roll, seat, step, events);
            return 0;
        }
        let k = usize::from(self.pieces);
        let opponents_out = |s: &RaceState| {
            s.pos
                .iter()
                .enumerate()
                .filter(|&(j, &p)| j / k.max(1) != seat && p == OUT)
                .count()
        };
        let before = opponents_out(self);
        let Some((i, _)) = self.play_step(game, roll, seat, step, events) else {
            return 0;
        };
        let home = game.home_from();
        if game.bonus_home > 0 && step.from < home && self.pos[i] >= home {
            return game.bonus_home;
        }
        if game.bonus_capture > 0 && opponents_out(self) > before {
            return game.bonus_capture;
        }
        0
    }

    /// Moves seat `seat`'s piece by the step `step` (one die) as a move by
    /// the whole roll moves it (`move_piece`, the die's value the count):
    /// telling it as `Enter` or `Move`, then the landing and resting rules
    /// where it lands, their effects on other pieces included. The piece's
    /// index, and what the landing rules leave to the turn (turns to miss,
    /// an extra roll given or lost), which `play_dice` applies.
    pub(super) fn play_step(
        &mut self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        step: Step,
        events: &mut Vec<Event>,
    ) -> Option<(usize, Landed)> {
        let Step {
            from,
            by: dist,
            back,
        } = step;
        let i = self.free_piece(seat, from)?;
        let who = u8::try_from(seat).ok()?;
        let landed = self.move_piece(game, roll, who, i, back, dist, events);
        Some((i, landed))
    }

    /// Plays a turn of dice used one by one: the steps of `choice` in
    /// order (nothing for `pass`, or when a rule of the roll ended the
    /// turn), then the end of the turn as any turn's. What a die's landing
    /// leaves to the turn is applied as a move by the whole roll's is: the
    /// turns to miss are owed at once (the other dice still play this
    /// turn, the turns missed are the next ones), and an extra roll comes
    /// after the whole turn, once however many moves earned it; `no extra
    /// roll` loses the one the turn has earned so far (the roll's, or an
    /// earlier die's), and a later die's `extra roll` gives one again.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn play_dice(
        &mut self,
        game: &RaceGame,
        roll: &Roll,
        choice: Choice,
        ended: bool,
        mut extra: bool,
        mut lost: bool,
        events: &mut Vec<Event>,
    ) {
        let seat = self.to_roll();
        let mut moved = None;
        match choice {
            Choice::Dice(steps) if !ended => {
                // The bonus moves, told as bonuses (`bonus.rs`).
                let bonuses = if Self::may_use_bonus(game, steps) {
                    self.bonus_moves(game, roll, &Self::dice_of(game, roll), steps)
                } else {
                    [None; MAX_STEPS]
                };
                for (step, bonus) in steps.iter().zip(bonuses) {
                    let start = events.len();
                    if let Some((i, landed)) = self.play_step(game, roll, seat, step, events) {
                        moved = Some(i);
                        if landed.miss > 0 {
                            if let Some(o) = self.owed.get_mut(seat) {
                                *o = o.saturating_add(landed.miss);
                            }
                        }
                        match landed.extra {
                            Some(false) => {
                                lost |= extra;
                                extra = false;
                            }
                            Some(true) => extra = true,
                            None => {}
                        }
                    }
                    if let (Some(b), Some(step)) = (bonus, events.get_mut(start..)) {
                        Self::mark_bonus(step, b);
                    }
                }
            }
            _ if ended => {}
            _ => events.push(Event::Pass),
        }
        self.rolls += 1;
        self.settle(game, seat, moved, events);
        if self.over {
            return;
        }
        if lost {
            events.push(Event::LostExtraRoll);
        }
        if extra && !ended && !self.is_placed(seat) {
            events.push(Event::ExtraRoll);
        } else if game.tries > 1 && !ended && self.dice_tries_again(game, roll, moved.is_some()) {
            events.push(Event::Retry {
                next: self.tries + 1,
                of: game.tries,
            });
        } else {
            self.next_turn(events);
        }
    }

    /// `tries_again` with dice used one by one: the tries count whole
    /// throws. After a throw that moved nothing and earned no extra roll,
    /// the seat to roll throws again while it has tries left, no die of
    /// the throw showed an entering face (nor two of them the entering
    /// sum), and no piece of theirs on the track could move by any face of
    /// a die; a throw that moved a piece starts the count again.
    #[inline(never)]
    fn dice_tries_again(&mut self, game: &RaceGame, roll: &Roll, moved: bool) -> bool {
        if moved {
            self.tries = 0;
            return false;
        }
        self.tries = self.tries.saturating_add(1);
        if self.tries >= game.tries {
            return false;
        }
        let seat = self.to_roll();
        let waiting = self.pieces(seat).contains(&OUT);
        let faces = Self::dice_of(game, roll);
        let enters = waiting
            && match game.enter {
                Enter::Always => true,
                Enter::OnFace(f) => {
                    faces.contains(&f)
                        || (game.enter_sum > 0 && !sum_pairs(&faces, game.enter_sum).is_empty())
                }
            };
        !enters && self.none_moves_by_a_die(game)
    }

    /// `none_can_move` with dice used one by one: no piece of the seat to
    /// roll on the track can move by any face of a die to a cell that the
    /// rules of the choices allow (its own pieces, kept home cells).
    fn none_moves_by_a_die(&self, game: &RaceGame) -> bool {
        let values = (game.low_face()..=game.faces).map(|f| game.face_value(f));
        let (low, high) = (values.clone().min().unwrap_or(0), values.max().unwrap_or(0));
        self.none_moves_by_counts(game, low, high)
    }
}
