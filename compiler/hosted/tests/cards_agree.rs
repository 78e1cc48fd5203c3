//! The generated search for groups of cards against the compiler's plain enumeration: the
//! whole deck of Set (1,080 sets), random tables, a 20-card table with no set, a deck of three
//! attributes, and a rule that leaves the third card open (the search falls back to trying
//! every three); and the games of cards of the property tests' generator, built by build.rs.

use gamec::cards::Deck;
use gamec_dsl::GameDef;

fn load(path: &str) -> GameDef {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(path, text);
    gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
}

fn generated<C: Copy>(table: &[C], groups: impl Fn(&[C], &mut dyn FnMut([u8; 3]))) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    groups(table, &mut |g| out.push(g.iter().map(|&i| i as usize).collect()));
    out.sort();
    out
}

fn random_table(deck: &[u32], n: usize, seed: &mut u64) -> Vec<u32> {
    let mut cards = deck.to_vec();
    for i in (1..cards.len()).rev() {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        cards.swap(i, (*seed % (i as u64 + 1)) as usize);
    }
    cards.truncate(n);
    cards
}

/// A largest set-free table of Set: 20 cards, found by search (greedy from a fixed order, then
/// backtracking) and checked by enumeration in the test.
fn cap_of_twenty(deck: &Deck, all: &[u32]) -> Vec<u32> {
    fn extend(deck: &Deck, all: &[u32], from: usize, cap: &mut Vec<u32>, want: usize) -> bool {
        if cap.len() == want {
            return true;
        }
        for i in from..all.len() {
            let c = all[i];
            let free = cap.iter().enumerate().all(|(j, &a)| cap[j + 1..].iter().all(|&b| !deck.is_group(&[a, b, c])));
            if free {
                cap.push(c);
                if extend(deck, all, i + 1, cap, want) {
                    return true;
                }
                cap.pop();
            }
            if all.len() - i < want - cap.len() {
                return false;
            }
        }
        false
    }
    let mut cap = Vec::new();
    assert!(extend(deck, all, 0, &mut cap, 20), "a 20-card cap exists");
    cap
}

#[test]
fn set_whole_deck_random_tables_and_a_cap() {
    let game = load("../../games/set.game");
    let deck = Deck::new(game.cards.as_ref().unwrap());
    let all = deck.cards();
    assert_eq!(all.len(), 81);
    let codes: Vec<u8> = all.iter().map(|&c| c as u8).collect();
    assert!(codes.iter().all(|&c| gamec_hosted::set::is_card(c)));
    assert!(!gamec_hosted::set::is_card(0b11), "quantity 3 is no value");
    let whole = generated(&codes, |t, f| gamec_hosted::set::groups(t, &mut |g| f(g)));
    assert_eq!(whole.len(), 1080, "the sets in the whole deck");
    assert_eq!(whole, deck.groups_by_enumeration(&all));
    let mut seed = 0x5E7_5E7;
    for n in [3, 5, 12, 15, 21] {
        for _ in 0..20 {
            let table = random_table(&all, n, &mut seed);
            let codes: Vec<u8> = table.iter().map(|&c| c as u8).collect();
            assert_eq!(
                generated(&codes, |t, f| gamec_hosted::set::groups(t, &mut |g| f(g))),
                deck.groups_by_enumeration(&table)
            );
        }
    }
    let cap = cap_of_twenty(&deck, &all);
    assert!(deck.groups_by_enumeration(&cap).is_empty());
    let codes: Vec<u8> = cap.iter().map(|&c| c as u8).collect();
    assert!(generated(&codes, |t, f| gamec_hosted::set::groups(t, &mut |g| f(g))).is_empty(), "no set among the 20");
}

#[test]
fn three_attributes_and_an_undetermined_rule() {
    let game = load("fixtures/set_three_attributes.game");
    let deck = Deck::new(game.cards.as_ref().unwrap());
    let all = deck.cards();
    let codes: Vec<u8> = all.iter().map(|&c| c as u8).collect();
    let whole = generated(&codes, |t, f| gamec_hosted::fixture_set_three_attributes::groups(t, &mut |g| f(g)));
    assert_eq!((all.len(), whole.len()), (27, 117));
    assert_eq!(whole, deck.groups_by_enumeration(&all));

    let game = load("fixtures/set_four_values.game");
    let deck = Deck::new(game.cards.as_ref().unwrap());
    assert!(!deck.determined(), "two cards leave two candidates for the third");
    let all = deck.cards();
    let codes: Vec<u8> = all.iter().map(|&c| c as u8).collect();
    let whole = generated(&codes, |t, f| gamec_hosted::fixture_set_four_values::groups(t, &mut |g| f(g)));
    assert_eq!(whole, deck.groups_by_enumeration(&all));
    assert!(!whole.is_empty());
}

