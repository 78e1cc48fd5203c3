//! The tests a game file carries: a position, moves, and what must then hold (run by `gamec test`).

use super::EndResult;
use crate::ast::{Ident, Spanned};

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
