//! Cards: a deck of one card for every combination of the attributes' values, each card coded
//! in bit fields, and the groups a table holds. Groups are found by plain enumeration, or,
//! where the group's rule lets any K-1 cards determine the last (Set's "all same or all
//! different" over three values), by working that card out and looking it up.

use gamec_dsl::ast::Relation;
use gamec_dsl::CardsDef;

/// The most combinations of cards [`Deck::groups`] is asked to try when `analyze` counts a
/// deck's groups: a few seconds' work. Past it the count is left out, with the reason, rather
/// than run for hours (8 cards of Set's 81 are 32 billion combinations).
pub const MOST_TRIED: u64 = 10_000_000;

/// `n` choose `k`, saturating at `u64::MAX`.
pub fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    // Each partial product is itself a binomial coefficient, so the division is exact.
    (0..k).try_fold(1u64, |c, i| (c as u128 * (n - i) as u128 / (i + 1) as u128).try_into().ok()).unwrap_or(u64::MAX)
}

pub struct Deck<'a> {
    pub def: &'a CardsDef,
}

impl<'a> Deck<'a> {
    pub fn new(def: &'a CardsDef) -> Self {
        Deck { def }
    }

    fn mask(&self, a: usize) -> u32 {
        self.def.attributes[a].mask()
    }

    /// The index of attribute `a`'s value on the card.
    pub fn value(&self, code: u32, a: usize) -> u32 {
        code >> self.def.attributes[a].lo & self.mask(a)
    }

    /// The card with these values (one per attribute).
    pub fn code(&self, values: &[u32]) -> u32 {
        values.iter().enumerate().fold(0, |c, (a, &v)| c | v << self.def.attributes[a].lo)
    }

    /// Whether a code is a card of the deck: every field a value, no bit outside the fields.
    pub fn is_card(&self, code: u32) -> bool {
        let fields = (0..self.def.attributes.len()).fold(0u32, |m, a| m | self.mask(a) << self.def.attributes[a].lo);
        code & !fields == 0
            && (0..self.def.attributes.len())
                .all(|a| (self.value(code, a) as usize) < self.def.attributes[a].values.len())
    }

    /// Every card, in code order.
    pub fn cards(&self) -> Vec<u32> {
        let mut out = vec![0u32];
        for attr in &self.def.attributes {
            out = out.iter().flat_map(|&c| (0..attr.values.len() as u32).map(move |v| c | v << attr.lo)).collect();
        }
        out.sort_unstable();
        out
    }

    /// A card as its values read: `two striped red oval`.
    pub fn name(&self, code: u32) -> String {
        let words: Vec<&str> = (0..self.def.attributes.len())
            .map(|a| {
                let values = &self.def.attributes[a].values;
                values.get(self.value(code, a) as usize).map_or("?", |v| v.node.as_str())
            })
            .collect();
        words.join(" ")
    }

    fn relation_holds(rel: Relation, vs: &[u32]) -> bool {
        let same = vs.iter().all(|&v| v == vs[0]);
        let distinct = vs.iter().enumerate().all(|(i, v)| !vs[..i].contains(v));
        match rel {
            Relation::AllSame => same,
            Relation::AllDifferent => distinct,
            Relation::SameOrDifferent => same || distinct,
        }
    }

    /// Whether these cards (as many as the group takes) make a group.
    pub fn is_group(&self, cards: &[u32]) -> bool {
        self.def.group.rules.iter().enumerate().all(|(a, rel)| match rel {
            None => true,
            Some(r) => Self::relation_holds(*r, &cards.iter().map(|&c| self.value(c, a)).collect::<Vec<_>>()),
        })
    }

