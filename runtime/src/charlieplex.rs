//! Charlieplexed LEDs: one pin of a port is driven low as the common cathode of a row, the
//! anodes of that row's lit LEDs are driven high, and every other display pin floats.

use crate::line::Cells;
use crate::progmem;

/// Pins of one port switched together: each an output (high or low) or floating. The chip
/// glue implements it over its port registers; embedded-hal 1.0 has no tri-state pin.
pub trait TriState {
    /// Makes the pins set in `outputs` outputs, driven high where `high` is set, and floats
    /// the others.
    fn drive(&mut self, outputs: u8, high: u8);
}

/// One cell's LED: the port bit masks of its cathode and its anode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Led {
    pub cathode: u8,
    pub anode: u8,
}

/// A display on one port; all masks are bits of that port. The tables are in program memory
/// (the generated code places them there), so the display costs no RAM; the generated code
/// makes the display itself a constant, so its fields fold into the refresh.
pub struct Charlieplex {
    /// Every pin the display uses: the others on the port are left alone.
    pub pins: u8,
    /// The rows in the order they are shown, by their cathode's mask.
    pub rows: &'static [u8],
    /// Per cell from index 0, its LED.
    pub leds: &'static [Led],
}

impl Charlieplex {
    /// Direction and output bits of the display's pins to show `row` of `lit`: the cathode
    /// low, and the anodes of the row's lit LEDs high.
    #[inline(always)]
    pub fn drive(&self, row: u8, lit: Cells) -> (u8, u8) {
        let Some(cathode) = self.rows.get(row as usize) else { return (0, 0) };
        // SAFETY: the tables are live statics placed in program memory by the generated code.
        let cathode = unsafe { progmem::byte(cathode) };
        let mut anodes = 0u8;
        // The cells are shifted out one a step: a variable shift is a loop of its own on AVR.
        let mut rest = lit;
        for led in self.leds {
            if rest & 1 != 0 {
                // SAFETY: as above.
                let (c, a) = unsafe { (progmem::byte(&led.cathode), progmem::byte(&led.anode)) };
                if c == cathode {
                    anodes |= a;
                }
            }
            rest >>= 1;
        }
        (cathode | anodes, anodes)
    }

    /// Steps to the next row and shows `lit`'s LEDs of it on `pins`: call from a periodic
    /// interrupt, with `row` kept between calls.
    #[inline(always)]
    pub fn refresh(&self, pins: &mut impl TriState, row: &mut u8, lit: Cells) {
        let mut next = *row + 1;
        if next as usize >= self.rows.len() {
            next = 0;
        }
        *row = next;
        let (outputs, high) = self.drive(next, lit);
        pins.drive(outputs, high);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DISPLAY: Charlieplex = Charlieplex {
        pins: 0b111,
        rows: &[0b001, 0b010],
        leds: &[
            Led { cathode: 0b001, anode: 0b010 },
            Led { cathode: 0b001, anode: 0b100 },
            Led { cathode: 0b010, anode: 0b001 },
        ],
    };

    #[test]
    fn only_lit_anodes_of_the_row_are_driven() {
        assert_eq!(DISPLAY.drive(0, 0b010), (0b101, 0b100));
        assert_eq!(DISPLAY.drive(0, 0), (0b001, 0));
        assert_eq!(DISPLAY.drive(1, 0b111), (0b011, 0b001));
        assert_eq!(DISPLAY.drive(5, 0b111), (0, 0), "no such row: everything floats");
    }

    struct Pins(u8, u8);
    impl TriState for Pins {
        fn drive(&mut self, outputs: u8, high: u8) {
            (self.0, self.1) = (outputs, high);
        }
    }

    #[test]
    fn refreshing_steps_through_the_rows_and_wraps() {
        let (mut pins, mut row) = (Pins(0, 0), 0u8);
        DISPLAY.refresh(&mut pins, &mut row, 0b100);
        assert_eq!((row, pins.0, pins.1), (1, 0b011, 0b001));
        DISPLAY.refresh(&mut pins, &mut row, 0b100);
        assert_eq!((row, pins.0, pins.1), (0, 0b001, 0));
    }
}
