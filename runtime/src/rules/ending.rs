//! When a game is over and who won: a game's endings, tried in order after every move, read
//! on the rule core's board as the compiler's engine reads them.

use super::geometry::each;
use super::{content, Board, Dirs, Program, Rules};

/// Whose pieces, or whose result: relative to the move just made, or a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// The player who just moved.
    Mover,
    /// The player whose turn it is.
    Next,
    Player(u8),
    /// Everyone's.
    All,
}

/// What a count looks for in a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    Pieces(Who),
    /// A content, as [`content`] numbers it (a state).
    Content(u8),
    /// Anything but empty; for runs, cells that hold the same.
    Any,
}

/// Where a count looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Board,
    Region(u8),
    /// Every row (or column): the comparison must hold in each.
    EachRow,
    EachColumn,
}

/// A number a condition compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    Const(u16),
    /// Pieces of a player (or counters, on heaps), in a region or anywhere.
    Pieces {
        who: Who,
        region: Option<u8>,
    },
    /// Cells holding what `look` asks in `scope`; with `run`, the longest unbroken run.
    Cells {
        look: Look,
        scope: Scope,
        run: bool,
    },
}

/// How two counts compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// Whether `a` compares to `b` so (counts of an ending, or an evaluation's signed ones).
    pub(super) fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

/// One condition of an ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// The mover has `k` pieces in a row along one of 4 (orthogonal) or 8 directions.
    InARow {
        k: u8,
        directions: u8,
    },
    /// No empty cell is left.
    Full,
    /// The player to move has no legal move.
    NoMoves,
    /// Neither player has a legal move.
    NeitherCanMove,
    /// No two full rows (or columns) are alike.
    Distinct {
        rows: bool,
    },
    Compare {
        lhs: Count,
        cmp: Cmp,
        rhs: Count,
    },
}

/// What an ending decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Result {
    Wins(Who),
    Loses(Who),
    Draw,
    /// The player with the most (or, with `most` false, the fewest) pieces wins (or, with
    /// `wins` false, loses); equal counts draw.
    Most {
        most: bool,
        wins: bool,
    },
}

/// How a finished game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(u8),
    Draw,
}

/// One ending: its conditions, all of which must hold, and what it decides.
#[derive(Debug, Clone, Copy)]
pub struct Ending<'a> {
    pub conditions: &'a [Condition],
    pub result: Result,
}

/// A position to judge: its board and whose turn it is.
pub struct Judged<'b> {
    pub board: Board<'b>,
    pub to_move: u8,
}

