//! Fuzzes `gamec analyze` (`gamec::analyze`): on every input `gamec check` accepts, the facts
//! about the game's rules, and for a line game dealt at random the seed's analysis, are worked
//! out and printed without a panic (overflow checks on, as cargo fuzz builds by default).
//!
//! Inputs are read as the `check` target reads them (a game, then after a NUL a board).
//! Limits, so that a run takes milliseconds: only games whose starts reach at most
//! `common::SOLVE_LIMIT` (1,000) positions, and games of cards with at most 81 cards and groups
//! of at most 3; others are skipped. Within them `analyze` runs in full (its 200 playouts of up
//! to 10,000 plies, a puzzle's solutions and difficulty).
//!
//! Run it with `cargo xtask fuzz --target analyze`.

#![no_main]
#![feature(cfg_overflow_checks)]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((sources, files)) = common::sources(data) else { return };
    let Some(accepted) = common::accepted_small(&sources, &files) else { return };
    let game = &accepted.game;
    if game.rules.setup.is_random() && gamec::rules::Rules::new(game).is_some() {
        match gamec::analyze::Analysis::new(game, accepted.game_file) {
            Ok(analysis) => assert!(!analysis.to_string().is_empty()),
            // `check` lints the same setups: what it accepts, analysis may still refuse (no
            // setup survives `winnable`), but with a diagnostic that points into the file.
            Err(d) => common::assert_well_placed(&sources, &files, &d),
        }
    }
    let facts = gamec::analyze::Facts::new(game).to_string();
    assert!(facts.starts_with("places:"), "facts printed as {facts:?}");
});
