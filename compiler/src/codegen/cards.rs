//! The module of a game of cards: the card code's fields, and the search for the groups on a
//! table, generated from the group's rule. Where any K-1 cards determine the last (every
//! attribute all same, or all different over exactly K values, or either), the search tries
//! every K-1 places, works out the last card and looks it up: O(n^(K-1)). Otherwise it tries
//! every K places: O(n^K).

use super::origin::described;
use super::{int, Origin};
use crate::cards::Deck;
use gamec_dsl::ast::Relation;
use gamec_dsl::{CardsDef, GameDef};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub fn render(game: &GameDef, origin: Origin) -> TokenStream {
    let cards = game.cards.as_ref().expect("a game of cards");
    let deck = Deck::new(cards);
    let k = cards.group.size as usize;
    let top_bit = cards.attributes.iter().map(|a| a.lo as u32 + a.width as u32).max().unwrap_or(8);
    let code = match top_bit {
        0..=8 => quote!(u8),
        9..=16 => quote!(u16),
        _ => quote!(u32),
    };
    let fields = cards.attributes.iter().map(|a| {
        let (lo, mask, n) = (int(a.lo), int(a.mask()), int(a.values.len()));
        quote!((#lo, #mask, #n))
    });
    let attrs_doc: Vec<String> = cards
        .attributes
        .iter()
        .map(|a| {
            format!(" - `{}`: {}", a.name.node, a.values.iter().map(|v| v.node.as_str()).collect::<Vec<_>>().join(", "))
        })
        .collect();
    let n_attrs = int(cards.attributes.len());
    let (kk, capacity, rows, cols) = (int(k), int(cards.capacity), int(cards.rows), int(cards.cols));
    let relation = |r: Option<Relation>| match r {
        None => quote!(None),
        Some(Relation::AllSame) => quote!(Some(Relation::AllSame)),
        Some(Relation::AllDifferent) => quote!(Some(Relation::AllDifferent)),
        Some(Relation::SameOrDifferent) => quote!(Some(Relation::SameOrDifferent)),
    };
    let rules = cards.group.rules.iter().map(|&r| relation(r));
    let group_doc = described(
        &[&format!("What makes {k} cards a `{}`: per attribute, how its values relate.", cards.group.name.node)],
        origin.quote(cards.group.span),
    );
    let (search, how) = group_search(cards, &deck, top_bit);
    let completion = deck.determined().then(|| completion(cards));
    let names = cards.attributes.iter().map(|a| {
        let values = a.values.iter().map(|v| v.node.as_str());
        quote!(&[#(#values),*])
    });
    let group_name = cards.group.name.node.as_str();
    let code_bytes = int(top_bit.div_ceil(8));
    quote! {
        //! The cards: their code's fields, and the search for groups on the table.
        use gamec_runtime::cards::{is_group_by, Relation};

        /// A card's code.
        pub type Code = #code;
        /// Per attribute: its lowest bit, its mask and how many values it has:
        #(#[doc = #attrs_doc])*
        pub const ATTRIBUTES: [(u8, u8, u8); #n_attrs] = [#(#fields),*];
        /// Cards in a group, and the table's size and layout.
        pub const GROUP: usize = #kk;
        pub const CAPACITY: usize = #capacity;
        pub const ROWS: usize = #rows;
        pub const COLUMNS: usize = #cols;
        #group_doc
        pub const RULES: [Option<Relation>; #n_attrs] = [#(#rules),*];

        /// Per attribute, its values' names, in the order of their numbers.
        pub static NAMES: [&[&str]; #n_attrs] = [#(#names),*];
        /// What a group is called, and the bytes of a code as a scanner sends them.
        pub const GROUP_NAME: &str = #group_name;
        pub const CODE_BYTES: usize = #code_bytes;

        /// Whether a code is a card of the deck.
        pub fn is_card(code: Code) -> bool {
            let (code, mut fields) = (u32::from(code), 0u32);
            for &(lo, mask, n) in &ATTRIBUTES {
                fields |= u32::from(mask) << lo;
                if (code >> lo) & u32::from(mask) >= u32::from(n) {
                    return false;
                }
            }
            code & !fields == 0
        }

        /// Whether the cards make a group.
        pub fn is_group(cards: &[Code; GROUP]) -> bool {
            is_group_by(&ATTRIBUTES, &RULES, cards.map(u32::from))
        }

        #completion

        #[doc = #how]
        pub fn groups(table: &[Code], found: &mut impl FnMut([u8; GROUP])) {
            #search
        }

        /// [`groups`] over codes as the table keeps them, for the runtime's card table.
        pub fn search(table: &[u32], found: &mut dyn FnMut(&[u8])) {
            let mut codes: [Code; CAPACITY] = [0; CAPACITY];
            let n = table.len().min(CAPACITY);
            for (c, &t) in codes.iter_mut().zip(&table[..n]) {
                // The table holds only cards, whose codes fit.
                *c = Code::try_from(t).unwrap_or(Code::MAX);
            }
            groups(&codes[..n], &mut |g| found(&g));
        }

        /// [`is_card`] over a code as the table keeps it.
        pub fn is_card_code(code: u32) -> bool {
            Code::try_from(code).is_ok_and(is_card)
        }
    }
}

/// The search for groups on the table, with its description: nested loops over increasing
/// places, the last card completed and looked up where the rule determines it (by a table of
/// places by code when codes are few), or every place tried where it does not.
fn group_search(cards: &CardsDef, deck: &Deck, top_bit: u32) -> (TokenStream, String) {
    let k = cards.group.size as usize;
    let places = (0..k).map(|i| format_ident!("p{i}")).collect::<Vec<_>>();
    // A table of places by code, when the codes are few enough to index it cheaply.
    let indexed = top_bit <= 8 && cards.capacity < 255;
    // Nested loops over increasing places: the first K-1 (derived) or all K (enumerated).
    let search = if deck.determined() {
        let outer = &places[..k - 1];
        let after = &outer[k - 2];
        let cards_of = outer.iter().map(|p| quote!(table[#p]));
        let look_up = if indexed {
            quote! {
                let at = place[last as usize];
                if at != u8::MAX && at as usize > #after {
                    found([#(#outer as u8,)* at]);
                }
            }
        } else {
            quote! {
                let after = #after;
                if let Some(at) = table[after + 1..].iter().position(|&c| c == last) {
                    found([#(#outer as u8,)* (after + 1 + at) as u8]);
                }
            }
        };
        let loops = nest(
            outer,
            quote! {
                if let Some(last) = completion([#(#cards_of),*]) {
                    #look_up
                }
            },
        );
        if indexed {
            let codes = int(1usize << top_bit);
            quote! {
                let mut place = [u8::MAX; #codes];
                for (i, &c) in table.iter().enumerate() {
                    place[c as usize] = i as u8;
                }
                #loops
            }
        } else {
            loops
        }
    } else {
        let cards_of = places.iter().map(|p| quote!(table[#p]));
        let found = quote! {
            if is_group(&[#(#cards_of),*]) {
                found([#(#places as u8),*]);
            }
        };
        nest(&places, found)
    };
    let how = match (deck.determined(), indexed) {
        (true, true) => format!(
            " Each group once, places increasing: every {} places completed and the last card's place read from a table by code.",
            k - 1
        ),
        (true, false) => format!(
            " Each group once, places increasing: every {} places completed and the last card looked up.",
            k - 1
        ),
        (false, _) => {
            format!(" Each group once, places increasing: every {k} places tried (the rule leaves the last card open).")
        }
    };
    (search, how)
}

/// The card that makes K-1 cards a group, attribute by attribute in straight-line code: the
/// others' value where they are all the same, the value they leave where they all differ over
/// exactly K values, or no card.
fn completion(cards: &CardsDef) -> TokenStream {
    let k = cards.group.size as usize;
    let given: Vec<_> = (0..k - 1).map(|i| format_ident!("c{i}")).collect();
    let fields = cards.attributes.iter().zip(&cards.group.rules).map(|(a, rule)| {
        let (lo, mask, n) = (int(a.lo), int(a.mask()), a.values.len());
        let vs: Vec<_> = (0..k - 1).map(|i| format_ident!("v{i}")).collect();
        let v0 = &vs[0];
        let same = all(vs[1..].iter().map(|v| quote!(#v0 == #v)));
        let distinct = all((0..vs.len()).flat_map(|i| (i + 1..vs.len()).map(move |j| (i, j))).map(|(i, j)| {
            let (a, b) = (&vs[i], &vs[j]);
            quote!(#a != #b)
        }));
        // Code is as wide as the fields, so the values' sum fits it.
        let missing = int(n * (n - 1) / 2);
        let rest = &vs[1..];
        let left = quote!(Code::wrapping_sub(#missing, #v0)#(.wrapping_sub(#rest))*);
        let value = match rule {
            None => return quote!(),
            Some(Relation::AllSame) => quote!(if #same { #v0 } else { return None }),
            Some(Relation::AllDifferent) => quote!(if #distinct { #left } else { return None }),
            Some(Relation::SameOrDifferent) => {
                quote!(if #same { #v0 } else if #distinct { #left } else { return None })
            }
        };
        if a.lo == 0 {
            quote! {
                let [#(#vs),*] = [#(#given),*].map(|c| c & #mask);
                code |= #value;
            }
        } else {
            quote! {
                let [#(#vs),*] = [#(#given),*].map(|c| (c >> #lo) & #mask);
                code |= (#value) << #lo;
            }
        }
    });
    let km1 = int(k - 1);
    quote! {
        /// The card that makes these a group, if the rule determines one.
        pub fn completion(cards: [Code; #km1]) -> Option<Code> {
            let [#(#given),*] = cards;
            let mut code: Code = 0;
            #(#fields)*
            Some(code)
        }
    }
}

/// The conditions joined with `&&`; `true` for none.
fn all(conds: impl Iterator<Item = TokenStream>) -> TokenStream {
    let conds: Vec<_> = conds.collect();
    if conds.is_empty() {
        quote!(true)
    } else {
        quote!(#(#conds)&&*)
    }
}

/// `body` inside loops over increasing `places`.
fn nest(places: &[proc_macro2::Ident], body: TokenStream) -> TokenStream {
    let mut code = body;
    for (i, p) in places.iter().enumerate().rev() {
        let from = match i {
            0 => quote!(0),
            _ => {
                let prev = &places[i - 1];
                quote!(#prev + 1)
            }
        };
        code = quote! {
            for #p in #from..table.len() {
                #code
            }
        };
    }
    code
}
