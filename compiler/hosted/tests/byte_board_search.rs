//! The search of a flanking game as an 8-bit chip runs it (a byte a cell, moves made and
//! undone in place) against the same search on 64-bit boards: at every depth the same score
//! from positions of random games, and a legal best move. Othello, and a 6 x 6 game that
//! captures in four directions with another evaluation.

use gamec_hosted::both_boards::both_searches;
use gamec_runtime::grid::Duel;
use gamec_runtime::search::Tree;
use gamec_runtime::session::Placement;

/// Positions along random games from `start`.
fn positions<R: Tree<Pos = Duel, Move = u8>>(start: Duel, plies: usize) -> Vec<Duel> {
    let mut out = Vec::new();
    let mut seed = 0xB17E_B0A2Du64;
    for _ in 0..12 {
        let mut pos = start;
        for ply in 0..plies {
            let mut moves = [0u8; 64];
            let n = R::moves(&pos, &mut moves);
            if n == 0 {
                match R::pass(&pos) {
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
            pos = R::play(&pos, moves[(seed % n as u64) as usize]);
        }
        out.push(pos);
    }
    out
}

/// `Wide` on 64-bit boards and `Narrow` on the byte board agree on every position.
fn agree<Wide: Placement<Pos = Duel> + Tree<Pos = Duel, Move = u8>, Narrow: Placement>(start: Duel, plies: usize)
where
    for<'a> Narrow::Pos: From<&'a Duel>,
{
    let positions = positions::<Wide>(start, plies);
    let mut searched = 0;
    for &pos in &positions {
        for depth in 1..=3 {
            for order in [false, true] {
                let (wide, narrow) = both_searches::<Wide, Narrow>(&pos, depth, order);
                assert_eq!(wide.map(|c| c.score), narrow.map(|c| c.score), "{pos:?} at depth {depth}");
                if let Some(c) = narrow {
                    searched += 1;
                    assert!(Wide::legal_at(&pos, c.best), "{pos:?}: {} is not legal", c.best);
                }
            }
        }
    }
    assert!(searched > 4 * positions.len(), "{searched} searches over {} positions", positions.len());
}

#[test]
fn othello_scores_every_position_alike_on_both_boards() {
    use gamec_hosted::{othello, othello_byte_board};
    // The byte board is there: a module without it would search the 64-bit boards twice.
    assert!(std::mem::size_of::<othello_byte_board::Searched>() > 100);
    agree::<othello::Rules, othello_byte_board::Rules>(othello::START, 60);
}

#[test]
fn a_six_by_six_game_of_four_directions_scores_alike_on_both_boards() {
    use gamec_hosted::{fixture_flank_rook_6x6 as wide, fixture_flank_rook_6x6_byte_board as narrow};
    assert!(std::mem::size_of::<narrow::Searched>() >= 64);
    agree::<wide::Rules, narrow::Rules>(wide::START, 32);
}
