//! The bundled games, embedded in the binary so that `rulebook play draughts`
//! works anywhere.

/// Every bundled rule file: its name (as typed on the command line) and text.
pub const GAMES: &[(&str, &str)] = &[
    ("draughts", include_str!("../games/draughts.rules")),
    ("always-ready", include_str!("../games/always-ready.rules")),
    (
        "variants/russian",
        include_str!("../games/variants/russian.rules"),
    ),
    (
        "variants/english",
        include_str!("../games/variants/english.rules"),
    ),
    (
        "variants/international",
        include_str!("../games/variants/international.rules"),
    ),
    (
        "slow-and-steady",
        include_str!("../games/slow-and-steady.rules"),
    ),
    (
        "variants/slow-and-steady-both-pieces",
        include_str!("../games/variants/slow-and-steady-both-pieces.rules"),
    ),
    (
        "variants/snakes-and-ladders",
        include_str!("../games/variants/snakes-and-ladders.rules"),
    ),
    (
        "variants/goose",
        include_str!("../games/variants/goose.rules"),
    ),
];

/// The text of a bundled game, by name (`draughts`, `variants/russian`).
pub fn get(name: &str) -> Option<&'static str> {
    let name = name.strip_suffix(".rules").unwrap_or(name);
    GAMES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}
