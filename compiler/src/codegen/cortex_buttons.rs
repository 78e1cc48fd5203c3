//! A game of buttons and lights on a Cortex-M: the board module (the clock, SysTick's tick,
//! the speaker's timer and pin, the charlieplexed display, the inputs) and a main that runs the
//! runtime's app loop on the glue, with the handlers of SysTick, the tone and the wake pin.
//! What the app is on any chip comes from `main_rs`; the board's pins from `board`.

use super::board::{charlieplex_display, inputs, pin, search_consts, tick, wake_pin};
use super::int;
use super::main_rs::{buttons_app, ButtonsApp};
use crate::bind::Target;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// The speaker's timer, by the number its name ends in (`timer1` is 1).
fn tone_timer(t: &Target) -> Option<u8> {
    t.speaker.as_ref().map(|s| s.timer.number())
}

/// The interrupt of the speaker's timer, which toggles its pin: the chip names one per timer
/// that can.
pub(super) fn tone_vector(t: &Target) -> &'static str {
    let s = t.speaker.as_ref().expect("a speaker");
    let named = t.chip.tone_vectors.iter().find(|(timer, _)| *timer == s.timer.name);
    named.expect("bind gives the speaker a timer whose interrupt toggles a pin").1
}

/// `CONFIG`, the glue's `Config`: the clock, the tick (its divisor step, count and
/// millisecond rate) and the speaker's timer and pin, where the board has a speaker.
pub(super) fn config(t: &Target, (clock, top, (whole, num, den)): (u8, u16, (u16, u16, u16))) -> TokenStream {
    let (clock, top, whole, num, den) = (int(clock), int(top), int(whole), int(num), int(den));
    let clock_hz = int(t.clock_hz);
    let tone = match (tone_timer(t), &t.speaker) {
        (Some(timer), Some(s)) => {
            let (port, bit) = pin(s.pin);
            let timer = int(timer);
            quote!(Some((#timer, #port, #bit)))
        }
        _ => quote!(None),
    };
    quote! {
        /// The board's clock, tick and speaker, a constant: it folds into the code that reads it.
        pub const CONFIG: Config = Config {
            clock_hz: #clock_hz,
            tick_clock: #clock,
            tick_top: #top,
            rate: TickRate { whole: #whole, num: #num, den: #den },
            tone: #tone,
        };
    }
}

/// `src/board.rs`.
pub fn board_module(t: &Target) -> TokenStream {
    let chip = ident(t.chip.runtime_feature);
    let (display, display_uses) = match &t.display {
        Some(d) => (
            charlieplex_display(d),
            quote!(
                use gamec_runtime::charlieplex::{Charlieplex, Led};
                use gamec_runtime::chip::#chip::PortPins;
            ),
        ),
        None => (quote!(), quote!()),
    };
    let config = config(t, tick(t));
    let inputs = inputs(t);
    let wake = wake_pin(t);
    let search = search_consts(t);
    quote! {
        //! The board's wiring: the clock, the tick, the speaker, the display and the inputs.
        #display_uses
        use gamec_runtime::chip::TickRate;
        use gamec_runtime::chip::#chip::{Config, Input, Port};

        #config

        pub use gamec_runtime::chip::#chip::Chip;

        #display

        #inputs

        #wake

        #search
    }
}

/// `src/main.rs`.
pub fn main_module(t: &Target) -> TokenStream {
    let chip = ident(t.chip.runtime_feature);
    let ButtonsApp { uses, hal, run } = buttons_app(t);
    let refresh = t.display.as_ref().map(|_| {
        quote! {
            // SAFETY: no other handler preempts SysTick (all run at one priority), and the
            // main loop takes the frame masked.
            let cs = unsafe { CriticalSection::new() };
            let row = ROW.borrow(&cs);
            let mut r = row.get();
            board::DISPLAY.refresh(&mut board::display_pins(), &mut r, FRAME.borrow(&cs));
            row.set(r);
        }
    });
    let tone = tone_timer(t).map(|_| {
        let vector = ident(tone_vector(t));
        quote! {
            #[interrupt]
            fn #vector() {
                on_tone(&board::CONFIG);
            }
        }
    });
    let wake = t.wake.and_then(|w| t.chip.wake_pins.iter().find(|v| v.covers(w))).map(|v| {
        let (vector, port) = (ident(v.vector), ident(&v.port.to_string()));
        quote! {
            #[interrupt]
            fn #vector() {
                on_wake(Port::#port);
            }
        }
    });
    let mut glue = vec![quote!(interrupt), quote!(on_tick)];
    glue.extend(tone.as_ref().map(|_| quote!(on_tone)));
    glue.extend(wake.as_ref().map(|_| quote!(on_wake)));
    glue.extend(wake.as_ref().map(|_| quote!(Port)));
    quote! {
        //! Firmware entry point: the runtime's app loop over the generated game and board.
        #![no_std]
        #![no_main]

        mod board;
        mod game;

        use gamec_runtime::chip::#chip::irq::{self as interrupt, CriticalSection, Mutex};
        #uses

        #hal

        #[cortex_m_rt::entry]
        fn main() -> ! {
            // SAFETY: first thing: the ports' clocks on before their pins are set up, and
            // those before the chip's set-up enables interrupts.
            unsafe {
                gamec_runtime::chip::#chip::power_up_ports();
                board::pull_up_inputs();
            }
            let mut board = Board { chip: Chip::new(&board::CONFIG) };
            #run
        }

        /// The handlers, apart: the glue's `interrupt` names the vectors here, where above
        /// it is the critical sections' module.
        mod handlers {
            use super::*;
            use gamec_runtime::chip::#chip::{#(#glue),*};

            #[cortex_m_rt::exception]
            fn SysTick() {
                on_tick(&board::CONFIG);
                #refresh
            }

            #tone

            #wake
        }

        #[panic_handler]
        fn panic(_: &core::panic::PanicInfo) -> ! {
            loop {}
        }
    }
}
