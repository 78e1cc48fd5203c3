//! Rotary encoders: two pins in quadrature, decoded into detents turned one way or the other.
//! Sampled often (every millisecond), a mechanical encoder's contact bounce only ever moves the
//! decoder a step back and forth within a detent, which never completes a turn.

use embedded_hal::digital::InputPin;

/// Transitions of the two-bit Gray code per detent on common mechanical encoders.
pub const STEPS_PER_DETENT: i8 = 4;

/// The quadrature decoder: counts valid transitions and reports a detent when a whole one has
/// gone by in one direction.
#[derive(Default, Clone, Copy)]
pub struct Quadrature {
    /// The last levels of A and B, each inverted: at rest (both open, high) the decoder is all
    /// zeros, so that a static of decoders starts in `.bss` and no `.data` is copied at reset.
    last_low: u8,
    steps: i8,
}

impl Quadrature {
    /// At rest, both contacts open.
    pub const fn new() -> Self {
        Quadrature { last_low: 0, steps: 0 }
    }

    /// Feeds the current levels of pins A and B; returns +1 or -1 once per detent turned
    /// (A leading B is +1), else 0.
    pub fn update(&mut self, a: bool, b: bool) -> i8 {
        let steps = self.settle(a, b);
        if steps >= STEPS_PER_DETENT - 1 {
            1
        } else if steps <= 1 - STEPS_PER_DETENT {
            -1
        } else {
            0
        }
    }

    /// Feeds the levels; returns the steps counted when the contacts come to rest (both
    /// open), else 0.
    #[inline(always)]
    fn settle(&mut self, a: bool, b: bool) -> i8 {
        // The levels inverted, as the decoder keeps them: rest (both open) is 0.
        let low = (!a as u8) << 1 | !b as u8;
        // Gray-code order 00 -> 01 -> 11 -> 10 -> 00 is one direction; a jump of two is noise.
        // Worked out from the codes' positions in that order, not looked up: a table is 16 B
        // of RAM on AVR, and its index a bounds check. Inverting both codes adds 2 to both
        // positions, so their difference is the levels' own.
        let position = |g: u8| g ^ g >> 1;
        let d = match position(low).wrapping_sub(position(self.last_low)) & 3 {
            1 => -1,
            3 => 1,
            _ => 0,
        };
        self.last_low = low;
        let steps = self.steps.wrapping_add(d);
        // A detent rests with both contacts open (pins pulled high): count it there.
        if low != 0 {
            self.steps = steps;
            return 0;
        }
        self.steps = 0;
        steps
    }

    /// [`update`](Self::update)'s detent added to `turns`, saturating: a tick interrupt's
    /// count of the detents its main loop has yet to take. Not inlined: one copy serves every
    /// encoder.
    #[inline(never)]
    pub fn count(&mut self, a: bool, b: bool, turns: i8) -> i8 {
        // The detent's direction and the saturation tested together: a general saturating
        // addition is longer than the step of one either way.
        let steps = self.settle(a, b);
        if steps >= STEPS_PER_DETENT - 1 && turns != i8::MAX {
            turns + 1
        } else if steps <= 1 - STEPS_PER_DETENT && turns != i8::MIN {
            turns - 1
        } else {
            turns
        }
    }
}

/// An encoder on two input pins.
pub struct Encoder<A, B> {
    pub a: A,
    pub b: B,
    decoder: Quadrature,
}

impl<A: InputPin, B: InputPin> Encoder<A, B> {
    pub const fn new(a: A, b: B) -> Self {
        Encoder { a, b, decoder: Quadrature::new() }
    }

    /// Samples the pins: +1 or -1 when a detent was turned, else 0. A pin that cannot be read
    /// counts as open.
    pub fn poll(&mut self) -> i8 {
        let a = self.a.is_high().unwrap_or(true);
        let b = self.b.is_high().unwrap_or(true);
        self.decoder.update(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The levels (A, B) one detent goes through, from rest to rest: A falls first (+1).
    const FORWARD: [(bool, bool); 4] = [(false, true), (false, false), (true, false), (true, true)];

    fn turn(q: &mut Quadrature, forward: bool) -> i8 {
        let mut total = 0;
        for &(a, b) in &FORWARD {
            let (a, b) = if forward { (a, b) } else { (b, a) };
            total += q.update(a, b);
        }
        total
    }

    #[test]
    fn steps_agree_with_the_gray_code_table() {
        const DIR: [i8; 16] = [0, -1, 1, 0, 1, 0, 0, -1, -1, 0, 0, 1, 0, 1, -1, 0];
        for last in 0..4u8 {
            for now in 0..4u8 {
                // Away from rest, so that no detent is counted and `steps` is the step.
                let mut q = Quadrature { last_low: last ^ 0b11, steps: 0 };
                q.update(now & 2 != 0, now & 1 != 0);
                let want = if now == 0b11 { 0 } else { DIR[(last << 2 | now) as usize] };
                assert_eq!(q.steps, want, "{last:02b} -> {now:02b}");
            }
        }
    }

    #[test]
    fn a_detent_each_way_counts_once() {
        let mut q = Quadrature::new();
        assert_eq!(turn(&mut q, true), 1);
        assert_eq!(turn(&mut q, true), 1);
        assert_eq!(turn(&mut q, false), -1);
    }

    #[test]
    fn bounce_within_a_detent_is_not_a_turn() {
        let mut q = Quadrature::new();
        // A chatters open and closed, and the shaft goes back to rest.
        for _ in 0..10 {
            assert_eq!(q.update(false, true), 0);
            assert_eq!(q.update(true, true), 0);
        }
        // Half a detent and back.
        for &(a, b) in &[(false, true), (false, false), (false, true), (true, true)] {
            assert_eq!(q.update(a, b), 0);
        }
        assert_eq!(turn(&mut q, false), -1);
    }
}
