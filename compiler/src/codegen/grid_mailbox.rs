//! The search of a flanking game as an 8-bit chip runs it: the position a byte a cell inside a
//! border ([`gamec_runtime::mailbox`]), moves made and undone in place, tried in an order of
//! the cells read off the evaluation, and the evaluation's features read off that board. The
//! session holds its position on the same board. Chosen for AVR chips, where a 64-bit shift
//! is a loop; the host keeps the 64-bit boards.

mod assembly;

use super::grid_game::{eval_body_with, region_ident, used_regions};
use super::int;
use assembly::{avr_mobility, avr_next_move, avr_play_undo, avr_region, avr_weigh, mark_around};
use gamec_dsl::{Condition, EndResult, Feature, GameDef, GridBoard, MoveKind, StrategyKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Whether the game's search can run on the byte board: every action a flanking placement,
/// passing allowed, every ending about moves, an evaluation of pieces, mobility, regions and
/// empty cells, and a search for its strategy.
pub fn applies(game: &GameDef) -> bool {
    let searched = game.device.strategy.as_ref().is_some_and(|s| s.kind == StrategyKind::Search);
    let flanking = !game.rules.moves.is_empty()
        && game.rules.moves.iter().all(|m| matches!(m.kind, MoveKind::Place { capture: Some(_) }));
    let endings_on_moves = game
        .rules
        .endings
        .iter()
        .all(|e| e.conditions.iter().any(|c| matches!(c, Condition::NoMoves | Condition::NeitherCanMove)));
    let features = game.device.eval.as_ref().is_none_or(|e| {
        e.cases.iter().all(|c| {
            c.terms.iter().map(|t| t.1).chain(c.when.map(|w| w.0)).all(|f| !matches!(f, Feature::Lines { .. }))
        })
    });
    searched && flanking && game.rules.pass && endings_on_moves && features
}

/// The items of the game module that hold the session's position and search it on the byte
/// board, with the game's `Placement` over them (`strategy_doc` documents its strategy): the
/// board's layout, the searched position, the session's rules, the flanking moves and the
/// evaluation, each rendered by a function of its own.
pub fn render(game: &GameDef, g: &GridBoard, strategy_doc: &TokenStream, roomy: bool, multiplies: bool) -> TokenStream {
    let shape = Shape::of(game, g);
    // Where the chip has room, the board tallies the evaluation's regions as pieces come and
    // go (up to eight, a bit each in a table of the cells); the evaluation counts the rest,
    // and every region on a chip without room, cell by cell.
    let scored = scored_regions(game);
    let (tallied, counted) = scored.split_at(if roomy { scored.len().min(8) } else { 0 });
    let layout = board_layout(game, &shape, tallied, counted);
    let (outcome, over, stopped) = verdicts(game);
    let position = searched_position(&shape, &outcome);
    let placement = placement(game, &shape, strategy_doc, &over, &stopped);
    let moves = flanking_moves(&shape);
    let evaluation = evaluation(game, tallied, counted, multiplies);
    quote! {
        #layout
        #position
        #placement
        #moves
        #evaluation
    }
}

/// The grid inside the byte board's one-cell border, and how a flanking line steps on it.
struct Shape {
    cols: u8,
    rows: u8,
    /// Cell numbers a row apart on the byte board: the grid's columns and the border's two.
    stride: u8,
    /// The capturing placement's directions: 4 (orthogonal) or 8.
    capture: Option<u8>,
    /// The grid's cells as the 64-bit boards number them (row * 8 + column).
    grid_cells: Vec<u32>,
}

impl Shape {
    fn of(game: &GameDef, g: &GridBoard) -> Shape {
        let (cols, rows) = (g.cols as u8, g.rows as u8);
        let capture = game.rules.moves.iter().find_map(|m| match m.kind {
            MoveKind::Place { capture: Some(d) } => Some(d),
            _ => None,
        });
        let grid_cells = (0..rows as u32).flat_map(|r| (0..cols as u32).map(move |c| r * 8 + c)).collect();
        Shape { cols, rows, stride: cols + 2, capture, grid_cells }
    }

    /// A cell of the 64-bit boards on the byte board.
    fn to_board(&self, cell: u32) -> u8 {
        (cell / 8 + 1) as u8 * self.stride + (cell % 8) as u8 + 1
    }

    /// The directions spelt out, each as its step on the board: the neighbours are read at
    /// constant offsets from the cell, and each line steps by a constant.
    fn dir_steps(&self) -> Vec<i32> {
        match self.capture {
            Some(4) => vec![(1, 0), (-1, 0), (0, 1), (0, -1)],
            _ => vec![(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)],
        }
        .into_iter()
        .map(|(dc, dr): (i32, i32)| dr * self.stride as i32 + dc)
        .collect()
    }
}

/// The regions the evaluation scores.
fn scored_regions(game: &GameDef) -> Vec<usize> {
    used_regions(game)
        .into_iter()
        .filter(|&i| {
            game.device
                .eval
                .iter()
                .flat_map(|e| &e.cases)
                .any(|c| c.terms.iter().map(|t| t.1).chain(c.when.map(|w| w.0)).any(|f| f == Feature::Region(i)))
        })
        .collect()
}

/// The board's type and tables: its regions' bits, its directions, the order its empty cells
/// are tried in, each counted region's cells and the conversions from and to the 64-bit
/// boards.
fn board_layout(game: &GameDef, shape: &Shape, tallied: &[usize], counted: &[usize]) -> TokenStream {
    let (cols, rows, stride) = (shape.cols, shape.rows, shape.stride);
    let board_cells = int(stride as usize * (rows as usize + 2));
    let (c, r) = (int(cols), int(rows));
    let (dirs, n_dirs) =
        if shape.capture == Some(4) { (quote!(ROOK), int(4usize)) } else { (quote!(KING), int(8usize)) };
    let grid_cells = &shape.grid_cells;

    // Cells the evaluation rewards are tried first, those it penalises last: each cell weighs
    // what its regions' terms weigh over all the evaluation's cases.
    let weight = |cell: u32| -> i32 {
        let Some(e) = &game.device.eval else { return 0 };
        e.cases
            .iter()
            .flat_map(|case| &case.terms)
            .filter_map(|&(w, f)| match f {
                Feature::Region(i) if game.rules.regions[i].cells.contains(&(cell as u8)) => Some(w as i32),
                _ => None,
            })
            .sum()
    };
    let mut order = grid_cells.clone();
    order.sort_by_key(|&cell| (-weight(cell), cell));
    let order: Vec<_> = order.iter().map(|&cell| int(shape.to_board(cell))).collect();
    let n_cells = int(grid_cells.len());

    let n_tallied = int(tallied.len());
    let region_bits: Vec<_> = (0..stride as u32 * (rows as u32 + 2))
        .map(|at| {
            let (row, col) = (at / stride as u32, at % stride as u32);
            let on_grid = (1..=rows as u32).contains(&row) && (1..=cols as u32).contains(&col);
            let cell = on_grid.then(|| ((row - 1) * 8 + col - 1) as u8);
            let bits = tallied
                .iter()
                .enumerate()
                .filter(|&(_, &i)| cell.is_some_and(|c| game.rules.regions[i].cells.contains(&c)))
                .fold(0u8, |bits, (k, _)| bits | 1 << k);
            int(bits)
        })
        .collect();
    // Each counted region's cells on the board, and its difference counted by a function of
    // its own (cell by cell at constant offsets on AVR).
    let regions = counted.iter().map(|&i| {
        let name = format_ident!("{}_CELLS", region_ident(game, i));
        let cells: Vec<u8> = grid_cells
            .iter()
            .filter(|&&cell| game.rules.regions[i].cells.contains(&(cell as u8)))
            .map(|&cell| shape.to_board(cell))
            .collect();
        let n = int(cells.len());
        let diff = avr_region(&region_fn(game, i), &name, &cells);
        let cells = cells.iter().map(|&c| int(c));
        quote! {
            #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
            pub(crate) static #name: [u8; #n] = [#(#cells),*];
            #diff
        }
    });
    // Direction `k` is bit `k` of the board's record of which neighbours hold a piece, and
    // `OFFSETS[k]`: the generated code checks the two agree.
    let agree = shape.dir_steps().into_iter().enumerate().map(|(k, d)| {
        let (k, d) = (int(k), proc_macro2::Literal::i8_unsuffixed(d as i8));
        quote!(OFFSETS[#k] == #d)
    });
    quote! {
        /// The grid as the search holds it on this chip: a byte a cell inside a one-cell border.
        pub type Board = Mailbox<#board_cells, #n_tallied>;
        /// The regions each cell of the board is on, a bit for each region the board tallies.
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        pub(crate) static REGIONS: mailbox::Regions<#board_cells> = [#(#region_bits),*];
        /// The directions as steps on that board.
        pub(crate) const OFFSETS: [i8; #n_dirs] = mailbox::offsets(#dirs, #c);
        const _: () = assert!(#(#agree)&&*, "the directions spelt out are the board's");
        /// The cells in the order the search tries moves: those the evaluation rewards first,
        /// those it penalises last. The board keeps its empty cells in this order.
        const ORDER: [u8; #n_cells] = [#(#order),*];
        /// `ORDER` as the board is set up from it at the start of a game.
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static ORDER_TABLE: [u8; #n_cells] = ORDER;
        #(#regions)*

        /// A cell of the 64-bit boards (row * 8 + column) on the byte board, and back.
        const fn to_board(cell: u8) -> u8 {
            (cell / 8 + 1) * (#c + 2) + cell % 8 + 1
        }
        const fn on_grid(cell: u8) -> bool {
            cell % 8 < #c && cell / 8 < #r
        }
        const fn from_board(at: u8) -> u8 {
            (at / (#c + 2) - 1) * 8 + at % (#c + 2) - 1
        }
    }
}

/// How the game stands on the byte board: the search's score of a finished position, and the
/// session's verdict of an ending and of a stop. A game scored by its pieces alone reads the
/// board's counts; others ask the game's endings on 64-bit boards (a finished game is a rare
/// leaf, and the session asks once a move).
fn verdicts(game: &GameDef) -> (TokenStream, TokenStream, TokenStream) {
    let most = match game.rules.endings.as_slice() {
        [e] if e.conditions == [Condition::NeitherCanMove] => match e.result {
            EndResult::Most { most, wins } => {
                Some(if most != wins { quote!(-b.piece_diff()) } else { quote!(b.piece_diff()) })
            }
            _ => None,
        },
        _ => None,
    };
    match &most {
        Some(lead) => (
            quote! {
                let b = &self.0;
                match #lead {
                    0 => 0,
                    l if l > 0 => WIN + l,
                    l => -WIN + l,
                }
            },
            quote! {
                let b = &pos.0;
                let (mine, theirs) = mobility(b);
                if mine != 0 || theirs != 0 {
                    return None;
                }
                Some(Self::stopped(pos))
            },
            quote! {
                let b = &pos.0;
                match #lead {
                    0 => Verdict::Draw,
                    l if l > 0 => Verdict::Win,
                    _ => Verdict::Loss,
                }
            },
        ),
        None => {
            (quote!(<Rules as Tree>::outcome(&self.duel())), quote!(over(&pos.duel())), quote!(stopped(&pos.duel())))
        }
    }
}

/// The position as the session and the search hold it, and the search's reading of it
/// (`outcome` scores a finished one).
fn searched_position(shape: &Shape, outcome: &TokenStream) -> TokenStream {
    let (c, r) = (int(shape.cols), int(shape.rows));
    quote! {
        /// A position as the session and the search hold it on this chip.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Searched(pub Board);

        impl From<&Duel> for Searched {
            /// A position of the 64-bit boards, the side to move colour 1 (for tests that hold
            /// the two searches side by side).
            fn from(pos: &Duel) -> Searched {
                let mut held = <Rules as Placement>::CLEARED;
                held.load(pos);
                held
            }
        }

        impl Searched {
            /// Sets this position to one of the 64-bit boards, the side to move colour 1: in
            /// place, for a chip whose stack cannot spare a second board.
            pub fn load(&mut self, pos: &Duel) {
                let b = &mut self.0;
                // SAFETY: `ORDER_TABLE` is in program memory.
                unsafe { b.reset(&ORDER_TABLE, 1) };
                for r in 0..#r {
                    for c in 0..#c {
                        let cell = r * 8 + c;
                        if pos.me & bit(cell) != 0 {
                            b.put(to_board(cell), 1, &OFFSETS, &REGIONS);
                        } else if pos.opp & bit(cell) != 0 {
                            b.put(to_board(cell), 2, &OFFSETS, &REGIONS);
                        }
                    }
                }
            }

            /// The position on 64-bit boards, for the game's endings.
            fn duel(&self) -> Duel {
                let mut d = Duel::default();
                for &at in ORDER.iter() {
                    let v = self.0.cells[at as usize];
                    if v == self.0.colour {
                        d.me |= bit(from_board(at));
                    } else if v != mailbox::EMPTY {
                        d.opp |= bit(from_board(at));
                    }
                }
                d
            }
        }

        impl InPlace for Searched {
            type Move = u8;
            type Undo = Made;

            fn moves(&mut self, out: &mut [u8]) -> usize {
                moves(&self.0, out)
            }

            // In line, so that the record of the move is made in the search's own frame, not
            // made here and copied there.
            #[inline(always)]
            fn make(&mut self, at: u8) -> Made {
                make(&mut self.0, at)
            }

            fn pass(&mut self) -> Option<Made> {
                let u = self.0.pass();
                if next_move(&self.0, 0) != 0 {
                    return Some(u);
                }
                unplay(&mut self.0, u);
                None
            }

            // In line too, as `leaf`: the search calls each from one place a ply.
            #[inline(always)]
            fn undo(&mut self, m: Made) {
                unplay(&mut self.0, m)
            }

            fn eval(&mut self) -> i16 {
                let (mine, theirs) = mobility(&self.0);
                eval_board(&self.0, mine, theirs)
            }

            #[inline(always)]
            fn leaf(&mut self) -> i16 {
                let (mine, theirs) = mobility(&self.0);
                if mine == 0 && theirs == 0 {
                    return self.outcome();
                }
                eval_board(&self.0, mine, theirs)
            }

            fn outcome(&mut self) -> i16 {
                #outcome
            }

            const WALKS: bool = true;

            fn next_move(&mut self, after: u8) -> u8 {
                next_move(&self.0, after)
            }
        }
    }
}

/// The session's rules over the searched position: the start, legal cells, pieces, moves and
/// verdicts (`over` and `stopped`).
fn placement(
    game: &GameDef,
    shape: &Shape,
    strategy_doc: &TokenStream,
    over: &TokenStream,
    stopped: &TokenStream,
) -> TokenStream {
    // The start on the byte board, the first player colour 1.
    let setup = game.rules.fixed_pieces().iter().flat_map(|(player, at)| {
        let colour = int(if *player == game.rules.first { 1u8 } else { 2 });
        at.iter().map(move |&cell| {
            let at = int(shape.to_board(cell as u32));
            quote!(b.put(#at, #colour, &OFFSETS, &REGIONS);)
        })
    });
    quote! {
        impl Placement for Rules {
            type Pos = Searched;
            #strategy_doc
            const STRATEGY: Strategy = Strategy::Search;

            // All zero bytes (no side, no cells, an empty list): never played on, and a
            // static session holding it then needs no initial image in flash.
            const CLEARED: Searched = Searched(Board::new(&[], 0));

            fn start(pos: &mut Searched) {
                let b = &mut pos.0;
                // SAFETY: `ORDER_TABLE` is in program memory.
                unsafe { b.reset(&ORDER_TABLE, 1) };
                #(#setup)*
            }

            fn legal_at(pos: &Searched, cell: u8) -> bool {
                // Among the moves as the search walks them, rather than by a second copy of
                // the flanking test spelt out per direction, and with no list on the stack:
                // the session asks only for the host's move and the board's marks, where time
                // is no matter.
                if !on_grid(cell) {
                    return false;
                }
                let at = to_board(cell);
                let mut m = next_move(&pos.0, 0);
                while m != 0 && m != at {
                    m = next_move(&pos.0, m);
                }
                m != 0
            }

            fn can_move(pos: &Searched) -> bool {
                // By the count the evaluation takes anyway, where a move buffer on the stack
                // costs a frame: the session asks once a turn of the host's.
                mobility(&pos.0).0 != 0
            }

            fn holder(pos: &Searched, cell: u8) -> u8 {
                if !on_grid(cell) {
                    return 0;
                }
                match pos.0.cells[to_board(cell) as usize] {
                    mailbox::EMPTY => 0,
                    v if v == pos.0.colour => HELD_BY_MOVER,
                    _ => HELD_BY_OTHER,
                }
            }

            fn count(pos: &Searched, mover: bool) -> u8 {
                let b = &pos.0;
                b.pieces[if mover { b.colour } else { mailbox::other(b.colour) } as usize]
            }

            fn play(pos: &mut Searched, cell: u8) {
                make(&mut pos.0, to_board(cell));
            }

            fn pass(pos: &mut Searched) {
                pos.0.pass();
            }

            fn over(pos: &Searched) -> Option<Verdict> {
                #over
            }

            fn stopped(pos: &Searched) -> Verdict {
                #stopped
            }

            fn search<const N: usize>(pos: &mut Searched, first: u8, max: u8, order: bool, budget: &mut Budget) -> Option<Choice<u8>> {
                choose_in_place::<Searched, N>(pos, first, max, order, budget)
                    .map(|c| Choice { best: from_board(c.best), ..c })
            }
        }
    }
}

/// The flanking moves on the byte board: making and undoing them, the legal cells walked in
/// order, and both sides' mobility, in assembly on AVR where `assembly` has it, each with the
/// portable reference the device tests hold the assembly to.
fn flanking_moves(shape: &Shape) -> TokenStream {
    let (dir_steps, stride) = (shape.dir_steps(), shape.stride);
    let bit = |k: usize| int(1u8 << k);
    let mobility_steps = dir_steps.iter().enumerate().map(|(k, &d)| {
        let (bit, d) = (bit(k), proc_macro2::Literal::i8_unsuffixed(d as i8));
        quote! {
            if around & #bit != 0 {
                can |= near.beyond(#d, near.get(#d));
            }
        }
    });
    let flank_tests = dir_steps.iter().enumerate().map(|(k, &d)| {
        let (bit, d) = (bit(k), proc_macro2::Literal::i8_unsuffixed(d as i8));
        quote!((around & #bit != 0 && near.get(#d) == them && b.closes(at, #d, them, me)))
    });
    let mark_around = mark_around(&dir_steps, stride);
    let play_undo = avr_play_undo(&dir_steps, stride);
    let next_move = avr_next_move(&dir_steps, stride).unwrap_or_else(|| {
        quote! {
            #[inline(always)]
            pub(crate) fn next_move(b: &Board, after: u8) -> u8 {
                next_move_portable(b, after)
            }
        }
    });
    let mobility = avr_mobility(&dir_steps, stride).unwrap_or_else(|| {
        quote! {
            #[inline(always)]
            pub(crate) fn mobility(b: &Board) -> (u8, u8) {
                mobility_portable(b)
            }
        }
    });
    quote! {
        /// The side to move places on `at`, a legal cell, and turns what it flanks. The
        /// regions' tallies are brought up to date after `play` returns rather than inside
        /// it, so that the two frames are never on the stack together.
        #[inline(always)]
        fn make(b: &mut Board, at: u8) -> Made {
            let mut m = Made::on(at);
            play(b, &mut m);
            b.count_turned(m, &OFFSETS, &REGIONS);
            m
        }

        #mark_around

        #play_undo

        /// Whether the side to move, placing on the empty cell `at`, flanks a line.
        #[inline(always)]
        fn flanks_here(b: &Board, at: u8) -> bool {
            let (me, them) = (b.colour, mailbox::other(b.colour));
            // SAFETY: the callers ask about grid cells.
            let (around, near) = unsafe { (b.occupied_around(at), b.around(at)) };
            around != 0 && (#(#flank_tests)||*)
        }

        /// The side to move's legal cell after `after` in the order of the empty cells, the
        /// first for 0; 0 after the last. On an AVR chip [`next_move`] is this in assembly,
        /// and this the reference the device tests hold it to.
        #[cfg_attr(target_arch = "avr", allow(dead_code))]
        #[inline(never)]
        pub(crate) fn next_move_portable(b: &Board, after: u8) -> u8 {
            let mut at = if after == 0 { b.first_empty() } else { b.next_empty(after) };
            while at != 0 && !flanks_here(b, at) {
                at = b.next_empty(at);
            }
            at
        }

        #next_move

        /// The side to move's legal cells in `ORDER`; returns how many fit `out`.
        #[inline(never)]
        fn moves(b: &Board, out: &mut [u8]) -> usize {
            // By `next_move`, the one copy of the flanking test spelt out per direction.
            let mut n = 0;
            let mut at = next_move(b, 0);
            while at != 0 && n < out.len() {
                out[n] = at;
                n += 1;
                at = next_move(b, at);
            }
            n
        }

        /// Both sides' number of legal cells, the side to move's first, in one pass over the
        /// empty cells: a direction's first neighbour tells which side could close a line.
        /// On an AVR chip [`mobility`] is this in assembly, and this the reference the
        /// device tests hold it to.
        #[cfg_attr(target_arch = "avr", allow(dead_code))]
        #[inline(never)]
        pub(crate) fn mobility_portable(b: &Board) -> (u8, u8) {
            let (me, them) = (b.colour, mailbox::other(b.colour));
            let (mut mine, mut theirs) = (0u8, 0u8);
            let mut at = b.first_empty();
            while at != 0 {
                // Only the lines that start with a piece; none at a cell with none around.
                // SAFETY: the list of empty cells holds grid cells.
                let around = unsafe { b.occupied_around(at) };
                if around != 0 {
                    // SAFETY: as above.
                    let near = unsafe { b.around(at) };
                    // The colours (1 and 2, as bits) that may place here.
                    let mut can = 0u8;
                    #(#mobility_steps)*
                    mine += (can & me != 0) as u8;
                    theirs += (can & them != 0) as u8;
                }
                at = b.next_empty(at);
            }
            (mine, theirs)
        }

        #mobility
    }
}

/// The evaluation on the byte board: the file's `eval` (or the pieces' difference) over the
/// board's tallies, the counted regions' passes and both sides' mobility, its weights byte
/// multiplications where the chip multiplies.
fn evaluation(game: &GameDef, tallied: &[usize], counted: &[usize], multiplies: bool) -> TokenStream {
    let feature = |f: Feature| match f {
        Feature::Pieces => quote!(b.piece_diff()),
        Feature::Mobility => quote!((mine as i16 - theirs as i16)),
        Feature::Region(i) => match tallied.iter().position(|&t| t == i) {
            Some(k) => {
                let k = int(k);
                quote!(b.region(#k))
            }
            None => {
                let diff = format_ident!("{}_diff", region_fn(game, i));
                quote!(#diff)
            }
        },
        Feature::Empty => quote!((b.empties as i16)),
        Feature::Lines { .. } => unreachable!("`applies` refuses lines"),
    };
    // Every feature on a grid of at most 64 cells fits a byte: a weight that does too is one
    // signed byte multiplication on chips that have it, where LLVM multiplies the words.
    let product = |w: i16, f: TokenStream| match i8::try_from(w) {
        Ok(w) if multiplies && !matches!(w, -1..=2) => {
            let w = proc_macro2::Literal::i8_unsuffixed(w);
            quote!(weigh(#f, #w))
        }
        _ => {
            let w = int(w);
            quote!(#w * #f)
        }
    };
    let eval = game.device.eval.as_ref().map_or(quote!(b.piece_diff()), |e| eval_body_with(e, &feature, &product));
    // Each counted region once, before the phases: its pass is in line, and most phases read
    // most regions.
    let counted_diffs = counted.iter().map(|&i| {
        let (diff, local) = (region_fn(game, i), format_ident!("{}_diff", region_fn(game, i)));
        quote!(let #local = #diff(b);)
    });
    let weigh = if multiplies { avr_weigh() } else { quote!() };
    quote! {
        #weigh

        /// The evaluation on the byte board, given both sides' number of legal cells.
        #[inline(never)]
        fn eval_board(b: &Board, mine: u8, theirs: u8) -> i16 {
            #(#counted_diffs)*
            #eval
        }
    }
}

/// The function counting region `i`'s difference.
fn region_fn(game: &GameDef, i: usize) -> proc_macro2::Ident {
    format_ident!("{}", region_ident(game, i).to_string().to_lowercase())
}
