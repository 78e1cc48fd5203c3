//! Fuzzes the rendering of the firmware crate (`gamec::codegen::firmware_crate`, called as
//! `gamec build` calls it in `gamec::driver::build`, without compiling what it writes): every
//! game and board that `gamec check` accepts as a pair renders without a panic (overflow
//! checks on, cargo fuzz's default), every Rust file of it parses (the renderer formats its
//! tokens through `syn`), and no file is empty.
//!
//! An input is a game file, a NUL byte, then a board file; inputs without a board are skipped.
//! Limits, so that a run takes milliseconds: a game whose starts reach at most
//! `common::SOLVE_LIMIT` (1,000) positions must pass `gamec::check` in full; a larger one (the
//! shipped grid games) is held to `check`'s steps less the rule lints, which solve up to
//! 200,000 positions: it loads, and it binds to the board without an error.
//!
//! Run it with `cargo xtask fuzz --target firmware`.

#![no_main]
#![feature(cfg_overflow_checks)]

#[path = "common.rs"]
mod common;

use gamec::analyze::Analysis;
use gamec::codegen::{firmware_crate, ScaffoldInputs};
use gamec_dsl::Definition;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((sources, files)) = common::sources(data) else { return };
    let &[gf, bf] = files.as_slice() else { return };
    let Ok(Definition::Game(game)) = gamec_dsl::load(&sources, gf) else { return };
    let Ok(Definition::Board(board)) = gamec_dsl::load(&sources, bf) else { return };
    // What `check` accepts with a board, `build` must build: bind and the line app's solver
    // may not refuse it, and a refusal always says why.
    let checked = common::small(&game);
    if checked && gamec::check(&sources, &files).is_err() {
        return;
    }
    let target = match gamec::bind::bind(&game, gf, &board, bf) {
        Ok(t) => t,
        Err(d) => {
            assert!(!checked, "`check` accepted the pair and bind refuses it");
            assert!(!d.is_empty(), "bind refused without a diagnostic");
            common::assert_well_placed(&sources, &files, &d);
            return;
        }
    };
    // As the driver does: the line app's games are solved, every other carries its rules.
    let analysis = if target.plays_slides(&game) {
        match Analysis::new(&game, gf) {
            Ok(a) => Some(a),
            Err(d) => {
                assert!(!checked, "`check` accepted the pair and the build's solver refuses it");
                common::assert_well_placed(&sources, &files, &d);
                return;
            }
        }
    } else {
        None
    };
    let name = format!("{}-{}", game.name.node, board.name.node).replace('_', "-");
    let inputs = ScaffoldInputs {
        crate_name: name,
        runtime_path: "/runtime".into(),
        game_path: "fuzz.game".into(),
        board_path: "fuzz.board".into(),
    };
    let crate_files = firmware_crate(&game, &board, analysis.as_ref(), &target, &inputs, sources.text(gf));
    assert!(crate_files.iter().any(|f| f.path == "src/main.rs"), "no main.rs");
    for f in &crate_files {
        assert!(!f.contents.trim().is_empty(), "{} is empty", f.path);
    }
});
