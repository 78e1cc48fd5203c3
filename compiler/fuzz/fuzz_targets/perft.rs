//! Fuzzes `gamec perft`: on every input `gamec check` accepts whose game has one start, the
//! engine's move-path counts from it, depth by depth, and where the game has the fast bitboard
//! reading (`gamec::grid_rules`, which `gamec perft` prefers), the two readings' counts must be
//! equal. Overflow checks are on (cargo fuzz's default), so the counts cannot wrap unseen.
//!
//! Inputs are read as the `check` target reads them (a game, then after a NUL a board).
//! Limits, so that a run takes milliseconds: only games whose starts reach at most
//! `common::SOLVE_LIMIT` (1,000) positions; depths 1 to [`MAX_DEPTH`], stopping after the
//! first depth whose count passes [`MAX_LEAVES`].
//!
//! Run it with `cargo xtask fuzz --target perft`.

#![no_main]
#![feature(cfg_overflow_checks)]

#[path = "common.rs"]
mod common;

use gamec::engine::Engine;
use gamec::grid_rules::GridRules;
use libfuzzer_sys::fuzz_target;

/// The deepest count, as `gamec perft`'s default depth.
const MAX_DEPTH: u32 = 6;
/// No deeper count once one depth has this many leaves.
const MAX_LEAVES: u64 = 5_000;

fuzz_target!(|data: &[u8]| {
    let Some((sources, files)) = common::sources(data) else { return };
    let Some(accepted) = common::accepted_small(&sources, &files) else { return };
    let game = &accepted.game;
    if game.cards.is_some() {
        return;
    }
    let engine = Engine::new(game);
    let starts = gamec::analyze::starts(&engine, game);
    let [start] = starts.as_slice() else { return };
    let fast = GridRules::new(game);
    for depth in 1..=MAX_DEPTH {
        let n = engine.perft(start, depth);
        if let Some(rules) = &fast {
            assert_eq!(
                rules.perft(&rules.start, depth),
                n,
                "the bitboard reading and the engine differ at depth {depth}"
            );
        }
        if n == 0 || n > MAX_LEAVES {
            break;
        }
    }
});
