//! A turn-based game played by a host over a serial line: the host sends one command a line,
//! the device answers in text, moves when its turn comes and waits for acknowledgements.
//!
//! What the commands are called and what the device says are tables the compiler generates
//! from the game file ([`Protocol`]); this module knows only the generic session: choosing
//! sides, a move clock, moves and passes checked against the rules, the device's search, and
//! the end of the game. Positions are the generated game's ([`Placement`]), held as it chooses
//! for the chip; when a game is over, and who won, is the game's to say ([`Placement::over`]).

use crate::progmem;
use crate::rng::Rng;
use crate::rules::content;
use crate::search::{Budget, Choice};
use crate::serial::{LineReader, TOO_LONG};

/// A finished game's result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Loss,
    Draw,
}

impl Verdict {
    /// The same result seen from the other side.
    pub fn flipped(self) -> Verdict {
        match self {
            Verdict::Win => Verdict::Loss,
            Verdict::Loss => Verdict::Win,
            Verdict::Draw => Verdict::Draw,
        }
    }
}

/// How the device chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Alpha-beta search under the move clock.
    Search,
    /// From the table of a game the compiler solved ([`Placement::solved`]).
    Solved,
    /// Any legal move, uniformly.
    Random,
}

/// What the session (and a game played with a cursor) needs of a grid game of two; the
/// compiler generates it from the game file. Cells are numbered `row * 8 + column`; the
/// position is held as the generated game chooses for the chip (64-bit boards, or a byte a
/// cell where 64-bit shifts are loops), always with a side to move.
pub trait Placement {
    /// The position as the game holds it.
    type Pos: Copy;
    const STRATEGY: Strategy;
    /// Sets `pos` to the start, the first player to move. Built when asked rather than a
    /// constant, which an AVR chip would hold in RAM as well as in flash; and in place,
    /// because a position can be hundreds of bytes, more than a small chip's stack can spare
    /// for a second copy.
    fn start(pos: &mut Self::Pos);
    /// A position to hold before the first game starts, never played on (the session sets
    /// up the start first): all zero bytes where the game can, so that a static session
    /// needs no initial image in flash.
    const CLEARED: Self::Pos;
    /// Whether the side to move may play on `cell` (a cell of the grid).
    fn legal_at(pos: &Self::Pos, cell: u8) -> bool;
    /// Whether the side to move has a legal cell.
    fn can_move(pos: &Self::Pos) -> bool;
    /// Who holds `cell`: [`HELD_BY_MOVER`], [`HELD_BY_OTHER`] or 0 for nobody.
    fn holder(pos: &Self::Pos, cell: u8) -> u8;
    /// The pieces of the side to move (`mover`), or of the other side.
    fn count(pos: &Self::Pos, mover: bool) -> u8;
    /// The side to move plays on `cell`, a legal cell; the other side is then to move.
    fn play(pos: &mut Self::Pos, cell: u8);
    /// The side to move gives up its turn.
    fn pass(pos: &mut Self::Pos);
    /// The game's endings, read in order: `Some` once the game is over.
    fn over(pos: &Self::Pos) -> Option<Verdict>;
    /// The result of a game the host ends before its end, scored as it stands.
    fn stopped(pos: &Self::Pos) -> Verdict;
    /// The solved game's choice for the side to move ([`Strategy::Solved`]).
    fn solved(_pos: &Self::Pos, _rng: &mut Rng) -> Option<u8> {
        None
    }
    /// The search's choice for the side to move ([`Strategy::Search`]), deepening from
    /// `first` to `max` plies; `N` is room for a position's moves. The position is searched in
    /// place and is as it was when this returns.
    fn search<const N: usize>(
        pos: &mut Self::Pos,
        first: u8,
        max: u8,
        order: bool,
        budget: &mut Budget,
    ) -> Option<Choice<u8>>;

    /// The player (an index) who moves first.
    const FIRST: u8 = 0;
    /// Cell numbers a row apart.
    const STRIDE: u8 = 8;
    /// The legal move of the side to move that names `cells` (a placement names its one
    /// cell; a move along a path, every cell it stops on), as [`Placement::play`] takes it.
    fn find(pos: &Self::Pos, cells: &[u8]) -> Option<u8> {
        match cells {
            [cell] if Self::legal_at(pos, *cell) => Some(*cell),
            _ => None,
        }
    }
    /// How `cells`, entered a cell at a time (as a cursor picks a piece and then where it
    /// goes), stand among the legal moves of the side to move: the move they name whole, and
    /// whether a longer move begins with them. A placement names one cell, so nothing is longer.
    fn entered(pos: &Self::Pos, cells: &[u8]) -> Entered {
        Entered { exact: Self::find(pos, cells), longer: false }
    }
    /// The cells move `m` names, into `out`; how many.
    fn name(_pos: &Self::Pos, m: u8, out: &mut [u8]) -> u8 {
        out[0] = m;
        1
    }
    /// The kind of the piece on `cell` (0, the first kind, on an empty cell).
    fn kind(_pos: &Self::Pos, _cell: u8) -> u8 {
        0
    }
    /// A legal move of the side to move chosen uniformly, if it has one.
    fn random(pos: &Self::Pos, rng: &mut Rng) -> Option<u8> {
        random_cell::<Self>(pos, rng)
    }
    /// What `cell` holds in the rules' numbering of contents (`rules::content`), where the
    /// position keeps it so (the rule core); `None` where only [`Placement::holder`] tells.
    fn content(_pos: &Self::Pos, _cell: u8) -> Option<u8> {
        None
    }
    /// How many starts the game has (a puzzle's setups), and start `k` of them.
    /// Whether a game starts from one of its starts at random (a random setup's deals).
    const RANDOM_START: bool = false;
    fn starts() -> u16 {
        1
    }
    fn start_at(pos: &mut Self::Pos, _k: u16) {
        Self::start(pos)
    }
    /// Whether a move can leave its mover to move again; a constant, so that a session whose
    /// game never does links none of it.
    const AGAIN: bool = false;
    /// The side to move in `pos`, for a game where a move may keep the turn ([`Placement::AGAIN`]).
    fn mover(_pos: &Self::Pos) -> u8 {
        0
    }
}

