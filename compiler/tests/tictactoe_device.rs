//! Tic-tac-toe's firmware on a simulated ATmega16, played over its UART as a host would:
//! whole games on either side against random moves (the solved device never loses), a
//! denied move with the board unchanged, garbage, and the result on the lamps.

mod device;

use device::grid_host::GridHost;
use gamec::engine::{Move, Outcome};

const GAME: &str = "games/tictactoe.game";
const BOARD: &str = "boards/tictactoe_stk500_atmega16.board";
/// X, O, empty, and the host's free cells before its move.
const GLYPHS: [char; 4] = ['X', 'O', '-', '.'];
/// The lamps, active low: won, lost, draw (the device's result).
const LAMPS: [(char, u8); 3] = [('B', 1), ('B', 2), ('B', 3)];

fn boot(seed: u64) -> GridHost {
    let mut h = GridHost::boot(GAME, BOARD, GLYPHS, seed);
    h.expect("Pick X/O");
    h
}

/// The host's turn: the board with its free cells marked, then the prompt.
fn host_turn(h: &mut GridHost) {
    let marked = h.board();
    let mut legal: Vec<u8> =
        h.legal().into_iter().map(|m| if let Move::Put { cell, .. } = m { cell } else { 99 }).collect();
    legal.sort();
    assert_eq!(marked, legal, "the host's free cells are marked");
    h.expect("Your move");
}

/// Reads the end: the board, the result, the lamp; returns the outcome the device announced.
fn the_end(h: &mut GridHost) -> Outcome {
    h.board();
    let said = h.line();
    h.send_ok();
    let (outcome, lamp) = match said.as_str() {
        "I win" => (Outcome::Win(1 - h.host), 0),
        "You win" => (Outcome::Win(h.host), 1),
        "Draw" => (Outcome::Draw, 2),
        other => panic!("a result, not {other:?}"),
    };
    assert_eq!(Some(outcome), h.over(), "the announced result is the rules' result");
    h.dev.run_ms(5.0);
    for (i, &(port, bit)) in LAMPS.iter().enumerate() {
        assert_eq!(h.lit(port, bit), i == lamp, "lamp {i} after {said:?}");
    }
    outcome
}

trait Ack {
    fn send_ok(&mut self);
}
impl Ack for GridHost {
    fn send_ok(&mut self) {
        self.dev.send("OK");
    }
}

/// Plays one game to its end with random host moves; returns the outcome.
fn play_game(h: &mut GridHost, side: &str) -> Outcome {
    h.host = if side == "X" { 0 } else { 1 };
    h.state = h.engine.fixed_start(&h.game);
    h.dev.send(&format!("SP {side}"));
    h.expect("OK");
    loop {
        if h.state.to_move == h.host {
            host_turn(h);
            let legal = h.legal();
            let m = legal[h.random(legal.len())];
            let name = h.engine.move_name(m);
            h.dev.send(&format!("MV {name}"));
            h.apply(m);
            h.expect("OK");
        } else {
            h.device_moves("MM ");
            h.send_ok();
        }
        if h.over().is_some() {
            return the_end(h);
        }
    }
}

#[test]
fn whole_games_on_both_sides_and_the_device_never_loses() {
    let mut h = boot(0x9E37_79B9_7F4A_7C15);
    let mut device_wins = 0;
    for (i, side) in ["X", "O", "X", "O"].iter().enumerate() {
        if i > 0 {
            h.dev.send("NG");
            h.expect("OK");
            h.expect("Pick X/O");
        }
        let outcome = play_game(&mut h, side);
        assert_ne!(outcome, Outcome::Win(h.host), "the solved device never loses");
        device_wins += (outcome == Outcome::Win(1 - h.host)) as usize;
    }
    assert!(device_wins > 0, "random moves lose to the solved device some of the time");
}

#[test]
fn an_illegal_move_is_denied_and_changes_nothing() {
    let mut h = boot(7);
    h.host = 0;
    h.dev.send("SP X");
    h.expect("OK");
    host_turn(&mut h);
    h.dev.send("MV B2");
    h.apply(h.engine.parse_move(&h.state, "B2").unwrap());
    h.expect("OK");
    h.device_moves("MM ");
    h.send_ok();
    host_turn(&mut h);
    let before = h.state.clone();
    for bad in ["MV B2", "MV D1", "MV A4", "MV"] {
        h.dev.send(bad);
        h.expect(if bad == "MV" { "ER" } else { "IL" });
    }
    h.dev.send("HELLO");
    h.expect("ER");
    h.dev.send(&"X".repeat(40));
    h.expect("ER");
    h.dev.send("AT");
    h.expect("OK");
    assert_eq!(h.state, before);
    // The board is as it was: the host's turn again shows it.
    h.dev.send("EG");
    h.expect("OK");
    h.board();
}

#[test]
#[ignore = "a benchmark: cargo xtask bench"]
fn bench_sizes_and_replies() {
    let m = GridHost::measure_game(GAME, BOARD, GLYPHS, ("O", 1), "Pick X/O");
    let slowest = m.searches.iter().map(|s| s.2).fold(0.0, f64::max);
    println!("tic-tac-toe on atmega16 @ 10 MHz, a game against random moves:");
    println!("  slowest device reply: {slowest:.1} ms (from the host's line to the device's move)");
    println!(
        "  flash {} B, static RAM {} B, deepest stack {} B, RAM with stack {} B",
        m.flash,
        m.ram,
        m.stack,
        m.ram + m.stack as u32
    );
}
