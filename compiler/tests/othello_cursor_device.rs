//! The Othello rules of `games/othello.game` on the Binario board (a simulated ATmega128),
//! played as a person would: the encoders move the cursor, a press places a disc, the matrix
//! shows the person's discs in red and the device's in green. A whole game to its result,
//! every position checked against the compiler's engine, and an illegal press denied with the
//! board unchanged.

mod device;

use device::{show, Device, Lit, GREEN, RED, YELLOW};
use gamec::engine::{Engine, Move, Outcome, State, STRIDE};
use gamec_dsl::Pin;

const GAME: &str = "games/othello.game";
const BOARD: &str = "boards/othello_with_encoders_atmega128.board";
const G3: f64 = 196.0;

struct Player {
    dev: Device,
    engine: Engine,
    state: State,
    across: (Pin, Pin),
    down: (Pin, Pin),
    select: Pin,
    at: (usize, usize),
    seed: u64,
}

/// The board as the engine holds it: the person (black, player 0) red, the device green.
fn picture(s: &State) -> [[Lit; 8]; 8] {
    let mut p = [[0; 8]; 8];
    for (r, row) in p.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = match s.cells[r * STRIDE + c] {
                1 => RED,
                2 => GREEN,
                _ => 0,
            };
        }
    }
    p
}

impl Player {
    fn boot() -> Player {
        let (elf, target) = device::firmware(GAME, BOARD);
        let game = device::grid_host::load(GAME);
        let engine = Engine::new(&game);
        let state = engine.fixed_start(&game);
        let c = target.cursor.clone().unwrap();
        let mut dev = Device::boot(&elf, &target);
        let enc = |across: bool| c.encoders.iter().find(|e| e.0 == across).map(|e| (e.1, e.2)).unwrap();
        for p in [enc(true).0, enc(true).1, enc(false).0, enc(false).1, c.commit, c.restart.unwrap()] {
            dev.hold(p.port, p.bit, true);
        }
        dev.run_ms(50.0);
        Player {
            dev,
            engine,
            state,
            across: enc(true),
            down: enc(false),
            select: c.commit,
            at: (0, 0),
            seed: 0x2545_F491,
        }
    }

    /// The board as a person reads it: two looks a blink apart, the cursor's cell taken from
    /// the look where it is not yellow.
    fn board(&mut self) -> [[Lit; 8]; 8] {
        let a = self.dev.matrix_over(17.0);
        self.dev.run_ms(200.0);
        let b = self.dev.matrix_over(17.0);
        let mut p = a;
        for r in 0..8 {
            for c in 0..8 {
                if a[r][c] != b[r][c] {
                    p[r][c] = if a[r][c] == YELLOW {
                        b[r][c]
                    } else if b[r][c] == YELLOW {
                        a[r][c]
                    } else {
                        0xFF
                    };
                }
            }
        }
        p
    }

    fn go(&mut self, row: usize, col: usize) {
        while self.at.1 != col {
            let fwd = self.at.1 < col;
            self.dev.turn(self.across.0, self.across.1, fwd);
            self.at.1 = if fwd { self.at.1 + 1 } else { self.at.1 - 1 };
        }
        while self.at.0 != row {
            let fwd = self.at.0 < row;
            self.dev.turn(self.down.0, self.down.1, fwd);
            self.at.0 = if fwd { self.at.0 + 1 } else { self.at.0 - 1 };
        }
    }

    /// Presses select; the pitch heard while the press counts.
    fn press(&mut self) -> f64 {
        self.dev.press_listening(self.select)
    }

    fn random(&mut self, n: usize) -> usize {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        (self.seed % n as u64) as usize
    }

    /// Waits for the device's answer (and any passes): the engine's positions reachable by
    /// the device's moves and passes until it is the person's turn or the game is over, one
    /// of which the matrix must come to show.
    fn device_answers(&mut self) {
        let mut candidates = vec![self.state.clone()];
        let mut frontier = vec![self.state.clone()];
        while let Some(s) = frontier.pop() {
            if s.to_move == 0 && !self.engine.plies(&s).iter().all(|m| *m == Move::Pass) {
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
            let shown = self.board();
            if let Some(s) = candidates.iter().find(|s| settled(&self.engine, s) && picture(s) == shown) {
                self.state = s.clone();
                return;
            }
        }
        panic!("the device never answered with a legal move; the board shows\n{}", show(&self.board()));
    }
}

#[test]
fn a_whole_game_with_the_cursor_against_the_device_and_a_denied_press() {
    let mut p = Player::boot();
    p.dev.track_stack();
    assert_eq!(show(&p.board()), show(&picture(&p.state)), "the start");
    // An illegal cell (the top left, far from any disc): denied, the board unchanged.
    let pitch = p.press();
    assert!((pitch / G3 - 1.0).abs() < 0.03, "denied: {pitch} Hz");
    assert_eq!(show(&p.board()), show(&picture(&p.state)), "unchanged");
    let mut moves = 0;
    while p.engine.outcome(&p.state).is_none() {
        let legal: Vec<Move> = p.engine.plies(&p.state).into_iter().filter(|m| *m != Move::Pass).collect();
        let Move::Put { cell, .. } = legal[p.random(legal.len())] else { unreachable!() };
        let (r, c) = (cell as usize / STRIDE, cell as usize % STRIDE);
        p.go(r, c);
        p.press();
        p.state = p.engine.play(&p.state, Move::Put { action: 0, cell });
        moves += 1;
        p.device_answers();
        assert!(moves < 64);
    }
    // The end: every cell not the winner's blinks to the winner's colour (yellow for a draw).
    let winner = match p.engine.outcome(&p.state) {
        Some(Outcome::Win(0)) => RED,
        Some(Outcome::Win(_)) => GREEN,
        _ => YELLOW,
    };
    let mut saw_filled = false;
    for _ in 0..6 {
        let shown = p.dev.matrix_over(17.0);
        saw_filled |= shown.iter().flatten().all(|&v| v == winner);
        p.dev.run_ms(120.0);
    }
    assert!(saw_filled, "the result shows in the winner's colour ({winner})");
    // The deepest stack the game reached, searches included, is within the bound `gamec
    // build` reads from the machine code (which a clock behind a second `dyn` once defeated).
    let stack = u32::from(p.dev.ramend() - p.dev.lowest_sp().unwrap());
    let (elf, _) = device::firmware(GAME, BOARD);
    let bound = device::stack_bound(GAME, BOARD, &elf);
    assert!(bound.bytes >= stack, "bound {} B under the measured {stack} B: {:?}", bound.bytes, bound.path);
}
