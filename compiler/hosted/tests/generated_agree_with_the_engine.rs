//! The generated modules of the games written with the general parts (tic-tac-toe, Connect
//! Four, Nim) against the compiler's engine, along random games: legal moves, the effect of
//! each, when a game is over and with what result, and the solved device's choices.

use gamec::engine::solve::{explore, MAX_STATES};
use gamec::engine::{Engine, Move, Outcome, State};
use gamec_runtime::grid::Duel;
use gamec_runtime::rng::Rng;
use gamec_runtime::session::{Placement, Verdict};
use gamec_runtime::turn::Game;

fn engine(name: &str) -> (Engine, gamec_dsl::GameDef) {
    let path = format!("{}/../../games/{name}.game", env!("CARGO_MANIFEST_DIR"));
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(path.clone(), std::fs::read_to_string(&path).unwrap());
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

fn cells(e: &Engine, moves: &[Move]) -> Vec<u8> {
    let mut v: Vec<u8> =
        moves.iter().map(|m| if let Move::Put { cell, .. } = m { *cell } else { panic!("{m:?}") }).collect();
    v.sort();
    v.dedup();
    let _ = e;
    v
}

fn set(bits: u64) -> Vec<u8> {
    (0..64).filter(|i| bits >> i & 1 == 1).collect()
}

/// Plays random games on both readings at once and compares them at every step.
fn agree<R: Placement>(name: &str, games: usize) {
    let (e, game) = engine(name);
    let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ name.len() as u64;
    for _ in 0..games {
        let mut s = e.fixed_start(&game);
        loop {
            let d = duel(&s);
            let over = e.outcome(&s).or_else(|| e.plies(&s).is_empty().then_some(Outcome::Draw));
            let verdict = R::over(&d);
            let expected = over.map(|o| match o {
                Outcome::Draw => Verdict::Draw,
                Outcome::Win(w) if w == s.to_move => Verdict::Win,
                Outcome::Win(_) => Verdict::Loss,
            });
            assert_eq!(verdict, expected, "{name}: the end\n{}", e.show(&s));
            let plies = e.plies(&s);
            if plies.is_empty() {
                let mut buf = [0u8; 64];
                assert_eq!(R::moves(&d, &mut buf), 0, "{name}: no moves once over");
                break;
            }
            assert_eq!(set(R::legal(&d)), cells(&e, &plies), "{name}: legal moves\n{}", e.show(&s));
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = plies[(seed % plies.len() as u64) as usize];
            let Move::Put { cell, .. } = m else { unreachable!() };
            s = e.play(&s, m);
            assert_eq!(R::play(&d, cell), duel(&s), "{name}: the effect of {}", e.move_name(m));
        }
    }
}

#[test]
fn tictactoe_agrees() {
    agree::<gamec_hosted::tictactoe::Rules>("tictactoe", 300);
}

#[test]
fn connect_four_agrees() {
    agree::<gamec_hosted::connect_four::Rules>("connect_four", 300);
}

#[test]
fn the_solved_tictactoe_device_chooses_as_the_compiler_does() {
    let (e, game) = engine("tictactoe");
    let start = e.fixed_start(&game);
    let solved = explore(&e, &[start], MAX_STATES).unwrap();
    let mut rng = Rng::new(3);
    for s in solved.states.iter().filter(|s| !e.plies(s).is_empty()) {
        let best: Vec<u8> = cells(&e, &e.best_plies(&solved, s));
        for _ in 0..4 {
            let chosen = gamec_hosted::tictactoe::Rules::solved(&duel(s), &mut rng).expect("a move");
            assert!(best.contains(&chosen), "chose {chosen} among {best:?}\n{}", e.show(s));
        }
    }
}

#[test]
fn nim_agrees_and_its_device_is_perfect() {
    use gamec_hosted::nim::{Rules, HEAPS};
    let (e, game) = engine("nim");
    let start = e.fixed_start(&game);
    let solved = explore(&e, &[start], MAX_STATES).unwrap();
    let lights = |s: &State| HEAPS.iter().zip(&s.cells).fold(0u16, |m, (h, &n)| h.with(m, n));
    let mut rng = Rng::new(9);
    for s in &solved.states {
        let pos = lights(s);
        let mut after: Vec<u16> = e.plies(s).into_iter().map(|m| lights(&e.play(s, m))).collect();
        after.sort();
        assert_eq!(Rules::can_move(pos), !after.is_empty());
        // Every legal removal, press by press: heap h, count n.
        let mut entered = Vec::new();
        for h in 0..3u8 {
            for n in 1..=5u8 {
                if let Some(p) = Rules::extend(pos, 0, h, n) {
                    entered.push(p);
                }
            }
        }
        entered.sort();
        assert_eq!(entered, after, "{:?}", s.cells);
        if let Some(chosen) = Rules::device_move(pos, &mut rng) {
            let best: Vec<u16> = e.best_plies(&solved, s).into_iter().map(|m| lights(&e.play(s, m))).collect();
            assert!(best.contains(&chosen), "{:?}: chose {chosen:012b}", s.cells);
        }
    }
}