/// [`Placement::entered`]: the legal move that cells entered so far name whole, if one does,
/// and whether a longer one begins with them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entered {
    pub exact: Option<u8>,
    pub longer: bool,
}

/// [`Placement::holder`]: the side to move holds the cell.
pub const HELD_BY_MOVER: u8 = 1;
/// [`Placement::holder`]: the other side holds the cell.
pub const HELD_BY_OTHER: u8 = 2;

/// The `k`th legal cell (from 0) of the side to move, in cell order, with how many there are.
pub fn legal_cell<T: Placement + ?Sized>(pos: &T::Pos, k: u8) -> (Option<u8>, u8) {
    let (mut found, mut n) = (None, 0u8);
    for cell in 0..64 {
        if T::legal_at(pos, cell) {
            if n == k {
                found = Some(cell);
            }
            n += 1;
        }
    }
    (found, n)
}

/// A legal cell of the side to move chosen uniformly, if it has one.
pub fn random_cell<T: Placement + ?Sized>(pos: &T::Pos, rng: &mut Rng) -> Option<u8> {
    let (_, n) = legal_cell::<T>(pos, 0);
    (n > 0).then(|| legal_cell::<T>(pos, rng.below(n)).0).flatten()
}

/// The session's view of the hardware: a serial line through embedded-io's traits, a clock
/// and the lamps.
pub trait Io {
    type Serial: embedded_io::Read + embedded_io::ReadReady + embedded_io::Write;
    fn serial(&mut self) -> &mut Self::Serial;
    /// Milliseconds since start, wrapping.
    fn millis(&mut self) -> u32;
    /// Lights a lamp (an index into the game's lamp list).
    fn light(&mut self, lamp: u8);
    /// Puts every lamp out: a new game's, all at once rather than lamp by lamp.
    fn lamps_off(&mut self);

    /// The next received byte, if one has come (never waits).
    fn read(&mut self) -> Option<u8> {
        use embedded_io::{Read, ReadReady};
        let line = self.serial();
        if !line.read_ready().unwrap_or(false) {
            return None;
        }
        let mut byte = [0u8];
        (line.read(&mut byte).ok()? == 1).then_some(byte[0])
    }

    fn write(&mut self, byte: u8) {
        use embedded_io::Write;
        let _ = self.serial().write_all(&[byte]);
    }
}

/// Opcodes of a response script; every byte from 0x20 up is text sent as it is.
pub mod op {
    /// Ends one event's response.
    pub const END: u8 = 0;
    /// Ends a line of text (`\r\n`).
    pub const NL: u8 = 1;
    /// The board, a row a line; the host's legal cells are marked when it is to move.
    pub const BOARD: u8 = 2;
    /// Wait for the host's acknowledgement once the response is sent.
    pub const AWAIT: u8 = 3;
    /// Light the lamp whose index follows.
    pub const LIGHT: u8 = 4;
    /// The device's move, as a cell name.
    pub const CELL: u8 = 5;
    /// The device's pieces on the board, in decimal.
    pub const COUNT_DEVICE: u8 = 6;
    /// The host's pieces on the board, in decimal.
    pub const COUNT_HOST: u8 = 7;
    /// The device's move, as a column letter.
    pub const COLUMN: u8 = 8;
}

/// Command table encoding: each entry is the word's length, the word, an action, how many
/// bytes of arguments follow (so that the table is walked without knowing the actions) and
/// the arguments; the table ends with a zero length.
pub mod cmd {
    pub const PING: u8 = 0;
    pub const ACK: u8 = 1;
    pub const RETRY: u8 = 2;
    pub const RESTART: u8 = 3;
    /// Followed by the number of sides, then per side: word length, word, player index.
    pub const HOST_PLAYS_SIDE: u8 = 4;
    pub const NEW_GAME: u8 = 5;
    pub const END_GAME: u8 = 6;
    /// Followed by the lowest and highest value and the default, in seconds.
    pub const MOVE_TIME: u8 = 7;
    /// Takes a cell.
    pub const PLAY: u8 = 8;
    pub const PASS: u8 = 9;
    /// Takes a column: the move is the legal cell lowest in it (a drop).
    pub const PLAY_COLUMN: u8 = 10;
    /// A new game from the setup the host numbers: followed by the lowest and highest number.
    pub const NEW_GAME_AT: u8 = 11;
}

