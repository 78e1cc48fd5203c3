//! The general engine's reading of games written with the language's general parts, against
//! plain implementations written here (and against the fast readings the firmware uses).

use gamec::analyze::starts;
use gamec::engine::solve::{explore, Value, MAX_STATES};
use gamec::engine::{Engine, State};
use gamec_dsl::{GameDef, Sources};
use std::collections::HashMap;

fn load(path: &str) -> GameDef {
    let path = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    let mut sources = Sources::new();
    let id = sources.add(&path, std::fs::read_to_string(&path).unwrap());
    gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
}

// ------------------------------------------------------------------ tic-tac-toe, plainly

/// 0 empty, 1 cross, 2 nought; cell = row * 3 + column.
type Ttt = [u8; 9];
const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

fn ttt_winner(b: &Ttt) -> Option<u8> {
    LINES.iter().find(|l| b[l[0]] != 0 && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]]).map(|l| b[l[0]])
}

fn ttt_to_move(b: &Ttt) -> u8 {
    if b.iter().filter(|&&v| v == 1).count() > b.iter().filter(|&&v| v == 2).count() {
        2
    } else {
        1
    }
}

/// Every position reachable from the empty grid, and its value for the player to move
/// (1 win, 0 draw, -1 loss).
fn ttt_solve(b: Ttt, memo: &mut HashMap<Ttt, i8>) -> i8 {
    if let Some(&v) = memo.get(&b) {
        return v;
    }
    let v = if ttt_winner(&b).is_some() {
        -1 // The previous player just won.
    } else if b.iter().all(|&c| c != 0) {
        0
    } else {
        let me = ttt_to_move(&b);
        (0..9)
            .filter(|&i| b[i] == 0)
            .map(|i| {
                let mut n = b;
                n[i] = me;
                -ttt_solve(n, memo)
            })
            .max()
            .unwrap()
    };
    memo.insert(b, v);
    v
}

fn ttt_of(s: &State) -> Ttt {
    let mut b = [0; 9];
    for r in 0..3 {
        for c in 0..3 {
            b[r * 3 + c] = s.cells[r * 8 + c];
        }
    }
    b
}

#[test]
fn tictactoe_has_5478_positions_and_perfect_play_draws() {
    let game = load("games/tictactoe.game");
    let engine = Engine::new(&game);
    let start = engine.fixed_start(&game);
    let solved = explore(&engine, std::slice::from_ref(&start), MAX_STATES).unwrap();
    let mut memo = HashMap::new();
    assert_eq!(ttt_solve([0; 9], &mut memo), 0);
    assert_eq!(solved.len(), 5478);
    assert_eq!(memo.len(), 5478);
    assert_eq!(solved.value(&engine, &start), Some(Value::Draw));
    for (i, s) in solved.states.iter().enumerate() {
        let expected = memo[&ttt_of(s)];
        let got = match solved.values[i] {
            Value::Win(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) => -1,
        };
        assert_eq!(got, expected, "{}", engine.show(s));
    }
}

#[test]
fn tictactoe_best_moves_never_lose() {
    let game = load("games/tictactoe.game");
    let engine = Engine::new(&game);
    let start = engine.fixed_start(&game);
    let solved = explore(&engine, &[start], MAX_STATES).unwrap();
    let mut memo = HashMap::new();
    ttt_solve([0; 9], &mut memo);
    for s in &solved.states {
        let now = memo[&ttt_of(s)];
        for m in engine.best_plies(&solved, s) {
            let after = -memo[&ttt_of(&engine.play(s, m))];
            assert_eq!(after, now, "a best move keeps the value\n{}", engine.show(s));
        }
    }
}

// ------------------------------------------------------------------ Nim

