//! The end of a game, from the rule file's `end` rules: which rule holds in
//! a position or after a move, for which side, and what it makes of the game
//! (a winner, a draw, or a side that drops out while the others play on).
//! The first rule written decides when several hold at once. `Match` and
//! the agents' `BoardState` both decide through `judge`, so they end a game
//! at the same ply with the same result; the move generator asks
//! `position_over` so that perft counts no moves in a finished position.

use super::bitboard::Bb;
use super::play::EndReason;
use super::position::Position;
use super::tables::{Tables, EMPTY};
use crate::board::game::{Elimination, EndCondition, Game, SideId, Verdict, Whose};

/// A `reach` rule's squares and pieces, per side.
#[derive(Clone, Debug, Default)]
struct Reach {
    /// `squares[side * n + sq]`: the square is on the side's version of the
    /// zone.
    squares: Vec<bool>,
    /// The same per side as a bitboard (empty without a layout).
    bb: Vec<Bb>,
    /// Per side: the piece codes that count.
    codes: Vec<Vec<u8>>,
}

/// A `line` rule: how many in a row, and per side the directions (ids of
/// `Game::dirs`) along which they count.
#[derive(Clone, Debug, Default)]
struct Line {
    /// How many in a row.
    length: u32,
    /// Exactly `length` (else `length` or more).
    exact: bool,
    /// Per side, the directions.
    dirs: Vec<Vec<u8>>,
}

/// Whether an end rule looks at the position alone (`no-pieces`,
/// `reduced-to`, `reach`, `line`).
#[inline]
fn of_position(c: &EndCondition) -> bool {
    matches!(
        c,
        EndCondition::NoPieces
            | EndCondition::ReducedTo(_)
            | EndCondition::Reach { .. }
            | EndCondition::Line { .. }
            | EndCondition::Captured(_)
    )
}

/// What the engine needs of the end rules, built once per game.
#[derive(Clone, Debug)]
pub struct EndTables {
    /// What a side with no legal move gets.
    pub no_moves: Verdict,
    /// More than two sides, and a side that loses drops out.
    pub drop_out: bool,
    /// Whether any rule looks at the position alone (`no-pieces`,
    /// `reduced-to`, `reach`).
    pub by_position: bool,
    /// Whether a rule of the position can make a side lose while the others
    /// play on (so `make` must mark it out).
    pub eliminates: bool,
    /// Per rule: its `reach` tables.
    reach: Vec<Option<Reach>>,
    /// Per rule: its `line` tables.
    lines: Vec<Option<Line>>,
    /// Per rule of `captured KIND`: per side, the code of its pieces of the
    /// kind when it starts with one (0: it doesn't, and the rule never
    /// concerns it).
    captured: Vec<Vec<u8>>,
    /// When every rule of the position counts pieces (`no-pieces`,
    /// `reduced-to N`) and no side drops out: the game is over as soon as a
    /// side has this many pieces or fewer. The move generator's fast test.
    count_limit: Option<u16>,
}

