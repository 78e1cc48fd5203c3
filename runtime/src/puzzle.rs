//! A puzzle played with a cursor: the player chooses a start among several, moves a cursor
//! over the grid, and changes the cell under it through the game's cycle of contents; a full
//! grid is judged at once, and a solved one locks. Two states at most a cell, held as two
//! bit planes (`a` the first state, `b` the second), for grids of up to 8 x 8.
//!
//! The compiler proves each start has exactly one solution, so a grid is solved exactly when
//! it equals that solution: the firmware compares with the solution it is given rather than
//! re-reading every rule.

use crate::cursor::Cursor;
pub use crate::cursor::Input;
use crate::matrix::{Colour, Frame};

/// Cells as a byte per row, bit `col`: bytes rather than a 64-bit word, which an 8-bit chip
/// shifts by a variable amount only in a loop.
pub type Rows = [u8; 8];

/// A cell's row and its bit in that row's byte, worked out once for both planes: a shift by a
/// variable count is a loop on AVR. The row masked, so that no bounds check is left.
fn place(cell: u8) -> (usize, u8) {
    ((cell >> 3) as usize & 7, 1u8 << (cell & 7))
}

fn bit(rows: &Rows, cell: u8) -> u8 {
    let (r, b) = place(cell);
    (rows[r] & b != 0) as u8
}

/// A grid's contents: cell `row * 8 + col` in `a` for the first state, in `b` for the second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Grid {
    pub a: Rows,
    pub b: Rows,
}

impl Grid {
    /// The content code of a cell: 0 empty, 1 first state, 2 second.
    pub fn get(&self, cell: u8) -> u8 {
        let r = place(cell).0;
        // Both planes' bytes shifted down together, one loop: LLVM turns each plane's mask
        // test into a shift by a variable count, a loop of its own on AVR.
        let (mut a, mut b) = (self.a[r], self.b[r]);
        for _ in 0..cell & 7 {
            a >>= 1;
            b >>= 1;
        }
        a & 1 | (b & 1) << 1
    }

    pub fn set(&mut self, cell: u8, code: u8) {
        let (r, b) = place(cell);
        // The bit copied in from a filled byte, as `Frame::set` does: `!b` would be a second
        // loop on AVR.
        let fill = |on: bool| if on { 0xFF } else { 0 };
        self.a[r] ^= (self.a[r] ^ fill(code == 1)) & b;
        self.b[r] ^= (self.b[r] ^ fill(code == 2)) & b;
    }
}

/// One start: which cells hold the first state in the solution (the others the second), and
/// which cells are given. A given cell starts as the solution has it and never changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Start {
    pub solution_a: Rows,
    pub given: Rows,
}

impl Start {
    /// A start as a 93C46 holds it: eight bytes of the solution's first state, then eight of
    /// given cells, a byte a column (column A first), row r in bit 7 - r.
    pub fn from_columns(bytes: &[u8; 16]) -> Start {
        let mut s = Start::default();
        for (k, &b) in bytes.iter().enumerate() {
            s.put_column(k as u8, b);
        }
        s
    }

    /// Byte `k` of [`from_columns`](Self::from_columns)' sixteen added to a start, as it is
    /// read: a loader fills the puzzle's own start in place, with no buffer of the bytes and
    /// no start returned whole.
    pub fn put_column(&mut self, k: u8, byte: u8) {
        let plane = if k < 8 { &mut self.solution_a } else { &mut self.given };
        let at = 1u8 << (k & 7);
        // A mask stepped a bit at a time: a shift by a variable count is a loop on AVR.
        // It ends the loop when it steps out of the byte: no end pointer beside the plane's.
        let (mut from, mut r) = (0x80u8, 0usize);
        while from != 0 {
            if byte & from != 0 {
                plane[r & 7] |= at;
            }
            r += 1;
            from >>= 1;
        }
    }

    pub fn grid(&self) -> Grid {
        let mut g = Grid::default();
        self.givens_into(&mut g);
        g
    }

    /// [`grid`](Self::grid) written into `g` in place: a grid returned whole is a copy through
    /// the stack.
    pub fn givens_into(&self, g: &mut Grid) {
        for r in 0..8 {
            g.a[r] = self.solution_a[r] & self.given[r];
            g.b[r] = !self.solution_a[r] & self.given[r];
        }
    }

    fn is_given(&self, cell: u8) -> bool {
        bit(&self.given, cell) != 0
    }
}

/// What the game file says about playing it, as the compiler lowered it.
pub struct Config {
    pub cols: u8,
    pub rows: u8,
    /// The starts to choose among.
    pub starts: u8,
    /// The content code after each code (the `cycle` action).
    pub next: [u8; 3],
    /// The colour each content code shows.
    pub colours: [Colour; 3],
    /// The colour a given cell's cursor alternates with.
    pub given_colour: Colour,
    /// Half-periods of the cursor's blink, of the chosen start's blink, and of the victory's.
    pub cursor_ms: u16,
    pub choose_ms: u16,
    pub victory_ms: u16,
    /// What the whole grid shows during the victory.
    pub victory_colour: Colour,
}

