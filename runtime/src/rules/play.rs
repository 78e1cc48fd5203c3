//! Playing a game's actions: every legal move with the position it leads to, a move made and
//! undone in place, all by one walk through the actions' programs.

use super::{content, Geometry, Holds, Kinds, Region};
use core::marker::PhantomData;

mod walk;
#[cfg(test)]
pub(crate) use walk::nesting;
pub use walk::{run_nesting, Emit, Every, Program, Walk, RUN};

/// The most cells a move's path records: its origin, then every cell it chose (a long chain of
/// jumps ends here).
pub const MAX_PATH: usize = 16;
/// The most cell changes a move can make. The compiler checks a game's actions fit.
pub const MAX_CHANGES: usize = 64;

/// A position's cells as the rules read and change them, a byte each, with the cells the
/// start gave (what a `free` pick passes by): cell `c` is bit `c % 8` of byte `c / 8`.
///
/// One concrete type rather than a trait, so that a chip holds one copy of the rules' code.
pub struct Board<'a> {
    pub cells: &'a mut [u8],
    pub given: &'a [u8],
}

impl<'a> Board<'a> {
    /// Cells without givens.
    pub fn new(cells: &'a mut [u8]) -> Self {
        Board { cells, given: &[] }
    }
    pub fn get(&self, cell: u8) -> u8 {
        self.cells[cell as usize]
    }
    pub fn set(&mut self, cell: u8, value: u8) {
        self.cells[cell as usize] = value;
    }
    /// Whether the start filled `cell`.
    pub fn given(&self, cell: u8) -> bool {
        self.given.get(cell as usize / 8).is_some_and(|b| b >> (cell % 8) & 1 == 1)
    }
    /// The same board, borrowed again for a shorter while.
    pub fn reborrow(&mut self) -> Board<'_> {
        Board { cells: &mut *self.cells, given: self.given }
    }
}

/// A move: its action and the cells it chose, in order (for counters taken from a heap, the
/// heap and the count). Cells past `len` are 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Path {
    pub action: u8,
    pub len: u8,
    pub cells: [u8; MAX_PATH],
}

impl Path {
    pub fn new(action: u8, cells: &[u8]) -> Path {
        let mut path = Path { action, len: cells.len() as u8, cells: [0; MAX_PATH] };
        path.cells[..cells.len()].copy_from_slice(cells);
        path
    }
    pub fn cells(&self) -> &[u8] {
        &self.cells[..self.len as usize]
    }
    /// Back to the first `len` cells; the rest read 0 again, so that equal moves compare equal.
    fn truncate(&mut self, len: usize) {
        self.cells[len..].fill(0);
        self.len = len as u8;
    }
    fn push(&mut self, cell: u8) {
        self.cells[self.len as usize] = cell;
        self.len += 1;
    }
}

/// Room for the changes one move makes: an array as long as the game's moves need
/// ([`Rules::most_changes`]), so that a small chip's walk does not carry the most any game
/// could make.
pub trait Log: Copy + core::fmt::Debug {
    /// Every slot unused.
    const EMPTY: Self;
    fn slots(&self) -> &[(u8, u8)];
    fn slots_mut(&mut self) -> &mut [(u8, u8)];
}

impl<const N: usize> Log for [(u8, u8); N] {
    const EMPTY: Self = [(0, 0); N];
    fn slots(&self) -> &[(u8, u8)] {
        self
    }
    fn slots_mut(&mut self) -> &mut [(u8, u8)] {
        self
    }
}

/// The most changes a move of any game may make: the host's log.
pub type AnyLog = [(u8, u8); MAX_CHANGES];

/// The changes a move made, oldest first, to undo it.
#[derive(Debug, Clone, Copy)]
pub struct Changes<L = AnyLog> {
    len: u8,
    was: L,
    /// The mover moves again ([`super::Sow::again`]).
    pub again: bool,
}

impl<L: Log> Changes<L> {
    const fn new() -> Changes<L> {
        Changes { len: 0, was: L::EMPTY, again: false }
    }

    /// Puts every changed cell back as it was.
    pub fn undo(&self, cells: &mut [u8]) {
        for &(cell, value) in self.was.slots()[..self.len as usize].iter().rev() {
            cells[cell as usize] = value;
        }
    }
}

/// A game's rules: its board and actions, and the [`Program`] that plays their ops.
#[derive(Debug, Clone, Copy)]
pub struct Rules<'a, P = Every> {
    pub geometry: Geometry<'a>,
    pub actions: &'a [super::Action<'a>],
    /// The cells of each region the file declares.
    pub regions: &'a [&'a [u8]],
    /// Pieces belong to players (else a piece is shared, and `Put` puts a shared one).
    pub per_player: bool,
    /// The cells are heaps, each holding a count of counters.
    pub heaps: bool,
    /// The heaps are pits in a ring, a row a side ([`super::Pits`]).
    pub pits: Option<super::Pits>,
    /// 1 for a puzzle, else 2.
    pub players: u8,
    pub program: PhantomData<P>,
}

