//! Chip glue for the ATmega16: the USART as an embedded-io serial line (received bytes
//! queued by its interrupt, sent by polling), Timer/Counter1 as a millisecond tick, and ports
//! A to D as embedded-hal pins. It knows no game: the generated firmware composes these
//! services with the runtime's drivers.

use super::avr::avr_ports;
use crate::serial::ByteQueue;
use avr_device::atmega16::Peripherals;
use avr_device::interrupt::{self, Mutex};
use core::cell::Cell;

avr_ports!(avr_device::atmega16;
    A => PORTA(porta, ddra, pina),
    B => PORTB(portb, ddrb, pinb),
    C => PORTC(portc, ddrc, pinc),
    D => PORTD(portd, ddrd, pind),
);

/// One board's timing and serial rate, as the compiler lowered them.
pub struct Config {
    /// USART baud-rate register value, and whether double speed is on.
    pub ubrr: u16,
    pub u2x: bool,
    /// Timer/Counter1 clock select and compare value for one interrupt per millisecond.
    pub tick_clock: u8,
    pub tick_top: u16,
}

static MILLIS: Mutex<Cell<u32>> = Mutex::new(Cell::new(0));

/// The receive queue, filled by the interrupt and drained by the main loop.
static RX: Mutex<ByteQueue<32>> = Mutex::new(ByteQueue::new());

fn dp() -> Peripherals {
    // Single-threaded firmware; every access below is a whole-register read or write.
    unsafe { Peripherals::steal() }
}

/// The USART's registers by their address: `Peripherals::steal` also stores its taken flag,
/// an instruction at every use, in the receive interrupt and at every byte sent.
fn usart() -> &'static avr_device::atmega16::usart::RegisterBlock {
    // SAFETY: as for `dp`; the block is the chip's, at a fixed address.
    unsafe { &*avr_device::atmega16::USART::ptr() }
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
    let byte = usart().udr().read().bits();
    RX.borrow(in_handler()).push(byte);
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
        Ok(crate::serial::read_queued(buf, || self.take()))
    }
}

/// Sends a byte once the transmit buffer is free (UDRE).
fn send(byte: u8) {
    let u = usart();
    while u.ucsra().read().bits() & 0b10_0000 == 0 {}
    u.udr().write(|w| unsafe { w.bits(byte) });
}

impl Usart {
    /// The next received byte, if one has come (never waits): what embedded-io's
    /// `read_ready` and `read` give a byte at a time, in fewer bytes of flash.
    pub fn take(&mut self) -> Option<u8> {
        interrupt::free(|cs| RX.borrow(cs).pop())
    }

    /// Sends a byte once the transmit buffer is free.
    pub fn send(&mut self, byte: u8) {
        send(byte);
    }
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

pub struct Chip;

impl Chip {
    /// Sets up the USART and the tick, and enables interrupts.
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
        unsafe { avr_device::interrupt::enable() };
        Chip
    }

    /// Milliseconds since start, wrapping.
    pub fn millis(&self) -> u32 {
        interrupt::free(|cs| MILLIS.borrow(cs).get())
    }

    /// The serial line.
    pub fn usart(&self) -> Usart {
        Usart
    }
}
