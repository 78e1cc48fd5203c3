//! A board of pits as a sowing game's serial session prints it (the second side's pit numbers
//! and counts, the stores' line where there are stores, the first side's counts and numbers),
//! read and held to the compiler's engine, whatever carries the line (QEMU, simavr).

use gamec::engine::{Engine, Shape, State};

/// The numbers a line of the board prints, in order.
fn numbers(line: &str) -> Vec<u8> {
    line.split_whitespace().map(|n| n.parse().unwrap_or_else(|_| panic!("a number in {line:?}"))).collect()
}

/// Reads the board, its first line `top` already read and the rest from `next`, and checks
/// every pit and store against `state`.
pub fn check(engine: &Engine, state: &State, top: &str, mut next: impl FnMut() -> String) {
    let c = &state.cells;
    let Shape::Heaps { heaps, pits: Some(p) } = engine.shape else { panic!("a board of pits") };
    let (ring, stores) = (heaps as usize, p.stores);
    let side = ring / 2;
    let pits = side - usize::from(stores);
    let north: Vec<usize> = (side..side + pits).rev().collect();
    let south: Vec<usize> = (0..pits).collect();
    let numbers_of = |cells: &[usize]| cells.iter().map(|&i| i as u8 + 1).collect::<Vec<u8>>();
    let counts_of = |cells: &[usize]| cells.iter().map(|&i| c[i]).collect::<Vec<u8>>();
    let show = engine.show(state);
    assert_eq!(numbers(top), numbers_of(&north), "{top:?}");
    assert_eq!(numbers(&next()), counts_of(&north), "the second side's pits of {show}");
    if stores {
        assert_eq!(numbers(&next()), [c[ring - 1], c[side - 1]], "the stores of {show}");
    }
    assert_eq!(numbers(&next()), counts_of(&south), "the first side's pits of {show}");
    assert_eq!(numbers(&next()), numbers_of(&south));
}
