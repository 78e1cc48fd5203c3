//! Line-oriented serial input: a byte queue the receive interrupt fills, and a line reader
//! the main loop drains, so parsing never happens inside the interrupt. A line longer than
//! the buffer is reported as such, whole, and never spills into the next one.

use core::cell::Cell;

/// What a text reader is handed where the queue lost bytes in the middle of a line: CAN,
/// which no command line holds. [`LineReader`] answers the line it falls in as one it could not
/// take whole.
pub const LOST: u8 = 0x18;

/// What a text reader is handed where the queue lost bytes up to and including a line end:
/// EM, which no command line holds either. [`LineReader`] ends the line there, answered as one
/// it could not take whole, and what follows starts a line of its own.
pub const LOST_LINE: u8 = 0x19;

/// What the receive queue hands a reader whose bytes may be any value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Received {
    Byte(u8),
    /// Bytes came here that the queue had no room for.
    Lost,
}

/// The line end a text line closes with: the queue keeps its last free slot for one, so that a
/// line that lost bytes in a burst still ends, and is answered, rather than running into the
/// next one.
const LINE_END: u8 = b'\r';

/// No gap is waiting in the queue: zero, so that a queue starts all zeros, in `.bss`, with no
/// initial image in flash.
const NO_GAP: u8 = 0;

/// A single-producer, single-consumer byte queue: the receive interrupt pushes, the main loop
/// pops. One slot stays free to tell full from empty. Its slots are cells, so both ends work
/// through a shared reference: an interrupt-safe `Mutex` holds it without a `RefCell` (whose
/// borrow checks and panic would cost flash on every byte).
///
/// Nothing is lost silently. A burst faster than the main loop drains (a host typing while
/// the device thinks, or an emulator that delivers bytes with no baud rate) fills the queue;
/// the bytes it then drops leave a gap, which the main loop is told of, in order, before the
/// next byte kept, or as soon as it has read everything kept. One gap waits at a time: until the
/// main loop reaches it, everything more is dropped, so the gap stands for all of it.
pub struct ByteQueue<const N: usize> {
    buf: [Cell<u8>; N],
    head: Cell<u8>,
    tail: Cell<u8>,
    /// Since the last byte kept: 0 if nothing was dropped, else what the gap will say,
    /// [`LOST`] or, if the last byte dropped was a line end, [`LOST_LINE`].
    lost: Cell<u8>,
    /// One more than the slot of the first byte kept after a loss, until the main loop reaches
    /// it, else [`NO_GAP`].
    gap: Cell<u8>,
    /// What the waiting gap says.
    gap_says: Cell<u8>,
}

impl<const N: usize> Default for ByteQueue<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> ByteQueue<N> {
    pub const fn new() -> Self {
        assert!(N >= 3 && N < u8::MAX as usize);
        ByteQueue {
            buf: [const { Cell::new(0) }; N],
            head: Cell::new(0),
            tail: Cell::new(0),
            lost: Cell::new(0),
            gap: Cell::new(NO_GAP),
            gap_says: Cell::new(0),
        }
    }

    /// The slot after `i`, wrapping at N: a mask where N is a power of two.
    fn next(i: u8) -> u8 {
        ((i as usize + 1) % N) as u8
    }

    /// Slot `i`, taken modulo N: never out of bounds, so no check and no panic, whose call
    /// would make the interrupt save every register the calling convention lets a call
    /// clobber; a mask where N is a power of two.
    fn slot(&self, i: u8) -> &Cell<u8> {
        &self.buf[i as usize % N]
    }

    /// From the interrupt: keeps the byte, or drops it and remembers the loss.
    pub fn push(&self, byte: u8) {
        let (head, tail, lost) = (self.head.get(), self.tail.get(), self.lost.get());
        let next = Self::next(head);
        // The last free slot is a line end's.
        let room = next != tail && (byte == LINE_END || Self::next(next) != tail);
        if !room || (lost != 0 && self.gap.get() != NO_GAP) {
            self.lost.set(if byte == LINE_END { LOST_LINE } else { LOST });
            return;
        }
        if lost != 0 {
            self.gap.set(head + 1);
            self.gap_says.set(lost);
            self.lost.set(0);
        }
        self.slot(head).set(byte);
        self.head.set(next);
    }