#[test]
fn nim_positions_lost_for_the_mover_are_those_of_nim_sum_zero() {
    let game = load("games/nim.game");
    let engine = Engine::new(&game);
    let start = engine.fixed_start(&game);
    assert_eq!(start.cells, vec![3, 4, 5]);
    let solved = explore(&engine, std::slice::from_ref(&start), MAX_STATES).unwrap();
    assert_eq!(solved.len(), 4 * 5 * 6);
    for (i, s) in solved.states.iter().enumerate() {
        let nim_sum = s.cells.iter().fold(0, |x, &h| x ^ h);
        assert_eq!(matches!(solved.values[i], Value::Loss(_)), nim_sum == 0, "{:?}", s.cells);
    }
    assert!(matches!(solved.value(&engine, &start), Some(Value::Win(_))), "3 ^ 4 ^ 5 = 2: the first player wins");
}

// ------------------------------------------------------------------ Connect Four, plainly

/// Plain Connect Four: columns of up to 6 discs, bottom first; 1 red, 2 yellow.
fn c4_perft(cols: &mut [Vec<u8>; 7], me: u8, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves: Vec<usize> = (0..7).filter(|&c| cols[c].len() < 6).collect();
    if moves.is_empty() {
        return 1;
    }
    let mut total = 0;
    for c in moves {
        cols[c].push(me);
        let won = c4_four(cols, c, me);
        total += if won || depth == 1 { 1 } else { c4_perft(cols, 3 - me, depth - 1) };
        cols[c].pop();
    }
    total
}

fn c4_four(cols: &[Vec<u8>; 7], c: usize, me: u8) -> bool {
    let r = cols[c].len() as i32 - 1;
    let at =
        |c: i32, r: i32| (0..7).contains(&c) && (0..6).contains(&r) && cols[c as usize].get(r as usize) == Some(&me);
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
        let run = |s: i32| (1..4).take_while(|&i| at(c as i32 + s * dc * i, r + s * dr * i)).count();
        1 + run(1) + run(-1) >= 4
    })
}

#[test]
fn connect_four_perft_agrees_with_a_plain_reading() {
    let game = load("games/connect_four.game");
    let engine = Engine::new(&game);
    let start = engine.fixed_start(&game);
    let mut cols: [Vec<u8>; 7] = Default::default();
    for depth in 1..=7 {
        assert_eq!(engine.perft(&start, depth), c4_perft(&mut cols, 1, depth), "depth {depth}");
    }
    // Published figures: no four before ply 7, and 7 games end at ply 7.
    assert_eq!(engine.perft(&start, 6), 117_649);
    assert_eq!(engine.perft(&start, 7), 823_536);
}

#[test]
fn connect_four_is_too_big_to_solve_and_says_how_big() {
    let game = load("games/connect_four.game");
    let engine = Engine::new(&game);
    let err = explore(&engine, &[engine.fixed_start(&game)], 10_000).err().unwrap();
    assert_eq!(err.explored, 10_000);
}

// ------------------------------------------------------------------ the shipped games

#[test]
fn othello_perft_of_the_engine_matches_the_bitboards() {
    let game = load("games/othello.game");
    let engine = Engine::new(&game);
    let fast = gamec::grid_rules::GridRules::new(&game).unwrap();
    let start = engine.fixed_start(&game);
    for depth in 1..=5 {
        assert_eq!(engine.perft(&start, depth), fast.perft(&fast.start, depth), "depth {depth}");
    }
}

#[test]
fn silver_dollar_values_of_the_engine_match_the_line_solver() {
    let game = load("games/silver_dollar.game");
    let engine = Engine::new(&game);
    let rules = gamec::rules::Rules::new(&game).unwrap();
    let legacy = gamec::solve::Solution::solve(&rules);
    let all = engine.placements(game.rules.piece.count);
    let solved = explore(&engine, &all, MAX_STATES).unwrap();
    assert_eq!(solved.len(), 792);
    for s in &all {
        let pos = s.cells.iter().enumerate().fold(0u16, |m, (i, &v)| m | ((v as u16) << i));
        let wins = matches!(solved.value(&engine, s), Some(Value::Win(_)));
        assert_eq!(wins, legacy.mover_wins(pos), "{}", engine.show(s));
    }
    assert_eq!(starts(&engine, &game).len(), 540, "placements meeting `leftmost(dollar) >= 11`");
}
