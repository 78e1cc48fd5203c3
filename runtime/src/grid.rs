//! Grid boards of up to 8 x 8 cells as 64-bit boards, and the flanking-capture mechanic:
//! placing a piece on an empty cell that encloses a straight line of the opponent's pieces
//! between it and another of the mover's pieces, then turning every enclosed line over.
//!
//! Bit `row * 8 + col` is the cell in column `col` and row `row`, whatever the grid's size;
//! cells outside the grid are never set.

/// One bit per cell.
pub type Bits = u64;

/// A grid's shape and the directions captures run in.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    pub cols: u8,
    pub rows: u8,
}

/// The eight compass directions as (column step, row step).
pub const KING: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)];
/// The four orthogonal directions.
pub const ROOK: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

impl Grid {
    /// Every cell of the grid.
    pub const fn cells(&self) -> Bits {
        // The common case without a loop: this runs at every step of a search.
        if self.cols == 8 && self.rows == 8 {
            return !0;
        }
        let mut bits = 0u64;
        let mut r = 0;
        while r < self.rows {
            bits |= ((1u64 << self.cols) - 1) << (r * 8);
            r += 1;
        }
        bits
    }

    /// `bits` moved one step in a direction, cells leaving the grid dropped.
    ///
    /// The eight compass steps are spelt out with constant shift counts. (8-bit chips do not
    /// come here: they work a row at a time, in [`crate::grid_rows`].)
    pub fn shift(&self, bits: Bits, (dc, dr): (i8, i8)) -> Bits {
        // Drop what wrapped around a row's end (into column 0 going east, column 7 going
        // west); the grid mask drops what left a grid narrower or shorter than 8.
        const NOT_COL_0: Bits = !0x0101_0101_0101_0101;
        const NOT_COL_7: Bits = !0x8080_8080_8080_8080;
        let moved = match (dc, dr) {
            (1, 0) => (bits << 1) & NOT_COL_0,
            (-1, 0) => (bits >> 1) & NOT_COL_7,
            (0, 1) => bits << 8,
            (0, -1) => bits >> 8,
            (1, 1) => (bits << 9) & NOT_COL_0,
            (-1, -1) => (bits >> 9) & NOT_COL_7,
            (1, -1) => (bits >> 7) & NOT_COL_0,
            (-1, 1) => (bits << 7) & NOT_COL_7,
            _ => {
                let step = dr as i32 * 8 + dc as i32;
                let moved = if step >= 0 { bits << step } else { bits >> -step };
                let wrapped = match dc {
                    1 => !NOT_COL_0,
                    -1 => !NOT_COL_7,
                    _ => 0,
                };
                moved & !wrapped
            }
        };
        moved & self.cells()
    }

    /// The four corner cells.
    pub const fn corners(&self) -> Bits {
        let (c, r) = (self.cols as u32 - 1, self.rows as u32 - 1);
        1 | 1 << c | 1 << (r * 8) | 1 << (r * 8 + c)
    }

    /// Cells on the border, corners excluded.
    pub const fn edges(&self) -> Bits {
        let cells = self.cells();
        let first_row = (1u64 << self.cols) - 1;
        let last_row = first_row << ((self.rows as u32 - 1) * 8);
        let first_col = 0x0101_0101_0101_0101u64 & cells;
        let last_col = first_col << (self.cols - 1);
        (first_row | last_row | first_col | last_col) & !self.corners()
    }

    /// The cells diagonally next to a corner, which hand the corner to the opponent.
    pub const fn x_squares(&self) -> Bits {
        let (c, r) = (self.cols as u32 - 1, self.rows as u32 - 1);
        1 << 9 | 1 << (8 + c - 1) | 1 << ((r - 1) * 8 + 1) | 1 << ((r - 1) * 8 + c - 1)
    }

    /// Cells where `me` may place a piece that captures at least one of `opp`'s.
    // Out of line on AVR, where 64-bit arithmetic inlined at every use costs kilobytes.
    #[cfg_attr(target_arch = "avr", inline(never))]
    pub fn flank_moves(&self, me: Bits, opp: Bits, dirs: &[(i8, i8)]) -> Bits {
        // A row at a time on 8-bit chips, whole 64-bit boards elsewhere.
        #[cfg(target_arch = "avr")]
        return crate::grid_rows::flank_moves(me, opp, self.cells(), dirs);
        #[cfg(not(target_arch = "avr"))]
        self.flank_moves_u64(me, opp, dirs)
    }

