//! A board of pits as text: the second player's side above the first's, each pit's count under
//! or over its number along the ring, the stores at the ends of the middle line.

use super::{decimal, Io, Protocol};

/// Writes `n` right-aligned in three columns.
fn field(io: &mut impl Io, n: u8) {
    if n < 100 {
        io.write(b' ');
    }
    if n < 10 {
        io.write(b' ');
    }
    decimal(io, n);
}

fn newline(io: &mut impl Io) {
    io.write(b'\r');
    io.write(b'\n');
}

/// The board, `count(cell)` the counters in each pit: five lines with stores, four without.
/// The ring's numbers label the pits (cell `c` is number `c + 1`), as a move names them.
pub(super) fn board(io: &mut impl Io, p: &Protocol, count: impl Fn(u8) -> u8) {
    let stride = p.cols;
    let pits = stride - u8::from(p.stores);
    // The second player's pits run right to left, toward their store on the left.
    let top = |i: u8| stride + pits - 1 - i;
    let margin = if p.stores { 3 } else { 0 };
    spaces(io, margin);
    (0..pits).for_each(|i| field(io, top(i) + 1));
    newline(io);
    spaces(io, margin);
    (0..pits).for_each(|i| field(io, count(top(i))));
    newline(io);
    if p.stores {
        field(io, count(2 * stride - 1));
        spaces(io, 3 * pits);
        field(io, count(stride - 1));
        newline(io);
    }
    spaces(io, margin);
    (0..pits).for_each(|i| field(io, count(i)));
    newline(io);
    spaces(io, margin);
    (0..pits).for_each(|i| field(io, i + 1));
    newline(io);
}

fn spaces(io: &mut impl Io, n: u8) {
    for _ in 0..n {
        io.write(b' ');
    }
}
