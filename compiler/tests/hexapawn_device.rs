//! Hexapawn (games/hexapawn.game, on the rule core with a solved table) on the Binario board,
//! a simulated ATmega128, played as a person would with the cursor: every answer of the
//! device is one of the best moves by the compiler's own solution of the game, and the device,
//! the second player, wins every game, however the person plays.

mod device;

use device::cursor_duel::CursorDuel;
use device::GREEN;
use gamec::engine::solve::{explore, MAX_STATES};

const GAME: &str = "games/hexapawn.game";
const BOARD: &str = "boards/hexapawn_atmega128.board";

#[test]
fn the_device_answers_with_a_best_move_and_wins_every_game() {
    let (_, target) = device::firmware(GAME, BOARD);
    let table = target.core_table.as_ref().expect("a perfect device on the rule core keeps a solved table");
    assert!(!table.lost.is_empty(), "the table holds the lost positions");
    let mut p = CursorDuel::boot(GAME, BOARD);
    p.dev.track_stack();
    let solved = explore(&p.engine, std::slice::from_ref(&p.state), MAX_STATES).expect("Hexapawn solves");
    let mut answers = 0;
    for game in 0..5 {
        answers += p.play_against_the_solved_game(&solved);
        let winner = p.result_colour();
        assert_eq!(winner, GREEN, "game {game}: the device, black, wins");
        assert!(p.shows_the_result(winner), "game {game}: the result shows in the winner's colour");
        p.play_again();
        p.state = p.engine.fixed_start(&device::grid_host::load(GAME));
    }
    assert!(answers >= 10, "the device answered {answers} times");
    p.assert_within_the_stack_bound(GAME, BOARD);
}
