//! The lights a position shows, a bit each: a word as wide as the game's lights need (16 bits
//! for the line and heaps apps, whose positions are such words; 32 or 64 on the rule core),
//! chosen by the generated code so that a small game pays for no wider arithmetic.

/// A set of lights, bit i for light i.
pub trait Lights: Copy + PartialEq + core::ops::BitOr<Output = Self> {
    /// No light on.
    const NONE: Self;
    /// How many lights the word holds.
    const BITS: u32;
    /// Light `i` alone.
    fn light(i: u8) -> Self;
    /// Whether light 0 is on.
    fn first(self) -> bool;
    /// The lights from light 1 on, moved down one.
    fn rest(self) -> Self;
}

macro_rules! lights {
    ($($word:ty),*) => {$(
        impl Lights for $word {
            const NONE: Self = 0;
            const BITS: u32 = <$word>::BITS;
            #[inline(always)]
            fn light(i: u8) -> Self {
                1 << i
            }
            #[inline(always)]
            fn first(self) -> bool {
                self & 1 != 0
            }
            #[inline(always)]
            fn rest(self) -> Self {
                self >> 1
            }
        }
    )*};
}

lights!(u16, u32, u64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_light_past_sixteen_is_its_own_bit() {
        let l = <u64 as Lights>::light(40) | <u64 as Lights>::light(0);
        assert!(l.first());
        let mut rest = l.rest();
        let mut at = 1;
        while !rest.first() {
            rest = rest.rest();
            at += 1;
        }
        assert_eq!(at, 40);
        assert_eq!(rest.rest(), <u64 as Lights>::NONE);
    }
}
