//! `gamec generate`: new starts for a puzzle, each with exactly one solution, written in
//! game-file syntax to paste into the game.

use crate::engine::puzzle::Puzzle;
use crate::engine::{Engine, State};
use gamec_dsl::Code;
use gamec_dsl::{content, Diagnostic, FileId, GameDef, Label};
use std::fmt::Write;

/// What to generate.
pub struct Request {
    pub count: usize,
    pub seed: u64,
    /// Only starts of this level (1 to 3, as `gamec analyze` grades them).
    pub difficulty: Option<u8>,
}

/// Tries per start asked for before a difficulty is given up as out of reach.
const TRIES: usize = 40;

/// `setup fixed` blocks for `count` new starts, or why there can be none.
pub fn generate(game: &GameDef, file: FileId, req: &Request) -> Result<String, Diagnostic> {
    let engine = Engine::new(game);
    let refuse = |msg: &str, help: &str| {
        Diagnostic::error(Code::E0022, msg.to_string())
            .with_label(Label::primary(file, game.name.span, "this game"))
            .with_help(help.to_string())
    };
    let Some(puzzle) = Puzzle::new(&engine) else {
        return Err(refuse(
            "only puzzles have starts to generate",
            "a puzzle has one player, a `cycle` action and an ending the player wins",
        ));
    };
    // xorshift64*: a fixed seed gives the same starts on every machine.
    let mut state = req.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut rng = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut out = String::new();
    let mut made = 0;
    for _ in 0..req.count * TRIES {
        if made == req.count {
            break;
        }
        let Some(start) = puzzle.generate(game, &mut rng) else {
            return Err(refuse("no filling of the board wins, so no start can be made", "check the endings"));
        };
        let level = puzzle.difficulty(&start).level;
        if req.difficulty.is_some_and(|d| d != level) {
            continue;
        }
        made += 1;
        let _ = writeln!(out, "// level {level}\n{}", setup_text(game, &engine, &start, &format!("g{made}")));
    }
    if made < req.count {
        return Err(refuse(
            &format!("only {made} of {} starts reached the difficulty asked for", req.count),
            "ask for another level, or fewer starts",
        ));
    }
    Ok(out)
}

/// A start as a game file writes it: `setup fixed "NAME" { STATE at CELLS ... }`.
fn setup_text(game: &GameDef, engine: &Engine, start: &State, name: &str) -> String {
    let mut text = format!("setup fixed \"{name}\" {{\n");
    for (k, state) in game.rules.states.iter().enumerate() {
        let cells: Vec<String> = engine
            .cell_list
            .iter()
            .filter(|&&c| start.cells[c as usize] == content::state(k))
            .map(|&c| engine.cell_name(c))
            .collect();
        if !cells.is_empty() {
            let _ = writeln!(text, "    {} at {}", state.node, cells.join(", "));
        }
    }
    text.push('}');
    text
}
