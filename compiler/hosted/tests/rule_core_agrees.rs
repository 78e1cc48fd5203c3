//! Every game's rule core as the compiler renders it (`codegen::rules_module`), compiled for
//! the host and played by the runtime's `rules` module, held to the compiler's engine: the
//! start, perft from every start, and the end and its winner along seeded random games. The
//! generated rules play only the ops and conditions each game uses (its `Ops`), the engine all
//! the core has (`Every`): so this holds each game's trimmed match to the whole one. The
//! games are every one in `games/` and `compiler/tests/games/`, and eight generated games of
//! moving pieces (compiler/tests/support/random_games.rs) that `check` accepts.

use gamec::engine::{Engine, Move, Outcome, State};
use gamec_runtime::rules::ending;
use gamec_runtime::rules::game::{Game, Position};
use gamec_runtime::rules::{Path, Program};
use gamec_runtime::search::InPlace;

fn load(text: &str) -> gamec_dsl::GameDef {
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add("game.game", text.to_string());
    gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
}

/// Move paths of `depth` plies, as the engine counts them: passes are plies, finished games
/// leaves.
fn perft<P: Program, const N: usize>(pos: &mut Position<N, P>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = [Path::default(); 256];
    let n = pos.moves(&mut moves);
    if n == 0 {
        return match pos.pass() {
            Some(u) => {
                let count = perft(pos, depth - 1);
                pos.undo(u);
                count
            }
            None => 1,
        };
    }
    if depth == 1 {
        return n as u64;
    }
    moves[..n]
        .iter()
        .map(|&m| {
            let u = pos.make(m);
            let count = perft(pos, depth - 1);
            pos.undo(u);
            count
        })
        .sum()
}

fn position<'g, P: Program, const N: usize>(
    game: &'g Game<'g, P>,
    s: &State,
    given: &'g [u8; 8],
) -> Position<'g, N, P> {
    let mut cells = [0u8; N];
    cells.copy_from_slice(&s.cells);
    let mut pos = Position::new(game, cells, s.to_move);
    pos.passed = s.passed;
    pos.given = given;
    pos
}

fn outcome(o: Option<ending::Outcome>) -> Option<Outcome> {
    o.map(|o| match o {
        ending::Outcome::Win(p) => Outcome::Win(p),
        ending::Outcome::Draw => Outcome::Draw,
    })
}

/// The runtime's reading of the generated rule core agrees with the engine's.
fn agree_core<P: Program, const N: usize>(game: &Game<'static, P>, start: [u8; N], first: u8, text: &str) {
    let def = load(text);
    let engine = Engine::new(&def);
    let starts = gamec::analyze::starts(&engine, &def);
    if !def.rules.setup.is_random() {
        let fixed = engine.fixed_start(&def);
        assert_eq!((&start[..], first), (&fixed.cells[..], fixed.to_move), "the generated start");
    }
    // Perft from a few starts, as deep as stays quick.
    let cells = engine.cell_list.len();
    let depth = match cells {
        0..=30 => 4,
        31..=100 => 3,
        _ => 2,
    };
    // Fewer random games where a position has hundreds of moves to compare.
    let games = if cells > 100 { 2 } else { 20 };
    for s in starts.iter().take(3) {
        let given = s.given.to_le_bytes();
        let mut pos = position::<P, N>(game, s, &given);
        assert_eq!(perft(&mut pos, depth), engine.perft(s, depth), "perft {depth} from\n{}", engine.show(s));
    }
    // Random games: the same moves each ply, the same end and winner, and never more moves
    // than the bound a chip's move lists are sized by.
    let mut seed = 0x5EED_u64;
    for s in starts.iter().take(3) {
        let bound = game.rules.most_moves(&s.cells);
        for _ in 0..games {
            let mut s = s.clone();
            let given = s.given.to_le_bytes();
            for _ in 0..200 {
                let mut pos = position::<P, N>(game, &s, &given);
                assert_eq!(outcome(pos.over()), engine.outcome(&s), "the end of\n{}", engine.show(&s));
                let plies = engine.plies(&s);
                let mut moves = [Path::default(); 256];
                let n = pos.moves(&mut moves);
                // The file's `eval`, as the firmware's search scores a position.
                if let Some(eval) = &def.device.eval {
                    let mut cells = pos.cells;
                    let want = engine.eval(eval, &s).clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                    assert_eq!(game.score(&mut cells, pos.to_move), want, "the eval of\n{}", engine.show(&s));
                }
                assert!(bound.is_none_or(|b| n <= b), "{n} moves, over the bound {bound:?}, in\n{}", engine.show(&s));
                let listed: Vec<Path> =
                    plies.iter().filter(|&&m| m != Move::Pass).filter_map(|&m| engine.core_path(&s, m)).collect();
                let mut ours = moves[..n].to_vec();
                let mut theirs = listed.clone();
                ours.sort();
                theirs.sort();
                assert_eq!(ours, theirs, "the moves of\n{}", engine.show(&s));
                if plies.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = plies[(seed % plies.len() as u64) as usize];
                let next = engine.play(&s, m);
                if m != Move::Pass {
                    pos.make(engine.core_path(&s, m).unwrap());
                    assert_eq!(&pos.cells[..], &next.cells[..], "after {}", engine.move_name(m));
                    assert_eq!(pos.to_move, next.to_move);
                }
                s = next;
            }
        }
    }
}

include!(concat!(env!("OUT_DIR"), "/rule_core_cases.rs"));
