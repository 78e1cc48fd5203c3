//! Games that only the rule core's moves can express (pieces that step, jump, ride, promote
//! and must capture; presses that toggle neighbours; boards with cells cut away), held to
//! published counts and to plain implementations written here.

use gamec::engine::Engine;
use gamec_dsl::{GameDef, Sources};

/// A game from games/ (the shipped ones), else from compiler/tests/games.
fn game(name: &str) -> GameDef {
    let shipped = format!("{}/../games/{name}", env!("CARGO_MANIFEST_DIR"));
    let path = match std::path::Path::new(&shipped).exists() {
        true => shipped,
        false => format!("{}/tests/games/{name}", env!("CARGO_MANIFEST_DIR")),
    };
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

/// Breakthrough on 6 x 6 written out plainly: `board[row][col]` is 1 for white, -1 for black;
/// white moves up the rows.
fn breakthrough_perft(board: &mut [[i8; 6]; 6], side: i8, depth: u32) -> u64 {
    let won = board[5].contains(&1) || board[0].contains(&-1);
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    if !won {
        for r in 0..6i32 {
            for c in 0..6i32 {
                if board[r as usize][c as usize] != side {
                    continue;
                }
                let r2 = r + side as i32;
                if !(0..6).contains(&r2) {
                    continue;
                }
                for dc in [-1, 0, 1] {
                    let c2 = c + dc;
                    if !(0..6).contains(&c2) {
                        continue;
                    }
                    let there = board[r2 as usize][c2 as usize];
                    if there == 0 || (dc != 0 && there == -side) {
                        moves.push(((r, c), (r2, c2)));
                    }
                }
            }
        }
    }
    if moves.is_empty() {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for ((r, c), (r2, c2)) in moves {
        let taken = board[r2 as usize][c2 as usize];
        board[r as usize][c as usize] = 0;
        board[r2 as usize][c2 as usize] = side;
        total += breakthrough_perft(board, -side, depth - 1);
        board[r2 as usize][c2 as usize] = taken;
        board[r as usize][c as usize] = side;
    }
    total
}

#[test]
fn breakthrough_perft_agrees_with_a_plain_implementation() {
    let g = game("breakthrough.game");
    let engine = Engine::new(&g);
    let start = engine.fixed_start(&g);
    let mut board = [[0i8; 6]; 6];
    board[0] = [1; 6];
    board[1] = [1; 6];
    board[4] = [-1; 6];
    board[5] = [-1; 6];
    for depth in 1..=5 {
        assert_eq!(engine.perft(&start, depth), breakthrough_perft(&mut board, 1, depth), "depth {depth}");
    }
}

/// Plays `moves` (as `analyze` writes them) from `start` and returns the position reached.
fn replay(engine: &Engine, start: &gamec::engine::State, moves: &[String]) -> gamec::engine::State {
    moves.iter().fold(start.clone(), |s, m| {
        let m = engine.parse_move(&s, m).unwrap_or_else(|e| panic!("{}", e.message));
        engine.play(&s, m)
    })
}

#[test]
fn lights_out_starts_are_solved_in_the_fewest_presses() {
    let g = game("lights_out.game");
    let engine = Engine::new(&g);
    let facts = gamec::analyze::Facts::new(&g);
    assert_eq!(facts.lines.len(), 3);
    for (setup, line) in g.rules.setup.fixed().iter().zip(&facts.lines) {
        let presses = line.line.clone().unwrap().expect("every shipped start is solvable");
        let end = replay(&engine, &engine.start_of(&g, setup), &presses);
        assert_eq!(engine.outcome(&end), Some(gamec::engine::Outcome::Win(0)), "{:?}", setup.name);
    }
    // The cross is one press, at its centre.
    assert_eq!(facts.lines[0].line, Ok(Some(vec!["C3".to_string()])));
}

#[test]
fn a_toggle_puzzle_s_fewest_presses_agree_with_trying_every_set_of_presses() {
    // 3 x 3, where every start is solvable in exactly one way: brute force over 512 sets.
    let text = std::fs::read_to_string(format!("{}/../games/lights_out.game", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .replace("board grid 5 x 5", "board grid 3 x 3")
        .replace("lit at C2, B3, C3, D3, C4", "lit at B2")
        .replace("lit at A1, E1, A5, E5", "lit at A1, C3")
        .replace("lit at B2, C2, D2, B3, D3, B4, C4, D4", "lit at A1, B1, C1");
    let mut sources = Sources::new();
    let id = sources.add("small.game", text);
    let g = gamec_dsl::load_game(&sources, id).unwrap();
    let engine = Engine::new(&g);
    let facts = gamec::analyze::Facts::new(&g);
    for (setup, line) in g.rules.setup.fixed().iter().zip(&facts.lines) {
        let start = engine.start_of(&g, setup);
        let fewest = (0u32..512)
            .filter(|set| {
                // Pressed straight through the rules: a set may clear the board before its end.
                let end = (0..9u8).filter(|p| set >> p & 1 == 1).fold(start.clone(), |s, p| {
                    engine.play(&s, gamec::engine::Move::Put { action: 0, cell: p / 3 * 8 + p % 3 })
                });
                engine.outcome(&end) == Some(gamec::engine::Outcome::Win(0))
            })
            .map(u32::count_ones)
            .min();
        let found = line.line.clone().unwrap().map(|p| p.len() as u32);
        assert_eq!(found, fewest, "{:?}", setup.name);
    }
}

#[test]
fn check_refuses_a_lights_out_start_that_no_presses_clear() {
    // A lone corner light on 5 x 5 is a classic unsolvable start.
    let text = std::fs::read_to_string(format!("{}/../games/lights_out.game", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .replace("lit at A1, E1, A5, E5", "lit at A1");
    let mut sources = Sources::new();
    let id = sources.add("lone.game", text);
    let errors = gamec::check(&sources, &[id]).unwrap_err();
    let rendered = sources.render(&errors);
    assert!(rendered.contains("error[E0020]: setup \"corners\" has no solution"), "{rendered}");
}

#[test]
fn peg_solitaire_s_solution_ends_with_one_peg_in_the_centre() {
    let g = game("peg_solitaire.game");
    let engine = Engine::new(&g);
    let facts = gamec::analyze::Facts::new(&g);
    let line = facts.lines[0].line.clone().unwrap().expect("the English board is solvable");
    assert_eq!(line.len(), 31, "32 pegs to one, a peg a jump");
    let end = replay(&engine, &engine.fixed_start(&g), &line);
    assert_eq!(engine.outcome(&end), Some(gamec::engine::Outcome::Win(0)));
    assert_eq!(engine.cell_name(end.cells.iter().position(|&c| c != 0).unwrap() as u8), "D4");
}

#[test]
fn the_language_and_the_rule_core_number_kinds_of_piece_alike() {
    for kind in 0..8u8 {
        for player in 0..2u8 {
            let c = gamec_dsl::content::piece_of_kind(kind, player as usize);
            assert_eq!(c, gamec_runtime::rules::content::piece(kind, player));
            assert_eq!(gamec_runtime::rules::content::kind_and_owner(c), Some((kind, player)));
        }
    }
    for k in 0..gamec_dsl::content::MAX_STATES {
        assert_eq!(gamec_runtime::rules::content::kind_and_owner(gamec_dsl::content::state(k)), None);
    }
}

#[test]
fn a_count_of_a_player_s_pieces_counts_every_kind() {
    // Checkers where a side left without pieces loses: a lone king still counts.
    let text = std::fs::read_to_string(format!("{}/../games/checkers.game", env!("CARGO_MANIFEST_DIR")))
        .unwrap()
        .replace("end { no moves -> mover wins }", "end { count(white) == 0 -> black wins\n no moves -> mover wins }");
    let mut sources = Sources::new();
    let id = sources.add("counted.game", text);
    let g = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let engine = Engine::new(&g);
    let mut s = engine.fixed_start(&g);
    s.cells.iter_mut().for_each(|c| *c = 0);
    s.cells[0] = gamec_dsl::content::piece(0);
    s.cells[63] = gamec_dsl::content::piece_of_kind(1, 1);
    assert_eq!(engine.outcome(&s), None, "white's king is a piece");
    s.cells[63] = 0;
    assert_eq!(engine.outcome(&s), Some(gamec::engine::Outcome::Win(0)));
}

#[path = "support/core_selfplay.rs"]
mod core_selfplay;

use core_selfplay::{wins, Opponent};

#[test]
fn the_device_s_search_on_the_rule_core_beats_a_random_player() {
    // A handful of games a game each way, in debug; `cargo xtask bench` plays more.
    for (file, depth) in [("checkers.game", 3), ("breakthrough.game", 3)] {
        let g = game(file);
        let engine = Engine::new(&g);
        let start = engine.fixed_start(&g);
        let won = wins(&engine, &start, depth, Opponent::Random, 6, 7);
        assert_eq!(won, 6, "{file}: the device won {won} of 6 against random moves");
    }
}

/// Benchmark (the README's host table): 200 games of each rule-core game against each
/// opponent (`STRENGTH_GAMES`), the device deepening from one ply within 50,000 nodes a move;
/// `STRENGTH_GAME` picks the games. `cargo xtask bench --only strength-checkers` (and
/// `-breakthrough`, `-kalah`, `-oware`) runs it a game at a time: `cargo test --release -p gamec
/// --test rule_core_games strength -- --ignored --nocapture`.
#[test]
#[ignore]
fn strength_of_the_device_s_search_on_the_rule_core() {
    let only = std::env::var("STRENGTH_GAME").unwrap_or_default();
    let files = ["checkers.game", "breakthrough.game", "kalah.game", "oware.game"];
    for file in files.into_iter().filter(|f| f.contains(only.as_str())) {
        let g = game(file);
        let engine = Engine::new(&g);
        let start = engine.fixed_start(&g);
        // STRENGTH_GAMES plays fewer (or more) games a pairing than the 200 of the README.
        let games = std::env::var("STRENGTH_GAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(200);
        for opponent in [Opponent::Random, Opponent::Greedy] {
            let won = wins(&engine, &start, 24, opponent, games, 11);
            println!("{file}: {won} of {games} against {opponent:?}");
            // The README's figure (`cargo xtask bench` reads this line).
            let key = format!("strength.{}.{}", file.trim_end_matches(".game"), format!("{opponent:?}").to_lowercase());
            println!("FIGURE {key}={won} of {games} won ({:.1}%)", 100.0 * won as f64 / games as f64);
        }
    }
}

#[test]
fn gomoku_perft_counts_every_empty_cell() {
    let g = game("gomoku.game");
    let engine = Engine::new(&g);
    let start = engine.fixed_start(&g);
    assert_eq!(engine.cell_list.len(), 225);
    for depth in 1..=3 {
        let plain: u64 = (0..depth as u64).map(|i| 225 - i).product();
        assert_eq!(engine.perft(&start, depth), plain, "depth {depth}");
    }
}

/// The move the device's search chooses in Gomoku, `depth` plies deep, with black's stones
/// `black` and white's `white`, `to_move` to move: the cell it plays, by name.
fn gomoku_choice(black: &[&str], white: &[&str], to_move: u8, depth: u8) -> String {
    let g = game("gomoku.game");
    let engine = Engine::new(&g);
    let mut s = engine.fixed_start(&g);
    let at = |name: &str| {
        let b = name.as_bytes();
        (name[1..].parse::<usize>().unwrap() - 1) * engine.stride + (b[0] - b'A') as usize
    };
    for (stones, player) in [(black, 0), (white, 1)] {
        for c in stones {
            s.cells[at(c)] = gamec_dsl::content::piece(player);
        }
    }
    let best = engine.with_game(|game| {
        let mut cells = [0u8; 240];
        cells.copy_from_slice(&s.cells);
        let mut pos = gamec_runtime::rules::game::Position::new(game, cells, to_move);
        let mut never = || false;
        let mut budget = gamec_runtime::search::Budget::new(u32::MAX, &mut never);
        gamec_runtime::search::choose_in_place::<_, 256>(&mut pos, depth, depth, false, &mut budget).unwrap().best
    });
    best.cells().iter().map(|&c| engine.cell_name(c)).collect::<Vec<_>>().join("-")
}

#[test]
fn the_device_blocks_a_four_in_gomoku() {
    // White has four in a row, K8 to N8, open at one end only (J8 is black's): black must put its
    // stone on O8, or lose next move.
    let best = gomoku_choice(&["J8", "H1", "A1", "B1"], &["K8", "L8", "M8", "N8"], 0, 2);
    assert_eq!(best, "O8");
}

#[test]
fn the_default_evaluation_sees_an_open_three_in_gomoku() {
    // Black has G8, H8 and I8, open at both ends: a search of one ply, by the default
    // evaluation alone, puts White's stone at an end (F8 or J8), where it spoils the most runs
    // of five Black could still fill. Counting pieces alone, every move is worth the same.
    let best = gomoku_choice(&["G8", "H8", "I8"], &["A1", "O15"], 1, 1);
    assert!(["F8", "J8"].contains(&best.as_str()), "the device played {best}");
}

// Only its games of moving pieces are used here.
#[allow(dead_code)]
#[path = "support/random_games.rs"]
mod random_games;

/// Perft as the device's search sees a game (the rule core's position, made and undone in
/// place), to hold to the engine's.
fn core_perft<const N: usize>(pos: &mut gamec_runtime::rules::game::Position<N>, depth: u32) -> u64 {
    use gamec_runtime::search::InPlace;
    if depth == 0 {
        return 1;
    }
    let mut moves = [gamec_runtime::rules::Path::default(); 256];
    let n = pos.moves(&mut moves);
    if n == 0 {
        return match pos.pass() {
            Some(u) => {
                let count = core_perft(pos, depth - 1);
                pos.undo(u);
                count
            }
            None => 1,
        };
    }
    let mut total = 0;
    for &m in &moves[..n] {
        let before = pos.cells;
        let u = pos.make(m);
        total += core_perft(pos, depth - 1);
        pos.undo(u);
        assert_eq!(pos.cells, before, "undoing {m:?} restores the board");
    }
    total
}

#[test]
fn generated_games_of_moving_pieces_check_and_play_alike_on_host_and_core() {
    let (mut accepted, mut refused) = (0, std::collections::BTreeSet::new());
    for i in 0..40 {
        let g = random_games::generate_moving(0x00C0_2E5A, i);
        let mut sources = Sources::new();
        let gf = sources.add("gen.game", g.game.clone());
        let bf = sources.add("gen.board", g.board.clone());
        let alone = std::panic::catch_unwind(|| gamec::check(&sources, &[gf]))
            .unwrap_or_else(|_| panic!("the compiler panicked on\n{}", g.game));
        let Ok(_) = alone else {
            let d = alone.unwrap_err();
            let text = sources.render(&d);
            assert!(text.contains("gen.game") && text.contains("help:"), "a located diagnostic with a hint:\n{text}");
            refused.extend(d.iter().filter(|d| d.is_error()).map(|d| d.code));
            continue;
        };
        // These files carry no controls (generated_games_on_the_device.rs gives them a cursor
        // and plays them): with a board, a located refusal saying so, never a wrong crate.
        let pair = gamec::check(&sources, &[gf, bf]).expect_err("a game without controls has no firmware");
        assert!(pair.iter().any(|d| d.code == "E0119"), "{}", sources.render(&pair));
        accepted += 1;
        let game = gamec_dsl::load_game(&sources, gf).unwrap();
        // `analyze` solves up to 200,000 positions: a quarter of them is enough to run it on.
        if i % 4 == 0 {
            let _ = gamec::analyze::Facts::new(&game).to_string();
        }
        let engine = Engine::new(&game);
        let start = engine.fixed_start(&game);
        let from_core = engine.with_game(|core| {
            let mut cells = [0u8; 64];
            cells[..start.cells.len()].copy_from_slice(&start.cells);
            let mut pos = gamec_runtime::rules::game::Position::new(core, cells, start.to_move);
            core_perft(&mut pos, 3)
        });
        assert_eq!(from_core, engine.perft(&start, 3), "perft 3 of\n{}", g.game);
    }
    eprintln!("accepted {accepted}; refusal codes {refused:?}");
    assert!(accepted >= 12, "the generator made only {accepted} games that check accepts");
}

/// Kayles by Sprague-Grundy, written out plainly: a row of `n` pins is worth the mex of the
/// rows a move leaves (one pin or two neighbours knocked down, splitting the row in two).
fn kayles_grundy(most: usize) -> Vec<u32> {
    let mut g = vec![0u32; most + 1];
    for n in 1..=most {
        let mut seen = std::collections::HashSet::new();
        for take in 1..=2usize.min(n) {
            for left in 0..=n - take {
                seen.insert(g[left] ^ g[n - take - left]);
            }
        }
        g[n] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    g
}

#[test]
fn kayles_positions_are_won_exactly_where_sprague_grundy_says() {
    let g = game("kayles_thirteen.game");
    let engine = Engine::new(&g);
    let grundy = kayles_grundy(13);
    let mut wins: std::collections::HashMap<Vec<u8>, bool> = std::collections::HashMap::new();
    // Whether the player to move wins, by plain minimax over the engine's moves.
    fn to_move_wins(
        engine: &Engine,
        s: &gamec::engine::State,
        memo: &mut std::collections::HashMap<Vec<u8>, bool>,
    ) -> bool {
        if let Some(&w) = memo.get(&s.cells) {
            return w;
        }
        let w = engine.plies(s).into_iter().any(|m| !to_move_wins(engine, &engine.play(s, m), memo));
        memo.insert(s.cells.clone(), w);
        w
    }
    let mut s = engine.fixed_start(&g);
    for pins in 0u32..1 << 13 {
        for (i, c) in s.cells.iter_mut().enumerate() {
            *c = (pins >> i & 1) as u8;
        }
        // The rows of standing pins, and the nim-sum of their values.
        let rows = format!("{pins:013b}").split('0').map(str::len).fold(0, |x, n| x ^ grundy[n]);
        assert_eq!(to_move_wins(&engine, &s, &mut wins), rows != 0, "pins {pins:013b}");
    }
}

#[test]
fn a_line_runs_to_64_cells_and_only_a_short_one_is_dealt_at_random() {
    let pins: Vec<String> = (1..=64).map(|i| i.to_string()).collect();
    let text = format!(
        "game long {{\n  players a, b\n  first a\n  board line 64\n  pieces pin x 64\n  setup fixed {{ pin at {} }}\n  action knock = remove 1..3 adjacent pin\n  end {{ no moves -> mover wins }}\n}}\n",
        pins.join(", ")
    );
    let mut sources = Sources::new();
    let id = sources.add("long.game", text.clone());
    gamec::check(&sources, &[id]).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let g = gamec_dsl::load_game(&sources, id).unwrap();
    let engine = Engine::new(&g);
    // A run of 1, 2 or 3 from any pin that has that many after it.
    assert_eq!(engine.perft(&engine.fixed_start(&g), 1), 64 + 63 + 62);
    let dealt = text.replace("  setup fixed", "  // setup fixed");
    let id = sources.add("dealt.game", dealt);
    let errors = gamec::check(&sources, &[id]).unwrap_err();
    assert!(sources.render(&errors).contains("a start is dealt at random on lines of at most 16 cells, not 64"));
}

#[test]
fn the_language_s_directions_are_the_rule_core_s_compass_bits() {
    use gamec_runtime::rules::{Dirs, Op};
    let text = "game d {\n  players a, b\n  first a\n  board grid 3 x 3\n  pieces p per player\n  setup fixed { a at B1  b at B3 }\n\
                action f = step p forward to empty\n  action g = step p diagonally backward or sideways to empty\n\
                action h = step p orthogonally to empty\n  action i = step p in any direction to empty\n  end { no moves -> mover wins }\n}\n";
    let mut sources = Sources::new();
    let id = sources.add("d.game", text.to_string());
    let g = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let dirs: Vec<Dirs> = Engine::new(&g)
        .programs
        .iter()
        .map(|p| match p.ops[1] {
            Op::Step { dirs, .. } => dirs,
            ref op => panic!("{op:?}"),
        })
        .collect();
    assert_eq!(
        dirs,
        [
            Dirs::relative(Dirs::N),
            Dirs::relative(Dirs::SE | Dirs::SW | Dirs::E | Dirs::W),
            Dirs::absolute(Dirs::ORTHOGONAL),
            Dirs::absolute(Dirs::ALL),
        ]
    );
}
