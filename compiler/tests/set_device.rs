//! The Set solver as a person uses it, in qemu-system-arm: cards scanned one by one on the
//! scanner's USART (USART2, QEMU's second serial port), the console on USART1 (its first),
//! and every set printed checked against a reference written here, over random tables of 3
//! to 21 cards; then what must be refused and change nothing, and the console's commands.

mod qemu;

use qemu::{Machine, Port};
use std::collections::BTreeSet;
use std::time::Duration;

const GAME: &str = "games/set.game";
const BOARD: &str = "boards/set_netduinoplus2.board";
const WAIT: Duration = Duration::from_secs(10);

/// The reference: a card's four attributes are two bits each of its byte, values 0 to 2, and
/// three cards are a set when every attribute sums to a multiple of three (all the same or
/// all different).
fn is_set(a: u8, b: u8, c: u8) -> bool {
    (0..4).all(|i| {
        let v = |x: u8| (x >> (2 * i)) & 3;
        (v(a) + v(b) + v(c)) % 3 == 0
    })
}

fn deck() -> Vec<u8> {
    (0..=255u8).filter(|&c| (0..4).all(|i| (c >> (2 * i)) & 3 < 3)).collect()
}

/// The sets on a table, as places from 1.
fn sets(table: &[u8]) -> BTreeSet<[usize; 3]> {
    let mut out = BTreeSet::new();
    for i in 0..table.len() {
        for j in i + 1..table.len() {
            for k in j + 1..table.len() {
                if is_set(table[i], table[j], table[k]) {
                    out.insert([i + 1, j + 1, k + 1]);
                }
            }
        }
    }
    out
}

/// The sets a reply prints (`set N: cards a b c`).
fn printed(reply: &str) -> BTreeSet<[usize; 3]> {
    reply
        .lines()
        .filter_map(|l| l.strip_prefix("set "))
        .map(|l| {
            let places: Vec<usize> = l.split("cards ").nth(1).unwrap().split(' ').map(|n| n.parse().unwrap()).collect();
            [places[0], places[1], places[2]]
        })
        .collect()
}

struct Solver {
    _machine: Machine,
    console: Port,
    scanner: Port,
}

impl Solver {
    fn boot() -> Solver {
        let elf = qemu::firmware(GAME, BOARD);
        let mut machine = Machine::boot(&elf, 2);
        let scanner = machine.ports.pop().unwrap();
        let mut console = machine.ports.pop().unwrap();
        let banner = console.until("> ", WAIT);
        assert!(banner.contains("scan the cards"), "{banner}");
        Solver { _machine: machine, console, scanner }
    }

    /// Scans a frame (the scanner adds its carriage return) and returns the console's reply.
    fn scan(&mut self, frame: &[u8]) -> String {
        self.scanner.send(frame);
        self.console.until("> ", WAIT)
    }

    fn card(&mut self, code: u8) -> String {
        self.scan(&[code, b'\r'])
    }

    fn command(&mut self, line: &str) -> String {
        self.console.send(format!("{line}\r").as_bytes());
        self.console.until("> ", WAIT)
    }

    /// The table as `list` tells it: the cards' names in order.
    fn list(&mut self) -> Vec<String> {
        let reply = self.command("list");
        reply
            .lines()
            .filter_map(|l| l.split_once(": ").filter(|(k, _)| k.starts_with("card ")).map(|(_, v)| v.to_string()))
            .collect()
    }
}

#[test]
fn every_set_of_random_tables_is_printed_as_each_card_is_scanned() {
    let mut s = Solver::boot();
    let deck = deck();
    assert_eq!(deck.len(), 81);
    let mut seed = 0x5E7_5EEDu64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..6 {
        let size = [3, 7, 12, 15, 20, 21][round];
        let mut pool = deck.clone();
        let mut table = Vec::new();
        for _ in 0..size {
            let card = pool.swap_remove(next(pool.len()));
            table.push(card);
            let reply = s.card(card);
            assert!(reply.starts_with(&format!("+ card {}:", table.len())), "{reply}");
            let want = sets(&table);
            assert_eq!(printed(&reply), want, "table {table:?}: {reply}");
            if want.is_empty() {
                assert!(reply.contains("no set on the table"), "{reply}");
            }
        }
        // `groups` says the same again.
        assert_eq!(printed(&s.command("groups")), sets(&table));
        assert!(s.command("clear").contains("the table is empty"));
    }
}

