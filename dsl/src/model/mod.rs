//! Resolved definitions: what a game or board file means, with names checked and spans kept.
//!
//! Cells of a line are numbered 1..=N as the file numbers them; [`LineBoard::index`] turns a
//! number into a 0-based index where index = number - 1, and `toward` is expressed as the sign
//! of the index change, so later stages never think about left and right again.

mod board;
mod cards;
mod interface;
mod moves;
mod rules;
mod serial;
mod strategy;
mod tests;

pub use board::*;
pub use cards::*;
pub use interface::*;
pub use moves::*;
pub use rules::*;
pub use serial::*;
pub use strategy::*;
pub use tests::*;

use crate::ast::Ident;

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
