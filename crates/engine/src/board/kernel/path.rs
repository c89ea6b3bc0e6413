//! Which engine plays a board game: one of the kernels, or the general
//! path with the reason of the kernel that came nearest (`Path`, from
//! `Tables::path`). The kernels are tried in one order, in `Tables::new`;
//! the first that takes the game plays it.

use super::{
    FlipKernel, Kernel, LineKernel, NoFlips, NoJumps, NoLines, NoSlides, NoSteps, SlideKernel,
    StepKernel,
};

/// What plays a board game's perft and random playouts.
#[derive(Clone, Copy, Debug)]
pub enum Path<'t> {
    /// The kernel of jumps on 64-bit boards.
    Jumps(&'t Kernel),
    /// The kernel of jumps on 128-bit boards (`Kernel::wide`).
    WideJumps(&'t Kernel<u128>),
    /// The kernel of steps.
    Steps(&'t StepKernel),
    /// The kernel of flips.
    Flips(&'t FlipKernel),
    /// The kernel of slides.
    Slides(&'t SlideKernel),
    /// The kernel of lines.
    Lines(&'t LineKernel),
    /// The general path: no kernel takes the game; why the nearest refuses.
    General(Refusal),
}

/// Why the kernel that came nearest to a game refuses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The kernel of jumps (on either word).
    Jumps(NoJumps),
    /// The kernel of steps.
    Steps(NoSteps),
    /// The kernel of flips.
    Flips(NoFlips),
    /// The kernel of slides.
    Slides(NoSlides),
    /// The kernel of lines.
    Lines(NoLines),
}

impl Refusal {
    /// Of the refusals of every kernel, the one of the kernel that came
    /// nearest: the first, from the narrowest kind of game to the widest
    /// (jumps, placements alone, slides, placements and conversions), that
    /// the game is of (its refusal not `Plain`); else the kernel of steps,
    /// whose kind is any game of moving pieces.
    pub(crate) fn nearest(
        jumps: NoJumps,
        steps: NoSteps,
        flips: NoFlips,
        slides: NoSlides,
        lines: NoLines,
    ) -> Refusal {
        if jumps != NoJumps::Plain {
            Refusal::Jumps(jumps)
        } else if lines != NoLines::Plain {
            Refusal::Lines(lines)
        } else if slides != NoSlides::Plain {
            Refusal::Slides(slides)
        } else if flips != NoFlips::Plain {
            Refusal::Flips(flips)
        } else {
            Refusal::Steps(steps)
        }
    }
}
