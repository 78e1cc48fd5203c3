//! A puzzle on a line (compiler/tests/games/stripe.game) built for the Binario board and played
//! in simavr along the matrix's top row: `gamec check` accepted the pair while `gamec build`
//! refused it (the build took every game on a line without the rule core for one of slides),
//! and the puzzle app took every puzzle for a grid. A given cell is kept, the free one painted,
//! and the full row solves the puzzle.

mod device;

use device::{Device, GREEN, RED};

const GAME: &str = "compiler/tests/games/stripe.game";
const BOARD: &str = "boards/kayles_atmega128.board";

#[test]
fn a_puzzle_on_a_line_is_played_along_the_top_row_to_its_solution() {
    let (elf, target) = device::firmware(GAME, BOARD);
    let c = target.cursor.clone().expect("played with a cursor");
    assert!(c.duel.is_none(), "by the cursor's puzzle app");
    let mut dev = Device::boot(&elf, &target);
    let (across, select) = (c.encoders[0], c.commit);
    for p in [across.1, across.2, select, c.restart.unwrap()] {
        dev.hold(p.port, p.bit, true);
    }
    // The one setup is chosen with a press; the row shows its givens.
    dev.run_ms(500.0);
    dev.press_pin(select, 40.0);
    dev.run_ms(300.0);
    let row = |dev: &mut Device| dev.matrix_over(17.0)[0][..6].to_vec();
    let given = [RED, RED, GREEN, GREEN, GREEN];
    assert_eq!(&row(&mut dev)[1..5], &given[1..], "the givens (the first under the blinking cursor)");
    // A press on a given cell changes nothing.
    dev.press_pin(select, 40.0);
    dev.run_ms(300.0);
    assert_eq!(&row(&mut dev)[1..5], &given[1..], "a given cell is kept");
    // The free cell, the sixth, painted red: the row is full with three reds, and flashes.
    for _ in 0..5 {
        dev.turn(across.1, across.2, true);
    }
    dev.press_pin(select, 40.0);
    let mut flashed = false;
    for _ in 0..20 {
        flashed |= row(&mut dev).iter().all(|&v| v == GREEN);
        dev.run_ms(60.0);
    }
    assert!(flashed, "the solved row flashes green");
}

/// The same puzzle on a line of three wired to an ATtiny84A, every pin of the chip but reset
/// in use: the cursor's glue on the smallest chip gamec knows.
#[test]
fn on_an_attiny84a_a_short_stripe_is_played_to_its_solution() {
    let (elf, target) =
        device::firmware("compiler/tests/games/short_stripe.game", "compiler/tests/boards/stripe_attiny84.board");
    let c = target.cursor.clone().expect("played with a cursor");
    let mut dev = Device::boot(&elf, &target);
    let (across, select) = (c.encoders[0], c.commit);
    for p in [across.1, across.2, select] {
        dev.hold(p.port, p.bit, true);
    }
    dev.run_ms(500.0);
    dev.press_pin(select, 40.0);
    dev.run_ms(300.0);
    let row = |dev: &mut Device| dev.matrix_over(17.0)[0][..3].to_vec();
    assert_eq!(row(&mut dev)[1], GREEN, "the second given, beside the blinking cursor");
    // A press on the given cell under the cursor is denied with its tune and changes nothing.
    dev.hold(select.port, select.bit, false);
    dev.run_ms(20.0);
    let pitch = dev.speaker_hz(60.0);
    dev.hold(select.port, select.bit, true);
    dev.run_ms(300.0);
    assert!((pitch / 196.0 - 1.0).abs() < 0.03, "the denied tune's G3: {pitch} Hz");
    assert_eq!(row(&mut dev)[1], GREEN, "the givens are kept");
    // Red in the free cell, the third: two reds, and the solved row flashes green.
    dev.turn(across.1, across.2, true);
    dev.turn(across.1, across.2, true);
    dev.press_pin(select, 40.0);
    let mut flashed = false;
    for _ in 0..20 {
        flashed |= row(&mut dev).iter().all(|&v| v == GREEN);
        dev.run_ms(60.0);
    }
    assert!(flashed, "the solved row flashes green");
}
