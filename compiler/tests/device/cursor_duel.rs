//! A person playing a grid game against the device with the cursor, on a simulated matrix
//! board: turns the encoders to a cell, presses select, reads the board off the matrix (their
//! pieces red, the device's green), and holds every position the device shows to the
//! compiler's engine reading the same file.

use super::{cortex_pins, show, Device, Lit, Pins, GREEN, RED, YELLOW};
use gamec::engine::{Engine, Move, Outcome, State};
use gamec_dsl::{Colour, Pin, ViewSource};
use gamec_runtime::rules::content;
use std::path::Path;

/// What a person does at a cursor board's pins, whatever runs the firmware: simavr for an
/// AVR, QEMU for a Cortex-M.
pub trait CursorPins: Pins {
    /// Everything the matrix lit at some point in `ms` milliseconds.
    fn matrix_over(&mut self, ms: f64) -> [[Lit; 8]; 8];
    /// One detent of the encoder on `a` and `b`.
    fn turn(&mut self, a: Pin, b: Pin, forward: bool);
    /// A press of the button on `p`, and the pitch heard for `ms` once it counts.
    fn press_listening_for(&mut self, p: Pin, ms: f64) -> f64;
}

impl CursorPins for Device {
    fn matrix_over(&mut self, ms: f64) -> [[Lit; 8]; 8] {
        Device::matrix_over(self, ms)
    }
    fn turn(&mut self, a: Pin, b: Pin, forward: bool) {
        Device::turn(self, a, b, forward)
    }
    fn press_listening_for(&mut self, p: Pin, ms: f64) -> f64 {
        Device::press_listening_for(self, p, ms)
    }
}

impl CursorPins for cortex_pins::Board {
    fn matrix_over(&mut self, ms: f64) -> [[Lit; 8]; 8] {
        cortex_pins::Board::matrix_over(self, ms)
    }
    fn turn(&mut self, a: Pin, b: Pin, forward: bool) {
        cortex_pins::Board::turn(self, a, b, forward)
    }
    fn press_listening_for(&mut self, p: Pin, ms: f64) -> f64 {
        cortex_pins::Board::press_listening_for(self, p, ms)
    }
}

/// The cells a move names, a press each: a placement's one cell, or a piece and each cell its
/// path goes to.
pub fn cells_of(m: Move) -> Vec<usize> {
    match m {
        Move::Put { cell, .. } => vec![cell as usize],
        Move::Path(p) => p.cells().iter().map(|&c| c as usize).collect(),
        other => panic!("{other:?} is not entered with a cursor"),
    }
}

/// Two looks at the matrix a blink apart, and where the cursor was.
pub struct Looks {
    pub a: [[Lit; 8]; 8],
    pub b: [[Lit; 8]; 8],
    cursor: (usize, usize),
}

impl Looks {
    /// Whether they show `want` (see [`CursorDuel::shows`]).
    pub fn show(&self, want: &[[Lit; 8]; 8]) -> bool {
        (0..8).all(|r| {
            (0..8).all(|c| match (r, c) == self.cursor {
                true => self.a[r][c] == want[r][c] || self.b[r][c] == want[r][c],
                false => self.a[r][c] == want[r][c] && self.b[r][c] == want[r][c],
            })
        })
    }
}

/// The pitch every cursor game's `tune denied` here starts on.
pub const G3: f64 = 196.0;

/// Whether `pitch` is the denied tune's G3.
pub fn denied(pitch: f64) -> bool {
    (pitch / G3 - 1.0).abs() < 0.03
}

pub struct CursorDuel<D: CursorPins = Device> {
    pub dev: D,
    pub engine: Engine,
    pub state: State,
    /// Cell numbers a row apart, in the engine's positions, and the grid's columns and rows.
    stride: usize,
    size: (usize, usize),
    /// The colour the game file gives each content (`show cells = colours { ... }`).
    palette: [Lit; content::FIRST_KIND as usize],
    across: (Pin, Pin),
    /// None on a line, whose cursor only goes across.
    down: Option<(Pin, Pin)>,
    select: Pin,
    /// The cursor's row and column.
    at: (usize, usize),
    seed: u64,
}

impl CursorDuel<Device> {
    /// The firmware booted in simavr with every input released, the person player 0.
    pub fn boot(game: &str, board: &str) -> Self {
        Self::boot_with(game, board, Device::boot)
    }

    /// The deepest stack the game reached, searches included, is within the bound `gamec
    /// build` reads from the machine code (stack tracking on since boot).
    pub fn assert_within_the_stack_bound(&mut self, game: &str, board: &str) {
        let stack = u32::from(self.dev.ramend() - self.dev.lowest_sp().unwrap());
        let (elf, _) = super::firmware(game, board);
        let bound = super::stack_bound(game, board, &elf);
        assert!(bound.bytes >= stack, "bound {} B under the measured {stack} B: {:?}", bound.bytes, bound.path);
    }
}

