//! The compiler's one reading of any game's rules: positions, moves, endings and the outcome,
//! interpreted straight from the game file's general parts (places, move primitives,
//! conditions, ordered endings, setups). Solving, analysis, perft and lints all run on it.
//!
//! It favours plainness over speed: a position is a cell array. Games whose firmware has a
//! faster specialised reading (`crate::rules`, `crate::grid_rules`) are tested against it.

mod conditions;
mod core;
pub use self::core::cmp;
mod eval;
mod notation;
pub mod one_player;
mod play;
pub mod puzzle;
pub mod solve;
pub mod table;

use gamec_dsl::{
    Condition, Count, EndResult, EndingDef, GameDef, HeapsBoard, Layout, MoveKind, SetupDef, SowDef, What, Whose,
};

pub use notation::NotationError;

/// Cell indices a row apart on a grid of up to 8 columns (`row * STRIDE + column`), as the
/// front end numbers them and the firmware's 64-bit boards hold them. Wider grids have a
/// stride of 16 ([`Engine::stride`]).
pub const STRIDE: usize = 8;

/// A position: what is on every cell (or in every heap), whose turn it is, and whether the
/// last turn was a pass.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    /// Lines and grids: contents as `gamec_dsl::content` numbers them (0 empty, 1 + player
    /// for a player's piece, 1 for a shared piece, 3 + k for state k). Heaps: the counters in
    /// each heap.
    pub cells: Vec<u8>,
    pub to_move: u8,
    pub passed: bool,
    /// Cells the setup filled (bit = cell index): what `cycle free cell` may not change.
    pub given: u64,
}

/// One ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A piece put on a cell by action `action` (a placement or a drop), or a cell's contents
    /// cycled.
    Put {
        action: u8,
        cell: u8,
    },
    /// A shared piece moved along the line.
    Slide {
        from: u8,
        to: u8,
    },
    /// `count` counters taken from `heap`.
    Take {
        heap: u8,
        count: u8,
    },
    /// A piece moved by itself: the rule core's path of cells (origin, then each landing).
    Path(gamec_runtime::rules::Path),
    Pass,
}

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(u8),
    Draw,
}

/// What a place looks like to the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Line {
        cells: u8,
        numbered_from_right: bool,
    },
    Grid {
        cols: u8,
        rows: u8,
    },
    /// Heaps; with `pits`, a ring of pits a row a side.
    Heaps {
        heaps: u8,
        pits: Option<gamec_dsl::PitsBoard>,
    },
}

/// A game's rules, ready to play.
#[derive(Debug, Clone)]
pub struct Engine {
    pub shape: Shape,
    /// Cell indices a row apart on a grid (`gamec_dsl::GridBoard::stride`).
    pub stride: usize,
    /// Indices of the real cells (a grid's indices skip the stride's unused columns).
    pub cell_list: Vec<u8>,
    /// Length of `State::cells`.
    pub len: usize,
    /// Pieces belong to a player (else they are shared, or counters).
    pub per_player: bool,
    pub moves: Vec<MoveKind>,
    /// Each action as the rule core plays it.
    pub programs: Vec<core::Program>,
    /// Grid cells cut away from the board, in increasing order.
    pub cut: Vec<u8>,
    /// The endings as the rule core reads them.
    pub core_endings: Vec<(Vec<gamec_runtime::rules::ending::Condition>, gamec_runtime::rules::ending::Result)>,
    pub pass: bool,
    pub endings: Vec<EndingDef>,
    pub regions: Vec<Vec<u8>>,
    /// Whose turn it is matters to no rule: positions are the same whoever is to move.
    pub impartial: bool,
    /// Some move may leave its mover to move again.
    pub again: bool,
    pub first: u8,
    pub player_names: Vec<String>,
    pub state_names: Vec<String>,
    /// 1 for a puzzle, else 2.
    pub players: u8,
    /// The cells of each row, and of each column (a line is one row).
    pub rows: Vec<Vec<u8>>,
    pub columns: Vec<Vec<u8>>,
}

