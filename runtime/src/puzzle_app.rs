//! A puzzle's firmware between its inputs and its outputs: the start-up show, then the puzzle
//! played with a cursor, its sounds played a millisecond at a time. The generated main loop
//! reads the board's encoders and buttons into [`Input`]s, calls [`App::tick`] every
//! millisecond, and hands the [`Frame`] to the display and the [`Change`]s to the speaker.

use crate::intro::{Intro, Show};
use crate::matrix::Frame;
use crate::puzzle::{Config, Input, Phase, Puzzle, Sound, Start};
use crate::tune::{Change, Player, Tune};

/// The tunes the game's feedback names, by sound.
pub struct Sounds {
    pub start: Option<Tune>,
    pub accepted: Option<Tune>,
    pub denied: Option<Tune>,
    pub victory: Option<Tune>,
}

impl Sounds {
    fn of(&self, s: Sound) -> Option<Tune> {
        match s {
            Sound::Start => self.start,
            Sound::Accepted => self.accepted,
            Sound::Denied => self.denied,
            Sound::Victory => self.victory,
        }
    }
}

pub struct App {
    intro: Intro,
    /// Whether the intro is over: false at the start, so that a static app starts all zeros
    /// (in .bss, costing no flash for its first value).
    intro_over: bool,
    pub puzzle: Puzzle,
    player: Player,
}

impl App {
    pub const fn new() -> App {
        App { intro: Intro::new(), intro_over: false, puzzle: Puzzle::new(), player: Player::new() }
    }

    /// An input from a person; ignored during the show. Returns the speaker's change.
    pub fn input(
        &mut self,
        input: Input,
        cfg: &Config,
        sounds: &Sounds,
        load: &mut impl FnMut(u8, &mut Start),
    ) -> Change {
        if !self.intro_over {
            return Change::Same;
        }
        match self.puzzle.input(input, cfg, load).and_then(|s| sounds.of(s)) {
            Some(tune) => self.player.start(tune),
            None => Change::Same,
        }
    }

    /// A millisecond has passed. Returns the speaker's change.
    pub fn tick(&mut self, cfg: &Config, show: &Show, load: &mut impl FnMut(u8, &mut Start)) -> Change {
        if !self.intro_over {
            self.intro.tick(show);
            if self.intro.done(show) {
                self.intro_over = true;
                self.puzzle.choose(0, load);
            }
            return Change::Same;
        }
        self.puzzle.tick(cfg);
        let change = self.player.tick();
        if change == Change::Ended && self.puzzle.phase == Phase::Victory {
            self.puzzle.tune_ended();
        }
        change
    }

    /// Whether the start-up show is on.
    pub fn in_show(&self) -> bool {
        !self.intro_over
    }

    pub fn frame(&self, cfg: &Config, show: &Show) -> Frame {
        let mut f = Frame::default();
        self.draw(cfg, show, &mut f);
        f
    }

    /// [`frame`](Self::frame) drawn onto `f`, which is blank: a frame returned whole is a copy
    /// through the stack at every layer.
    pub fn draw(&self, cfg: &Config, show: &Show, f: &mut Frame) {
        if !self.intro_over {
            self.intro.draw(show, f)
        } else {
            self.puzzle.draw(cfg, f)
        }
    }
}

impl Default for App {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intro::Scene;
    use crate::matrix::Colour;
    use crate::tune::Note;

    static SCENES: [Scene; 1] = [Scene::Starburst { step_ms: 5, colours: [Colour::Red, Colour::Green] }];
    static SHOW: Show = Show { scenes: &SCENES, cols: 2, rows: 2 };
    static BEEP: [Note; 1] = [Note { top: 10, clock: 1, millis: 4 }];
    const CFG: Config = Config {
        cols: 2,
        rows: 2,
        starts: 1,
        next: [1, 2, 0],
        colours: [Colour::Off, Colour::Red, Colour::Green],
        given_colour: Colour::Yellow,
        cursor_ms: 100,
        choose_ms: 0,
        victory_ms: 10,
        victory_colour: Colour::Green,
    };
    const SOUNDS: Sounds = Sounds { start: None, accepted: None, denied: None, victory: Some(&BEEP) };

    fn load(_: u8, s: &mut Start) {
        // Solved by one red at B2; the rest given.
        *s = Start { solution_a: [0b01, 0b10, 0, 0, 0, 0, 0, 0], given: [0b11, 0b01, 0, 0, 0, 0, 0, 0] }
    }

    #[test]
    fn the_show_plays_then_the_first_start_is_chosen_and_victory_locks_when_its_tune_ends() {
        let mut app = App::new();
        assert_eq!(app.input(Input::Commit, &CFG, &SOUNDS, &mut load), Change::Same, "ignored during the show");
        let mut ms = 0;
        while app.in_show() {
            app.tick(&CFG, &SHOW, &mut load);
            ms += 1;
            assert!(ms < 1000, "the show ends");
        }
        assert_eq!(app.frame(&CFG, &SHOW).get(0, 0), Colour::Red, "the first start, choosing");
        app.input(Input::Commit, &CFG, &SOUNDS, &mut load);
        app.input(Input::Across(1), &CFG, &SOUNDS, &mut load);
        app.input(Input::Down(1), &CFG, &SOUNDS, &mut load);
        let change = app.input(Input::Commit, &CFG, &SOUNDS, &mut load);
        assert_eq!(change, Change::Play(&BEEP[0]));
        assert_eq!(app.puzzle.phase, Phase::Victory);
        let changes: [Change; 4] = core::array::from_fn(|_| app.tick(&CFG, &SHOW, &mut load));
        assert_eq!(changes[3], Change::Ended);
        assert_eq!(app.puzzle.phase, Phase::Solved);
    }
}
