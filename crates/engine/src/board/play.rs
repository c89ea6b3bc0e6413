//! A game in progress: the position, its history, the draw counters, the
//! legal moves as owned `Move`s with notation, the rule events each move fires,
//! and the outcome.

use std::collections::HashMap;

use super::end::{self, History};
use super::movegen::{make, Generator, MoveList, MoveRec};
use super::position::{algebraic, square_name, Position};
use super::tables::{Tables, EMPTY};
use crate::board::game::{event, Criterion, JumpEffect, KindId, SideId, Sq, ZoneId};

/// A legal move, owned, with its notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Start square (None for a pass).
    pub from: Option<Sq>,
    /// Squares visited after the start, in order.
    pub path: Vec<Sq>,
    /// Captured squares, sorted.
    pub captured: Vec<Sq>,
    /// `22x15x6`, `c3-d4`, `pass`.
    pub notation: String,
    /// The same move in algebraic notation.
    pub algebraic: String,
    rec: MoveRec,
}

impl Move {
    /// Whether the move captures or converts.
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }
}

/// How a game ended (`narrate::board::outcome` puts it in words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A side won.
    Win {
        /// The side that won.
        winner: SideId,
        /// Why the game ended.
        reason: EndReason,
    },
    /// Drawn.
    Draw {
        /// Why the game ended.
        reason: EndReason,
    },
}

/// Why a game ended: the cause an end rule (or the last side left in play)
/// names, as data (`narrate::board::end_reason` puts it in words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side lost its last piece (the last side left in play won, or
    /// `no-pieces lose`).
    LastPiece {
        /// The side that lost it.
        side: SideId,
    },
    /// The side has no pieces left (a `no-pieces` rule that is no loss).
    NoPiecesLeft {
        /// The side without pieces.
        side: SideId,
    },
    /// No side can move (a `no-moves pass` rule: every side passed).
    NoSideCanMove,
    /// The side to move cannot move.
    CannotMove {
        /// The side to move.
        side: SideId,
    },
    /// The same position occurred this many times.
    Repetition {
        /// How many times.
        times: u32,
    },
    /// The counter of end rule `rule` (an `after N plies without` rule) ran
    /// out.
    NoProgress {
        /// The end rule's index, in the order of the rule file.
        rule: usize,
    },
    /// A piece of the side (of the kind, when the rule names one) reached
    /// the zone, on `square` when one can be named.
    Reached {
        /// The side whose piece reached the zone.
        side: SideId,
        /// The kind the rule names, if it names one.
        kind: Option<KindId>,
        /// The zone.
        zone: ZoneId,
        /// The square reached, when one can be named.
        square: Option<Sq>,
    },
    /// The side is down to `left` pieces.
    ReducedTo {
        /// The side.
        side: SideId,
        /// The pieces it has left.
        left: u16,
    },
}

/// Builds the owned moves of a list.
pub fn moves_of(t: &Tables, list: &MoveList) -> Vec<Move> {
    list.moves
        .iter()
        .map(|m| {
            if m.is_pass() {
                return Move {
                    from: None,
                    path: Vec::new(),
                    captured: Vec::new(),
                    notation: "pass".into(),
                    algebraic: "pass".into(),
                    rec: *m,
                };
            }
            let path: Vec<Sq> = list.path(m).into_iter().map(Sq).collect();
            let captured: Vec<Sq> = list.captured(m).iter().map(|&c| Sq(c)).collect();
            let sep = if captured.is_empty() { "-" } else { "x" };
            let write = |name: &dyn Fn(Sq) -> String| {
                let mut s = name(Sq(m.from));
                for &p in &path {
                    s.push_str(sep);
                    s.push_str(&name(p));
                }
                s
            };
            Move {
                from: Some(Sq(m.from)),
                notation: write(&|s| square_name(t, s)),
                algebraic: write(&|s| algebraic(t, s)),
                path,
                captured,
                rec: *m,
            }
        })
        .collect()
}

