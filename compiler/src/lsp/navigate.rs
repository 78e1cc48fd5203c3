//! Go to definition and find references over the open files: a name's declarations in its
//! own file, or, for the names a game and a board share (controls, views and displays, lamps),
//! in the open files of the other kind.

use super::names::{self, Symbol};
use super::positions::LineIndex;
use super::Doc;
use lsp_types::Location;

/// A declaration and the open file it is in.
pub struct Found<'a> {
    pub doc: &'a Doc,
    pub symbol: Symbol,
}

/// The name at byte `offset` of `doc`, if it is a word outside comments and strings.
pub fn name_at(doc: &Doc, offset: usize) -> Option<&str> {
    let (_, word) = names::word_at(&doc.text, offset)?;
    let is_name = word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    (is_name && !names::in_comment_or_string(&doc.text, offset)).then_some(word)
}

/// Where `name`, used in `doc`, is declared: in `doc`, else in the open files of the other kind
/// where it is a name the two kinds share.
pub fn declarations<'a>(docs: &[&'a Doc], doc: &'a Doc, name: &str) -> Vec<Found<'a>> {
    let here: Vec<Found> = names::definitions(&doc.text)
        .into_iter()
        .filter(|s| s.name == name)
        .map(|symbol| Found { doc, symbol })
        .collect();
    if !here.is_empty() {
        return here;
    }
    docs.iter()
        .filter(|d| d.kind != doc.kind)
        .flat_map(|&d| names::definitions(&d.text).into_iter().map(move |symbol| Found { doc: d, symbol }))
        .filter(|f| f.symbol.name == name && f.symbol.kind.crosses_files())
        .collect()
}

pub fn location(doc: &Doc, span: gamec_dsl::Span) -> Location {
    Location { uri: doc.uri.clone(), range: LineIndex::new(&doc.text).range(span.start, span.end) }
}

/// The declarations of the name at `offset`.
pub fn definition(docs: &[&Doc], doc: &Doc, offset: usize) -> Vec<Location> {
    let Some(name) = name_at(doc, offset) else { return Vec::new() };
    declarations(docs, doc, name).iter().map(|f| location(f.doc, f.symbol.span)).collect()
}

/// Every use of the name at `offset`, in its file and, for a shared name, in the open files
/// of the other kind; none for a word that names nothing.
pub fn references(docs: &[&Doc], doc: &Doc, offset: usize, with_declaration: bool) -> Vec<Location> {
    let Some(name) = name_at(doc, offset) else { return Vec::new() };
    let found = declarations(docs, doc, name);
    if found.is_empty() {
        return Vec::new();
    }
    let shared = found.iter().any(|f| f.symbol.kind.crosses_files());
    let searched = docs.iter().filter(|d| d.uri == doc.uri || (shared && d.kind != doc.kind));
    let mut out = Vec::new();
    for &d in searched {
        let declared: Vec<_> =
            names::definitions(&d.text).into_iter().filter(|s| s.name == name).map(|s| s.span).collect();
        for span in names::references(&d.text, name) {
            if with_declaration || !declared.contains(&span) {
                out.push(location(d, span));
            }
        }
    }
    out
}

/// What a hover says of a name: what it is, and the line that declares it.
pub fn describe(docs: &[&Doc], doc: &Doc, name: &str) -> Option<String> {
    let found = declarations(docs, doc, name);
    let lines: Vec<String> = found
        .iter()
        .map(|f| {
            let text = &f.doc.text;
            let line = LineIndex::new(text).position(f.symbol.span.start).line + 1;
            let start = text[..f.symbol.span.start].rfind('\n').map_or(0, |i| i + 1);
            let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            let place = if f.doc.uri == doc.uri { String::new() } else { format!(" of {}", file_name(f.doc)) };
            let quoted = text[start..end].trim();
            format!("`{name}`: {}, declared on line {line}{place}\n```gamec\n{quoted}\n```", f.symbol.kind.describe())
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n\n"))
}

fn file_name(doc: &Doc) -> &str {
    doc.uri.as_str().rsplit('/').next().unwrap_or(doc.uri.as_str())
}
