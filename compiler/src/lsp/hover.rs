//! Hover: a diagnostic's code explained as `gamec explain` explains it, a name's kind and
//! declaration, or a keyword's documentation from the language reference.

use super::{keywords, names, navigate, Doc};
use gamec_dsl::Code;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

/// The hover at byte `offset` of `doc`. A code is explained even in a comment (`// E0005`
/// is how a file says why it is as it is); a name the file declares comes before a keyword
/// spelt the same (`device` may be a player).
pub fn hover(docs: &[&Doc], doc: &Doc, offset: usize) -> Option<Hover> {
    let (span, word) = names::word_at(&doc.text, offset)?;
    let text = match Code::parse(word) {
        Some(code) => explain(code),
        None => {
            let name = navigate::name_at(doc, offset)?;
            navigate::describe(docs, doc, name).or_else(|| keywords::documentation(name).map(String::from))?
        }
    };
    let index = super::positions::LineIndex::new(&doc.text);
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text }),
        range: Some(index.range(span.start, span.end)),
    })
}

/// `gamec explain CODE`'s text.
pub fn explain(code: Code) -> String {
    let mut text = format!("**{code}**: {}", code.meaning());
    if let Some(fix) = code.fix() {
        text += &format!("\n\nWhat to do: {fix}");
    }
    text
}