impl Engine {
    pub fn new(game: &GameDef) -> Engine {
        let (shape, cell_list, len) = match &game.rules.board {
            Layout::Line(l) => (
                Shape::Line { cells: l.cells as u8, numbered_from_right: l.numbered_from_right },
                (0..l.cells as u8).collect(),
                l.cells as usize,
            ),
            Layout::Grid(g) => {
                let stride = g.stride() as usize;
                let list = (0..g.rows).flat_map(|r| (0..g.cols).map(move |c| (r as usize * stride) as u8 + c as u8));
                let list = list.filter(|c| !g.cut.contains(c));
                (Shape::Grid { cols: g.cols as u8, rows: g.rows as u8 }, list.collect(), g.rows as usize * stride)
            }
            Layout::Heaps(h) => (Shape::Heaps { heaps: h.heaps as u8, pits: h.pits }, Vec::new(), h.heaps as usize),
        };
        let player_count = |x: &Count| {
            matches!(
                x,
                Count::Pieces { whose: Whose::Player(_), .. }
                    | Count::Cells { what: What::Pieces(Whose::Player(_)), .. }
            )
        };
        let conditions = game
            .rules
            .endings
            .iter()
            .flat_map(|e| &e.conditions)
            .chain(game.rules.moves.iter().flat_map(|m| &m.condition));
        let names_a_player = game
            .rules
            .endings
            .iter()
            .any(|e| matches!(e.result, EndResult::Wins(Whose::Player(_)) | EndResult::Loses(Whose::Player(_))))
            || conditions
                .into_iter()
                .any(|c| matches!(c, Condition::Compare { lhs, rhs, .. } if player_count(lhs) || player_count(rhs)));
        let (cut, stride) = match &game.rules.board {
            Layout::Grid(g) => (g.cut.clone(), g.stride() as usize),
            _ => (Vec::new(), STRIDE),
        };
        let (rows, columns) = match shape {
            Shape::Grid { cols, rows } => (
                (0..rows as usize)
                    .map(|r| (0..cols).map(|c| (r * stride) as u8 + c).filter(|c| !cut.contains(c)).collect())
                    .collect(),
                (0..cols)
                    .map(|c| (0..rows as usize).map(|r| (r * stride) as u8 + c).filter(|c| !cut.contains(c)).collect())
                    .collect(),
            ),
            Shape::Line { cells, .. } => (vec![(0..cells).collect()], (0..cells).map(|c| vec![c]).collect()),
            Shape::Heaps { .. } => (Vec::new(), Vec::new()),
        };
        Engine {
            shape,
            stride,
            cell_list,
            len,
            per_player: game.rules.piece.per_player,
            moves: game.rules.moves.iter().map(|m| m.kind).collect(),
            programs: game.rules.moves.iter().map(core::program).collect(),
            cut,
            core_endings: game.rules.endings.iter().map(core::ending_of).collect(),
            pass: game.rules.pass,
            endings: game.rules.endings.clone(),
            regions: game.rules.regions.iter().map(|r| r.cells.clone()).collect(),
            impartial: !game.rules.piece.per_player
                && !names_a_player
                && !matches!(game.rules.board, Layout::Heaps(HeapsBoard { pits: Some(_), .. })),
            again: game.rules.moves.iter().any(|m| matches!(m.kind, MoveKind::Sow(SowDef { again: true, .. }))),
            first: game.rules.first as u8,
            player_names: game.rules.players.iter().map(|p| p.node.clone()).collect(),
            state_names: game.rules.states.iter().map(|s| s.node.clone()).collect(),
            players: game.rules.players.len().clamp(1, 2) as u8,
            rows,
            columns,
        }
    }

    /// The player after `p`: the other one, or the puzzle's only player again.
    pub fn after(&self, p: u8) -> u8 {
        (p + 1) % self.players
    }

    /// The start position of a fixed setup (an empty board when none is given). Random
    /// setups have many starts: [`Engine::placements`].
    pub fn fixed_start(&self, game: &GameDef) -> State {
        let mut cells = vec![0u8; self.len];
        match self.shape {
            Shape::Heaps { .. } => {
                for (h, &n) in game.rules.fixed_heaps().iter().enumerate() {
                    cells[h] = n as u8;
                }
            }
            _ => {
                if let Some(setup) = game.rules.setup.first() {
                    return self.start_of(game, setup);
                }
            }
        }
        State { cells, to_move: game.rules.first as u8, passed: false, given: 0 }
    }

    /// The start a fixed setup of a line or grid gives: its cells are the given ones.
    pub fn start_of(&self, game: &GameDef, setup: &SetupDef) -> State {
        let mut cells = vec![0u8; self.len];
        for (c, v) in setup.filled() {
            cells[c as usize] = v;
        }
        // Givens matter to `cycle free` alone, which the language allows on 64 cells at most.
        let given = cells.iter().enumerate().filter(|&(i, &v)| v != 0 && i < 64).fold(0u64, |m, (i, _)| m | 1 << i);
        State { cells, to_move: game.rules.first as u8, passed: false, given }
    }

    /// Every placement of a line game's shared pieces, the first player to move: the starts a
    /// random setup chooses among.
    pub fn placements(&self, pieces: u32) -> Vec<State> {
        let n = self.cell_list.len() as u32;
        (0u32..1 << n)
            .filter(|m| m.count_ones() == pieces)
            .map(|m| {
                let cells = (0..n).map(|i| (m >> i & 1) as u8).collect();
                State { cells, to_move: self.first, passed: false, given: 0 }
            })
            .collect()
    }

    /// Positions that differ only in whose turn it is are one position in an impartial game:
    /// the solver's key for a state.
    pub fn normalise(&self, mut s: State) -> State {
        if self.impartial {
            s.to_move = 0;
        }
        s
    }
}
