//! Where a step from a cell lands: the board's shape (a grid, possibly with cells cut away, or
//! a line, a grid of one row) and the eight compass directions, some seen from the mover.

/// A set of compass directions, a bit each: north is toward higher rows, east toward higher
/// columns (or cell numbers on a line). With `relative`, the set is seen from the mover: the
/// second player's north is the first player's south, so "forward" is one set for both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dirs {
    pub bits: u8,
    pub relative: bool,
}

impl Dirs {
    pub const N: u8 = 1;
    pub const NE: u8 = 2;
    pub const E: u8 = 4;
    pub const SE: u8 = 8;
    pub const S: u8 = 16;
    pub const SW: u8 = 32;
    pub const W: u8 = 64;
    pub const NW: u8 = 128;
    pub const ORTHOGONAL: u8 = Self::N | Self::E | Self::S | Self::W;
    pub const DIAGONAL: u8 = Self::NE | Self::SE | Self::SW | Self::NW;
    pub const ALL: u8 = 0xff;

    /// The same directions for everyone.
    pub const fn absolute(bits: u8) -> Dirs {
        Dirs { bits, relative: false }
    }

    /// Directions as the mover sees them.
    pub const fn relative(bits: u8) -> Dirs {
        Dirs { bits, relative: true }
    }

    /// The set as `mover` sees the board: flipped north to south for the second player.
    pub fn of(self, mover: u8) -> u8 {
        if !self.relative || mover == 0 {
            return self.bits;
        }
        // Reflect across the east-west axis: N<->S, NE<->SE, NW<->SW; E and W stay.
        let b = self.bits;
        let pick = |from: u8, to: u8| if b & from != 0 { to } else { 0 };
        pick(Self::N, Self::S)
            | pick(Self::S, Self::N)
            | pick(Self::NE, Self::SE)
            | pick(Self::SE, Self::NE)
            | pick(Self::NW, Self::SW)
            | pick(Self::SW, Self::NW)
            | (b & (Self::E | Self::W))
    }
}

/// Column and row change of each direction bit, in bit order.
const DELTAS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// The board: `cols` by `rows` cells, cell index `row * stride + col`, less the cells cut away.
#[derive(Debug, Clone, Copy)]
pub struct Geometry<'a> {
    pub cols: u8,
    pub rows: u8,
    pub stride: u8,
    /// Cells that are not on the board, in increasing order (a cross-shaped board's corners).
    pub cut: &'a [u8],
}

impl Geometry<'_> {
    /// Whether `cell` is a cell of the board.
    pub fn on_board(&self, cell: u8) -> bool {
        let (c, r) = (cell % self.stride, cell / self.stride);
        c < self.cols && r < self.rows && self.cut.binary_search(&cell).is_err()
    }

    /// The cell `n` steps from `cell` in direction `bit` (one bit of [`Dirs`]), if it is on
    /// the board.
    pub fn toward(&self, cell: u8, bit: u8, n: u8) -> Option<u8> {
        let (dc, dr) = DELTAS[bit.trailing_zeros() as usize];
        let col = (cell % self.stride) as i16 + dc as i16 * n as i16;
        let row = (cell / self.stride) as i16 + dr as i16 * n as i16;
        if !(0..self.cols as i16).contains(&col) || !(0..self.rows as i16).contains(&row) {
            return None;
        }
        let to = (row * self.stride as i16 + col) as u8;
        self.cut.binary_search(&to).is_err().then_some(to)
    }

    /// Whether `cell` is on the far row of `player`: the last row going forward.
    pub fn on_far_row(&self, cell: u8, player: u8) -> bool {
        let row = cell / self.stride;
        if player == 0 {
            row + 1 == self.rows
        } else {
            row == 0
        }
    }

    /// Every cell of the board, in index order.
    pub fn cells(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| r * self.stride + c)).filter(|&i| self.on_board(i))
    }
}

/// The direction bits of a set, one at a time, lowest first.
pub(super) fn each(bits: u8) -> impl Iterator<Item = u8> {
    (0..8).map(|i| 1u8 << i).filter(move |b| bits & b != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_player_s_forward_is_the_first_player_s_backward() {
        let forward = Dirs::relative(Dirs::N | Dirs::NE | Dirs::NW);
        assert_eq!(forward.of(0), Dirs::N | Dirs::NE | Dirs::NW);
        assert_eq!(forward.of(1), Dirs::S | Dirs::SE | Dirs::SW);
        assert_eq!(Dirs::relative(Dirs::E).of(1), Dirs::E);
        assert_eq!(Dirs::absolute(Dirs::N).of(1), Dirs::N);
    }

    #[test]
    fn steps_stop_at_the_edges_and_at_cut_cells() {
        // A 3 x 3 board without its centre, on a stride of 8.
        let g = Geometry { cols: 3, rows: 3, stride: 8, cut: &[9] };
        assert_eq!(g.toward(0, Dirs::E, 1), Some(1));
        assert_eq!(g.toward(0, Dirs::W, 1), None);
        assert_eq!(g.toward(0, Dirs::NE, 1), None, "the centre is cut away");
        assert_eq!(g.toward(0, Dirs::NE, 2), Some(18));
        assert_eq!(g.toward(2, Dirs::E, 1), None, "column 3 is the last");
        assert_eq!(g.cells().count(), 8);
        assert!(g.on_far_row(17, 0) && g.on_far_row(1, 1) && !g.on_far_row(1, 0));
    }
}