impl<P: Program> Rules<'_, P> {
    /// The first of `endings` whose conditions all hold, by index.
    pub fn ending(&self, endings: &[Ending], pos: &mut Judged) -> Option<usize> {
        endings.iter().position(|e| e.conditions.iter().all(|c| self.condition(c, pos)))
    }

    /// How the game stands decided by `result`.
    pub fn outcome(&self, result: Result, pos: &Judged) -> Outcome {
        let after = |p: u8| (p + 1) % self.players;
        match result {
            Result::Draw => Outcome::Draw,
            Result::Wins(w) => Outcome::Win(self.player(w, pos).unwrap_or(0)),
            Result::Loses(w) => Outcome::Win(after(self.player(w, pos).unwrap_or(0))),
            Result::Most { most, wins } => {
                let (a, b) = (self.pieces(Some(0), None, pos), self.pieces(Some(1), None, pos));
                if a == b {
                    return Outcome::Draw;
                }
                let leader = if (a > b) == most { 0 } else { 1 };
                Outcome::Win(if wins { leader } else { 1 - leader })
            }
        }
    }

    fn mover(&self, pos: &Judged) -> u8 {
        (pos.to_move + self.players - 1) % self.players
    }

    fn player(&self, w: Who, pos: &Judged) -> Option<u8> {
        match w {
            Who::Mover => Some(self.mover(pos)),
            Who::Next => Some(pos.to_move),
            Who::Player(p) => Some(p),
            Who::All => None,
        }
    }

    /// Whether `v` is a piece of `player`, of any kind (anyone's with `None`; shared pieces
    /// are everyone's).
    fn is_piece(&self, v: u8, player: Option<u8>) -> bool {
        if self.per_player {
            content::kind_and_owner(v).is_some_and(|(_, owner)| player.is_none_or(|p| p == owner))
        } else {
            v == content::SHARED
        }
    }

    fn pieces(&self, player: Option<u8>, region: Option<u8>, pos: &Judged) -> u16 {
        if self.heaps {
            // On pits, a player's are the counters on their side, store and all; a region's,
            // those in its pits.
            let in_region = |h: &u8| region.and_then(|r| self.regions.get(r as usize)).is_none_or(|r| r.contains(h));
            let counted = |h: &u8| self.pits.is_none() || player.is_none_or(|p| self.side_of(*h) == p);
            return self.geometry.cells().filter(in_region).filter(counted).map(|h| pos.board.get(h) as u16).sum();
        }
        let board = &pos.board;
        match region.and_then(|r| self.regions.get(r as usize)) {
            Some(cells) => cells.iter().filter(|&&c| self.is_piece(board.get(c), player)).count() as u16,
            None => self.geometry.cells().filter(|&c| self.is_piece(board.get(c), player)).count() as u16,
        }
    }

    fn has_move(&self, board: &mut Board, player: u8) -> bool {
        self.moves(board, player, |_, _| {}) > 0
    }

    /// Whether `c` holds, judged by the game's [`Program`].
    pub fn condition(&self, c: &Condition, pos: &mut Judged) -> bool {
        P::judge(self, c, pos)
    }

    /// [`Condition::Full`].
    pub fn full(&self, pos: &Judged) -> bool {
        self.geometry.cells().all(|c| pos.board.get(c) != content::EMPTY)
    }

    /// [`Condition::NoMoves`].
    pub fn no_moves(&self, pos: &mut Judged) -> bool {
        !self.has_move(&mut pos.board, pos.to_move)
    }

    /// [`Condition::NeitherCanMove`].
    pub fn neither_can_move(&self, pos: &mut Judged) -> bool {
        let next = (pos.to_move + 1) % self.players;
        !self.has_move(&mut pos.board, pos.to_move) && !self.has_move(&mut pos.board, next)
    }

    /// [`Condition::Compare`].
    pub fn compare(&self, lhs: Count, cmp: Cmp, rhs: Count, pos: &Judged) -> bool {
        let per_line = [lhs, rhs].into_iter().find_map(|x| match x {
            Count::Cells { scope: Scope::EachRow, .. } => Some(true),
            Count::Cells { scope: Scope::EachColumn, .. } => Some(false),
            _ => None,
        });
        match per_line {
            Some(rows) => (0..self.lines(rows))
                .all(|l| cmp.holds(self.count(lhs, pos, Some((rows, l))), self.count(rhs, pos, Some((rows, l))))),
            None => cmp.holds(self.count(lhs, pos, None), self.count(rhs, pos, None)),
        }
    }

    /// How many rows (or columns) the board has.
    fn lines(&self, rows: bool) -> u8 {
        if rows {
            self.geometry.rows
        } else {
            self.geometry.cols
        }
    }

    /// The cells of row (or column) `l`, in order.
    fn line(&self, rows: bool, l: u8) -> impl Iterator<Item = u8> + '_ {
        let g = self.geometry;
        let n = if rows { g.cols } else { g.rows };
        (0..n).map(move |i| if rows { l * g.stride + i } else { i * g.stride + l }).filter(move |&c| g.on_board(c))
    }

    /// The number `x` stands for; `line` is the row or column a per-line count is taken in.
    fn count(&self, x: Count, pos: &Judged, line: Option<(bool, u8)>) -> u16 {
        let (look, scope, run) = match x {
            Count::Const(n) => return n,
            Count::Pieces { who, region } => return self.pieces(self.player(who, pos), region, pos),
            Count::Cells { look, scope, run } => (look, scope, run),
        };
        let wanted = |v: u8| match look {
            Look::Pieces(w) => self.is_piece(v, self.player(w, pos)),
            Look::Content(c) => v == c,
            Look::Any => v != content::EMPTY,
        };
        let board = &pos.board;
        let mut tally = Tally { run, n: 0, len: 0, prev: None };
        match (scope, line) {
            (Scope::EachRow | Scope::EachColumn, Some((rows, l))) => {
                self.line(rows, l).for_each(|c| tally.add(board.get(c), wanted(board.get(c))))
            }
            (Scope::Region(r), _) => {
                let cells = self.regions.get(r as usize).copied().unwrap_or(&[]);
                cells.iter().for_each(|&c| tally.add(board.get(c), wanted(board.get(c))))
            }
            _ => self.geometry.cells().for_each(|c| tally.add(board.get(c), wanted(board.get(c)))),
        }
        tally.n
    }

    /// No two full lines hold the same.
    pub fn distinct(&self, pos: &Judged, rows: bool) -> bool {
        let board = &pos.board;
        let full = |l: u8| self.line(rows, l).all(|c| board.get(c) != content::EMPTY);
        let same = |a: u8, b: u8| self.line(rows, a).zip(self.line(rows, b)).all(|(x, y)| board.get(x) == board.get(y));
        let n = self.lines(rows);
        (0..n).all(|a| !full(a) || (0..a).all(|b| !full(b) || !same(a, b)))
    }

    /// The mover has `k` in a row along one of the directions.
    pub fn in_a_row(&self, pos: &Judged, k: u8, directions: u8) -> bool {
        let g = self.geometry;
        let mover = self.mover(pos);
        let board = &pos.board;
        let mine = |c: u8| self.is_piece(board.get(c), Some(mover));
        // Each line is counted from its first cell, so only half of each axis.
        let axes = if directions == 4 { Dirs::E | Dirs::N } else { Dirs::E | Dirs::N | Dirs::NE | Dirs::SE };
        let found =
            g.cells().any(|c| mine(c) && each(axes).any(|bit| (1..k).all(|i| g.toward(c, bit, i).is_some_and(mine))));
        found
    }
}

/// A count of wanted cells, or the longest run of wanted cells that all hold the same.
struct Tally {
    run: bool,
    n: u16,
    len: u16,
    prev: Option<u8>,
}

impl Tally {
    fn add(&mut self, v: u8, wanted: bool) {
        if !self.run {
            self.n += u16::from(wanted);
            return;
        }
        self.len = if wanted && self.prev == Some(v) { self.len + 1 } else { u16::from(wanted) };
        self.prev = Some(v);
        self.n = self.n.max(self.len);
    }
}
