//! Resolved definitions: what a game or board file means, with names checked and spans kept.
//!
//! Cells of a line are numbered 1..=N as the file numbers them and kept as 0-based indices
//! (index = number - 1); a slide's direction is the sign of the index change
//! ([`LineBoard::step_toward`]), so later stages never think about left and right again.

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

/// A game file's meaning, by concern: the rules (what any reading of the game plays), the
/// device's player, the ways a person plays it, the file's tests, and for a game of cards its
/// deck and table. Each concern refers to the rules' names, never the reverse.
#[derive(Debug, Clone)]
pub struct GameDef {
    pub name: Ident,
    pub rules: RulesDef,
    /// How the device plays its side.
    pub device: DeviceDef,
    /// How a person plays: buttons and lights, a cursor on a matrix, a serial line.
    pub interface: InterfaceDef,
    /// Tests the file carries, run by `gamec test`.
    pub tests: Vec<TestDef>,
    /// A game of cards on a table, and the groups of them to find.
    pub cards: Option<CardsDef>,
}

impl GameDef {
    /// The device's player: the side its strategy names, or the side that does not move first.
    pub fn device_side(&self) -> usize {
        self.device.strategy.as_ref().and_then(|s| s.player).unwrap_or(1 - self.rules.first.min(1))
    }

    /// The person's player at the device: the side the device does not play, or the one side
    /// of a game alone.
    pub fn person(&self) -> usize {
        match self.rules.players.len() {
            0 | 1 => 0,
            _ => 1 - self.device_side().min(1),
        }
    }
}
