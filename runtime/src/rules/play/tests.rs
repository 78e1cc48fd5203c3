//! The rule core on small boards written out by hand: what each op chooses and changes.

extern crate std;
use std::vec::Vec;

use super::super::{Action, Dirs, Geometry, Holds, Kinds, Op, Order, Region};
use super::*;
use core::marker::PhantomData;

const SQUARE8: Geometry = Geometry { cols: 8, rows: 8, stride: 8, cut: &[] };

fn rules<'a>(geometry: Geometry<'a>, actions: &'a [Action<'a>], per_player: bool) -> Rules<'a> {
    Rules { geometry, actions, regions: &[], per_player, heaps: false, pits: None, players: 2, program: PhantomData }
}

/// Every move's path and the board it leaves, checking that making the move by its path
/// gives the same board and undoing it gives the board back.
fn moves(r: &Rules, board: &mut [u8], mover: u8) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    let before = board.to_vec();
    r.moves(&mut Board::new(board), mover, |p, b| out.push((p.cells().to_vec(), b.to_vec())));
    assert_eq!(board, &before[..], "listing the moves left the board changed");
    for (cells, after) in &out {
        let path = out_path(r, board, mover, cells);
        let changes = r
            .play(&mut Board::new(board), mover, &path)
            .unwrap_or_else(|| panic!("{cells:?} is listed but cannot be made"));
        assert_eq!(board, &after[..]);
        assert!(changes.len as usize <= r.most_changes(), "{cells:?} changed more cells than the bound");
        changes.undo(board);
        assert_eq!(board, &before[..]);
    }
    out
}

fn out_path(r: &Rules, board: &mut [u8], mover: u8, cells: &[u8]) -> Path {
    let mut found = None;
    r.moves(&mut Board::new(board), mover, |p, _| {
        if p.cells() == cells {
            found = Some(*p);
        }
    });
    found.unwrap()
}

fn cell(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[1] - b'1') * 8 + (b[0] - b'A')
}

const MAN: u8 = 1; // player 0's man
const THEIR_MAN: u8 = 2;

#[test]
fn a_placement_capturing_flanked_lines_turns_them_over_and_needs_one() {
    let ops = [
        Op::Pick { what: Holds::Empty, free: false },
        Op::Put { kind: 0 },
        Op::Flank { dirs: Dirs::absolute(Dirs::ALL), required: true },
    ];
    let actions = [Action { ops: &ops, must: false, conditions: &[] }];
    let r = rules(SQUARE8, &actions, true);
    let mut board = [0u8; 64];
    board[cell("D4") as usize] = 2;
    board[cell("E5") as usize] = 2;
    board[cell("D5") as usize] = 1;
    board[cell("E4") as usize] = 1;
    let found = moves(&r, &mut board, 0);
    let mut cells: Vec<u8> = found.iter().map(|(p, _)| p[0]).collect();
    cells.sort();
    assert_eq!(cells, [cell("D3"), cell("C4"), cell("F5"), cell("E6")]);
    let (_, after) = found.iter().find(|(p, _)| p[0] == cell("D3")).unwrap();
    assert_eq!((after[cell("D3") as usize], after[cell("D4") as usize]), (1, 1));
}

