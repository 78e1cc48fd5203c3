//! Tic-tac-toe's firmware on a simulated ATmega16, played over its UART as a host would:
//! whole games on either side against random moves (the solved device never loses), a
//! denied move with the board unchanged, garbage, and the result on the lamps.

mod device;

use device::grid_host::GridHost;
use gamec::engine::Outcome;

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

fn host_turn(h: &mut GridHost) {
    h.host_turn();
}

fn play_game(h: &mut GridHost, side: &str) -> Outcome {
    h.play_game(side, if side == "X" { 0 } else { 1 }, LAMPS)
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
    h.dev.send("OK");
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
        "  flash {} B, static RAM {} B, deepest stack {} B (bound {} B), RAM with stack {} B",
        m.flash,
        m.ram,
        m.stack,
        m.bound,
        m.ram + m.stack as u32
    );
    // The README's figures (`cargo xtask bench` reads these lines).
    println!("FIGURE tictactoe.slowest_reply_ms={slowest:.1} ms");
    println!("FIGURE tictactoe.deepest_stack={} B (the bound: {} B)", m.stack, m.bound);
    println!("FIGURE tictactoe.ram_with_stack={} B", m.ram + m.stack as u32);
}
