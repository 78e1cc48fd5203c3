//! Any game on the rule core as the serial session and the cursor duel play it
//! ([`Placement`]): a position a byte a cell, a move the index of one of the position's legal
//! moves in the core's order, named by the cells it goes through, and the device's search over
//! the same moves.
//!
//! The search keeps a byte a move in its lists and makes a move by generating the position's
//! moves again up to it: a small chip's RAM holds a list of indices where it could not hold a
//! list of paths. A byte numbers [`MOVES`] moves, the placements of a 16 x 16 grid.

use super::ending::{Outcome, Result as EndResult};
use super::game::Game;
use super::solved::{Table, Value};
use super::{content, Board, Path, Program};
use crate::pick::Ranked;
use crate::rng::Rng;
use crate::search::{choose_from, Budget, Choice, Tree, WIN};
use crate::session::{Entered, Placement, Strategy, Verdict, HELD_BY_MOVER, HELD_BY_OTHER};

/// A game on the rule core, as the compiler renders it for a chip.
pub trait CoreGame {
    /// A position's cells: `[u8; CELLS]`.
    type Cells: Copy + AsRef<[u8]> + AsMut<[u8]> + 'static;
    /// What plays the game's ops and conditions.
    type Program: Program;
    const GAME: &'static Game<'static, Self::Program>;
    /// The game's starts (a puzzle may have several), the first the one a session plays: in
    /// program memory on AVR, read a byte at a time.
    const STARTS: &'static [Self::Cells];
    /// All zero: a position held before the first game.
    const CLEARED: Self::Cells;
    const FIRST: u8;
    /// Cell numbers a row apart (the geometry's stride).
    const STRIDE: u8;
    const STRATEGY: Strategy;
    /// The solved game, for [`Strategy::Solved`].
    const SOLVED: Option<&'static Table<'static>> = None;
    /// A position's key in the solved table, all zero: `[u8; N]`, N its layout's length (0
    /// without a table), so that a key takes no more of the stack than the game needs.
    type Key: Copy + AsRef<[u8]> + AsMut<[u8]>;
    const KEY: Self::Key;
    /// Whether each game starts from one of [`CoreGame::STARTS`] at random (a random setup's
    /// deals), rather than from the one chosen.
    const RANDOM_START: bool = false;
    /// Whether a move's path may name a cell twice running (a ride that may go nowhere), which
    /// a move's written form names once.
    const REPEATS: bool = false;
    /// Per start, the cells it gave, a bit each (as [`super::game::Position::given`]): what a
    /// `free` pick passes by. None for a game without one.
    const GIVENS: &'static [&'static [u8]] = &[];
    /// The most moves a position of the game has that the firmware numbers: [`MOVES`] where
    /// the compiler's bound on them passes a byte's count, else one fewer, so that a game of
    /// fewer moves counts them in a byte.
    const MOVES: u16 = MOVES - 1;
    /// Whether a move can leave its mover to move again (a sowing's last counter in its
    /// store): only such a game makes a move twice to learn whose turn follows.
    const AGAIN: bool = false;
}

/// A position: its cells, whose turn it is, whether the last turn was a pass, and the start
/// it came from where that start gave cells (whose given cells a `free` pick passes by; 0
/// otherwise, so that a random setup's deals may number past a byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played<C> {
    pub cells: C,
    pub to_move: u8,
    pub passed: bool,
    pub start: u8,
}

/// The cells start `start` gave (none for a game without a `free` pick).
fn givens<G: CoreGame>(start: u8) -> &'static [u8] {
    G::GIVENS.get(start as usize).copied().unwrap_or(&[])
}

/// The board of `cells`, played from start `start`.
fn board<G: CoreGame>(cells: &mut [u8], start: u8) -> Board<'_> {
    Board { cells, given: givens::<G>(start) }
}

