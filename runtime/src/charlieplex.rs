//! Charlieplexed LEDs: one pin of a port is driven low as the common cathode of a row, the
//! anodes of that row's lit LEDs are driven high, and every other display pin floats.

use crate::line::Cells;

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
}
