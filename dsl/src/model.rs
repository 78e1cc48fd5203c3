//! Resolved definitions: what a game or board file means, with names checked and spans kept.
//!
//! Cells of a line are numbered 1..=N as the file numbers them; [`LineBoard::index`] turns a
//! number into a 0-based index where index = number - 1, and `toward` is expressed as the sign
//! of the index change, so later stages never think about left and right again.

use crate::ast::{CmpOp, Ident, Spanned};
use crate::Span;

#[derive(Debug, Clone)]
pub struct GameDef {
    pub name: Ident,
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
    /// Constraints of a random setup (line games).
    pub setup: Vec<Constraint>,
    /// Every fixed setup; with several, the player chooses one (a puzzle's tableaux).
    pub setups: Vec<SetupDef>,
    /// Where each player's pieces start in the first fixed setup: player index and cell indices.
    pub fixed_setup: Vec<(usize, Vec<u8>)>,
    /// Where shared pieces start (a fixed setup on a line): cell indices.
    pub fixed_shared: Vec<u8>,
    /// The heaps' sizes at the start.
    pub fixed_heaps: Vec<u32>,
    /// Every action, in the order declared: the moves a player may make.
    pub moves: Vec<MoveDef>,
    /// The slide actions among `moves` (what the line-game firmware plays).
    pub actions: Vec<SlideDef>,
    /// The capturing placements among `moves` (what the grid-game firmware plays).
    pub places: Vec<PlaceDef>,
    /// A player without a move passes instead of losing.
    pub pass: bool,
    /// How the game ends: tried in order after every move.
    pub endings: Vec<EndingDef>,
    /// The endings in the two shapes today's firmware runtime knows, when they have one.
    pub end: Option<EndDef>,
    pub strategy: Option<StrategyDef>,
    pub eval: Option<EvalDef>,
    pub controls: Vec<ControlDef>,
    pub idle: Option<IdleDef>,
    pub views: Vec<ViewDef>,
    pub events: Vec<EventDef>,
    pub tunes: Vec<TuneDef>,
    /// Controls and feedback over a serial line, for games played by a host.
    pub serial: Option<SerialDef>,
    /// Tests the file carries, run by `gamec test`.
    pub tests: Vec<TestDef>,
    /// The cursor of a game played with one, and how it shows.
    pub cursor: Option<CursorDef>,
    /// The start-up show.
    pub intro: Vec<SceneDef>,
    /// Letters for scrolling text.
    pub font: Vec<GlyphDef>,
    /// A game of cards on a table, and the groups of them to find.
    pub cards: Option<CardsDef>,
}

/// A deck of cards, one of every combination of the attributes' values, and the table they
/// are laid on.
#[derive(Debug, Clone)]
pub struct CardsDef {
    pub attributes: Vec<AttributeDef>,
    /// Cards the table holds, in `rows` rows of `cols`.
    pub capacity: u32,
    pub rows: u32,
    pub cols: u32,
    pub group: GroupDef,
    pub span: Span,
}

/// An attribute: its values, numbered from 0 in the order written, held in `width` bits of the
/// card's code from bit `lo`.
#[derive(Debug, Clone)]
pub struct AttributeDef {
    pub name: Ident,
    pub values: Vec<Ident>,
    pub lo: u8,
    pub width: u8,
}

impl AttributeDef {
    /// The field's bits, shifted down to bit 0: all 32 of them for a field as wide as the code,
    /// where `(1 << width) - 1` would overflow.
    pub fn mask(&self) -> u32 {
        u32::MAX >> (32 - u32::from(self.width).clamp(1, 32))
    }
}

impl CardsDef {
    /// Cards in the deck (one for every combination of the attributes' values), counted
    /// without listing them; saturates far beyond any deck worth listing.
    pub fn deck_size(&self) -> u64 {
        self.attributes.iter().fold(1u64, |n, a| n.saturating_mul(a.values.len() as u64))
    }
}

