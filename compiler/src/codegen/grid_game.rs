//! Renders a grid game of placement as a module over the runtime: the start position, the
//! rules as a search [`Tree`](gamec_runtime::search::Tree), and the game's evaluation.

use gamec_dsl::{EndDef, EvalDef, Feature, GameDef};
use proc_macro2::TokenStream;
use quote::quote;

pub fn render(game: &GameDef) -> TokenStream {
    let g = game.grid().expect("grid_game::render is given grid games");
    let (cols, rows) = (g.cols as u8, g.rows as u8);
    let cells = (g.cols * g.rows) as usize;
    let dirs = if game.places.first().is_some_and(|p| p.directions == 4) { quote!(ROOK) } else { quote!(KING) };
    let mut start = [0u64; 2];
    for (player, at) in &game.fixed_setup {
        for &c in at {
            start[*player] |= 1 << c;
        }
    }
    let (me, opp) = (start[game.first], start[1 - game.first]);
    let most_wins = match game.end {
        EndDef::NeitherCanMove { most_wins } => most_wins,
        EndDef::NoMoves { .. } => true,
    };
    let eval = game.eval.as_ref().map_or(quote!(pos.diff(!0)), eval_body);
    // An evaluation that weighs mobility generates both sides' moves; the search's leaves
    // reuse them to tell a finished game, instead of generating the mover's a third time.
    let uses_mobility = game.eval.as_ref().is_some_and(|e| {
        e.cases.iter().any(|c| {
            c.terms.iter().any(|t| t.1 == Feature::Mobility) || c.when.is_some_and(|w| w.0 == Feature::Mobility)
        })
    });
    let (eval_call, leaf, eval_with) = if uses_mobility {
        (
            quote!(eval_with(pos, GRID.flank_moves(pos.me, pos.opp, DIRS), GRID.flank_moves(pos.opp, pos.me, DIRS))),
            quote! {
                fn leaf(pos: &Duel) -> i16 {
                    let mine = GRID.flank_moves(pos.me, pos.opp, DIRS);
                    let theirs = GRID.flank_moves(pos.opp, pos.me, DIRS);
                    if mine == 0 && theirs == 0 {
                        return Self::outcome(pos);
                    }
                    eval_with(pos, mine, theirs)
                }
            },
            quote! {
                /// The evaluation, given both sides' legal cells. One copy, for `eval` and `leaf`.
                #[inline(never)]
                fn eval_with(pos: &Duel, mine: Bits, theirs: Bits) -> i16 {
                    #eval
                }
            },
        )
    } else {
        (eval.clone(), quote!(), quote!())
    };
    let protocol = game.serial.as_ref().map(|p| super::protocol::render(game, p));
    quote! {
        //! Rules and evaluation of the game, over the gamec runtime.
        #![allow(clippy::all, dead_code, unused_imports)]
        use gamec_runtime::grid::{cells_into, count, Bits, Duel, Grid, KING, ROOK};
        use gamec_runtime::search::{Tree, WIN};
        use gamec_runtime::session::{cmd, op, Placement, Protocol, SILENT};

        pub const GRID: Grid = Grid { cols: #cols, rows: #rows };
        pub const DIRS: &[(i8, i8)] = &#dirs;
        /// Room for every legal move of a position.
        pub const MAX_MOVES: usize = #cells;
        /// The start position, seen from the player who moves first.
        pub const START: Duel = Duel { me: #me, opp: #opp };

        pub struct Rules;

        impl Tree for Rules {
            type Pos = Duel;
            type Move = u8;

            fn moves(pos: &Duel, out: &mut [u8]) -> usize {
                cells_into(GRID.flank_moves(pos.me, pos.opp, DIRS), out)
            }

            fn play(pos: &Duel, m: u8) -> Duel {
                pos.place(&GRID, DIRS, m)
            }

            fn pass(pos: &Duel) -> Option<Duel> {
                (GRID.flank_moves(pos.opp, pos.me, DIRS) != 0).then(|| pos.swap())
            }

            fn eval(pos: &Duel) -> i16 {
                #eval_call
            }

            #leaf

            fn outcome(pos: &Duel) -> i16 {
                let lead = pos.diff(!0);
                let lead = if #most_wins { lead } else { -lead };
                match lead {
                    0 => 0,
                    l if l > 0 => WIN + l,
                    l => -WIN + l,
                }
            }
        }

        impl Placement for Rules {
            fn legal(pos: &Duel) -> Bits {
                GRID.flank_moves(pos.me, pos.opp, DIRS)
            }
        }

        #eval_with

        #protocol
    }
}

fn eval_body(e: &EvalDef) -> TokenStream {
    let sum = |terms: &[(i16, Feature)]| -> TokenStream {
        if terms.is_empty() {
            return quote!(0);
        }
        let parts = terms.iter().map(|(w, f)| {
            let f = feature(*f);
            quote!(#w * #f)
        });
        quote!(#(#parts)+*)
    };
    let mut body = quote!(0);
    for case in e.cases.iter().rev() {
        let value = sum(&case.terms);
        body = match case.when {
            None => value,
            Some((f, op, n)) => {
                let f = feature(f);
                let n = n as i16;
                let op = super::comparison(op);
                quote!(if #f #op #n { #value } else { #body })
            }
        };
    }
    body
}

fn feature(f: Feature) -> TokenStream {
    match f {
        Feature::Pieces => quote!(pos.diff(!0)),
        Feature::Mobility => quote!((count(mine) - count(theirs))),
        Feature::Corners => quote!(pos.diff(GRID.corners())),
        Feature::Edges => quote!(pos.diff(GRID.edges())),
        Feature::XSquares => quote!(pos.diff(GRID.x_squares())),
        Feature::Empty => quote!(pos.empty(&GRID)),
    }
}
