//! The bundled games, embedded in the binary so that `rulebook play NAME`
//! works anywhere. `build.rs` lists every rule file under `games/`.

/// Every bundled rule file: its name (as typed on the command line, such as
/// `variants/NAME` for `games/variants/NAME.rules`) and its text.
pub const GAMES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/bundled_games.rs"));

/// The text of a bundled game, by name (with or without `.rules`).
pub fn get(name: &str) -> Option<&'static str> {
    let name = name.strip_suffix(".rules").unwrap_or(name);
    GAMES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}
