//! `gamec build`'s budgets and stack report on a shipped game and board: a stack budget is
//! enforced against the bound from the machine code, the depth the bound trusts for a search
//! is the depth the generated firmware searches to, and every AVR board in `boards/` budgets
//! its stack and builds firmware the bound covers.

use gamec::analyze::Analysis;
use gamec::bind::{self, Target};
use gamec::chips::Arch;
use gamec::codegen::{self, ScaffoldInputs};
use gamec::driver::{check_budget, load_pair, recursion_limits, size_report, Built, Sizes};
use gamec::stack_depth::{avr_stack_depth, Limit, StackDepth, Unbounded};
use gamec_dsl::{GameDef, Sources};
use std::path::{Path, PathBuf};

/// Othello and its ATmega16 bench board with `budget` for the board's budget line.
fn othello(budget: &str) -> (GameDef, Target) {
    let board = include_str!("../../boards/othello_stk500_atmega16.board");
    let line = board.lines().map(str::trim).find(|l| l.starts_with("budget ")).expect("a budget line");
    let mut sources = Sources::new();
    let gf = sources.add("othello.game", include_str!("../../games/othello.game"));
    let bf = sources.add("othello.board", board.replace(line, budget));
    let game = gamec_dsl::load_game(&sources, gf).unwrap();
    let target = bind::bind(&game, gf, &gamec_dsl::load_board(&sources, bf).unwrap(), bf).unwrap();
    (game, target)
}

fn stack(bytes: u32) -> Option<Result<StackDepth, Unbounded>> {
    Some(Ok(StackDepth { bytes, interrupt_bytes: 11, path: vec!["reset".into()], initial_sp: None, recursion: vec![] }))
}

const SIZES: Sizes = Sizes { text: 7986, data: 22, bss: 483 };

#[test]
fn the_stack_budget_is_enforced() {
    let (_, t) = othello("budget flash 8192, ram 1024, stack 400");
    assert_eq!(t.budget_stack, Some(400));
    assert!(check_budget(&SIZES, stack(400).as_ref(), &t).is_ok());
    let err = check_budget(&SIZES, stack(401).as_ref(), &t).unwrap_err().to_string();
    assert_eq!(
        err,
        "the firmware needs 401 B of stack (bounded from the machine code), over the board's budget of 400 B"
    );
    assert!(size_report(&SIZES, stack(401).as_ref(), Some(5), &t).contains("budget stack: 401 B of 400 B"));
    // With no bound there is nothing to check the budget against: that fails too.
    let unbounded = Some(Err(Unbounded::Recursion { cycle: vec!["f".into()] }));
    let err = check_budget(&SIZES, unbounded.as_ref(), &t).unwrap_err().to_string();
    assert!(err.starts_with("the board's stack budget of 400 B cannot be checked: recursion: f"), "{err}");
    // Without a stack budget the stack counts in RAM only.
    let (_, t) = othello("budget flash 8192, ram 1024");
    assert!(check_budget(&SIZES, stack(519).as_ref(), &t).is_ok());
    assert!(check_budget(&SIZES, stack(520).as_ref(), &t).is_err());
    assert!(check_budget(&SIZES, unbounded.as_ref(), &t).is_ok());
}

#[test]
fn a_search_is_limited_as_deep_as_its_firmware_searches() {
    let (game, t) = othello("budget flash 8192");
    // `(1024 - 600) / 60` plies on the ATmega16's byte board, whose search walks its moves
    // below the root: board::SEARCH_DEPTH.
    assert_eq!(codegen::search_depth(&game, &t), Some(7));
    let d = StackDepth {
        recursion: vec![Limit { function: "search::negamax".into(), activations: 4, under: None }],
        path: ["reset", "negamax", "negamax", "play"].map(String::from).to_vec(),
        ..stack(380).unwrap().unwrap()
    };
    let report = size_report(&SIZES, Some(&Ok(d)), Some(5), &t);
    assert!(
        report.contains("runtime's word on its recursion (search::negamax at most 4 deep, a search of 5 plies)"),
        "{report}"
    );
    assert!(report.contains("deepest:\n      reset\n    > negamax (x2)\n    > play\n"), "a call a line: {report}");
    // Generic arguments and module paths left out, where the names stay apart.
    let d = StackDepth {
        path: [
            "<gamec_runtime::session::Session<othello::game::Rules, 60, 7>>::run::<othello::Board>",
            "<othello::Board as gamec_runtime::session::Io>::millis",
            "a::go",
            "b::go",
        ]
        .map(String::from)
        .to_vec(),
        ..stack(380).unwrap().unwrap()
    };
    let report = size_report(&SIZES, Some(&Ok(d)), Some(5), &t);
    assert!(report.contains("      Session::run\n    > <Board as Io>::millis\n    > a::go\n    > b::go\n"), "{report}");
}

