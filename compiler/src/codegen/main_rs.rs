//! Renders the firmware's entry point and interrupt handlers.

use crate::bind::Target;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// What every entry point shares: the crate attributes, the generated modules, the handlers
/// of interrupts (vector and body) and the panic handler, around `uses` and `main`'s body.
fn entry(t: &Target, doc: &str, uses: TokenStream, body: TokenStream, handlers: &[(&str, TokenStream)]) -> TokenStream {
    let chip = ident(t.chip.device_feature);
    let handlers = handlers.iter().map(|(vector, call)| {
        let vector = ident(vector);
        quote! {
            #[avr_device::interrupt(#chip)]
            fn #vector() {
                #call
            }
        }
    });
    quote! {
        #![doc = #doc]
        #![no_std]
        #![no_main]
        #![feature(abi_avr_interrupt)]

        mod board;
        mod game;

        #uses

        #[avr_device::entry]
        fn main() -> ! {
            let mut chip = Chip::new(&board::CONFIG);
            #body
        }

        #(#handlers)*

        #[panic_handler]
        fn panic(_: &core::panic::PanicInfo) -> ! {
            loop {}
        }
    }
}

/// The entry point of a game of buttons and lights: the runtime's app loop.
pub fn render(t: &Target) -> TokenStream {
    let chip = ident(t.chip.runtime_feature);
    let tick = t.display.as_ref().map_or(t.chip.tick_vectors[0].1, |d| d.tick_vector);
    let mut handlers = vec![(tick, quote!(on_tick(&board::CONFIG);))];
    // A wake-up needs a handler, even an empty one.
    if let Some((_, v)) = t.wake.and_then(|w| t.chip.wake_vectors.iter().find(|(p, _)| *p == w.port)) {
        handlers.push((v, quote!()));
    }
    entry(
        t,
        " Firmware entry point: the runtime's app loop over the generated game and board.",
        quote! {
            use gamec_runtime::app::App;
            use gamec_runtime::chip::#chip::{on_tick, Chip};
        },
        quote! {
            let mut app = App::<game::Rules>::default();
            app.run(&mut chip, &game::FEEDBACK, &game::CONTROLS)
        },
        &handlers,
    )
}

/// The entry point of a game served over a serial line: the runtime's session over the
/// generated rules and protocol, with the tick and receive interrupts.
pub fn render_session(t: &Target) -> TokenStream {
    let chip = ident(t.chip.runtime_feature);
    let tick = t.tick.as_ref().expect("serial boards have a tick").vector;
    let rx = t.serial.as_ref().expect("serial boards have a port").rx_vector;
    entry(
        t,
        " Firmware entry point: the runtime's serial session over the generated game and board.",
        quote! {
            use gamec_runtime::chip::#chip::{on_receive, on_tick, Chip};
            use gamec_runtime::session::Session;
        },
        quote! {
            let mut session =
                Session::<game::Rules, { board::SEARCH_MOVES }>::new(&game::PROTOCOL, game::START, board::SEARCH_DEPTH);
            session.run(&mut chip)
        },
        &[(tick, quote!(on_tick();)), (rx, quote!(on_receive();))],
    )
}
