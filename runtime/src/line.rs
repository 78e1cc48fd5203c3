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
        if steps < self.min || steps > self.max || cells & (1 << from) == 0 {
            return None;
        }
        let mut at = from;
        for s in 1..=steps {
            at = (at as i8 + self.step) as u8;
            if at >= self.cells {
                return None;
            }
            let occupied = cells & (1 << at) != 0;
            if occupied && (self.over_empty || s == steps) {
                return None;
            }
        }
        Some(at)
    }

    /// Calls `f` with every legal slide of every piece, pieces in index order, shorter first.
    pub fn for_each(&self, cells: Cells, mut f: impl FnMut(Move)) {
        for from in 0..self.cells {
            if cells & (1 << from) == 0 {
                continue;
            }
            for steps in self.min..=self.max {
                match self.target(cells, from, steps) {
                    Some(to) => f(Move { from, to }),
                    None if self.over_empty => break,
                    None => {}
                }
            }
        }
    }

    pub fn has_move(&self, cells: Cells) -> bool {
        let mut any = false;
        self.for_each(cells, |_| any = true);
        any
    }
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
    fn nth_counts_from_either_end() {
        let cells = 0b1010_0001;
        assert_eq!(nth_from_top(cells, 0), Some(7));
        assert_eq!(nth_from_top(cells, 2), Some(0));
        assert_eq!(nth_from_bottom(cells, 1), Some(5));
        assert_eq!(nth_from_bottom(cells, 3), None);
        assert_eq!(highest(0), None);
    }
}
