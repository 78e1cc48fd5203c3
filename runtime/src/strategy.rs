//! The device's strategies over slide moves: perfect play from a solved table, or random.

use crate::line::{Cells, Moves};
use crate::pick::Pick;
use crate::rng::Rng;

/// The position after a winning move if there is one (a move leaving the opponent in a lost
/// position), else after any legal move; among several, uniformly at random or the first, as
/// `ties_random` says.
/// Inlined, so that the generated code's constant slides fold into the walk.
#[inline(always)]
pub fn perfect(
    pos: Cells,
    moves: &(impl Moves + ?Sized),
    mover_wins: impl Fn(Cells) -> bool,
    rng: &mut Rng,
    ties_random: bool,
) -> Option<Cells> {
    // One pick, restarted at the first winning move and offered only winning moves from
    // then on: uniform among the winning moves if there are any, else among all of them (all
    // losing), as two picks would choose, with half their code.
    let mut pick = Pick::default();
    let mut winning = false;
    moves.each_next(pos, |m| {
        let wins = !mover_wins(m);
        if wins != winning {
            if !wins {
                return;
            }
            pick = Pick::default();
            winning = true;
        }
        if ties_random {
            pick.offer(m, rng);
        } else {
            pick.offer_first(m);
        }
    });
    pick.chosen()
}

/// The position after any legal move, uniformly. Inlined, as [`perfect`] is.
#[inline(always)]
pub fn random(pos: Cells, moves: &(impl Moves + ?Sized), rng: &mut Rng) -> Option<Cells> {
    let mut any = Pick::default();
    moves.each_next(pos, |m| any.offer(m, rng));
    any.chosen()
}

/// A random set of `k` distinct cells out of `n` (every set equally likely, up to the
/// generator): the cells walked once, each taken with the odds the cells still to take have
/// among the cells left (selection sampling). No draw is thrown away for a cell already taken,
/// and the cell's bit is stepped rather than shifted into place (a loop of its own on AVR).
pub fn random_set(rng: &mut Rng, n: u8, k: u8) -> Cells {
    let mut cells: Cells = 0;
    let (mut bit, mut left, mut need): (Cells, u8, u8) = (1, n, k.min(n));
    // `need` never exceeds `left`: when they are equal, every cell left is taken.
    while need != 0 {
        if rng.below(left) < need {
            cells |= bit;
            need -= 1;
        }
        bit <<= 1;
        left -= 1;
    }
    cells
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::line::Slide;

    const S: [Slide; 1] = [Slide { cells: 6, step: -1, min: 1, max: 6, over_empty: true }];

    #[test]
    fn perfect_takes_a_winning_move_when_one_exists() {
        // Pretend only the position with the piece on index 0 is lost for the mover.
        let lost = 0b00_0001;
        for seed in 1..50 {
            let mut rng = Rng::new(seed);
            assert_eq!(perfect(0b10_0000, &S[..], |p| p != lost, &mut rng, true), Some(lost));
        }
    }

    #[test]
    fn perfect_falls_back_to_any_legal_move() {
        let mut rng = Rng::new(3);
        let next = perfect(0b00_0100, &S[..], |_| true, &mut rng, true).unwrap();
        assert!(next < 0b100);
        assert_eq!(perfect(0b00_0001, &S[..], |_| true, &mut rng, true), None);
    }

    #[test]
    fn random_sets_have_k_cells() {
        let mut rng = Rng::new(9);
        for _ in 0..100 {
            assert_eq!(random_set(&mut rng, 12, 5).count_ones(), 5);
            assert!(random_set(&mut rng, 12, 5) < 1 << 12);
        }
        assert_eq!(random_set(&mut rng, 4, 9), 0b1111, "no more cells than the line has");
    }

    #[test]
    fn every_set_is_about_as_likely() {
        // The 10 sets of 2 cells out of 5, over 10,000 draws.
        let mut rng = Rng::new(5);
        let mut count = std::collections::HashMap::new();
        for _ in 0..10_000 {
            *count.entry(random_set(&mut rng, 5, 2)).or_insert(0u32) += 1;
        }
        assert_eq!(count.len(), 10);
        assert!(count.values().all(|&c| (800..1200).contains(&c)), "{count:?}");
    }
}
