//! `Tables`: the compiled game turned into flat look-up tables for the move
//! generator (neighbours per square and direction, moves per side and kind,
//! promotion and no-stop flags per square). Built once per game.

use super::bitboard::{Bb, Layout};
use super::end::EndTables;
use super::kernel::{
    FlipKernel, Kernel, LineKernel, NoFlips, NoJumps, NoLines, NoSlides, NoSteps, Path, Refusal,
    SlideKernel, StepKernel,
};
use crate::board::game::{
    CaptureChoice, Criterion, Game, Hostile, JumpEffect, KindId, LongLanding, MidChainCrown,
    OpeningMove, PlaceRule, SideId, Sq, TriggerAction, Whose, ZoneId,
};

/// No square.
pub const NONE: u16 = u16::MAX;
/// The board code of a captured piece waiting to be removed (DR-1): it blocks
/// and can't be jumped again.
pub const DEAD: u8 = 255;
/// The board code of an empty square.
pub const EMPTY: u8 = 0;
/// No direction (the first jump of a chain has no previous one).
pub const NO_DIR: u8 = u8::MAX;

/// Per (side, kind): the directions of each move class.
#[derive(Clone, Debug, Default)]
pub struct KindMoves {
    /// Directions of one-square steps.
    pub step: Vec<u8>,
    /// Directions of slides (any distance over empty squares).
    pub slide: Vec<u8>,
    /// Directions of short jumps (over an adjacent piece).
    pub short_jump: Vec<u8>,
    /// Directions of long jumps (a flying capture).
    pub long_jump: Vec<u8>,
    /// Steps that may capture by replacement.
    pub step_cap: Vec<u8>,
    /// Slides that may capture by replacement.
    pub slide_cap: Vec<u8>,
    /// Steps that leave a copy behind (`clone`).
    pub clone: Vec<u8>,
    /// Hops over own pieces, capturing nothing (`hop`).
    pub hop: Vec<u8>,
}

impl KindMoves {
    /// Whether the kind jumps at all (short or long).
    pub fn has_jumps(&self) -> bool {
        !self.short_jump.is_empty() || !self.long_jump.is_empty()
    }

    /// Whether the kind captures by replacement.
    pub fn has_replacement(&self) -> bool {
        !self.step_cap.is_empty() || !self.slide_cap.is_empty()
    }
}

