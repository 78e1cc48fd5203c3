//! W0024: a device that searches, paired with a chip whose RAM leaves its search a ply or two,
//! is told so by `check` and `build`; with room for a deeper search, nothing is said.

use gamec_dsl::Sources;

const KALAH: &str = include_str!("../../games/kalah.game");

/// The warnings `check` gives for Kalah on a board of `chip` serving it on `serial`.
fn warnings(board: &str) -> Vec<String> {
    let mut sources = Sources::new();
    let gf = sources.add("kalah.game", KALAH);
    let bf = sources.add("b.board", board);
    let w = gamec::check(&sources, &[gf, bf]).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    w.iter().map(|d| format!("{} {}", d.code, d.message)).collect()
}

#[test]
fn a_search_that_fits_one_ply_is_a_warning() {
    let atmega16 = "board b {\n  chip atmega16\n  clock 10 MHz crystal\n  serial usart 9600 baud\n  tick timer1\n}\n";
    assert_eq!(warnings(atmega16), ["W0024 the device's search fits 1 ply on the atmega16"]);
    let atmega128 =
        "board b {\n  chip atmega128\n  clock 8 MHz external\n  serial usart0 9600 baud\n  tick timer0\n}\n";
    assert!(warnings(atmega128).is_empty(), "25 plies fit the ATmega128");
}
