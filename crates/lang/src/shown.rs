//! Text from the user (a move, a position, a tag, a game's name) quoted in
//! a message: cut to [`SHOWN_TEXT`] characters, so that a 10 MB string is
//! not echoed whole (docs/limits.md).

use std::borrow::Cow;

/// The most characters of user text a message quotes.
pub const SHOWN_TEXT: usize = 80;

/// `text` itself when it is short, otherwise its first [`SHOWN_TEXT`]
/// characters, `...` and how many characters were left out.
pub fn shown(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(SHOWN_TEXT) {
        None => Cow::Borrowed(text),
        Some((end, _)) => {
            let left = text.chars().count() - SHOWN_TEXT;
            Cow::Owned(format!("{}... ({left} more characters)", &text[..end]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_and_short_text_kept() {
        assert_eq!(shown("22-18"), "22-18");
        let exact = "é".repeat(SHOWN_TEXT);
        assert_eq!(shown(&exact), exact.as_str());
        let long = "é".repeat(10_000_000);
        let s = shown(&long);
        assert!(s.len() < 300, "{}", s.len());
        assert!(s.ends_with("... (9999920 more characters)"), "{s}");
    }
}