impl<P: Program> Rules<'_, P> {
    /// Every legal move of `mover`, each handed to `emit` with the board as the move leaves
    /// it; the board is as it was when this returns. While a `must` action can be taken, only
    /// such actions are. Returns the number of moves.
    pub fn moves(&self, board: &mut Board, mover: u8, mut emit: impl FnMut(&Path, &[u8])) -> usize {
        let mut n = 0;
        for must in [true, false] {
            for (a, action) in self.actions.iter().enumerate().filter(|(_, x)| x.must == must) {
                let mut walk = Walk::new(self, board.reborrow(), mover, a as u8, None);
                walk.run(action, 0, &mut emit);
                n += walk.emitted;
            }
            if n > 0 {
                break;
            }
        }
        n
    }

    /// Makes `path` on the board if it is a legal choice of its action's program (the
    /// precedence of `must` actions aside: that is [`Rules::moves`]' business), returning the
    /// changes to undo it; `None`, with the board unchanged, if it is not.
    pub fn play(&self, board: &mut Board, mover: u8, path: &Path) -> Option<Changes<P::Log>> {
        let action = self.actions.get(path.action as usize)?;
        let mut walk = Walk::new(self, board.reborrow(), mover, path.action, Some(path));
        walk.run(action, 0, &mut |_: &Path, _: &[u8]| {});
        walk.emitted.eq(&1).then_some(walk.changes)
    }

    /// A bound on the legal moves of any position reached from `start`, the sum over actions
    /// of the choices each op can make; `None` where the walk sets none (a chain's rounds, a
    /// heap's counts). A picked piece is one of the most any player has at the start, where no
    /// op adds pieces; else any cell. The compiler sizes a chip's move lists by it, which keep
    /// every move only if it is never short.
    pub fn most_moves(&self, start: &[u8]) -> Option<usize> {
        use super::{Op, FAR};
        let g = &self.geometry;
        let cells = (0..g.rows as usize * g.stride as usize).filter(|&c| g.on_board(c as u8)).count();
        let adds = |op: &Op| matches!(op, Op::Put { .. } | Op::Flank { .. } | Op::Cycle { .. } | Op::Around { .. });
        let pieces = match self.actions.iter().any(|a| a.ops.iter().any(adds)) {
            true => cells,
            false => (0..self.players)
                .map(|p| start.iter().filter(|&&c| content::kind_and_owner(c).is_some_and(|(_, o)| o == p)).count())
                .max()
                .unwrap_or(0),
        };
        let across = g.cols.max(g.rows) as usize;
        let mut total = 0usize;
        for a in self.actions {
            let mut branches = 1usize;
            for op in a.ops {
                let choices = match *op {
                    Op::Pick { what: Holds::Mine(_) | Holds::Theirs(_), .. } => pieces,
                    Op::Pick { .. } => cells,
                    Op::Step { dirs, .. } | Op::Jump { dirs, .. } => dirs.bits.count_ones() as usize,
                    Op::Ride { dirs, min, max, .. } => {
                        let far = if max == FAR { across } else { (max as usize).min(across) };
                        dirs.bits.count_ones() as usize * (far + 1).saturating_sub(min as usize)
                    }
                    Op::Chain { .. } | Op::Take { .. } => return None,
                    _ => 1,
                };
                branches = branches.saturating_mul(choices);
            }
            total = total.saturating_add(branches);
        }
        Some(total)
    }

    /// A bound on the cells one move changes (each change is logged to undo it): the sum over
    /// an action's ops of what each may change, a chain's ops counted once for every round the
    /// move's path has room for; the most over the actions, at most [`MAX_CHANGES`] (a walk
    /// past it stops with a panic, on the host as on a chip). The compiler sizes a chip's log
    /// by it ([`Program::Log`]).
    pub fn most_changes(&self) -> usize {
        use super::Op;
        let g = &self.geometry;
        let across = g.cols.max(g.rows) as usize;
        let changes = |op: &Op| match *op {
            Op::Jump { capture, .. } => capture as usize,
            Op::Take { .. } | Op::Put { .. } | Op::Cycle { .. } | Op::Promote { .. } => 1,
            Op::Carry => 2,
            Op::ClearRun => across,
            Op::Around { dirs, .. } => dirs.bits.count_ones() as usize,
            Op::Flank { dirs, .. } => dirs.bits.count_ones() as usize * across.saturating_sub(2),
            Op::Pick { .. } | Op::Step { .. } | Op::Ride { .. } | Op::Rests { .. } | Op::Chain { .. } => 0,
            // A sowing logs each pit of the ring once.
            Op::Sow(_) => g.rows as usize * g.stride as usize,
        };
        let action = |a: &super::Action| {
            let once: usize = a.ops.iter().map(changes).sum();
            let rounds: usize = a
                .ops
                .iter()
                .enumerate()
                .map(|(pc, op)| match *op {
                    Op::Chain { to } => {
                        (MAX_PATH - 1) * a.ops[(to as usize).min(pc)..pc].iter().map(changes).sum::<usize>()
                    }
                    _ => 0,
                })
                .sum();
            once + rounds
        };
        self.actions.iter().map(action).max().unwrap_or(0).clamp(1, MAX_CHANGES)
    }

    /// Whether a cell holding `value` holds what `h` asks, for `mover`.
    pub fn holds(&self, value: u8, h: Holds, mover: u8) -> bool {
        let owned = |kinds: Kinds, mine: bool| {
            self.per_player && content::kind_and_owner(value).is_some_and(|(k, o)| kinds.has(k) && (o == mover) == mine)
        };
        match h {
            Holds::Empty => value == content::EMPTY,
            Holds::Anything => true,
            Holds::Occupied => value != content::EMPTY,
            Holds::Mine(k) => owned(k, true),
            Holds::Theirs(k) => owned(k, false),
            Holds::EmptyOrTheirs => value == content::EMPTY || owned(Kinds::ALL, false),
        }
    }

    fn in_region(&self, cell: u8, region: Region, player: u8) -> bool {
        match region {
            Region::Declared(r) => self.regions.get(r as usize).is_some_and(|cells| cells.contains(&cell)),
            Region::FarRow => self.geometry.on_far_row(cell, player),
        }
    }
}

#[cfg(test)]
mod tests;
