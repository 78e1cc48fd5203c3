//! Per-chip glue: register-level code for one chip family per module, behind its cargo
//! feature. A module knows no game: it offers services that the generated firmware composes
//! with the runtime's drivers: embedded-hal pins, a periodic tick counting milliseconds, a
//! tone ([`crate::tune::Speaker`]), and where the chip has them a serial line (embedded-io),
//! tri-state pin groups ([`crate::charlieplex::TriState`]), a delay and power-down sleep.
//! AVR chips use avr-device, and share their port code ([`avr`]).

#[cfg(any(feature = "atmega64", feature = "atmega128"))]
pub mod atmega128;
#[cfg(any(feature = "attiny84a", feature = "atmega16", feature = "atmega64", feature = "atmega128"))]
pub mod avr;
/// The ATmega64 has the ATmega128's register map: one glue serves both.
#[cfg(feature = "atmega64")]
pub use atmega128 as atmega64;
#[cfg(feature = "at32f437")]
pub mod at32f437;
#[cfg(feature = "atmega16")]
pub mod atmega16;
#[cfg(feature = "attiny84a")]
pub mod attiny84a;
#[cfg(any(feature = "stm32f405", feature = "at32f437", feature = "lm3s6965"))]
pub mod cortex_m;
#[cfg(any(feature = "stm32f405", feature = "at32f437", feature = "lm3s6965"))]
pub mod cortex_pins;
#[cfg(feature = "lm3s6965")]
pub mod lm3s6965;
#[cfg(any(feature = "stm32f405", feature = "at32f437", feature = "lm3s6965"))]
mod mmio;
#[cfg(feature = "stm32f405")]
pub mod stm32f405;
#[cfg(any(feature = "stm32f405", feature = "at32f437"))]
pub mod stm32f4_pins;
#[cfg(any(feature = "stm32f405", feature = "at32f437", feature = "lm3s6965"))]
pub mod systick_millis;

/// How far a periodic tick advances the millisecond count: `whole` milliseconds and
/// `num / den` of one more, carried in a remainder. The compiler derives it from the tick's
/// timer settings and the clock, so milliseconds stay milliseconds at any refresh rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TickRate {
    pub whole: u16,
    /// Below `den`, and `den` at most 32768 so that the remainder plus `num` fits a `u16`.
    pub num: u16,
    pub den: u16,
}

impl TickRate {
    /// The count and remainder after one more tick.
    #[inline(always)]
    pub fn advance(self, millis: u16, rem: u16) -> (u16, u16) {
        let mut millis = millis.wrapping_add(self.whole);
        let mut rem = rem;
        // Whole-millisecond ticks (a 1 kHz refresh) need no remainder at all.
        if self.num != 0 {
            rem += self.num;
            if rem >= self.den {
                rem -= self.den;
                millis = millis.wrapping_add(1);
            }
        }
        (millis, rem)
    }
}

#[cfg(test)]
mod tests {
    use super::TickRate;

    /// Milliseconds counted after `ticks` ticks at `rate`.
    fn count(rate: TickRate, ticks: u32) -> u32 {
        let (mut ms, mut rem, mut total) = (0u16, 0u16, 0u32);
        for _ in 0..ticks {
            let (next, r) = rate.advance(ms, rem);
            total += next.wrapping_sub(ms) as u32;
            (ms, rem) = (next, r);
        }
        total
    }

    #[test]
    fn ticks_count_whole_and_fractional_milliseconds() {
        // 1000 Hz, 500 Hz, 2 kHz and 300 Hz (3 1/3 ms) refreshes, each over 30 s of ticks.
        assert_eq!(count(TickRate { whole: 1, num: 0, den: 1 }, 30_000), 30_000);
        assert_eq!(count(TickRate { whole: 2, num: 0, den: 1 }, 15_000), 30_000);
        assert_eq!(count(TickRate { whole: 0, num: 1, den: 2 }, 60_000), 30_000);
        assert_eq!(count(TickRate { whole: 3, num: 1, den: 3 }, 9_000), 30_000);
        // The largest remainder a rate may carry does not overflow.
        assert_eq!(count(TickRate { whole: 0, num: 32_767, den: 32_768 }, 32_768), 32_767);
    }
}
