//! The rules of a game, executed on the host: the compiler's own reading of the game file,
//! used to solve it, count its states and check what the generated code does.

use gamec_dsl::{Condition, Constraint, EndResult, EndingDef, GameDef, MoveKind, Quantity, Whose};

/// Occupied cells; bit i is cell number i + 1.
pub type Pos = u16;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Move {
    pub from: u8,
    pub to: u8,
}

/// The lowered rules of a line game.
#[derive(Debug, Clone)]
pub struct Rules {
    pub cells: u8,
    pub pieces: u8,
    pub numbered_from_right: bool,
    pub slides: Vec<Slide>,
    pub last_mover_wins: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct Slide {
    pub step: i8,
    pub min: u8,
    pub max: u8,
    pub over_empty: bool,
}

/// A game's endings in one of the two classic shapes the firmware's own readings play (the
/// line games', the heaps', the grid games' bitboards): one ending, either "the player without
/// a move has lost (or won)" or "when neither can move, most (or fewest) pieces wins".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndDef {
    /// The player to move has none: with `last_mover_wins` (normal play) that player has lost.
    NoMoves { last_mover_wins: bool },
    /// Neither player can move (passing included): the one with most pieces on the board wins
    /// (or loses, if `most_wins` is false); equal counts are a draw.
    NeitherCanMove { most_wins: bool },
}

impl EndDef {
    /// The endings' classic shape, when they have one.
    pub fn of(endings: &[EndingDef]) -> Option<EndDef> {
        let [only] = endings else { return None };
        match (only.conditions.as_slice(), only.result) {
            ([Condition::NoMoves], EndResult::Wins(Whose::Mover) | EndResult::Loses(Whose::Next)) => {
                Some(EndDef::NoMoves { last_mover_wins: true })
            }
            ([Condition::NoMoves], EndResult::Loses(Whose::Mover) | EndResult::Wins(Whose::Next)) => {
                Some(EndDef::NoMoves { last_mover_wins: false })
            }
            ([Condition::NeitherCanMove], EndResult::Most { most, wins }) => {
                Some(EndDef::NeitherCanMove { most_wins: most == wins })
            }
            _ => None,
        }
    }
}

impl Rules {
    /// The rules of a line game whose player without a move has lost (or won); `None` for
    /// other kinds of game, which [`crate::grid_rules`] reads.
    pub fn new(game: &GameDef) -> Option<Self> {
        let line = game.rules.line()?;
        // A bit a cell of a 16-bit position.
        if line.cells > 16 {
            return None;
        }
        let Some(EndDef::NoMoves { last_mover_wins }) = EndDef::of(&game.rules.endings) else { return None };
        if game.rules.pass {
            return None;
        }
        // Every action a slide, so that each of `slides` is the action of its index.
        let cells = line.cells as u8;
        let slides = game.rules.moves.iter().map(|m| Slide::new(m.kind, cells)).collect::<Option<_>>()?;
        Some(Rules {
            cells,
            pieces: game.rules.piece.count as u8,
            numbered_from_right: line.numbered_from_right,
            slides,
            last_mover_wins,
        })
    }

    /// Every legal move in `pos`, in a fixed order.
    pub fn moves(&self, pos: Pos) -> Vec<Move> {
        let mut out = Vec::new();
        for s in &self.slides {
            for from in 0..self.cells {
                if pos & (1 << from) == 0 {
                    continue;
                }
                for steps in s.min..=s.max {
                    if let Some(to) = s.target(self.cells, pos, from, steps) {
                        out.push(Move { from, to });
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    pub fn apply(pos: Pos, m: Move) -> Pos {
        (pos & !(1 << m.from)) | (1 << m.to)
    }

    /// Every placement of the pieces, in increasing mask order.
    pub fn placements(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..(1u32 << self.cells)).map(|p| p as Pos).filter(|p| p.count_ones() == self.pieces as u32)
    }

    /// Index of the `i`-th piece from the left (from 0) in `pos`.
    pub fn piece_from_left(&self, pos: Pos, i: u8) -> Option<u8> {
        let mut occupied: Vec<u8> = (0..self.cells).filter(|c| pos & (1 << c) != 0).collect();
        if self.numbered_from_right {
            occupied.reverse();
        }
        occupied.get(i as usize).copied()
    }

    /// The cell number (from 1) of the leftmost or rightmost piece.
    pub fn extreme(&self, pos: Pos, leftmost: bool) -> u32 {
        let high = 16 - pos.leading_zeros();
        let low = pos.trailing_zeros() + 1;
        if leftmost == self.numbered_from_right {
            high
        } else {
            low
        }
    }

    /// Whether `pos` meets a setup constraint that does not depend on solving the game.
    pub fn meets(&self, pos: Pos, c: &Constraint) -> Option<bool> {
        let Constraint::Compare { lhs, op, rhs, .. } = c else { return None };
        let value = |q: &Quantity| match q {
            Quantity::Const(n) => *n,
            Quantity::Leftmost => self.extreme(pos, true),
            Quantity::Rightmost => self.extreme(pos, false),
        };
        Some(op.holds(value(lhs), value(rhs)))
    }
}

impl Slide {
    /// A slide action's reading on a line of `cells`; `None` for any other action.
    fn new(kind: MoveKind, cells: u8) -> Option<Self> {
        let MoveKind::Slide { step, min, max, over_empty } = kind else { return None };
        Some(Slide {
            step,
            min: min.min(cells as u32) as u8,
            max: max.unwrap_or(cells as u32).min(cells as u32) as u8,
            over_empty,
        })
    }

    /// Where the piece on `from` lands after `steps`, if legal.
    pub fn target(&self, cells: u8, pos: Pos, from: u8, steps: u8) -> Option<u8> {
        let to = from as i32 + self.step as i32 * steps as i32;
        if !(0..cells as i32).contains(&to) || pos & (1 << to) != 0 {
            return None;
        }
        let blocked = (1..steps as i32).any(|s| pos & (1 << (from as i32 + self.step as i32 * s)) != 0);
        if self.over_empty && blocked {
            return None;
        }
        Some(to as u8)
    }
}
