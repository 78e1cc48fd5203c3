//! A table of cards read by a scanner and served on a console: a scanned card joins the table
//! (refused, with a message and nothing changed, when it is a duplicate, no card, malformed or
//! one too many) and the groups on the table are printed at once; console commands list the
//! table, list the groups, draw a group on the table's layout, remove a card or a whole group,
//! and clear. Garbage gets an error and the prompt back. The deck's fields, value names and
//! the search for groups come from the generated module through [`Deck`].

use core::fmt::Write;

/// What the generated module says about the cards.
pub struct Deck {
    /// Per attribute: lowest bit, mask, number of values.
    pub fields: &'static [(u8, u8, u8)],
    /// Per attribute, its values' names.
    pub names: &'static [&'static [&'static str]],
    /// The word for a group (`set`).
    pub group_name: &'static str,
    pub group: usize,
    pub rows: usize,
    pub cols: usize,
    /// Bytes of a code, as the scanner sends them (little-endian).
    pub code_bytes: usize,
    pub is_card: fn(u32) -> bool,
    /// Calls back with the places of each group on the table, each once.
    pub groups: GroupSearch,
}

/// The generated search: the table's cards, and a callback for each group's places.
pub type GroupSearch = fn(&[u32], &mut dyn FnMut(&[u8]));

/// The cards on the table, in the order they came; `CAP` is the table's capacity.
pub struct Table<const CAP: usize> {
    cards: [u32; CAP],
    len: usize,
}

impl<const CAP: usize> Default for Table<CAP> {
    fn default() -> Self {
        Table { cards: [0; CAP], len: 0 }
    }
}

impl<const CAP: usize> Table<CAP> {
    pub fn cards(&self) -> &[u32] {
        &self.cards[..self.len]
    }

    fn remove(&mut self, at: usize) {
        self.cards.copy_within(at + 1..self.len, at);
        self.len -= 1;
    }

    /// A card's name: its values, one word each.
    fn name(deck: &Deck, code: u32, out: &mut dyn Write) {
        for (a, &(lo, mask, _)) in deck.fields.iter().enumerate() {
            let v = (code >> lo) as u8 & mask;
            let word = deck.names[a].get(v as usize).copied().unwrap_or("?");
            let _ = write!(out, "{}{word}", if a == 0 { "" } else { " " });
        }
    }

    /// A scanner frame's payload (the suffix already taken off): adds the card, prints what
    /// happened and the groups now on the table. Returns whether the card joined.
    pub fn scanned(&mut self, deck: &Deck, payload: &[u8], out: &mut dyn Write) -> bool {
        if payload.len() != deck.code_bytes {
            let _ =
                writeln!(out, "error: a frame of {} bytes is no card (a card is {})", payload.len(), deck.code_bytes);
            return false;
        }
        let code = payload.iter().rev().fold(0u32, |c, &b| c << 8 | b as u32);
        if !(deck.is_card)(code) {
            let _ = writeln!(out, "error: code {code} is no card of this deck");
            return false;
        }
        if let Some(at) = self.cards().iter().position(|&c| c == code) {
            let _ = write!(out, "error: already on the table as card {}: ", at + 1);
            Self::name(deck, code, out);
            let _ = writeln!(out);
            return false;
        }
        if self.len == CAP {
            let _ = writeln!(out, "error: the table holds {CAP} cards; take some away first");
            return false;
        }
        self.cards[self.len] = code;
        self.len += 1;
        let _ = write!(out, "+ card {}: ", self.len);
        Self::name(deck, code, out);
        let _ = writeln!(out);
        self.list_groups(deck, out);
        true
    }

    fn list_groups(&self, deck: &Deck, out: &mut dyn Write) {
        let mut n = 0;
        (deck.groups)(self.cards(), &mut |g| {
            n += 1;
            let _ = write!(out, "{} {n}: cards", deck.group_name);
            for &p in g {
                let _ = write!(out, " {}", p + 1);
            }
            let _ = writeln!(out);
        });
        if n == 0 {
            let _ = writeln!(out, "no {} on the table ({} cards)", deck.group_name, self.len);
        }
    }

    /// The places of group `n` (from 1), if there is one.
    fn group(&self, deck: &Deck, n: usize) -> Option<[u8; 8]> {
        let (mut i, mut found) = (0, None);
        (deck.groups)(self.cards(), &mut |g| {
            i += 1;
            if i == n {
                let mut places = [0xFF; 8];
                places[..g.len()].copy_from_slice(g);
                found = Some(places);
            }
        });
        found
    }

