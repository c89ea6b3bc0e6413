//! English words for messages: a name's possessive, a side named in a
//! sentence, a count with its noun,
//! a small number in words.

/// Whether a name reads as a plural (`Reds`, `Street Kids`): it ends in s.
fn plural(name: &str) -> bool {
    name.ends_with('s') || name.ends_with('S')
}

/// `Black's`, but `Reds'`: the possessive of a name.
pub fn possessive(name: &str) -> String {
    if plural(name) {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// A side's name where a sentence names the side itself (`goes over to
/// ...`): a name in the plural takes the article (`the Pioneers`, `the
/// Street Kids`), a colour or other name in the singular does not
/// (`Black`).
pub fn side(name: &str) -> String {
    if plural(name) {
        format!("the {name}")
    } else {
        name.to_string()
    }
}

/// `1 turn`, `2 turns`, `1 ply`, `2 plies`: a count with its noun in the
/// singular or plural (`noun` is the singular; the plural adds `s`, or
/// turns a `y` after a consonant into `ies`).
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    let mut rev = noun.chars().rev();
    match (rev.next(), rev.next()) {
        (Some('y'), Some(c)) if !"aeiou".contains(c) => {
            format!("{n} {}ies", &noun[..noun.len() - 1])
        }
        _ => format!("{n} {noun}s"),
    }
}

/// `two`, `four`: a small number in words (from 13 on, in figures).
pub fn number(n: usize) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| (*w).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn possessives_and_plurals() {
        assert_eq!(possessive("Black"), "Black's");
        assert_eq!(possessive("Reds"), "Reds'");
        assert_eq!(side("Black"), "Black");
        assert_eq!(side("Street Kids"), "the Street Kids");
        assert_eq!(count(1, "turn"), "1 turn");
        assert_eq!(count(0, "turn"), "0 turns");
        assert_eq!(count(2, "turn"), "2 turns");
        assert_eq!(count(1, "ply"), "1 ply");
        assert_eq!(count(40, "ply"), "40 plies");
        assert_eq!(count(2, "day"), "2 days");
        assert_eq!(number(4), "four");
        assert_eq!(number(20), "20");
    }
}
