//! A small pseudo-random generator: xorshift on 16 bits, seeded by when the player presses.

#[derive(Clone, Copy, Debug)]
pub struct Rng(u16);

impl Rng {
    pub const fn new(seed: u16) -> Self {
        Rng(if seed == 0 { 0xACE1 } else { seed })
    }

    /// A generator that must be [`mix`](Self::mix)ed before its first number: zero, so that
    /// a static holding it needs no initial value in flash.
    pub const fn unmixed() -> Self {
        Rng(0)
    }

    /// Stirs in entropy such as the millisecond count at a button press.
    pub fn mix(&mut self, entropy: u16) {
        self.0 ^= entropy;
        if self.0 == 0 {
            self.0 = 0xACE1;
        }
        self.next_u16();
    }

    pub fn next_u16(&mut self) -> u16 {
        let mut x = self.0;
        x ^= x << 7;
        x ^= x >> 9;
        x ^= x << 8;
        self.0 = x;
        x
    }

    /// A value uniform enough in `0..n` (n > 0).
    pub fn below(&mut self, n: u8) -> u8 {
        // The high byte of `r * n`, by shift and add: a multiplication is a library call on a
        // chip without MUL.
        let mut r = (self.next_u16() >> 8) as u8;
        let (mut product, mut add) = (0u16, n as u16);
        while r != 0 {
            if r & 1 != 0 {
                product = product.wrapping_add(add);
            }
            add <<= 1;
            r >>= 1;
        }
        (product >> 8) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::new(1);
        let mut hits = [0u32; 5];
        for _ in 0..5000 {
            hits[r.below(5) as usize] += 1;
        }
        assert!(hits.iter().all(|&h| h > 800), "{hits:?}");
    }

    #[test]
    fn zero_seed_does_not_stick() {
        let mut r = Rng::new(0);
        assert_ne!(r.next_u16(), 0);
        r.mix(r.0);
        assert_ne!(r.next_u16(), 0);
    }
}
