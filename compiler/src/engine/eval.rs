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
            // on (or a move of the rule core names alone), each once whatever action chooses
            // it; and every longer move (the rule core's `Feature::Mobility`). A pass is none.
            Feature::Mobility => difference(&|p| {
                let moves = self.moves_of(s, p);
                let single = |m: &Move| match m {
                    Move::Put { cell, .. } => Some(*cell),
                    Move::Path(path) if path.cells().len() == 1 => Some(path.cells()[0]),
                    _ => None,
                };
                let mut cells: Vec<u8> = moves.iter().filter_map(single).collect();
                cells.sort_unstable();
                cells.dedup();
                let longer = moves.iter().filter(|m| matches!(m, Move::Path(path) if path.cells().len() > 1)).count();
                (cells.len() + longer) as i32
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
                // A line through a cell cut away is no line.
                let on_board = |i: usize| self.cell_list.contains(&(i as u8)).then_some(i);
                let cells: Option<Vec<usize>> =
                    (0..of as i8).map(|k| self.is_cell(c0 + k * dc, r0 + k * dr).and_then(on_board)).collect();
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
