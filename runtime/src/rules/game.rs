//! A whole game on the rule core, played and searched in place: its rules, its endings, and
//! a position the device's search ([`crate::search`]) makes and undoes moves on.

use super::ending::{Condition, Ending, Judged, Outcome};
use super::eval::Case;
use super::geometry::each;
use super::{content, Board, Changes, Dirs, Every, Path, Program, Rules};
use crate::search::{InPlace, WIN};

/// The side behind has at most this many pieces: an ending, where the default evaluation
/// has the side ahead close in.
const ENDGAME_PIECES: u16 = 3;

/// A game's rules, endings and turn rules, as the compiler renders them.
#[derive(Debug, Clone, Copy)]
pub struct Game<'a, P = Every> {
    pub rules: Rules<'a, P>,
    pub endings: &'a [Ending<'a>],
    /// A player without a move passes instead (never twice running).
    pub pass: bool,
    /// The default evaluation counts how far pieces have come toward their far row (for
    /// games whose moves have a forward).
    pub advance: bool,
    /// The file's `eval`, its cases in order; none for the default evaluation.
    pub eval: &'a [Case<'a>],
}

/// A position of a game of `N` cells: whose turn it is, and whether the last turn was a pass.
#[derive(Debug, Clone, Copy)]
pub struct Position<'g, const N: usize, P = Every> {
    pub game: &'g Game<'g, P>,
    pub cells: [u8; N],
    pub to_move: u8,
    pub passed: bool,
    /// The cells the start gave, a bit each (cell `c` is bit `c % 8` of byte `c / 8`): what a
    /// `free` pick passes by. Empty when the game has none.
    pub given: &'g [u8],
}

/// What undoes a move or a pass.
#[derive(Debug, Clone, Copy)]
pub struct Undo<L = super::AnyLog> {
    changes: Option<Changes<L>>,
    to_move: u8,
    passed: bool,
}

impl<'g, const N: usize, P: Program> Position<'g, N, P> {
    pub fn new(game: &'g Game<'g, P>, cells: [u8; N], to_move: u8) -> Self {
        Position { game, cells, to_move, passed: false, given: &[] }
    }

    fn board(&mut self) -> Board<'_> {
        Board { cells: &mut self.cells[..], given: self.given }
    }

    /// How the game ended, once it has.
    pub fn over(&mut self) -> Option<Outcome> {
        self.game.over(&mut self.cells[..], self.given, self.to_move)
    }
}

