//! Tunes as the compiler lowers them: per note, the speaker timer's settings and a duration.

/// One note: `top` is the timer's compare value and `clock` its prescaler selection bits, both
/// computed by the compiler for the board's clock; `top == 0` is a rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note {
    pub top: u16,
    pub clock: u8,
    pub millis: u16,
}

impl Note {
    pub fn is_rest(&self) -> bool {
        self.top == 0
    }
}

pub type Tune = &'static [Note];