    /// Whether any K-1 cards determine the last card of a group: every attribute's rule
    /// leaves at most one value (same: the others' value; different: the one value left when
    /// the attribute has exactly K values).
    pub fn determined(&self) -> bool {
        let k = self.def.group.size as usize;
        self.def.group.rules.iter().enumerate().all(|(a, rel)| {
            let n = self.def.attributes[a].values.len();
            match rel {
                None => n == 1,
                Some(Relation::AllSame) => true,
                Some(Relation::AllDifferent) => n == k,
                // One card of a pair is both all same and all different: either value may follow.
                Some(Relation::SameOrDifferent) => n == k && k > 2,
            }
        })
    }

    /// How many combinations [`Deck::groups`] tries on `n` cards: every K-1 of them where the
    /// rule determines the last card, else every K.
    pub fn tries(&self, n: u64) -> u64 {
        let k = u64::from(self.def.group.size);
        choose(n, if self.determined() { k.saturating_sub(1) } else { k })
    }

    /// The card that makes `cards` (K-1 of them) a group, when the rule determines it and one
    /// does.
    pub fn completion(&self, cards: &[u32]) -> Option<u32> {
        let k = self.def.group.size;
        let mut values = Vec::new();
        for (a, rel) in self.def.group.rules.iter().enumerate() {
            let vs: Vec<u32> = cards.iter().map(|&c| self.value(c, a)).collect();
            let n = self.def.attributes[a].values.len() as u32;
            let same = vs.iter().all(|&v| v == vs[0]);
            let distinct = vs.iter().enumerate().all(|(i, v)| !vs[..i].contains(v));
            // With K values all different, the last is the one the others leave.
            let missing = (n == k && distinct).then(|| (0..n).sum::<u32>() - vs.iter().sum::<u32>());
            let v = match rel {
                None if n == 1 => Some(0),
                None => None,
                Some(Relation::AllSame) => same.then_some(vs[0]),
                Some(Relation::AllDifferent) => missing,
                Some(Relation::SameOrDifferent) => {
                    if same {
                        Some(vs[0])
                    } else {
                        missing
                    }
                }
            };
            values.push(v?);
        }
        Some(self.code(&values))
    }

    /// The groups on `table` (cards by their place), each once, as places in increasing order.
    /// With a determined rule, every K-1 places are completed and the last looked up: O(n^(K-1))
    /// instead of O(n^K).
    pub fn groups(&self, table: &[u32]) -> Vec<Vec<usize>> {
        let k = self.def.group.size as usize;
        let mut out = Vec::new();
        let mut combo = Vec::with_capacity(k);
        if self.determined() {
            self.each_combination(table.len(), k - 1, 0, &mut combo, &mut |c| {
                let cards: Vec<u32> = c.iter().map(|&i| table[i]).collect();
                if let Some(last) = self.completion(&cards) {
                    // Each group once: its last card placed after the others.
                    if let Some(j) = table.iter().position(|&t| t == last).filter(|&j| j > *c.last().unwrap()) {
                        let mut g = c.to_vec();
                        g.push(j);
                        out.push(g);
                    }
                }
            });
        } else {
            self.each_combination(table.len(), k, 0, &mut combo, &mut |c| {
                let cards: Vec<u32> = c.iter().map(|&i| table[i]).collect();
                if self.is_group(&cards) {
                    out.push(c.to_vec());
                }
            });
        }
        out.sort();
        out
    }

    /// The groups by plain enumeration of every K places: the slow reading, for checking.
    pub fn groups_by_enumeration(&self, table: &[u32]) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        let mut combo = Vec::new();
        self.each_combination(table.len(), self.def.group.size as usize, 0, &mut combo, &mut |c| {
            let cards: Vec<u32> = c.iter().map(|&i| table[i]).collect();
            if self.is_group(&cards) {
                out.push(c.to_vec());
            }
        });
        out
    }

    fn each_combination(&self, n: usize, k: usize, from: usize, combo: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if combo.len() == k {
            f(combo);
            return;
        }
        for i in from..n {
            combo.push(i);
            self.each_combination(n, k, i + 1, combo, f);
            combo.pop();
        }
    }
}