impl EndTables {
    /// The end tables of a game; `bit_of` maps squares to bitboard bits
    /// when the board has a layout.
    pub fn new(game: &Game, bit_of: Option<&[u8]>, nkinds: usize) -> EndTables {
        let nsides = game.sides.len();
        let n = game.squares.len();
        let drop_out = nsides > 2 && game.end.loser == Elimination::DropOut;
        let mut by_position = false;
        let mut eliminates = false;
        let mut reach = Vec::new();
        let lines = game
            .end
            .rules
            .iter()
            .map(|rule| match &rule.condition {
                EndCondition::Line {
                    length,
                    exact,
                    dirs,
                } => Some(Line {
                    length: *length,
                    exact: *exact,
                    dirs: dirs
                        .iter()
                        .map(|vs| {
                            vs.iter()
                                .filter_map(|v| game.dirs.iter().position(|d| d == v))
                                .filter_map(|i| u8::try_from(i).ok())
                                .collect()
                        })
                        .collect(),
                }),
                _ => None,
            })
            .collect();
        for rule in &game.end.rules {
            let position = of_position(&rule.condition);
            by_position |= position;
            eliminates |= drop_out && position && rule.verdict == Verdict::Lose;
            let EndCondition::Reach { zone, whose, kind } = rule.condition else {
                reach.push(None);
                continue;
            };
            let mut r = Reach {
                squares: vec![false; nsides * n],
                bb: vec![0; nsides],
                codes: vec![Vec::new(); nsides],
            };
            if let Some(z) = game.zones.get(usize::from(zone.0)) {
                for side in 0..nsides {
                    for (s, set) in z.squares.iter().enumerate() {
                        let take = match whose {
                            Whose::Own => s == side,
                            Whose::Enemy => s != side,
                            Whose::Any => true,
                        };
                        if !take {
                            continue;
                        }
                        for sq in set.iter() {
                            let i = usize::from(sq.0);
                            if let Some(b) = r.squares.get_mut(side * n + i) {
                                *b = true;
                            }
                            if let Some(bit) = bit_of.and_then(|b| b.get(i)) {
                                r.bb[side] |= 1 << bit;
                            }
                        }
                    }
                    for k in 0..nkinds {
                        if kind.is_none_or(|want| usize::from(want.0) == k) {
                            r.codes[side].push((1 + side * nkinds + k) as u8);
                        }
                    }
                }
            }
            reach.push(Some(r));
        }
        let captured = game
            .end
            .rules
            .iter()
            .map(|rule| match rule.condition {
                EndCondition::Captured(kind) => (0..nsides)
                    .map(|s| {
                        let starts = game
                            .setup
                            .iter()
                            .any(|&(_, side, k)| usize::from(side.0) == s && k == kind);
                        if starts {
                            (1 + s * nkinds + usize::from(kind.0)) as u8
                        } else {
                            0
                        }
                    })
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        let mut count_limit: Option<u16> = None;
        let mut only_counts = !drop_out;
        for rule in &game.end.rules {
            match rule.condition {
                EndCondition::NoPieces => count_limit = count_limit.max(Some(0)),
                EndCondition::ReducedTo(k) => {
                    count_limit = count_limit.max(Some(u16::try_from(k).unwrap_or(u16::MAX)));
                }
                EndCondition::Reach { .. }
                | EndCondition::Line { .. }
                | EndCondition::Captured(_) => only_counts = false,
                _ => {}
            }
        }
        EndTables {
            count_limit: count_limit.filter(|_| only_counts),
            no_moves: game.end.no_moves(),
            drop_out,
            by_position,
            eliminates,
            reach,
            lines,
            captured,
        }
    }
}

impl EndTables {
    /// When every rule of the position counts pieces: the game is over as
    /// soon as a side has this many pieces or fewer.
    pub fn count_limit(&self) -> Option<u16> {
        self.count_limit
    }

    /// A `reach` rule's squares for `side` (one flag per square of the
    /// board's `n`) and the piece codes that count, or None for another
    /// kind of rule.
    pub fn reach_of(&self, rule: usize, side: usize, n: usize) -> Option<(&[bool], &[u8])> {
        let r = self.reach.get(rule)?.as_ref()?;
        let squares = r.squares.get(side * n..(side + 1) * n)?;
        Some((squares, r.codes.get(side)?.as_slice()))
    }
}

/// An end rule that holds: its index in `Game::end.rules`, the side it
/// concerns and its verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    /// The rule, an index into the game's end rules.
    pub rule: usize,
    /// The side it concerns.
    pub side: u8,
    /// What it gives that side.
    pub verdict: Verdict,
}

/// Whether `side` is still in the game: it has pieces (when sides that lose
/// drop out) and has not dropped out.
#[inline]
pub fn in_play(t: &Tables, pos: &Position, side: usize) -> bool {
    pos.out & (1 << side) == 0 && (!t.end.drop_out || pos.count[side] > 0)
}

/// The number of sides still in the game.
pub fn sides_in_play(t: &Tables, pos: &Position) -> usize {
    (0..t.nsides).filter(|&s| in_play(t, pos, s)).count()
}

/// Whether a position rule (`rule`, of the game's end rules) holds for
/// `side`.
fn holds_for(t: &Tables, pos: &Position, rule: usize, side: usize) -> bool {
    let Some(r) = t.game.end.rules.get(rule) else {
        return false;
    };
    match r.condition {
        EndCondition::NoPieces => pos.count[side] == 0,
        EndCondition::ReducedTo(n) => u32::from(pos.count[side]) <= n,
        EndCondition::Reach { .. } => {
            let Some(Some(reach)) = t.end.reach.get(rule) else {
                return false;
            };
            let codes = reach.codes.get(side).map_or(&[][..], Vec::as_slice);
            if t.layout.is_some() && !pos.bb.is_empty() {
                let mask = reach.bb.get(side).copied().unwrap_or(0);
                codes
                    .iter()
                    .any(|&c| pos.bb.get(usize::from(c)).is_some_and(|b| b & mask != 0))
            } else {
                let n = t.n;
                pos.board.iter().enumerate().any(|(sq, &c)| {
                    c != EMPTY
                        && codes.contains(&c)
                        && reach.squares.get(side * n + sq).copied().unwrap_or(false)
                })
            }
        }
        EndCondition::Line { .. } => line_at(t, pos, rule, side).is_some(),
        EndCondition::Captured(_) => {
            let code = t
                .end
                .captured
                .get(rule)
                .and_then(|v| v.get(side))
                .copied()
                .unwrap_or(0);
            code != 0 && !pos.board.contains(&code)
        }
        _ => false,
    }
}

/// Where a line of a `line` rule (`rule`) of `side` starts, and how long
/// it is: the first square, in square order, that begins one.
fn line_at(t: &Tables, pos: &Position, rule: usize, side: usize) -> Option<(u16, u32)> {
    let Some(Some(line)) = t.end.lines.get(rule) else {
        return None;
    };
    let dirs = line.dirs.get(side)?;
    let ours = |c: u8| c != EMPTY && usize::from(t.code_side[usize::from(c)]) == side;
    for (sq, &c) in pos.board.iter().enumerate() {
        if !ours(c) {
            continue;
        }
        let sq = sq as u16;
        for &d in dirs {
            // Only from the first piece of the row along `d`.
            let back = t
                .rev
                .get(usize::from(d))
                .copied()
                .unwrap_or(super::tables::NO_DIR);
            if back != super::tables::NO_DIR {
                let b = t.step(sq, back);
                if b != super::tables::NONE && ours(pos.board[usize::from(b)]) {
                    continue;
                }
            }
            let mut run = 1u32;
            let mut at = t.step(sq, d);
            while at != super::tables::NONE && ours(pos.board[usize::from(at)]) {
                run += 1;
                at = t.step(at, d);
            }
            let hit = if line.exact {
                run == line.length
            } else {
                run >= line.length
            };
            if hit {
                return Some((sq, run));
            }
        }
    }
    None
}

/// The first rule of the position alone (`no-pieces`, `reduced-to`,
/// `reach`) that holds for a side in play, in the order written; the sides
/// are tried in turn order from the side to move. In a game whose losers drop
/// out, sides out of play are not looked at.
pub fn position_held(t: &Tables, pos: &Position) -> Option<Held> {
    if !t.end.by_position {
        return None;
    }
    let first = usize::from(pos.to_move);
    for (i, r) in t.game.end.rules.iter().enumerate() {
        if !of_position(&r.condition) {
            continue;
        }
        for k in 0..t.nsides {
            let side = (first + k) % t.nsides;
            if pos.out & (1 << side) != 0 {
                continue;
            }
            if t.end.drop_out
                && pos.count[side] == 0
                && !matches!(r.condition, EndCondition::NoPieces)
            {
                continue;
            }
            if holds_for(t, pos, i, side) {
                return Some(Held {
                    rule: i,
                    side: side as u8,
                    verdict: r.verdict,
                });
            }
        }
    }
    None
}

/// Whether the game is over by the position alone: a rule of the position
/// decides it, or, where losers drop out, one side (or none) is left.
#[inline(always)]
pub fn position_over(t: &Tables, pos: &Position) -> bool {
    if pos.out == 0 {
        if let Some(limit) = t.end.count_limit {
            return pos.count[..t.nsides].iter().any(|&c| c <= limit);
        }
        if !t.end.by_position {
            return false;
        }
    }
    position_over_by_rules(t, pos)
}

/// `position_over` for the rules that need more than a count: `reach`,
/// and sides that dropped out.
#[inline(never)]
fn position_over_by_rules(t: &Tables, pos: &Position) -> bool {
    if t.end.drop_out {
        if sides_in_play(t, pos) <= 1 {
            return true;
        }
        // A side that loses here drops out instead (see `eliminate`).
        return position_held_deciding(t, pos).is_some();
    }
    position_held(t, pos).is_some()
}

/// Like `position_held`, but skipping the losses that only make a side drop
/// out.
fn position_held_deciding(t: &Tables, pos: &Position) -> Option<Held> {
    let first = usize::from(pos.to_move);
    for (i, r) in t.game.end.rules.iter().enumerate() {
        if !of_position(&r.condition) || (t.end.drop_out && r.verdict == Verdict::Lose) {
            continue;
        }
        for k in 0..t.nsides {
            let side = (first + k) % t.nsides;
            if in_play(t, pos, side) && holds_for(t, pos, i, side) {
                return Some(Held {
                    rule: i,
                    side: side as u8,
                    verdict: r.verdict,
                });
            }
        }
    }
    None
}

/// After a move, in a game whose losers drop out: marks out every side in
/// play that a rule of the position makes lose (its pieces stay where they
/// stand). Stops when a rule that decides the game holds first.
pub fn eliminate(t: &Tables, pos: &mut Position) {
    if !t.end.eliminates {
        return;
    }
    while sides_in_play(t, pos) > 1 {
        let first = usize::from(pos.to_move);
        let mut found = None;
        'rules: for (i, r) in t.game.end.rules.iter().enumerate() {
            if !of_position(&r.condition) {
                continue;
            }
            for k in 0..t.nsides {
                let side = (first + k) % t.nsides;
                if in_play(t, pos, side) && holds_for(t, pos, i, side) {
                    found = Some((r.verdict, side));
                    break 'rules;
                }
            }
        }
        match found {
            Some((Verdict::Lose, side)) => pos.out |= 1 << side,
            _ => break,
        }
    }
}

