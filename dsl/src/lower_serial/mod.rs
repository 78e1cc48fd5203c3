//! Resolution of a game's `controls serial` and `feedback serial` blocks into a [`SerialDef`]:
//! command words, their arguments and actions (`commands.rs`), what the device sends for each
//! event (`responses.rs`), and the board's glyphs (`glyphs.rs`).

use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
use crate::{Diagnostic, FileId, Label, Span};

mod commands;
mod glyphs;
mod responses;

/// `show board = text { ... }` as written: who, and the glyph's text.
type Glyphs = Vec<(ast::Ident, Option<ast::Ident>, Spanned<String>)>;

/// What the serial blocks may refer to in the rest of the game.
pub struct Scope<'a> {
    pub file: FileId,
    pub players: &'a [ast::Ident],
    /// The further kinds of a player's piece (`pieces man, king per player`: `king`).
    pub kinds: &'a [ast::Ident],
    /// The game's actions; `play` takes a placement or a drop.
    pub moves: &'a [MoveDef],
    pub pass: bool,
    /// The states a cell may hold, each shown by a glyph of its own.
    pub states: &'a [ast::Ident],
    /// Whether the game declares pieces: a game of states alone gives its players no glyph.
    pub pieces: bool,
    /// The piece's name where pieces belong to nobody (a line's pins, heaps' counters): one
    /// glyph, under that name, shows them whoever is to move.
    pub shared_piece: Option<&'a str>,
    /// The cells are heaps: the board is shown a heap a line, by the piece's glyph alone.
    pub heaps: bool,
    /// The game's starts, which `new game` may pick by number.
    pub setups: usize,
}

impl Scope<'_> {
    fn player_names(&self) -> Vec<&str> {
        self.players.iter().map(|p| p.node.as_str()).collect()
    }
}

/// The diagnostics of one lowering: those with a label and a hint, written as they are found,
/// and those with a note at an earlier span (a thing given twice), written after them.
struct Lowering<'d> {
    file: FileId,
    diags: &'d mut Vec<Diagnostic>,
    twice: Vec<Diagnostic>,
}

impl Lowering<'_> {
    fn err(&mut self, code: Code, span: Span, msg: impl Into<String>, label: &str, help: &str) {
        let d = Diagnostic::error(code, msg).with_label(Label::primary(self.file, span, label)).with_help(help);
        self.diags.push(d);
    }
}

pub fn lower(
    scope: &Scope,
    controls: &[ast::Command],
    feedback: &[Spanned<ast::SerialFeedbackItem>],
    span: Span,
    diags: &mut Vec<Diagnostic>,
) -> SerialDef {
    let mut l = Lowering { file: scope.file, diags, twice: Vec::new() };
    let mut commands: Vec<CommandDef> = Vec::new();
    for c in controls {
        if let Some(command) = commands::command(&mut l, scope, c, &commands) {
            commands.push(command);
        }
    }
    commands::required(&mut l, scope, &commands, span);
    let (says, shown) = responses::responses(&mut l, feedback);
    responses::required(&mut l, scope, &says, span);
    let g = glyphs::table(&mut l, scope, shown, span);
    let mut twice = std::mem::take(&mut l.twice);
    l.diags.append(&mut twice);
    SerialDef {
        commands,
        says,
        piece_glyphs: g.pieces,
        empty_glyph: g.empty,
        legal_glyph: g.legal,
        kind_glyphs: g.kinds,
        state_glyphs: g.states,
        span,
    }
}

/// One choice a player, for a hint: `"B" = black, "W" = white` from the players' initials,
/// or their whole names where the initials agree.
fn side_texts(players: &[ast::Ident]) -> String {
    let initial = |p: &ast::Ident| p.node.chars().next().map_or(String::new(), |c| c.to_uppercase().to_string());
    let initials: Vec<String> = players.iter().map(initial).collect();
    let distinct = initials.iter().enumerate().all(|(i, a)| !initials[..i].contains(a));
    players
        .iter()
        .zip(&initials)
        .map(|(p, i)| format!("\"{}\" = {}", if distinct { i.clone() } else { p.node.to_uppercase() }, p.node))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Splits a reply's text at its `{...}` placeholders.
/// A text's parts, or what is wrong with it and a hint.
fn text(t: &str, event: SessionEvent) -> Result<Vec<TextPart>, (String, &'static str)> {
    // Bytes below a space are the response scripts' opcodes, and a line ends with CR LF anyway.
    if t.bytes().any(|b| b < b' ' || b == 0x7F) {
        return Err((
            "a reply holds printable characters only (no tabs or control characters)".into(),
            "write spaces instead; each text is sent as one line ended by CR LF",
        ));
    }
    let placeholder =
        |why: String| (why, "placeholders are `{cell}` and `{column}` (in `device moves`), `{device}` and `{host}`");
    let mut parts = Vec::new();
    let mut rest = t;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(TextPart::Text(rest[..open].to_string()));
        }
        let close = rest[open..].find('}').ok_or_else(|| placeholder("a `{` is not closed".into()))? + open;
        parts.push(match &rest[open + 1..close] {
            "cell" if event == SessionEvent::DeviceMoves => TextPart::Cell,
            "cell" => return Err(placeholder("`{cell}` is known only in `device moves`".into())),
            "column" if event == SessionEvent::DeviceMoves => TextPart::Column,
            "column" => return Err(placeholder("`{column}` is known only in `device moves`".into())),
            "device" => TextPart::Count { device: true },
            "host" => TextPart::Count { device: false },
            other => return Err(placeholder(format!("unknown placeholder `{{{other}}}`"))),
        });
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(TextPart::Text(rest.to_string()));
    }
    Ok(parts)
}
