//! The firmware's main loop, generic over the game ([`Game`]) and the board's hardware
//! ([`Hal`]): it samples buttons once a millisecond, drives the turn machine, shows the
//! position, plays feedback tunes and puts the chip to sleep when nobody plays.

use crate::buttons::Debounce;
use crate::line::Cells;
use crate::tune::{Note, Tune};
use crate::turn::{Game, Input, Outcome, Turn};

/// What the generated board glue provides.
pub trait Hal {
    /// A free-running millisecond count.
    fn millis(&mut self) -> u16;
    /// Raw input levels, bit set = pressed, in control order (per-piece controls first).
    fn inputs(&mut self) -> u8;
    /// Hands the display the cells to light.
    fn show(&mut self, cells: Cells);
    /// Starts a note, or silences the speaker with `None`.
    fn tone(&mut self, note: Option<&Note>);
    /// Sleeps in the deepest mode until the wake control is pressed.
    fn sleep(&mut self);
}

/// How the game answers events, as generated from its `feedback` block.
pub struct Feedback {
    pub denied: Option<Tune>,
    pub accepted: Option<Tune>,
    pub human_won: Option<Tune>,
    pub device_won: Option<Tune>,
    /// Sweep one light across `cells` lights while attracting.
    pub cylon: Option<u8>,
}

/// How the inputs map onto the turn machine, as generated from the `controls` block.
pub struct Controls {
    /// Inputs 0..pieces are the per-piece controls.
    pub pieces: u8,
    /// The input that commits (and starts a game).
    pub commit: u8,
    /// Milliseconds without a press before sleeping; 0 never sleeps.
    pub idle_ms: u32,
}

const CYLON_STEP_MS: u8 = 80;

pub struct App<G: Game> {
    turn: Turn<G>,
    buttons: Debounce,
    idle_ms: u32,
    cylon_ms: u8,
    cylon_at: u8,
    cylon_back: bool,
}

impl<G: Game> Default for App<G> {
    fn default() -> Self {
        App {
            turn: Turn::new(0x2F6B),
            buttons: Debounce::default(),
            idle_ms: 0,
            cylon_ms: 0,
            cylon_at: 0,
            cylon_back: false,
        }
    }
}

impl<G: Game> App<G> {
    /// Runs forever.
    pub fn run<H: Hal>(&mut self, hal: &mut H, fb: &Feedback, ctl: &Controls) -> ! {
        let mut last = hal.millis();
        loop {
            let now = hal.millis();
            if now != last {
                last = now;
                self.tick(hal, fb, ctl, now);
            }
        }
    }

    /// One millisecond of the loop.
    pub fn tick<H: Hal>(&mut self, hal: &mut H, fb: &Feedback, ctl: &Controls, now: u16) {
        let raw = hal.inputs();
        let pressed = self.buttons.sample(raw);
        self.idle_ms = self.idle_ms.saturating_add(1);
        for bit in 0..8u8 {
            if pressed & (1 << bit) == 0 {
                continue;
            }
            let input = if bit == ctl.commit {
                Input::Commit
            } else if bit < ctl.pieces {
                Input::Piece(bit)
            } else {
                continue;
            };
            self.idle_ms = 0;
            let outcome = self.turn.press(input, now);
            if matches!(outcome, Outcome::HumanWon | Outcome::DeviceWon) {
                // The final position stays on show while the end tune plays.
                hal.show(self.turn.position());
            } else {
                self.show(hal, fb);
            }
            let tune = match outcome {
                Outcome::Denied => fb.denied,
                Outcome::Accepted => fb.accepted,
                Outcome::HumanWon => fb.human_won,
                Outcome::DeviceWon => fb.device_won,
                Outcome::Ignored | Outcome::Started | Outcome::DeviceMoved(_) => None,
            };
            if let Some(tune) = tune {
                play(hal, tune);
            }
        }
        self.animate(fb);
        self.show(hal, fb);
        if ctl.idle_ms != 0 && self.idle_ms >= ctl.idle_ms {
            hal.show(0);
            hal.tone(None);
            hal.sleep();
            // The wake button is still down: it must be released before it counts again.
            self.buttons.assume(hal.inputs());
            self.idle_ms = 0;
        }
    }

    fn animate(&mut self, fb: &Feedback) {
        let Some(cells) = fb.cylon else { return };
        if !self.turn.attracting() {
            return;
        }
        self.cylon_ms += 1;
        if self.cylon_ms < CYLON_STEP_MS {
            return;
        }
        self.cylon_ms = 0;
        if self.cylon_back {
            self.cylon_at -= 1;
            self.cylon_back = self.cylon_at != 0;
        } else {
            self.cylon_at += 1;
            self.cylon_back = self.cylon_at + 1 >= cells;
        }
    }

    fn show<H: Hal>(&self, hal: &mut H, fb: &Feedback) {
        if self.turn.attracting() {
            hal.show(if fb.cylon.is_some() { 1 << self.cylon_at } else { 0 });
        } else {
            hal.show(self.turn.position());
        }
    }
}

/// Plays a tune to the end; the display keeps refreshing from its interrupt meanwhile.
pub fn play<H: Hal>(hal: &mut H, tune: Tune) {
    for note in tune {
        let note = Note::load(note);
        hal.tone(if note.is_rest() { None } else { Some(&note) });
        let start = hal.millis();
        while hal.millis().wrapping_sub(start) < note.millis {}
    }
    hal.tone(None);
}
