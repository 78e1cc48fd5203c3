//! Sowing ([`Op::Sow`](super::Op::Sow)): a pit's counters dealt one a pit around a ring of
//! pits, and what the last one's landing captures.

use super::super::super::{Capture, Sow};
use super::{Action, Emit, Log, Program, Rules, Walk};

impl<P: Program> Rules<'_, P> {
    /// The cells of the ring: both rows, each a side.
    fn ring(&self) -> u8 {
        2 * self.geometry.stride
    }

    /// Whose side `cell` is on.
    pub(crate) fn side_of(&self, cell: u8) -> u8 {
        cell / self.geometry.stride
    }

    /// Whether `cell` is a store (the last cell of a side, on a board with stores).
    pub(crate) fn is_store(&self, cell: u8) -> bool {
        self.pits.is_some_and(|p| p.stores) && cell % self.geometry.stride == self.geometry.stride - 1
    }

    /// Player `p`'s store.
    fn store(&self, p: u8) -> u8 {
        p * self.geometry.stride + self.geometry.stride - 1
    }

    /// The pit facing `cell` across the board.
    fn opposite(&self, cell: u8) -> u8 {
        let stride = self.geometry.stride;
        let pits = stride - u8::from(self.pits.is_some_and(|p| p.stores));
        let (side, k) = (cell / stride, cell % stride);
        (1 - side) * stride + (pits - 1 - k)
    }
}

impl<P: Program> Walk<'_, '_, P> {
    /// Sets `cell` to `value`, logging it only the first time since `mark`: a sowing may pass
    /// a pit several times, and the log holds each pit once.
    fn set_once(&mut self, mark: u8, cell: u8, value: u8) {
        let logged = self.changes.was.slots()[mark as usize..self.changes.len as usize].iter().any(|&(c, _)| c == cell);
        if logged {
            self.board.set(cell, value);
        } else {
            self.set(cell, value);
        }
    }

    /// [`Op::Sow`](super::super::super::Op::Sow).
    pub fn sow(&mut self, sow: Sow, action: &Action, pc: usize, emit: Emit) {
        let rules = self.rules;
        let origin = self.cursor;
        let seeds = self.board.get(origin);
        if seeds == 0 || rules.side_of(origin) != self.mover || rules.is_store(origin) {
            return;
        }
        let mark = self.changes.len;
        self.set_once(mark, origin, 0);
        let mut at = origin;
        let mut left = seeds;
        while left > 0 {
            at = (at + 1) % rules.ring();
            let skipped = (rules.is_store(at) && (rules.side_of(at) != self.mover || !sow.into_store))
                || (sow.skip_origin && at == origin);
            if !skipped {
                self.set_once(mark, at, self.board.get(at).wrapping_add(1));
                left -= 1;
            }
        }
        let mine = rules.side_of(at) == self.mover;
        let taken = match sow.capture {
            Capture::Opposite if mine && !rules.is_store(at) && self.board.get(at) == 1 => {
                let facing = rules.opposite(at);
                match self.board.get(facing) {
                    0 => 0,
                    n => {
                        self.set_once(mark, facing, 0);
                        self.set_once(mark, at, 0);
                        n + 1
                    }
                }
            }
            Capture::Making { min, max } if !mine => {
                let mut n = 0u8;
                let mut pit = at;
                while !rules.is_store(pit)
                    && rules.side_of(pit) != self.mover
                    && (min..=max).contains(&self.board.get(pit))
                {
                    n = n.wrapping_add(self.board.get(pit));
                    self.set_once(mark, pit, 0);
                    // The pit before, on the same side; the side's first pit has none.
                    if pit.is_multiple_of(rules.geometry.stride) {
                        break;
                    }
                    pit -= 1;
                }
                n
            }
            _ => 0,
        };
        if taken > 0 {
            let store = rules.store(self.mover);
            self.set_once(mark, store, self.board.get(store).wrapping_add(taken));
        }
        let again = sow.again && rules.is_store(at) && mine;
        self.changes.again = again;
        self.run(action, pc + 1, emit);
        if !self.done() {
            self.changes.again = false;
            self.undo_to(mark);
        }
    }
}
