//! Othello's generated module (from games/othello.game) on the host: its
//! rules count the same perft as the compiler's reading, and its search plays well.

use gamec_hosted::othello::{Rules, MAX_MOVES, START};
use gamec_runtime::grid::Duel;
use gamec_runtime::search::{choose, Budget, Tree};

fn perft(pos: &Duel, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = [0u8; MAX_MOVES];
    let n = Rules::moves(pos, &mut moves);
    if n == 0 {
        return match Rules::pass(pos) {
            Some(next) => perft(&next, depth - 1),
            None => 1,
        };
    }
    moves[..n].iter().map(|&m| perft(&Rules::play(pos, m), depth - 1)).sum()
}

#[test]
fn generated_rules_count_the_published_perft() {
    let expected = [4, 12, 56, 244, 1396, 8200, 55092];
    for (i, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&START, i as u32 + 1), n, "depth {}", i + 1);
    }
}

/// Plays one game; `searcher` is 0 or 1 (who moves first is 0). Returns the searcher's lead.
fn game(searcher: usize, seed: u64, nodes: u32) -> i16 {
    let mut rng = seed | 1;
    let mut pos = START;
    let mut to_move = 0;
    loop {
        let mut moves = [0u8; MAX_MOVES];
        let n = Rules::moves(&pos, &mut moves);
        if n == 0 {
            match Rules::pass(&pos) {
                Some(next) => {
                    pos = next;
                    to_move = 1 - to_move;
                    continue;
                }
                None => {
                    let lead = pos.diff(!0);
                    return if to_move == searcher { lead } else { -lead };
                }
            }
        }
        let m = if to_move == searcher {
            let mut never = || false;
            let mut budget = Budget::new(nodes, &mut never);
            choose::<Rules, MAX_MOVES>(&pos, 20, true, &mut budget).unwrap().best
        } else {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            moves[(rng % n as u64) as usize]
        };
        pos = Rules::play(&pos, m);
        to_move = 1 - to_move;
    }
}

#[test]
fn the_search_with_the_game_files_eval_beats_random_play() {
    let mut wins = 0;
    for g in 0..10u64 {
        if game((g % 2) as usize, 0x9E37_79B9 + g, 3_000) > 0 {
            wins += 1;
        }
    }
    assert!(wins >= 9, "searcher won {wins} of 10 against random moves");
}