/// The tables. Piece codes on the board: 0 empty, `1 + side * kinds + kind`
/// for a piece, `DEAD` for a captured piece awaiting removal.
///
/// Built only by [`Tables::new`] from a compiled game, and read-only
/// outside the engine (its fields are the engine's; the outside reads them
/// through accessors), so these invariants hold for as long as the tables
/// live:
/// - every table is of the game it holds (`game()`): its counts of squares,
///   sides, kinds and directions are those of the game, and every table
///   indexed by square, code or direction has the length they give;
/// - the neighbour, step and jump tables name only squares of the board (or
///   `NONE`), and no step or jump lands on a square where no piece may
///   stop;
/// - the fast paths (`kernel`, `wide_kernel`, the bitboard layout) were
///   chosen for this game and count and play as the general generator
///   does.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The compiled game the tables are of.
    pub(crate) game: Game,
    /// Number of playable squares.
    pub(crate) n: usize,
    /// Number of sides.
    pub(crate) nsides: usize,
    /// Number of kinds of piece.
    pub(crate) nkinds: usize,
    /// Number of directions.
    pub(crate) ndirs: usize,
    /// `nbr[sq * ndirs + d]`: the square one step from `sq` along `d`, or NONE.
    pub(crate) nbr: Vec<u16>,
    /// Side of each piece code (index by code; 255 for empty/dead).
    pub(crate) code_side: Vec<u8>,
    /// Kind of each piece code.
    pub(crate) code_kind: Vec<u8>,
    /// Moves per code (index by code).
    pub(crate) moves: Vec<KindMoves>,
    /// Per code: the code it promotes to, and the squares (flags per square).
    pub(crate) promo_to: Vec<u8>,
    /// `promo_at[code * n + sq]`: a piece of that code is crowned there.
    pub(crate) promo_at: Vec<bool>,
    /// Per square: no piece may stop there.
    pub(crate) no_stop: Vec<bool>,
    /// Per (mover side, square): the code a piece of the mover becomes when its
    /// move ends there by a trigger, for each kind: `trigger_to[(side * n + sq)]`
    /// holds `(new side, new kind)` or None.
    pub(crate) trigger_to: Vec<Option<(u8, u8)>>,
    /// A capture must be taken when one can be made.
    pub(crate) capture_compulsory: bool,
    /// The rule file's capture choice is `most`: a capture taking the most
    /// pieces must be chosen.
    pub(crate) capture_most: bool,
    /// What a jump does to the piece jumped over.
    pub(crate) effect: JumpEffect,
    /// A chain must be continued while a further jump exists.
    pub(crate) must_continue: bool,
    /// What crowning in the middle of a chain does.
    pub(crate) mid_chain: MidChainCrown,
    /// A long jump lands only where the chain can go on, when it can
    /// somewhere (the landing of long jumps is `must continue`).
    pub(crate) long_must_continue: bool,
    /// The end rules, as the engine looks at them.
    pub(crate) end: EndTables,
    /// Whether any piece of any side can jump at all.
    pub(crate) any_jumps: bool,
    /// `cap[attacker code * 256 + victim code]`: the attacker may jump the
    /// victim (an enemy, not dead, not immune to the attacker's kind).
    pub(crate) cap: Vec<bool>,
    /// Per `code * n + sq`: the range of `step_to` with the step targets.
    pub(crate) step_idx: Vec<(u32, u32)>,
    /// Step targets (on the board; emptiness is checked at run time).
    pub(crate) step_to: Vec<u16>,
    /// Per `code * n + sq`: the range of `jump_pairs` with the short jumps.
    pub(crate) jump_idx: Vec<(u32, u32)>,
    /// Short jumps: (square jumped over, landing square).
    pub(crate) jump_pairs: Vec<(u16, u16)>,
    /// The bitboard layout, when the board fits one.
    pub(crate) layout: Option<Layout>,
    /// No-stop squares as a bitboard.
    pub(crate) no_stop_bb: Bb,
    /// Per code: the squares that crown it, as a bitboard.
    pub(crate) promo_bb: Vec<Bb>,
    /// Per attacker code: the codes it may jump.
    pub(crate) victims: Vec<Vec<u8>>,
    /// Whether a construct that the fast paths don't know is used (capture
    /// by replacement, custodian capture, precedence criteria other than
    /// the most pieces): generation then takes the general path.
    pub(crate) general: bool,
    /// Whether capture precedence uses criteria (not only the most pieces).
    pub(crate) use_criteria: bool,
    /// The precedence criteria.
    pub(crate) criteria: Vec<Criterion>,
    /// Per code: the kind's value in thousandths.
    pub(crate) weight: Vec<u64>,
    /// Whether any jump line has limits.
    pub(crate) any_limits: bool,
    /// `line_flags[code * ndirs + d]`: the limits of jumps along `d`
    /// (bits of `vocab::limit`).
    pub(crate) line_flags: Vec<u8>,
    /// Per direction: the opposite direction, or NO_DIR.
    pub(crate) rev: Vec<u8>,
    /// Per side: the directions of custodian capture (empty: none).
    pub(crate) custodian: Vec<Vec<u8>>,
    /// Per side: the directions of `capture neighbours` (empty: none).
    pub(crate) neighbours: Vec<Vec<u8>>,
    /// Whether any piece has a step that leaves a copy behind (`clone`):
    /// such a move is written and played like a placement, on the square
    /// it fills (the game is then played by the general path only).
    pub(crate) clones: bool,
    /// `places || clones || stacks`: a move may fill an empty square with
    /// a new piece, or moves a column (one test in `make` and `unmake` for
    /// all three).
    pub(crate) fills: bool,
    /// A game of columns (`capture stacks`): a jumped piece goes under the
    /// jumper (the game is then played by the general path only).
    pub(crate) stacks: bool,
    /// Custodian capture takes a run of several enemies.
    pub(crate) custodian_multiple: bool,
    /// Custodian capture takes an enemy on a corner against the edges.
    pub(crate) custodian_corners: bool,
    /// Per square: a corner of the board.
    pub(crate) corner: Vec<bool>,
    /// The specialised engine, when the game fits one (see `kernel`).
    /// The kernels are tried in the order of `choose_kernel`; those after
    /// the one that plays the game are not (`Other`).
    pub(crate) kernel: Option<Kernel>,
    /// For a game without `kernel`: the kernel of its random playouts and
    /// perft, on 128-bit boards and with the constructs `kernel` leaves
    /// out (see `Kernel::wide`).
    pub(crate) wide_kernel: Option<Kernel<u128>>,
    /// Why the kernel of jumps takes the game on neither word (None: it
    /// plays it).
    pub(crate) jump_refusal: Option<NoJumps>,
    /// For a game that no kernel of jumps plays: the
    /// kernel of steps of its perft and random playouts, or why it has
    /// none (see `kernel::StepKernel`).
    pub(crate) step_kernel: Result<Box<StepKernel>, NoSteps>,
    /// For a game of placements, copies and conversions without another
    /// kernel: the kernel of flips of its perft and random playouts, or
    /// why it has none (see `kernel::FlipKernel`).
    pub(crate) flip_kernel: Result<Box<FlipKernel>, NoFlips>,
    /// For a game of slides and custodian capture without another kernel:
    /// the kernel of slides of its perft and random playouts, or why it
    /// has none (see `kernel::SlideKernel`).
    pub(crate) slide_kernel: Result<Box<SlideKernel>, NoSlides>,
    /// For a game of placements alone, without another kernel: the kernel
    /// of lines of its perft and random playouts, or why it has none (see
    /// `kernel::LineKernel`).
    pub(crate) line_kernel: Result<Box<LineKernel>, NoLines>,
    /// Whether pieces are placed from a hand (the game is then played by
    /// the general path only).
    pub(crate) places: bool,
    /// Per side: the code of the piece it places (0 when nothing is placed).
    pub(crate) place_code: Vec<u8>,
    /// A placed piece must enclose at least one line.
    pub(crate) place_encloses: bool,
    /// `place next-to own DIRS`: per square, the squares next to it along
    /// the directions, one of which must hold a piece of the side placing
    /// (empty when placements need no neighbour).
    pub(crate) place_next: Vec<Vec<u16>>,
    /// Per side: the pieces in hand at the start (`UNLIMITED`: no limit).
    pub(crate) hand_start: [u16; super::position::MAX_SIDES],
    /// The squares with powers and the kinds with conditions, when the
    /// game has any (it is then played by the general path only).
    pub(crate) powers: Option<Box<Powers>>,
    /// The opening moves, in order (the game is then played by the general
    /// path only).
    pub(crate) opening: Vec<OpeningSquares>,
    /// The empty squares of the start position: opening move `i` is played
    /// where the board has `start_empty + i` (no move of a game with an
    /// opening fills a square).
    pub(crate) start_empty: usize,
}