/// A game being played.
pub struct Match<'t> {
    t: &'t Tables,
    /// The current position.
    pub pos: Position,
    /// Plies played.
    pub plies: u32,
    seen: HashMap<Position, u32>,
    counters: Vec<u32>,
    gen: Generator,
    list: MoveList,
    legal: Vec<Move>,
    outcome: Option<Outcome>,
    /// States before each played move, for `undo`.
    undo: Vec<Saved>,
    /// Moves taken back, for `redo`.
    redo: Vec<Move>,
    /// The moves played, in order.
    played: Vec<Move>,
    /// Whether `undo`, `redo` and `played` are kept (see
    /// [`Match::without_history`]).
    keep: bool,
}

/// What `undo` restores.
#[derive(Clone, Debug)]
struct Saved {
    pos: Position,
    counters: Vec<u32>,
    outcome: Option<Outcome>,
}

impl<'t> Match<'t> {
    /// A game from a position.
    pub fn new(t: &'t Tables, pos: Position) -> Match<'t> {
        let mut m = Match {
            t,
            pos,
            plies: 0,
            seen: HashMap::new(),
            counters: vec![0; t.game.end.counters().count()],
            gen: Generator::new(),
            list: MoveList::new(),
            legal: Vec::new(),
            outcome: None,
            undo: Vec::new(),
            redo: Vec::new(),
            played: Vec::new(),
            keep: true,
        };
        m.seen.insert(m.pos.clone(), 1);
        m.refresh();
        m
    }

    /// A game from a position that keeps nothing of its past it doesn't
    /// need (for replaying long records in flat memory): no undo, no redo,
    /// no list of the moves played, and of the positions seen only those
    /// the repetition rule may still count (none without such a rule; none
    /// from before a piece left the board, since pieces are never added).
    pub fn without_history(t: &'t Tables, pos: Position) -> Match<'t> {
        let mut m = Match::new(t, pos);
        m.keep = false;
        if t.game.end.repetition().is_none() {
            m.seen.clear();
        }
        m
    }

    /// The moves played so far (none for a match [`Match::without_history`]).
    pub fn played(&self) -> &[Move] {
        &self.played
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some(saved) = self.undo.pop() else {
            return false;
        };
        if let Some(n) = self.seen.get_mut(&self.pos) {
            *n -= 1;
            if *n == 0 {
                self.seen.remove(&self.pos);
            }
        }
        self.pos = saved.pos;
        self.counters = saved.counters;
        self.outcome = saved.outcome;
        self.plies -= 1;
        if let Some(m) = self.played.pop() {
            self.redo.push(m);
        }
        self.refresh();
        true
    }

    /// Plays again the last move taken back; None when there is none.
    pub fn redo(&mut self) -> Option<(Move, Vec<String>)> {
        let m = self.redo.pop()?;
        let redo = std::mem::take(&mut self.redo);
        let events = self.play(&m);
        self.redo = redo;
        Some((m, events))
    }

    /// Whether a position of this game had more captures than the generator
    /// lists (docs/limits.md): its list of legal moves is incomplete.
    pub fn overflowed(&self) -> bool {
        self.gen.overflowed()
    }

    /// The compiled game.
    pub fn tables(&self) -> &'t Tables {
        self.t
    }

    /// The legal moves (empty when the game is over).
    pub fn legal(&self) -> &[Move] {
        &self.legal
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn side_name(&self, s: u8) -> String {
        self.t
            .game
            .sides
            .get(usize::from(s))
            .map_or_else(|| "?".into(), |s| s.name.clone())
    }

    fn refresh(&mut self) {
        let t = self.t;
        self.gen.generate(t, &mut self.pos, &mut self.list);
        self.legal = moves_of(t, &self.list);
        if self.outcome.is_some() {
            self.legal.clear();
            return;
        }
        let reps = self.seen.get(&self.pos).copied().unwrap_or(1);
        let history = History {
            repetitions: reps,
            counters: &self.counters,
            after_move: self.plies > 0,
        };
        let now = self.pos.clone();
        let (gen, pos, list) = (&mut self.gen, &mut self.pos, &self.list);
        let no_legal_moves = list.is_empty();
        let mut own = || end::can_move(t, gen, pos, list);
        let decision = end::judge(t, &now, history, no_legal_moves, &mut own);
        if let Some(d) = decision {
            let reason = end::reason(t, &self.pos, &d);
            self.outcome = Some(match d.winner {
                Some(w) => Outcome::Win {
                    winner: SideId(w),
                    reason,
                },
                None => Outcome::Draw { reason },
            });
        }
        if self.outcome.is_some() {
            self.legal.clear();
        }
    }

    /// Plays a legal move (one of `legal()`); returns the rule events it
    /// fired, in words.
    pub fn play(&mut self, mv: &Move) -> Vec<String> {
        let t = self.t;
        if self.keep {
            self.undo.push(Saved {
                pos: self.pos.clone(),
                counters: self.counters.clone(),
                outcome: self.outcome.clone(),
            });
            self.played.push(mv.clone());
        }
        let pieces_before = if self.keep { 0 } else { self.pieces() };
        self.redo.clear();
        let mut events = Vec::new();
        let mover = self.pos.to_move;
        let rec = mv.rec;
        let flags = u32::from(rec.flags);
        if rec.is_pass() {
            if flags & event::DROP_OUT != 0 {
                events.push(format!(
                    "{} cannot move: loses and leaves the game",
                    self.side_name(mover)
                ));
            } else {
                events.push(format!("{} cannot move: pass", self.side_name(mover)));
            }
        } else {
            let start = self.pos.board[usize::from(rec.from)];
            let start_kind = t.code_kind[usize::from(start)];
            let jumped = capture_order(t, mv);
            for c in jumped
                .iter()
                .copied()
                .chain(mv.captured.iter().copied().filter(|c| !jumped.contains(c)))
            {
                let old = self.pos.board[usize::from(c.0)];
                let kind = t
                    .game
                    .kinds
                    .get(usize::from(t.code_kind[usize::from(old)]))
                    .map_or("piece", |k| k.name.as_str())
                    .to_lowercase();
                let was_jumped = jumped.contains(&c);
                match t.effect {
                    JumpEffect::Convert(_) if was_jumped => events.push(format!(
                        "jump converts the {kind} on {} to the {}",
                        square_name(t, c),
                        self.side_name(mover)
                    )),
                    // Enclosed (custodian capture), not taken by replacement.
                    JumpEffect::Convert(_) if c.0 != rec.to => events.push(format!(
                        "encloses the {kind} on {}: it goes over to the {}",
                        square_name(t, c),
                        self.side_name(mover)
                    )),
                    _ => events.push(format!("captures the {kind} on {}", square_name(t, c))),
                }
            }
            let to = Sq(rec.to);
            let rs = t.code_side[usize::from(rec.result)];
            let rk = t.code_kind[usize::from(rec.result)];
            let kname = |k: u8| {
                t.game
                    .kinds
                    .get(usize::from(k))
                    .map_or_else(|| "?".to_string(), |k| k.name.to_lowercase())
            };
            if rs != mover {
                events.push(format!(
                    "ends on {}, a base of the {}: goes over to them as a {}",
                    square_name(t, to),
                    self.side_name(rs),
                    kname(rk)
                ));
            } else if rk != start_kind {
                events.push(format!(
                    "crowned on {}: becomes a {}",
                    square_name(t, to),
                    kname(rk)
                ));
            }
            // Promotion zones touched in the middle of a capture.
            let promo = usize::from(start) * t.n;
            if let Some(&mid) = mv.path.iter().rev().skip(1).rev().find(|s| {
                t.promo_at
                    .get(promo + usize::from(s.0))
                    .copied()
                    .unwrap_or(false)
            }) {
                let last = events.pop_if(|e| e.starts_with("crowned on"));
                match t.mid_chain {
                    crate::board::game::MidChainCrown::Continue if rk != start_kind => {
                        events.push(format!(
                            "crowned on {} in the middle of the capture: goes on as a {}",
                            square_name(t, mid),
                            kname(rk)
                        ));
                    }
                    _ => {
                        events.push(format!(
                            "touches the promotion zone on {} but must capture on: stays a {}",
                            square_name(t, mid),
                            kname(start_kind)
                        ));
                        events.extend(last);
                    }
                }
            }
            make(t, &mut self.pos, &self.list, &rec);
            if self.pos.board[usize::from(rec.to)] == EMPTY {
                events.push("the piece left the board".into());
            }
            // Counter events.
            for (i, (_, c)) in t.game.end.counters().enumerate() {
                let reset = (flags & c.reset) != 0 || (c.reset_move_of >> start_kind) & 1 == 1;
                self.counters[i] = if reset { 0 } else { self.counters[i] + 1 };
            }
        }
        if rec.is_pass() {
            make(t, &mut self.pos, &self.list, &rec);
            for c in &mut self.counters {
                *c += 1;
            }
        }
        self.plies += 1;
        if !self.keep && self.pieces() < pieces_before {
            // No position from before can come back.
            self.seen.clear();
        }
        if self.keep || t.game.end.repetition().is_some() {
            *self.seen.entry(self.pos.clone()).or_insert(0) += 1;
        }
        self.refresh();
        events
    }

    /// The pieces on the board.
    fn pieces(&self) -> usize {
        self.pos.board.iter().filter(|&&c| c != EMPTY).count()
    }

    /// Finds the legal move a player means by `text`: the full notation
    /// (numeric or algebraic), or start and end alone when only one move
    /// matches. On failure, a plain explanation of which rule forbids it.
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        find_move(self.t, &self.pos, &self.legal, text)
    }
}

/// The jumped squares of a move in the order they were jumped: for each leg
/// of the path, the captured square on the line between its ends (pieces
/// taken otherwise, by replacement or custodian capture, are not in it).
fn capture_order(t: &Tables, mv: &Move) -> Vec<Sq> {
    let info = |s: Sq| {
        t.game
            .squares
            .get(usize::from(s.0))
            .map_or((0, 0), |i| (i32::from(i.file), i32::from(i.rank)))
    };
    let mut out = Vec::new();
    let Some(mut prev) = mv.from else {
        return out;
    };
    for &land in &mv.path {
        let (a, b) = (info(prev), info(land));
        for &c in &mv.captured {
            let p = info(c);
            let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
            let between = (p.0 - a.0) * (p.0 - b.0) <= 0 && (p.1 - a.1) * (p.1 - b.1) <= 0;
            if cross == 0 && between && c != prev && c != land && !out.contains(&c) {
                out.push(c);
            }
        }
        prev = land;
    }
    out
}

/// Finds the legal move meant by `text`, or explains why there is none.
pub fn find_move(t: &Tables, pos: &Position, legal: &[Move], text: &str) -> Result<Move, String> {
    let norm = text.trim().to_lowercase().replace(':', "x");
    if norm.is_empty() {
        return Err("type a move, such as 22-18 or 22x15".into());
    }
    if let Some(m) = legal
        .iter()
        .find(|m| m.notation == norm || m.algebraic == norm)
    {
        return Ok(m.clone());
    }
    // Squares joined by single `-` or `x`: `22x18x`, `-22-18` and `22--18`
    // are not moves.
    if norm.starts_with(['-', 'x'])
        || norm.ends_with(['-', 'x'])
        || norm.contains("--")
        || norm.contains("xx")
        || norm.contains("-x")
        || norm.contains("x-")
    {
        return Err(format!(
            "`{}` is not a move: write squares joined by `-` (a move) or `x` (a capture), such as 22-18 or 22x15",
            crate::shown::shown(text.trim())
        ));
    }
    // Start and end only.
    let parts: Vec<&str> = norm.split(['-', 'x']).collect();
    let squares: Result<Vec<Sq>, _> = parts
        .iter()
        .map(|p| super::position::parse_square(t, p))
        .collect();
    let squares = match squares {
        Ok(s) if !s.is_empty() => s,
        Ok(_) => return Err(format!("`{}` is not a move", crate::shown::shown(text))),
        Err(e) => return Err(e.to_string()),
    };
    let from = squares[0];
    let to = squares.last().copied();
    let matching: Vec<&Move> = legal
        .iter()
        .filter(|m| {
            m.from == Some(from)
                && (squares.len() == 1 || m.path.last().copied() == to)
                && (squares.len() <= 2 || m.path.starts_with(&squares[1..]))
        })
        .collect();
    if matching.len() == 1 {
        return Ok(matching[0].clone());
    }
    let list = |ms: &[&Move]| {
        ms.iter()
            .map(|m| m.notation.clone())
            .collect::<Vec<_>>()
            .join(" or ")
    };
    if matching.len() > 1 {
        return Err(format!("`{text}` is ambiguous: {}", list(&matching)));
    }
    let alg = parts
        .iter()
        .any(|p| p.starts_with(|c: char| c.is_ascii_alphabetic()));
    let attempt = Attempt {
        capture: norm.contains('x') || squares.len() > 2,
        alg,
    };
    Err(explain(t, pos, legal, from, &squares, attempt))
}

/// How a move that is not legal was typed.
#[derive(Clone, Copy)]
struct Attempt {
    /// Written as a capture (`x`, or more than two squares).
    capture: bool,
    /// Written with algebraic squares: the answer uses them too.
    alg: bool,
}

impl Attempt {
    fn square(self, t: &Tables, sq: Sq) -> String {
        if self.alg {
            super::position::algebraic(t, sq)
        } else {
            square_name(t, sq)
        }
    }

