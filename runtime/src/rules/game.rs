//! A whole game on the rule core, played and searched in place: its rules, its endings, and
//! a position the device's search ([`crate::search`]) makes and undoes moves on.

use super::ending::{Ending, Judged, Outcome};
use super::{content, Changes, Path, Rules};
use crate::search::{InPlace, WIN};

/// A game's rules, endings and turn rules, as the compiler renders them.
#[derive(Debug, Clone, Copy)]
pub struct Game<'a> {
    pub rules: Rules<'a>,
    pub endings: &'a [Ending<'a>],
    /// A player without a move passes instead (never twice running).
    pub pass: bool,
    /// The default evaluation counts how far pieces have come toward their far row (for
    /// games whose moves have a forward).
    pub advance: bool,
}

/// A position of a game of `N` cells: whose turn it is, and whether the last turn was a pass.
#[derive(Debug, Clone, Copy)]
pub struct Position<'g, const N: usize> {
    pub game: &'g Game<'g>,
    pub cells: [u8; N],
    pub to_move: u8,
    pub passed: bool,
}

/// What undoes a move or a pass.
#[derive(Debug, Clone, Copy)]
pub struct Undo {
    changes: Option<Changes>,
    to_move: u8,
    passed: bool,
}

impl<'g, const N: usize> Position<'g, N> {
    pub fn new(game: &'g Game<'g>, cells: [u8; N], to_move: u8) -> Self {
        Position { game, cells, to_move, passed: false }
    }

    /// How the game ended, once it has.
    pub fn over(&mut self) -> Option<Outcome> {
        let g = self.game;
        let mut judged = Judged { board: &mut self.cells[..], to_move: self.to_move };
        let e = g.rules.ending(g.endings, &mut judged)?;
        Some(g.rules.outcome(g.endings[e].result, &judged))
    }

    /// Makes `path` if it is one of the legal moves; `None`, unchanged, if not.
    pub fn play(&mut self, path: &Path) -> Option<Undo> {
        let mut legal = false;
        self.game.rules.moves(&mut self.cells[..], self.to_move, |p, _| legal |= p == path);
        legal.then(|| self.make(*path))
    }

    fn next_player(&self, m: &Path) -> u8 {
        let again = self.game.rules.actions.get(m.action as usize).is_some_and(|a| a.again);
        if again {
            self.to_move
        } else {
            (self.to_move + 1) % self.game.rules.players
        }
    }

    /// The default evaluation for the side to move: pieces (a further kind worth more), and
    /// for games with a forward, how far they have come.
    fn material(&self) -> i16 {
        let rules = &self.game.rules;
        let g = rules.geometry;
        let mut score = 0i16;
        for c in g.cells() {
            let Some((kind, owner)) = content::kind_and_owner(self.cells[c as usize]).filter(|_| rules.per_player)
            else {
                continue;
            };
            let mut w = 10 * (1 + kind as i16);
            if self.game.advance {
                let row = c / g.stride;
                w += if owner == 0 { row } else { g.rows - 1 - row } as i16;
            }
            score += if owner == self.to_move { w } else { -w };
        }
        score
    }
}

impl<const N: usize> InPlace for Position<'_, N> {
    type Move = Path;
    type Undo = Undo;

    fn moves(&mut self, out: &mut [Path]) -> usize {
        // A finished game has no moves, even where its pieces could still go.
        if self.over().is_some() {
            return 0;
        }
        let mut n = 0;
        self.game.rules.moves(&mut self.cells[..], self.to_move, |p, _| {
            if n < out.len() {
                out[n] = *p;
                n += 1;
            }
        });
        n
    }

    fn make(&mut self, m: Path) -> Undo {
        let undo = Undo { changes: None, to_move: self.to_move, passed: self.passed };
        let changes = self.game.rules.play(&mut self.cells[..], self.to_move, &m);
        self.to_move = self.next_player(&m);
        self.passed = false;
        Undo { changes, ..undo }
    }

    fn pass(&mut self) -> Option<Undo> {
        if !self.game.pass || self.passed || self.over().is_some() {
            return None;
        }
        let undo = Undo { changes: None, to_move: self.to_move, passed: self.passed };
        self.to_move = (self.to_move + 1) % self.game.rules.players;
        self.passed = true;
        Some(undo)
    }

    fn undo(&mut self, u: Undo) {
        if let Some(c) = u.changes {
            c.undo(&mut self.cells[..]);
        }
        self.to_move = u.to_move;
        self.passed = u.passed;
    }

    fn eval(&mut self) -> i16 {
        self.material()
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
            None => self.material(),
        }
    }
}
