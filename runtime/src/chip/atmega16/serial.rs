//! The ATmega16's serial session: the USART as an embedded-io serial line (received bytes
//! queued by its interrupt, sent by polling) and Timer/Counter1 as the millisecond tick, under
//! the names the session's entry point uses on every AVR chip.

use super::pac;

super::super::avr::avr_serial_session!(pac::USART, udr, ucsra);

/// One board's timing and serial rate, as the compiler lowered them.
pub struct Config {
    /// USART baud-rate register value, and whether double speed is on.
    pub ubrr: u16,
    pub u2x: bool,
    /// Timer/Counter1 clock select and compare value for one interrupt per millisecond.
    pub tick_clock: u8,
    pub tick_top: u16,
}

impl Chip {
    /// Sets up the USART and the tick, and enables interrupts.
    pub fn new(cfg: &'static Config) -> Self {
        // SAFETY: single core, before interrupts are enabled; every access is a whole write or
        // TIMSK's read-modify-write. By address: `Peripherals::steal` stores a flag at every use.
        let (u, tc1) = unsafe { (&*pac::USART::ptr(), &*pac::TC1::ptr()) };
        u.ubrrh().write(|w| unsafe { w.bits((cfg.ubrr >> 8) as u8) });
        u.ubrrl().write(|w| unsafe { w.bits(cfg.ubrr as u8) });
        u.ucsra().write(|w| unsafe { w.bits(if cfg.u2x { 0b10 } else { 0 }) });
        // RXCIE, RXEN, TXEN; the frame format stays at its reset value, 8N1.
        u.ucsrb().write(|w| unsafe { w.bits(0b1001_1000) });
        // Timer/Counter1: CTC on OCR1A (WGM12), one interrupt per millisecond.
        tc1.tccr1a().write(|w| unsafe { w.bits(0) });
        tc1.ocr1a().write(|w| unsafe { w.bits(cfg.tick_top) });
        tc1.tccr1b().write(|w| unsafe { w.bits(0b1000 | cfg.tick_clock) });
        tc1.timsk().modify(|r, w| unsafe { w.bits(r.bits() | 0b1_0000) });
        unsafe { avr_device::interrupt::enable() };
        Chip
    }
}
