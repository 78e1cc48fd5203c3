//! The rules: the players, the board and its regions, the pieces, the setups, the endings.

use super::MoveDef;
use crate::ast::{CmpOp, Ident, Spanned};
use crate::Span;

/// The rules: what every reading of the game (the engine, the rule core on a chip, the fast
/// readings) plays.
#[derive(Debug, Clone)]
pub struct RulesDef {
    /// One player (a puzzle) or two, in the order written.
    pub players: Vec<Ident>,
    /// What a cell may hold besides nothing and the players' pieces (a puzzle's colours).
    pub states: Vec<Ident>,
    /// Index into `players` of who moves first.
    pub first: usize,
    pub board: Layout,
    /// Named sets of cells, in the order declared.
    pub regions: Vec<RegionDef>,
    pub piece: PieceDef,
    /// How the game starts: fixed setups, or a deal at random.
    pub setup: Setups,
    /// Every action, in the order declared: the moves a player may make.
    pub moves: Vec<MoveDef>,
    /// A player without a move passes instead of losing.
    pub pass: bool,
    /// How the game ends: tried in order after every move.
    pub endings: Vec<EndingDef>,
}

impl RulesDef {
    /// The line, for games played on one.
    pub fn line(&self) -> Option<&LineBoard> {
        match &self.board {
            Layout::Line(l) => Some(l),
            _ => None,
        }
    }

    /// The cells as columns and rows: a grid's, or a line as one row (what a cursor moves
    /// over); `None` for heaps.
    pub fn columns_and_rows(&self) -> Option<(u32, u32)> {
        match &self.board {
            Layout::Grid(g) => Some((g.cols, g.rows)),
            Layout::Line(l) => Some((l.cells, 1)),
            Layout::Heaps(_) => None,
        }
    }

    pub fn grid(&self) -> Option<&GridBoard> {
        match &self.board {
            Layout::Grid(g) => Some(g),
            _ => None,
        }
    }

    pub fn heaps(&self) -> Option<&HeapsBoard> {
        match &self.board {
            Layout::Heaps(h) => Some(h),
            _ => None,
        }
    }

    /// Where each player's pieces start in the first fixed setup: player index and cell
    /// indices (none for a start dealt at random).
    pub fn fixed_pieces(&self) -> &[(usize, Vec<u8>)] {
        self.setup.first().map_or(&[], |s| &s.pieces)
    }

    /// Where shared pieces start in the first fixed setup (on a line): cell indices.
    pub fn fixed_shared(&self) -> &[u8] {
        self.setup.first().map_or(&[], |s| &s.shared)
    }

    /// The heaps' sizes at the start (none off heaps).
    pub fn fixed_heaps(&self) -> &[u32] {
        self.setup.first().map_or(&[], |s| &s.heaps)
    }

    /// How many lights show the game: one per cell, or one per counter of the heaps' start.
    pub fn lights(&self) -> u32 {
        match &self.board {
            Layout::Heaps(_) => self.fixed_heaps().iter().sum(),
            b => b.cells(),
        }
    }
}

/// The shape of the board.
#[derive(Debug, Clone)]
pub enum Layout {
    Line(LineBoard),
    Grid(GridBoard),
    Heaps(HeapsBoard),
}

impl Layout {
    /// Cells of a line or grid; heaps have none.
    pub fn cells(&self) -> u32 {
        match self {
            Layout::Line(l) => l.cells,
            Layout::Grid(g) => g.cols * g.rows,
            Layout::Heaps(_) => 0,
        }
    }
    pub fn span(&self) -> Span {
        match self {
            Layout::Line(l) => l.span,
            Layout::Grid(g) => g.span,
            Layout::Heaps(h) => h.span,
        }
    }
}

#[derive(Debug, Clone)]
pub struct LineBoard {
    pub cells: u32,
    /// True when cell 1 is the rightmost cell.
    pub numbered_from_right: bool,
    pub span: Span,
}

impl LineBoard {
    /// Index step that moves a piece one cell toward `right` (or left).
    pub fn step_toward(&self, right: bool) -> i8 {
        if right == self.numbered_from_right {
            -1
        } else {
            1
        }
    }
}