/// `group NAME = K cards where ...`: what makes K cards of the table a group.
#[derive(Debug, Clone)]
pub struct GroupDef {
    pub name: Ident,
    pub size: u32,
    /// Per attribute (index into `attributes`), how its values relate across the group;
    /// attributes no rule names are free.
    pub rules: Vec<Option<crate::ast::Relation>>,
    pub span: Span,
}

/// One fixed start: what each cell holds, heap sizes aside.
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

/// A test in a game file: from a position, play moves, then check what must hold.
#[derive(Debug, Clone)]
pub struct TestDef {
    pub name: Spanned<String>,
    /// A position written out; `None` starts from the game's fixed setup.
    pub from: Option<PositionDef>,
    /// Moves in the game's notation, resolved against the rules when the test runs.
    pub moves: Vec<Ident>,
    pub expects: Vec<Spanned<ExpectDef>>,
}

/// A position: each player's pieces, shared pieces, heap sizes, and who is to move.
#[derive(Debug, Clone, Default)]
pub struct PositionDef {
    pub cells: Vec<(usize, Vec<u8>)>,
    /// Pieces of a further kind: player, kind (1 onward) and cells.
    pub kinds: Vec<(usize, u8, Vec<u8>)>,
    pub shared: Vec<u8>,
    /// Cells holding a state: state index and cell indices.
    pub states: Vec<(usize, Vec<u8>)>,
    pub heaps: Vec<u32>,
    pub to_move: usize,
}

#[derive(Debug, Clone)]
pub enum ExpectDef {
    /// Exactly these moves are legal.
    Legal(Vec<Ident>),
    /// None of these moves is legal.
    Illegal(Vec<Ident>),
    /// The game is not over.
    NotOver,
    /// Every reply the device's strategy may choose is among these.
    Device(Vec<Ident>),
    /// The game is over with this result.
    Result(EndResult),
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

/// One action: a move primitive a player may use on their turn.
#[derive(Debug, Clone)]
pub struct MoveDef {
    pub name: Ident,
    pub kind: MoveKind,
    /// While a `must` action can be taken, no other can (mandatory capture).
    pub must: bool,
    /// Conditions that must hold once the move is made (`place ... where ...`).
    pub condition: Vec<Condition>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveKind {
    /// One shared piece moves `min..=max` cells along the line (`step` is the index change).
    Slide { step: i8, min: u32, max: Option<u32>, over_empty: bool },
    /// The mover's piece goes on an empty cell; with `capture`, only where it flanks a line of
    /// the opponent's pieces in one of that many directions (4 or 8), which turns over.
    Place { capture: Option<u8> },
    /// The mover's piece goes on the lowest empty cell of a column (row 1 is the lowest).
    Drop,
    /// `min..=max` counters leave one heap.
    Remove { min: u32, max: Option<u32> },
    /// A cell's contents step to the next in `order` (wrapping); only cells the setup left
    /// empty when `free`. With `around`, its neighbours in those directions step too.
    Cycle { free: bool, order: CycleOrder, around: Option<Directions> },
    /// A piece of one kind moves by itself: a step, a jump or a ride.
    Travel(TravelDef),
    /// A run of `min..=max` pieces next to each other along a line is taken off.
    RemoveRun { min: u32, max: Option<u32> },
    /// A pit of the mover's side is emptied and its counters sown around the ring of pits.
    Sow(SowDef),
}

/// How a sowing goes ([`MoveKind::Sow`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SowDef {
    /// The mover's own store is sown into.
    pub into_store: bool,
    /// A lap passes over the pit the counters came from.
    pub skip_origin: bool,
    /// A last counter in the mover's store gives another move.
    pub again: bool,
    pub capture: SowCaptureDef,
}

/// What a sowing's last counter captures, into the mover's store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SowCaptureDef {
    Nothing,
    /// In an empty pit of the mover's, facing one that is not: both.
    Opposite,
    /// Making an opponent's pit hold `min..=max`: it, and the pits before it on that side
    /// that hold as many.
    Making {
        min: u32,
        max: u32,
    },
}

