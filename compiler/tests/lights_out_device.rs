//! Lights Out (games/lights_out.game, a puzzle on the rule core) on the Binario board, a
//! simulated ATmega128, and on the same matrix wired to an LM3S6965 in QEMU, played as a
//! person would: the encoders move the cursor and select
//! presses the cell under it, toggling it and its neighbours; every picture is held to the
//! compiler's engine reading the same file. Each start is solved by the fewest presses
//! `gamec analyze` finds, the grid turns the solver's colour, and a press then deals the next.

mod device;

use device::cursor_duel::{CursorDuel, CursorPins};
use device::{GREEN, RED};
use gamec::engine::one_player::Toggles;
use gamec::engine::Outcome;

const GAME: &str = "games/lights_out.game";
const BOARD: &str = "boards/lights_out_atmega128.board";
const CORTEX_BOARD: &str = "boards/lights_out_lm3s6965.board";

#[test]
fn every_start_is_solved_by_its_fewest_presses_and_a_press_then_deals_the_next() {
    every_start_solved(CursorDuel::boot(GAME, BOARD));
}

#[test]
fn on_the_lm3s6965_every_start_is_solved_and_a_press_deals_the_next() {
    every_start_solved(CursorDuel::boot_in_qemu(GAME, CORTEX_BOARD));
}

fn every_start_solved<D: CursorPins>(mut p: CursorDuel<D>) {
    let def = device::grid_host::load(GAME);
    let starts = gamec::analyze::starts(&p.engine, &def);
    assert_eq!(starts.len(), 3, "cross, corners, ring");
    for (k, start) in starts.iter().enumerate() {
        p.state = start.clone();
        let picture = p.picture(&p.state);
        p.assert_shows(&picture, &format!("start {k}"));
        // The fewest presses, as the compiler's solver finds them.
        let toggles = Toggles::new(&p.engine).expect("a toggle puzzle");
        let solution = toggles.solve(start).expect("solvable").cells;
        for (i, &cell) in solution.iter().enumerate() {
            let m = p.move_of(&[cell as usize]).expect("a press is always legal");
            let before = p.state.clone();
            p.enter(m);
            assert_ne!(p.state.cells, before.cells, "a press changes the grid");
            if i + 1 < solution.len() {
                let picture = p.picture(&p.state);
                p.assert_shows(&picture, &format!("start {k} after pressing {cell}"));
            }
        }
        assert_eq!(p.engine.outcome(&p.state), Some(Outcome::Win(0)), "solved");
        // Solved: the grid fills with the solver's colour (green: the solver has no pieces).
        assert!(p.shows_the_result(GREEN), "start {k}: the solved grid shows green");
        assert!(!p.shows_the_result(RED));
        // A press deals the next start.
        p.play_again();
    }
    // After the last start, the first again.
    p.state = starts[0].clone();
    let picture = p.picture(&p.state);
    p.assert_shows(&picture, "back to the first start");
}
