//! A solved game written as the rule core's firmware keeps it
//! (`gamec_runtime::rules::solved`): the keys of the positions lost for the side to move and
//! of the drawn ones, sorted. The keys are made by the runtime's own [`Layout::key`], so the
//! compiler and the chip cannot write a position two ways.

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
    pub drawn: Vec<u8>,
    /// Positions solved (the game's reachable positions, as the engine keys them).
    pub positions: usize,
}

/// Why a game on the rule core has no table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoTable {
    /// Past a limit, with the figures: more positions than the solver lists, a key longer
    /// than a byte counts.
    TooLarge(String),
    /// A kind of game a table does not keep.
    Unkept(String),
}

impl std::fmt::Display for NoTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoTable::TooLarge(why) | NoTable::Unkept(why) => f.write_str(why),
        }
    }
}

/// The table of a game on the rule core from `starts`, or why it has none.
pub fn keyed_table(engine: &Engine, starts: &[State]) -> Result<KeyedTable, NoTable> {
    let solved = explore(engine, starts, MAX_STATES).map_err(|t| {
        NoTable::TooLarge(format!(
            "a solved table needs every reachable position, and this game has more than {} (found {} before stopping)",
            gamec_dsl::thousands(MAX_STATES as u64),
            gamec_dsl::thousands(t.explored as u64)
        ))
    })?;
    let repeats = solved.repeats;
    if repeats && engine.again {
        return Err(NoTable::Unkept(
            "its positions can repeat and a move can keep the turn: a table keeps the \
             distances of lost positions only, not of the won ones a mover moves to again (use `search`)"
                .into(),
        ));
    }
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
        .map_err(|_| NoTable::TooLarge(format!("a position's key takes {len} bytes, more than a byte counts")))?;
    let layout = Layout { alphabet: &alphabet, bits, turn_bits, pass: engine.pass, len };
    let (mut lost, mut drawn) = (Vec::new(), Vec::new());
    engine.with_game(|g| {
        for ((s, v), &over) in solved.states.iter().zip(&solved.values).zip(&solved.terminal) {
            let mut key = vec![0; len as usize];
            layout.key(&g.rules.geometry, &s.cells, s.to_move, s.passed, &mut key);
            match *v {
                // The device reads a finished game's result from the endings, not the table.
                Value::Loss(_) if over => {}
                Value::Loss(plies) => lost.push((key, plies)),
                Value::Draw => drawn.push(key),
                Value::Win(_) => {}
            }
        }
    });
    lost.sort_unstable();
    drawn.sort_unstable();
    // Two bytes a lost key, low first (`Value::Loss` counts plies in a word).
    let lost_plies = match repeats {
        false => Vec::new(),
        true => lost.iter().flat_map(|&(_, plies)| plies.to_le_bytes()).collect(),
    };
    Ok(KeyedTable {
        lost: lost.into_iter().flat_map(|(key, _)| key).collect(),
        lost_plies,
        drawn: drawn.concat(),
        alphabet,
        bits,
        turn_bits,
        pass: engine.pass,
        len,
        positions: solved.len(),
    })
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
