//! Positions: byte offsets of the library <-> LSP line and UTF-16 column.

use lsp_types::{Position, Range};

/// The line starts of a text, to turn offsets into positions and back.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// The index of `text`.
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { text, starts }
    }

    /// The position of byte `offset` (clamped to the text, to a character).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.starts.binary_search(&offset) {
            Ok(l) => l,
            Err(next) => next.saturating_sub(1),
        };
        let start = self.starts.get(line).copied().unwrap_or(0);
        let column: usize = self
            .text
            .get(start..offset)
            .map_or(0, |s| s.chars().map(char::len_utf16).sum());
        Position::new(
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(column).unwrap_or(u32::MAX),
        )
    }

    /// The range of bytes `begin..end`.
    pub fn range(&self, begin: usize, end: usize) -> Range {
        Range::new(self.position(begin), self.position(end.max(begin)))
    }

    /// The byte offset of a position (clamped to its line and the text).
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |e| e.saturating_sub(1));
        let line = self.text.get(start..end).unwrap_or("");
        let mut units = 0usize;
        for (i, c) in line.char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

/// Whether a character may be part of a name or keyword.
pub fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// The word (letters, digits, `-`) around byte `offset`, with its range.
pub fn word_at(text: &str, offset: usize) -> Option<(usize, usize, &str)> {
    let offset = offset.min(text.len());
    let before = text.get(..offset)?;
    let begin = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word_char(*c))
        .last()
        .map_or(offset, |(i, _)| i);
    let after = text.get(offset..)?;
    let end = offset
        + after
            .char_indices()
            .find(|(_, c)| !is_word_char(*c))
            .map_or(after.len(), |(i, _)| i);
    let word = text.get(begin..end)?;
    (!word.is_empty()).then_some((begin, end, word))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn offsets_and_positions_round_trip() {
        let text = "ab\nzé𝄞x\n";
        let index = LineIndex::new(text);
        for offset in [0, 1, 3, 4, 6, 10, 11, 12] {
            let p = index.position(offset);
            assert_eq!(index.offset(p), offset, "{offset} {p:?}");
        }
        assert_eq!(index.position(10), Position::new(1, 4));
        assert_eq!(index.offset(Position::new(9, 0)), text.len());
        assert_eq!(
            word_at("step forward-left x", 8),
            Some((5, 17, "forward-left"))
        );
    }
}
