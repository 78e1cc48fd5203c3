//! Playing a game's actions: every legal move with the position it leads to, a move made and
//! undone in place, all by one walk through the actions' programs.

use super::ending::Judged;
use super::geometry::each;
use super::{content, Action, Geometry, Holds, Kinds, Op, Region};

/// The most cells a move's path records: its origin, then every cell it chose (a long chain of
/// jumps ends here).
pub const MAX_PATH: usize = 16;
/// The most cell changes a move can make. The compiler checks a game's actions fit.
pub const MAX_CHANGES: usize = 64;

/// A position's cells, as the rules read and change them.
pub trait Board {
    fn get(&self, cell: u8) -> u8;
    fn set(&mut self, cell: u8, value: u8);
    /// Whether the setup filled `cell` (a `free` pick passes it by).
    fn given(&self, _cell: u8) -> bool {
        false
    }
}

impl Board for [u8] {
    fn get(&self, cell: u8) -> u8 {
        self[cell as usize]
    }
    fn set(&mut self, cell: u8, value: u8) {
        self[cell as usize] = value;
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

/// The changes a move made, oldest first, to undo it.
#[derive(Debug, Clone, Copy)]
pub struct Changes {
    len: u8,
    was: [(u8, u8); MAX_CHANGES],
}

impl Changes {
    const fn new() -> Changes {
        Changes { len: 0, was: [(0, 0); MAX_CHANGES] }
    }

    /// Puts every changed cell back as it was.
    pub fn undo<B: Board + ?Sized>(&self, board: &mut B) {
        for &(cell, value) in self.was[..self.len as usize].iter().rev() {
            board.set(cell, value);
        }
    }
}

/// A game's rules: its board and actions.
#[derive(Debug, Clone, Copy)]
pub struct Rules<'a> {
    pub geometry: Geometry<'a>,
    pub actions: &'a [super::Action<'a>],
    /// The cells of each region the file declares.
    pub regions: &'a [&'a [u8]],
    /// Pieces belong to players (else a piece is shared, and `Put` puts a shared one).
    pub per_player: bool,
    /// The cells are heaps, each holding a count of counters.
    pub heaps: bool,
    /// 1 for a puzzle, else 2.
    pub players: u8,
}

