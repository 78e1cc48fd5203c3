//! Renders the firmware's entry point and interrupt handlers.

use crate::bind::Target;
use proc_macro2::{Ident, Span};
use quote::quote;

pub fn render(t: &Target) -> proc_macro2::TokenStream {
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let tick = Ident::new(t.display.as_ref().map_or(t.chip.tick_vectors[0].1, |d| d.tick_vector), Span::call_site());
    let wake = t.wake.and_then(|w| t.chip.wake_vectors.iter().find(|(p, _)| *p == w.port)).map(|(_, v)| {
        let v = Ident::new(v, Span::call_site());
        quote! {
            #[avr_device::interrupt(#chip)]
            fn #v() {}
        }
    });
    quote! {
        //! Firmware entry point: the runtime's app loop over the generated game and board.
        #![no_std]
        #![no_main]
        #![feature(abi_avr_interrupt)]

        mod board;
        mod game;

        use gamec_runtime::app::App;
        use gamec_runtime::chip::#chip::{on_tick, Chip};

        #[avr_device::entry]
        fn main() -> ! {
            let mut chip = Chip::new(&board::CONFIG);
            let mut app = App::<game::Rules>::default();
            app.run(&mut chip, &game::FEEDBACK, &game::CONTROLS)
        }

        #[avr_device::interrupt(#chip)]
        fn #tick() {
            on_tick(&board::CONFIG);
        }

        #wake

        #[panic_handler]
        fn panic(_: &core::panic::PanicInfo) -> ! {
            loop {}
        }
    }
}

/// The entry point of a game served over a serial line: the runtime's session over the
/// generated rules and protocol, with the tick and receive interrupts.
pub fn render_session(t: &Target) -> proc_macro2::TokenStream {
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let tick = Ident::new(t.tick.as_ref().expect("serial boards have a tick").vector, Span::call_site());
    let rx = Ident::new(t.serial.as_ref().expect("serial boards have a port").rx_vector, Span::call_site());
    quote! {
        //! Firmware entry point: the runtime's serial session over the generated game and board.
        #![no_std]
        #![no_main]
        #![feature(abi_avr_interrupt)]

        mod board;
        mod game;

        use gamec_runtime::chip::#chip::{on_receive, on_tick, Chip};
        use gamec_runtime::session::Session;

        #[avr_device::entry]
        fn main() -> ! {
            let mut chip = Chip::new(&board::CONFIG);
            let mut session = Session::<game::Rules, { board::SEARCH_MOVES }>::new(&game::PROTOCOL, game::START, board::SEARCH_DEPTH);
            session.run(&mut chip)
        }

        #[avr_device::interrupt(#chip)]
        fn #tick() {
            on_tick();
        }

        #[avr_device::interrupt(#chip)]
        fn #rx() {
            on_receive();
        }

        #[panic_handler]
        fn panic(_: &core::panic::PanicInfo) -> ! {
            loop {}
        }
    }
}
