//! `BoardState`: the board games of the engine as a `GameState`. It keeps
//! what `Match` keeps (the draw counters, the repetitions) in fixed buffers,
//! so that playing a move allocates nothing once the buffers are warm, and it
//! ends a game exactly where `Match` does.
//!
//! `BoardGame` holds what is computed once per game: the Zobrist keys and the
//! evaluation tables (material per piece code, advancement per code and
//! square).

use super::eval::ADVANCEMENT;
use super::state::{Conversion, Counted, EndCause, Ending, Features, GameState};
use super::zobrist::Zobrist;
use crate::board::end::{self, History};
use crate::board::game::{event, EndCondition, JumpEffect, Sq, Verdict};
use crate::board::kernel::{KMove, KPos, Kernel, LPos, Path, PlayoutHost, PlayoutScratch, Word};
use crate::board::tables::{EMPTY, NONE};
use crate::board::{make, Generator, Move, MoveList, Position, Tables};
use crate::rng::Rng;

/// The rule events a board game counts, in the order of `event_counts`,
/// its conversions named by what wins pieces over in it.
const fn events_by(by: Conversion) -> [Counted; 7] {
    [
        Counted::Captures,
        Counted::PiecesRemoved,
        Counted::Conversions(by),
        Counted::PiecesWonOver,
        Counted::ZoneConversions,
        Counted::Promotions,
        Counted::Passes,
    ]
}
const BY_JUMP: [Counted; 7] = events_by(Conversion::Jump);
const BY_CUSTODIAN: [Counted; 7] = events_by(Conversion::Custodian);
const BY_NEIGHBOURS: [Counted; 7] = events_by(Conversion::Neighbours);
const BY_SEVERAL: [Counted; 7] = events_by(Conversion::Several);

/// The rule events a board game of the tables counts, in the order of
/// `event_counts`.
pub fn events(t: &Tables) -> &'static [Counted] {
    match conversion(t) {
        Conversion::Jump => &BY_JUMP,
        Conversion::Custodian => &BY_CUSTODIAN,
        Conversion::Neighbours => &BY_NEIGHBOURS,
        Conversion::Several => &BY_SEVERAL,
    }
}

/// What wins pieces over in a game whose captures convert: jumps, the
/// enclosure of lines (`capture custodian`), the enemies next to the
/// square moved to (`capture neighbours`), or several of these. A game
/// whose captures remove (or that can't capture) keeps the name of jumps.
fn conversion(t: &Tables) -> Conversion {
    if !matches!(t.effect, JumpEffect::Convert(_)) {
        return Conversion::Jump;
    }
    let custodian = t.custodian.iter().any(|d| !d.is_empty());
    let neighbours = t.neighbours.iter().any(|d| !d.is_empty());
    match (t.any_jumps, custodian, neighbours) {
        (_, false, false) => Conversion::Jump,
        (false, true, false) => Conversion::Custodian,
        (false, false, true) => Conversion::Neighbours,
        _ => Conversion::Several,
    }
}
const CAPTURES: usize = 0;
const REMOVED: usize = 1;
const CONVERSIONS: usize = 2;
const WON_OVER: usize = 3;
const ZONE_CONVERSIONS: usize = 4;
const PROMOTIONS: usize = 5;
const PASSES: usize = 6;

/// The longest game, in plies, when `BoardGame::new` is not told otherwise:
/// a game that reaches it is drawn (`ply limit`).
pub const DEFAULT_MAX_PLIES: u32 = 1000;

/// What the agents compute once per game.
#[derive(Clone, Debug)]
pub struct BoardGame<'t> {
    /// The engine tables.
    pub t: &'t Tables,
    zobrist: Zobrist,
    /// Material value per piece code.
    value: Vec<f64>,
    /// `advance[code * n + sq]`: the advancement of a piece of `code` on `sq`.
    advance: Vec<f64>,
    max_plies: u32,
    /// The draw counters' rules, in the order of `counters`.
    counter_rules: Vec<CounterRule>,
    /// The fewest occurrences of a position that a repetition rule ends
    /// the game on (`u32::MAX`: none).
    repetition: u32,
    /// For random playouts on the game's kernel, when it has one.
    kernel: Option<Box<KernelKeys>>,
}

/// What resets a draw counter, and its limit.
#[derive(Clone, Copy, Debug)]
struct CounterRule {
    reset: u32,
    reset_move_of: u32,
    plies: u32,
}

