//! The ATmega64's and ATmega128's serial session: USART0 as an embedded-io serial line (its
//! receive interrupt queues, sending polls) and Timer/Counter0 as the millisecond tick, named
//! as the ATmega16's glue names them, so that one session's entry point serves every AVR chip.

use super::pac;

super::super::avr::avr_serial_session!(pac::USART0, udr0, ucsr0a);

/// One board's timing and serial rate, as the compiler lowered them.
pub struct Config {
    /// USART0's baud-rate register value, and whether double speed is on.
    pub ubrr: u16,
    pub u2x: bool,
    /// Timer/Counter0's clock select and compare value for one interrupt per millisecond.
    pub tick_clock: u8,
    pub tick_top: u8,
}

impl Chip {
    /// Sets up USART0 and the tick, and enables interrupts.
    pub fn new(cfg: &'static Config) -> Self {
        // SAFETY: single core, before interrupts are enabled; whole writes, and TIMSK's
        // read-modify-write. By address: `Peripherals::steal` stores a flag at every use.
        let (u, tc0) = unsafe { (&*pac::USART0::ptr(), &*pac::TC0::ptr()) };
        u.ubrr0h().write(|w| unsafe { w.bits((cfg.ubrr >> 8) as u8) });
        u.ubrr0l().write(|w| unsafe { w.bits(cfg.ubrr as u8) });
        u.ucsr0a().write(|w| unsafe { w.bits(if cfg.u2x { 0b10 } else { 0 }) });
        // RXCIE0, RXEN0, TXEN0; the frame format stays at its reset value, 8N1.
        u.ucsr0b().write(|w| unsafe { w.bits(0b1001_1000) });
        // Timer/Counter0: CTC (WGM01), compare interrupt (OCIE0), one a millisecond.
        tc0.ocr0().write(|w| unsafe { w.bits(cfg.tick_top) });
        tc0.tccr0().write(|w| unsafe { w.bits(0b1000 | cfg.tick_clock) });
        tc0.timsk().modify(|r, w| unsafe { w.bits(r.bits() | 0b10) });
        unsafe { avr_device::interrupt::enable() };
        Chip
    }
}
