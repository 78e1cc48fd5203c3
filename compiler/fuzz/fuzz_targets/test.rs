//! Fuzzes `gamec test` (`gamec::game_tests`): on every input `gamec check` accepts, the tests
//! the game file carries run without a panic (overflow checks on, cargo fuzz's default), and
//! every failure is a diagnostic placed in the game file that renders.
//!
//! Inputs are read as the `check` target reads them (a game, then after a NUL a board).
//! Limit, so that a run takes milliseconds: only games whose starts reach at most
//! `common::SOLVE_LIMIT` (1,000) positions (a test's `expect` of a value solves the game).
//!
//! Run it with `cargo xtask fuzz --target test`.

#![no_main]
#![feature(cfg_overflow_checks)]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((sources, files)) = common::sources(data) else { return };
    let Some(accepted) = common::accepted_small(&sources, &files) else { return };
    let runs = gamec::game_tests::run(&accepted.game, accepted.game_file);
    assert_eq!(runs.len(), accepted.game.tests.len(), "a result for every test");
    for run in &runs {
        common::assert_well_placed(&sources, &files[..1], &run.failures);
    }
});
