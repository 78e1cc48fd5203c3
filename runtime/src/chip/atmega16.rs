//! Chip glue for the ATmega16: the USART as an embedded-io serial line (received bytes
//! queued by its interrupt, sent by polling), Timer/Counter1 as a millisecond tick, and ports
//! A to D as embedded-hal pins. It knows no game: the generated firmware composes these
//! services with the runtime's drivers.

use super::avr::avr_ports;
use avr_device::atmega16::Peripherals;

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

fn dp() -> Peripherals {
    // Single-threaded firmware; every access below is a whole-register read or write.
    unsafe { Peripherals::steal() }
}

super::avr::avr_serial_session!(avr_device::atmega16::USART, udr, ucsra);

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
}

/// The serial session's services, under the name every AVR chip that serves one gives them.
pub mod serial {
    pub use super::{on_receive, on_tick, Chip, Config, Usart};
}