/// The most moves of a position that the firmware numbers: a move is a byte. Moves past
/// them are never counted, found or chosen (the compiler sizes the game's move lists to its
/// own bound, up to these). The walks number moves in a byte that wraps, each taking the
/// first move it matches, so that moves past these never stand for one of them.
pub const MOVES: u16 = 256;

/// The `k`th legal move of the side to move, with the cells it leaves; `None` past the last.
fn nth<G: CoreGame>(pos: &Played<G::Cells>, k: u8) -> Option<(Path, G::Cells)> {
    let mut scratch = pos.cells;
    let mut found = None;
    let mut i = 0u8;
    G::GAME.rules.moves(&mut board::<G>(scratch.as_mut(), pos.start), pos.to_move, |path, board| {
        if found.is_none() && i == k {
            let mut after = pos.cells;
            after.as_mut().copy_from_slice(board);
            found = Some((*path, after));
        }
        i = i.wrapping_add(1);
    });
    found
}

/// The index (as [`Placement::play`] takes it) of the `k`th legal move (from 0) of the side to
/// move that is a move of `action` starting on `from`, in the core's order: a press at a time
/// on a piece's button steps through them.
pub fn move_from<G: CoreGame>(pos: &Played<G::Cells>, action: u8, from: u8, k: u8) -> Option<u8> {
    let mut scratch = pos.cells;
    let (mut i, mut seen, mut found) = (0u8, 0u8, None);
    G::GAME.rules.moves(&mut board::<G>(scratch.as_mut(), pos.start), pos.to_move, |path, _| {
        if found.is_none() && path.action == action && path.cells().first() == Some(&from) {
            if seen == k {
                found = Some(i);
            }
            seen = seen.wrapping_add(1);
        }
        i = i.wrapping_add(1);
    });
    found
}

/// Whose turn it is once the side to move in `pos` has made `path`: the other side's, unless
/// the move keeps the turn. A constant test first, so that a game whose moves never keep it
/// makes no move twice and links none of it.
fn next_after<G: CoreGame>(pos: &Played<G::Cells>, path: &Path) -> u8 {
    if G::AGAIN && keeps_turn::<G>(pos, path) {
        pos.to_move
    } else {
        next_player::<G>(pos.to_move)
    }
}

/// Whether `path` keeps the turn, learnt by making it on a copy. Out of line, so that its
/// copy of the cells is on the stack only while it runs.
#[inline(never)]
fn keeps_turn<G: CoreGame>(pos: &Played<G::Cells>, path: &Path) -> bool {
    let mut scratch = pos.cells;
    let board = &mut board::<G>(scratch.as_mut(), pos.start);
    G::GAME.rules.play(board, pos.to_move, path).is_some_and(|c| c.again)
}

/// A path's cells as a move is written: a cell named twice running, once (a heap and a count
/// are no cells, and are written as they are). A constant test first, so that a game whose
/// paths never repeat a cell links none of it.
fn written<G: CoreGame>(path: &[u8]) -> impl Iterator<Item = u8> + '_ {
    let keep = |i: usize, c: u8| !G::REPEATS || i == 0 || path[i - 1] != c;
    path.iter().enumerate().filter(move |&(i, &c)| keep(i, c)).map(|(_, &c)| c)
}

/// How many legal moves the side to move has, up to [`MOVES`].
fn count_moves<G: CoreGame>(pos: &Played<G::Cells>) -> u16 {
    let mut scratch = pos.cells;
    G::GAME.rules.moves(&mut board::<G>(scratch.as_mut(), pos.start), pos.to_move, |_, _| {}).min(G::MOVES as usize)
        as u16
}

fn next_player<G: CoreGame>(p: u8) -> u8 {
    (p + 1) % G::GAME.rules.players
}

/// The first of the game's endings that holds, if one does.
fn ended<G: CoreGame>(pos: &Played<G::Cells>) -> Option<Outcome> {
    let mut cells = pos.cells;
    G::GAME.over(cells.as_mut(), givens::<G>(pos.start), pos.to_move)
}

