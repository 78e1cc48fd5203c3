//! Perfect play on the rule core from a table the compiler solved: the unfinished positions
//! lost for the side to move and the drawn positions, each written as a key (the cells'
//! contents packed a few bits a cell, then whose turn it is and whether the last turn was a
//! pass), sorted, in program memory. A reachable position in neither list is won, or finished
//! (the device reads a finished game from its endings), save in a game whose positions repeat
//! and whose moves can keep the turn, where the won positions have a list of their own, with
//! their distances; every position a move reaches from a
//! reachable one is reachable, so the device never looks up one the compiler did not solve.
//! Keys rather than an index over every arrangement of the cells keep the table to the
//! positions play reaches and the device needs (15 of Hexapawn's 39,366 arrangements).

use super::Geometry;
use crate::progmem;

/// How a position is written as a key.
#[derive(Debug, Clone, Copy)]
pub struct Layout<'a> {
    /// The contents a cell may hold: a cell's digit is its content's place here.
    pub alphabet: &'a [u8],
    /// Bits a cell's digit takes.
    pub bits: u8,
    /// Bits whose turn it is takes: none in an impartial game, whose positions are the same
    /// whoever is to move.
    pub turn_bits: u8,
    /// Whether the key records that the last turn was a pass (games that pass).
    pub pass: bool,
    /// Bytes a key takes: as many as the game's cells need, the game's own key buffer
    /// (`CoreGame::Key`) that long.
    pub len: u8,
}

/// A solved game, as the device plays it.
#[derive(Debug, Clone, Copy)]
pub struct Table<'a> {
    pub layout: Layout<'a>,
    /// The keys of the positions lost for the side to move, sorted, in program memory.
    pub lost: &'a [u8],
    /// Per lost key, in the same order, the plies the loss takes at least, two bytes each
    /// (low first): for a game whose positions can repeat, so that the winner moves ever
    /// nearer the end. Empty otherwise.
    pub lost_plies: &'a [u8],
    /// The keys of the positions won for the side to move, sorted, and per key the plies the
    /// win takes at most, two bytes each: only for a game whose positions can repeat and whose
    /// moves can keep the turn, so that a winner moving again moves nearer the end. Empty
    /// otherwise.
    pub won: &'a [u8],
    pub won_plies: &'a [u8],
    /// The keys of the drawn positions, the same way.
    pub drawn: &'a [u8],
    /// Among equally good moves, one at random (else the first).
    pub ties_random: bool,
}

/// A position's value for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// Won, in this many plies at most (0 where the table keeps no distances).
    Won(u16),
    /// Lost, in this many plies at least (0 where the table keeps no distances).
    Lost(u16),
    Drawn,
}

impl Layout<'_> {
    /// Writes into `key` (at least [`Layout::len`] bytes, all zero) the key of the position
    /// of `cells` (over the board's cells, in index order), `to_move` to move, `passed` if the
    /// last turn was a pass.
    pub fn key(&self, geometry: &Geometry, cells: &[u8], to_move: u8, passed: bool, key: &mut [u8]) {
        let mut at = 0usize;
        // A digit of at most 8 bits, at bit `at`: it spans two bytes at most.
        let mut put = |digit: u8, bits: u8| {
            if bits == 0 {
                return;
            }
            let v = (digit as u16) << (at % 8);
            if let Some(b) = key.get_mut(at / 8) {
                *b |= v as u8;
            }
            if let Some(b) = key.get_mut(at / 8 + 1) {
                *b |= (v >> 8) as u8;
            }
            at += bits as usize;
        };
        for c in geometry.cells() {
            let content = cells[c as usize];
            let digit = self.alphabet.iter().position(|&a| a == content).unwrap_or(0);
            put(digit as u8, self.bits);
        }
        put(to_move, self.turn_bits);
        put(passed as u8, self.pass as u8);
    }
}

impl Table<'_> {
    /// The value of the position whose key is `key` (its first [`Layout::len`] bytes).
    pub fn value(&self, key: &[u8]) -> Value {
        let key = &key[..self.layout.len as usize];
        if let Some(at) = find(self.lost, key) {
            Value::Lost(plies(self.lost_plies, at))
        } else if let Some(at) = find(self.won, key) {
            Value::Won(plies(self.won_plies, at))
        } else if find(self.drawn, key).is_some() {
            Value::Drawn
        } else {
            Value::Won(0)
        }
    }
}

/// The `at`th distance of `plies` (two bytes each, low first, in program memory); 0 where the
/// table keeps none.
fn plies(plies: &[u8], at: usize) -> u16 {
    // SAFETY: a table the generated code placed in program memory, two bytes a key.
    let byte = |i: usize| plies.get(i).map_or(0, |p| unsafe { progmem::byte(p) });
    u16::from_le_bytes([byte(2 * at), byte(2 * at + 1)])
}

