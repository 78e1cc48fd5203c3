//! The flanking mechanic computed a row at a time, for 8-bit chips. A 64-bit board is eight
//! bytes in memory, one per row (bit `row * 8 + col` is bit `col` of byte `row`), so these
//! read and write the very same [`Bits`] as [`crate::grid`] while working on bytes: a column
//! step is a one-bit shift of a byte, which drops what leaves the row by itself, and a row
//! step is an index step.

use crate::grid::Bits;

/// One column step of a row's cells.
#[inline(always)]
fn step<const DC: i8>(row: u8) -> u8 {
    match DC {
        1 => row << 1,
        -1 => row >> 1,
        _ => row,
    }
}

/// Cells where `me` may place a piece that captures at least one of `opp`'s, within `cells`.
pub fn flank_moves(me: Bits, opp: Bits, cells: Bits, dirs: &[(i8, i8)]) -> Bits {
    let (me, opp) = (me.to_le_bytes(), opp.to_le_bytes());
    let mut empty = cells.to_le_bytes();
    for r in 0..8 {
        empty[r] &= !(me[r] | opp[r]);
    }
    let mut moves = [0u8; 8];
    for &(dc, dr) in dirs {
        // The column step is a constant inside each loop.
        match dc {
            1 => direction::<1>(&me, &opp, &empty, dr, &mut moves),
            -1 => direction::<-1>(&me, &opp, &empty, dr, &mut moves),
            _ => direction::<0>(&me, &opp, &empty, dr, &mut moves),
        }
    }
    Bits::from_le_bytes(moves)
}

/// Adds the moves that capture in direction (DC, `dr`).
#[inline(never)]
fn direction<const DC: i8>(me: &[u8; 8], opp: &[u8; 8], empty: &[u8; 8], dr: i8, moves: &mut [u8; 8]) {
    if dr == 0 {
        for r in 0..8 {
            let o = opp[r];
            // Runs of the opponent's pieces next to one of mine, grown along the row...
            let mut run = step::<DC>(me[r]) & o;
            for _ in 0..5 {
                run |= step::<DC>(run) & o;
            }
            // ...ending next to an empty cell.
            moves[r] |= step::<DC>(run) & empty[r];
        }
        return;
    }
    // Along the direction of travel one pass suffices: each row's run extends the run (or
    // the pieces) of the row before it, which is already complete.
    let mut run = 0u8;
    let mut from = 0u8;
    for i in 0..8 {
        let r = if dr > 0 { i } else { 7 - i };
        moves[r] |= step::<DC>(run) & empty[r];
        run = step::<DC>(from | run) & opp[r];
        from = me[r];
    }
}

/// Whether a set holds the cell at column `c`, row `r`; false off the board. (A coordinate
/// off the board is negative or at least 8, so it has a bit outside the low three set.)
#[inline(always)]
fn holds(rows: &[u8; 8], c: i8, r: i8) -> bool {
    (c | r) & !7 == 0 && rows[r as usize] >> c & 1 != 0
}

/// The opponent's pieces a placement on `cell` turns over.
pub fn flips(me: Bits, opp: Bits, cell: u8, dirs: &[(i8, i8)]) -> Bits {
    let (me, opp) = (me.to_le_bytes(), opp.to_le_bytes());
    let mut flips = [0u8; 8];
    let (c0, r0) = ((cell % 8) as i8, (cell / 8) as i8);
    for &(dc, dr) in dirs {
        // Walk over the opponent's pieces, then turn them back if one of mine ends the line.
        let (mut c, mut r) = (c0 + dc, r0 + dr);
        while holds(&opp, c, r) {
            c += dc;
            r += dr;
        }
        if holds(&me, c, r) {
            loop {
                c -= dc;
                r -= dr;
                if c == c0 && r == r0 {
                    break;
                }
                flips[r as usize] |= 1 << c;
            }
        }
    }
    Bits::from_le_bytes(flips)
}

/// Whether `bits` hold `k` cells in a row within `cells`, along a row or a column, or, with
/// `diagonals`, along either diagonal too: [`crate::grid::Grid::in_a_row`] a row at a time.
pub fn in_a_row(bits: Bits, cells: Bits, k: u8, diagonals: bool) -> bool {
    let (rows, cells) = (bits.to_le_bytes(), cells.to_le_bytes());
    let axes: &[(bool, i8)] =
        if diagonals { &[(true, 0), (false, 1), (true, 1), (true, -1)] } else { &[(true, 0), (false, 1)] };
    axes.iter().any(|&(across, dr)| runs(&rows, &cells, across, dr, k))
}

/// Whether `rows` hold `k` cells in a row in the direction a column on (`across`) or none,
/// and `dr` rows on: after `i` steps a bit stands where `i + 1` cells in a row end. One
/// function for every direction, the column step a branch: a copy per direction was twice
/// the code on AVR.
#[inline(never)]
fn runs(rows: &[u8; 8], cells: &[u8; 8], across: bool, dr: i8, k: u8) -> bool {
    let mut run = *rows;
    for _ in 1..k {
        let before = run;
        for (r, row) in run.iter_mut().enumerate() {
            // The row `dr` before this one, a column step on.
            let from = r as i8 - dr;
            let moved = if (0..8).contains(&from) { before[from as usize] } else { 0 };
            *row &= if across { moved << 1 } else { moved } & cells[r];
        }
    }
    run.iter().any(|&row| row != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, KING, ROOK};

    /// Random positions agree with the 64-bit implementation, on full and smaller grids.
    #[test]
    fn rows_agree_with_the_64_bit_mechanic() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for g in [Grid { cols: 8, rows: 8 }, Grid { cols: 7, rows: 6 }, Grid { cols: 6, rows: 5 }] {
            for _ in 0..20_000 {
                let cells = g.cells();
                let (a, b) = (next() & cells, next() & cells);
                let (me, opp) = (a & !b, b & !a & next());
                for dirs in [&KING[..], &ROOK[..]] {
                    let want = g.flank_moves_u64(me, opp, dirs);
                    assert_eq!(flank_moves(me, opp, cells, dirs), want, "{me:#x} {opp:#x}");
                    let mut m = want;
                    while m != 0 {
                        let cell = m.trailing_zeros() as u8;
                        m &= m - 1;
                        assert_eq!(flips(me, opp, cell, dirs), g.flips_u64(me, opp, 1 << cell, dirs));
                    }
                }
                // Denser and sparser pieces, so that rows of every length turn up.
                for bits in [a, a | b, a & b, a & b & next()] {
                    for k in 1..=6 {
                        for diagonals in [false, true] {
                            let want = g.in_a_row_u64(bits, k, diagonals);
                            assert_eq!(in_a_row(bits, cells, k, diagonals), want, "{bits:#x} {k} {diagonals}");
                        }
                    }
                }
            }
        }
    }
}
