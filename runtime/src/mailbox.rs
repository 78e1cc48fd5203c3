//! Grid boards for the flanking-capture mechanic on small chips: a byte a cell inside a border
//! of one cell, so that a line running off the grid meets an empty cell and flanks nothing;
//! the directions as constant offsets; moves tried in a fixed order of the cells; and make
//! and undo in place, a move remembering how many pieces it turned each way, instead of
//! copying positions. The 64-bit boards of [`crate::grid`] are the host's choice; this one is what the
//! compiler chooses for 8-bit chips, where a 64-bit shift is a loop.
//!
//! Cell `(row + 1) * (cols + 2) + col + 1` holds the grid's cell in column `col` and row `row`:
//! 0 empty (and every border cell), or the colour of a player, 1 or 2.

/// What a cell holds.
pub const EMPTY: u8 = 0;

/// The other player's colour.
#[inline(always)]
pub const fn other(colour: u8) -> u8 {
    3 - colour
}

/// A position on `N` cells (the grid and its border): the pieces, the side to move, and
/// counts kept as moves are made and undone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mailbox<const N: usize> {
    pub cells: [u8; N],
    /// The side to move, 1 or 2.
    pub colour: u8,
    /// How many grid cells are empty.
    pub empties: u8,
    /// Each side's pieces, by colour (index 0 unused).
    pub pieces: [u8; 3],
}

/// A move made (or a pass, on cell 0), to undo: its cell and, four bits a direction, how
/// many pieces it turned each way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Made {
    at: u8,
    /// Direction `i`'s count in the low nibble of byte `i / 2` for even `i`, the high for odd:
    /// bytes and nibbles, because a variable shift of a wider word is a loop on 8-bit chips.
    runs: [u8; 4],
}

impl Made {
    /// A move on `at`, nothing turned yet.
    #[inline(always)]
    pub const fn on(at: u8) -> Made {
        Made { at, runs: [0; 4] }
    }

    /// The move's cell; 0 for a pass.
    #[inline(always)]
    pub const fn cell(&self) -> u8 {
        self.at
    }

    /// Records `n` pieces turned in direction `i`.
    #[inline(always)]
    pub fn set(&mut self, i: usize, n: u8) {
        self.runs[i / 2] |= if i & 1 == 0 { n } else { n << 4 };
    }

    /// The pieces turned in direction `i`.
    #[inline(always)]
    pub const fn get(&self, i: usize) -> u8 {
        let b = self.runs[i / 2];
        if i & 1 == 0 {
            b & 15
        } else {
            b >> 4
        }
    }
}

impl<const N: usize> Mailbox<N> {
    /// A grid of `cells` empty cells (the border excluded), `colour` to move.
    pub const fn new(cells: u8, colour: u8) -> Self {
        Mailbox { cells: [EMPTY; N], colour, empties: cells, pieces: [0; 3] }
    }

    /// Puts a piece on an empty cell without captures (a setup).
    pub fn put(&mut self, at: u8, colour: u8) {
        self.cells[at as usize] = colour;
        self.pieces[colour as usize] += 1;
        self.empties -= 1;
    }

    /// The cell `c`, which must be a cell of the grid or its border.
    #[inline(always)]
    fn at(&self, c: u8) -> u8 {
        debug_assert!((c as usize) < N);
        // SAFETY: the callers step from a grid cell one cell at a time over pieces, which lie
        // on the grid, so they stop at the latest on the border, which holds none: every cell
        // they read is in the board. Unchecked because this is the search's innermost loop.
        unsafe { *self.cells.get_unchecked(c as usize) }
    }

    /// The pieces `colour` would turn from `at` in direction `d`, if the line is closed.
    #[inline(always)]
    pub fn run(&self, at: u8, colour: u8, d: i8) -> u8 {
        let opp = other(colour);
        let mut c = at.wrapping_add(d as u8);
        let mut n = 0;
        while self.at(c) == opp {
            c = c.wrapping_add(d as u8);
            n += 1;
        }
        if self.at(c) == colour {
            n
        } else {
            0
        }
    }

    /// Whether the line from `at` in direction `d`, whose first cell holds a piece of `opp`,
    /// is closed by `own` after any further pieces of `opp`: `own` may place at `at`.
    #[inline(always)]
    pub fn closes(&self, at: u8, d: i8, opp: u8, own: u8) -> bool {
        let mut p = self.cells.as_ptr().wrapping_add(at as usize).wrapping_offset(2 * d as isize);
        // SAFETY: as in `at`: the line steps over `opp`'s pieces, on the grid, and stops at
        // the latest on the border. A pointer stepped by the constant direction, because
        // indexing from the board's start again at every step costs twice as much on AVR.
        unsafe {
            while *p == opp {
                p = p.wrapping_offset(d as isize);
            }
            *p == own
        }
    }

