//! The device's AI against the seed-style baseline on the host: games with alternating
//! colours, the device's search limited to a node count per move (by default the count the
//! simulated ATmega16 reaches in 2 s, from `cargo xtask bench`).
//!
//! `cargo run -p gamec-hosted --release --example strength -- [NODES] [GAMES] [DEPTH]`

use gamec_hosted::othello::{Rules, START};
use gamec_hosted::selfplay::versus_seed;

fn main() {
    let mut args = std::env::args().skip(1);
    let nodes: u32 = args.next().map_or(640, |a| a.parse().expect("NODES is a number"));
    let games: u64 = args.next().map_or(200, |a| a.parse().expect("GAMES is a number"));
    // The device's depth cap on the ATmega16 (SEARCH_DEPTH in its generated board.rs).
    let depth: u8 = args.next().map_or(4, |a| a.parse().expect("DEPTH is a number"));
    let (mut won, mut lost, mut drawn) = (0, 0, 0);
    for g in 0..games {
        match versus_seed::<Rules>(START, g % 2 == 0, 0x9E37_79B9_7F4A_7C15 ^ (g * 0x1000_0001), nodes, depth) {
            l if l > 0 => won += 1,
            l if l < 0 => lost += 1,
            _ => drawn += 1,
        }
    }
    println!(
        "search ({nodes} nodes, depth <= {depth}) vs the seed's AI: {won} won, {lost} lost, {drawn} drawn of {games} = {:.1}% won",
        100.0 * won as f64 / games as f64
    );
}
