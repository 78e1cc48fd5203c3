//! A search's `eval` read by the engine: the score of a position for the player to move, as
//! the generated firmware's evaluation scores it (`codegen::grid_game`'s `eval_body`, over the
//! runtime's `Duel` and `Grid::lines`), so that tests can hold the generated code to it.
//!
//! The first case whose condition holds gives the score, a sum of weight x feature. Every
//! feature but `empty` is the mover's count minus the opponent's. Scores are exact integers
//! here (`i32`); the firmware computes in 16 bits, which the front end's bound on an eval's
//! range keeps from overflowing.

use super::{Engine, Move, Shape, State};
use gamec_dsl::{CmpOp, EvalDef, Feature};

/// The four directions a line of N runs in, each line once: along a row, up a column, and
/// both diagonals (as the runtime's `Grid::lines`).
const LINE_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Engine {
    /// The score of `s` for the player to move.
    pub fn eval(&self, eval: &EvalDef, s: &State) -> i32 {
        for case in &eval.cases {
            if let Some((f, op, n)) = case.when {
                if !compare(self.feature(f, s), op, n) {
                    continue;
                }
            }
            return case.terms.iter().map(|&(w, f)| i32::from(w) * self.feature(f, s)).sum();
        }
        // Lowering makes the last case `else`; with none, the generated body is 0 as well.
        0
    }

    /// A feature's value in `s`, for the player to move.
    pub fn feature(&self, f: Feature, s: &State) -> i32 {
        let (me, opp) = (s.to_move, self.after(s.to_move));
        let difference = |count: &dyn Fn(u8) -> i32| count(me) - count(opp);
        match f {
            Feature::Pieces => difference(&|p| self.pieces_on(s, p, &self.cell_list)),
            Feature::Region(i) => difference(&|p| self.pieces_on(s, p, &self.regions[i])),
            Feature::Empty => self.cell_list.iter().filter(|&&c| s.cells[c as usize] == 0).count() as i32,
            // Legal cells, as the firmware's `legal_for` sets: the cells some move puts a piece
            // on, each once whatever action puts it there; a pass is no cell.
            Feature::Mobility => difference(&|p| {
                let mut cells: Vec<u8> = self
                    .moves_of(s, p)
                    .into_iter()
                    .filter_map(|m| if let Move::Put { cell, .. } = m { Some(cell) } else { None })
                    .collect();
                cells.sort_unstable();
                cells.dedup();
                cells.len() as i32
            }),
            Feature::Lines { have, of } => difference(&|p| self.open_lines(s, p, have, of)),
        }
    }

    /// Player `p`'s pieces on `cells`.
    fn pieces_on(&self, s: &State, p: u8, cells: &[u8]) -> i32 {
        cells.iter().filter(|&&c| s.cells[c as usize] == 1 + p).count() as i32
    }

    /// The lines of `of` cells in a row on the board holding exactly `have` of `p`'s pieces and
    /// nothing of anyone else's (an empty cell or `p`'s piece each).
    fn open_lines(&self, s: &State, p: u8, have: u8, of: u8) -> i32 {
        let Shape::Grid { .. } = self.shape else { return 0 };
        let mut total = 0;
        for &start in &self.cell_list {
            let (c0, r0) = ((start as usize % self.stride) as i8, (start as usize / self.stride) as i8);
            for (dc, dr) in LINE_DIRECTIONS {
                let cells: Option<Vec<usize>> = (0..of as i8).map(|k| self.is_cell(c0 + k * dc, r0 + k * dr)).collect();
                let Some(cells) = cells else { continue };
                let free = cells.iter().all(|&i| s.cells[i] == 0 || s.cells[i] == 1 + p);
                let mine = cells.iter().filter(|&&i| s.cells[i] == 1 + p).count();
                total += (free && mine == have as usize) as i32;
            }
        }
        total
    }
}

fn compare(value: i32, op: CmpOp, n: i32) -> bool {
    match op {
        CmpOp::Ge => value >= n,
        CmpOp::Le => value <= n,
        CmpOp::Eq => value == n,
        CmpOp::Ne => value != n,
        CmpOp::Gt => value > n,
        CmpOp::Lt => value < n,
    }
}
