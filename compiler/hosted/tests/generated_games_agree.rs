//! The generated modules of the games written with the general parts against the compiler's
//! engine: the shipped tic-tac-toe, Connect Four, Othello (on both boards) and Nim, and the
//! games of the property tests' generator (compiler/tests/support/random_games.rs) that
//! `check` accepts, all compiled for the host by build.rs. Grid games along random games (legal
//! cells, effects, the end and its verdict, the solved device's choices); heap games on every
//! reachable position (moves entered press by press, the device's choices). A searched game's
//! evaluation, shipped or generated, against the engine's reading of `eval` on random positions.

use gamec::engine::solve::{explore, MAX_STATES};
use gamec::engine::{Engine, Move, Outcome, State};
use gamec_dsl::StrategyKind;
use gamec_runtime::grid::Duel;
use gamec_runtime::heaps::Heap;
use gamec_runtime::rng::Rng;
use gamec_runtime::search::Tree;
use gamec_runtime::session::{Placement, Verdict};
use gamec_runtime::turn::Game;

fn engine(text: &str) -> (Engine, gamec_dsl::GameDef) {
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add("generated.game", text.to_string());
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    (Engine::new(&game), game)
}

fn duel(s: &State) -> Duel {
    let mut d = Duel::default();
    for (i, &v) in s.cells.iter().enumerate() {
        if v == 1 + s.to_move {
            d.me |= 1 << i;
        } else if v != 0 {
            d.opp |= 1 << i;
        }
    }
    d
}

/// A flanking game's search on the byte board an AVR chip gets (`Narrow`) and on 64-bit boards
/// (`Wide`): the same scores at depths 1 to 3 along random games.
fn byte_board_agrees<Wide: Tree<Pos = Duel, Move = u8>, Narrow: Placement>(text: &str)
where
    for<'a> Narrow::Pos: From<&'a Duel>,
{
    use gamec_hosted::both_boards::both_searches;
    let (e, game) = engine(text);
    let mut seed = 0x0B17_EB0A_2D00_0001u64 ^ text.len() as u64;
    let mut searched = 0;
    for _ in 0..8 {
        let mut s = e.fixed_start(&game);
        while !e.plies(&s).is_empty() {
            let d = duel(&s);
            for depth in 1..=3 {
                let (wide, narrow) = both_searches::<Wide, Narrow>(&d, depth, true);
                assert_eq!(wide.map(|c| c.score), narrow.map(|c| c.score), "depth {depth}\n{}\n{text}", e.show(&s));
                searched += narrow.is_some() as u32;
            }
            let plies = e.plies(&s);
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s = e.play(&s, plies[(seed % plies.len() as u64) as usize]);
        }
    }
    assert!(searched > 0, "no position searched\n{text}");
}

/// What the session sees of a position, whichever way the game holds it: each cell's holder
/// and both sides' counts.
fn view<R: Placement>(p: &R::Pos) -> (Vec<u8>, u8, u8) {
    ((0..64).map(|c| R::holder(p, c)).collect(), R::count(p, true), R::count(p, false))
}

/// The session's view of a grid game (`R`, on 64-bit boards or the byte board) along random
/// games of the engine: the end and its verdict, the legal cells, passes and each move's effect.
fn agree_grid<R: Placement>(text: &str)
where
    for<'a> R::Pos: From<&'a Duel>,
{
    let (e, game) = engine(text);
    let mut seed = 0x2545_F491_4F6C_DD1Du64 ^ text.len() as u64;
    for _ in 0..100 {
        let mut s = e.fixed_start(&game);
        loop {
            let p = R::Pos::from(&duel(&s));
            let expected = e.outcome(&s).or_else(|| e.plies(&s).is_empty().then_some(Outcome::Draw)).map(|o| match o {
                Outcome::Draw => Verdict::Draw,
                Outcome::Win(w) if w == s.to_move => Verdict::Win,
                Outcome::Win(_) => Verdict::Loss,
            });
            assert_eq!(R::over(&p), expected, "the end\n{}\n{text}", e.show(&s));
            let plies = e.plies(&s);
            if plies.is_empty() {
                break;
            }
            let mut cells: Vec<u8> =
                plies.iter().filter_map(|m| if let Move::Put { cell, .. } = m { Some(*cell) } else { None }).collect();
            cells.dedup();
            let legal: Vec<u8> = (0..64).filter(|&i| R::legal_at(&p, i)).collect();
            assert_eq!(R::can_move(&p), !legal.is_empty(), "can move\n{}", e.show(&s));
            if plies == [Move::Pass] {
                assert!(legal.is_empty(), "a pass\n{}", e.show(&s));
                s = e.play(&s, Move::Pass);
                let mut q = p;
                R::pass(&mut q);
                assert_eq!(view::<R>(&q), view::<R>(&R::Pos::from(&duel(&s))), "after a pass\n{}", e.show(&s));
                continue;
            }
            assert_eq!(legal, cells, "legal cells\n{}\n{text}", e.show(&s));
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = plies[(seed % plies.len() as u64) as usize];
            let Move::Put { cell, .. } = m else { unreachable!() };
            s = e.play(&s, m);
            let mut q = p;
            R::play(&mut q, cell);
            assert_eq!(view::<R>(&q), view::<R>(&R::Pos::from(&duel(&s))), "the effect of {}\n{text}", e.move_name(m));
        }
    }
}

