//! A game played by a host over a serial line: the commands it sends and what the device says.

use super::GameDef;
use crate::ast::Ident;
use crate::Span;

/// A game played over a serial line: the commands the host sends, and what the device says.
#[derive(Debug, Clone)]
pub struct SerialDef {
    pub commands: Vec<CommandDef>,
    /// At most one per event; an event without one sends nothing.
    pub says: Vec<SayDef>,
    /// The character a board dump shows for each player's pieces, in `players` order.
    pub piece_glyphs: Vec<u8>,
    pub empty_glyph: u8,
    /// An empty cell the host may play on, in the dump before its turn.
    pub legal_glyph: u8,
    /// The glyphs of the further kinds of piece (`black king "B"`): the first player's and
    /// the second's of kind 1, then of kind 2, ...
    pub kind_glyphs: Vec<u8>,
    /// The glyph of each state a cell may hold, in `states` order.
    pub state_glyphs: Vec<u8>,
    pub span: Span,
}

impl SerialDef {
    pub fn say(&self, event: SessionEvent) -> Option<&SayDef> {
        self.says.iter().find(|s| s.event == event)
    }
}

/// Every lamp a game's feedback lights, once each, in the order it first appears; a lamp's
/// position here is its number in the firmware.
pub fn lamp_names(game: &GameDef) -> Vec<&Ident> {
    let mut out: Vec<&Ident> = Vec::new();
    for say in game.interface.serial.iter().flat_map(|s| &s.says) {
        for part in &say.parts {
            if let SayPart::Light(name) = part {
                if !out.iter().any(|n| n.node == name.node) {
                    out.push(name);
                }
            }
        }
    }
    out
}

#[derive(Debug, Clone)]
pub struct CommandDef {
    /// The command word, matched exactly at the start of a line.
    pub word: String,
    pub arg: CommandArgDef,
    pub action: SessionAction,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandArgDef {
    None,
    /// A cell such as `D3`.
    Cell,
    /// A column such as `D`, for a drop.
    Column,
    /// A move as the cells it goes through, `C3-E5-C7`.
    Move,
    /// A word naming a side: the word and the player index it stands for.
    Side(Vec<(String, usize)>),
    /// A decimal number; out of range is the `bad value` event.
    Number {
        min: u32,
        max: u32,
    },
}

/// What a command does, in terms every turn-based serial game shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionAction {
    /// Answers `accepted` and nothing else.
    Ping,
    /// Acknowledges what the device awaits (after `await`); gives up a turn that was too late.
    Ack,
    /// After `too late`: the host tries its turn again with a fresh clock.
    Retry,
    /// The game starts again from its setup with the same sides.
    Restart,
    /// The host takes the side named by the argument; the device plays the other.
    HostPlaysSide,
    NewGame,
    /// The game ends now and is scored as it stands.
    EndGame,
    /// Sets the move clock of both sides, in seconds; `default` applies at start and when a
    /// value is out of range.
    MoveTime {
        default: u32,
    },
    /// Plays the host's move with the given action (index into `moves`: a placement or a drop).
    Play(usize),
    /// Plays any legal move, named by the cells it goes through.
    PlayMove,
    /// The host passes, which it may only do without a legal move.
    Pass,
}

/// Everything the device may have to say; each is bound to a response in the game file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEvent {
    /// A new game waits for the host to choose its side.
    PickSide,
    /// The host is to move and has a legal move.
    YourTurn,
    /// The host is to move and has none.
    MustPass,
    /// The host's move was played.
    Moved,
    /// A command that needs no other answer was done.
    Accepted,
    Restarted,
    /// A move or pass that the rules or the turn do not allow; nothing changes.
    Denied,
    /// A move or pass after the move clock ran out.
    TooLate,
    /// A number out of its range.
    BadValue,
    /// A line that is no command, or longer than the line buffer.
    Unknown,
    DeviceMoves,
    DevicePasses,
    NeitherCanMove,
    GameOver,
    WinDevice,
    WinHost,
    Draw,
}

impl SessionEvent {
    pub const ALL: [SessionEvent; 17] = [
        SessionEvent::PickSide,
        SessionEvent::YourTurn,
        SessionEvent::MustPass,
        SessionEvent::Moved,
        SessionEvent::Accepted,
        SessionEvent::Restarted,
        SessionEvent::Denied,
        SessionEvent::TooLate,
        SessionEvent::BadValue,
        SessionEvent::Unknown,
        SessionEvent::DeviceMoves,
        SessionEvent::DevicePasses,
        SessionEvent::NeitherCanMove,
        SessionEvent::GameOver,
        SessionEvent::WinDevice,
        SessionEvent::WinHost,
        SessionEvent::Draw,
    ];

    /// The event as a game file writes it.
    pub fn name(self) -> &'static str {
        match self {
            SessionEvent::PickSide => "pick side",
            SessionEvent::YourTurn => "your turn",
            SessionEvent::MustPass => "must pass",
            SessionEvent::Moved => "moved",
            SessionEvent::Accepted => "accepted",
            SessionEvent::Restarted => "restarted",
            SessionEvent::Denied => "denied",
            SessionEvent::TooLate => "too late",
            SessionEvent::BadValue => "bad value",
            SessionEvent::Unknown => "unknown",
            SessionEvent::DeviceMoves => "device moves",
            SessionEvent::DevicePasses => "device passes",
            SessionEvent::NeitherCanMove => "neither can move",
            SessionEvent::GameOver => "game over",
            SessionEvent::WinDevice => "win device",
            SessionEvent::WinHost => "win host",
            SessionEvent::Draw => "draw",
        }
    }
}

#[derive(Debug, Clone)]
pub struct SayDef {
    pub event: SessionEvent,
    pub parts: Vec<SayPart>,
    pub span: Span,
}

/// One step of a response, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SayPart {
    /// A line of text, ended by `\r\n` when sent.
    Line(Vec<TextPart>),
    /// The board, a row a line, with the host's legal cells marked on its turn.
    Board,
    /// Waits for the host's `ack` before going on.
    Await,
    /// Lights a lamp the board wires (by name) until the next game.
    Light(Ident),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextPart {
    Text(String),
    /// `{cell}`: the device's move.
    Cell,
    /// `{column}`: the column of the device's move.
    Column,
    /// `{device}`, `{host}`: that side's pieces on the board.
    Count {
        device: bool,
    },
}
