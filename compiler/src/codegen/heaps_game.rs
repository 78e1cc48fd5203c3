//! Renders a game of heaps as a module over the runtime's line-game machinery: each heap a run
//! of lights, the removal actions, the fixed start, the solved table and the feedback.

use crate::bind::Target;
use crate::engine::solve::{explore, Value, MAX_STATES};
use crate::engine::Engine;
use gamec_dsl::{ControlAction, EndDef, GameDef, MoveKind, StrategyKind};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

pub fn render(game: &GameDef, target: Option<&Target>) -> TokenStream {
    let sizes: Vec<u8> = game.fixed_heaps.iter().map(|&n| n as u8).collect();
    let mut first = 0u8;
    let heaps = sizes.iter().map(|&size| {
        let h = quote!(Heap { first: #first, size: #size });
        first += size;
        h
    });
    let lights = sizes.iter().map(|&s| s as u32).sum::<u32>() as u8;
    let n_heaps = sizes.len();
    // Every heap starts full: all its lights on.
    let start = Literal::u16_unsuffixed(((1u32 << lights) - 1) as u16);
    let takes: Vec<(usize, TokenStream)> = game
        .moves
        .iter()
        .enumerate()
        .filter_map(|(i, m)| match m.kind {
            MoveKind::Remove { min, max } => {
                let (min, max) = (min as u8, max.unwrap_or(255).min(255) as u8);
                Some((i, quote!(Take { min: #min, max: #max })))
            }
            _ => None,
        })
        .collect();
    let n_takes = takes.len();
    let take_items = takes.iter().map(|t| &t.1);
    // Each per-heap control takes with its own action.
    let extend_arms = game
        .controls
        .iter()
        .filter(|c| c.per_piece)
        .filter_map(|c| match c.action {
            ControlAction::Extend { action } => takes.iter().position(|t| t.0 == action),
            ControlAction::Commit => None,
        })
        .enumerate()
        .map(|(control, take)| {
            let control = control as u8;
            quote!(#control => &TAKES[#take],)
        });
    let last_mover_wins = !matches!(game.end, Some(EndDef::NoMoves { last_mover_wins: false }));
    let device = game.strategy.as_ref().and_then(|s| s.player).unwrap_or(1 - game.first);
    let human_first = game.first != device;

    let table = mover_wins_table(game, &sizes);
    let table_len = table.len();
    let table = Literal::byte_string(&table);
    let device_move = match game.strategy.as_ref().map(|s| (s.kind, s.ties_random)) {
        Some((StrategyKind::Perfect, ties)) => {
            quote!(heaps::perfect(&HEAPS, pos, &TAKES, mover_wins, rng, #ties))
        }
        _ => quote! {{
            let mut any = Pick::default();
            heaps::for_each(&HEAPS, pos, &TAKES, |next| any.offer(next, rng));
            any.chosen()
        }},
    };
    let feedback = target.map(|t| super::game::feedback(game, t, device, lights));
    quote! {
        //! Rules, start and strategy of a game of heaps, over the gamec runtime.
        #![allow(clippy::all, dead_code, unused_imports)]
        use gamec_runtime::heaps::{self, Heap, Take};
        use gamec_runtime::line::{Cells, Move};
        use gamec_runtime::pick::Pick;
        use gamec_runtime::progmem;
        use gamec_runtime::rng::Rng;
        use gamec_runtime::turn::Game;

        /// The heaps' runs of lights, from light 1 up; each starts full.
        pub const HEAPS: [Heap; #n_heaps] = [#(#heaps),*];
        pub const START: Cells = #start;
        /// The removal actions, in the order the game declares them.
        pub const TAKES: [Take; #n_takes] = [#(#take_items),*];

        /// Bit i is set when the player to move wins the position of index i
        /// (`heaps::index`) with perfect play.
        #[cfg_attr(target_arch = "avr", link_section = ".progmem.data")]
        pub static MOVER_WINS: [u8; #table_len] = *#table;

        pub fn mover_wins(pos: Cells) -> bool {
            progmem::bit(&MOVER_WINS, heaps::index(&HEAPS, pos))
        }

        pub struct Rules;

        impl Game for Rules {
            const LAST_MOVER_WINS: bool = #last_mover_wins;
            const HUMAN_FIRST: bool = #human_first;

            fn setup(_: &mut Rng) -> Cells {
                START
            }

            fn can_move(pos: Cells) -> bool {
                heaps::has_move(&HEAPS, pos, &TAKES)
            }

            fn device_move(pos: Cells, rng: &mut Rng) -> Option<Cells> {
                #device_move
            }

            fn extend(start: Cells, control: u8, heap: u8, count: u8) -> Option<Cells> {
                let take = match control {
                    #(#extend_arms)*
                    _ => return None,
                };
                heaps::take(&HEAPS, start, take, heap, count)
            }
        }

        #feedback
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
