//! Chip glue for the ATtiny84A: Timer/Counter0 as the display tick, Timer/Counter1 in CTC
//! toggle mode for tones, ports A and B for buttons and LEDs, power-down sleep woken by a
//! pin-change interrupt. Board specifics arrive as a [`Config`] built by generated code.

use super::TickRate;
use crate::app::Hal;
use crate::charlieplex::Charlieplex;
use crate::line::Cells;
use crate::tune::Note;
use avr_device::attiny84a::Peripherals;
use avr_device::interrupt::{self, Mutex};
use core::cell::Cell;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Port {
    A,
    B,
}

/// Which output-compare pin of Timer/Counter1 carries the speaker.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    None,
    Oc1a,
    Oc1b,
}

/// One board's wiring, as the compiler lowered it.
pub struct Config {
    pub display: Charlieplex,
    pub display_port: Port,
    /// Timer/Counter0 clock select and compare value for one display row per tick.
    pub tick_clock: u8,
    pub tick_top: u8,
    /// How far each tick advances the millisecond count, from the clock and the refresh rate.
    pub tick_millis: TickRate,
    /// Inputs in control order: port and bit mask; wired to ground with the pull-up on.
    pub inputs: &'static [(Port, u8)],
    pub wake: Option<(Port, u8)>,
    pub speaker: Speaker,
}

/// What the display interrupt shares with the main loop. In C layout, the millisecond count
/// first, so that a simulator can read it at the static's address.
#[derive(Clone, Copy)]
#[repr(C)]
struct Ticked {
    millis: u16,
    /// The part of a millisecond the ticks have counted beyond `millis`, in `tick_millis.den`ths.
    rem: u16,
    lit: Cells,
    row: u8,
}

static TICKED: Mutex<Cell<Ticked>> = Mutex::new(Cell::new(Ticked { millis: 0, rem: 0, lit: 0, row: 0 }));

fn dp() -> Peripherals {
    // Single-threaded firmware; every access below is a whole-register read or write.
    unsafe { Peripherals::steal() }
}

fn set_port(port: Port, mask: u8, ddr: u8, out: u8) {
    let p = dp();
    match port {
        Port::A => {
            p.PORTA.ddra().modify(|r, w| unsafe { w.bits((r.bits() & !mask) | ddr) });
            p.PORTA.porta().modify(|r, w| unsafe { w.bits((r.bits() & !mask) | out) });
        }
        Port::B => {
            p.PORTB.ddrb().modify(|r, w| unsafe { w.bits((r.bits() & !mask) | ddr) });
            p.PORTB.portb().modify(|r, w| unsafe { w.bits((r.bits() & !mask) | out) });
        }
    }
}

fn read_port(port: Port) -> u8 {
    let p = dp();
    match port {
        Port::A => p.PORTA.pina().read().bits(),
        Port::B => p.PORTB.pinb().read().bits(),
    }
}

/// The display tick: call from the Timer/Counter0 compare-A interrupt.
pub fn on_tick(cfg: &Config) {
    // SAFETY: called only from the tick's interrupt handler, which runs with interrupts off:
    // the critical section is already there, nothing to save and restore.
    let cs = unsafe { interrupt::CriticalSection::new() };
    let shared = TICKED.borrow(cs);
    let mut t = shared.get();
    let rate = cfg.tick_millis;
    (t.millis, t.rem) = rate.advance(t.millis, t.rem);
    t.row += 1;
    if t.row as usize >= cfg.display.rows.len() {
        t.row = 0;
    }
    shared.set(t);
    let (ddr, out) = cfg.display.drive(t.row as usize, t.lit);
    // Float everything first so no LED glimmers while the row changes.
    set_port(cfg.display_port, cfg.display.pins, 0, 0);
    set_port(cfg.display_port, cfg.display.pins, ddr, out);
}

/// A read-modify-write of port pins from the main loop, with the display interrupt (which
/// writes the same port's other pins) held off so neither undoes the other.
fn set_port_masked(port: Port, mask: u8, ddr: u8, out: u8) {
    interrupt::free(|_| set_port(port, mask, ddr, out));
}

