//! Renders a grid game of placement as a module over the runtime: the start position, the
//! rules as a search [`Tree`](gamec_runtime::search::Tree), the game's endings as its
//! `over` verdict, the game's evaluation, and for a solved game its table.

use super::int;
use super::origin::{described, doc, Origin};
use crate::engine::solve::{explore, Value, MAX_STATES};
use crate::engine::{Engine, STRIDE};
use gamec_dsl::{
    Condition, Count, EndResult, EndingDef, EvalDef, Feature, GameDef, GridBoard, MoveKind, StrategyKind, Whose,
};
use proc_macro2::TokenStream;
use quote::quote;

/// How a grid game's search holds its positions on the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Representation {
    /// 64-bit boards, a bit a cell: the host's, and every game's.
    Bitboards,
    /// A byte a cell, moves made and undone in place, for the search of a flanking game on an
    /// 8-bit chip ([`super::grid_mailbox`]). `roomy` where the chip has flash to spend on
    /// speed: the board then tallies the evaluation's regions as pieces come and go; without,
    /// regions are counted cell by cell at each evaluation. `multiplies` where the chip
    /// multiplies signed bytes in one instruction (an ATmega's `muls`), which the evaluation's
    /// weights then use.
    ByteBoard { roomy: bool, multiplies: bool },
}

