//! Solving small games at compile time: who wins every position with perfect play, the
//! positions play can reach, and the table the device consults.

use crate::rules::{Pos, Rules};
use std::collections::{BTreeSet, HashMap};

/// Outcome of every position for the player to move.
pub struct Solution {
    /// Mover wins, per position mask.
    pub mover_wins: HashMap<Pos, bool>,
}

/// Positions beyond which the compiler refuses to solve (the table would not fit a small chip).
pub const MAX_POSITIONS: usize = 1 << 16;

impl Solution {
    /// Solves every placement of the pieces by memoised search. Slides are one-way, so play
    /// cannot cycle and the recursion ends.
    pub fn solve(rules: &Rules) -> Solution {
        let mut memo = HashMap::new();
        for p in rules.placements() {
            solve_pos(rules, p, &mut memo);
        }
        Solution { mover_wins: memo }
    }

    pub fn mover_wins(&self, pos: Pos) -> bool {
        self.mover_wins[&pos]
    }
}

fn solve_pos(rules: &Rules, pos: Pos, memo: &mut HashMap<Pos, bool>) -> bool {
    if let Some(&w) = memo.get(&pos) {
        return w;
    }
    let moves = rules.moves(pos);
    let wins = if moves.is_empty() {
        // The mover has no move: the previous player made the last move.
        !rules.last_mover_wins
    } else {
        moves.iter().any(|&m| !solve_pos(rules, Rules::apply(pos, m), memo))
    };
    memo.insert(pos, wins);
    wins
}

/// Every position reachable by legal play from the given starts, starts included.
pub fn reachable(rules: &Rules, starts: &[Pos]) -> BTreeSet<Pos> {
    let mut seen: BTreeSet<Pos> = starts.iter().copied().collect();
    let mut todo: Vec<Pos> = starts.to_vec();
    while let Some(p) = todo.pop() {
        for m in rules.moves(p) {
            let q = Rules::apply(p, m);
            if seen.insert(q) {
                todo.push(q);
            }
        }
    }
    seen
}

/// Rank of a k-set of cells in the combinatorial number system (same order as the runtime's).
pub fn rank(pos: Pos, cells: u8) -> u16 {
    let mut rank = 0u32;
    let mut seen = 0u32;
    for i in 0..cells as u32 {
        if pos & (1 << i) != 0 {
            seen += 1;
            rank += binomial(i, seen);
        }
    }
    rank as u16
}

pub fn binomial(n: u32, k: u32) -> u32 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64) as u32
}