/// How the game stands: the first ending that holds, or a stop where nobody can move on.
fn outcome<G: CoreGame>(pos: &Played<G::Cells>) -> Option<Outcome> {
    if let Some(o) = ended::<G>(pos) {
        return Some(o);
    }
    // No ending holds, yet the side to move has no move and may not pass: the game stops drawn,
    // as the engine reads it.
    let stuck = count_moves::<G>(pos) == 0 && (!G::GAME.pass || pos.passed);
    stuck.then_some(Outcome::Draw)
}

fn verdict(o: Outcome, to_move: u8) -> Verdict {
    match o {
        Outcome::Win(p) if p == to_move => Verdict::Win,
        Outcome::Win(_) => Verdict::Loss,
        Outcome::Draw => Verdict::Draw,
    }
}

impl<G: CoreGame> Placement for G {
    type Pos = Played<G::Cells>;
    const STRATEGY: Strategy = G::STRATEGY;
    const CLEARED: Self::Pos = Played { cells: G::CLEARED, to_move: 0, passed: false, start: 0 };
    const FIRST: u8 = G::FIRST;
    const STRIDE: u8 = G::STRIDE;
    const RANDOM_START: bool = G::RANDOM_START;

    fn start(pos: &mut Self::Pos) {
        Self::start_at(pos, 0);
    }

    fn starts() -> u16 {
        G::STARTS.len() as u16
    }

    fn start_at(pos: &mut Self::Pos, k: u16) {
        let k = k % G::STARTS.len() as u16;
        // The start's address, not its bytes: those are in program memory.
        let start = G::STARTS[k as usize].as_ref().as_ptr();
        // Only a game of given cells (a puzzle's few setups) keeps which start it is.
        let givens = if G::GIVENS.is_empty() { 0 } else { k as u8 };
        *pos = Played { cells: G::CLEARED, to_move: G::FIRST, passed: false, start: givens };
        for (i, cell) in pos.cells.as_mut().iter_mut().enumerate() {
            // SAFETY: `start` is a start of `Cells` bytes in the generated program-memory table.
            *cell = unsafe { crate::progmem::byte(start.add(i)) };
        }
    }

    fn content(pos: &Self::Pos, cell: u8) -> Option<u8> {
        pos.cells.as_ref().get(cell as usize).copied()
    }

    fn legal_at(pos: &Self::Pos, cell: u8) -> bool {
        Self::find(pos, &[cell]).is_some()
    }

    fn can_move(pos: &Self::Pos) -> bool {
        count_moves::<G>(pos) > 0
    }

    fn holder(pos: &Self::Pos, cell: u8) -> u8 {
        match content::kind_and_owner(pos.cells.as_ref()[cell as usize]) {
            Some((_, owner)) if owner == pos.to_move => HELD_BY_MOVER,
            Some(_) => HELD_BY_OTHER,
            None => 0,
        }
    }

    fn kind(pos: &Self::Pos, cell: u8) -> u8 {
        content::kind_and_owner(pos.cells.as_ref()[cell as usize]).map_or(0, |(k, _)| k)
    }

    fn count(pos: &Self::Pos, mover: bool) -> u8 {
        let who = if mover { pos.to_move } else { next_player::<G>(pos.to_move) };
        if G::GAME.rules.pits.is_some() {
            // A side's counters, store and pits: a row of the board.
            let side = pos.cells.as_ref().chunks(G::STRIDE as usize).nth(who as usize).unwrap_or(&[]);
            return side.iter().fold(0u8, |n, &c| n.wrapping_add(c));
        }
        let owned = |c: &u8| content::kind_and_owner(*c).is_some_and(|(_, o)| o == who);
        pos.cells.as_ref().iter().filter(|c| owned(c)).count() as u8
    }

