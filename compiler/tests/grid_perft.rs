//! Othello's rules written in the DSL (games/othello.game): perft from the start against the
//! published counts. The mechanics against a plain reference: compiler/hosted/tests/moves_agree.rs.

use gamec::grid_rules::GridRules;

fn rules() -> GridRules {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../games/othello.game");
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(path, std::fs::read_to_string(path).unwrap());
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    GridRules::new(&game).unwrap()
}

#[test]
fn perft_matches_published_figures() {
    let r = rules();
    // Depth 9 is the first with finished games; deeper is a benchmark: `gamec perft`.
    let expected = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    for (i, &n) in expected.iter().enumerate() {
        assert_eq!(r.perft(&r.start, i as u32 + 1), n, "depth {}", i + 1);
    }
}
