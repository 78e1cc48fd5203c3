//! One action's program walked: each op's choices and effects, as a method the host's
//! [`every_op`] and a chip's generated match call alike.

use super::super::ending::{Condition, Judged};
use super::super::geometry::each;
use super::super::{content, Action, Dirs, Holds, Kinds, Op, Order, Region};
use super::{AnyLog, Board, Changes, Log, Path, Rules, MAX_PATH};

mod sow;

/// Where the moves a walk finds go: the path, and the board as the move leaves it.
pub type Emit<'e> = &'e mut dyn FnMut(&Path, &[u8]);

/// The ops and conditions a game's programs use, played: [`Every`] plays all the core has, for
/// the host's engine and its tests; a chip's firmware plays the compiler's match over those its
/// game uses, so that the code of the others is not linked. A type, not a pointer, so that the
/// calls are direct and a stack bound can follow them.
pub trait Program: Sized + 'static {
    /// Room for the changes one move makes ([`Rules::most_changes`]).
    type Log: Log;
    /// Plays op `op` at `pc` of `action`'s program, and the rest of the program after it.
    fn play_op(w: &mut Walk<'_, '_, Self>, op: Op, action: &Action, pc: usize, emit: Emit);
    /// Whether condition `c` holds.
    fn judge(r: &Rules<'_, Self>, c: &Condition, pos: &mut Judged) -> bool;
    /// Whether condition `c` of an action (`place ... where ...`) holds once its move is made.
    /// Apart from [`Program::judge`] so that a chip's walk reaches only the conditions its
    /// actions name: an ending's "no moves" walks the programs again, and a stack bound from
    /// the machine code would see that recursion in every walk.
    fn holds_after(r: &Rules<'_, Self>, c: &Condition, pos: &mut Judged) -> bool {
        Self::judge(r, c, pos)
    }
}

/// Every op and condition the core has.
#[derive(Debug, Clone, Copy)]
pub struct Every;

impl Program for Every {
    type Log = AnyLog;

    fn play_op(w: &mut Walk<'_, '_, Self>, op: Op, action: &Action, pc: usize, emit: Emit) {
        match op {
            Op::Pick { what, free } => w.pick(what, free, action, pc, emit),
            Op::Step { dirs, to } => w.step(dirs, to, action, pc, emit),
            Op::Jump { dirs, over, to, capture } => w.jump(dirs, over, to, capture, action, pc, emit),
            Op::Ride { dirs, min, max, over, to } => w.ride(dirs, min, max, over, to, action, pc, emit),
            Op::Rests { dir } => w.rests(dir, action, pc, emit),
            Op::Take { min, max } => w.take(min, max, action, pc, emit),
            Op::Put { kind } => w.put(kind, action, pc, emit),
            Op::Carry => w.carry(action, pc, emit),
            Op::ClearRun => w.clear_run(action, pc, emit),
            Op::Cycle { order } => w.cycle(order, action, pc, emit),
            Op::Around { dirs, order } => w.around(dirs, order, action, pc, emit),
            Op::Flank { dirs, required } => w.flank(dirs, required, action, pc, emit),
            Op::Promote { kind, region } => w.promote(kind, region, action, pc, emit),
            Op::Chain { to } => w.chain(to, action, pc, emit),
            Op::Sow(sow) => w.sow(sow, action, pc, emit),
        }
    }

    fn judge(r: &Rules<'_, Self>, c: &Condition, pos: &mut Judged) -> bool {
        match *c {
            Condition::InARow { k, directions } => r.in_a_row(pos, k, directions),
            Condition::Full => r.full(pos),
            Condition::NoMoves => r.no_moves(pos),
            Condition::NeitherCanMove => r.neither_can_move(pos),
            Condition::Distinct { rows } => r.distinct(pos, rows),
            Condition::Compare { lhs, cmp, rhs } => r.compare(lhs, cmp, rhs, pos),
        }
    }
}

/// The path of [`Walk::run`] as a stack bound names it: the function whose nesting
/// [`run_nesting`] states.
pub const RUN: &str = concat!("<", module_path!(), "::Walk>::run");

