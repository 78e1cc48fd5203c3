//! The Cortex-M boards' stack: every board in `boards/` on a Cortex-M chip budgets its stack,
//! `gamec build` bounds its firmware's stack from the Thumb-2 machine code and checks it
//! against that budget, and the bound's word on interrupt priorities holds for the runtime.

use gamec::bind::Target;
use gamec::chips::Arch;
use gamec::driver::{load_pair, Built};
use gamec::stack_depth::{thumb_stack_depth, Priorities, Reentry};
use gamec_dsl::Sources;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every board in `boards/` on a Cortex-M chip, with the game it is named for (`<game>_*.board`,
/// the longest such game name) and its target.
fn cortex_m_boards() -> Vec<(PathBuf, PathBuf, Target)> {
    let stems = |dir: &str, ext: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .filter_map(|e| e.unwrap().file_name().into_string().ok()?.strip_suffix(ext).map(String::from))
            .collect();
        names.sort();
        names
    };
    let games = stems("games", ".game");
    let mut boards = Vec::new();
    for board in stems("boards", ".board") {
        let Some(game) = games.iter().filter(|g| board.starts_with(&format!("{g}_"))).max_by_key(|g| g.len()) else {
            continue;
        };
        let (game_path, board_path) =
            (root().join(format!("games/{game}.game")), root().join(format!("boards/{board}.board")));
        let (_, _, target, _) = load_pair(&mut Sources::new(), &game_path, &board_path)
            .unwrap_or_else(|e| panic!("{}: {e}", board_path.display()));
        if let Arch::CortexM(_) = target.chip.arch {
            boards.push((game_path, board_path, target));
        }
    }
    boards
}

/// A board without a stack budget lets the stack grow unchecked into its static RAM.
#[test]
fn every_cortex_m_board_has_a_stack_budget() {
    let boards = cortex_m_boards();
    assert!(boards.len() >= 2, "the shipped Cortex-M boards: {}", boards.len());
    let missing: Vec<String> =
        boards.iter().filter(|(_, _, t)| t.budget_stack.is_none()).map(|(_, b, _)| b.display().to_string()).collect();
    assert!(missing.is_empty(), "Cortex-M boards with no `budget ... stack N`: {missing:#?}");
}

/// Every Cortex-M board's firmware builds (which checks its budgets), and the machine code
/// bounds its stack, within the board's stack budget, as `gamec build` reports it.
#[test]
fn every_cortex_m_board_s_firmware_has_a_stack_bound_within_its_budget() {
    let out = root().join("target/gamec-tests");
    let mut failures = Vec::new();
    for (game_path, board_path, _) in cortex_m_boards() {
        let board = board_path.file_stem().unwrap().to_string_lossy().into_owned();
        let Built { elf, target, report, .. } =
            match gamec::driver::build(&mut Sources::new(), &game_path, &board_path, &out) {
                Ok(b) => b,
                Err(e) => {
                    failures.push(format!("{board}: {e}"));
                    continue;
                }
            };
        let elf = std::fs::read(elf).unwrap();
        // The recursion the runtime vouches for (a search's plies, the rule core's walk).
        let (game, _, _, _) = gamec::driver::load_pair(&mut Sources::new(), &game_path, &board_path).unwrap();
        let limits = gamec::driver::recursion_limits(&game, &target);
        match (thumb_stack_depth(&elf, Priorities::Shared, true, Reentry::Never, &limits), target.budget_stack) {
            (Ok(d), Some(budget)) if d.bytes <= budget => {
                eprintln!(
                    "{board}: stack bound {} B ({} B of it exceptions'), budget {budget} B",
                    d.bytes, d.interrupt_bytes
                );
                assert!(report.contains(&format!("budget stack: {} B of {budget} B", d.bytes)), "{report}");
                // Reset's chain, then a handler, HardFault and NMI each on its exception frame.
                assert_eq!(d.path.first().map(String::as_str), Some("Reset"), "{:?}", d.path);
                assert!(d.interrupt_bytes >= 3 * (104 + 4), "{d:?}");
            }
            (Ok(d), budget) => failures.push(format!("{board}: a bound of {} B over its budget {budget:?}", d.bytes)),
            (Err(why), _) => failures.push(format!("{board}: no stack bound: {why}")),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The bound counts the handlers of configurable priority once, not nested
/// (`Priorities::Shared`), because nothing gives them different priorities: neither the
/// runtime's Cortex-M glue nor the firmware the compiler writes for those chips sets one, so
/// every handler keeps the reset priority and none preempts another.
#[test]
fn nothing_sets_an_interrupt_priority() {
    let mut sources = Vec::new();
    for dir in ["runtime/src/chip", "runtime/src", "compiler/src/codegen"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "rs") {
                sources.push(path);
            }
        }
    }
    assert!(sources.iter().any(|p| p.ends_with("cortex_m.rs")), "{sources:?}");
    for path in sources {
        let text = std::fs::read_to_string(&path).unwrap();
        // `NVIC::set_priority`, `SCB::set_priority`, the registers themselves, and BASEPRI's
        // grouping (`AIRCR`'s PRIGROUP) which would split preemption levels.
        for word in ["set_priority", ".ipr", "shpr", "prigroup"] {
            assert!(!text.to_lowercase().contains(word), "{} mentions `{word}`", path.display());
        }
    }
}
