//! A cell cursor over a grid of up to 8 x 8: moved a cell at a time by a person's inputs,
//! stopping at the edges, with a blink clock that starts again on every move so the cell just
//! reached shows its own colour first.

/// A person's input to a game played with a cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The cursor's column (or, while choosing, the start) moves by one.
    Across(i8),
    /// The cursor's row moves by one.
    Down(i8),
    /// Act on the cell under the cursor; while choosing, start the chosen one.
    Commit,
    /// Back to the beginning.
    Restart,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    pub col: u8,
    pub row: u8,
    blink_ms: u16,
}

impl Cursor {
    /// At the top left (const, so an app can be a static).
    pub const fn new() -> Cursor {
        Cursor { col: 0, row: 0, blink_ms: 0 }
    }

    /// The cell under the cursor, as `row * 8 + col`.
    pub fn cell(&self) -> u8 {
        self.row * 8 + self.col
    }

    /// Moves the cursor for an `Across` or `Down` input; false for any other input.
    pub fn moved(&mut self, input: Input, cols: u8, rows: u8) -> bool {
        // The coordinate chosen first and stepped once: a step written out per direction.
        let (at, by, len) = match input {
            Input::Across(by) => (&mut self.col, by, cols),
            Input::Down(by) => (&mut self.row, by, rows),
            _ => return false,
        };
        *at = step(*at, by, len);
        self.blink_ms = 0;
        true
    }

    /// Back to the top left, the blink from its start.
    pub fn home(&mut self) {
        *self = Cursor::default();
    }

    /// The blink from its start, the cursor where it is.
    pub fn restart_blink(&mut self) {
        self.blink_ms = 0;
    }

    /// A millisecond has passed.
    pub fn tick(&mut self) {
        self.blink_ms = self.blink_ms.wrapping_add(1);
    }

    /// Whether a blink of half-period `half` is in its second half (never, for 0).
    pub fn blinking(&self, half: u16) -> bool {
        half != 0 && (self.blink_ms / half) & 1 == 1
    }

    /// [`tick`](Self::tick) for a user whose half-period is known at every tick: the clock
    /// counts within the half-period and keeps which half it is in in its top bit, read by
    /// [`second_half`](Self::second_half), so that nothing divides (a 16-bit division is a
    /// library call on AVR). `half` (below 32,768 ms; 0 for no blink) may change only where the
    /// blink restarts. A cursor is ticked this way or by `tick` with `blinking`, not both.
    pub fn tick_in(&mut self, half: u16) {
        if half == 0 {
            return;
        }
        let second = self.blink_ms & 0x8000;
        self.blink_ms += 1;
        if self.blink_ms & 0x7FFF >= half {
            self.blink_ms = second ^ 0x8000;
        }
    }

    /// Whether the blink [`tick_in`](Self::tick_in) counts is in its second half.
    pub fn second_half(&self) -> bool {
        self.blink_ms & 0x8000 != 0
    }
}

/// `at` moved by `by`, stopping at the edges of `0..len`.
fn step(at: u8, by: i8, len: u8) -> u8 {
    if by > 0 {
        if at + 1 < len {
            at + 1
        } else {
            at
        }
    } else {
        at.saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_stops_at_the_edges_and_restarts_its_blink_on_a_move() {
        let mut c = Cursor::default();
        assert!(c.moved(Input::Across(-1), 3, 2) && c.moved(Input::Down(-1), 3, 2));
        assert_eq!((c.col, c.row), (0, 0));
        for _ in 0..5 {
            c.moved(Input::Across(1), 3, 2);
            c.moved(Input::Down(1), 3, 2);
        }
        assert_eq!((c.col, c.row, c.cell()), (2, 1, 10));
        for _ in 0..150 {
            c.tick();
        }
        assert!(c.blinking(100) && !c.blinking(0));
        c.moved(Input::Across(-1), 3, 2);
        assert!(!c.blinking(100));
        assert!(!c.moved(Input::Commit, 3, 2));
    }

    #[test]
    fn halves_counted_at_each_tick_agree_with_the_division() {
        for half in [0u16, 1, 3, 250] {
            let (mut a, mut b) = (Cursor::default(), Cursor::default());
            for ms in 0..2000 {
                assert_eq!(a.blinking(half), b.second_half(), "half {half} at {ms} ms");
                a.tick();
                b.tick_in(half);
            }
        }
    }
}