/// A grid with columns lettered from A and rows numbered from 1; cell index = row * stride +
/// column.
#[derive(Debug, Clone)]
pub struct GridBoard {
    pub cols: u32,
    pub rows: u32,
    /// Cells cut away from the rectangle, in increasing order.
    pub cut: Vec<u8>,
    pub span: Span,
}

impl GridBoard {
    /// Cell indices a row apart: 8 on grids of up to 8 columns (a 64-bit board's bit per
    /// cell), 16 on wider ones, so that a 16 x 16 grid's cells still fit a byte.
    pub fn stride(&self) -> u32 {
        if self.cols <= 8 {
            8
        } else {
            16
        }
    }
}

/// Heaps of interchangeable counters.
#[derive(Debug, Clone)]
pub struct HeapsBoard {
    pub heaps: u32,
    /// The heaps are pits in a ring, a side each player's.
    pub pits: Option<PitsBoard>,
    pub span: Span,
}

/// A ring of pits (`board pits 6 per side with stores`): heap `side * (per_side + stores) +
/// k` is pit `k` of that side, the side's store after its last pit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PitsBoard {
    pub per_side: u32,
    pub stores: bool,
}

impl PitsBoard {
    /// Cells a side: its pits and its store.
    pub fn side(&self) -> u32 {
        self.per_side + u32::from(self.stores)
    }
}

/// A named set of cells (indices as the layout numbers them).
#[derive(Debug, Clone)]
pub struct RegionDef {
    pub name: Ident,
    pub cells: Vec<u8>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct PieceDef {
    pub name: Ident,
    /// Interchangeable pieces shared by both players (`pieces token x 5`); 0 for `per player`
    /// and for the counters of heaps.
    pub count: u32,
    /// Each player has pieces of their own (`pieces disc per player`).
    pub per_player: bool,
    /// Further kinds of a player's piece (`pieces man, king per player`): kind 1 onward.
    pub kinds: Vec<Ident>,
}

impl PieceDef {
    /// The kind a name stands for: 0 for the piece, 1 onward for the further kinds.
    pub fn kind(&self, name: &str) -> Option<u8> {
        std::iter::once(&self.name).chain(&self.kinds).position(|k| k.node == name).map(|k| k as u8)
    }
}

/// What a cell holds, as one number: the same numbering in every reading of the rules.
pub mod content {
    /// Nothing.
    pub const EMPTY: u8 = 0;
    /// A shared piece (pieces that belong to nobody).
    pub const SHARED: u8 = 1;
    /// The most states a game may declare.
    pub const MAX_STATES: usize = 6;
    /// A player's piece.
    pub const fn piece(player: usize) -> u8 {
        1 + player as u8
    }
    /// One of the states the game declares: after both players' pieces.
    pub const fn state(k: usize) -> u8 {
        3 + k as u8
    }
    /// A player's piece of a kind: kind 0 is [`piece`]; further kinds come after the states
    /// (the runtime's rule core numbers them the same, which a compiler test holds).
    pub const fn piece_of_kind(kind: u8, player: usize) -> u8 {
        if kind == 0 {
            piece(player)
        } else {
            3 + MAX_STATES as u8 + 2 * (kind - 1) + player as u8
        }
    }
}

/// How a game starts.
#[derive(Debug, Clone)]
pub enum Setups {
    /// Fixed starts, the first of them the start when nobody chooses; with several, the player
    /// chooses one (a puzzle's tableaux). None: the board starts empty.
    Fixed(Vec<SetupDef>),
    /// The shared pieces dealt at random on the line, every deal meeting each constraint (none
    /// given: any deal).
    Random { require: Vec<Constraint> },
}

impl Setups {
    /// Every fixed setup, in the order written; none for a deal at random.
    pub fn fixed(&self) -> &[SetupDef] {
        match self {
            Setups::Fixed(setups) => setups,
            Setups::Random { .. } => &[],
        }
    }

    /// The first fixed setup, the start when nobody chooses.
    pub fn first(&self) -> Option<&SetupDef> {
        self.fixed().first()
    }

    /// What every deal of a random setup meets; none for fixed setups.
    pub fn require(&self) -> &[Constraint] {
        match self {
            Setups::Fixed(_) => &[],
            Setups::Random { require } => require,
        }
    }