/// The events a response can be bound to, as indices into [`Protocol::events`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Event {
    PickSide,
    YourTurn,
    MustPass,
    Moved,
    Accepted,
    Restarted,
    Denied,
    TooLate,
    BadValue,
    Unknown,
    DeviceMoves,
    DevicePasses,
    NeitherCanMove,
    GameOver,
    WinDevice,
    WinHost,
    Draw,
}

/// No response for an event.
pub const SILENT: u16 = 0xFFFF;

/// A game served over a serial line: its protocol is a constant of the game, so that the
/// session's code reads the grid's size, the glyphs and the tables' places as immediates
/// rather than through a pointer held in RAM.
pub trait Served: Placement {
    const PROTOCOL: &'static Protocol;
}

/// One game's protocol, generated from its `controls serial` and `feedback serial`.
pub struct Protocol {
    /// In program memory: the command table (see [`cmd`]).
    pub commands: &'static [u8],
    /// In program memory: every response script (see [`op`]).
    pub script: &'static [u8],
    /// In program memory: per [`Event`], the offset of its script or [`SILENT`].
    pub events: &'static [u16; 17],
    /// Board glyphs: the first player's, the second's, an empty cell, a legal cell.
    pub glyphs: [u8; 4],
    /// Glyphs of the further kinds of piece: the first player's and the second's of the
    /// second kind, then of the third, ...
    pub kind_glyphs: &'static [u8],
    /// Glyphs of the states a cell may hold, in the game's order.
    pub state_glyphs: &'static [u8],
    /// A game of one player: every turn is the host's, and no device plays.
    pub alone: bool,
    /// The cells are heaps (`cols` of them), each holding a count of counters: a move is
    /// written `HEAP:COUNT` (`2:3`, three counters from heap 2), and the board is a line a
    /// heap, its counters shown by the first player's glyph.
    pub heaps: bool,
    /// The heaps are pits in a ring ([`crate::rules::Pits`]), a row of `cols` a side (the
    /// last a store, with `stores`): a move is a pit's number along the ring (`3`), and the
    /// board shows each side's counts by their numbers ([`pits::board`]).
    pub pits: bool,
    pub stores: bool,
    pub cols: u8,
    pub rows: u8,
    /// The side the device plays when the host cannot choose (no side command).
    pub device_side: u8,
    /// Whether the host chooses its side (the table has a side command).
    pub picks_side: bool,
    /// The actions the command table uses, a bit each (`1 << cmd::PING`, ...): the session's
    /// code for the others is left out of the firmware.
    pub actions: u16,
    /// The opcodes the responses use, a bit each (`1 << op::BOARD`, ...), likewise.
    pub ops: u16,
    /// The move clock's seconds before the host sets it (2 without a move-time command).
    pub default_seconds: u8,
    /// Move ordering by evaluation in the device's search.
    pub order_by_eval: bool,
    /// The search deepens a ply at a time until the clock runs out; else it searches once, to
    /// its deepest.
    pub deepening: bool,
    /// Whether the host's moves are timed: only in a game that says what a late move gets
    /// (`on too late`), so that a clock never runs out in silence.
    pub timed: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Waiting for the host to choose a side.
    PickSide,
    /// The host is to move; its clock runs.
    HostTurn,
    /// The host was too late: waiting for it to give up the turn or ask for it again.
    TooLate,
    DeviceTurn,
    /// Waiting for the host's acknowledgement, then the game goes on.
    Await,
    /// Waiting for the host's acknowledgement of the game's end. Apart from `Await` rather
    /// than a field of it, so that states compare as bytes.
    AwaitOver,
    Over,
}

const LINE: usize = 16;

/// Nodes and finished depth of the device's last search, at fixed addresses so that a
/// benchmark can read them out of a simulated chip.
pub static LAST_SEARCH_NODES: Probe<u32> = Probe::new(0);
pub static LAST_SEARCH_DEPTH: Probe<u8> = Probe::new(0);

/// A value only the main loop writes, kept in RAM for a simulator to read by its symbol. No
/// interrupt handler touches it, so it needs no critical section; written volatile so the
/// write is not optimised away.
pub struct Probe<T: Copy>(core::cell::UnsafeCell<T>);

// Written by the main loop alone (see above).
unsafe impl<T: Copy> Sync for Probe<T> {}

impl<T: Copy> Probe<T> {
    pub const fn new(v: T) -> Self {
        Probe(core::cell::UnsafeCell::new(v))
    }
    /// # Safety
    /// Called from the main loop only.
    pub unsafe fn set(&self, v: T) {
        core::ptr::write_volatile(self.0.get(), v)
    }
}
const NO_SIDE: u8 = 0xFF;