    /// What ends the line from `at` in direction `d`, whose first cell holds a piece of `v`,
    /// after any further pieces of `v`: the other colour, which may then place at `at`, or
    /// [`EMPTY`]. One walk serves whichever side `v` is, so that counting both sides' moves
    /// walks each line once and without branching on the side.
    #[inline(always)]
    pub fn beyond(&self, at: u8, d: i8, v: u8) -> u8 {
        let mut p = self.cells.as_ptr().wrapping_add(at as usize).wrapping_offset(2 * d as isize);
        // SAFETY: as in `closes`.
        unsafe {
            while *p == v {
                p = p.wrapping_offset(d as isize);
            }
            *p
        }
    }

    /// Turns the line from the empty cell `at` in direction `d` that the side to move closes,
    /// if it does; returns how many pieces turned. A step of [`Self::make`], for code that
    /// spells out each direction with its offset.
    #[inline(always)]
    pub fn turn(&mut self, at: u8, d: i8) -> u8 {
        let (me, opp) = (self.colour, other(self.colour));
        let start = self.cells.as_mut_ptr().wrapping_add(at as usize);
        // SAFETY: as in `closes`: the walk stays on the grid and its border.
        unsafe {
            let mut p = start.wrapping_offset(d as isize);
            let mut n = 0u8;
            while *p == opp {
                p = p.wrapping_offset(d as isize);
                n += 1;
            }
            if n == 0 || *p != me {
                return 0;
            }
            let mut q = start;
            for _ in 0..n {
                q = q.wrapping_offset(d as isize);
                *q = me;
            }
            n
        }
    }

    /// Turns back `n` pieces from `at` in direction `d`, to the side now to move: a step of
    /// [`Self::undo`].
    #[inline(always)]
    pub fn turn_back(&mut self, at: u8, d: i8, n: u8) {
        let back = self.colour;
        let mut q = self.cells.as_mut_ptr().wrapping_add(at as usize);
        // SAFETY: the cells `turn` turned, on the grid.
        unsafe {
            for _ in 0..n {
                q = q.wrapping_offset(d as isize);
                *q = back;
            }
        }
    }

    /// Ends a move on `at` that turned `turned` pieces: the piece down, the other side to move.
    #[inline(always)]
    pub fn placed(&mut self, at: u8, turned: u8) {
        let me = self.colour;
        self.cells[at as usize] = me;
        self.pieces[me as usize] += turned + 1;
        self.pieces[other(me) as usize] -= turned;
        self.empties -= 1;
        self.colour = other(me);
    }

    /// Takes back the piece of a move on `at` that turned `turned` pieces, after they were
    /// turned back: its mover to move again.
    #[inline(always)]
    pub fn unplaced(&mut self, at: u8, turned: u8) {
        let (mover, back) = (other(self.colour), self.colour);
        self.cells[at as usize] = EMPTY;
        self.pieces[mover as usize] -= turned + 1;
        self.pieces[back as usize] += turned;
        self.empties += 1;
        self.colour = mover;
    }

    /// Whether `at` is empty.
    #[inline(always)]
    pub fn is_empty(&self, at: u8) -> bool {
        self.at(at) == EMPTY
    }

    /// The `W` cells around `at`, `at` in the middle: its neighbours at constant indices,
    /// one bounds check for them all.
    #[inline(always)]
    pub fn near<const W: usize>(&self, at: u8) -> &[u8; W] {
        const { assert!(W % 2 == 1) };
        let from = (at as usize).wrapping_sub(W / 2);
        match self.cells.get(from..from.wrapping_add(W)).and_then(|s| s.try_into().ok()) {
            Some(near) => near,
            None => &[EMPTY; W],
        }
    }

    /// Whether `colour` may place on the empty cell `at`: a line of the other's pieces in some
    /// direction, closed by one of its own.
    #[inline]
    pub fn flanks(&self, at: u8, colour: u8, dirs: &[i8]) -> bool {
        dirs.iter().any(|&d| self.run(at, colour, d) != 0)
    }