    /// Whether nothing is waiting.
    pub fn is_empty(&self) -> bool {
        self.head.get() == self.tail.get()
    }

    /// From the main loop, for a text line: the next byte, or where bytes were lost before it,
    /// [`LOST`] or [`LOST_LINE`].
    pub fn pop(&self) -> Option<u8> {
        if self.is_empty() {
            // All that was kept has been read: a loss since is told now, not before a next byte
            // that may never come (the host waiting for the answer to a line whose end was
            // lost). No gap can wait in an empty queue.
            let lost = self.lost.get();
            self.lost.set(0);
            return if lost != 0 { Some(lost) } else { None };
        }
        let tail = self.tail.get();
        if self.gap.get() == tail + 1 {
            self.gap.set(NO_GAP);
            return Some(self.gap_says.get());
        }
        let b = self.slot(tail).get();
        self.tail.set(Self::next(tail));
        Some(b)
    }

    /// From the main loop, for a line whose bytes may be any value: the next byte, or the news
    /// that bytes were lost before it.
    pub fn receive(&self) -> Option<Received> {
        // From an empty queue, `pop` gives only a loss.
        let lost = self.is_empty() || self.gap.get() == self.tail.get() + 1;
        self.pop().map(|b| if lost { Received::Lost } else { Received::Byte(b) })
    }
}

/// What a finished line was.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    Text(&'a [u8]),
    /// Longer than the buffer: its bytes are gone, and it must be answered as an error.
    TooLong,
}

/// What [`LineReader::feed_len`] gives for a line longer than the buffer.
pub const TOO_LONG: u8 = u8::MAX;

/// Collects bytes into lines ended by `\r`; a `\n` anywhere is ignored, so `\r\n` works too.
pub struct LineReader<const N: usize> {
    buf: [u8; N],
    /// A byte: lines are short, and a byte costs less code on an 8-bit chip.
    len: u8,
    overflow: bool,
    done: bool,
}

impl<const N: usize> Default for LineReader<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> LineReader<N> {
    /// An empty reader; a constant, so that it can start in a static.
    pub const fn new() -> Self {
        assert!(N < 255, "a line's length is a byte, and 255 says too long");
        LineReader { buf: [0; N], len: 0, overflow: false, done: false }
    }
}

impl<const N: usize> LineReader<N> {
    /// The buffer, where the last line [`Self::feed`] returned lies.
    pub fn bytes(&self) -> &[u8; N] {
        &self.buf
    }

    /// As [`Self::feed`], for a caller that reads the line where it lies ([`Self::bytes`])
    /// before the next byte: the length of the line the byte ends, or [`TOO_LONG`]; the
    /// next byte starts a new line.
    pub fn feed_len(&mut self, byte: u8) -> Option<u8> {
        if !self.take(byte) {
            return None;
        }
        let len = if self.overflow { TOO_LONG } else { self.len };
        self.len = 0;
        self.overflow = false;
        Some(len)
    }

    /// Feeds one byte; returns the line it ends, if it ends one.
    pub fn feed(&mut self, byte: u8) -> Option<Line<'_>> {
        if self.done {
            self.len = 0;
            self.overflow = false;
            self.done = false;
        }
        if !self.take(byte) {
            return None;
        }
        self.done = true;
        Some(if self.overflow { Line::TooLong } else { Line::Text(&self.buf[..self.len as usize]) })
    }

    /// Keeps a byte of the line, or marks the line too long; true for the CR that ends it
    /// (an LF is dropped, so CR LF works too).
    #[inline(always)]
    fn take(&mut self, byte: u8) -> bool {
        match byte {
            b'\n' => false,
            b'\r' => true,
            // Bytes of this line were lost: it is answered as one too long to take whole.
            LOST => {
                self.overflow = true;
                false
            }
            LOST_LINE => {
                self.overflow = true;
                true
            }
            _ if (self.len as usize) < N => {
                self.buf[self.len as usize] = byte;
                self.len += 1;
                false
            }
            _ => {
                self.overflow = true;
                false
            }
        }
    }
}

