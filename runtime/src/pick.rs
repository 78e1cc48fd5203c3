//! Uniform choice from a stream of candidates without storing them (reservoir sampling).

use crate::rng::Rng;

pub struct Pick<T> {
    seen: u8,
    chosen: Option<T>,
}

impl<T: Copy> Default for Pick<T> {
    fn default() -> Self {
        Pick { seen: 0, chosen: None }
    }
}

impl<T: Copy> Pick<T> {
    /// Offers a candidate; after n offers each was kept with probability 1/n.
    pub fn offer(&mut self, item: T, rng: &mut Rng) {
        // Saturating by a test: `saturating_add` compiles to twice the code on AVR.
        #[allow(clippy::implicit_saturating_add)]
        if self.seen != u8::MAX {
            self.seen += 1;
        }
        if rng.below(self.seen) == 0 {
            self.chosen = Some(item);
        }
    }

    /// Keeps the first candidate: for `ties first`.
    pub fn offer_first(&mut self, item: T) {
        self.seen = self.seen.saturating_add(1);
        if self.chosen.is_none() {
            self.chosen = Some(item);
        }
    }

    pub fn chosen(&self) -> Option<T> {
        self.chosen
    }
}

/// The choice among the candidates of the highest rank offered: uniform among them, or the
/// first of them, as `random` says. A solved game's device ranks each move by the value it
/// leaves and keeps one of the best, without a list. Ranks are bytes, or words where they
/// count plies that may pass a byte's (`R`).
pub struct Ranked<T, R = u8> {
    rank: R,
    pick: Pick<T>,
    random: bool,
}

impl<T: Copy, R: Copy + Ord + Default> Ranked<T, R> {
    pub fn new(random: bool) -> Self {
        Ranked { rank: R::default(), pick: Pick::default(), random }
    }

    /// Offers a candidate of rank `rank`: it starts the choice afresh above the best so far,
    /// joins it at the same rank, and is passed over below it.
    pub fn offer(&mut self, rank: R, item: T, rng: &mut Rng) {
        if rank > self.rank {
            self.rank = rank;
            self.pick = Pick::default();
        }
        if rank == self.rank {
            match self.random {
                true => self.pick.offer(item, rng),
                false => self.pick.offer_first(item),
            }
        }
    }

    pub fn chosen(&self) -> Option<T> {
        self.pick.chosen()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_highest_rank_is_chosen_from() {
        let mut rng = Rng::new(3);
        for random in [true, false] {
            let mut r = Ranked::<char, u16>::new(random);
            for (rank, item) in [(1, 'a'), (300, 'b'), (2, 'c'), (300, 'd'), (0, 'e')] {
                r.offer(rank, item, &mut rng);
            }
            let chosen = r.chosen().unwrap();
            assert!(chosen == 'b' || chosen == 'd', "{chosen}");
            if !random {
                assert_eq!(chosen, 'b', "the first of the best");
            }
        }
        assert_eq!(Ranked::<u8>::new(true).chosen(), None);
    }

    #[test]
    fn every_candidate_is_chosen_about_equally() {
        let mut rng = Rng::new(7);
        let mut count = [0u32; 4];
        for _ in 0..4000 {
            let mut p = Pick::default();
            for i in 0..4u8 {
                p.offer(i, &mut rng);
            }
            count[p.chosen().unwrap() as usize] += 1;
        }
        assert!(count.iter().all(|&c| (800..1200).contains(&c)), "{count:?}");
    }
}
