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
        // SAFETY: `note` is a live static; the field pointers stay inside it.
        unsafe {
            Note {
                top: crate::progmem::word(core::ptr::addr_of!((*p).top)),
                clock: crate::progmem::byte(core::ptr::addr_of!((*p).clock)),
                millis: crate::progmem::word(core::ptr::addr_of!((*p).millis)),
            }
        }
    }
}

pub type Tune = &'static [Note];
