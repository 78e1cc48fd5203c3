//! The gamec language: grammar, spanned syntax tree, parser, name resolution and diagnostics.
//!
//! This crate knows nothing of chips or code generation: it turns the text of a `.game` or
//! `.board` file into a checked definition ([`GameDef`], [`BoardDef`]) or a list of
//! [`Diagnostic`]s that point at the offending text.

pub mod ast;
mod codes;
pub mod diagnostic;
mod lower_board;
mod lower_game;
mod lower_serial;
pub mod model;
mod parse;
mod suggest;

pub use ast::CmpOp;
pub use codes::Code;
pub use diagnostic::{thousands, Diagnostic, FileId, Label, Severity, Sources, Span};
pub use model::*;

/// What a source file turned out to be, after parsing and resolution.
#[derive(Debug, Clone)]
// One per file loaded, so the size of a game beside a board costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Definition {
    Game(GameDef),
    Board(BoardDef),
}

/// Parses and resolves one file already registered in `sources`.
pub fn load(sources: &Sources, file: FileId) -> Result<Definition, Vec<Diagnostic>> {
    let ast = parse::parse(file, sources.text(file))?;
    match ast {
        ast::File::Game(game) => lower_game::lower(file, &game).map(Definition::Game),
        ast::File::Board(board) => lower_board::lower(file, &board).map(Definition::Board),
    }
}

/// Parses and resolves a file that must be a game.
pub fn load_game(sources: &Sources, file: FileId) -> Result<GameDef, Vec<Diagnostic>> {
    match load(sources, file)? {
        Definition::Game(g) => Ok(g),
        Definition::Board(b) => Err(vec![Diagnostic::error(Code::E0007, "expected a game file, found a board")
            .with_label(Label::primary(file, b.name.span, "this file describes a board"))
            .with_help("pass a `.game` file here and the board with `--board`")]),
    }
}

/// Parses and resolves a file that must be a board.
pub fn load_board(sources: &Sources, file: FileId) -> Result<BoardDef, Vec<Diagnostic>> {
    match load(sources, file)? {
        Definition::Board(b) => Ok(b),
        Definition::Game(g) => Err(vec![Diagnostic::error(Code::E0007, "expected a board file, found a game")
            .with_label(Label::primary(file, g.name.span, "this file describes a game"))
            .with_help("pass a `.board` file with `--board`")]),
    }
}
