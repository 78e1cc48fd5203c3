//! The rules of a grid game with placement and flanking capture, on the host: start position,
//! moves with passes, the end, and perft. The mechanics themselves are the runtime's, so the
//! host counts exactly what the firmware plays.

use crate::rules::EndDef;
use gamec_dsl::{GameDef, MoveKind};
use gamec_runtime::grid::{Bits, Grid, KING, ROOK};

/// A position: each player's pieces, whose turn, and whether the last turn was a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub pieces: [Bits; 2],
    pub to_move: usize,
    pub passed: bool,
}

#[derive(Debug, Clone)]
pub struct GridRules {
    pub grid: Grid,
    pub dirs: &'static [(i8, i8)],
    pub can_pass: bool,
    pub most_wins: bool,
    pub start: Position,
}

/// One ply: a placement on a cell, or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ply {
    Place(u8),
    Pass,
}

impl GridRules {
    /// The rules of a grid game of capturing placement ending when neither side can move;
    /// `None` for other games.
    pub fn new(game: &GameDef) -> Option<Self> {
        let g = game.rules.grid()?;
        // A bit a cell of a 64-bit board.
        if g.cols > 8 || g.rows > 8 {
            return None;
        }
        // Exactly one action, a capturing placement; other games are the engine's alone.
        let [place] = game.rules.moves.as_slice() else { return None };
        let MoveKind::Place { capture: Some(directions) } = place.kind else { return None };
        let most_wins = match EndDef::of(&game.rules.endings)? {
            EndDef::NeitherCanMove { most_wins } => most_wins,
            EndDef::NoMoves { .. } => return None,
        };
        let mut pieces = [0u64; 2];
        for (player, cells) in game.rules.fixed_pieces() {
            for &c in cells {
                pieces[*player] |= 1 << c;
            }
        }
        Some(GridRules {
            grid: Grid { cols: g.cols as u8, rows: g.rows as u8 },
            dirs: if directions == 4 { &ROOK } else { &KING },
            can_pass: game.rules.pass,
            most_wins,
            start: Position { pieces, to_move: game.rules.first, passed: false },
        })
    }

    /// Legal plies in `p`; empty when the game is over.
    pub fn plies(&self, p: &Position) -> Vec<Ply> {
        let me = p.pieces[p.to_move];
        let opp = p.pieces[1 - p.to_move];
        let mut moves = self.grid.flank_moves(me, opp, self.dirs);
        if moves == 0 {
            let opponent_can = self.grid.flank_moves(opp, me, self.dirs) != 0;
            return if self.can_pass && opponent_can && !p.passed { vec![Ply::Pass] } else { Vec::new() };
        }
        let mut out = Vec::new();
        while moves != 0 {
            out.push(Ply::Place(moves.trailing_zeros() as u8));
            moves &= moves - 1;
        }
        out
    }

    pub fn play(&self, p: &Position, ply: Ply) -> Position {
        let (me, opp) = (p.to_move, 1 - p.to_move);
        let mut next = *p;
        next.to_move = opp;
        match ply {
            Ply::Pass => next.passed = true,
            Ply::Place(cell) => {
                let at = 1u64 << cell;
                let flips = self.grid.flips(p.pieces[me], p.pieces[opp], at, self.dirs);
                next.pieces[me] |= at | flips;
                next.pieces[opp] &= !flips;
                next.passed = false;
            }
        }
        next
    }

    /// Move paths of `depth` plies: passes count as plies, finished games as leaves.
    pub fn perft(&self, p: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let plies = self.plies(p);
        if plies.is_empty() {
            return 1;
        }
        if depth == 1 {
            return plies.len() as u64;
        }
        plies.iter().map(|&ply| self.perft(&self.play(p, ply), depth - 1)).sum()
    }

    /// The winner of a finished game (`None` for a draw).
    pub fn winner(&self, p: &Position) -> Option<usize> {
        let (a, b) = (p.pieces[0].count_ones(), p.pieces[1].count_ones());
        let most = match a.cmp(&b) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => return None,
        };
        Some(if self.most_wins { most } else { 1 - most })
    }
}
