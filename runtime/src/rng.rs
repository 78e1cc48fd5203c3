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

    /// Out of line, as [`below`](Self::below) is: inlined, each caller's copy costs more than
    /// the call.
    #[inline(never)]
    pub fn next_u16(&mut self) -> u16 {
        let x = xorshift(self.0);
        self.0 = x;
        x
    }

    /// A value uniform enough in `0..n` (n > 0): the high byte of `r * n` for a random byte `r`.
    #[inline(never)]
    pub fn below(&mut self, n: u8) -> u8 {
        mul_high((self.next_u16() >> 8) as u8, n)
    }

    /// A value uniform enough in `0..n` (n > 0) for a count past a byte (a random setup's
    /// deals): the high half of `r * n` for a random 16-bit `r`.
    #[inline(never)]
    pub fn below_wide(&mut self, n: u16) -> u16 {
        ((self.next_u16() as u32 * n as u32) >> 16) as u16
    }
}

/// One step of the 16-bit xorshift (7, 9, 8).
#[inline(always)]
fn xorshift(x: u16) -> u16 {
    #[cfg(target_arch = "avr")]
    {
        // A byte at a time, twelve instructions where LLVM spends about twice as many on the
        // 16-bit shifts: x << 7 is (lo << 7, hi << 7 | lo >> 1) as (low, high) bytes, x >> 9
        // is hi >> 1 in the low byte, x << 8 is lo in the high byte.
        let mut x = x;
        // SAFETY: register arithmetic only.
        unsafe {
            core::arch::asm!(
                "mov {a}, {x:l}",
                "mov {b}, {x:h}",
                "lsr {b}",
                "ror {a}",
                "clr {b}",
                "ror {b}",
                "eor {x:l}, {b}",
                "eor {x:h}, {a}",
                "mov {a}, {x:h}",
                "lsr {a}",
                "eor {x:l}, {a}",
                "eor {x:h}, {x:l}",
                x = inout(reg_pair) x,
                a = out(reg) _,
                b = out(reg) _,
                options(pure, nomem, nostack)
            );
        }
        x
    }
    #[cfg(not(target_arch = "avr"))]
    {
        let mut x = x;
        x ^= x << 7;
        x ^= x >> 9;
        x ^= x << 8;
        x
    }
}

/// The high byte of `r * n`.
#[inline(always)]
fn mul_high(r: u8, n: u8) -> u8 {
    #[cfg(target_arch = "avr")]
    {
        // Shift and add, the product shifted right through (high, r) a bit at a time: a
        // multiplication is a library call on a chip without MUL, and LLVM's loop over `r`'s
        // bits adds 16-bit values.
        let high: u8;
        // SAFETY: register arithmetic only.
        unsafe {
            core::arch::asm!(
                "clr {high}",
                "ldi {count}, 8",
                "lsr {r}",
                "2:",
                "brcc 3f",
                "add {high}, {n}",
                "3:",
                "ror {high}",
                "ror {r}",
                "dec {count}",
                "brne 2b",
                high = out(reg) high,
                count = out(reg_upper) _,
                r = inout(reg) r => _,
                n = in(reg) n,
                options(pure, nomem, nostack)
            );
        }
        high
    }
    #[cfg(not(target_arch = "avr"))]
    {
        ((r as u16 * n as u16) >> 8) as u8
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
    fn below_wide_stays_in_range_and_covers_it() {
        let mut r = Rng::new(1);
        let mut hits = [0u32; 600];
        for _ in 0..60_000 {
            hits[r.below_wide(600) as usize] += 1;
        }
        assert!(hits.iter().all(|&h| h > 50), "{:?}", hits.iter().min());
    }

    #[test]
    fn zero_seed_does_not_stick() {
        let mut r = Rng::new(0);
        assert_ne!(r.next_u16(), 0);
        r.mix(r.0);
        assert_ne!(r.next_u16(), 0);
    }
}
