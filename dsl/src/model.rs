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
    /// Exactly two players, in the order written.
    pub players: Vec<Ident>,
    /// Index into `players` of who moves first.
    pub first: usize,
    pub board: Layout,
    pub piece: PieceDef,
    /// Constraints of a random setup (line games).
    pub setup: Vec<Constraint>,
    /// Where each player's pieces start (grid games): player index and cell indices.
    pub fixed_setup: Vec<(usize, Vec<u8>)>,
    pub actions: Vec<SlideDef>,
    pub places: Vec<PlaceDef>,
    /// A player without a move passes instead of losing.
    pub pass: bool,
    pub end: EndDef,
    pub strategy: Option<StrategyDef>,
    pub eval: Option<EvalDef>,
    pub controls: Vec<ControlDef>,
    pub idle: Option<IdleDef>,
    pub views: Vec<ViewDef>,
    pub events: Vec<EventDef>,
    pub tunes: Vec<TuneDef>,
}

/// The shape of the board.
#[derive(Debug, Clone)]
pub enum Layout {
    Line(LineBoard),
    Grid(GridBoard),
}

impl Layout {
    pub fn cells(&self) -> u32 {
        match self {
            Layout::Line(l) => l.cells,
            Layout::Grid(g) => g.cols * g.rows,
        }
    }
    pub fn span(&self) -> Span {
        match self {
            Layout::Line(l) => l.span,
            Layout::Grid(g) => g.span,
        }
    }
}

impl GameDef {
    /// The line, for games played on one.
    pub fn line(&self) -> Option<&LineBoard> {
        match &self.board {
            Layout::Line(l) => Some(l),
            Layout::Grid(_) => None,
        }
    }
    pub fn grid(&self) -> Option<&GridBoard> {
        match &self.board {
            Layout::Grid(g) => Some(g),
            Layout::Line(_) => None,
        }
    }
}

/// A grid with columns lettered from A and rows numbered from 1; cell index = row * 8 + column.
#[derive(Debug, Clone)]
pub struct GridBoard {
    pub cols: u32,
    pub rows: u32,
    pub span: Span,
}

/// The place mechanic: a piece goes on an empty cell and captures by flanking.
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
    /// Interchangeable pieces shared by both players (`pieces dollar x 5`); 0 for `per player`.
    pub count: u32,
    /// Each player has pieces of their own (`pieces disc per player`).
    pub per_player: bool,
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
    pub player: usize,
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

/// What an evaluation can weigh: the mover's count minus the opponent's, except `Empty`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// Pieces on the board.
    Pieces,
    /// Legal moves.
    Mobility,
    /// Pieces on the grid's corners.
    Corners,
    /// Pieces on its border, corners excluded.
    Edges,
    /// Pieces diagonally next to a corner.
    XSquares,
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
    /// How many physical inputs this control needs.
    pub fn arity(&self, game: &GameDef) -> u32 {
        if self.per_piece {
            game.piece.count
        } else {
            1
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ControlAction {
    /// Each press moves the chosen piece one more step with the named action.
    Extend { action: usize },
    /// Ends the turn with the move entered so far.
    Commit,
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
}

#[derive(Debug, Clone)]
pub enum Response {
    /// Index into `tunes`.
    Tune(usize),
    Animate(Animation),
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
}

#[derive(Debug, Clone, Default)]
pub struct Budget {
    pub flash: Option<Spanned<u32>>,
    pub ram: Option<Spanned<u32>>,
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
