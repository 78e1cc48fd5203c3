//! Strength benchmark: the device's AI against the seed-style baseline on the host, with
//! alternating colours and the device's search limited to the node count the simulated
//! ATmega16 reaches in 2 s (`bench_search_on_fixed_positions` in othello_device.rs) and to
//! its depth cap. Run by `cargo xtask bench`; NODES, GAMES and DEPTH override the defaults.

use gamec_hosted::othello::{Rules, START};
use gamec_hosted::selfplay::versus_seed;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
#[ignore = "a benchmark: cargo xtask bench"]
fn bench_strength_against_the_seeds_ai() {
    let nodes: u32 = env_or("NODES", 6780);
    let games: u64 = env_or("GAMES", 200);
    let depth: u8 = env_or("DEPTH", 7);
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
    // The README's figure (`cargo xtask bench` reads this line).
    println!(
        "FIGURE othello.strength.won={won} of {games} won ({lost} lost; {nodes} nodes a move, depth {depth} at most)"
    );
}
