//! Kayles (games/kayles.game: a line of pins on the rule core, with a solved table) on the
//! Binario board, a simulated ATmega128, and on an ATmega16 wired to the same matrix, played
//! as a person would with the cursor along the matrix's top row: a pin picked and pressed again falls alone, its neighbour pressed instead
//! takes the pair, a press where no pin stands is denied; every answer of the device is one
//! of the best moves by the compiler's own solution of the game.

mod device;

use device::cursor_duel::{denied, CursorDuel};
use device::{GREEN, RED, YELLOW};
use gamec::engine::solve::{explore, MAX_STATES};
use gamec::engine::Move;

const GAME: &str = "games/kayles.game";
const ATMEGA128: &str = "boards/kayles_atmega128.board";
const ATMEGA16: &str = "boards/kayles_atmega16.board";

device::on_each_board!(
    [
        a_pin_falls_alone_or_with_its_neighbour_and_an_empty_place_is_denied,
        every_answer_of_the_device_is_a_best_move_to_the_end_of_the_game,
    ];
    atmega128 => ATMEGA128,
    atmega16 => ATMEGA16,
);

/// The move that names `cells` (0 is the row's first pin): a pin alone is named twice (it is
/// picked, then pressed again), a pair by its two pins.
fn knock(p: &CursorDuel, cells: &[usize]) -> Move {
    p.move_of(cells).unwrap_or_else(|| panic!("{cells:?} is a move"))
}

fn a_pin_falls_alone_or_with_its_neighbour_and_an_empty_place_is_denied(board: &str) {
    let (_, target) = device::firmware(GAME, board);
    assert!(target.rules_core.is_some() && target.core_table.is_some(), "on the rule core, from a solved table");
    let mut p = CursorDuel::boot(GAME, board);
    let start = p.picture(&p.state);
    assert!(start[0].iter().all(|&v| v == YELLOW), "eight pins stand in the top row");
    p.assert_shows(&start, "the start");
    // The fourth pin alone: picked, then pressed again.
    let m = knock(&p, &[3, 3]);
    p.enter(m);
    p.device_answers();
    let after = p.picture(&p.state);
    p.assert_shows(&after, "the person's pin and the device's answer fallen");
    // A place where no pin stands is denied, the row unchanged.
    let fallen = (0..8).find(|&c| p.state.cells[c] == 0).expect("a pin has fallen");
    assert!(denied(p.press_at(fallen)), "a press where no pin stands is denied");
    p.assert_shows(&after, "unchanged");
    // A pair: the first pin, then its neighbour.
    let pair = (0..7).find(|&c| p.state.cells[c] != 0 && p.state.cells[c + 1] != 0).expect("two pins side by side");
    let m = knock(&p, &[pair, pair + 1]);
    p.enter(m);
    assert_eq!(p.state.cells[pair] + p.state.cells[pair + 1], 0, "both fell");
    if p.engine.outcome(&p.state).is_none() {
        p.device_answers();
    }
}

fn every_answer_of_the_device_is_a_best_move_to_the_end_of_the_game(board: &str) {
    let mut p = CursorDuel::boot(GAME, board);
    p.dev.track_stack();
    let solved = explore(&p.engine, std::slice::from_ref(&p.state), MAX_STATES).expect("Kayles solves");
    let mut answers = 0;
    for game in 0..3 {
        answers += p.play_against_the_solved_game(&solved);
        let winner = p.result_colour();
        assert!(winner == RED || winner == GREEN);
        assert!(p.shows_the_result(winner), "game {game}: the end shows the winner's colour");
        p.play_again();
        p.state = p.engine.fixed_start(&device::grid_host::load(GAME));
    }
    assert!(answers >= 6, "the device answered {answers} times");
    p.assert_within_the_stack_bound(GAME, board);
}

/// A line has one row: a cursor goes along it, never down; heaps have no cells to go over.
/// Each refused at the control, with a hint.
#[test]
fn a_cursor_down_a_line_or_over_heaps_is_refused_at_its_control() {
    let check = |text: String| {
        let mut sources = gamec_dsl::Sources::new();
        let id = sources.add("g.game", text);
        let d = gamec::check(&sources, &[id]).expect_err("refused");
        sources.render(&d)
    };
    let kayles = std::fs::read_to_string(format!("{}/../{GAME}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let down =
        kayles.replace("    across -> cursor across\n", "    across -> cursor across\n    down -> cursor down\n");
    let shown = check(down);
    assert!(shown.contains("error[E0006]: a line has one row: its cursor moves across only"), "{shown}");
    assert!(shown.contains("write `cursor across`"), "{shown}");
    let nim = std::fs::read_to_string(format!("{}/../games/nim.game", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let cursor = nim.replace("    go -> commit\n", "    go -> commit\n    across -> cursor across\n");
    let shown = check(cursor);
    assert!(shown.contains("error[E0006]: a cursor moves over cells"), "{shown}");
}
