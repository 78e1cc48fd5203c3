//! Moves, their effects, and the endings: what a ply does and when the game is over.

use super::{Engine, Move, Shape, State, STRIDE};
use gamec_dsl::{content, MoveKind};

/// The eight directions as (column, row) steps; the first four are orthogonal.
const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)];

impl Engine {
    pub(super) fn is_cell(&self, col: i8, row: i8) -> Option<usize> {
        match self.shape {
            Shape::Grid { cols, rows } => ((0..cols as i8).contains(&col) && (0..rows as i8).contains(&row))
                .then(|| row as usize * STRIDE + col as usize),
            Shape::Line { cells, .. } => (row == 0 && (0..cells as i8).contains(&col)).then_some(col as usize),
            Shape::Heaps { .. } => None,
        }
    }

    pub(super) fn col_row(&self, cell: usize) -> (i8, i8) {
        match self.shape {
            Shape::Grid { .. } => ((cell % STRIDE) as i8, (cell / STRIDE) as i8),
            _ => (cell as i8, 0),
        }
    }

    /// The opponent's pieces that a piece of `me` put on `cell` would turn over.
    fn flanked(&self, s: &State, cell: usize, me: u8, directions: u8) -> Vec<usize> {
        let (mine, theirs) = (1 + me, 2 - me);
        let (c0, r0) = self.col_row(cell);
        let mut out = Vec::new();
        for &(dc, dr) in &DIRECTIONS[..directions as usize] {
            let mut run = Vec::new();
            let (mut c, mut r) = (c0 + dc, r0 + dr);
            while let Some(i) = self.is_cell(c, r) {
                match s.cells[i] {
                    v if v == theirs => run.push(i),
                    v if v == mine && !run.is_empty() => {
                        out.extend(run.iter());
                        break;
                    }
                    _ => break,
                }
                c += dc;
                r += dr;
            }
        }
        out
    }

    /// The moves `player` could make in `s`, passing aside, in a fixed order.
    pub fn moves_of(&self, s: &State, player: u8) -> Vec<Move> {
        let mut out = Vec::new();
        for (a, kind) in self.moves.iter().enumerate() {
            let action = a as u8;
            match *kind {
                MoveKind::Place { capture } => {
                    for &c in &self.cell_list {
                        let empty = s.cells[c as usize] == 0;
                        if empty && capture.is_none_or(|d| !self.flanked(s, c as usize, player, d).is_empty()) {
                            out.push(Move::Put { action, cell: c });
                        }
                    }
                }
                MoveKind::Cycle { free, order } => {
                    for &c in &self.cell_list {
                        let locked = free && s.given >> c & 1 == 1;
                        if !locked && order.next(s.cells[c as usize]).is_some() {
                            out.push(Move::Put { action, cell: c });
                        }
                    }
                }
                MoveKind::Drop => {
                    let Shape::Grid { cols, rows } = self.shape else { continue };
                    for col in 0..cols as usize {
                        if let Some(cell) = (0..rows as usize).map(|r| r * STRIDE + col).find(|&i| s.cells[i] == 0) {
                            out.push(Move::Put { action, cell: cell as u8 });
                        }
                    }
                }
                MoveKind::Slide { step, min, max, over_empty } => {
                    let n = self.cell_list.len() as i32;
                    for from in 0..n {
                        if s.cells[from as usize] == 0 {
                            continue;
                        }
                        let max = max.unwrap_or(n as u32).min(n as u32);
                        for steps in min..=max {
                            let to = from + step as i32 * steps as i32;
                            if !(0..n).contains(&to) {
                                break;
                            }
                            let blocked = (1..steps as i32).any(|k| s.cells[(from + step as i32 * k) as usize] != 0);
                            if over_empty && blocked {
                                break;
                            }
                            if s.cells[to as usize] == 0 {
                                out.push(Move::Slide { from: from as u8, to: to as u8 });
                            }
                        }
                    }
                }
                MoveKind::Remove { min, max } => {
                    for (h, &n) in s.cells.iter().enumerate() {
                        let top = max.unwrap_or(n as u32).min(n as u32);
                        for count in min..=top {
                            out.push(Move::Take { heap: h as u8, count: count as u8 });
                        }
                    }
                }
            }
        }
        // A `where` clause keeps the moves after which its conditions hold.
        out.retain(|&m| match m {
            Move::Put { action, .. } if !self.move_conditions[action as usize].is_empty() => {
                let after = self.apply(s, m, player);
                self.move_conditions[action as usize].iter().all(|c| self.holds(&after, c))
            }
            _ => true,
        });
        out.sort();
        out.dedup();
        out
    }

    /// The legal plies in `s`: the mover's moves, or a pass where the rules allow one. Empty
    /// when the game is over (or stuck: no ending holds and nobody may move).
    pub fn plies(&self, s: &State) -> Vec<Move> {
        if self.outcome(s).is_some() {
            return Vec::new();
        }
        let moves = self.moves_of(s, s.to_move);
        if moves.is_empty() && self.pass && !s.passed {
            return vec![Move::Pass];
        }
        moves
    }

    pub fn play(&self, s: &State, m: Move) -> State {
        self.apply(s, m, s.to_move)
    }

    /// `m` made by `me`, whose turn it then no longer is.
    fn apply(&self, s: &State, m: Move, me: u8) -> State {
        let mut next = State { cells: s.cells.clone(), to_move: self.after(me), passed: false, given: s.given };
        match m {
            Move::Pass => next.passed = true,
            Move::Put { action, cell } => match self.moves[action as usize] {
                MoveKind::Cycle { order, .. } => {
                    let c = &mut next.cells[cell as usize];
                    *c = order.next(*c).unwrap_or(*c);
                }
                kind => {
                    next.cells[cell as usize] =
                        if self.per_player { content::piece(me as usize) } else { content::SHARED };
                    if let MoveKind::Place { capture: Some(d) } = kind {
                        for i in self.flanked(s, cell as usize, me, d) {
                            next.cells[i] = content::piece(me as usize);
                        }
                    }
                }
            },
            Move::Slide { from, to } => {
                next.cells.swap(from as usize, to as usize);
            }
            Move::Take { heap, count } => next.cells[heap as usize] -= count,
        }
        next
    }

    /// Move paths of `depth` plies from `s`: passes count as plies, finished games as leaves.
    pub fn perft(&self, s: &State, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let plies = self.plies(s);
        if plies.is_empty() {
            return 1;
        }
        if depth == 1 {
            return plies.len() as u64;
        }
        plies.iter().map(|&m| self.perft(&self.play(s, m), depth - 1)).sum()
    }
}
