//! Line boards: a set of occupied cells as a bit mask, and the slide mechanic on it.
//!
//! Bit `i` is cell index `i` (the cell the game file numbers `i + 1`). Pieces of one kind are
//! interchangeable, so a position is just its occupancy mask.

/// Occupied cells of a line of at most 16 cells.
pub type Cells = u16;

/// A slide: the piece on `from` moves to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub from: u8,
    pub to: u8,
}

impl Move {
    pub fn apply(self, cells: Cells) -> Cells {
        (cells & !(1 << self.from)) | (1 << self.to)
    }
}

/// The parameters of one slide action, as the compiler lowered them.
#[derive(Clone, Copy, Debug)]
pub struct Slide {
    pub cells: u8,
    /// +1: toward higher indices; -1: toward lower.
    pub step: i8,
    pub min: u8,
    pub max: u8,
    pub over_empty: bool,
}

impl Slide {
    /// Where the piece on `from` lands after `steps` steps, if that is a legal slide.
    pub fn target(&self, cells: Cells, from: u8, steps: u8) -> Option<u8> {
        self.after(cells, 1 << from, steps)?;
        Some(if self.step < 0 { from.wrapping_sub(steps) } else { from.wrapping_add(steps) })
    }

    /// The position after the piece on the cell whose mask is `bit` slides `steps` steps, if
    /// that is a legal slide.
    pub fn after(&self, cells: Cells, bit: Cells, steps: u8) -> Option<Cells> {
        if cells & bit == 0 {
            return None;
        }
        self.land(cells, bit, steps).map(|to| cells ^ bit ^ to)
    }

    /// The mask of the cell `steps` steps from the cell whose mask is `bit`, if a slide of that
    /// many steps is legal. The cell is walked to a step at a time, its mask shifted by one: a
    /// variable shift is a loop of its own on an 8-bit chip. Inlined, so that a constant slide
    /// folds into its callers.
    #[inline(always)]
    fn land(&self, cells: Cells, mut bit: Cells, steps: u8) -> Option<Cells> {
        if steps < self.min || steps > self.max {
            return None;
        }
        // The mask one past the line's last cell (0 for a line of 16: the shift drops it).
        let end: Cells = if self.cells >= 16 { 0 } else { 1 << self.cells };
        let mut left = steps;
        loop {
            if self.step < 0 {
                bit >>= 1;
            } else {
                bit <<= 1;
            }
            if bit == 0 || bit == end {
                return None;
            }
            left -= 1;
            if cells & bit != 0 && (self.over_empty || left == 0) {
                return None;
            }
            if left == 0 {
                return Some(bit);
            }
        }
    }

    /// Calls `f` with the mask and index of every occupied cell, in index order, and the
    /// masks of the cells each of its legal slides lands on, shorter first.
    #[inline(always)]
    fn walk(&self, cells: Cells, mut f: impl FnMut(Cells, u8, Cells, u8)) {
        let mut bit: Cells = 1;
        let mut from = 0u8;
        while from < self.cells {
            if cells & bit != 0 && self.over_empty {
                // Over empty cells: one walk outward, a cell a step, ends at the first piece,
                // the end of the line or the longest slide.
                let end: Cells = if self.cells >= 16 { 0 } else { 1 << self.cells };
                let (mut to, mut steps) = (bit, 0u8);
                loop {
                    if self.step < 0 {
                        to >>= 1;
                    } else {
                        to <<= 1;
                    }
                    if to == 0 || to == end || cells & to != 0 || steps >= self.max {
                        break;
                    }
                    steps += 1;
                    if steps >= self.min {
                        f(bit, from, to, steps);
                    }
                }
            } else if cells & bit != 0 {
                let mut steps = self.min;
                loop {
                    if let Some(to) = self.land(cells, bit, steps) {
                        f(bit, from, to, steps);
                    }
                    if steps >= self.max {
                        break;
                    }
                    steps += 1;
                }
            }
            bit <<= 1;
            from += 1;
        }
    }

    /// Calls `f` with every legal slide of every piece, pieces in index order, shorter first.
    pub fn for_each(&self, cells: Cells, mut f: impl FnMut(Move)) {
        let step = self.step;
        self.walk(cells, |_, from, _, steps| {
            let to = if step < 0 { from.wrapping_sub(steps) } else { from.wrapping_add(steps) };
            f(Move { from, to })
        });
    }

    /// Calls `f` with the position after every legal slide, in [`for_each`](Self::for_each)'s
    /// order: made with masks, where a [`Move`]'s indices need variable shifts to apply.
    #[inline(always)]
    pub fn for_each_next(&self, cells: Cells, mut f: impl FnMut(Cells)) {
        self.walk(cells, |bit, _, to, _| f(cells ^ bit ^ to));
    }

    /// Whether some piece has a legal slide: the first found ends the search.
    pub fn has_move(&self, cells: Cells) -> bool {
        if self.over_empty && self.min == 1 && self.max >= 1 {
            // A piece with a slide over empty cells has one of one step: the next cell its way
            // on the line and empty. One mask for every piece at once, where the walk below is
            // a loop of loops (the slide is a constant: only one way is compiled).
            let line: Cells = if self.cells >= 16 { !0 } else { (1 << self.cells) - 1 };
            let on = cells & line;
            let next = if self.step < 0 { on >> 1 } else { on << 1 };
            return next & !cells & line != 0;
        }
        let mut bit: Cells = 1;
        let mut from = 0u8;
        while from < self.cells {
            if cells & bit != 0 {
                let mut steps = self.min;
                loop {
                    if self.land(cells, bit, steps).is_some() {
                        return true;
                    }
                    // Over empty cells, a slide blocked at one length is blocked at every longer one.
                    if self.over_empty || steps >= self.max {
                        break;
                    }
                    steps += 1;
                }
            }
            bit <<= 1;
            from += 1;
        }
        false
    }
}

