//! Chip glue for the ATmega64 and ATmega128 (one register map): port pins as embedded-hal
//! input and output pins and tri-state pin groups, Timer/Counter0 as the periodic tick, a tone
//! on a Timer/Counter1 output, a busy-wait delay, power-down sleep woken by an external
//! interrupt pin, and in [`serial`] USART0 and the tick of a serial session. It knows no
//! game: the generated main loop composes these with the runtime's drivers.

use super::avr::{avr_ports, avr_tick_and_tone};

pub mod serial;

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

// The speaker on OC1A, OC1B or OC1C: PB5, PB6, PB7.
avr_tick_and_tone!(pac; tone on PORTB(portb, ddrb), |channel| 0x20 << channel; clears ocr1b, ocr1c);

impl<const TONE_CHANNEL: u8> Chip<TONE_CHANNEL> {
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
}
