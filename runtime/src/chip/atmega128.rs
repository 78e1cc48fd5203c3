//! Chip glue for the ATmega64 and ATmega128 (one register map): port pins as embedded-hal
//! input and output pins, Timer/Counter0 as the periodic tick, a tone on a Timer/Counter1
//! output, and a busy-wait delay. It knows no game: the generated main loop composes these
//! with the runtime's drivers.

use super::TickRate;
use crate::tune::Note;
use avr_device::interrupt::{self, Mutex};
use core::cell::Cell;
use core::convert::Infallible;
use embedded_hal::delay::DelayNs;
use embedded_hal::digital::{ErrorType, InputPin, OutputPin};

#[cfg(feature = "atmega128")]
use avr_device::atmega128a as pac;
#[cfg(all(feature = "atmega64", not(feature = "atmega128")))]
use avr_device::atmega64 as pac;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Port {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
}

fn dp() -> pac::Peripherals {
    // Single core; every register access below is a whole read, write or a read-modify-write
    // made with interrupts masked.
    unsafe { pac::Peripherals::steal() }
}

/// `$body` with `$port`, `$ddr` and `$pin` bound to the registers of `port`.
macro_rules! with_port {
    ($port:expr, |$out:ident, $ddr:ident, $inp:ident| $body:expr) => {{
        let p = dp();
        match $port {
            Port::A => {
                let ($out, $ddr, $inp) = (p.PORTA.porta(), p.PORTA.ddra(), p.PORTA.pina());
                $body
            }
            Port::B => {
                let ($out, $ddr, $inp) = (p.PORTB.portb(), p.PORTB.ddrb(), p.PORTB.pinb());
                $body
            }
            Port::C => {
                let ($out, $ddr, $inp) = (p.PORTC.portc(), p.PORTC.ddrc(), p.PORTC.pinc());
                $body
            }
            Port::D => {
                let ($out, $ddr, $inp) = (p.PORTD.portd(), p.PORTD.ddrd(), p.PORTD.pind());
                $body
            }
            Port::E => {
                let ($out, $ddr, $inp) = (p.PORTE.porte(), p.PORTE.ddre(), p.PORTE.pine());
                $body
            }
            Port::F => {
                let ($out, $ddr, $inp) = (p.PORTF.portf(), p.PORTF.ddrf(), p.PORTF.pinf());
                $body
            }
            Port::G => {
                let ($out, $ddr, $inp) = (p.PORTG.portg(), p.PORTG.ddrg(), p.PORTG.ping());
                $body
            }
        }
    }};
}

/// A pin driven by the chip.
pub struct Output {
    port: Port,
    mask: u8,
}

impl Output {
    /// Makes the pin an output, driven low.
    pub fn new(port: Port, bit: u8) -> Output {
        let mask = 1 << bit;
        interrupt::free(|_| {
            with_port!(port, |out, ddr, _inp| {
                out.modify(|r, w| unsafe { w.bits(r.bits() & !mask) });
                ddr.modify(|r, w| unsafe { w.bits(r.bits() | mask) });
            })
        });
        Output { port, mask }
    }

    fn write(&mut self, high: bool) {
        let mask = self.mask;
        // Masked: the display interrupt writes other pins of the same ports.
        interrupt::free(|_| {
            with_port!(self.port, |out, _ddr, _inp| out
                .modify(|r, w| unsafe { w.bits(if high { r.bits() | mask } else { r.bits() & !mask }) }))
        });
    }
}

impl ErrorType for Output {
    type Error = Infallible;
}

impl OutputPin for Output {
    fn set_low(&mut self) -> Result<(), Infallible> {
        self.write(false);
        Ok(())
    }
    fn set_high(&mut self) -> Result<(), Infallible> {
        self.write(true);
        Ok(())
    }
}

/// A pin the chip reads.
pub struct Input {
    port: Port,
    mask: u8,
}

impl Input {
    /// An input with its pull-up on: a switch or contact to ground reads low when closed.
    pub fn pulled_up(port: Port, bit: u8) -> Input {
        let mask = 1 << bit;
        interrupt::free(|_| {
            with_port!(port, |out, ddr, _inp| {
                ddr.modify(|r, w| unsafe { w.bits(r.bits() & !mask) });
                out.modify(|r, w| unsafe { w.bits(r.bits() | mask) });
            })
        });
        Input { port, mask }
    }

