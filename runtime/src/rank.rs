//! Ranking of k-element cell sets (the combinatorial number system), so a table with one
//! entry per position can be indexed without storing every mask.

use crate::line::Cells;

/// The rank of `cells`, a set of `K` cells, among all sets of the same size on `n` cells, from
/// 0 to C(n, K) - 1. A line has at most 16 cells and at least one empty, so `K` is below 16,
/// and every rank (C(16, 8) = 12870 at most) fits a `u16`.
///
/// Keeps one row of Pascal's triangle as it walks the cells, which needs no multiplication or
/// division (both are library calls on AVR) and no table.
pub fn rank<const K: usize>(cells: Cells, n: u8) -> u16 {
    const { assert!(K < 16, "a line has at most 16 cells, one of them empty") };
    // The row needs K + 1 entries; small sets keep the short row (and their stack) they
    // always had. `K` is a constant, so only one branch is compiled.
    if K < 8 {
        rank_with::<K, 8>(cells, n)
    } else {
        rank_with::<K, 16>(cells, n)
    }
}

/// [`rank`] read from a table of binomials in program memory rather than worked out: the
/// generated code places [`binomials`] there, and the walk is a few instructions with no
/// frame, where keeping a row of Pascal's triangle needs one on the stack.
///
/// `table[j * (n - k + 1) + e]` is C(j + e, j + 1): what the `j`-th set cell from index 0 (from
/// 0) adds to the rank when `e` cells below it are empty. The walk keeps a pointer to that
/// entry: an empty cell moves it on by one, a set cell by `n - k + 1` (the next row, as many
/// cells empty). A set of other than `k` cells gets some rank: the walk ends at the `k`-th set
/// cell or the `n`-th cell, and so never reads past the table's `k` rows.
pub fn rank_in(cells: Cells, n: u8, k: u8, table: &'static [u16]) -> u16 {
    let width = n.wrapping_sub(k).wrapping_add(1);
    let mut rank = 0u16;
    let mut at = table.as_ptr();
    let (mut rest, mut i, mut left) = (cells, n, k);
    // The walk reads at most k rows: a shorter table is refused whole (with the generated
    // code's constants, the test folds away).
    if k > n || table.len() < k as usize * width as usize {
        return 0;
    }
    while i != 0 && left != 0 {
        if rest & 1 != 0 {
            // SAFETY: `at` is inside the table's k rows (see above), in program memory.
            rank = rank.wrapping_add(unsafe { crate::progmem::word(at) });
            at = at.wrapping_add(width as usize);
            left -= 1;
        } else {
            at = at.wrapping_add(1);
        }
        rest >>= 1;
        i -= 1;
    }
    rank
}

/// The table [`rank_in`] reads for sets of `k` cells out of `n`, `LEN` = `k * (n - k + 1)`
/// entries: C(j + e, j + 1) at row `j`, entry `e`. A constant function, so that the generated
/// code's static is worked out when the firmware is compiled.
pub const fn binomials<const LEN: usize>(n: u8, k: u8) -> [u16; LEN] {
    let width = (n - k + 1) as usize;
    assert!(LEN == k as usize * width, "the table has k rows of n - k + 1 entries");
    let mut t = [0u16; LEN];
    let mut at = 0;
    while at < LEN {
        let (j, e) = (at / width, at % width);
        // C(top, r) by the multiplicative formula; each partial product is a binomial.
        let (top, r) = ((j + e) as u32, (j + 1) as u32);
        let mut c = 1u32;
        let mut i = 0;
        while i < r {
            c = if top < r { 0 } else { c * (top - i) / (i + 1) };
            i += 1;
        }
        t[at] = c as u16;
        at += 1;
    }
    t
}

