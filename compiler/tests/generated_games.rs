//! A property test over generated game files (compiler/tests/support/random_games.rs): no input
//! makes the compiler panic; whatever `check` accepts with its board, code generation turns
//! into firmware sources (every generated file parses as Rust) and the analyses run; whatever
//! it refuses gets a located diagnostic with a hint. Games of cards likewise, on the Set
//! board (boards/set_netduinoplus2.board), their groups held to plain enumeration.

// The games of moving pieces are rule_core_games.rs's.
#[allow(dead_code)]
#[path = "support/random_games.rs"]
mod random_games;

use gamec::analyze::{Analysis, Facts};
use gamec::codegen::{firmware_crate, ScaffoldInputs};
use gamec::engine::puzzle::Puzzle;
use gamec::engine::{Engine, Outcome, State};
use gamec_dsl::Sources;
use random_games::{generate, generate_cards, generate_puzzle, Generated, Kind};

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
        Err(d) => (false, d.iter().filter(|d| d.is_error()).map(|d| d.code.as_str()).collect()),
        Ok(_) => {
            assert!(alone.is_ok(), "a game accepted with a board is accepted alone");
            let game = gamec_dsl::load_game(&sources, gf).unwrap();
            let board = gamec_dsl::load_board(&sources, bf).unwrap();
            let target = gamec::bind::bind(&game, gf, &board, bf).expect("check bound it");
            let analysis =
                target.plays_slides(&game).then(|| Analysis::new(&game, gf).expect("check accepted the setup"));
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

/// Every filling of the open cells of `start`, judged by the engine's plain reading of the
/// endings (no pruning): the winning ones, counted up to two.
fn exhaustive_solutions(engine: &Engine, start: &State, values: &[u8]) -> usize {
    let open: Vec<usize> = engine
        .cell_list
        .iter()
        .map(|&c| c as usize)
        // Cells a free cycle may change: not given, and holding a value of the cycle.
        .filter(|&c| start.given >> c & 1 == 0 && values.contains(&start.cells[c]))
        .collect();
    let mut found = 0;
    let combos = values.len().pow(open.len() as u32);
    for mut k in 0..combos {
        let mut s = start.clone();
        for &c in &open {
            s.cells[c] = values[k % values.len()];
            k /= values.len();
        }
        if engine.outcome(&s) == Some(Outcome::Win(0)) {
            found += 1;
        }
    }
    found.min(2)
}

#[test]
fn generated_puzzles_are_proved_as_exhaustive_search_finds() {
    let (mut accepted, mut refused) = (0, 0);
    for i in 0..200 {
        let g = generate_puzzle(SEED, i);
        let mut sources = Sources::new();
        let gf = sources.add("gen.game", g.game.clone());
        let bf = sources.add("gen.board", g.board.clone());
        let alone = std::panic::catch_unwind(|| gamec::check(&sources, &[gf]))
            .unwrap_or_else(|_| panic!("the compiler panicked on\n{}", g.game));
        // These puzzles carry no controls: with a board, a located refusal saying so.
        let pair = gamec::check(&sources, &[gf, bf]).expect_err("a puzzle without controls has no firmware");
        assert!(pair.iter().any(|d| d.code == "E0119"), "{}", sources.render(&pair));
        let game = gamec_dsl::load_game(&sources, gf).unwrap_or_else(|d| panic!("{}\n{}", sources.render(&d), g.game));
        let engine = Engine::new(&game);
        let puzzle = Puzzle::new(&engine).expect("a puzzle");
        let values: Vec<u8> = match engine.moves[0] {
            gamec_dsl::MoveKind::Cycle { order, .. } => order.values().to_vec(),
            _ => unreachable!(),
        };
        let mut unique = true;
        for setup in game.rules.setup.fixed() {
            let start = engine.start_of(&game, setup);
            let exhaustive = exhaustive_solutions(&engine, &start, &values);
            let solved = puzzle.solutions(&start, 2);
            assert_eq!(solved.len(), exhaustive, "solver and exhaustive search differ on\n{}", g.game);
            unique &= exhaustive == 1;
            // A solution found is one the player can enter and win with.
            if let Some(sol) = solved.first() {
                let mut s = start.clone();
                for m in puzzle.moves_to(&start, sol) {
                    assert!(engine.plies(&s).contains(&m));
                    s = engine.play(&s, m);
                }
                assert_eq!(engine.outcome(&s), Some(Outcome::Win(0)));
            }
        }
        match alone {
            Ok(_) => {
                assert!(unique, "check accepted a puzzle without exactly one solution:\n{}", g.game);
                accepted += 1;
            }
            Err(d) => {
                let text = sources.render(&d);
                assert!(text.contains("gen.game") && text.contains("help:"), "{text}");
                refused += 1;
            }
        }
    }
    eprintln!("puzzles accepted {accepted}, refused {refused}");
    assert!(accepted >= 10 && refused >= 10, "both sides reached: {accepted} / {refused}");
}

#[test]
fn generated_games_of_cards_check_render_and_find_their_groups() {
    let board_text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../boards/set_netduinoplus2.board")).unwrap();
    let (mut accepted, mut bound, mut refused) = (0, 0, 0);
    for i in 0..100 {
        let g = generate_cards(SEED, i);
        let mut sources = Sources::new();
        let gf = sources.add("gen.game", g.game.clone());
        let bf = sources.add("gen.board", board_text.clone());
        let alone = std::panic::catch_unwind(|| gamec::check(&sources, &[gf]))
            .unwrap_or_else(|_| panic!("the compiler panicked on\n{}", g.game));
        if let Err(d) = alone {
            let text = sources.render(&d);
            assert!(text.contains("gen.game") && text.contains("help:"), "a located diagnostic with a hint:\n{text}");
            refused += 1;
            continue;
        }
        accepted += 1;
        let game = gamec_dsl::load_game(&sources, gf).unwrap();
        let facts = Facts::new(&game).to_string();
        assert!(facts.contains("a table of"), "{facts}");
        let cards = game.cards.as_ref().unwrap();
        let deck = gamec::cards::Deck::new(cards);
        let all = deck.cards();
        // The first cards of the deck as a full table: the compiler's search against enumeration.
        let table = &all[..all.len().min(cards.capacity as usize)];
        assert_eq!(deck.groups(table), deck.groups_by_enumeration(table), "{}", g.game);
        // On the Set board where it fits: the firmware crate renders and parses.
        if gamec::check(&sources, &[gf, bf]).is_err() {
            continue;
        }
        bound += 1;
        let board = gamec_dsl::load_board(&sources, bf).unwrap();
        let target = gamec::bind::bind(&game, gf, &board, bf).expect("check bound it");
        let inputs = ScaffoldInputs {
            crate_name: "gen".into(),
            runtime_path: "runtime".into(),
            game_path: "gen.game".into(),
            board_path: "gen.board".into(),
        };
        for f in firmware_crate(&game, &board, None, &target, &inputs, sources.text(gf)) {
            if f.path.ends_with(".rs") {
                syn::parse_file(&f.contents).unwrap_or_else(|e| panic!("{}: {e}\n{}", f.path, g.game));
            }
        }
    }
    eprintln!("games of cards accepted {accepted} (on the Set board {bound}), refused {refused}");
    assert!(accepted >= 20 && bound >= 10 && refused >= 3, "{accepted} / {bound} / {refused}");
}