#[test]
fn a_man_s_jumps_chain_capture_and_are_a_must() {
    // Men step diagonally forward; jumps capture, chain, and must be taken when they can.
    let step = [
        Op::Pick { what: Holds::Mine(Kinds(1)), free: false },
        Op::Step { dirs: Dirs::relative(Dirs::NE | Dirs::NW), to: Holds::Empty },
        Op::Carry,
        Op::Promote { kind: 1, region: Region::FarRow },
    ];
    let jump = [
        Op::Pick { what: Holds::Mine(Kinds(1)), free: false },
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
    let actions =
        [Action { ops: &step, must: false, conditions: &[] }, Action { ops: &jump, must: true, conditions: &[] }];
    let r = rules(SQUARE8, &actions, true);
    let mut board = [0u8; 64];
    board[cell("A1") as usize] = MAN;
    board[cell("C1") as usize] = MAN;
    assert_eq!(moves(&r, &mut board, 0).len(), 3, "A1-B2, C1-B2, C1-D2");
    // The opponent's men on B2, D2 and D4: C1 x A3 is one jump; over D2, and A1 over B2, the
    // jumps go on over D4.
    board[cell("B2") as usize] = THEIR_MAN;
    board[cell("D2") as usize] = THEIR_MAN;
    board[cell("D4") as usize] = THEIR_MAN;
    let found = moves(&r, &mut board, 0);
    let mut paths: Vec<Vec<u8>> = found.iter().map(|(p, _)| p.clone()).collect();
    paths.sort();
    let want = [
        std::vec![cell("A1"), cell("C3"), cell("E5")],
        std::vec![cell("C1"), cell("A3")],
        std::vec![cell("C1"), cell("E3"), cell("C5")],
    ];
    assert_eq!(paths, want, "only captures, chained to the end");
    let (_, after) = found.iter().find(|(p, _)| *p == want[2]).unwrap();
    assert_eq!((after[cell("D2") as usize], after[cell("D4") as usize], after[cell("C5") as usize]), (0, 0, MAN));
    // A stopped chain is not a move.
    let short = Path::new(1, &[cell("C1"), cell("E3")]);
    assert!(r.play(&mut Board::new(&mut board[..]), 0, &short).is_none());
    // The second player's forward is down the board, and a man reaching the far row is crowned.
    let mut board = [0u8; 64];
    board[cell("B2") as usize] = THEIR_MAN;
    let found = moves(&r, &mut board, 1);
    assert_eq!(found.len(), 2);
    assert!(
        found
            .iter()
            .all(|(_, b)| b[cell("A1") as usize] == content::piece(1, 1)
                || b[cell("C1") as usize] == content::piece(1, 1))
    );
}

#[test]
fn a_press_toggles_the_cell_and_its_neighbours_on_the_board() {
    let order = [0u8, 3];
    let ops = [
        Op::Pick { what: Holds::Anything, free: false },
        Op::Cycle { order: Order::new(&order) },
        Op::Around { dirs: Dirs::absolute(Dirs::ORTHOGONAL), order: Order::new(&order) },
    ];
    let actions = [Action { ops: &ops, must: false, conditions: &[] }];
    let g = Geometry { cols: 3, rows: 3, stride: 8, cut: &[] };
    let r = rules(g, &actions, true);
    let mut board = [0u8; 24];
    let found = moves(&r, &mut board, 0);
    assert_eq!(found.len(), 9);
    let (_, corner) = &found[0];
    let lit: Vec<usize> = (0..24).filter(|&i| corner[i] == 3).collect();
    assert_eq!(lit, [0, 1, 8]);
}

#[test]
fn a_drop_rests_on_the_lowest_empty_cell_and_a_slide_keeps_to_empty_cells() {
    let drop =
        [Op::Pick { what: Holds::Empty, free: false }, Op::Rests { dir: Dirs::absolute(Dirs::S) }, Op::Put { kind: 0 }];
    let actions = [Action { ops: &drop, must: false, conditions: &[] }];
    let g = Geometry { cols: 3, rows: 2, stride: 8, cut: &[] };
    let r = rules(g, &actions, true);
    let mut board = [0u8; 16];
    board[0] = 1;
    let cells: Vec<u8> = moves(&r, &mut board, 1).iter().map(|(p, _)| p[0]).collect();
    assert_eq!(cells, [1, 2, 8]);

    let slide = [
        Op::Pick { what: Holds::Occupied, free: false },
        Op::Ride {
            dirs: Dirs::absolute(Dirs::W),
            min: 1,
            max: super::super::FAR,
            over: Holds::Empty,
            to: Holds::Empty,
        },
        Op::Carry,
    ];
    let actions = [Action { ops: &slide, must: false, conditions: &[] }];
    let line = Geometry { cols: 6, rows: 1, stride: 6, cut: &[] };
    let r = rules(line, &actions, false);
    let mut board = [0, 0, 1, 0, 1, 0u8];
    let paths: Vec<Vec<u8>> = moves(&r, &mut board, 0).into_iter().map(|(p, _)| p).collect();
    assert_eq!(paths, [std::vec![2, 1], std::vec![2, 0], std::vec![4, 3]]);
}

#[test]
fn counters_are_taken_from_one_heap() {
    let ops = [Op::Take { min: 1, max: 2 }];
    let actions = [Action { ops: &ops, must: false, conditions: &[] }];
    let heaps = Geometry { cols: 3, rows: 1, stride: 3, cut: &[] };
    let r = rules(heaps, &actions, false);
    let mut board = [3, 0, 1u8];
    let found = moves(&r, &mut board, 0);
    let paths: Vec<Vec<u8>> = found.iter().map(|(p, _)| p.clone()).collect();
    assert_eq!(paths, [std::vec![0, 1], std::vec![0, 2], std::vec![2, 1]]);
    assert_eq!(found[1].1, [1, 0, 1]);
}

#[test]
fn a_capture_by_landing_replaces_the_piece_landed_on_and_a_move_not_in_the_rules_is_refused() {
    let ops = [
        Op::Pick { what: Holds::Mine(Kinds::ALL), free: false },
        Op::Step { dirs: Dirs::relative(Dirs::NE | Dirs::NW), to: Holds::Theirs(Kinds::ALL) },
        Op::Carry,
    ];
    let actions = [Action { ops: &ops, must: false, conditions: &[] }];
    let r = rules(SQUARE8, &actions, true);
    let mut board = [0u8; 64];
    board[cell("B2") as usize] = MAN;
    board[cell("C3") as usize] = THEIR_MAN;
    board[cell("A3") as usize] = MAN;
    let found = moves(&r, &mut board, 0);
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].1[cell("C3") as usize], found[0].1[cell("B2") as usize]), (MAN, 0));
    let before = board;
    assert!(r.play(&mut Board::new(&mut board[..]), 0, &Path::new(0, &[cell("B2"), cell("A3")])).is_none());
    assert!(r.play(&mut Board::new(&mut board[..]), 0, &Path::new(3, &[cell("B2")])).is_none());
    assert_eq!(board, before);
}

