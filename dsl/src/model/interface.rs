//! How a person plays the game at the device: controls, lights and matrices, the cursor, the
//! start-up show and its font, events and their tunes.

use super::{content, GameDef, Layout, SerialDef};
use crate::ast::Ident;
use crate::Span;

/// The ways a person plays the game at a device; a game may carry several, and each board
/// binds the one its devices serve.
#[derive(Debug, Clone, Default)]
pub struct InterfaceDef {
    /// Buttons (or encoders) and what each press does.
    pub controls: Vec<ControlDef>,
    pub idle: Option<IdleDef>,
    /// What the lights or the matrix show.
    pub views: Vec<ViewDef>,
    pub events: Vec<EventDef>,
    pub tunes: Vec<TuneDef>,
    /// Controls and feedback over a serial line, for games played by a host.
    pub serial: Option<SerialDef>,
    /// The cursor of a game played with one, and how it shows.
    pub cursor: Option<CursorDef>,
    /// The start-up show.
    pub intro: Vec<SceneDef>,
    /// Letters for scrolling text.
    pub font: Vec<GlyphDef>,
}

#[derive(Debug, Clone)]
pub struct ControlDef {
    pub name: Ident,
    /// `move[i]`: one control per piece, numbered from 1 (the leftmost piece).
    pub per_piece: bool,
    pub action: ControlAction,
}

impl ControlDef {
    /// How many physical inputs this control needs: one per piece, or per heap.
    pub fn arity(&self, game: &GameDef) -> u32 {
        let rules = &game.rules;
        match (self.per_piece, &rules.board) {
            (false, _) => 1,
            (true, Layout::Heaps(h)) => h.heaps,
            // A player's own pieces: as many as the person has at the start.
            (true, _) if rules.piece.per_player => {
                let person = game.person();
                rules.fixed_pieces().iter().filter(|(p, _)| *p == person).map(|(_, cells)| cells.len() as u32).sum()
            }
            (true, _) => rules.piece.count,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ControlAction {
    /// Each press enters the next move of the named action (index into `moves`) from the
    /// chosen piece or heap: one more step of a slide, one more counter from a heap.
    Extend { action: usize },
    /// Ends the turn with the move entered so far.
    Commit,
    /// Moves a cursor a column (`across`) or a row; `across` also steps through the setups
    /// while one is being chosen.
    Cursor { across: bool },
    /// Back to choosing a setup.
    Restart,
}

#[derive(Debug, Clone)]
pub struct IdleDef {
    pub after_ms: u32,
    /// Index into `controls` of the control that wakes the device.
    pub wake: Option<usize>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ViewDef {
    pub name: Ident,
    pub source: ViewSource,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewSource {
    /// One light per cell, lit while a piece stands on it.
    Occupied,
    /// A bicolour matrix: each cell's colour by what it holds.
    Colours(ContentColours),
}

/// The colour of each content (as [`content`] numbers them, up to [`content::state`] of the
/// last state); unnamed contents are off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ContentColours(pub [Colour; 3 + content::MAX_STATES]);

impl ContentColours {
    pub fn of(&self, content: u8) -> Colour {
        self.0.get(content as usize).copied().unwrap_or(Colour::Off)
    }
}

/// A colour of a bicolour LED.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Colour {
    #[default]
    Off,
    Red,
    Green,
    /// Both LEDs of the cell.
    Yellow,
}

impl Colour {
    pub fn parse(name: &str) -> Colour {
        match name {
            "red" => Colour::Red,
            "green" => Colour::Green,
            "yellow" => Colour::Yellow,
            _ => Colour::Off,
        }
    }
}

/// How the cursor shows: it blinks between the cell's colour and what the cell would hold
/// next, or `given` on a cell the setup gave.
#[derive(Debug, Clone, Copy)]
pub struct CursorDef {
    pub blink_ms: u32,
    pub given: Colour,
    pub span: Span,
}

/// A scene of the start-up show.
#[derive(Debug, Clone)]
pub enum SceneDef {
    /// Rings from the centre, one more every `step_ms`.
    Starburst { step_ms: u32, colours: [Colour; 2] },
    /// The text, as indices into the font, scrolled a column every `step_ms`.
    Scroll { glyphs: Vec<usize>, step_ms: u32, colours: [Colour; 2] },
}

/// A letter of the game's font: its columns from the left, bit r lighting row r from the top.
#[derive(Debug, Clone)]
pub struct GlyphDef {
    pub name: char,
    pub columns: Vec<u8>,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// Between games, until the first control is pressed.
    Attract,
    /// An illegal press, or a commit with nothing entered.
    Denied,
    /// A press that extended the move.
    Accepted,
    /// The game ended with this player (index) the winner.
    Win(usize),
    /// A chosen setup is started.
    Start,
    /// While a setup is being chosen.
    Choosing,
}

#[derive(Debug, Clone)]
pub enum Response {
    /// Index into `tunes`.
    Tune(usize),
    Animate(Animation),
    /// The whole display blinks with this half-period in milliseconds.
    Blink(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Animation {
    /// One light sweeping from end to end and back.
    Cylon,
}

#[derive(Debug, Clone)]
pub struct EventDef {
    pub event: EventKind,
    pub response: Response,
    /// The whole display flashes this colour with this half-period meanwhile.
    pub flash: Option<(Colour, u32)>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct TuneDef {
    pub name: Ident,
    pub notes: Vec<NoteDef>,
}

#[derive(Debug, Clone)]
pub struct NoteDef {
    /// MIDI note number (A4 = 69); `None` is a rest.
    pub midi: Option<u8>,
    pub millis: u32,
    pub span: Span,
}

impl NoteDef {
    /// Frequency in hertz of a MIDI note, equal temperament from A4 = 440 Hz.
    pub fn frequency(midi: u8) -> f64 {
        440.0 * 2f64.powf((midi as f64 - 69.0) / 12.0)
    }
}
