//! A game file's `eval` on the rule core: the first case whose condition holds scores the
//! position for the side to move, a sum of weight x feature. Every feature but `empty` is the
//! mover's count less the opponent's, read as the compiler's engine reads it
//! (`gamec::engine::eval`), which the hosted tests hold this to.

use super::ending::Cmp;
use super::geometry::Geometry;
use super::{content, Board, Dirs, Program, Rules};

/// What an evaluation counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// Pieces of the first kind on the board.
    Pieces,
    /// Legal moves: the cells single-cell moves choose, each once, and every longer move.
    Mobility,
    /// Pieces of the first kind in a region the game declares.
    Region(u8),
    /// Lines of `of` cells in a row holding `have` of the side's pieces and nothing else.
    Lines { have: u8, of: u8 },
    /// Empty cells (not a difference).
    Empty,
}

/// One case of an evaluation: where `when` holds (or always, with none), the sum of `terms`.
#[derive(Debug, Clone, Copy)]
pub struct Case<'a> {
    pub when: Option<(Feature, Cmp, i32)>,
    pub terms: &'a [(i16, Feature)],
}

/// The four directions a line runs in, each line once: along a row, up a column, and both
/// diagonals.
const LINE_DIRECTIONS: [u8; 4] = [Dirs::E, Dirs::N, Dirs::NE, Dirs::SE];

impl<P: Program> Rules<'_, P> {
    /// The score of `cells` for `to_move` by `cases` (0 where none holds), within 16 bits: the
    /// compiler bounds an evaluation's range below a won game's score.
    pub fn evaluate(&self, cases: &[Case], cells: &mut [u8], to_move: u8) -> i16 {
        for case in cases {
            if let Some((f, cmp, n)) = case.when {
                if !cmp.holds(self.feature(f, cells, to_move), n) {
                    continue;
                }
            }
            let sum: i32 = case.terms.iter().map(|&(w, f)| i32::from(w) * self.feature(f, cells, to_move)).sum();
            return sum.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        }
        0
    }

    /// A feature's value on `cells` for `to_move`.
    pub fn feature(&self, f: Feature, cells: &mut [u8], to_move: u8) -> i32 {
        let opp = (to_move + 1) % self.players;
        let g = self.geometry;
        match f {
            Feature::Empty => g.cells().filter(|&c| cells[c as usize] == content::EMPTY).count() as i32,
            Feature::Pieces => pieces(&g, cells, to_move, |_| true) - pieces(&g, cells, opp, |_| true),
            Feature::Region(r) => {
                let region = self.regions.get(r as usize).copied().unwrap_or(&[]);
                let inside = |c: u8| region.contains(&c);
                pieces(&g, cells, to_move, inside) - pieces(&g, cells, opp, inside)
            }
            Feature::Lines { have, of } => {
                open_lines(&g, cells, to_move, have, of) - open_lines(&g, cells, opp, have, of)
            }
            Feature::Mobility => self.mobility(cells, to_move) - self.mobility(cells, opp),
        }
    }

    /// `player`'s legal moves: the cells single-cell moves choose, each once whatever action
    /// chooses it, and every longer move.
    fn mobility(&self, cells: &mut [u8], player: u8) -> i32 {
        let mut seen = [0u8; 32];
        let mut longer = 0i32;
        self.moves(&mut Board::new(cells), player, |path, _| match path.cells() {
            [c] => seen[*c as usize / 8] |= 1 << (c % 8),
            _ => longer += 1,
        });
        seen.iter().map(|b| b.count_ones() as i32).sum::<i32>() + longer
    }
}

/// `player`'s pieces of the first kind on the cells `on` keeps.
fn pieces(g: &Geometry, cells: &[u8], player: u8, on: impl Fn(u8) -> bool) -> i32 {
    let piece = content::piece(0, player);
    g.cells().filter(|&c| cells[c as usize] == piece && on(c)).count() as i32
}

/// The lines of `of` cells on the board holding exactly `have` of `player`'s pieces of the
/// first kind and otherwise empty cells.
fn open_lines(g: &Geometry, cells: &[u8], player: u8, have: u8, of: u8) -> i32 {
    let piece = content::piece(0, player);
    let mut total = 0;
    for start in g.cells() {
        for dir in LINE_DIRECTIONS {
            let (mut mine, mut open) = (0u8, true);
            for k in 0..of {
                match g.toward(start, dir, k) {
                    Some(c) if cells[c as usize] == piece => mine += 1,
                    Some(c) if cells[c as usize] == content::EMPTY => {}
                    _ => open = false,
                }
            }
            total += i32::from(open && mine == have);
        }
    }
    total
}
