//! Sowing games held to a plain reading of their rules written here, not from the rule core:
//! Kalah and Oware as their game files write them (games/kalah.game, games/oware.game), and
//! generated games of random boards of pits and sowing options
//! (tests/support/random_games.rs). Perft from the start and from positions along seeded
//! random games, move for move.

#[path = "support/random_games.rs"]
#[allow(dead_code)]
mod random_games;

use gamec::engine::{Engine, State};
use random_games::{Sowing, SowingEnd};

const KALAH: Sowing = Sowing {
    per_side: 6,
    stores: true,
    into_store: true,
    again: true,
    opposite: true,
    making: None,
    skip_origin: false,
    ends: SowingEnd::EitherSideEmpty,
};
const OWARE: Sowing = Sowing {
    per_side: 6,
    stores: true,
    into_store: false,
    again: false,
    opposite: false,
    making: Some((2, 3)),
    skip_origin: true,
    ends: SowingEnd::StorePast(24),
};

/// A board of pits as the reference reads it: side `s` is cells `s * side ..`, its pits and
/// then its store.
struct Ring(Sowing);

impl Ring {
    fn side(&self) -> usize {
        self.0.per_side as usize + usize::from(self.0.stores)
    }
    fn store(&self, s: usize) -> Option<usize> {
        self.0.stores.then(|| s * self.side() + self.side() - 1)
    }
    fn pits(&self, s: usize) -> std::ops::Range<usize> {
        s * self.side()..s * self.side() + self.0.per_side as usize
    }

    /// The board after `side` sows `pit`, and whether `side` moves again.
    fn sow(&self, b: &[u8], side: usize, pit: usize) -> (Vec<u8>, bool) {
        let r = self.0;
        let mut b = b.to_vec();
        let mut seeds = b[pit];
        b[pit] = 0;
        let mut at = pit;
        while seeds > 0 {
            at = (at + 1) % b.len();
            let own_store = self.store(side) == Some(at);
            let their_store = self.store(1 - side) == Some(at);
            if their_store || (own_store && !r.into_store) || (r.skip_origin && at == pit) {
                continue;
            }
            b[at] += 1;
            seeds -= 1;
        }
        let mut taken = 0;
        if r.opposite && self.pits(side).contains(&at) && b[at] == 1 {
            let k = at - self.pits(side).start;
            let facing = self.pits(1 - side).start + r.per_side as usize - 1 - k;
            if b[facing] > 0 {
                taken = b[facing] + 1;
                b[facing] = 0;
                b[at] = 0;
            }
        }
        if let Some((min, max)) = r.making {
            let theirs = self.pits(1 - side);
            let mut p = at;
            while theirs.contains(&p) && (min..=max).contains(&b[p]) {
                taken += b[p];
                b[p] = 0;
                if p == theirs.start {
                    break;
                }
                p -= 1;
            }
        }
        if let (Some(store), true) = (self.store(side), taken > 0) {
            b[store] += taken;
        }
        (b, r.again && self.store(side) == Some(at))
    }

    /// Whether the game is over with `side` to move: it has no counter in its pits, or the
    /// rules' other ending holds.
    fn over(&self, b: &[u8], side: usize) -> bool {
        let empty = |s: usize| self.pits(s).all(|p| b[p] == 0);
        empty(side)
            || match self.0.ends {
                SowingEnd::NoMoves => false,
                SowingEnd::EitherSideEmpty => empty(1 - side),
                SowingEnd::StorePast(n) => (0..2).any(|s| self.store(s).is_some_and(|st| b[st] > n)),
            }
    }

    /// Move paths of `depth` plies; a finished game is a leaf.
    fn perft(&self, b: &[u8], side: usize, depth: u32) -> u64 {
        if depth == 0 || self.over(b, side) {
            return 1;
        }
        let moves: Vec<usize> = self.pits(side).filter(|&p| b[p] > 0).collect();
        moves
            .iter()
            .map(|&p| {
                let (after, again) = self.sow(b, side, p);
                self.perft(&after, if again { side } else { 1 - side }, depth - 1)
            })
            .sum()
    }
}

fn engine_of(name: &str, text: String) -> (Engine, State) {
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(name.to_string(), text);
    let game = gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let engine = Engine::new(&game);
    let start = engine.fixed_start(&game);
    (engine, start)
}

fn shipped(file: &str) -> (Engine, State) {
    let path = format!("{}/../games/{file}", env!("CARGO_MANIFEST_DIR"));
    engine_of(&path, std::fs::read_to_string(&path).unwrap())
}

/// Perft to `depth` from the start and from a position some random plies on in each of
/// `games` games, by the engine and by the reference.
fn agree(name: &str, (engine, start): (Engine, State), r: Sowing, depth: u32, games: usize) {
    let ring = Ring(r);
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    for game in 0..games {
        let mut s = start.clone();
        for _ in 0..game * 3 {
            let plies = engine.plies(&s);
            if plies.is_empty() {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            s = engine.play(&s, plies[(rng % plies.len() as u64) as usize]);
        }
        for d in 1..=depth {
            let want = ring.perft(&s.cells, s.to_move as usize, d);
            assert_eq!(engine.perft(&s, d), want, "{name}, depth {d} from {}", engine.show(&s));
        }
    }
}

#[test]
fn kalah_counts_as_a_plain_reading_of_its_rules_does() {
    let (engine, start) = shipped("kalah.game");
    assert_eq!(
        (1..=8).map(|d| engine.perft(&start, d)).collect::<Vec<_>>(),
        [6, 35, 185, 942, 4690, 23233, 114430, 563055]
    );
    agree("kalah.game", (engine, start), KALAH, 5, 12);
}

#[test]
fn oware_counts_as_a_plain_reading_of_its_rules_does() {
    agree("oware.game", shipped("oware.game"), OWARE, 5, 12);
}

#[test]
fn generated_sowing_games_count_as_a_plain_reading_of_their_rules_does() {
    for i in 0..40 {
        let (g, rules) = random_games::generate_sowing(0x50_77, i);
        agree(&format!("sowing{i}\n{}", g.game), engine_of("sowing.game", g.game.clone()), rules, 4, 6);
    }
}
