//! The gamec compiler: binds a game to a board, proves facts about its rules, and renders the
//! firmware crate. Everything here except [`driver`] is pure: text in, text and facts out.

pub mod analyze;
pub mod bind;
pub mod cards;
pub mod chips;
pub mod codegen;
pub mod driver;
pub mod engine;
mod error;
pub mod game_tests;
pub mod generate;
pub mod grid_rules;
pub mod lints;
pub mod rules;
pub mod solve;
pub mod stack_depth;
pub mod stickers;

pub use error::Error;

use gamec_dsl::{Definition, Diagnostic, FileId, Sources};

/// Loads every file, lints each game's rules and, where a game and a board are both given,
/// checks their pairing. `Ok` carries the warnings.
pub fn check(sources: &Sources, files: &[FileId]) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut games = Vec::new();
    let mut boards = Vec::new();
    for &f in files {
        match gamec_dsl::load(sources, f) {
            Ok(Definition::Game(g)) => {
                diags.extend(lints::lint(&g, f));
                games.push((f, g));
            }
            Ok(Definition::Board(b)) => boards.push((f, b)),
            Err(d) => diags.extend(d),
        }
    }
    for (bf, board) in &boards {
        match games.first() {
            Some((gf, game)) => match bind::bind(game, *gf, board, *bf) {
                Ok(t) => diags.extend(t.warnings),
                Err(d) => diags.extend(d),
            },
            None => diags.extend(bind::check_board(board, *bf)),
        }
    }
    if diags.iter().any(Diagnostic::is_error) {
        Err(diags)
    } else {
        Ok(diags)
    }
}
