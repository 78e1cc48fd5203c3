//! Puzzles: games of one player who changes cells (`cycle`) until an ending says they have
//! won. A puzzle's solutions are the fillings of its changeable cells that win; the solver
//! finds them by search with pruning, the deduction grades how hard a start is, and the
//! generator makes new starts with one solution each. All of it reads the game's own
//! conditions, so another constraint puzzle is only another game file.

use super::{Engine, Move, Outcome, State};
use gamec_dsl::{EndResult, GameDef, MoveKind, SetupDef, Whose};
use std::cell::Cell;

/// A cell whose contents the solver has not decided yet.
pub const UNKNOWN: u8 = 0xFF;

/// The most solutions any question here needs: one to find, two to tell it is not unique.
const ENOUGH: usize = 2;

/// A puzzle's rules, read for solving.
pub struct Puzzle<'a> {
    engine: &'a Engine,
    /// The endings in which the player wins.
    wins: Vec<usize>,
    /// The cycle that changes cells, and the contents it steps through.
    action: u8,
    values: Vec<u8>,
    free_only: bool,
    /// Judgements of a partial filling left before a budgeted search gives up
    /// ([`Puzzle::try_solutions`]); `u64::MAX` when unbudgeted.
    left: Cell<u64>,
}

/// The most judgements of partial fillings `check` and `analyze` spend on one start: the
/// shipped tableaux take at most 30,000 of it; a puzzle whose conditions prune little
/// (no givens, a contradiction only a full grid shows) would otherwise search for ever.
pub const WORK: u64 = 300_000;

/// A search that gave up after [`WORK`] judgements, neither finding nor ruling out solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undecided;

/// How a start yields to deduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Difficulty {
    /// Cells to fill.
    pub open: usize,
    /// Cells filled by the rules alone, each the only value the conditions leave a cell.
    pub by_singles: usize,
    /// 1: singles solve it; 2: also trying a value and seeing it fail; 3: a guess is needed.
    pub level: u8,
}

