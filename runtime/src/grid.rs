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

    /// The lowest empty cell of each column that has one: where a dropped piece lands (row 1
    /// is the lowest).
    pub fn drops(&self, occupied: Bits) -> Bits {
        let first_row = (1u64 << self.cols) - 1;
        !occupied & (occupied << 8 | first_row) & self.cells()
    }

    /// Whether `bits` hold `k` cells in a row along a row or a column, or, with `diagonals`,
    /// along either diagonal too.
    // Out of line on AVR, where 64-bit arithmetic inlined at every use costs kilobytes.
    #[cfg_attr(target_arch = "avr", inline(never))]
    pub fn in_a_row(&self, bits: Bits, k: u8, diagonals: bool) -> bool {
        // A row at a time on 8-bit chips, whole 64-bit boards elsewhere.
        #[cfg(target_arch = "avr")]
        return crate::grid_rows::in_a_row(bits, self.cells(), k, diagonals);
        #[cfg(not(target_arch = "avr"))]
        self.in_a_row_u64(bits, k, diagonals)
    }

    /// [`Grid::in_a_row`] on whole 64-bit boards.
    pub fn in_a_row_u64(&self, bits: Bits, k: u8, diagonals: bool) -> bool {
        let axes: &[(i8, i8)] = if diagonals { &[(1, 0), (0, 1), (1, 1), (1, -1)] } else { &[(1, 0), (0, 1)] };
        axes.iter().any(|&axis| {
            // After i steps, a bit stands where i + 1 cells in a row end.
            let mut run = bits;
            for _ in 1..k {
                run &= self.shift(run, axis);
            }
            run != 0
        })
    }

    /// Lines of `of` cells in a row (along rows, columns and both diagonals) that hold exactly
    /// `have` of `me`'s pieces and none of `opp`'s: how many threats `me` has on the way to
    /// `of` in a row.
    // Out of line on AVR, where 64-bit arithmetic inlined at every use costs kilobytes.
    #[cfg_attr(target_arch = "avr", inline(never))]
    pub fn lines(&self, me: Bits, opp: Bits, have: u8, of: u8) -> i16 {
        let free = self.cells() & !opp;
        let mut total = 0;
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let back = (-dc, -dr);
            // Per window start: whether every cell is on the grid and free of `opp`, and a
            // bit-sliced count of `me`'s pieces in it.
            let (mut fits, mut mine, mut at) = (free, me, [0 as Bits; 4]);
            for i in 0..of {
                if i > 0 {
                    fits &= {
                        let mut f = free;
                        for _ in 0..i {
                            f = self.shift(f, back);
                        }
                        f
                    };
                    mine = self.shift(mine, back);
                }
                let mut carry = mine;
                for plane in at.iter_mut() {
                    let sum = *plane ^ carry;
                    carry &= *plane;
                    *plane = sum;
                }
            }
            let mut exact = fits;
            for (bit, plane) in at.iter().enumerate() {
                exact &= if have >> bit & 1 == 1 { *plane } else { !*plane };
            }
            total += count(exact);
        }
        total
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

/// A copy, so that code generic over how a game holds its positions can start from a `Duel`.
impl From<&Duel> for Duel {
    fn from(d: &Duel) -> Duel {
        *d
    }
}

impl Duel {
    /// The same position seen from the other side.
    pub const fn swap(self) -> Duel {
        Duel { me: self.opp, opp: self.me }
    }

    /// Who holds `cell`: 1 `me`, 2 `opp`, 0 nobody (as the session's `Placement::holder`).
    pub const fn holder(&self, cell: u8) -> u8 {
        (self.me >> cell & 1) as u8 | ((self.opp >> cell & 1) as u8) << 1
    }

    /// The pieces of `me` (`mover`), or of `opp`.
    #[inline(always)]
    pub fn count(&self, mover: bool) -> u8 {
        count(if mover { self.me } else { self.opp }) as u8
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
    fn lines_count_windows_free_of_the_opponent() {
        let g = Grid { cols: 7, rows: 6 };
        // Three in a row at the bottom left, the fourth cell of the window free.
        let me = bit(0, 0) | bit(1, 0) | bit(2, 0);
        assert_eq!(g.lines(me, 0, 3, 4), 1, "A1-D1 only");
        assert_eq!(g.lines(me, bit(3, 0), 3, 4), 0, "blocked on D1");
        // Plain reference: every window of 4 along the 4 axes.
        let mut rng = 0x1234_5678_9ABC_DEF0u64;
        for _ in 0..200 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let a = rng & g.cells();
            let me = a & rng.rotate_left(17);
            let opp = a & !me & rng.rotate_left(31);
            for have in 1..=4 {
                let mut want = 0;
                for r in 0..6i8 {
                    for c in 0..7i8 {
                        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                            let cells: [(i8, i8); 4] = core::array::from_fn(|i| (c + dc * i as i8, r + dr * i as i8));
                            if cells.iter().any(|&(c, r)| !(0..7).contains(&c) || !(0..6).contains(&r)) {
                                continue;
                            }
                            let mine = cells.iter().filter(|&&(c, r)| me & bit(c as u8, r as u8) != 0).count();
                            let theirs = cells.iter().filter(|&&(c, r)| opp & bit(c as u8, r as u8) != 0).count();
                            want += (mine == have && theirs == 0) as i16;
                        }
                    }
                }
                assert_eq!(g.lines(me, opp, have as u8, 4), want, "have {have}");
            }
        }
    }

    #[test]
    fn drops_land_on_the_lowest_empty_cell() {
        let g = Grid { cols: 7, rows: 6 };
        // Column A holds two discs, column C one; the rest are empty.
        let occupied = bit(0, 0) | bit(0, 1) | bit(2, 0);
        let d = g.drops(occupied);
        assert_eq!(d.count_ones(), 7);
        assert!(d & bit(0, 2) != 0 && d & bit(2, 1) != 0 && d & bit(1, 0) != 0);
        let full_a = (0..6).fold(0, |m, r| m | bit(0, r));
        assert_eq!(g.drops(full_a) & 0x0101_0101_0101_0101, 0, "a full column takes nothing");
    }

    #[test]
    fn lines_of_k_along_every_axis() {
        let g = Grid { cols: 7, rows: 6 };
        let row = bit(1, 2) | bit(2, 2) | bit(3, 2) | bit(4, 2);
        let diag = bit(0, 0) | bit(1, 1) | bit(2, 2) | bit(3, 3);
        let anti = bit(6, 0) | bit(5, 1) | bit(4, 2) | bit(3, 3);
        for line in [row, diag, anti] {
            assert!(g.in_a_row(line, 4, true));
            assert!(!g.in_a_row(line & !bit(2, 2) & !bit(5, 1) & !bit(4, 2) & !bit(2, 2), 4, true));
        }
        assert!(!g.in_a_row(diag, 4, false), "diagonals only count in 8 directions");
        assert!(g.in_a_row(row, 4, false));
        // No wrap from the end of one row to the start of the next.
        assert!(!g.in_a_row(bit(5, 0) | bit(6, 0) | bit(0, 1) | bit(1, 1), 4, true));
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
    fn smaller_grids_keep_to_their_cells() {
        let g = Grid { cols: 4, rows: 4 };
        assert_eq!(g.cells().count_ones(), 16);
        assert_eq!(g.shift(bit(3, 0), (1, 0)), 0, "column 4 is off a 4-wide grid");
        assert_eq!(g.shift(bit(0, 3), (0, 1)), 0);
    }
}
