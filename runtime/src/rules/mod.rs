//! The rule core: every move a game file can write, as a short program of choices and effects
//! that this module plays, on the host for the compiler's engine and on a chip for firmware.
//!
//! A move form of the language (a placement, a slide, a jump, a press that toggles neighbours,
//! counters taken from a heap) lowers to one [`Action`]: a list of [`Op`]s run in order. A
//! *choice* op ([`Op::Pick`], [`Op::Step`], [`Op::Jump`], [`Op::Ride`], [`Op::Take`]) branches
//! over the cells (or heaps and counts) it may reach and records each in the move's [`Path`];
//! an *effect* op changes the board at the cursor (the last cell chosen) or around it; a
//! *test* op ([`Op::Rests`], or an effect that requires something, as [`Op::Flank`] does)
//! ends a branch that fails it. [`Op::Chain`] goes back to an earlier choice from where the
//! piece landed while that choice can still be made, as a multi-jump does. Every change is
//! logged so that a branch is undone in place: generation needs no copy of the board.

pub mod as_placement;
pub mod ending;
pub mod eval;
pub mod game;
mod geometry;
mod play;
pub mod solved;

pub use geometry::{Dirs, Geometry};
pub use play::{run_nesting, AnyLog, Board, Changes, Emit, Every, Log, Path, Program, Rules, Walk, MAX_PATH, RUN};

/// What a cell holds, numbered as the compiler numbers it (`gamec_dsl::content`).
pub mod content {
    pub const EMPTY: u8 = 0;
    /// A piece that belongs to nobody.
    pub const SHARED: u8 = 1;
    /// The first of the states a puzzle's cells may take.
    pub const FIRST_STATE: u8 = 3;
    /// The most states a game may declare.
    pub const MAX_STATES: u8 = 6;
    /// The first content of the second and later kinds of piece.
    pub const FIRST_KIND: u8 = FIRST_STATE + MAX_STATES;
    /// The most kinds of piece a game may declare.
    pub const MAX_KINDS: u8 = 8;

    /// `player`'s piece of `kind` (kind 0 is numbered 1 + player, as before kinds existed).
    pub const fn piece(kind: u8, player: u8) -> u8 {
        if kind == 0 {
            1 + player
        } else {
            FIRST_KIND + 2 * (kind - 1) + player
        }
    }

    /// The kind and owner of a player's piece; `None` for anything else.
    pub const fn kind_and_owner(c: u8) -> Option<(u8, u8)> {
        match c {
            1 | 2 => Some((0, c - 1)),
            c if c >= FIRST_KIND && c < FIRST_KIND + 2 * (MAX_KINDS - 1) => {
                Some((1 + (c - FIRST_KIND) / 2, (c - FIRST_KIND) % 2))
            }
            _ => None,
        }
    }
}

/// A ride's `max` that goes as far as the board does.
pub const FAR: u8 = u8::MAX;

/// A set of piece kinds, a bit per kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kinds(pub u8);

impl Kinds {
    pub const ALL: Kinds = Kinds(0xff);
    pub const fn has(self, kind: u8) -> bool {
        self.0 >> kind & 1 == 1
    }
}

/// What a cell must hold for a choice to stop on it or pass over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holds {
    Empty,
    /// Anything, empty or not (a cell on the board).
    Anything,
    /// Anything but empty.
    Occupied,
    /// The mover's piece of one of these kinds.
    Mine(Kinds),
    /// The opponent's piece of one of these kinds.
    Theirs(Kinds),
    /// Empty, or the opponent's piece (a landing that captures what it lands on).
    EmptyOrTheirs,
}

/// A set of cells a rule may name: one the file declares, or the far row of the player a
/// piece belongs to (the last row in that player's forward direction).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    Declared(u8),
    FarRow,
}

/// How a cell's contents change, in order, wrapping (a cycle of states, or a toggle): kept
/// inline, so that a program is plain data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Order {
    len: u8,
    values: [u8; Order::MAX],
}

impl Order {
    /// Empty, a piece of each player, and every state.
    pub const MAX: usize = 3 + content::MAX_STATES as usize;

    pub const fn new(values: &[u8]) -> Order {
        let mut order = Order { len: values.len() as u8, values: [0; Order::MAX] };
        let mut i = 0;
        while i < values.len() {
            order.values[i] = values[i];
            i += 1;
        }
        order
    }

