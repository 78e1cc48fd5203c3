//! What a puzzle's conditions can still come to while some cells are unknown: the bounds its
//! solver prunes with. What holds in a finished position is the rule core's reading
//! (`core.rs`).

use super::puzzle::UNKNOWN;
use super::{Engine, Shape, State};
use gamec_dsl::{ast::CmpOp, content, Condition, Count, Scope, What, Whose};

impl Engine {
    /// The player who made the last move in `s`.
    pub fn mover(&self, s: &State) -> u8 {
        (s.to_move + self.players - 1) % self.players
    }

    fn player(&self, s: &State, w: Whose) -> Option<u8> {
        match w {
            Whose::Mover => Some(self.mover(s)),
            Whose::Next => Some(s.to_move),
            Whose::Player(p) => Some(p as u8),
            Whose::All => None,
        }
    }

    /// Pieces of `player` (everyone's with `None`, and always everyone's for shared pieces),
    /// in a region or anywhere; on heaps, the counters left.
    fn count(&self, s: &State, player: Option<u8>, region: Option<usize>) -> u32 {
        if let Shape::Heaps { .. } = self.shape {
            return s.cells.iter().map(|&n| n as u32).sum();
        }
        let cells = match region {
            Some(r) => &self.regions[r],
            None => &self.cell_list,
        };
        cells.iter().filter(|&&c| self.is_piece(s.cells[c as usize], player)).count() as u32
    }

    /// Whether `v` is a piece of `player`, of any kind (of anyone, with `None` or shared
    /// pieces).
    fn is_piece(&self, v: u8, player: Option<u8>) -> bool {
        if self.per_player {
            gamec_runtime::rules::content::kind_and_owner(v).is_some_and(|(_, owner)| player.is_none_or(|p| p == owner))
        } else {
            v == content::SHARED
        }
    }

    /// The least and the most `x` can come to once every [`UNKNOWN`] cell of `s` is filled in;
    /// equal when none is unknown. A puzzle's solver prunes with them.
    pub(super) fn bounds(&self, s: &State, x: Count, line: &[u8]) -> (u32, u32) {
        let (what, scope, run) = match x {
            Count::Const(n) => return (n, n),
            Count::Pieces { whose, region } => {
                let n = self.count(s, self.player(s, whose), region);
                let open = match region {
                    Some(r) => self.unknown_in(s, &self.regions[r]),
                    None => self.unknown_in(s, &self.cell_list),
                };
                return (n, n + open);
            }
            Count::Cells { what, scope, run } => (what, scope, run),
        };
        let cells: &[u8] = match scope {
            Scope::Board => &self.cell_list,
            Scope::Region(r) => &self.regions[r],
            Scope::EachRow | Scope::EachColumn => line,
        };
        let wanted = |v: u8| match what {
            What::Pieces(w) => self.is_piece(v, self.player(s, w)),
            What::State(k) => v == content::state(k),
            What::Any => v != content::EMPTY && v != UNKNOWN,
        };
        let values = cells.iter().map(|&c| s.cells[c as usize]);
        if !run {
            let n = values.clone().filter(|&v| wanted(v)).count() as u32;
            return (n, n + self.unknown_in(s, cells));
        }
        // The longest stretch of wanted cells that all hold the same; at most, the longest
        // stretch of cells that are wanted or unknown.
        let (mut lo, mut hi, mut len, mut open, mut prev) = (0, 0, 0, 0, None);
        for v in values {
            len = if wanted(v) && prev == Some(v) { len + 1 } else { u32::from(wanted(v)) };
            open = if wanted(v) || v == UNKNOWN { open + 1 } else { 0 };
            prev = Some(v);
            lo = u32::max(lo, len);
            hi = u32::max(hi, open);
        }
        (lo, hi)
    }

    fn unknown_in(&self, s: &State, cells: &[u8]) -> u32 {
        cells.iter().filter(|&&c| s.cells[c as usize] == UNKNOWN).count() as u32
    }

    /// Whether `c` can still hold once the [`UNKNOWN`] cells of `s` are filled in.
    pub(super) fn may_hold(&self, s: &State, c: &Condition) -> bool {
        match *c {
            Condition::Full => self.cell_list.iter().all(|&c| s.cells[c as usize] != content::EMPTY),
            Condition::Distinct { rows } => self.distinct(s, if rows { &self.rows } else { &self.columns }),
            Condition::Compare { lhs, op, rhs } => {
                let possible = |line: &[u8]| {
                    let ((a, b), (c, d)) = (self.bounds(s, lhs, line), self.bounds(s, rhs, line));
                    match op {
                        CmpOp::Eq => a <= d && c <= b,
                        CmpOp::Ne => !(a == b && c == d && a == c),
                        CmpOp::Lt => a < d,
                        CmpOp::Le => a <= d,
                        CmpOp::Gt => b > c,
                        CmpOp::Ge => b >= c,
                    }
                };
                match self.each(lhs, rhs) {
                    Some(lines) => lines.iter().all(|l| possible(l)),
                    None => possible(&[]),
                }
            }
            // Conditions on moves and lines of pieces are not a puzzle's: judged once complete.
            _ => s.cells.contains(&UNKNOWN) || self.holds(s, c),
        }
    }

    /// The rows or columns a comparison is made in, when it is made per line.
    fn each(&self, lhs: Count, rhs: Count) -> Option<&Vec<Vec<u8>>> {
        [lhs, rhs].into_iter().find_map(|x| match x {
            Count::Cells { scope: Scope::EachRow, .. } => Some(&self.rows),
            Count::Cells { scope: Scope::EachColumn, .. } => Some(&self.columns),
            _ => None,
        })
    }

    /// No two full lines among `lines` hold the same.
    fn distinct(&self, s: &State, lines: &[Vec<u8>]) -> bool {
        let full: Vec<Vec<u8>> = lines
            .iter()
            .map(|l| l.iter().map(|&c| s.cells[c as usize]).collect::<Vec<u8>>())
            .filter(|l| l.iter().all(|&v| v != content::EMPTY && v != UNKNOWN))
            .collect();
        full.iter().enumerate().all(|(i, a)| full[..i].iter().all(|b| a != b))
    }
}
