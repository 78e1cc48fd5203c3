//! Renders a game's rules, setup, strategy and feedback as a module over the runtime.

use crate::analyze::Analysis;
use crate::bind::Target;
use crate::solve;
use gamec_dsl::{Animation, Constraint, ControlAction, EventKind, GameDef, Quantity, Response, StrategyKind};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

pub fn render(game: &GameDef, analysis: &Analysis, target: Option<&Target>) -> TokenStream {
    let rules = &analysis.rules;
    let cells = rules.cells;
    let pieces = rules.pieces;
    let k = pieces as usize;
    let slides = rules.slides.iter().map(|s| {
        let (step, min, max, over) = (s.step, s.min, s.max, s.over_empty);
        quote! { Slide { cells: CELLS, step: #step, min: #min, max: #max, over_empty: #over } }
    });
    let n_slides = rules.slides.len();
    let last_mover_wins = rules.last_mover_wins;
    let device = game.strategy.as_ref().and_then(|s| s.player).unwrap_or(1 - game.first);
    let human_first = game.first != device;

    // The solved table: bit r set when the mover wins the position of rank r.
    let positions = solve::binomial(cells as u32, pieces as u32) as usize;
    let mut table = vec![0u8; positions.div_ceil(8)];
    for p in rules.placements() {
        if analysis.solution.mover_wins(p) {
            let r = solve::rank(p, cells) as usize;
            table[r / 8] |= 1 << (r % 8);
        }
    }
    let table_len = table.len();
    let table_bytes = table.iter().map(|b| Literal::u8_unsuffixed(*b));
    let uses_table = game.setup.iter().any(|c| matches!(c, Constraint::Winnable { .. }))
        || game.strategy.as_ref().is_some_and(|s| s.kind == StrategyKind::Perfect);
    let table_items = uses_table.then(|| {
        quote! {
            /// Bit r is set when the player to move wins the position of rank r with perfect play.
            #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
            pub static MOVER_WINS: [u8; #table_len] = [#(#table_bytes),*];
            /// The player to move wins `pos` with perfect play.
            pub fn mover_wins(pos: Cells) -> bool {
                progmem::bit(&MOVER_WINS, rank::rank::<#k>(pos, CELLS))
            }
        }
    });

    let from_left = if rules.numbered_from_right { quote!(line::nth_from_top) } else { quote!(line::nth_from_bottom) };
    let checks = game.setup.iter().map(|c| match c {
        Constraint::Winnable { player, .. } => {
            if *player == game.first {
                quote!(mover_wins(pos))
            } else {
                quote!(!mover_wins(pos))
            }
        }
        Constraint::Compare { lhs, op, rhs, .. } => {
            let l = quantity(lhs, rules.numbered_from_right);
            let r = quantity(rhs, rules.numbered_from_right);
            let op = super::comparison(*op);
            quote!((#l #op #r))
        }
    });
    let checks: Vec<TokenStream> = checks.collect();
    let setup_ok = if checks.is_empty() { quote!(true) } else { quote!(#(#checks)&&*) };

    let device_move = match game.strategy.as_ref().map(|s| (s.kind, s.ties_random)) {
        Some((StrategyKind::Perfect, ties)) => quote! { strategy::perfect(pos, &SLIDES, mover_wins, rng, #ties) },
        _ => quote! { strategy::random(pos, &SLIDES, rng) },
    };
    let extend_action = game
        .controls
        .iter()
        .find_map(|c| match c.action {
            ControlAction::Extend { action } => Some(action),
            ControlAction::Commit => None,
        })
        .unwrap_or(0);

    let feedback = target.map(|t| feedback(game, t, device, cells));
    quote! {
        //! Rules, setup and strategy of the game, over the gamec runtime.
        #![allow(clippy::all, dead_code, unused_imports)]
        use gamec_runtime::line::{self, Cells, Move, Slide};
        use gamec_runtime::rng::Rng;
        use gamec_runtime::{progmem, rank, strategy};
        use gamec_runtime::turn::Game;

        pub const CELLS: u8 = #cells;
        pub const PIECES: u8 = #pieces;
        pub const SLIDES: [Slide; #n_slides] = [#(#slides),*];

        #table_items

        /// Whether a start position meets every setup constraint.
        pub fn setup_ok(pos: Cells) -> bool {
            #setup_ok
        }

        pub struct Rules;

        impl Game for Rules {
            const LAST_MOVER_WINS: bool = #last_mover_wins;
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
                SLIDES.iter().any(|s| s.has_move(pos))
            }

            fn device_move(pos: Cells, rng: &mut Rng) -> Option<Move> {
                #device_move
            }

            fn extend(start: Cells, piece: u8, steps: u8) -> Option<Cells> {
                let from = #from_left(start, piece)?;
                SLIDES[#extend_action].target(start, from, steps).map(|to| Move { from, to }.apply(start))
            }
        }

        #feedback
    }
}

fn quantity(q: &Quantity, numbered_from_right: bool) -> TokenStream {
    match q {
        Quantity::Const(n) => {
            let n = *n as u8;
            quote!(#n)
        }
        Quantity::Leftmost | Quantity::Rightmost => {
            let high = (*q == Quantity::Leftmost) == numbered_from_right;
            let f = if high { quote!(line::highest) } else { quote!(line::lowest) };
            quote!(#f(pos).map_or(0, |i| i + 1))
        }
    }
}

fn feedback(game: &GameDef, target: &Target, device: usize, cells: u8) -> TokenStream {
    let tunes = target.tunes.iter().enumerate().map(|(i, notes)| {
        let name = format_ident!("TUNE_{}", game.tunes[i].name.node.to_uppercase());
        let n = notes.len();
        let notes = notes.iter().map(|(clock, top, ms)| quote! { Note { top: #top, clock: #clock, millis: #ms } });
        quote! {
            #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
            pub static #name: [Note; #n] = [#(#notes),*];
        }
    });
    let tune_for = |kind: EventKind| -> TokenStream {
        let found = game.events.iter().find(|e| e.event == kind).and_then(|e| match e.response {
            Response::Tune(t) if !target.tunes.is_empty() => Some(t),
            _ => None,
        });
        match found {
            Some(t) => {
                let name = format_ident!("TUNE_{}", game.tunes[t].name.node.to_uppercase());
                quote!(Some(&#name))
            }
            None => quote!(None),
        }
    };
    let denied = tune_for(EventKind::Denied);
    let accepted = tune_for(EventKind::Accepted);
    let human_won = tune_for(EventKind::Win(1 - device));
    let device_won = tune_for(EventKind::Win(device));
    let cylon = game
        .events
        .iter()
        .any(|e| e.event == EventKind::Attract && matches!(e.response, Response::Animate(Animation::Cylon)));
    let cylon = if cylon { quote!(Some(#cells)) } else { quote!(None) };
    let pieces = target.commit.min(target.inputs.len() as u8);
    let commit = target.commit;
    let idle = game.idle.as_ref().map_or(0, |i| i.after_ms);
    quote! {
        use gamec_runtime::app::{Controls, Feedback};
        use gamec_runtime::tune::Note;

        #(#tunes)*

        pub static FEEDBACK: Feedback = Feedback {
            denied: #denied,
            accepted: #accepted,
            human_won: #human_won,
            device_won: #device_won,
            cylon: #cylon,
        };

        pub static CONTROLS: Controls = Controls { pieces: #pieces, commit: #commit, idle_ms: #idle };
    }
}
