//! Every move form of the language lowered to the runtime's rule core, and the engine's
//! positions handed to it: the engine and the firmware read a move by one program.

use super::{Engine, Move, Outcome, Shape, State};
use gamec_dsl::ast::{CmpOp, Target, Travel};
use gamec_dsl::{Count, Directions, EndResult, Goal, MoveKind, Scope, SowCaptureDef, TravelDef, What, Whose};
use gamec_runtime::rules::ending::{self, Ending, Judged};
use gamec_runtime::rules::game::Game;
use gamec_runtime::rules::{
    Action, Board, Capture, Dirs, Geometry, Holds, Kinds, Op, Order, Path, Pits, Region, Rules, Sow, FAR,
};
use std::marker::PhantomData;

/// One action lowered: its program and what it means for the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    pub ops: Vec<Op>,
    pub must: bool,
    /// What must hold once the move is made (`where`).
    pub conditions: Vec<ending::Condition>,
}

/// An action's core program.
pub fn program(m: &gamec_dsl::MoveDef) -> Program {
    let conditions = m.condition.iter().map(condition).collect();
    Program { ops: ops(&m.kind), must: m.must, conditions }
}

/// The ops of a move form.
fn ops(kind: &MoveKind) -> Vec<Op> {
    let pick = |what| Op::Pick { what, free: false };
    let ops = match *kind {
        MoveKind::Place { capture: None } => vec![pick(Holds::Empty), Op::Put { kind: 0 }],
        MoveKind::Place { capture: Some(d) } => {
            let dirs = if d == 4 { Dirs::ORTHOGONAL } else { Dirs::ALL };
            vec![pick(Holds::Empty), Op::Put { kind: 0 }, Op::Flank { dirs: Dirs::absolute(dirs), required: true }]
        }
        MoveKind::Drop => vec![pick(Holds::Empty), Op::Rests { dir: Dirs::absolute(Dirs::S) }, Op::Put { kind: 0 }],
        MoveKind::Slide { step, min, max, over_empty } => {
            let dir = if step > 0 { Dirs::E } else { Dirs::W };
            let over = if over_empty { Holds::Empty } else { Holds::Anything };
            let (min, max) = (byte(min), max.map_or(FAR, byte));
            let ride = Op::Ride { dirs: Dirs::absolute(dir), min, max, over, to: Holds::Empty };
            vec![pick(Holds::Occupied), ride, Op::Carry]
        }
        MoveKind::Remove { min, max } => vec![Op::Take { min: byte(min), max: max.map_or(0, byte) }],
        MoveKind::Cycle { free, order, around } => {
            let order = Order::new(order.values());
            let mut ops = vec![Op::Pick { what: Holds::Anything, free }, Op::Cycle { order }];
            ops.extend(around.map(|d| Op::Around { dirs: dirs(d), order }));
            ops
        }
        MoveKind::Travel(t) => travel(&t),
        // The first piece of the run, then the run's far end (itself, for a run of one).
        MoveKind::RemoveRun { min, max } => {
            let ride = Op::Ride {
                dirs: Dirs::absolute(Dirs::E),
                min: byte(min - 1),
                max: max.map_or(FAR, |m| byte(m - 1)),
                over: Holds::Occupied,
                to: Holds::Occupied,
            };
            vec![pick(Holds::Occupied), ride, Op::ClearRun]
        }
        MoveKind::Sow(s) => {
            let capture = match s.capture {
                SowCaptureDef::Nothing => Capture::Nothing,
                SowCaptureDef::Opposite => Capture::Opposite,
                SowCaptureDef::Making { min, max } => Capture::Making { min: byte(min), max: byte(max) },
            };
            let sow = Sow { into_store: s.into_store, skip_origin: s.skip_origin, again: s.again, capture };
            vec![pick(Holds::Occupied), Op::Sow(sow)]
        }
    };
    ops
}

fn dirs(d: Directions) -> Dirs {
    Dirs { bits: d.bits, relative: d.relative }
}