/// Compass directions, a bit each from north clockwise (north is toward higher rows, east
/// toward higher columns); with `relative`, as the mover sees them (the second player's
/// forward is south).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Directions {
    pub bits: u8,
    pub relative: bool,
}

/// How a piece moves by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TravelDef {
    pub how: crate::ast::Travel,
    /// The kind of piece that moves (0: the first named).
    pub kind: u8,
    pub directions: Directions,
    /// What a jump leaps over, or what a ride passes over.
    pub over: crate::ast::Target,
    /// What the landing cell holds (an enemy is taken).
    pub to: crate::ast::Target,
    /// A jump takes the piece it leaps over.
    pub capturing: bool,
    /// The piece jumps on from where it lands while it can.
    pub chained: bool,
    /// The kind it becomes on reaching the place.
    pub promote: Option<(u8, Goal)>,
}

/// A place a piece may reach: a region the file declares, or the mover's far row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    Region(usize),
    FarRow,
}

/// The contents a cycle steps through, as [`content`] numbers them, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CycleOrder {
    values: [u8; content::MAX_STATES + 3],
    len: u8,
}

impl CycleOrder {
    pub fn new(values: &[u8]) -> CycleOrder {
        let mut order = CycleOrder { values: [0; content::MAX_STATES + 3], len: values.len() as u8 };
        order.values[..values.len()].copy_from_slice(values);
        order
    }
    pub fn values(&self) -> &[u8] {
        &self.values[..self.len as usize]
    }
    /// What follows `v`; `None` when `v` is not in the cycle.
    pub fn next(&self, v: u8) -> Option<u8> {
        let vals = self.values();
        vals.iter().position(|&x| x == v).map(|i| vals[(i + 1) % vals.len()])
    }
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

impl GameDef {
    /// The most a feature of this game's evaluation can be either way ([`Feature::reach`]).
    pub fn feature_reach(&self, f: Feature) -> Reach {
        f.reach(&self.board, &self.piece, &self.moves, &self.regions)
    }

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

    /// The device's player: the side its strategy names, or the side that does not move first.
    pub fn device_side(&self) -> usize {
        self.strategy.as_ref().and_then(|s| s.player).unwrap_or(1 - self.first.min(1))
    }

    /// The person's player at the device: the side the device does not play, or the one side
    /// of a game alone.
    pub fn person(&self) -> usize {
        match self.players.len() {
            0 | 1 => 0,
            _ => 1 - self.device_side().min(1),
        }
    }

    /// How many lights show the game: one per cell, or one per counter of the heaps' start.
    pub fn lights(&self) -> u32 {
        match &self.board {
            Layout::Heaps(_) => self.fixed_heaps.iter().sum(),
            b => b.cells(),
        }
    }

