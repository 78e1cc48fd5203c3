//! The device's player: its strategy, and the evaluation a search scores positions with.

use super::{Layout, MoveDef, MoveKind, PieceDef, RegionDef};
use crate::ast::CmpOp;
use crate::Span;

/// The device's player.
#[derive(Debug, Clone, Default)]
pub struct DeviceDef {
    /// How it chooses its moves; `None` when the file gives no strategy.
    pub strategy: Option<StrategyDef>,
    /// What a search scores a position with; `None` for the default evaluation.
    pub eval: Option<EvalDef>,
}

#[derive(Debug, Clone)]
pub struct StrategyDef {
    /// The player the device plays; `None` when the host chooses its side at run time and the
    /// device takes the other (`strategy device = ...` in a serial game).
    pub player: Option<usize>,
    pub kind: StrategyKind,
    pub ties_random: bool,
    /// Search: deepen one ply at a time until the budget or the clock runs out.
    pub deepening: bool,
    /// Search: try moves in the order of the evaluation.
    pub order_by_eval: bool,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrategyKind {
    /// Solved by the compiler: winning moves whenever one exists.
    Perfect,
    /// Any legal move, uniformly.
    Random,
    /// Alpha-beta search over the rules, scored by the game's `eval`.
    Search,
}

/// A heuristic evaluation for the player to move: the first case whose condition holds.
#[derive(Debug, Clone)]
pub struct EvalDef {
    pub cases: Vec<EvalCaseDef>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct EvalCaseDef {
    /// `None` for `else`.
    pub when: Option<(Feature, CmpOp, i32)>,
    pub terms: Vec<(i16, Feature)>,
}

/// What an evaluation can weigh: the mover's count minus the opponent's, except `Empty`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// Pieces on the board.
    Pieces,
    /// Legal moves.
    Mobility,
    /// Pieces in a region the game declares (index into `regions`).
    Region(usize),
    /// Lines of `of` cells in a row (in 8 directions) holding `have` of my pieces and none of
    /// the opponent's: threats on the way to `of` in a row.
    Lines { have: u8, of: u8 },
    /// Empty cells (not a difference).
    Empty,
}

/// The most an evaluation may score either way: one less than the search's score of a finished
/// game (the runtime's `search::WIN`, 16,000), so that a forced win always outranks any
/// position and the scores stay inside 16 bits with room for a win's margin.
pub const EVAL_LIMIT: u32 = 15_999;

/// What bounds a feature in a game: the most its value can be either way in any position, and
/// why, in words for a diagnostic ("the board has 64 cells").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reach {
    pub most: u32,
    pub why: String,
}

impl Feature {
    /// The most this feature can be either way in any position of a game on `board` with
    /// these pieces, moves and regions: a bound from the rules, never from play, so that the
    /// evaluation's range can be checked before anything runs.
    pub fn reach(self, board: &Layout, piece: &PieceDef, moves: &[MoveDef], regions: &[RegionDef]) -> Reach {
        let (capacity, holds) = match board {
            Layout::Line(l) => (l.cells, format!("the line has {} cells", l.cells)),
            Layout::Grid(g) => (g.cols * g.rows, format!("the board has {} cells", g.cols * g.rows)),
            // A test's `from` may fill every heap, whatever the setup gives.
            Layout::Heaps(h) => (
                h.heaps * crate::lower_game::MAX_HEAP,
                format!("{} heaps hold at most {} counters each", h.heaps, crate::lower_game::MAX_HEAP),
            ),
        };
        match self {
            Feature::Pieces | Feature::Empty => Reach { most: capacity, why: holds },
            Feature::Region(i) => {
                let r = &regions[i];
                Reach {
                    most: r.cells.len() as u32,
                    why: format!("region `{}` has {} cells", r.name.node, r.cells.len()),
                }
            }
            Feature::Mobility => {
                // A side's legal moves, action by action: at most one a cell (a column for a
                // drop, a count removed from each heap), a target cell for each slid piece.
                let most = moves.iter().fold(0u32, |sum, m| {
                    let n = match (m.kind, board) {
                        (MoveKind::Drop, Layout::Grid(g)) => g.cols,
                        (MoveKind::Slide { .. }, _) => piece.count.max(1).saturating_mul(capacity),
                        _ => capacity,
                    };
                    sum.saturating_add(n)
                });
                Reach { most, why: format!("a side has at most {most} legal moves ({holds})") }
            }
            Feature::Lines { of, .. } => {
                let of = u32::from(of);
                let fits = |n: u32| (n + 1).saturating_sub(of);
                let most = match board {
                    Layout::Grid(g) => g.rows * fits(g.cols) + g.cols * fits(g.rows) + 2 * fits(g.rows) * fits(g.cols),
                    Layout::Line(l) => fits(l.cells),
                    Layout::Heaps(_) => 0,
                };
                Reach { most, why: format!("the board has {most} lines of {of} cells") }
            }
        }
    }
}
