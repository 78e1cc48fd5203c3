//! The search of a flanking game as an 8-bit chip runs it: the position a byte a cell inside a
//! border ([`gamec_runtime::mailbox`]), moves made and undone in place, tried in an order of
//! the cells read off the evaluation, and the evaluation's features read off that board. The
//! session keeps its 64-bit boards; the search converts at its root. Chosen for AVR chips,
//! where a 64-bit shift is a loop; the host keeps the 64-bit boards.

use super::grid_game::{eval_body, region_ident, used_regions};
use super::int;
use gamec_dsl::{Condition, EndResult, Feature, GameDef, MoveKind, StrategyKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Whether the game's search can run on the byte board: every action a flanking placement,
/// passing allowed, every ending about moves, an evaluation of pieces, mobility, regions and
/// empty cells, and a search for its strategy.
pub fn applies(game: &GameDef) -> bool {
    let searched = game.strategy.as_ref().is_some_and(|s| s.kind == StrategyKind::Search);
    let flanking =
        !game.moves.is_empty() && game.moves.iter().all(|m| matches!(m.kind, MoveKind::Place { capture: Some(_) }));
    let endings_on_moves = game
        .endings
        .iter()
        .all(|e| e.conditions.iter().any(|c| matches!(c, Condition::NoMoves | Condition::NeitherCanMove)));
    let features = game.eval.as_ref().is_none_or(|e| {
        e.cases.iter().all(|c| {
            c.terms.iter().map(|t| t.1).chain(c.when.map(|w| w.0)).all(|f| !matches!(f, Feature::Lines { .. }))
        })
    });
    searched && flanking && game.pass && endings_on_moves && features
}

/// The items of the game module that search on the byte board, and the body of
/// `Placement::search` that hands them the session's position.
pub fn render(game: &GameDef) -> (TokenStream, TokenStream) {
    let g = game.grid().expect("a grid game");
    let (cols, rows) = (g.cols as u8, g.rows as u8);
    let stride = cols + 2;
    let board_cells = int(stride as usize * (rows as usize + 2));
    let (c, r) = (int(cols), int(rows));
    let capture = game.moves.iter().find_map(|m| match m.kind {
        MoveKind::Place { capture: Some(d) } => Some(d),
        _ => None,
    });
    let (dirs, n_dirs) = if capture == Some(4) { (quote!(ROOK), int(4usize)) } else { (quote!(KING), int(8usize)) };
    let to_board = |cell: u32| (cell / 8 + 1) as u8 * stride + (cell % 8) as u8 + 1;

    // Cells the evaluation rewards are tried first, those it penalises last: each cell weighs
    // what its regions' terms weigh over all the evaluation's cases.
    let grid_cells: Vec<u32> = (0..rows as u32).flat_map(|r| (0..cols as u32).map(move |c| r * 8 + c)).collect();
    let weight = |cell: u32| -> i32 {
        let Some(e) = &game.eval else { return 0 };
        e.cases
            .iter()
            .flat_map(|case| &case.terms)
            .filter_map(|&(w, f)| match f {
                Feature::Region(i) if game.regions[i].cells.contains(&(cell as u8)) => Some(w as i32),
                _ => None,
            })
            .sum()
    };
    let mut order = grid_cells.clone();
    order.sort_by_key(|&cell| (-weight(cell), cell));
    let order: Vec<_> = order.iter().map(|&cell| int(to_board(cell))).collect();
    let n_cells = int(grid_cells.len());

    let regions = used_regions(game).into_iter().map(|i| {
        let name = format_ident!("{}_CELLS", region_ident(game, i));
        let cells: Vec<_> = grid_cells
            .iter()
            .filter(|&&cell| game.regions[i].cells.contains(&(cell as u8)))
            .map(|&cell| int(to_board(cell)))
            .collect();
        let n = int(cells.len());
        quote! {
            #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
            static #name: [u8; #n] = [#(#cells),*];
        }
    });
    let feature = |f: Feature| match f {
        Feature::Pieces => quote!(b.piece_diff()),
        Feature::Mobility => quote!((mine as i16 - theirs as i16)),
        Feature::Region(i) => {
            let name = format_ident!("{}_CELLS", region_ident(game, i));
            quote!(b.diff(&#name))
        }
        Feature::Empty => quote!((b.empties as i16)),
        Feature::Lines { .. } => unreachable!("`applies` refuses lines"),
    };
    let eval = game.eval.as_ref().map_or(quote!(b.piece_diff()), |e| eval_body(e, &feature));

    // The directions spelt out, each with its offset as a constant: the neighbours are read
    // from a window around the cell at constant indices, and each line steps by a constant.
    let dir_steps: Vec<i32> = match capture {
        Some(4) => vec![(1, 0), (-1, 0), (0, 1), (0, -1)],
        _ => vec![(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)],
    }
    .into_iter()
    .map(|(dc, dr): (i32, i32)| dr * stride as i32 + dc)
    .collect();
    let reach = stride as i32 + 1;
    let window = int((2 * reach + 1) as usize);
    let mobility_steps = dir_steps.iter().map(|&d| {
        let (i, d) = (int((reach + d) as usize), proc_macro2::Literal::i8_unsuffixed(d as i8));
        quote! {
            let v = near[#i];
            if v != mailbox::EMPTY {
                if v == them {
                    if !can_me && b.closes(at, #d, them, me) {
                        can_me = true;
                        if can_them {
                            break 'cell;
                        }
                    }
                } else if !can_them && b.closes(at, #d, me, them) {
                    can_them = true;
                    if can_me {
                        break 'cell;
                    }
                }
            }
        }
    });
    let turns = dir_steps.iter().enumerate().map(|(i, &d)| {
        let d = proc_macro2::Literal::i8_unsuffixed(d as i8);
        quote! {
            let n = b.turn(at, #d);
            m.set(#i, n);
            turned += n;
        }
    });
    let turns_back = dir_steps.iter().enumerate().map(|(i, &d)| {
        let d = proc_macro2::Literal::i8_unsuffixed(d as i8);
        quote! {
            let n = m.get(#i);
            b.turn_back(at, #d, n);
            turned += n;
        }
    });
    let flank_tests = dir_steps.iter().map(|&d| {
        let (i, d) = (int((reach + d) as usize), proc_macro2::Literal::i8_unsuffixed(d as i8));
        quote!((near[#i] == them && b.closes(at, #d, them, me)))
    });

    // A game scored by its pieces alone reads the board's counts; others ask the game's
    // endings on 64-bit boards (a finished game is a rare leaf).
    let outcome = match game.endings.as_slice() {
        [e] => match e.result {
            EndResult::Most { most, wins } => {
                let lead = if most != wins { quote!(-self.0.piece_diff()) } else { quote!(self.0.piece_diff()) };
                quote! {
                    match #lead {
                        0 => 0,
                        l if l > 0 => WIN + l,
                        l => -WIN + l,
                    }
                }
            }
            _ => quote!(<Rules as Tree>::outcome(&self.duel())),
        },
        _ => quote!(<Rules as Tree>::outcome(&self.duel())),
    };
    let items = quote! {
        /// The grid as the search holds it on this chip: a byte a cell inside a one-cell border.
        pub type Board = Mailbox<#board_cells>;
        /// The directions as steps on that board.
        const OFFSETS: [i8; #n_dirs] = mailbox::offsets(#dirs, #c);
        /// The cells in the order the search tries moves: those the evaluation rewards first,
        /// those it penalises last. In RAM: the search's innermost loops read it.
        static ORDER: [u8; #n_cells] = [#(#order),*];
        #(#regions)*

        /// A cell of the 64-bit boards (row * 8 + column) on the byte board, and back.
        const fn to_board(cell: u8) -> u8 {
            (cell / 8 + 1) * (#c + 2) + cell % 8 + 1
        }
        const fn from_board(at: u8) -> u8 {
            (at / (#c + 2) - 1) * 8 + at % (#c + 2) - 1
        }

        /// A position as the search holds it, the side to move colour 1.
        pub struct Searched(pub Board);

        impl Searched {
            pub fn new(pos: &Duel) -> Searched {
                let mut b = Board::new(#n_cells, 1);
                for r in 0..#r {
                    for c in 0..#c {
                        let cell = r * 8 + c;
                        if pos.me & bit(cell) != 0 {
                            b.put(to_board(cell), 1);
                        } else if pos.opp & bit(cell) != 0 {
                            b.put(to_board(cell), 2);
                        }
                    }
                }
                Searched(b)
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

            fn make(&mut self, at: u8) -> Made {
                make(&mut self.0, at)
            }

            fn pass(&mut self) -> Option<Made> {
                let u = self.0.pass();
                if moves(&self.0, &mut [0u8; 1]) != 0 {
                    return Some(u);
                }
                self.0.undo(u, &OFFSETS);
                None
            }

            fn undo(&mut self, m: Made) {
                undo(&mut self.0, m)
            }

            fn eval(&mut self) -> i16 {
                let (mine, theirs) = mobility(&self.0);
                eval_board(&self.0, mine, theirs)
            }

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
        }

        /// The side to move places on `at`, a legal cell, and turns what it flanks.
        #[inline(never)]
        fn make(b: &mut Board, at: u8) -> Made {
            let mut m = Made::on(at);
            let mut turned = 0u8;
            #(#turns)*
            b.placed(at, turned);
            m
        }

        /// Takes back a move or a pass.
        #[inline(never)]
        fn undo(b: &mut Board, m: Made) {
            let at = m.cell();
            if at == 0 {
                b.pass();
                return;
            }
            let mut turned = 0u8;
            #(#turns_back)*
            b.unplaced(at, turned);
        }

        /// The side to move's legal cells in `ORDER`; returns how many fit `out`.
        #[inline(never)]
        fn moves(b: &Board, out: &mut [u8]) -> usize {
            let (me, them) = (b.colour, mailbox::other(b.colour));
            let mut n = 0;
            for &at in ORDER.iter() {
                if n == out.len() {
                    break;
                }
                if !b.is_empty(at) {
                    continue;
                }
                let near: &[u8; #window] = b.near(at);
                if #(#flank_tests)||* {
                    out[n] = at;
                    n += 1;
                }
            }
            n
        }

        /// Both sides' number of legal cells, the side to move's first, in one pass over the
        /// empty cells: a direction's first neighbour tells which side could close a line.
        #[inline(never)]
        fn mobility(b: &Board) -> (u8, u8) {
            let (me, them) = (b.colour, mailbox::other(b.colour));
            let (mut mine, mut theirs) = (0u8, 0u8);
            for &at in ORDER.iter() {
                if !b.is_empty(at) {
                    continue;
                }
                let near: &[u8; #window] = b.near(at);
                let (mut can_me, mut can_them) = (false, false);
                'cell: {
                    #(#mobility_steps)*
                }
                mine += can_me as u8;
                theirs += can_them as u8;
            }
            (mine, theirs)
        }

        /// The evaluation on the byte board, given both sides' number of legal cells.
        #[inline(never)]
        fn eval_board(b: &Board, mine: u8, theirs: u8) -> i16 {
            #eval
        }
    };
    let search = quote! {
        fn search<const N: usize>(pos: &Duel, first: u8, max: u8, order: bool, budget: &mut Budget) -> Option<Choice<u8>> {
            let mut s = Searched::new(pos);
            choose_in_place::<Searched, N>(&mut s, first, max, order, budget)
                .map(|c| Choice { best: from_board(c.best), ..c })
        }
    };
    (items, search)
}