#[test]
fn what_is_refused_changes_nothing() {
    let mut s = Solver::boot();
    for c in [0b00_00_00_00, 0b01_01_01_01, 0b10_10_10_10] {
        s.card(c);
    }
    let before = s.list();
    assert_eq!(before.len(), 3);
    let refusals: [(&[u8], &str); 5] = [
        (&[0b01_01_01_01, b'\r'], "already on the table"),
        (&[0b00_00_00_11, b'\r'], "no card of this deck"),
        (&[1, 2, b'\r'], "a frame of 2 bytes is no card"),
        (&[5], "malformed frame"),
        (b"\r", "a frame of 0 bytes"),
    ];
    for (frame, why) in refusals {
        let reply = s.scan(frame);
        assert!(reply.contains("error") && reply.contains(why), "{frame:?}: {reply}");
        assert_eq!(s.list(), before, "after {frame:?}");
    }
    // A full table refuses the next card.
    s.command("clear");
    let deck = deck();
    let no_set_at_all: Vec<u8> = {
        // Greedily: cards that make no set with two already taken (a cap of 20 exists; 16 suffice here).
        let mut cap = Vec::new();
        for &c in &deck {
            if cap.len() < 16 && !(0..cap.len()).any(|i| (i + 1..cap.len()).any(|j| is_set(cap[i], cap[j], c))) {
                cap.push(c);
            }
        }
        cap
    };
    let mut table: Vec<u8> = no_set_at_all.clone();
    table.extend(deck.iter().filter(|c| !no_set_at_all.contains(c)).take(21 - table.len()));
    for &c in &table {
        s.card(c);
    }
    let full = s.list();
    assert_eq!(full.len(), 21);
    let extra = *deck.iter().find(|c| !table.contains(c)).unwrap();
    let reply = s.card(extra);
    assert!(reply.contains("error: the table holds 21 cards"), "{reply}");
    assert_eq!(s.list(), full);
}

#[test]
fn the_console_answers_garbage_and_long_lines_and_keeps_serving() {
    let mut s = Solver::boot();
    assert!(s.command("help").contains("commands:"));
    assert!(s.command("fly away").contains("error: not a command"));
    assert!(s.command("remove 9").contains("error: no card"));
    assert!(s.command("show 1").contains("error: no set"));
    let long = "x".repeat(300);
    assert!(s.command(&long).contains("error: the line is too long"));
    // The next line is read whole: nothing of the long one is left in it.
    assert!(s.command("list").contains("0 cards"));
    s.console.send(&[0xFF, 0xFE, b'\r']);
    assert!(s.console.until("> ", WAIT).contains("error"));
    assert!(s.command("list").contains("0 cards"));
}

#[test]
fn sets_are_shown_removed_and_taken_away() {
    let mut s = Solver::boot();
    // 1, 2 and 3 of the same purple empty waves make a set; a red card makes none with them.
    let table = [0b00_00_00_00, 0b00_00_00_01, 0b00_00_00_10, 0b00_01_00_00];
    for c in table {
        s.card(c);
    }
    assert_eq!(printed(&s.command("groups")), BTreeSet::from([[1, 2, 3]]));
    // The picture: three rows of seven places, the set's cards bracketed.
    let picture = s.command("show 1");
    let first_row = picture.lines().next().unwrap();
    assert!(first_row.contains("[  1]") && first_row.contains("[  3]") && first_row.contains("  4 "), "{picture}");
    assert_eq!(picture.lines().filter(|l| l.contains('.') || l.contains('[')).count(), 3, "{picture}");
    // Taking the set away leaves the red card alone, numbered 1.
    let reply = s.command("take 1");
    assert!(reply.contains("set taken; 1 cards left"), "{reply}");
    assert_eq!(s.list().len(), 1);
    s.card(0b00_00_00_00);
    let reply = s.command("remove 1");
    assert!(reply.contains("- card 1; 1 cards left"), "{reply}");
    assert_eq!(s.list(), vec!["one empty purple wave".to_string()]);
}