/// The side that played the last move before `pos` (the side in play before
/// the side to move).
pub fn last_mover(t: &Tables, pos: &Position) -> u8 {
    let n = t.nsides.max(1);
    let me = usize::from(pos.to_move);
    for k in 1..=n {
        let s = (me + n - k) % n;
        if in_play(t, pos, s) || k == n {
            return s as u8;
        }
    }
    pos.to_move
}

/// What the history says after the last move: how often the position has
/// now occurred, and the counters of the `after N plies without` rules in
/// the order of `EndRules::counters`.
#[derive(Clone, Copy, Debug)]
pub struct History<'a> {
    /// Occurrences of the current position with the same side to move.
    pub repetitions: u32,
    /// Plies counted by each counter rule.
    pub counters: &'a [u32],
    /// Whether a move has been played (repetition and counters concern the
    /// side that played it).
    pub after_move: bool,
    /// Where sides that lose drop out: the side the last move put out of
    /// play, if any (see [`dropped`]).
    pub dropped: Option<u8>,
}

/// The sides in play, one bit each, where sides that lose drop out (0
/// elsewhere, and no work: no side ever leaves).
#[inline]
pub fn in_play_mask(t: &Tables, pos: &Position) -> u32 {
    if !t.end.drop_out {
        return 0;
    }
    (0..t.nsides)
        .filter(|&s| in_play(t, pos, s))
        .fold(0, |m, s| m | 1 << s)
}