/// The most calls of [`Walk::run`] in progress at once while a game of `actions` lists or
/// makes moves; `None` where it has no bound (an action's conditions list moves, which walk
/// the programs again from inside a walk). `gamec build` trusts this to bound the stack of
/// firmware on the rule core, where the machine code shows the recursion and not that it ends.
///
/// Each op of a program runs the rest of it one call deeper, and the walk ends one past the
/// last op: `len + 1`. A chain goes back to an earlier choice, which records a cell on the
/// move's path before the chain is reached again, and the chain goes on only while the path
/// has room: at most [`MAX_PATH`] rounds of the ops from its target to itself. Making a move,
/// a chain first looks ahead from its target with the same room, nested inside the same
/// round. One more for a choice that finds the path full.
pub fn run_nesting(actions: &[Action]) -> Option<u32> {
    let lists_moves = |c: &Condition| matches!(c, Condition::NoMoves | Condition::NeitherCanMove);
    if actions.iter().any(|a| a.conditions.iter().any(lists_moves)) {
        return None;
    }
    let program = |a: &Action| {
        let len = a.ops.len() as u32;
        let rounds = a.ops.iter().enumerate().map(|(pc, op)| match *op {
            Op::Chain { to } => MAX_PATH as u32 * (pc as u32 + 1 - u32::from(to).min(pc as u32)),
            _ => 0,
        });
        len + 2 + rounds.sum::<u32>()
    };
    Some(actions.iter().map(program).max().unwrap_or(1))
}

/// One action's program being walked: the choices so far, the cursor, the changes made.
pub struct Walk<'w, 'a, P: Program> {
    rules: &'w Rules<'a, P>,
    board: Board<'w>,
    mover: u8,
    /// The move to make, when making one rather than listing them all.
    target: Option<&'w Path>,
    path: Path,
    origin: u8,
    cursor: u8,
    /// The direction (a bit of [`Dirs`]) of the last step, jump or ride.
    dir: u8,
    pub(super) changes: Changes<P::Log>,
    pub(super) emitted: usize,
}

impl<'w, 'a, P: Program> Walk<'w, 'a, P> {
    // Out of line: inlined into each of its callers, it costs an AVR chip hundreds of bytes.
    #[inline(never)]
    pub(super) fn new(
        rules: &'w Rules<'a, P>,
        board: Board<'w>,
        mover: u8,
        action: u8,
        target: Option<&'w Path>,
    ) -> Self {
        let path = Path { action, len: 0, cells: [0; MAX_PATH] };
        Walk { rules, board, mover, target, path, origin: 0, cursor: 0, dir: 1, changes: Changes::new(), emitted: 0 }
    }

    /// Made the target move: stop, and keep its changes.
    fn done(&self) -> bool {
        self.target.is_some() && self.emitted > 0
    }

    fn set(&mut self, cell: u8, value: u8) {
        let n = self.changes.len as usize;
        let was = (cell, self.board.get(cell));
        // The log is sized by `Rules::most_changes`; a move past it is a compiler error.
        let slots = self.changes.was.slots_mut();
        assert!(n < slots.len(), "a move changed more cells than its log holds");
        slots[n] = was;
        self.changes.len += 1;
        self.board.set(cell, value);
    }

    fn undo_to(&mut self, mark: u8) {
        while self.changes.len > mark {
            self.changes.len -= 1;
            let (cell, value) = self.changes.was.slots()[self.changes.len as usize];
            self.board.set(cell, value);
        }
    }

    fn holds(&self, cell: u8, h: Holds) -> bool {
        self.rules.holds(self.board.get(cell), h, self.mover)
    }

    fn dirs(&self, d: Dirs) -> u8 {
        d.of(self.mover)
    }

    /// The program from `pc` on, the move so far being `self.path`. Never inlined: the stack
    /// bound counts its calls ([`run_nesting`]).
    #[inline(never)]
    pub(super) fn run(&mut self, action: &Action, pc: usize, emit: Emit) {
        #[cfg(test)]
        let _call = nesting::InProgress::enter();
        match action.ops.get(pc) {
            Some(&op) => P::play_op(self, op, action, pc, emit),
            None => self.finish(action, emit),
        }
    }