/// Where an opening move removes a piece from, per square.
#[derive(Clone, Debug)]
pub enum OpeningSquares {
    /// Per square: a piece may be removed from it.
    From(Vec<bool>),
    /// Per square: the squares next to it along the move's directions; a
    /// piece may be removed when one of them is empty.
    NextToEmpty(Vec<Vec<u16>>),
}

/// A hand with no limit.
pub const UNLIMITED: u16 = u16::MAX;

/// The squares with powers and the kinds with conditions (`zone ...
/// hostile`, `zone ... only KIND`, `captured surrounded`, `unarmed`,
/// `capture edge hostile`): a
/// game that has any is played by the general path only, which looks at
/// them; the others never see them.
#[derive(Clone, Debug)]
pub struct Powers {
    /// Per square: whether it counts as a captor.
    pub(crate) hostile: Vec<Hostile>,
    /// Per square: bit k set when a piece of kind k may stop there.
    pub(crate) stop: Vec<u32>,
    /// Per square: bit k set when a piece of kind k may pass over it.
    pub(crate) pass: Vec<u32>,
    /// Per square: the zone whose `only` limits it (the first one).
    pub(crate) only_zone: Vec<Option<ZoneId>>,
    /// `surrounded[code * n + sq]`: a piece of that code on that square is
    /// captured only when surrounded.
    pub(crate) surrounded: Vec<bool>,
    /// Per code: the piece takes part in capturing (not `unarmed`).
    pub(crate) armed: Vec<bool>,
    /// A side off the board (the edge, or a hole) closes the surrounding
    /// of a piece captured surrounded (`capture edge hostile`).
    pub(crate) edge: bool,
}

