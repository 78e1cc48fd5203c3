//! Fuzzes `gamec::check` and the rendering of its diagnostics: neither may panic on any input,
//! and every diagnostic's labels must point into the files checked.
//!
//! An input is UTF-8 text (other inputs are skipped). Up to its first NUL byte it is a game
//! file; after that NUL, if there is one, a board file checked beside it. Either file may be
//! of either kind: `check` tells them apart by their first keyword, as the CLI does.
//!
//! `check` solves every game it lints, up to 200,000 positions: seconds a run in a fuzzing
//! build, which would leave the fuzzer a few runs a second. So an input whose game has more
//! than `common::SOLVE_LIMIT` (1,000) reachable positions takes `check`'s steps without the rule lints
//! (load, then bind the game to the board, or check the board alone), and only inputs whose
//! games are that small go through `gamec::check` itself.
//!
//! Run it with `cargo xtask fuzz` (seeds from games/ and boards/, the dictionary check.dict).

#![no_main]
#![feature(cfg_overflow_checks)]

#[path = "common.rs"]
mod common;

use gamec_dsl::{Definition, Diagnostic, FileId, Sources};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((sources, files)) = common::sources(data) else { return };
    let diagnostics = if files.iter().all(|&f| small(&sources, f)) {
        gamec::check(&sources, &files).unwrap_or_else(|errors| errors)
    } else {
        check_without_lints(&sources, &files)
    };
    common::assert_well_placed(&sources, &files, &diagnostics);
});

/// Whether a file is no game, or a game whose starts reach at most `common::SOLVE_LIMIT`
/// positions.
fn small(sources: &Sources, file: FileId) -> bool {
    let Ok(Definition::Game(game)) = gamec_dsl::load(sources, file) else { return true };
    common::small(&game)
}

/// `gamec::check` without `lints::lint`: the same steps, in the same order.
fn check_without_lints(sources: &Sources, files: &[FileId]) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut games = Vec::new();
    let mut boards = Vec::new();
    for &f in files {
        match gamec_dsl::load(sources, f) {
            Ok(Definition::Game(g)) => games.push((f, g)),
            Ok(Definition::Board(b)) => boards.push((f, b)),
            Err(d) => diags.extend(d),
        }
    }
    for (bf, board) in &boards {
        match games.first() {
            Some((gf, game)) => {
                if let Err(d) = gamec::bind::bind(game, *gf, board, *bf) {
                    diags.extend(d);
                }
            }
            None => diags.extend(gamec::bind::check_board(board, *bf)),
        }
    }
    diags
}
