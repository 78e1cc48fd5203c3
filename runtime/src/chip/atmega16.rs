//! Chip glue for the ATmega16: the USART as an embedded-io serial line (received bytes
//! queued by its interrupt, sent by polling), Timer/Counter1 as a millisecond tick, and lamps
//! on port pins.
//! Board specifics arrive as a [`Config`] built by generated code.

use crate::serial::ByteQueue;
use crate::session::Io;
use avr_device::atmega16::Peripherals;
use avr_device::interrupt::{self, Mutex};
use core::cell::Cell;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Port {
    A,
    B,
    C,
    D,
}

/// A lamp: its port, bit mask, and whether it lights when the pin is low.
pub type Lamp = (Port, u8, bool);

/// One board's wiring, as the compiler lowered it.
pub struct Config {
    /// USART baud-rate register value, and whether double speed is on.
    pub ubrr: u16,
    pub u2x: bool,
    /// Timer/Counter1 clock select and compare value for one interrupt per millisecond.
    pub tick_clock: u8,
    pub tick_top: u16,
    /// In the order the game's feedback names them.
    pub lamps: &'static [Lamp],
}

static MILLIS: Mutex<Cell<u32>> = Mutex::new(Cell::new(0));

/// The receive queue, filled by the interrupt and drained by the main loop.
static RX: Mutex<ByteQueue<32>> = Mutex::new(ByteQueue::new());

fn dp() -> Peripherals {
    // Single-threaded firmware; every access below is a whole-register read or write.
    unsafe { Peripherals::steal() }
}

fn set_port(port: Port, mask: u8, high: bool) {
    let p = dp();
    macro_rules! drive {
        ($port:ident, $ddr:ident, $out:ident) => {{
            p.$port.$ddr().modify(|r, w| unsafe { w.bits(r.bits() | mask) });
            p.$port.$out().modify(|r, w| unsafe { w.bits(if high { r.bits() | mask } else { r.bits() & !mask }) });
        }};
    }
    match port {
        Port::A => drive!(PORTA, ddra, porta),
        Port::B => drive!(PORTB, ddrb, portb),
        Port::C => drive!(PORTC, ddrc, portc),
        Port::D => drive!(PORTD, ddrd, portd),
    }
}

/// The millisecond tick: call from the Timer/Counter1 compare-A interrupt.
pub fn on_tick() {
    let cs = in_handler();
    let m = MILLIS.borrow(cs);
    m.set(m.get().wrapping_add(1));
}

/// The critical section an interrupt handler is already in: interrupts stay off until it
/// returns, so there is nothing to save and restore.
fn in_handler() -> interrupt::CriticalSection<'static> {
    // SAFETY: called only from the interrupt handlers below, which run with interrupts off.
    unsafe { interrupt::CriticalSection::new() }
}

/// A received byte: call from the USART receive-complete interrupt. Only queued here; lines
/// are parsed by the main loop.
pub fn on_receive() {
    let byte = dp().USART.udr().read().bits();
    RX.borrow(in_handler()).push(byte);
}

pub struct Chip {
    cfg: &'static Config,
    usart: Usart,
}

/// The USART as an embedded-io serial line: bytes the receive interrupt queued are read
/// without waiting; writes wait for the transmit buffer.
pub struct Usart;

impl embedded_io::ErrorType for Usart {
    type Error = core::convert::Infallible;
}

impl embedded_io::ReadReady for Usart {
    fn read_ready(&mut self) -> Result<bool, Self::Error> {
        Ok(interrupt::free(|cs| !RX.borrow(cs).is_empty()))
    }
}

impl embedded_io::Read for Usart {
    /// Waits for a byte, then takes what has come, up to `buf`'s length.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Self::Error> {
        let mut n = 0;
        while n < buf.len() {
            match interrupt::free(|cs| RX.borrow(cs).pop()) {
                Some(b) => {
                    buf[n] = b;
                    n += 1;
                }
                None if n > 0 => break,
                None => {}
            }
        }
        Ok(n)
    }
}

/// Sends a byte once the transmit buffer is free (UDRE).
fn send(byte: u8) {
    let p = dp();
    while p.USART.ucsra().read().bits() & 0b10_0000 == 0 {}
    p.USART.udr().write(|w| unsafe { w.bits(byte) });
}

impl embedded_io::Write for Usart {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
        buf.iter().for_each(|&b| send(b));
        Ok(buf.len())
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

impl Chip {
    /// Sets up the USART, the tick and the lamps (all off), and enables interrupts.
    pub fn new(cfg: &'static Config) -> Self {
        let p = dp();
        p.USART.ubrrh().write(|w| unsafe { w.bits((cfg.ubrr >> 8) as u8) });
        p.USART.ubrrl().write(|w| unsafe { w.bits(cfg.ubrr as u8) });
        p.USART.ucsra().write(|w| unsafe { w.bits(if cfg.u2x { 0b10 } else { 0 }) });
        // RXCIE, RXEN, TXEN; the frame format stays at its reset value, 8N1.
        p.USART.ucsrb().write(|w| unsafe { w.bits(0b1001_1000) });
        // Timer/Counter1: CTC on OCR1A (WGM12), one interrupt per millisecond.
        p.TC1.tccr1a().write(|w| unsafe { w.bits(0) });
        p.TC1.ocr1a().write(|w| unsafe { w.bits(cfg.tick_top) });
        p.TC1.tccr1b().write(|w| unsafe { w.bits(0b1000 | cfg.tick_clock) });
        p.TC1.timsk().modify(|r, w| unsafe { w.bits(r.bits() | 0b1_0000) });
        let mut chip = Chip { cfg, usart: Usart };
        for lamp in 0..cfg.lamps.len() as u8 {
            chip.light(lamp, false);
        }
        unsafe { avr_device::interrupt::enable() };
        chip
    }
}

impl Io for Chip {
    type Serial = Usart;

    fn serial(&mut self) -> &mut Usart {
        &mut self.usart
    }

    fn millis(&mut self) -> u32 {
        interrupt::free(|cs| MILLIS.borrow(cs).get())
    }

    // The session's byte at a time, straight to the queue and the data register: the same as
    // going through `Usart`'s embedded-io methods, in fewer bytes of flash.
    fn read(&mut self) -> Option<u8> {
        interrupt::free(|cs| RX.borrow(cs).pop())
    }

    fn write(&mut self, byte: u8) {
        send(byte);
    }

    fn light(&mut self, lamp: u8, on: bool) {
        if let Some(&(port, mask, active_low)) = self.cfg.lamps.get(lamp as usize) {
            set_port(port, mask, on != active_low);
        }
    }
}
