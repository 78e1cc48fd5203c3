//! Button debouncing: a press counts once the raw input has held still for a while.

/// Milliseconds an input must hold still before its level is believed.
pub const SETTLE_MS: u8 = 20;

#[derive(Default)]
pub struct Debounce {
    stable: u8,
    last: u8,
    still_for: u8,
}

impl Debounce {
    /// Feeds one raw sample (bit set = pressed), taken once a millisecond; returns the inputs
    /// that have just become pressed.
    pub fn sample(&mut self, raw: u8) -> u8 {
        if raw != self.last {
            self.last = raw;
            self.still_for = 0;
            return 0;
        }
        if self.still_for < SETTLE_MS {
            self.still_for += 1;
            if self.still_for == SETTLE_MS {
                let pressed = raw & !self.stable;
                self.stable = raw;
                return pressed;
            }
        }
        0
    }

    /// Treats the current inputs as already seen, so a button held across a wake-up is not a press.
    pub fn assume(&mut self, raw: u8) {
        self.stable = raw;
        self.last = raw;
        self.still_for = SETTLE_MS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn bounces_shorter_than_settling_are_ignored() {
        let mut d = Debounce::default();
        for ms in 0..200 {
            let raw = if ms % 10 < 5 { 1 } else { 0 };
            assert_eq!(d.sample(raw), 0);
        }
    }
}
