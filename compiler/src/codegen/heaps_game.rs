//! Renders a game of heaps as a module over the runtime's line-game machinery: each heap a run
//! of lights, the removal actions, the fixed start, the solved table and the feedback.

use super::origin::{described, Origin};
use super::{int, raw_bytes};
use crate::bind::Target;
use crate::engine::solve::{explore, Value, MAX_STATES};
use crate::engine::Engine;
use crate::rules::EndDef;
use gamec_dsl::{ControlAction, GameDef, MoveKind, StrategyKind};
use proc_macro2::TokenStream;
use quote::quote;

pub fn render(game: &GameDef, target: Option<&Target>, origin: Origin) -> TokenStream {
    let sizes: Vec<u8> = game.rules.fixed_heaps().iter().map(|&n| n as u8).collect();
    let mut first = 0u8;
    let heaps = sizes.iter().map(|&size| {
        let h = {
            let (first, size) = (int(first), int(size));
            quote!(Heap { first: #first, size: #size })
        };
        first += size;
        h
    });
    let lights = sizes.iter().map(|&s| s as u32).sum::<u32>() as u8;
    let n_heaps = int(sizes.len());
    // Every heap starts full: all its lights on, one bit a light, the heaps apart.
    let runs: Vec<String> = sizes.iter().rev().filter(|&&s| s > 0).map(|&s| "1".repeat(s as usize)).collect();
    let start = if runs.is_empty() { "0".to_string() } else { format!("0b{}", runs.join("_")) };
    let start: TokenStream = start.parse().expect("a binary literal");
    let takes: Vec<(usize, TokenStream)> = game
        .rules
        .moves
        .iter()
        .enumerate()
        .filter_map(|(i, m)| match m.kind {
            MoveKind::Remove { min, max } => {
                let (min, max) = (int(min as u8), int(max.unwrap_or(255).min(255) as u8));
                Some((i, quote!(Take { min: #min, max: #max })))
            }
            _ => None,
        })
        .collect();
    let n_takes = int(takes.len());
    let take_items = takes.iter().map(|t| &t.1);
    let extend = extend_fn(game, &takes);
    let last_mover_wins = !matches!(EndDef::of(&game.rules.endings), Some(EndDef::NoMoves { last_mover_wins: false }));
    let device = game.device.strategy.as_ref().and_then(|s| s.player).unwrap_or(1 - game.rules.first);
    let human_first = game.rules.first != device;

    let table = mover_wins_table(game, &sizes);
    let table_len = int(table.len());
    let table = raw_bytes(&table);
    let device_move = match game.device.strategy.as_ref().map(|s| (s.kind, s.ties_random)) {
        Some((StrategyKind::Perfect, ties)) => {
            quote!(heaps::perfect(&HEAPS, pos, &TAKES, mover_wins, rng, #ties))
        }
        _ => quote! {{
            let mut any = Pick::default();
            heaps::for_each(&HEAPS, pos, &TAKES, |next| any.offer(next, rng));
            any.chosen()
        }},
    };
    let feedback = target.map(|t| super::game::feedback(game, t, device, lights, origin));
    let feedback_uses = target.map(|_| super::game::feedback_uses());
    let heaps_doc = described(
        &["The heaps' runs of lights, from light 1 up; each starts full."],
        origin.quote(game.rules.board.span()),
    );
    let takes_doc = described(
        &["The removal actions, in the order the game declares them."],
        origin.quote_all(game.rules.moves.iter().filter(|m| matches!(m.kind, MoveKind::Remove { .. })).map(|m| m.span)),
    );
    let strategy = game.device.strategy.iter().map(|s| s.span);
    let table_doc = described(
        &["Bit i is set when the player to move wins the position of index i", "(`heaps::index`) with perfect play."],
        origin.quote_all(strategy.clone()),
    );
    let rules_doc = described(&["The game's rules, for the runtime's turn machine."], origin.quote(game.name.span));
    let end_doc = described(&[], origin.quote_all(game.rules.endings.iter().map(|e| e.span)));
    let strategy_doc = described(&[], origin.quote_all(strategy));
    let extend_doc = described(
        &["A press of a control takes one more counter from the heap it stands for."],
        origin.quote_all(game.interface.controls.iter().filter(|c| c.per_piece).map(|c| c.name.span)),
    );
    quote! {
        //! Rules, start and strategy of a game of heaps, over the gamec runtime.
        #![allow(clippy::all, dead_code, unused_imports)]
        use gamec_runtime::heaps::{self, Heap, Take};
        use gamec_runtime::line::{Cells, Move};
        use gamec_runtime::pick::Pick;
        use gamec_runtime::progmem;
        use gamec_runtime::rng::Rng;
        use gamec_runtime::turn::Game;
        #feedback_uses

        #heaps_doc
        pub const HEAPS: [Heap; #n_heaps] = [#(#heaps),*];
        /// The start: every heap full. Bit i is light i + 1; the last heap's lights come first.
        pub const START: Cells = #start;
        #takes_doc
        pub const TAKES: [Take; #n_takes] = [#(#take_items),*];

        #table_doc
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        pub static MOVER_WINS: [u8; #table_len] = #table;

        /// The player to move wins `pos` with perfect play.
        pub fn mover_wins(pos: Cells) -> bool {
            progmem::bit(&MOVER_WINS, heaps::index(&HEAPS, pos))
        }

        #rules_doc
        pub struct Rules;

        impl Game for Rules {
            #end_doc
            const LAST_MOVER_WINS: bool = #last_mover_wins;
            #strategy_doc
            const HUMAN_FIRST: bool = #human_first;

            fn setup(_: &mut Rng) -> Cells {
                START
            }

            fn can_move(pos: Cells) -> bool {
                heaps::has_move(&HEAPS, pos, &TAKES)
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

/// `Game::extend`: each per-heap control takes with its own action, a counter a press.
fn extend_fn(game: &GameDef, takes: &[(usize, TokenStream)]) -> TokenStream {
    // Each per-heap control takes with its own action.
    let extend_arms = game
        .interface
        .controls
        .iter()
        .filter(|c| c.per_piece)
        .filter_map(|c| match c.action {
            ControlAction::Extend { action } => takes.iter().position(|t| t.0 == action),
            _ => None,
        })
        .enumerate()
        .map(|(control, take)| {
            let (control, take) = (int(control), int(take));
            quote!(#control => &TAKES[#take],)
        });
    // Without per-heap controls nothing enters a move press by press.
    let extend_arms: Vec<TokenStream> = extend_arms.collect();
    if extend_arms.is_empty() {
        quote! {
            fn extend(_start: Cells, _control: u8, _heap: u8, _count: u8) -> Option<Cells> {
                None
            }
        }
    } else {
        quote! {
            fn extend(start: Cells, control: u8, heap: u8, count: u8) -> Option<Cells> {
                let take: &Take = match control {
                    #(#extend_arms)*
                    _ => return None,
                };
                heaps::take(&HEAPS, start, take, heap, count)
            }
        }
    }
}

/// Bit per position, by the heaps' mixed-radix index, from the compiler's own solution.
fn mover_wins_table(game: &GameDef, sizes: &[u8]) -> Vec<u8> {
    let positions: usize = sizes.iter().map(|&s| s as usize + 1).product();
    let mut table = vec![0u8; positions.div_ceil(8)];
    let engine = Engine::new(game);
    let Ok(solved) = explore(&engine, &[engine.fixed_start(game)], MAX_STATES) else { return table };
    for (i, s) in solved.states.iter().enumerate() {
        let mut index = 0usize;
        let mut scale = 1usize;
        for (h, &size) in sizes.iter().enumerate() {
            index += s.cells[h] as usize * scale;
            scale *= size as usize + 1;
        }
        if matches!(solved.values[i], Value::Win(_)) {
            table[index / 8] |= 1 << (index % 8);
        }
    }
    table
}
