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

#[cfg(test)]
mod tests {
    use super::*;

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
