//! Perft: the number of leaf positions of the legal-move tree to a depth.
//! The last ply's moves are counted without being played (bulk counting);
//! positions are copied into per-ply buffers that are reused, so the walk
//! allocates nothing once warm.

use super::kernel::KMove;
use super::movegen::{make, make_undoable, unmake, Generator, MoveList};
use super::position::Position;
use super::tables::Tables;

/// Reusable buffers for perft.
pub struct Perft<'t> {
    t: &'t Tables,
    gen: Generator,
    lists: Vec<MoveList>,
    positions: Vec<Position>,
    /// Scratch lists of the kernel.
    klists: Vec<Vec<KMove>>,
    /// Scratch lists of the 128-bit kernel.
    wide_lists: Vec<Vec<KMove<u128>>>,
    /// Whether the game's kernel is used when it has one.
    use_kernel: bool,
}

impl<'t> Perft<'t> {
    /// Buffers for a walk of up to `depth` plies.
    pub fn new(t: &'t Tables, depth: usize) -> Perft<'t> {
        Perft {
            t,
            gen: Generator::new(),
            lists: (0..=depth).map(|_| MoveList::new()).collect(),
            positions: Vec::new(),
            klists: Vec::new(),
            wide_lists: Vec::new(),
            use_kernel: true,
        }
    }

    /// Whether `count` from `pos` goes through the kernel of steps
    /// (`kernel::StepKernel`).
    pub fn uses_step_kernel(&self, pos: &Position) -> bool {
        self.use_kernel
            && !self.gen.distinct_paths
            && self
                .t
                .step_kernel
                .as_ref()
                .is_ok_and(|k| k.position(pos).is_some())
    }

    /// Whether `count` from `pos` goes through the kernel of flips
    /// (`kernel::FlipKernel`).
    pub fn uses_flip_kernel(&self, pos: &Position) -> bool {
        self.use_kernel
            && !self.gen.distinct_paths
            && self
                .t
                .flip_kernel
                .as_ref()
                .is_ok_and(|k| k.position(pos).is_some())
    }

    /// Whether `count` from `pos` goes through the kernel of slides
    /// (`kernel::SlideKernel`).
    pub fn uses_slide_kernel(&self, pos: &Position) -> bool {
        self.use_kernel
            && !self.gen.distinct_paths
            && self
                .t
                .slide_kernel
                .as_ref()
                .is_ok_and(|k| k.position(pos).is_some())
    }

    /// Whether `count` from `pos` goes through the kernel of lines
    /// (`kernel::LineKernel`).
    pub fn uses_line_kernel(&self, pos: &Position) -> bool {
        self.use_kernel
            && !self.gen.distinct_paths
            && self
                .t
                .line_kernel
                .as_ref()
                .is_ok_and(|k| k.position(pos).is_some())
    }

    /// Whether the game's specialised kernel counts when the game has one
    /// (the default); off, the general generator counts every game (the two
    /// must agree: `tests/kernel.rs`).
    pub fn use_kernel(&mut self, on: bool) {
        self.use_kernel = on;
    }

    /// Whether `count` from `pos` goes through the kernel.
    pub fn uses_kernel(&self, pos: &Position) -> bool {
        self.use_kernel
            && !self.gen.distinct_paths
            && (self
                .t
                .kernel
                .as_ref()
                .is_some_and(|k| k.position(pos).is_some())
                || self
                    .t
                    .wide_kernel
                    .as_ref()
                    .is_some_and(|k| k.position(pos).is_some()))
    }

    /// Whether captures that take the same pieces along different paths
    /// count as different moves (`perft --paths`); by default they are one
    /// move (DR-3).
    pub fn count_paths(&mut self, on: bool) {
        self.gen.distinct_paths = on;
    }

    /// Whether a position of the walks so far had more captures than the
    /// generator lists ([`super::movegen::MAX_CHAIN_STEPS`],
    /// [`super::movegen::MAX_MOVES`]): the counts are then too small.
    pub fn overflowed(&self) -> bool {
        self.gen.overflowed()
    }

    /// The perft count of `pos` at `depth`.
    pub fn count(&mut self, pos: &Position, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.use_kernel && !self.gen.distinct_paths {
            // None: a position past the kernel's search limit, or one where
            // a side passes; the general path counts it all.
            if let Some(k) = &self.t.kernel {
                if let Some(p) = k.position(pos) {
                    if let Some(n) = k.perft(&p, depth, &mut self.klists) {
                        return n;
                    }
                }
            } else if let Some(k) = &self.t.wide_kernel {
                if let Some(p) = k.position(pos) {
                    if let Some(n) = k.perft(&p, depth, &mut self.wide_lists) {
                        return n;
                    }
                }
            } else if let Ok(k) = &self.t.step_kernel {
                if let Some(p) = k.position(pos) {
                    return k.perft(&p, depth);
                }
            } else if let Ok(k) = &self.t.flip_kernel {
                if let Some(p) = k.position(pos) {
                    return k.perft(&p, depth);
                }
            } else if let Ok(k) = &self.t.slide_kernel {
                if let Some(p) = k.position(pos) {
                    return k.perft(&p, depth);
                }
            } else if let Ok(k) = &self.t.line_kernel {
                if let Some(p) = k.position(pos) {
                    return k.perft(&p, depth);
                }
            }
        }
        while self.lists.len() <= depth {
            self.lists.push(MoveList::new());
        }
        while self.positions.len() <= depth {
            self.positions.push(pos.clone());
        }
        self.positions[depth].clone_from(pos);
        self.walk(depth)
    }

    /// The count below each root move: (move index in `root`, count).
    pub fn divide(&mut self, pos: &Position, depth: usize) -> (MoveList, Vec<u64>) {
        let mut root = MoveList::new();
        let mut p = pos.clone();
        self.gen.generate(self.t, &mut p, &mut root);
        let mut counts = Vec::with_capacity(root.len());
        for m in &root.moves {
            let mut q = pos.clone();
            make(self.t, &mut q, &root, m);
            counts.push(if depth <= 1 {
                1
            } else {
                self.count(&q, depth - 1)
            });
        }
        (root, counts)
    }

    /// The perft count by make and unmake on one position instead of copies
    /// (the two must agree; the copying walk is the faster one).
    pub fn count_make_unmake(&mut self, pos: &Position, depth: usize) -> u64 {
        let mut p = pos.clone();
        let mut stack = Vec::new();
        self.walk_unmake(&mut p, depth, &mut stack)
    }

    fn walk_unmake(&mut self, pos: &mut Position, depth: usize, stack: &mut Vec<u8>) -> u64 {
        if depth == 0 {
            return 1;
        }
        while self.lists.len() <= depth {
            self.lists.push(MoveList::new());
        }
        let t = self.t;
        let mut list = std::mem::take(&mut self.lists[depth]);
        self.gen.generate(t, pos, &mut list);
        let mut total = 0;
        for m in &list.moves {
            let u = make_undoable(t, pos, &list, m, stack);
            total += self.walk_unmake(pos, depth - 1, stack);
            unmake(t, pos, &list, m, u, stack);
        }
        self.lists[depth] = list;
        total
    }

    fn walk(&mut self, depth: usize) -> u64 {
        let t = self.t;
        let mut list = std::mem::take(&mut self.lists[depth]);
        let total = if depth == 1 {
            self.gen.count(t, &mut self.positions[depth], &mut list) as u64
        } else {
            self.gen.generate(t, &mut self.positions[depth], &mut list);
            let mut total = 0;
            for m in &list.moves {
                let (lo, hi) = self.positions.split_at_mut(depth);
                let child = &mut lo[depth - 1];
                child.clone_from(&hi[0]);
                make(t, child, &list, m);
                total += self.walk(depth - 1);
            }
            total
        };
        self.lists[depth] = list;
        total
    }
}
