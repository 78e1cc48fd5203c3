//! The open files checked as `gamec check` checks them, and the compiler's diagnostics turned
//! into the protocol's: byte spans to positions, the code, notes and help in the message, and
//! the other labels as related information.

use super::positions::LineIndex;
use super::{Doc, FileKind};
use gamec_dsl::{Diagnostic, FileId, Severity, Sources};
use lsp_types::{DiagnosticRelatedInformation, Location, NumberOrString, Uri};

/// Every open file's diagnostics, an empty list for a file without any (which clears what the
/// editor showed). One game and one board open together are checked as a pair, as `gamec
/// check GAME --board BOARD` does, each diagnostic going to the file its main label is in;
/// otherwise each file is checked on its own.
pub fn check_all(docs: &[&Doc]) -> Vec<(Uri, Vec<lsp_types::Diagnostic>)> {
    let mut sources = Sources::new();
    let ids: Vec<FileId> = docs.iter().map(|d| sources.add(d.uri.as_str(), d.text.clone())).collect();
    let of_kind = |k| ids.iter().copied().filter(|&i| docs[i].kind == k).collect::<Vec<_>>();
    let (games, boards) = (of_kind(FileKind::Game), of_kind(FileKind::Board));
    let runs: Vec<Vec<FileId>> = match (games.as_slice(), boards.as_slice()) {
        ([g], [b]) => vec![vec![*g, *b]],
        _ => ids.iter().map(|&i| vec![i]).collect(),
    };
    let mut out: Vec<Vec<lsp_types::Diagnostic>> = vec![Vec::new(); docs.len()];
    let uris: Vec<Uri> = docs.iter().map(|d| d.uri.clone()).collect();
    for files in runs {
        for d in guarded_check(&sources, &files) {
            // The file of the main label (a diagnostic without labels: the first file checked).
            let label = d.labels.iter().find(|l| l.primary).or(d.labels.first());
            let file = label.map_or(files[0], |l| l.file).min(docs.len() - 1);
            out[file].push(convert(&sources, &uris, &d));
        }
    }
    uris.into_iter().zip(out).collect()
}

/// [`crate::check`], with a panic in the compiler (a bug, but one a half-typed file may find)
/// turned into a diagnostic rather than the end of the server.
fn guarded_check(sources: &Sources, files: &[FileId]) -> Vec<Diagnostic> {
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| crate::check(sources, files)));
    match run {
        Ok(Ok(warnings)) => warnings,
        Ok(Err(diags)) => diags,
        Err(_) => vec![Diagnostic::error(
            gamec_dsl::Code::E0001,
            "the compiler stopped on this file (an internal error): please report it with the file",
        )],
    }
}

/// One diagnostic in the protocol's terms, at its main label (or the file's start).
pub fn convert(sources: &Sources, uris: &[Uri], d: &Diagnostic) -> lsp_types::Diagnostic {
    let range_of = |file: FileId, span: gamec_dsl::Span| LineIndex::new(sources.text(file)).range(span.start, span.end);
    let primary = d.labels.iter().find(|l| l.primary).or(d.labels.first());
    let range = primary.map_or_else(lsp_types::Range::default, |l| range_of(l.file, l.span));
    let mut message = d.message.clone();
    if let Some(label) = primary.filter(|l| !l.message.is_empty()) {
        message += &format!("\n{}", label.message);
    }
    for note in &d.notes {
        message += &format!("\nnote: {note}");
    }
    if let Some(help) = &d.help {
        message += &format!("\nhelp: {help}");
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .filter(|l| !std::ptr::eq(*l, primary.expect("a label, since there are labels")))
        .filter_map(|l| {
            let uri = uris.get(l.file)?.clone();
            let message = if l.message.is_empty() { "here".to_string() } else { l.message.clone() };
            Some(DiagnosticRelatedInformation { location: Location { uri, range: range_of(l.file, l.span) }, message })
        })
        .collect();
    lsp_types::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => lsp_types::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp_types::DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("gamec".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamec_dsl::{Code, Label, Span};

    #[test]
    fn labels_become_a_range_and_related_places() {
        let mut sources = Sources::new();
        let id = sources.add("a.game", "game g {\n  players a, a\n}");
        let uris: Vec<Uri> = vec!["file:///a.game".parse().unwrap()];
        let d = Diagnostic::error(Code::E0002, "player `a` given twice")
            .with_label(Label::primary(id, Span::new(22, 23), "again"))
            .with_label(Label::secondary(id, Span::new(19, 20), "first here"))
            .with_note("a note")
            .with_help("keep one");
        let l = convert(&sources, &uris, &d);
        assert_eq!(l.range, lsp_types::Range::new(lsp_types::Position::new(1, 13), lsp_types::Position::new(1, 14)));
        assert_eq!(l.code, Some(NumberOrString::String("E0002".into())));
        assert_eq!(l.severity, Some(lsp_types::DiagnosticSeverity::ERROR));
        assert_eq!(l.message, "player `a` given twice\nagain\nnote: a note\nhelp: keep one");
        let related = l.related_information.unwrap();
        assert_eq!(related.len(), 1);
        assert_eq!(related[0].message, "first here");
        assert_eq!(related[0].location.range.start, lsp_types::Position::new(1, 10));
    }
}
