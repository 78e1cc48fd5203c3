//! A flanking game's search on 64-bit boards and on the byte board an AVR chip gets, side by
//! side, for the tests that hold them to the same scores.

use gamec_runtime::grid::Duel;
use gamec_runtime::search::{choose_from, Budget, Choice, Tree};
use gamec_runtime::session::Placement;

/// `Wide`'s choice on 64-bit boards and `Narrow`'s on the byte board for `pos`, each searched
/// to exactly `depth` plies with no budget.
pub fn both_searches<Wide: Tree<Pos = Duel, Move = u8>, Narrow: Placement>(
    pos: &Duel,
    depth: u8,
    order: bool,
) -> (Option<Choice<u8>>, Option<Choice<u8>>)
where
    for<'a> Narrow::Pos: From<&'a Duel>,
{
    let mut never = || false;
    let mut budget = Budget::new(u32::MAX, &mut never);
    let wide = choose_from::<Wide, 32>(pos, depth, depth, order, &mut budget);
    let mut never = || false;
    let mut budget = Budget::new(u32::MAX, &mut never);
    let narrow = Narrow::search::<32>(&mut Narrow::Pos::from(pos), depth, depth, order, &mut budget);
    (wide, narrow)
}
