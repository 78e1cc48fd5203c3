//! Perfect play on a grid from a table the compiler solved: two bits a position, the position
//! indexed in base 3 (empty, the mover's, the opponent's) over the grid's cells, row by row.

use crate::grid::{cells_into, Bits, Duel, Grid};
use crate::pick::Ranked;
use crate::progmem;
use crate::rng::Rng;

/// A position's value for the side to move, as the table stores it.
pub mod value {
    /// Not reachable in play.
    pub const UNKNOWN: u8 = 0;
    pub const WIN: u8 = 1;
    pub const LOSS: u8 = 2;
    pub const DRAW: u8 = 3;
}

/// The base-3 index of `pos`: cell by cell from A1 along the rows, the first cell the most
/// significant digit.
pub fn index(pos: &Duel, g: &Grid) -> u32 {
    let (me, opp) = (pos.me.to_le_bytes(), pos.opp.to_le_bytes());
    let mut i = 0u32;
    for r in 0..g.rows as usize {
        for c in 0..g.cols {
            let digit = if me[r] >> c & 1 != 0 {
                1
            } else if opp[r] >> c & 1 != 0 {
                2
            } else {
                0
            };
            i = i * 3 + digit;
        }
    }
    i
}

/// The value stored for index `i`.
pub fn value(table: &'static [u8], i: u32) -> u8 {
    let at = (i / 4) as usize;
    if at >= table.len() {
        return value::UNKNOWN;
    }
    // SAFETY: in bounds of a table the generated code placed in program memory.
    let byte = unsafe { progmem::byte(table.as_ptr().add(at)) };
    byte >> ((i % 4) * 2) & 3
}

/// The best of the `legal` cells by the table: one that wins at once (`lost` says the game is
/// over and lost for the side to move), else one that leaves the opponent lost, else one that
/// draws, else any; among equals at random or the first.
#[allow(clippy::too_many_arguments)]
pub fn best(
    pos: &Duel,
    legal: Bits,
    g: &Grid,
    table: &'static [u8],
    play: impl Fn(&Duel, u8) -> Duel,
    lost: impl Fn(&Duel) -> bool,
    rng: &mut Rng,
    ties_random: bool,
) -> Option<u8> {
    let mut cells = [0u8; 64];
    let n = cells_into(legal, &mut cells);
    let mut best = Ranked::<u8>::new(ties_random);
    for &cell in &cells[..n] {
        // The child is seen from the opponent: its loss is the mover's win.
        let child = play(pos, cell);
        let rank = match value(table, index(&child, g)) {
            _ if lost(&child) => 4,
            value::LOSS => 3,
            value::DRAW => 2,
            value::WIN => 1,
            _ => 0,
        };
        best.offer(rank, cell, rng);
    }
    best.chosen()
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: Grid = Grid { cols: 3, rows: 3 };

    #[test]
    fn index_reads_cells_row_by_row_in_base_3() {
        // Mine on A1 (the most significant digit), the opponent's on C3 (the least).
        let pos = Duel { me: 1, opp: 1 << (2 * 8 + 2) };
        assert_eq!(index(&pos, &G), 3u32.pow(8) + 2);
        assert_eq!(index(&Duel::default(), &G), 0);
    }

    static TABLE: [u8; 2] = [0b11_10_01_00, 0b00_00_00_10];

    #[test]
    fn values_are_two_bits_each_low_first() {
        assert_eq!(value(&TABLE, 0), value::UNKNOWN);
        assert_eq!(value(&TABLE, 1), value::WIN);
        assert_eq!(value(&TABLE, 2), value::LOSS);
        assert_eq!(value(&TABLE, 3), value::DRAW);
        assert_eq!(value(&TABLE, 4), value::LOSS);
        assert_eq!(value(&TABLE, 400), value::UNKNOWN, "past the table");
    }

    #[test]
    fn best_takes_the_move_that_leaves_the_opponent_lost() {
        // Cell 0 leads to index 0 (unreachable), cell 1 to the position of index 2 (a loss
        // for the opponent, who is then to move), cell 2 to index 3 (a draw).
        let play = |_: &Duel, cell: u8| match cell {
            1 => Duel { me: 0, opp: 1 << 18 },
            2 => Duel { me: 1 << 17, opp: 0 },
            _ => Duel::default(),
        };
        let mut rng = Rng::new(7);
        let never = |_: &Duel| false;
        for ties_random in [false, true] {
            let got = best(&Duel::default(), 0b111, &G, &TABLE, play, never, &mut rng, ties_random);
            assert_eq!(got, Some(1));
        }
        assert_eq!(best(&Duel::default(), 0b101, &G, &TABLE, play, never, &mut rng, false), Some(2), "else a draw");
        assert_eq!(best(&Duel::default(), 0, &G, &TABLE, play, never, &mut rng, false), None);
        let ends_on_2 = |d: &Duel| d.me == 1 << 17;
        assert_eq!(
            best(&Duel::default(), 0b111, &G, &TABLE, play, ends_on_2, &mut rng, false),
            Some(2),
            "a win now first"
        );
    }
}
