//! Moves, their effects, and the endings: what a ply does and when the game is over.

use super::{Engine, Move, Shape, State};

impl Engine {
    pub(super) fn is_cell(&self, col: i8, row: i8) -> Option<usize> {
        match self.shape {
            Shape::Grid { cols, rows } => ((0..cols as i8).contains(&col) && (0..rows as i8).contains(&row))
                .then(|| row as usize * self.stride + col as usize),
            Shape::Line { cells, .. } => (row == 0 && (0..cells as i8).contains(&col)).then_some(col as usize),
            Shape::Heaps { .. } => None,
        }
    }

    /// The moves `player` could make in `s`, passing aside, in a fixed order.
    pub fn moves_of(&self, s: &State, player: u8) -> Vec<Move> {
        self.legal(s, player).into_iter().map(|(m, _)| m).collect()
    }

    /// The moves `player` could make in `s`, each with the position it leads to.
    fn legal(&self, s: &State, player: u8) -> Vec<(Move, State)> {
        let mut out: Vec<(Move, State)> = self
            .core_moves(s, player)
            .into_iter()
            .map(|(m, cells, again)| {
                let to_move = if again { player } else { self.after(player) };
                (m, State { cells, to_move, passed: false, given: s.given })
            })
            .collect();
        out.sort();
        out.dedup_by(|a, b| a.0 == b.0);
        out
    }

    /// The legal plies in `s`, each with the position it leads to.
    pub fn successors(&self, s: &State) -> Vec<(Move, State)> {
        if self.outcome(s).is_some() {
            return Vec::new();
        }
        let moves = self.legal(s, s.to_move);
        if moves.is_empty() && self.pass && !s.passed {
            return vec![(Move::Pass, self.play(s, Move::Pass))];
        }
        moves
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
            m => {
                // Only a legal move is ever applied: the engine lists them before playing one.
                let (cells, again) =
                    self.core_play(s, m, me).unwrap_or_else(|| panic!("{m:?} is not a move of this game"));
                next.cells = cells;
                if again {
                    next.to_move = me;
                }
            }
        }
        next
    }

    /// Move paths of `depth` plies from `s`: passes count as plies, finished games as leaves.
    pub fn perft(&self, s: &State, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let next = self.successors(s);
        if next.is_empty() {
            return 1;
        }
        if depth == 1 {
            return next.len() as u64;
        }
        next.iter().map(|(_, after)| self.perft(after, depth - 1)).sum()
    }
}
