//! A game played with a cursor on a Cortex-M: the board module (the clock, SysTick's tick, the
//! speaker's timer and pin, the matrix's lines) and a main that runs the same loop as an AVR's
//! (`cursor_firmware::cursor_main`) from `cortex_m_rt`'s entry, with SysTick showing the
//! matrix and sampling the encoders, and the tone's timer toggling the speaker. The setups
//! are kept in flash: the glue drives no 93C46 (bind warns of one on the board, W0026).

use super::cortex_buttons::config;
use super::cursor_firmware::{cursor_board, cursor_main, CursorMain};
use crate::bind::Target;
use gamec_dsl::GameDef;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// `src/board.rs`.
pub fn board_module(t: &Target, byte_board: bool) -> TokenStream {
    let m = &t.cursor.as_ref().expect("a cursor target").matrix;
    let chip = ident(t.chip.runtime_feature);
    let config = config(t, (m.tick_clock, m.tick_top, m.tick_millis));
    let board = cursor_board(t, byte_board, "After the ports' clocks are on, before interrupts are enabled.");
    quote! {
        //! The board's wiring: the clock, the tick, the speaker, and the matrix's pins.
        use gamec_runtime::chip::TickRate;
        use gamec_runtime::chip::#chip::{Config, Port};
        use gamec_runtime::matrix::{Lines, Matrix};

        #config

        pub use gamec_runtime::chip::#chip::Chip;

        #board
    }
}

/// `src/main.rs`.
pub fn main_module(game: &GameDef, t: &Target) -> TokenStream {
    let chip = ident(t.chip.runtime_feature);
    let CursorMain { what, modules, uses, pulled_up, setup, step, n_encoders, encoder_reads, encoder_polls } =
        cursor_main(game, t);
    let tone = t.speaker.as_ref().map(|_| {
        let vector = ident(super::cortex_buttons::tone_vector(t));
        quote! {
            #[interrupt]
            fn #vector() {
                on_tone(&board::CONFIG);
            }
        }
    });
    let mut glue = vec![quote!(on_tick)];
    glue.extend(tone.as_ref().map(|_| quote!(interrupt)));
    glue.extend(tone.as_ref().map(|_| quote!(on_tone)));
    quote! {
        #![doc = #what]
        #![no_std]
        #![no_main]

        #modules

        use core::cell::{Cell, RefCell};
        use gamec_runtime::buttons::Debounce;
        use gamec_runtime::chip::#chip::irq::{self as interrupt, CriticalSection, Mutex};
        use gamec_runtime::chip::#chip::Port;
        use gamec_runtime::encoder::Quadrature;
        use gamec_runtime::matrix::Frame;
        use gamec_runtime::tune::Speaker;
        #uses

        /// The picture the tick shows, a column a tick.
        static FRAME: Mutex<Cell<Frame>> = Mutex::new(Cell::new(Frame { red: [0; 8], green: [0; 8] }));
        /// The matrix, whole from the start so that the tick tests no `Option` (its pins are
        /// set up before the tick starts).
        static DISPLAY: Mutex<RefCell<board::Display>> = Mutex::new(RefCell::new(board::DISPLAY));
        /// The detents the encoders turned since the main loop last looked, the encoders sampled
        /// by the tick every millisecond however long the loop takes.
        static TURNS: Mutex<Cell<[i8; #n_encoders]>> = Mutex::new(Cell::new([0; #n_encoders]));

        #[cortex_m_rt::entry]
        fn main() -> ! {
            // SAFETY: first thing: the ports' clocks on before their pins are set up, and
            // those before the chip's set-up enables interrupts. The matrix blanked through
            // its pointer, as the tick does: nothing else holds it yet.
            unsafe {
                gamec_runtime::chip::#chip::power_up_ports();
                board::setup_pins();
                #(#pulled_up)*
                (*DISPLAY.borrow(&CriticalSection::new()).as_ptr()).blank();
            }
            let mut chip = board::Chip::new(&board::CONFIG);
            let mut buttons = Debounce::default();
            #setup
            // The clock counts from zero when the tick starts: every millisecond since gets its
            // step, with no read of the clock before the loop.
            let mut last = 0u16;
            loop {
                if chip.millis() == last {
                    continue;
                }
                last = last.wrapping_add(1);
                #step
            }
        }

        /// The handlers, apart: the glue's `interrupt` names the vectors here, where above it
        /// is the critical sections' module.
        mod handlers {
            use super::*;
            use gamec_runtime::chip::#chip::{#(#glue),*};

            /// The tick: the millisecond, the matrix's next column, and the encoders sampled.
            #[cortex_m_rt::exception]
            fn SysTick() {
                // The encoders' decoders: the exception's attribute makes this a reference
                // only this handler holds.
                static mut DECODERS: [Quadrature; #n_encoders] = [Quadrature::new(); #n_encoders];
                on_tick(&board::CONFIG);
                // SAFETY: no other handler preempts SysTick (all run at one priority), and the
                // main loop takes the frame and the counts masked.
                let cs = unsafe { CriticalSection::new() };
                // The matrix through its pointer: the main loop touches it only before the
                // tick starts.
                unsafe { &mut *DISPLAY.borrow(&cs).as_ptr() }.tick(unsafe { &*FRAME.borrow(&cs).as_ptr() });
                #(#encoder_reads)*
                // SAFETY: in the handler's critical section; the main loop takes them in its own.
                let t = unsafe { &mut *TURNS.borrow(&cs).as_ptr() };
                #(#encoder_polls)*
            }

            #tone
        }

        #[panic_handler]
        fn panic(_: &core::panic::PanicInfo) -> ! {
            loop {}
        }
    }
}