/// embedded-io's `read` over a receive queue: waits for a byte, then takes what has come, up
/// to `buf`'s length. `take` pops the queue without waiting.
pub fn read_queued(buf: &mut [u8], mut take: impl FnMut() -> Option<u8>) -> usize {
    let mut n = 0;
    while n < buf.len() {
        match take() {
            Some(b) => {
                buf[n] = b;
                n += 1;
            }
            None if n > 0 => break,
            None => {}
        }
    }
    n
}

/// Text on a serial line: `core::fmt` writing through embedded-io, each line ended with
/// `\r\n` as terminals expect.
pub struct TextOut<W>(pub W);

impl<W: embedded_io::Write> core::fmt::Write for TextOut<W> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for line in s.split_inclusive('\n') {
            let (text, newline) = match line.strip_suffix('\n') {
                Some(text) => (text, true),
                None => (line, false),
            };
            self.0.write_all(text.as_bytes()).map_err(|_| core::fmt::Error)?;
            if newline {
                self.0.write_all(b"\r\n").map_err(|_| core::fmt::Error)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    fn lines<const N: usize>(input: &[u8]) -> [Option<Result<[u8; 8], ()>>; 4] {
        let mut r = LineReader::<N>::default();
        let mut out = [None; 4];
        let mut n = 0;
        for &b in input {
            if let Some(l) = r.feed(b) {
                out[n] = Some(match l {
                    Line::Text(t) => {
                        let mut a = [b' '; 8];
                        a[..t.len()].copy_from_slice(t);
                        Ok(a)
                    }
                    Line::TooLong => Err(()),
                });
                n += 1;
            }
        }
        out
    }

    #[test]
    fn lines_end_with_cr_and_crlf() {
        let out = lines::<8>(b"AT\rMV D3\r\nPS\r");
        assert_eq!(out[0], Some(Ok(*b"AT      ")));
        assert_eq!(out[1], Some(Ok(*b"MV D3   ")));
        assert_eq!(out[2], Some(Ok(*b"PS      ")));
        assert_eq!(out[3], None);
    }

    #[test]
    fn an_overlong_line_is_reported_and_does_not_spill() {
        let out = lines::<4>(b"ABCDEFGHIJ\rAT\r");
        assert_eq!(out[0], Some(Err(())));
        assert_eq!(out[1], Some(Ok(*b"AT      ")));
    }

    #[test]
    fn feed_len_gives_lengths_and_starts_afresh_after_an_overlong_line() {
        extern crate std;
        let mut r = LineReader::<4>::new();
        let mut got = std::vec::Vec::new();
        for &b in b"AB\r\nTOOLONG\rOK\r\r".iter() {
            if let Some(n) = r.feed_len(b) {
                got.push((n, r.bytes()[..(n as usize).min(4)].to_vec()));
            }
        }
        assert_eq!(got[0], (2, b"AB".to_vec()));
        assert_eq!(got[1].0, TOO_LONG);
        assert_eq!(got[2], (2, b"OK".to_vec()));
        assert_eq!(got[3], (0, std::vec::Vec::new()));
    }

    #[test]
    fn an_empty_line_is_empty_text() {
        let out = lines::<4>(b"\r");
        assert_eq!(out[0], Some(Ok(*b"        ")));
    }

    fn drain<const N: usize>(q: &ByteQueue<N>) -> std::vec::Vec<Received> {
        core::iter::from_fn(|| q.receive()).collect()
    }

    #[test]
    fn the_queue_keeps_order_and_its_last_slot_for_a_line_end() {
        use Received::{Byte, Lost};
        let q = ByteQueue::<5>::new();
        for b in 1..=6 {
            q.push(b);
        }
        // Four slots of five: three bytes, the fourth kept for a line end, which comes after
        // the bytes that did not fit and so is told of after the gap.
        q.push(b'\r');
        assert_eq!(drain(&q), [Byte(1), Byte(2), Byte(3), Lost, Byte(b'\r')]);
        q.push(9);
        assert_eq!(drain(&q), [Byte(9)], "the gap was told once");
        // Three bytes and a line end fill it with nothing lost.
        for b in [1, 2, 3, b'\r'] {
            q.push(b);
        }
        assert_eq!(drain(&q), [Byte(1), Byte(2), Byte(3), Byte(b'\r')]);
    }

    #[test]
    fn a_loss_with_nothing_after_it_is_told_once_all_kept_is_read() {
        use Received::{Byte, Lost};
        let q = ByteQueue::<5>::new();
        // Read while it comes: 1 and 2 kept, then the queue refills past a waiting gap and
        // loses the rest, the line end included, and the host sends nothing more.
        for b in [1, 2, 3, 4, 5] {
            q.push(b);
        }
        assert_eq!(q.receive(), Some(Byte(1)));
        for b in [6, 7, b'\r'] {
            q.push(b);
        }
        assert_eq!(drain(&q), [Byte(2), Byte(3), Lost, Byte(6), Lost]);
        assert_eq!(q.pop(), None, "told once");
        // The same read as text: the last loss ended the line.
        for b in [1, 2, 3, 4, 5] {
            q.push(b);
        }
        assert_eq!(q.pop(), Some(1));
        for b in [6, 7, b'\r'] {
            q.push(b);
        }
        let text: std::vec::Vec<u8> = core::iter::from_fn(|| q.pop()).collect();
        assert_eq!(text, [2, 3, LOST, 6, LOST_LINE]);
    }

    #[test]
    fn while_a_gap_waits_everything_more_is_dropped_and_the_gap_stands_for_it() {
        let q = ByteQueue::<5>::new();
        let drain = || core::iter::from_fn(|| q.pop()).collect::<std::vec::Vec<u8>>();
        for b in [1, 2, 3, 4, b'\r', 5] {
            q.push(b);
        }
        // 4 was lost; the line end took the last slot after the gap; 5 found no room.
        assert_eq!(q.pop(), Some(1));
        // Room again, but a gap is waiting: 6 and the next line end go the way of 5.
        q.push(6);
        q.push(b'\r');
        // The second loss is told once all that was kept is read; its last byte was a line end.
        assert_eq!(drain(), [2, 3, LOST, b'\r', LOST_LINE]);
        q.push(7);
        assert_eq!(drain(), [7], "told once");
    }

    #[test]
    fn a_line_that_lost_bytes_is_answered_as_too_long_and_the_next_is_whole() {
        let q = ByteQueue::<8>::new();
        let mut r = LineReader::<16>::new();
        let mut lines = std::vec::Vec::new();
        let mut feed = |q: &ByteQueue<8>, r: &mut LineReader<16>| {
            while let Some(b) = q.pop() {
                if let Some(line) = r.feed(b) {
                    lines.push(match line {
                        Line::Text(t) => std::string::String::from_utf8(t.to_vec()).unwrap(),
                        Line::TooLong => "too long".into(),
                    });
                }
            }
        };
        // A burst of "remove 12\r" that loses " 12": never read as "remove".
        for &b in b"remove 12\r" {
            q.push(b);
        }
        feed(&q, &mut r);
        for &b in b"list\r" {
            q.push(b);
        }
        feed(&q, &mut r);
        // "remove 12" loses " 12" again, and three lines after it are lost whole, their line
        // ends too, while its gap waited: they are answered as one more line that could not be
        // taken, and the line typed after them is whole.
        for &b in b"remove 12\rlist\rlist\rlist\r" {
            q.push(b);
        }
        feed(&q, &mut r);
        for &b in b"list\r" {
            q.push(b);
        }
        feed(&q, &mut r);
        assert_eq!(lines, ["too long", "list", "too long", "too long", "list"]);
    }

    #[test]
    fn a_read_takes_what_has_come_once_a_byte_is_there() {
        let mut queue = [None, None, Some(1u8), Some(2), None, Some(3)].into_iter();
        let mut buf = [0u8; 4];
        assert_eq!(read_queued(&mut buf, || queue.next().flatten()), 2);
        assert_eq!(&buf[..2], &[1, 2]);
        let mut full = [Some(7u8); 3].into_iter();
        assert_eq!(read_queued(&mut buf[..2], || full.next().flatten()), 2, "no more than the buffer");
    }

    #[test]
    fn text_lines_end_with_cr_lf() {
        use core::fmt::Write;
        let mut buf = [0u8; 16];
        let mut out = TextOut(&mut buf[..]);
        write!(out, "one\ntwo\n> ").unwrap();
        let left = out.0.len();
        assert_eq!(&buf[..16 - left], b"one\r\ntwo\r\n> ");
    }
}
