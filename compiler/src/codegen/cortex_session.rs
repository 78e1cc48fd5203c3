//! A game served over a serial line on a Cortex-M: the board module (the clock, the port and
//! its divisor, the search's limits) and a main that runs the runtime's session on the glue's
//! USART, with SysTick for the move clock.

use super::board::search_limits;
use super::int;
use crate::bind::Target;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// `src/board.rs`.
pub fn board_module(t: &Target, byte_board: bool) -> TokenStream {
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let serial = t.serial.as_ref().expect("a serial target");
    let port = Ident::new(serial.glue, Span::call_site());
    let (clock, divisor) = (int(t.clock_hz), int(serial.ubrr));
    let (moves, depth) = search_limits(t, byte_board);
    let (moves, depth) = (int(moves), int(depth));
    quote! {
        //! The board's clock, its serial port, and how far its search goes.
        use gamec_runtime::chip::#chip::serial::{Config, Port};

        /// Moves the search considers per position, and its deepest ply.
        pub const SEARCH_MOVES: usize = #moves;
        pub const SEARCH_DEPTH: u8 = #depth;

        /// The serial port with its baud-rate divisor: the clock over the rate.
        pub static CONFIG: Config = Config { clock_hz: #clock, usarts: &[(Port::#port, #divisor)] };

        pub const PORT: Port = Port::#port;
    }
}

/// `src/main.rs`.
pub fn main_module(t: &Target) -> TokenStream {
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let serial = t.serial.as_ref().expect("a serial target");
    let handlers = handlers(&[(serial.rx_vector, serial.glue)]);
    let session = super::main_rs::session_type(t);
    // The board has no lamps.
    let io = super::main_rs::session_io(quote!(let _ = lamp;), quote!());
    quote! {
        //! Firmware entry point: the runtime's serial session over the generated game, on the
        //! board's USART.
        #![no_std]
        #![no_main]

        mod board;
        #[allow(dead_code)]
        mod game;

        use cortex_m_rt::{entry, exception};
        use gamec_runtime::chip::#chip::serial::{interrupt, on_receive, on_systick, Chip, Port, Usart};
        use gamec_runtime::session::{Io, Session};

        #io

        #[entry]
        fn main() -> ! {
            let chip = Chip::new(&board::CONFIG);
            let usart = chip.usart(board::PORT);
            // In static RAM, not on the stack the search needs.
            static mut SESSION: #session = Session::new();
            // SAFETY: main is the only code that names it, and takes it once.
            let session = unsafe { &mut *core::ptr::addr_of_mut!(SESSION) };
            session.run(&mut Board { chip, usart })
        }

        #handlers
    }
}

/// A Cortex-M firmware's handlers: each serial port's receive interrupt (`(vector, glue
/// name)`) queueing its byte, SysTick counting milliseconds, and a panic that stops.
pub(super) fn handlers(ports: &[(&str, &str)]) -> TokenStream {
    let receive = ports.iter().map(|&(vector, port)| {
        let (vector, port) = (Ident::new(vector, Span::call_site()), Ident::new(port, Span::call_site()));
        quote! {
            #[interrupt]
            fn #vector() {
                on_receive(Port::#port);
            }
        }
    });
    quote! {
        #(#receive)*

        #[exception]
        fn SysTick() {
            on_systick();
        }

        #[panic_handler]
        fn panic(_: &core::panic::PanicInfo) -> ! {
            loop {}
        }
    }
}
