//! Games made by the property tests' generator (compiler/tests/support/random_games.rs) that
//! `check` accepts, generated and compiled for the host by build.rs: each module against the
//! compiler's engine. Grid games along random games (legal cells, effects, the end and its
//! verdict); heap games on every reachable position (moves entered press by press, the
//! device's choices).

use gamec::engine::solve::{explore, MAX_STATES};
use gamec::engine::{Engine, Move, Outcome, State};
use gamec_dsl::StrategyKind;
use gamec_runtime::grid::Duel;
use gamec_runtime::heaps::Heap;
use gamec_runtime::rng::Rng;
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

fn agree_grid<R: Placement>(text: &str) {
    let (e, game) = engine(text);
    let mut seed = 0x2545_F491_4F6C_DD1Du64 ^ text.len() as u64;
    for _ in 0..100 {
        let mut s = e.fixed_start(&game);
        loop {
            let d = duel(&s);
            let expected = e.outcome(&s).or_else(|| e.plies(&s).is_empty().then_some(Outcome::Draw)).map(|o| match o {
                Outcome::Draw => Verdict::Draw,
                Outcome::Win(w) if w == s.to_move => Verdict::Win,
                Outcome::Win(_) => Verdict::Loss,
            });
            assert_eq!(R::over(&d), expected, "the end\n{}\n{text}", e.show(&s));
            let plies = e.plies(&s);
            if plies.is_empty() {
                break;
            }
            let mut cells: Vec<u8> =
                plies.iter().filter_map(|m| if let Move::Put { cell, .. } = m { Some(*cell) } else { None }).collect();
            cells.dedup();
            let legal: Vec<u8> = (0..64).filter(|i| R::legal(&d) >> i & 1 == 1).collect();
            if plies == [Move::Pass] {
                assert!(legal.is_empty() && R::pass(&d).is_some(), "a pass\n{}", e.show(&s));
                s = e.play(&s, Move::Pass);
                continue;
            }
            assert_eq!(legal, cells, "legal cells\n{}\n{text}", e.show(&s));
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = plies[(seed % plies.len() as u64) as usize];
            let Move::Put { cell, .. } = m else { unreachable!() };
            s = e.play(&s, m);
            assert_eq!(R::play(&d, cell), duel(&s), "the effect of {}\n{text}", e.move_name(m));
        }
    }
}

fn agree_heaps<R: Game>(text: &str, heaps: &[Heap]) {
    let (e, game) = engine(text);
    let solved = explore(&e, &[e.fixed_start(&game)], MAX_STATES).unwrap();
    let lights = |s: &State| heaps.iter().zip(&s.cells).fold(0u16, |m, (h, &n)| h.with(m, n));
    let perfect = game.strategy.as_ref().is_some_and(|s| s.kind == StrategyKind::Perfect);
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
