//! Connect Four's firmware on a simulated ATmega16, played over its UART as a host would: whole
//! games on both sides against random drops (the searching device should win them), a drop
//! into a full column denied with the board unchanged, garbage, and the result on the lamps.

mod device;

use device::grid_host::GridHost;
use gamec::engine::Outcome;

const GAME: &str = "games/connect_four.game";
const BOARD: &str = "boards/connect_four_stk500_atmega16.board";
/// Red, yellow, empty, and the host's landing cells before its move.
const GLYPHS: [char; 4] = ['R', 'Y', '-', '.'];
/// The lamps, active low: won, lost, draw (the device's result).
const LAMPS: [(char, u8); 3] = [('B', 1), ('B', 2), ('B', 3)];

fn boot(seed: u64) -> GridHost {
    let mut h = GridHost::boot(GAME, BOARD, GLYPHS, seed);
    h.expect("Pick Red/Yellow");
    // A one-second move clock keeps the simulated games short.
    h.dev.send("ST 1");
    h.expect("OK");
    h
}

fn host_turn(h: &mut GridHost) {
    h.host_turn();
}

fn the_end(h: &mut GridHost) -> Outcome {
    h.the_end(LAMPS)
}

fn play_game(h: &mut GridHost, side: &str) -> Outcome {
    h.play_game(side, if side == "R" { 0 } else { 1 }, LAMPS)
}

#[test]
fn whole_games_on_both_sides_against_random_drops() {
    let mut h = boot(0x2545_F491_4F6C_DD1D);
    let mut device_wins = 0;
    for (i, side) in ["R", "Y"].iter().enumerate() {
        if i > 0 {
            h.dev.send("NG");
            h.expect("OK");
            h.expect("Pick Red/Yellow");
        }
        if play_game(&mut h, side) == Outcome::Win(1 - h.host) {
            device_wins += 1;
        }
    }
    assert_eq!(device_wins, 2, "the search beats random drops");
}

#[test]
fn a_denied_drop_changes_nothing() {
    let mut h = boot(11);
    h.host = 0;
    h.state = h.engine.fixed_start(&h.game);
    h.dev.send("SP R");
    h.expect("OK");
    // The host stacks column A: three in it force the device to block there, so A fills
    // within five of the host's drops, unless the device wins first.
    let mut tried_full = false;
    loop {
        host_turn(&mut h);
        let before = h.state.clone();
        let full_a = (0..6).all(|r| h.state.cells[r * 8] != 0);
        if full_a {
            h.dev.send("MV A");
            h.expect("IL");
            tried_full = true;
        }
        for (bad, reply) in [("MV H", "IL"), ("MV", "ER"), ("MV AB", "ER"), ("XYZ", "ER")] {
            h.dev.send(bad);
            h.expect(reply);
        }
        h.dev.send("AT");
        h.expect("OK");
        assert_eq!(h.state, before);
        if full_a {
            break;
        }
        let m = match h.engine.parse_move(&h.state, "A") {
            Ok(m) => m,
            Err(_) => h.legal()[0],
        };
        let name = h.engine.move_name(m);
        h.dev.send(&format!("MV {name}"));
        h.apply(m);
        h.expect("OK");
        if h.over().is_some() {
            the_end(&mut h);
            break;
        }
        h.device_moves("MM ");
        h.dev.send("OK");
        if h.over().is_some() {
            the_end(&mut h);
            break;
        }
    }
    // Whether or not A filled first, every denial above left the board as it was; the end
    // game's dump shows it.
    eprintln!("a full column was tried: {tried_full}");
}

#[test]
#[ignore = "a benchmark: cargo xtask bench"]
fn bench_search_on_the_device() {
    let m = GridHost::measure_game(GAME, BOARD, GLYPHS, ("R", 0), "Pick Red/Yellow");
    let nodes: u32 = m.searches.iter().map(|s| s.0).sum();
    let ms: f64 = m.searches.iter().map(|s| s.2).sum();
    let depths: Vec<u8> = m.searches.iter().map(|s| s.1).collect();
    println!("connect four on atmega16 @ 10 MHz, a game against random drops at the 2 s clock:");
    println!("  nodes per second: {:.0} ({nodes} nodes in {ms:.0} ms)", nodes as f64 * 1000.0 / ms);
    println!("  depth reached per move: {depths:?}");
    println!(
        "  flash {} B, static RAM {} B, deepest stack {} B (bound {} B), RAM with stack {} B",
        m.flash,
        m.ram,
        m.stack,
        m.bound,
        m.ram + m.stack as u32
    );
    // The README's figures (`cargo xtask bench` reads these lines).
    println!("FIGURE connect_four.nodes_per_s={:.0} nodes/s ({nodes} nodes in {ms:.0} ms)", nodes as f64 * 1000.0 / ms);
    println!("FIGURE connect_four.depth_min={} plies", depths.iter().min().unwrap());
    println!("FIGURE connect_four.depth_max={} plies", depths.iter().max().unwrap());
    println!("FIGURE connect_four.deepest_stack={} B (the bound: {} B)", m.stack, m.bound);
    println!("FIGURE connect_four.ram_with_stack={} B", m.ram + m.stack as u32);
}
