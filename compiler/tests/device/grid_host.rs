//! A host at the other end of a grid game's serial line, keeping the game by the compiler's
//! general reading of the rules (the engine) as it plays: every board dump and every device
//! move is checked against it.

use super::{firmware, Device};
use gamec::engine::{Engine, Move, Outcome, State, STRIDE};
use gamec_dsl::GameDef;
use std::path::Path;

pub struct GridHost {
    pub dev: Device,
    pub engine: Engine,
    pub game: GameDef,
    pub state: State,
    /// Player index the host plays.
    pub host: u8,
    /// Glyphs of the board dump: the first player's, the second's, empty, legal.
    pub glyphs: [char; 4],
    rng: u64,
}

pub fn load(game: &str) -> GameDef {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(game);
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(game.to_string(), std::fs::read_to_string(path).unwrap());
    gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
}

impl GridHost {
    pub fn boot(game: &str, board: &str, glyphs: [char; 4], seed: u64) -> GridHost {
        let (elf, target) = firmware(game, board);
        let def = load(game);
        let engine = Engine::new(&def);
        let state = engine.fixed_start(&def);
        GridHost { dev: Device::boot(&elf, &target), engine, game: def, state, host: 0, glyphs, rng: seed }
    }

    pub fn line(&mut self) -> String {
        self.dev
            .read_line(3000.0)
            .unwrap_or_else(|| panic!("the device answers within 3 s\n{}", self.engine.show(&self.state)))
            .text
    }

    pub fn expect(&mut self, text: &str) {
        let l = self.line();
        assert_eq!(l, text, "\n{}", self.engine.show(&self.state));
    }

    /// Nothing more arrives within `ms`.
    pub fn silent(&mut self, ms: f64) {
        if let Some(l) = self.dev.read_line(ms) {
            panic!("unexpected {:?}", l.text);
        }
    }

    /// Reads a board dump and checks every cell against the host's position; returns the
    /// cells marked as the host's legal moves.
    pub fn board(&mut self) -> Vec<u8> {
        let gamec::engine::Shape::Grid { cols, rows } = self.engine.shape else { panic!("a grid game") };
        let header: String = (0..cols).map(|c| format!(" {}", (b'A' + c) as char)).collect();
        self.expect(&format!(" {header}"));
        let mut marked = Vec::new();
        for r in 0..rows as usize {
            let l = self.line();
            assert_eq!(&l[..1], &(r + 1).to_string(), "row label in {l:?}");
            for c in 0..cols as usize {
                let glyph = l.chars().nth(2 + 2 * c).unwrap_or(' ');
                let cell = (r * STRIDE + c) as u8;
                let want = match self.state.cells[cell as usize] {
                    0 if glyph == self.glyphs[3] => {
                        marked.push(cell);
                        self.glyphs[3]
                    }
                    0 => self.glyphs[2],
                    v => self.glyphs[v as usize - 1],
                };
                assert_eq!(
                    glyph,
                    want,
                    "cell {} in row {l:?}\n{}",
                    self.engine.cell_name(cell),
                    self.engine.show(&self.state)
                );
            }
        }
        marked
    }

    pub fn legal(&self) -> Vec<Move> {
        self.engine.plies(&self.state)
    }

    pub fn random(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n as u64) as usize
    }

    /// Plays `m` for the host by the rules as the host keeps them (the device answers by itself).
    pub fn apply(&mut self, m: Move) {
        self.state = self.engine.play(&self.state, m);
    }

    /// Reads the device's `MM <cell>` (or `<column>`), checks it is legal and plays it.
    pub fn device_moves(&mut self, prefix: &str) -> Move {
        let l = self.line();
        let name = l.strip_prefix(prefix).unwrap_or_else(|| panic!("a device move, not {l:?}")).to_string();
        let m = self
            .engine
            .parse_move(&self.state, &name)
            .unwrap_or_else(|e| panic!("{}\n{}", e.message, self.engine.show(&self.state)));
        self.apply(m);
        m
    }

    pub fn over(&self) -> Option<Outcome> {
        self.engine.outcome(&self.state).or_else(|| self.legal().is_empty().then_some(Outcome::Draw))
    }

    /// A lamp of the board (active low) is lit.
    pub fn lit(&mut self, port: char, bit: u8) -> bool {
        !self.dev.pin_level(port, bit)
    }
}

/// What a benchmark game measured: the device's searches (nodes, depth, milliseconds), the
/// deepest stack, and the image's sizes.
pub struct Measured {
    pub searches: Vec<(u32, u8, f64)>,
    pub stack: u16,
    /// The bound `gamec build` reads off the machine code, checked to cover `stack`.
    pub bound: u32,
    pub flash: u32,
    pub ram: u32,
}