    /// The opponent's pieces a placement on `at` (a single bit) turns over.
    pub fn flips(&self, me: Bits, opp: Bits, at: Bits, dirs: &[(i8, i8)]) -> Bits {
        self.flips_at(me, opp, at.trailing_zeros() as u8, dirs)
    }

    /// The opponent's pieces a placement on `cell` turns over.
    #[cfg_attr(target_arch = "avr", inline(never))]
    pub fn flips_at(&self, me: Bits, opp: Bits, cell: u8, dirs: &[(i8, i8)]) -> Bits {
        #[cfg(target_arch = "avr")]
        return crate::grid_rows::flips(me, opp, cell, dirs);
        #[cfg(not(target_arch = "avr"))]
        self.flips_u64(me, opp, bit(cell), dirs)
    }

    /// [`Grid::flank_moves`] on whole 64-bit boards.
    pub fn flank_moves_u64(&self, me: Bits, opp: Bits, dirs: &[(i8, i8)]) -> Bits {
        let empty = self.cells() & !(me | opp);
        let mut moves = 0;
        for &d in dirs {
            // Runs of the opponent's pieces starting next to one of mine...
            let mut run = self.shift(me, d) & opp;
            for _ in 0..6 {
                run |= self.shift(run, d) & opp;
            }
            // ...ending next to an empty cell.
            moves |= self.shift(run, d) & empty;
        }
        moves
    }

    /// [`Grid::flips`] on whole 64-bit boards.
    pub fn flips_u64(&self, me: Bits, opp: Bits, at: Bits, dirs: &[(i8, i8)]) -> Bits {
        let mut flips = 0;
        for &d in dirs {
            let mut line = 0;
            let mut cur = self.shift(at, d);
            while cur & opp != 0 {
                line |= cur;
                cur = self.shift(cur, d);
            }
            if cur & me != 0 {
                flips |= line;
            }
        }
        flips
    }
}

/// A two-player position on a grid, seen from the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Duel {
    pub me: Bits,
    pub opp: Bits,
}

impl Duel {
    /// The same position seen from the other side.
    pub const fn swap(self) -> Duel {
        Duel { me: self.opp, opp: self.me }
    }

    /// My pieces on `mask` minus the opponent's.
    // Out of line on AVR, where 64-bit arithmetic inlined at every use costs kilobytes.
    #[cfg_attr(target_arch = "avr", inline(never))]
    pub fn diff(&self, mask: Bits) -> i16 {
        count(self.me & mask) - count(self.opp & mask)
    }

    // Out of line on AVR, where 64-bit arithmetic inlined at every use costs kilobytes.
    #[cfg_attr(target_arch = "avr", inline(never))]
    pub fn empty(&self, g: &Grid) -> i16 {
        count(g.cells() & !(self.me | self.opp))
    }

    /// Places a piece on `cell` with its captures; the result is seen from the opponent's side.
    // Out of line on AVR, where 64-bit arithmetic inlined at every use costs kilobytes.
    #[cfg_attr(target_arch = "avr", inline(never))]
    pub fn place(&self, g: &Grid, dirs: &[(i8, i8)], cell: u8) -> Duel {
        let at = bit(cell);
        let flips = g.flips_at(self.me, self.opp, cell, dirs);
        Duel { me: self.opp & !flips, opp: self.me | at | flips }
    }
}

/// The set holding one cell (0..64). Built a byte at a time: a 64-bit shift by a variable count
/// is a loop on an 8-bit chip.
#[inline]
pub fn bit(cell: u8) -> Bits {
    let mut rows = [0u8; 8];
    rows[(cell / 8) as usize & 7] = 1 << (cell % 8);
    Bits::from_le_bytes(rows)
}