/// The side a move put out of play, given the sides in play before it
/// (`in_play_mask`) and the position after it: the first one in seat order.
#[inline]
pub fn dropped(t: &Tables, before: u32, pos: &Position) -> Option<u8> {
    let gone = before & !in_play_mask(t, pos);
    (gone != 0).then(|| gone.trailing_zeros() as u8)
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The rule that decided it (None: the last side left in play wins).
    pub rule: Option<usize>,
    /// The side the rule concerns.
    pub side: u8,
    /// Its verdict.
    pub verdict: Verdict,
    /// The winner, or None for a draw.
    pub winner: Option<u8>,
    /// When the last side in play wins: the side whose dropping out left
    /// it alone, when the history says (`History::dropped`).
    pub out: Option<u8>,
}

/// Decides the game in `pos`: the first end rule that holds decides.
/// `no_legal_moves` tells whether the generator found no move at all (not
/// even a pass); `can_move` whether the side to move has a move of its own
/// (asked only when a `no-moves` rule is reached). None: the game goes on.
pub fn judge(
    t: &Tables,
    pos: &Position,
    history: History<'_>,
    no_legal_moves: bool,
    can_move: &mut dyn FnMut() -> bool,
) -> Option<Decision> {
    let me = pos.to_move;
    if t.end.drop_out && sides_in_play(t, pos) <= 1 {
        let winner = (0..t.nsides).find(|&s| in_play(t, pos, s)).map(|s| s as u8);
        return Some(Decision {
            rule: None,
            side: winner.unwrap_or(me),
            verdict: if winner.is_some() {
                Verdict::Win
            } else {
                Verdict::Draw
            },
            winner,
            out: history.dropped,
        });
    }
    let mover = last_mover(t, pos);
    let mut counter = 0;
    for (i, r) in t.game.end.rules.iter().enumerate() {
        let held = match r.condition {
            EndCondition::NoPieces
            | EndCondition::ReducedTo(_)
            | EndCondition::Reach { .. }
            | EndCondition::Line { .. }
            | EndCondition::Captured(_) => {
                let first = usize::from(me);
                (0..t.nsides)
                    .map(|k| (first + k) % t.nsides)
                    .find(|&s| in_play(t, pos, s) && holds_for(t, pos, i, s))
                    .map(|s| s as u8)
            }
            EndCondition::NoMoves => {
                if !can_move() {
                    if r.verdict == Verdict::Pass && !no_legal_moves {
                        // It passes; another side can move.
                        continue;
                    }
                    if r.verdict == Verdict::Lose
                        && t.end.drop_out
                        && !no_legal_moves
                        && sides_in_play(t, pos) > 2
                    {
                        // It drops out by its pass; the others play on.
                        continue;
                    }
                    Some(me)
                } else {
                    None
                }
            }
            EndCondition::MostPieces => {
                if !no_legal_moves || can_move() {
                    continue;
                }
                match most_pieces(t, pos) {
                    Some(side) => Some(side),
                    None => {
                        // Equal counts: a draw.
                        return Some(Decision {
                            rule: Some(i),
                            side: me,
                            verdict: Verdict::Draw,
                            winner: None,
                            out: None,
                        });
                    }
                }
            }
            EndCondition::Repetition(n) => {
                (history.after_move && history.repetitions >= n).then_some(mover)
            }
            EndCondition::Without(ref c) => {
                let plies = history.counters.get(counter).copied().unwrap_or(0);
                counter += 1;
                (history.after_move && plies >= c.plies).then_some(mover)
            }
        };
        let Some(side) = held else { continue };
        if r.verdict == Verdict::Lose && t.end.drop_out && sides_in_play(t, pos) > 2 {
            // Marked out by `eliminate` or by its pass; not an end.
            continue;
        }
        let winner = match r.verdict {
            Verdict::Win => Some(side),
            Verdict::Draw => None,
            Verdict::Pass => None,
            Verdict::Lose => Some(winner_over(t, pos, side, mover)),
        };
        return Some(Decision {
            rule: Some(i),
            side,
            verdict: if r.verdict == Verdict::Pass {
                Verdict::Draw
            } else {
                r.verdict
            },
            winner,
            out: None,
        });
    }
    None
}

