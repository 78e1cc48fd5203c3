//! Game-tree search for the device: negamax with alpha-beta pruning and iterative deepening
//! under a node budget, trying the previous iteration's best move first and, where asked, the
//! others in the order of a quick evaluation. It knows games only through [`InPlace`] (make,
//! search, undo), or [`Tree`] (a new position for every move) searched through it.

/// A game as the search sees it, always from the side to move.
pub trait Tree {
    type Pos: Copy;
    type Move: Copy + PartialEq + Default;
    /// Writes the legal moves into `out` and returns how many there are (at most `out.len()`).
    fn moves(pos: &Self::Pos, out: &mut [Self::Move]) -> usize;
    fn play(pos: &Self::Pos, m: Self::Move) -> Self::Pos;
    /// The position after the mover passes, or `None` when the game is over.
    fn pass(pos: &Self::Pos) -> Option<Self::Pos>;
    /// A heuristic score for the mover; larger is better.
    fn eval(pos: &Self::Pos) -> i16;
    /// The score of a finished game for the mover: beyond any `eval` for a win or a loss.
    fn outcome(pos: &Self::Pos) -> i16;

    /// Whether a move can leave its mover to move again; a constant, so that the search of a
    /// game whose moves never do links none of it.
    const AGAIN: bool = false;
    /// The side to move in `pos`, for a game where a move may keep the turn ([`Tree::AGAIN`]).
    fn mover(_pos: &Self::Pos) -> u8 {
        0
    }

    /// The score of a position at the search's horizon: its outcome if the game is over, else
    /// its evaluation. A game whose evaluation already generates moves can answer both from
    /// one generation.
    fn leaf(pos: &Self::Pos) -> i16 {
        let mut one = [Self::Move::default(); 1];
        if Self::moves(pos, &mut one) == 0 && Self::pass(pos).is_none() {
            Self::outcome(pos)
        } else {
            Self::eval(pos)
        }
    }
}

/// Scores at or beyond this are finished games.
pub const WIN: i16 = 16_000;

/// How much searching is allowed, and how much was done.
pub struct Budget<'a> {
    max_nodes: u32,
    /// Asked every 8 nodes: true when the time is up (a move clock, for example). Often, because
    /// a node can take milliseconds on an 8-bit chip.
    out_of_time: &'a mut dyn FnMut() -> bool,
    /// The node at which the budget is next looked at: the next multiple of 8 (the clock's
    /// turn), or `max_nodes` if that comes first.
    next_check: u32,
    /// Nodes to go until then: counting down a byte is all a node costs in between, where
    /// counting and comparing 32-bit words took most of a node's bookkeeping on an 8-bit chip.
    until_check: u8,
    stopped: bool,
}

impl<'a> Budget<'a> {
    pub fn new(max_nodes: u32, out_of_time: &'a mut dyn FnMut() -> bool) -> Self {
        let first = max_nodes.clamp(1, 8);
        Budget { max_nodes, out_of_time, next_check: first, until_check: first as u8, stopped: false }
    }

    /// The nodes searched so far.
    pub fn nodes(&self) -> u32 {
        self.next_check - u32::from(self.until_check)
    }

    /// Counts a node; true once the search must stop (its budget spent, or its time up).
    #[inline(never)]
    fn spend(&mut self) -> bool {
        if self.until_check > 1 {
            self.until_check -= 1;
            return self.stopped;
        }
        self.check()
    }

    /// [`Self::spend`] at a node where the budget is looked at.
    #[inline(never)]
    fn check(&mut self) -> bool {
        let nodes = self.next_check;
        let mut step = 8 - (nodes as u8 & 7);
        if nodes >= self.max_nodes {
            self.stopped = true;
        } else {
            if nodes as u8 & 7 == 0 && (self.out_of_time)() {
                self.stopped = true;
            }
            let left = self.max_nodes - nodes;
            if left < u32::from(step) {
                step = left as u8;
            }
        }
        self.next_check = nodes + u32::from(step);
        self.until_check = step;
        self.stopped
    }

