//! The turn state machine of a two-player game against the device: attract, the player
//! entering a move press by press, commit, the device's answer, and the end of the game.
//!
//! It is generic over [`Game`], which the generated code implements from the game file.

use crate::line::Cells;
use crate::rng::Rng;

/// The rules and the device's strategy, as generated from a game file.
pub trait Game {
    /// Normal play (`true`): the player left without a move has lost.
    const LAST_MOVER_WINS: bool;
    /// The human player moves first.
    const HUMAN_FIRST: bool;
    /// Deals a start position that meets the setup constraints.
    fn setup(rng: &mut Rng) -> Cells;
    /// The player to move has at least one legal move.
    fn can_move(pos: Cells) -> bool;
    /// The position after the device's move in `pos`; `None` exactly when it has no move.
    fn device_move(pos: Cells, rng: &mut Rng) -> Option<Cells>;
    /// The position after moving piece `piece` (counted as the controls count) `steps` steps
    /// with the action of per-piece control `control` (from 0, in the order the game declares
    /// them) from the turn's start position, if that is one legal move.
    fn extend(start: Cells, control: u8, piece: u8, steps: u8) -> Option<Cells>;
}

/// What the player pressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Per-piece control `control` (from 0, each with its own action) of piece `piece` (from 0).
    Piece {
        control: u8,
        piece: u8,
    },
    Commit,
}

/// What a press led to; the caller turns it into feedback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ignored,
    Started,
    Accepted,
    Denied,
    /// The device moved; the position after it is the turn's [`position`](Turn::position).
    DeviceMoved,
    HumanWon,
    DeviceWon,
    /// The game ended drawn (a game on the rule core; [`Turn`]'s games always have a winner).
    Draw,
}

/// A game as the app loop plays it, a press at a time: [`Turn`] for the line and heap games'
/// own readings, [`crate::core_turn::CoreTurn`] for any game on the rule core.
pub trait Machine {
    /// At rest, attracting: all zero, so that a static holding it needs no image in flash.
    const AT_REST: Self;
    /// Applies one press. `now` stirs the random generator; `clock` reads the milliseconds
    /// for a device that thinks against the clock (a type parameter, not a `dyn`: see
    /// [`crate::duel_cursor::Game::device_turn`]).
    fn press(&mut self, input: Input, now: u16, clock: &mut impl FnMut() -> u16) -> Outcome;
    /// The lights' word: as wide as the game's lights need.
    type Lights: crate::lights::Lights;
    /// The lights the position shows, bit i for light i.
    fn lights(&self) -> Self::Lights;
    fn attracting(&self) -> bool;
}

impl<G: Game> Machine for Turn<G> {
    type Lights = Cells;
    const AT_REST: Self = Turn::at_rest();

    #[inline(always)]
    fn press(&mut self, input: Input, now: u16, _clock: &mut impl FnMut() -> u16) -> Outcome {
        Turn::press(self, input, now)
    }

    #[inline(always)]
    fn lights(&self) -> Cells {
        self.pos
    }

    #[inline(always)]
    fn attracting(&self) -> bool {
        !self.playing
    }
}

/// The machine's state in plain bytes, zero at rest (attracting): a static holding it then
/// needs no initial value in flash, nor the start-up code that copies one.
pub struct Turn<G: Game> {
    pos: Cells,
    /// The position the player's move is entered from.
    start: Cells,
    /// A game is on: the player is entering a move (the device answers within a press).
    playing: bool,
    /// Presses accepted in the move entered so far; while nonzero, `control` and `piece` are
    /// the move's per-piece control and piece.
    steps: u8,
    control: u8,
    piece: u8,
    pub rng: Rng,
    _game: core::marker::PhantomData<G>,
}

impl<G: Game> Turn<G> {
    pub const fn new(seed: u16) -> Self {
        Self::with(Rng::new(seed))
    }

    /// Attracting, its generator to be seeded by the press that starts the first game: all
    /// zero, so a static needs no initial value.
    pub const fn at_rest() -> Self {
        Self::with(Rng::unmixed())
    }

    const fn with(rng: Rng) -> Self {
        Turn { pos: 0, start: 0, playing: false, steps: 0, control: 0, piece: 0, rng, _game: core::marker::PhantomData }
    }

    /// The position on the board (meaningless while attracting).
    pub fn position(&self) -> Cells {
        self.pos
    }

    pub fn attracting(&self) -> bool {
        !self.playing
    }

    /// Applies one press. `now` stirs the random generator, so games differ.
    pub fn press(&mut self, input: Input, now: u16) -> Outcome {
        match input {
            Input::Commit if !self.playing => {
                self.rng.mix(now);
                self.pos = G::setup(&mut self.rng);
                if G::HUMAN_FIRST {
                    self.await_human();
                    Outcome::Started
                } else {
                    self.device_turn()
                }
            }
            Input::Piece { .. } if !self.playing => Outcome::Ignored,
            Input::Piece { control, piece } => {
                // One move is one piece and one action: another piece, or the same piece with
                // another action, is denied.
                if self.steps != 0 && (self.control != control || self.piece != piece) {
                    return Outcome::Denied;
                }
                match G::extend(self.start, control, piece, self.steps + 1) {
                    Some(pos) => {
                        self.pos = pos;
                        (self.control, self.piece) = (control, piece);
                        self.steps += 1;
                        Outcome::Accepted
                    }
                    None => Outcome::Denied,
                }
            }
            Input::Commit if self.steps == 0 => Outcome::Denied,
            // The device's move is `None` exactly when it has none: the player has won, with
            // no test of its own for that.
            Input::Commit => self.device_turn(),
        }
    }

