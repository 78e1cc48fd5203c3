//! Checkers' firmware (games/checkers.game, on the rule core) in qemu-system-arm's
//! netduinoplus2, played over its USART as a person at a terminal would: every board the
//! device prints, every move it makes and the result are checked against the compiler's engine
//! reading the same file; then what must be refused, and the board unchanged by it.

// Shared with set_device.rs, which uses more of it.
#[allow(dead_code)]
mod qemu;

use gamec::engine::{Engine, Move, Outcome, State};
use qemu::{Machine, Port};
use std::time::Duration;

const GAME: &str = "games/checkers.game";
const BOARD: &str = "boards/checkers_netduinoplus2.board";
/// Only a machine that never answers waits this long: the guest runs in virtual time.
const WAIT: Duration = Duration::from_secs(120);
/// A game that has not ended in this many plies is the firmware going round in circles.
const LONGEST: usize = 400;

fn engine() -> (Engine, State) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(GAME);
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(GAME.to_string(), std::fs::read_to_string(path).unwrap());
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let engine = Engine::new(&game);
    let start = engine.fixed_start(&game);
    (engine, start)
}

/// A host at the other end of the line, keeping the game by the engine as it goes.
struct Host {
    _machine: Machine,
    port: Port,
    engine: Engine,
    state: State,
    rng: u64,
    /// Turns the host lost to the move clock (the guest's clock runs while the host reads).
    late: usize,
}

impl Host {
    fn boot() -> Host {
        let elf = qemu::firmware(GAME, BOARD);
        let mut machine = Machine::boot(&elf, 1);
        let port = machine.ports.pop().unwrap();
        let (engine, state) = engine();
        let mut host = Host { _machine: machine, port, engine, state, rng: 0x9E37_79B9_7F4A_7C15, late: 0 };
        assert_eq!(host.line(), "Pick Black/White");
        host
    }

    fn send(&mut self, line: &str) {
        self.port.send(format!("{line}\r").as_bytes());
    }

    fn line(&mut self) -> String {
        self.port.until("\n", WAIT).trim_end_matches('\n').to_string()
    }

    fn expect(&mut self, text: &str) {
        assert_eq!(self.line(), text);
    }

    fn random(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n as u64) as usize
    }

    /// Reads the rows after a board's header and checks each cell against the host's game.
    fn board(&mut self, header: &str) {
        assert_eq!(header, "  A B C D E F G H");
        for row in 0..8u8 {
            let l = self.line();
            assert_eq!(&l[..1], &(row + 1).to_string(), "row label in {l:?}");
            for col in 0..8u8 {
                let glyph = l.as_bytes()[2 + 2 * col as usize] as char;
                let want = match self.state.cells[(row * 8 + col) as usize] {
                    0 => '.',
                    1 => 'b',
                    2 => 'w',
                    9 => 'B',
                    10 => 'W',
                    other => panic!("content {other}"),
                };
                // A cell a move may be named by alone would be marked; no checkers move is.
                assert_eq!(
                    glyph,
                    want,
                    "{}{} in {l:?}\n{}",
                    (b'A' + col) as char,
                    row + 1,
                    self.engine.show(&self.state)
                );
            }
        }
    }

    fn play(&mut self, m: Move) {
        self.state = self.engine.play(&self.state, m);
    }

    /// Plays a whole game as `side` ("B" or "W"), the host's moves at random; the result the
    /// device announced.
    fn play_game(&mut self, side: &str) -> &'static str {
        let me = if side == "B" { 0 } else { 1 };
        self.send(&format!("SP {side}"));
        self.expect("OK");
        for _ in 0..LONGEST {
            let line = self.line();
            match line.as_str() {
                t if t.starts_with("  A") => self.board(t),
                "Your move" => {
                    assert_eq!(self.state.to_move, me, "the host's turn");
                    let moves = self.engine.plies(&self.state);
                    let m = moves[self.random(moves.len())];
                    self.send(&format!("MV {}", self.engine.move_name(m)));
                    // The board after the move, then OK; or the clock ran out first.
                    let next = self.line();
                    if next == "IT" {
                        // The guest's clock ran on while this thread was not scheduled: the turn
                        // is lost, not the move made.
                        self.late += 1;
                        self.state.to_move = 1 - me;
                        self.send("OK");
                        continue;
                    }
                    self.play(m);
                    self.board(&next);
                    self.expect("OK");
                }
                t if t.starts_with("MM ") => {
                    assert_eq!(self.state.to_move, 1 - me, "the device moves in its turn");
                    let m = self.engine.parse_move(&self.state, &t[3..]).unwrap_or_else(|e| panic!("{}", e.message));
                    self.play(m);
                    self.send("OK");
                }
                t if t.starts_with("Game over") => assert!(self.engine.outcome(&self.state).is_some(), "{t}"),
                "WN" | "LS" | "TE" => {
                    let want = match self.engine.outcome(&self.state) {
                        Some(Outcome::Win(w)) if w == me => "LS",
                        Some(Outcome::Win(_)) => "WN",
                        Some(Outcome::Draw) => "TE",
                        None => panic!("{line} before the game is over:\n{}", self.engine.show(&self.state)),
                    };
                    assert_eq!(line, want);
                    self.send("OK");
                    return want;
                }
                other => panic!("unexpected line {other:?}"),
            }
        }
        panic!("no result after {LONGEST} lines:\n{}", self.engine.show(&self.state));
    }
}

#[test]
fn whole_games_against_random_moves_are_played_by_the_rules_and_won() {
    let mut h = Host::boot();
    let first = h.play_game("B");
    // The result acknowledged (OK), a new game chooses sides again.
    h.send("NG");
    h.expect("OK");
    h.expect("Pick Black/White");
    h.state = engine().1;
    let second = h.play_game("W");
    assert!(h.late <= 2, "the host lost {} turns to the clock", h.late);
    // The device searches; a random player should not beat it.
    assert_eq!([first, second], ["WN", "WN"]);
}

#[test]
fn what_is_refused_is_answered_and_leaves_the_board_as_it_was() {
    let mut h = Host::boot();
    h.send("HELLO");
    h.expect("ER");
    h.send("ST 0");
    h.expect("WRONG VALUE set default");
    // The longest clock: the refusals below take the host's turn's time.
    h.send("ST 9");
    h.expect("OK");
    h.send("SP B");
    h.expect("OK");
    let header = h.line();
    h.board(&header);
    h.expect("Your move");
    // Onto an own man, two rows at once, backwards, off the board, not a move at all: each is
    // denied, and the next legal move is made on the board as it was.
    for bad in ["MV A1-B2", "MV C3-E5", "MV B2-A1", "MV H2-I3", "MV C3"] {
        h.send(bad);
        h.expect("IL");
    }
    // Not cells at all: not understood.
    for bad in ["MV 42", "MV"] {
        h.send(bad);
        h.expect("ER");
    }
    let m = h.engine.parse_move(&h.state, "C3-D4").unwrap();
    h.send("MV C3-D4");
    h.play(m);
    let header = h.line();
    h.board(&header);
    h.expect("OK");
    // The device's reply, and the host's turn again: still serving.
    let reply = h.line();
    assert!(reply.starts_with("MM "), "{reply}");
    h.engine.parse_move(&h.state, &reply[3..]).unwrap_or_else(|e| panic!("{}", e.message));
}
