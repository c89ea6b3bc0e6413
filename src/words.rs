//! English words for messages: a name's possessive, a count with its noun.

/// `Black's`, but `Reds'`: the possessive of a name.
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') || name.ends_with('S') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// `1 turn`, `2 turns`: a count with its noun in the singular or plural
/// (`noun` is the singular; the plural adds `s`).
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn possessives_and_plurals() {
        assert_eq!(possessive("Black"), "Black's");
        assert_eq!(possessive("Reds"), "Reds'");
        assert_eq!(count(1, "turn"), "1 turn");
        assert_eq!(count(0, "turn"), "0 turns");
        assert_eq!(count(2, "turn"), "2 turns");
    }
}
