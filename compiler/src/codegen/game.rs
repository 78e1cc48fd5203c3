//! Renders a game's rules, setup, strategy and feedback as a module over the runtime.

use super::origin::{described, Origin};
use super::{int, raw_bytes};
use crate::analyze::Analysis;
use crate::bind::Target;
use crate::rules::Rules;
use crate::solve;
use gamec_dsl::{
    Animation, CmpOp, Constraint, ControlAction, EventKind, GameDef, Quantity, Response, Span, StrategyKind,
};
use proc_macro2::TokenStream;
use quote::quote;

pub fn render(game: &GameDef, analysis: &Analysis, target: Option<&Target>, origin: Origin) -> TokenStream {
    let rules = &analysis.rules;
    let (cells, pieces) = (int(rules.cells), int(rules.pieces));
    let slides = rules.slides.iter().map(|s| {
        let (step, min, max, over) = (int(s.step), int(s.min), int(s.max), s.over_empty);
        quote! { Slide { cells: CELLS, step: #step, min: #min, max: #max, over_empty: #over } }
    });
    let n_slides = int(rules.slides.len());
    // Each slide by its index, so that the constant folds into the code that reads it.
    let can_move = (0..rules.slides.len()).map(|i| {
        let i = int(i);
        quote!(SLIDES[#i].has_move(pos))
    });
    let can_move = quote!(false #(|| #can_move)*);
    let each_slide = (0..rules.slides.len()).map(|i| {
        let i = int(i);
        quote!(SLIDES[#i].for_each_next(cells, &mut f);)
    });
    let last_mover_wins = rules.last_mover_wins;
    let device = game.device.strategy.as_ref().and_then(|s| s.player).unwrap_or(1 - game.rules.first);
    let human_first = game.rules.first != device;

    let table_items = solved_table(game, analysis, origin);
    let setup_ok = setup_checks(game, rules);
    let (device_move, by_controls_items) = device_moves(game, rules);
    let extend = extend_fn(game, rules);
    let feedback = target.map(|t| feedback(game, t, device, rules.cells, origin));
    let feedback_uses = target.map(|_| feedback_uses());
    let cells_doc = described(&["Cells of the line."], origin.quote(game.rules.board.span()));
    let pieces_doc =
        described(&["Pieces on the line, shared by both players."], origin.quote(game.rules.piece.name.span));
    let slides_doc = described(
        &["The slide actions, in the order the game declares them."],
        origin.quote_all(game.rules.moves.iter().map(|a| a.span)),
    );
    let setup_doc = described(
        &["Whether a start position meets every setup constraint."],
        origin.quote_all(game.rules.setup.require().iter().map(|c| match c {
            Constraint::Winnable { span, .. } | Constraint::Compare { span, .. } => *span,
        })),
    );
    let rules_doc = described(&["The game's rules, for the runtime's turn machine."], origin.quote(game.name.span));
    let end_doc = described(&[], origin.quote_all(game.rules.endings.iter().map(|e| e.span)));
    let strategy_doc = described(&[], origin.quote_all(game.device.strategy.iter().map(|s| s.span)));
    let extend_doc = described(
        &["A press of a control extends the move entered so far from `start`."],
        origin.quote_all(game.interface.controls.iter().filter(|c| c.per_piece).map(|c| c.name.span)),
    );
    quote! {
        //! Rules, setup and strategy of the game, over the gamec runtime.
        #![allow(clippy::all, dead_code, unused_imports)]
        use gamec_runtime::line::{self, Cells, Move, Slide};
        use gamec_runtime::rng::Rng;
        use gamec_runtime::{progmem, rank, strategy};
        use gamec_runtime::turn::Game;
        #feedback_uses

        #cells_doc
        pub const CELLS: u8 = #cells;
        #pieces_doc
        pub const PIECES: u8 = #pieces;
        #slides_doc
        pub const SLIDES: [Slide; #n_slides] = [#(#slides),*];

        /// The slides' moves, each slide by its index so that the constants fold.
        pub struct Actions;

        impl line::Moves for Actions {
            fn each_next(&self, cells: Cells, mut f: impl FnMut(Cells)) {
                #(#each_slide)*
            }
        }

        #by_controls_items

        #table_items

        #setup_doc
        pub fn setup_ok(pos: Cells) -> bool {
            #setup_ok
        }

        #rules_doc
        pub struct Rules;

        impl Game for Rules {
            #end_doc
            const LAST_MOVER_WINS: bool = #last_mover_wins;
            #strategy_doc
            const HUMAN_FIRST: bool = #human_first;

            fn setup(rng: &mut Rng) -> Cells {
                loop {
                    let pos = strategy::random_set(rng, CELLS, PIECES);
                    if setup_ok(pos) {
                        return pos;
                    }
                }
            }

            fn can_move(pos: Cells) -> bool {
                #can_move
            }

            #strategy_doc
            fn device_move(pos: Cells, rng: &mut Rng) -> Option<Cells> {
                #device_move
            }

            #extend_doc
            #extend
        }

        #feedback
    }
}

/// The solved game as a bit a position (by its rank), where the device plays perfectly or a
/// setup must be winnable; none otherwise.
fn solved_table(game: &GameDef, analysis: &Analysis, origin: Origin) -> Option<TokenStream> {
    let rules = &analysis.rules;
    // The solved table: bit r set when the mover wins the position of rank r.
    let positions = solve::binomial(rules.cells as u32, rules.pieces as u32) as usize;
    let mut table = vec![0u8; positions.div_ceil(8)];
    for p in rules.placements() {
        if analysis.solution.mover_wins(p) {
            let r = solve::rank(p, rules.cells) as usize;
            table[r / 8] |= 1 << (r % 8);
        }
    }
    let table_len = int(table.len());
    let binomials_len = int(rules.pieces as usize * (rules.cells as usize - rules.pieces as usize + 1));
    let table_bytes = raw_bytes(&table);
    let perfect = game.device.strategy.as_ref().filter(|s| s.kind == StrategyKind::Perfect);
    let winnable: Vec<Span> = game
        .rules
        .setup
        .require()
        .iter()
        .filter_map(|c| match c {
            Constraint::Winnable { span, .. } => Some(*span),
            Constraint::Compare { .. } => None,
        })
        .collect();
    let uses_table = !winnable.is_empty() || perfect.is_some();
    let table_doc = described(
        &["Bit r is set when the player to move wins the position of rank r with perfect play."],
        origin.quote_all(winnable.iter().copied().chain(perfect.map(|s| s.span))),
    );
    uses_table.then(|| {
        quote! {
            #table_doc
            #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
            pub static MOVER_WINS: [u8; #table_len] = #table_bytes;
            /// The binomials the rank of a position adds up, worked out when the firmware is
            /// compiled: reading them is smaller than working them out on the device.
            #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
            pub static BINOMIALS: [u16; #binomials_len] = rank::binomials(CELLS, PIECES);
            /// The player to move wins `pos` with perfect play.
            pub fn mover_wins(pos: Cells) -> bool {
                progmem::bit(&MOVER_WINS, rank::rank_in(pos, CELLS, PIECES, &BINOMIALS))
            }
        }
    })
}

/// Whether a start position meets every setup constraint, as one expression over `pos`.
fn setup_checks(game: &GameDef, rules: &Rules) -> TokenStream {
    let checks = game.rules.setup.require().iter().map(|c| match c {
        Constraint::Winnable { player, .. } => {
            if *player == game.rules.first {
                quote!(mover_wins(pos))
            } else {
                quote!(!mover_wins(pos))
            }
        }
        Constraint::Compare { lhs, op, rhs, .. } => match (lhs, rhs) {
            // Two constants: the comparison is known now.
            (Quantity::Const(_), Quantity::Const(_)) => {
                let holds = rules.meets(0, c).unwrap_or(true);
                quote!(#holds)
            }
            // The highest cell's number against a constant: a comparison of the mask, with no
            // loop to find the cell.
            (q, Quantity::Const(n)) if is_highest(q, rules) => highest_against(*op, *n),
            (Quantity::Const(n), q) if is_highest(q, rules) => highest_against(mirrored(*op), *n),
            _ => {
                let l = quantity(lhs, rules);
                let r = quantity(rhs, rules);
                let op = super::comparison(*op);
                quote!(#l #op #r)
            }
        },
    });
    let checks: Vec<TokenStream> = checks.collect();
    if checks.is_empty() {
        quote!(true)
    } else {
        quote!(#(#checks)&&*)
    }
}

/// The device's move by its strategy, and the order its moves are walked in: the controls'
/// (`ByControls`, whose items come second) where that serves, else the actions'.
fn device_moves(game: &GameDef, rules: &Rules) -> (TokenStream, Option<TokenStream>) {
    // The per-piece controls' actions, with each control's index.
    let controlled: Vec<(usize, usize)> = per_piece_actions(game).collect();
    // Where the controls enter every action's moves, each once, and ties are broken at random
    // (so the moves' order does not matter), the device's moves are walked through `extend`,
    // the code a player's presses run anyway, rather than through a walk of their own.
    let each_once = (0..rules.slides.len()).all(|a| controlled.iter().filter(|&&(_, b)| b == a).count() == 1);
    let ties_random = game.device.strategy.as_ref().is_some_and(|s| s.ties_random || s.kind != StrategyKind::Perfect);
    let by_controls = each_once && ties_random && !controlled.is_empty();
    let device_moves = if by_controls { quote!(ByControls) } else { quote!(Actions) };
    let device_move = match game.device.strategy.as_ref().map(|s| (s.kind, s.ties_random)) {
        Some((StrategyKind::Perfect, ties)) => {
            quote! { strategy::perfect(pos, &#device_moves, mover_wins, rng, #ties) }
        }
        _ => quote! { strategy::random(pos, &#device_moves, rng) },
    };
    let by_controls_items = by_controls.then(|| {
        let per_control = controlled.iter().map(|&(control, action)| {
            let slide = &rules.slides[action];
            let (control, min, max) = (int(control), int(slide.min), int(slide.max));
            if slide.over_empty {
                // Over empty cells, a slide blocked at one length is blocked at every longer one.
                quote! {
                    let mut steps = #min;
                    while let Some(next) = <Rules as Game>::extend(cells, #control, piece, steps) {
                        f(next);
                        steps += 1;
                    }
                }
            } else {
                quote! {
                    let mut steps = #min;
                    while steps <= #max {
                        if let Some(next) = <Rules as Game>::extend(cells, #control, piece, steps) {
                            f(next);
                        }
                        steps += 1;
                    }
                }
            }
        });
        quote! {
            /// The same moves as [`Actions`], in another order: each piece's, as its controls
            /// enter them (through [`Game::extend`], which the player's presses run anyway).
            pub struct ByControls;

            impl line::Moves for ByControls {
                fn each_next(&self, cells: Cells, mut f: impl FnMut(Cells)) {
                    let mut piece = 0;
                    while piece < PIECES {
                        #(#per_control)*
                        piece += 1;
                    }
                }
            }
        }
    });
    (device_move, by_controls_items)
}

/// `Game::extend`: a press of a per-piece control extends the move entered so far.
fn extend_fn(game: &GameDef, rules: &Rules) -> TokenStream {
    let from_left =
        if rules.numbered_from_right { quote!(line::nth_bit_from_top) } else { quote!(line::nth_bit_from_bottom) };
    // Each per-piece control moves with its own action; the board wires them in this order.
    let extend_arms = per_piece_actions(game).map(|(control, action)| {
        let (control, action) = (int(control), int(action));
        quote!(#control => SLIDES[#action].after(start, from, steps),)
    });

    // Without per-piece controls nothing enters a move press by press.
    let extend_arms: Vec<TokenStream> = extend_arms.collect();
    if extend_arms.is_empty() {
        quote! {
            fn extend(_start: Cells, _control: u8, _piece: u8, _steps: u8) -> Option<Cells> {
                None
            }
        }
    } else {
        quote! {
            fn extend(start: Cells, control: u8, piece: u8, steps: u8) -> Option<Cells> {
                let from = #from_left(start, piece)?;
                // Each action's slide by its index, so that the constant folds into the code.
                match control {
                    #(#extend_arms)*
                    _ => None,
                }
            }
        }
    }
}

/// Whether the quantity is the number of the highest occupied cell (by index).
fn is_highest(q: &Quantity, rules: &Rules) -> bool {
    match q {
        Quantity::Leftmost | Quantity::Rightmost => (*q == Quantity::Leftmost) == rules.numbered_from_right,
        Quantity::Const(_) => false,
    }
}

/// `c OP q` as `q OP' c`.
fn mirrored(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Ge => CmpOp::Le,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Eq | CmpOp::Ne => op,
    }
}

/// `h OP n`, where h is the number from 1 of the highest occupied cell (0 on an empty line),
/// as comparisons of the mask `pos`: h >= c exactly when `pos >= 1 << (c - 1)`.
fn highest_against(op: CmpOp, n: u32) -> TokenStream {
    // h >= c, and h < c, without parentheses: the checks are joined by `&&`.
    let at_least = |c: u32| match highest_at_least(c) {
        Ok(floor) => {
            let floor = int(floor);
            quote!(pos >= #floor)
        }
        Err(holds) => quote!(#holds),
    };
    let below = |c: u32| match highest_at_least(c) {
        Ok(floor) => {
            let floor = int(floor);
            quote!(pos < #floor)
        }
        Err(holds) => {
            let holds = !holds;
            quote!(#holds)
        }
    };
    let next = n.saturating_add(1);
    match op {
        CmpOp::Ge => at_least(n),
        CmpOp::Gt => at_least(next),
        CmpOp::Lt => below(n),
        CmpOp::Le => below(next),
        CmpOp::Eq => {
            let (lo, hi) = (at_least(n), below(next));
            quote!(#lo && #hi)
        }
        CmpOp::Ne => {
            let (lo, hi) = (at_least(n), below(next));
            quote!(!(#lo && #hi))
        }
    }
}

/// The mask `floor` such that the highest occupied cell's number (from 1; 0 on an empty line)
/// is at least `c` exactly when the cells' mask is at least `floor`; or whether that holds
/// on every line, where it does not hang on the mask.
fn highest_at_least(c: u32) -> Result<u16, bool> {
    match c {
        0 => Err(true),
        1..=16 => Ok(1 << (c - 1)),
        _ => Err(false),
    }
}

/// A setup quantity as a `u8`: a cell number from 1, or a constant compared with one.
fn quantity(q: &Quantity, rules: &Rules) -> TokenStream {
    match q {
        Quantity::Const(n) => {
            // A cell number is at most `cells`: every constant above compares with it as
            // `cells + 1` does, which fits a byte where 267 (say) would wrap.
            let n = int((*n).min(rules.cells as u32 + 1));
            quote!(#n)
        }
        Quantity::Leftmost | Quantity::Rightmost => {
            let high = (*q == Quantity::Leftmost) == rules.numbered_from_right;
            let f = if high { quote!(line::highest) } else { quote!(line::lowest) };
            quote!(#f(pos).map_or(0, |i| i + 1))
        }
    }
}

/// The statics' names of the game's tunes: `TUNE_` and the name in capitals.
/// What the feedback's items use, for the module's head.
pub(super) fn feedback_uses() -> TokenStream {
    quote! {
        use gamec_runtime::app::{Controls, Feedback};
        use gamec_runtime::tune::Note;
    }
}

/// The tunes, what plays them when, and the controls' inputs.
pub(super) fn feedback(game: &GameDef, target: &Target, device: usize, cells: u8, origin: Origin) -> TokenStream {
    let (tunes, tune_for) = super::cursor_firmware::tunes(game, &target.tunes, origin);
    let denied = tune_for(EventKind::Denied);
    let accepted = tune_for(EventKind::Accepted);
    let human_won = tune_for(EventKind::Win(1 - device));
    let device_won = tune_for(EventKind::Win(device));
    let cylon = game
        .interface
        .events
        .iter()
        .any(|e| e.event == EventKind::Attract && matches!(e.response, Response::Animate(Animation::Cylon)));
    let cylon = if cylon {
        let cells = int(cells);
        quote!(Some(#cells))
    } else {
        quote!(None)
    };
    // The board wires each per-piece control's inputs together, in the order declared.
    // One input per piece, or per heap.
    let per_piece = game.interface.controls.iter().find(|c| c.per_piece);
    let pieces = per_piece.map_or(game.rules.piece.count, |c| c.arity(game)) as u8;
    let piece_controls = game.interface.controls.iter().filter(|c| c.per_piece).count();
    let piece_inputs = int((piece_controls * pieces as usize).min(target.inputs.len()));
    let (pieces, commit) = (int(pieces), int(target.commit));
    let idle = int(game.interface.idle.as_ref().map_or(0, |i| i.after_ms));
    let feedback_doc = described(
        &["What the device plays and lights, event by event."],
        origin.quote_all(game.interface.events.iter().map(|e| e.span)),
    );
    let controls_doc = described(
        &["The board's inputs: one per piece and control, then the commit button."],
        origin.quote_all(
            game.interface.controls.iter().map(|c| c.name.span).chain(game.interface.idle.iter().map(|i| i.span)),
        ),
    );
    quote! {
        #(#tunes)*

        #feedback_doc
        pub static FEEDBACK: Feedback = Feedback {
            denied: #denied,
            accepted: #accepted,
            human_won: #human_won,
            device_won: #device_won,
            cylon: #cylon,
        };

        #controls_doc
        pub static CONTROLS: Controls =
            Controls { piece_inputs: #piece_inputs, pieces: #pieces, commit: #commit, idle_ms: #idle };
    }
}

/// Each per-piece control's index (in the order the board wires them) and the action it moves
/// with.
fn per_piece_actions(game: &GameDef) -> impl Iterator<Item = (usize, usize)> + '_ {
    game.interface
        .controls
        .iter()
        .filter(|c| c.per_piece)
        .filter_map(|c| match c.action {
            ControlAction::Extend { action } => Some(action),
            _ => None,
        })
        .enumerate()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_highest_cell_against_a_constant_is_the_mask_against_a_floor() {
        for pos in 0..=u16::MAX {
            let highest = 16 - pos.leading_zeros();
            for c in 0..20 {
                let by_mask = match highest_at_least(c) {
                    Ok(floor) => pos >= floor,
                    Err(holds) => holds,
                };
                assert_eq!(by_mask, highest >= c, "cells {pos:#b}, at least {c}");
            }
        }
    }
}
