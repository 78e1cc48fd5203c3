//! The spanned syntax tree: what the parser read, before names are resolved.

use crate::Span;

/// A value with the span of text it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

pub type Ident = Spanned<String>;
pub type Int = Spanned<u32>;

#[derive(Debug, Clone)]
pub enum File {
    Game(Game),
    Board(Board),
}

// ------------------------------------------------------------------ games

#[derive(Debug, Clone)]
pub struct Game {
    pub name: Ident,
    pub items: Vec<Spanned<GameItem>>,
}

#[derive(Debug, Clone)]
pub enum GameItem {
    Players(Vec<Ident>),
    First(Ident),
    Board(BoardShape),
    /// `count: None` is `per player`: each player has their own pieces, as many as needed.
    Pieces {
        kind: Ident,
        count: Option<Int>,
    },
    Setup {
        kind: Ident,
        requires: Vec<Spanned<Require>>,
    },
    FixedSetup(Vec<Placement>),
    Action {
        name: Ident,
        mechanic: Mechanic,
    },
    Pass,
    End(EndRule),
    Strategy {
        player: Ident,
        kind: Ident,
        ties: Option<Ident>,
        deepening: bool,
        order_by_eval: bool,
    },
    Eval(Vec<EvalCase>),
    Controls(Vec<Spanned<ControlItem>>),
    Feedback(Vec<Spanned<FeedbackItem>>),
    SerialControls(Vec<Command>),
    SerialFeedback(Vec<Spanned<SerialFeedbackItem>>),
    Tune {
        name: Ident,
        notes: Vec<Spanned<Note>>,
    },
}

#[derive(Debug, Clone)]
pub enum BoardShape {
    Line { cells: Int, numbered_from: Option<Ident> },
    Grid { cols: Int, rows: Int },
}

#[derive(Debug, Clone)]
pub enum Require {
    Winnable { player: Ident },
    Compare { lhs: Expr, op: Spanned<CmpOp>, rhs: Expr },
}

#[derive(Debug, Clone)]
pub enum Expr {
    Int(Int),
    Call { func: Ident, arg: Ident, span: Span },
}

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Int(i) => i.span,
            Expr::Call { span, .. } => *span,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Ge,
    Le,
    Eq,
    Ne,
    Gt,
    Lt,
}

#[derive(Debug, Clone)]
pub enum Mechanic {
    Slide { piece: Ident, toward: Ident, min: Int, max: Option<Int>, over_empty: bool },
    Place { piece: Ident, directions: Int },
}

/// `black at D5, E4`: where a player's pieces start.
#[derive(Debug, Clone)]
pub struct Placement {
    pub player: Ident,
    pub cells: Vec<Ident>,
}

/// `when FEATURE OP N: SUM` or `else: SUM`.
#[derive(Debug, Clone)]
pub struct EvalCase {
    pub when: Option<(Ident, Spanned<CmpOp>, Int)>,
    /// Signed weight and feature name.
    pub terms: Vec<(i64, Ident)>,
    pub span: crate::Span,
}

#[derive(Debug, Clone, Copy)]
pub enum EndRule {
    /// `end when no moves: last mover wins|loses`
    NoMoves { last_mover_wins: bool },
    /// `end when neither can move: most pieces wins|loses`
    NeitherCanMove { most_wins: bool },
}

#[derive(Debug, Clone)]
pub enum ControlItem {
    Bind { name: Ident, index: Option<Ident>, action: ControlAction },
    Idle { after: Spanned<u32>, wake: Option<Ident> },
}

#[derive(Debug, Clone)]
pub enum ControlAction {
    Extend { action: Ident, piece: Ident, index: Ident },
    Commit,
}

#[derive(Debug, Clone)]
pub enum FeedbackItem {
    Show { view: Ident, source: Ident },
    On { event: Spanned<Event>, response: Response },
}

#[derive(Debug, Clone)]
pub enum Event {
    Attract,
    Denied,
    Accepted,
    Win(Ident),
}

#[derive(Debug, Clone)]
pub enum Response {
    Tune(Ident),
    Animate(Ident),
}

/// `"MV" cell -> play place`: a command word, its argument and what it does.
#[derive(Debug, Clone)]
pub struct Command {
    pub word: Spanned<String>,
    pub arg: Option<Spanned<CommandArg>>,
    pub action: Spanned<SessionAction>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum CommandArg {
    Cell,
    /// `side { "B" = black, "W" = white }`
    Side(Vec<(Spanned<String>, Ident)>),
    Number {
        min: Int,
        max: Int,
    },
}

#[derive(Debug, Clone)]
pub enum SessionAction {
    Ping,
    Ack,
    Retry,
    Restart,
    HostPlaysSide,
    NewGame,
    EndGame,
    MoveTime { default: Int },
    Play(Ident),
    Pass,
}

#[derive(Debug, Clone)]
pub enum SerialFeedbackItem {
    /// `on EVENT -> ITEM, ...`; the event as written, words separated by single spaces.
    Say { event: Spanned<String>, items: Vec<Spanned<SayItem>> },
    /// `show board = text { black "B", ... }`
    BoardText(Vec<(Ident, Spanned<String>)>),
}

#[derive(Debug, Clone)]
pub enum SayItem {
    /// The text between the quotes.
    Text(String),
    Board,
    Await,
    Light(Ident),
}

#[derive(Debug, Clone)]
pub struct Note {
    pub pitch: Spanned<String>,
    pub millis: Int,
}

// ------------------------------------------------------------------ boards

#[derive(Debug, Clone)]
pub struct Board {
    pub name: Ident,
    pub items: Vec<Spanned<BoardItem>>,
}

#[derive(Debug, Clone)]
pub enum BoardItem {
    Chip(Ident),
    Clock { value: Int, unit: Ident, source: Option<Ident> },
    Budget(Vec<(Ident, Int)>),
    Display(Display),
    Button { control: Ident, index: Option<Int>, pin: Ident, pullup: bool },
    Speaker { pin: Ident, timer: Ident },
    Serial { port: Ident, baud: Int },
    Tick(Ident),
    Led { name: Ident, pin: Ident, active_low: bool },
}

#[derive(Debug, Clone)]
pub struct Display {
    pub name: Ident,
    pub pins: Vec<Ident>,
    pub refresh: Int,
    pub refresh_unit: Ident,
    pub timer: Ident,
    pub leds: Vec<Led>,
}

#[derive(Debug, Clone)]
pub struct Led {
    pub cell: Int,
    pub anode: Ident,
    pub cathode: Ident,
    pub span: Span,
}