    /// Whether the start is dealt at random.
    pub fn is_random(&self) -> bool {
        matches!(self, Setups::Random { .. })
    }
}

/// One fixed start: what each cell holds, or on heaps each heap's size.
#[derive(Debug, Clone)]
pub struct SetupDef {
    /// The setup's name, when the game has several to choose from.
    pub name: Option<Spanned<String>>,
    /// Each player's pieces: player index and cell indices.
    pub pieces: Vec<(usize, Vec<u8>)>,
    /// Each player's pieces of a further kind: player index, kind (1 onward) and cells.
    pub kinds: Vec<(usize, u8, Vec<u8>)>,
    /// Shared pieces' cells.
    pub shared: Vec<u8>,
    /// Cells holding a state: state index and cell indices.
    pub states: Vec<(usize, Vec<u8>)>,
    /// The heaps' sizes, on heaps (where a game has one setup).
    pub heaps: Vec<u32>,
    pub span: Span,
}

impl SetupDef {
    /// Every cell the setup fills, with its contents as [`content`] numbers them.
    pub fn filled(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        let pieces = self.pieces.iter().flat_map(|(p, at)| at.iter().map(move |&c| (c, content::piece(*p))));
        let shared = self.shared.iter().map(|&c| (c, content::SHARED));
        let kinds =
            self.kinds.iter().flat_map(|(p, k, at)| at.iter().map(move |&c| (c, content::piece_of_kind(*k, *p))));
        pieces
            .chain(kinds)
            .chain(shared)
            .chain(self.states.iter().flat_map(|(k, at)| at.iter().map(move |&c| (c, content::state(*k)))))
    }
}

#[derive(Debug, Clone)]
pub enum Constraint {
    /// The given player (an index into `players`) wins the start position with perfect play.
    Winnable {
        player: usize,
        span: Span,
    },
    Compare {
        lhs: Quantity,
        op: CmpOp,
        rhs: Quantity,
        span: Span,
    },
}

/// A number the setup constraints can talk about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    Const(u32),
    /// Cell number of the leftmost piece.
    Leftmost,
    /// Cell number of the rightmost piece.
    Rightmost,
}

/// `conditions -> result`: the first ending whose conditions all hold ends the game.
#[derive(Debug, Clone)]
pub struct EndingDef {
    pub conditions: Vec<Condition>,
    pub result: EndResult,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// The mover has `k` pieces in a row along one of 4 (orthogonal) or 8 directions.
    InARow {
        k: u8,
        directions: u8,
    },
    /// No empty cell is left.
    Full,
    /// The player to move has no legal move (passing aside).
    NoMoves,
    /// Neither player has a legal move.
    NeitherCanMove,
    /// No two full rows (`rows: true`) or columns are alike.
    Distinct {
        rows: bool,
    },
    Compare {
        lhs: Count,
        op: CmpOp,
        rhs: Count,
    },
}

/// A number an ending can compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    Const(u32),
    /// Pieces (or counters, on heaps) of whose, in a region (index into `regions`) or anywhere.
    Pieces {
        whose: Whose,
        region: Option<usize>,
    },
    /// Cells holding `what` in `scope` (with `run`, the longest unbroken run of them). With
    /// [`Scope::EachRow`] or [`Scope::EachColumn`] the comparison must hold for every line.
    Cells {
        what: What,
        scope: Scope,
        run: bool,
    },
}

/// What a count looks for in a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    Pieces(Whose),
    /// A state, by index.
    State(usize),
    /// Anything but empty; for runs, cells that hold the same.
    Any,
}

/// Where a count looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Board,
    Region(usize),
    EachRow,
    EachColumn,
}

/// Whose pieces or whose result: relative to the move just made, or a named player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    /// The player who just moved.
    Mover,
    /// The player whose turn it would be.
    Next,
    Player(usize),
    /// Everyone's.
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndResult {
    Wins(Whose),
    Loses(Whose),
    Draw,
    /// The player with more pieces on the board wins (`most`), or with fewer; equal is a draw.
    /// `wins: false` turns it around.
    Most {
        most: bool,
        wins: bool,
    },
}