#[test]
fn the_bound_on_a_move_s_changes_counts_each_effect_and_every_round_of_a_chain() {
    let flank = [
        Op::Pick { what: Holds::Empty, free: false },
        Op::Put { kind: 0 },
        Op::Flank { dirs: Dirs::absolute(Dirs::ORTHOGONAL), required: true },
    ];
    let step = [
        Op::Pick { what: Holds::Mine(Kinds::ALL), free: false },
        Op::Step { dirs: Dirs::relative(Dirs::N), to: Holds::Empty },
        Op::Carry,
        Op::Promote { kind: 1, region: Region::FarRow },
    ];
    let jump = [
        Op::Pick { what: Holds::Mine(Kinds::ALL), free: false },
        Op::Jump { dirs: Dirs::absolute(Dirs::N), over: Holds::Theirs(Kinds::ALL), to: Holds::Empty, capture: true },
        Op::Carry,
        Op::Chain { to: 1 },
    ];
    fn one(ops: &[Op]) -> [Action<'_>; 1] {
        [Action { ops, must: false, conditions: &[] }]
    }
    let small = Geometry { cols: 5, rows: 4, stride: 5, cut: &[] };
    // A stone, and up to 3 turned over in each of 4 directions on a 5-wide board.
    assert_eq!(rules(small, &one(&flank), true).most_changes(), 1 + 4 * 3);
    // The origin emptied, the landing filled, the piece promoted.
    assert_eq!(rules(small, &one(&step), true).most_changes(), 3);
    // Each round of a chain: the jumped piece and the two cells of the carry.
    assert_eq!(rules(small, &one(&jump), true).most_changes(), 3 + (MAX_PATH - 1) * 3);
    let both = [one(&step)[0], one(&flank)[0]];
    assert_eq!(rules(small, &both, true).most_changes(), 13, "the most of any action");
}