impl CursorDuel<cortex_pins::Board> {
    /// The firmware booted in QEMU, in virtual time, with every input released, the person
    /// player 0.
    pub fn boot_in_qemu(game: &str, board: &str) -> Self {
        Self::boot_with(game, board, |elf, target| {
            cortex_pins::Board::boot(elf, target, cortex_pins::Pace::Virtual).unwrap_or_else(|e| panic!("{e}"))
        })
    }
}

impl<D: CursorPins> CursorDuel<D> {
    /// The firmware booted by `boot`, every input released, the person player 0.
    fn boot_with(game: &str, board: &str, boot: impl FnOnce(&Path, &gamec::bind::Target) -> D) -> Self {
        let (elf, target) = super::firmware(game, board);
        let def = super::grid_host::load(game);
        let engine = Engine::new(&def);
        let state = engine.fixed_start(&def);
        let (stride, size) = engine.with_game(|g| {
            let geometry = g.rules.geometry;
            (geometry.stride as usize, (geometry.cols as usize, geometry.rows as usize))
        });
        let colours = def
            .interface
            .views
            .iter()
            .find_map(|v| match v.source {
                ViewSource::Colours(c) => Some(c),
                _ => None,
            })
            .expect("a game played with a cursor shows colours");
        let palette = std::array::from_fn(|k| match colours.of(k as u8) {
            Colour::Off => 0,
            Colour::Red => RED,
            Colour::Green => GREEN,
            Colour::Yellow => YELLOW,
        });
        let c = target.cursor.clone().unwrap();
        let mut dev = boot(&elf, &target);
        let enc = |across: bool| c.encoders.iter().find(|e| e.0 == across).map(|e| (e.1, e.2));
        let (across, down) = (enc(true).expect("a cursor across"), enc(false));
        let mut released = vec![across.0, across.1, c.commit, c.restart.unwrap()];
        released.extend(down.iter().flat_map(|d| [d.0, d.1]));
        for p in released {
            dev.hold(p.port, p.bit, true);
        }
        // Past the display's first pictures: a look in the first 70 ms can miss a column's
        // turn, and the first picture waits for the rules to settle the start (listing its
        // moves, tens of milliseconds a time at 8 MHz).
        dev.run_ms(100.0);
        for _ in 0..20 {
            if dev.matrix_over(17.0).iter().flatten().any(|&v| v != 0) {
                break;
            }
            dev.run_ms(100.0);
        }
        CursorDuel {
            dev,
            engine,
            state,
            stride,
            size,
            palette,
            across,
            down,
            select: c.commit,
            at: (0, 0),
            seed: 0x2545_F491,
        }
    }

