//! One-player games that are not a filling of cells: a winning line found by search, and,
//! for toggle puzzles, every start decided and its fewest presses found by linear algebra.
//!
//! A *toggle puzzle* is a game of one player whose every action cycles a cell (and perhaps
//! its neighbours) between two values and whose win is a board cleared of one of them
//! (`count(lit) == 0`). Presses then commute and undo themselves, so a start is solved by
//! exactly the sets of cells whose presses sum (mod 2) to the difference between the start
//! and the cleared board: Gaussian elimination over GF(2) decides it at once, and the
//! solutions differ by the null space, small enough to walk for the fewest presses.

use super::{Engine, Move, Outcome, State};
use gamec_dsl::{CmpOp, Condition, Count, EndResult, MoveKind, Scope, What, Whose};
use std::collections::HashSet;

/// A toggle puzzle's presses: which cells each press changes, and the value to clear.
#[derive(Debug, Clone)]
pub struct Toggles {
    action: u8,
    /// The cells, in the engine's order; a press is named by its index here.
    cells: Vec<u8>,
    /// Per press, the cells (as indices into `cells`) it changes, as a bit set.
    effects: Vec<u128>,
    /// The value a cell holds that a press must clear.
    other: u8,
}

/// The fewest presses that solve a start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presses {
    pub cells: Vec<u8>,
}

impl Toggles {
    /// The game read as a toggle puzzle, if it is one.
    pub fn new(engine: &Engine) -> Option<Toggles> {
        if engine.players != 1 || engine.moves.len() != 1 || engine.cell_list.len() > 128 {
            return None;
        }
        let MoveKind::Cycle { free: false, order, .. } = engine.moves[0] else { return None };
        let [a, b] = *order.values() else { return None };
        // The only win: no cell holds `cleared_of`.
        let [ending] = engine.endings.as_slice() else { return None };
        if !matches!(ending.result, EndResult::Wins(w) if w != Whose::All) {
            return None;
        }
        let [Condition::Compare { lhs, op: CmpOp::Eq, rhs: Count::Const(0) }] = ending.conditions.as_slice() else {
            return None;
        };
        let value = match *lhs {
            Count::Cells { what: What::State(k), scope: Scope::Board, run: false } => gamec_dsl::content::state(k),
            Count::Pieces { whose: Whose::All, region: None } => gamec_dsl::content::SHARED,
            _ => return None,
        };
        let (clear, other) = if value == a {
            (b, a)
        } else if value == b {
            (a, b)
        } else {
            return None;
        };
        let cells = engine.cell_list.clone();
        // Each press's effect, read by playing it on the cleared board through the rules.
        let cleared = State { cells: vec![clear; engine.len], to_move: 0, passed: false, given: 0 };
        let mut effects = Vec::new();
        for &c in &cells {
            let (after, _) = engine.core_play(&cleared, Move::Put { action: 0, cell: c }, 0)?;
            let bits = cells
                .iter()
                .enumerate()
                .filter(|(_, &d)| after[d as usize] != clear)
                .fold(0u128, |m, (i, _)| m | 1 << i);
            effects.push(bits);
        }
        Some(Toggles { action: 0, cells, effects, other })
    }

    /// The fewest presses that clear `start`, or `None` if no presses can.
    pub fn solve(&self, start: &State) -> Option<Presses> {
        let n = self.cells.len();
        let target = self
            .cells
            .iter()
            .enumerate()
            .filter(|(_, &c)| start.cells[c as usize] == self.other)
            .fold(0u128, |m, (i, _)| m | 1 << i);
        // Solve E x = target over GF(2): row r of the system is cell r, column p press p.
        let mut rows: Vec<(u128, bool)> = (0..n)
            .map(|r| {
                let presses = (0..n).filter(|&p| self.effects[p] >> r & 1 == 1).fold(0u128, |m, p| m | 1 << p);
                (presses, target >> r & 1 == 1)
            })
            .collect();
        let mut pivots: Vec<usize> = Vec::new();
        let mut rank = 0;
        for col in 0..n {
            let Some(pr) = (rank..n).find(|&r| rows[r].0 >> col & 1 == 1) else { continue };
            rows.swap(rank, pr);
            for r in 0..n {
                if r != rank && rows[r].0 >> col & 1 == 1 {
                    rows[r].0 ^= rows[rank].0;
                    rows[r].1 ^= rows[rank].1;
                }
            }
            pivots.push(col);
            rank += 1;
        }
        if rows[rank..].iter().any(|&(_, t)| t) {
            return None;
        }
        let free: Vec<usize> = (0..n).filter(|c| !pivots.contains(c)).collect();
        // Every solution: a choice of the free presses, the pivots then forced. The null space
        // of a real board is small (a 5 x 5 board of crosses: 2 free presses); past 16 keep the first.
        let choices = 1u32 << free.len().min(16);
        let solution = (0..choices)
            .map(|pick| {
                let mut x =
                    free.iter().enumerate().filter(|(i, _)| pick >> i & 1 == 1).fold(0u128, |m, (_, &f)| m | 1 << f);
                for (r, &col) in pivots.iter().enumerate() {
                    let others = rows[r].0 & !(1u128 << col);
                    if rows[r].1 ^ ((others & x).count_ones() % 2 == 1) {
                        x |= 1 << col;
                    }
                }
                x
            })
            .min_by_key(|x| x.count_ones())?;
        Some(Presses { cells: (0..n).filter(|&p| solution >> p & 1 == 1).map(|p| self.cells[p]).collect() })
    }

    /// The move a press is, for replaying a solution through the rules.
    pub fn press(&self, cell: u8) -> Move {
        Move::Put { action: self.action, cell }
    }
}

/// A winning line for the one player of `start`'s game, found by depth-first search that
/// remembers positions it has seen lose; `None` when there is none, or none within `limit`
/// positions (then `Err` says how many were tried).
pub fn winning_line(engine: &Engine, start: &State, limit: usize) -> Result<Option<Vec<Move>>, usize> {
    winning_lines(engine, std::slice::from_ref(start), limit).remove(0)
}

/// [`winning_line`] for each of `starts`, the positions seen to lose remembered across them:
/// a position that loses from one start loses from every start, so many starts (a random
/// setup deals thousands) cost about as much as the positions they reach, not that many times
/// over. `limit` bounds the positions remembered over all the starts.
pub fn winning_lines(engine: &Engine, starts: &[State], limit: usize) -> Vec<Result<Option<Vec<Move>>, usize>> {
    let mut dead: HashSet<State> = HashSet::new();
    starts
        .iter()
        .map(|start| {
            let mut line = Vec::new();
            match search(engine, start, &mut dead, &mut line, limit) {
                Some(true) => Ok(Some(line)),
                Some(false) => Ok(None),
                None => Err(dead.len()),
            }
        })
        .collect()
}

/// Whether `s` leads to a win (appending the moves), or `None` once `limit` is passed.
fn search(engine: &Engine, s: &State, dead: &mut HashSet<State>, line: &mut Vec<Move>, limit: usize) -> Option<bool> {
    match engine.outcome(s) {
        Some(Outcome::Win(0)) => return Some(true),
        Some(_) => return Some(false),
        None => {}
    }
    if dead.contains(s) {
        return Some(false);
    }
    if dead.len() >= limit {
        return None;
    }
    for (m, next) in engine.successors(s) {
        line.push(m);
        if search(engine, &next, dead, line, limit)? {
            return Some(true);
        }
        line.pop();
    }
    dead.insert(s.clone());
    Some(false)
}