pub struct Chip {
    cfg: &'static Config,
}

impl Chip {
    /// Sets up pins and timers and enables interrupts.
    pub fn new(cfg: &'static Config) -> Self {
        let p = dp();
        for &(port, mask) in cfg.inputs {
            set_port(port, mask, 0, mask);
        }
        // Timer/Counter0: CTC on OCR0A, one interrupt per display row.
        p.TC0.tccr0a().write(|w| unsafe { w.bits(0b10) });
        p.TC0.ocr0a().write(|w| unsafe { w.bits(cfg.tick_top) });
        p.TC0.tccr0b().write(|w| unsafe { w.bits(cfg.tick_clock) });
        p.TC0.timsk0().write(|w| unsafe { w.bits(0b10) });
        if cfg.speaker != Speaker::None {
            // Timer/Counter1: CTC with OCR1A as top; the output pin toggles while a note plays.
            p.TC1.tccr1a().write(|w| unsafe { w.bits(0) });
            let (port, mask) = match cfg.speaker {
                Speaker::Oc1a => (Port::A, 1 << 6),
                _ => (Port::A, 1 << 5),
            };
            set_port(port, mask, mask, 0);
        }
        unsafe { avr_device::interrupt::enable() };
        Chip { cfg }
    }
}

impl Hal for Chip {
    fn millis(&mut self) -> u16 {
        interrupt::free(|cs| TICKED.borrow(cs).get().millis)
    }

    fn inputs(&mut self) -> u8 {
        let mut pressed = 0;
        for (i, &(port, mask)) in self.cfg.inputs.iter().enumerate() {
            if read_port(port) & mask == 0 {
                pressed |= 1 << i;
            }
        }
        pressed
    }

    fn show(&mut self, cells: Cells) {
        interrupt::free(|cs| {
            let shared = TICKED.borrow(cs);
            shared.set(Ticked { lit: cells, ..shared.get() });
        });
    }

    fn tone(&mut self, note: Option<&Note>) {
        let p = dp();
        let toggle = match self.cfg.speaker {
            Speaker::None => return,
            Speaker::Oc1a => 0b0100_0000,
            Speaker::Oc1b => 0b0001_0000,
        };
        match note {
            Some(n) => {
                p.TC1.tccr1a().write(|w| unsafe { w.bits(0) });
                p.TC1.tcnt1().write(|w| unsafe { w.bits(0) });
                p.TC1.ocr1a().write(|w| unsafe { w.bits(n.top) });
                // WGM12: CTC with OCR1A as top, then the prescaler.
                p.TC1.tccr1b().write(|w| unsafe { w.bits(0b1000 | n.clock) });
                p.TC1.tccr1a().write(|w| unsafe { w.bits(toggle) });
            }
            None => {
                p.TC1.tccr1a().write(|w| unsafe { w.bits(0) });
                p.TC1.tccr1b().write(|w| unsafe { w.bits(0) });
                // Leave the pin low so the piezo draws nothing.
                let (port, mask) =
                    if self.cfg.speaker == Speaker::Oc1a { (Port::A, 1 << 6) } else { (Port::A, 1 << 5) };
                set_port_masked(port, mask, mask, 0);
            }
        }
    }

    fn sleep(&mut self) {
        let Some((port, mask)) = self.cfg.wake else { return };
        let p = dp();
        // Stop the tick first, then darken the display: the other way round a tick between
        // the two could light a row that would stay lit through the sleep.
        p.TC0.timsk0().write(|w| unsafe { w.bits(0) });
        set_port_masked(self.cfg.display_port, self.cfg.display.pins, 0, 0);
        let (pcie, _) = match port {
            Port::A => {
                p.EXINT.pcmsk0().write(|w| unsafe { w.bits(mask) });
                (0b0001_0000u8, ())
            }
            Port::B => {
                p.EXINT.pcmsk1().write(|w| unsafe { w.bits(mask) });
                (0b0010_0000u8, ())
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
        p.TC0.timsk0().write(|w| unsafe { w.bits(0b10) });
        // Wait for the wake button to be released, as the seed does.
        while read_port(port) & mask == 0 {}
    }
}
