//! Othello's search as an 8-bit chip runs it (a byte a cell, moves made and undone in place)
//! against the same search on 64-bit boards: at every depth the same score from positions of
//! random games, and a legal best move.

use gamec_hosted::othello::{Rules, MAX_MOVES, START};
use gamec_hosted::othello_byte_board as byte_board;
use gamec_runtime::grid::Duel;
use gamec_runtime::search::{choose_from, Budget, Tree};
use gamec_runtime::session::Placement;

fn positions() -> Vec<Duel> {
    let mut out = Vec::new();
    let mut seed = 0xB17E_B0A2Du64;
    for _ in 0..12 {
        let mut pos = START;
        for ply in 0..60 {
            let mut moves = [0u8; MAX_MOVES];
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
            if ply % 7 == 3 {
                out.push(pos);
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos = Rules::play(&pos, moves[(seed % n as u64) as usize]);
        }
        out.push(pos);
    }
    out
}

#[test]
fn the_byte_board_search_scores_every_position_as_the_64_bit_one() {
    let positions = positions();
    let mut searched = 0;
    for &pos in &positions {
        for depth in 1..=3 {
            for order in [false, true] {
                let mut never = || false;
                let mut budget = Budget::new(u32::MAX, &mut never);
                let wide = choose_from::<Rules, MAX_MOVES>(&pos, depth, depth, order, &mut budget);
                let mut never = || false;
                let mut budget = Budget::new(u32::MAX, &mut never);
                let narrow =
                    <byte_board::Rules as Placement>::search::<MAX_MOVES>(&pos, depth, depth, order, &mut budget);
                assert_eq!(wide.map(|c| c.score), narrow.map(|c| c.score), "{pos:?} at depth {depth}");
                if let Some(c) = narrow {
                    searched += 1;
                    assert!(Rules::legal(&pos) >> c.best & 1 == 1, "{pos:?}: {} is not legal", c.best);
                }
            }
        }
    }
    assert!(searched > 4 * positions.len(), "{searched} searches over {} positions", positions.len());
}
