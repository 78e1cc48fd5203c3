//! Charlieplexed LEDs: one pin of a port is driven low as the common cathode of a row, the
//! anodes of that row's lit LEDs are driven high, and every other display pin floats.

use crate::line::Cells;

/// Pins of one port switched together: each an output (high or low) or floating. The chip
/// glue implements it over its port registers; embedded-hal 1.0 has no tri-state pin.
pub trait TriState {
    /// Makes the pins set in `outputs` outputs, driven high where `high` is set, and floats
    /// the others.
    fn drive(&mut self, outputs: u8, high: u8);
}

/// The LEDs that share one cathode pin.
pub struct Row {
    /// Port bit mask of the cathode pin.
    pub cathode: u8,
    /// Per LED of the row: the cell it shows and the port bit mask of its anode.
    pub leds: &'static [(u8, u8)],
}

/// A display on one port; all masks are bits of that port.
pub struct Charlieplex {
    /// Every pin the display uses: the others on the port are left alone.
    pub pins: u8,
    pub rows: &'static [Row],
}

impl Charlieplex {
    /// Direction and output bits of the display's pins to show `row` of `lit`.
    pub fn drive(&self, row: usize, lit: Cells) -> (u8, u8) {
        // Stepping to the row rather than indexing: a row is 5 bytes, and on AVR the index
        // multiplication is a library call, whose frame the display interrupt would add to the
        // deepest stack.
        let mut rows = self.rows.iter();
        let mut skip = row;
        while skip > 0 {
            rows.next();
            skip -= 1;
        }
        let Some(r) = rows.next() else { return (0, 0) };
        let mut anodes = 0u8;
        for &(cell, anode) in r.leds {
            if lit & (1 << cell) != 0 {
                anodes |= anode;
            }
        }
        (r.cathode | anodes, anodes)
    }

    /// Steps to the next row and shows `lit`'s LEDs of it on `pins`: call from a periodic
    /// interrupt, with `row` kept between calls.
    pub fn refresh(&self, pins: &mut impl TriState, row: &mut u8, lit: Cells) {
        *row += 1;
        if *row as usize >= self.rows.len() {
            *row = 0;
        }
        let (outputs, high) = self.drive(*row as usize, lit);
        pins.drive(outputs, high);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DISPLAY: Charlieplex = Charlieplex {
        pins: 0b111,
        rows: &[Row { cathode: 0b001, leds: &[(0, 0b010), (1, 0b100)] }, Row { cathode: 0b010, leds: &[(2, 0b001)] }],
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
