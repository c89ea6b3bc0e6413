//! A game in progress: the position, its history, the draw counters, the
//! legal moves as owned `Move`s with notation, the rule events each move
//! fires (`Event`, as data), and the outcome.

use std::collections::HashMap;

use super::end::{self, History};
use super::movegen::{make, Generator, MoveList, MoveRec};
use super::position::{algebraic, square_name, Position};
use super::refusal::MoveError;
use super::tables::{Tables, EMPTY};
use crate::board::game::{event, JumpEffect, KindId, SideId, Sq, ZoneId};

/// A legal move, owned, with its notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// Start square (None for a pass).
    pub from: Option<Sq>,
    /// Squares visited after the start, in order.
    pub path: Vec<Sq>,
    /// Captured squares, sorted.
    pub captured: Vec<Sq>,
    /// `22x15x6`, `c3-d4`, `pass`, `d3` (a placement).
    pub notation: String,
    /// The same move in algebraic notation.
    pub algebraic: String,
    rec: MoveRec,
}

impl Move {
    /// Whether the move places a piece from the hand (on `path[0]`).
    pub fn is_placement(&self) -> bool {
        self.rec.is_place()
    }

    /// Whether the move is a pass.
    pub fn is_pass(&self) -> bool {
        self.rec.is_pass()
    }

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
    /// The side's last piece of the kind was captured (a `captured`
    /// rule).
    Captured {
        /// The side that lost it.
        side: SideId,
        /// The kind.
        kind: KindId,
    },
    /// The side is down to `left` pieces.
    ReducedTo {
        /// The side.
        side: SideId,
        /// The pieces it has left.
        left: u16,
    },
    /// No side can move, and the pieces were counted (a `most-pieces`
    /// rule): the side the rule concerns, with the most pieces, or None
    /// when the counts are equal.
    MostPieces {
        /// The side with the most pieces (None: equal counts).
        side: Option<SideId>,
        /// Its pieces (with equal counts, each side's).
        count: u16,
    },
    /// The side has `length` pieces in a row from `square` (a `line` rule).
    Line {
        /// The side.
        side: SideId,
        /// The first square of the row.
        square: Sq,
        /// How many in a row.
        length: u16,
    },
}

/// A rule event of a played move, as data: what the move took, converted,
/// crowned or passed, with the squares, sides and kinds it concerns
/// (`narrate::board::describe` puts it in words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The side cannot move and passes.
    Pass {
        /// The side that passed.
        side: SideId,
    },
    /// The side cannot move: it loses and leaves the game.
    DropOut {
        /// The side that left.
        side: SideId,
    },
    /// The move made another side lose while the others play on (sides
    /// that lose drop out): it leaves the game, for the reason given.
    Eliminated {
        /// The side that left.
        side: SideId,
        /// Why (`LastPiece`, `ReducedTo`, `Reached`).
        reason: EndReason,
    },
    /// A piece of the kind was captured on the square.
    Capture {
        /// The kind of the piece taken.
        kind: KindId,
        /// Where it stood.
        square: Sq,
    },
    /// In a game of columns: a column of `height` pieces moved to the
    /// square (a lone piece's move has no such event).
    ColumnMoves {
        /// Where it ends its move.
        square: Sq,
        /// Its pieces, before the move takes any.
        height: u16,
    },
    /// In a game of columns: the top piece of the column on the square was
    /// taken and put under the jumping column; `left` pieces stay there.
    TakeTop {
        /// The kind of the piece taken.
        kind: KindId,
        /// Where it stood.
        square: Sq,
        /// The pieces left on the square.
        left: u16,
    },
    /// In a game of columns: the piece that came up on a jumped column is
    /// free again, and with it the column is its side's.
    Release {
        /// Where it stands.
        square: Sq,
        /// Its side.
        side: SideId,
        /// Its kind.
        kind: KindId,
    },
    /// A jumped piece was converted to the side of the mover.
    JumpConvert {
        /// The kind of the piece converted.
        kind: KindId,
        /// Where it stands.
        square: Sq,
        /// The side it goes over to.
        side: SideId,
    },
    /// An enclosed piece (custodian capture) goes over to the mover's side.
    Enclose {
        /// The kind of the piece enclosed.
        kind: KindId,
        /// Where it stands.
        square: Sq,
        /// The side it goes over to.
        side: SideId,
    },
    /// A piece next to where the moved (or placed) piece arrived goes over
    /// to the mover's side (`capture neighbours`).
    WinOver {
        /// The kind of the piece won over.
        kind: KindId,
        /// Where it stands.
        square: Sq,
        /// The side it goes over to.
        side: SideId,
    },
    /// The moved piece ended on a base of another side and went over to it.
    BaseConvert {
        /// The square it ended on.
        square: Sq,
        /// The side it went over to.
        side: SideId,
        /// The kind it became.
        kind: KindId,
    },
    /// The moved piece was crowned where it ended.
    Promote {
        /// The square it ended on.
        square: Sq,
        /// The kind it became.
        kind: KindId,
    },
    /// The moved piece was crowned in the middle of its capture and went on
    /// as the new kind.
    PromoteMidCapture {
        /// The square of the promotion zone.
        square: Sq,
        /// The kind it became.
        kind: KindId,
    },
    /// The moved piece touched the promotion zone in the middle of its
    /// capture but had to capture on, and stays what it was.
    PromotionDeferred {
        /// The square of the promotion zone.
        square: Sq,
        /// The kind it stays.
        kind: KindId,
    },
    /// The moved piece left the board.
    LeftBoard,
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
            if m.is_place() {
                // A placement is written as its square: `d3`.
                return Move {
                    from: None,
                    notation: square_name(t, Sq(m.to)),
                    algebraic: algebraic(t, Sq(m.to)),
                    path,
                    captured,
                    rec: *m,
                };
            }
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
    pos: Position,
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
    /// The side the last move put out of play (sides that lose drop out).
    dropped: Option<u8>,
}