/// The side in play with the most pieces, None when two or more have the
/// most.
pub fn most_pieces(t: &Tables, pos: &Position) -> Option<u8> {
    let mut best: Option<(u16, u8)> = None;
    let mut tied = false;
    for s in (0..t.nsides).filter(|&s| in_play(t, pos, s)) {
        let c = pos.count[s];
        match best {
            Some((b, _)) if c < b => {}
            Some((b, _)) if c == b => tied = true,
            _ => {
                best = Some((c, s as u8));
                tied = false;
            }
        }
    }
    if tied {
        None
    } else {
        best.map(|(_, s)| s)
    }
}

/// Who wins when `loser` loses and the game ends: with two sides in play the
/// other one; with more (`end loser ends-game`) the side that played the
/// last move, or, when the loser played it, the next side in turn.
fn winner_over(t: &Tables, pos: &Position, loser: u8, mover: u8) -> u8 {
    let mut others = (0..t.nsides as u8).filter(|&s| s != loser && in_play(t, pos, usize::from(s)));
    if let (Some(only), None) = (others.next(), others.next()) {
        return only;
    }
    if mover != loser {
        return mover;
    }
    let n = t.nsides.max(1);
    (1..n)
        .map(|k| ((usize::from(loser) + k) % n) as u8)
        .find(|&s| in_play(t, pos, usize::from(s)))
        .unwrap_or(loser)
}

