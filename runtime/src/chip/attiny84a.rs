//! Chip glue for the ATtiny84A: ports A and B as embedded-hal pins and tri-state pin groups,
//! Timer/Counter0 as the periodic tick, a tone on a Timer/Counter1 output, and power-down
//! sleep woken by a pin change. It knows no game: the generated firmware composes these
//! services with the runtime's drivers.

use super::avr::{avr_ports, AvrPort};
use super::TickRate;
use crate::tune::{Note, Speaker};
use avr_device::interrupt::{self, Mutex};
use core::cell::Cell;

avr_ports!(avr_device::attiny84a; pin_toggles; A => PORTA(porta, ddra, pina), B => PORTB(portb, ddrb, pinb));

/// One board's timing, as the compiler lowered it.
pub struct Config {
    /// Timer/Counter0 clock select and compare value for the tick.
    pub tick_clock: u8,
    pub tick_top: u8,
    /// How far each tick advances the millisecond count, from the clock and the tick's rate.
    pub rate: TickRate,
    /// The Timer/Counter1 output the speaker is on: 0 for OC1A (PA6), 1 for OC1B (PA5).
    pub tone_channel: Option<u8>,
}

/// The millisecond count, first in C layout so that a simulator can read it at the static's
/// address, and the part of a millisecond counted beyond it.
#[repr(C)]
#[derive(Clone, Copy)]
struct Millis {
    count: u16,
    rem: u16,
}

static MILLIS: Mutex<Cell<Millis>> = Mutex::new(Cell::new(Millis { count: 0, rem: 0 }));

/// The register blocks this glue uses, by their addresses: `Peripherals::steal` would also
/// store its taken flag, an instruction at every use.
#[allow(non_snake_case)]
struct Regs {
    TC0: &'static avr_device::attiny84a::tc0::RegisterBlock,
    TC1: &'static avr_device::attiny84a::tc1::RegisterBlock,
    EXINT: &'static avr_device::attiny84a::exint::RegisterBlock,
    CPU: &'static avr_device::attiny84a::cpu::RegisterBlock,
}

#[inline(always)]
fn dp() -> Regs {
    use avr_device::attiny84a::{CPU, EXINT, TC0, TC1};
    // SAFETY: single core; each access below is a whole-register read or write, or a
    // read-modify-write with interrupts masked.
    unsafe { Regs { TC0: &*TC0::ptr(), TC1: &*TC1::ptr(), EXINT: &*EXINT::ptr(), CPU: &*CPU::ptr() } }
}

/// The tick: call from the Timer/Counter0 compare-A interrupt. Returns after counting time,
/// so the caller can refresh its display in the same interrupt. Inlined, so that a board's
/// `Config` given as a constant folds into the handler (a whole-millisecond tick keeps no
/// remainder) and the handler calls nothing, saving no registers for a call.
#[inline(always)]
pub fn on_tick(cfg: &Config) {
    // SAFETY: called only from the tick's interrupt handler, which runs with interrupts off:
    // the critical section is already there, nothing to save and restore.
    let cs = unsafe { interrupt::CriticalSection::new() };
    let cell = MILLIS.borrow(cs);
    let m = cell.get();
    let (count, rem) = cfg.rate.advance(m.count, m.rem);
    cell.set(Millis { count, rem });
}

fn tone_pin(channel: u8) -> u8 {
    if channel == 0 {
        1 << 6
    } else {
        1 << 5
    }
}

pub struct Chip {
    /// The speaker's Timer/Counter1 output, as the board's `Config` says, worked out once into
    /// its TCCR1A toggle bits (0 without a speaker) and its pin's mask on port A: the chip
    /// keeps that alone, so the board's `Config` can be a constant that costs no RAM, and
    /// a tone computes no shifts.
    tone_com: u8,
    tone_pin: u8,
}

