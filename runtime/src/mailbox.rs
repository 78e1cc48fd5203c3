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
/// what is kept as moves are made and undone: counts, a list of the empty cells, which
/// neighbours of each cell hold a piece, and the scored regions' tallies.
#[derive(Clone, Copy, Debug)]
pub struct Mailbox<const N: usize, const R: usize> {
    pub cells: [u8; N],
    /// The side to move, 1 or 2.
    pub colour: u8,
    /// How many grid cells are empty.
    pub empties: u8,
    /// Each side's pieces, by colour (index 0 unused).
    pub pieces: [u8; 3],
    /// The empty grid cells in the order moves are tried, as a list threaded through the
    /// board: `next[0]` is the first, `next[c]` the one after `c`, 0 after the last, and
    /// `prev` the other way. A cell filled is unlinked but keeps its own links, so that
    /// undoing moves in reverse links each back where it was. Scanning the empty cells alone,
    /// rather than every cell, is most of what makes the search's passes cheap.
    next: [u8; N],
    prev: [u8; N],
    /// Per region the evaluation scores, colour 1's pieces on it minus colour 2's, kept as
    /// pieces are put, turned and taken back, so that the evaluation reads a region's count
    /// rather than walking its cells at every leaf. Which regions a cell is on is a table of
    /// bits, bit `r` for region `r`, passed to each step that changes a cell.
    tally: [i8; R],
    /// Per cell, which of its neighbours hold a piece: bit `k` for the neighbour in direction
    /// `k` of the game's directions. Kept as pieces are put and taken up (turning a piece
    /// changes none), so that a pass over the empty cells looks down only the lines that
    /// start with a piece, and skips at once a cell with none around it.
    around: [u8; N],
}

/// Positions are equal when their pieces and side to move are: the list of empty cells
/// follows from the pieces, but a filled cell's stale links depend on the way there.
impl<const N: usize, const R: usize> PartialEq for Mailbox<N, R> {
    fn eq(&self, other: &Self) -> bool {
        self.cells == other.cells && self.colour == other.colour
    }
}

impl<const N: usize, const R: usize> Eq for Mailbox<N, R> {}

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

    /// How many pieces the move turned each way, to be filled in, packed as [`Self::runs`]
    /// reads them: for code that turns the lines itself (the generated assembly of an 8-bit
    /// chip) and writes the counts where they are kept.
    #[inline(always)]
    pub fn runs_mut(&mut self) -> &mut [u8; 4] {
        &mut self.runs
    }

    /// How many pieces the move turned each way, packed: direction `i`'s count in the low
    /// nibble of byte `i / 2` for even `i`, the high for odd.
    #[inline(always)]
    pub const fn runs(&self) -> [u8; 4] {
        self.runs
    }
}

/// Which of the tallied regions each cell of a board is on: bit `r` for region `r`. A table
/// the generated code puts in program memory.
pub type Regions<const N: usize> = [u8; N];

impl<const N: usize, const R: usize> Mailbox<N, R> {
    /// An empty grid whose cells (the border excluded) are `order`, the order in which moves
    /// are tried; `colour` to move.
    pub const fn new(order: &[u8], colour: u8) -> Self {
        let (mut next, mut prev) = ([0u8; N], [0u8; N]);
        let (mut last, mut i) = (0u8, 0);
        while i < order.len() {
            let c = order[i];
            assert!(c != 0 && (c as usize) < N, "a grid cell inside the border");
            next[last as usize] = c;
            prev[c as usize] = last;
            last = c;
            i += 1;
        }
        next[last as usize] = 0;
        prev[0] = last;
        Mailbox {
            cells: [EMPTY; N],
            colour,
            empties: order.len() as u8,
            pieces: [0; 3],
            next,
            prev,
            tally: [0; R],
            around: [0; N],
        }
    }

    /// Empties the grid in place, as [`Self::new`] would build it.
    ///
    /// # Safety
    /// `order` is a table the generated code put in program memory (any memory off AVR).
    pub unsafe fn reset(&mut self, order: &[u8], colour: u8) {
        self.cells = [EMPTY; N];
        self.colour = colour;
        self.empties = order.len() as u8;
        self.pieces = [0; 3];
        self.tally = [0; R];
        self.around = [0; N];
        let mut last = 0u8;
        for c in order {
            // SAFETY: the caller's table is in program memory.
            let c = unsafe { crate::progmem::byte(c) };
            self.next[last as usize] = c;
            self.prev[c as usize] = last;
            last = c;
        }
        self.next[last as usize] = 0;
        self.prev[0] = last;
    }