impl<P: Program> Game<'_, P> {
    /// How the game on `cells` (with the start's `given` cells), `to_move` to move, ended,
    /// once it has.
    pub fn over(&self, cells: &mut [u8], given: &[u8], to_move: u8) -> Option<Outcome> {
        let mut judged = Judged { board: Board { cells, given }, to_move };
        let e = self.rules.ending(self.endings, &mut judged)?;
        Some(self.rules.outcome(self.endings[e].result, &judged))
    }

    /// The score of `cells` for the side to move: by the file's `eval` where it has one, else
    /// by the default evaluation ([`Game::material`]).
    pub fn score(&self, cells: &mut [u8], to_move: u8) -> i16 {
        match self.eval.is_empty() {
            true => self.material(cells, to_move),
            false => self.rules.evaluate(self.eval, cells, to_move),
        }
    }

    /// The default evaluation for the side to move: pieces (a further kind worth more), for
    /// games with a forward how far they have come, and for games won by k in a row the lines
    /// each side could still fill ([`Game::lines`]).
    pub fn material(&self, cells: &[u8], to_move: u8) -> i16 {
        let rules = &self.rules;
        let g = rules.geometry;
        if rules.pits.is_some() {
            return self.sides(cells, to_move);
        }
        let mut score = 0i16;
        for c in g.cells() {
            let Some((kind, owner)) = content::kind_and_owner(cells[c as usize]).filter(|_| rules.per_player) else {
                continue;
            };
            let mut w = 10 * (1 + kind as i16);
            if self.advance {
                let row = c / g.stride;
                w += if owner == 0 { row } else { g.rows - 1 - row } as i16;
            }
            score += if owner == to_move { w } else { -w };
        }
        if self.advance && score != 0 && self.fewest_pieces(cells) <= ENDGAME_PIECES {
            // In an ending of few pieces the side ahead closes in, so that it is won rather
            // than walked round for ever; the side behind keeps away.
            let closer =
                self.distance_to_enemy(cells, to_move) as i16 - self.distance_to_enemy(cells, 1 - to_move) as i16;
            score -= score.signum() * closer;
        }
        score.saturating_add(self.lines(cells, to_move))
    }

    /// On pits, the counters of the side to move less the opponent's: their stores' where the
    /// board has stores (what a store holds stays there), else their sides'.
    fn sides(&self, cells: &[u8], to_move: u8) -> i16 {
        let rules = &self.rules;
        let stores = rules.pits.is_some_and(|p| p.stores);
        let mut score = 0i16;
        for c in rules.geometry.cells().filter(|&c| !stores || rules.is_store(c)) {
            let n = i16::from(cells[c as usize]);
            score += if rules.side_of(c) == to_move { n } else { -n };
        }
        score
    }

    /// For each ending won by k in a row: every run of k cells along its lines that holds
    /// pieces of one side only, worth four times more for each piece more (1, 4, 16, ...), for
    /// that side; so that a search sees a threat before it is made. A run the side to move
    /// lacks one piece of is a win on its next move, whatever else stands: worth a quarter of a
    /// won game, the most this gives. Held well inside a won game's score.
    fn lines(&self, cells: &[u8], to_move: u8) -> i16 {
        let mut score = 0i32;
        for e in self.endings {
            for c in e.conditions {
                if let Condition::InARow { k, directions } = *c {
                    score += self.runs_of(cells, to_move, k, directions);
                }
            }
        }
        score.clamp(-i32::from(WIN / 4), i32::from(WIN / 4)) as i16
    }

    /// [`Game::lines`] for one ending of `k` in a row along 4 (orthogonal) or 8 directions.
    fn runs_of(&self, cells: &[u8], to_move: u8, k: u8, directions: u8) -> i32 {
        let g = self.rules.geometry;
        // Each run counted from its first cell: half of each axis.
        let axes = if directions == 4 { Dirs::E | Dirs::N } else { Dirs::E | Dirs::N | Dirs::NE | Dirs::SE };
        let mut score = 0i32;
        for first in g.cells() {
            for bit in each(axes) {
                let (mut mine, mut theirs) = (0u32, 0u32);
                let whole = (0..k).all(|i| match g.toward(first, bit, i) {
                    Some(c) => {
                        match content::kind_and_owner(cells[c as usize]) {
                            Some((_, o)) if o == to_move => mine += 1,
                            Some(_) => theirs += 1,
                            None => {}
                        }
                        true
                    }
                    None => false,
                });
                match (whole, mine, theirs) {
                    (true, m, 0) if m + 1 == u32::from(k) => return i32::from(WIN / 4),
                    (true, m, 0) if m > 0 => score += 1 << (2 * (m - 1)).min(24),
                    (true, 0, t) if t > 0 => score -= 1 << (2 * (t - 1)).min(24),
                    _ => {}
                }
            }
        }
        score
    }

    /// The pieces of the player who has fewer.
    fn fewest_pieces(&self, cells: &[u8]) -> u16 {
        let mut n = [0u16; 2];
        for c in self.rules.geometry.cells() {
            if let Some((_, o)) = content::kind_and_owner(cells[c as usize]) {
                n[o as usize & 1] += 1;
            }
        }
        n[0].min(n[1])
    }

    /// The sum, over `player`'s pieces, of the distance (in king's moves) to the nearest
    /// enemy piece.
    fn distance_to_enemy(&self, cells: &[u8], player: u8) -> u16 {
        let g = self.rules.geometry;
        let owner = |c: u8| content::kind_and_owner(cells[c as usize]).map(|(_, o)| o);
        let mut total = 0u16;
        for mine in g.cells().filter(|&c| owner(c) == Some(player)) {
            let (mc, mr) = ((mine % g.stride) as i16, (mine / g.stride) as i16);
            let nearest = g
                .cells()
                .filter(|&c| owner(c).is_some_and(|o| o != player))
                .map(|c| {
                    let (c2, r2) = ((c % g.stride) as i16, (c / g.stride) as i16);
                    (c2 - mc).abs().max((r2 - mr).abs()) as u16
                })
                .min()
                .unwrap_or(0);
            total += nearest;
        }
        total
    }
}

impl<const N: usize, P: Program> InPlace for Position<'_, N, P> {
    type Move = Path;
    type Undo = Undo<P::Log>;

    fn moves(&mut self, out: &mut [Path]) -> usize {
        // A finished game has no moves, even where its pieces could still go.
        if self.over().is_some() {
            return 0;
        }
        let mut n = 0;
        let (game, to_move) = (self.game, self.to_move);
        game.rules.moves(&mut self.board(), to_move, |p, _| {
            if n < out.len() {
                out[n] = *p;
                n += 1;
            }
        });
        n
    }

    fn make(&mut self, m: Path) -> Self::Undo {
        let undo = Undo { changes: None, to_move: self.to_move, passed: self.passed };
        let (game, to_move) = (self.game, self.to_move);
        let changes = game.rules.play(&mut self.board(), to_move, &m);
        if !changes.is_some_and(|c| c.again) {
            self.to_move = (self.to_move + 1) % self.game.rules.players;
        }
        self.passed = false;
        Undo { changes, ..undo }
    }

    fn pass(&mut self) -> Option<Self::Undo> {
        if !self.game.pass || self.passed || self.over().is_some() {
            return None;
        }
        let undo = Undo { changes: None, to_move: self.to_move, passed: self.passed };
        self.to_move = (self.to_move + 1) % self.game.rules.players;
        self.passed = true;
        Some(undo)
    }

    fn undo(&mut self, u: Self::Undo) {
        if let Some(c) = u.changes {
            c.undo(&mut self.cells[..]);
        }
        self.to_move = u.to_move;
        self.passed = u.passed;
    }

    fn eval(&mut self) -> i16 {
        self.game.score(&mut self.cells, self.to_move)
    }

    const AGAIN: bool = true;
    fn mover(&mut self) -> u8 {
        self.to_move
    }

    fn outcome(&mut self) -> i16 {
        match self.over() {
            Some(Outcome::Win(p)) if p == self.to_move => WIN,
            Some(Outcome::Win(_)) => -WIN,
            _ => 0,
        }
    }

    fn leaf(&mut self) -> i16 {
        match self.over() {
            Some(_) => self.outcome(),
            None => self.game.score(&mut self.cells, self.to_move),
        }
    }
}