    pub fn stopped(&self) -> bool {
        self.stopped
    }
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice<M> {
    pub best: M,
    pub score: i16,
    /// The deepest iteration that finished.
    pub depth: u8,
}

/// A game as the search sees it when it moves on one position in place: a move is made, the
/// subtree searched, and the move undone. [`Tree`]'s games are searched this way through
/// [`Copied`]; a game whose positions are large beside its moves (a board of a byte a cell on
/// an 8-bit chip) implements it directly and saves copying a position at every node.
pub trait InPlace {
    type Move: Copy + PartialEq + Default;
    /// What it takes to undo a move or a pass.
    type Undo: Copy;
    /// Writes the legal moves into `out` and returns how many there are (at most `out.len()`).
    fn moves(&mut self, out: &mut [Self::Move]) -> usize;
    fn make(&mut self, m: Self::Move) -> Self::Undo;
    /// Passes, when the mover has no move; `None` (nothing changed) when the game is over.
    fn pass(&mut self) -> Option<Self::Undo>;
    fn undo(&mut self, u: Self::Undo);
    /// A heuristic score for the mover; larger is better.
    fn eval(&mut self) -> i16;
    /// The score of a finished game for the mover: beyond any `eval` for a win or a loss.
    fn outcome(&mut self) -> i16;
    /// The score at the search's horizon: the outcome if the game is over, else the evaluation.
    fn leaf(&mut self) -> i16;

    /// Whether a move can leave its mover to move again (a sowing's last counter in its
    /// store): after such a move the search goes on from the same side's view, with the same
    /// window. A constant, so that other games link none of it.
    const AGAIN: bool = false;
    /// The side to move, for a game where a move may keep the turn ([`InPlace::AGAIN`]).
    fn mover(&mut self) -> u8 {
        0
    }

