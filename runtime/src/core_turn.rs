//! The turn machine of any game on the rule core played with buttons and lights: a press of a
//! piece's (or a heap's) button enters the next legal move of the button's action from it (a
//! pin alone, then the pin and its neighbour; a slide one cell further; one more counter),
//! shown on the lights as it would leave the board; a press no move answers is denied with
//! the board unchanged; GO commits the move, and the device answers by its strategy until the
//! person is to move again or the game's endings say it is over. The rules are the generated
//! [`OnButtons`] game; nothing here knows a game.

use crate::lights::Lights;
use crate::rng::Rng;
use crate::rules::as_placement::{move_from, CoreGame, Played};
use crate::rules::content;
use crate::search::Budget;
use crate::session::{Placement, Strategy, Verdict};
use crate::turn::{Input, Machine, Outcome};

/// What the generated game says about playing it with buttons and lights.
pub trait OnButtons: CoreGame {
    /// Per per-piece control, in the order the board wires their buttons, the action it
    /// enters (an index among the game's actions).
    const CONTROLS: &'static [u8];
    /// The person's player (an index).
    const HUMAN: u8;
    /// The pieces belong to nobody: a control counts every piece, not only the person's.
    const SHARED: bool;
    /// A control's index is a cell's (a heap's), not a count of pieces.
    const BY_CELL: bool = false;
    /// Per light, light 0 first, the cell it shows and the count it shows above: lit while
    /// the cell holds more than that (a piece on a cell holding anything; the third light of
    /// a heap's run, more than two counters).
    const LIGHTS: &'static [(u8, u8)];
    /// A word with a bit for each of [`OnButtons::LIGHTS`].
    type Lights: Lights;
    /// How long the device may think, and its deepest ply ([`Strategy::Search`]).
    const THINK_MS: u16;
    const MAX_DEPTH: u8;
}

/// A game in play, or at rest between games. `N` is room for a position's moves in the search.
pub struct CoreTurn<G: OnButtons, const N: usize> {
    pos: Played<G::Cells>,
    /// The position the person's move is entered from.
    start: Played<G::Cells>,
    playing: bool,
    /// Presses accepted in the move entered so far; while nonzero, `control` and `piece` are
    /// the move's control and piece.
    steps: u8,
    control: u8,
    piece: u8,
    rng: Rng,
}

impl<G: OnButtons, const N: usize> CoreTurn<G, N> {
    /// The cell of the `piece`th piece (from 0, in cell order) a control counts: of any kind,
    /// the person's or nobody's; or the `piece`th cell itself, a heap.
    fn piece_cell(&self, piece: u8) -> Option<u8> {
        if G::BY_CELL {
            return Some(piece);
        }
        let counted = |&(_, &content): &(usize, &u8)| match content::kind_and_owner(content) {
            Some((_, owner)) => G::SHARED || owner == G::HUMAN,
            None => false,
        };
        let cells = self.start.cells;
        let found = cells.as_ref().iter().enumerate().filter(counted).nth(piece as usize);
        found.map(|(cell, _)| cell as u8)
    }

    /// The person's move entered by `steps + 1` presses of `control` on `piece`, if there is one.
    fn entered(&self, control: u8, piece: u8, steps: u8) -> Option<u8> {
        let action = *G::CONTROLS.get(control as usize)?;
        let from = self.piece_cell(piece)?;
        move_from::<G>(&self.start, action, from, steps)
    }

    /// The device's choice in the position, by the game's strategy.
    fn device_choice(&mut self, clock: &mut impl FnMut() -> u16) -> Option<u8> {
        match <G as CoreGame>::STRATEGY {
            Strategy::Search => {
                let started = clock();
                let mut out_of_time = || clock().wrapping_sub(started) >= G::THINK_MS;
                let mut budget = Budget::new(u32::MAX, &mut out_of_time);
                G::search::<N>(&mut self.pos, 1, G::MAX_DEPTH, true, &mut budget).map(|c| c.best)
            }
            Strategy::Solved => G::solved(&self.pos, &mut self.rng),
            Strategy::Random => G::random(&self.pos, &mut self.rng),
        }
    }

    /// Play goes on from the position: the device moves while it is to move, a side without
    /// a move passes, until the person is to move (`waiting`, or [`Outcome::DeviceMoved`] if
    /// the device moved) or the game is over.
    fn play_on(&mut self, clock: &mut impl FnMut() -> u16, waiting: Outcome) -> Outcome {
        let mut moved = false;
        loop {
            if let Some(v) = G::over(&self.pos) {
                self.playing = false;
                // The verdict is for the side to move.
                let human = if self.pos.to_move == G::HUMAN { v } else { v.flipped() };
                return match human {
                    Verdict::Win => Outcome::HumanWon,
                    Verdict::Loss => Outcome::DeviceWon,
                    Verdict::Draw => Outcome::Draw,
                };
            }
            if self.pos.to_move == G::HUMAN {
                if G::can_move(&self.pos) {
                    (self.start, self.steps) = (self.pos, 0);
                    return if moved { Outcome::DeviceMoved } else { waiting };
                }
                G::pass(&mut self.pos);
                continue;
            }
            match self.device_choice(clock) {
                Some(m) => G::play(&mut self.pos, m),
                None => G::pass(&mut self.pos),
            }
            moved = true;
        }
    }
}

impl<G: OnButtons, const N: usize> Machine for CoreTurn<G, N> {
    type Lights = G::Lights;
    const AT_REST: Self = CoreTurn {
        pos: <G as Placement>::CLEARED,
        start: <G as Placement>::CLEARED,
        playing: false,
        steps: 0,
        control: 0,
        piece: 0,
        rng: Rng::unmixed(),
    };

