//! Games that only the rule core's moves can express (pieces that step, jump, ride, promote
//! and must capture; presses that toggle neighbours; boards with cells cut away), held to
//! published counts and to plain implementations written here.

use gamec::engine::Engine;
use gamec_dsl::{GameDef, Sources};

fn game(name: &str) -> GameDef {
    let path = format!("{}/tests/games/{name}", env!("CARGO_MANIFEST_DIR"));
    let mut sources = Sources::new();
    let id = sources.add(&path, std::fs::read_to_string(&path).unwrap());
    gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
}

#[test]
fn checkers_perft_from_the_start_is_the_published_count() {
    // English draughts, as counted by the draughts programming community (Aart Bik's perft).
    let g = game("checkers.game");
    let engine = Engine::new(&g);
    let start = engine.fixed_start(&g);
    let counts: Vec<u64> = (1..=8).map(|d| engine.perft(&start, d)).collect();
    assert_eq!(counts, [7, 49, 302, 1469, 7361, 36768, 179740, 845931]);
}