/// Whether the side to move has a move of its own, given the list the
/// generator made for `pos`: a list with a real move says yes, a lone pass
/// says no, and an empty list is asked again of the side alone when the
/// position rules stopped the generator.
pub fn can_move(
    t: &Tables,
    gen: &mut super::movegen::Generator,
    pos: &mut Position,
    list: &super::movegen::MoveList,
) -> bool {
    if let Some(m) = list.moves.first() {
        return !m.is_pass();
    }
    if !position_over(t, pos) {
        return false;
    }
    let mut own = super::movegen::MoveList::new();
    gen.generate_side(t, pos, pos.to_move, &mut own);
    !own.is_empty()
}

/// Why a game ended, in the kind of the end rule that decided it: the
/// lab's count of endings (`narrate::lab::cause` gives the few words of its
/// tables). Cheaper than an [`EndReason`]: no square is looked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cause {
    /// A side lost its last piece.
    LastPiece,
    /// A side has no pieces left, and the rule does not make it lose.
    NoPiecesLeft,
    /// No side can move.
    NoSideCanMove,
    /// The side to move cannot move.
    CannotMove,
    /// A position occurred too often.
    Repetition,
    /// Plies went by without what a counter rule waits for.
    NoProgress,
    /// A piece reached a zone.
    ReachedZone,
    /// A side is down to the pieces a `reduced-to` rule names.
    FewPiecesLeft,
    /// No side can move, and the pieces were counted.
    MostPieces,
    /// A side has pieces in a row.
    Line,
    /// A side's last piece of a kind was captured.
    KindCaptured,
}

/// The kind of the end rule that decided the game: its `Cause`. When the
/// last side left in play wins (sides that lose drop out), the cause is why
/// the side named by [`reason`] dropped out.
pub fn cause(t: &Tables, pos: &Position, d: &Decision) -> Cause {
    let Some(rule) = d.rule.and_then(|i| t.game.end.rules.get(i)) else {
        return match dropped_out(t, pos, d, false) {
            EndReason::LastPiece { .. } => Cause::LastPiece,
            EndReason::ReducedTo { .. } => Cause::FewPiecesLeft,
            EndReason::Reached { .. } => Cause::ReachedZone,
            EndReason::Captured { .. } => Cause::KindCaptured,
            _ => Cause::CannotMove,
        };
    };
    match rule.condition {
        EndCondition::NoPieces if rule.verdict == Verdict::Lose => Cause::LastPiece,
        EndCondition::NoPieces => Cause::NoPiecesLeft,
        EndCondition::NoMoves if rule.verdict == Verdict::Pass => Cause::NoSideCanMove,
        EndCondition::NoMoves => Cause::CannotMove,
        EndCondition::Repetition(_) => Cause::Repetition,
        EndCondition::Without(_) => Cause::NoProgress,
        EndCondition::Reach { .. } => Cause::ReachedZone,
        EndCondition::ReducedTo(_) => Cause::FewPiecesLeft,
        EndCondition::MostPieces => Cause::MostPieces,
        EndCondition::Line { .. } => Cause::Line,
        EndCondition::Captured(_) => Cause::KindCaptured,
    }
}