/// The Zobrist keys by the kernel's bits, and which quiet moves can't be
/// undone.
#[derive(Clone, Debug)]
struct KernelKeys {
    /// `piece[side][kind][bit]`.
    piece: [[[u64; 128]; 2]; 2],
    side: [u64; 2],
    one_way: [[bool; 2]; 2],
    /// The kind a captured piece becomes on the capturing side (captures
    /// convert), or None (captured pieces are removed).
    convert: Option<usize>,
    /// Pieces can be won over (captures that convert, triggers): then only
    /// a removal starts the repetition history again, as in `play`.
    wins_over: bool,
    /// Playouts go through the kernel (tests switch it off).
    on: bool,
}

impl<'t> BoardGame<'t> {
    /// The per-game tables, with the default ply limit.
    pub fn new(t: &'t Tables) -> BoardGame<'t> {
        BoardGame::with_max_plies(t, DEFAULT_MAX_PLIES)
    }

    /// The per-game tables; a game is drawn after `max_plies` plies.
    pub fn with_max_plies(t: &'t Tables, max_plies: u32) -> BoardGame<'t> {
        let ncodes = 1 + t.nsides * t.nkinds;
        let mut value = vec![0.0; ncodes];
        for (code, v) in value.iter_mut().enumerate().skip(1) {
            let k = usize::from(t.code_kind[code]);
            *v = t.game.kinds.get(k).map_or(1.0, |k| f64::from(k.value));
        }
        let mut advance = vec![0.0; ncodes * t.n];
        for code in 1..ncodes {
            let promo = usize::from(t.promo_to[code]);
            if promo == 0 {
                continue;
            }
            let gain = value[promo] - value[code];
            if gain <= 0.0 {
                continue;
            }
            let dist = distance(t, code as u8, |sq| {
                t.promo_at.get(code * t.n + sq).copied().unwrap_or(false)
            });
            add_closeness(&mut advance[code * t.n..(code + 1) * t.n], &dist, gain);
        }
        // The evaluation follows the file's goal: where losing pieces wins
        // (`end no-pieces win`), material and promotions count against a
        // side; a `reach` rule makes nearness to its zone worth a man.
        let sign = material_sign(t);
        for v in value.iter_mut().chain(advance.iter_mut()) {
            *v *= sign;
        }
        for (i, rule) in t.game.end.rules.iter().enumerate() {
            let worth = match rule.verdict {
                Verdict::Win => GOAL / ADVANCEMENT,
                Verdict::Lose => -GOAL / ADVANCEMENT,
                _ => continue,
            };
            for code in 1..ncodes {
                let side = usize::from(t.code_side[code]);
                let Some((squares, codes)) = t.end.reach_of(i, side, t.n) else {
                    continue;
                };
                if !codes.contains(&(code as u8)) {
                    continue;
                }
                let dist = distance(t, code as u8, |sq| {
                    squares.get(sq).copied().unwrap_or(false)
                });
                add_closeness(&mut advance[code * t.n..(code + 1) * t.n], &dist, worth);
            }
        }
        let zobrist = Zobrist::new(t);
        let counter_rules = t
            .game
            .end
            .counters()
            .map(|(_, c)| CounterRule {
                reset: c.reset,
                reset_move_of: c.reset_move_of,
                plies: c.plies,
            })
            .collect();
        let repetition = t
            .game
            .end
            .rules
            .iter()
            .filter_map(|r| match r.condition {
                EndCondition::Repetition(n) => Some(n),
                _ => None,
            })
            .min()
            .unwrap_or(u32::MAX);
        let kernel = kernel_keys(t, &zobrist);
        BoardGame {
            t,
            zobrist,
            value,
            advance,
            max_plies,
            counter_rules,
            repetition,
            kernel,
        }
    }

    /// Whether random playouts go through the game's kernel when it has
    /// one (on by default; both paths play the same games).
    pub fn use_kernel(&mut self, on: bool) {
        if let Some(k) = &mut self.kernel {
            k.on = on;
        }
    }

    /// The state at a position, with no history before it.
    pub fn state(&self, pos: Position) -> BoardState<'_> {
        BoardState::new(self, pos)
    }

    /// The state at the start position.
    pub fn start(&self) -> BoardState<'_> {
        BoardState::new(self, Position::start(self.t))
    }

    /// The state after `moves` (legal moves of a `Match`, in order) from
    /// `pos`: the history that the draw rules look at included.
    pub fn replay(&self, pos: Position, moves: &[Move]) -> BoardState<'_> {
        let mut s = BoardState::new(self, pos);
        for m in moves {
            match s.index_of(m) {
                Some(i) => s.play(i),
                None => break,
            }
        }
        s
    }
}