    /// Puts a piece on an empty cell without captures (a setup).
    pub fn put<const D: usize>(&mut self, at: u8, colour: u8, dirs: &[i8; D], regions: &Regions<N>) {
        self.count(at, colour, 1, regions);
        self.mark_all(at, dirs, true);
        self.cells[at as usize] = colour;
        self.pieces[colour as usize] += 1;
        self.empties -= 1;
        self.unlink(at);
    }

    /// Adds `times` pieces of `colour` on the cell `at` to the tallies of the regions it is on
    /// (a negative `times` takes them off).
    #[inline(always)]
    fn count(&mut self, at: u8, colour: u8, times: i8, regions: &Regions<N>) {
        if R == 0 {
            return;
        }
        // SAFETY: the generated code's region tables are statics in program memory; `at` is a
        // cell of the board, as every caller has just read or written it.
        let bits = unsafe { crate::progmem::byte(regions.as_ptr().wrapping_add(at as usize)) };
        if bits == 0 {
            return;
        }
        let by = if colour == 1 { times } else { -times };
        let mut bits = bits;
        for t in self.tally.iter_mut() {
            if bits & 1 != 0 {
                *t += by;
            }
            bits >>= 1;
        }
    }

    /// The side to move's pieces minus the other's on tallied region `r`.
    #[inline(always)]
    pub fn region(&self, r: usize) -> i16 {
        let t = self.tally[r] as i16;
        if self.colour == 1 {
            t
        } else {
            -t
        }
    }

    /// The first empty cell in the order moves are tried; 0 when there is none.
    #[inline(always)]
    pub fn first_empty(&self) -> u8 {
        self.next[0]
    }

    /// The empty cell after the empty cell `at`; 0 after the last.
    #[inline(always)]
    pub fn next_empty(&self, at: u8) -> u8 {
        self.next[at as usize]
    }

    /// Takes the cell `at`, just filled, out of the list of empty cells.
    #[inline(always)]
    fn unlink(&mut self, at: u8) {
        let (p, n) = (self.prev[at as usize], self.next[at as usize]);
        debug_assert!((p as usize) < N && (n as usize) < N);
        // SAFETY: the list's links are cells of the board (0 its ends). Unchecked, because
        // every move made in the search unlinks.
        unsafe {
            *self.next.get_unchecked_mut(p as usize) = n;
            *self.prev.get_unchecked_mut(n as usize) = p;
        }
    }

