//! The firmware's main loop, generic over the game ([`Game`]) and the board's hardware
//! ([`Hal`]): it samples buttons once a millisecond, drives the turn machine, shows the
//! position, plays feedback tunes and puts the chip to sleep when nobody plays.

use crate::buttons::Debounce;
use crate::lights::Lights;
use crate::tune::{Note, Tune};
use crate::turn::{Input, Machine, Outcome};

/// What the generated board glue provides.
pub trait Hal {
    /// A free-running millisecond count. It may advance by more than one between two reads
    /// (a display tick longer than a millisecond): the loop catches up.
    fn millis(&mut self) -> u16;
    /// Raw input levels, bit set = pressed, in control order (per-piece controls first).
    fn inputs(&mut self) -> u8;
    /// The lights' word the display takes: the machine's.
    type Lights: Lights;
    /// Hands the display the lights to light.
    fn show(&mut self, lights: Self::Lights);
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
    /// Inputs 0..piece_inputs are the per-piece controls in the order the game declares them,
    /// `pieces` inputs each: input i is control i / pieces, piece i % pieces.
    pub piece_inputs: u8,
    /// Pieces on the line, one input each per per-piece control.
    pub pieces: u8,
    /// The input that commits (and starts a game).
    pub commit: u8,
    /// Milliseconds without a press before sleeping, counted from the last press or the end
    /// of the tune it played; 0 never sleeps. Up to 65,535 ms they are counted exactly;
    /// longer times in steps of 256 ms.
    pub idle_ms: u32,
}

const CYLON_STEP_MS: u8 = 80;

pub struct App<M: Machine> {
    turn: M,
    buttons: Debounce,
    /// Idle time: milliseconds, or for an idle time beyond a `u16` of them, steps of 256 ms
    /// (a 32-bit count is twice the code on an 8-bit chip).
    idle: u16,
    cylon_ms: u8,
    /// The sweep's step: out over the cells, then back.
    cylon_at: u8,
}

impl<M: Machine> Default for App<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Machine> App<M> {
    /// A loop at rest, attracting. Constant, so that the generated code can keep it in a
    /// static: at a fixed address its fields are reached directly, not through a pointer
    /// that the loop, short of registers, would keep reloading. All zero (the generator is
    /// seeded by the press that starts the first game), so the static costs no flash.
    pub const fn new() -> Self {
        App { turn: M::AT_REST, buttons: Debounce::new(), idle: 0, cylon_ms: 0, cylon_at: 0 }
    }
}

impl<M: Machine> App<M> {
    /// Runs forever.
    pub fn run<H: Hal<Lights = M::Lights>>(&mut self, hal: &mut H, fb: &Feedback, ctl: &Controls) -> ! {
        let mut last = hal.millis();
        loop {
            last = self.poll(hal, fb, ctl, last);
        }
    }

    /// One [`tick`](Self::tick), for the millisecond after `last`, if the count has passed
    /// `last`; returns the last millisecond ticked. Polled again and again, the loop ticks once
    /// for every millisecond however the count advances (two a display tick at 500 Hz), so
    /// idle times, debouncing and animations count milliseconds.
    ///
    /// After a tick that played a tune or slept, the loop goes on from the count as it then
    /// is: the time spent is not ticked over afterwards, where in a burst a button's level,
    /// sampled many times at one instant, would pass for a held press, and the idle time and
    /// the sweep would count time the device spent talking or asleep.
    pub fn poll<H: Hal<Lights = M::Lights>>(&mut self, hal: &mut H, fb: &Feedback, ctl: &Controls, last: u16) -> u16 {
        if hal.millis() == last {
            return last;
        }
        self.tick(hal, fb, ctl, last.wrapping_add(1))
    }