/// The kernel's Zobrist keys, when the game has a kernel (for perft and
/// playouts, or for playouts only).
fn kernel_keys(t: &Tables, z: &Zobrist) -> Option<Box<KernelKeys>> {
    match t.path() {
        Path::Jumps(k) => keys_of(t, z, k.wins_over(), |s, kind| k.one_way(s, kind)),
        Path::WideJumps(k) => keys_of(t, z, k.wins_over(), |s, kind| k.one_way(s, kind)),
        Path::Steps(k) => keys_of(t, z, false, |s, kind| k.one_way(s, kind)),
        // Pieces are won over: only a removal (none here) starts the
        // history again.
        Path::Flips(k) => keys_in(t, z, k.layout(), true, |_, _| false),
        // Slides go both ways: only a capture starts it again.
        Path::Slides(_) => keys_of(t, z, false, |_, _| false),
        // A placement is hashed by its square (`Host::placed`): the keys
        // by bit stay unused.
        Path::Lines(_) => Some(Box::new(KernelKeys {
            piece: [[[0; 128]; 2]; 2],
            side: [z.side_key(0), z.side_key(1)],
            one_way: [[false; 2]; 2],
            convert: None,
            wins_over: false,
            on: true,
        })),
        Path::General(_) => None,
    }
}

/// The keys of a kernel whose pieces are won over or not (`wins_over`) and
/// whose quiet moves of a side and kind can't be undone where `one_way`
/// says so.
fn keys_of(
    t: &Tables,
    z: &Zobrist,
    wins_over: bool,
    one_way: impl Fn(usize, usize) -> bool,
) -> Option<Box<KernelKeys>> {
    keys_in(t, z, t.layout.as_ref()?, wins_over, one_way)
}

/// `keys_of` on the layout `l` (a kernel's own, when the tables have none).
fn keys_in(
    t: &Tables,
    z: &Zobrist,
    l: &crate::board::bitboard::Layout,
    wins_over: bool,
    one_way: impl Fn(usize, usize) -> bool,
) -> Option<Box<KernelKeys>> {
    let mut keys = Box::new(KernelKeys {
        piece: [[[0; 128]; 2]; 2],
        side: [z.side_key(0), z.side_key(1)],
        one_way: [[false; 2]; 2],
        convert: match t.effect {
            JumpEffect::Convert(k) => Some(usize::from(k.0) & 1),
            _ => None,
        },
        wins_over,
        on: true,
    });
    for s in 0..2 {
        for kind in 0..t.nkinds.min(2) {
            let code = (1 + s * t.nkinds + kind) as u8;
            for (bit, key) in keys.piece[s][kind].iter_mut().enumerate() {
                if let Some(&sq) = l.sq_of.get(bit).filter(|&&sq| sq != u16::MAX) {
                    *key = z.key(code, usize::from(sq));
                }
            }
            keys.one_way[s][kind] = one_way(s, kind);
        }
    }
    Some(keys)
}

/// The worth, in material, of a piece one move from a zone that a `reach`
/// rule makes it win on.
const GOAL: f64 = 1.0;

/// +1 when a side with fewer pieces is worse off (the first rule on the
/// number of pieces, `no-pieces` or `reduced-to`, makes it lose, or there is
/// none), -1 when it is better off (that rule makes it win), 0 for a draw.
fn material_sign(t: &Tables) -> f64 {
    let first = t.game.end.rules.iter().find(|r| {
        matches!(
            r.condition,
            EndCondition::NoPieces | EndCondition::ReducedTo(_)
        )
    });
    match first.map(|r| r.verdict) {
        Some(Verdict::Win) => -1.0,
        Some(Verdict::Draw) => 0.0,
        _ => 1.0,
    }
}

/// Adds `worth` times the closeness (0 far away .. 1 on the target) of each
/// square to the target squares of `dist`.
fn add_closeness(out: &mut [f64], dist: &[u32], worth: f64) {
    let Some(far) = dist.iter().filter(|&&d| d != u32::MAX).max().copied() else {
        return;
    };
    for (o, &d) in out.iter_mut().zip(dist) {
        if d != u32::MAX {
            *o += worth * (1.0 - f64::from(d) / f64::from(far + 1));
        }
    }
}

