//! Fuzzes `gamec::check` and the rendering of its diagnostics: neither may panic on any input,
//! and every diagnostic's labels must point into the files checked.
//!
//! An input is UTF-8 text (other inputs are skipped). Up to its first NUL byte it is a game
//! file; after that NUL, if there is one, a board file checked beside it. Either file may be
//! of either kind: `check` tells them apart by their first keyword, as the CLI does.
//!
//! `check` solves every game it lints, up to 200,000 positions: seconds a run in a fuzzing
//! build, which would leave the fuzzer a few runs a second. So an input whose game has more
//! than [`SOLVE_LIMIT`] reachable positions takes `check`'s steps without the rule lints
//! (load, then bind the game to the board, or check the board alone), and only inputs whose
//! games are that small go through `gamec::check` itself.
//!
//! Run it with `cargo xtask fuzz` (seeds from games/ and boards/, the dictionary check.dict).

#![no_main]

use gamec::engine::{solve, Engine};
use gamec_dsl::{Definition, Diagnostic, FileId, Sources};
use libfuzzer_sys::fuzz_target;

/// Games with more reachable positions than this skip the rule lints.
const SOLVE_LIMIT: usize = 1_000;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut sources = Sources::new();
    let mut files = Vec::new();
    match text.split_once('\0') {
        Some((game, board)) => {
            files.push(sources.add("fuzz.game", game));
            files.push(sources.add("fuzz.board", board));
        }
        None => files.push(sources.add("fuzz.game", text)),
    }
    let diagnostics = if files.iter().all(|&f| small(&sources, f)) {
        gamec::check(&sources, &files).unwrap_or_else(|errors| errors)
    } else {
        check_without_lints(&sources, &files)
    };
    for d in &diagnostics {
        for label in &d.labels {
            let source = sources.text(label.file);
            assert!(files.contains(&label.file), "{}: a label in an unknown file {}", d.code, label.file);
            assert!(
                label.span.start <= label.span.end && source.get(label.span.start..label.span.end).is_some(),
                "{}: span {:?} is outside, or splits a character of, a {}-byte file",
                d.code,
                label.span,
                source.len()
            );
        }
    }
    let rendered = sources.render(&diagnostics);
    assert!(diagnostics.is_empty() || !rendered.is_empty(), "diagnostics rendered as nothing");
});

/// Whether a file is no game, or a game whose starts reach at most [`SOLVE_LIMIT`] positions.
fn small(sources: &Sources, file: FileId) -> bool {
    let Ok(Definition::Game(game)) = gamec_dsl::load(sources, file) else { return true };
    let engine = Engine::new(&game);
    let starts = gamec::analyze::starts(&engine, &game);
    solve::explore(&engine, &starts, SOLVE_LIMIT).is_ok()
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