impl Rules<'_> {
    /// Every legal move of `mover`, each handed to `emit` with the board as the move leaves
    /// it; the board is as it was when this returns. While a `must` action can be taken, only
    /// such actions are. Returns the number of moves.
    pub fn moves<B: Board + ?Sized>(&self, board: &mut B, mover: u8, mut emit: impl FnMut(&Path, &B)) -> usize {
        let mut n = 0;
        for must in [true, false] {
            for (a, action) in self.actions.iter().enumerate().filter(|(_, x)| x.must == must) {
                let mut walk = Walk::new(self, board, mover, a as u8, None);
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
    pub fn play<B: Board + ?Sized>(&self, board: &mut B, mover: u8, path: &Path) -> Option<Changes> {
        let action = self.actions.get(path.action as usize)?;
        let mut walk = Walk::new(self, board, mover, path.action, Some(path));
        walk.run(action, 0, &mut |_: &Path, _: &B| {});
        walk.emitted.eq(&1).then_some(walk.changes)
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

/// One action's program being walked: the choices so far, the cursor, the changes made.
struct Walk<'w, 'a, B: ?Sized> {
    rules: &'w Rules<'a>,
    board: &'w mut B,
    mover: u8,
    /// The move to make, when making one rather than listing them all.
    target: Option<&'w Path>,
    path: Path,
    origin: u8,
    cursor: u8,
    /// The direction (a bit of [`super::Dirs`]) of the last step, jump or ride.
    dir: u8,
    changes: Changes,
    emitted: usize,
}

impl<'w, 'a, B: Board + ?Sized> Walk<'w, 'a, B> {
    fn new(rules: &'w Rules<'a>, board: &'w mut B, mover: u8, action: u8, target: Option<&'w Path>) -> Self {
        let path = Path { action, len: 0, cells: [0; MAX_PATH] };
        Walk { rules, board, mover, target, path, origin: 0, cursor: 0, dir: 1, changes: Changes::new(), emitted: 0 }
    }

    /// Made the target move: stop, and keep its changes.
    fn done(&self) -> bool {
        self.target.is_some() && self.emitted > 0
    }

    fn set(&mut self, cell: u8, value: u8) {
        let n = self.changes.len as usize;
        assert!(n < MAX_CHANGES, "a move changed more than {MAX_CHANGES} cells");
        self.changes.was[n] = (cell, self.board.get(cell));
        self.changes.len += 1;
        self.board.set(cell, value);
    }

    fn undo_to(&mut self, mark: u8) {
        while self.changes.len > mark {
            self.changes.len -= 1;
            let (cell, value) = self.changes.was[self.changes.len as usize];
            self.board.set(cell, value);
        }
    }

    fn holds(&self, cell: u8, h: Holds) -> bool {
        self.rules.holds(self.board.get(cell), h, self.mover)
    }

    /// The program from `pc` on, the move so far being `self.path`.
    fn run(&mut self, action: &Action, pc: usize, emit: &mut dyn FnMut(&Path, &B)) {
        let Some(&op) = action.ops.get(pc) else {
            if !action.conditions.is_empty() {
                let next = (self.mover + 1) % self.rules.players;
                let mut pos = Judged { board: &mut *self.board, to_move: next };
                if !action.conditions.iter().all(|c| self.rules.condition(c, &mut pos)) {
                    return;
                }
            }
            if self.target.is_none_or(|t| *t == self.path) {
                self.emitted += 1;
                emit(&self.path, self.board);
            }
            return;
        };
        let g = self.rules.geometry;
        let mover = self.mover;
        let dirs_of = |d: super::Dirs| d.of(mover);
        match op {
            Op::Pick { what, free } => {
                for cell in g.cells() {
                    if self.holds(cell, what) && !(free && self.board.given(cell)) {
                        let (origin, cursor) = (self.origin, self.cursor);
                        (self.origin, self.cursor) = (cell, cell);
                        self.choose(&[cell], action, pc, emit);
                        (self.origin, self.cursor) = (origin, cursor);
                        if self.done() {
                            return;
                        }
                    }
                }
            }
            Op::Step { dirs, to } => {
                for bit in each(dirs_of(dirs)) {
                    self.dir = bit;
                    if let Some(t) = g.toward(self.cursor, bit, 1).filter(|&t| self.holds(t, to)) {
                        if self.land(t, None, action, pc, emit) {
                            return;
                        }
                    }
                }
            }
            Op::Jump { dirs, over, to, capture } => {
                for bit in each(dirs_of(dirs)) {
                    self.dir = bit;
                    let Some(mid) = g.toward(self.cursor, bit, 1).filter(|&m| self.holds(m, over)) else { continue };
                    let Some(t) = g.toward(self.cursor, bit, 2).filter(|&t| self.holds(t, to)) else { continue };
                    if self.land(t, capture.then_some(mid), action, pc, emit) {
                        return;
                    }
                }
            }
            Op::Ride { dirs, min, max, over, to } => {
                let here = self.cursor;
                if min == 0 && self.holds(here, to) && self.land(here, None, action, pc, emit) {
                    return;
                }
                for bit in each(dirs_of(dirs)) {
                    self.dir = bit;
                    let mut d = 1;
                    while let Some(t) = g.toward(self.cursor, bit, d).filter(|_| d <= max) {
                        if d >= min && self.holds(t, to) && self.land(t, None, action, pc, emit) {
                            return;
                        }
                        if !self.holds(t, over) {
                            break;
                        }
                        d += 1;
                    }
                }
            }
            Op::Rests { dir } => {
                let below = each(dirs_of(dir)).next().and_then(|bit| g.toward(self.cursor, bit, 1));
                if below.is_none_or(|b| self.board.get(b) != content::EMPTY) {
                    self.run(action, pc + 1, emit);
                }
            }
            Op::Take { min, max } => {
                for heap in g.cells() {
                    let n = self.board.get(heap);
                    let top = if max == 0 { n } else { max.min(n) };
                    for count in min.max(1)..=top {
                        let mark = self.changes.len;
                        self.set(heap, n - count);
                        self.choose(&[heap, count], action, pc, emit);
                        if self.done() {
                            return;
                        }
                        self.undo_to(mark);
                    }
                }
            }
            Op::Put { kind } => {
                let piece = if self.rules.per_player { content::piece(kind, self.mover) } else { content::SHARED };
                self.effect(action, pc, emit, |w| w.set(w.cursor, piece));
            }
            Op::Carry => {
                let (origin, cursor) = (self.origin, self.cursor);
                let piece = self.board.get(origin);
                let mark = self.changes.len;
                self.set(origin, content::EMPTY);
                self.set(cursor, piece);
                self.origin = cursor;
                self.run(action, pc + 1, emit);
                if self.done() {
                    return;
                }
                self.origin = origin;
                self.undo_to(mark);
            }
            Op::ClearRun => self.effect(action, pc, emit, |w| {
                let mut at = w.origin;
                w.set(at, content::EMPTY);
                while at != w.cursor {
                    let Some(next) = g.toward(at, w.dir, 1) else { break };
                    at = next;
                    w.set(at, content::EMPTY);
                }
            }),
            Op::Cycle { order } => {
                if let Some(next) = order.next(self.board.get(self.cursor)) {
                    self.effect(action, pc, emit, |w| w.set(w.cursor, next));
                }
            }
            Op::Around { dirs, order } => self.effect(action, pc, emit, |w| {
                for bit in each(dirs_of(dirs)) {
                    if let Some(t) = g.toward(w.cursor, bit, 1) {
                        if let Some(next) = order.next(w.board.get(t)) {
                            w.set(t, next);
                        }
                    }
                }
            }),
            Op::Flank { dirs, required } => {
                let mark = self.changes.len;
                let mut turned = 0;
                for bit in each(dirs_of(dirs)) {
                    turned += self.turn_over(bit);
                }
                if turned > 0 || !required {
                    self.run(action, pc + 1, emit);
                }
                if !self.done() {
                    self.undo_to(mark);
                }
            }
            Op::Promote { kind, region } => {
                let cell = self.cursor;
                let mine = self.holds(cell, Holds::Mine(Kinds::ALL));
                if mine && self.rules.in_region(cell, region, self.mover) {
                    let piece = content::piece(kind, self.mover);
                    self.effect(action, pc, emit, |w| w.set(cell, piece));
                } else {
                    self.run(action, pc + 1, emit);
                }
            }
            Op::Chain { to } => {
                let room = (self.path.len as usize) < MAX_PATH;
                // Making a move, it may stop here only if the chain cannot go on: look first
                // as if listing (listing, nothing emitted from `to` says the same).
                let goes_on = room
                    && self.target.take().is_some_and(|target| {
                        let before = self.emitted;
                        self.run(action, to as usize, &mut |_: &Path, _: &B| {});
                        let more = self.emitted > before;
                        (self.emitted, self.target) = (before, Some(target));
                        more
                    });
                let before = self.emitted;
                if room {
                    self.run(action, to as usize, emit);
                }
                if !goes_on && self.emitted == before && self.target.is_none_or(|t| *t == self.path) {
                    self.emitted += 1;
                    emit(&self.path, self.board);
                }
            }
        }
    }

    /// Records `cells` as the next choice and runs on, unless the move being made chose
    /// otherwise.
    fn choose(&mut self, cells: &[u8], action: &Action, pc: usize, emit: &mut dyn FnMut(&Path, &B)) {
        let len = self.path.len as usize;
        if len + cells.len() > MAX_PATH {
            return;
        }
        if let Some(t) = self.target {
            if t.len < self.path.len + cells.len() as u8 || t.cells[len..len + cells.len()] != *cells {
                return;
            }
        }
        for &c in cells {
            self.path.push(c);
        }
        self.run(action, pc + 1, emit);
        if !self.done() {
            self.path.truncate(len);
        }
    }

    /// The cursor moves to `to` (emptying `captured` on the way) and the program runs on;
    /// true once the move being made has been made.
    fn land(
        &mut self,
        to: u8,
        captured: Option<u8>,
        action: &Action,
        pc: usize,
        emit: &mut dyn FnMut(&Path, &B),
    ) -> bool {
        let (cursor, mark) = (self.cursor, self.changes.len);
        if let Some(c) = captured {
            self.set(c, content::EMPTY);
        }
        self.cursor = to;
        self.choose(&[to], action, pc, emit);
        if self.done() {
            return true;
        }
        self.cursor = cursor;
        self.undo_to(mark);
        false
    }

    /// Applies `change`, runs on, and undoes it unless the move being made was made.
    fn effect(&mut self, action: &Action, pc: usize, emit: &mut dyn FnMut(&Path, &B), change: impl FnOnce(&mut Self)) {
        let mark = self.changes.len;
        change(self);
        self.run(action, pc + 1, emit);
        if !self.done() {
            self.undo_to(mark);
        }
    }

    /// Turns over the run of the opponent's pieces from the cursor in direction `bit` that
    /// one of the mover's ends; returns how many turned.
    fn turn_over(&mut self, bit: u8) -> usize {
        let g = self.rules.geometry;
        let mut d = 1;
        while let Some(t) = g.toward(self.cursor, bit, d) {
            if self.holds(t, Holds::Theirs(Kinds::ALL)) {
                d += 1;
                continue;
            }
            if d > 1 && self.holds(t, Holds::Mine(Kinds::ALL)) {
                for k in 1..d {
                    let cell = g.toward(self.cursor, bit, k).unwrap_or(t);
                    let kind = content::kind_and_owner(self.board.get(cell)).map_or(0, |(k, _)| k);
                    self.set(cell, content::piece(kind, self.mover));
                }
                return d as usize - 1;
            }
            break;
        }
        0
    }
}

#[cfg(test)]
mod tests;