/// The session state: the position, whose turn it is and what the device waits for.
///
/// `N` bounds the moves the device's search considers in a position (a buffer of `N` bytes
/// per ply); legality of the host's moves is always judged on all of them. `DEPTH` is the
/// deepest the device searches: each ply costs stack, and a small chip has little.
///
/// `P` is the most cells a move names (1 where a move is a cell).
pub struct Session<T: Served, const N: usize, const DEPTH: u8, const P: usize = 1> {
    pos: T::Pos,
    /// Player index (0 moves first) of the side to move.
    mover: u8,
    host: u8,
    state: State,
    move_ms: u32,
    clock: u32,
    /// The cells the device's last move named, for `{cell}`, and how many: every byte can
    /// be a cell (a 16 x 16 grid's last is 255).
    last: [u8; P],
    named: u8,
    /// The game's start that new games and restarts set up ([`Placement::start_at`]).
    setup: u16,
    reader: LineReader<LINE>,
    /// Ties of a solved strategy and random moves.
    rng: Rng,
    _rules: core::marker::PhantomData<T>,
}

impl<T: Served, const N: usize, const DEPTH: u8, const P: usize> Default for Session<T, N, DEPTH, P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Served, const N: usize, const DEPTH: u8, const P: usize> Session<T, N, DEPTH, P> {
    const P: &'static Protocol = T::PROTOCOL;

    /// A session that says nothing until [`Self::begin`], which sets up the game's start and
    /// the default move clock. A constant, so that the session can start in a static rather
    /// than on the stack the search needs.
    ///
    /// Every byte of it is zero (with a game whose `CLEARED` is), so that a static session
    /// lies in `.bss` and its image costs no flash: what needs a value gets it in `begin`.
    pub const fn new() -> Self {
        Session {
            pos: T::CLEARED,
            mover: 0,
            host: 0,
            state: State::PickSide,
            move_ms: 0,
            clock: 0,
            last: [0; P],
            named: 0,
            setup: 0,
            reader: LineReader::new(),
            rng: Rng::unmixed(),
            _rules: core::marker::PhantomData,
        }
    }

    /// Starts the first game: asks for a side, or starts at once when the host cannot pick.
    pub fn begin(&mut self, io: &mut impl Io) {
        // Only a solved or random device, and a random deal, draw from it.
        if T::STRATEGY != Strategy::Search || T::RANDOM_START {
            self.rng = Rng::new(0x5A17);
        }
        self.set_seconds(Self::P.default_seconds);
        // A position to show should the host restart before it picks a side.
        self.reset(io);
        self.new_game(io);
    }

    /// Serves forever.
    pub fn run(&mut self, io: &mut impl Io) -> ! {
        self.begin(io);
        loop {
            self.poll(io);
        }
    }

    /// Does the next thing: the device's move when it is its turn, else one line of input
    /// if a whole one has arrived.
    pub fn poll(&mut self, io: &mut impl Io) {
        // Alone, no device moves: its search is left out of the firmware.
        if !Self::P.alone && self.state == State::DeviceTurn {
            return self.device_move(io);
        }
        while let Some(b) = io.read() {
            // Only the line's length leaves the reader: the command reads it where it lies,
            // rather than from a copy on the stack the search needs.
            if let Some(len) = self.reader.feed_len(b) {
                return self.command(io, len);
            }
        }
    }

    /// Whether the command table uses `action`; a constant, so an unused action's code is left out.
    const fn uses(action: u8) -> bool {
        Self::P.actions >> action & 1 != 0
    }

    /// Whether the responses use the opcode `op`; a constant, as [`Self::uses`].
    const fn says(op: u8) -> bool {
        Self::P.ops >> op & 1 != 0
    }

    /// A byte of the command table. The table is generated well formed, and the walks below
    /// stay inside it; its indices are bytes (the compiler keeps it under 256 bytes).
    #[inline(never)]
    fn cbyte(at: u8) -> u8 {
        // SAFETY: an index into the command table the generated code placed in program memory.
        unsafe { progmem::byte(Self::P.commands.as_ptr().add(at as usize)) }
    }

    /// How many bytes of `line[from..to]` agree with the table's word of `n` bytes at `word`,
    /// from the first and at most `n`.
    #[inline(never)]
    fn matching(line: &[u8; LINE], from: u8, to: u8, word: u8, n: u8) -> u8 {
        let mut i = 0;
        while i < n && from + i < to && byte(line, from + i) == Self::cbyte(word + i) {
            i += 1;
        }
        i
    }

    /// Finds the command the line of `len` bytes starts with and carries it out.
    #[inline(never)]
    fn command(&mut self, io: &mut impl Io, len: u8) {
        let line = self.reader.bytes();
        let mut at = 0u8;
        // A line too long for the buffer is no command.
        let mut n = if len == TOO_LONG { 0 } else { Self::cbyte(at) };
        while n != 0 {
            let word = at + 1;
            let action = word + n;
            if Self::matching(line, 0, len, word, n) == n && (len == n || byte(line, n) == b' ') {
                // The argument, without the spaces around it.
                let (mut from, mut to) = (n, len);
                while from < to && byte(line, from) == b' ' {
                    from += 1;
                }
                while to > from && byte(line, to - 1) == b' ' {
                    to -= 1;
                }
                return self.act(io, Self::cbyte(action), action + 2, from, to);
            }
            at = action + 2 + Self::cbyte(action + 1);
            n = Self::cbyte(at);
        }
        self.say(io, Event::Unknown)
    }

