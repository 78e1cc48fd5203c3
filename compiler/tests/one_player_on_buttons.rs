//! A game of one player's own pieces on buttons and lights (compiler/tests/games/
//! pegs_in_a_row.game on a simulated ATmega128): each peg's button counts the player's pegs
//! from the left, as many buttons as the player has pegs at the start. Played through the pins
//! as a person would: a peg with no jump is denied with a beep and the lights unchanged, a
//! peg's press shows its jump before GO, and the last jump plays the win tune. The same game
//! on a row of twenty, its lights past the sixteenth, plays the same way.

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

/// The game on a row of twenty holes, its pegs in holes 14, 15 and 17, on a board of twenty
/// charlieplexed LEDs on five pins (every ordered pair of PA0-PA4): lights past a 16-bit word.
#[test]
fn a_row_of_twenty_lights_past_the_sixteenth() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/gamec-tests/pegs-twenty");
    std::fs::create_dir_all(&dir).unwrap();
    let game = std::fs::read_to_string(format!("{}/../{GAME}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let game = game
        .replace("board line 6", "board line 20")
        .replace("solver at 1, 2, 4 }", "solver at 14, 15, 17 }")
        .replace("expect legal 1-3\n", "expect legal 14-16\n")
        .replace("moves 1-3\n    expect legal 3-5, 4-2", "moves 14-16\n    expect legal 16-18, 17-15");
    let pins = ["PA0", "PA1", "PA2", "PA3", "PA4"];
    let mut leds = Vec::new();
    for a in pins {
        for c in pins.iter().filter(|&&c| c != a) {
            leds.push(format!("    {} = {a} > {c}", leds.len() + 1));
        }
    }
    let board = std::fs::read_to_string(format!("{}/../{BOARD}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let (head, tail) = (board.find("  display cells").unwrap(), board.find("  button peg[1]").unwrap());
    let board = format!(
        "{}  display cells = charlieplex PA0 PA1 PA2 PA3 PA4, refresh 1000 Hz, timer0 {{\n{}\n  }}\n\n{}",
        &board[..head],
        leds.join("\n"),
        &board[tail..]
    )
    .replace("board pegs_atmega128", "board pegs_twenty_atmega128");
    let (game_path, board_path) = (dir.join("pegs.game"), dir.join("pegs.board"));
    std::fs::write(&game_path, game).unwrap();
    std::fs::write(&board_path, board).unwrap();
    let (elf, target) = device::firmware(game_path.to_str().unwrap(), board_path.to_str().unwrap());
    let mut d = Device::boot(&elf, &target);
    d.run_ms(5.0);
    d.press_commit();
    let holes = |d: &mut Device| -> Vec<usize> {
        let lit = d.leds_wide();
        (0..20).filter(|i| lit >> i & 1 == 1).map(|i| i + 1).collect()
    };
    assert_eq!(holes(&mut d), [14, 15, 17], "the start, hole 17 past the sixteenth light");
    let sound = press_listening(&mut d, 2);
    assert!(heard(&sound, BEEP), "the third peg has no jump: {sound:?}");
    assert_eq!(holes(&mut d), [14, 15, 17]);
    d.press(0);
    assert_eq!(holes(&mut d), [16, 17]);
    let go = d.target.commit as usize;
    press_listening(&mut d, go);
    d.press(1);
    assert_eq!(holes(&mut d), [15]);
    let sound = press_listening(&mut d, go);
    let sound = [sound, d.listen(600.0, 50.0)].concat();
    assert!(heard(&sound, CELEBRATE), "the win tune: {sound:?}");
}
