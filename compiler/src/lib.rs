//! The gamec compiler: binds a game to a board, proves facts about its rules, and renders the
//! firmware crate. Everything here except [`driver`] and [`lsp`] (a server on standard input
//! and output) is pure: text in, text and facts out.

pub mod analyze;
pub mod bind;
pub mod cards;
pub mod chips;
pub mod codegen;
pub mod draw;
pub mod driver;
pub mod engine;
mod error;
pub mod game_tests;
pub mod generate;
pub mod grid_rules;
pub mod lints;
pub mod lsp;
pub mod play;
pub mod rules;
pub mod sim;
pub mod solve;
pub mod stack_depth;
pub mod stickers;
pub mod web;

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
                Ok(t) => {
                    diags.extend(shallow_search(game, &t, *gf));
                    diags.extend(t.warnings);
                }
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

/// W0024 where the device searches and the chip's RAM leaves its search one or two plies: a
/// device that plays, but hardly looks ahead, is worth saying so before anyone plays it.
pub fn shallow_search(game: &gamec_dsl::GameDef, target: &bind::Target, game_file: FileId) -> Option<Diagnostic> {
    let searches = game.device.strategy.as_ref().is_some_and(|s| s.kind == gamec_dsl::StrategyKind::Search);
    let depth = codegen::search_depth(game, target).filter(|&d| searches && d < 3)?;
    let strategy = game.device.strategy.as_ref()?;
    let plies = if depth == 1 { "1 ply" } else { "2 plies" };
    Some(
        Diagnostic::warning(
            gamec_dsl::Code::W0024,
            format!("the device's search fits {plies} on the {}", target.chip.name),
        )
        .with_label(gamec_dsl::Label::primary(game_file, strategy.span, "searches"))
        .with_note(format!(
            "each ply keeps its moves and frames on the stack, and the chip's {} B of RAM leave \
                 room for {plies} beside the game's state",
            gamec_dsl::thousands(target.chip.ram as u64)
        ))
        .with_help("a chip with more RAM searches deeper, such as the atmega64 or atmega128 (4 KB) or a Cortex-M"),
    )
}