    pub fn heaps(&self) -> Option<&HeapsBoard> {
        match &self.board {
            Layout::Heaps(h) => Some(h),
            _ => None,
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

/// A capturing placement: a piece goes on an empty cell and turns over the lines it flanks.
#[derive(Debug, Clone)]
pub struct PlaceDef {
    pub name: Ident,
    /// 4 (orthogonal) or 8 (orthogonal and diagonal).
    pub directions: u8,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndDef {
    /// The player to move has none: with `last_mover_wins` (normal play) that player has lost.
    NoMoves { last_mover_wins: bool },
    /// Neither player can move (passing included): the one with most pieces on the board wins
    /// (or loses, if `most_wins` is false); equal counts are a draw.
    NeitherCanMove { most_wins: bool },
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

/// The slide mechanic: one piece moves `min..=max` cells in one direction.
#[derive(Debug, Clone)]
pub struct SlideDef {
    pub name: Ident,
    /// +1 or -1: the change of cell index per step.
    pub step: i8,
    pub min: u32,
    /// `None`: as far as the board allows.
    pub max: Option<u32>,
    /// Every cell passed over must be empty (the landing cell always must be).
    pub over_empty: bool,
    pub span: Span,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrategyKind {
    /// Solved by the compiler: winning moves whenever one exists.
    Perfect,
    /// Any legal move, uniformly.
    Random,
    /// Alpha-beta search over the rules, scored by the game's `eval`.
    Search,
}

#[derive(Debug, Clone)]
pub struct ControlDef {
    pub name: Ident,
    /// `move[i]`: one control per piece, numbered from 1 (the leftmost piece).
    pub per_piece: bool,
    pub action: ControlAction,
}

impl ControlDef {
    /// How many physical inputs this control needs: one per piece, or per heap.
    pub fn arity(&self, game: &GameDef) -> u32 {
        match (self.per_piece, &game.board) {
            (false, _) => 1,
            (true, Layout::Heaps(h)) => h.heaps,
            // A player's own pieces: as many as the person has at the start.
            (true, _) if game.piece.per_player => {
                let person = game.person();
                game.fixed_setup.iter().filter(|(p, _)| *p == person).map(|(_, cells)| cells.len() as u32).sum()
            }
            (true, _) => game.piece.count,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ControlAction {
    /// Each press enters the next move of the named action (index into `moves`) from the
    /// chosen piece or heap: one more step of a slide, one more counter from a heap.
    Extend { action: usize },
    /// Ends the turn with the move entered so far.
    Commit,
    /// Moves a cursor a column (`across`) or a row; `across` also steps through the setups
    /// while one is being chosen.
    Cursor { across: bool },
    /// Back to choosing a setup.
    Restart,
}

#[derive(Debug, Clone)]
pub struct IdleDef {
    pub after_ms: u32,
    /// Index into `controls` of the control that wakes the device.
    pub wake: Option<usize>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ViewDef {
    pub name: Ident,
    pub source: ViewSource,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewSource {
    /// One light per cell, lit while a piece stands on it.
    Occupied,
    /// A bicolour matrix: each cell's colour by what it holds.
    Colours(ContentColours),
}

/// The colour of each content (as [`content`] numbers them, up to [`content::state`] of the
/// last state); unnamed contents are off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ContentColours(pub [Colour; 3 + content::MAX_STATES]);

impl ContentColours {
    pub fn of(&self, content: u8) -> Colour {
        self.0.get(content as usize).copied().unwrap_or(Colour::Off)
    }
}

/// A colour of a bicolour LED.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Colour {
    #[default]
    Off,
    Red,
    Green,
    /// Both LEDs of the cell.
    Yellow,
}

impl Colour {
    pub fn parse(name: &str) -> Colour {
        match name {
            "red" => Colour::Red,
            "green" => Colour::Green,
            "yellow" => Colour::Yellow,
            _ => Colour::Off,
        }
    }
}

/// How the cursor shows: it blinks between the cell's colour and what the cell would hold
/// next, or `given` on a cell the setup gave.
#[derive(Debug, Clone, Copy)]
pub struct CursorDef {
    pub blink_ms: u32,
    pub given: Colour,
    pub span: Span,
}

/// A scene of the start-up show.
#[derive(Debug, Clone)]
pub enum SceneDef {
    /// Rings from the centre, one more every `step_ms`.
    Starburst { step_ms: u32, colours: [Colour; 2] },
    /// The text, as indices into the font, scrolled a column every `step_ms`.
    Scroll { glyphs: Vec<usize>, step_ms: u32, colours: [Colour; 2] },
}

/// A letter of the game's font: its columns from the left, bit r lighting row r from the top.
#[derive(Debug, Clone)]
pub struct GlyphDef {
    pub name: char,
    pub columns: Vec<u8>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// Between games, until the first control is pressed.
    Attract,
    /// An illegal press, or a commit with nothing entered.
    Denied,
    /// A press that extended the move.
    Accepted,
    /// The game ended with this player (index) the winner.
    Win(usize),
    /// A chosen setup is started.
    Start,
    /// While a setup is being chosen.
    Choosing,
}

#[derive(Debug, Clone)]
pub enum Response {
    /// Index into `tunes`.
    Tune(usize),
    Animate(Animation),
    /// The whole display blinks with this half-period in milliseconds.
    Blink(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Animation {
    /// One light sweeping from end to end and back.
    Cylon,
}

#[derive(Debug, Clone)]
pub struct EventDef {
    pub event: EventKind,
    pub response: Response,
    /// The whole display flashes this colour with this half-period meanwhile.
    pub flash: Option<(Colour, u32)>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct TuneDef {
    pub name: Ident,
    pub notes: Vec<NoteDef>,
}

#[derive(Debug, Clone)]
pub struct NoteDef {
    /// MIDI note number (A4 = 69); `None` is a rest.
    pub midi: Option<u8>,
    pub millis: u32,
    pub span: Span,
}

impl NoteDef {
    /// Frequency in hertz of a MIDI note, equal temperament from A4 = 440 Hz.
    pub fn frequency(midi: u8) -> f64 {
        440.0 * 2f64.powf((midi as f64 - 69.0) / 12.0)
    }
}

// ------------------------------------------------------------------ serial sessions

/// A game played over a serial line: the commands the host sends, and what the device says.
#[derive(Debug, Clone)]
pub struct SerialDef {
    pub commands: Vec<CommandDef>,
    /// At most one per event; an event without one sends nothing.
    pub says: Vec<SayDef>,
    /// The character a board dump shows for each player's pieces, in `players` order.
    pub piece_glyphs: Vec<u8>,
    pub empty_glyph: u8,
    /// An empty cell the host may play on, in the dump before its turn.
    pub legal_glyph: u8,
    /// The glyphs of the further kinds of piece (`black king "B"`): the first player's and
    /// the second's of kind 1, then of kind 2, ...
    pub kind_glyphs: Vec<u8>,
    /// The glyph of each state a cell may hold, in `states` order.
    pub state_glyphs: Vec<u8>,
    pub span: Span,
}

impl SerialDef {
    pub fn say(&self, event: SessionEvent) -> Option<&SayDef> {
        self.says.iter().find(|s| s.event == event)
    }
}

/// Every lamp a game's feedback lights, once each, in the order it first appears; a lamp's
/// position here is its number in the firmware.
pub fn lamp_names(game: &GameDef) -> Vec<&Ident> {
    let mut out: Vec<&Ident> = Vec::new();
    for say in game.serial.iter().flat_map(|s| &s.says) {
        for part in &say.parts {
            if let SayPart::Light(name) = part {
                if !out.iter().any(|n| n.node == name.node) {
                    out.push(name);
                }
            }
        }
    }
    out
}

#[derive(Debug, Clone)]
pub struct CommandDef {
    /// The command word, matched exactly at the start of a line.
    pub word: String,
    pub arg: CommandArgDef,
    pub action: SessionAction,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandArgDef {
    None,
    /// A cell such as `D3`.
    Cell,
    /// A column such as `D`, for a drop.
    Column,
    /// A move as the cells it goes through, `C3-E5-C7`.
    Move,
    /// A word naming a side: the word and the player index it stands for.
    Side(Vec<(String, usize)>),
    /// A decimal number; out of range is the `bad value` event.
    Number {
        min: u32,
        max: u32,
    },
}

/// What a command does, in terms every turn-based serial game shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionAction {
    /// Answers `accepted` and nothing else.
    Ping,
    /// Acknowledges what the device awaits (after `await`); gives up a turn that was too late.
    Ack,
    /// After `too late`: the host tries its turn again with a fresh clock.
    Retry,
    /// The game starts again from its setup with the same sides.
    Restart,
    /// The host takes the side named by the argument; the device plays the other.
    HostPlaysSide,
    NewGame,
    /// The game ends now and is scored as it stands.
    EndGame,
    /// Sets the move clock of both sides, in seconds; `default` applies at start and when a
    /// value is out of range.
    MoveTime {
        default: u32,
    },
    /// Plays the host's move with the given action (index into `moves`: a placement or a drop).
    Play(usize),
    /// Plays any legal move, named by the cells it goes through.
    PlayMove,
    /// The host passes, which it may only do without a legal move.
    Pass,
}

/// Everything the device may have to say; each is bound to a response in the game file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEvent {
    /// A new game waits for the host to choose its side.
    PickSide,
    /// The host is to move and has a legal move.
    YourTurn,
    /// The host is to move and has none.
    MustPass,
    /// The host's move was played.
    Moved,
    /// A command that needs no other answer was done.
    Accepted,
    Restarted,
    /// A move or pass that the rules or the turn do not allow; nothing changes.
    Denied,
    /// A move or pass after the move clock ran out.
    TooLate,
    /// A number out of its range.
    BadValue,
    /// A line that is no command, or longer than the line buffer.
    Unknown,
    DeviceMoves,
    DevicePasses,
    NeitherCanMove,
    GameOver,
    WinDevice,
    WinHost,
    Draw,
}

impl SessionEvent {
    pub const ALL: [SessionEvent; 17] = [
        SessionEvent::PickSide,
        SessionEvent::YourTurn,
        SessionEvent::MustPass,
        SessionEvent::Moved,
        SessionEvent::Accepted,
        SessionEvent::Restarted,
        SessionEvent::Denied,
        SessionEvent::TooLate,
        SessionEvent::BadValue,
        SessionEvent::Unknown,
        SessionEvent::DeviceMoves,
        SessionEvent::DevicePasses,
        SessionEvent::NeitherCanMove,
        SessionEvent::GameOver,
        SessionEvent::WinDevice,
        SessionEvent::WinHost,
        SessionEvent::Draw,
    ];

    /// The event as a game file writes it.
    pub fn name(self) -> &'static str {
        match self {
            SessionEvent::PickSide => "pick side",
            SessionEvent::YourTurn => "your turn",
            SessionEvent::MustPass => "must pass",
            SessionEvent::Moved => "moved",
            SessionEvent::Accepted => "accepted",
            SessionEvent::Restarted => "restarted",
            SessionEvent::Denied => "denied",
            SessionEvent::TooLate => "too late",
            SessionEvent::BadValue => "bad value",
            SessionEvent::Unknown => "unknown",
            SessionEvent::DeviceMoves => "device moves",
            SessionEvent::DevicePasses => "device passes",
            SessionEvent::NeitherCanMove => "neither can move",
            SessionEvent::GameOver => "game over",
            SessionEvent::WinDevice => "win device",
            SessionEvent::WinHost => "win host",
            SessionEvent::Draw => "draw",
        }
    }
}

#[derive(Debug, Clone)]
pub struct SayDef {
    pub event: SessionEvent,
    pub parts: Vec<SayPart>,
    pub span: Span,
}

/// One step of a response, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SayPart {
    /// A line of text, ended by `\r\n` when sent.
    Line(Vec<TextPart>),
    /// The board, a row a line, with the host's legal cells marked on its turn.
    Board,
    /// Waits for the host's `ack` before going on.
    Await,
    /// Lights a lamp the board wires (by name) until the next game.
    Light(Ident),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextPart {
    Text(String),
    /// `{cell}`: the device's move.
    Cell,
    /// `{column}`: the column of the device's move.
    Column,
    /// `{device}`, `{host}`: that side's pieces on the board.
    Count {
        device: bool,
    },
}

// ------------------------------------------------------------------ boards

#[derive(Debug, Clone)]
pub struct BoardDef {
    pub name: Ident,
    pub chip: Ident,
    pub clock_hz: u32,
    pub clock_span: Span,
    pub budget: Budget,
    pub displays: Vec<DisplayDef>,
    pub buttons: Vec<ButtonDef>,
    pub speaker: Option<SpeakerDef>,
    /// The serial port a game's protocol runs on.
    pub serial: Option<SerialPortDef>,
    /// Serial ports given to a game's serial devices by role (`for console`, `for scanner`).
    pub serial_roles: Vec<SerialPortDef>,
    /// The timer that counts milliseconds, where nothing else implies one.
    pub tick: Option<Ident>,
    pub leds: Vec<LampDef>,
    /// A bicolour LED matrix.
    pub matrix: Option<MatrixDef>,
    pub encoders: Vec<EncoderDef>,
    /// A serial EEPROM holding the game's setups.
    pub eeprom: Option<EepromDef>,
    /// How the board is programmed, where the file says.
    pub programmer: Option<ProgrammerDef>,
}

/// A board's programmer (avrdude's `-c`, or probe-rs's probe) and the port it is on.
#[derive(Debug, Clone)]
pub struct ProgrammerDef {
    pub name: Spanned<String>,
    pub port: Option<Spanned<String>>,
    pub span: Span,
}

/// A hardware serial port and its speed (8 data bits, no parity, one stop bit).
/// A bicolour matrix multiplexed a column at a time from a timer.
#[derive(Debug, Clone)]
pub struct MatrixDef {
    pub name: Ident,
    /// Row 1 (the top) first.
    pub rows: Vec<Spanned<Pin>>,
    /// Column A first.
    pub red: Vec<Spanned<Pin>>,
    pub green: Vec<Spanned<Pin>>,
    pub columns_active_high: bool,
    /// Column ticks a second.
    pub refresh_hz: u32,
    pub timer: Ident,
    pub span: Span,
}

/// A rotary encoder's two contacts.
#[derive(Debug, Clone)]
pub struct EncoderDef {
    pub name: Ident,
    pub a: Spanned<Pin>,
    pub b: Spanned<Pin>,
    pub span: Span,
}

/// A 93C46 serial EEPROM.
#[derive(Debug, Clone)]
pub struct EepromDef {
    pub name: Ident,
    pub cs: Spanned<Pin>,
    pub sk: Spanned<Pin>,
    pub di: Spanned<Pin>,
    pub dout: Spanned<Pin>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct SerialPortDef {
    pub port: Ident,
    pub baud: u32,
    /// The game's device on this port, if it is not the game's protocol line.
    pub role: Option<Ident>,
    /// Bytes the device ends each frame with (a scanner's configured suffix).
    pub suffix: Vec<u8>,
    pub span: Span,
}

/// A single LED that feedback lights by name.
#[derive(Debug, Clone)]
pub struct LampDef {
    pub name: Ident,
    pub pin: Spanned<Pin>,
    /// Lit when the pin is driven low (the LED's cathode on the pin).
    pub active_low: bool,
    pub span: Span,
}

#[derive(Debug, Clone, Default)]
pub struct Budget {
    pub flash: Option<Spanned<u32>>,
    /// Static RAM and, where it has a bound, the deepest stack.
    pub ram: Option<Spanned<u32>>,
    /// The deepest stack alone.
    pub stack: Option<Spanned<u32>>,
}

/// A pin as the board names it: a port letter and a bit, with no knowledge of any chip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pin {
    pub port: char,
    pub bit: u8,
}

impl std::fmt::Display for Pin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "P{}{}", self.port, self.bit)
    }
}

#[derive(Debug, Clone)]
pub struct DisplayDef {
    pub name: Ident,
    pub pins: Vec<Spanned<Pin>>,
    pub refresh_hz: u32,
    pub timer: Ident,
    /// One per cell number 1..=N, in order.
    pub leds: Vec<LedDef>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct LedDef {
    pub cell: u32,
    pub anode: Pin,
    pub cathode: Pin,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ButtonDef {
    pub control: Ident,
    /// For per-piece controls: which piece, from 1.
    pub index: Option<u32>,
    pub pin: Spanned<Pin>,
    pub pullup: bool,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct SpeakerDef {
    pub pin: Spanned<Pin>,
    pub timer: Ident,
    pub span: Span,
}