    /// Carries out `action`, whose arguments in the table start at `args`, with the argument
    /// `line[from..to]`.
    #[inline(never)]
    fn act(&mut self, io: &mut impl Io, action: u8, args: u8, from: u8, to: u8) {
        let line = self.reader.bytes();
        let takes_arg =
            matches!(action, cmd::HOST_PLAYS_SIDE | cmd::MOVE_TIME | cmd::PLAY | cmd::PLAY_COLUMN | cmd::NEW_GAME_AT);
        if !takes_arg && from != to {
            return self.say(io, Event::Unknown);
        }
        match action {
            cmd::PING if Self::uses(cmd::PING) => self.say(io, Event::Accepted),
            cmd::ACK if Self::uses(cmd::ACK) => match self.state {
                State::AwaitOver => self.state = State::Over,
                State::Await => self.advance(io),
                State::TooLate => {
                    // The host gives its turn up.
                    self.pass();
                    self.advance(io);
                }
                // Nothing awaited: an acknowledgement needs no answer.
                _ => {}
            },
            cmd::RETRY if Self::uses(cmd::RETRY) && self.state == State::TooLate => self.advance(io),
            cmd::RETRY => self.say(io, Event::Unknown),
            cmd::RESTART if Self::uses(cmd::RESTART) => {
                self.reset(io);
                // Not the host's turn while the start position is shown.
                self.state = State::PickSide;
                self.say(io, Event::Restarted);
                if self.host != NO_SIDE {
                    self.advance(io);
                }
            }
            cmd::HOST_PLAYS_SIDE if Self::uses(cmd::HOST_PLAYS_SIDE) => {
                // A count of sides, then each side's word after its length, then its player.
                let mut at = args + 1;
                let mut side = None;
                for _ in 0..Self::cbyte(args) {
                    let n = Self::cbyte(at);
                    if to - from == n && Self::matching(line, from, to, at + 1, n) == n {
                        side = Some(Self::cbyte(at + 1 + n));
                    }
                    at += n + 2;
                }
                match side {
                    None => self.say(io, Event::Unknown),
                    Some(_) if !matches!(self.state, State::PickSide | State::Over) => self.say(io, Event::Denied),
                    Some(s) => {
                        self.host = s;
                        self.say(io, Event::Accepted);
                        self.start_game(io);
                    }
                }
            }
            cmd::NEW_GAME_AT if Self::uses(cmd::NEW_GAME_AT) => {
                // Without a number, the setup played last.
                if from != to {
                    let (lo, hi) = (Self::cbyte(args) as u16, Self::cbyte(args + 1) as u16);
                    match number(line, from, to) {
                        n if n >= lo && n <= hi && n <= T::starts() => self.setup = n - 1,
                        _ => return self.say(io, Event::BadValue),
                    }
                }
                self.say(io, Event::Accepted);
                self.new_game(io);
            }
            cmd::NEW_GAME if Self::uses(cmd::NEW_GAME) => {
                self.say(io, Event::Accepted);
                self.new_game(io);
            }
            cmd::END_GAME if Self::uses(cmd::END_GAME) => {
                self.say(io, Event::Accepted);
                if matches!(self.state, State::HostTurn | State::TooLate | State::DeviceTurn | State::Await) {
                    self.finish(io, T::stopped(&self.pos), false);
                }
            }
            cmd::MOVE_TIME if Self::uses(cmd::MOVE_TIME) => {
                let (lo, hi) = (Self::cbyte(args) as u16, Self::cbyte(args + 1) as u16);
                match number(line, from, to) {
                    n if n >= lo && n <= hi => {
                        self.set_seconds(n as u8);
                        self.say(io, Event::Accepted);
                    }
                    _ => {
                        self.set_seconds(Self::cbyte(args + 2));
                        self.say(io, Event::BadValue);
                    }
                }
            }
            cmd::PLAY | cmd::PLAY_COLUMN if Self::uses(cmd::PLAY) || Self::uses(cmd::PLAY_COLUMN) => {
                // A column is a drop: its row is found among the legal cells below.
                // A letter, and for a cell a number from 1 after it; letters and numbers
                // beyond the grid still parse, so that they are illegal moves, not unknown.
                if (P > 1 || Self::P.pits) && action == cmd::PLAY {
                    return self.play_path(io, from, to);
                }
                let col = byte(line, from).to_ascii_uppercase().wrapping_sub(b'A');
                let row = number(line, from + 1, to);
                let row = match action {
                    cmd::PLAY if Self::uses(cmd::PLAY) && from < to && col < 26 && row != NO_NUMBER => {
                        Some(row.checked_sub(1).map_or(u8::MAX, |r| r.min(255) as u8))
                    }
                    cmd::PLAY_COLUMN if Self::uses(cmd::PLAY_COLUMN) && to - from == 1 => None,
                    _ => return self.say(io, Event::Unknown),
                };
                if !self.in_time(io) {
                    return;
                }
                // A drop lands on the column's lowest legal cell (u8::MAX: none).
                let on_grid = |r: u8| col < Self::P.cols && r < Self::P.rows;
                let row = row.unwrap_or_else(|| {
                    (0..Self::P.rows)
                        .find(|&r| on_grid(r) && T::legal_at(&self.pos, r * T::STRIDE + col))
                        .unwrap_or(u8::MAX)
                });
                let m = if on_grid(row) { T::find(&self.pos, &[row * T::STRIDE + col]) } else { None };
                match m {
                    Some(m) => self.host_moves(io, m),
                    None => self.say(io, Event::Denied),
                }
            }
            cmd::PASS if Self::uses(cmd::PASS) => {
                if self.state == State::HostTurn && T::can_move(&self.pos) {
                    return self.say(io, Event::Denied);
                }
                if !self.in_time(io) {
                    return;
                }
                self.pass();
                self.say(io, Event::Accepted);
                self.advance(io);
            }
            _ => self.say(io, Event::Unknown),
        }
    }