/// Per square, the fewest moves a piece of `code` needs to reach a square
/// where `target` holds (on an empty board), or `u32::MAX`.
fn distance(t: &Tables, code: u8, target: impl Fn(usize) -> bool) -> Vec<u32> {
    let n = t.n;
    let c = usize::from(code);
    let mut dist: Vec<u32> = (0..n)
        .map(|sq| if target(sq) { 0 } else { u32::MAX })
        .collect();
    let m = &t.moves[c];
    let mut changed = true;
    while changed {
        changed = false;
        for sq in 0..n {
            let mut best = dist[sq];
            let mut consider = |to: u16| {
                if let Some(&d) = dist.get(usize::from(to)) {
                    best = best.min(d.saturating_add(1));
                }
            };
            for &to in t.steps(code, sq) {
                consider(to);
            }
            for &(_, land) in t.jumps(code, sq) {
                consider(land);
            }
            for &d in m.slide.iter().chain(&m.long_jump) {
                let to = t.step(sq as u16, d);
                if to != NONE {
                    consider(to);
                }
            }
            if best < dist[sq] {
                dist[sq] = best;
                changed = true;
            }
        }
    }
    dist
}

/// A board game in progress.
#[derive(Debug)]
pub struct BoardState<'g> {
    g: &'g BoardGame<'g>,
    pos: Position,
    /// The legal moves of `pos` (empty at the end).
    list: MoveList,
    /// Scratch space; not part of the state.
    gen: Generator,
    hash: u64,
    /// The hashes of the positions since the last removal of a piece, the
    /// current one last: no earlier position can come back, since pieces are
    /// never added.
    history: Vec<u64>,
    /// Plies since each draw counter's last reset.
    counters: Vec<u32>,
    /// How often the current position has occurred (since the history was
    /// last cleared).
    reps: u32,
    plies: u32,
    ending: Option<Ending>,
    /// The side the last move put out of play (sides that lose drop out).
    dropped: Option<u8>,
    events: [u32; 7],
    /// Scratch space of kernel playouts; not part of the state.
    kscratch: PlayoutScratch,
    /// The same for a playout kernel on 128-bit boards.
    kscratch_wide: PlayoutScratch<u128>,
    /// The position of a playout on the kernel of lines; not part of the
    /// state.
    lscratch: LPos,
    /// Inside `random_plies` only: the number of legal moves, all quiet,
    /// when they were counted and `list` left empty (0: `list` holds them).
    lean: usize,
}

impl Clone for BoardState<'_> {
    fn clone(&self) -> Self {
        BoardState {
            g: self.g,
            pos: self.pos.clone(),
            list: self.list.clone(),
            gen: Generator::new(),
            hash: self.hash,
            history: self.history.clone(),
            counters: self.counters.clone(),
            reps: self.reps,
            plies: self.plies,
            ending: self.ending,
            dropped: self.dropped,
            events: self.events,
            kscratch: PlayoutScratch::with_room(),
            kscratch_wide: PlayoutScratch::with_room(),
            lscratch: LPos::default(),
            lean: self.lean,
        }
    }

    /// Copies into the existing buffers: no allocation once they are large
    /// enough.
    fn clone_from(&mut self, s: &Self) {
        self.g = s.g;
        self.pos.clone_from(&s.pos);
        self.list.moves.clone_from(&s.list.moves);
        self.list.arena.clone_from(&s.list.arena);
        self.hash = s.hash;
        self.history.clone_from(&s.history);
        self.counters.clone_from(&s.counters);
        self.reps = s.reps;
        self.plies = s.plies;
        self.ending = s.ending;
        self.dropped = s.dropped;
        self.events = s.events;
        self.lean = s.lean;
    }
}

impl<'g> BoardState<'g> {
    /// The state at `pos`, with no history before it.
    pub fn new(g: &'g BoardGame<'g>, pos: Position) -> BoardState<'g> {
        let hash = g.zobrist.hash(&pos);
        let mut history = Vec::with_capacity(256);
        history.push(hash);
        let mut s = BoardState {
            g,
            pos,
            list: MoveList::new(),
            gen: Generator::new(),
            hash,
            history,
            counters: vec![0; g.t.game.end.counters().count()],
            reps: 1,
            plies: 0,
            ending: None,
            dropped: None,
            events: [0; 7],
            kscratch: PlayoutScratch::with_room(),
            kscratch_wide: PlayoutScratch::with_room(),
            lscratch: LPos::default(),
            lean: 0,
        };
        s.refresh();
        s
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The legal moves, in the order of `Match::legal`.
    pub fn moves(&self) -> &MoveList {
        &self.list
    }