    pub fn values(&self) -> &[u8] {
        &self.values[..self.len as usize]
    }

    /// What follows `c`; `None` when `c` is not in the order.
    pub fn next(&self, c: u8) -> Option<u8> {
        let values = self.values();
        let i = values.iter().position(|&x| x == c)?;
        Some(values[(i + 1) % values.len()])
    }
}

/// One step of a move's program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Choose any cell that holds `what` (and, with `free`, one the setup left empty): the
    /// move's origin and its cursor.
    Pick { what: Holds, free: bool },
    /// Choose a direction of `dirs` and move the cursor one cell onto a cell holding `to`.
    Step { dirs: Dirs, to: Holds },
    /// Choose a direction and move the cursor two cells: over one holding `over` onto one
    /// holding `to`; with `capture`, the cell jumped over is emptied.
    Jump { dirs: Dirs, over: Holds, to: Holds, capture: bool },
    /// Choose a direction and a distance `min..=max` ([`FAR`]: as far as the board goes) and
    /// move the cursor that far: every cell passed over holds `over`, the landing holds `to`.
    /// A distance of 0 (with `min` 0) stays on the cursor, if it holds `to`.
    Ride { dirs: Dirs, min: u8, max: u8, over: Holds, to: Holds },
    /// Only where the cursor's neighbour in `dir` is off the board or not empty (a drop).
    Rests { dir: Dirs },
    /// Choose a heap (a cell's counter count) and take `min..=max` counters from it (`max` 0:
    /// as many as it holds).
    Take { min: u8, max: u8 },
    /// Put the mover's piece of `kind` on the cursor (or a shared piece, `kind` ignored, where
    /// pieces belong to nobody).
    Put { kind: u8 },
    /// Move what stands on the origin to the cursor, replacing what was there (a capture by
    /// landing); the origin becomes the cursor.
    Carry,
    /// Empty every cell from the origin to the cursor, along the way the last choice went (a
    /// run of pins knocked down).
    ClearRun,
    /// Step the cursor's cell through `order`; a cell not in it ends the branch.
    Cycle { order: Order },
    /// Step the cursor's neighbours in `dirs` (those on the board) through `order`, leaving
    /// a cell that is not in it as it is.
    Around { dirs: Dirs, order: Order },
    /// In each direction of `dirs`, a run of the opponent's pieces ended by one of the
    /// mover's turns over; with `required`, a branch that turns nothing over ends.
    Flank { dirs: Dirs, required: bool },
    /// The piece on the cursor becomes a piece of `kind` when the cursor is in `region`.
    Promote { kind: u8, region: Region },
    /// Go back to op `to` (a choice made from the cursor) while it can be made; the move ends
    /// where it no longer can.
    Chain { to: u8 },
    /// Empty the cursor's pit, one of the mover's, and sow its counters one a pit around the
    /// ring ([`Pits`]), then take what the last one's landing captures.
    Sow(Sow),
}

/// A board of pits ([`Op::Sow`]): two rows, row `p` player `p`'s side, its pits left to right
/// and then, with `stores`, its store. The ring runs along row 0 and on along row 1, so a
/// side's pits lead to its own store; pit `k` of a side faces pit `n - 1 - k` of the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pits {
    pub stores: bool,
}

/// How a sowing goes and what its last counter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sow {
    /// The mover's own store is sown into (the opponent's never is).
    pub into_store: bool,
    /// A lap of the ring passes over the pit the counters came from.
    pub skip_origin: bool,
    /// A last counter in the mover's store gives the mover another move.
    pub again: bool,
    pub capture: Capture,
}

/// What the last counter of a sowing captures, into the mover's store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    Nothing,
    /// Landing in an empty pit of the mover's facing a pit that is not empty: the last
    /// counter and the facing pit's.
    Opposite,
    /// Landing in an opponent's pit that then holds `min..=max`: that pit's counters, and
    /// those of each pit before it on that side that holds as many, until one does not.
    Making {
        min: u8,
        max: u8,
    },
}

/// One action of a game: its program, and what it means for the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Action<'a> {
    pub ops: &'a [Op],
    /// While any action marked `must` can be taken, only those can (mandatory capture).
    pub must: bool,
    /// Conditions that must hold once the move is made (`place ... where ...`), judged with
    /// the next player to move.
    pub conditions: &'a [ending::Condition],
}