    /// One millisecond of the loop, `now`; returns the last millisecond it took: `now`, or
    /// the count after the tune it played or the sleep.
    pub fn tick<H: Hal<Lights = M::Lights>>(&mut self, hal: &mut H, fb: &Feedback, ctl: &Controls, now: u16) -> u16 {
        let mut last = now;
        let raw = hal.inputs();
        let pressed = self.buttons.sample(raw);
        // `ctl` is a constant: one of the two ways folds away. Wrapping: it is reset at every
        // press and sleep, and an idle time reached never lets it wrap.
        let long = ctl.idle_ms > u16::MAX as u32;
        if !long || now as u8 == 0 {
            self.idle = self.idle.wrapping_add(1);
        }
        // The pressed inputs shifted out one a step: a variable shift is a loop on AVR.
        let (mut rest, mut bit) = (pressed, 0u8);
        while rest != 0 {
            let this = bit;
            let down = rest & 1 != 0;
            rest >>= 1;
            bit += 1;
            if !down {
                continue;
            }
            let Some(input) = input(ctl, this) else { continue };
            self.idle = 0;
            let outcome = self.turn.press(input, now, &mut || hal.millis());
            let tune = match outcome {
                Outcome::Denied => fb.denied,
                Outcome::Accepted => fb.accepted,
                Outcome::HumanWon => fb.human_won,
                Outcome::DeviceWon => fb.device_won,
                Outcome::Ignored | Outcome::Started | Outcome::DeviceMoved | Outcome::Draw => None,
            };
            // Every outcome with a tune leaves a position to see while it plays (the final one
            // at a game's end, when the machine is already back at rest); the others are shown
            // with the rest of the millisecond, below.
            if let Some(tune) = tune {
                hal.show(self.turn.lights());
                last = play(hal, &mut self.buttons, tune);
            }
        }
        self.animate(fb);
        self.show(hal, fb);
        let limit = if long { (ctl.idle_ms >> 8) as u16 } else { ctl.idle_ms as u16 };
        if ctl.idle_ms != 0 && self.idle >= limit {
            hal.show(H::Lights::NONE);
            hal.tone(None);
            hal.sleep();
            // The wake button is still down: it must be released before it counts again.
            self.buttons.assume(hal.inputs());
            self.idle = 0;
            last = hal.millis();
        }
        last
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
        // Out and back as one count: a flag for the way back costs more code.
        self.cylon_at += 1;
        if self.cylon_at >= 2 * (cells - 1) {
            self.cylon_at = 0;
        }
    }

    fn show<H: Hal<Lights = M::Lights>>(&self, hal: &mut H, fb: &Feedback) {
        if self.turn.attracting() {
            hal.show(match fb.cylon {
                // The light goes out up to the last cell, then back.
                Some(cells) => H::Lights::light(if self.cylon_at < cells {
                    self.cylon_at
                } else {
                    2 * (cells - 1) - self.cylon_at
                }),
                None => H::Lights::NONE,
            });
        } else {
            hal.show(self.turn.lights());
        }
    }
}

/// What input `bit` means to the turn machine.
fn input(ctl: &Controls, bit: u8) -> Option<Input> {
    if bit == ctl.commit {
        return Some(Input::Commit);
    }
    if bit >= ctl.piece_inputs || ctl.pieces == 0 {
        return None;
    }
    // Repeated subtraction: a division is a library call on AVR, and there are few controls.
    let (mut control, mut piece) = (0, bit);
    while piece >= ctl.pieces {
        piece -= ctl.pieces;
        control += 1;
    }
    Some(Input::Piece { control, piece })
}