    /// The index of a `Match` move among the legal moves.
    pub fn index_of(&self, m: &Move) -> Option<usize> {
        self.list.moves.iter().position(|r| {
            if r.is_pass() {
                return m.from.is_none() && m.path.is_empty();
            }
            if r.is_place() {
                return m.from.is_none() && m.path == [Sq(r.to)];
            }
            m.from == Some(Sq(r.from))
                && self
                    .list
                    .captured(r)
                    .iter()
                    .map(|&c| Sq(c))
                    .eq(m.captured.iter().copied())
                && self
                    .list
                    .path(r)
                    .into_iter()
                    .map(Sq)
                    .eq(m.path.iter().copied())
        })
    }

    /// Random plies on the game's kernel (see `board::kernel`), the history
    /// kept as `play` keeps it, until the kernel stops or a draw rule or
    /// the ply limit may end the game; then the position is written back
    /// and the general path decides it. None: the game or the position
    /// doesn't fit the kernel.
    fn kernel_plies(&mut self, rng: &mut Rng, max: u32) -> Option<u32> {
        let g = self.g;
        let keys = g.kernel.as_deref().filter(|k| k.on)?;
        let t = g.t;
        match t.path() {
            Path::Jumps(k) => self.jump_plies(k, |s| &mut s.kscratch, keys, rng, max),
            Path::WideJumps(k) => self.jump_plies(k, |s| &mut s.kscratch_wide, keys, rng, max),
            Path::Steps(k) => Some(self.plies_on(
                keys,
                &mut k.position(&self.pos)?,
                |kp, host| k.random_plies(kp, rng, max, host),
                |kp, pos| k.write_position(t, kp, pos),
            )),
            Path::Flips(k) => Some(self.plies_on(
                keys,
                &mut k.position(&self.pos)?,
                |kp, host| k.random_plies(kp, rng, max, host),
                |kp, pos| k.write_position(t, kp, pos),
            )),
            Path::Slides(k) => Some(self.plies_on(
                keys,
                &mut k.position(&self.pos)?,
                |kp, host| k.random_plies(kp, rng, max, host),
                |kp, pos| k.write_position(t, kp, pos),
            )),
            Path::Lines(k) => {
                let mut lp = std::mem::take(&mut self.lscratch);
                let n = k.position_into(&self.pos, &mut lp).then(|| {
                    self.plies_on(
                        keys,
                        &mut lp,
                        |lp, host| k.random_plies(lp, rng, max, host),
                        |lp, pos| k.write_position(t, lp, pos),
                    )
                });
                self.lscratch = lp;
                n
            }
            Path::General(_) => None,
        }
    }

    /// `kernel_plies` on the kernel of jumps of either word, with the
    /// scratch of that word (`scratch` picks it out of the state, taken
    /// for the plies and put back).
    fn jump_plies<W: Word>(
        &mut self,
        k: &Kernel<W>,
        scratch: fn(&mut Self) -> &mut PlayoutScratch<W>,
        keys: &KernelKeys,
        rng: &mut Rng,
        max: u32,
    ) -> Option<u32> {
        let t = self.g.t;
        let mut kp = k.position(&self.pos)?;
        let mut sc = std::mem::take(scratch(self));
        let n = self.plies_on(
            keys,
            &mut kp,
            |kp, host| k.random_plies(kp, rng, max, host, &mut sc),
            |kp, pos| k.write_position(t, kp, pos),
        );
        *scratch(self) = sc;
        Some(n)
    }

