//! Tunes as the compiler lowers them: per note, the speaker timer's settings and a duration.

/// One note: `top` is the timer's compare value and `clock` its prescaler selection bits, both
/// computed by the compiler for the board's clock; `top == 0` is a rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Note {
    pub top: u16,
    pub clock: u8,
    pub millis: u16,
}

impl Note {
    pub fn is_rest(&self) -> bool {
        self.top == 0
    }

    /// Copies a note out of a tune the generated code placed in program memory.
    pub fn load(note: &'static Note) -> Note {
        let p = note as *const Note;
        #[cfg(target_arch = "avr")]
        {
            // On AVR a note is its 5 bytes in order (`repr(C)`, alignment 1): read in one run
            // of post-incrementing loads, where a load a field sets the pointer three times.
            const { assert!(core::mem::size_of::<Note>() == 5) };
            let (top, clock, millis): (u16, u8, u16);
            // SAFETY: `note` is a live static in program memory; the 5 reads stay inside it.
            unsafe {
                core::arch::asm!(
                    "lpm {0:l}, Z+",
                    "lpm {0:h}, Z+",
                    "lpm {1}, Z+",
                    "lpm {2:l}, Z+",
                    "lpm {2:h}, Z",
                    out(reg_pair) top,
                    out(reg) clock,
                    out(reg_pair) millis,
                    inout("Z") p => _,
                    options(pure, readonly, nostack, preserves_flags)
                );
            }
            Note { top, clock, millis }
        }
        #[cfg(not(target_arch = "avr"))]
        // SAFETY: `note` is a live static; the field pointers stay inside it.
        unsafe {
            Note {
                top: crate::progmem::word(core::ptr::addr_of!((*p).top)),
                clock: crate::progmem::byte(core::ptr::addr_of!((*p).clock)),
                millis: crate::progmem::word(core::ptr::addr_of!((*p).millis)),
            }
        }
    }

    /// The note's duration, read out of program memory alone: a player needs no more of a
    /// note to time it.
    pub fn millis_of(note: &'static Note) -> u16 {
        // SAFETY: `note` is a live static in program memory; the field pointer stays inside it.
        unsafe { crate::progmem::word(core::ptr::addr_of!(note.millis)) }
    }
}

pub type Tune = &'static [Note];

/// What the speaker should do after a millisecond of a tune.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Keep playing (or keep silent).
    Same,
    /// Start this note of a tune in program memory (a rest silences): the note by reference,
    /// read only by the speaker, so that a change is no copy of a note through the stack.
    Play(&'static Note),
    /// The tune has ended: silence.
    Ended,
}

/// A speaker that plays a note until told otherwise. A chip's glue implements it over a
/// timer's output pin: embedded-hal 1.0 has no tone.
pub trait Speaker {
    /// Starts `note`, or silences the speaker with `None`.
    fn tone(&mut self, note: Option<&Note>);

    /// Starts a note of a tune in program memory; a rest silences the speaker. A chip may
    /// start the timer from the note's fields as they are read, with no copy of the note.
    fn play(&mut self, note: &'static Note) {
        let n = Note::load(note);
        self.tone(if n.is_rest() { None } else { Some(&n) })
    }

    /// Does what a [`Player`]'s change says.
    fn follow(&mut self, change: Change) {
        match change {
            Change::Play(note) => self.play(note),
            Change::Ended => self.tone(None),
            Change::Same => {}
        }
    }
}

/// Plays a tune a millisecond at a time, so the loop keeps reading inputs and refreshing the
/// picture while it plays.
#[derive(Default)]
pub struct Player {
    /// The notes still to play: the slice stepped past each note as it starts, with no index
    /// kept beside it.
    tune: Option<Tune>,
    left_ms: u16,
}

impl Player {
    /// Silent (const, so an app can be a static).
    pub const fn new() -> Player {
        Player { tune: None, left_ms: 0 }
    }

    /// Starts `tune` from its first note (cutting off any tune playing).
    pub fn start(&mut self, tune: Tune) -> Change {
        self.tune = Some(tune);
        self.next()
    }

    pub fn playing(&self) -> bool {
        self.tune.is_some()
    }

    fn next(&mut self) -> Change {
        let Some(tune) = self.tune else { return Change::Same };
        match tune.split_first() {
            Some((n, rest)) => {
                self.tune = Some(rest);
                self.left_ms = Note::millis_of(n);
                Change::Play(n)
            }
            None => {
                self.tune = None;
                Change::Ended
            }
        }
    }

    /// A millisecond has passed.
    pub fn tick(&mut self) -> Change {
        if self.tune.is_none() {
            return Change::Same;
        }
        // The last millisecond (or a note of none) starts the next note, which sets the count
        // anew: no saturating step is stored first.
        if self.left_ms <= 1 {
            self.next()
        } else {
            self.left_ms -= 1;
            Change::Same
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static TUNE: [Note; 3] = [
        Note { top: 100, clock: 1, millis: 3 },
        Note { top: 0, clock: 0, millis: 2 },
        Note { top: 50, clock: 1, millis: 1 },
    ];

    #[test]
    fn notes_last_their_milliseconds_and_the_end_is_told() {
        let mut p = Player::default();
        assert_eq!(p.start(&TUNE), Change::Play(&TUNE[0]));
        let changes: [Change; 6] = core::array::from_fn(|_| p.tick());
        assert_eq!(
            changes,
            [Change::Same, Change::Same, Change::Play(&TUNE[1]), Change::Same, Change::Play(&TUNE[2]), Change::Ended]
        );
        assert!(!p.playing());
        assert_eq!(p.tick(), Change::Same);
    }
}