    /// The host's move `m`, a legal one.
    fn host_moves(&mut self, io: &mut impl Io, m: u8) {
        let before = T::mover(&self.pos);
        T::play(&mut self.pos, m);
        if !(T::AGAIN && T::mover(&self.pos) == before) {
            self.turn_over();
        }
        self.say(io, Event::Moved);
        self.advance(io);
    }

    /// The host's move written as the cells it names, `C3-E5-C7`: denied unless it is legal
    /// (a cell off the board included), unknown unless it reads as cells.
    #[inline(never)]
    fn play_path(&mut self, io: &mut impl Io, mut from: u8, to: u8) {
        let line = self.reader.bytes();
        let mut cells = [0; P];
        let (mut n, mut on_board) = (0, true);
        if Self::P.pits {
            // A pit's number along the ring, from 1.
            let pit = number(line, from, to);
            if pit == NO_NUMBER || pit == 0 {
                return self.say(io, Event::Unknown);
            }
            on_board = pit <= 2 * Self::P.cols as u16;
            (cells[0], n) = ((pit - 1) as u8, 1);
        } else if Self::P.heaps {
            // `HEAP:COUNT`, both from 1.
            let mut colon = from;
            while colon < to && byte(line, colon) != b':' {
                colon += 1;
            }
            let (heap, count) = (number(line, from, colon), number(line, colon + 1, to));
            if colon == to || heap == NO_NUMBER || count == NO_NUMBER || heap == 0 || P < 2 {
                return self.say(io, Event::Unknown);
            }
            on_board = heap <= Self::P.cols as u16 && count < 256;
            (cells[0], cells[1 % P], n) = ((heap - 1) as u8, count as u8, 2);
        } else {
            loop {
                // A cell runs to the next `-` or the end.
                let mut end = from;
                while end < to && byte(line, end) != b'-' {
                    end += 1;
                }
                let col = byte(line, from).to_ascii_uppercase().wrapping_sub(b'A');
                let row = number(line, from + 1, end);
                if from == end || col >= 26 || row == NO_NUMBER || row == 0 || n == P {
                    return self.say(io, Event::Unknown);
                }
                on_board &= col < Self::P.cols && row <= Self::P.rows as u16;
                cells[n] = ((row - 1) as u8).wrapping_mul(T::STRIDE).wrapping_add(col);
                n += 1;
                if end == to {
                    break;
                }
                from = end + 1;
            }
        }
        if !self.in_time(io) {
            return;
        }
        match T::find(&self.pos, &cells[..n]).filter(|_| on_board) {
            Some(m) => self.host_moves(io, m),
            None => self.say(io, Event::Denied),
        }
    }

    /// The side to move passes.
    #[inline(never)]
    fn pass(&mut self) {
        T::pass(&mut self.pos);
        self.turn_over();
    }

    /// The other side is to move; alone, the host still is.
    fn turn_over(&mut self) {
        if !Self::P.alone {
            self.mover ^= 1;
        }
    }

    /// Sets the move clock; one multiplication for every caller.
    #[inline(never)]
    fn set_seconds(&mut self, seconds: u8) {
        // A byte of seconds times 250 fits 16 bits: a 32-bit multiplication would link 84
        // bytes of library code on an 8-bit chip.
        self.move_ms = ((250 * seconds as u16) as u32) << 2;
    }

    /// Whether the host may move now: on its turn and within its clock. If not, says why
    /// (denied, or too late, which then waits for the host to give its turn up).
    #[inline(never)]
    fn in_time(&mut self, io: &mut impl Io) -> bool {
        if self.state != State::HostTurn {
            self.say(io, Event::Denied);
            return false;
        }
        // Alone, or without a word for lateness, the host thinks as long as it likes.
        if !Self::P.alone && Self::P.timed && io.millis().wrapping_sub(self.clock) > self.move_ms {
            self.say(io, Event::TooLate);
            self.state = State::TooLate;
            return false;
        }
        true
    }

    /// Back to choosing sides, or straight into a game when the device's side is fixed.
    fn new_game(&mut self, io: &mut impl Io) {
        io.lamps_off();
        if Self::P.picks_side {
            self.host = NO_SIDE;
            self.state = State::PickSide;
            self.say(io, Event::PickSide);
        } else {
            self.host = Self::P.device_side ^ 1;
            self.start_game(io);
        }
    }