    /// `kernel_plies` from the kernel position `kp` (a `KPos`, or the
    /// kernel of lines' `LPos`): `run` plays the plies with the host,
    /// `write` writes the position reached back.
    fn plies_on<P>(
        &mut self,
        keys: &KernelKeys,
        kp: &mut P,
        run: impl FnOnce(&mut P, &mut Host<'_>) -> u32,
        write: impl FnOnce(&P, &mut Position),
    ) -> u32 {
        let g = self.g;
        let mut seen = [0u64; SEEN_WORDS];
        for &h in self.history.iter() {
            mark(&mut seen, h);
        }
        let mut host = Host {
            seen,
            keys,
            zobrist: &g.zobrist,
            rules: &g.counter_rules,
            repetition: g.repetition,
            max_plies: g.max_plies,
            hash: self.hash,
            history: &mut self.history,
            counters: &mut self.counters,
            reps: self.reps,
            plies: self.plies,
            events: &mut self.events,
        };
        let n = run(kp, &mut host);
        if n > 0 {
            self.hash = host.hash;
            self.reps = host.reps;
            self.plies = host.plies;
            write(kp, &mut self.pos);
            self.refresh();
        }
        n
    }

    /// In a game of columns, the worth of the pieces of `side` right under
    /// the top of the column on `sq`: a capture takes one top piece at a
    /// time, so the column stays its owner's while they last. Prisoners
    /// (and the owner's pieces under them) count for nobody until a capture
    /// frees them.
    fn reserve(&self, sq: usize, side: u8) -> f64 {
        let t = self.g.t;
        let Some(under) = self.pos.under.get(sq) else {
            return 0.0;
        };
        // Bottom first: the piece right under the top is the last.
        under
            .iter()
            .rev()
            .take_while(|&&u| t.code_side.get(usize::from(u)) == Some(&side))
            .map(|&u| self.g.value.get(usize::from(u)).copied().unwrap_or(0.0))
            .sum()
    }

    /// Plays move `i` of the list; with `lean`, the next position's moves
    /// are only counted when they are all quiet (see `lean`).
    fn play_move(&mut self, i: usize, lean: bool) {
        let t = self.g.t;
        let Some(&m) = self.list.moves.get(i) else {
            return;
        };
        let mover = self.pos.to_move;
        self.hash = self
            .g
            .zobrist
            .moved(t, &self.pos, &self.list, &m, self.hash);
        let flags = u32::from(m.flags);
        let mut removed = false;
        if m.is_pass() {
            self.events[PASSES] += 1;
            for c in &mut self.counters {
                *c += 1;
            }
        } else {
            // A placed piece comes from the hand as the result's kind.
            let start = if m.is_place() && !m.is_removal() {
                m.result
            } else {
                self.pos.board[usize::from(m.from)]
            };
            let start_kind = t.code_kind[usize::from(start)];
            let ncap = u32::from(m.cap_len);
            if ncap > 0 {
                if let JumpEffect::Convert(_) = t.effect {
                    self.events[CONVERSIONS] += 1;
                    self.events[WON_OVER] += ncap;
                } else {
                    self.events[CAPTURES] += 1;
                    self.events[REMOVED] += ncap;
                    removed = true;
                }
            }
            if t.code_side[usize::from(m.result)] != mover && !m.is_removal() {
                self.events[ZONE_CONVERSIONS] += 1;
            }
            if flags & event::PROMOTION != 0 {
                self.events[PROMOTIONS] += 1;
            }
            for (c, rule) in self.counters.iter_mut().zip(&self.g.counter_rules) {
                let reset = flags & rule.reset != 0 || (rule.reset_move_of >> start_kind) & 1 == 1;
                *c = if reset { 0 } else { *c + 1 };
            }
        }
        // Sides that lose drop out only in games of three sides or more.
        let before = end::in_play_mask(t, &self.pos);
        make(t, &mut self.pos, &self.list, &m);
        if before != 0 {
            self.dropped = end::dropped(t, before, &self.pos);
        }
        self.hash = self.g.zobrist.turn(self.hash, mover, self.pos.to_move);
        self.plies += 1;
        if removed {
            self.history.clear();
        }
        let h = self.hash;
        self.reps = 1 + self.history.iter().filter(|&&x| x == h).count() as u32;
        self.history.push(h);
        if lean {
            self.refresh_lean();
        } else {
            self.refresh();
        }
    }

    /// `refresh` for a random playout: where every move is quiet, they are
    /// counted (`lean`), not written down; the end is judged the same way.
    fn refresh_lean(&mut self) {
        let t = self.g.t;
        self.lean = 0;
        if self.ending.is_some() {
            self.refresh();
            return;
        }
        let Some(n) = self.gen.count_quiets(t, &self.pos) else {
            self.refresh();
            return;
        };
        let history = History {
            repetitions: self.reps,
            counters: &self.counters,
            after_move: self.plies > 0,
            dropped: self.dropped,
        };
        // The side to move has a move of its own: a quiet one.
        let decision = end::judge(t, &self.pos, history, false, &mut || true);
        self.ending = self.end_by(decision);
        self.list.clear();
        if self.ending.is_none() {
            self.lean = n;
        }
    }

    /// Finds the moves, or the end: the first end rule that holds decides,
    /// as in `Match`; past the ply limit the game is drawn.
    fn refresh(&mut self) {
        let t = self.g.t;
        if self.ending.is_some() {
            self.list.clear();
            return;
        }
        self.gen.generate(t, &mut self.pos, &mut self.list);
        let history = History {
            repetitions: self.reps,
            counters: &self.counters,
            after_move: self.plies > 0,
            dropped: self.dropped,
        };
        let no_legal_moves = self.list.is_empty();
        let now = &self.pos;
        let decision = {
            let (gen, list) = (&mut self.gen, &self.list);
            let mut own = || {
                if let Some(m) = list.moves.first() {
                    return !m.is_pass();
                }
                // Copied only at the end of a game, when the position rules
                // stopped the generator.
                end::position_over(t, now) && end::can_move(t, gen, &mut now.clone(), list)
            };
            end::judge(t, now, history, no_legal_moves, &mut own)
        };
        self.ending = self.end_by(decision);
        if self.ending.is_some() {
            self.list.clear();
        }
    }

    /// The end of the game, if any, by the end rules' `decision` on the
    /// position, or else by the ply limit (the game is drawn past it).
    fn end_by(&self, decision: Option<end::Decision>) -> Option<Ending> {
        if let Some(d) = decision {
            Some(Ending {
                winner: d.winner.map(usize::from),
                reason: EndCause::Board(end::cause(self.g.t, &self.pos, &d)),
            })
        } else if self.plies >= self.g.max_plies && self.plies > 0 {
            Some(Ending {
                winner: None,
                reason: EndCause::PlyLimit,
            })
        } else {
            None
        }
    }
}

/// What a kernel playout keeps of the history, as `BoardState::play` keeps
/// it.
struct Host<'a> {
    /// A filter of the hashes in `history` (see `mark`): a hash whose bit
    /// is clear occurs there no time, and the history isn't searched.
    seen: [u64; SEEN_WORDS],
    keys: &'a KernelKeys,
    /// The keys by square (placements of the kernel of lines).
    zobrist: &'a Zobrist,
    rules: &'a [CounterRule],
    repetition: u32,
    max_plies: u32,
    hash: u64,
    history: &'a mut Vec<u64>,
    counters: &'a mut [u32],
    reps: u32,
    plies: u32,
    events: &'a mut [u32; 7],
}

