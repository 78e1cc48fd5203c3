//! Buttons: their levels read from embedded-hal pins, and debouncing, so that a press
//! counts once the raw input has held still for a while.

use embedded_hal::digital::InputPin;

/// The raw levels of `pins`, bit i set where pin i reads low: switches to ground, pulled up.
/// Pins owned (`iter_mut()`) or copied out of a table (`iter().copied()`).
pub fn pressed<P: InputPin>(pins: impl IntoIterator<Item = P>) -> u8 {
    let mut raw = 0;
    for (i, mut pin) in pins.into_iter().enumerate() {
        if pin.is_low().unwrap_or(false) {
            raw |= 1 << i;
        }
    }
    raw
}

/// Bit `i` set where `pin` reads low: one input of a board's table, read on its own.
#[inline(always)]
pub fn bit<P: InputPin>(mut pin: P, i: u8) -> u8 {
    if pin.is_low().unwrap_or(false) {
        1 << i
    } else {
        0
    }
}

/// Milliseconds an input must hold still before its level is believed.
pub const SETTLE_MS: u8 = 20;

#[derive(Default)]
pub struct Debounce {
    stable: u8,
    last: u8,
    /// Samples still to hold still before the level is believed: counted down, as a test
    /// against zero is shorter code than one against a limit.
    settling: u8,
}

impl Debounce {
    /// Nothing pressed, nothing settling.
    pub const fn new() -> Self {
        Debounce { stable: 0, last: 0, settling: 0 }
    }

    /// Feeds one raw sample (bit set = pressed), taken once a millisecond; returns the inputs
    /// that have just become pressed (or that [`watch`](Self::watch) saw settle pressed).
    #[inline(never)]
    pub fn sample(&mut self, raw: u8) -> u8 {
        // Read whole and written whole: on AVR one pointer then serves every field, where
        // field-by-field updates kept copying it between two pointer registers.
        let Debounce { mut stable, last, settling } = *self;
        let (settling, pressed) = if raw != last {
            (SETTLE_MS, 0)
        } else if settling > 1 {
            (settling - 1, 0)
        } else {
            // Settled: compared with the believed level every time, so that a press `watch`
            // left unreported is reported by the next sample.
            let pressed = raw & !stable;
            stable = raw;
            (0, pressed)
        };
        *self = Debounce { stable, last: raw, settling };
        pressed
    }

    /// Feeds one raw sample while presses cannot be acted on (a tune playing): a release is
    /// believed as ever, a press that settles is left for the next [`sample`](Self::sample) to
    /// report.
    pub fn watch(&mut self, raw: u8) {
        let pressed = self.sample(raw);
        self.stable &= !pressed;
    }

    /// Treats the current inputs as already seen, so a button held across a wake-up is not a press.
    pub fn assume(&mut self, raw: u8) {
        self.stable = raw;
        self.last = raw;
        self.settling = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::convert::Infallible;
    use embedded_hal::digital::ErrorType;

    struct Level(bool);
    impl ErrorType for Level {
        type Error = Infallible;
    }
    impl InputPin for Level {
        fn is_high(&mut self) -> Result<bool, Infallible> {
            Ok(self.0)
        }
        fn is_low(&mut self) -> Result<bool, Infallible> {
            Ok(!self.0)
        }
    }

    #[test]
    fn a_pin_reading_low_is_pressed() {
        assert_eq!(pressed([Level(true), Level(false), Level(false)]), 0b110);
        assert_eq!(pressed(&mut [Level(false)]), 0b1);
        assert_eq!(pressed::<Level>([]), 0);
    }

    #[test]
    fn a_press_is_reported_once_after_settling() {
        let mut d = Debounce::default();
        let mut events = 0;
        for ms in 0..100 {
            let raw = if (10..60).contains(&ms) { 0b100 } else { 0 };
            let p = d.sample(raw);
            if p != 0 {
                assert_eq!(p, 0b100);
                assert!(ms >= 10 + SETTLE_MS as i32);
                events += 1;
            }
        }
        assert_eq!(events, 1);
    }

    #[test]
    fn a_press_watched_is_reported_by_the_next_sample() {
        let mut d = Debounce::default();
        for _ in 0..SETTLE_MS {
            d.sample(0b1);
        }
        // Let go and pressed again while watched: the release is believed, the new press kept.
        for raw in [0, 0b1] {
            for _ in 0..SETTLE_MS {
                d.watch(raw);
            }
        }
        assert_eq!(d.sample(0b1), 0b1, "reported once sampled");
        assert_eq!(d.sample(0b1), 0, "and only once");
        // A press watched from start to end, and let go while watched, is none.
        for raw in [0, 0b10, 0] {
            for _ in 0..SETTLE_MS {
                d.watch(raw);
            }
        }
        assert_eq!(d.sample(0), 0);
    }

    #[test]
    fn bounces_shorter_than_settling_are_ignored() {
        let mut d = Debounce::default();
        for ms in 0..200 {
            let raw = if ms % 10 < 5 { 1 } else { 0 };
            assert_eq!(d.sample(raw), 0);
        }
    }
}
