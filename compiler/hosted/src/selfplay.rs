//! Self-play of a generated grid game's rules: the device's search against the seed's AI.

use crate::seed_ai;
use gamec_runtime::grid::Duel;
use gamec_runtime::search::{choose, Budget, Tree};

/// Opening plies played at random (from the game's seed). Both players are deterministic, so
/// without them the games would repeat: with two there are only 12 openings, with six nearly
/// every game of 200 is a different one.
pub const RANDOM_PLIES: u32 = 6;

/// Plays one game from `start`; the searcher moves first when `searcher_first`. Returns the
/// searcher's disc lead at the end.
pub fn versus_seed<Rules: Tree<Pos = Duel, Move = u8>>(
    start: Duel,
    searcher_first: bool,
    seed: u64,
    nodes: u32,
    depth: u8,
) -> i32 {
    let mut rng = seed | 1;
    let mut pos: Duel = start;
    let mut searcher_to_move = searcher_first;
    for ply in 0.. {
        let mut moves = [0u8; 64];
        let n = Rules::moves(&pos, &mut moves);
        if n == 0 {
            match Rules::pass(&pos) {
                Some(next) => {
                    pos = next;
                    searcher_to_move = !searcher_to_move;
                    continue;
                }
                None => {
                    let lead = pos.me.count_ones() as i32 - pos.opp.count_ones() as i32;
                    return if searcher_to_move { lead } else { -lead };
                }
            }
        }
        let m = if ply < RANDOM_PLIES {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            moves[(rng % n as u64) as usize]
        } else if searcher_to_move {
            let mut never = || false;
            let mut budget = Budget::new(nodes, &mut never);
            choose::<Rules, 32>(&pos, depth, true, &mut budget).unwrap().best
        } else {
            seed_ai::choose::<Rules>(&pos).unwrap()
        };
        pos = Rules::play(&pos, m);
        searcher_to_move = !searcher_to_move;
    }
    unreachable!()
}
