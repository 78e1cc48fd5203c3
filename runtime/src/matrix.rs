//! A bicolour LED matrix multiplexed a column at a time: the column's common pin is driven
//! active, the rows of its lit LEDs are driven, and on the next tick the next column. Red and
//! green are separate columns of the same rows (an 8 x 8 board has 8 red then 8 green); both
//! lit is yellow.

use embedded_hal::digital::OutputPin;

/// What a cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Colour {
    Off = 0,
    Red = 1,
    Green = 2,
    Yellow = 3,
}

impl Colour {
    pub fn from_bits(bits: u8) -> Colour {
        match bits & 3 {
            0 => Colour::Off,
            1 => Colour::Red,
            2 => Colour::Green,
            _ => Colour::Yellow,
        }
    }
}

/// The picture: per colour, a byte per row (bit `col`). Bytes, not a 64-bit word: on an 8-bit
/// chip a shift of a `u64` by a variable amount is a loop, and the picture is redrawn often.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    pub red: [u8; 8],
    pub green: [u8; 8],
}

impl Frame {
    pub fn set(&mut self, col: u8, row: u8, c: Colour) {
        let (r, bit) = (row as usize & 7, 1u8 << (col & 7));
        // The bit copied in from an all-ones or all-zeros byte: a cleared bit's mask `!bit`
        // would be worked out by a second loop on AVR (a rotation by a variable count). Each
        // fill is its colour bit negated: a shift, a mask and a negation, where a test of the
        // bit and a choice of two bytes is one instruction more.
        let fill = |b: u8| (b & 1).wrapping_neg();
        self.red[r] ^= (self.red[r] ^ fill(c as u8)) & bit;
        self.green[r] ^= (self.green[r] ^ fill(c as u8 >> 1)) & bit;
    }

    /// Adds colour `c` to the cells of row `row` set in `cells` (bit `col`): a row of cells at
    /// once, where [`set`](Self::set) takes a call and two shifts a cell.
    pub fn paint_row(&mut self, row: u8, cells: u8, c: Colour) {
        let r = row as usize & 7;
        if c as u8 & 1 != 0 {
            self.red[r] |= cells;
        }
        if c as u8 & 2 != 0 {
            self.green[r] |= cells;
        }
    }

    pub fn get(&self, col: u8, row: u8) -> Colour {
        let (r, c) = (row as usize & 7, col & 7);
        Colour::from_bits((self.red[r] >> c & 1) | (self.green[r] >> c & 1) << 1)
    }

    /// The rows lit in one column of one colour, bit `row`.
    pub fn column(&self, col: u8, green: bool) -> u8 {
        self.column_in(col, green, false)
    }

    /// As [`column`](Self::column), or with row r in bit 7 - r where `top_high`.
    #[inline(always)]
    pub fn column_in(&self, col: u8, green: bool, top_high: bool) -> u8 {
        let plane = if green { &self.green } else { &self.red };
        // Masks stepped a bit a row: a shift by a variable count is a loop on AVR.
        let (mask, mut row) = (1u8 << (col & 7), if top_high { 0x80u8 } else { 1u8 });
        let (mut rows, mut r) = (0u8, 0usize);
        // The row's bit ends the loop when it steps out of the byte: no end pointer is worked
        // out beside the plane's.
        loop {
            if plane[r & 7] & mask != 0 {
                rows |= row;
            }
            r += 1;
            row = if top_high { row >> 1 } else { row << 1 };
            if row == 0 {
                return rows;
            }
        }
    }
}

/// How a matrix reaches its pins. A board's generated code writes whole ports, its pin layout
/// known when it is compiled; [`Pins`] drives embedded-hal pins one at a time.
pub trait Lines {
    /// Whether [`rows`](Self::rows) takes row r in bit 7 - r, not bit r: a board whose top row
    /// is on a port's bit 7 then writes the column as it is gathered, with no bits reversed at
    /// every tick.
    const TOP_ROW_HIGH: bool = false;
    /// Drives the rows: bit `r` of `lit` (bit 7 - r if [`TOP_ROW_HIGH`](Self::TOP_ROW_HIGH))
    /// lights row r (high), the others low.
    fn rows(&mut self, lit: u8);
    /// Every column inactive.
    fn off(&mut self);
    /// Column `at` active (0..COLS red, COLS..2*COLS green); the others are already inactive.
    fn on(&mut self, at: u8);
}

/// Up to 8 rows and 8 columns a colour on output pins, given in order: `rows[r]` drives row r,
/// `red[c]` and `green[c]` column c. Rows light when driven high; columns are active when
/// driven low (they sink the row current), as `column_active_high` says otherwise.
pub struct Pins<R, C, const ROWS: usize, const COLS: usize> {
    pub rows: [R; ROWS],
    pub red: [C; COLS],
    pub green: [C; COLS],
    /// Whether a column is active when high.
    pub column_active_high: bool,
}

