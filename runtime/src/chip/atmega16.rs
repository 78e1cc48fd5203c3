//! Chip glue for the ATmega16: ports A to D as embedded-hal input and output pins and
//! tri-state pin groups, Timer/Counter0 as the periodic tick, a tone on a Timer/Counter1
//! output, a busy-wait delay, power-down sleep woken by INT0 or INT1, and in [`serial`] the
//! USART and the tick of a serial session. It knows no game: the generated main loop composes
//! these with the runtime's drivers.

use super::avr::{avr_ports, avr_tick_and_tone};
use avr_device::atmega16 as pac;

pub mod serial;

avr_ports!(pac;
    A => PORTA(porta, ddra, pina),
    B => PORTB(portb, ddrb, pinb),
    C => PORTC(portc, ddrc, pinc),
    D => PORTD(portd, ddrd, pind),
);

// The speaker on OC1A (PD5) or OC1B (PD4).
avr_tick_and_tone!(pac; tone on PORTD(portd, ddrd), |channel| if channel == 0 { 0x20 } else { 0x10 }; clears ocr1b);

impl<const TONE_CHANNEL: u8> Chip<TONE_CHANNEL> {
    /// Power-down until `wake`'s pin reads low: INT0 (PD2) or INT1 (PD3), level-triggered. The
    /// firmware installs its handler, empty; the interrupt is masked again on waking, as a low
    /// level would otherwise keep calling it. The caller pauses its own work first.
    pub fn power_down(&mut self, wake: (Port, u8)) {
        let (port, mask) = wake;
        // GICR's INT0 and INT1 bits sit four above PD2's and PD3's; `gamec` binds only those.
        let int_mask = match port {
            Port::D => (mask & 0b1100) << 4,
            _ => 0,
        };
        // SAFETY: single core; GICR written whole (its vector-table bits stay at their reset
        // zero), MCUCR's sleep bits read-modify-written with nothing else writing it.
        let (exint, cpu) = unsafe { (&*pac::EXINT::ptr(), &*pac::CPU::ptr()) };
        // ISC00..ISC11 = 0 (low level) are MCUCR's reset value; SM2:0 = 010 (power-down) and
        // SE set just around the sleep instruction.
        exint.gicr().write(|w| unsafe { w.bits(int_mask) });
        cpu.mcucr().modify(|r, w| unsafe { w.bits((r.bits() & !0b1111_0000) | 0b0110_0000) });
        avr_device::asm::sleep();
        cpu.mcucr().modify(|r, w| unsafe { w.bits(r.bits() & !0b0100_0000) });
        exint.gicr().write(|w| unsafe { w.bits(0) });
    }
}
