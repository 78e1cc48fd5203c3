//! Chip glue for the ATmega64 and ATmega128 (one register map): port pins as embedded-hal
//! input and output pins and tri-state pin groups, Timer/Counter0 as the periodic tick, a tone
//! on a Timer/Counter1 output, a busy-wait delay, power-down sleep woken by an external
//! interrupt pin, and in [`serial`] USART0 and the tick of a serial session. It knows no
//! game: the generated main loop composes these with the runtime's drivers.

use super::avr::avr_ports;
use super::TickRate;

pub mod serial;
use crate::tune::{Note, Speaker};
use avr_device::interrupt::{self, Mutex};
use core::cell::Cell;
use embedded_hal::delay::DelayNs;

#[cfg(feature = "atmega128")]
use avr_device::atmega128a as pac;
#[cfg(all(feature = "atmega64", not(feature = "atmega128")))]
use avr_device::atmega64 as pac;

avr_ports!(pac;
    A => PORTA(porta, ddra, pina),
    B => PORTB(portb, ddrb, pinb),
    C => PORTC(portc, ddrc, pinc),
    D => PORTD(portd, ddrd, pind),
    E => PORTE(porte, ddre, pine),
    F => PORTF(portf, ddrf, pinf),
    G => PORTG(portg, ddrg, ping),
);

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
}

/// The tick: call only from the Timer/Counter0 compare interrupt. Returns after counting time, so
/// the caller can refresh its display in the same interrupt.
pub fn on_tick(cfg: &Config) {
    // SAFETY: called only from the tick's interrupt handler, which runs with interrupts off:
    // the critical section is already there, nothing to save and restore.
    let cs = unsafe { interrupt::CriticalSection::new() };
    let cell = MILLIS.borrow(cs);
    let (ms, rem) = cell.get();
    cell.set(cfg.rate.advance(ms, rem));
}

/// The chip, with the Timer/Counter1 output the speaker is on a constant of its type: 0 for A
/// (PB5), 1 for B (PB6), 2 for C (PB7). A constant, not fields worked out in [`Chip::new`]: the
/// speaker's pin and toggle bits are then immediates, where fields are read through the chip's
/// pointer at every note.
pub struct Chip<const TONE_CHANNEL: u8>;

impl<const TONE_CHANNEL: u8> Chip<TONE_CHANNEL> {
    /// The speaker's pin on port B.
    const TONE_PIN: u8 = 0x20 << TONE_CHANNEL;
    /// TCCR1A's toggle-on-compare bits for the speaker's channel.
    const TONE_TOGGLE: u8 = 0x40 >> (2 * TONE_CHANNEL);

    /// Starts the tick and enables interrupts.
    pub fn new(cfg: &'static Config) -> Self {
        // SAFETY: single core; every register access here is a whole read, write or a
        // read-modify-write made before interrupts are enabled. By address: `Peripherals::steal`
        // stores a flag at every use.
        let tc0 = unsafe { &*pac::TC0::ptr() };
        // CTC (WGM01), compare interrupt (OCIE0).
        tc0.ocr0().write(|w| unsafe { w.bits(cfg.tick_top) });
        tc0.tccr0().write(|w| unsafe { w.bits(0b1000 | cfg.tick_clock) });
        tc0.timsk().modify(|r, w| unsafe { w.bits(r.bits() | 0b10) });
        unsafe { interrupt::enable() };
        Chip
    }

    /// Not inlined: the main loop reads the count in several places, each a critical section.
    #[inline(never)]
    pub fn millis(&self) -> u16 {
        interrupt::free(|cs| MILLIS.borrow(cs).get().0)
    }

    /// Stops the tick's interrupt: before darkening a display for sleep, so that no tick
    /// lights a row again in between.
    pub fn pause_tick(&mut self) {
        // SAFETY: a read-modify-write of TIMSK, shared with Timer/Counter1's bits, masked.
        let tc0 = unsafe { &*pac::TC0::ptr() };
        interrupt::free(|_| tc0.timsk().modify(|r, w| unsafe { w.bits(r.bits() & !0b10) }));
    }

    pub fn resume_tick(&mut self) {
        // SAFETY: as in `pause_tick`.
        let tc0 = unsafe { &*pac::TC0::ptr() };
        interrupt::free(|_| tc0.timsk().modify(|r, w| unsafe { w.bits(r.bits() | 0b10) }));
    }

