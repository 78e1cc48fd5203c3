//! Solving small games at compile time: who wins every position with perfect play, the
//! positions play can reach, and the table the device consults.

use crate::rules::{Move, Pos, Rules};
use std::collections::{BTreeSet, HashMap};

/// Outcome of every position for the player to move.
pub struct Solution {
    /// Mover wins, per position mask.
    pub mover_wins: HashMap<Pos, bool>,
}

/// Positions beyond which the compiler refuses to solve (the table would not fit a small chip).
pub const MAX_POSITIONS: usize = 1 << 16;

/// Play that can go on forever: positions that lead back to themselves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    /// The positions in the order play visits them; the last one's move returns to the first.
    pub positions: Vec<Pos>,
    /// The move made in each position.
    pub moves: Vec<Move>,
}

/// A position being solved: its moves, the next one to look at, and whether one found so far
/// leaves the opponent lost.
struct Frame {
    pos: Pos,
    moves: Vec<Move>,
    next: usize,
    wins: bool,
}

impl Solution {
    /// Solves every placement of the pieces.
    ///
    /// # Panics
    /// If play can cycle; [`Solution::try_solve`] reports that instead.
    pub fn solve(rules: &Rules) -> Solution {
        Solution::try_solve(rules).unwrap_or_else(|c| panic!("play can cycle through {:?}", c.positions))
    }

    /// Solves every placement of the pieces, or finds a cycle of play, which this solver (one
    /// bit, win or loss, per position) cannot score.
    ///
    /// A depth-first search with an explicit stack, since games can be long: every move of
    /// every position is followed, so a move back onto the search's own path is a cycle, and
    /// without one each position is solved after all its successors.
    pub fn try_solve(rules: &Rules) -> Result<Solution, Cycle> {
        let mut memo: HashMap<Pos, bool> = HashMap::new();
        // Positions on the search's path, with their depth on it.
        let mut on_path: HashMap<Pos, usize> = HashMap::new();
        let frame = |pos: Pos| Frame { pos, moves: rules.moves(pos), next: 0, wins: false };
        for root in rules.placements() {
            if memo.contains_key(&root) {
                continue;
            }
            let mut stack = vec![frame(root)];
            on_path.insert(root, 0);
            while let Some(top) = stack.last_mut() {
                if let Some(&m) = top.moves.get(top.next) {
                    top.next += 1;
                    let child = Rules::apply(top.pos, m);
                    if let Some(&child_wins) = memo.get(&child) {
                        top.wins |= !child_wins;
                    } else if let Some(&depth) = on_path.get(&child) {
                        let path = &stack[depth..];
                        return Err(Cycle {
                            positions: path.iter().map(|f| f.pos).collect(),
                            moves: path.iter().map(|f| f.moves[f.next - 1]).collect(),
                        });
                    } else {
                        on_path.insert(child, stack.len());
                        stack.push(frame(child));
                    }
                    continue;
                }
                let done = stack.pop().expect("the loop holds a frame");
                // The mover without a move: the previous player made the last move.
                let wins = if done.moves.is_empty() { !rules.last_mover_wins } else { done.wins };
                on_path.remove(&done.pos);
                memo.insert(done.pos, wins);
                if let Some(parent) = stack.last_mut() {
                    parent.wins |= !wins;
                }
            }
        }
        Ok(Solution { mover_wins: memo })
    }

    pub fn mover_wins(&self, pos: Pos) -> bool {
        self.mover_wins[&pos]
    }
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
