//! The rule core's jumping mechanics as test data, played through [`Placement`] as the
//! session plays it: moves found and named by their cells, captures before steps, chains, the
//! search's moves. Games themselves live in `games/*.game`; this is the data the compiler
//! would render for one, written out so that the runtime's tests need no compiler.

extern crate std;

use super::*;
use crate::rules::ending::{Condition, Ending, Judged, Who};
use crate::rules::{Action, Dirs, Emit, Geometry, Holds, Kinds, Op, Program, Region, Rules, Walk};
use core::marker::PhantomData;

const STEP: [Op; 4] = [
    Op::Pick { what: Holds::Mine(Kinds::ALL), free: false },
    Op::Step { dirs: Dirs::relative(Dirs::NE | Dirs::NW), to: Holds::Empty },
    Op::Carry,
    Op::Promote { kind: 1, region: Region::FarRow },
];
const JUMP: [Op; 5] = [
    Op::Pick { what: Holds::Mine(Kinds::ALL), free: false },
    Op::Jump {
        dirs: Dirs::relative(Dirs::NE | Dirs::NW),
        over: Holds::Theirs(Kinds::ALL),
        to: Holds::Empty,
        capture: true,
    },
    Op::Carry,
    Op::Promote { kind: 1, region: Region::FarRow },
    Op::Chain { to: 1 },
];

/// Men on 6 x 6 that step diagonally forward onto an empty cell or jump an enemy man, taking
/// it; a jump must be taken while one can, jumps chain, and a man reaching the far row is
/// crowned (and keeps to forward). Player 0 moves first from rows 1 and 2; a player without a
/// move loses.
pub(crate) static JUMPS: Game<'static, JumpsOps> = Game {
    rules: Rules {
        geometry: Geometry { cols: 6, rows: 6, stride: 8, cut: &[] },
        actions: &[
            Action { ops: &STEP, must: false, conditions: &[] },
            Action { ops: &JUMP, must: true, conditions: &[] },
        ],
        regions: &[],
        per_player: true,
        heaps: false,
        pits: None,
        players: 2,
        program: PhantomData,
    },
    endings: &[Ending { conditions: &[Condition::NoMoves], result: EndResult::Wins(Who::Mover) }],
    pass: false,
    advance: true,
    eval: &[],
};

/// The ops and the condition these rules use and no others, as the compiler writes them for a
/// chip's firmware.
pub(crate) struct JumpsOps;

impl Program for JumpsOps {
    type Log = crate::rules::AnyLog;

    fn play_op(w: &mut Walk<'_, '_, Self>, op: Op, action: &Action, pc: usize, emit: Emit) {
        match op {
            Op::Pick { what, free } => w.pick(what, free, action, pc, emit),
            Op::Step { dirs, to } => w.step(dirs, to, action, pc, emit),
            Op::Jump { dirs, over, to, capture } => w.jump(dirs, over, to, capture, action, pc, emit),
            Op::Carry => w.carry(action, pc, emit),
            Op::Promote { kind, region } => w.promote(kind, region, action, pc, emit),
            Op::Chain { to } => w.chain(to, action, pc, emit),
            _ => unreachable!("these rules have no {op:?}"),
        }
    }

    fn judge(r: &Rules<'_, Self>, c: &Condition, pos: &mut Judged) -> bool {
        match *c {
            Condition::NoMoves => r.no_moves(pos),
            _ => unreachable!("these rules judge no {c:?}"),
        }
    }
}

pub(crate) fn at(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[1] - b'1') * 8 + (b[0] - b'A')
}

const fn start() -> [u8; 48] {
    let mut cells = [0u8; 48];
    let (mut r, mut c) = (0, 0);
    while r < 6 {
        while c < 6 {
            if (r + c) % 2 == 0 && r < 2 {
                cells[r * 8 + c] = content::piece(0, 0);
            }
            if (r + c) % 2 == 0 && r >= 4 {
                cells[r * 8 + c] = content::piece(0, 1);
            }
            c += 1;
        }
        c = 0;
        r += 1;
    }
    cells
}

pub(crate) struct Jumps;

impl CoreGame for Jumps {
    type Cells = [u8; 48];
    type Program = JumpsOps;
    const GAME: &'static Game<'static, JumpsOps> = &JUMPS;
    const STARTS: &'static [[u8; 48]] = &[start()];
    const CLEARED: [u8; 48] = [0; 48];
    const FIRST: u8 = 0;
    const STRIDE: u8 = 8;
    const STRATEGY: Strategy = Strategy::Search;
    type Key = [u8; 0];
    const KEY: [u8; 0] = [];
}