#[test]
fn groups_of_four_under_mixed_rules() {
    use gamec_hosted::fixture_quads_mixed_rules as quads;
    let game = load("fixtures/quads_mixed_rules.game");
    let deck = Deck::new(game.cards.as_ref().unwrap());
    assert!(deck.determined());
    let all = deck.cards();
    let codes: Vec<u8> = all.iter().map(|&c| c as u8).collect();
    let four = |t: &[u8], f: &mut dyn FnMut([u8; 3])| quads::groups(t, &mut |g: [u8; 4]| f([g[0], g[1], g[2]]));
    let whole: Vec<Vec<usize>> = {
        let mut out = Vec::new();
        quads::groups(&codes, &mut |g| out.push(g.iter().map(|&i| i as usize).collect()));
        out.sort();
        out
    };
    assert_eq!((all.len(), whole.len()), (64, 112));
    assert_eq!(whole, deck.groups_by_enumeration(&all));
    // Every three cards of the deck: the completion is the enumeration's fourth card, if any.
    for (i, &a) in codes.iter().enumerate() {
        for &b in &codes[i + 1..] {
            for &c in codes.iter().filter(|&&c| c != a && c != b) {
                let want =
                    codes.iter().find(|&&d| ![a, b, c].contains(&d) && deck.is_group(&[a, b, c, d].map(u32::from)));
                assert_eq!(quads::completion([a, b, c]), want.copied(), "{a:#b} {b:#b} {c:#b}");
            }
        }
    }
    let mut seed = 0x4_4444;
    for n in [4, 9, 16] {
        for _ in 0..20 {
            let table = random_table(&all, n, &mut seed);
            let codes: Vec<u8> = table.iter().map(|&c| c as u8).collect();
            let mut got = Vec::new();
            four(&codes, &mut |g| got.push(g));
            let mut want = deck.groups_by_enumeration(&table);
            want.iter_mut().for_each(|g| g.truncate(3));
            let mut got: Vec<Vec<usize>> = got.iter().map(|g| g.iter().map(|&i| i as usize).collect()).collect();
            got.sort();
            assert_eq!(got, want);
        }
    }
}

/// The runtime's card table and console over the generated module: cards scanned one by one,
/// the sets it prints at each step against the compiler's enumeration, and removals.
#[test]
fn the_console_over_the_generated_search_prints_the_tables_sets() {
    use gamec_hosted::set;
    use gamec_runtime::card_table::{Deck as Console, Table};
    static CONSOLE: Console = Console {
        fields: &set::ATTRIBUTES,
        names: &set::NAMES,
        group_name: set::GROUP_NAME,
        group: set::GROUP,
        rows: set::ROWS,
        cols: set::COLUMNS,
        code_bytes: set::CODE_BYTES,
        is_card: set::is_card_code,
        groups: set::search,
    };
    let game = load("../../games/set.game");
    let deck = Deck::new(game.cards.as_ref().unwrap());
    let mut seed = 0xCA2D_5EED;
    let cards = random_table(&deck.cards(), 15, &mut seed);
    let mut table = Table::<21>::default();
    for (i, &c) in cards.iter().enumerate() {
        let mut out = String::new();
        assert!(table.scanned(&CONSOLE, &[c as u8], &mut out), "{out}");
        assert!(out.starts_with(&format!("+ card {}: {}", i + 1, deck.name(c))), "{out}");
        let want = deck.groups_by_enumeration(&cards[..=i]);
        let printed: Vec<Vec<usize>> = out
            .lines()
            .filter(|l| l.starts_with("set "))
            .map(|l| l.split("cards ").nth(1).unwrap().split(' ').map(|n| n.parse::<usize>().unwrap() - 1).collect())
            .collect();
        assert_eq!(printed, want, "after card {}", i + 1);
    }
    // Taking the first set away leaves a table whose sets are the enumeration's again.
    let mut out = String::new();
    table.command(&CONSOLE, "take 1", &mut out);
    let left: Vec<u32> = table.cards().to_vec();
    let printed = out.lines().filter(|l| l.starts_with("set ")).count();
    assert_eq!(printed, deck.groups_by_enumeration(&left).len(), "{out}");
}

/// A generated module's `groups` over a table of codes, each group found as its places.
type GroupSearch = dyn Fn(&[u32], &mut dyn FnMut(Vec<usize>));

/// A generated game of cards (compiler/tests/support/random_games.rs, built by build.rs): which
/// codes are cards, and the groups its generated search finds, against the compiler's deck
/// (`gamec::cards`): its plain enumeration, and its own search where K-1 cards determine the
/// last. On the whole deck where enumerating it is quick, else on random tables of up to twice
/// the table's size (the search takes any number of cards).
fn agree_cards(text: &str, groups: &GroupSearch, is_card: fn(u32) -> bool) {
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add("generated_cards.game", text.to_string());
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let cards = game.cards.as_ref().expect("a game of cards");
    let deck = Deck::new(cards);
    let all = deck.cards();
    let top = cards.attributes.iter().map(|a| a.lo as u32 + a.width as u32).max().unwrap();
    for code in 0..1u32 << (top + 1) {
        assert_eq!(is_card(code), deck.is_card(code), "is {code:#b} a card?\n{text}");
    }
    let found = |table: &[u32]| {
        let mut out = Vec::new();
        groups(table, &mut |g| out.push(g));
        out.sort();
        out
    };
    let k = cards.group.size as u64;
    let n = all.len() as u64;
    let combinations = (0..k).fold(1u64, |c, i| c * (n - i) / (i + 1));
    let mut tables = Vec::new();
    if combinations <= 200_000 {
        tables.push(all.clone());
    }
    let mut seed = 0xC0DE_CA2D ^ text.len() as u64;
    for size in [k as usize, cards.capacity as usize, 2 * cards.capacity as usize] {
        for _ in 0..20 {
            tables.push(random_table(&all, size.min(all.len()), &mut seed));
        }
    }
    let mut groups_seen = 0;
    for table in &tables {
        let want = deck.groups_by_enumeration(table);
        assert_eq!(found(table), want, "the generated search on {table:?}\n{text}");
        assert_eq!(deck.groups(table), want, "the compiler's search on {table:?}\n{text}");
        groups_seen += want.len();
    }
    // Some group was there to find, or the rule admits none in the whole deck (enumerated,
    // where that takes at most a few seconds).
    if groups_seen == 0 && combinations > 200_000 && combinations <= 2_000_000 {
        assert!(deck.groups_by_enumeration(&all).is_empty(), "no group on any table\n{text}");
    }
}

include!(concat!(env!("OUT_DIR"), "/generated_cards_cases.rs"));
