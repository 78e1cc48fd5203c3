//! Kalah's firmware on a simulated ATmega128 at 8 MHz (boards/kalah_atmega128.board), played
//! over USART0 as a person at a terminal would: every board it prints is held to the
//! compiler's engine, every device move must be legal there, a move that ends in the mover's
//! store gives the same side the next move, garbage and illegal pits change nothing, and the
//! deepest stack seen stays within the bound `gamec build` works out.

mod device;
#[path = "support/pits_board.rs"]
mod pits_board;

use device::{firmware, stack_bound, Device};
use gamec::engine::{Engine, Outcome, State};

const GAME: &str = "games/kalah.game";
const BOARD: &str = "boards/kalah_atmega128.board";

struct Host {
    dev: Device,
    engine: Engine,
    state: State,
    rng: u64,
}

impl Host {
    fn line(&mut self) -> String {
        let show = self.engine.show(&self.state);
        self.dev.read_line(5000.0).unwrap_or_else(|| panic!("the device answers within 5 s\n{show}")).text
    }

    fn expect(&mut self, text: &str) {
        assert_eq!(self.line(), text, "\n{}", self.engine.show(&self.state));
    }

    fn board(&mut self, top: String) {
        let (engine, state) = (self.engine.clone(), self.state.clone());
        pits_board::check(&engine, &state, &top, || self.line());
    }

    fn random(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n as u64) as usize
    }
}

#[test]
fn kalah_on_the_atmega128_plays_whole_games_over_its_uart() {
    let (elf, target) = firmware(GAME, BOARD);
    let mut dev = Device::boot(&elf, &target);
    dev.track_stack();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(GAME);
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(GAME, std::fs::read_to_string(path).unwrap());
    let def = gamec_dsl::load_game(&sources, id).unwrap();
    let engine = Engine::new(&def);
    let state = engine.fixed_start(&def);
    let mut h = Host { dev, engine, state, rng: 0x9E37_79B9_7F4A_7C15 };
    let top = h.line();
    h.board(top);
    h.expect("Your move");
    // A second of search a move, so that a game takes less simulated time (the game file
    // gives the setting no answer).
    h.dev.send("ST 1");
    assert!(h.dev.read_line(100.0).is_none(), "no answer to a clock setting");
    for (line, answer) in [("MV 9", "IL"), ("MV 14", "IL"), ("MV 15", "IL"), ("MV", "ER"), ("MV 3x", "ER")] {
        h.dev.send(line);
        h.expect(answer);
    }
    let (mut results, mut again) = (Vec::new(), 0);
    for game in 0..2 {
        if game > 0 {
            h.dev.send("NG");
            h.state = h.engine.fixed_start(&def);
            let top = h.line();
            h.board(top);
            h.expect("Your move");
        }
        loop {
            let moves = h.engine.plies(&h.state);
            let m = moves[h.random(moves.len())];
            h.dev.send(&format!("MV {}", h.engine.move_name(m)));
            let mover = h.state.to_move;
            h.state = h.engine.play(&h.state, m);
            again += usize::from(h.state.to_move == mover && h.engine.outcome(&h.state).is_none());
            h.expect("OK");
            let mut line = h.line();
            // The device's moves, each acknowledged; as many as keep its turn.
            while let Some(text) = line.strip_prefix("MM ") {
                let m = h.engine.parse_move(&h.state, text).unwrap_or_else(|e| panic!("{}", e.message));
                assert_eq!(h.state.to_move, 1, "the device moves on north's turn only");
                h.state = h.engine.play(&h.state, m);
                h.dev.send("OK");
                line = h.line();
            }
            if let Some(score) = line.strip_prefix("Final score: device ") {
                let c = &h.state.cells;
                let (north, south) = (c[7..].iter().sum::<u8>(), c[..7].iter().sum::<u8>());
                assert_eq!(score, format!("{north}, you {south}"));
                line = h.line();
            }
            h.board(line);
            let verdict = h.line();
            if verdict == "Your move" {
                assert_eq!(h.state.to_move, 0);
                continue;
            }
            let want = match verdict.as_str() {
                "WN" => Outcome::Win(1),
                "LS" => Outcome::Win(0),
                "TE" => Outcome::Draw,
                other => panic!("{other:?} after the board"),
            };
            assert_eq!(h.engine.outcome(&h.state), Some(want), "{}", h.engine.show(&h.state));
            results.push(verdict);
            h.dev.send("OK");
            break;
        }
    }
    assert!(again > 0, "the host never kept its turn");
    assert!(results.iter().all(|r| r == "WN"), "the device's search beats random moves: {results:?}");
    let stack = u32::from(h.dev.ramend() - h.dev.lowest_sp().unwrap());
    let bound = stack_bound(GAME, BOARD, &elf);
    assert!(bound.bytes >= stack, "bound {} B under the measured {stack} B", bound.bytes);
    eprintln!("deepest stack seen: {stack} B; bound {} B", bound.bytes);
}
