//! Diagnostics with spans, rendered in the rustc style by codespan-reporting.

use crate::Code;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::NoColor};

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// Index of a file in [`Sources`].
pub type FileId = usize;

/// The source files of one compiler run, kept so diagnostics can quote them.
#[derive(Default)]
pub struct Sources {
    files: SimpleFiles<String, String>,
}

impl Sources {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.add(name.into(), text.into())
    }

    pub fn text(&self, file: FileId) -> &str {
        self.files.get(file).map(|f| f.source().as_str()).unwrap_or("")
    }

    /// The line and column (both from 1, the column in characters) of byte `offset` of `file`.
    pub fn line_column(&self, file: FileId, offset: usize) -> (usize, usize) {
        let text = self.text(file);
        let before = &text[..offset.min(text.len())];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
    }

    pub fn name(&self, file: FileId) -> &str {
        self.files.get(file).map(|f| f.name().as_str()).unwrap_or("?")
    }

    /// Renders diagnostics as plain text, the way rustc prints them.
    pub fn render(&self, diagnostics: &[Diagnostic]) -> String {
        let mut out = NoColor::new(Vec::new());
        let config = term::Config::default();
        for d in diagnostics {
            // Writing into a Vec cannot fail; a span past the end would, and is a bug upstream.
            let _ = term::emit_to_io_write(&mut out, &config, &self.files, &d.to_codespan());
        }
        String::from_utf8_lossy(&out.into_inner()).into_owned()
    }

    /// Writes `diagnostics` to `out` in colour (where `out` takes colours: a terminal).
    pub fn render_in_colour(
        &self,
        diagnostics: &[Diagnostic],
        out: &mut impl term::termcolor::WriteColor,
    ) -> std::io::Result<()> {
        let config = term::Config::default();
        for d in diagnostics {
            term::emit_to_write_style(out, &config, &self.files, &d.to_codespan()).map_err(std::io::Error::other)?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One labelled span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub file: FileId,
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

impl Label {
    pub fn primary(file: FileId, span: Span, message: impl Into<String>) -> Self {
        Label { file, span, message: message.into(), primary: true }
    }
    pub fn secondary(file: FileId, span: Span, message: impl Into<String>) -> Self {
        Label { file, span, message: message.into(), primary: false }
    }
}

/// A problem found in the user's files: a code, a message, labelled spans and a hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Self::error(code, message) }
    }
    pub fn with_label(mut self, label: Label) -> Self {
        self.labels.push(label);
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    fn to_codespan(&self) -> cs::Diagnostic<FileId> {
        let base = match self.severity {
            Severity::Error => cs::Diagnostic::error(),
            Severity::Warning => cs::Diagnostic::warning(),
        };
        let labels = self
            .labels
            .iter()
            .map(|l| {
                let style = if l.primary { cs::LabelStyle::Primary } else { cs::LabelStyle::Secondary };
                cs::Label::new(style, l.file, l.span.start..l.span.end).with_message(l.message.clone())
            })
            .collect();
        let mut notes = self.notes.clone();
        if let Some(help) = &self.help {
            notes.push(format!("help: {help}"));
        }
        base.with_code(self.code).with_message(self.message.clone()).with_labels(labels).with_notes(notes)
    }
}

/// A count with thousands apart, as messages print large numbers: 19,200; 32,164,253,550.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