/// What to play on the speaker, as the game's feedback names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sound {
    Start,
    Accepted,
    Denied,
    Victory,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Choosing,
    Playing,
    /// Solved, while the victory tune plays.
    Victory,
    /// Solved and locked: shown without a cursor.
    Solved,
}

pub struct Puzzle {
    pub phase: Phase,
    /// The start shown or played.
    pub chosen: u8,
    pub start: Start,
    pub grid: Grid,
    pub cursor: Cursor,
    /// A full, wrong grid has been refused; not again until a cell is cleared.
    wrong_told: bool,
}

impl Puzzle {
    pub const fn new() -> Self {
        Puzzle {
            phase: Phase::Choosing,
            chosen: 0,
            start: Start { solution_a: [0; 8], given: [0; 8] },
            grid: Grid { a: [0; 8], b: [0; 8] },
            cursor: Cursor::new(),
            wrong_told: false,
        }
    }

    /// Shows start `chosen` for choosing. `load` reads a start (from EEPROM, say) into the
    /// blank start it is given.
    pub fn choose(&mut self, chosen: u8, load: &mut impl FnMut(u8, &mut Start)) {
        self.phase = Phase::Choosing;
        self.chosen = chosen;
        self.start = Start::default();
        load(chosen, &mut self.start);
        self.start.givens_into(&mut self.grid);
        self.cursor.restart_blink();
    }

    /// Handles an input; returns the sound it calls for.
    pub fn input(&mut self, input: Input, cfg: &Config, load: &mut impl FnMut(u8, &mut Start)) -> Option<Sound> {
        match (self.phase, input) {
            (Phase::Choosing, Input::Across(by)) => {
                let n = cfg.starts.max(1);
                let next = if by > 0 {
                    if self.chosen + 1 >= n {
                        0
                    } else {
                        self.chosen + 1
                    }
                } else if self.chosen == 0 {
                    n - 1
                } else {
                    self.chosen - 1
                };
                self.choose(next, load);
                None
            }
            (Phase::Choosing, Input::Commit) => {
                self.phase = Phase::Playing;
                self.cursor.home();
                self.wrong_told = false;
                Some(Sound::Start)
            }
            (Phase::Choosing, _) => None,
            (_, Input::Restart) => {
                self.choose(self.chosen, load);
                None
            }
            (Phase::Playing, Input::Commit) => Some(self.act(cfg)),
            (Phase::Playing, moved) => {
                self.cursor.moved(moved, cfg.cols, cfg.rows);
                None
            }
            // Locked: the solution stays as it is.
            (Phase::Victory | Phase::Solved, _) => None,
        }
    }

    fn act(&mut self, cfg: &Config) -> Sound {
        let cell = self.cursor.cell();
        if self.start.is_given(cell) {
            return Sound::Denied;
        }
        let code = cfg.next_of(self.grid.get(cell));
        self.grid.set(cell, code);
        self.cursor.restart_blink();
        if code == 0 {
            self.wrong_told = false;
        }
        let row = cfg.row_mask();
        let rows = 0..cfg.rows as usize;
        if rows.clone().any(|r| (self.grid.a[r] | self.grid.b[r]) & row != row) {
            return Sound::Accepted;
        }
        if rows.into_iter().all(|r| self.grid.a[r] == self.start.solution_a[r] & row) {
            self.phase = Phase::Victory;
            return Sound::Victory;
        }
        if self.wrong_told {
            return Sound::Accepted;
        }
        self.wrong_told = true;
        Sound::Denied
    }

    /// The victory tune has ended: lock the solution on show.
    pub fn tune_ended(&mut self) {
        if self.phase == Phase::Victory {
            self.phase = Phase::Solved;
        }
    }

    /// A millisecond has passed. The blink's half-period is the phase's: every change of
    /// phase restarts the blink. Inlined, so that the halves fold where the config is a
    /// constant: a field chosen by the phase is otherwise a read at a chosen address, which
    /// keeps the whole config in RAM on AVR.
    #[inline(always)]
    pub fn tick(&mut self, cfg: &Config) {
        let half = match self.phase {
            Phase::Choosing => cfg.choose_ms,
            Phase::Playing => cfg.cursor_ms,
            Phase::Victory => cfg.victory_ms,
            Phase::Solved => 0,
        };
        self.cursor.tick_in(half);
    }

    /// The picture to show now.
    pub fn frame(&self, cfg: &Config) -> Frame {
        let mut f = Frame::default();
        self.draw(cfg, &mut f);
        f
    }