    /// The side to move's legal cells, in `order` (the grid's cells in the order moves are
    /// tried); returns how many fit `out`.
    pub fn moves(&self, order: &[u8], dirs: &[i8], out: &mut [u8]) -> usize {
        let mut n = 0;
        for &at in order {
            if n == out.len() {
                break;
            }
            if self.at(at) == EMPTY && self.flanks(at, self.colour, dirs) {
                out[n] = at;
                n += 1;
            }
        }
        n
    }

    /// Whether the side to move has a legal cell.
    pub fn can_move(&self, order: &[u8], dirs: &[i8]) -> bool {
        order.iter().any(|&at| self.at(at) == EMPTY && self.flanks(at, self.colour, dirs))
    }

    /// Both sides' number of legal cells, the side to move's first, in one pass over the
    /// empty cells: each direction's first neighbour tells which side could close a line there.
    pub fn mobility(&self, order: &[u8], dirs: &[i8]) -> (u8, u8) {
        let me = self.colour;
        let (mut mine, mut theirs) = (0u8, 0u8);
        for &at in order {
            if self.at(at) != EMPTY {
                continue;
            }
            let (mut can_me, mut can_them) = (false, false);
            for &d in dirs {
                match self.at(at.wrapping_add(d as u8)) {
                    EMPTY => {}
                    v if v == me => can_them = can_them || self.run(at, other(me), d) != 0,
                    _ => can_me = can_me || self.run(at, me, d) != 0,
                }
                if can_me && can_them {
                    break;
                }
            }
            mine += can_me as u8;
            theirs += can_them as u8;
        }
        (mine, theirs)
    }

    /// The side to move places on the empty cell `at` and turns every flanked line; the other
    /// side is then to move. `None` (nothing changed) when it flanks nothing.
    pub fn make(&mut self, at: u8, dirs: &[i8]) -> Option<Made> {
        let me = self.colour;
        let mut runs = [0u8; 4];
        let mut turned = 0u8;
        for (i, &d) in dirs.iter().enumerate() {
            let n = self.run(at, me, d);
            if n == 0 {
                continue;
            }
            runs[i / 2] |= if i & 1 == 0 { n } else { n << 4 };
            turned += n;
            let mut c = at;
            for _ in 0..n {
                c = c.wrapping_add(d as u8);
                self.cells[c as usize] = me;
            }
        }
        if turned == 0 {
            return None;
        }
        self.cells[at as usize] = me;
        self.pieces[me as usize] += turned + 1;
        self.pieces[other(me) as usize] -= turned;
        self.empties -= 1;
        self.colour = other(me);
        Some(Made { at, runs })
    }

    /// The side to move passes.
    pub fn pass(&mut self) -> Made {
        self.colour = other(self.colour);
        Made::default()
    }

    /// Takes back the last move made or pass.
    pub fn undo(&mut self, m: Made, dirs: &[i8]) {
        let (mover, back) = (other(self.colour), self.colour);
        self.colour = mover;
        if m.at == 0 {
            return;
        }
        let mut turned = 0u8;
        for (i, &d) in dirs.iter().enumerate() {
            let b = m.runs[i / 2];
            let n = if i & 1 == 0 { b & 15 } else { b >> 4 };
            turned += n;
            let mut c = m.at;
            for _ in 0..n {
                c = c.wrapping_add(d as u8);
                self.cells[c as usize] = back;
            }
        }
        self.cells[m.at as usize] = EMPTY;
        self.pieces[mover as usize] -= turned + 1;
        self.pieces[back as usize] += turned;
        self.empties += 1;
    }

    /// The side to move's pieces on `cells` minus the other's; `cells` is a table the
    /// generated code put in program memory.
    pub fn diff(&self, cells: &[u8]) -> i16 {
        let mut d = 0i16;
        for c in cells {
            // SAFETY: the callers' tables are statics in program memory on AVR.
            let c = unsafe { crate::progmem::byte(c) };
            let v = self.cells[c as usize];
            if v == self.colour {
                d += 1;
            } else if v != EMPTY {
                d -= 1;
            }
        }
        d
    }

    /// The side to move's pieces minus the other's, on the whole grid.
    pub fn piece_diff(&self) -> i16 {
        self.pieces[self.colour as usize] as i16 - self.pieces[other(self.colour) as usize] as i16
    }
}

/// The offsets of `dirs` (column step, row step) on a grid `cols` wide inside its border.
pub const fn offsets<const D: usize>(dirs: [(i8, i8); D], cols: u8) -> [i8; D] {
    let mut out = [0i8; D];
    let mut i = 0;
    while i < D {
        out[i] = dirs[i].1 * (cols as i8 + 2) + dirs[i].0;
        i += 1;
    }
    out
}