/// The words of `Host::seen`.
const SEEN_WORDS: usize = 16;

/// Sets the filter bit of hash `h` (one of `64 * SEEN_WORDS`, by its top
/// bits); whether it was set already.
#[inline(always)]
fn mark(seen: &mut [u64; SEEN_WORDS], h: u64) -> bool {
    let at = (h >> 54) as usize;
    let bit = 1u64 << (at & 63);
    let Some(w) = seen.get_mut(at >> 6) else {
        return true;
    };
    let was = *w & bit != 0;
    *w |= bit;
    was
}

impl<W: Word> PlayoutHost<W> for Host<'_> {
    #[inline]
    fn played(&mut self, before: &KPos<W>, m: &KMove<W>, after: &KPos<W>) -> bool {
        let s = usize::from(before.side & 1);
        let o = s ^ 1;
        let kind = usize::from(m.kind & 1);
        let result = usize::from(m.result & 1);
        let rs = s ^ usize::from(m.turned);
        let keys = self.keys;
        let bit = |b: W| (b.low() & 127) as usize;
        let mut h =
            self.hash ^ keys.piece[s][kind][bit(m.from)] ^ keys.piece[rs][result][bit(m.to)];
        let ncap = m.cap.ones();
        let mut flags = 0;
        let mut removed = false;
        if ncap > 0 {
            for (ck, ks) in keys.piece[o].iter().enumerate() {
                let mut b = m.cap & before.pcs[o][ck];
                while b != W::ZERO {
                    h ^= ks[bit(b)];
                    if let Some(c) = keys.convert {
                        h ^= keys.piece[s][c][bit(b)];
                    }
                    b = b.clear_lowest();
                }
            }
            if keys.convert.is_some() {
                self.events[CONVERSIONS] += 1;
                self.events[WON_OVER] += ncap;
                flags |= event::CONVERSION;
            } else {
                self.events[CAPTURES] += 1;
                self.events[REMOVED] += ncap;
                flags |= event::CAPTURE;
                removed = true;
            }
        }
        if m.turned {
            self.events[ZONE_CONVERSIONS] += 1;
            flags |= event::CONVERSION;
        }
        let promoted = m.crowned;
        if promoted {
            self.events[PROMOTIONS] += 1;
            flags |= event::PROMOTION;
        }
        h ^= keys.side[usize::from(before.side & 1)] ^ keys.side[usize::from(after.side & 1)];
        // No earlier position comes back after a capture, a crowning or a
        // move that only goes one way: the history starts again.
        let anew = removed || !keys.wins_over && (promoted || keys.one_way[s][kind]);
        self.advance(h, flags, kind, anew)
    }

    #[inline]
    fn placed(&mut self, side: u8, kind: u8, code: u8, sq: u16) -> bool {
        let s = usize::from(side & 1);
        let keys = self.keys;
        let h =
            self.hash ^ self.zobrist.key(code, usize::from(sq)) ^ keys.side[s] ^ keys.side[s ^ 1];
        // As `BoardState::play_move`: a placement keeps the history.
        self.advance(h, 0, usize::from(kind), false)
    }
}