    /// An input without pull-up, driven by another chip.
    pub fn floating(port: Port, bit: u8) -> Input {
        let mask = 1 << bit;
        interrupt::free(|_| {
            with_port!(port, |out, ddr, _inp| {
                ddr.modify(|r, w| unsafe { w.bits(r.bits() & !mask) });
                out.modify(|r, w| unsafe { w.bits(r.bits() & !mask) });
            })
        });
        Input { port, mask }
    }
}

impl ErrorType for Input {
    type Error = Infallible;
}

impl InputPin for Input {
    fn is_high(&mut self) -> Result<bool, Infallible> {
        Ok(with_port!(self.port, |_out, _ddr, inp| inp.read().bits()) & self.mask != 0)
    }
    fn is_low(&mut self) -> Result<bool, Infallible> {
        self.is_high().map(|h| !h)
    }
}

/// The millisecond count and its fractional remainder, advanced by the tick interrupt.
static MILLIS: Mutex<Cell<(u16, u16)>> = Mutex::new(Cell::new((0, 0)));

/// One board's timing, as the compiler lowered it.
pub struct Config {
    /// Timer/Counter0's clock select and compare value for the tick.
    pub tick_clock: u8,
    pub tick_top: u8,
    pub rate: TickRate,
    /// The clock, for delays.
    pub clock_hz: u32,
    /// The Timer/Counter1 output the speaker is on: 0 for A (PB5), 1 for B (PB6), 2 for C (PB7).
    pub tone_channel: u8,
}

/// The tick: call from the Timer/Counter0 compare interrupt. Returns after counting time, so
/// the caller can refresh its display in the same interrupt.
pub fn on_tick(cfg: &Config) {
    interrupt::free(|cs| {
        let cell = MILLIS.borrow(cs);
        let (ms, rem) = cell.get();
        cell.set(cfg.rate.advance(ms, rem));
    });
}

pub struct Chip {
    cfg: &'static Config,
}

impl Chip {
    /// Starts the tick and enables interrupts.
    pub fn new(cfg: &'static Config) -> Chip {
        let p = dp();
        // CTC (WGM01), compare interrupt (OCIE0).
        p.TC0.ocr0().write(|w| unsafe { w.bits(cfg.tick_top) });
        p.TC0.tccr0().write(|w| unsafe { w.bits(0b1000 | cfg.tick_clock) });
        p.TC0.timsk().modify(|r, w| unsafe { w.bits(r.bits() | 0b10) });
        unsafe { interrupt::enable() };
        Chip { cfg }
    }

    pub fn millis(&self) -> u16 {
        interrupt::free(|cs| MILLIS.borrow(cs).get().0)
    }

    /// Plays a note on the speaker until the next call, or silences it with `None`: CTC on
    /// OCR1A with the speaker's output toggling at each match.
    pub fn tone(&mut self, note: Option<&Note>) {
        let p = dp();
        let pin = 0x20u8 << self.cfg.tone_channel;
        match note {
            Some(n) => {
                p.TC1.tccr1b().write(|w| unsafe { w.bits(0) });
                p.TC1.tcnt1().write(|w| unsafe { w.bits(0) });
                p.TC1.ocr1a().write(|w| unsafe { w.bits(n.top) });
                p.TC1.ocr1b().write(|w| unsafe { w.bits(0) });
                p.TC1.ocr1c().write(|w| unsafe { w.bits(0) });
                // Toggle on compare match: COM1x0 of the speaker's channel.
                p.TC1.tccr1a().write(|w| unsafe { w.bits(0x40 >> (2 * self.cfg.tone_channel)) });
                interrupt::free(|_| p.PORTB.ddrb().modify(|r, w| unsafe { w.bits(r.bits() | pin) }));
                p.TC1.tccr1b().write(|w| unsafe { w.bits(0b1000 | n.clock) });
            }
            None => {
                p.TC1.tccr1b().write(|w| unsafe { w.bits(0) });
                p.TC1.tccr1a().write(|w| unsafe { w.bits(0) });
                interrupt::free(|_| p.PORTB.portb().modify(|r, w| unsafe { w.bits(r.bits() & !pin) }));
            }
        }
    }

    /// A busy-wait delay at this board's clock.
    pub fn delay(&self) -> Delay {
        Delay { cycles_per_us: (self.cfg.clock_hz / 1_000_000).max(1) }
    }
}

/// Waits by counting cycles; interrupts still run, so waits are at least as long as asked.
pub struct Delay {
    cycles_per_us: u32,
}

impl DelayNs for Delay {
    fn delay_ns(&mut self, ns: u32) {
        avr_device::asm::delay_cycles((ns / 1000 + 1) * self.cycles_per_us);
    }
}