/// The mailbox cell of the grid's cell `col`, `row`.
pub const fn cell(col: u8, row: u8, cols: u8) -> u8 {
    (row + 1) * (cols + 2) + col + 1
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::grid::{Grid, KING};
    use std::vec::Vec;

    const DIRS: [i8; 8] = offsets(KING, 8);
    type Board = Mailbox<100>;

    fn order() -> Vec<u8> {
        (0..8).flat_map(|r| (0..8).map(move |c| cell(c, r, 8))).collect()
    }

    fn start() -> Board {
        let mut b = Board::new(64, 1);
        b.put(cell(3, 4, 8), 1);
        b.put(cell(4, 3, 8), 1);
        b.put(cell(3, 3, 8), 2);
        b.put(cell(4, 4, 8), 2);
        b
    }

    /// Move-path count with passes as plies and finished games as leaves.
    fn perft(b: &mut Board, depth: u32, passed: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = [0u8; 64];
        let n = b.moves(&order(), &DIRS, &mut moves);
        if n == 0 {
            if passed {
                return 1;
            }
            let p = b.pass();
            let total = perft(b, depth - 1, true);
            b.undo(p, &DIRS);
            return total;
        }
        let mut total = 0;
        for &at in &moves[..n] {
            let m = b.make(at, &DIRS).unwrap();
            total += perft(b, depth - 1, false);
            b.undo(m, &DIRS);
        }
        total
    }

    #[test]
    fn perft_of_the_8x8_cross_start_matches_published_counts() {
        let mut b = start();
        for (depth, &n) in [1, 4, 12, 56, 244, 1396, 8200, 55092].iter().enumerate() {
            assert_eq!(perft(&mut b, depth as u32, false), n, "depth {depth}");
        }
        assert_eq!(b, start(), "every move undone");
    }

    /// Random games: the moves, the turned pieces, the counts and the mobility agree with the
    /// 64-bit boards at every position, and undoing every move restores the start.
    #[test]
    fn agrees_with_the_64_bit_boards_over_random_games() {
        let g = Grid { cols: 8, rows: 8 };
        let bit = |c: u8, r: u8| 1u64 << (r * 8 + c);
        let mut seed = 0x0DD_BA11u64;
        for _ in 0..50 {
            let mut b = start();
            let (mut me, mut opp) = (bit(3, 4) | bit(4, 3), bit(3, 3) | bit(4, 4));
            let mut made = Vec::new();
            loop {
                let legal = g.flank_moves(me, opp, &KING);
                let mut moves = [0u8; 64];
                let n = b.moves(&order(), &DIRS, &mut moves);
                let listed = moves[..n].iter().fold(0u64, |s, &c| s | bit(c % 10 - 1, c / 10 - 1));
                assert_eq!(listed, legal);
                let theirs = g.flank_moves(opp, me, &KING);
                assert_eq!(b.mobility(&order(), &DIRS), (legal.count_ones() as u8, theirs.count_ones() as u8));
                assert_eq!(b.empties as u32, 64 - (me | opp).count_ones());
                assert_eq!(b.piece_diff(), me.count_ones() as i16 - opp.count_ones() as i16);
                if legal == 0 {
                    if theirs == 0 {
                        break;
                    }
                    made.push(b.pass());
                    (me, opp) = (opp, me);
                    continue;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let at = moves[(seed % n as u64) as usize];
                let (c, r) = (at % 10 - 1, at / 10 - 1);
                let flips = g.flips(me, opp, bit(c, r), &KING);
                made.push(b.make(at, &DIRS).unwrap());
                (me, opp) = (opp & !flips, me | bit(c, r) | flips);
                for r in 0..8 {
                    for c in 0..8 {
                        let v = b.cells[cell(c, r, 8) as usize];
                        let want = if me & bit(c, r) != 0 {
                            b.colour
                        } else if opp & bit(c, r) != 0 {
                            other(b.colour)
                        } else {
                            EMPTY
                        };
                        assert_eq!(v, want);
                    }
                }
            }
            while let Some(m) = made.pop() {
                b.undo(m, &DIRS);
            }
            assert_eq!(b, start());
        }
    }

    #[test]
    fn a_move_that_flanks_nothing_changes_nothing() {
        let mut b = start();
        assert!(b.make(cell(0, 0, 8), &DIRS).is_none());
        assert_eq!(b, start());
    }
}
