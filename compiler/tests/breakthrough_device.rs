//! Breakthrough (games/breakthrough.game, on the rule core) on the Binario board, a simulated
//! ATmega128, played as a person would: the encoders move the cursor, a press picks a pawn (it
//! shows yellow) and a second press sends it; a wrong cell is denied with the board and the
//! pick unchanged. A whole game to its result, every position the device shows held to the
//! compiler's engine reading the same file. The same game on the same matrix wired to an
//! LM3S6965, in QEMU.

mod device;

use device::cursor_duel::{denied, CursorDuel, CursorPins};
use device::{GREEN, YELLOW};

const GAME: &str = "games/breakthrough.game";
const BOARD: &str = "boards/breakthrough_atmega128.board";
const CORTEX_BOARD: &str = "boards/breakthrough_lm3s6965.board";

/// A cell by its name ("B2"), in the engine's numbering of a 6-wide grid.
fn cell<D: CursorPins>(p: &CursorDuel<D>, name: &str) -> usize {
    let b = name.as_bytes();
    let stride = p.engine.with_game(|g| g.rules.geometry.stride as usize);
    (b[1] - b'1') as usize * stride + (b[0] - b'A') as usize
}

#[test]
fn a_pawn_is_picked_then_sent_and_a_wrong_cell_is_denied() {
    picked_sent_and_denied(CursorDuel::boot(GAME, BOARD));
}

#[test]
fn on_the_lm3s6965_a_pawn_is_picked_then_sent_and_a_wrong_cell_is_denied() {
    picked_sent_and_denied(CursorDuel::boot_in_qemu(GAME, CORTEX_BOARD));
}

fn picked_sent_and_denied<D: CursorPins>(mut p: CursorDuel<D>) {
    let start = p.picture(&p.state);
    p.assert_shows(&start, "the start");
    // An empty cell starts no move: denied, the board unchanged.
    let c3 = cell(&p, "C3");
    assert!(denied(p.press_at(c3)), "a press on an empty cell is denied");
    p.assert_shows(&start, "unchanged");
    // A pawn of the second row picked: silent, and it shows yellow.
    let b2 = cell(&p, "B2");
    let pitch = p.press_at(b2);
    assert_eq!(pitch, 0.0, "a pick makes no sound");
    let mut picked = start;
    picked[1][1] = YELLOW;
    p.go(cell(&p, "F4"));
    p.assert_shows(&picked, "the pick stands out");
    // Two rows on is no move of it: denied, the board and the pick unchanged.
    let pitch = p.press_at(cell(&p, "B4"));
    assert!(denied(pitch), "two rows on is denied: {pitch} Hz");
    p.go(cell(&p, "F4"));
    p.assert_shows(&picked, "the board and the pick unchanged");
    // Pressed again, the pawn is let go; then sent diagonally.
    p.press_at(b2);
    p.go(cell(&p, "F4"));
    p.assert_shows(&start, "let go");
    let m = p.move_of(&[b2, c3]).expect("B2-C3 is a first move");
    p.enter(m);
    p.device_answers();
    assert_eq!(p.state.to_move, 0, "the device answered and it is the person's turn");
}

#[test]
fn a_whole_game_against_the_device_to_its_result() {
    let mut p = CursorDuel::boot(GAME, BOARD);
    p.dev.track_stack();
    p.play_to_the_end(100);
    let winner = p.result_colour();
    assert!(p.shows_the_result(winner), "the result shows in the winner's colour ({winner})");
    // Against a person who plays at random, the device's search wins.
    assert_eq!(winner, GREEN, "the device wins against random moves");
    p.assert_within_the_stack_bound(GAME, BOARD);
}

/// On the LM3S6965 the device searches deeper (64 KB of RAM) and at 50 MHz: a whole game to
/// its result, every position it shows one the engine reaches.
#[test]
fn on_the_lm3s6965_a_whole_game_against_the_device_to_its_result() {
    let mut p = CursorDuel::boot_in_qemu(GAME, CORTEX_BOARD);
    p.play_to_the_end(100);
    let winner = p.result_colour();
    assert!(p.shows_the_result(winner), "the result shows in the winner's colour ({winner})");
    assert_eq!(winner, GREEN, "the device wins against random moves");
}

/// A game of two players whose cells hold a state beside the pieces (holes no pawn enters):
/// the fast reading of placements cannot play it, and the cursor's firmware plays it on the
/// rule core, every position the device shows one the engine reaches.
#[test]
fn a_game_with_holes_beside_its_pawns_plays_on_the_rule_core() {
    const HOLES: &str = "compiler/tests/games/pawns_and_holes.game";
    let (_, target) = device::firmware(HOLES, BOARD);
    assert!(target.rules_core.is_some(), "played on the rule core");
    let mut p = CursorDuel::boot(HOLES, BOARD);
    let start = p.picture(&p.state);
    p.assert_shows(&start, "the start, the holes dark");
    p.play_to_the_end(100);
    let winner = p.result_colour();
    assert!(p.shows_the_result(winner), "the result shows in the winner's colour ({winner})");
}
