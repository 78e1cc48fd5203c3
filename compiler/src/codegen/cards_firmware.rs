//! The firmware of a game of cards: the board module (the clock and the serial ports given to
//! the console and the scanner) and a main loop that frames the scanner's codes, reads the
//! console's lines and hands both to the runtime's card table over the generated search.

use super::{int, raw_bytes};
use crate::bind::cards::CardsTarget;
use crate::bind::Target;
use gamec_dsl::GameDef;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

fn cards(t: &Target) -> &CardsTarget {
    t.cards.as_ref().expect("a cards target")
}

/// `src/board.rs`.
pub fn board_module(t: &Target) -> TokenStream {
    let c = cards(t);
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let clock = int(t.clock_hz);
    let port = |p: &crate::bind::cards::BoundPort| {
        let glue = Ident::new(p.port.glue, Span::call_site());
        quote!(Port::#glue)
    };
    let (console, scanner) = (port(&c.console), port(&c.scanner));
    let (console_div, scanner_div) = (int(c.console.divisor), int(c.scanner.divisor));
    let suffix = raw_bytes(&c.scanner.suffix);
    quote! {
        //! The board's clock and the serial ports of the console and the scanner.
        use gamec_runtime::chip::#chip::serial::{Config, Port};

        /// The serial ports, each with its baud-rate divisor: the clock over the rate.
        pub static CONFIG: Config = Config {
            clock_hz: #clock,
            usarts: &[(#console, #console_div), (#scanner, #scanner_div)],
        };

        pub const CONSOLE: Port = #console;
        pub const SCANNER: Port = #scanner;
        /// The bytes the scanner ends each code with.
        pub const SUFFIX: &[u8] = &#suffix;
    }
}

/// `src/main.rs`.
pub fn main_module(game: &GameDef, t: &Target) -> TokenStream {
    let c = cards(t);
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let handlers = super::cortex_session::handlers(&[
        (c.console.port.vector, c.console.port.glue),
        (c.scanner.port.vector, c.scanner.port.glue),
    ]);
    let banner = format!("{}: scan the cards on the table; type `help` for commands", game.name.node);
    quote! {
        //! Firmware entry point: a table of cards fed by the scanner, served on the console.
        #![no_std]
        #![no_main]

        mod board;
        #[allow(dead_code)]
        mod game;

        use core::fmt::Write as _;
        use cortex_m_rt::{entry, exception};
        use gamec_runtime::card_table::{Deck, Frames, Table};
        use gamec_runtime::chip::#chip::serial::{interrupt, on_receive, on_systick, Chip, Port};
        use gamec_runtime::serial::{Line, LineReader, Received, TextOut};

        /// The deck as the generated module describes it, for the runtime's card table.
        static DECK: Deck = Deck {
            fields: &game::ATTRIBUTES,
            names: &game::NAMES,
            group_name: game::GROUP_NAME,
            group: game::GROUP,
            rows: game::ROWS,
            cols: game::COLUMNS,
            code_bytes: game::CODE_BYTES,
            is_card: game::is_card_code,
            groups: game::search,
        };

        #[entry]
        fn main() -> ! {
            let chip = Chip::new(&board::CONFIG);
            let mut scanner = chip.usart(board::SCANNER);
            let mut out = TextOut(chip.usart(board::CONSOLE));
            let mut table = Table::<{ game::CAPACITY }>::default();
            let mut frames = Frames::default();
            let mut line = LineReader::<64>::default();
            let _ = write!(out, "{}\n> ", #banner);
            loop {
                let now = chip.millis() as u16;
                while let Some(received) = scanner.receive() {
                    match received {
                        Received::Byte(byte) => frames.push(byte, now),
                        Received::Lost => frames.lose(now),
                    }
                }
                if let Some(frame) = frames.poll(now, board::SUFFIX) {
                    match frame {
                        Ok(code) => {
                            table.scanned(&DECK, code, &mut out);
                        }
                        Err(()) => {
                            let _ = writeln!(out, "error: a malformed frame from the scanner; nothing changed");
                        }
                    }
                    let _ = write!(out, "> ");
                }
                while let Some(byte) = out.0.take() {
                    match line.feed(byte) {
                        Some(Line::Text(text)) => match core::str::from_utf8(text) {
                            Ok(text) => table.command(&DECK, text, &mut out),
                            Err(_) => {
                                let _ = write!(out, "error: not text; type `help`\n> ");
                            }
                        },
                        Some(Line::TooLong) => {
                            let _ = write!(out, "error: the line is too long; type `help`\n> ");
                        }
                        None => {}
                    }
                }
            }
        }

        #handlers
    }
}
