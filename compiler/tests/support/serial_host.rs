//! A host at the other end of a serial game's line, its firmware in QEMU (`crate::qemu`): it
//! keeps the game by the compiler's engine reading the same file, and checks every board the
//! device prints against it.

use crate::qemu::{self, Machine, Port};
use gamec::engine::{Engine, Move, State};
use std::time::Duration;

/// Only a machine that never answers waits this long: the guest runs in virtual time.
pub const WAIT: Duration = Duration::from_secs(120);

/// The game `game` (a path from the repository's root) as the compiler reads it.
pub fn load(game: &str) -> gamec_dsl::GameDef {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(game);
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(game.to_string(), std::fs::read_to_string(path).unwrap());
    gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
}

/// The engine of `game` (a path from the repository's root) and its start.
pub fn engine(game: &str) -> (Engine, State) {
    let def = load(game);
    let engine = Engine::new(&def);
    let start = engine.fixed_start(&def);
    (engine, start)
}

pub struct Host {
    _machine: Machine,
    port: Port,
    pub engine: Engine,
    pub state: State,
    rng: u64,
}

impl Host {
    /// Boots `game` on `board` and reads the prompt to pick a side.
    pub fn boot(game: &str, board: &str, prompt: &str) -> Host {
        let (host, first) = Host::start(game, board);
        assert_eq!(first, prompt);
        host
    }

    /// Boots `game` on `board` and reads its first line, whatever it is.
    pub fn start(game: &str, board: &str) -> (Host, String) {
        let (elf, machine) = qemu::firmware_in(game, board);
        let mut machine = Machine::boot_in(machine, &elf, 1);
        let port = machine.ports.pop().unwrap();
        let (engine, state) = engine(game);
        let mut host = Host { _machine: machine, port, engine, state, rng: 0x9E37_79B9_7F4A_7C15 };
        let first = host.line();
        (host, first)
    }

    pub fn send(&mut self, line: &str) {
        self.port.send(format!("{line}\r").as_bytes());
    }

    pub fn line(&mut self) -> String {
        self.port.until("\n", WAIT).trim_end_matches('\n').to_string()
    }

    pub fn expect(&mut self, text: &str) {
        assert_eq!(self.line(), text);
    }

    pub fn random(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n as u64) as usize
    }

    pub fn play(&mut self, m: Move) {
        self.state = self.engine.play(&self.state, m);
    }

    /// Types a legal move chosen at random (`MV ...`), plays it on the host's game, and reads
    /// the device's `OK`.
    pub fn move_at_random(&mut self) {
        let moves = self.engine.plies(&self.state);
        let m = moves[self.random(moves.len())];
        self.send(&format!("MV {}", self.engine.move_name(m)));
        self.play(m);
        self.expect("OK");
    }

    /// The device's move `MM ...` read from its line, made on the host's game; panics if it
    /// is not legal.
    pub fn device_move(&mut self, line: &str) -> Move {
        let text = line.strip_prefix("MM ").unwrap_or_else(|| panic!("a device move, not {line:?}"));
        let m = self.engine.parse_move(&self.state, text).unwrap_or_else(|e| panic!("{}", e.message));
        self.play(m);
        m
    }

    /// Reads the rows after a board's header (its letters, after right-aligned row labels)
    /// and checks each cell's glyph against the host's game; `glyph` names a cell's content.
    pub fn board(&mut self, header: &str, glyph: impl Fn(u8) -> char) {
        let cols = header.split_whitespace().count();
        let rows = self.state.cells.len() / self.engine.stride;
        // Labels as wide as the last row's number.
        let label = rows.to_string().len();
        assert_eq!(header.len(), label + 2 * cols, "{header:?}");
        for row in 0..rows {
            let l = self.line();
            assert_eq!(l[..label].trim_start(), (row + 1).to_string(), "row label in {l:?}");
            for col in 0..cols {
                let got = l.as_bytes()[label + 1 + 2 * col] as char;
                let want = glyph(self.state.cells[row * self.engine.stride + col]);
                let name = format!("{}{}", (b'A' + col as u8) as char, row + 1);
                assert_eq!(got, want, "{name} in {l:?}\n{}", self.engine.show(&self.state));
            }
        }
    }
}
