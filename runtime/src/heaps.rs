//! Heaps of counters shown on a row of lights: each heap owns a run of lights, its counters lit
//! from the run's first light. A position is the set of lit lights, so the line games' turn
//! machine, display and strategies serve heap games unchanged.

use crate::line::Cells;
use crate::pick::Pick;
use crate::rng::Rng;

/// A heap's run of lights: bit `first` and the `size - 1` above it.
#[derive(Clone, Copy, Debug)]
pub struct Heap {
    pub first: u8,
    pub size: u8,
}

/// One removal action: `min..=max` counters from one heap.
#[derive(Clone, Copy, Debug)]
pub struct Take {
    pub min: u8,
    pub max: u8,
}

impl Heap {
    fn mask(&self) -> Cells {
        (((1u32 << self.size) - 1) << self.first) as Cells
    }

    /// The counters left in this heap.
    pub fn count(&self, pos: Cells) -> u8 {
        (pos & self.mask()).count_ones() as u8
    }

    /// `pos` with this heap holding `n` counters.
    pub fn with(&self, pos: Cells, n: u8) -> Cells {
        (pos & !self.mask()) | ((((1u32 << n) - 1) << self.first) as Cells)
    }
}

/// The position after taking `n` counters from heap `h` with `take`, if that is legal.
pub fn take(heaps: &[Heap], pos: Cells, take: &Take, h: u8, n: u8) -> Option<Cells> {
    let heap = heaps.get(h as usize)?;
    let left = heap.count(pos);
    (n >= take.min && n <= take.max && n <= left).then(|| heap.with(pos, left - n))
}

/// Calls `f` with the position after every legal move.
pub fn for_each(heaps: &[Heap], pos: Cells, takes: &[Take], mut f: impl FnMut(Cells)) {
    for t in takes {
        for (h, heap) in heaps.iter().enumerate() {
            let left = heap.count(pos);
            for n in t.min..=t.max.min(left) {
                if let Some(next) = take(heaps, pos, t, h as u8, n) {
                    f(next);
                }
            }
        }
    }
}

pub fn has_move(heaps: &[Heap], pos: Cells, takes: &[Take]) -> bool {
    let mut any = false;
    for_each(heaps, pos, takes, |_| any = true);
    any
}

/// The position's index among all positions, the heaps' counts as the digits of a mixed
/// radix number (heap 0 the least significant), each heap counting up to its size.
pub fn index(heaps: &[Heap], pos: Cells) -> u16 {
    let mut index = 0u16;
    let mut scale = 1u16;
    for heap in heaps {
        index += heap.count(pos) as u16 * scale;
        scale *= heap.size as u16 + 1;
    }
    index
}

/// A move that wins at once (the opponent is left without a move and lost), else one that
/// leaves the opponent in a lost position, else any legal move; among several, at random or
/// the first. Returns the position after it.
pub fn perfect(
    heaps: &[Heap],
    pos: Cells,
    takes: &[Take],
    mover_wins: impl Fn(Cells) -> bool,
    rng: &mut Rng,
    ties_random: bool,
) -> Option<Cells> {
    let mut best = [Pick::default(), Pick::default(), Pick::default()];
    for_each(heaps, pos, takes, |next| {
        let rank = match mover_wins(next) {
            true => 0,
            false if has_move(heaps, next, takes) => 1,
            false => 2,
        };
        for pick in best.iter_mut().take(rank + 1) {
            if ties_random {
                pick.offer(next, rng);
            } else {
                pick.offer_first(next);
            }
        }
    });
    best[2].chosen().or(best[1].chosen()).or(best[0].chosen())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Heaps of 3, 4 and 5 on lights 0-2, 3-6 and 7-11.
    const HEAPS: [Heap; 3] = [Heap { first: 0, size: 3 }, Heap { first: 3, size: 4 }, Heap { first: 7, size: 5 }];
    const ANY: [Take; 1] = [Take { min: 1, max: 12 }];
    const START: Cells = 0b1111_1111_1111;

    #[test]
    fn taking_clears_a_heaps_top_lights() {
        let after = take(&HEAPS, START, &ANY[0], 1, 3).unwrap();
        assert_eq!(after, 0b1111_1000_1111);
        assert_eq!(HEAPS[1].count(after), 1);
        assert_eq!(take(&HEAPS, after, &ANY[0], 1, 2), None, "only one left");
        assert_eq!(take(&HEAPS, after, &ANY[0], 1, 0), None, "at least one");
        assert_eq!(take(&HEAPS, after, &ANY[0], 3, 1), None, "no heap 3");
    }

    #[test]
    fn every_position_has_its_own_index() {
        let mut seen = [false; 120];
        for a in 0..=3 {
            for b in 0..=4 {
                for c in 0..=5 {
                    let pos = HEAPS[2].with(HEAPS[1].with(HEAPS[0].with(0, a), b), c);
                    let i = index(&HEAPS, pos) as usize;
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
    }

    #[test]
    fn perfect_play_leaves_a_nim_sum_of_zero() {
        let nim_sum = |p: Cells| HEAPS.iter().fold(0, |x, h| x ^ h.count(p));
        let mut rng = Rng::new(5);
        let next = perfect(&HEAPS, START, &ANY, |p| nim_sum(p) != 0, &mut rng, true).unwrap();
        assert_eq!(nim_sum(next), 0);
        // One heap left: take it all.
        let last = HEAPS[2].with(0, 4);
        assert_eq!(perfect(&HEAPS, last, &ANY, |p| nim_sum(p) != 0, &mut rng, true), Some(0));
        assert_eq!(perfect(&HEAPS, 0, &ANY, |_| true, &mut rng, true), None);
    }
}
