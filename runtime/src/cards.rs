//! Cards coded in bit fields, and what makes some of them a group: per attribute, its values
//! all the same, all different, or either. The generated module gives the fields and the
//! rules; the search over a table is generated too (`compiler/src/codegen/cards.rs`).

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

/// The card that makes `cards` (one fewer than a group of `k`) a group, where every rule
/// leaves one value: the others' value if they are all the same, or the one value they leave
/// when the field has exactly `k` values and they all differ.
pub fn completion_by<const N: usize>(
    fields: &[Field],
    rules: &[Option<Relation>],
    k: u8,
    cards: [u32; N],
) -> Option<u32> {
    let mut code = 0u32;
    for (&f, r) in fields.iter().zip(rules) {
        let vs = cards.map(|c| value(c, f));
        let missing = || {
            let all: u16 = (0..f.2 as u16).sum();
            let have: u16 = vs.iter().map(|&v| v as u16).sum();
            (f.2 == k && distinct(&vs)).then(|| (all - have) as u8)
        };
        let v = match r {
            None if f.2 == 1 => Some(0),
            None => None,
            Some(Relation::AllSame) => same(&vs).then_some(vs[0]),
            Some(Relation::AllDifferent) => missing(),
            Some(Relation::SameOrDifferent) => {
                if same(&vs) {
                    Some(vs[0])
                } else {
                    missing()
                }
            }
        }?;
        code |= (v as u32) << f.0;
    }
    Some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Set's four attributes of three values, two bits each.
    const FIELDS: [Field; 4] = [(0, 3, 3), (2, 3, 3), (4, 3, 3), (6, 3, 3)];
    const RULES: [Option<Relation>; 4] = [Some(Relation::SameOrDifferent); 4];

    #[test]
    fn the_third_card_is_the_one_two_cards_leave() {
        // one empty purple wave + two solid purple rhombus -> three striped purple oval.
        let (a, b) = (0b00_00_00_00, 0b01_00_01_01);
        let c = completion_by(&FIELDS, &RULES, 3, [a, b]).unwrap();
        assert_eq!(c, 0b10_00_10_10);
        assert!(is_group_by(&FIELDS, &RULES, [a, b, c]));
        assert!(!is_group_by(&FIELDS, &RULES, [a, b, 0b10_00_10_01]));
    }
}
