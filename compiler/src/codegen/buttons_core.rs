//! The front of a game of buttons and lights on the rule core: how the generated rules
//! (`game.rs`) meet the runtime's core turn machine (the action each per-piece control enters,
//! the person's side, the cell each light shows, the device's thinking time), and the app
//! loop's tunes and inputs.

use super::origin::{described, Origin};
use super::{game, int};
use crate::bind::Target;
use crate::engine::Engine;
use gamec_dsl::{ControlAction, GameDef};
use proc_macro2::TokenStream;
use quote::quote;

/// How long the device may think a move, as the cursor's duel gives it without a move clock.
const THINK_MS: u16 = 2000;

/// `src/front.rs`.
pub fn front_module(game: &GameDef, target: &Target, origin: Origin) -> TokenStream {
    let (device, human) = (game.device_side(), game.person());
    let actions = game.interface.controls.iter().filter(|c| c.per_piece).filter_map(|c| match c.action {
        ControlAction::Extend { action } => Some(int(action as u8)),
        _ => None,
    });
    // A light a cell, lit while it holds anything; on heaps a run of lights a heap, as many as
    // it starts with, lit from the run's first up to its count.
    let lights: Vec<(u8, u8)> = match game.rules.heaps() {
        Some(_) => {
            let runs = game.rules.fixed_heaps().iter().enumerate();
            runs.flat_map(|(h, &n)| (0..n as u8).map(move |above| (h as u8, above))).collect()
        }
        None => Engine::new(game).cell_list.into_iter().map(|cell| (cell, 0)).collect(),
    };
    let n_lights = lights.len() as u8;
    let by_cell = game.rules.heaps().is_some();
    let lights = lights.iter().map(|&(cell, above)| quote!((#cell, #above)));
    let shared = !game.rules.piece.per_player;
    // The narrowest word with a bit a light: wider arithmetic is more code on an 8-bit chip.
    let word = match n_lights {
        0..=16 => quote!(u16),
        17..=32 => quote!(u32),
        _ => quote!(u64),
    };
    let (human, think_ms) = (int(human as u8), int(THINK_MS));
    let feedback = game::feedback(game, target, device, n_lights, origin);
    let uses = game::feedback_uses();
    let doc = described(
        &[
            "The game's rules played with buttons and lights: each per-piece control's action, the person's",
            "side, the cell each light shows and the count it shows above.",
        ],
        origin.quote_all(
            game.interface.controls.iter().map(|c| c.name.span).chain(game.interface.views.iter().map(|v| v.name.span)),
        ),
    );
    quote! {
        //! How the buttons and lights play the game's rules (`game.rs`), and their tunes.
        use gamec_runtime::core_turn::OnButtons;
        #uses

        #doc
        impl OnButtons for crate::game::Rules {
            const CONTROLS: &'static [u8] = &[#(#actions),*];
            const HUMAN: u8 = #human;
            const SHARED: bool = #shared;
            const BY_CELL: bool = #by_cell;
            const LIGHTS: &'static [(u8, u8)] = &[#(#lights),*];
            type Lights = #word;
            const THINK_MS: u16 = #think_ms;
            const MAX_DEPTH: u8 = crate::board::SEARCH_DEPTH;
        }

        #feedback
    }
}
