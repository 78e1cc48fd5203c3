//! A solved game written as the rule core's firmware keeps it
//! (`gamec_runtime::rules::solved`): the keys of the positions lost for the side to move and
//! of the drawn ones, sorted (and of the won ones too, where a winner moving again could go
//! round a cycle). The keys are made by the runtime's own [`Layout::key`], so the compiler and
//! the chip cannot write a position two ways.

use super::solve::{explore, Value, MAX_STATES};
use super::{Engine, Shape, State};
use gamec_runtime::rules::solved::Layout;

/// A solved game's table, as the code generator writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedTable {
    /// The contents the game's cells take, in the order that numbers them.
    pub alphabet: Vec<u8>,
    pub bits: u8,
    pub turn_bits: u8,
    pub pass: bool,
    /// Bytes a key.
    pub len: u8,
    /// The unfinished positions lost for the side to move, their keys sorted and end to end.
    pub lost: Vec<u8>,
    /// For a game whose positions can repeat, per lost key in the same order, the plies the
    /// loss takes at least with the winner's fastest play (two bytes, low first): the device, winning, moves to the
    /// lost position nearest its end, and so cannot go round a cycle for ever. Empty when
    /// play never repeats (every winning move then ends the game in time).
    pub lost_plies: Vec<u8>,
    /// For a game whose positions can repeat and whose moves can keep the turn, the unfinished
    /// positions won for the side to move, sorted, and per key the plies the win takes at most
    /// against the best defence (two bytes, low first): a device that moves again moves to
    /// the won position nearest its end. Empty otherwise (a won position is then one in
    /// neither list).
    pub won: Vec<u8>,
    pub won_plies: Vec<u8>,
    pub drawn: Vec<u8>,
    /// Positions solved (the game's reachable positions, as the engine keys them).
    pub positions: usize,
}

/// Why a game on the rule core has no table: past a limit, with the figures (more positions
/// than the solver lists, a key longer than a byte counts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge(pub String);

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The table of a game on the rule core from `starts`, or why it has none.
pub fn keyed_table(engine: &Engine, starts: &[State]) -> Result<KeyedTable, TooLarge> {
    let solved = explore(engine, starts, MAX_STATES).map_err(|t| {
        TooLarge(format!(
            "a solved table needs every reachable position, and this game has more than {} (found {} before stopping)",
            gamec_dsl::thousands(MAX_STATES as u64),
            gamec_dsl::thousands(t.explored as u64)
        ))
    })?;
    let repeats = solved.repeats;
    // A winner whose move keeps the turn moves to a position won for itself: where play can
    // repeat, it needs that position's distance too, or it could go round a cycle of wins.
    let keep_won = repeats && engine.again;
    // The cells a key covers, as the geometry lists them: heaps are a row of counts.
    let cells: Vec<u8> = match engine.shape {
        Shape::Heaps { heaps, .. } => (0..heaps).collect(),
        _ => engine.cell_list.clone(),
    };
    let mut alphabet: Vec<u8> = solved.states.iter().flat_map(|s| cells.iter().map(|&c| s.cells[c as usize])).collect();
    alphabet.sort_unstable();
    alphabet.dedup();
    let bits = bits_for(alphabet.len());
    let turn_bits = if engine.impartial { 0 } else { bits_for(engine.players as usize) };
    let total = cells.len() * bits as usize + turn_bits as usize + engine.pass as usize;
    // A key of at least a byte, for a game of one position.
    let len = total.div_ceil(8).max(1);
    // The device compares a byte a time, in a buffer of the key's own length.
    let len = u8::try_from(len)
        .map_err(|_| TooLarge(format!("a position's key takes {len} bytes, more than a byte counts")))?;
    let layout = Layout { alphabet: &alphabet, bits, turn_bits, pass: engine.pass, len };
    let (mut lost, mut won, mut drawn) = (Vec::new(), Vec::new(), Vec::new());
    engine.with_game(|g| {
        for ((s, v), &over) in solved.states.iter().zip(&solved.values).zip(&solved.terminal) {
            let mut key = vec![0; len as usize];
            layout.key(&g.rules.geometry, &s.cells, s.to_move, s.passed, &mut key);
            match *v {
                // The device reads a finished game's result from the endings, not the table.
                Value::Loss(_) if over => {}
                Value::Loss(plies) => lost.push((key, plies)),
                Value::Draw => drawn.push(key),
                Value::Win(plies) if keep_won && !over => won.push((key, plies)),
                Value::Win(_) => {}
            }
        }
    });
    lost.sort_unstable();
    won.sort_unstable();
    drawn.sort_unstable();
    let (lost, lost_plies) = keys_and_plies(lost, repeats);
    let (won, won_plies) = keys_and_plies(won, keep_won);
    Ok(KeyedTable {
        lost,
        lost_plies,
        won,
        won_plies,
        drawn: drawn.concat(),
        alphabet,
        bits,
        turn_bits,
        pass: engine.pass,
        len,
        positions: solved.len(),
    })
}

/// Sorted keys end to end, and where `plies` is asked their distances, two bytes a key, low
/// first (`Value` counts plies in a word).
fn keys_and_plies(keyed: Vec<(Vec<u8>, u16)>, plies: bool) -> (Vec<u8>, Vec<u8>) {
    let distances = match plies {
        false => Vec::new(),
        true => keyed.iter().flat_map(|&(_, n)| n.to_le_bytes()).collect(),
    };
    (keyed.into_iter().flat_map(|(key, _)| key).collect(), distances)
}

/// Bits that number `n` values.
fn bits_for(n: usize) -> u8 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_number_the_values() {
        assert_eq!([1, 2, 3, 4, 5, 8, 9].map(bits_for), [0, 1, 2, 2, 3, 3, 4]);
    }
}
