//! Renders a board's wiring as the chip glue's `Config`.

use super::int;
use crate::bind::Target;
use crate::chips;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// A port's bit mask as the wiring reads: `1 << 4` for pin 4, binary for several pins.
fn mask(m: u8) -> TokenStream {
    if m.is_power_of_two() {
        let bit = int(m.trailing_zeros());
        quote!(1 << #bit)
    } else {
        format!("0b{m:b}").parse().expect("a binary literal")
    }
}

fn port(p: char) -> TokenStream {
    let id = Ident::new(&p.to_string(), Span::call_site());
    quote!(Port::#id)
}

pub fn render(t: &Target) -> TokenStream {
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let (display, display_port, tick_clock, tick_top, (whole, num, den)) = match &t.display {
        Some(d) => {
            let pins = mask(d.pins);
            let rows = d.rows.iter().map(|&(cathode, ref leds)| {
                let leds = leds.iter().map(|&(cell, anode)| {
                    let (cell, anode) = (int(cell), mask(anode));
                    quote!((#cell, #anode))
                });
                let cathode = mask(cathode);
                quote!(Row { cathode: #cathode, leds: &[#(#leds),*] })
            });
            let clock = int(d.tick_clock);
            let top = int(d.tick_top as u8);
            (quote!(Charlieplex { pins: #pins, rows: &[#(#rows),*] }), port(d.port), clock, top, d.tick_millis)
        }
        // Without a display the tick still counts time: /64 and 125 counts.
        None => {
            let millis = chips::millis_per_tick(t.clock_hz, 64, 124);
            (quote!(Charlieplex { pins: 0, rows: &[] }), port('A'), int(3), int(124), millis)
        }
    };
    let (whole, num, den) = (int(whole), int(num), int(den));
    let inputs = t.inputs.iter().map(|p| {
        let port = port(p.port);
        let mask = mask(1u8 << p.bit);
        quote!((#port, #mask))
    });
    let wake = match t.wake {
        Some(p) => {
            let port = port(p.port);
            let mask = mask(1u8 << p.bit);
            quote!(Some((#port, #mask)))
        }
        None => quote!(None),
    };
    let speaker = match &t.speaker {
        Some(s) if s.channel == 'A' => quote!(Speaker::Oc1a),
        Some(_) => quote!(Speaker::Oc1b),
        None => quote!(Speaker::None),
    };
    quote! {
        //! The board's wiring, for the chip glue.
        use gamec_runtime::charlieplex::{Charlieplex, Row};
        use gamec_runtime::chip::TickRate;
        use gamec_runtime::chip::#chip::{Config, Port, Speaker};

        pub static CONFIG: Config = Config {
            display: #display,
            display_port: #display_port,
            tick_clock: #tick_clock,
            tick_top: #tick_top,
            tick_millis: TickRate { whole: #whole, num: #num, den: #den },
            inputs: &[#(#inputs),*],
            wake: #wake,
            speaker: #speaker,
        };
    }
}

/// The wiring of a board that serves a game over its serial port.
pub fn render_serial(t: &Target) -> TokenStream {
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let serial = t.serial.as_ref().expect("serial boards have a serial port");
    let tick = t.tick.as_ref().expect("serial boards have a tick");
    let (ubrr, u2x, clock, top) = (int(serial.ubrr), serial.u2x, int(tick.clock), int(tick.top));
    let (moves, depth) = search_limits(t);
    let (moves, depth) = (int(moves), int(depth));
    let lamps = t.lamps.iter().map(|(p, active_low)| {
        let port = port(p.port);
        let mask = mask(1u8 << p.bit);
        quote!((#port, #mask, #active_low))
    });
    quote! {
        //! The board's wiring, for the chip glue.
        use gamec_runtime::chip::#chip::{Config, Port};

        /// Moves the search considers per position, and its deepest ply, so that its stack
        /// fits the chip's RAM.
        pub const SEARCH_MOVES: usize = #moves;
        pub const SEARCH_DEPTH: u8 = #depth;

        /// The serial port's baud rate, the tick's timer, and the lamps in the game's order
        /// (`game::LAMP_*`): port, pin and whether the pin is low when lit.
        pub static CONFIG: Config = Config {
            ubrr: #ubrr,
            u2x: #u2x,
            tick_clock: #clock,
            tick_top: #top,
            lamps: &[#(#lamps),*],
        };
    }
}

/// What the device's search may use of the chip's RAM. Each ply of the runtime's negamax
/// takes its move buffer plus about 100 bytes of saved registers, positions and the
/// evaluation's frames on AVR, and about 450 bytes go to statics, the session, move ordering
/// and interrupts (both measured on the ATmega16 build: `cargo xtask bench` reports the
/// deepest stack). Move buffers of 32 cover every position but freak ones (the most moves
/// seen in 8 x 8 play is 33); past the buffer the search skips moves, which bind warns of
/// (W0024) where a game's bound exceeds it. Games with
/// fewer moves (a drop per column, a small grid) get buffers of their own bound.
pub(super) fn search_limits(t: &Target) -> (usize, u8) {
    let moves = t.max_moves.clamp(1, crate::bind::MAX_SEARCH_MOVES);
    let per_ply = moves as u32 + 100;
    let depth = (t.chip.ram.saturating_sub(450) / per_ply).clamp(1, 60) as u8;
    (moves, depth)
}