impl Chip {
    /// Starts the tick and the speaker's timer, and enables interrupts.
    pub fn new(cfg: &Config) -> Self {
        let p = dp();
        // Timer/Counter0: CTC on OCR0A, one interrupt per tick.
        p.TC0.tccr0a().write(|w| unsafe { w.bits(0b10) });
        p.TC0.ocr0a().write(|w| unsafe { w.bits(cfg.tick_top) });
        p.TC0.tccr0b().write(|w| unsafe { w.bits(cfg.tick_clock) });
        let mut chip = match cfg.tone_channel {
            Some(channel) => Chip { tone_com: 0b0100_0000 >> (2 * channel), tone_pin: tone_pin(channel) },
            None => Chip { tone_com: 0, tone_pin: 0 },
        };
        chip.resume_tick();
        if let Some(channel) = cfg.tone_channel {
            let pin = tone_pin(channel);
            interrupt::free(|_| Port::A.set(pin, pin, 0));
            chip.tone(None);
        }
        unsafe { interrupt::enable() };
        chip
    }

    /// Not inlined: the app reads the count in several places, each a critical section.
    #[inline(never)]
    pub fn millis(&self) -> u16 {
        interrupt::free(|cs| MILLIS.borrow(cs).get().count)
    }

    /// Stops the tick's interrupt: before darkening a display for sleep, so that no tick
    /// lights a row again in between.
    pub fn pause_tick(&mut self) {
        dp().TC0.timsk0().write(|w| unsafe { w.bits(0) });
    }

    pub fn resume_tick(&mut self) {
        dp().TC0.timsk0().write(|w| unsafe { w.bits(0b10) });
    }

    /// Power-down until a level change on `wake`'s pin (a pin-change interrupt, whose handler
    /// the firmware installs, empty). Timers stop; the caller pauses its own work first.
    pub fn power_down(&mut self, wake: (Port, u8)) {
        let p = dp();
        let (port, mask) = wake;
        let pcie = match port {
            Port::A => {
                p.EXINT.pcmsk0().write(|w| unsafe { w.bits(mask) });
                0b0001_0000u8
            }
            Port::B => {
                p.EXINT.pcmsk1().write(|w| unsafe { w.bits(mask) });
                0b0010_0000u8
            }
        };
        p.EXINT.gimsk().write(|w| unsafe { w.bits(pcie) });
        // SM1:0 = 10 (power-down), SE set just around the sleep instruction.
        p.CPU.mcucr().modify(|r, w| unsafe { w.bits((r.bits() & !0b0011_1000) | 0b0011_0000) });
        avr_device::asm::sleep();
        p.CPU.mcucr().modify(|r, w| unsafe { w.bits(r.bits() & !0b0010_0000) });
        p.EXINT.gimsk().write(|w| unsafe { w.bits(0) });
        p.EXINT.pcmsk0().write(|w| unsafe { w.bits(0) });
        p.EXINT.pcmsk1().write(|w| unsafe { w.bits(0) });
    }
}

impl Speaker for Chip {
    /// CTC on OCR1A with the speaker's output toggling at each match. Inlined into a call of
    /// one of two halves, so that a caller's note is handed over in registers, not through
    /// memory for the reference.
    #[inline(always)]
    fn tone(&mut self, note: Option<&Note>) {
        match note {
            Some(n) => self.sound(n.top, n.clock),
            None => self.silence(),
        }
    }
}

impl Chip {
    /// Starts a note: `top` the timer's compare value, `clock` its prescaler bits.
    #[inline(never)]
    fn sound(&mut self, top: u16, clock: u8) {
        let com = self.tone_com;
        if com == 0 {
            return;
        }
        let p = dp();
        p.TC1.tccr1a().write(|w| unsafe { w.bits(0) });
        p.TC1.tcnt1().write(|w| unsafe { w.bits(0) });
        p.TC1.ocr1a().write(|w| unsafe { w.bits(top) });
        // WGM12: CTC with OCR1A as top, then the prescaler.
        p.TC1.tccr1b().write(|w| unsafe { w.bits(0b1000 | clock) });
        // COM1x0: toggle the speaker's channel.
        p.TC1.tccr1a().write(|w| unsafe { w.bits(com) });
    }

    /// Silences the speaker.
    #[inline(never)]
    fn silence(&mut self) {
        if self.tone_com == 0 {
            return;
        }
        let p = dp();
        p.TC1.tccr1a().write(|w| unsafe { w.bits(0) });
        p.TC1.tccr1b().write(|w| unsafe { w.bits(0) });
        // Leave the pin low so the piezo draws nothing; masked, as the display's interrupt
        // writes the same port.
        let pin = self.tone_pin;
        interrupt::free(|_| Port::A.write_out(pin, 0));
    }
}
