//! A game played on the host against the device's strategy, from the engine: the rules the
//! firmware plays, without a board. Pure: `gamec play`'s terminal loop (main.rs) feeds it the
//! person's lines and prints what it says.

use crate::analyze::{dealt_starts, starts};
use crate::engine::solve::{explore, Solved, MAX_STATES};
use crate::engine::{Engine, Move, Outcome, State};
use gamec_dsl::{GameDef, StrategyKind};

/// The device's plies a search looks ahead when the file gives no depth of its own.
const SEARCH_PLIES: u32 = 4;
/// A finished game's score in a search: beyond any evaluation's (the front end keeps those
/// within 16,000 either way).
const WON: i32 = 1_000_000;

/// A game in play: the position, who the device is, and how it chooses.
pub struct HostGame<'g> {
    pub engine: Engine,
    game: &'g GameDef,
    pub state: State,
    /// The device's player, or none in a game of one player.
    pub device: Option<u8>,
    solved: Option<Solved>,
    rng: u64,
}

/// What a line the person typed did.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    /// The move was played.
    Played,
    /// Not a legal move here: the reason, the position unchanged.
    Denied(String),
}

impl<'g> HostGame<'g> {
    /// A game from its start (a random setup dealt by `seed`), the device playing the side
    /// its strategy names, or the side that does not move first.
    pub fn new(game: &'g GameDef, seed: u64) -> Result<Self, String> {
        let engine = Engine::new(game);
        let mut rng = seed | 1;
        let state = match game.rules.setup.is_random() {
            true => {
                let deals = dealt_starts(&engine, game);
                if deals.is_empty() {
                    return Err("no deal meets the setup's requirements".into());
                }
                deals[next(&mut rng) as usize % deals.len()].clone()
            }
            false => engine.fixed_start(game),
        };
        let device = match engine.players {
            1 => None,
            _ => Some(game.device.strategy.as_ref().and_then(|s| s.player).unwrap_or(1 - game.rules.first) as u8),
        };
        let solved = match game.device.strategy.as_ref().map(|s| s.kind) {
            Some(StrategyKind::Perfect) => {
                let from = starts(&engine, game);
                Some(
                    explore(&engine, &from, MAX_STATES)
                        .map_err(|t| format!("the game has more than {} positions, too many to solve", t.explored))?,
                )
            }
            _ => None,
        };
        Ok(HostGame { engine, game, state, device, solved, rng })
    }

    /// Whether the device moves now.
    pub fn device_to_move(&self) -> bool {
        self.outcome().is_none() && self.device == Some(self.state.to_move)
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.engine.outcome(&self.state).or_else(|| self.engine.plies(&self.state).is_empty().then_some(Outcome::Draw))
    }

    /// The legal moves, in the game's notation.
    pub fn legal(&self) -> Vec<String> {
        self.engine.plies(&self.state).into_iter().map(|m| self.engine.move_name(m)).collect()
    }

    /// Plays the person's move written in the game's notation.
    pub fn person(&mut self, text: &str) -> Reply {
        match self.engine.parse_move(&self.state, text) {
            Ok(m) if self.engine.plies(&self.state).contains(&m) => {
                self.state = self.engine.play(&self.state, m);
                Reply::Played
            }
            Ok(_) => Reply::Denied(format!("`{text}` is not a legal move here")),
            Err(e) => Reply::Denied(e.message),
        }
    }

    /// The device's move, played: by its solved table, its search, or at random.
    pub fn device_move(&mut self) -> Option<String> {
        let plies = self.engine.plies(&self.state);
        if plies.is_empty() {
            return None;
        }
        let kind = self.game.device.strategy.as_ref().map_or(StrategyKind::Search, |s| s.kind);
        let choices = match (kind, &self.solved) {
            (StrategyKind::Perfect, Some(solved)) => self.engine.best_plies(solved, &self.state),
            (StrategyKind::Random, _) => plies,
            _ => self.searched(),
        };
        let m = choices[next(&mut self.rng) as usize % choices.len()];
        self.state = self.engine.play(&self.state, m);
        Some(self.engine.move_name(m))
    }

    /// The moves a negamax search of [`SEARCH_PLIES`] scores best, by the file's `eval` or,
    /// without one, the difference in legal moves.
    fn searched(&self) -> Vec<Move> {
        let scored: Vec<(Move, i32)> = self
            .engine
            .successors(&self.state)
            .into_iter()
            .map(|(m, s)| (m, -self.negamax(&s, SEARCH_PLIES - 1, -WON - 1, WON + 1)))
            .collect();
        let best = scored.iter().map(|x| x.1).max();
        scored.into_iter().filter(|x| Some(x.1) == best).map(|x| x.0).collect()
    }

    fn negamax(&self, s: &State, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if let Some(o) = self.engine.outcome(s) {
            return match o {
                Outcome::Win(p) if p == s.to_move => WON + depth as i32,
                Outcome::Win(_) => -WON - depth as i32,
                Outcome::Draw => 0,
            };
        }
        let children = self.engine.successors(s);
        if children.is_empty() {
            return 0;
        }
        if depth == 0 {
            return match &self.game.device.eval {
                Some(eval) => self.engine.eval(eval, s),
                None => self.engine.feature(gamec_dsl::Feature::Mobility, s),
            };
        }
        for (_, child) in children {
            let score = -self.negamax(&child, depth - 1, -beta, -alpha);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        alpha
    }

    /// How the game ended, from the person's side.
    pub fn verdict(&self, o: Outcome) -> String {
        match (o, self.device) {
            (Outcome::Draw, _) => "a draw".into(),
            (Outcome::Win(p), Some(d)) if p == d => "the device wins".into(),
            (Outcome::Win(_), Some(_)) => "you win".into(),
            (Outcome::Win(p), None) => format!("{} wins", self.engine.player_names[p as usize]),
        }
    }
}

/// A step of xorshift64: the device's ties and the deal.
fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> GameDef {
        let mut sources = gamec_dsl::Sources::new();
        let f = sources.add("t.game", text.to_string());
        gamec_dsl::load_game(&sources, f).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
    }

    /// Three heaps of 1, 2 and 3 counters, a removal of any number from one, normal play: the
    /// first player's start is lost (1 ^ 2 ^ 3 = 0), so a perfect device wins every game.
    const LOST_HEAPS: &str = "game heaps_123 {\n  players person, device\n  first person\n  board heaps 3\n  pieces counter\n  setup fixed { heaps 1, 2, 3 }\n  action take = remove 1.. from heap\n  end { no moves -> mover loses }\n  strategy device = perfect\n}\n";

    #[test]
    fn an_illegal_move_is_denied_and_the_position_kept() {
        let game = load(LOST_HEAPS);
        let mut g = HostGame::new(&game, 7).unwrap();
        let before = g.state.clone();
        assert!(matches!(g.person("9"), Reply::Denied(_)));
        assert_eq!(g.state, before);
    }

    #[test]
    fn the_perfect_device_wins_the_lost_start_whatever_the_person_plays() {
        let game = load(LOST_HEAPS);
        for seed in 1..20u64 {
            let mut g = HostGame::new(&game, seed).unwrap();
            let mut rng = seed;
            while g.outcome().is_none() {
                if g.device_to_move() {
                    g.device_move().unwrap();
                } else {
                    let legal = g.legal();
                    assert_eq!(g.person(&legal[next(&mut rng) as usize % legal.len()]), Reply::Played);
                }
            }
            assert_eq!(g.verdict(g.outcome().unwrap()), "the device wins", "seed {seed}");
        }
    }
}