/// Writes the cells of a set into `out` in increasing order and returns how many fit. A byte
/// (a row) at a time, which on an 8-bit chip is far cheaper than clearing bits of a `u64`.
pub fn cells_into(bits: Bits, out: &mut [u8]) -> usize {
    let mut n = 0;
    for (row, mut b) in bits.to_le_bytes().into_iter().enumerate() {
        while b != 0 && n < out.len() {
            out[n] = row as u8 * 8 + b.trailing_zeros() as u8;
            b &= b - 1;
            n += 1;
        }
    }
    n
}

/// The cells in a set. On AVR a byte at a time, which is far smaller than `count_ones` on
/// a 64-bit value there.
#[inline]
pub fn count(bits: Bits) -> i16 {
    #[cfg(target_arch = "avr")]
    {
        let mut n = 0i16;
        for b in bits.to_le_bytes() {
            n += b.count_ones() as i16;
        }
        n
    }
    #[cfg(not(target_arch = "avr"))]
    {
        bits.count_ones() as i16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Move-path count with passes as plies and finished games as leaves.
    fn perft(g: &Grid, me: Bits, opp: Bits, depth: u32, passed: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = g.flank_moves(me, opp, &KING);
        if moves == 0 {
            return if passed { 1 } else { perft(g, opp, me, depth - 1, true) };
        }
        let mut total = 0;
        let mut rest = moves;
        while rest != 0 {
            let at = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let f = g.flips(me, opp, at, &KING);
            total += perft(g, opp & !f, me | at | f, depth - 1, false);
        }
        total
    }

    #[test]
    fn perft_of_the_8x8_cross_start_matches_published_counts() {
        let black = bit(3, 4) | bit(4, 3);
        let white = bit(3, 3) | bit(4, 4);
        let expected = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216];
        for (depth, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&G, black, white, depth as u32, false), n, "depth {depth}");
        }
    }

    const G: Grid = Grid { cols: 8, rows: 8 };

    fn bit(col: u8, row: u8) -> Bits {
        1 << (row * 8 + col)
    }

    #[test]
    fn shifts_do_not_wrap_around_rows() {
        assert_eq!(G.shift(bit(7, 0), (1, 0)), 0);
        assert_eq!(G.shift(bit(0, 1), (-1, 0)), 0);
        assert_eq!(G.shift(bit(0, 1), (-1, -1)), 0);
        assert_eq!(G.shift(bit(3, 3), (1, 1)), bit(4, 4));
        assert_eq!(G.shift(bit(3, 7), (0, 1)), 0);
    }

    #[test]
    fn the_start_position_has_four_moves() {
        // Black on D5 and E4, white on D4 and E5 (columns A-H = 0-7, rows 1-8 = 0-7).
        let black = bit(3, 4) | bit(4, 3);
        let white = bit(3, 3) | bit(4, 4);
        let m = G.flank_moves(black, white, &KING);
        assert_eq!(m.count_ones(), 4);
        assert_eq!(m, bit(3, 2) | bit(2, 3) | bit(5, 4) | bit(4, 5));
        assert_eq!(G.flips(black, white, bit(3, 2), &KING), bit(3, 3));
    }

    #[test]
    fn corners_edges_and_x_squares() {
        assert_eq!(G.corners(), bit(0, 0) | bit(7, 0) | bit(0, 7) | bit(7, 7));
        assert_eq!(G.edges().count_ones(), 24);
        assert_eq!(G.edges() & G.corners(), 0);
        assert_eq!(G.x_squares(), bit(1, 1) | bit(6, 1) | bit(1, 6) | bit(6, 6));
        let small = Grid { cols: 4, rows: 3 };
        assert_eq!(small.corners(), bit(0, 0) | bit(3, 0) | bit(0, 2) | bit(3, 2));
        assert_eq!(small.edges().count_ones(), 6);
    }

    #[test]
    fn smaller_grids_keep_to_their_cells() {
        let g = Grid { cols: 4, rows: 4 };
        assert_eq!(g.cells().count_ones(), 16);
        assert_eq!(g.shift(bit(3, 0), (1, 0)), 0, "column 4 is off a 4-wide grid");
        assert_eq!(g.shift(bit(0, 3), (0, 1)), 0);
    }
}
