//! Renders a board's wiring as the chip glue's `Config`.

use super::int;
use crate::bind::Target;
use crate::chips;
use gamec_dsl::Pin;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

/// A port's bit mask as the wiring reads: `1 << 4` for pin 4, binary for several pins.
pub(super) fn mask(m: u8) -> TokenStream {
    if m.is_power_of_two() {
        let bit = int(m.trailing_zeros());
        quote!(1 << #bit)
    } else {
        format!("0b{m:b}").parse().expect("a binary literal")
    }
}

pub(super) fn port(p: char) -> TokenStream {
    let id = Ident::new(&p.to_string(), Span::call_site());
    quote!(Port::#id)
}

/// `CONFIG` and `Chip` on an AVR: the tick's settings, and the speaker's Timer/Counter1 output
/// (0 for A), a field of the ATtinys' `Config` or a constant of the ATmegas' `Chip` type,
/// where a channel without a speaker is never played.
pub(super) fn avr_config(
    t: &Target,
    (clock, top, (whole, num, den)): (u8, u16, (u16, u16, u16)),
) -> (TokenStream, TokenStream) {
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let (tick_clock, tick_top) = (int(clock), int(top as u8));
    let (whole, num, den) = (int(whole), int(num), int(den));
    let channel = t.speaker.as_ref().map(|s| int(s.channel as u8 - b'A'));
    match t.chip.tone_in_type {
        true => {
            let (clock_hz, channel) = (int(t.clock_hz), channel.unwrap_or(int(0u8)));
            (
                quote! {
                    /// The board's timing, in a static: the glue keeps a reference to it.
                    pub static CONFIG: Config = Config {
                        tick_clock: #tick_clock,
                        tick_top: #tick_top,
                        rate: TickRate { whole: #whole, num: #num, den: #den },
                        clock_hz: #clock_hz,
                    };
                },
                quote! {
                    /// The chip, with the Timer/Counter1 output the speaker is on (0 A, 1 B, 2 C)
                    /// a constant of the type.
                    pub type Chip = gamec_runtime::chip::#chip::Chip<#channel>;
                },
            )
        }
        false => {
            let tone = channel.map_or(quote!(None), |c| quote!(Some(#c)));
            (
                quote! {
                    /// The board's timing and speaker, a constant: it folds into the code that
                    /// reads it.
                    pub const CONFIG: Config = Config {
                        tick_clock: #tick_clock,
                        tick_top: #tick_top,
                        rate: TickRate { whole: #whole, num: #num, den: #den },
                        tone_channel: #tone,
                    };
                },
                quote!(pub use gamec_runtime::chip::#chip::Chip;),
            )
        }
    }
}

pub fn render(t: &Target) -> TokenStream {
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let (display, display_port) = match &t.display {
        Some(d) => (charlieplex_display(d), quote!(PortPins,)),
        None => (quote!(), quote!()),
    };
    let inputs = inputs(t);
    let wake = wake_pin(t);
    let (config, chip_type) = avr_config(t, tick(t));
    let charlieplex = t.display.as_ref().map(|_| {
        quote!(
            use gamec_runtime::charlieplex::{Charlieplex, Led};
        )
    });
    let search = search_consts(t);
    quote! {
        //! The board's wiring: the tick, the speaker, the display and the inputs.
        #charlieplex
        use gamec_runtime::chip::avr::AvrPort;
        use gamec_runtime::chip::TickRate;
        use gamec_runtime::chip::#chip::{Config, Input, #display_port Port};

        #config

        #chip_type

        #display

        #inputs

        #wake

        #search
    }
}

/// The tick's clock select, count and millisecond rate: the display's refresh where there is
/// one; else a millisecond's worth of counts on the glue's tick timer, from its own
/// prescalers (the ATmega128's timer0 has more steps).
pub(super) fn tick(t: &Target) -> (u8, u16, (u16, u16, u16)) {
    if let Some(d) = &t.display {
        return (d.tick_clock, d.tick_top, d.tick_millis);
    }
    let timer = t.chip.tick_vectors.first().and_then(|(name, _)| t.chip.timer(name));
    let found = timer.and_then(|timer| {
        let (clock, top, _) = chips::nearest_divisor(t.clock_hz, timer, 1000.0, 1.0)?;
        Some((clock, top, timer.prescalers[clock as usize - 1]))
    });
    let (clock, top, prescaler) = found.unwrap_or((3, 124, 64));
    (clock, top, chips::millis_per_tick(t.clock_hz, prescaler, top))
}

/// `WAKE`, the pin whose press wakes the chip, where the game sleeps.
pub(super) fn wake_pin(t: &Target) -> Option<TokenStream> {
    t.wake.map(|p| {
        let (port, bit) = pin(p);
        let pin = quote!(Input::at(#port, #bit));
        quote! {
            /// The pin whose press wakes the chip from sleep: a control's, pulled up with the
            /// inputs.
            pub const WAKE: Input = #pin;
        }
    })
}

/// A game on the rule core searches within the chip's RAM (`search_limits`).
pub(super) fn search_consts(t: &Target) -> Option<TokenStream> {
    t.rules_core.map(|_| {
        let (moves, depth) = search_limits(t, false);
        let (moves, depth) = (int(moves), int(depth));
        quote! {
            /// Moves the search keeps a position, and its deepest ply, for the chip's RAM.
            pub const SEARCH_MOVES: usize = #moves;
            pub const SEARCH_DEPTH: u8 = #depth;
        }
    })
}

/// The inputs: `pressed()`, every input's level a bit, and `pull_up_inputs()`.
pub(super) fn inputs(t: &Target) -> TokenStream {
    // The pull-ups switched on a port at a time.
    let mut ports: Vec<(char, u8)> = Vec::new();
    for p in &t.inputs {
        match ports.iter_mut().find(|(c, _)| *c == p.port) {
            Some((_, m)) => *m |= 1 << p.bit,
            None => ports.push((p.port, 1 << p.bit)),
        }
    }
    // Each port read once, a press reading low, and each input's bit moved to its place by
    // constant shifts: no table, which AVR would keep in RAM, and no read a pin.
    let level = |c: char| Ident::new(&format!("pressed_{}", c.to_ascii_lowercase()), Span::call_site());
    let reads = ports.iter().map(|&(c, _)| {
        let (name, port) = (level(c), port(c));
        quote!(let #name = !#port.read();)
    });
    let bits = t.inputs.iter().enumerate().map(|(i, p)| {
        let (name, mask) = (level(p.port), int(1u8 << i));
        let (from, to) = (p.bit as usize, i);
        if from == to {
            quote!(#name & #mask)
        } else if from > to {
            let by = int(from - to);
            quote!((#name >> #by) & #mask)
        } else {
            let by = int(to - from);
            quote!((#name << #by) & #mask)
        }
    });
    let pull_ups = ports.iter().map(|&(p, m)| {
        let (port, m) = (port(p), mask(m));
        quote!(Input::pull_up_pins_at_start(#port, #m);)
    });
    quote! {
            /// The inputs' levels, bit i set where input i is pressed.
            pub fn pressed() -> u8 {
                #(#reads)*
                0 #(| #bits)*
            }

            /// Makes every input an input with its pull-up on.
            ///
            /// # Safety
            /// Before interrupts are first enabled: the ports are written unmasked.
            pub unsafe fn pull_up_inputs() {
                #(#pull_ups)*
            }
    }
}

/// The charlieplexed display's tables (its rows by their cathodes, each cell's LED) and pins.
pub(super) fn charlieplex_display(d: &crate::bind::Display) -> TokenStream {
    let pins = mask(d.pins);
    let rows = d.rows.iter().map(|&(cathode, _)| mask(cathode));
    let n_rows = int(d.rows.len());
    // Per cell from index 0, its LED's row and anode (none for a cell without one).
    let n_cells = d.rows.iter().flat_map(|(_, leds)| leds.iter().map(|&(cell, _)| cell as usize + 1)).max();
    let leds = (0..n_cells.unwrap_or(0)).map(|cell| {
        let led = d.rows.iter().enumerate().find_map(|(row, (_, leds))| {
            leds.iter().find(|&&(c, _)| c as usize == cell).map(|&(_, anode)| (row as u8, mask(anode)))
        });
        let (row, anode) = led.unwrap_or((0, quote!(0)));
        let row = int(row);
        quote!(Led { row: #row, anode: #anode })
    });
    let n_leds = int(n_cells.unwrap_or(0));
    let port = port(d.port);
    quote! {
        /// The charlieplexed display's rows, by their cathodes, in the order they are shown.
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static ROWS: [u8; #n_rows] = [#(#rows),*];

        /// The display's rows: the bytes of a frame.
        pub const FRAME_ROWS: usize = #n_rows;

        /// Per cell from index 0, the row and anode of its LED.
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static LEDS: [Led; #n_leds] = [#(#leds),*];

        /// The charlieplexed display, its tables in program memory.
        pub const DISPLAY: Charlieplex = Charlieplex { pins: #pins, rows: &ROWS, leds: &LEDS };

        /// The display's pins, all on one port.
        pub const fn display_pins() -> PortPins {
            PortPins::new(#port, #pins)
        }
    }
}

/// A pin as the chip glue names it: its port and bit.
pub(super) fn pin(p: Pin) -> (TokenStream, Literal) {
    (port(p.port), int(p.bit))
}

/// The wiring of a board that serves a game over its serial port.
/// A serial game's board module; `byte_board` when its search holds positions a byte a cell.
pub fn render_serial(t: &Target, byte_board: bool) -> TokenStream {
    let chip = Ident::new(t.chip.runtime_feature, Span::call_site());
    let serial = t.serial.as_ref().expect("serial boards have a serial port");
    let tick = t.tick.as_ref().expect("serial boards have a tick");
    let (ubrr, u2x, clock, top) = (int(serial.ubrr), serial.u2x, int(tick.clock), int(tick.top));
    let (moves, depth) = search_limits(t, byte_board);
    let (moves, depth) = (int(moves), int(depth));
    // Each lamp's pin as constants in code: a lamp a match arm, and the lamps' pins set up a
    // port at a time, where lamp values (a port and a mask each) would be built at start, kept
    // on main's stack and written through a run-time port. The writes need no critical
    // section: a serial board's interrupts (the tick and the receiver) write no port.
    let lit = t.lamps.iter().enumerate().map(|(i, &(p, active_low))| {
        let (port, mask) = (port(p.port), int(1u8 << p.bit));
        let i = int(i);
        let level = if active_low { int(0) } else { mask.clone() };
        quote!(#i => #port.write_out(#mask, #level),)
    });
    let mut ports: Vec<char> = t.lamps.iter().map(|(p, _)| p.port).collect();
    ports.sort();
    ports.dedup();
    // Per port: the lamps' pins, and the level of each that puts its lamp out.
    let port_masks: Vec<(TokenStream, Literal, Literal)> = ports
        .iter()
        .map(|&c| {
            let on_port = t.lamps.iter().filter(|(p, _)| p.port == c);
            let mask = int(on_port.clone().fold(0u8, |m, (p, _)| m | 1 << p.bit));
            let off = int(on_port.filter(|(_, low)| *low).fold(0u8, |m, (p, _)| m | 1 << p.bit));
            (port(c), mask, off)
        })
        .collect();
    let setup = port_masks.iter().map(|(port, mask, off)| quote!(#port.set(#mask, #mask, #off);));
    let off = port_masks.iter().map(|(port, mask, off)| quote!(#port.write_out(#mask, #off);));
    let light = if t.lamps.is_empty() {
        quote!(
            pub fn light(_lamp: u8) {}
        )
    } else {
        quote! {
            pub fn light(lamp: u8) {
                match lamp {
                    #(#lit)*
                    _ => {}
                }
            }
        }
    };
    // The ports' names only where a lamp is on one.
    let ports = (!t.lamps.is_empty()).then(|| {
        quote! {
            use gamec_runtime::chip::avr::AvrPort;
            use gamec_runtime::chip::#chip::Port;
        }
    });
    quote! {
        //! The board's wiring: the serial port's rate, the tick, and the lamps.
        #ports
        use gamec_runtime::chip::#chip::serial::Config;

        /// Moves the search considers per position, and its deepest ply, so that its stack
        /// fits the chip's RAM.
        pub const SEARCH_MOVES: usize = #moves;
        pub const SEARCH_DEPTH: u8 = #depth;

        pub static CONFIG: Config = Config {
            ubrr: #ubrr,
            u2x: #u2x,
            tick_clock: #clock,
            tick_top: #top,
        };

        /// Makes the lamps' pins outputs at the level that puts each out (some are lit by a
        /// low level); called before interrupts are enabled.
        pub fn setup_lamps() {
            #(#setup)*
        }

        /// Lights the lamp `lamp` (in the game's order, `game::LAMP_*`).
        #light

        /// Puts every lamp out, a port at a time.
        pub fn lamps_off() {
            #(#off)*
        }

    }
}

/// What the device's search may use of the chip's RAM. On 64-bit boards each ply of the
/// runtime's negamax takes its move buffer plus about 100 bytes of saved registers, positions
/// and the evaluation's frames on AVR, and about 450 bytes go to statics, the session, move
/// ordering and interrupts. On the byte board (`byte_board`) the search walks its moves
/// below the root, keeping no list, and makes and undoes them in place: a ply takes 26 bytes
/// (60 allowed, for frames other games' evaluations may add), and about 600 bytes go to the
/// rest, the board and the root's list included (all measured on the ATmega16 build: `gamec
/// build` bounds the deepest stack, and `cargo xtask bench` measures it). Move buffers hold
/// the game's own bound on moves a position (every empty cell of the start, for placements;
/// a column each, for drops), so that no legal move goes unsearched; what that costs is
/// counted by `gamec build`'s stack bound against the chip and the board's budget.
pub(super) fn search_limits(t: &Target, byte_board: bool) -> (usize, u8) {
    let moves = t.max_moves.max(1);
    let (per_ply, rest) = match t.rules_core {
        Some(core) => (moves as u32 + core.ply, core.rest),
        None if byte_board => (60, 600),
        None => (moves as u32 + 100, 450),
    };
    let depth = (t.chip.ram.saturating_sub(rest) / per_ply).clamp(1, 60) as u8;
    (moves, depth)
}
