//! The moves: each action a player may take, as the move form the file writes it in.

use super::{content, Condition};
use crate::ast::Ident;
use crate::Span;

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
    /// One shared piece moves `min..=max` cells along the line.
    Slide {
        /// +1 or -1: the change of cell index per step.
        step: i8,
        min: u32,
        /// `None`: as far as the board allows.
        max: Option<u32>,
        /// Every cell passed over must be empty (the landing cell always must be).
        over_empty: bool,
    },
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
