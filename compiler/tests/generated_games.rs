//! A property test over generated game files (compiler/tests/support/random_games.rs): no input
//! makes the compiler panic; whatever `check` accepts with its board, code generation turns
//! into firmware sources (every generated file parses as Rust) and the analyses run; whatever
//! it refuses gets a located diagnostic with a hint.

#[path = "support/random_games.rs"]
mod random_games;

use gamec::analyze::{Analysis, Facts};
use gamec::codegen::{firmware_crate, ScaffoldInputs};
use gamec_dsl::Sources;
use random_games::{generate, Generated, Kind};

const SEED: u64 = 0x005E_ED0F_6A3E;
const GAMES: usize = 200;

/// Accepted with the board (true) or refused, and the codes given.
fn run(g: &Generated) -> (bool, Vec<&'static str>) {
    let mut sources = Sources::new();
    let gf = sources.add("gen.game", g.game.clone());
    let bf = sources.add("gen.board", g.board.clone());
    let alone = gamec::check(&sources, &[gf]);
    let pair = gamec::check(&sources, &[gf, bf]);
    for d in [&alone, &pair].into_iter().flat_map(|r| r.as_ref().err()) {
        let text = sources.render(d);
        assert!(text.contains("gen.") && text.contains("help:"), "a located diagnostic with a hint:\n{text}");
    }
    match pair {
        Err(d) => (false, d.iter().filter(|d| d.is_error()).map(|d| d.code).collect()),
        Ok(_) => {
            assert!(alone.is_ok(), "a game accepted with a board is accepted alone");
            let game = gamec_dsl::load_game(&sources, gf).unwrap();
            let board = gamec_dsl::load_board(&sources, bf).unwrap();
            let target = gamec::bind::bind(&game, gf, &board, bf).expect("check bound it");
            let analysis = game.line().map(|_| Analysis::new(&game, gf).expect("check accepted the setup"));
            let _ = Facts::new(&game).to_string();
            let inputs = ScaffoldInputs {
                crate_name: "gen".into(),
                runtime_path: "runtime".into(),
                game_path: "gen.game".into(),
                board_path: "gen.board".into(),
            };
            for f in firmware_crate(&game, &board, analysis.as_ref(), &target, &inputs, sources.text(gf)) {
                if f.path.ends_with(".rs") {
                    syn::parse_file(&f.contents).unwrap_or_else(|e| panic!("{}: {e}\n{}", f.path, g.game));
                }
            }
            (true, Vec::new())
        }
    }
}

#[test]
fn generated_games_check_exactly_as_they_generate() {
    let mut accepted = [0usize; 3];
    let mut refused: Vec<&str> = Vec::new();
    for i in 0..GAMES {
        let g = generate(SEED, i);
        let outcome = std::panic::catch_unwind(|| run(&g));
        let (ok, codes) = outcome.unwrap_or_else(|_| panic!("the compiler panicked on\n{}\n{}", g.game, g.board));
        if ok {
            accepted[g.kind as usize] += 1;
        } else {
            refused.extend(codes);
        }
    }
    refused.sort();
    refused.dedup();
    eprintln!("accepted line/grid/heaps: {accepted:?}; refusal codes: {refused:?}");
    // The generator must reach both sides of the line, for every kind of place.
    assert!(accepted.iter().all(|&n| n >= 10), "{accepted:?}");
    assert!(refused.len() >= 3, "{refused:?}");
    let _ = Kind::Line;
}
