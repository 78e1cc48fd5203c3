//! What the fuzz targets share: reading an input as a game file and, after a NUL byte, a board
//! file (as the `check` target does), and keeping the inputs `gamec check` accepts.

#![allow(dead_code)]

// cargo fuzz builds with debug assertions, and so overflow checks, unless told `-O`: a target
// built without them would let every overflow wrap unseen. (Each target enables the
// `cfg_overflow_checks` feature for this.)
#[cfg(not(overflow_checks))]
compile_error!("the fuzz targets need overflow checks: build them as `cargo fuzz` does by default, not with -O");

use gamec::engine::{solve, Engine};
use gamec_dsl::{BoardDef, Definition, Diagnostic, FileId, GameDef, Sources};

/// Games whose starts reach more positions than this are too slow for `check`'s rule lints
/// (which solve up to 200,000 positions) in a fuzzing build.
pub const SOLVE_LIMIT: usize = 1_000;

/// The most cards a deck may have, and the largest group, for a game of cards to be analysed:
/// the analysis enumerates every group of the deck (Set's 81 cards and groups of three).
pub const MAX_DECK: usize = 81;
pub const MAX_GROUP: usize = 3;

/// An input as `check` reads it: UTF-8 text, a game file up to the first NUL, a board after it.
pub fn sources(data: &[u8]) -> Option<(Sources, Vec<FileId>)> {
    let text = std::str::from_utf8(data).ok()?;
    let mut sources = Sources::new();
    let mut files = Vec::new();
    match text.split_once('\0') {
        Some((game, board)) => {
            files.push(sources.add("fuzz.game", game));
            files.push(sources.add("fuzz.board", board));
        }
        None => files.push(sources.add("fuzz.game", text)),
    }
    Some((sources, files))
}

/// Whether a game's starts reach at most [`SOLVE_LIMIT`] positions.
pub fn small(game: &GameDef) -> bool {
    if let Some(cards) = &game.cards {
        let deck = cards.attributes.iter().fold(1usize, |n, a| n.saturating_mul(a.values.len()));
        return deck <= MAX_DECK && cards.group.size as usize <= MAX_GROUP;
    }
    let engine = Engine::new(game);
    let starts = gamec::analyze::starts(&engine, game);
    solve::explore(&engine, &starts, SOLVE_LIMIT).is_ok()
}

/// A game `gamec check` accepts (no error, warnings allowed), small enough to run `check`'s
/// rule lints on, with its file, and the board after it if there is one and `check` accepts
/// the pair.
pub struct Accepted {
    pub game: GameDef,
    pub game_file: FileId,
    pub board: Option<(BoardDef, FileId)>,
}

/// The game (and board) of an input that `gamec check` accepts, if its game is [`small`].
pub fn accepted_small(sources: &Sources, files: &[FileId]) -> Option<Accepted> {
    let game_file = files[0];
    let Ok(Definition::Game(game)) = gamec_dsl::load(sources, game_file) else { return None };
    if !small(&game) {
        return None;
    }
    // `check` lints every game it is given: a second game where a board should be must be
    // small too (a timeout the `analyze` target found after 7,426,484 executions).
    if let Some(&second) = files.get(1) {
        if let Ok(Definition::Game(other)) = gamec_dsl::load(sources, second) {
            if !small(&other) {
                return None;
            }
        }
    }
    gamec::check(sources, files).ok()?;
    let board = match files.get(1) {
        Some(&bf) => match gamec_dsl::load(sources, bf) {
            Ok(Definition::Board(b)) => Some((b, bf)),
            _ => None,
        },
        None => None,
    };
    Some(Accepted { game, game_file, board })
}

/// Asserts that every label of every diagnostic points into one of the files, on character
/// boundaries, and that the diagnostics render as something.
pub fn assert_well_placed(sources: &Sources, files: &[FileId], diagnostics: &[Diagnostic]) {
    for d in diagnostics {
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
    let rendered = sources.render(diagnostics);
    assert!(diagnostics.is_empty() || !rendered.is_empty(), "diagnostics rendered as nothing");
}
