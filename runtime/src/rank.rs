//! Ranking of k-element cell sets (the combinatorial number system), so a table with one
//! entry per position can be indexed without storing every mask.

use crate::line::Cells;

/// The rank of `cells` among all sets of the same size on `n` cells, from 0 to C(n, k) - 1.
///
/// Keeps one row of Pascal's triangle as it walks the cells, which needs no multiplication or
/// division (both are library calls on AVR) and no table.
pub fn rank<const K: usize>(cells: Cells, n: u8) -> u16 {
    // row[j] = C(i, j) for the current cell index i, j in 0..=K.
    let mut row = [0u16; 8];
    row[0] = 1;
    let mut rank = 0u16;
    let mut seen = 0usize;
    for i in 0..n {
        if cells & (1 << i) != 0 {
            seen += 1;
            if seen <= K {
                rank += row[seen];
            }
        }
        let mut j = K.min(7);
        while j > 0 {
            row[j] += row[j - 1];
            j -= 1;
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection_onto_0_to_c_n_k() {
        // C(12, 5) = 792 sets; each must get a distinct rank below 792.
        let mut seen = [false; 792];
        for cells in 0u16..(1 << 12) {
            if cells.count_ones() == 5 {
                let r = rank::<5>(cells, 12) as usize;
                assert!(r < 792);
                assert!(!seen[r], "rank {r} given twice");
                seen[r] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
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