impl<'a> Puzzle<'a> {
    /// The game read as a puzzle: one player, a `cycle` action and an ending the player wins.
    pub fn new(engine: &'a Engine) -> Option<Puzzle<'a>> {
        if engine.players != 1 {
            return None;
        }
        let (action, order, free_only) = engine.moves.iter().enumerate().find_map(|(a, m)| match *m {
            // A cycle that changes one cell: a press that also changes its neighbours is no filling.
            MoveKind::Cycle { free, order, around: None } => Some((a as u8, order, free)),
            _ => None,
        })?;
        let wins: Vec<usize> = (0..engine.endings.len())
            .filter(|&e| matches!(engine.endings[e].result, EndResult::Wins(w) if w != Whose::All))
            .collect();
        (!wins.is_empty()).then(|| Puzzle {
            engine,
            wins,
            action,
            values: order.values().to_vec(),
            free_only,
            left: Cell::new(u64::MAX),
        })
    }

    /// The cells the player may change in `start`.
    fn open_cells(&self, start: &State) -> Vec<u8> {
        let e = self.engine;
        let changeable = |c: u8| !(self.free_only && start.given >> c & 1 == 1);
        e.cell_list
            .iter()
            .copied()
            .filter(|&c| changeable(c) && self.values.contains(&start.cells[c as usize]))
            .collect()
    }

    /// `start` with every cell the player may change unknown.
    fn blank(&self, start: &State) -> State {
        let mut s = start.clone();
        for c in self.open_cells(start) {
            s.cells[c as usize] = UNKNOWN;
        }
        s
    }

    /// Whether some winning ending can still hold once the unknown cells are filled in. Once
    /// a budgeted search's work is spent, nothing is, and the search unwinds.
    fn viable(&self, s: &State) -> bool {
        match self.left.get() {
            0 => return false,
            n => self.left.set(n - 1),
        }
        self.wins.iter().any(|&w| self.engine.endings[w].conditions.iter().all(|c| self.engine.may_hold(s, c)))
    }

    fn won(&self, s: &State) -> bool {
        self.engine.outcome(s) == Some(Outcome::Win(0))
    }

    /// Up to `limit` winning fillings of `start`, within [`WORK`] judgements: what `check`
    /// and `analyze` use on a file they have not seen before.
    pub fn try_solutions(&self, start: &State, limit: usize) -> Result<Vec<State>, Undecided> {
        self.left.set(WORK);
        let found = self.solutions_within(start, limit);
        let spent = self.left.get() == 0;
        self.left.set(u64::MAX);
        if spent {
            Err(Undecided)
        } else {
            Ok(found)
        }
    }

    /// Up to `limit` winning fillings of `start` (at most two are ever needed to prove one
    /// unique), however long it takes: for starts `check` has decided.
    pub fn solutions(&self, start: &State, limit: usize) -> Vec<State> {
        self.solutions_within(start, limit)
    }

    fn solutions_within(&self, start: &State, limit: usize) -> Vec<State> {
        let mut found = Vec::new();
        let s = self.blank(start);
        if self.viable(&s) {
            self.search(s, &mut found, limit.min(ENOUGH), &mut |_, v| v.to_vec());
        }
        found
    }

    fn search(&self, mut s: State, found: &mut Vec<State>, limit: usize, order: &mut dyn FnMut(u8, &[u8]) -> Vec<u8>) {
        if !self.propagate(&mut s, false) {
            return;
        }
        let Some(cell) = self.most_constrained(&s) else {
            if self.won(&s) {
                found.push(s);
            }
            return;
        };
        for v in order(cell, &self.values) {
            if found.len() >= limit {
                return;
            }
            let mut t = s.clone();
            t.cells[cell as usize] = v;
            if self.viable(&t) {
                self.search(t, found, limit, order);
            }
        }
    }

    /// The values still possible in each unknown cell of `s`.
    fn candidates(&self, s: &State, cell: u8) -> Vec<u8> {
        let mut t = s.clone();
        self.values
            .iter()
            .copied()
            .filter(|&v| {
                t.cells[cell as usize] = v;
                self.viable(&t)
            })
            .collect()
    }

    /// The unknown cell with fewest candidates, where a choice matters most.
    fn most_constrained(&self, s: &State) -> Option<u8> {
        let unknown = self.engine.cell_list.iter().copied().filter(|&c| s.cells[c as usize] == UNKNOWN);
        unknown.min_by_key(|&c| self.candidates(s, c).len())
    }

    /// Fills every cell the conditions leave one value (and, with `probe`, every cell where all
    /// values but one fail after singles); false on a contradiction.
    fn propagate(&self, s: &mut State, probe: bool) -> bool {
        loop {
            let mut changed = false;
            for &c in &self.engine.cell_list {
                if s.cells[c as usize] != UNKNOWN {
                    continue;
                }
                match self.candidates(s, c).as_slice() {
                    [] => return false,
                    [v] => {
                        s.cells[c as usize] = *v;
                        changed = true;
                    }
                    _ => {}
                }
            }
            if changed {
                continue;
            }
            if !probe || !self.probe_once(s) {
                return self.viable(s);
            }
        }
    }

    /// Tries each value of each unknown cell with singles; fixes the first cell left with one
    /// value that does not fail. False when nothing was learned.
    fn probe_once(&self, s: &mut State) -> bool {
        for &c in &self.engine.cell_list {
            if s.cells[c as usize] != UNKNOWN {
                continue;
            }
            let survivors: Vec<u8> = self
                .candidates(s, c)
                .into_iter()
                .filter(|&v| {
                    let mut t = s.clone();
                    t.cells[c as usize] = v;
                    self.propagate(&mut t, false)
                })
                .collect();
            if let [v] = survivors.as_slice() {
                s.cells[c as usize] = *v;
                return true;
            }
        }
        false
    }

    /// How far deduction gets on `start` before a guess is needed.
    pub fn difficulty(&self, start: &State) -> Difficulty {
        let blank = self.blank(start);
        let open = blank.cells.iter().filter(|&&v| v == UNKNOWN).count();
        let unknown = |s: &State| s.cells.iter().filter(|&&v| v == UNKNOWN).count();
        let mut singles = blank.clone();
        if !self.propagate(&mut singles, false) {
            return Difficulty { open, by_singles: 0, level: 3 };
        }
        let by_singles = open - unknown(&singles);
        let level = if unknown(&singles) == 0 {
            1
        } else if self.propagate(&mut singles, true) && unknown(&singles) == 0 {
            2
        } else {
            3
        };
        Difficulty { open, by_singles, level }
    }

    /// The moves that turn `start` into `solution`, cell by cell: how a test or a player
    /// would enter it.
    pub fn moves_to(&self, start: &State, solution: &State) -> Vec<Move> {
        let mut moves = Vec::new();
        for c in self.open_cells(start) {
            let (mut v, goal) = (start.cells[c as usize], solution.cells[c as usize]);
            while v != goal {
                moves.push(Move::Put { action: self.action, cell: c });
                let i = self.values.iter().position(|&x| x == v).unwrap_or(0);
                v = self.values[(i + 1) % self.values.len()];
            }
        }
        moves
    }

    /// A new start with exactly one solution: a random winning filling of the empty board,
    /// then givens taken away at random while the solution stays unique. `None` when the
    /// rules allow no winning filling at all.
    pub fn generate(&self, game: &GameDef, rng: &mut impl FnMut() -> u64) -> Option<State> {
        let empty = SetupDef {
            name: None,
            pieces: Vec::new(),
            kinds: Vec::new(),
            shared: Vec::new(),
            states: Vec::new(),
            heaps: Vec::new(),
            span: game.name.span,
        };
        let base = self.engine.start_of(game, &empty);
        let mut found = Vec::new();
        let mut shuffled = |_: u8, values: &[u8]| {
            let mut v = values.to_vec();
            shuffle(&mut v, rng);
            v
        };
        // Budgeted as `check` is: a filling not found within the work is none found.
        self.left.set(WORK);
        self.search(self.blank(&base), &mut found, 1, &mut shuffled);
        self.left.set(u64::MAX);
        let full = found.pop()?;
        // Every filled cell starts as a given; an empty one is never given.
        let mut givens: Vec<u8> =
            self.open_cells(&base).into_iter().filter(|&c| full.cells[c as usize] != base.cells[c as usize]).collect();
        shuffle(&mut givens, rng);
        let mut start = full.clone();
        start.given = givens.iter().fold(base.given, |m, &c| m | 1 << c);
        for &c in &givens {
            let mut fewer = start.clone();
            fewer.cells[c as usize] = base.cells[c as usize];
            fewer.given &= !(1 << c);
            // A given whose removal cannot be decided stays.
            if self.try_solutions(&fewer, ENOUGH).is_ok_and(|f| f.len() == 1) {
                start = fewer;
            }
        }
        Some(start)
    }
}

fn shuffle<T>(v: &mut [T], rng: &mut impl FnMut() -> u64) {
    for i in (1..v.len()).rev() {
        v.swap(i, (rng() % (i as u64 + 1)) as usize);
    }
}