    /// A console line: runs the command and prints its answer, then the prompt.
    pub fn command(&mut self, deck: &Deck, line: &str, out: &mut dyn Write) {
        let mut words = line.split_whitespace();
        let number = |w: Option<&str>| w.and_then(|w| w.parse::<usize>().ok());
        match (words.next(), words.next(), words.next()) {
            (None, _, _) => {}
            (Some("help"), None, _) => {
                let _ = writeln!(
                    out,
                    "commands: list | groups | show N | remove N | take N | clear | help\n\
                     (scan a card to add it; `groups` lists each {}, `show N` draws one on the table,\n\
                     `remove N` takes card N away, `take N` takes away the cards of {} N)",
                    deck.group_name, deck.group_name
                );
            }
            (Some("list"), None, _) => {
                for (i, &c) in self.cards().iter().enumerate() {
                    let _ = write!(out, "card {}: ", i + 1);
                    Self::name(deck, c, out);
                    let _ = writeln!(out);
                }
                let _ = writeln!(out, "{} cards", self.len);
            }
            (Some("groups"), None, _) => self.list_groups(deck, out),
            (Some("show"), n, None) => match number(n).and_then(|n| self.group(deck, n)) {
                Some(places) => {
                    // The table as laid out, the group's places in brackets.
                    for r in 0..deck.rows {
                        for c in 0..deck.cols {
                            let at = r * deck.cols + c;
                            let mark = places.contains(&(at as u8));
                            let _ = match (at < self.len, mark) {
                                (false, _) => write!(out, "  .  "),
                                (true, true) => write!(out, "[{:>3}]", at + 1),
                                (true, false) => write!(out, " {:>3} ", at + 1),
                            };
                        }
                        let _ = writeln!(out);
                    }
                }
                None => {
                    let _ = writeln!(out, "error: no {} with that number; `groups` lists them", deck.group_name);
                }
            },
            (Some("remove"), n, None) => match number(n).filter(|&n| (1..=self.len).contains(&n)) {
                Some(n) => {
                    self.remove(n - 1);
                    let _ = writeln!(out, "- card {n}; {} cards left, numbered again from 1", self.len);
                }
                None => {
                    let _ = writeln!(out, "error: no card with that number; `list` shows them");
                }
            },
            (Some("take"), n, None) => match number(n).and_then(|n| self.group(deck, n)) {
                Some(places) => {
                    // From the last place down, so the earlier ones stay where they are.
                    let mut ps: [u8; 8] = places;
                    ps.sort_unstable();
                    for &p in ps.iter().rev().filter(|&&p| p != 0xFF) {
                        self.remove(p as usize);
                    }
                    let _ = writeln!(out, "- {} taken; {} cards left", deck.group_name, self.len);
                    self.list_groups(deck, out);
                }
                None => {
                    let _ = writeln!(out, "error: no {} with that number; `groups` lists them", deck.group_name);
                }
            },
            (Some("clear"), None, _) => {
                self.len = 0;
                let _ = writeln!(out, "the table is empty");
            }
            _ => {
                let _ = writeln!(out, "error: not a command; type `help`");
            }
        }
        let _ = write!(out, "> ");
    }
}

/// A scanner's frames on its serial line: the bytes of one code, then the suffix the scanner is
/// set to add (if any), sent in one burst. A frame ends when the line has been quiet for
/// [`FRAME_GAP_MS`], so codes may hold any byte, a suffix's included.
#[derive(Default)]
pub struct Frames {
    buf: [u8; 16],
    len: usize,
    overlong: bool,
    last_ms: u16,
}

/// Quiet time that ends a frame: far longer than a byte at any scanner's rate, far shorter
/// than a person takes to scan the next card.
pub const FRAME_GAP_MS: u16 = 30;

/// A frame, suffix removed; `Err` for one that was too long or lacked the suffix.
pub type Frame<'a> = Result<&'a [u8], ()>;

impl Frames {
    pub fn push(&mut self, byte: u8, now_ms: u16) {
        if self.len == self.buf.len() {
            self.overlong = true;
        } else {
            self.buf[self.len] = byte;
            self.len += 1;
        }
        self.last_ms = now_ms;
    }

    /// Bytes of the frame in progress were lost (the receive queue was full): it is answered
    /// as malformed, never read as the code its remaining bytes might spell.
    pub fn lose(&mut self, now_ms: u16) {
        self.overlong = true;
        self.last_ms = now_ms;
    }

    /// The frame the line's quiet has ended, if any.
    pub fn poll(&mut self, now_ms: u16, suffix: &[u8]) -> Option<Frame<'_>> {
        if self.len == 0 || now_ms.wrapping_sub(self.last_ms) < FRAME_GAP_MS {
            return None;
        }
        let (len, overlong) = (self.len, self.overlong);
        self.len = 0;
        self.overlong = false;
        let frame = &self.buf[..len];
        Some(match frame.strip_suffix(suffix) {
            Some(payload) if !overlong => Ok(payload),
            _ => Err(()),
        })
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::cards::{is_group_by, Relation};
    use std::string::String;

    const FIELDS: [(u8, u8, u8); 4] = [(0, 3, 3), (2, 3, 3), (4, 3, 3), (6, 3, 3)];
    const RULES: [Option<Relation>; 4] = [Some(Relation::SameOrDifferent); 4];
    static NAMES: [&[&str]; 4] = [
        &["one", "two", "three"],
        &["empty", "solid", "striped"],
        &["purple", "red", "green"],
        &["wave", "rhombus", "oval"],
    ];

    fn is_card(c: u32) -> bool {
        c < 256 && FIELDS.iter().all(|&(lo, m, n)| ((c >> lo) as u8 & m) < n)
    }

