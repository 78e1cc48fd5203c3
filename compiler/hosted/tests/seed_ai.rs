//! The seed-style baseline chooses as the seed's AI does, checked against a plain reference
//! written here over the compiler's own reading of the rules.

use gamec_hosted::othello::{Rules, START};
use gamec_hosted::seed_ai;
use gamec_hosted::selfplay::versus_seed;
use gamec_runtime::grid::{Duel, Grid, KING};
use gamec_runtime::search::Tree;

const G: Grid = Grid { cols: 8, rows: 8 };

/// The seed's rule, spelled out: minimise the opponent's best disc count after its reply.
fn reference(pos: &Duel) -> Option<u8> {
    let mut best: Option<(u32, u8)> = None;
    for cell in 0..64u8 {
        if G.flank_moves(pos.me, pos.opp, &KING) & (1 << cell) == 0 {
            continue;
        }
        let flips = G.flips(pos.me, pos.opp, 1 << cell, &KING);
        let (me, opp) = (pos.me | 1 << cell | flips, pos.opp & !flips);
        let mut reply_best = opp.count_ones();
        for r in 0..64u8 {
            if G.flank_moves(opp, me, &KING) & (1 << r) != 0 {
                let f = G.flips(opp, me, 1 << r, &KING);
                reply_best = reply_best.max((opp | 1 << r | f).count_ones());
            }
        }
        if best.is_none_or(|(b, _)| reply_best < b) {
            best = Some((reply_best, cell));
        }
    }
    best.map(|(_, c)| c)
}

#[test]
fn the_baseline_matches_the_seeds_rule_along_random_games() {
    let mut rng = 0x1234_5678_9ABC_DEF1u64;
    for _ in 0..20 {
        let mut pos = START;
        loop {
            let mut moves = [0u8; 64];
            let n = Rules::moves(&pos, &mut moves);
            if n == 0 {
                match Rules::pass(&pos) {
                    Some(next) => {
                        pos = next;
                        continue;
                    }
                    None => break,
                }
            }
            assert_eq!(seed_ai::choose::<Rules>(&pos), reference(&pos));
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            pos = Rules::play(&pos, moves[(rng % n as u64) as usize]);
        }
    }
}

#[test]
fn the_search_beats_the_baseline_more_often_than_not() {
    // 40 games at the device's budget on the ATmega16 (640 nodes, depth 4); the benchmark
    // (`tests/strength.rs`, run by `cargo xtask bench`) plays 200.
    let won = (0..40u64)
        .filter(|&g| versus_seed::<Rules>(START, g % 2 == 0, 0x9E37_79B9_7F4A_7C15 ^ (g * 0x1000_0001), 640, 4) > 0)
        .count();
    assert!(won >= 30, "the search won {won} of 40 against the seed's AI");
}
