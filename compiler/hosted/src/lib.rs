//! The generated game modules, compiled for the host: one module per file in `games/`, and
//! the variants of them that `build.rs` lists.
//!
//! The firmware compiles the very same code for its chip; here tests run it against the
//! compiler's own reading of the rules, and tools can self-play it.

include!(concat!(env!("OUT_DIR"), "/games.rs"));
pub mod both_boards;
pub mod seed_ai;
pub mod selfplay;