    /// Puts the cell `at`, just emptied, back where it was in the list: its neighbours in the
    /// list are as they were when it was filled, if the moves since were undone.
    #[inline(always)]
    fn relink(&mut self, at: u8) {
        let (p, n) = (self.prev[at as usize], self.next[at as usize]);
        debug_assert!((p as usize) < N && (n as usize) < N);
        // SAFETY: as in `unlink`.
        unsafe {
            *self.next.get_unchecked_mut(p as usize) = at;
            *self.prev.get_unchecked_mut(n as usize) = at;
        }
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

    /// Turns the line from the empty cell `at` in direction `d` that the side to move closes,
    /// if it does; returns how many pieces turned. A step of [`Self::play`].
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

    /// Moves the pieces `m` turned, or turned back, to the tallies of the colour they now
    /// show: the last step of making or undoing a move. Once a move rather than once a line,
    /// and out of line, because it walks only the lines that turned.
    #[inline(never)]
    pub fn count_turned<const D: usize>(&mut self, m: Made, dirs: &[i8; D], regions: &Regions<N>) {
        if R == 0 {
            return;
        }
        // A byte of `runs` at a time, two directions in it: most bytes are zero. Plain
        // indices, because the AVR backend builds anything fancier on the stack.
        let mut i = 0;
        while i < D {
            let runs = m.runs[i / 2];
            if runs != 0 {
                self.count_run(m.at, dirs[i], runs & 15, regions);
                if i + 1 < D {
                    self.count_run(m.at, dirs[i + 1], runs >> 4, regions);
                }
            }
            i += 2;
        }
    }

    /// [`Self::count_turned`] for the `n` pieces from `at` in direction `d`.
    #[inline(always)]
    fn count_run(&mut self, at: u8, d: i8, n: u8, regions: &Regions<N>) {
        let mut c = at;
        for _ in 0..n {
            c = c.wrapping_add(d as u8);
            // A piece turned leaves the other side's tally for its new colour's.
            let v = self.at(c);
            self.count(c, v, 2, regions);
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
    /// The caller marks the piece's neighbours ([`Self::mark_all`]).
    #[inline(always)]
    pub fn placed(&mut self, at: u8, turned: u8, regions: &Regions<N>) {
        let me = self.colour;
        self.count(at, me, 1, regions);
        self.cells[at as usize] = me;
        self.pieces[me as usize] += turned + 1;
        self.pieces[other(me) as usize] -= turned;
        self.empties -= 1;
        self.colour = other(me);
        self.unlink(at);
    }

    /// Takes back the piece of a move on `at` that turned `turned` pieces, after they were
    /// turned back: its mover to move again. The caller unmarks the piece's neighbours
    /// ([`Self::mark_all`]).
    #[inline(always)]
    pub fn unplaced(&mut self, at: u8, turned: u8, regions: &Regions<N>) {
        let (mover, back) = (other(self.colour), self.colour);
        self.count(at, mover, -1, regions);
        self.cells[at as usize] = EMPTY;
        self.pieces[mover as usize] -= turned + 1;
        self.pieces[back as usize] += turned;
        self.empties += 1;
        self.colour = mover;
        self.relink(at);
    }

    /// Records in each neighbour of the grid cell `at` that `at` is now `filled` or empty.
    pub fn mark_all<const D: usize>(&mut self, at: u8, dirs: &[i8; D], filled: bool) {
        const { assert!(D <= 8, "a bit a direction") };
        // A running bit: a shift by a variable count is a loop on AVR.
        let mut bit = 1u8;
        for &d in dirs {
            self.mark(at, d, bit, filled);
            bit <<= 1;
        }
    }

    /// Records in the neighbour from which the grid cell `at` lies in direction `d` (bit
    /// `bit` of its record) that `at` is now `filled` or empty.
    #[inline(always)]
    fn mark(&mut self, at: u8, d: i8, bit: u8, filled: bool) {
        let from = at.wrapping_sub(d as u8) as usize;
        debug_assert!(from < N);
        // SAFETY: `at` is a grid cell, so its neighbours, on the grid or its border, are in
        // the board.
        let bits = unsafe { self.around.get_unchecked_mut(from) };
        if filled {
            *bits |= bit;
        } else {
            *bits &= !bit;
        }
    }

    /// The neighbours' records from `back` cells before the grid cell `at`, for code that
    /// marks them at constant offsets: the record of the cell `at - d` (whose neighbour in
    /// direction `d` is `at`) is `back - d` bytes on.
    /// With `at` a cell of the grid and `back` at most the board's row stride plus one, the
    /// pointer and every neighbour's record from it lie in the board.
    #[inline(always)]
    pub fn around_base(&mut self, at: u8, back: u8) -> *mut u8 {
        self.around.as_mut_ptr().wrapping_add(at.wrapping_sub(back) as usize)
    }

    /// Whether every cell's record of its neighbours says which of them hold a piece (bit `k`
    /// for the neighbour in direction `dirs[k]`; none for a neighbour off the board): what
    /// the pieces are put, turned and taken back by must keep. For tests.
    pub fn records_hold(&self, dirs: &[i8]) -> bool {
        (0..N).all(|c| {
            let want = dirs.iter().enumerate().fold(0u8, |bits, (k, &d)| {
                let n = c as isize + d as isize;
                let held = (0..N as isize).contains(&n) && self.cells[n as usize] != EMPTY;
                bits | (held as u8) << k
            });
            self.around[c] == want
        })
    }

    /// Which neighbours of the grid cell `at` hold a piece: bit `k` for direction `k`.
    /// Unchecked, because the pass over the empty cells asks at each.
    ///
    /// # Safety
    /// `at` must be a cell of the board.
    #[inline(always)]
    pub unsafe fn occupied_around(&self, at: u8) -> u8 {
        debug_assert!((at as usize) < N);
        // SAFETY: the caller's promise.
        unsafe { *self.around.get_unchecked(at as usize) }
    }

    /// The tables a pass over the empty cells reads, for code that reads them itself (the
    /// generated assembly of an 8-bit chip): the cells, the list of empty cells (`next`,
    /// whose entry 0 is the first) and the records of which neighbours hold a piece.
    #[inline(always)]
    pub fn tables(&self) -> (*const u8, *const u8, *const u8) {
        (self.cells.as_ptr(), self.next.as_ptr(), self.around.as_ptr())
    }

    /// Whether `at` is empty.
    #[inline(always)]
    pub fn is_empty(&self, at: u8) -> bool {
        self.at(at) == EMPTY
    }

    /// The cells around the grid cell `at`, read at constant offsets without bounds checks:
    /// the search's innermost loop.
    ///
    /// # Safety
    /// `at` must be a cell of the grid (not of its border), so that every neighbour, and every
    /// line over pieces from it, lies in the board.
    #[inline(always)]
    pub unsafe fn around(&self, at: u8) -> Near<'_> {
        debug_assert!((at as usize) < N);
        Near { at: self.cells.as_ptr().wrapping_add(at as usize), _board: core::marker::PhantomData }
    }

    /// Whether `colour` may place on the empty cell `at`: a line of the other's pieces in some
    /// direction, closed by one of its own.
    #[inline]
    pub fn flanks(&self, at: u8, colour: u8, dirs: &[i8]) -> bool {
        dirs.iter().any(|&d| self.run(at, colour, d) != 0)
    }

    /// The empty cells, in the order moves are tried.
    pub fn empty_cells(&self) -> impl Iterator<Item = u8> + '_ {
        core::iter::successors(Some(self.first_empty()), |&at| Some(self.next_empty(at))).take_while(|&at| at != 0)
    }

    /// The side to move's legal cells, in the order moves are tried; returns how many fit
    /// `out`.
    pub fn moves(&self, dirs: &[i8], out: &mut [u8]) -> usize {
        let mut n = 0;
        for at in self.empty_cells() {
            if n == out.len() {
                break;
            }
            if self.flanks(at, self.colour, dirs) {
                out[n] = at;
                n += 1;
            }
        }
        n
    }

    /// Whether the side to move has a legal cell.
    pub fn can_move(&self, dirs: &[i8]) -> bool {
        self.empty_cells().any(|at| self.flanks(at, self.colour, dirs))
    }

    /// Both sides' number of legal cells, the side to move's first, in one pass over the
    /// empty cells: each direction's first neighbour tells which side could close a line there.
    pub fn mobility(&self, dirs: &[i8]) -> (u8, u8) {
        let me = self.colour;
        let (mut mine, mut theirs) = (0u8, 0u8);
        for at in self.empty_cells() {
            let (mut can_me, mut can_them) = (false, false);
            for &d in dirs {
                match self.at(at.wrapping_add(d as u8)) {
                    EMPTY => {}
                    v if v == me => can_them = can_them || self.run(at, other(me), d) != 0,
                    _ => can_me = can_me || self.run(at, me, d) != 0,
                }
            }
            mine += can_me as u8;
            theirs += can_them as u8;
        }
        (mine, theirs)
    }

    /// The side to move places on the empty cell `at` and turns every flanked line; the other
    /// side is then to move. `None` (nothing changed) when it flanks nothing.
    pub fn make<const D: usize>(&mut self, at: u8, dirs: &[i8; D], regions: &Regions<N>) -> Option<Made> {
        if !self.is_empty(at) || !self.flanks(at, self.colour, dirs) {
            return None;
        }
        let m = self.play(at, dirs, regions);
        self.count_turned(m, dirs, regions);
        Some(m)
    }

    /// The side to move places on `at`, a legal cell, and turns every line it flanks; the
    /// caller then brings the tallies up to date ([`Self::count_turned`]), in a frame of its
    /// own.
    #[inline]
    pub fn play<const D: usize>(&mut self, at: u8, dirs: &[i8; D], regions: &Regions<N>) -> Made {
        let m = self.play_unmarked(at, dirs, regions);
        self.mark_all(at, dirs, true);
        m
    }

    /// [`Self::play`] but for the neighbours' records of the piece put down, which the caller
    /// keeps ([`Self::around_base`]: generated code marks them at constant offsets). A loop
    /// over the directions, two at a time with a byte of `runs` between them: spelt out per
    /// direction it was 700 bytes more for a few per cent of speed.
    #[inline(never)]
    pub fn play_unmarked<const D: usize>(&mut self, at: u8, dirs: &[i8; D], regions: &Regions<N>) -> Made {
        let mut m = Made::on(at);
        let mut turned = 0u8;
        // Only the lines whose first cell holds a piece: most neighbours of a move are empty,
        // and setting up a walk costs more than reading the record of them.
        // SAFETY: `at` is a legal cell, on the grid.
        let around = unsafe { self.occupied_around(at) };
        let (mut i, mut bit) = (0, 1u8);
        while i < D {
            let lo = if around & bit != 0 { self.turn(at, dirs[i]) } else { 0 };
            let hi = if i + 1 < D && around & bit << 1 != 0 { self.turn(at, dirs[i + 1]) } else { 0 };
            m.runs[i / 2] = lo | hi << 4;
            turned += lo + hi;
            bit <<= 2;
            i += 2;
        }
        self.placed(at, turned, regions);
        m
    }

    /// The side to move passes.
    pub fn pass(&mut self) -> Made {
        self.colour = other(self.colour);
        Made::default()
    }

    /// Takes back the last move made or pass.
    #[inline]
    pub fn undo<const D: usize>(&mut self, m: Made, dirs: &[i8; D], regions: &Regions<N>) {
        if m.at != 0 {
            self.mark_all(m.at, dirs, false);
        }
        self.undo_unmarked(m, dirs, regions);
    }

    /// [`Self::undo`] but for the neighbours' records of the piece taken up, which the caller
    /// keeps. Out of line: the search undoes from several places, and a loop over the
    /// directions is small.
    #[inline(never)]
    pub fn undo_unmarked<const D: usize>(&mut self, m: Made, dirs: &[i8; D], regions: &Regions<N>) {
        if m.at == 0 {
            self.colour = other(self.colour);
            return;
        }
        // A byte of `runs` at a time, two directions in it: plain steps, because this loop is
        // not unrolled at the firmware's settings.
        let (at, mut turned) = (m.at, 0u8);
        let mut i = 0;
        while i < D {
            let runs = m.runs[i / 2];
            turned += (runs & 15) + (runs >> 4);
            self.turn_back(at, dirs[i], runs & 15);
            if i + 1 < D {
                self.turn_back(at, dirs[i + 1], runs >> 4);
            }
            i += 2;
        }
        self.unplaced(at, turned, regions);
        self.count_turned(m, dirs, regions);
    }

    /// The side to move's pieces on `cells` minus the other's; `cells` is a table the
    /// generated code put in program memory.
    pub fn diff(&self, cells: &[u8]) -> i16 {
        // Counted in a byte (a region has fewer than 128 cells), with the side to move read
        // once: the evaluation walks every region at every leaf.
        let (me, mut d) = (self.colour, 0i8);
        for c in cells {
            // SAFETY: the callers' tables are statics in program memory on AVR, of the board's
            // cells.
            let c = unsafe { crate::progmem::byte(c) };
            match self.at(c) {
                EMPTY => {}
                v if v == me => d += 1,
                _ => d -= 1,
            }
        }
        d as i16
    }

    /// The side to move's pieces minus the other's, on the whole grid.
    pub fn piece_diff(&self) -> i16 {
        self.pieces[self.colour as usize] as i16 - self.pieces[other(self.colour) as usize] as i16
    }
}

/// A grid cell's surroundings on a board, from [`Mailbox::around`].
#[derive(Clone, Copy)]
pub struct Near<'a> {
    at: *const u8,
    _board: core::marker::PhantomData<&'a [u8]>,
}

