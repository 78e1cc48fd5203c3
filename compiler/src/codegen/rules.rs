//! The rules concern: a game's rule core (its actions' programs, endings, board and start)
//! rendered as constant data the runtime's `rules` module plays, the same programs the
//! compiler's engine runs.

use crate::engine::Engine;
use gamec_dsl::GameDef;
use gamec_runtime::rules::ending::{Cmp, Condition, Count, Look, Result as EndResult, Scope, Who};
use gamec_runtime::rules::{Dirs, Holds, Op, Region};
use proc_macro2::TokenStream;
use quote::quote;

/// The module: `GAME` (rules, endings, turns), `CELLS` (the board's bytes) and `START`.
pub fn render(game: &GameDef, origin: super::Origin) -> TokenStream {
    let engine = Engine::new(game);
    let start = engine.fixed_start(game);
    let cells = start.cells.len();
    let start_bytes = &start.cells;
    let first = start.to_move;
    let doc = origin.quote_all(game.moves.iter().map(|m| m.span));
    engine.with_game(|g| {
        let r = &g.rules;
        let geo = &r.geometry;
        let (cols, rows, stride) = (geo.cols, geo.rows, geo.stride);
        let cut = geo.cut;
        let actions = r.actions.iter().map(|a| {
            let ops = a.ops.iter().map(op);
            let conditions = a.conditions.iter().map(condition);
            let must = a.must;
            quote!(Action { ops: &[#(#ops),*], must: #must, conditions: &[#(#conditions),*] })
        });
        let regions = r.regions.iter().map(|cells| quote!(&[#(#cells),*]));
        let endings = g.endings.iter().map(|e| {
            let conditions = e.conditions.iter().map(condition);
            let result = result(e.result);
            quote!(Ending { conditions: &[#(#conditions),*], result: #result })
        });
        let (per_player, heaps, players, pass, advance) = (r.per_player, r.heaps, r.players, g.pass, g.advance);
        quote! {
            //! The game's rule core: what each action does, when the game ends, the start.
            #![allow(unused_imports)]
            use gamec_runtime::rules::ending::{Cmp, Condition, Count, Ending, Look, Result, Scope, Who};
            use gamec_runtime::rules::game::Game;
            use gamec_runtime::rules::{Action, Dirs, Geometry, Holds, Kinds, Op, Order, Region, Rules};

            #(#[doc = #doc])*
            pub static GAME: Game<'static> = Game {
                rules: Rules {
                    geometry: Geometry { cols: #cols, rows: #rows, stride: #stride, cut: &[#(#cut),*] },
                    actions: &[#(#actions),*],
                    regions: &[#(#regions),*],
                    per_player: #per_player,
                    heaps: #heaps,
                    players: #players,
                },
                endings: &[#(#endings),*],
                pass: #pass,
                advance: #advance,
            };

            /// Bytes of a position's board.
            pub const CELLS: usize = #cells;
            /// The start, and who moves first.
            pub const START: [u8; CELLS] = [#(#start_bytes),*];
            pub const FIRST: u8 = #first;
        }
    })
}

fn dirs(d: Dirs) -> TokenStream {
    let (bits, relative) = (d.bits, d.relative);
    quote!(Dirs { bits: #bits, relative: #relative })
}

fn holds(h: Holds) -> TokenStream {
    match h {
        Holds::Empty => quote!(Holds::Empty),
        Holds::Anything => quote!(Holds::Anything),
        Holds::Occupied => quote!(Holds::Occupied),
        Holds::Mine(k) => {
            let k = k.0;
            quote!(Holds::Mine(Kinds(#k)))
        }
        Holds::Theirs(k) => {
            let k = k.0;
            quote!(Holds::Theirs(Kinds(#k)))
        }
        Holds::EmptyOrTheirs => quote!(Holds::EmptyOrTheirs),
    }
}

fn op(o: &Op) -> TokenStream {
    match *o {
        Op::Pick { what, free } => {
            let what = holds(what);
            quote!(Op::Pick { what: #what, free: #free })
        }
        Op::Step { dirs: d, to } => {
            let (d, to) = (dirs(d), holds(to));
            quote!(Op::Step { dirs: #d, to: #to })
        }
        Op::Jump { dirs: d, over, to, capture } => {
            let (d, over, to) = (dirs(d), holds(over), holds(to));
            quote!(Op::Jump { dirs: #d, over: #over, to: #to, capture: #capture })
        }
        Op::Ride { dirs: d, min, max, over, to } => {
            let (d, over, to) = (dirs(d), holds(over), holds(to));
            quote!(Op::Ride { dirs: #d, min: #min, max: #max, over: #over, to: #to })
        }
        Op::Rests { dir } => {
            let d = dirs(dir);
            quote!(Op::Rests { dir: #d })
        }
        Op::Take { min, max } => quote!(Op::Take { min: #min, max: #max }),
        Op::Put { kind } => quote!(Op::Put { kind: #kind }),
        Op::Carry => quote!(Op::Carry),
        Op::ClearRun => quote!(Op::ClearRun),
        Op::Cycle { order } => {
            let values = order.values();
            quote!(Op::Cycle { order: Order::new(&[#(#values),*]) })
        }
        Op::Around { dirs: d, order } => {
            let (d, values) = (dirs(d), order.values());
            quote!(Op::Around { dirs: #d, order: Order::new(&[#(#values),*]) })
        }
        Op::Flank { dirs: d, required } => {
            let d = dirs(d);
            quote!(Op::Flank { dirs: #d, required: #required })
        }
        Op::Promote { kind, region } => {
            let region = match region {
                Region::Declared(r) => quote!(Region::Declared(#r)),
                Region::FarRow => quote!(Region::FarRow),
            };
            quote!(Op::Promote { kind: #kind, region: #region })
        }
        Op::Chain { to } => quote!(Op::Chain { to: #to }),
    }
}

fn who(w: Who) -> TokenStream {
    match w {
        Who::Mover => quote!(Who::Mover),
        Who::Next => quote!(Who::Next),
        Who::Player(p) => quote!(Who::Player(#p)),
        Who::All => quote!(Who::All),
    }
}

fn count(c: Count) -> TokenStream {
    match c {
        Count::Const(n) => quote!(Count::Const(#n)),
        Count::Pieces { who: w, region } => {
            let w = who(w);
            let region = match region {
                Some(r) => quote!(Some(#r)),
                None => quote!(None),
            };
            quote!(Count::Pieces { who: #w, region: #region })
        }
        Count::Cells { look, scope, run } => {
            let look = match look {
                Look::Pieces(w) => {
                    let w = who(w);
                    quote!(Look::Pieces(#w))
                }
                Look::Content(c) => quote!(Look::Content(#c)),
                Look::Any => quote!(Look::Any),
            };
            let scope = match scope {
                Scope::Board => quote!(Scope::Board),
                Scope::Region(r) => quote!(Scope::Region(#r)),
                Scope::EachRow => quote!(Scope::EachRow),
                Scope::EachColumn => quote!(Scope::EachColumn),
            };
            quote!(Count::Cells { look: #look, scope: #scope, run: #run })
        }
    }
}

fn condition(c: &Condition) -> TokenStream {
    match *c {
        Condition::InARow { k, directions } => quote!(Condition::InARow { k: #k, directions: #directions }),
        Condition::Full => quote!(Condition::Full),
        Condition::NoMoves => quote!(Condition::NoMoves),
        Condition::NeitherCanMove => quote!(Condition::NeitherCanMove),
        Condition::Distinct { rows } => quote!(Condition::Distinct { rows: #rows }),
        Condition::Compare { lhs, cmp, rhs } => {
            let (lhs, rhs) = (count(lhs), count(rhs));
            let cmp = match cmp {
                Cmp::Eq => quote!(Cmp::Eq),
                Cmp::Ne => quote!(Cmp::Ne),
                Cmp::Lt => quote!(Cmp::Lt),
                Cmp::Le => quote!(Cmp::Le),
                Cmp::Gt => quote!(Cmp::Gt),
                Cmp::Ge => quote!(Cmp::Ge),
            };
            quote!(Condition::Compare { lhs: #lhs, cmp: #cmp, rhs: #rhs })
        }
    }
}

fn result(r: EndResult) -> TokenStream {
    match r {
        EndResult::Wins(w) => {
            let w = who(w);
            quote!(Result::Wins(#w))
        }
        EndResult::Loses(w) => {
            let w = who(w);
            quote!(Result::Loses(#w))
        }
        EndResult::Draw => quote!(Result::Draw),
        EndResult::Most { most, wins } => quote!(Result::Most { most: #most, wins: #wins }),
    }
}