    /// Power-down until `wake`'s pin reads low: an external interrupt (INT0-3 on PD0-PD3,
    /// INT4-7 on PE4-PE7), level-triggered, the only kind that wakes INT4-7 from power-down.
    /// The firmware installs its handler, empty; the interrupt is masked again on waking, as
    /// a low level would otherwise keep calling it. The caller pauses its own work first.
    pub fn power_down(&mut self, wake: (Port, u8)) {
        let (port, mask) = wake;
        // The pin's INT number: PD0-PD3 are INT0-3, PE4-PE7 INT4-7; `gamec` binds only those.
        let int_mask = match port {
            Port::D => mask & 0x0F,
            Port::E => mask & 0xF0,
            _ => 0,
        };
        // SAFETY: single core, whole-register writes of registers only this function uses,
        // and MCUCR's sleep bits read-modify-written with nothing else writing it.
        let (exint, cpu) = unsafe { (&*pac::EXINT::ptr(), &*pac::CPU::ptr()) };
        // ISCn = 00 (low level) for every pin: EICRA and EICRB are left at their reset zero.
        exint.eimsk().write(|w| unsafe { w.bits(int_mask) });
        // SM2:0 = 010 (power-down), SE set just around the sleep instruction.
        cpu.mcucr().modify(|r, w| unsafe { w.bits((r.bits() & !0b0011_1100) | 0b0011_0000) });
        avr_device::asm::sleep();
        cpu.mcucr().modify(|r, w| unsafe { w.bits(r.bits() & !0b0010_0000) });
        exint.eimsk().write(|w| unsafe { w.bits(0) });
    }

    /// A busy-wait delay at this board's clock. Worked out from the config when asked, not
    /// kept in the chip: a firmware that never waits stores nothing for it.
    pub fn delay(&self, cfg: &Config) -> Delay {
        Delay { cycles_per_us: (cfg.clock_hz / 1_000_000).max(1) }
    }
}

impl<const TONE_CHANNEL: u8> Chip<TONE_CHANNEL> {
    /// CTC on OCR1A at `top`, prescaler bits `clock`, the speaker's output toggling at each
    /// match.
    fn sound(&mut self, top: u16, clock: u8) {
        // SAFETY: single core; whole writes, and port B's read-modify-write with interrupts
        // masked. By address: `Peripherals::steal` stores a flag at every use.
        let (tc1, portb) = unsafe { (&*pac::TC1::ptr(), &*pac::PORTB::ptr()) };
        let pin = Self::TONE_PIN;
        tc1.tccr1b().write(|w| unsafe { w.bits(0) });
        tc1.tcnt1().write(|w| unsafe { w.bits(0) });
        tc1.ocr1a().write(|w| unsafe { w.bits(top) });
        tc1.ocr1b().write(|w| unsafe { w.bits(0) });
        tc1.ocr1c().write(|w| unsafe { w.bits(0) });
        // Toggle on compare match: COM1x0 of the speaker's channel.
        tc1.tccr1a().write(|w| unsafe { w.bits(Self::TONE_TOGGLE) });
        interrupt::free(|_| portb.ddrb().modify(|r, w| unsafe { w.bits(r.bits() | pin) }));
        tc1.tccr1b().write(|w| unsafe { w.bits(0b1000 | clock) });
    }

    fn silence(&mut self) {
        // SAFETY: as in `sound`.
        let (tc1, portb) = unsafe { (&*pac::TC1::ptr(), &*pac::PORTB::ptr()) };
        let pin = Self::TONE_PIN;
        tc1.tccr1b().write(|w| unsafe { w.bits(0) });
        tc1.tccr1a().write(|w| unsafe { w.bits(0) });
        interrupt::free(|_| portb.portb().modify(|r, w| unsafe { w.bits(r.bits() & !pin) }));
    }
}

impl<const TONE_CHANNEL: u8> Speaker for Chip<TONE_CHANNEL> {
    fn tone(&mut self, note: Option<&Note>) {
        match note {
            Some(n) => self.sound(n.top, n.clock),
            None => self.silence(),
        }
    }

    /// The note's fields read straight into the timer's settings, with no copy of the note.
    fn play(&mut self, note: &'static Note) {
        let n = Note::load(note);
        if n.is_rest() {
            self.silence()
        } else {
            self.sound(n.top, n.clock)
        }
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