/// What a cell must hold, for a piece moving by itself.
fn holds(t: Target) -> Holds {
    match t {
        Target::Empty => Holds::Empty,
        Target::Enemy => Holds::Theirs(Kinds::ALL),
        Target::Own => Holds::Mine(Kinds::ALL),
        Target::Any => Holds::Occupied,
        Target::EmptyOrEnemy => Holds::EmptyOrTheirs,
    }
}

/// A step, a jump or a ride: pick the mover's piece of the kind, move it, take what it lands
/// on, promote it, and jump on while it can.
fn travel(t: &TravelDef) -> Vec<Op> {
    let (dirs, over, to) = (dirs(t.directions), holds(t.over), holds(t.to));
    let go = match t.how {
        Travel::Step => Op::Step { dirs, to },
        Travel::Jump => Op::Jump { dirs, over, to, capture: t.capturing },
        Travel::Ride => Op::Ride { dirs, min: 1, max: FAR, over, to },
    };
    let mut ops = vec![Op::Pick { what: Holds::Mine(Kinds(1 << t.kind)), free: false }, go, Op::Carry];
    if let Some((kind, goal)) = t.promote {
        let region = match goal {
            Goal::FarRow => Region::FarRow,
            Goal::Region(r) => Region::Declared(r as u8),
        };
        ops.push(Op::Promote { kind, region });
    }
    if t.chained {
        ops.push(Op::Chain { to: 1 });
    }
    ops
}

/// An ending's conditions and result as the rule core reads them.
pub fn ending_of(e: &gamec_dsl::EndingDef) -> (Vec<ending::Condition>, ending::Result) {
    (e.conditions.iter().map(condition).collect(), result(e.result))
}

fn who(w: Whose) -> ending::Who {
    match w {
        Whose::Mover => ending::Who::Mover,
        Whose::Next => ending::Who::Next,
        Whose::Player(p) => ending::Who::Player(p as u8),
        Whose::All => ending::Who::All,
    }
}

fn count(c: Count) -> ending::Count {
    match c {
        Count::Const(n) => ending::Count::Const(n.min(u16::MAX as u32) as u16),
        Count::Pieces { whose, region } => ending::Count::Pieces { who: who(whose), region: region.map(|r| r as u8) },
        Count::Cells { what, scope, run } => ending::Count::Cells {
            look: match what {
                What::Pieces(w) => ending::Look::Pieces(who(w)),
                What::State(k) => ending::Look::Content(gamec_dsl::content::state(k)),
                What::Any => ending::Look::Any,
            },
            scope: match scope {
                Scope::Board => ending::Scope::Board,
                Scope::Region(r) => ending::Scope::Region(r as u8),
                Scope::EachRow => ending::Scope::EachRow,
                Scope::EachColumn => ending::Scope::EachColumn,
            },
            run,
        },
    }
}

fn condition(c: &gamec_dsl::Condition) -> ending::Condition {
    use gamec_dsl::Condition as C;
    match *c {
        C::InARow { k, directions } => ending::Condition::InARow { k, directions },
        C::Full => ending::Condition::Full,
        C::NoMoves => ending::Condition::NoMoves,
        C::NeitherCanMove => ending::Condition::NeitherCanMove,
        C::Distinct { rows } => ending::Condition::Distinct { rows },
        C::Compare { lhs, op, rhs } => ending::Condition::Compare { lhs: count(lhs), cmp: cmp(op), rhs: count(rhs) },
    }
}

/// A comparison of the file (an ending's, an evaluation's threshold) as the core's.
pub fn cmp(op: CmpOp) -> ending::Cmp {
    match op {
        CmpOp::Eq => ending::Cmp::Eq,
        CmpOp::Ne => ending::Cmp::Ne,
        CmpOp::Lt => ending::Cmp::Lt,
        CmpOp::Le => ending::Cmp::Le,
        CmpOp::Gt => ending::Cmp::Gt,
        CmpOp::Ge => ending::Cmp::Ge,
    }
}

fn result(r: EndResult) -> ending::Result {
    match r {
        EndResult::Wins(w) => ending::Result::Wins(who(w)),
        EndResult::Loses(w) => ending::Result::Loses(who(w)),
        EndResult::Draw => ending::Result::Draw,
        EndResult::Most { most, wins } => ending::Result::Most { most, wins },
    }
}

