//! A board file: the chip, its clock, the budget, and the devices wired to its pins.

use crate::ast::{Ident, Spanned};
use crate::Span;

#[derive(Debug, Clone)]
pub struct BoardDef {
    pub name: Ident,
    pub chip: Ident,
    pub clock_hz: u32,
    pub clock_span: Span,
    pub budget: Budget,
    pub displays: Vec<DisplayDef>,
    pub buttons: Vec<ButtonDef>,
    pub speaker: Option<SpeakerDef>,
    /// The serial port a game's protocol runs on.
    pub serial: Option<SerialPortDef>,
    /// Serial ports given to a game's serial devices by role (`for console`, `for scanner`).
    pub serial_roles: Vec<SerialPortDef>,
    /// The timer that counts milliseconds, where nothing else implies one.
    pub tick: Option<Ident>,
    pub leds: Vec<LampDef>,
    /// A bicolour LED matrix.
    pub matrix: Option<MatrixDef>,
    pub encoders: Vec<EncoderDef>,
    /// A serial EEPROM holding the game's setups.
    pub eeprom: Option<EepromDef>,
    /// How the board is programmed, where the file says.
    pub programmer: Option<ProgrammerDef>,
}

/// A board's programmer (avrdude's `-c`, or probe-rs's probe) and the port it is on.
#[derive(Debug, Clone)]
pub struct ProgrammerDef {
    pub name: Spanned<String>,
    pub port: Option<Spanned<String>>,
    pub span: Span,
}

/// A hardware serial port and its speed (8 data bits, no parity, one stop bit).
#[derive(Debug, Clone)]
pub struct SerialPortDef {
    pub port: Ident,
    pub baud: u32,
    /// The game's device on this port, if it is not the game's protocol line.
    pub role: Option<Ident>,
    /// Bytes the device ends each frame with (a scanner's configured suffix).
    pub suffix: Vec<u8>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct DisplayDef {
    pub name: Ident,
    pub pins: Vec<Spanned<Pin>>,
    pub refresh_hz: u32,
    pub timer: Ident,
    /// One per cell number 1..=N, in order.
    pub leds: Vec<LedDef>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct LedDef {
    pub cell: u32,
    pub anode: Pin,
    pub cathode: Pin,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ButtonDef {
    pub control: Ident,
    /// For per-piece controls: which piece, from 1.
    pub index: Option<u32>,
    pub pin: Spanned<Pin>,
    pub pullup: bool,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct SpeakerDef {
    pub pin: Spanned<Pin>,
    pub timer: Ident,
    pub span: Span,
}

/// A single LED that feedback lights by name.
#[derive(Debug, Clone)]
pub struct LampDef {
    pub name: Ident,
    pub pin: Spanned<Pin>,
    /// Lit when the pin is driven low (the LED's cathode on the pin).
    pub active_low: bool,
    pub span: Span,
}

/// A bicolour matrix multiplexed a column at a time from a timer.
#[derive(Debug, Clone)]
pub struct MatrixDef {
    pub name: Ident,
    /// Row 1 (the top) first.
    pub rows: Vec<Spanned<Pin>>,
    /// Column A first.
    pub red: Vec<Spanned<Pin>>,
    pub green: Vec<Spanned<Pin>>,
    pub columns_active_high: bool,
    /// Column ticks a second.
    pub refresh_hz: u32,
    pub timer: Ident,
    pub span: Span,
}

/// A rotary encoder's two contacts.
#[derive(Debug, Clone)]
pub struct EncoderDef {
    pub name: Ident,
    pub a: Spanned<Pin>,
    pub b: Spanned<Pin>,
    pub span: Span,
}

/// A 93C46 serial EEPROM.
#[derive(Debug, Clone)]
pub struct EepromDef {
    pub name: Ident,
    pub cs: Spanned<Pin>,
    pub sk: Spanned<Pin>,
    pub di: Spanned<Pin>,
    pub dout: Spanned<Pin>,
    pub span: Span,
}

#[derive(Debug, Clone, Default)]
pub struct Budget {
    pub flash: Option<Spanned<u32>>,
    /// Static RAM and, where it has a bound, the deepest stack.
    pub ram: Option<Spanned<u32>>,
    /// The deepest stack alone.
    pub stack: Option<Spanned<u32>>,
}

/// A pin as the board names it: a port letter and a bit, with no knowledge of any chip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pin {
    pub port: char,
    pub bit: u8,
}

impl std::fmt::Display for Pin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "P{}{}", self.port, self.bit)
    }
}