    fn notation(self, m: &Move) -> String {
        if self.alg {
            m.algebraic.clone()
        } else {
            m.notation.clone()
        }
    }
}

/// The squares strictly between `a` and `b` when they lie on one line
/// (along a row, a column or a diagonal of the board's geometry), nearest
/// `a` first; `None` when they don't.
fn between(t: &Tables, a: Sq, b: Sq) -> Option<Vec<Sq>> {
    let g = &t.game;
    let pa = g.squares.get(usize::from(a.0))?;
    let pb = g.squares.get(usize::from(b.0))?;
    let (dx, dy) = (
        i32::from(pb.file) - i32::from(pa.file),
        i32::from(pb.rank) - i32::from(pa.rank),
    );
    let n = gcd(dx.unsigned_abs(), dy.unsigned_abs()) as i32;
    if n == 0 {
        return None;
    }
    let unit = (dx / n, dy / n);
    if !g
        .dirs
        .iter()
        .any(|&(x, y)| (i32::from(x), i32::from(y)) == unit)
    {
        return None;
    }
    Some(
        (1..n)
            .filter_map(|i| {
                g.square(
                    i32::from(pa.file) + unit.0 * i,
                    i32::from(pa.rank) + unit.1 * i,
                )
            })
            .collect(),
    )
}

/// `the white man on 22`.
fn piece_words(t: &Tables, pos: &Position, sq: Sq, name: &str) -> String {
    match pos.piece(t, sq) {
        Some((s, k)) => format!(
            "the {} {} on {name}",
            t.game
                .sides
                .get(usize::from(s.0))
                .map_or("?", |s| s.name.as_str()),
            t.game
                .kinds
                .get(usize::from(k.0))
                .map_or_else(|| "piece".to_string(), |k| k.name.to_lowercase())
        ),
        None => format!("the square {name}"),
    }
}

/// Why no legal move starts at `from` and visits `squares`.
fn explain(
    t: &Tables,
    pos: &Position,
    legal: &[Move],
    from: Sq,
    squares: &[Sq],
    attempt: Attempt,
) -> String {
    let g = &t.game;
    let mover = pos.to_move;
    let all = |ms: Vec<&Move>| {
        let v: Vec<String> = ms.iter().take(6).map(|m| attempt.notation(m)).collect();
        let more = if ms.len() > 6 { " ..." } else { "" };
        format!("{}{more}", v.join(" or "))
    };
    let square_name = |t: &Tables, sq: Sq| attempt.square(t, sq);
    if legal.is_empty() {
        return "the game is over: there are no legal moves".into();
    }
    match pos.piece(t, from) {
        None => {
            return format!("there is no piece on {}", square_name(t, from));
        }
        Some((s, _)) if s.0 != mover => {
            return format!(
                "the piece on {} is {}; {} to move",
                square_name(t, from),
                crate::words::possessive(
                    g.sides
                        .get(usize::from(s.0))
                        .map_or("?", |s| s.name.as_str())
                ),
                g.sides
                    .get(usize::from(mover))
                    .map_or("?", |s| s.name.as_str())
            );
        }
        _ => {}
    }
    let captures: Vec<&Move> = legal.iter().filter(|m| m.is_capture()).collect();
    if t.any_limits && squares.len() >= 2 {
        if let Some(why) = limit_reason(t, pos, from, squares) {
            return format!(
                "{why}: the {} on {} can play {}",
                kind_name(t, pos, from),
                square_name(t, from),
                all(legal.iter().filter(|m| m.from == Some(from)).collect())
            );
        }
    }
    if t.use_criteria && squares.len() >= 2 && !captures.is_empty() {
        if let Some(why) = precedence_reason(t, pos, from, squares) {
            return format!("{why}: {}", all(captures));
        }
    }
    let from_here: Vec<&Move> = legal.iter().filter(|m| m.from == Some(from)).collect();
    // A capture typed over squares that hold nothing to take.
    if attempt.capture {
        if let Some(over) = squares.get(1).and_then(|&to| between(t, from, to)) {
            let takes = |c: &Sq| pos.piece(t, *c).is_some_and(|(s, _)| s.0 != mover);
            if !over.is_empty() && !over.iter().any(takes) {
                let what = match over.iter().find(|c| pos.piece(t, **c).is_some()) {
                    Some(&own) => format!(
                        "{} can't be taken: it is {} own",
                        piece_words(t, pos, own, &square_name(t, own)),
                        crate::words::possessive(
                            g.sides
                                .get(usize::from(mover))
                                .map_or("?", |s| s.name.as_str())
                        )
                    ),
                    None if over.len() == 1 => {
                        format!("there is no piece to take on {}", square_name(t, over[0]))
                    }
                    None => format!(
                        "there is no piece to take between {} and {}",
                        square_name(t, from),
                        square_name(t, squares[1])
                    ),
                };
                let then = if !captures.is_empty() {
                    format!("; the captures are {}", all(captures))
                } else if from_here.is_empty() {
                    format!("; legal moves: {}", all(legal.iter().collect()))
                } else {
                    format!(
                        "; the {} on {} can play {}",
                        kind_name(t, pos, from),
                        square_name(t, from),
                        all(from_here)
                    )
                };
                return format!("{what}{then}");
            }
        }
    }
    if !captures.is_empty() && t.capture_compulsory {
        let most = captures.iter().map(|m| m.captured.len()).max().unwrap_or(0);
        if t.capture_most && most > 1 && attempt.capture {
            return format!("must take the most pieces: {} takes {most}", all(captures));
        }
        return format!("a capture is compulsory: {}", all(captures));
    }
    if let Some(&to) = squares.get(1) {
        if let Some(code) = pos.board.get(usize::from(to.0)) {
            if *code != EMPTY {
                return format!("{} is occupied", square_name(t, to));
            }
        }
        if t.no_stop.get(usize::from(to.0)).copied().unwrap_or(false) {
            return format!("{} is neutral: no piece may stop there", square_name(t, to));
        }
        // A piece in the way of a long move.
        if let Some(over) = between(t, from, to) {
            if let Some(&block) = over.iter().find(|c| pos.piece(t, **c).is_some()) {
                if direction_hint(t, pos, from, to).is_none() && !attempt.capture {
                    let mut way = format!(
                        "the way from {} to {} is blocked by {}",
                        square_name(t, from),
                        square_name(t, to),
                        piece_words(t, pos, block, &square_name(t, block))
                    );
                    if !from_here.is_empty() {
                        way.push_str(&format!(
                            ": the {} on {} can play {}",
                            kind_name(t, pos, from),
                            square_name(t, from),
                            all(from_here.clone())
                        ));
                    }
                    return way;
                }
            }
        }
    }
    if from_here.is_empty() {
        return format!(
            "the piece on {} has no legal move; legal moves: {}",
            square_name(t, from),
            all(legal.iter().collect())
        );
    }
    let kind = pos
        .piece(t, from)
        .and_then(|(_, k)| g.kinds.get(usize::from(k.0)))
        .map_or("piece", |k| k.name.as_str());
    let kind = kind.to_lowercase();
    match squares
        .get(1)
        .and_then(|&to| direction_hint(t, pos, from, to))
    {
        Some(h) => format!(
            "a {kind} {h}: the {kind} on {} can play {}",
            square_name(t, from),
            all(from_here)
        ),
        None => format!(
            "a {kind} on {} can't move there; its legal moves: {}",
            square_name(t, from),
            all(from_here)
        ),
    }
}

/// The lower-case name of the kind of the piece on `sq`.
fn kind_name(t: &Tables, pos: &Position, sq: Sq) -> String {
    pos.piece(t, sq)
        .and_then(|(_, k)| t.game.kinds.get(usize::from(k.0)))
        .map_or_else(|| "piece".to_string(), |k| k.name.to_lowercase())
}

/// When a capture from `from` along `squares` would be legal without the
/// limits of the jump lines: the limit that forbids it, in words.
fn limit_reason(t: &Tables, pos: &Position, from: Sq, squares: &[Sq]) -> Option<String> {
    let mut free = t.clone();
    free.any_limits = false;
    let mut gen = Generator::new();
    let mut p = pos.clone();
    let mut list = MoveList::new();
    gen.generate(&free, &mut p, &mut list);
    let to = squares.last().copied();
    let found = moves_of(&free, &list).into_iter().find(|m| {
        m.from == Some(from)
            && m.is_capture()
            && m.path.last().copied() == to
            && (squares.len() <= 2 || m.path.starts_with(&squares[1..]))
    })?;
    let code = *pos.board.get(usize::from(from.0))?;
    let at = |s: Sq| {
        t.game
            .squares
            .get(usize::from(s.0))
            .map(|i| (i32::from(i.file), i32::from(i.rank)))
    };
    let kind = kind_name(t, pos, from);
    let mut prev = from;
    let mut last_dir: Option<(i32, i32)> = None;
    for &land in &found.path {
        let (a, b) = (at(prev)?, at(land)?);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let n = gcd(dx.unsigned_abs(), dy.unsigned_abs()).max(1) as i32;
        let unit = (dx / n, dy / n);
        let d = t
            .game
            .dirs
            .iter()
            .position(|&(x, y)| (i32::from(x), i32::from(y)) == unit)
            .and_then(|d| u8::try_from(d).ok());
        let flags = d.map_or(0, |d| t.limits(code, d));
        let before = t.game.square(b.0 - unit.0, b.1 - unit.1);
        if flags & crate::vocab::limit::LAND_BEYOND != 0
            && !before.is_some_and(|s| found.captured.contains(&s))
        {
            return Some(format!(
                "a {kind} lands on the square just beyond the piece it takes"
            ));
        }
        if flags & crate::vocab::limit::NO_REVERSE != 0 && last_dir == Some((-unit.0, -unit.1)) {
            return Some(format!(
                "a {kind} may not turn straight back between two jumps"
            ));
        }
        if flags & crate::vocab::limit::MUST_CONTINUE != 0 {
            return Some(format!(
                "a {kind} must land where it can capture on, when it can"
            ));
        }
        last_dir = Some(unit);
        prev = land;
    }
    None
}

/// When a capture from `from` along `squares` exists but another is preferred
/// by the precedence criteria: the first criterion it loses by, in words.
fn precedence_reason(t: &Tables, pos: &Position, from: Sq, squares: &[Sq]) -> Option<String> {
    let mut gen = Generator::new();
    gen.all_captures = true;
    let mut p = pos.clone();
    let mut list = MoveList::new();
    gen.generate_side(t, &mut p, pos.to_move, &mut list);
    let k = t.criteria.len();
    let scores = gen.scores();
    if k == 0 {
        return None;
    }
    let best = scores.chunks(k).max()?;
    let to = squares.last().copied();
    let candidate = list.moves.iter().enumerate().find_map(|(i, m)| {
        let path: Vec<Sq> = list.path(m).into_iter().map(Sq).collect();
        let matches = m.from == from.0
            && m.cap_len > 0
            && (path.last().copied() == to)
            && (squares.len() <= 2 || path.starts_with(&squares[1..]));
        matches.then(|| scores.get(i * k..(i + 1) * k)).flatten()
    })?;
    let j = (0..k).find(|&j| candidate.get(j) < best.get(j))?;
    let name = |kind: crate::board::game::KindId| {
        t.game
            .kinds
            .get(usize::from(kind.0))
            .map_or_else(|| "piece".to_string(), |k| k.name.to_lowercase())
    };
    Some(match t.criteria.get(j)? {
        Criterion::MostPieces => "a capture that takes more pieces takes precedence".to_string(),
        Criterion::MostValue => "a capture of a higher value takes precedence".to_string(),
        Criterion::MostOf(kind) => format!(
            "a capture that takes more pieces of the kind {} takes precedence",
            name(*kind)
        ),
        Criterion::FewestOf(kind) => format!(
            "a capture that takes fewer pieces of the kind {} takes precedence",
            name(*kind)
        ),
        Criterion::By(kind) => format!("a capture with a {} takes precedence", name(*kind)),
        Criterion::EarliestOf(kind) => format!(
            "a capture that takes a {} earlier takes precedence",
            name(*kind)
        ),
    })
}

/// Why a piece can't go from `from` to `to` by its kind's moves, in words:
/// "moves forwards only", "moves one square at a time", "does not move that way".
fn direction_hint(t: &Tables, pos: &Position, from: Sq, to: Sq) -> Option<String> {
    let g = &t.game;
    let code = usize::from(*pos.board.get(usize::from(from.0))?);
    let (side, _) = pos.piece(t, from)?;
    let a = g.squares.get(usize::from(from.0))?;
    let b = g.squares.get(usize::from(to.0))?;
    let (dx, dy) = (
        i32::from(b.file) - i32::from(a.file),
        i32::from(b.rank) - i32::from(a.rank),
    );
    let n = gcd(dx.unsigned_abs(), dy.unsigned_abs()).max(1) as i32;
    let unit = (dx / n, dy / n);
    let m = t.moves.get(code)?;
    let vec_of = |d: &u8| {
        g.dirs
            .get(usize::from(*d))
            .map_or((0, 0), |&(x, y)| (i32::from(x), i32::from(y)))
    };
    let steps: Vec<(i32, i32)> = m.step.iter().map(vec_of).collect();
    let slides: Vec<(i32, i32)> = m.slide.iter().map(vec_of).collect();
    if slides.contains(&unit) {
        return None;
    }
    if steps.contains(&unit) && n > 1 {
        return Some("moves one square at a time".into());
    }
    if !steps.contains(&unit) && !steps.is_empty() {
        let f = g.sides.get(usize::from(side.0))?.forward;
        let fwd = (i32::from(f.0), i32::from(f.1));
        let all_forward = steps.iter().all(|s| s.0 * fwd.0 + s.1 * fwd.1 > 0);
        if all_forward && unit.0 * fwd.0 + unit.1 * fwd.1 <= 0 {
            return Some("moves forwards only".into());
        }
        return Some("does not move that way".into());
    }
    None
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
