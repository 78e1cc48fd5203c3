//! Renders the firmware's entry point and interrupt handlers.

use crate::bind::Target;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// What every entry point shares: the crate attributes, the generated modules, the handlers
/// of interrupts (vector and body) and the panic handler, around `items` and `main`'s body.
fn entry(
    t: &Target,
    doc: &str,
    items: TokenStream,
    body: TokenStream,
    handlers: &[(&str, TokenStream)],
) -> TokenStream {
    let chip = ident(t.chip.avr().device);
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
        // Assembly on AVR, still unstable: a wake handler's, and the byte board's passes; not
        // every game's firmware has either.
        #![feature(asm_experimental_arch)]
        #![allow(unused_features)]

        mod board;
        mod game;

        #items

        #[avr_device::entry]
        fn main() -> ! {
            #body
        }

        #(#handlers)*

        #[panic_handler]
        fn panic(_: &core::panic::PanicInfo) -> ! {
            loop {}
        }
    }
}

/// The entry point of a game of buttons and lights: the runtime's app loop over the board's
/// services, composed here: the glue's tick and tone, the inputs' pins, the charlieplexed
/// display refreshed from the tick, and sleep woken by a pin.
pub fn render(t: &Target) -> TokenStream {
    let chip = ident(t.chip.runtime_feature);
    let tick = t.display.as_ref().map_or(t.chip.tick_vectors[0].1, |d| d.tick_vector);
    let refresh = t.display.as_ref().map(|_| {
        quote! {
            // SAFETY: the tick's handler runs with interrupts off: the critical section is
            // already there, nothing to save and restore.
            let cs = unsafe { interrupt::CriticalSection::new() };
            let row = ROW.borrow(cs);
            let mut r = row.get();
            board::DISPLAY.refresh(&mut board::display_pins(), &mut r, FRAME.borrow(cs));
            row.set(r);
        }
    });
    let handlers = vec![(tick, quote!(on_tick(&board::CONFIG); #refresh))];
    // A wake-up needs a handler, even an empty one: `reti` alone, where a handler in Rust
    // saves and restores the status register around nothing.
    let wake_handler = t.wake.and_then(|w| t.chip.wake_pins.iter().find(|v| v.covers(w))).map(|v| {
        let vector = format!("__vector_{}", v.number);
        let (global, label) = (format!(".global {vector}"), format!("{vector}:"));
        quote! {
            core::arch::global_asm!(#global, #label, "reti");
        }
    });
    let ButtonsApp { uses, hal, run } = buttons_app(t);
    entry(
        t,
        " Firmware entry point: the runtime's app loop over the generated game and board.",
        quote! {
            use avr_device::interrupt::{self, Mutex};
            use gamec_runtime::chip::#chip::on_tick;
            #uses
            #wake_handler

            #hal
        },
        quote! {
            // SAFETY: first thing, before the chip's set-up enables interrupts.
            unsafe { board::pull_up_inputs() };
            let mut board = Board { chip: Chip::new(&board::CONFIG) };
            #run
        },
        &handlers,
    )
}

/// What the entry point of a game of buttons and lights is on any chip, given the glue's
/// `interrupt::free` and `Mutex` in scope: the items it uses and keeps (the display's frame),
/// the board as the app sees it, and the statement that runs the app on `board`.
pub(super) struct ButtonsApp {
    pub uses: TokenStream,
    pub hal: TokenStream,
    pub run: TokenStream,
}

pub(super) fn buttons_app(t: &Target) -> ButtonsApp {
    let sleep = t.wake.map(|_| {
        let darken = t.display.as_ref().map(|_| quote!(board::display_pins().float();));
        // The wake pin is the board's constant, not a field: the app's loop is not inlined
        // into `main`, so a field would be read at run time and its port chosen there.
        quote! {
                // The tick stops first, then the display darkens: the other way round a
                // tick between the two could light a row that would stay lit asleep.
                self.chip.pause_tick();
                #darken
                self.chip.power_down(board::WAKE.port_mask());
                self.chip.resume_tick();
                // Wait for the wake button to be released, as the seed does (the pin read
                // through a copy of the constant: embedded-hal's reads take `&mut`).
                let mut wake = board::WAKE;
                while wake.is_low().unwrap_or(false) {}
        }
    });
    let show = match &t.display {
        Some(_) => quote! {
            interrupt::free(|cs| board::DISPLAY.fill(cells, FRAME.borrow(cs)));
        },
        None => quote!(let _ = cells;),
    };
    // What only a display, or only a wake pin, needs.
    // `float`, which darkens the display for sleep, is the only `TriState` call made here.
    let tri_state = t.wake.map(|_| {
        quote!(
            use gamec_runtime::charlieplex::TriState;
        )
    });
    let display_items = t.display.as_ref().map(|_| {
        quote! {
            #tri_state
            /// The display's row the tick showed last.
            static ROW: Mutex<Cell<u8>> = Mutex::new(Cell::new(0));
            /// Per row of the display, the anodes to drive: the cells to light, worked out
            /// when they are handed over so that the tick only looks its row up.
            static FRAME: Mutex<[Cell<u8>; board::FRAME_ROWS]> =
                Mutex::new([const { Cell::new(0) }; board::FRAME_ROWS]);
        }
    });
    let App { uses: machine_use, machine, front, lights } = app(t);
    let wake_uses = t.wake.map(|_| {
        quote!(
            use embedded_hal::digital::InputPin;
        )
    });
    ButtonsApp {
        uses: quote! {
            use core::cell::Cell;
            use gamec_runtime::app::{App, Hal};
            #machine_use
            use board::Chip;
            use gamec_runtime::tune::{Note, Speaker};
            #wake_uses
            #display_items
        },
        hal: hal_board(&lights, show, sleep.unwrap_or_default()),
        run: run_app(&machine, &front),
    }
}

/// The app's turn machine for a game of buttons and lights: the line and heap games' own, or
/// the rule core's with its front module; what it needs in scope, and the lights' word.
pub(super) struct App {
    pub uses: TokenStream,
    pub machine: TokenStream,
    pub front: TokenStream,
    pub lights: TokenStream,
}

pub(super) fn app(t: &Target) -> App {
    match t.rules_core.is_some() {
        true => App {
            uses: quote!(
                use gamec_runtime::core_turn::{CoreTurn, OnButtons};
                mod front;
            ),
            machine: quote!(CoreTurn<game::Rules, { board::SEARCH_MOVES }>),
            front: quote!(front),
            lights: quote!(<game::Rules as OnButtons>::Lights),
        },
        false => App {
            uses: quote!(
                use gamec_runtime::line::Cells;
                use gamec_runtime::turn::Turn;
            ),
            machine: quote!(Turn<game::Rules>),
            front: quote!(game),
            lights: quote!(Cells),
        },
    }
}

/// The board as the app sees it (`Hal`), from the glue's chip (the name `Chip` in scope):
/// `show` and `sleep` are the bodies that light the cells and put the chip to sleep.
pub(super) fn hal_board(lights: &TokenStream, show: TokenStream, sleep: TokenStream) -> TokenStream {
    quote! {
        /// What the app needs of the board, from the glue's services and the pins.
        struct Board {
            chip: Chip,
        }

        impl Hal for Board {
            fn millis(&mut self) -> u16 {
                self.chip.millis()
            }
            fn inputs(&mut self) -> u8 {
                board::pressed()
            }
            type Lights = #lights;
            fn show(&mut self, cells: #lights) {
                #show
            }
            fn tone(&mut self, note: Option<&Note>) {
                self.chip.tone(note);
            }
            fn sleep(&mut self) {
                #sleep
            }
        }
    }
}

/// Runs the app on `board`, its state in a static: at a fixed address its fields are reached
/// directly, where on the stack the loop would keep reloading a pointer to them.
pub(super) fn run_app(machine: &TokenStream, front: &TokenStream) -> TokenStream {
    quote! {
        static mut APP: App<#machine> = App::new();
        // SAFETY: the only reference to it, taken once here, and `run` never returns.
        let app = unsafe { &mut *core::ptr::addr_of_mut!(APP) };
        app.run(&mut board, &#front::FEEDBACK, &#front::CONTROLS)
    }
}

/// The runtime's session type for the generated game: a game on the rule core names its moves
/// by up to `game::NAMED` cells; a placement, by one.
pub(super) fn session_type(t: &Target) -> TokenStream {
    match t.rules_core.is_some() {
        true => quote!(Session<game::Rules, { board::SEARCH_MOVES }, { board::SEARCH_DEPTH }, { game::NAMED }>),
        false => quote!(Session<game::Rules, { board::SEARCH_MOVES }, { board::SEARCH_DEPTH }>),
    }
}

/// The board as the session sees it (`Io`), from the glue's chip and USART (the names `Chip`
/// and `Usart` in scope): `light` and `lamps_off` are the bodies that drive the lamps.
pub(super) fn session_io(light: TokenStream, lamps_off: TokenStream) -> TokenStream {
    quote! {
        /// What the session needs of the board, from the glue's services and the pins.
        struct Board {
            chip: Chip,
            usart: Usart,
        }

        impl Io for Board {
            type Serial = Usart;
            fn serial(&mut self) -> &mut Usart {
                &mut self.usart
            }
            // Once, not inlined: the session reads the clock in several places, each
            // a critical section around four loads.
            #[inline(never)]
            fn millis(&mut self) -> u32 {
                self.chip.millis()
            }
            fn light(&mut self, lamp: u8) {
                #light
            }
            fn lamps_off(&mut self) {
                #lamps_off
            }
            // A byte at a time straight to the queue and the data register: the same as
            // embedded-io's methods, in fewer bytes of flash.
            fn read(&mut self) -> Option<u8> {
                self.usart.take()
            }
            fn write(&mut self, byte: u8) {
                self.usart.send(byte);
            }
        }
    }
}

/// The entry point of a game served over a serial line: the runtime's session over the
/// generated rules and protocol, on the glue's serial line and tick and the board's lamps.
pub fn render_session(t: &Target) -> TokenStream {
    let chip = ident(t.chip.runtime_feature);
    let tick = t.tick.as_ref().expect("serial boards have a tick").vector;
    let rx = t.serial.as_ref().expect("serial boards have a port").rx_vector;
    let session = session_type(t);
    let io = session_io(quote!(board::light(lamp);), quote!(board::lamps_off();));
    entry(
        t,
        " Firmware entry point: the runtime's serial session over the generated game and board.",
        quote! {
            use gamec_runtime::chip::#chip::serial::{on_receive, on_tick, Chip, Usart};
            use gamec_runtime::session::{Io, Session};

            #io
        },
        quote! {
            board::setup_lamps();
            let chip = Chip::new(&board::CONFIG);
            // In a static, so that the session's functions know its address rather than each
            // taking it in a register pair.
            static mut BOARD: core::mem::MaybeUninit<Board> = core::mem::MaybeUninit::uninit();
            // SAFETY: written once, here, before anything reads it; main alone names it.
            let board = unsafe { (*core::ptr::addr_of_mut!(BOARD)).write(Board { usart: chip.usart(), chip }) };
            // In static RAM, not on the stack the search needs.
            static mut SESSION: #session = Session::new();
            // SAFETY: the main loop is the only code that names it, and takes it once.
            let session = unsafe { &mut *core::ptr::addr_of_mut!(SESSION) };
            session.run(board)
        },
        &[(tick, quote!(on_tick();)), (rx, quote!(on_receive();))],
    )
}