    fn press(&mut self, input: Input, now: u16, clock: &mut impl FnMut() -> u16) -> Outcome {
        match input {
            Input::Commit if !self.playing => {
                self.rng.mix(now);
                let k = if <G as CoreGame>::RANDOM_START { self.rng.below_wide(G::starts()) } else { 0 };
                G::start_at(&mut self.pos, k);
                self.playing = true;
                self.play_on(clock, Outcome::Started)
            }
            Input::Piece { .. } if !self.playing => Outcome::Ignored,
            Input::Piece { control, piece } => {
                // One move is one piece and one control: another is denied.
                if self.steps != 0 && (self.control != control || self.piece != piece) {
                    return Outcome::Denied;
                }
                match self.entered(control, piece, self.steps) {
                    Some(m) => {
                        self.pos = self.start;
                        G::play(&mut self.pos, m);
                        (self.control, self.piece, self.steps) = (control, piece, self.steps + 1);
                        Outcome::Accepted
                    }
                    None => Outcome::Denied,
                }
            }
            Input::Commit if self.steps == 0 => Outcome::Denied,
            // The person's move is on the board already: play goes on from it.
            Input::Commit => self.play_on(clock, Outcome::Started),
        }
    }

    fn lights(&self) -> G::Lights {
        let cells = self.pos.cells;
        G::LIGHTS
            .iter()
            .enumerate()
            .filter(|&(_, &(cell, above))| cells.as_ref()[cell as usize] > above)
            .fold(G::Lights::NONE, |lit, (light, _)| lit | G::Lights::light(light as u8))
    }

    fn attracting(&self) -> bool {
        !self.playing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::as_placement::tests::{at, Jumps};

    /// The jumping men of the core's tests, the person first with the men on rows 1 and 2,
    /// a button for each of their men (counted in cell order: A1, C1, E1, B2, D2, F2) to
    /// step, another to jump; the lights the cells of row 3.
    impl OnButtons for Jumps {
        const CONTROLS: &'static [u8] = &[0, 1];
        const HUMAN: u8 = 0;
        const SHARED: bool = false;
        const LIGHTS: &'static [(u8, u8)] = &[(16, 0), (17, 0), (18, 0), (19, 0), (20, 0), (21, 0)];
        type Lights = u16;
        const THINK_MS: u16 = 50;
        const MAX_DEPTH: u8 = 2;
    }

    type T = CoreTurn<Jumps, 16>;

    /// A clock a millisecond on at every look.
    fn clock() -> impl FnMut() -> u16 {
        let mut ms = 0u16;
        move || {
            ms = ms.wrapping_add(1);
            ms
        }
    }

    fn piece(n: u8) -> Input {
        Input::Piece { control: 0, piece: n }
    }

    #[test]
    fn a_move_is_entered_press_by_press_previewed_and_committed() {
        let mut t = T::AT_REST;
        let mut tick = clock();
        assert_eq!(t.press(piece(0), 0, &mut tick), Outcome::Ignored, "attracting");
        assert_eq!(t.press(Input::Commit, 0, &mut tick), Outcome::Started);
        assert_eq!(t.press(Input::Commit, 0, &mut tick), Outcome::Denied, "nothing entered yet");
        assert_eq!(t.lights(), 0, "row 3 is empty");
        // The fourth man (B2) steps to C3, then, a second press, to A3 instead.
        assert_eq!(t.press(piece(3), 0, &mut tick), Outcome::Accepted);
        assert_eq!(t.lights(), 1 << 2, "B2-C3 shown");
        assert_eq!(t.press(piece(3), 0, &mut tick), Outcome::Accepted);
        assert_eq!(t.lights(), 1 << 0, "B2-A3 shown instead");
        assert_eq!(t.press(piece(3), 0, &mut tick), Outcome::Denied, "B2 has two steps");
        assert_eq!(t.press(piece(4), 0, &mut tick), Outcome::Denied, "one man a move");
        assert_eq!(t.lights(), 1 << 0, "a denied press changes nothing");
        // A man on row 1 is blocked by row 2: no move from it.
        let mut fresh = T::AT_REST;
        fresh.press(Input::Commit, 0, &mut tick);
        assert_eq!(fresh.press(piece(0), 0, &mut tick), Outcome::Denied, "A1 cannot move");
        assert_eq!(fresh.lights(), 0);
        // Committed: the device answers and the person is to move again.
        assert_eq!(t.press(Input::Commit, 0, &mut tick), Outcome::DeviceMoved);
        assert_eq!(t.pos.to_move, 0);
        assert_eq!(t.pos.cells[at("A3") as usize], content::piece(0, 0));
    }

    #[test]
    fn a_game_played_by_first_presses_ends_with_a_verdict() {
        let mut t = T::AT_REST;
        let mut tick = clock();
        t.press(Input::Commit, 7, &mut tick);
        let mut outcome = Outcome::Started;
        for _ in 0..40 {
            // The first of the person's men with a move, its first move: a step, or a jump
            // where one must be taken.
            let mut presses = (0..2).flat_map(|control| (0..6).map(move |piece| Input::Piece { control, piece }));
            let moved = presses.find(|&p| t.press(p, 0, &mut tick) == Outcome::Accepted);
            assert!(moved.is_some(), "the person has a move while the game is on");
            outcome = t.press(Input::Commit, 0, &mut tick);
            if t.attracting() {
                break;
            }
            assert_eq!(outcome, Outcome::DeviceMoved);
        }
        assert!(matches!(outcome, Outcome::HumanWon | Outcome::DeviceWon | Outcome::Draw), "{outcome:?}");
        assert_eq!(t.press(piece(0), 0, &mut tick), Outcome::Ignored, "at rest again");
    }
}