fn started() -> Played<[u8; 48]> {
    let mut pos = <Jumps as Placement>::CLEARED;
    Jumps::start(&mut pos);
    pos
}

#[test]
fn a_move_is_found_by_the_cells_it_names_and_named_back() {
    let pos = started();
    let m = Jumps::find(&pos, &[at("B2"), at("C3")]).expect("B2-C3 is a first move");
    let mut named = [0u8; 4];
    assert_eq!(Jumps::name(&pos, m, &mut named), 2);
    assert_eq!(named[..2], [at("B2"), at("C3")]);
    // Sideways, two rows on, onto a piece, or a cell alone: no move.
    for cells in [&[at("B2"), at("C2")][..], &[at("B2"), at("D4")], &[at("A1"), at("B2")], &[at("B2")]] {
        assert_eq!(Jumps::find(&pos, cells), None, "{cells:?}");
    }
    let mut after = pos;
    Jumps::play(&mut after, m);
    assert_eq!((after.cells[at("B2") as usize], after.cells[at("C3") as usize]), (0, content::piece(0, 0)));
    assert_eq!(after.to_move, 1);
    assert_eq!(Jumps::holder(&after, at("C3")), crate::session::HELD_BY_OTHER);
    assert_eq!(Jumps::count(&after, false), 6);
}

/// The first player's men on `white` and the second's on `black`, the first to move.
fn men(white: &[&str], black: &[&str]) -> Played<[u8; 48]> {
    let mut pos = Played { cells: [0u8; 48], to_move: 0, passed: false, start: 0 };
    for (player, cells) in [(0, white), (1, black)] {
        for c in cells {
            pos.cells[at(c) as usize] = content::piece(0, player);
        }
    }
    pos
}

#[test]
fn a_capture_is_the_only_move_and_a_chain_is_named_by_every_landing() {
    let mut pos = men(&["A1", "E1"], &["B2", "B4"]);
    assert_eq!(Jumps::find(&pos, &[at("E1"), at("F2")]), None, "a step while a capture is there");
    assert_eq!(Jumps::find(&pos, &[at("A1"), at("C3")]), None, "a chain stopped short");
    let m = Jumps::find(&pos, &[at("A1"), at("C3"), at("A5")]).expect("the double jump");
    let mut named = [0u8; 4];
    assert_eq!(Jumps::name(&pos, m, &mut named), 3);
    assert_eq!(named[..3], [at("A1"), at("C3"), at("A5")]);
    Jumps::play(&mut pos, m);
    assert_eq!(Jumps::count(&pos, true), 0, "both men taken");
    // White has no piece, so no move: black, who just moved, wins.
    assert_eq!(Jumps::over(&pos), Some(Verdict::Loss));
}

#[test]
fn cells_entered_one_at_a_time_tell_a_whole_move_from_the_start_of_a_longer_one() {
    let pos = men(&["A1"], &["B2", "B4"]);
    let entered = |cells: &[&str]| Jumps::entered(&pos, &cells.iter().map(|c| at(c)).collect::<std::vec::Vec<_>>());
    let longer = Entered { exact: None, longer: true };
    assert_eq!(entered(&["A1"]), longer, "the man that must take");
    assert_eq!(entered(&["A1", "C3"]), longer, "the chain goes on");
    assert_eq!(entered(&["A1", "C3", "A5"]), Entered { exact: Some(0), longer: false });
    assert_eq!(entered(&["A1", "B2"]), Entered::default(), "onto the man it takes");
    assert_eq!(entered(&["B2"]), Entered::default(), "the other side's man");
}

#[test]
fn the_search_takes_a_free_man_and_its_moves_are_the_core_s() {
    let pos = started();
    let mut out = [0u8; 16];
    assert_eq!(Searched::<Jumps>::moves(&pos, &mut out), 5, "B2-A3, B2-C3, D2-C3, D2-E3, F2-E3");
    // A man of the second player's left where the first can take it, and not be taken back.
    let mut pos = Played { cells: [0u8; 48], to_move: 0, passed: false, start: 0 };
    pos.cells[at("C1") as usize] = content::piece(0, 0);
    pos.cells[at("A3") as usize] = content::piece(0, 0);
    pos.cells[at("B4") as usize] = content::piece(0, 1);
    pos.cells[at("F6") as usize] = content::piece(0, 1);
    let mut stop = || false;
    let mut budget = Budget::new(100_000, &mut stop);
    let mut searched = pos;
    let choice = Jumps::search::<16>(&mut searched, 1, 4, true, &mut budget).expect("a move");
    assert_eq!(searched, pos, "the search leaves the position as it was");
    let mut named = [0u8; 4];
    Jumps::name(&pos, choice.best, &mut named);
    assert_eq!(&named[..2], &[at("A3"), at("C5")]);
}