    fn play(pos: &mut Self::Pos, m: u8) {
        if let Some((path, after)) = nth::<G>(pos, m) {
            *pos = Played { cells: after, to_move: next_after::<G>(pos, &path), passed: false, ..*pos };
        }
    }

    fn pass(pos: &mut Self::Pos) {
        pos.to_move = next_player::<G>(pos.to_move);
        pos.passed = true;
    }

    const AGAIN: bool = G::AGAIN;
    fn mover(pos: &Self::Pos) -> u8 {
        pos.to_move
    }

    fn over(pos: &Self::Pos) -> Option<Verdict> {
        outcome::<G>(pos).map(|o| verdict(o, pos.to_move))
    }

    fn stopped(pos: &Self::Pos) -> Verdict {
        // Scored as it stands: by the game's count of pieces where it has one, else drawn.
        let most = G::GAME.endings.iter().find(|e| matches!(e.result, EndResult::Most { .. }));
        let Some(e) = most else { return Verdict::Draw };
        let mut cells = pos.cells;
        let judged = super::ending::Judged { board: board::<G>(cells.as_mut(), pos.start), to_move: pos.to_move };
        verdict(G::GAME.rules.outcome(e.result, &judged), pos.to_move)
    }

    fn solved(pos: &Self::Pos, rng: &mut Rng) -> Option<u8> {
        best_by_table::<G>(pos, G::SOLVED?, rng)
    }

    fn search<const N: usize>(
        pos: &mut Self::Pos,
        first: u8,
        max: u8,
        order: bool,
        budget: &mut Budget,
    ) -> Option<Choice<u8>> {
        choose_from::<Searched<G>, N>(pos, first, max, order, budget)
    }

    fn find(pos: &Self::Pos, cells: &[u8]) -> Option<u8> {
        if !G::REPEATS {
            return Self::entered(pos, cells).exact;
        }
        // A move as it is written: a cell its path names twice running (a run of one pin,
        // picked and ridden no farther) is written once. (A cursor enters the path itself,
        // that pin pressed twice: `entered`.)
        let mut scratch = pos.cells;
        let (mut found, mut i) = (None, 0u8);
        G::GAME.rules.moves(&mut board::<G>(scratch.as_mut(), pos.start), pos.to_move, |path, _| {
            if found.is_none() && written::<G>(path.cells()).eq(cells.iter().copied()) {
                found = Some(i);
            }
            i = i.wrapping_add(1);
        });
        found
    }

    fn entered(pos: &Self::Pos, cells: &[u8]) -> Entered {
        let mut scratch = pos.cells;
        let (mut e, mut i) = (Entered::default(), 0u8);
        G::GAME.rules.moves(&mut board::<G>(scratch.as_mut(), pos.start), pos.to_move, |path, _| {
            let named = path.cells();
            if named == cells {
                e.exact = e.exact.or(Some(i));
            } else if named.starts_with(cells) {
                e.longer = true;
            }
            i = i.wrapping_add(1);
        });
        e
    }

    fn name(pos: &Self::Pos, m: u8, out: &mut [u8]) -> u8 {
        let Some((path, _)) = nth::<G>(pos, m) else { return 0 };
        let mut n = 0;
        for (o, c) in out.iter_mut().zip(written::<G>(path.cells())) {
            (*o, n) = (c, n + 1);
        }
        n
    }

    fn random(pos: &Self::Pos, rng: &mut Rng) -> Option<u8> {
        // A byte's draw for a byte's count; only a position of all [`MOVES`] draws wider.
        match count_moves::<G>(pos) {
            0 => None,
            n if G::MOVES < MOVES => Some(rng.below(n as u8)),
            n => Some(rng.below_wide(n) as u8),
        }
    }
}

