//! The device's search on the rule core (`gamec_runtime::rules::game`) playing whole games
//! against a random player and a one-ply greedy player, both written here over the engine.

use gamec::engine::{Engine, Move, Outcome, State};
use gamec_runtime::rules::game::Position;
use gamec_runtime::rules::Path;
use gamec_runtime::search::{choose_in_place, Budget, InPlace};

/// Nodes the device's search may visit a move, past its first depth.
pub const NODES: u32 = 50_000;

/// Plies after which an unfinished game counts as a draw.
pub const MOST_PLIES: usize = 300;

/// A small seeded generator, so that every run plays the same games.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Who plays the device's opponent.
#[derive(Clone, Copy, Debug)]
pub enum Opponent {
    Random,
    /// The move after which the default evaluation is best for it, ties broken at random.
    Greedy,
}

/// The engine's move for a core path, matched by name.
fn engine_move(engine: &Engine, s: &State, path: &Path) -> Move {
    engine.plies(s).into_iter().find(|&m| engine.core_path(s, m) == Some(*path)).expect("the device's move is legal")
}

/// One game: the device plays `device` with a search of at most `depth` plies; the result.
pub fn play(
    engine: &Engine,
    start: &State,
    device: u8,
    depth: u8,
    opponent: Opponent,
    rng: &mut Rng,
) -> Option<Outcome> {
    engine.with_game(|game| {
        let mut s = start.clone();
        for _ in 0..MOST_PLIES {
            if let Some(o) = engine.outcome(&s) {
                return Some(o);
            }
            let plies = engine.plies(&s);
            if plies.is_empty() {
                return None;
            }
            let m = if s.to_move == device {
                let mut cells = [0u8; 64];
                cells[..s.cells.len()].copy_from_slice(&s.cells);
                let mut pos = Position::new(game, cells, s.to_move);
                pos.passed = s.passed;
                let mut never = || false;
                // Within a node budget, as the device deepens within its move clock: deeper
                // where the position is narrow (an ending).
                let mut budget = Budget::new(NODES, &mut never);
                // Deepening from one ply to `depth`, so that a search the budget cuts short
                // still has a finished iteration to answer with.
                match choose_in_place::<Position<64>, 256>(&mut pos, 1, depth, false, &mut budget) {
                    Some(c) => engine_move(engine, &s, &c.best),
                    None => Move::Pass,
                }
            } else {
                match opponent {
                    Opponent::Random => plies[rng.below(plies.len())],
                    Opponent::Greedy => {
                        let score = |m: Move| {
                            let after = engine.play(&s, m);
                            let mut cells = [0u8; 64];
                            cells[..after.cells.len()].copy_from_slice(&after.cells);
                            let mut pos = Position::new(game, cells, after.to_move);
                            // The score is the side to move's: the mover wants it low, unless
                            // the move kept the turn (a sowing's last counter in its store).
                            if after.to_move == s.to_move {
                                pos.leaf()
                            } else {
                                -pos.leaf()
                            }
                        };
                        let best = plies.iter().map(|&m| score(m)).max().unwrap();
                        let top: Vec<Move> = plies.iter().copied().filter(|&m| score(m) == best).collect();
                        top[rng.below(top.len())]
                    }
                }
            };
            s = engine.play(&s, m);
        }
        None
    })
}

/// Games the device wins out of `games`, alternating sides.
pub fn wins(engine: &Engine, start: &State, depth: u8, opponent: Opponent, games: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    (0..games)
        .filter(|&g| {
            let device = (g % 2) as u8;
            play(engine, start, device, depth, opponent, &mut rng) == Some(Outcome::Win(device))
        })
        .count()
}