    fn await_human(&mut self) {
        self.playing = true;
        self.start = self.pos;
        self.steps = 0;
    }

    fn device_turn(&mut self) -> Outcome {
        let Some(next) = G::device_move(self.pos, &mut self.rng) else {
            // The player's move (or a start position) left the device without a move.
            return self.finish(true);
        };
        self.pos = next;
        if G::can_move(self.pos) {
            self.await_human();
            Outcome::DeviceMoved
        } else {
            self.finish(false)
        }
    }

    /// The game is over with `human_moved_last` telling who made the final move.
    fn finish(&mut self, human_moved_last: bool) -> Outcome {
        self.playing = false;
        if human_moved_last == G::LAST_MOVER_WINS {
            Outcome::HumanWon
        } else {
            Outcome::DeviceWon
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::{nth_from_top, Move, Slide};

    /// A toy game for the machine: two pieces on 6 cells sliding over empty cells toward
    /// index 0 (control 0) or back toward index 5 (control 1).
    struct Toy;
    const SLIDE: Slide = Slide { cells: 6, step: -1, min: 1, max: 5, over_empty: true };
    const BACK: Slide = Slide { cells: 6, step: 1, min: 1, max: 5, over_empty: true };
    impl Game for Toy {
        const LAST_MOVER_WINS: bool = true;
        const HUMAN_FIRST: bool = true;
        fn setup(_: &mut Rng) -> Cells {
            0b10_0100
        }
        fn can_move(pos: Cells) -> bool {
            SLIDE.has_move(pos) || BACK.has_move(pos)
        }
        fn device_move(pos: Cells, _: &mut Rng) -> Option<Cells> {
            let mut first = None;
            SLIDE.for_each(pos, |m| {
                first.get_or_insert(m.apply(pos));
            });
            first
        }
        fn extend(start: Cells, control: u8, piece: u8, steps: u8) -> Option<Cells> {
            let from = nth_from_top(start, piece)?;
            let slide = match control {
                0 => &SLIDE,
                1 => &BACK,
                _ => return None,
            };
            slide.target(start, from, steps).map(|to| Move { from, to }.apply(start))
        }
    }

    fn piece(n: u8) -> Input {
        Input::Piece { control: 0, piece: n }
    }

    fn back(n: u8) -> Input {
        Input::Piece { control: 1, piece: n }
    }

    #[test]
    fn a_turn_is_entered_press_by_press_and_committed() {
        let mut t = Turn::<Toy>::new(1);
        assert_eq!(t.press(piece(0), 0), Outcome::Ignored);
        assert_eq!(t.press(Input::Commit, 0), Outcome::Started);
        assert_eq!(t.press(Input::Commit, 0), Outcome::Denied, "nothing entered yet");
        assert_eq!(t.press(piece(0), 0), Outcome::Accepted);
        assert_eq!(t.position(), 0b01_0100);
        assert_eq!(t.press(piece(1), 0), Outcome::Denied, "one piece per turn");
        assert_eq!(t.position(), 0b01_0100, "a denied press changes nothing");
        assert_eq!(t.press(piece(0), 0), Outcome::Accepted);
        assert_eq!(t.press(piece(0), 0), Outcome::Denied, "never onto another piece");
        assert_eq!(t.position(), 0b00_1100);
        // The device moves the piece on index 2 to 1 (its first move) and play goes on.
        assert!(matches!(t.press(Input::Commit, 0), Outcome::DeviceMoved));
    }

    #[test]
    fn each_per_piece_control_moves_with_its_own_action() {
        let mut t = Turn::<Toy>::new(1);
        t.press(Input::Commit, 0);
        assert_eq!(t.press(back(0), 0), Outcome::Denied, "the piece on 5 cannot go back off the line");
        // The second control moves with its own action: back, away from index 0.
        assert_eq!(t.press(back(1), 0), Outcome::Accepted);
        assert_eq!(t.position(), 0b10_1000);
        assert_eq!(t.press(back(1), 0), Outcome::Accepted);
        assert_eq!(t.press(back(1), 0), Outcome::Denied, "never onto another piece");
        assert_eq!(t.press(piece(1), 0), Outcome::Denied, "one action per move");
        assert_eq!(t.position(), 0b11_0000);
        assert!(matches!(t.press(Input::Commit, 0), Outcome::DeviceMoved));
    }

    #[test]
    fn the_last_mover_wins() {
        let mut t = Turn::<Toy>::new(1);
        t.press(Input::Commit, 0);
        // Human: piece 1 (on index 2) to index 0.
        t.press(piece(1), 0);
        t.press(piece(1), 0);
        // Device must move the piece on 5; pieces end adjacent sooner or later.
        let mut outcome = t.press(Input::Commit, 0);
        while let Outcome::DeviceMoved = outcome {
            t.press(piece(0), 0);
            outcome = t.press(Input::Commit, 0);
        }
        assert!(matches!(outcome, Outcome::HumanWon | Outcome::DeviceWon));
        assert!(t.attracting());
    }
}