#[test]
fn the_walk_nests_no_deeper_than_it_states() {
    use crate::rules::play::nesting;
    use crate::rules::{run_nesting, Board};
    let bound = run_nesting(JUMPS.rules.actions).expect("the actions list no moves in a condition");
    nesting::reset();
    // Random games, every move listed and then made by its path (a chain looks ahead there).
    let mut rng = Rng::new(7);
    for _ in 0..200 {
        let mut pos = started();
        while Jumps::over(&pos).is_none() {
            let m = Jumps::random(&pos, &mut rng).expect("a move while the game is on");
            let (path, after) = nth::<Jumps>(&pos, m).expect("the move listed");
            let mut cells = pos.cells;
            JUMPS.rules.play(&mut Board::new(&mut cells), pos.to_move, &path).expect("made by its path");
            assert_eq!(cells, after);
            Jumps::play(&mut pos, m);
        }
    }
    // A long chain: one man takes five, in every order the men allow.
    let mut pos = Played { cells: [0u8; 48], to_move: 0, passed: false, start: 0 };
    pos.cells[at("A1") as usize] = content::piece(0, 0);
    for c in ["B2", "B4", "D4", "D2", "F4"] {
        pos.cells[at(c) as usize] = content::piece(0, 1);
    }
    let (path, _) = nth::<Jumps>(&pos, 0).expect("a capture");
    let mut cells = pos.cells;
    JUMPS.rules.play(&mut Board::new(&mut cells), 0, &path).expect("made by its path");
    let most = nesting::most();
    assert!(most <= bound, "{most} calls of the walk at once, past the stated {bound}");
    assert!(most > JUMP.len() as u32 + 2, "the chains were walked ({most} at most)");
}

const PUT: [Op; 2] = [Op::Pick { what: Holds::Empty, free: false }, Op::Put { kind: 0 }];

/// Stones put on any empty cell of 16 x 16: every byte is a cell, and the start has as many
/// moves as a byte numbers.
static STONES: Game<'static> = Game {
    rules: Rules {
        geometry: Geometry { cols: 16, rows: 16, stride: 16, cut: &[] },
        actions: &[Action { ops: &PUT, must: false, conditions: &[] }],
        regions: &[],
        per_player: true,
        heaps: false,
        pits: None,
        players: 2,
        program: PhantomData,
    },
    endings: &[],
    pass: false,
    advance: false,
    eval: &[],
};

struct Stones;

impl CoreGame for Stones {
    type Cells = [u8; 256];
    type Program = crate::rules::Every;
    const GAME: &'static Game<'static> = &STONES;
    const STARTS: &'static [[u8; 256]] = &[[0; 256]];
    const CLEARED: [u8; 256] = [0; 256];
    const FIRST: u8 = 0;
    const STRIDE: u8 = 16;
    const STRATEGY: Strategy = Strategy::Random;
    type Key = [u8; 0];
    const KEY: [u8; 0] = [];
    const MOVES: u16 = MOVES;
}

#[test]
fn a_sixteen_by_sixteen_grid_numbers_its_last_cell_and_its_last_move() {
    let mut pos = <Stones as Placement>::CLEARED;
    Stones::start(&mut pos);
    let corner = 15 * 16 + 15;
    let m = Stones::find(&pos, &[corner]).expect("P16, cell 255, is a move");
    assert_eq!(m, 255, "the 256th move of the start");
    let mut named = [0u8; 1];
    assert_eq!((Stones::name(&pos, m, &mut named), named[0]), (1, corner));
    let mut list = [0u8; 256];
    assert_eq!(Searched::<Stones>::moves(&pos, &mut list), 256, "the search sees every move");
    // The random device can choose the last move too.
    let mut rng = Rng::new(7);
    assert!((0..4000).any(|_| Stones::random(&pos, &mut rng) == Some(255)));
    Stones::play(&mut pos, m);
    assert_eq!(Stones::holder(&pos, corner), crate::session::HELD_BY_OTHER);
    assert_eq!(Searched::<Stones>::moves(&pos, &mut list), 255);
    assert_eq!(Stones::find(&pos, &[corner]), None, "taken");
}
