//! The Othello rules of `games/othello.game` on the Binario board (a simulated ATmega128),
//! played as a person would: the encoders move the cursor, a press places a disc, the matrix
//! shows the person's discs in red and the device's in green. A whole game to its result,
//! every position checked against the compiler's engine, and an illegal press denied with the
//! board unchanged.

mod device;

use device::cursor_duel::{denied, CursorDuel};

const GAME: &str = "games/othello.game";
const BOARD: &str = "boards/othello_with_encoders_atmega128.board";

#[test]
fn a_whole_game_with_the_cursor_against_the_device_and_a_denied_press() {
    let mut p = CursorDuel::boot(GAME, BOARD);
    p.dev.track_stack();
    let start = p.picture(&p.state);
    p.assert_shows(&start, "the start");
    // An illegal cell (the top left, far from any disc): denied, the board unchanged.
    let pitch = p.press();
    assert!(denied(pitch), "denied: {pitch} Hz");
    p.assert_shows(&start, "unchanged");
    p.play_to_the_end(64);
    // The end: every cell not the winner's blinks to the winner's colour (yellow for a draw).
    let winner = p.result_colour();
    assert!(p.shows_the_result(winner), "the result shows in the winner's colour ({winner})");
    // Within the bound `gamec build` reads (which a clock behind a second `dyn` once defeated).
    p.assert_within_the_stack_bound(GAME, BOARD);
}