/// A count of cells or counters as the core's byte; the language's ranges are checked far
/// below 255 where they are read.
fn byte(n: u32) -> u8 {
    n.min(u8::MAX as u32) as u8
}

/// An engine position's cells, owned, for the core's [`Board`] to borrow.
struct Cells {
    cells: Vec<u8>,
    /// The state's 64 bits of given cells as the core reads them, a byte per eight cells.
    given: [u8; 8],
}

impl Cells {
    fn of(s: &State) -> Cells {
        Cells { cells: s.cells.clone(), given: s.given.to_le_bytes() }
    }
    fn board(&mut self) -> Board<'_> {
        Board { cells: &mut self.cells, given: &self.given }
    }
}

impl Engine {
    /// The core's view of the board.
    fn geometry(&self) -> Geometry<'_> {
        match self.shape {
            Shape::Grid { cols, rows } => Geometry { cols, rows, stride: self.stride as u8, cut: &self.cut },
            Shape::Line { cells, .. } => Geometry { cols: cells, rows: 1, stride: cells, cut: &[] },
            // A ring of pits: a row a side.
            Shape::Heaps { heaps, pits: Some(_) } => Geometry { cols: heaps / 2, rows: 2, stride: heaps / 2, cut: &[] },
            Shape::Heaps { heaps, .. } => Geometry { cols: heaps, rows: 1, stride: heaps, cut: &[] },
        }
    }

    /// Runs `f` with the game's rules as the core reads them.
    fn with_rules<T>(&self, f: impl FnOnce(&Rules) -> T) -> T {
        let actions: Vec<Action> =
            self.programs.iter().map(|p| Action { ops: &p.ops, must: p.must, conditions: &p.conditions }).collect();
        let regions: Vec<&[u8]> = self.regions.iter().map(|r| r.as_slice()).collect();
        let heaps = matches!(self.shape, Shape::Heaps { .. });
        let pits = match self.shape {
            Shape::Heaps { pits, .. } => pits.map(|p| Pits { stores: p.stores }),
            _ => None,
        };
        let rules = Rules {
            geometry: self.geometry(),
            actions: &actions,
            regions: &regions,
            per_player: self.per_player,
            heaps,
            pits,
            players: self.players,
            program: PhantomData,
        };
        f(&rules)
    }

    /// Runs `f` with the whole game as the rule core plays it: rules, endings and turns.
    pub fn with_game<T>(&self, f: impl FnOnce(&Game) -> T) -> T {
        let endings: Vec<Ending> =
            self.core_endings.iter().map(|(conditions, result)| Ending { conditions, result: *result }).collect();
        // The default evaluation weighs advancement where some move has a forward.
        let advance = self.programs.iter().flat_map(|p| &p.ops).any(|op| match op {
            Op::Step { dirs, .. } | Op::Jump { dirs, .. } | Op::Ride { dirs, .. } => dirs.relative,
            _ => false,
        });
        self.with_rules(|rules| f(&Game { rules: *rules, endings: &endings, pass: self.pass, advance, eval: &[] }))
    }

    /// Which ending decides `s`: the first whose conditions all hold, as the rule core reads
    /// them.
    pub fn ending(&self, s: &State) -> Option<usize> {
        let endings: Vec<Ending> =
            self.core_endings.iter().map(|(conditions, result)| Ending { conditions, result: *result }).collect();
        let mut cells = Cells::of(s);
        let mut pos = Judged { board: cells.board(), to_move: s.to_move };
        self.with_rules(|rules| rules.ending(&endings, &mut pos))
    }

    /// The outcome if `s` is over.
    pub fn outcome(&self, s: &State) -> Option<Outcome> {
        let e = self.ending(s)?;
        Some(self.result(s, self.endings[e].result))
    }

    /// What a result means in `s`: who wins, or a draw.
    pub fn result(&self, s: &State, r: EndResult) -> Outcome {
        let mut cells = Cells::of(s);
        let pos = Judged { board: cells.board(), to_move: s.to_move };
        match self.with_rules(|rules| rules.outcome(result(r), &pos)) {
            ending::Outcome::Win(p) => Outcome::Win(p),
            ending::Outcome::Draw => Outcome::Draw,
        }
    }

    /// Whether condition `c` holds in `s` (a `where` clause's, or an ending's).
    pub(super) fn holds(&self, s: &State, c: &gamec_dsl::Condition) -> bool {
        let mut cells = Cells::of(s);
        let mut pos = Judged { board: cells.board(), to_move: s.to_move };
        self.with_rules(|rules| rules.condition(&condition(c), &mut pos))
    }

    /// Every move `player` could make in `s`, with the cells each leaves and whether `player`
    /// then moves again.
    pub(super) fn core_moves(&self, s: &State, player: u8) -> Vec<(Move, Vec<u8>, bool)> {
        let mut cells = Cells::of(s);
        let mut paths = Vec::new();
        self.with_rules(|rules| {
            rules.moves(&mut cells.board(), player, |path, after| paths.push((*path, after.to_vec())));
            // Whether a move keeps the turn is known to its making, not to the listing.
            paths
                .into_iter()
                .map(|(path, after)| {
                    let again = self.again && {
                        let made = rules.play(&mut cells.board(), player, &path);
                        made.inspect(|c| c.undo(&mut cells.cells)).is_some_and(|c| c.again)
                    };
                    (self.move_of(&path), after, again)
                })
                .collect()
        })
    }

    /// The cells `m`, made by `player`, leaves in `s`, and whether `player` then moves again;
    /// `None` if no action makes it.
    pub(super) fn core_play(&self, s: &State, m: Move, player: u8) -> Option<(Vec<u8>, bool)> {
        let mut cells = Cells::of(s);
        self.with_rules(|rules| {
            let made = self.paths_of(m).into_iter().find_map(|path| rules.play(&mut cells.board(), player, &path));
            made.map(|c| (cells.cells, c.again))
        })
    }

    /// The rule core's path for `m` in `s` (a slide or a take names no action: the first
    /// action that makes it).
    pub fn core_path(&self, s: &State, m: Move) -> Option<Path> {
        let mut cells = Cells::of(s);
        self.with_rules(|rules| {
            self.paths_of(m).into_iter().find(|path| {
                let made = rules.play(&mut cells.board(), s.to_move, path);
                if let Some(c) = made {
                    c.undo(&mut cells.cells);
                }
                made.is_some()
            })
        })
    }

    /// A core path as the engine names the move: the forms that existed before the core keep
    /// their compact names.
    fn move_of(&self, path: &Path) -> Move {
        let cells = path.cells();
        match self.moves[path.action as usize] {
            MoveKind::Slide { .. } => Move::Slide { from: cells[0], to: cells[1] },
            MoveKind::Remove { .. } => Move::Take { heap: cells[0], count: cells[1] },
            MoveKind::Place { .. } | MoveKind::Drop | MoveKind::Cycle { .. } | MoveKind::Sow(_) => {
                Move::Put { action: path.action, cell: cells[0] }
            }
            MoveKind::Travel(_) | MoveKind::RemoveRun { .. } => Move::Path(*path),
        }
    }

    /// The core paths that could be `m`: a slide or a take names no action, so each action
    /// of its form is a candidate.
    fn paths_of(&self, m: Move) -> Vec<Path> {
        let of_form = |slide: bool| {
            self.moves.iter().enumerate().filter(move |(_, k)| match k {
                MoveKind::Slide { .. } => slide,
                MoveKind::Remove { .. } => !slide,
                _ => false,
            })
        };
        match m {
            Move::Put { action, cell } => vec![Path::new(action, &[cell])],
            Move::Slide { from, to } => of_form(true).map(|(a, _)| Path::new(a as u8, &[from, to])).collect(),
            Move::Take { heap, count } => of_form(false).map(|(a, _)| Path::new(a as u8, &[heap, count])).collect(),
            Move::Path(p) => vec![p],
            Move::Pass => Vec::new(),
        }
    }
}
