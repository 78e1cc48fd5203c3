//! The generated rules, strategy and setup filter agree with the compiler's host rules and
//! solver on every position of the Silver Dollar game.

use gamec::rules::{Move, Rules};
use gamec::solve::Solution;
use gamec_hosted::silver_dollar as generated;
use gamec_runtime::rng::Rng;
use gamec_runtime::turn::Game;

fn host_rules() -> Rules {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/silver_dollar.game");
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(path, std::fs::read_to_string(path).unwrap());
    Rules::new(&gamec_dsl::load_game(&sources, id).unwrap()).unwrap()
}

#[test]
fn the_table_and_move_generation_match_the_solver() {
    let rules = host_rules();
    let solution = Solution::solve(&rules);
    let mut setups = 0;
    for pos in rules.placements() {
        assert_eq!(generated::mover_wins(pos), solution.mover_wins(pos), "table at {pos:#014b}");
        assert_eq!(generated::Rules::can_move(pos), !rules.moves(pos).is_empty());
        let mut moves = Vec::new();
        for s in &generated::SLIDES {
            s.for_each(pos, |m| moves.push(Move { from: m.from, to: m.to }));
        }
        moves.sort();
        assert_eq!(moves, rules.moves(pos), "moves at {pos:#014b}");
        if generated::setup_ok(pos) {
            setups += 1;
        }
    }
    assert_eq!(setups, 444, "the seed counts 444 start positions");
}

#[test]
fn the_device_always_takes_a_winning_move_when_it_has_one() {
    let rules = host_rules();
    let solution = Solution::solve(&rules);
    let mut rng = Rng::new(99);
    for pos in rules.placements() {
        let chosen = generated::Rules::device_move(pos, &mut rng);
        let legal = rules.moves(pos);
        match chosen {
            None => assert!(legal.is_empty()),
            Some(after) => {
                assert!(legal.iter().any(|&m| Rules::apply(pos, m) == after), "illegal device move at {pos:#014b}");
                if solution.mover_wins(pos) {
                    assert!(!solution.mover_wins(after), "missed a win at {pos:#014b}");
                }
            }
        }
    }
}

#[test]
fn setups_are_winnable_and_start_on_cell_11_or_12() {
    let rules = host_rules();
    let solution = Solution::solve(&rules);
    let mut rng = Rng::new(5);
    for _ in 0..500 {
        let pos = generated::Rules::setup(&mut rng);
        assert_eq!(pos.count_ones(), 5);
        assert!(pos >> 10 != 0, "leftmost dollar on 11 or 12");
        assert!(solution.mover_wins(pos));
    }
}

#[test]
fn extend_moves_the_ith_dollar_from_the_left() {
    // Dollars on cells 12, 9, 5, 2, 1: dollar 2 (cell 9) may go to 8, 7, 6 but not 5.
    let pos: u16 = (1 << 11) | (1 << 8) | (1 << 4) | (1 << 1) | 1;
    assert_eq!(generated::Rules::extend(pos, 0, 1, 1), Some(pos & !(1 << 8) | (1 << 7)));
    assert_eq!(generated::Rules::extend(pos, 0, 1, 3), Some(pos & !(1 << 8) | (1 << 5)));
    assert_eq!(generated::Rules::extend(pos, 0, 1, 4), None);
    assert_eq!(generated::Rules::extend(pos, 0, 4, 1), None, "the rightmost dollar is stuck");
}