    /// [`frame`](Self::frame) drawn onto `f`, which is blank: a frame returned whole is a copy
    /// through the stack. A row of cells at a time, from the grid's bit planes.
    pub fn draw(&self, cfg: &Config, f: &mut Frame) {
        let mask = cfg.row_mask();
        match self.phase {
            Phase::Choosing if self.cursor.second_half() => return,
            Phase::Victory => {
                if !self.cursor.second_half() {
                    for row in 0..cfg.rows {
                        f.paint_row(row, mask, cfg.victory_colour);
                    }
                }
                return;
            }
            _ => {}
        }
        for row in 0..cfg.rows {
            let (a, b) = (self.grid.a[row as usize & 7], self.grid.b[row as usize & 7]);
            f.paint_row(row, !(a | b) & mask, cfg.colours[0]);
            f.paint_row(row, a, cfg.colours[1]);
            f.paint_row(row, b, cfg.colours[2]);
        }
        if self.phase == Phase::Playing && self.cursor.second_half() {
            let cell = self.cursor.cell();
            let alt = if self.start.is_given(cell) {
                cfg.given_colour
            } else {
                cfg.colour_of(cfg.next_of(self.grid.get(cell)))
            };
            f.set(self.cursor.col, self.cursor.row, alt);
        }
    }
}

impl Default for Puzzle {
    fn default() -> Self {
        Self::new()
    }
}

impl Config {
    /// The content code after code `c` (0..=2). The three entries packed two bits each and
    /// one shifted out, never an entry read at a variable index: LLVM merges reads by index,
    /// even one per arm, into a read at a chosen address, which keeps the whole config in RAM
    /// on AVR, where the packed constant folds.
    #[inline(always)]
    pub fn next_of(&self, c: u8) -> u8 {
        pick2(self.next, c)
    }

    /// The colour code `c` (0..=2) shows, picked as [`next_of`](Self::next_of) picks.
    #[inline(always)]
    pub fn colour_of(&self, c: u8) -> Colour {
        let [c0, c1, c2] = self.colours;
        Colour::from_bits(pick2([c0 as u8, c1 as u8, c2 as u8], c))
    }

    /// A row's cells as a mask.
    pub fn row_mask(&self) -> u8 {
        (((1u16) << self.cols) - 1) as u8
    }
}