    fn start_game(&mut self, io: &mut impl Io) {
        if T::RANDOM_START {
            // The host's timing mixed in, so that deals differ from one power-up to the next.
            self.rng.mix(io.millis() as u16);
            self.setup = self.rng.below_wide(T::starts());
        }
        self.reset(io);
        self.advance(io);
    }

    /// The start position, the first player to move, the lamps off. Once, not inlined: the
    /// start is built in a copy that would otherwise sit in each caller's frame.
    #[inline(never)]
    fn reset(&mut self, io: &mut impl Io) {
        T::start_at(&mut self.pos, self.setup);
        self.mover = T::FIRST;
        io.lamps_off();
    }

    /// Hands the turn to whoever is to move, or ends the game when nobody can.
    fn advance(&mut self, io: &mut impl Io) {
        // The generated endings also cover a position where nobody may move.
        if let Some(verdict) = T::over(&self.pos) {
            return self.finish(io, verdict, true);
        }
        if self.mover != self.host {
            self.state = State::DeviceTurn;
            return;
        }
        self.state = State::HostTurn;
        self.say(io, if T::can_move(&self.pos) { Event::YourTurn } else { Event::MustPass });
        // The clock starts once the prompt is out.
        self.clock = io.millis();
    }

    #[inline(never)]
    fn device_move(&mut self, io: &mut impl Io) {
        let started = io.millis();
        if T::STRATEGY != Strategy::Search {
            self.rng.mix(started as u16);
        }
        let choice = match T::STRATEGY {
            Strategy::Search => self.search(io, started),
            Strategy::Solved => T::solved(&self.pos, &mut self.rng),
            Strategy::Random => T::random(&self.pos, &mut self.rng),
        };
        match choice {
            Some(best) => {
                let named = T::name(&self.pos, best, &mut self.last);
                // A move of one cell is printed from the first alone.
                if P > 1 {
                    self.named = named;
                }
                let before = T::mover(&self.pos);
                T::play(&mut self.pos, best);
                if !(T::AGAIN && T::mover(&self.pos) == before) {
                    self.mover ^= 1;
                }
                self.say(io, Event::DeviceMoves);
            }
            None => {
                self.pass();
                self.say(io, Event::DevicePasses);
            }
        }
        if self.state == State::DeviceTurn {
            self.advance(io);
        }
    }

    /// The device's search within its move clock.
    #[inline(always)]
    fn search(&mut self, io: &mut impl Io, started: u32) -> Option<u8> {
        // Room for sending the answer and for the nodes between clock checks: an eighth of
        // the clock and 20 ms.
        let limit = (self.move_ms - (self.move_ms >> 3)).saturating_sub(20);
        // By value: the clock's values live in the closure alone, not beside it on the stack.
        let mut out_of_time = move || io.millis().wrapping_sub(started) >= limit;
        let mut budget = Budget::new(u32::MAX, &mut out_of_time);
        let first = if Self::P.deepening { 1 } else { DEPTH };
        let choice = T::search::<N>(&mut self.pos, first, DEPTH, Self::P.order_by_eval, &mut budget);
        let nodes = budget.nodes();
        // SAFETY: the main loop is the only writer; the simulator reads it between steps.
        unsafe {
            LAST_SEARCH_NODES.set(nodes);
            LAST_SEARCH_DEPTH.set(choice.map_or(0, |c| c.depth));
        }
        choice.map(|c| c.best)
    }

    /// Announces the end and the result the game's endings gave (for the side to move).
    fn finish(&mut self, io: &mut impl Io, verdict: Verdict, by_itself: bool) {
        self.state = State::Over;
        if by_itself {
            self.say(io, Event::NeitherCanMove);
        }
        self.say(io, Event::GameOver);
        let winner = match verdict {
            Verdict::Win => Some(self.mover),
            Verdict::Loss => Some(self.mover ^ 1),
            Verdict::Draw => None,
        };
        let result = match winner {
            None => Event::Draw,
            Some(w) if w == self.host => Event::WinHost,
            Some(_) => Event::WinDevice,
        };
        self.say(io, result);
    }

    /// Pieces of a player (by index).
    fn count(&self, player: u8) -> u8 {
        T::count(&self.pos, player == self.mover)
    }

