//! The rules concern: a game's rule core (its actions' programs, endings, board and start)
//! rendered as constant data the runtime's `rules` module plays, the same programs the
//! compiler's engine runs.

use crate::engine::table::KeyedTable;
use crate::engine::Engine;
use gamec_dsl::GameDef;
use gamec_runtime::rules::ending::{Cmp, Condition, Count, Look, Result as EndResult, Scope, Who};
use gamec_runtime::rules::{Capture, Dirs, Holds, Op, Region, Sow, MAX_PATH};
use proc_macro2::TokenStream;
use quote::quote;

/// The module: `GAME` (rules, endings, turns), `CELLS` (the board's bytes) and `START`.
pub fn render(game: &GameDef, origin: super::Origin) -> TokenStream {
    let engine = Engine::new(game);
    let start = engine.fixed_start(game);
    let cells = start.cells.len();
    let start_bytes = &start.cells;
    let first = start.to_move;
    let doc = origin.quote_all(game.rules.moves.iter().map(|m| m.span));
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
        let pits = match r.pits {
            Some(p) => {
                let stores = p.stores;
                quote!(Some(gamec_runtime::rules::Pits { stores: #stores }))
            }
            None => quote!(None),
        };
        let play_op = play_op(r.actions.iter().flat_map(|a| a.ops));
        let judges = judge(
            quote!(judge),
            r.actions.iter().flat_map(|a| a.conditions).chain(g.endings.iter().flat_map(|e| e.conditions)),
        );
        let holds_after = judge(quote!(holds_after), r.actions.iter().flat_map(|a| a.conditions));
        let log = r.most_changes();
        let eval = game.device.eval.iter().flat_map(|e| &e.cases).map(|case| {
            let when = match case.when {
                Some((f, op, n)) => {
                    let (f, cmp) = (feature(f), cmp_tokens(crate::engine::cmp(op)));
                    quote!(Some((#f, #cmp, #n)))
                }
                None => quote!(None),
            };
            let terms = case.terms.iter().map(|&(w, f)| {
                let f = feature(f);
                quote!((#w, #f))
            });
            quote!(Case { when: #when, terms: &[#(#terms),*] })
        });
        quote! {
            //! The game's rule core: what each action does, when the game ends, the start.
            #![allow(unused_imports)]
            use gamec_runtime::rules::ending::{Cmp, Condition, Count, Ending, Judged, Look, Result, Scope, Who};
            use gamec_runtime::rules::eval::{Case, Feature};
            use gamec_runtime::rules::game::Game;
            use core::marker::PhantomData;
            use gamec_runtime::rules::{
                Action, Capture, Dirs, Emit, Geometry, Holds, Kinds, Op, Order, Program, Region, Sow, Walk,
            };

            #(#[doc = #doc])*
            pub static GAME: Game<'static, Ops> = Game {
                rules: gamec_runtime::rules::Rules {
                    geometry: Geometry { cols: #cols, rows: #rows, stride: #stride, cut: &[#(#cut),*] },
                    actions: &[#(#actions),*],
                    regions: &[#(#regions),*],
                    per_player: #per_player,
                    heaps: #heaps,
                    pits: #pits,
                    players: #players,
                    program: PhantomData,
                },
                endings: &[#(#endings),*],
                pass: #pass,
                advance: #advance,
                eval: &[#(#eval),*],
            };

            /// Bytes of a position's board.
            pub const CELLS: usize = #cells;
            /// The start, and who moves first. (Firmware plays `Rules::STARTS`, every start
            /// the file gives; the host's tests play this one.)
            #[allow(dead_code)]
            pub const START: [u8; CELLS] = [#(#start_bytes),*];
            pub const FIRST: u8 = #first;

            /// The ops and conditions the game's programs use, and no others: the code of the
            /// rest is not linked.
            pub struct Ops;

            impl Program for Ops {
                /// Room for the most cells one of the game's moves changes.
                type Log = [(u8, u8); #log];
                #play_op
                #judges
                #holds_after
            }
        }
    })
}

/// The first of each enum variant among `items`, in order: a match's arms, one a variant.
fn one_of_each_variant<'a, T>(items: impl Iterator<Item = &'a T>) -> Vec<&'a T> {
    let mut seen = Vec::new();
    items
        .filter(|x| {
            let d = std::mem::discriminant(*x);
            let new = !seen.contains(&d);
            seen.push(d);
            new
        })
        .collect()
}

/// The match over the ops `ops` uses, each calling the runtime's method for it: what the
/// chip links of the core's walk is what this game's programs can reach.
fn play_op<'o>(ops: impl Iterator<Item = &'o Op>) -> TokenStream {
    let arms = one_of_each_variant(ops).into_iter().map(|o| match o {
        Op::Pick { .. } => quote!(Op::Pick { what, free } => w.pick(what, free, action, pc, emit)),
        Op::Step { .. } => quote!(Op::Step { dirs, to } => w.step(dirs, to, action, pc, emit)),
        Op::Jump { .. } => {
            quote!(Op::Jump { dirs, over, to, capture } => w.jump(dirs, over, to, capture, action, pc, emit))
        }
        Op::Ride { .. } => {
            quote!(Op::Ride { dirs, min, max, over, to } => w.ride(dirs, min, max, over, to, action, pc, emit))
        }
        Op::Rests { .. } => quote!(Op::Rests { dir } => w.rests(dir, action, pc, emit)),
        Op::Take { .. } => quote!(Op::Take { min, max } => w.take(min, max, action, pc, emit)),
        Op::Put { .. } => quote!(Op::Put { kind } => w.put(kind, action, pc, emit)),
        Op::Carry => quote!(Op::Carry => w.carry(action, pc, emit)),
        Op::ClearRun => quote!(Op::ClearRun => w.clear_run(action, pc, emit)),
        Op::Cycle { .. } => quote!(Op::Cycle { order } => w.cycle(order, action, pc, emit)),
        Op::Around { .. } => quote!(Op::Around { dirs, order } => w.around(dirs, order, action, pc, emit)),
        Op::Flank { .. } => quote!(Op::Flank { dirs, required } => w.flank(dirs, required, action, pc, emit)),
        Op::Promote { .. } => quote!(Op::Promote { kind, region } => w.promote(kind, region, action, pc, emit)),
        Op::Chain { .. } => quote!(Op::Chain { to } => w.chain(to, action, pc, emit)),
        Op::Sow(_) => quote!(Op::Sow(sow) => w.sow(sow, action, pc, emit)),
    });
    quote! {
        // One arm for each op the game's programs use: one alone is still a match.
        #[allow(unreachable_patterns, clippy::single_match, clippy::match_single_binding)]
        fn play_op(w: &mut Walk<'_, '_, Self>, op: Op, action: &Action, pc: usize, emit: Emit) {
            match op {
                #(#arms,)*
                _ => {}
            }
        }
    }
}

/// The method `name` of the game's `Program`: the match over `conditions`, those it judges.
fn judge<'c>(name: TokenStream, conditions: impl Iterator<Item = &'c Condition>) -> TokenStream {
    let arms = one_of_each_variant(conditions).into_iter().map(|c| match c {
        Condition::InARow { .. } => quote!(Condition::InARow { k, directions } => r.in_a_row(pos, k, directions)),
        Condition::Full => quote!(Condition::Full => r.full(pos)),
        Condition::NoMoves => quote!(Condition::NoMoves => r.no_moves(pos)),
        Condition::NeitherCanMove => quote!(Condition::NeitherCanMove => r.neither_can_move(pos)),
        Condition::Distinct { .. } => quote!(Condition::Distinct { rows } => r.distinct(pos, rows)),
        Condition::Compare { .. } => quote!(Condition::Compare { lhs, cmp, rhs } => r.compare(lhs, cmp, rhs, pos)),
    });
    quote! {
        #[allow(unreachable_patterns, unused_variables, clippy::match_single_binding)]
        fn #name(r: &gamec_runtime::rules::Rules<'_, Self>, c: &Condition, pos: &mut Judged) -> bool {
            match *c {
                #(#arms,)*
                _ => false,
            }
        }
    }
}

/// The module of a game the firmware plays on the rule core over a serial line: [`render`]'s
/// rules, the game as the runtime's `CoreGame` (which makes it the session's `Placement`), and
/// its protocol.
pub fn render_served(game: &GameDef, origin: super::Origin, table: Option<&KeyedTable>) -> TokenStream {
    let rules = render(game, origin);
    let engine = Engine::new(game);
    let (stride, named) = engine.with_game(|g| {
        let chains = g.rules.actions.iter().any(|a| a.ops.iter().any(|o| matches!(o, Op::Chain { .. })));
        // The cells a move's path records: its pick, each landing, a heap and its count.
        let chosen = |o: &Op| match o {
            Op::Pick { .. } | Op::Step { .. } | Op::Jump { .. } | Op::Ride { .. } => 1,
            Op::Take { .. } => 2,
            _ => 0,
        };
        let longest = g.rules.actions.iter().map(|a| a.ops.iter().map(chosen).sum::<usize>()).max().unwrap_or(1);
        (g.rules.geometry.stride, if chains { MAX_PATH } else { longest.clamp(1, MAX_PATH) })
    });
    // Every start the file gives (a puzzle's setups), the first the one a session plays.
    // A random setup's starts are every deal it may make, one picked at random a game.
    let states = crate::analyze::dealt_starts(&engine, game);
    let random_start = game.rules.setup.is_random() && states.len() > 1;
    let starts: Vec<TokenStream> = states
        .iter()
        .map(|s| {
            let bytes = &s.cells;
            quote!([#(#bytes),*])
        })
        .collect();
    let n_starts = super::int(starts.len());
    // A ride that may stay where it is names its cell twice running.
    let repeats = engine
        .with_game(|g| g.rules.actions.iter().any(|a| a.ops.iter().any(|o| matches!(o, Op::Ride { min: 0, .. }))));
    // What a `free` pick passes by: each start's given cells, a bit each, where a game has
    // such a pick (and a start that gives a cell).
    let free = game.rules.moves.iter().any(|m| matches!(m.kind, gamec_dsl::MoveKind::Cycle { free: true, .. }));
    let givens = (free && states.iter().any(|s| s.given != 0)).then(|| {
        let each = states.iter().map(|s| {
            let bytes = (0..s.cells.len().div_ceil(8)).map(|b| super::int((s.given >> (8 * b)) as u8));
            quote!(&[#(#bytes),*])
        });
        quote! {
            /// Per start, the cells it gave, a bit each: what a `free` pick passes by.
            const GIVENS: &'static [&'static [u8]] = &[#(#each),*];
        }
    });
    let again = engine.again;
    // A position of more moves than a byte counts (a 16 x 16 grid's placements) counts them
    // in a word; every other game keeps the runtime's default, a byte's count.
    let moves = (crate::bind::core_moves(game) > usize::from(u8::MAX)).then(|| {
        quote!(
            const MOVES: u16 = gamec_runtime::rules::as_placement::MOVES;
        )
    });
    let strategy = match game.device.strategy.as_ref().map(|s| s.kind) {
        // A game alone has no device: the cheapest choice stands in, never called, so that
        // no search is linked.
        _ if game.rules.players.len() < 2 => quote!(Strategy::Random),
        Some(gamec_dsl::StrategyKind::Random) => quote!(Strategy::Random),
        _ if table.is_some() => quote!(Strategy::Solved),
        _ => quote!(Strategy::Search),
    };
    let ties_random = game.device.strategy.as_ref().is_some_and(|s| s.ties_random);
    let solved = table.map(|t| solved_table(t, ties_random));
    let solved_const = table.map(|_| {
        quote!(
            const SOLVED: Option<&'static Table<'static>> = Some(&SOLVED);
        )
    });
    // A key's buffer as long as the table's keys, none without a table.
    let key_len = super::int(table.map_or(0, |t| t.len as usize));
    let protocol = game.interface.serial.as_ref().map(|p| super::protocol::render(game, p, origin));
    quote! {
        #rules

        use gamec_runtime::rules::as_placement::CoreGame;
        use gamec_runtime::session::{cmd, op, Event, Protocol, Served, Strategy, SILENT};

        /// The most cells a move names (its path): what a session reads and a cursor enters;
        /// buttons enter a move by its piece instead.
        #[allow(dead_code)]
        pub const NAMED: usize = #named;

        /// The game, for the runtime's session: its rules are the core's.
        pub struct Rules;

        impl CoreGame for Rules {
            type Cells = [u8; CELLS];
            type Program = Ops;
            const GAME: &'static Game<'static, Ops> = &GAME;
            const STARTS: &'static [[u8; CELLS]] = &STARTS;
            const CLEARED: [u8; CELLS] = [0; CELLS];
            const FIRST: u8 = FIRST;
            const STRIDE: u8 = #stride;
            const STRATEGY: Strategy = #strategy;
            const RANDOM_START: bool = #random_start;
            const REPEATS: bool = #repeats;
            const AGAIN: bool = #again;
            #moves
            type Key = [u8; #key_len];
            const KEY: [u8; #key_len] = [0; #key_len];
            #solved_const
            #givens
        }

        /// Every start the file gives, in program memory.
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static STARTS: [[u8; CELLS]; #n_starts] = [#(#starts),*];

        #solved

        #protocol
    }
}

/// A solved game's table (`gamec_runtime::rules::solved`): its keys in program memory.
fn solved_table(t: &KeyedTable, ties_random: bool) -> TokenStream {
    let (alphabet, bits, turn_bits, pass, len) = (&t.alphabet, t.bits, t.turn_bits, t.pass, t.len);
    let (lost, drawn, plies) = (&t.lost, &t.drawn, &t.lost_plies);
    let (lost_len, drawn_len, plies_len) = (lost.len(), drawn.len(), plies.len());
    let (won, won_plies) = (&t.won, &t.won_plies);
    let (won_len, won_plies_len) = (won.len(), won_plies.len());
    let doc = format!(
        "The solved game: of its {} positions, the {} lost for the side to move and the {} drawn, \
         each a key of {len} bytes, sorted (`gamec_runtime::rules::solved`).",
        t.positions,
        lost_len / len as usize,
        drawn_len / len as usize
    );
    quote! {
        use gamec_runtime::rules::solved::{Layout, Table};

        #[doc = #doc]
        pub static SOLVED: Table<'static> = Table {
            layout: Layout { alphabet: &[#(#alphabet),*], bits: #bits, turn_bits: #turn_bits, pass: #pass, len: #len },
            lost: &LOST,
            lost_plies: &LOST_PLIES,
            won: &WON,
            won_plies: &WON_PLIES,
            drawn: &DRAWN,
            ties_random: #ties_random,
        };
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static LOST: [u8; #lost_len] = [#(#lost),*];
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static LOST_PLIES: [u8; #plies_len] = [#(#plies),*];
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static WON: [u8; #won_len] = [#(#won),*];
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static WON_PLIES: [u8; #won_plies_len] = [#(#won_plies),*];
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        static DRAWN: [u8; #drawn_len] = [#(#drawn),*];
    }
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
        Op::Sow(Sow { into_store, skip_origin, again, capture }) => {
            let capture = match capture {
                Capture::Nothing => quote!(Capture::Nothing),
                Capture::Opposite => quote!(Capture::Opposite),
                Capture::Making { min, max } => quote!(Capture::Making { min: #min, max: #max }),
            };
            quote!(Op::Sow(Sow { into_store: #into_store, skip_origin: #skip_origin, again: #again, capture: #capture }))
        }
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

fn cmp_tokens(cmp: Cmp) -> TokenStream {
    match cmp {
        Cmp::Eq => quote!(Cmp::Eq),
        Cmp::Ne => quote!(Cmp::Ne),
        Cmp::Lt => quote!(Cmp::Lt),
        Cmp::Le => quote!(Cmp::Le),
        Cmp::Gt => quote!(Cmp::Gt),
        Cmp::Ge => quote!(Cmp::Ge),
    }
}

/// An evaluation's feature, as the runtime's `rules::eval` names it.
fn feature(f: gamec_dsl::Feature) -> TokenStream {
    use gamec_dsl::Feature as F;
    match f {
        F::Pieces => quote!(Feature::Pieces),
        F::Mobility => quote!(Feature::Mobility),
        F::Region(r) => {
            let r = r as u8;
            quote!(Feature::Region(#r))
        }
        F::Lines { have, of } => quote!(Feature::Lines { have: #have, of: #of }),
        F::Empty => quote!(Feature::Empty),
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
            let (lhs, cmp, rhs) = (count(lhs), cmp_tokens(cmp), count(rhs));
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