impl Host<'_> {
    /// After a ply of a mover's piece of `kind` with the events `flags`
    /// that gave the hash `h`: the counters, the ply, the history (started
    /// again when `anew`) and the repetitions. Whether the kernel may go
    /// on.
    #[inline(always)]
    fn advance(&mut self, h: u64, flags: u32, kind: usize, anew: bool) -> bool {
        let mut go_on = true;
        for (c, r) in self.counters.iter_mut().zip(self.rules) {
            let reset = flags & r.reset != 0 || (r.reset_move_of >> kind) & 1 == 1;
            *c = if reset { 0 } else { *c + 1 };
            go_on &= *c < r.plies;
        }
        self.hash = h;
        self.plies += 1;
        if anew {
            self.history.clear();
            self.seen = [0; SEEN_WORDS];
        }
        self.reps = if mark(&mut self.seen, h) {
            1 + self.history.iter().filter(|&&x| x == h).count() as u32
        } else {
            1
        };
        self.history.push(h);
        go_on && self.reps < self.repetition && self.plies < self.max_plies
    }
}

impl GameState for BoardState<'_> {
    fn random_plies(&mut self, rng: &mut Rng, max: u32) -> u32 {
        let t = self.g.t;
        // Without the kernel, the general path counts quiet moves and
        // builds only the one drawn.
        let lean = self.g.kernel.as_ref().is_none_or(|k| !k.on);
        let mut plies = 0;
        while plies < max {
            if self.lean == 0 {
                if self.list.is_empty() {
                    break;
                }
                if let Some(n) = self.kernel_plies(rng, max - plies) {
                    plies += n;
                    if plies >= max || self.list.is_empty() {
                        break;
                    }
                }
            }
            // No kernel, or it stopped with the game going on (its search
            // limit): one ply by the general path.
            let n = if self.lean > 0 {
                self.lean
            } else {
                self.list.len()
            };
            let mut i = rng.below(n as u64) as usize;
            if self.lean > 0 {
                if !self.gen.nth_quiet(t, &self.pos, i, &mut self.list) {
                    break;
                }
                i = 0;
            }
            self.play_move(i, lean);
            plies += 1;
        }
        if self.lean > 0 {
            // The moves of the position reached, written down.
            self.lean = 0;
            self.refresh();
        }
        plies
    }

    fn seats(&self) -> usize {
        self.g.t.nsides
    }

    fn to_move(&self) -> usize {
        usize::from(self.pos.to_move)
    }

    fn ending(&self) -> Option<Ending> {
        self.ending
    }

    fn move_count(&self) -> usize {
        self.list.len()
    }

    fn play(&mut self, i: usize) {
        self.play_move(i, false);
    }

    fn is_pass(&self, i: usize) -> bool {
        self.list.moves.get(i).is_some_and(|m| m.is_pass())
    }

    fn is_tactical(&self, i: usize) -> bool {
        self.list.moves.get(i).is_some_and(|m| {
            m.cap_len > 0 || u32::from(m.flags) & (event::PROMOTION | event::CONVERSION) != 0
        })
    }

    fn features(&self, out: &mut [Features]) {
        for f in out.iter_mut() {
            *f = Features::default();
        }
        let t = self.g.t;
        let n = t.n;
        for (sq, &code) in self.pos.board.iter().enumerate() {
            if code == EMPTY {
                continue;
            }
            let c = usize::from(code);
            if let Some(f) = out.get_mut(usize::from(t.code_side[c])) {
                f.material += self.g.value.get(c).copied().unwrap_or(0.0);
                f.advancement += self.g.advance.get(c * n + sq).copied().unwrap_or(0.0);
                if t.stacks {
                    f.material += self.reserve(sq, t.code_side[c]);
                }
            }
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    fn counted(&self) -> &'static [Counted] {
        events(self.g.t)
    }

    fn event_counts(&self) -> &[u32] {
        &self.events
    }
}
