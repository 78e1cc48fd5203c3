//! Byte offsets in a file's text and the LSP's positions (a line and a character counted in
//! UTF-16 code units, the protocol's default encoding) to and fro.

use lsp_types::{Position, Range};

/// Where each line of a text begins, so that a conversion does not scan the text from its start.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        LineIndex { text, starts }
    }

    /// The position of byte `offset`; an offset past the end, or inside a character, is taken
    /// back to the nearest character boundary before it, so that no span can panic here.
    pub fn position(&self, offset: usize) -> Position {
        let offset = floor_boundary(self.text, offset);
        let line = self.starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let start = self.starts[line];
        let character = self.text[start..offset].encode_utf16().count();
        Position::new(line as u32, character as u32)
    }

    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }

    /// The byte offset of a position; a line past the last is the end of the text, and a
    /// character past its line's end is the line's end (as the protocol asks).
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len();
        };
        let line = &self.text[start..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }
}

/// `offset`, or the character boundary before it, within the text.
pub fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut at = offset.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_characters_count_as_the_protocol_counts_them() {
        // `é` is two bytes and one UTF-16 unit; `𝄞` four bytes and two units.
        let text = "ab\né𝄞x\n";
        let index = LineIndex::new(text);
        assert_eq!(index.position(0), Position::new(0, 0));
        assert_eq!(index.position(3), Position::new(1, 0));
        let x = text.find('x').unwrap();
        assert_eq!(index.position(x), Position::new(1, 3));
        assert_eq!(index.offset(Position::new(1, 3)), x);
        assert_eq!(index.offset(Position::new(1, 99)), x + 1, "past the line's end is its end");
        assert_eq!(index.offset(Position::new(9, 0)), text.len());
        assert_eq!(index.position(999), Position::new(2, 0), "past the end is the end");
        assert_eq!(index.position(4), Position::new(1, 0), "inside `é` is taken back to its start");
    }
}
