//! `gamec draw`: a board's wiring as an SVG picture for the person who solders it, the chip as
//! a box with its pins and what each drives, and a panel a device (the charlieplexed LEDs by
//! their cell numbers, the matrix's rows and columns, buttons, encoders, speaker, lamps, serial
//! ports, the 93C46, the crystal). Pure: a board's text in, the SVG's text out.
//!
//! `wiring.rs` gathers the facts from the board and the chip's table, `layout.rs` gives them
//! positions, `svg.rs` writes the shapes.

mod layout;
mod svg;
mod wiring;

pub use wiring::{ClockSource, Device, Terminal, Wiring};

use crate::{bind, chips};
use gamec_dsl::{BoardDef, Diagnostic, FileId, Sources};

/// The SVG of the board file `file`, loaded and checked against its chip as `gamec check`
/// checks a board alone; its errors (and its warnings with them) otherwise.
pub fn board_svg(sources: &Sources, file: FileId) -> Result<String, Vec<Diagnostic>> {
    let board = gamec_dsl::load_board(sources, file)?;
    let diags = bind::check_board(&board, file);
    let chip = chips::find(&board.chip.node);
    match chip {
        Some(chip) if !diags.iter().any(Diagnostic::is_error) => {
            let statement = sources.text(file).get(board.clock_span.start..board.clock_span.end).unwrap_or("");
            Ok(svg(&board, chip, clock_source(statement)))
        }
        _ => Err(diags),
    }
}

/// The drawing of a checked board on its chip. The board's definition keeps the clock's rate,
/// not its source: `clock` is that, read from the statement by [`clock_source`].
pub fn svg(board: &BoardDef, chip: &chips::Chip, clock: Option<ClockSource>) -> String {
    let wiring = Wiring::new(board, chip, clock);
    let (w, h, shapes) = layout::layout(&wiring);
    svg::document(w, h, &format!("board {}: wiring", wiring.board), &shapes)
}

/// The source a `clock` statement names (`clock 10 MHz crystal`), if it names one.
pub fn clock_source(statement: &str) -> Option<ClockSource> {
    let words = statement.split(|c: char| !c.is_ascii_alphanumeric() && c != '_');
    words.rev().find_map(|w| match w {
        "internal" => Some(ClockSource::Internal),
        "crystal" => Some(ClockSource::Crystal),
        "external" => Some(ClockSource::External),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(text: &str) -> Result<String, Vec<Diagnostic>> {
        let mut sources = Sources::new();
        let id = sources.add("test.board", text);
        board_svg(&sources, id)
    }

    #[test]
    fn the_clock_source_is_read_from_the_statement() {
        assert_eq!(clock_source("clock 10 MHz crystal"), Some(ClockSource::Crystal));
        assert_eq!(clock_source("clock 8 MHz // internal\n external"), Some(ClockSource::External));
        assert_eq!(clock_source("clock 8 MHz internal"), Some(ClockSource::Internal));
        assert_eq!(clock_source("clock 8 MHz"), None);
    }

    #[test]
    fn a_charlieplexed_board_names_each_led_and_pin() {
        let svg = draw(
            "board b { chip attiny84a clock 8 MHz internal
               display cells = charlieplex PA0 PA1 PA2, refresh 1000 Hz, timer0 {
                 1 = PA0 > PA1  2 = PA1 > PA0  3 = PA2 > PA0 }
               button go = PA6 pullup
               speaker = PA5, timer1 }",
        )
        .unwrap();
        for led in ["LED 1: PA0 &gt; PA1", "LED 2: PA1 &gt; PA0", "LED 3: PA2 &gt; PA0"] {
            assert!(svg.contains(led), "{led} in\n{svg}");
        }
        assert!(svg.contains("PA0: display cells: anode of LEDs 1; cathode of LEDs 2 3"), "{svg}");
        assert!(svg.contains("PA6: button go, to ground, the chip's pull-up"), "{svg}");
        // PA5 is Timer/Counter1's output B on the ATtiny84A.
        assert!(svg.contains("PA5: speaker, timer1 output B"), "{svg}");
        assert!(svg.contains("PB3: RESET (reserved)"), "{svg}");
        assert!(svg.contains("PB1: free"), "{svg}");
    }

    #[test]
    fn a_crystal_and_a_serial_port_get_terminals() {
        let svg =
            draw("board b { chip atmega16 clock 10 MHz crystal serial usart 9600 baud led won = PB1 active low }")
                .unwrap();
        assert!(svg.contains("PD1: usart TX, to the host's RX"), "{svg}");
        assert!(svg.contains("PD0: usart RX"), "{svg}");
        assert!(svg.contains("XTAL1: crystal 10 MHz") && svg.contains("XTAL2: crystal 10 MHz"), "{svg}");
        assert!(svg.contains("PB1: led won, lit when low"), "{svg}");
        assert!(svg.contains("chip atmega16, clock 10 MHz crystal, 16 KB flash, 1 KB RAM"), "{svg}");
    }

    #[test]
    fn a_board_the_chip_refuses_gives_its_diagnostics() {
        let errors = draw("board b { chip attiny84a clock 8 MHz internal button go = PD0 pullup }").unwrap_err();
        assert!(errors.iter().any(|d| d.is_error() && d.message.contains("PD0")), "{errors:?}");
        let errors = draw("board b { chip z80 clock 8 MHz internal }").unwrap_err();
        assert!(errors.iter().any(|d| d.message.contains("unknown chip")), "{errors:?}");
        let game = "game g { players a, b first a board grid 3 x 3 pieces stone per player
                    action put = place stone on empty end { full -> draw } }";
        let errors = draw(game).unwrap_err();
        assert!(errors.iter().any(|d| d.message.contains("expected a board file")), "{errors:?}");
    }
}