/// Plays a tune to the end (at most 255 notes); the display keeps refreshing from its
/// interrupt meanwhile, and `buttons` are sampled a millisecond at a time, so that an input
/// let go while the tune plays, and pressed again, is a press again. Returns the last
/// millisecond it sampled.
pub fn play<H: Hal>(hal: &mut H, buttons: &mut Debounce, tune: Tune) -> u16 {
    // By a count and a pointer: a slice's end pointer is its length times a note's 5 bytes, a
    // multiplication, which is a library call on AVR. The count is a byte, each tune's a
    // single load: a tune of more than 255 notes plays its first 255.
    let (mut left, mut at) = (tune.len().min(255) as u8, tune.as_ptr());
    // The last millisecond sampled; a note lasts its count of them from there.
    let mut sampled = hal.millis();
    while left != 0 {
        // SAFETY: `left` notes remain from `at`, inside the tune.
        let note = Note::load(unsafe { &*at });
        at = at.wrapping_add(1);
        left -= 1;
        hal.tone(if note.is_rest() { None } else { Some(&note) });
        let mut to_go = note.millis;
        while to_go != 0 {
            if hal.millis() != sampled {
                sampled = sampled.wrapping_add(1);
                to_go -= 1;
                buttons.watch(hal.inputs());
            }
        }
    }
    hal.tone(None);
    sampled
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::buttons::SETTLE_MS;
    use crate::line::Cells;
    use crate::rng::Rng;
    use crate::turn::{Game, Turn};
    use std::vec::Vec;

    /// A game with nothing to play: the loop's timing and input mapping are what is tested.
    struct Idle;
    impl Game for Idle {
        const LAST_MOVER_WINS: bool = true;
        const HUMAN_FIRST: bool = true;
        fn setup(_: &mut Rng) -> Cells {
            1
        }
        fn can_move(_: Cells) -> bool {
            false
        }
        fn device_move(_: Cells, _: &mut Rng) -> Option<Cells> {
            None
        }
        fn extend(_: Cells, _: u8, _: u8, _: u8) -> Option<Cells> {
            None
        }
    }

    /// A board whose millisecond count advances `step` at a time, as a display tick of
    /// `step` milliseconds advances it.
    struct Clock {
        ms: u16,
        elapsed: u32,
        slept_at: Option<u32>,
    }
    impl Hal for Clock {
        fn millis(&mut self) -> u16 {
            self.ms
        }
        fn inputs(&mut self) -> u8 {
            0
        }
        type Lights = Cells;
        fn show(&mut self, _: Cells) {}
        fn tone(&mut self, _: Option<&Note>) {}
        fn sleep(&mut self) {
            self.slept_at.get_or_insert(self.elapsed);
        }
    }

    const FB: Feedback = Feedback { denied: None, accepted: None, human_won: None, device_won: None, cylon: Some(12) };

    #[test]
    fn idle_time_counts_milliseconds_whatever_the_tick() {
        let ctl = Controls { piece_inputs: 5, pieces: 5, commit: 5, idle_ms: 30_000 };
        // Display ticks of 1, 2 and 4 ms (1000, 500 and 250 Hz), the count wrapping on the way.
        for step in [1u16, 2, 4] {
            let mut hal = Clock { ms: 65_000, elapsed: 0, slept_at: None };
            let mut app = App::<Turn<Idle>>::default();
            let mut last = hal.millis();
            while hal.slept_at.is_none() && hal.elapsed < 40_000 {
                hal.ms = hal.ms.wrapping_add(step);
                hal.elapsed += step as u32;
                // The count moved on by `step`: the loop polls until it has caught up.
                while hal.ms != last {
                    last = app.poll(&mut hal, &FB, &ctl, last);
                }
            }
            assert_eq!(hal.slept_at, Some(30_000), "ticks of {step} ms");
        }
    }

    /// A board on a clock of microseconds where every look at the count takes 20 µs (the
    /// loop's own pace), a button held over spans of milliseconds, a sleep that lasts as long
    /// as the wake button is held, and what the speaker and the sleep were asked when.
    struct Timed {
        us: u32,
        /// (from, to, inputs): milliseconds from the start in which `inputs` are held.
        held: Vec<(u32, u32, u8)>,
        /// Milliseconds at which each note started.
        notes: Vec<u32>,
        slept: Vec<u32>,
        sleep_ms: u32,
        /// The last millisecond the loop ticked.
        last: Option<u16>,
    }
    impl Timed {
        fn new(held: Vec<(u32, u32, u8)>) -> Self {
            Timed { us: 0, held, notes: Vec::new(), slept: Vec::new(), sleep_ms: 0, last: None }
        }
        fn ms(&self) -> u32 {
            self.us / 1000
        }
        /// Polls `app` until `until` ms, the loop going on from where the last run left it.
        fn run(&mut self, app: &mut App<Turn<Idle>>, ctl: &Controls, until: u32) {
            let mut last = self.last.unwrap_or_else(|| self.millis());
            while self.ms() < until {
                last = app.poll(self, &BEEPS, ctl, last);
            }
            self.last = Some(last);
        }
    }
    impl Hal for Timed {
        fn millis(&mut self) -> u16 {
            self.us += 20;
            self.ms() as u16
        }
        fn inputs(&mut self) -> u8 {
            let ms = self.ms();
            self.held.iter().filter(|&&(from, to, _)| (from..to).contains(&ms)).fold(0, |m, &(_, _, i)| m | i)
        }
        type Lights = Cells;
        fn show(&mut self, _: Cells) {}
        fn tone(&mut self, note: Option<&Note>) {
            if note.is_some() {
                self.notes.push(self.ms());
            }
        }
        fn sleep(&mut self) {
            self.slept.push(self.ms());
            self.us += self.sleep_ms * 1000;
        }
    }

    static BEEP: [Note; 1] = [Note { top: 1, clock: 1, millis: 150 }];
    /// Idle's only tune: GO in a game, with no move, is denied.
    const BEEPS: Feedback =
        Feedback { denied: Some(&BEEP), accepted: None, human_won: None, device_won: None, cylon: Some(12) };
    const GO: u8 = 1;
    const ONE_BUTTON: Controls = Controls { piece_inputs: 0, pieces: 0, commit: 0, idle_ms: 30_000 };

    #[test]
    fn a_tap_right_after_a_tune_is_no_press() {
        // GO starts a game at 20 ms, is denied at 120 (a beep to 270 or so), then tapped for
        // 5 ms around the beep's end.
        for tap in 265..275 {
            let mut hal = Timed::new(std::vec![(0, 50, GO), (100, 130, GO), (tap, tap + 5, GO)]);
            let mut app = App::<Turn<Idle>>::default();
            hal.run(&mut app, &ONE_BUTTON, 600);
            assert_eq!(hal.notes.len(), 1, "a tap at {tap} ms beeped again: beeps at {:?}", hal.notes);
        }
    }

    #[test]
    fn a_re_press_during_its_own_beep_counts() {
        // Denied at 120 ms; let go and pressed again while the beep plays, settling in it or
        // after it, and held past its end: a press, beeped at once or when it settles.
        for again in [160, 260] {
            let mut hal = Timed::new(std::vec![(0, 50, GO), (100, 130, GO), (again, 500, GO)]);
            let mut app = App::<Turn<Idle>>::default();
            hal.run(&mut app, &ONE_BUTTON, 700);
            assert_eq!(hal.notes.len(), 2, "pressed again at {again} ms: beeps at {:?}", hal.notes);
            let settled = (again + SETTLE_MS as u32).max(hal.notes[0] + 150);
            assert!(
                (settled..=settled + 2).contains(&hal.notes[1]),
                "pressed again at {again} ms: beeps at {:?}",
                hal.notes
            );
        }
    }

    #[test]
    fn idle_time_counts_from_the_end_of_a_tune() {
        let mut hal = Timed::new(std::vec![(0, 50, GO), (100, 130, GO)]);
        let mut app = App::<Turn<Idle>>::default();
        hal.run(&mut app, &ONE_BUTTON, 40_000);
        let beep_end = hal.notes[0] + 150;
        assert_eq!(hal.slept.len(), 1);
        assert!(
            (beep_end + 30_000..=beep_end + 30_002).contains(&hal.slept[0]),
            "beep to {beep_end}, slept at {:?}",
            hal.slept
        );
    }

    #[test]
    fn the_sweep_stands_still_asleep_and_while_the_wake_button_is_held() {
        let mut hal = Timed::new(Vec::new());
        hal.sleep_ms = 500;
        let mut app = App::<Turn<Idle>>::default();
        hal.run(&mut app, &ONE_BUTTON, 30_001);
        assert_eq!(hal.slept, [30_000]);
        let asleep = (app.cylon_at, app.cylon_ms);
        // Half a second held to wake, then the first millisecond awake.
        hal.run(&mut app, &ONE_BUTTON, 30_501);
        assert_eq!((app.cylon_at, app.cylon_ms), (asleep.0, asleep.1 + 1), "woken at {} ms", hal.ms());
        // And the idle time starts again at the wake.
        hal.run(&mut app, &ONE_BUTTON, 61_000);
        assert_eq!(hal.slept, [30_000, 60_500]);
    }

    #[test]
    fn inputs_map_to_controls_and_pieces() {
        // Two per-piece controls over three pieces, then commit.
        let ctl = Controls { piece_inputs: 6, pieces: 3, commit: 6, idle_ms: 0 };
        assert_eq!(input(&ctl, 0), Some(Input::Piece { control: 0, piece: 0 }));
        assert_eq!(input(&ctl, 2), Some(Input::Piece { control: 0, piece: 2 }));
        assert_eq!(input(&ctl, 3), Some(Input::Piece { control: 1, piece: 0 }));
        assert_eq!(input(&ctl, 5), Some(Input::Piece { control: 1, piece: 2 }));
        assert_eq!(input(&ctl, 6), Some(Input::Commit));
        assert_eq!(input(&ctl, 7), None);
    }
}