/// Entry `c` (0..=2; 2 for more) of three two-bit values. Inlined, so that the values fold
/// where they are constants rather than passed by address.
#[inline(always)]
fn pick2(v: [u8; 3], c: u8) -> u8 {
    let packed = (v[0] & 3) | (v[1] & 3) << 2 | (v[2] & 3) << 4;
    let shifted = if c == 0 {
        packed
    } else if c == 1 {
        packed >> 2
    } else {
        packed >> 4
    };
    shifted & 3
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::vec::Vec;

    /// A 2 x 2 puzzle whose solution is red, green / green, red with the top left given.
    const CFG: Config = Config {
        cols: 2,
        rows: 2,
        starts: 3,
        next: [1, 2, 0],
        colours: [Colour::Off, Colour::Red, Colour::Green],
        given_colour: Colour::Yellow,
        cursor_ms: 100,
        choose_ms: 500,
        victory_ms: 200,
        victory_colour: Colour::Green,
    };

    fn load(i: u8, s: &mut Start) {
        // Start 1 is the one played; the others differ so that choosing shows.
        *s = Start {
            solution_a: [0b01, 0b10, 0, 0, 0, 0, 0, 0],
            given: [if i == 1 { 1 } else { 0 }, 0, 0, 0, 0, 0, 0, 0],
        }
    }

    fn playing() -> Puzzle {
        let mut p = Puzzle::new();
        p.choose(0, &mut load);
        assert_eq!(p.input(Input::Across(1), &CFG, &mut load), None);
        assert_eq!(p.input(Input::Commit, &CFG, &mut load), Some(Sound::Start));
        p
    }

    #[test]
    fn a_start_reads_from_column_bytes_row_one_in_the_top_bit() {
        let mut bytes = [0u8; 16];
        bytes[0] = 0x80; // A1 red
        bytes[2] = 0x01; // C8 red
        bytes[8] = 0x81; // A1 and A8 given
        let s = Start::from_columns(&bytes);
        assert_eq!(s.solution_a, [1, 0, 0, 0, 0, 0, 0, 0b100]);
        assert_eq!(s.given, [1, 0, 0, 0, 0, 0, 0, 1]);
        let g = s.grid();
        assert_eq!((g.get(0), g.get(7 * 8)), (1, 2), "A1 given red, A8 given green");
    }

    #[test]
    fn choosing_wraps_both_ways_and_starts_at_the_top_left() {
        let mut p = Puzzle::new();
        p.choose(0, &mut load);
        p.input(Input::Across(-1), &CFG, &mut load);
        assert_eq!(p.chosen, 2);
        p.input(Input::Across(1), &CFG, &mut load);
        assert_eq!(p.chosen, 0);
        assert_eq!(p.input(Input::Down(1), &CFG, &mut load), None, "no cursor while choosing");
        let p = playing();
        assert_eq!((p.phase, p.chosen, p.cursor.col, p.cursor.row), (Phase::Playing, 1, 0, 0));
        assert_eq!(p.grid.get(0), 1, "the given red shows");
    }

    #[test]
    fn a_given_cell_is_denied_and_unchanged() {
        let mut p = playing();
        let before = p.grid;
        assert_eq!(p.input(Input::Commit, &CFG, &mut load), Some(Sound::Denied));
        assert_eq!(p.grid, before);
    }

    #[test]
    fn the_cursor_stops_at_the_edges() {
        let mut p = playing();
        p.input(Input::Across(-1), &CFG, &mut load);
        p.input(Input::Down(-1), &CFG, &mut load);
        assert_eq!((p.cursor.col, p.cursor.row), (0, 0));
        for _ in 0..5 {
            p.input(Input::Across(1), &CFG, &mut load);
            p.input(Input::Down(1), &CFG, &mut load);
        }
        assert_eq!((p.cursor.col, p.cursor.row), (1, 1));
    }

    /// Cycles the cell at (col, row) `times` times.
    fn press(p: &mut Puzzle, col: u8, row: u8, times: usize) -> Vec<Sound> {
        (p.cursor.col, p.cursor.row) = (col, row);
        (0..times).filter_map(|_| p.input(Input::Commit, &CFG, &mut load)).collect()
    }

    #[test]
    fn a_wrong_full_grid_is_denied_once_until_a_cell_is_cleared() {
        let mut p = playing();
        // B1 red, A2 red, B2 red: full and wrong.
        assert_eq!(press(&mut p, 1, 0, 1), [Sound::Accepted]);
        assert_eq!(press(&mut p, 0, 1, 1), [Sound::Accepted]);
        assert_eq!(press(&mut p, 1, 1, 1), [Sound::Denied], "full and wrong");
        // Still wrong after a change that keeps it full: no second denial.
        assert_eq!(press(&mut p, 1, 1, 1), [Sound::Accepted]);
        // B2 cleared (green -> empty), then wrong again: denied again.
        assert_eq!(press(&mut p, 1, 1, 1), [Sound::Accepted]);
        assert_eq!(press(&mut p, 1, 1, 1), [Sound::Denied]);
    }

    #[test]
    fn the_solution_wins_then_locks_and_restart_chooses_again() {
        let mut p = playing();
        assert_eq!(press(&mut p, 1, 0, 2), [Sound::Accepted, Sound::Accepted]);
        assert_eq!(press(&mut p, 0, 1, 2), [Sound::Accepted, Sound::Accepted]);
        assert_eq!(press(&mut p, 1, 1, 1), [Sound::Victory]);
        assert_eq!(p.phase, Phase::Victory);
        // The whole grid flashes green.
        let f = p.frame(&CFG);
        assert_eq!((f.get(0, 0), f.get(1, 1)), (Colour::Green, Colour::Green));
        p.tune_ended();
        let locked = p.grid;
        assert_eq!(press(&mut p, 1, 1, 1), []);
        assert_eq!(p.grid, locked);
        let f = p.frame(&CFG);
        assert_eq!((f.get(0, 0), f.get(1, 0), f.get(1, 1)), (Colour::Red, Colour::Green, Colour::Red), "no cursor");
        p.input(Input::Restart, &CFG, &mut load);
        assert_eq!(p.phase, Phase::Choosing);
    }

    #[test]
    fn the_cursor_blinks_to_the_next_colour_or_to_yellow_on_a_given_cell() {
        let mut p = playing();
        let at = |p: &Puzzle| p.frame(&CFG).get(p.cursor.col, p.cursor.row);
        assert_eq!(at(&p), Colour::Red);
        for _ in 0..100 {
            p.tick(&CFG);
        }
        assert_eq!(at(&p), Colour::Yellow, "given");
        p.input(Input::Across(1), &CFG, &mut load);
        assert_eq!(at(&p), Colour::Off, "a move restarts the blink on the cell's own colour");
        for _ in 0..100 {
            p.tick(&CFG);
        }
        assert_eq!(at(&p), Colour::Red, "free and clear: blinks to red, the next");
        press(&mut p, 1, 0, 1);
        for _ in 0..100 {
            p.tick(&CFG);
        }
        assert_eq!(at(&p), Colour::Green, "free and red: blinks to green");
    }
}