impl Near<'_> {
    /// The neighbour in direction `d`.
    #[inline(always)]
    pub fn get(self, d: i8) -> u8 {
        // SAFETY: `Mailbox::around`'s caller promised a grid cell, whose neighbours lie in
        // the board.
        unsafe { *self.at.wrapping_offset(d as isize) }
    }

    /// What ends the line in direction `d` whose first cell holds `v`, after any further
    /// pieces of `v`: the other colour, which may then place here, or [`EMPTY`]. One walk
    /// serves whichever side `v` is.
    #[inline(always)]
    pub fn beyond(self, d: i8, v: u8) -> u8 {
        let mut p = self.at.wrapping_offset(2 * d as isize);
        // SAFETY: as in `get`: the line steps over pieces, on the grid, and stops at the
        // latest on the border, which holds none.
        unsafe {
            while *p == v {
                p = p.wrapping_offset(d as isize);
            }
            *p
        }
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
    type Board = Mailbox<100, 2>;

    /// The regions tallied in the tests: the corners (bit 0) and the whole outer ring (bit 1),
    /// so that a corner is on both.
    const REGIONS: Regions<100> = {
        let mut t = [0u8; 100];
        let mut i = 0;
        while i < 8 {
            t[cell(i, 0, 8) as usize] |= 2;
            t[cell(i, 7, 8) as usize] |= 2;
            t[cell(0, i, 8) as usize] |= 2;
            t[cell(7, i, 8) as usize] |= 2;
            i += 1;
        }
        t[cell(0, 0, 8) as usize] |= 1;
        t[cell(7, 0, 8) as usize] |= 1;
        t[cell(0, 7, 8) as usize] |= 1;
        t[cell(7, 7, 8) as usize] |= 1;
        t
    };

    fn order() -> Vec<u8> {
        (0..8).flat_map(|r| (0..8).map(move |c| cell(c, r, 8))).collect()
    }

    fn start() -> Board {
        let mut b = Board::new(&order(), 1);
        b.put(cell(3, 4, 8), 1, &DIRS, &REGIONS);
        b.put(cell(4, 3, 8), 1, &DIRS, &REGIONS);
        b.put(cell(3, 3, 8), 2, &DIRS, &REGIONS);
        b.put(cell(4, 4, 8), 2, &DIRS, &REGIONS);
        b
    }

    /// Move-path count with passes as plies and finished games as leaves.
    fn perft(b: &mut Board, depth: u32, passed: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = [0u8; 64];
        let n = b.moves(&DIRS, &mut moves);
        if n == 0 {
            if passed {
                return 1;
            }
            let p = b.pass();
            let total = perft(b, depth - 1, true);
            b.undo(p, &DIRS, &REGIONS);
            return total;
        }
        let mut total = 0;
        for &at in &moves[..n] {
            let m = b.make(at, &DIRS, &REGIONS).unwrap();
            total += perft(b, depth - 1, false);
            b.undo(m, &DIRS, &REGIONS);
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
                let n = b.moves(&DIRS, &mut moves);
                let listed = moves[..n].iter().fold(0u64, |s, &c| s | bit(c % 10 - 1, c / 10 - 1));
                assert_eq!(listed, legal);
                let theirs = g.flank_moves(opp, me, &KING);
                assert_eq!(b.mobility(&DIRS), (legal.count_ones() as u8, theirs.count_ones() as u8));
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
                made.push(b.make(at, &DIRS, &REGIONS).unwrap());
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
                for at in order() {
                    let around = DIRS.iter().enumerate().filter(|&(_, &d)| !b.is_empty(at.wrapping_add(d as u8)));
                    assert_eq!(
                        unsafe { b.occupied_around(at) },
                        around.fold(0, |m, (k, _)| m | 1 << k),
                        "neighbours of {at}"
                    );
                }
                for (r, bit) in [(0, 1), (1, 2)] {
                    let cells: Vec<u8> = (0..100u8).filter(|&c| REGIONS[c as usize] & bit != 0).collect();
                    assert_eq!(b.region(r), b.diff(&cells), "region {r}'s tally");
                }
            }
            while let Some(m) = made.pop() {
                b.undo(m, &DIRS, &REGIONS);
            }
            assert_eq!(b, start());
        }
    }

    #[test]
    fn a_move_that_flanks_nothing_changes_nothing() {
        let mut b = start();
        assert!(b.make(cell(0, 0, 8), &DIRS, &REGIONS).is_none());
        assert_eq!(b, start());
    }
}