/// What `undo` restores.
#[derive(Clone, Debug)]
struct Saved {
    pos: Position,
    counters: Vec<u32>,
    outcome: Option<Outcome>,
    dropped: Option<u8>,
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
            dropped: None,
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

    /// The current position.
    #[inline]
    pub fn pos(&self) -> &Position {
        &self.pos
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
        self.dropped = saved.dropped;
        self.plies -= 1;
        if let Some(m) = self.played.pop() {
            self.redo.push(m);
        }
        self.refresh();
        true
    }

    /// Plays again the last move taken back; None when there is none.
    pub fn redo(&mut self) -> Option<(Move, Vec<Event>)> {
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
            dropped: self.dropped,
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
    /// fired, in order (`narrate::board::describe` puts each in words).
    pub fn play(&mut self, mv: &Move) -> Vec<Event> {
        let t = self.t;
        if self.keep {
            self.undo.push(Saved {
                pos: self.pos.clone(),
                counters: self.counters.clone(),
                outcome: self.outcome.clone(),
                dropped: self.dropped,
            });
            self.played.push(mv.clone());
        }
        let pieces_before = if self.keep { 0 } else { self.pieces() };
        self.redo.clear();
        let mut events = Vec::new();
        let before = end::in_play_mask(t, &self.pos);
        let mover = self.pos.to_move;
        let side = SideId(mover);
        let rec = mv.rec;
        let flags = u32::from(rec.flags);
        if rec.is_pass() {
            if flags & event::DROP_OUT != 0 {
                events.push(Event::DropOut { side });
            } else {
                events.push(Event::Pass { side });
            }
        } else {
            // A placed piece starts as the result's kind, from the hand.
            let start = if rec.is_place() && !rec.is_removal() {
                rec.result
            } else {
                self.pos.board[usize::from(rec.from)]
            };
            let start_kind = t.code_kind[usize::from(start)];
            let jumped = if t.stacks {
                let height = self.pos.height(Sq(rec.from));
                if height > 1 && !rec.is_place() {
                    events.push(Event::ColumnMoves {
                        square: Sq(rec.to),
                        height: u16::try_from(height).unwrap_or(u16::MAX),
                    });
                }
                events.extend(column_events(t, &self.pos, mv));
                Vec::new()
            } else if t.any_jumps {
                capture_order(t, mv)
            } else {
                // No piece jumps: a piece on the way of a long step (two
                // squares away) was won over, not jumped.
                Vec::new()
            };
            for c in jumped.iter().copied().chain(
                mv.captured
                    .iter()
                    .copied()
                    .filter(|c| !t.stacks && !jumped.contains(c)),
            ) {
                let old = self.pos.board[usize::from(c.0)];
                let kind = KindId(t.code_kind[usize::from(old)]);
                let was_jumped = jumped.contains(&c);
                events.push(match t.effect {
                    JumpEffect::Convert(_) if was_jumped => Event::JumpConvert {
                        kind,
                        square: c,
                        side,
                    },
                    // Next to the arrival square (`capture neighbours`).
                    JumpEffect::Convert(_) if t.neighbour_of(mover, rec.to, c.0) => {
                        Event::WinOver {
                            kind,
                            square: c,
                            side,
                        }
                    }
                    // Enclosed (custodian capture), not taken by replacement.
                    JumpEffect::Convert(_) if c.0 != rec.to => Event::Enclose {
                        kind,
                        square: c,
                        side,
                    },
                    _ => Event::Capture { kind, square: c },
                });
            }
            let to = Sq(rec.to);
            let rs = t.code_side[usize::from(rec.result)];
            let rk = t.code_kind[usize::from(rec.result)];
            if rec.is_removal() {
                // An opening move: the piece leaves the board (below).
            } else if rs != mover {
                events.push(Event::BaseConvert {
                    square: to,
                    side: SideId(rs),
                    kind: KindId(rk),
                });
            } else if rk != start_kind {
                events.push(Event::Promote {
                    square: to,
                    kind: KindId(rk),
                });
            }
            // Promotion zones touched in the middle of a capture.
            let promo = usize::from(start) * t.n;
            if let Some(&mid) = mv.path.iter().rev().skip(1).rev().find(|s| {
                t.promo_at
                    .get(promo + usize::from(s.0))
                    .copied()
                    .unwrap_or(false)
            }) {
                let last = events.pop_if(|e| matches!(e, Event::Promote { .. }));
                match t.mid_chain {
                    crate::board::game::MidChainCrown::Continue if rk != start_kind => {
                        events.push(Event::PromoteMidCapture {
                            square: mid,
                            kind: KindId(rk),
                        });
                    }
                    _ => {
                        events.push(Event::PromotionDeferred {
                            square: mid,
                            kind: KindId(start_kind),
                        });
                        events.extend(last);
                    }
                }
            }
            make(t, &mut self.pos, &self.list, &rec);
            let gone = before & !end::in_play_mask(t, &self.pos);
            for s in (0..t.nsides).filter(|&s| gone & (1 << s) != 0) {
                events.push(Event::Eliminated {
                    side: SideId(s as u8),
                    reason: end::why_out(t, &self.pos, s, true),
                });
            }
            if self.pos.board[usize::from(rec.to)] == EMPTY {
                events.push(Event::LeftBoard);
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
        self.dropped = end::dropped(t, before, &self.pos);
        self.plies += 1;
        if !self.keep && !t.stacks && self.pieces() < pieces_before {
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
    /// matches. On failure, which rule forbids it
    /// (`narrate::board::refusal` puts it in words).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        super::refusal::find_move(self.t, &self.pos, &self.legal, text)
    }
}

/// The events of a move's captures in a game of columns, in the order
/// taken: a lone piece captured, or a column's top piece taken and the piece
/// that comes up freed (the columns followed through the chain).
fn column_events(t: &Tables, pos: &Position, mv: &Move) -> Vec<Event> {
    let mut columns: Vec<(Sq, Vec<u8>)> = Vec::new();
    let mut out = Vec::new();
    for &c in &mv.captured {
        let i = match columns.iter().position(|(s, _)| *s == c) {
            Some(i) => i,
            None => {
                let mut col: Vec<u8> = pos.under.get(usize::from(c.0)).cloned().unwrap_or_default();
                col.push(pos.board.get(usize::from(c.0)).copied().unwrap_or(EMPTY));
                columns.push((c, col));
                columns.len() - 1
            }
        };
        let col = &mut columns[i].1;
        let Some((_, kind)) = col.pop().and_then(|code| t.piece_of(code)) else {
            continue;
        };
        match col.last().and_then(|&code| t.piece_of(code)) {
            None => out.push(Event::Capture { kind, square: c }),
            Some((side, up)) => {
                out.push(Event::TakeTop {
                    kind,
                    square: c,
                    left: u16::try_from(col.len()).unwrap_or(u16::MAX),
                });
                out.push(Event::Release {
                    square: c,
                    side,
                    kind: up,
                });
            }
        }
    }
    out
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