    /// The program has run to its end: the move stands if the action's conditions hold once
    /// it is made.
    fn finish(&mut self, action: &Action, emit: Emit) {
        if !action.conditions.is_empty() {
            let next = (self.mover + 1) % self.rules.players;
            let mut pos = Judged { board: self.board.reborrow(), to_move: next };
            if !action.conditions.iter().all(|c| P::holds_after(self.rules, c, &mut pos)) {
                return;
            }
        }
        if self.target.is_none_or(|t| *t == self.path) {
            self.emitted += 1;
            emit(&self.path, self.board.cells);
        }
    }

    /// [`Op::Pick`].
    pub fn pick(&mut self, what: Holds, free: bool, action: &Action, pc: usize, emit: Emit) {
        for cell in self.rules.geometry.cells() {
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

    /// [`Op::Step`].
    pub fn step(&mut self, dirs: Dirs, to: Holds, action: &Action, pc: usize, emit: Emit) {
        for bit in each(self.dirs(dirs)) {
            self.dir = bit;
            if let Some(t) = self.rules.geometry.toward(self.cursor, bit, 1).filter(|&t| self.holds(t, to)) {
                if self.land(t, None, action, pc, emit) {
                    return;
                }
            }
        }
    }

    /// [`Op::Jump`].
    #[allow(clippy::too_many_arguments)] // an op's fields, then the walk's place
    pub fn jump(&mut self, dirs: Dirs, over: Holds, to: Holds, capture: bool, action: &Action, pc: usize, emit: Emit) {
        let g = self.rules.geometry;
        for bit in each(self.dirs(dirs)) {
            self.dir = bit;
            let Some(mid) = g.toward(self.cursor, bit, 1).filter(|&m| self.holds(m, over)) else { continue };
            let Some(t) = g.toward(self.cursor, bit, 2).filter(|&t| self.holds(t, to)) else { continue };
            if self.land(t, capture.then_some(mid), action, pc, emit) {
                return;
            }
        }
    }

    /// [`Op::Ride`].
    #[allow(clippy::too_many_arguments)] // an op's fields, then the walk's place
    pub fn ride(
        &mut self,
        dirs: Dirs,
        min: u8,
        max: u8,
        over: Holds,
        to: Holds,
        action: &Action,
        pc: usize,
        emit: Emit,
    ) {
        let g = self.rules.geometry;
        let here = self.cursor;
        if min == 0 && self.holds(here, to) && self.land(here, None, action, pc, emit) {
            return;
        }
        for bit in each(self.dirs(dirs)) {
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

    /// [`Op::Rests`].
    pub fn rests(&mut self, dir: Dirs, action: &Action, pc: usize, emit: Emit) {
        let below = each(self.dirs(dir)).next().and_then(|bit| self.rules.geometry.toward(self.cursor, bit, 1));
        if below.is_none_or(|b| self.board.get(b) != content::EMPTY) {
            self.run(action, pc + 1, emit);
        }
    }

    /// [`Op::Take`].
    pub fn take(&mut self, min: u8, max: u8, action: &Action, pc: usize, emit: Emit) {
        for heap in self.rules.geometry.cells() {
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

    /// [`Op::Put`].
    pub fn put(&mut self, kind: u8, action: &Action, pc: usize, emit: Emit) {
        let piece = if self.rules.per_player { content::piece(kind, self.mover) } else { content::SHARED };
        self.effect(action, pc, emit, |w| w.set(w.cursor, piece));
    }

    /// [`Op::Carry`].
    pub fn carry(&mut self, action: &Action, pc: usize, emit: Emit) {
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

    /// [`Op::ClearRun`].
    pub fn clear_run(&mut self, action: &Action, pc: usize, emit: Emit) {
        let g = self.rules.geometry;
        self.effect(action, pc, emit, |w| {
            let mut at = w.origin;
            w.set(at, content::EMPTY);
            while at != w.cursor {
                let Some(next) = g.toward(at, w.dir, 1) else { break };
                at = next;
                w.set(at, content::EMPTY);
            }
        })
    }

    /// [`Op::Cycle`].
    pub fn cycle(&mut self, order: Order, action: &Action, pc: usize, emit: Emit) {
        if let Some(next) = order.next(self.board.get(self.cursor)) {
            self.effect(action, pc, emit, |w| w.set(w.cursor, next));
        }
    }

    /// [`Op::Around`].
    pub fn around(&mut self, dirs: Dirs, order: Order, action: &Action, pc: usize, emit: Emit) {
        let (g, bits) = (self.rules.geometry, self.dirs(dirs));
        self.effect(action, pc, emit, |w| {
            for bit in each(bits) {
                if let Some(t) = g.toward(w.cursor, bit, 1) {
                    if let Some(next) = order.next(w.board.get(t)) {
                        w.set(t, next);
                    }
                }
            }
        })
    }

    /// [`Op::Flank`].
    pub fn flank(&mut self, dirs: Dirs, required: bool, action: &Action, pc: usize, emit: Emit) {
        let mark = self.changes.len;
        let mut turned = 0;
        for bit in each(self.dirs(dirs)) {
            turned += self.turn_over(bit);
        }
        if turned > 0 || !required {
            self.run(action, pc + 1, emit);
        }
        if !self.done() {
            self.undo_to(mark);
        }
    }

    /// [`Op::Promote`].
    pub fn promote(&mut self, kind: u8, region: Region, action: &Action, pc: usize, emit: Emit) {
        let cell = self.cursor;
        let mine = self.holds(cell, Holds::Mine(Kinds::ALL));
        if mine && self.rules.in_region(cell, region, self.mover) {
            let piece = content::piece(kind, self.mover);
            self.effect(action, pc, emit, |w| w.set(cell, piece));
        } else {
            self.run(action, pc + 1, emit);
        }
    }

    /// [`Op::Chain`].
    pub fn chain(&mut self, to: u8, action: &Action, _pc: usize, emit: Emit) {
        let room = (self.path.len as usize) < MAX_PATH;
        // Making a move, it may stop here only if the chain cannot go on: look first as if
        // listing (listing, nothing emitted from `to` says the same).
        let goes_on = room
            && self.target.take().is_some_and(|target| {
                let before = self.emitted;
                self.run(action, to as usize, &mut |_: &Path, _: &[u8]| {});
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
            emit(&self.path, self.board.cells);
        }
    }

    /// Records `cells` as the next choice and runs on, unless the move being made chose
    /// otherwise.
    fn choose(&mut self, cells: &[u8], action: &Action, pc: usize, emit: Emit) {
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
    fn land(&mut self, to: u8, captured: Option<u8>, action: &Action, pc: usize, emit: Emit) -> bool {
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
    fn effect(&mut self, action: &Action, pc: usize, emit: Emit, change: impl FnOnce(&mut Self)) {
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

/// How deep [`Walk::run`] nests in the tests: the calls in progress, and the most at once.
#[cfg(test)]
pub(crate) mod nesting {
    extern crate std;
    use core::cell::Cell;

    std::thread_local! {
        static RUNS: Cell<(u32, u32)> = const { Cell::new((0, 0)) };
    }

    /// Starts counting afresh.
    pub(crate) fn reset() {
        RUNS.set((0, 0));
    }

    /// The most calls in progress at once since [`reset`].
    pub(crate) fn most() -> u32 {
        RUNS.get().1
    }

    /// One call in progress, counted while it lives.
    pub(crate) struct InProgress;

    impl InProgress {
        pub(crate) fn enter() -> InProgress {
            let (now, most) = RUNS.get();
            RUNS.set((now + 1, most.max(now + 1)));
            InProgress
        }
    }

    impl Drop for InProgress {
        fn drop(&mut self) {
            let (now, most) = RUNS.get();
            RUNS.set((now - 1, most));
        }
    }
}
