//! Where generated items come from: the game file's lines, quoted in their doc comments.

use gamec_dsl::{FileId, Sources, Span};
use proc_macro2::TokenStream;
use quote::quote;

/// The most lines a quote shows in full; a longer span is named by its first line.
const MAX_QUOTED_LINES: usize = 8;

/// A game file's name and text, to quote the lines a span covers.
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    /// The file's name as the generated code names it (`games/othello.game`).
    pub path: &'a str,
    pub text: &'a str,
}

impl<'a> Origin<'a> {
    pub fn new(path: &'a str, text: &'a str) -> Self {
        Origin { path, text }
    }

    /// A file of `sources`, under the name it was added with.
    pub fn of(sources: &'a Sources, file: FileId) -> Self {
        Origin { path: sources.name(file), text: sources.text(file) }
    }

    /// The number of the first line `span` covers, and every line it covers, whole, with
    /// their common indentation and trailing blanks removed.
    fn lines(&self, span: Span) -> (usize, Vec<&'a str>) {
        let boundary = |mut i: usize| {
            while !self.text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let start = boundary(span.start.min(self.text.len()));
        let end = boundary(span.end.clamp(start, self.text.len()));
        let first = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        // A span ending just past a newline ends on the line before it.
        let last = self.text[..end].trim_end_matches('\n').len().max(start);
        let stop = self.text[last..].find('\n').map_or(self.text.len(), |i| last + i);
        let number = self.text[..first].matches('\n').count() + 1;
        let lines: Vec<&str> = self.text[first..stop].lines().map(str::trim_end).collect();
        let indent = lines.iter().filter(|l| !l.is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
        (number, lines.iter().map(|l| l.get(indent..).unwrap_or("")).collect())
    }

    /// Doc lines quoting the game-file lines `span` covers:
    /// `` From games/othello.game:18: `action place = ...` ``, or for several lines their
    /// range and a text block.
    pub(super) fn quote(&self, span: Span) -> Vec<String> {
        let (number, lines) = self.lines(span);
        match lines.as_slice() {
            [] => vec![format!("From {}:{number}.", self.path)],
            [one] => vec![format!("From {}:{number}: {}", self.path, code(one))],
            [first, ..] if lines.len() > MAX_QUOTED_LINES => {
                let last = number + lines.len() - 1;
                vec![format!("From {}:{number}-{last}: {}", self.path, code(&format!("{first} ...")))]
            }
            _ => {
                let last = number + lines.len() - 1;
                let mut doc = vec![format!("From {}:{number}-{last}:", self.path), String::new(), "```text".into()];
                doc.extend(lines.iter().map(|l| l.to_string()));
                doc.push("```".into());
                doc
            }
        }
    }

    /// Doc lines quoting several spans, one list item a line: `From games/x.game:` and
    /// `` - 43: `"AT" -> ping` ``; each line once, in the file's order. One line alone is
    /// quoted as [`Origin::quote`] does.
    pub(super) fn quote_all(&self, spans: impl IntoIterator<Item = Span>) -> Vec<String> {
        let mut quoted: Vec<(usize, Vec<&str>, Span)> = spans
            .into_iter()
            .map(|s| {
                let (number, lines) = self.lines(s);
                (number, lines, s)
            })
            .collect();
        quoted.sort_by_key(|q| q.0);
        quoted.dedup_by_key(|q| q.0);
        if let [(_, _, span)] = quoted.as_slice() {
            return self.quote(*span);
        }
        let mut doc = Vec::new();
        for (number, lines, _) in &quoted {
            let text = match lines.as_slice() {
                [one] => one.to_string(),
                [first, ..] => format!("{first} ..."),
                [] => String::new(),
            };
            doc.push(format!("- {number}: {}", code(&text)));
        }
        if !doc.is_empty() {
            doc.insert(0, format!("From {}:", self.path));
        }
        doc
    }
}

/// Text as inline code, with a fence its own backticks cannot close.
fn code(text: &str) -> String {
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// Doc lines as doc attributes, each with the space `///` leaves.
pub(super) fn doc(lines: &[String]) -> TokenStream {
    let lines = lines.iter().map(|l| if l.is_empty() { String::new() } else { format!(" {l}") });
    quote!(#(#[doc = #lines])*)
}

/// An item's doc: what it is, then where it comes from.
pub(super) fn described(what: &[&str], from: Vec<String>) -> TokenStream {
    let mut lines: Vec<String> = what.iter().map(|s| s.to_string()).collect();
    if !lines.is_empty() && !from.is_empty() {
        lines.push(String::new());
    }
    lines.extend(from);
    doc(&lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "game g {\n  region edges = B1,\n                 A2\n  action place = place disc\n}\n";

    #[test]
    fn a_span_is_quoted_by_its_whole_lines() {
        let o = Origin::new("g.game", TEXT);
        let at = TEXT.find("place disc").unwrap();
        assert_eq!(o.quote(Span::new(at, at + 5)), ["From g.game:4: `action place = place disc`"]);
        let at = TEXT.find("region").unwrap();
        let end = TEXT.find("A2").unwrap() + 2;
        assert_eq!(
            o.quote(Span::new(at, end)),
            ["From g.game:2-3:", "", "```text", "region edges = B1,", "               A2", "```"]
        );
    }

    #[test]
    fn a_span_past_the_text_or_inside_a_character_is_quoted_all_the_same() {
        let o = Origin::new("g.game", "tune é { A4/8 }\n");
        assert_eq!(o.quote(Span::new(6, 7)), ["From g.game:1: `tune é { A4/8 }`"]);
        assert_eq!(o.quote(Span::new(100, 200)), ["From g.game:2."]);
    }

    #[test]
    fn several_spans_are_a_list_in_the_files_order() {
        let o = Origin::new("g.game", TEXT);
        let place = TEXT.find("action").unwrap();
        let region = TEXT.find("region").unwrap();
        let region_end = TEXT.find("A2").unwrap() + 2;
        let spans = [Span::new(place, place + 6), Span::new(region, region_end), Span::new(place, place + 1)];
        assert_eq!(
            o.quote_all(spans),
            ["From g.game:", "- 2: `region edges = B1, ...`", "- 4: `action place = place disc`"]
        );
        assert_eq!(o.quote_all([Span::new(place, place + 6)]), ["From g.game:4: `action place = place disc`"]);
    }
}