    /// Plain enumeration: the test's own reading of a set.
    fn groups(table: &[u32], found: &mut dyn FnMut(&[u8])) {
        for i in 0..table.len() {
            for j in i + 1..table.len() {
                for k in j + 1..table.len() {
                    if is_group_by(&FIELDS, &RULES, [table[i], table[j], table[k]]) {
                        found(&[i as u8, j as u8, k as u8]);
                    }
                }
            }
        }
    }

    static DECK: Deck = Deck {
        fields: &FIELDS,
        names: &NAMES,
        group_name: "set",
        group: 3,
        rows: 3,
        cols: 4,
        code_bytes: 1,
        is_card,
        groups,
    };

    #[test]
    fn scanned_cards_join_and_refusals_change_nothing() {
        let mut t = Table::<4>::default();
        let mut out = String::new();
        // one empty purple wave, two solid purple rhombus, three striped purple oval.
        let (a, b, c) = (0b00_00_00_00u8, 0b01_00_01_01u8, 0b10_00_10_10u8);
        assert!(t.scanned(&DECK, &[a], &mut out));
        assert!(t.scanned(&DECK, &[b], &mut out));
        assert!(out.ends_with("no set on the table (2 cards)\n"), "{out}");
        out.clear();
        assert!(t.scanned(&DECK, &[c], &mut out));
        assert!(out.contains("+ card 3: three striped purple oval") && out.contains("set 1: cards 1 2 3"), "{out}");
        for (bad, says) in
            [(&[a][..], "already on the table as card 1"), (&[0b11], "is no card"), (&[1, 2], "a frame of 2 bytes")]
        {
            out.clear();
            assert!(!t.scanned(&DECK, bad, &mut out));
            assert!(out.contains(says), "{out}");
        }
        assert!(t.scanned(&DECK, &[0b10_10_10_10], &mut out));
        out.clear();
        assert!(!t.scanned(&DECK, &[0b01_01_01_01], &mut out), "over capacity");
        assert!(out.contains("holds 4 cards"));
        assert_eq!(t.cards().len(), 4);
    }

    #[test]
    fn console_commands_and_garbage() {
        let mut t = Table::<12>::default();
        let mut out = String::new();
        for code in [0b00_00_00_00u8, 0b01_00_01_01, 0b10_00_10_10, 0b00_01_00_01] {
            t.scanned(&DECK, &[code], &mut out);
        }
        let run = |t: &mut Table<12>, line: &str| {
            let mut o = String::new();
            t.command(&DECK, line, &mut o);
            assert!(o.ends_with("> "), "the prompt after `{line}`: {o}");
            o
        };
        assert!(run(&mut t, "list").contains("card 4: two empty red wave\n4 cards"));
        assert!(run(&mut t, "groups").contains("set 1: cards 1 2 3"));
        let drawn = run(&mut t, "show 1");
        assert!(drawn.starts_with("[  1][  2][  3]   4 \n  .    .    .    .  \n"), "{drawn}");
        assert!(run(&mut t, "show 9").starts_with("error:"));
        assert!(run(&mut t, "frobnicate").starts_with("error: not a command"));
        assert!(run(&mut t, "remove 0").starts_with("error:"));
        assert!(run(&mut t, "take 1").contains("set taken; 1 cards left"));
        assert_eq!(t.cards(), &[0b00_01_00_01]);
        assert!(run(&mut t, "remove 1").contains("0 cards left"));
        t.scanned(&DECK, &[5], &mut out);
        assert!(run(&mut t, "clear").contains("empty"));
        assert!(t.cards().is_empty());
        assert!(run(&mut t, "help").contains("commands:"));
    }

    #[test]
    fn frames_end_on_quiet_and_lose_their_suffix_whatever_bytes_they_hold() {
        let mut f = Frames::default();
        // The code 0x0D, the suffix CR LF.
        for (i, b) in [0x0D, 0x0D, 0x0A].into_iter().enumerate() {
            f.push(b, i as u16);
            assert_eq!(f.poll(i as u16, b"\r\n"), None, "mid-burst");
        }
        assert_eq!(f.poll(40, b"\r\n"), Some(Ok(&[0x0D][..])));
        assert_eq!(f.poll(80, b"\r\n"), None, "nothing more");
        f.push(7, 100);
        assert_eq!(f.poll(200, b"\r\n"), Some(Err(())), "no suffix: malformed");
        for i in 0..40 {
            f.push(1, 300 + i);
        }
        assert_eq!(f.poll(400, b""), Some(Err(())), "overlong");
        f.push(9, 500);
        assert_eq!(f.poll(600, b""), Some(Ok(&[9][..])), "the next frame is whole");
        // A frame that lost a byte to a full queue, whatever its other bytes spell.
        f.push(1, 700);
        f.lose(700);
        f.push(b'\r', 700);
        assert_eq!(f.poll(800, b"\r"), Some(Err(())), "lost bytes: malformed");
        f.push(2, 900);
        f.push(b'\r', 900);
        assert_eq!(f.poll(1000, b"\r"), Some(Ok(&[2][..])), "the next frame is whole");
    }
}