/// The depth the stack's bound trusts is the one the generated firmware searches to.
#[test]
fn the_search_depth_is_the_firmware_s() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let pairs = [
        ("othello", "othello_stk500_atmega16"),
        ("othello", "othello_with_encoders_atmega128"),
        ("connect_four", "connect_four_stk500_atmega16"),
        ("tictactoe", "tictactoe_stk500_atmega16"),
        ("binario", "binario_atmega64"),
        ("silver_dollar", "silver_dollar_attiny84"),
    ];
    for (game, board) in pairs {
        let (game_path, board_path) =
            (root.join(format!("games/{game}.game")), root.join(format!("boards/{board}.board")));
        let mut sources = Sources::new();
        let (game, board, target, gf) = load_pair(&mut sources, &game_path, &board_path).unwrap();
        let analysis = if game.rules.line().is_some() { Some(Analysis::new(&game, gf).unwrap()) } else { None };
        let inputs = ScaffoldInputs {
            crate_name: "c".into(),
            runtime_path: "r".into(),
            game_path: "g".into(),
            board_path: "b".into(),
        };
        let files = codegen::firmware_crate(&game, &board, analysis.as_ref(), &target, &inputs, sources.text(gf));
        let board_rs = &files.iter().find(|f| f.path == "src/board.rs").unwrap().contents;
        let written = board_rs
            .split("SEARCH_DEPTH: u8 = ")
            .nth(1)
            .map(|rest| rest[..rest.find(';').unwrap()].parse::<u8>().unwrap());
        assert_eq!(codegen::search_depth(&game, &target), written, "{}", board_path.display());
    }
}

/// Every board in `boards/` on an AVR chip, with the game it is named for (`<game>_*.board`,
/// the longest such game name) and its target.
fn avr_boards() -> Vec<(PathBuf, PathBuf, Target)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let stems = |dir: &str, ext: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .filter_map(|e| e.unwrap().file_name().into_string().ok()?.strip_suffix(ext).map(String::from))
            .collect();
        names.sort();
        names
    };
    let games = stems("games", ".game");
    let mut boards = Vec::new();
    for board in stems("boards", ".board") {
        let game = games
            .iter()
            .filter(|g| board.starts_with(&format!("{g}_")))
            .max_by_key(|g| g.len())
            .unwrap_or_else(|| panic!("boards/{board}.board is named for no game in games/"));
        let (game_path, board_path) =
            (root.join(format!("games/{game}.game")), root.join(format!("boards/{board}.board")));
        let (_, _, target, _) = load_pair(&mut Sources::new(), &game_path, &board_path)
            .unwrap_or_else(|e| panic!("{}: {e}", board_path.display()));
        match target.chip.arch {
            Arch::Avr(_) => boards.push((game_path, board_path, target)),
            // The Cortex-M boards are left aside: this bound is read from AVR
            // machine code, and a Thumb image's bound and budget are the Cortex-M analysis's,
            // checked with it.
            Arch::CortexM(_) => {}
        }
    }
    boards
}

/// A board without a stack budget lets the stack grow unchecked into its static RAM.
#[test]
fn every_avr_board_has_a_stack_budget() {
    let boards = avr_boards();
    assert!(!boards.is_empty(), "no AVR boards found in boards/");
    let missing: Vec<String> =
        boards.iter().filter(|(_, _, t)| t.budget_stack.is_none()).map(|(_, b, _)| b.display().to_string()).collect();
    assert!(missing.is_empty(), "AVR boards with no `budget ... stack N`: {missing:#?}");
}

/// Every AVR board's firmware builds (which checks its budgets), and the machine code bounds
/// its stack, within the board's stack budget.
#[test]
fn every_avr_board_s_firmware_has_a_stack_bound_within_its_budget() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = root.join("target/gamec-tests");
    let mut failures = Vec::new();
    for (game_path, board_path, _) in avr_boards() {
        let board = board_path.file_stem().unwrap().to_string_lossy().into_owned();
        let built = gamec::driver::build(&mut Sources::new(), &game_path, &board_path, &out);
        let Built { elf, target, report, .. } = match built {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{board}: {e}"));
                continue;
            }
        };
        let (game, _, _, _) = load_pair(&mut Sources::new(), &game_path, &board_path).unwrap();
        let pc_bytes = if target.chip.flash > 128 * 1024 { 3 } else { 2 };
        let elf = std::fs::read(elf).unwrap();
        let bound = avr_stack_depth(&elf, pc_bytes, target.chip.avr().sp_bytes, &recursion_limits(&game, &target));
        match (bound, target.budget_stack) {
            (Ok(d), Some(budget)) if d.bytes <= budget => {
                eprintln!("{board}: stack bound {} B, budget {budget} B", d.bytes);
                assert!(report.contains(&format!("budget stack: {} B of {budget} B", d.bytes)), "{report}");
            }
            (Ok(d), budget) => failures.push(format!("{board}: a bound of {} B over its budget {budget:?}", d.bytes)),
            (Err(why), _) => failures.push(format!("{board}: no stack bound: {why}")),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