/// The positions after every legal move of a position under some actions, in a fixed order.
pub trait Moves {
    fn each_next(&self, cells: Cells, f: impl FnMut(Cells));
}

/// Slides in a table, walked in order. The generated code implements [`Moves`] with each of
/// its slides by index instead, so that the constants fold and no table is kept.
impl Moves for [Slide] {
    fn each_next(&self, cells: Cells, mut f: impl FnMut(Cells)) {
        for s in self {
            s.for_each_next(cells, &mut f);
        }
    }
}

/// The mask of the `n`-th occupied cell (from 0) counting from the highest index down.
pub fn nth_bit_from_top(cells: Cells, n: u8) -> Option<Cells> {
    let mut bit: Cells = 1 << 15;
    let mut seen = 0;
    while bit != 0 {
        if cells & bit != 0 {
            if seen == n {
                return Some(bit);
            }
            seen += 1;
        }
        bit >>= 1;
    }
    None
}

/// The mask of the `n`-th occupied cell (from 0) counting from index 0 up.
pub fn nth_bit_from_bottom(cells: Cells, n: u8) -> Option<Cells> {
    let mut bit: Cells = 1;
    let mut seen = 0;
    while bit != 0 {
        if cells & bit != 0 {
            if seen == n {
                return Some(bit);
            }
            seen += 1;
        }
        bit <<= 1;
    }
    None
}

/// Index of the `n`-th occupied cell (from 0) counting from the highest index down.
pub fn nth_from_top(cells: Cells, n: u8) -> Option<u8> {
    let mut seen = 0;
    for i in (0..16u8).rev() {
        if cells & (1 << i) != 0 {
            if seen == n {
                return Some(i);
            }
            seen += 1;
        }
    }
    None
}

/// Index of the `n`-th occupied cell (from 0) counting from index 0 up.
pub fn nth_from_bottom(cells: Cells, n: u8) -> Option<u8> {
    let mut seen = 0;
    for i in 0..16u8 {
        if cells & (1 << i) != 0 {
            if seen == n {
                return Some(i);
            }
            seen += 1;
        }
    }
    None
}

/// Highest occupied index.
pub fn highest(cells: Cells) -> Option<u8> {
    nth_from_top(cells, 0)
}

/// Lowest occupied index.
pub fn lowest(cells: Cells) -> Option<u8> {
    nth_from_bottom(cells, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RIGHTWARD: Slide = Slide { cells: 12, step: -1, min: 1, max: 11, over_empty: true };

    #[test]
    fn slides_stop_at_the_next_piece() {
        // Pieces on indices 0 and 3: the one on 3 may go to 2 or 1, the one on 0 nowhere.
        let cells = 0b1001;
        let mut moves = [Move { from: 0, to: 0 }; 4];
        let mut n = 0;
        RIGHTWARD.for_each(cells, |m| {
            moves[n] = m;
            n += 1;
        });
        assert_eq!(&moves[..n], &[Move { from: 3, to: 2 }, Move { from: 3, to: 1 }]);
    }

    #[test]
    fn target_refuses_onto_or_past_a_piece() {
        let cells = 0b1001;
        assert_eq!(RIGHTWARD.target(cells, 3, 3), None, "onto the piece at 0");
        assert_eq!(RIGHTWARD.target(cells, 3, 4), None, "past the end");
        assert_eq!(RIGHTWARD.target(cells, 2, 1), None, "no piece at 2");
        assert_eq!(RIGHTWARD.target(cells, 3, 2), Some(1));
    }

    #[test]
    fn jumping_slides_may_pass_pieces() {
        let jump = Slide { over_empty: false, ..RIGHTWARD };
        assert_eq!(jump.target(0b1010, 3, 2), Some(1).filter(|_| false), "landing on a piece");
        assert_eq!(jump.target(0b1010, 3, 3), Some(0));
    }

    #[test]
    fn positions_after_are_the_moves_applied() {
        for cells in [0b1001, 0b1010_0110_0001, 0b1111, 0] {
            for slide in [RIGHTWARD, Slide { over_empty: false, ..RIGHTWARD }, Slide { step: 1, ..RIGHTWARD }] {
                let (mut moves, mut next) = ([0; 64], [0; 64]);
                let (mut m, mut n) = (0, 0);
                slide.for_each(cells, |mv| {
                    moves[m] = mv.apply(cells);
                    m += 1;
                });
                slide.for_each_next(cells, |p| {
                    next[n] = p;
                    n += 1;
                });
                assert_eq!(moves[..m], next[..n]);
                assert_eq!(slide.has_move(cells), m > 0);
            }
        }
    }

    #[test]
    fn nth_counts_from_either_end() {
        let cells = 0b1010_0001;
        assert_eq!(nth_from_top(cells, 0), Some(7));
        assert_eq!(nth_from_top(cells, 2), Some(0));
        assert_eq!(nth_from_bottom(cells, 1), Some(5));
        assert_eq!(nth_from_bottom(cells, 3), None);
        assert_eq!(highest(0), None);
        assert_eq!(nth_bit_from_top(cells, 1), Some(1 << 5));
        assert_eq!(nth_bit_from_bottom(cells, 2), Some(1 << 7));
        assert_eq!(nth_bit_from_bottom(cells, 3), None);
    }
}