/// Where `keys` (sorted keys of `key.len()` bytes each, in program memory) holds `key`.
fn find(keys: &[u8], key: &[u8]) -> Option<usize> {
    let len = key.len().max(1);
    let (mut lo, mut hi) = (0usize, keys.len() / len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let at = keys[mid * len..].as_ptr();
        let mut order = core::cmp::Ordering::Equal;
        for (i, &k) in key.iter().enumerate() {
            // SAFETY: inside `keys`, a table the generated code placed in program memory.
            let b = unsafe { progmem::byte(at.add(i)) };
            order = b.cmp(&k);
            if order.is_ne() {
                break;
            }
        }
        match order {
            core::cmp::Ordering::Equal => return Some(mid),
            core::cmp::Ordering::Less => lo = mid + 1,
            core::cmp::Ordering::Greater => hi = mid,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    const LINE: Geometry = Geometry { cols: 5, rows: 1, stride: 5, cut: &[] };

    fn layout(turn_bits: u8, pass: bool) -> Layout<'static> {
        Layout { alphabet: &[0, 1, 2], bits: 2, turn_bits, pass, len: 2 }
    }

    /// The key of `cells` in a buffer of four bytes, two more than the layouts here take.
    fn key_of(l: &Layout, g: &Geometry, cells: &[u8], to_move: u8, passed: bool) -> [u8; 4] {
        let mut key = [0; 4];
        l.key(g, cells, to_move, passed, &mut key);
        key
    }

    #[test]
    fn a_key_packs_each_cell_s_digit_then_the_turn_and_the_pass() {
        // Digits 2, 0, 1, 1, 2 at two bits each: 0b10_01_01_00_10, then the turn at bit 10.
        let k = key_of(&layout(1, true), &LINE, &[2, 0, 1, 1, 2], 1, true);
        assert_eq!(u16::from_le_bytes([k[0], k[1]]), 0b11_10_01_01_00_10);
        assert_eq!(&k[2..], &[0; 2], "nothing past the key's length");
        let impartial = key_of(&layout(0, false), &LINE, &[2, 0, 1, 1, 2], 1, true);
        assert_eq!(u16::from_le_bytes([impartial[0], impartial[1]]), 0b10_01_01_00_10);
    }

    #[test]
    fn a_key_skips_the_cells_cut_away() {
        let cross = Geometry { cols: 3, rows: 1, stride: 3, cut: &[1] };
        let l = Layout { alphabet: &[0, 1], bits: 1, turn_bits: 0, pass: false, len: 1 };
        assert_eq!(key_of(&l, &cross, &[1, 0, 1], 0, false)[0], 0b11);
    }

    #[test]
    fn a_position_is_lost_drawn_or_else_won_by_its_sorted_keys() {
        let l = layout(0, false);
        let keys: std::vec::Vec<[u8; 4]> = [[0, 0, 0, 0, 0], [1, 2, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 0, 2, 0]]
            .iter()
            .map(|c| key_of(&l, &LINE, c, 0, false))
            .collect();
        let mut lost: std::vec::Vec<[u8; 2]> = keys[..3].iter().map(|k| [k[0], k[1]]).collect();
        lost.sort();
        let lost: std::vec::Vec<u8> = lost.concat();
        let drawn = [keys[3][0], keys[3][1]];
        let t = Table {
            layout: l,
            lost: &lost,
            lost_plies: &[],
            won: &[],
            won_plies: &[],
            drawn: &drawn,
            ties_random: false,
        };
        for k in &keys[..3] {
            assert_eq!(t.value(k), Value::Lost(0));
        }
        // Each lost key's plies, in the keys' sorted order, two bytes each: past a byte's too.
        let plies = [5, 0, 3, 0, 0x2C, 0x01];
        let t = Table { lost_plies: &plies, ..t };
        for (j, sorted_key) in lost.chunks(2).enumerate() {
            let k = keys[..3].iter().find(|k| &k[..2] == sorted_key).unwrap();
            let want = [5, 3, 300][j];
            assert_eq!(t.value(k), Value::Lost(want), "each lost key keeps its own plies");
        }
        assert_eq!(t.value(&keys[3]), Value::Drawn);
        assert_eq!(t.value(&key_of(&l, &LINE, &[1, 1, 1, 1, 1], 0, false)), Value::Won(0));
        // Where the won positions are listed, each keeps its own distance.
        let won = key_of(&l, &LINE, &[1, 1, 1, 1, 1], 0, false);
        let t = Table { won: &won[..2], won_plies: &[7, 1], ..t };
        assert_eq!(t.value(&won), Value::Won(0x107));
        assert_eq!(t.value(&keys[3]), Value::Drawn);
    }
}