    /// Sends an event's response; an `await` in it makes the device wait for an ack.
    fn say(&mut self, io: &mut impl Io, event: Event) {
        let p = Self::P;
        // SAFETY: `events` is a table in program memory with one entry per event.
        let mut at = unsafe { progmem::word(p.events.as_ptr().add(event as usize)) };
        if at == SILENT {
            return;
        }
        loop {
            // SAFETY: the script the generated code placed in program memory; every response
            // ends with `END`, so the walk stays inside it.
            let b = unsafe { progmem::byte(p.script.as_ptr().add(at as usize)) };
            at += 1;
            match b {
                op::END => return,
                op::NL => {
                    io.write(b'\r');
                    io.write(b'\n');
                }
                op::BOARD if Self::says(op::BOARD) => self.board(io),
                op::AWAIT if Self::says(op::AWAIT) => {
                    self.state = if self.state == State::Over { State::AwaitOver } else { State::Await }
                }
                op::LIGHT if Self::says(op::LIGHT) => {
                    // SAFETY: as above; a lamp's index follows `LIGHT`.
                    io.light(unsafe { progmem::byte(p.script.as_ptr().add(at as usize)) });
                    at += 1;
                }
                op::CELL if Self::says(op::CELL) && Self::P.pits => decimal(io, self.last[0] + 1),
                op::CELL if Self::says(op::CELL) && Self::P.heaps => {
                    decimal(io, self.last[0] + 1);
                    io.write(b':');
                    decimal(io, self.last[1 % P]);
                }
                op::CELL if Self::says(op::CELL) && P == 1 => {
                    io.write(b'A' + self.last[0] % T::STRIDE);
                    decimal(io, self.last[0] / T::STRIDE + 1);
                }
                op::CELL if Self::says(op::CELL) => {
                    for (i, &cell) in self.last.iter().take(self.named as usize).enumerate() {
                        if i > 0 {
                            io.write(b'-');
                        }
                        io.write(b'A' + cell % T::STRIDE);
                        decimal(io, cell / T::STRIDE + 1);
                    }
                }
                op::COLUMN if Self::says(op::COLUMN) => io.write(b'A' + self.last[0] % T::STRIDE),
                op::COUNT_DEVICE if Self::says(op::COUNT_DEVICE) => decimal(io, self.count(self.host ^ 1)),
                op::COUNT_HOST if Self::says(op::COUNT_HOST) => decimal(io, self.count(self.host)),
                text => io.write(text),
            }
        }
    }

    /// The board as text: a header of column letters, then one numbered line per row; heaps a
    /// line each, numbered, their counters after.
    #[inline(never)]
    fn board(&self, io: &mut impl Io) {
        let p = Self::P;
        if p.pits {
            return pits::board(io, p, |c| T::content(&self.pos, c).unwrap_or(0));
        }
        if p.heaps {
            for heap in 0..p.cols {
                decimal(io, heap + 1);
                io.write(b' ');
                for _ in 0..T::content(&self.pos, heap).unwrap_or(0) {
                    io.write(p.glyphs[0]);
                }
                io.write(b'\r');
                io.write(b'\n');
            }
            return;
        }
        let marks = self.state == State::HostTurn && self.mover == self.host;
        // The first player's glyph for the side to move's pieces when the first player moves.
        let mine = if self.mover == 0 { HELD_BY_MOVER } else { HELD_BY_OTHER };
        // Row labels are right-aligned: two columns wide on a board of ten rows or more (a
        // constant: a board of fewer rows links none of it).
        let wide = p.rows >= 10;
        io.write(b' ');
        if wide {
            io.write(b' ');
        }
        for c in 0..p.cols {
            io.write(b' ');
            io.write(b'A' + c);
        }
        io.write(b'\r');
        io.write(b'\n');
        for r in 0..p.rows {
            if wide && r + 1 < 10 {
                io.write(b' ');
            }
            decimal(io, r + 1);
            for c in 0..p.cols {
                let cell = r * T::STRIDE + c;
                let holder = T::holder(&self.pos, cell);
                // A state's glyph (a game without states never has one).
                let state = T::content(&self.pos, cell)
                    .and_then(|c| c.checked_sub(content::FIRST_STATE))
                    .and_then(|k| p.state_glyphs.get(k as usize).copied());
                let glyph = match (state, holder) {
                    (Some(g), _) => g,
                    (None, 0) if marks && T::legal_at(&self.pos, cell) => p.glyphs[3],
                    (None, 0) => p.glyphs[2],
                    (None, h) if h == mine => p.glyphs[0],
                    _ => p.glyphs[1],
                };
                // A further kind's glyph (a game of one kind never has one).
                let glyph = match T::kind(&self.pos, cell) {
                    0 => glyph,
                    k => {
                        let side = (holder != mine) as usize;
                        p.kind_glyphs.get(2 * (k as usize - 1) + side).copied().unwrap_or(b'?')
                    }
                };
                io.write(b' ');
                io.write(glyph);
            }
            io.write(b'\r');
            io.write(b'\n');
        }
    }
}

/// Byte `i` of the line buffer. Indices stay below [`LINE`] (the reader's lengths); the
/// modulo spares a bounds check and its panic at every read.
fn byte(line: &[u8; LINE], i: u8) -> u8 {
    line[i as usize % LINE]
}

/// What [`number`] gives for no number.
const NO_NUMBER: u16 = u16::MAX;

/// The decimal number of up to four digits in `line[from..to]`, or [`NO_NUMBER`].
#[inline(never)]
fn number(line: &[u8; LINE], mut from: u8, to: u8) -> u16 {
    if from >= to || to - from > 4 {
        return NO_NUMBER;
    }
    let mut n = 0u16;
    while from < to {
        let d = byte(line, from).wrapping_sub(b'0');
        if d > 9 {
            return NO_NUMBER;
        }
        n = n * 10 + d as u16;
        from += 1;
    }
    n
}

fn decimal(io: &mut impl Io, n: u8) {
    if n >= 100 {
        io.write(b'0' + n / 100);
    }
    if n >= 10 {
        io.write(b'0' + n / 10 % 10);
    }
    io.write(b'0' + n % 10);
}

mod pits;
#[cfg(test)]
mod tests;
