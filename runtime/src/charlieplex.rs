//! Charlieplexed LEDs: one pin of a port is driven low as the common cathode of a row, the
//! anodes of that row's lit LEDs are driven high, and every other display pin floats.
//!
//! The cells to light are worked out into a frame, a byte a row of the anodes to drive, when
//! the main loop hands them over ([`Charlieplex::fill`]); the periodic interrupt only looks
//! its row up ([`Charlieplex::refresh`]), so it saves few registers and loops over nothing.

use crate::lights::Lights;
use crate::progmem;
use core::cell::Cell;

/// Pins of one port switched together: each an output (high or low) or floating. The chip
/// glue implements it over its port registers; embedded-hal 1.0 has no tri-state pin.
pub trait TriState {
    /// Makes the pins set in `outputs` outputs, driven high where `high` is set, and floats
    /// the others.
    fn drive(&mut self, outputs: u8, high: u8);

    /// Floats every pin: the display dark.
    fn float(&mut self) {
        self.drive(0, 0);
    }
}

/// One cell's LED: the row of its cathode (an index into [`Charlieplex::rows`]) and the port
/// bit mask of its anode (0 for a cell without an LED).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Led {
    pub row: u8,
    pub anode: u8,
}

/// A display on one port; all masks are bits of that port. The tables are in program memory
/// (the generated code places them there), so the display costs no RAM but its frame; the
/// generated code makes the display itself a constant, so its fields fold into the code.
pub struct Charlieplex {
    /// Every pin the display uses: the others on the port are left alone.
    pub pins: u8,
    /// The rows in the order they are shown, by their cathode's mask.
    pub rows: &'static [u8],
    /// Per cell from index 0, its LED.
    pub leds: &'static [Led],
}

impl Charlieplex {
    /// Sets `frame` to show `lit`: per row, the anodes of its lit LEDs. A row past the
    /// frame is never lit. The caller keeps the display's interrupt out meanwhile.
    pub fn fill<L: Lights>(&self, lit: L, frame: &[Cell<u8>]) {
        // By a byte's count: an iterator's count is 16 bits on AVR.
        let (mut row, mut rows) = (frame.as_ptr(), frame.len().min(u8::MAX as usize) as u8);
        while rows != 0 {
            // SAFETY: `rows` rows remain from `row`, inside the frame.
            unsafe { (*row).set(0) };
            row = row.wrapping_add(1);
            rows -= 1;
        }
        // The cells are shifted out one a step (a variable shift is a loop of its own on AVR),
        // the LEDs walked by a byte's count and a pointer, and the walk ends with the lit cells.
        let (mut rest, mut led) = (lit, self.leds.as_ptr());
        let mut left = self.leds.len().min(L::BITS as usize) as u8;
        while rest != L::NONE && left != 0 {
            if rest.first() {
                // SAFETY: `left` LEDs remain from `led`, in a table the generated code placed
                // in program memory.
                let (row, anode) = unsafe { progmem::pair(led as *const u8) };
                if let Some(f) = frame.get(row as usize) {
                    f.set(f.get() | anode);
                }
            }
            led = led.wrapping_add(1);
            rest = rest.rest();
            left -= 1;
        }
    }

    /// Direction and output bits of the display's pins to show `row` of `frame`: the cathode
    /// low, and the row's anodes high.
    #[inline(always)]
    pub fn drive(&self, row: u8, frame: &[Cell<u8>]) -> (u8, u8) {
        let (Some(cathode), Some(anodes)) = (self.rows.get(row as usize), frame.get(row as usize)) else {
            return (0, 0);
        };
        // SAFETY: the tables are live statics placed in program memory by the generated code.
        let cathode = unsafe { progmem::byte(cathode) };
        let anodes = anodes.get();
        (cathode | anodes, anodes)
    }

    /// Steps to the next row and shows it from `frame` on `pins`: call from a periodic
    /// interrupt, with `row` kept between calls.
    #[inline(always)]
    pub fn refresh(&self, pins: &mut impl TriState, row: &mut u8, frame: &[Cell<u8>]) {
        let rows = self.rows.len();
        let mut next = *row + 1;
        // The rows' count is the generated display's constant: a power of two wraps by a mask.
        if rows.is_power_of_two() {
            next &= (rows - 1) as u8;
        } else if next as usize >= rows {
            next = 0;
        }
        *row = next;
        let (outputs, high) = self.drive(next, frame);
        pins.drive(outputs, high);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DISPLAY: Charlieplex = Charlieplex {
        pins: 0b111,
        rows: &[0b001, 0b010],
        leds: &[Led { row: 0, anode: 0b010 }, Led { row: 0, anode: 0b100 }, Led { row: 1, anode: 0b001 }],
    };

    fn framed(lit: u16) -> [Cell<u8>; 2] {
        let frame = [Cell::new(0xFF), Cell::new(0xFF)];
        DISPLAY.fill(lit, &frame);
        frame
    }

    fn bytes(frame: [Cell<u8>; 2]) -> [u8; 2] {
        frame.map(Cell::into_inner)
    }

    #[test]
    fn a_frame_holds_the_lit_anodes_of_each_row() {
        assert_eq!(bytes(framed(0b010)), [0b100, 0]);
        assert_eq!(bytes(framed(0)), [0, 0]);
        assert_eq!(bytes(framed(0b111)), [0b110, 0b001]);
        let one = [Cell::new(0)];
        DISPLAY.fill(0b111u16, &one);
        assert_eq!(one[0].get(), 0b110, "rows past the frame are dropped");
    }

    #[test]
    fn only_lit_anodes_of_the_row_are_driven() {
        let frame = framed(0b010);
        assert_eq!(DISPLAY.drive(0, &frame), (0b101, 0b100));
        assert_eq!(DISPLAY.drive(1, &frame), (0b010, 0));
        let frame = framed(0b111);
        assert_eq!(DISPLAY.drive(1, &frame), (0b011, 0b001));
        assert_eq!(DISPLAY.drive(5, &frame), (0, 0), "no such row: everything floats");
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
        let frame = framed(0b100);
        DISPLAY.refresh(&mut pins, &mut row, &frame);
        assert_eq!((row, pins.0, pins.1), (1, 0b011, 0b001));
        DISPLAY.refresh(&mut pins, &mut row, &frame);
        assert_eq!((row, pins.0, pins.1), (0, 0b001, 0));
        // Three rows: no mask to wrap by.
        let three = Charlieplex { pins: 0b111, rows: &[0b001, 0b010, 0b100], leds: &[] };
        let frame = [Cell::new(0), Cell::new(0), Cell::new(0)];
        let rows: [u8; 4] = core::array::from_fn(|_| {
            three.refresh(&mut pins, &mut row, &frame);
            row
        });
        assert_eq!(rows, [1, 2, 0, 1]);
    }
}