impl GridHost {
    /// Plays a whole game with the host moving at random, sampling the stack after every
    /// instruction and reading the device's last search out of its RAM after each move.
    pub fn measure_game(game: &str, board: &str, glyphs: [char; 4], side: (&str, u8), pick: &str) -> Measured {
        let (elf, _) = firmware(game, board);
        // A game that does not search has no search statistics.
        let stats = super::find_symbol(&elf, "LAST_SEARCH_NODES").zip(super::find_symbol(&elf, "LAST_SEARCH_DEPTH"));
        let mut h = GridHost::boot(game, board, glyphs, 0x5EED);
        h.dev.track_stack();
        h.expect(pick);
        h.host = side.1;
        h.dev.send(&format!("SP {}", side.0));
        h.expect("OK");
        let mut searches = Vec::new();
        loop {
            if h.state.to_move == h.host {
                h.board();
                h.line();
                let legal = h.legal();
                let m = legal[h.random(legal.len())];
                let name = h.engine.move_name(m);
                h.dev.send(&format!("MV {name}"));
                h.apply(m);
                h.line();
            } else {
                let sent = h.dev.cycles;
                h.device_moves("MM ");
                let ms = (h.dev.cycles - sent) as f64 * 1000.0 / h.dev.target.clock_hz as f64;
                let (nodes, depth) = match stats {
                    Some(((n, _), (d, _))) => {
                        (u32::from_le_bytes([0, 1, 2, 3].map(|i| h.dev.peek(n as u16 + i))), h.dev.peek(d as u16))
                    }
                    None => (0, 0),
                };
                searches.push((nodes, depth, ms));
                h.dev.send("OK");
            }
            if h.over().is_some() {
                break;
            }
        }
        let stack = h.dev.ramend() - h.dev.lowest_sp().unwrap();
        let sizes = gamec::driver::sizes(&std::fs::read(&elf).unwrap()).unwrap();
        let bound = super::stack_bound(game, board, &elf);
        assert!(
            bound.bytes >= u32::from(stack),
            "bound {} B under the measured {stack} B: {:?}",
            bound.bytes,
            bound.path
        );
        Measured { searches, stack, bound: bound.bytes, flash: sizes.flash(), ram: sizes.ram() }
    }
}

/// The replies the shipped grid games give (tic-tac-toe, Connect Four): the prompt, and the
/// result's lines with the lamps (active low: won, lost, draw) that go with them.
impl GridHost {
    /// The host's turn: the board with its legal cells marked, then the prompt.
    pub fn host_turn(&mut self) {
        let marked = self.board();
        let mut legal: Vec<u8> = self
            .legal()
            .into_iter()
            .map(|m| match m {
                Move::Put { cell, .. } => cell,
                other => panic!("a placement or a drop, not {other:?}"),
            })
            .collect();
        legal.sort();
        legal.dedup();
        assert_eq!(marked, legal, "the host's legal cells are marked");
        self.expect("Your move");
    }

    /// Reads the end: the board, the result, the lamp; returns the outcome announced.
    pub fn the_end(&mut self, lamps: [(char, u8); 3]) -> Outcome {
        self.board();
        let said = self.line();
        self.dev.send("OK");
        let (outcome, lamp) = match said.as_str() {
            "I win" => (Outcome::Win(1 - self.host), 0),
            "You win" => (Outcome::Win(self.host), 1),
            "Draw" => (Outcome::Draw, 2),
            other => panic!("a result, not {other:?}"),
        };
        assert_eq!(Some(outcome), self.over(), "the announced result is the rules' result");
        self.dev.run_ms(5.0);
        for (i, &(port, bit)) in lamps.iter().enumerate() {
            assert_eq!(self.lit(port, bit), i == lamp, "lamp {i} after {said:?}");
        }
        outcome
    }

    /// Plays one game to its end as player `host` (chosen with `SP <side>`), moving at random;
    /// returns the outcome.
    pub fn play_game(&mut self, side: &str, host: u8, lamps: [(char, u8); 3]) -> Outcome {
        self.host = host;
        self.state = self.engine.fixed_start(&self.game);
        self.dev.send(&format!("SP {side}"));
        self.expect("OK");
        loop {
            if self.state.to_move == self.host {
                self.host_turn();
                let legal = self.legal();
                let m = legal[self.random(legal.len())];
                let name = self.engine.move_name(m);
                self.dev.send(&format!("MV {name}"));
                self.apply(m);
                self.expect("OK");
            } else {
                self.device_moves("MM ");
                self.dev.send("OK");
            }
            if self.over().is_some() {
                return self.the_end(lamps);
            }
        }
    }
}
