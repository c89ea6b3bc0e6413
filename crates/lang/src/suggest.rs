//! "did you mean ...?": the closest known name by edit distance. A base
//! module: the parser and the checker suggest names, and the language
//! server reads the suggestion back out of a diagnostic for a quick fix.

/// The Levenshtein distance between two strings, by characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row.first().copied().unwrap_or(0);
        if let Some(first) = row.first_mut() {
            *first = i + 1;
        }
        for (j, cb) in b.iter().enumerate() {
            let above = row.get(j + 1).copied().unwrap_or(0);
            let left = row.get(j).copied().unwrap_or(0);
            let cost = usize::from(ca != *cb);
            let best = (diagonal + cost).min(above + 1).min(left + 1);
            diagonal = above;
            if let Some(cell) = row.get_mut(j + 1) {
                *cell = best;
            }
        }
    }
    row.last().copied().unwrap_or(0)
}

/// The candidate closest to `name`, if one is close enough to be a likely
/// misspelling.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// `did you mean `x`?` for the closest candidate.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    closest(name, candidates).map(|c| format!("did you mean `{c}`?"))
}

/// The name a text suggests with `did_you_mean` (in a diagnostic's help),
/// if any: what a quick fix puts in place of the misspelt name.
pub fn suggested(text: &str) -> Option<&str> {
    let rest = text.split("did you mean `").nth(1)?;
    rest.split('`').next().filter(|s| !s.is_empty())
}

/// The help for an unknown name: the closest candidate, or the list of all
/// (when short), or how to declare one.
pub fn unknown_help<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
    declare: &str,
) -> String {
    if let Some(help) = did_you_mean(name, candidates.clone()) {
        return help;
    }
    let all: Vec<String> = candidates.into_iter().map(|c| format!("`{c}`")).collect();
    match all.len() {
        0 => declare.to_string(),
        1..=8 => format!("known: {}; {declare}", all.join(", ")),
        _ => declare.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("diagnal", "diagonal"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            closest("diagnal", ["diagonal", "orthogonal"]),
            Some("diagonal")
        );
        assert_eq!(closest("xyz", ["diagonal"]), None);
    }

    #[test]
    fn a_suggestion_is_read_back() {
        let help = did_you_mean("diagnal", ["diagonal", "orthogonal"]);
        assert_eq!(help.as_deref(), Some("did you mean `diagonal`?"));
        let message = format!(
            "unknown direction `diagnal`\nhelp: {}",
            help.unwrap_or_default()
        );
        assert_eq!(suggested(&message), Some("diagonal"));
        assert_eq!(suggested("known: `a`, `b`; declare it"), None);
        assert_eq!(suggested("did you mean ``?"), None);
    }
}