impl Powers {
    /// The powers of a game, or None when it has none.
    fn new(game: &Game, n: usize, ncodes: usize, nkinds: usize) -> Option<Powers> {
        let any = game
            .zones
            .iter()
            .any(|z| z.hostile != Hostile::Not || !z.only.is_empty())
            || game
                .kinds
                .iter()
                .any(|k| k.surrounded.is_some() || k.unarmed);
        if !any {
            return None;
        }
        let mut p = Powers {
            hostile: vec![Hostile::Not; n],
            stop: vec![u32::MAX; n],
            pass: vec![u32::MAX; n],
            only_zone: vec![None; n],
            surrounded: vec![false; ncodes * n],
            armed: vec![true; ncodes],
            edge: game.capture.custodian.as_ref().is_some_and(|c| c.edge),
        };
        for (zi, z) in game.zones.iter().enumerate() {
            let mut all = crate::board::game::SquareSet::with_capacity(n);
            for set in &z.squares {
                all.union_with(set);
            }
            let allowed = z.only.iter().fold(0u32, |b, k| b | (1u32 << k.0.min(31)));
            for sq in all.iter() {
                let i = usize::from(sq.0);
                if z.hostile != Hostile::Not {
                    if let Some(h) = p.hostile.get_mut(i) {
                        // `hostile` (always) wins over `when-empty`.
                        if *h != Hostile::Always {
                            *h = z.hostile;
                        }
                    }
                }
                if !z.only.is_empty() {
                    if let Some(b) = p.stop.get_mut(i) {
                        *b &= allowed;
                    }
                    if z.closed {
                        if let Some(b) = p.pass.get_mut(i) {
                            *b &= allowed;
                        }
                    }
                    if let Some(slot) = p.only_zone.get_mut(i) {
                        if slot.is_none() {
                            *slot = u16::try_from(zi).ok().map(ZoneId);
                        }
                    }
                }
            }
        }
        for (k, kind) in game.kinds.iter().enumerate() {
            for s in 0..game.sides.len() {
                let code = 1 + s * nkinds + k;
                if let Some(a) = p.armed.get_mut(code) {
                    *a = !kind.unarmed;
                }
                let Some(set) = kind.surrounded.as_ref().and_then(|v| v.get(s)) else {
                    continue;
                };
                for sq in set.iter() {
                    if let Some(f) = p.surrounded.get_mut(code * n + usize::from(sq.0)) {
                        *f = true;
                    }
                }
            }
        }
        Some(p)
    }

    /// Whether a piece of `kind` may stop on `sq`.
    #[inline]
    pub(crate) fn may_stop(&self, kind: u8, sq: u16) -> bool {
        self.stop
            .get(usize::from(sq))
            .is_some_and(|b| (b >> kind.min(31)) & 1 == 1)
    }

    /// Whether a piece of `kind` may pass over `sq`.
    #[inline]
    pub(crate) fn may_pass(&self, kind: u8, sq: u16) -> bool {
        self.pass
            .get(usize::from(sq))
            .is_some_and(|b| (b >> kind.min(31)) & 1 == 1)
    }

    /// The zone whose `only` keeps pieces of other kinds off `sq`.
    pub fn only_zone(&self, sq: u16) -> Option<ZoneId> {
        self.only_zone.get(usize::from(sq)).copied().flatten()
    }
}