pub fn render(game: &GameDef, origin: Origin, repr: Representation) -> TokenStream {
    let g = game.rules.grid().expect("grid_game::render is given grid games");
    let (cols, rows) = (int(g.cols), int(g.rows));
    let cells = int(g.cols * g.rows);
    let capture = game.rules.moves.iter().find_map(|m| match m.kind {
        MoveKind::Place { capture: Some(d) } => Some(d),
        _ => None,
    });
    let dirs = if capture == Some(4) { quote!(ROOK) } else { quote!(KING) };
    let mut start = [0u64; 2];
    for (player, at) in game.rules.fixed_pieces() {
        for &c in at {
            start[*player] |= 1 << c;
        }
    }
    let (me, opp) = (hex(start[game.rules.first]), hex(start[1 - game.rules.first]));
    let start_doc = start_doc(game, g, start[game.rules.first], start[1 - game.rules.first]);

    let (legal_terms, play) = moves_of(game, capture);

    let Endings { settled, decided_fn, decided_check, pass, endings, stuck, stopped, outcome } =
        endings_of(game, origin);

    let regions = used_regions(game).into_iter().map(|i| region_const(game, g, i, origin));
    let (eval_call, leaf, eval_with) = evaluation_of(game, origin, settled);
    let (strategy, solved, table) = strategy(game, g, origin);
    let protocol = game.interface.serial.as_ref().map(|p| super::protocol::render(game, p, origin));
    let grid_doc = described(&["The board: columns from A, rows from 1."], origin.quote(g.span));
    let capturing = game.rules.moves.iter().filter(|m| matches!(m.kind, MoveKind::Place { capture: Some(_) }));
    let dirs_doc = described(
        &["The directions in which a capturing placement flanks lines."],
        origin.quote_all(capturing.map(|m| m.span)),
    );
    let moves = origin.quote_all(game.rules.moves.iter().map(|m| m.span));
    let legal_doc = described(&["The cells `me` may play on, against `opp`: every action's, together."], moves.clone());
    let rules_doc =
        described(&["The game's rules, for the runtime's search and session."], origin.quote(game.name.span));
    let ending_lines = origin.quote_all(game.rules.endings.iter().map(|e| e.span));
    let over_doc =
        described(&["The game's endings in order (the side to move is `me`, the mover `opp`)."], ending_lines.clone());
    let play_doc = doc(&moves);
    let strategy_doc = described(&[], origin.quote_all(game.device.strategy.iter().map(|s| s.span)));
    let placement = placement_of(game, g, repr, &strategy_doc, &strategy, &solved);
    let eval_doc = described(&[], origin.quote_all(game.device.eval.iter().map(|e| e.span)));
    let stopped_doc = described(
        &["The result of a game the host ends early, scored as it stands."],
        origin.quote_all(
            game.rules.endings.iter().filter(|e| matches!(e.result, EndResult::Most { .. })).map(|e| e.span),
        ),
    );
    let outcome_doc = described(&["A finished game's score for the side to move."], ending_lines);
    quote! {
        //! Rules and evaluation of the game, over the gamec runtime.
        #![allow(clippy::all, dead_code, unused_imports, unused_parens, unused_variables)]
        use gamec_runtime::grid::{bit, cells_into, count, Bits, Duel, Grid, KING, ROOK};
        use gamec_runtime::rng::Rng;
        use gamec_runtime::mailbox::{self, Mailbox, Made};
        use gamec_runtime::search::{choose_from, choose_in_place, Budget, Choice, InPlace, Tree, WIN};
        use gamec_runtime::session::{cmd, op, Event, Placement, Protocol, Served, Strategy, Verdict, HELD_BY_MOVER, HELD_BY_OTHER, SILENT};

        #grid_doc
        pub const GRID: Grid = Grid { cols: #cols, rows: #rows };
        #dirs_doc
        pub const DIRS: &[(i8, i8)] = &#dirs;
        /// Room for every legal move of a position.
        pub const MAX_MOVES: usize = #cells;
        #start_doc
        pub const START: Duel = Duel { me: #me, opp: #opp };

        #(#regions)*

        #table

        #legal_doc
        #[inline(always)]
        fn legal_for(me: Bits, opp: Bits) -> Bits {
            #(#legal_terms)|*
        }

        #decided_fn

        #rules_doc
        pub struct Rules;

        impl Tree for Rules {
            type Pos = Duel;
            type Move = u8;

            fn moves(pos: &Duel, out: &mut [u8]) -> usize {
                #decided_check
                cells_into(legal_for(pos.me, pos.opp), out)
            }

            #play_doc
            fn play(pos: &Duel, m: u8) -> Duel {
                #play
            }

            fn pass(pos: &Duel) -> Option<Duel> {
                #pass
            }

            #eval_doc
            fn eval(pos: &Duel) -> i16 {
                #eval_call
            }

            #leaf

            #outcome_doc
            fn outcome(pos: &Duel) -> i16 {
                #outcome
            }
        }

        #over_doc
        fn over(pos: &Duel) -> Option<Verdict> {
            #(#endings)*
            #stuck
            None
        }

        #stopped_doc
        fn stopped(pos: &Duel) -> Verdict {
            #stopped
        }

        #placement

        #eval_with

        #protocol
    }
}

/// The cells each action offers, for either side, and the making of a move.
fn moves_of(game: &GameDef, capture: Option<u8>) -> (Vec<TokenStream>, TokenStream) {
    // The cells each action offers, for either side.
    let legal_terms = game.rules.moves.iter().map(|m| match m.kind {
        MoveKind::Place { capture: Some(_) } => quote!(GRID.flank_moves(me, opp, DIRS)),
        MoveKind::Drop => quote!(GRID.drops(me | opp)),
        _ => quote!(GRID.cells() & !(me | opp)),
    });
    let plain = game.rules.moves.iter().any(|m| !matches!(m.kind, MoveKind::Place { capture: Some(_) }));
    let play = match (capture.is_some(), plain) {
        (true, false) => quote!(pos.place(&GRID, DIRS, m)),
        (false, _) => quote!(Duel { me: pos.opp, opp: pos.me | bit(m) }),
        (true, true) => quote! {
            if GRID.flank_moves(pos.me, pos.opp, DIRS) & bit(m) != 0 {
                pos.place(&GRID, DIRS, m)
            } else {
                Duel { me: pos.opp, opp: pos.me | bit(m) }
            }
        },
    };

    (legal_terms.collect(), play)
}

/// How the game ends, in the forms the search and the session read.
struct Endings {
    /// Some ending needs no look at the moves (`decided`).
    settled: bool,
    decided_fn: TokenStream,
    decided_check: TokenStream,
    pass: TokenStream,
    endings: Vec<TokenStream>,
    stuck: TokenStream,
    stopped: TokenStream,
    outcome: TokenStream,
}

/// The game's endings: the test of an ending that needs no look at the moves, the pass, the
/// verdicts in order, the draw where nobody can move, a stopped game's result and a finished
/// one's score.
fn endings_of(game: &GameDef, origin: Origin) -> Endings {
    // Endings without a condition on moves can end a game in which moves remain.
    let settled: Vec<&EndingDef> = game
        .rules
        .endings
        .iter()
        .filter(|e| !e.conditions.iter().any(|c| matches!(c, Condition::NoMoves | Condition::NeitherCanMove)))
        .collect();
    let (decided_fn, decided_check) = if settled.is_empty() {
        (quote!(), quote!())
    } else {
        let any = settled.iter().map(|e| conjunction(game, e));
        let doc = described(
            &["An ending that needs no look at the moves holds: nobody moves again."],
            origin.quote_all(settled.iter().map(|e| e.span)),
        );
        (
            quote! {
                #doc
                fn decided(pos: &Duel) -> bool {
                    #(#any)||*
                }
            },
            quote! {
                if decided(pos) {
                    return 0;
                }
            },
        )
    };
    let pass = if game.rules.pass {
        let check = if settled.is_empty() { quote!() } else { quote!(!decided(pos) &&) };
        quote!((#check legal_for(pos.opp, pos.me) != 0).then(|| pos.swap()))
    } else {
        quote!(None)
    };
    let endings = game.rules.endings.iter().map(|e| {
        let when = conjunction(game, e);
        let verdict = verdict(e.result);
        quote!(if #when { return Some(#verdict); })
    });
    // Where nobody may move and no ending holds, the game stops drawn; an ending of nothing
    // but `neither can move` (or `no moves`, without passing) already covers it.
    let covered = game.rules.endings.iter().any(|e| match e.conditions.as_slice() {
        [Condition::NeitherCanMove] => true,
        [Condition::NoMoves] => !game.rules.pass,
        _ => false,
    });
    let stuck = match (covered, game.rules.pass) {
        (true, _) => quote!(),
        (false, true) => quote! {
            // Nobody may move and no ending holds: the game stops, drawn.
            if legal_for(pos.me, pos.opp) == 0 && legal_for(pos.opp, pos.me) == 0 {
                return Some(Verdict::Draw);
            }
        },
        (false, false) => quote! {
            // Nobody may move and no ending holds: the game stops, drawn.
            if legal_for(pos.me, pos.opp) == 0 {
                return Some(Verdict::Draw);
            }
        },
    };
    let stopped = game
        .rules
        .endings
        .iter()
        .find(|e| matches!(e.result, EndResult::Most { .. }))
        .map_or(quote!(Verdict::Draw), |e| verdict(e.result));
    // A game scored by its pieces keeps its margin in the search's score; others prefer the
    // quicker win and the slower loss.
    let only_most = game.rules.endings.len() == 1
        && matches!(game.rules.endings[0].result, EndResult::Most { .. })
        && settled.is_empty();
    let outcome = match game.rules.endings.first().map(|e| e.result) {
        Some(EndResult::Most { most, wins }) if only_most => {
            let lead = if most != wins { quote!(-pos.diff(!0)) } else { quote!(pos.diff(!0)) };
            quote! {
                match #lead {
                    0 => 0,
                    l if l > 0 => WIN + l,
                    l => -WIN + l,
                }
            }
        }
        _ => quote! {
            match over(pos) {
                Some(Verdict::Win) => WIN + pos.empty(&GRID),
                Some(Verdict::Loss) => -WIN - pos.empty(&GRID),
                _ => 0,
            }
        },
    };

    Endings {
        settled: !settled.is_empty(),
        decided_fn,
        decided_check,
        pass,
        endings: endings.collect(),
        stuck,
        stopped,
        outcome,
    }
}

/// The evaluation: `eval`'s body, and where it weighs mobility, a leaf that reuses both
/// sides' legal cells to tell a finished game (`settled`: some ending needs no look at the
/// moves).
fn evaluation_of(game: &GameDef, origin: Origin, settled: bool) -> (TokenStream, TokenStream, TokenStream) {
    let eval = game.device.eval.as_ref().map_or(quote!(pos.diff(!0)), |e| eval_body(e, &|f| feature(game, f)));
    // An evaluation that weighs mobility generates both sides' moves; the search's leaves
    // reuse them to tell a finished game, instead of generating the mover's a third time.
    let uses_mobility = game.device.eval.as_ref().is_some_and(|e| {
        e.cases.iter().any(|c| {
            c.terms.iter().any(|t| t.1 == Feature::Mobility) || c.when.is_some_and(|w| w.0 == Feature::Mobility)
        })
    });
    let eval_with_doc = described(
        &["The evaluation, given both sides' legal cells. One copy, for `eval` and `leaf`."],
        origin.quote_all(game.device.eval.iter().map(|e| e.span)),
    );
    let (eval_call, leaf, eval_with) = if uses_mobility {
        let settled_leaf = if !settled {
            quote!()
        } else {
            quote!(if decided(pos) {
                return Self::outcome(pos);
            })
        };
        let over = if game.rules.pass { quote!(mine == 0 && theirs == 0) } else { quote!(mine == 0) };
        (
            quote!(eval_with(pos, legal_for(pos.me, pos.opp), legal_for(pos.opp, pos.me))),
            quote! {
                fn leaf(pos: &Duel) -> i16 {
                    #settled_leaf
                    let mine = legal_for(pos.me, pos.opp);
                    let theirs = legal_for(pos.opp, pos.me);
                    if #over {
                        return Self::outcome(pos);
                    }
                    eval_with(pos, mine, theirs)
                }
            },
            quote! {
                #eval_with_doc
                #[inline(never)]
                fn eval_with(pos: &Duel, mine: Bits, theirs: Bits) -> i16 {
                    #eval
                }
            },
        )
    } else {
        (eval.clone(), quote!(), quote!())
    };
    (eval_call, leaf, eval_with)
}

/// The session's view of the game: on the byte board where the chip calls for it, else on
/// the 64-bit boards the search uses too.
fn placement_of(
    game: &GameDef,
    g: &GridBoard,
    repr: Representation,
    strategy_doc: &TokenStream,
    strategy: &TokenStream,
    solved: &TokenStream,
) -> TokenStream {
    match repr {
        Representation::ByteBoard { roomy, multiplies } if super::grid_mailbox::applies(game) => {
            super::grid_mailbox::render(game, g, strategy_doc, roomy, multiplies)
        }
        _ => quote! {
            impl Placement for Rules {
                type Pos = Duel;
                #strategy_doc
                const STRATEGY: Strategy = #strategy;

                fn start(pos: &mut Duel) {
                    *pos = START;
                }

                const CLEARED: Duel = Duel { me: 0, opp: 0 };

                fn legal_at(pos: &Duel, cell: u8) -> bool {
                    legal_for(pos.me, pos.opp) & bit(cell) != 0
                }

                fn can_move(pos: &Duel) -> bool {
                    legal_for(pos.me, pos.opp) != 0
                }

                fn holder(pos: &Duel, cell: u8) -> u8 {
                    pos.holder(cell)
                }

                fn count(pos: &Duel, mover: bool) -> u8 {
                    pos.count(mover)
                }

                fn play(pos: &mut Duel, cell: u8) {
                    *pos = <Rules as Tree>::play(pos, cell);
                }

                fn pass(pos: &mut Duel) {
                    *pos = pos.swap();
                }

                fn over(pos: &Duel) -> Option<Verdict> {
                    over(pos)
                }

                fn stopped(pos: &Duel) -> Verdict {
                    stopped(pos)
                }

                #solved

                fn search<const N: usize>(pos: &mut Duel, first: u8, max: u8, order: bool, budget: &mut Budget) -> Option<Choice<u8>> {
                    choose_from::<Rules, N>(pos, first, max, order, budget)
                }
            }
        },
    }
}

/// A 64-bit board as a hex literal.
fn hex(bits: u64) -> TokenStream {
    format!("0x{bits:016X}").parse().expect("a hex literal")
}

/// An ending's conditions as one boolean over `pos`.
fn conjunction(game: &GameDef, e: &EndingDef) -> TokenStream {
    if e.conditions.is_empty() {
        return quote!(true);
    }
    let parts: Vec<TokenStream> = e.conditions.iter().map(|c| condition(game, c)).collect();
    match parts.as_slice() {
        [one] => one.clone(),
        _ => quote!((#(#parts)&&*)),
    }
}

fn condition(game: &GameDef, c: &Condition) -> TokenStream {
    match *c {
        Condition::InARow { k, directions } => {
            let (k, diagonals) = (int(k), directions == 8);
            quote!(GRID.in_a_row(pos.opp, #k, #diagonals))
        }
        Condition::Full => quote!((pos.me | pos.opp) == GRID.cells()),
        Condition::NoMoves => quote!(legal_for(pos.me, pos.opp) == 0),
        Condition::NeitherCanMove => quote!(legal_for(pos.me, pos.opp) == 0 && legal_for(pos.opp, pos.me) == 0),
        Condition::Distinct { .. } => {
            unreachable!("a game whose ending tells rows apart is played on the rule core (bind)")
        }
        Condition::Compare { lhs, op, rhs } => {
            let (l, r) = (count_expr(game, lhs), count_expr(game, rhs));
            let op = super::comparison(op);
            quote!(#l #op #r)
        }
    }
}

fn count_expr(game: &GameDef, c: Count) -> TokenStream {
    match c {
        Count::Const(n) => {
            let n = int(n.min(i16::MAX as u32));
            quote!(#n)
        }
        Count::Pieces { whose, region } => {
            let bits = match whose {
                Whose::Mover => quote!(pos.opp),
                Whose::Next => quote!(pos.me),
                // The firmware refuses endings that name a player (bind), so this is everyone's.
                Whose::All | Whose::Player(_) => quote!((pos.me | pos.opp)),
            };
            match region {
                Some(i) => {
                    let name = region_ident(game, i);
                    quote!(count(#bits & #name))
                }
                None => quote!(count(#bits)),
            }
        }
        Count::Cells { .. } => {
            unreachable!("a game whose ending counts by row, column, state or run is played on the rule core (bind)")
        }
    }
}

/// A result as the verdict for the side to move (`me`), the mover being `opp`.
fn verdict(r: EndResult) -> TokenStream {
    match r {
        EndResult::Draw => quote!(Verdict::Draw),
        EndResult::Wins(Whose::Next) | EndResult::Loses(Whose::Mover) => quote!(Verdict::Win),
        EndResult::Wins(_) | EndResult::Loses(_) => quote!(Verdict::Loss),
        EndResult::Most { most, wins } => {
            let lead = if most != wins { quote!(-pos.diff(!0)) } else { quote!(pos.diff(!0)) };
            quote! {
                match #lead {
                    0 => Verdict::Draw,
                    l if l > 0 => Verdict::Win,
                    _ => Verdict::Loss,
                }
            }
        }
    }
}

/// How the device chooses; for a solved game, its chooser and its table.
fn strategy(game: &GameDef, g: &GridBoard, origin: Origin) -> (TokenStream, TokenStream, TokenStream) {
    match game.device.strategy.as_ref().map(|s| (s.kind, s.ties_random, s.span)) {
        Some((StrategyKind::Search, _, _)) => (quote!(Strategy::Search), quote!(), quote!()),
        Some((StrategyKind::Perfect, ties, span)) => {
            let table = solved_table(game, g);
            let len = int(table.len());
            let bytes = super::raw_bytes(&table);
            let doc = described(
                &[
                    "The solved game: two bits a position for the side to move (1 win, 2 loss,",
                    "3 draw, 0 unreachable), positions in base 3 over the cells (see",
                    "`gamec_runtime::solved`).",
                ],
                origin.quote(span),
            );
            let solved_doc = described(&["The device's move, from the solved game."], origin.quote(span));
            (
                quote!(Strategy::Solved),
                quote! {
                    #solved_doc
                    fn solved(pos: &Duel, rng: &mut Rng) -> Option<u8> {
                        let legal = legal_for(pos.me, pos.opp);
                        let lost = |p: &Duel| over(p) == Some(Verdict::Loss);
                        gamec_runtime::solved::best(pos, legal, &GRID, &SOLVED, |p, m| <Rules as Tree>::play(p, m), lost, rng, #ties)
                    }
                },
                quote! {
                    #doc
                    #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
                    pub static SOLVED: [u8; #len] = #bytes;
                },
            )
        }
        _ => (quote!(Strategy::Random), quote!(), quote!()),
    }
}

/// Every reachable position's value, two bits at its base-3 index (see
/// `gamec_runtime::solved`), from the compiler's own solution of the game.
pub fn solved_table(game: &GameDef, g: &GridBoard) -> Vec<u8> {
    let engine = Engine::new(game);
    let solved =
        explore(&engine, &[engine.fixed_start(game)], MAX_STATES).expect("lints refuse games too big to solve");
    let positions = 3usize.pow(g.cols * g.rows);
    let mut table = vec![0u8; positions.div_ceil(4)];
    for (i, s) in solved.states.iter().enumerate() {
        let mut index = 0usize;
        for r in 0..g.rows as usize {
            for c in 0..g.cols as usize {
                let digit = match s.cells[r * STRIDE + c] {
                    0 => 0,
                    v if v - 1 == s.to_move => 1,
                    _ => 2,
                };
                index = index * 3 + digit;
            }
        }
        let value = match solved.values[i] {
            Value::Win(_) => 1,
            Value::Loss(_) => 2,
            Value::Draw => 3,
        };
        table[index / 4] |= value << (index % 4 * 2);
    }
    table
}

/// The regions an evaluation weighs, each once, in declaration order.
pub(super) fn used_regions(game: &GameDef) -> Vec<usize> {
    let mut used: Vec<usize> = game
        .device
        .eval
        .iter()
        .flat_map(|e| &e.cases)
        .flat_map(|c| c.terms.iter().map(|t| t.1).chain(c.when.map(|w| w.0)))
        .filter_map(|f| match f {
            Feature::Region(i) => Some(i),
            _ => None,
        })
        .chain(game.rules.endings.iter().flat_map(|e| &e.conditions).flat_map(|c| {
            match c {
                Condition::Compare { lhs, rhs, .. } => [*lhs, *rhs]
                    .into_iter()
                    .filter_map(|x| match x {
                        Count::Pieces { region, .. } => region,
                        Count::Const(_) | Count::Cells { .. } => None,
                    })
                    .collect(),
                _ => Vec::new(),
            }
        }))
        .collect();
    used.sort_unstable();
    used.dedup();
    used
}

pub(super) fn region_ident(game: &GameDef, i: usize) -> proc_macro2::Ident {
    quote::format_ident!("REGION_{}", game.rules.regions[i].name.node.to_uppercase())
}

/// The grid drawn as doc lines, the top row first, a character a cell, the columns
/// lettered underneath.
fn drawing(g: &GridBoard, glyph: impl Fn(u32) -> char) -> Vec<String> {
    let mut doc = vec!["```text".to_string()];
    let width = g.rows.to_string().len();
    for row in (0..g.rows).rev() {
        let cells: String = (0..g.cols).map(|c| glyph(row * 8 + c)).collect();
        doc.push(format!("{:>width$} {cells}", row + 1));
    }
    let letters: String = (0..g.cols).map(|c| (b'A' + c as u8) as char).collect();
    doc.push(format!("{:width$} {letters}", ""));
    doc.push("```".to_string());
    doc
}

/// A region as a bit mask, with the grid drawn in its doc comment.
fn region_const(game: &GameDef, g: &GridBoard, i: usize, origin: Origin) -> TokenStream {
    let r = &game.rules.regions[i];
    let mask = r.cells.iter().fold(0u64, |m, &c| m | 1 << c);
    let mut lines = vec![format!("The region `{}`:", r.name.node), String::new()];
    lines.extend(drawing(g, |c| if mask >> c & 1 == 1 { '#' } else { '.' }));
    lines.push(String::new());
    lines.extend(origin.quote(r.span));
    let doc = doc(&lines);
    let name = region_ident(game, i);
    let hex = hex(mask);
    quote! {
        #doc
        pub const #name: Bits = #hex;
    }
}

/// The start position's doc: both sides' pieces drawn on the grid.
fn start_doc(game: &GameDef, g: &GridBoard, me: u64, opp: u64) -> TokenStream {
    let (first, second) = (&game.rules.players[game.rules.first].node, &game.rules.players[1 - game.rules.first].node);
    let mut lines = vec![
        format!("The start position, seen from the player who moves first: `x` {first} (`me`),"),
        format!("`o` {second} (`opp`)."),
        String::new(),
    ];
    lines.extend(drawing(g, |c| match (me >> c & 1, opp >> c & 1) {
        (1, _) => 'x',
        (_, 1) => 'o',
        _ => '.',
    }));
    doc(&lines)
}

/// The evaluation's cases as an expression, each feature read as `feature` writes it.
pub(super) fn eval_body(e: &EvalDef, feature: &dyn Fn(Feature) -> TokenStream) -> TokenStream {
    eval_body_with(e, feature, &|w, f| {
        let w = int(w);
        quote!(#w * #f)
    })
}

/// [`eval_body`] with each term's product written by `product` (a weight, a feature).
pub(super) fn eval_body_with(
    e: &EvalDef,
    feature: &dyn Fn(Feature) -> TokenStream,
    product: &dyn Fn(i16, TokenStream) -> TokenStream,
) -> TokenStream {
    let sum = |terms: &[(i16, Feature)]| -> TokenStream {
        if terms.is_empty() {
            return quote!(0);
        }
        // As the game writes it: a negative weight after the first term subtracts.
        let mut out = TokenStream::new();
        for (i, &(w, f)) in terms.iter().enumerate() {
            let f = feature(f);
            let term = match w {
                _ if i == 0 => product(w, f),
                w if w < 0 && w != i16::MIN => {
                    let p = product(-w, f);
                    quote!(- #p)
                }
                w => {
                    let p = product(w, f);
                    quote!(+ #p)
                }
            };
            out.extend(term);
        }
        out
    };
    // The cases from the last: each earlier one an `if` around the rest, chained as `else if`.
    let mut body = quote!(0);
    let mut body_is_if = false;
    for case in e.cases.iter().rev() {
        let value = sum(&case.terms);
        (body, body_is_if) = match case.when {
            None => (value, false),
            Some((f, op, n)) => {
                let f = feature(f);
                // Lowering keeps `n` within the feature's reach; were it not, a saturated
                // comparison still means what the file says of any 16-bit feature, where a
                // wrapped one would not.
                let n = int(i16::try_from(n).unwrap_or(if n < 0 { i16::MIN } else { i16::MAX }));
                let op = super::comparison(op);
                let rest = if body_is_if { body } else { quote!({ #body }) };
                (quote!(if #f #op #n { #value } else #rest), true)
            }
        };
    }
    body
}

fn feature(game: &GameDef, f: Feature) -> TokenStream {
    match f {
        Feature::Pieces => quote!(pos.diff(!0)),
        Feature::Mobility => quote!((count(mine) - count(theirs))),
        Feature::Region(i) => {
            let name = region_ident(game, i);
            quote!(pos.diff(#name))
        }
        Feature::Empty => quote!(pos.empty(&GRID)),
        Feature::Lines { have, of } => {
            let (have, of) = (int(have), int(of));
            quote!((GRID.lines(pos.me, pos.opp, #have, #of) - GRID.lines(pos.opp, pos.me, #have, #of)))
        }
    }
}