/// The best legal move by the solved table: one that wins at once, else one that leaves the
/// opponent lost, else one that draws, else any; among equals at random or the first, as the
/// table says. The compiler's engine chooses the same way (`Engine::best_plies`). Where
/// positions can repeat, the table keeps each lost position's distance from its end (and,
/// where a move can keep the turn, each won one's), and the device moves to the nearest end,
/// so that it cannot go round a cycle.
fn best_by_table<G: CoreGame>(pos: &Played<G::Cells>, table: &Table, rng: &mut Rng) -> Option<u8> {
    let geometry = G::GAME.rules.geometry;
    let mut best = Ranked::<u8, u16>::new(table.ties_random);
    // A walk a move, each run to its end before the ending is read: a walk inside a walk's
    // callback would nest the walk's frames on a small chip's stack.
    for m in (0..count_moves::<G>(pos)).map(|m| m as u8) {
        let Some((path, cells)) = nth::<G>(pos, m) else { break };
        let child = Played { cells, to_move: next_after::<G>(pos, &path), passed: false, start: pos.start };
        // The value is the next mover's: the opponent's, or ours again.
        let ours = child.to_move == pos.to_move;
        // A win at once first, then a move leaving the opponent lost, nearest its end first
        // (where positions can repeat, so that the device cannot go round a cycle), then a
        // draw.
        let rank = match ended::<G>(&child) {
            Some(Outcome::Win(p)) if p == pos.to_move => u16::MAX,
            _ => match (table.value(key::<G>(table, &geometry, &child).as_ref()), ours) {
                (Value::Lost(plies), false) => u16::MAX - 1 - plies.min(u16::MAX - 3),
                (Value::Won(plies), true) => u16::MAX - 1 - plies.min(u16::MAX - 3),
                (Value::Drawn, _) => 2,
                _ => 1,
            },
        };
        best.offer(rank, m, rng);
    }
    best.chosen()
}

/// The key of `pos` in `table`.
fn key<G: CoreGame>(table: &Table, geometry: &super::Geometry, pos: &Played<G::Cells>) -> G::Key {
    let mut key = G::KEY;
    table.layout.key(geometry, pos.cells.as_ref(), pos.to_move, false, key.as_mut());
    key
}

/// The device's search over a core game's moves, a byte each.
pub struct Searched<G>(core::marker::PhantomData<G>);

impl<G: CoreGame> Tree for Searched<G> {
    type Pos = Played<G::Cells>;
    type Move = u8;

    fn moves(pos: &Self::Pos, out: &mut [u8]) -> usize {
        // A finished game has no moves; a stuck one has none anyway.
        if ended::<G>(pos).is_some() {
            return 0;
        }
        // The compiler sizes `out` from the game's own bound on moves.
        let n = (count_moves::<G>(pos) as usize).min(out.len());
        for (i, m) in out[..n].iter_mut().enumerate() {
            *m = i as u8;
        }
        n
    }

    fn play(pos: &Self::Pos, m: u8) -> Self::Pos {
        let mut after = *pos;
        <G as Placement>::play(&mut after, m);
        after
    }

    fn pass(pos: &Self::Pos) -> Option<Self::Pos> {
        if !G::GAME.pass || pos.passed || outcome::<G>(pos).is_some() {
            return None;
        }
        Some(Played { to_move: next_player::<G>(pos.to_move), passed: true, ..*pos })
    }

    const AGAIN: bool = G::AGAIN;
    fn mover(pos: &Self::Pos) -> u8 {
        pos.to_move
    }

    fn eval(pos: &Self::Pos) -> i16 {
        let mut cells = pos.cells;
        G::GAME.score(cells.as_mut(), pos.to_move)
    }

    fn outcome(pos: &Self::Pos) -> i16 {
        match outcome::<G>(pos) {
            Some(Outcome::Win(p)) if p == pos.to_move => WIN,
            Some(Outcome::Win(_)) => -WIN,
            _ => 0,
        }
    }

    fn leaf(pos: &Self::Pos) -> i16 {
        match outcome::<G>(pos) {
            Some(_) => Self::outcome(pos),
            None => Self::eval(pos),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
