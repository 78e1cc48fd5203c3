//! Cards coded in bit fields, and what makes some of them a group: per attribute, its values
//! all the same, all different, or either. The generated module gives the fields and the
//! rules; the search over a table is generated (`compiler/src/codegen/cards.rs`), and
//! where the rule determines the last card of a group it is worked out there in straight-line
//! code, attribute by attribute.

/// How an attribute's values relate across a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    AllSame,
    AllDifferent,
    SameOrDifferent,
}

/// A field of a card's code: its lowest bit, its mask and how many values it has.
pub type Field = (u8, u8, u8);

fn value(code: u32, f: Field) -> u8 {
    (code >> f.0) as u8 & f.1
}

fn same(vs: &[u8]) -> bool {
    vs.iter().all(|&v| v == vs[0])
}

fn distinct(vs: &[u8]) -> bool {
    vs.iter().enumerate().all(|(i, v)| !vs[..i].contains(v))
}

/// Whether the cards make a group under the rules (one per field; `None` is free).
pub fn is_group_by<const K: usize>(fields: &[Field], rules: &[Option<Relation>], cards: [u32; K]) -> bool {
    fields.iter().zip(rules).all(|(&f, r)| {
        let vs = cards.map(|c| value(c, f));
        match r {
            None => true,
            Some(Relation::AllSame) => same(&vs),
            Some(Relation::AllDifferent) => distinct(&vs),
            Some(Relation::SameOrDifferent) => same(&vs) || distinct(&vs),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Set's four attributes of three values, two bits each.
    const FIELDS: [Field; 4] = [(0, 3, 3), (2, 3, 3), (4, 3, 3), (6, 3, 3)];
    const RULES: [Option<Relation>; 4] = [Some(Relation::SameOrDifferent); 4];

    #[test]
    fn a_set_is_every_attribute_all_same_or_all_different() {
        // one empty purple wave, two solid purple rhombus, three striped purple oval.
        let (a, b, c) = (0b00_00_00_00, 0b01_00_01_01, 0b10_00_10_10);
        assert!(is_group_by(&FIELDS, &RULES, [a, b, c]));
        assert!(!is_group_by(&FIELDS, &RULES, [a, b, 0b10_00_10_01]));
    }
}
