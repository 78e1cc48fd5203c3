//! Completion: the words the parser would take at the cursor and the file's own names.
//!
//! The text before the word being typed is parsed alone: it ends where the cursor is, so the
//! parser's syntax error there ("expected `players`, `first` ... or `tune`, found end of
//! file") lists what may come next. Where no such error says (the parser stopped at an earlier
//! mistake), every keyword and name is offered.

use super::{keywords, names, Doc};
use gamec_dsl::{Code, Sources};
use lsp_types::{CompletionItem, CompletionItemKind};

/// What may be written at byte `offset` of `doc`, starting with the word already begun there.
pub fn complete(doc: &Doc, offset: usize) -> Vec<CompletionItem> {
    let offset = super::positions::floor_boundary(&doc.text, offset);
    if names::in_comment_or_string(&doc.text, offset) {
        return Vec::new();
    }
    let start = names::word_at(&doc.text, offset).map_or(offset, |(span, _)| span.start.min(offset));
    let prefix = &doc.text[start..offset];
    let (words, with_names) = match expected(&doc.text[..start]) {
        Some(expected) => expected,
        None => (keywords::words().iter().map(|w| w.to_string()).collect(), true),
    };
    let mut items: Vec<CompletionItem> = words
        .into_iter()
        .map(|w| CompletionItem { label: w, kind: Some(CompletionItemKind::KEYWORD), ..Default::default() })
        .collect();
    if with_names {
        let mut seen = std::collections::BTreeSet::new();
        // Strings (tests' and setups' names) are no words to write in a statement.
        for s in names::definitions(&doc.text)
            .into_iter()
            .filter(|s| !matches!(s.kind, names::Kind::Test | names::Kind::Setup))
        {
            if seen.insert(s.name.clone()) {
                items.push(CompletionItem {
                    label: s.name,
                    kind: Some(CompletionItemKind::VARIABLE),
                    detail: Some(s.kind.describe().to_string()),
                    ..Default::default()
                });
            }
        }
    }
    items.retain(|i| i.label.starts_with(prefix) && i.label != prefix);
    items
}

/// The most earlier mistakes set aside to hear what the parser expects at the cursor.
const MOST_SET_ASIDE: usize = 8;

/// The words the parser expects at the end of `before`, and whether a name may come there
/// too; `None` when the parser does not say (a file past its end, or too many mistakes).
fn expected(before: &str) -> Option<(Vec<String>, bool)> {
    let end = before.trim_end().len();
    let mut text = before.to_string();
    // The parser says nothing of the end of a file after a syntax error (it would be the
    // error's echo), so a line with an earlier mistake is blanked, as the parser blanks it.
    for _ in 0..MOST_SET_ASIDE {
        let mut sources = Sources::new();
        let id = sources.add("completion", text.clone());
        let run = std::panic::catch_unwind(|| gamec_dsl::load(&sources, id).err());
        let diags = run.ok().flatten()?;
        let syntax = |d: &&gamec_dsl::Diagnostic| d.code == Code::E0001;
        let start = |d: &gamec_dsl::Diagnostic| d.labels.first().map_or(0, |l| l.span.start);
        if let Some(at_end) = diags.iter().filter(syntax).find(|d| start(d) >= end) {
            return Some(words_in(&at_end.message));
        }
        let earlier = start(diags.iter().find(syntax)?).min(text.len());
        let from = text[..earlier].rfind('\n').map_or(0, |i| i + 1);
        let to = text[earlier..].find('\n').map_or(text.len(), |i| earlier + i);
        text.replace_range(from..to, &" ".repeat(to - from));
    }
    None
}

/// The words of a syntax error's "expected ..." and whether it expects a name.
fn words_in(message: &str) -> (Vec<String>, bool) {
    let message = message.rsplit_once(", found").map_or(message, |(e, _)| e);
    // The expected forms are in backticks: `line of K`, `count(...) > ...`, `PLAYER wins`.
    let forms: Vec<&str> = message.split('`').skip(1).step_by(2).collect();
    let mut words: Vec<String> = forms
        .iter()
        .filter_map(|f| f.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next())
        .filter(|w| w.starts_with(|c: char| c.is_ascii_lowercase()))
        .map(String::from)
        .collect();
    words.sort();
    words.dedup();
    // Outside the backticks the message says "a name", "a region's name"; inside, a form's
    // capitals stand for a name (`PLAYER wins`).
    let prose: String = message.split('`').step_by(2).collect();
    let placeholder =
        forms.iter().any(|f| f.split(' ').any(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase())));
    let with_names = placeholder || ["name", "player", "region", "feature"].iter().any(|w| prose.contains(w));
    (words, with_names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str, offset: usize) -> Vec<String> {
        let doc = Doc { uri: "file:///a.game".parse().unwrap(), text: text.into(), kind: super::super::FileKind::Game };
        complete(&doc, offset).into_iter().map(|i| i.label).collect()
    }

    #[test]
    fn a_statement_s_start_offers_statements_and_a_result_offers_results_and_names() {
        let text = "game g {\n  players red, blue\n  \n}";
        let at = text.find("  \n}").unwrap() + 2;
        let offered = labels(text, at);
        assert!(offered.contains(&"action".to_string()) && offered.contains(&"region".to_string()), "{offered:?}");
        assert!(!offered.contains(&"red".to_string()), "no name starts a statement: {offered:?}");
        let text = "game g {\n  players red, blue\n  end { full -> \n}";
        let offered = labels(text, text.find("-> ").unwrap() + 3);
        assert!(offered.contains(&"draw".to_string()) && offered.contains(&"red".to_string()), "{offered:?}");
        assert!(!offered.contains(&"players".to_string()), "{offered:?}");
    }

    #[test]
    fn an_earlier_mistake_is_set_aside() {
        let text = "game g {\n  players red, blue\n  frist red\n  end { full -> \n}";
        let offered = labels(text, text.find("-> ").unwrap() + 3);
        assert!(offered.contains(&"draw".to_string()) && !offered.contains(&"players".to_string()), "{offered:?}");
    }

    #[test]
    fn a_begun_word_narrows_the_offer() {
        let text = "game g {\n  players red, blue\n  ac\n}";
        let at = text.find("ac\n").unwrap() + 2;
        assert_eq!(labels(text, at), ["action"]);
    }
}