    /// Whether [`Self::next_move`] walks the legal moves.
    const WALKS: bool = false;
    /// The legal move after `after` in the order [`Self::moves`] lists them, the first for
    /// `Move::default()`, and `Move::default()` after the last: for a game that can say so
    /// without listing them ([`Self::WALKS`]). The search walks such a game's moves this way
    /// below the root: no list on the stack (tens of bytes a ply on an 8-bit chip), and no
    /// moves found past a cut-off; they are sorted by evaluation at the root alone.
    fn next_move(&mut self, _after: Self::Move) -> Self::Move {
        unreachable!("a game that does not walk its moves")
    }
}

/// A [`Tree`]'s position searched in place: making a move keeps the position before it as the
/// undo.
pub struct Copied<T: Tree>(pub T::Pos);

impl<T: Tree> InPlace for Copied<T> {
    type Move = T::Move;
    type Undo = T::Pos;
    fn moves(&mut self, out: &mut [T::Move]) -> usize {
        T::moves(&self.0, out)
    }
    #[inline(always)]
    fn make(&mut self, m: T::Move) -> T::Pos {
        let before = self.0;
        self.0 = T::play(&before, m);
        before
    }
    fn pass(&mut self) -> Option<T::Pos> {
        let before = self.0;
        self.0 = T::pass(&before)?;
        Some(before)
    }
    #[inline(always)]
    fn undo(&mut self, u: T::Pos) {
        self.0 = u;
    }
    fn eval(&mut self) -> i16 {
        T::eval(&self.0)
    }
    fn outcome(&mut self) -> i16 {
        T::outcome(&self.0)
    }
    fn leaf(&mut self) -> i16 {
        T::leaf(&self.0)
    }
    const AGAIN: bool = T::AGAIN;
    fn mover(&mut self) -> u8 {
        T::mover(&self.0)
    }
}

/// Searches `pos` to at most `max_depth` plies within the budget; `None` when the mover has
/// no move. `N` is the most moves a position can have; `order` sorts moves by evaluation.
pub fn choose<T: Tree, const N: usize>(
    pos: &T::Pos,
    max_depth: u8,
    order: bool,
    budget: &mut Budget,
) -> Option<Choice<T::Move>> {
    choose_from::<T, N>(pos, 1, max_depth, order, budget)
}

/// [`choose`], deepening from `first_depth` (equal to `max_depth`: one search, no deepening).
pub fn choose_from<T: Tree, const N: usize>(
    pos: &T::Pos,
    first_depth: u8,
    max_depth: u8,
    order: bool,
    budget: &mut Budget,
) -> Option<Choice<T::Move>> {
    choose_in_place::<Copied<T>, N>(&mut Copied(*pos), first_depth, max_depth, order, budget)
}

/// `$m` made, the node below searched to `$depth` and `$m` undone, binding `$score`, the score
/// for the side that made it. A move that keeps the turn is searched from the same side, with
/// the same window. Statements in the caller's block rather than a function or a block
/// expression: either cost each negamax frame 8 bytes on a Cortex-M (checkers' stack bound, 59
/// frames deep, grew by 472 B).
macro_rules! made {
    ($score:ident = $game:ident, $m:expr, $depth:expr, $alpha:expr, $beta:expr, $order:ident, $budget:ident) => {
        let before = if G::AGAIN { $game.mover() } else { 0 };
        let u = $game.make($m);
        // One call below for either side, so that one child's frame is inlined here.
        let same = G::AGAIN && $game.mover() == before;
        let (a, b) = if same { ($alpha, $beta) } else { (-$beta, -$alpha) };
        let below = child::<G, N>($game, $depth, a, b, $order, $budget);
        let $score = if same { below } else { -below };
        $game.undo(u);
    };
}

/// [`choose_from`] for a game searched in place; the position is as it was when it returns.
pub fn choose_in_place<G: InPlace, const N: usize>(
    game: &mut G,
    first_depth: u8,
    max_depth: u8,
    order: bool,
    budget: &mut Budget,
) -> Option<Choice<G::Move>> {
    let mut moves = [G::Move::default(); N];
    let n = game.moves(&mut moves);
    if n == 0 {
        return None;
    }
    let moves = &mut moves[..n];
    if order {
        sort_by_eval::<G, N>(game, moves);
    }
    let mut choice = Choice { best: moves[0], score: -WIN, depth: 0 };
    for depth in first_depth.clamp(1, max_depth.max(1))..=max_depth {
        let mut alpha = -WIN - 1;
        let mut best = moves[0];
        for &m in moves.iter() {
            made!(score = game, m, depth - 1, alpha, WIN + 1, order, budget);
            if budget.stopped() {
                break;
            }
            if score > alpha {
                alpha = score;
                best = m;
            }
        }
        if budget.stopped() {
            break;
        }
        choice = Choice { best, score: alpha, depth };
        // The best move leads the next iteration.
        // (By hand rather than `rotate_right`, which brings in a 650-byte memmove on AVR.)
        let mut i = moves.iter().position(|&m| m == best).unwrap_or(0);
        while i > 0 {
            moves[i] = moves[i - 1];
            i -= 1;
        }
        moves[0] = best;
        if alpha.abs() >= WIN {
            break;
        }
    }
    Some(choice)
}

/// A function of the search and how deep it goes ([`recursion_limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nesting {
    /// The function's path.
    pub function: &'static str,
    /// The most calls of it in progress at once.
    pub most: u32,
    /// Another function's path and the most calls of it in progress whenever this one starts.
    pub under: Option<(&'static str, u32)>,
}

/// How deep the search recurses, for a search of at most `max_depth` plies. `gamec build`
/// trusts this to bound the stack of firmware that searches (the machine code shows the
/// recursion, not that the depth shrinks). [`choose_in_place`] calls [`child`] at depths below
/// `max_depth`, [`negamax`] calls it one ply below its own, passes included, and only a depth
/// above 0 goes on from `child` to `negamax`: so on any chain of calls `child` runs at most
/// once at each depth from `max_depth - 1` down to 0, and `negamax` at each from
/// `max_depth - 1` down to 1, the `k`th at depth `max_depth - k` at most. [`sort_by_eval`]
/// starts from `choose_in_place` or from a `negamax` at depth `SORT_DEPTH` (5) or more, so
/// with at most `max_depth - SORT_DEPTH` of them in progress: the deepest plies never sort,
/// and its keys are never on top of them. Both `negamax` and `child` are named because the compiler may keep either
/// out of line, or both; nothing else here recurses, and no search runs inside another.
pub fn recursion_limits(max_depth: u8) -> [Nesting; 3] {
    let negamax = concat!(module_path!(), "::negamax");
    [
        Nesting { function: negamax, most: u32::from(max_depth.saturating_sub(1)), under: None },
        Nesting { function: concat!(module_path!(), "::child"), most: u32::from(max_depth), under: None },
        Nesting {
            function: concat!(module_path!(), "::sort_by_eval"),
            most: 1,
            under: Some((negamax, u32::from(max_depth.saturating_sub(SORT_DEPTH)))),
        },
    ]
}

/// The shallowest depth at which [`negamax`] sorts its moves.
const SORT_DEPTH: u8 = 5;

/// A node below the current one: a leaf scored here, in the caller's frame, so that the
/// deepest ply takes no frame of its own (a negamax frame is tens of bytes on an 8-bit chip).
#[inline(always)]
fn child<G: InPlace, const N: usize>(
    game: &mut G,
    depth: u8,
    alpha: i16,
    beta: i16,
    order: bool,
    budget: &mut Budget,
) -> i16 {
    #[cfg(test)]
    let _call = tests::InProgress::enter(tests::CHILD);
    if depth > 0 {
        return negamax::<G, N>(game, depth, alpha, beta, order, budget);
    }
    scored_leaf(game, budget)
}

/// A leaf, counted as a node.
#[inline(always)]
fn scored_leaf<G: InPlace>(game: &mut G, budget: &mut Budget) -> i16 {
    if budget.spend() {
        return 0;
    }
    game.leaf()
}

/// Alpha-beta at an interior node, `depth` at least 1.
fn negamax<G: InPlace, const N: usize>(
    game: &mut G,
    depth: u8,
    alpha: i16,
    beta: i16,
    order: bool,
    budget: &mut Budget,
) -> i16 {
    #[cfg(test)]
    let _call = tests::InProgress::enter(tests::NEGAMAX);
    if budget.spend() {
        return 0;
    }
    if G::WALKS {
        walked::<G, N>(game, depth, alpha, beta, order, budget)
    } else {
        listed::<G, N>(game, depth, alpha, beta, order, budget)
    }
}

/// [`negamax`]'s moves walked ([`InPlace::next_move`]), in the order [`InPlace::moves`] lists
/// them, never sorted: no list on the stack, and no move found past a cut-off. A game that
/// walks its moves is sorted at the root alone.
#[inline(always)]
fn walked<G: InPlace, const N: usize>(
    game: &mut G,
    depth: u8,
    mut alpha: i16,
    beta: i16,
    order: bool,
    budget: &mut Budget,
) -> i16 {
    let none = G::Move::default();
    let mut m = game.next_move(none);
    if m == none {
        return passed::<G, N>(game, depth, alpha, beta, order, budget);
    }
    while m != none {
        made!(score = game, m, depth - 1, alpha, beta, order, budget);
        if score > alpha {
            alpha = score;
            if alpha >= beta {
                break;
            }
        }
        m = game.next_move(m);
    }
    alpha
}

/// [`negamax`]'s moves listed, and sorted where the subtree below is large.
#[inline(always)]
fn listed<G: InPlace, const N: usize>(
    game: &mut G,
    depth: u8,
    mut alpha: i16,
    beta: i16,
    order: bool,
    budget: &mut Budget,
) -> i16 {
    let mut moves = [G::Move::default(); N];
    let n = game.moves(&mut moves);
    if n == 0 {
        return passed::<G, N>(game, depth, alpha, beta, order, budget);
    }
    let moves = &mut moves[..n];
    // Sorting evaluates every move, work no node counts; it repays itself only where the
    // subtree below is large. On an 8 x 8 flanking game's ATmega16 build, ordering from three
    // plies up rather than two searched 55% more nodes a second, to the same depth, and won as
    // often; once make, undo and the evaluation were in assembly, ordering only from five plies up
    // (the root alone, in a search of five) searched 13% more nodes a second than from three
    // and completed depth 5 sooner on 7 of 8 positions (the moves are tried in an order of
    // the cells the evaluation rewards, and each deepening tries the last best move first).
    if order && depth >= SORT_DEPTH {
        sort_by_eval::<G, N>(game, moves);
    }
    for &m in moves.iter() {
        made!(score = game, m, depth - 1, alpha, beta, order, budget);
        if score > alpha {
            alpha = score;
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

/// A node whose mover has no move: a pass, or the game's end.
#[inline(always)]
fn passed<G: InPlace, const N: usize>(
    game: &mut G,
    depth: u8,
    alpha: i16,
    beta: i16,
    order: bool,
    budget: &mut Budget,
) -> i16 {
    match game.pass() {
        Some(u) => {
            let score = -child::<G, N>(game, depth - 1, -beta, -alpha, order, budget);
            game.undo(u);
            score
        }
        None => game.outcome(),
    }
}

/// Insertion sort, best first by the opponent's evaluation after the move (lower is better).
/// Each move is evaluated once; out of line so the keys take stack only while sorting.
#[inline(never)]
fn sort_by_eval<G: InPlace, const N: usize>(game: &mut G, moves: &mut [G::Move]) {
    #[cfg(test)]
    let _call = tests::InProgress::enter(tests::SORT);
    let mut keys = [0i16; N];
    for (k, &m) in keys.iter_mut().zip(moves.iter()) {
        let u = game.make(m);
        *k = game.eval();
        game.undo(u);
    }
    for i in 1..moves.len() {
        let (m, key) = (moves[i], keys[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] > key {
            moves[j] = moves[j - 1];
            keys[j] = keys[j - 1];
            j -= 1;
        }
        moves[j] = m;
        keys[j] = key;
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use core::cell::Cell;

    /// Indices into [`recursion_limits`].
    pub(super) const NEGAMAX: usize = 0;
    pub(super) const CHILD: usize = 1;
    pub(super) const SORT: usize = 2;

    /// Calls in progress of each function, the most seen at once, and the most `negamax`
    /// calls in progress when a sort started.
    type Seen = ([u32; 3], [u32; 3], u32);

    std::thread_local! {
        static SEEN: Cell<Seen> = const { Cell::new(([0; 3], [0; 3], 0)) };
    }

    /// One call in progress, counted while it lives.
    pub(super) struct InProgress(usize);

    impl InProgress {
        pub(super) fn enter(f: usize) -> InProgress {
            let (mut now, mut most, mut under) = SEEN.get();
            if f == SORT {
                under = under.max(now[NEGAMAX]);
            }
            now[f] += 1;
            most[f] = most[f].max(now[f]);
            SEEN.set((now, most, under));
            InProgress(f)
        }
    }

    impl Drop for InProgress {
        fn drop(&mut self) {
            let (mut now, most, under) = SEEN.get();
            now[self.0] -= 1;
            SEEN.set((now, most, under));
        }
    }

    /// Noughts and crosses: cells 0..9, the mover's marks in the low 9 bits, the other's above.
    #[derive(Clone, Copy)]
    struct Ttt(u32);
    struct Game;
    const LINES: [u32; 8] = [0o7, 0o70, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124];

    fn won(marks: u32) -> bool {
        for line in LINES {
            if marks & line == line {
                return true;
            }
        }
        false
    }

    impl Tree for Game {
        type Pos = Ttt;
        type Move = u8;
        fn moves(pos: &Ttt, out: &mut [u8]) -> usize {
            let (me, opp) = (pos.0 & 0x1FF, pos.0 >> 9);
            if won(opp) {
                return 0;
            }
            let mut n = 0;
            for c in 0..9 {
                if (me | opp) & (1 << c) == 0 && n < out.len() {
                    out[n] = c;
                    n += 1;
                }
            }
            n
        }
        fn play(pos: &Ttt, m: u8) -> Ttt {
            let (me, opp) = (pos.0 & 0x1FF, pos.0 >> 9);
            Ttt(opp | ((me | 1 << m) << 9))
        }
        fn pass(_: &Ttt) -> Option<Ttt> {
            None
        }
        fn eval(_: &Ttt) -> i16 {
            0
        }
        fn outcome(pos: &Ttt) -> i16 {
            if won(pos.0 >> 9) {
                -WIN
            } else {
                0
            }
        }
    }

    fn pick(pos: Ttt, nodes: u32) -> Choice<u8> {
        let mut never = || false;
        let mut budget = Budget::new(nodes, &mut never);
        choose::<Game, 9>(&pos, 9, false, &mut budget).unwrap()
    }

    #[test]
    fn takes_a_win_and_blocks_a_loss() {
        // Mover has 0 and 1: playing 2 wins.
        let c = pick(Ttt(0b11 | (0b1_1000 << 9)), 1_000_000);
        assert_eq!(c.best, 2);
        assert_eq!(c.score, WIN);
        // The opponent has 3 and 4 and threatens 5; the mover must block.
        let c = pick(Ttt(0b1 | 0b100_000_000 | (0b1_1000 << 9)), 1_000_000);
        assert_eq!(c.best, 5);
    }

    #[test]
    fn perfect_play_from_the_empty_board_is_a_draw() {
        let c = pick(Ttt(0), 10_000_000);
        assert_eq!(c.score, 0);
        assert_eq!(c.depth, 9);
    }

    #[test]
    fn a_small_budget_stops_early_but_still_answers() {
        let c = pick(Ttt(0), 200);
        assert!(c.depth < 9);
        assert!(c.best < 9);
    }

    /// A pile: take one counter and the turn passes, or two and the taker moves again; whoever
    /// takes the last counter wins. The side to move always wins (pairs, then a single), but
    /// only a search that scores a kept turn from the same side knows it.
    #[derive(Clone, Copy)]
    struct Pile {
        left: u8,
        to_move: u8,
        took_last: u8,
    }

    struct Pairs;

    impl Tree for Pairs {
        type Pos = Pile;
        type Move = u8;
        fn moves(pos: &Pile, out: &mut [u8]) -> usize {
            let n = (pos.left.min(2) as usize).min(out.len());
            for (i, m) in out[..n].iter_mut().enumerate() {
                *m = i as u8 + 1;
            }
            n
        }
        fn play(pos: &Pile, m: u8) -> Pile {
            let to_move = if m == 2 { pos.to_move } else { 1 - pos.to_move };
            Pile { left: pos.left - m, to_move, took_last: pos.to_move }
        }
        fn pass(_: &Pile) -> Option<Pile> {
            None
        }
        fn eval(_: &Pile) -> i16 {
            0
        }
        fn outcome(pos: &Pile) -> i16 {
            if pos.took_last == pos.to_move {
                WIN
            } else {
                -WIN
            }
        }
        const AGAIN: bool = true;
        fn mover(pos: &Pile) -> u8 {
            pos.to_move
        }
    }

    #[test]
    fn a_move_that_keeps_the_turn_is_scored_for_the_same_side() {
        for left in 1..=7 {
            let mut never = || false;
            let mut budget = Budget::new(u32::MAX, &mut never);
            let pos = Pile { left, to_move: 0, took_last: 1 };
            let c = choose::<Pairs, 2>(&pos, 8, false, &mut budget).unwrap();
            assert_eq!(c.score, WIN, "{left} counters: the mover wins");
            // With an odd pile, a single first hands the opponent an even pile, which they win.
            if left % 2 == 1 && left > 1 {
                assert_eq!(c.best, 2, "{left} counters: a pair first");
            }
        }
    }

    #[test]
    fn the_recursion_stays_within_its_stated_limits() {
        for max_depth in 0..=9 {
            for order in [false, true] {
                SEEN.set(([0; 3], [0; 3], 0));
                let mut never = || false;
                let mut budget = Budget::new(u32::MAX, &mut never);
                choose::<Game, 9>(&Ttt(0), max_depth, order, &mut budget);
                let (now, most, under) = SEEN.get();
                assert_eq!(now, [0; 3]);
                let [negamax, child, sort] = recursion_limits(max_depth);
                assert!(negamax.function.ends_with("search::negamax") && child.function.ends_with("search::child"));
                assert_eq!(sort.under.map(|(f, _)| f), Some(negamax.function));
                // The limits are reached: they are the nesting, not a guess above it.
                assert_eq!([most[NEGAMAX], most[CHILD]], [negamax.most, child.most], "max_depth {max_depth}");
                assert!(most[SORT] <= sort.most);
                let sort_under = sort.under.unwrap().1;
                assert!(under <= sort_under, "max_depth {max_depth}: a sort under {under} of negamax");
                if order && max_depth > SORT_DEPTH {
                    assert_eq!(under, sort_under, "max_depth {max_depth}");
                }
            }
        }
    }

    /// Noughts and crosses searched in place, walking its moves rather than listing them; its
    /// cells are moves 1 to 9, so that 0 (the default) stands for none.
    struct Walking(Copied<Game>);

    impl InPlace for Walking {
        type Move = u8;
        type Undo = Ttt;
        fn moves(&mut self, out: &mut [u8]) -> usize {
            let n = self.0.moves(out);
            out[..n].iter_mut().for_each(|m| *m += 1);
            n
        }
        fn make(&mut self, m: u8) -> Ttt {
            self.0.make(m - 1)
        }
        fn pass(&mut self) -> Option<Ttt> {
            self.0.pass()
        }
        fn undo(&mut self, u: Ttt) {
            self.0.undo(u)
        }
        fn eval(&mut self) -> i16 {
            self.0.eval()
        }
        fn outcome(&mut self) -> i16 {
            self.0.outcome()
        }
        fn leaf(&mut self) -> i16 {
            self.0.leaf()
        }
        const WALKS: bool = true;
        fn next_move(&mut self, after: u8) -> u8 {
            let mut moves = [0u8; 9];
            let n = self.0.moves(&mut moves);
            moves[..n].iter().map(|&c| c + 1).find(|&m| m > after).unwrap_or(0)
        }
    }

    #[test]
    fn walking_the_moves_searches_the_tree_listing_them_does() {
        for (pos, nodes) in [(Ttt(0), 3_000), (Ttt(0), 10_000_000), (Ttt(0b1 | (0b1_0000 << 9)), 50_000)] {
            let mut never = || false;
            let mut budget = Budget::new(nodes, &mut never);
            let listed = choose::<Game, 9>(&pos, 9, false, &mut budget).unwrap();
            let listed_nodes = budget.nodes();
            let mut budget = Budget::new(nodes, &mut never);
            let walked = choose_in_place::<Walking, 9>(&mut Walking(Copied(pos)), 1, 9, false, &mut budget).unwrap();
            assert_eq!((walked.best - 1, walked.score, walked.depth), (listed.best, listed.score, listed.depth));
            assert_eq!(budget.nodes(), listed_nodes, "the same nodes, in the same order");
        }
    }

    #[test]
    fn the_budget_stops_where_counting_every_node_would() {
        for max_nodes in [0, 1, 3, 7, 8, 9, 16, 203, u32::MAX] {
            for clock_at in [1, 2, 5, u32::MAX] {
                // The reference: a node counted, and both limits compared, at every node.
                let (mut nodes, mut stopped, mut asked) = (0u32, false, 0u32);
                let mut calls = 0u32;
                let mut clock = || {
                    calls += 1;
                    calls >= clock_at
                };
                let mut budget = Budget::new(max_nodes, &mut clock);
                for _ in 0..300 {
                    nodes += 1;
                    if nodes >= max_nodes
                        || (nodes % 8 == 0 && {
                            asked += 1;
                            asked >= clock_at
                        })
                    {
                        stopped = true;
                    }
                    assert_eq!(budget.spend(), stopped, "max {max_nodes}, clock at {clock_at}, node {nodes}");
                    assert_eq!(budget.nodes(), nodes);
                }
            }
        }
    }

    #[test]
    fn the_clock_stops_the_search() {
        let mut calls = 0;
        let mut clock = || {
            calls += 1;
            calls > 3
        };
        let mut budget = Budget::new(u32::MAX, &mut clock);
        let c = choose::<Game, 9>(&Ttt(0), 9, true, &mut budget).unwrap();
        assert!(budget.stopped());
        assert!(budget.nodes() <= 4 * 8);
        assert!(c.depth < 9);
    }
}