impl<R: OutputPin, C: OutputPin, const ROWS: usize, const COLS: usize> Pins<R, C, ROWS, COLS> {
    fn column(&mut self, at: u8, on: bool) {
        let level = on == self.column_active_high;
        let pin = if (at as usize) < COLS { &mut self.red[at as usize] } else { &mut self.green[at as usize - COLS] };
        let _ = if level { pin.set_high() } else { pin.set_low() };
    }
}

impl<R: OutputPin, C: OutputPin, const ROWS: usize, const COLS: usize> Lines for Pins<R, C, ROWS, COLS> {
    fn rows(&mut self, mut lit: u8) {
        for pin in self.rows.iter_mut() {
            let _ = if lit & 1 != 0 { pin.set_high() } else { pin.set_low() };
            lit >>= 1;
        }
    }

    fn off(&mut self) {
        for c in 0..2 * COLS as u8 {
            self.column(c, false);
        }
    }

    fn on(&mut self, at: u8) {
        self.column(at, true);
    }
}

/// A matrix of `COLS` columns a colour on its [`Lines`].
pub struct Matrix<L, const COLS: usize> {
    pub lines: L,
    /// The column shown now: 0..COLS red, COLS..2*COLS green.
    at: u8,
}

impl<L: Lines, const COLS: usize> Matrix<L, COLS> {
    pub fn new(lines: L) -> Self {
        let mut m = Matrix { lines, at: 0 };
        m.blank();
        m
    }

    /// The matrix before its pins are set up, for a static that holds it from the start (so
    /// the tick interrupt tests no `Option`); the caller sets the pins up and calls
    /// [`Matrix::blank`].
    pub const fn idle(lines: L) -> Self {
        Matrix { lines, at: 0 }
    }

    /// One multiplex step, from the display tick: the current column off, the next on with its
    /// rows. A full picture takes `2 * COLS` ticks.
    pub fn tick(&mut self, frame: &Frame) {
        self.lines.off();
        self.at = if self.at as usize + 1 == 2 * COLS { 0 } else { self.at + 1 };
        let green = self.at as usize >= COLS;
        self.lines.rows(frame.column_in(self.at % COLS as u8, green, L::TOP_ROW_HIGH));
        self.lines.on(self.at);
    }

    /// Every column off: for sleep, or before the picture changes shape.
    pub fn blank(&mut self) {
        self.lines.off();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cell::Cell;
    use core::convert::Infallible;

    /// A pin that writes its level into a shared bit.
    struct Bit<'a>(&'a Cell<u32>, u8);
    impl embedded_hal::digital::ErrorType for Bit<'_> {
        type Error = Infallible;
    }
    impl OutputPin for Bit<'_> {
        fn set_low(&mut self) -> Result<(), Infallible> {
            self.0.set(self.0.get() & !(1 << self.1));
            Ok(())
        }
        fn set_high(&mut self) -> Result<(), Infallible> {
            self.0.set(self.0.get() | 1 << self.1);
            Ok(())
        }
    }

    #[test]
    fn a_column_gathers_in_either_row_order() {
        let mut f = Frame::default();
        f.set(2, 0, Colour::Red);
        f.set(2, 6, Colour::Yellow);
        assert_eq!(f.column(2, false), 0b0100_0001);
        assert_eq!(f.column_in(2, false, true), 0b1000_0010);
        assert_eq!(f.column_in(2, true, true), 0b0000_0010);
    }

    #[test]
    fn each_tick_shows_one_column_of_one_colour() {
        // Pins: rows 0..2 at bits 0..2; red columns at 8..10, green at 16..18.
        let bus = Cell::new(0u32);
        let mut m: Matrix<_, 3> = Matrix::new(Pins {
            rows: [Bit(&bus, 0), Bit(&bus, 1), Bit(&bus, 2)],
            red: [Bit(&bus, 8), Bit(&bus, 9), Bit(&bus, 10)],
            green: [Bit(&bus, 16), Bit(&bus, 17), Bit(&bus, 18)],
            column_active_high: false,
        });
        let mut f = Frame::default();
        f.set(1, 2, Colour::Red);
        f.set(1, 0, Colour::Yellow);
        f.set(2, 1, Colour::Green);
        assert_eq!(f.get(1, 0), Colour::Yellow);
        let mut seen = [[Colour::Off; 3]; 3];
        for _ in 0..6 {
            m.tick(&f);
            let b = bus.get();
            // Exactly one column is active (low), all others high.
            let cols = (!b >> 8 & 0b111).count_ones() + (!b >> 16 & 0b111).count_ones();
            assert_eq!(cols, 1, "{b:#x}");
            for c in 0..3u8 {
                for (colour, shift) in [(Colour::Red, 8), (Colour::Green, 16)] {
                    if b >> (shift + c) & 1 == 0 {
                        for r in 0..3u8 {
                            if b >> r & 1 != 0 {
                                let cell = &mut seen[r as usize][c as usize];
                                *cell = Colour::from_bits(*cell as u8 | colour as u8);
                            }
                        }
                    }
                }
            }
        }
        for r in 0..3u8 {
            for c in 0..3u8 {
                assert_eq!(seen[r as usize][c as usize], f.get(c, r), "cell {c},{r}");
            }
        }
    }
}
