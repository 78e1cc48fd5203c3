//! The Othello rules of `games/othello.game` on the Binario board (a simulated ATmega128),
//! played as a person would: the encoders move the cursor, a press places a disc, the matrix
//! shows the person's discs in red and the device's in green. A whole game to its result,
//! every position checked against the compiler's engine, and an illegal press denied with the
//! board unchanged.

mod device;

use device::cursor_duel::CursorDuel;
use device::{GREEN, RED, YELLOW};
use gamec::engine::Outcome;

const GAME: &str = "games/othello.game";
const BOARD: &str = "boards/othello_with_encoders_atmega128.board";
const G3: f64 = 196.0;

#[test]
fn a_whole_game_with_the_cursor_against_the_device_and_a_denied_press() {
    let mut p = CursorDuel::boot(GAME, BOARD);
    p.dev.track_stack();
    let start = p.picture(&p.state);
    p.assert_shows(&start, "the start");
    // An illegal cell (the top left, far from any disc): denied, the board unchanged.
    let pitch = p.press();
    assert!((pitch / G3 - 1.0).abs() < 0.03, "denied: {pitch} Hz");
    p.assert_shows(&start, "unchanged");
    let mut moves = 0;
    while p.engine.outcome(&p.state).is_none() {
        let legal = p.legal();
        let m = legal[p.random(legal.len())];
        p.enter(m);
        moves += 1;
        p.device_answers();
        assert!(moves < 64);
    }
    // The end: every cell not the winner's blinks to the winner's colour (yellow for a draw).
    let winner = match p.engine.outcome(&p.state) {
        Some(Outcome::Win(0)) => RED,
        Some(Outcome::Win(_)) => GREEN,
        _ => YELLOW,
    };
    assert!(p.shows_the_result(winner), "the result shows in the winner's colour ({winner})");
    // The deepest stack the game reached, searches included, is within the bound `gamec
    // build` reads from the machine code (which a clock behind a second `dyn` once defeated).
    let stack = u32::from(p.dev.ramend() - p.dev.lowest_sp().unwrap());
    let (elf, _) = device::firmware(GAME, BOARD);
    let bound = device::stack_bound(GAME, BOARD, &elf);
    assert!(bound.bytes >= stack, "bound {} B under the measured {stack} B: {:?}", bound.bytes, bound.path);
}
