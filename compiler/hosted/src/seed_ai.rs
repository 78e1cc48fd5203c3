//! The seed project's AI, as a baseline opponent: for each of its moves, the opponent's best
//! greedy reply by disc count, and the move that leaves that reply the fewest discs.

use gamec_runtime::grid::Duel;
use gamec_runtime::search::Tree;

/// The seed's choice in `pos` (seen from the mover), lowest cell first on ties; `None`
/// without a legal move.
pub fn choose<T: Tree<Pos = Duel, Move = u8>>(pos: &Duel) -> Option<u8> {
    let mut moves = [0u8; 64];
    let n = T::moves(pos, &mut moves);
    let mut best: Option<(u32, u8)> = None;
    for &m in &moves[..n] {
        let after = T::play(pos, m);
        // The opponent is the mover in `after`; its best greedy reply by its own disc count.
        let mut replies = [0u8; 64];
        let r = T::moves(&after, &mut replies);
        let reply =
            replies[..r].iter().map(|&c| T::play(&after, c).opp.count_ones()).max().unwrap_or(after.me.count_ones());
        if best.is_none_or(|(b, _)| reply < b) {
            best = Some((reply, m));
        }
    }
    best.map(|(_, m)| m)
}
