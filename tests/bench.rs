//! What `rulebook bench` says played a board game that no kernel takes:
//! the general path, the kernel that came nearest and why it refuses the
//! game, in the words of that kernel's reason (`board::kernel::Refusal`),
//! for one rule file per refusing kernel and the bundled games whose
//! reasons docs/performance.md gives.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::kernels::played_by;
use crate::common::{path_arg, scratch};

#[test]
fn bench_names_the_nearest_kernel_and_why_it_refuses() {
    let general = "  played by the general path: the kernel of";
    let bundled = [
        ("other/lasca", "jumps refuses columns (`capture stacks`)"),
        ("other/bashni", "jumps refuses columns (`capture stacks`)"),
        (
            "other/konane",
            "jumps refuses opening removals (`opening remove`)",
        ),
        (
            "other/alquerque",
            "jumps refuses a board with holes or lines that join only some squares, \
             beyond 128 bits, or directions that are not one shift of it",
        ),
        ("other/brandubh", "slides refuses squares with rules"),
        ("other/tablut", "slides refuses squares with rules"),
    ];
    for (game, why) in bundled {
        assert_eq!(played_by(game), format!("{general} {why}"), "{game}");
    }
    let house_rules = [
        (
            "extends \"other/breakthrough\"\ngame \"Breakthrough 9\"\nboard 9 x 9\n",
            "steps refuses a board beyond 64 bits, or directions that are not one shift of it",
        ),
        (
            "extends \"other/reversi\"\ngame \"Reversi, 30 discs each\"\nhand 30\n",
            "flips refuses moves other than placements, copies and steps, placements next \
             to one's own, or a hand that runs out",
        ),
        (
            "extends \"other/gomoku\"\ngame \"Gomoku, 12 stones\"\nhand 12\n",
            "lines refuses a hand that runs out",
        ),
        (
            "extends \"draughts\"\ngame \"Draughts, free capture\"\ncapture optional\n",
            "jumps refuses captures that are not compulsory (`capture optional`)",
        ),
    ];
    let dir = scratch();
    for (i, (text, why)) in house_rules.iter().enumerate() {
        let file = dir.path().join(format!("game{i}.rules"));
        std::fs::write(&file, text).unwrap();
        assert_eq!(
            played_by(path_arg(&file)),
            format!("{general} {why}"),
            "{text}"
        );
    }
}