impl Tables {
    /// Builds the tables of a compiled game.
    pub fn new(game: Game) -> Tables {
        let n = game.squares.len();
        let nsides = game.sides.len();
        let nkinds = game.kinds.len();
        let ndirs = game.dirs.len();
        let mut nbr = vec![NONE; n * ndirs];
        for i in 0..n {
            for (d, &v) in game.dirs.iter().enumerate() {
                let from = crate::board::game::Sq(i as u16);
                if let Some(t) = game.linked(from, v) {
                    nbr[i * ndirs + d] = t.0;
                }
            }
        }
        let ncodes = 1 + nsides * nkinds;
        let mut code_side = vec![255u8; 256];
        let mut code_kind = vec![255u8; 256];
        let mut moves = vec![KindMoves::default(); ncodes];
        let mut promo_to = vec![0u8; ncodes];
        let mut promo_at = vec![false; ncodes * n];
        let mut immune = vec![0u32; ncodes];
        let mut weight = vec![0u64; ncodes];
        let mut line_flags = vec![0u8; ncodes * ndirs];
        let to_u8 = |d: &crate::board::game::DirId| d.0;
        for s in 0..nsides {
            for (k, kind) in game.kinds.iter().enumerate() {
                let code = 1 + s * nkinds + k;
                code_side[code] = s as u8;
                code_kind[code] = k as u8;
                if let Some(m) = kind.moves.get(s) {
                    moves[code] = KindMoves {
                        step: m.step.iter().map(to_u8).collect(),
                        slide: m.slide.iter().map(to_u8).collect(),
                        short_jump: m.short_jump.iter().map(to_u8).collect(),
                        long_jump: m.long_jump.iter().map(to_u8).collect(),
                        step_cap: m.step_capture.iter().map(to_u8).collect(),
                        slide_cap: m.slide_capture.iter().map(to_u8).collect(),
                        clone: m.clone.iter().map(to_u8).collect(),
                        hop: m.hop.iter().map(to_u8).collect(),
                    };
                    for &(d, bits) in &m.limits {
                        if let Some(f) = line_flags.get_mut(code * ndirs + usize::from(d.0)) {
                            *f |= bits;
                        }
                    }
                }
                if let Some((to, sets)) = &kind.promotion {
                    promo_to[code] = (1 + s * nkinds + usize::from(to.0)) as u8;
                    if let Some(set) = sets.get(s) {
                        for sq in set.iter() {
                            if let Some(f) = promo_at.get_mut(code * n + usize::from(sq.0)) {
                                *f = true;
                            }
                        }
                    }
                }
                immune[code] = kind.immune_to;
                weight[code] = kind.weight;
            }
        }
        let rev = game
            .dirs
            .iter()
            .map(|&(dx, dy)| {
                game.dirs
                    .iter()
                    .position(|&(ex, ey)| {
                        i16::from(ex) == -i16::from(dx) && i16::from(ey) == -i16::from(dy)
                    })
                    .and_then(|i| u8::try_from(i).ok())
                    .unwrap_or(NO_DIR)
            })
            .collect();
        let any_limits = line_flags.iter().any(|&f| f != 0);
        let custodian: Vec<Vec<u8>> = match &game.capture.custodian {
            Some(c) => c
                .dirs
                .iter()
                .map(|v| v.iter().map(to_u8).collect())
                .collect(),
            None => vec![Vec::new(); nsides],
        };
        let use_criteria = game.capture.choice == CaptureChoice::Criteria;
        let places = game.placing.is_some();
        let clones = moves.iter().any(|m| !m.clone.is_empty());
        let neighbours: Vec<Vec<u8>> = (0..nsides)
            .map(|s| {
                game.capture
                    .neighbours
                    .get(s)
                    .map(|v| v.iter().map(to_u8).collect())
                    .unwrap_or_default()
            })
            .collect();
        let powers = Powers::new(&game, n, ncodes, nkinds).map(Box::new);
        let opening: Vec<OpeningSquares> = game
            .opening
            .iter()
            .map(|o| match o {
                OpeningMove::From(set) => {
                    OpeningSquares::From((0..n).map(|i| set.contains(Sq(i as u16))).collect())
                }
                OpeningMove::NextToEmpty(vs) => OpeningSquares::NextToEmpty(
                    (0..n)
                        .map(|i| {
                            vs.iter()
                                .filter_map(|&v| game.linked(Sq(i as u16), v).map(|s| s.0))
                                .collect()
                        })
                        .collect(),
                ),
            })
            .collect();
        let stacks = matches!(game.capture.effect, JumpEffect::Stack);
        let general = use_criteria
            || stacks
            || !opening.is_empty()
            || moves.iter().any(|m| !m.hop.is_empty())
            || powers.is_some()
            || places
            || clones
            || neighbours.iter().any(|v| !v.is_empty())
            || game.capture.custodian.is_some()
            || moves.iter().any(KindMoves::has_replacement);
        let mut place_code = vec![0u8; nsides];
        let mut hand_start = [0u16; super::position::MAX_SIDES];
        if let Some(p) = &game.placing {
            for (s, code) in place_code.iter_mut().enumerate() {
                *code = (1 + s * nkinds + usize::from(p.kind.0)) as u8;
            }
            for (h, given) in hand_start.iter_mut().zip(&p.hand) {
                *h = given.unwrap_or(UNLIMITED);
            }
        }
        let place_encloses = game
            .placing
            .as_ref()
            .is_some_and(|p| p.rule == PlaceRule::Enclosing);
        let place_next: Vec<Vec<u16>> = match &game.placing {
            Some(p) if p.rule == PlaceRule::NextToOwn => (0..n)
                .map(|i| {
                    p.next_to
                        .iter()
                        .filter_map(|&v| game.linked(Sq(i as u16), v).map(|s| s.0))
                        .collect()
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut no_stop = vec![false; n];
        for sq in game.no_stop().iter() {
            if let Some(f) = no_stop.get_mut(usize::from(sq.0)) {
                *f = true;
            }
        }
        let mut trigger_to = vec![None; nsides * n];
        for t in &game.triggers {
            let TriggerAction::Convert(kind) = t.action;
            let Some(zone) = game.zones.get(usize::from(t.zone.0)) else {
                continue;
            };
            for mover in 0..nsides {
                for (owner, set) in zone.squares.iter().enumerate() {
                    let applies = match t.whose {
                        Whose::Own => owner == mover,
                        Whose::Enemy => owner != mover,
                        Whose::Any => true,
                    };
                    if !applies {
                        continue;
                    }
                    // A zone shared by all: the piece stays with the mover
                    // unless the zone is per side.
                    let new_side = if zone.per_side { owner } else { mover };
                    for sq in set.iter() {
                        let slot = &mut trigger_to[mover * n + usize::from(sq.0)];
                        if slot.is_none() {
                            *slot = Some((new_side as u8, kind.0));
                        }
                    }
                }
            }
        }
        let any_jumps = moves.iter().any(|m| m.has_jumps());
        let mut cap = vec![false; ncodes * 256];
        for a in 1..ncodes {
            for v in 1..ncodes {
                cap[a * 256 + v] =
                    code_side[a] != code_side[v] && (immune[v] >> code_kind[a]) & 1 == 0;
            }
        }
        let step_of = |sq: usize, d: u8| nbr[sq * ndirs + usize::from(d)];
        let mut step_idx = vec![(0u32, 0u32); ncodes * n];
        let mut step_to = Vec::new();
        let mut jump_idx = vec![(0u32, 0u32); ncodes * n];
        let mut jump_pairs = Vec::new();
        for code in 1..ncodes {
            for sq in 0..n {
                let begin = step_to.len() as u32;
                let stops = |to: u16| {
                    powers
                        .as_ref()
                        .is_none_or(|p| p.may_stop(code_kind[code], to))
                };
                for &d in &moves[code].step {
                    let to = step_of(sq, d);
                    if to != NONE && !no_stop[usize::from(to)] && stops(to) {
                        step_to.push(to);
                    }
                }
                step_idx[code * n + sq] = (begin, step_to.len() as u32);
                let begin = jump_pairs.len() as u32;
                for &d in &moves[code].short_jump {
                    let over = step_of(sq, d);
                    if over == NONE {
                        continue;
                    }
                    let land = step_of(usize::from(over), d);
                    if land != NONE && !no_stop[usize::from(land)] && stops(land) {
                        jump_pairs.push((over, land));
                    }
                }
                jump_idx[code * n + sq] = (begin, jump_pairs.len() as u32);
            }
        }
        // Holes, and lines that join only some squares, break the
        // one-shift-per-direction picture of the board: such a board is
        // played square by square.
        let layout = if game.holes.iter().any(|&h| h) || game.lines.is_some() {
            None
        } else {
            Layout::new(&game)
        };
        let mut no_stop_bb: Bb = 0;
        if let Some(l) = &layout {
            for (sq, &ns) in no_stop.iter().enumerate() {
                if ns {
                    no_stop_bb |= 1 << l.bit_of[sq];
                }
            }
        }
        let mut promo_bb = vec![0 as Bb; ncodes];
        if let Some(l) = &layout {
            for (code, bb) in promo_bb.iter_mut().enumerate() {
                for sq in 0..n {
                    if promo_at[code * n + sq] {
                        *bb |= 1 << l.bit_of[sq];
                    }
                }
            }
        }
        let victims = (0..ncodes)
            .map(|a| {
                (1..ncodes)
                    .filter(|&v| a > 0 && cap[a * 256 + v])
                    .map(|v| v as u8)
                    .collect()
            })
            .collect();
        let end = EndTables::new(&game, layout.as_ref().map(|l| l.bit_of.as_slice()), nkinds);
        let start_empty = n.saturating_sub(game.setup.len());
        let mut t = Tables {
            opening,
            start_empty,
            powers,
            kernel: None,
            wide_kernel: None,
            jump_refusal: None,
            step_kernel: Err(NoSteps::Other),
            flip_kernel: Err(NoFlips::Other),
            slide_kernel: Err(NoSlides::Other),
            line_kernel: Err(NoLines::Other),
            places,
            place_code,
            place_encloses,
            place_next,
            hand_start,
            general,
            use_criteria,
            criteria: game.capture.criteria.clone(),
            weight,
            any_limits,
            line_flags,
            rev,
            custodian_multiple: game.capture.custodian.as_ref().is_some_and(|c| c.multiple),
            custodian_corners: game.capture.custodian.as_ref().is_some_and(|c| c.corners),
            corner: game
                .squares
                .iter()
                .map(|s| {
                    (s.file == 0 || s.file + 1 == game.width)
                        && (s.rank == 0 || s.rank + 1 == game.height)
                })
                .collect(),
            custodian,
            neighbours,
            clones,
            fills: places || clones || stacks,
            stacks,
            layout,
            no_stop_bb,
            promo_bb,
            victims,
            cap,
            step_idx,
            step_to,
            jump_idx,
            jump_pairs,
            n,
            nsides,
            nkinds,
            ndirs,
            nbr,
            code_side,
            code_kind,
            moves,
            promo_to,
            promo_at,
            no_stop,
            trigger_to,
            capture_compulsory: game.capture.compulsory,
            capture_most: game.capture.choice == CaptureChoice::Most,
            effect: game.capture.effect,
            must_continue: game.capture.must_continue,
            mid_chain: game.capture.mid_chain,
            long_must_continue: game.capture.long_landing == LongLanding::MustContinue,
            end,
            any_jumps,
            game,
        };
        t.choose_kernel();
        t
    }

    /// The kernel that plays the game: the kernels tried in one order, the
    /// kernel of jumps (64-bit, then 128-bit boards), of steps, of flips,
    /// of slides, of lines; the first that takes the rule file plays it,
    /// and those after it are not tried (their field says `Other`). Each
    /// kernel's `new` answers only whether it can play the rule file, and
    /// if not, why.
    fn choose_kernel(&mut self) {
        let jumps = match Kernel::new(self) {
            Ok(k) => {
                self.kernel = Some(k);
                return;
            }
            Err(_) => match Kernel::wide(self) {
                Ok(k) => {
                    self.wide_kernel = Some(k);
                    return;
                }
                Err(why) => why,
            },
        };
        self.jump_refusal = Some(jumps);
        self.step_kernel = StepKernel::new(self).map(Box::new);
        if self.step_kernel.is_ok() {
            return;
        }
        self.flip_kernel = FlipKernel::new(self).map(Box::new);
        if self.flip_kernel.is_ok() {
            return;
        }
        self.slide_kernel = SlideKernel::new(self).map(Box::new);
        if self.slide_kernel.is_ok() {
            return;
        }
        self.line_kernel = LineKernel::new(self).map(Box::new);
    }

    /// What plays the game's perft and random playouts: the kernel chosen
    /// for it, or the general path and why the nearest kernel refuses it.
    pub fn path(&self) -> Path<'_> {
        if let Some(k) = &self.kernel {
            return Path::Jumps(k);
        }
        if let Some(k) = &self.wide_kernel {
            return Path::WideJumps(k);
        }
        match (
            &self.step_kernel,
            &self.flip_kernel,
            &self.slide_kernel,
            &self.line_kernel,
        ) {
            (Ok(k), ..) => Path::Steps(k),
            (_, Ok(k), ..) => Path::Flips(k),
            (_, _, Ok(k), _) => Path::Slides(k),
            (_, _, _, Ok(k)) => Path::Lines(k),
            (Err(steps), Err(flips), Err(slides), Err(lines)) => Path::General(Refusal::nearest(
                self.jump_refusal.unwrap_or(NoJumps::Plain),
                *steps,
                *flips,
                *slides,
                *lines,
            )),
        }
    }

    /// The squares with powers and the kinds with conditions, when the
    /// game has any.
    #[inline]
    pub fn powers(&self) -> Option<&Powers> {
        self.powers.as_deref()
    }

    /// When a piece of `kind` on `sq` is captured only when surrounded
    /// (`captured surrounded`, for a piece of any side there): on how many
    /// sides (the directions of custodian capture), and how many of them are
    /// on the board (fewer against the edge, `capture edge hostile`); None
    /// otherwise.
    pub fn surrounded_on(
        &self,
        kind: KindId,
        sq: crate::board::game::Sq,
    ) -> Option<(usize, usize)> {
        let p = self.powers.as_deref()?;
        let on = (0..self.nsides).any(|s| {
            let code = 1 + s * self.nkinds + usize::from(kind.0);
            p.surrounded
                .get(code * self.n + usize::from(sq.0))
                .copied()
                .unwrap_or(false)
        });
        let dirs = self.custodian.iter().max_by_key(|d| d.len())?;
        let on_board = dirs.iter().filter(|&&d| self.step(sq.0, d) != NONE).count();
        on.then_some((dirs.len(), on_board))
    }

    /// Whether pieces are placed from a hand.
    #[inline]
    pub fn places(&self) -> bool {
        self.places
    }

    /// The opening move the side to move plays in `pos` (its index in the
    /// rule file's order), or None once the opening is over (or in a game
    /// without one).
    pub fn opening_move(&self, pos: &super::position::Position) -> Option<usize> {
        if self.opening.is_empty() {
            return None;
        }
        let pieces: usize = pos
            .count
            .iter()
            .take(self.nsides)
            .map(|&c| usize::from(c))
            .sum();
        let empty = self.n.checked_sub(pieces)?;
        let i = empty.checked_sub(self.start_empty)?;
        (i < self.opening.len()).then_some(i)
    }

    /// The compiled game the tables are of.
    #[inline]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The compiled game the tables were built of, the tables dropped.
    pub fn into_game(self) -> Game {
        self.game
    }

    /// How many playable squares the board has.
    #[inline]
    pub fn squares(&self) -> usize {
        self.n
    }

    /// How many sides the game has.
    #[inline]
    pub fn sides(&self) -> usize {
        self.nsides
    }

    /// How many kinds of piece the game has.
    #[inline]
    pub fn kinds(&self) -> usize {
        self.nkinds
    }

    /// How many directions the game has.
    #[inline]
    pub fn directions(&self) -> usize {
        self.ndirs
    }

    /// Per playable square: no piece may stop there.
    #[inline]
    pub fn no_stop(&self) -> &[bool] {
        &self.no_stop
    }

    /// The piece of a board code: its side and kind (`None` for an empty
    /// square, a captured piece or no code of this game).
    #[inline]
    pub fn piece_of(&self, code: u8) -> Option<(SideId, KindId)> {
        if code == EMPTY || usize::from(code) > self.nsides * self.nkinds {
            return None;
        }
        Some((
            SideId(*self.code_side.get(usize::from(code))?),
            KindId(*self.code_kind.get(usize::from(code))?),
        ))
    }

    /// The bitboard layout, when the board fits one.
    #[inline]
    pub fn layout(&self) -> Option<&Layout> {
        self.layout.as_ref()
    }

    /// The specialised engine, when the game fits one.
    #[inline]
    pub fn kernel(&self) -> Option<&Kernel> {
        self.kernel.as_ref()
    }

    /// For a game without `kernel`: the kernel of its random playouts and
    /// perft on 128-bit boards, when it fits one.
    #[inline]
    pub fn wide_kernel(&self) -> Option<&Kernel<u128>> {
        self.wide_kernel.as_ref()
    }

    /// The kernel of steps, when the game fits one, or why it doesn't
    /// (`NoSteps::Other` for a game with a kernel of jumps).
    #[inline]
    pub fn step_kernel(&self) -> Result<&StepKernel, NoSteps> {
        self.step_kernel.as_deref().map_err(|e| *e)
    }

    /// The kernel of flips, when the game fits one, or why it doesn't
    /// (`NoFlips::Other` for a game with another kernel).
    #[inline]
    pub fn flip_kernel(&self) -> Result<&FlipKernel, NoFlips> {
        self.flip_kernel.as_deref().map_err(|e| *e)
    }

    /// The kernel of slides, when the game fits one, or why it doesn't
    /// (`NoSlides::Other` for a game with another kernel, `NoSlides::Plain`
    /// for one where nothing slides).
    #[inline]
    pub fn slide_kernel(&self) -> Result<&SlideKernel, NoSlides> {
        self.slide_kernel.as_deref().map_err(|e| *e)
    }

    /// The kernel of lines, when the game fits one, or why it doesn't
    /// (`NoLines::Other` for a game with another kernel).
    #[inline]
    pub fn line_kernel(&self) -> Result<&LineKernel, NoLines> {
        self.line_kernel.as_deref().map_err(|e| *e)
    }

    /// Sets the jump-chain steps the kernels search for one side in one
    /// position before they give up (and the general generator plays the
    /// position instead: the same moves and counts, found more slowly).
    pub fn set_kernel_max_steps(&mut self, steps: u32) {
        if let Some(k) = &mut self.kernel {
            k.set_max_steps(steps);
        }
        if let Some(k) = &mut self.wide_kernel {
            k.set_max_steps(steps);
        }
    }

    /// The board code of a piece.
    #[inline]
    pub fn code(&self, side: SideId, kind: KindId) -> u8 {
        (1 + usize::from(side.0) * self.nkinds + usize::from(kind.0)) as u8
    }

    /// The step targets of a piece of `code` on `sq`.
    #[inline(always)]
    pub fn steps(&self, code: u8, sq: usize) -> &[u16] {
        let (a, b) = self.step_idx[usize::from(code) * self.n + sq];
        &self.step_to[a as usize..b as usize]
    }

    /// The short jumps (over, landing) of a piece of `code` on `sq`.
    #[inline(always)]
    pub fn jumps(&self, code: u8, sq: usize) -> &[(u16, u16)] {
        let (a, b) = self.jump_idx[usize::from(code) * self.n + sq];
        &self.jump_pairs[a as usize..b as usize]
    }

    /// Whether a piece of code `a` may jump a piece of code `v`.
    #[inline(always)]
    pub fn can_capture(&self, a: u8, v: u8) -> bool {
        self.cap[usize::from(a) * 256 + usize::from(v)]
    }

    /// The limits of the jumps of `code` along `d` (0 when none).
    #[inline(always)]
    pub fn limits(&self, code: u8, d: u8) -> u8 {
        if !self.any_limits {
            return 0;
        }
        self.line_flags
            .get(usize::from(code) * self.ndirs + usize::from(d))
            .copied()
            .unwrap_or(0)
    }

    /// Whether `other` is next to `sq` along a direction of `capture
    /// neighbours` of `side` (false when the game has no such rule).
    pub fn neighbour_of(&self, side: u8, sq: u16, other: u16) -> bool {
        self.neighbours
            .get(usize::from(side))
            .is_some_and(|dirs| dirs.iter().any(|&d| self.step(sq, d) == other))
    }

    /// The neighbour of `sq` along direction `d`.
    #[inline(always)]
    pub fn step(&self, sq: u16, d: u8) -> u16 {
        self.nbr[usize::from(sq) * self.ndirs + usize::from(d)]
    }
}