    /// A position as the matrix shows it, in the game file's colours (a piece of a further
    /// kind in its owner's).
    pub fn picture(&self, s: &State) -> [[Lit; 8]; 8] {
        let mut p = [[0; 8]; 8];
        for (r, row) in p.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                let on_grid = c < self.size.0 && r < self.size.1;
                let cell = s.cells.get(r * self.stride + c).copied().filter(|_| on_grid);
                *v = match cell {
                    Some(k) if k >= content::FIRST_KIND => match content::kind_and_owner(k) {
                        Some((_, owner)) => self.palette[content::piece(0, owner) as usize],
                        None => 0,
                    },
                    Some(k) => self.palette[k as usize],
                    None => 0,
                };
            }
        }
        p
    }

    /// Two looks at the matrix a blink apart (the cursor blinks every 200 ms).
    pub fn looks(&mut self) -> Looks {
        let a = self.dev.matrix_over(17.0);
        self.dev.run_ms(200.0);
        let b = self.dev.matrix_over(17.0);
        Looks { a, b, cursor: self.at }
    }

    /// The matrix shows `want`: every cell in both looks, but the cursor's, which shows it in
    /// one of them (in the other it blinks).
    pub fn assert_shows(&mut self, want: &[[Lit; 8]; 8], what: &str) {
        let l = self.looks();
        assert!(l.show(want), "{what}: want\n{}the matrix shows\n{}and then\n{}", show(want), show(&l.a), show(&l.b));
    }

    /// The cursor onto `cell` (in the engine's numbering), a detent at a time.
    pub fn go(&mut self, cell: usize) {
        let (row, col) = (cell / self.stride, cell % self.stride);
        while self.at.1 != col {
            let fwd = self.at.1 < col;
            self.dev.turn(self.across.0, self.across.1, fwd);
            self.at.1 = if fwd { self.at.1 + 1 } else { self.at.1 - 1 };
        }
        while self.at.0 != row {
            let fwd = self.at.0 < row;
            let down = self.down.expect("a cursor down on a grid of rows");
            self.dev.turn(down.0, down.1, fwd);
            self.at.0 = if fwd { self.at.0 + 1 } else { self.at.0 - 1 };
        }
    }

    /// Presses select; the pitch heard while the press counts (within 120 ms: a game on the
    /// rule core lists its moves once or twice to judge a press, about 20 ms each at 8 MHz).
    pub fn press(&mut self) -> f64 {
        self.dev.press_listening_for(self.select, 100.0)
    }

    /// After the end, a press starts a game again (the next start, once one is won), the
    /// cursor back at the top left.
    pub fn play_again(&mut self) {
        self.press();
        self.at = (0, 0);
        self.dev.run_ms(100.0);
    }

    /// The cursor onto `cell`, then a press there; the pitch heard.
    pub fn press_at(&mut self, cell: usize) -> f64 {
        self.go(cell);
        self.press()
    }

    /// The legal move that names `cells`.
    pub fn move_of(&self, cells: &[usize]) -> Option<Move> {
        self.legal().into_iter().find(|&m| cells_of(m) == cells)
    }

    /// The cells of `m` entered, a press each, and the move made. Where a longer move begins
    /// with the same cells (one pin, or the pair it starts), the last is pressed again to
    /// play the shorter.
    pub fn enter(&mut self, m: Move) {
        let cells = cells_of(m);
        let longer = self.legal().into_iter().any(|o| {
            let more = cells_of(o);
            more.len() > cells.len() && more.starts_with(&cells)
        });
        for &c in &cells {
            self.press_at(c);
        }
        if longer {
            self.press_at(*cells.last().expect("a move names a cell"));
        }
        self.state = self.engine.play(&self.state, m);
    }

    pub fn random(&mut self, n: usize) -> usize {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        (self.seed % n as u64) as usize
    }

    /// The person's legal moves, passes aside.
    pub fn legal(&self) -> Vec<Move> {
        self.engine.plies(&self.state).into_iter().filter(|m| *m != Move::Pass).collect()
    }

    /// Waits for the device's answer (and any passes): the engine's positions reachable by
    /// the device's moves and passes until it is the person's turn or the game is over, one
    /// of which the matrix must come to show.
    pub fn device_answers(&mut self) {
        let mut candidates = vec![self.state.clone()];
        let mut frontier = vec![self.state.clone()];
        while let Some(s) = frontier.pop() {
            if s.to_move == 0 && !self.engine.plies(&s).iter().all(|m| *m == Move::Pass) {
                continue;
            }
            if self.engine.outcome(&s).is_some() {
                continue;
            }
            for m in self.engine.plies(&s) {
                let t = self.engine.play(&s, m);
                candidates.push(t.clone());
                frontier.push(t);
            }
        }
        let settled = |e: &Engine, s: &State| {
            e.outcome(s).is_some() || (s.to_move == 0 && e.plies(s).iter().any(|m| *m != Move::Pass))
        };
        for _ in 0..40 {
            self.dev.run_ms(150.0);
            let looks = self.looks();
            if let Some(s) = candidates.iter().find(|s| settled(&self.engine, s) && looks.show(&self.picture(s))) {
                self.state = s.clone();
                return;
            }
        }
        panic!("the device never answered with a legal move; the board shows\n{}", show(&self.looks().a));
    }

    /// A whole game from here: the person's moves at random, the device's answers checked;
    /// how many moves the person made (fewer than `longest`, or the game goes round in circles).
    pub fn play_to_the_end(&mut self, longest: usize) -> usize {
        let mut moves = 0;
        while self.engine.outcome(&self.state).is_none() {
            let legal = self.legal();
            let m = legal[self.random(legal.len())];
            self.enter(m);
            moves += 1;
            if self.engine.outcome(&self.state).is_none() {
                self.device_answers();
            }
            assert!(moves < longest, "the game ends within {longest} moves");
        }
        moves
    }

    /// A whole game from here against a device that plays from a solved table: the person's
    /// moves at random, each device answer held to the best moves by `solved` (the compiler's
    /// own solution); how many answers the device gave.
    pub fn play_against_the_solved_game(&mut self, solved: &gamec::engine::solve::Solved) -> usize {
        let mut answers = 0;
        while self.engine.outcome(&self.state).is_none() {
            let legal = self.legal();
            let m = legal[self.random(legal.len())];
            self.enter(m);
            if self.engine.outcome(&self.state).is_some() {
                break;
            }
            let before = self.state.clone();
            self.device_answers();
            let best: Vec<State> =
                self.engine.best_plies(solved, &before).iter().map(|&m| self.engine.play(&before, m)).collect();
            assert!(
                best.contains(&self.state),
                "the device's answer is not a best move:\n{}",
                self.engine.show(&before)
            );
            answers += 1;
        }
        answers
    }

    /// The colour the end fills the grid with: the winner's (player 0 red, player 1 green),
    /// yellow for a draw.
    pub fn result_colour(&self) -> Lit {
        match self.engine.outcome(&self.state) {
            Some(Outcome::Win(0)) => RED,
            Some(Outcome::Win(_)) => GREEN,
            _ => YELLOW,
        }
    }

    /// At the end, every cell not the winner's blinks to the winner's colour (yellow for a
    /// draw): whether the whole grid showed it within a second.
    pub fn shows_the_result(&mut self, winner: Lit) -> bool {
        let mut saw_filled = false;
        for _ in 0..6 {
            let shown = self.dev.matrix_over(17.0);
            let (cols, rows) = self.size;
            saw_filled |= shown[..rows].iter().all(|row| row[..cols].iter().all(|&v| v == winner));
            self.dev.run_ms(120.0);
        }
        saw_filled
    }
}