/// Why `side`, out of play, dropped out: it lost its last piece, a rule of
/// the position made it lose (down to N pieces, a piece in a zone), or it
/// could not move. `square` asks for the square of a `reach` rule.
pub fn why_out(t: &Tables, pos: &Position, side: usize, square: bool) -> EndReason {
    let id = SideId(side as u8);
    let left = pos.count.get(side).copied().unwrap_or(0);
    if left == 0 {
        return EndReason::LastPiece { side: id };
    }
    for (i, r) in t.game.end.rules.iter().enumerate() {
        if r.verdict != Verdict::Lose || !holds_for(t, pos, i, side) {
            continue;
        }
        match r.condition {
            EndCondition::ReducedTo(_) => return EndReason::ReducedTo { side: id, left },
            EndCondition::Captured(kind) => return EndReason::Captured { side: id, kind },
            EndCondition::Reach { zone, kind, .. } => {
                return EndReason::Reached {
                    side: id,
                    kind,
                    zone,
                    square: if square {
                        reach_square(t, pos, i, side)
                    } else {
                        None
                    },
                }
            }
            _ => {}
        }
    }
    EndReason::CannotMove { side: id }
}

/// When the last side in play wins: why the side whose dropping out ended
/// the game dropped out (without a history that says which, the last side
/// out of play in seat order).
fn dropped_out(t: &Tables, pos: &Position, d: &Decision, square: bool) -> EndReason {
    let gone = d
        .out
        .map(usize::from)
        .filter(|&s| s < t.nsides && !in_play(t, pos, s))
        .or_else(|| (0..t.nsides).rev().find(|&s| !in_play(t, pos, s)));
    match gone {
        Some(s) => why_out(t, pos, s, square),
        None => EndReason::LastPiece {
            side: SideId(d.side),
        },
    }
}

/// Why a game ended, as data: the cause the decision's rule names, with
/// the sides, pieces and squares it concerns (`narrate::board` puts it in
/// words).
pub fn reason(t: &Tables, pos: &Position, d: &Decision) -> EndReason {
    let side = SideId(d.side);
    let rule = d.rule.and_then(|i| t.game.end.rules.get(i).map(|r| (i, r)));
    match rule.map(|(i, r)| (i, r, &r.condition)) {
        None => dropped_out(t, pos, d, true),
        Some((_, _, EndCondition::NoPieces)) => match d.verdict {
            Verdict::Lose => EndReason::LastPiece { side },
            _ => EndReason::NoPiecesLeft { side },
        },
        Some((_, r, EndCondition::NoMoves)) => {
            if r.verdict == Verdict::Pass {
                EndReason::NoSideCanMove
            } else {
                EndReason::CannotMove { side }
            }
        }
        Some((_, _, EndCondition::Repetition(n))) => EndReason::Repetition { times: *n },
        Some((i, _, EndCondition::Without(_))) => EndReason::NoProgress { rule: i },
        Some((i, _, EndCondition::Reach { zone, kind, .. })) => EndReason::Reached {
            side,
            kind: *kind,
            zone: *zone,
            square: reach_square(t, pos, i, usize::from(d.side)),
        },
        Some((_, _, EndCondition::ReducedTo(_))) => EndReason::ReducedTo {
            side,
            left: pos.count.get(usize::from(d.side)).copied().unwrap_or(0),
        },
        Some((_, _, EndCondition::MostPieces)) => {
            let most = most_pieces(t, pos);
            EndReason::MostPieces {
                side: most.map(SideId),
                count: pos
                    .count
                    .get(usize::from(most.unwrap_or(d.side)))
                    .copied()
                    .unwrap_or(0),
            }
        }
        Some((_, _, EndCondition::Captured(kind))) => EndReason::Captured { side, kind: *kind },
        Some((i, _, EndCondition::Line { .. })) => {
            let (square, length) = line_at(t, pos, i, usize::from(d.side)).unwrap_or((0, 0));
            EndReason::Line {
                side,
                square: crate::board::game::Sq(square),
                length: u16::try_from(length).unwrap_or(u16::MAX),
            }
        }
    }
}

/// The first square where a piece that counts for a `reach` rule stands on
/// the zone.
fn reach_square(
    t: &Tables,
    pos: &Position,
    rule: usize,
    side: usize,
) -> Option<crate::board::game::Sq> {
    let Some(Some(reach)) = t.end.reach.get(rule) else {
        return None;
    };
    let codes = reach.codes.get(side)?;
    pos.board.iter().enumerate().find_map(|(sq, &c)| {
        (c != EMPTY
            && codes.contains(&c)
            && reach.squares.get(side * t.n + sq).copied().unwrap_or(false))
        .then_some(crate::board::game::Sq(sq as u16))
    })
}