/// A board of six pits a side and a store each: cells 0-5 player 0's pits, 6 their
/// store, 7-12 player 1's pits, 13 their store.
fn pits<'a>(actions: &'a [Action<'a>]) -> Rules<'a> {
    let geometry = Geometry { cols: 7, rows: 2, stride: 7, cut: &[] };
    Rules { pits: Some(super::super::Pits { stores: true }), heaps: true, ..rules(geometry, actions, false) }
}

fn sowing(sow: super::super::Sow) -> [Op; 2] {
    [Op::Pick { what: Holds::Occupied, free: false }, Op::Sow(sow)]
}

const INTO_STORE_AGAIN_OPPOSITE: super::super::Sow =
    super::super::Sow { into_store: true, skip_origin: false, again: true, capture: super::super::Capture::Opposite };

#[test]
fn a_sowing_deals_a_pit_s_counters_one_a_pit_into_the_own_store_and_past_the_other() {
    let ops = sowing(INTO_STORE_AGAIN_OPPOSITE);
    let actions = [Action { ops: &ops, must: false, conditions: &[] }];
    let r = pits(&actions);
    let mut board = [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0];
    let found = moves(&r, &mut board, 0);
    assert_eq!(found.len(), 6, "one move a pit of the mover's side, none from the other side");
    let (_, after) = found.iter().find(|(p, _)| p == &[3]).unwrap();
    assert_eq!(after, &[4, 4, 4, 0, 5, 5, 1, 5, 4, 4, 4, 4, 4, 0]);
    // Eleven counters from player 1's last pit go round past player 0's store, the last into
    // player 1's empty pit 11 (index 10), which takes it and the one facing it (index 2).
    let mut board = [0, 0, 0, 0, 0, 0, 9, 0, 0, 5, 0, 0, 11, 2];
    let found = moves(&r, &mut board, 1);
    let (_, after) = found.iter().find(|(p, _)| p == &[12]).unwrap();
    assert_eq!(after, &[1, 1, 0, 1, 1, 1, 9, 1, 1, 6, 0, 0, 0, 5]);
}

#[test]
fn a_last_counter_in_the_own_store_moves_again_and_in_an_own_empty_pit_captures_the_facing_pit() {
    let ops = sowing(INTO_STORE_AGAIN_OPPOSITE);
    let actions = [Action { ops: &ops, must: false, conditions: &[] }];
    let r = pits(&actions);
    let mut board = [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0];
    let again = |board: &mut [u8], pit: u8| {
        let path = Path::new(0, &[pit]);
        let c = r.play(&mut Board::new(board), 0, &path).unwrap();
        c.undo(board);
        c.again
    };
    assert!(again(&mut board, 2), "four from the third pit end in the store");
    assert!(!again(&mut board, 1));
    // One counter from pit 1 into the empty pit 2, facing pit 12 (index 11) with 5.
    let mut board = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0];
    let found = moves(&r, &mut board, 0);
    assert_eq!(found, [(std::vec![0], std::vec![0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0])]);
    // Facing an empty pit, nothing is taken.
    let mut board = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(moves(&r, &mut board, 0)[0].1, [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn a_lap_may_pass_its_own_pit_and_a_last_counter_making_two_or_three_takes_back_along_that_side() {
    let back_along = super::super::Sow {
        into_store: false,
        skip_origin: true,
        again: false,
        capture: super::super::Capture::Making { min: 2, max: 3 },
    };
    let ops = sowing(back_along);
    let actions = [Action { ops: &ops, must: false, conditions: &[] }];
    let r = pits(&actions);
    // Pit 6 (index 5) sows three: pits 8, 9, 10 (indices 7-9) go to 2, 3, 2, all taken.
    let mut board = [0, 0, 0, 0, 0, 3, 0, 1, 2, 1, 4, 0, 0, 0];
    let found = moves(&r, &mut board, 0);
    assert_eq!(found, [(std::vec![5], std::vec![0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0, 0])]);
    // Twelve from pit 1 go round both sides, past both stores and their own pit.
    let mut board = [12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let (_, after) = &moves(&r, &mut board, 0)[0];
    assert_eq!(after, &[0, 2, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0]);
}
