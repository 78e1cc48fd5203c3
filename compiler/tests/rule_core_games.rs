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
    let g = game("breakthrough_6x6.game");
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
