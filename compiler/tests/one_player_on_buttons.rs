//! A game of one player's own pieces on buttons and lights (compiler/tests/games/
//! pegs_in_a_row.game on a simulated ATmega128): each peg's button counts the player's pegs
//! from the left, as many buttons as the player has pegs at the start. Played through the pins
//! as a person would: a peg with no jump is denied with a beep and the lights unchanged, a
//! peg's press shows its jump before GO, and the last jump plays the win tune.

mod device;

use device::{heard, Device};

const GAME: &str = "compiler/tests/games/pegs_in_a_row.game";
const BOARD: &str = "compiler/tests/boards/pegs_atmega128.board";
const BEEP: f64 = 440.0; // A4, the denied tune
const CELEBRATE: f64 = 1046.5; // C6, the win's last note

/// Presses input `n` and listens; the notes heard.
fn press_listening(d: &mut Device, n: usize) -> Vec<f64> {
    d.hold_input(n, true);
    let sound = d.listen(250.0, 50.0);
    d.hold_input(n, false);
    d.run_ms(50.0);
    sound
}

/// The holes the lights show holding a peg, from 1.
fn pegs(d: &mut Device) -> Vec<usize> {
    let leds = d.leds();
    (0..6).filter(|i| leds >> i & 1 == 1).map(|i| i + 1).collect()
}

#[test]
fn each_peg_has_its_button_and_the_last_jump_wins() {
    let (elf, target) = device::firmware(GAME, BOARD);
    let mut d = Device::boot(&elf, &target);
    d.run_ms(5.0);
    d.press_commit();
    assert_eq!(pegs(&mut d), [1, 2, 4], "the start");
    // The second and third pegs have no jump: denied, nothing changes.
    for peg in [1, 2] {
        let sound = press_listening(&mut d, peg);
        assert!(heard(&sound, BEEP), "peg {} has no jump: {sound:?}", peg + 1);
        assert_eq!(pegs(&mut d), [1, 2, 4], "the lights unchanged");
    }
    // The first peg jumps the second into hole 3, shown before GO.
    d.press(0);
    assert_eq!(pegs(&mut d), [3, 4]);
    let go = d.target.commit as usize;
    press_listening(&mut d, go);
    assert_eq!(pegs(&mut d), [3, 4], "the jump stands");
    // Now the second peg (in hole 4) jumps back over the first into hole 2: one peg, won.
    d.press(1);
    assert_eq!(pegs(&mut d), [2]);
    let sound = press_listening(&mut d, go);
    let sound = [sound, d.listen(600.0, 50.0)].concat();
    assert!(heard(&sound, CELEBRATE), "the win tune: {sound:?}");
}