/// A searched game's evaluation (`R::eval`, the generated code) against the engine's reading of
/// `eval`, on every position along random games from the start, finished ones included; the
/// number of distinct scores seen.
fn agree_eval<R: Tree<Pos = Duel>>(text: &str) -> usize {
    let (e, game) = engine(text);
    let eval = game.device.eval.as_ref().expect("a game with an eval");
    let mut seed = 0x5EED_E7A1_0000_0001u64 ^ text.len() as u64;
    let (mut positions, mut scores) = (0, std::collections::BTreeSet::new());
    for _ in 0..50 {
        let mut s = e.fixed_start(&game);
        loop {
            let want = e.eval(eval, &s);
            assert_eq!(i32::from(R::eval(&duel(&s))), want, "the evaluation\n{}\n{text}", e.show(&s));
            positions += 1;
            scores.insert(want);
            let plies = e.plies(&s);
            if plies.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s = e.play(&s, plies[(seed % plies.len() as u64) as usize]);
        }
    }
    assert!(positions > 50, "{positions} positions\n{text}");
    scores.len()
}

#[test]
fn the_shipped_evaluations_agree() {
    let fixture = format!("{}/fixtures/flank_rook_6x6.game", env!("CARGO_MANIFEST_DIR"));
    let scores = [
        agree_eval::<gamec_hosted::othello::Rules>(&shipped("othello")),
        agree_eval::<gamec_hosted::connect_four::Rules>(&shipped("connect_four")),
        agree_eval::<gamec_hosted::fixture_flank_rook_6x6::Rules>(&std::fs::read_to_string(fixture).unwrap()),
    ];
    // Evaluations that scored every position alike would hide a feature read wrongly.
    assert!(scores.iter().all(|&n| n > 10), "distinct scores {scores:?}");
}

fn shipped(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../../games/{name}.game", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn tictactoe_agrees() {
    agree_grid::<gamec_hosted::tictactoe::Rules>(&shipped("tictactoe"));
}

#[test]
fn connect_four_agrees() {
    agree_grid::<gamec_hosted::connect_four::Rules>(&shipped("connect_four"));
}

#[test]
fn othello_agrees_on_both_boards() {
    agree_grid::<gamec_hosted::othello::Rules>(&shipped("othello"));
    agree_grid::<gamec_hosted::othello_byte_board::Rules>(&shipped("othello"));
}

#[test]
fn nim_agrees_and_its_device_is_perfect() {
    agree_heaps::<gamec_hosted::nim::Rules>(&shipped("nim"), &gamec_hosted::nim::HEAPS);
}

#[test]
fn the_solved_tictactoe_device_chooses_as_the_compiler_does() {
    let (e, game) = engine(&shipped("tictactoe"));
    let solved = explore(&e, &[e.fixed_start(&game)], MAX_STATES).unwrap();
    let mut rng = Rng::new(3);
    for s in solved.states.iter().filter(|s| !e.plies(s).is_empty()) {
        let best: Vec<u8> = e
            .best_plies(&solved, s)
            .iter()
            .filter_map(|m| if let Move::Put { cell, .. } = m { Some(*cell) } else { None })
            .collect();
        for _ in 0..4 {
            let chosen = gamec_hosted::tictactoe::Rules::solved(&duel(s), &mut rng).expect("a move");
            assert!(best.contains(&chosen), "chose {chosen} among {best:?}\n{}", e.show(s));
        }
    }
}

fn agree_heaps<R: Game>(text: &str, heaps: &[Heap]) {
    let (e, game) = engine(text);
    let solved = explore(&e, &[e.fixed_start(&game)], MAX_STATES).unwrap();
    let lights = |s: &State| heaps.iter().zip(&s.cells).fold(0u16, |m, (h, &n)| h.with(m, n));
    let perfect = game.device.strategy.as_ref().is_some_and(|s| s.kind == StrategyKind::Perfect);
    let mut rng = Rng::new(1);
    for s in &solved.states {
        let pos = lights(s);
        let mut after: Vec<u16> = e.plies(s).into_iter().map(|m| lights(&e.play(s, m))).collect();
        after.sort();
        after.dedup();
        let mut entered = Vec::new();
        for h in 0..heaps.len() as u8 {
            for n in 1..=12u8 {
                if let Some(p) = R::extend(pos, 0, h, n) {
                    entered.push(p);
                }
            }
        }
        entered.sort();
        entered.dedup();
        assert_eq!(entered, after, "{:?}\n{text}", s.cells);
        assert_eq!(R::can_move(pos), !after.is_empty());
        if let Some(chosen) = R::device_move(pos, &mut rng) {
            let allowed: Vec<u16> = if perfect {
                e.best_plies(&solved, s).into_iter().map(|m| lights(&e.play(s, m))).collect()
            } else {
                after.clone()
            };
            assert!(allowed.contains(&chosen), "{:?}: chose {chosen:b}\n{text}", s.cells);
        }
    }
}

include!(concat!(env!("OUT_DIR"), "/generated_cases.rs"));