/// [`rank`] with a Pascal row of `R` > `K` entries.
fn rank_with<const K: usize, const R: usize>(cells: Cells, n: u8) -> u16 {
    // row[j] = C(i, j) for the current cell index i and j in 0..=min(i, K). Entries past i
    // are not yet part of the row; starting them all at 1 makes row[i + 1] = C(i + 1, i + 1)
    // ready when the row grows, and keeps the compiler from zeroing the row with a memset
    // (a 164-byte library routine on AVR). Indices are bytes and the cells are shifted out
    // one a step: on an 8-bit chip, 16-bit indices and variable shifts are loops of their own.
    let mut row = [1u16; R];
    let mut rank = 0u16;
    let mut seen = 0u8;
    let mut rest = cells;
    let mut i = 0u8;
    while i < n {
        if rest & 1 != 0 {
            seen += 1;
            // C(i, seen) is 0 when all of cells 0..=i are taken (seen = i + 1).
            if seen as usize <= K && seen <= i {
                rank += row[seen as usize];
            }
        }
        rest >>= 1;
        let mut j = if (i as usize) < K { i } else { K as u8 };
        while j > 0 {
            row[j as usize] += row[j as usize - 1];
            j -= 1;
        }
        i += 1;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C(n, k) by the multiplicative formula, independent of the row walk.
    fn binomial(n: u32, k: u32) -> usize {
        (0..k).fold(1usize, |acc, i| acc * (n - i) as usize / (i + 1) as usize)
    }

    /// Every `K`-set of `n` cells gets a distinct rank below C(n, K), so every rank is used.
    fn assert_bijection<const K: usize>(n: u8) {
        let total = binomial(n as u32, K as u32);
        let mut seen = [false; 12870];
        let mut count = 0;
        for cells in 0u32..(1 << n) {
            if cells.count_ones() as usize == K {
                let r = rank::<K>(cells as Cells, n) as usize;
                assert!(r < total, "C({n}, {K}): rank {r} of {cells:#b} out of range");
                assert!(!seen[r], "C({n}, {K}): rank {r} given twice");
                seen[r] = true;
                count += 1;
            }
        }
        assert_eq!(count, total);
        assert!(seen[..total].iter().all(|&s| s), "C({n}, {K}): a rank is unused");
    }

    #[test]
    fn ranks_are_a_bijection_onto_0_to_c_n_k() {
        assert_bijection::<5>(12);
        assert_bijection::<1>(2);
        assert_bijection::<1>(16);
        assert_bijection::<3>(8);
        assert_bijection::<7>(14);
        assert_bijection::<7>(16);
        assert_bijection::<8>(16);
        assert_bijection::<9>(16);
        assert_bijection::<11>(12);
        assert_bijection::<12>(16);
        assert_bijection::<15>(16);
    }

    /// The table-driven rank is the rank the Pascal row gives.
    fn assert_table_agrees<const K: usize, const LEN: usize>(n: u8, table: &'static [u16; LEN]) {
        for cells in 0u32..(1 << n) {
            if cells.count_ones() as usize == K {
                assert_eq!(rank_in(cells as Cells, n, K as u8, table), rank::<K>(cells as Cells, n), "{cells:#b}");
            }
        }
    }

    #[test]
    fn ranks_read_from_the_table_agree() {
        static T5_12: [u16; 40] = binomials(12, 5);
        static T8_16: [u16; 72] = binomials(16, 8);
        static T1_2: [u16; 2] = binomials(2, 1);
        static T15_16: [u16; 30] = binomials(16, 15);
        static T3_8: [u16; 18] = binomials(8, 3);
        assert_table_agrees::<5, 40>(12, &T5_12);
        assert_table_agrees::<8, 72>(16, &T8_16);
        assert_table_agrees::<1, 2>(2, &T1_2);
        assert_table_agrees::<15, 30>(16, &T15_16);
        assert_table_agrees::<3, 18>(8, &T3_8);
        assert_eq!(T5_12[..8], [0, 1, 2, 3, 4, 5, 6, 7], "C(e, 1) for the first set cell");
    }

    #[test]
    fn bit_reads_little_endian_bits() {
        use crate::progmem::bit;
        static T: [u8; 2] = [0b0000_0010, 0b1000_0000];
        assert!(bit(&T, 1));
        assert!(!bit(&T, 0));
        assert!(bit(&T, 15));
        assert!(!bit(&T, 16), "past the end is false");
    }
}
