//! Moves, their effects, and the endings: what a ply does and when the game is over.

use super::{Engine, Move, Outcome, Shape, State, STRIDE};
use gamec_dsl::{Condition, Count, EndResult, MoveKind, Whose};

/// The eight directions as (column, row) steps; the first four are orthogonal.
const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)];

impl Engine {
    fn is_cell(&self, col: i8, row: i8) -> Option<usize> {
        match self.shape {
            Shape::Grid { cols, rows } => ((0..cols as i8).contains(&col) && (0..rows as i8).contains(&row))
                .then(|| row as usize * STRIDE + col as usize),
            Shape::Line { cells, .. } => (row == 0 && (0..cells as i8).contains(&col)).then_some(col as usize),
            Shape::Heaps { .. } => None,
        }
    }

    fn col_row(&self, cell: usize) -> (i8, i8) {
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
        let me = s.to_move;
        let mut next = State { cells: s.cells.clone(), to_move: 1 - me, passed: false };
        match m {
            Move::Pass => next.passed = true,
            Move::Put { action, cell } => {
                next.cells[cell as usize] = if self.per_player { 1 + me } else { 1 };
                if let MoveKind::Place { capture: Some(d) } = self.moves[action as usize] {
                    for i in self.flanked(s, cell as usize, me, d) {
                        next.cells[i] = 1 + me;
                    }
                }
            }
            Move::Slide { from, to } => {
                next.cells.swap(from as usize, to as usize);
            }
            Move::Take { heap, count } => next.cells[heap as usize] -= count,
        }
        next
    }

    /// The outcome if `s` is over: the first ending whose conditions all hold.
    pub fn outcome(&self, s: &State) -> Option<Outcome> {
        let ending = self.ending(s)?;
        Some(self.result(s, self.endings[ending].result))
    }

    /// Which ending decides `s`: the first whose conditions all hold.
    pub fn ending(&self, s: &State) -> Option<usize> {
        self.endings.iter().position(|e| e.conditions.iter().all(|c| self.holds(s, c)))
    }

    fn player(&self, s: &State, w: Whose) -> Option<u8> {
        match w {
            Whose::Mover => Some(1 - s.to_move),
            Whose::Next => Some(s.to_move),
            Whose::Player(p) => Some(p as u8),
            Whose::All => None,
        }
    }

    /// What a result means in `s`: who wins, or a draw.
    pub fn result(&self, s: &State, r: EndResult) -> Outcome {
        match r {
            EndResult::Draw => Outcome::Draw,
            EndResult::Wins(w) => Outcome::Win(self.player(s, w).unwrap_or(0)),
            EndResult::Loses(w) => Outcome::Win(1 - self.player(s, w).unwrap_or(0)),
            EndResult::Most { most, wins } => {
                let (a, b) = (self.count(s, Some(0), None), self.count(s, Some(1), None));
                let leader = match a.cmp(&b) {
                    std::cmp::Ordering::Equal => return Outcome::Draw,
                    std::cmp::Ordering::Greater => 0,
                    std::cmp::Ordering::Less => 1,
                };
                let leader = if most { leader } else { 1 - leader };
                Outcome::Win(if wins { leader } else { 1 - leader })
            }
        }
    }

    /// Pieces of `player` (everyone's with `None`, and always everyone's for shared pieces),
    /// in a region or anywhere; on heaps, the counters left.
    pub fn count(&self, s: &State, player: Option<u8>, region: Option<usize>) -> u32 {
        if let Shape::Heaps { .. } = self.shape {
            return s.cells.iter().map(|&n| n as u32).sum();
        }
        let owned = |v: u8| v != 0 && (!self.per_player || player.is_none_or(|p| v == 1 + p));
        match region {
            Some(r) => self.regions[r].iter().filter(|&&c| owned(s.cells[c as usize])).count() as u32,
            None => self.cell_list.iter().filter(|&&c| owned(s.cells[c as usize])).count() as u32,
        }
    }

    fn holds(&self, s: &State, c: &Condition) -> bool {
        match *c {
            Condition::InARow { k, directions } => self.in_a_row(s, 1 - s.to_move, k, directions),
            Condition::Full => self.cell_list.iter().all(|&c| s.cells[c as usize] != 0),
            Condition::NoMoves => self.moves_of(s, s.to_move).is_empty(),
            Condition::NeitherCanMove => {
                self.moves_of(s, s.to_move).is_empty() && self.moves_of(s, 1 - s.to_move).is_empty()
            }
            Condition::Compare { lhs, op, rhs } => {
                let value = |x: Count| match x {
                    Count::Const(n) => n,
                    Count::Pieces { whose, region } => self.count(s, self.player(s, whose), region),
                };
                op.holds(value(lhs), value(rhs))
            }
        }
    }

    /// `player` (any piece, for shared pieces) has `k` in a row along one of the directions.
    fn in_a_row(&self, s: &State, player: u8, k: u8, directions: u8) -> bool {
        let mine = |v: u8| if self.per_player { v == 1 + player } else { v != 0 };
        // Each line is counted from its first cell, so only the positive half of each axis.
        let axes: &[(i8, i8)] = if directions == 4 { &[(1, 0), (0, 1)] } else { &[(1, 0), (0, 1), (1, 1), (1, -1)] };
        self.cell_list.iter().any(|&c| {
            let (c0, r0) = self.col_row(c as usize);
            mine(s.cells[c as usize])
                && axes.iter().any(|&(dc, dr)| {
                    (1..k as i8).all(|i| self.is_cell(c0 + dc * i, r0 + dr * i).is_some_and(|j| mine(s.cells[j])))
                })
        })
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
