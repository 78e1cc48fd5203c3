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
    /// `states red, green`: what a cell may hold besides nothing and pieces.
    States(Vec<Ident>),
    First(Ident),
    Board(BoardShape),
    /// `region corners = A1, H8`: a named set of cells.
    Region {
        name: Ident,
        cells: Vec<Ident>,
    },
    /// `pieces man, king per player`: the first name is the piece, the rest further kinds.
    Pieces {
        kind: Ident,
        kinds: Vec<Ident>,
        supply: Supply,
    },
    /// `promote man to king on far row`.
    Promote {
        from: Ident,
        to: Ident,
        /// A region's name; `None`: the mover's far row.
        on: Option<Ident>,
    },
    Setup {
        kind: Ident,
        requires: Vec<Spanned<Require>>,
    },
    FixedSetup {
        /// A setup among several the player chooses from.
        name: Option<Spanned<String>>,
        placements: Vec<Placement>,
        heaps: Vec<Int>,
        /// `pits N`: every pit's counters at the start.
        pits: Option<Int>,
        span: Span,
    },
    Action {
        name: Ident,
        mechanic: Mechanic,
    },
    Pass,
    End(Vec<Ending>),
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
    Font(Vec<Glyph>),
    /// `cards { NAME = V, V at bits HI..LO ... }`.
    Cards(Vec<Attribute>),
    /// `table N as R x C`.
    Table {
        capacity: Int,
        rows: Int,
        cols: Int,
    },
    /// `group NAME = K cards where RULE and RULE`.
    Group {
        name: Ident,
        size: Int,
        rules: Vec<Spanned<GroupRule>>,
    },
    Test(Test),
}

/// `test "name" { from { ... }, X to move  moves A, B  expect ... }`
#[derive(Debug, Clone)]
pub struct Test {
    pub name: Spanned<String>,
    pub from: Option<TestFrom>,
    pub moves: Vec<Ident>,
    pub expects: Vec<Spanned<Expect>>,
}

#[derive(Debug, Clone)]
pub struct TestFrom {
    pub placements: Vec<Placement>,
    pub heaps: Vec<Int>,
    pub to_move: Option<Ident>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum Expect {
    /// Exactly these moves are legal.
    Legal(Vec<Ident>),
    Illegal(Vec<Ident>),
    NotOver,
    /// The device's reply is one of these.
    Device(Vec<Ident>),
    Result(EndResult),
}

#[derive(Debug, Clone)]
pub enum BoardShape {
    Line {
        cells: Int,
        numbered_from: Option<Ident>,
    },
    Grid {
        cols: Int,
        rows: Int,
        cut: Vec<Ident>,
    },
    Heaps {
        heaps: Int,
    },
    /// `pits N per side [with stores]`.
    Pits {
        per_side: Int,
        stores: bool,
    },
}

/// How many pieces of a kind there are and who owns them.
#[derive(Debug, Clone)]
pub enum Supply {
    /// `x N`: N interchangeable pieces shared by both players.
    Shared(Int),
    /// `per player`: each player's own, as many as needed.
    PerPlayer,
    /// Nothing said: counters in heaps.
    Counters,
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

impl CmpOp {
    /// Whether `l OP r` holds.
    pub fn holds(self, l: u32, r: u32) -> bool {
        match self {
            CmpOp::Ge => l >= r,
            CmpOp::Le => l <= r,
            CmpOp::Eq => l == r,
            CmpOp::Ne => l != r,
            CmpOp::Gt => l > r,
            CmpOp::Lt => l < r,
        }
    }
}

#[derive(Debug, Clone)]
pub enum Mechanic {
    Slide {
        piece: Ident,
        toward: Ident,
        min: Int,
        max: Option<Int>,
        over_empty: bool,
    },
    /// `capturing`: the number of directions in which flanked lines are turned over.
    Place {
        piece: Ident,
        capturing: Option<Int>,
        /// Conditions that must hold once the piece is placed.
        condition: Vec<Spanned<Condition>>,
    },
    /// `cycle [free] cell [and its neighbours DIRECTIONS] through red, green, empty`.
    Cycle {
        free: bool,
        neighbours: Option<Spanned<Vec<Direction>>>,
        through: Vec<Ident>,
    },
    /// `[must] step|jump|ride PIECE DIRECTIONS [over TARGET] to TARGET [, capturing] [, chained]`.
    Travel {
        must: bool,
        how: Spanned<Travel>,
        piece: Ident,
        directions: Spanned<Vec<Direction>>,
        over: Option<Spanned<Target>>,
        to: Spanned<Target>,
        capturing: Option<Span>,
        chained: Option<Span>,
    },
    Drop {
        piece: Ident,
    },
    /// `remove MIN..MAX from heap`, or with `adjacent`, a run of pieces along a line.
    Remove {
        min: Int,
        max: Option<Int>,
        adjacent: Option<Ident>,
    },
    /// `sow from own pit [, into own store] [, again when last in own store] [, capturing
    /// opposite | , capturing MIN..MAX] [, skipping origin]`: each option's span.
    Sow {
        into_store: Option<Span>,
        again: Option<Span>,
        capture: Option<Spanned<SowCapture>>,
        skipping_origin: Option<Span>,
    },
}

/// What the last counter of a sowing captures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SowCapture {
    Opposite,
    Making { min: Int, max: Option<Int> },
}

/// How a piece moves by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Travel {
    Step,
    Jump,
    Ride,
}

/// What a cell a piece moves over or onto must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Empty,
    Enemy,
    Own,
    Any,
    EmptyOrEnemy,
}

/// A direction word: `forward`, `diagonally backward`, `orthogonally`, `in any direction`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Backward,
    Sideways,
    Left,
    Right,
    Orthogonally,
    Diagonally,
    DiagonallyForward,
    DiagonallyBackward,
    Any,
}

/// `black at D5, E4` (a player's pieces), `white king at B8` (a piece of a further kind) or
/// `dollar at 12, 9` (shared pieces on a line).
#[derive(Debug, Clone)]
pub struct Placement {
    pub owner: Ident,
    /// The kind of piece, when not the first.
    pub kind: Option<Ident>,
    pub cells: Vec<Ident>,
}

/// `when FEATURE OP N: SUM` or `else: SUM`.
#[derive(Debug, Clone)]
pub struct EvalCase {
    pub when: Option<(FeatureRef, Spanned<CmpOp>, Int)>,
    /// Signed weight and feature.
    pub terms: Vec<(i64, FeatureRef)>,
    pub span: crate::Span,
}

/// A feature an evaluation weighs, as written.
#[derive(Debug, Clone)]
pub enum FeatureRef {
    /// `pieces`, `mobility`, `empty` or a region's name.
    Named(Ident),
    /// `lines(HAVE of OF)`.
    Lines { have: Int, of: Int, span: Span },
}

impl FeatureRef {
    pub fn span(&self) -> Span {
        match self {
            FeatureRef::Named(i) => i.span,
            FeatureRef::Lines { span, .. } => *span,
        }
    }
}

/// `condition and condition -> result`, one line of an `end { ... }` block.
#[derive(Debug, Clone)]
pub struct Ending {
    pub conditions: Vec<Spanned<Condition>>,
    pub result: Spanned<EndResult>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum Condition {
    /// `line of K in D directions`
    InARow {
        k: Int,
        directions: Option<Int>,
    },
    Full,
    NoMoves,
    NeitherCanMove,
    /// `rows distinct` (`rows: true`) or `columns distinct`.
    Distinct {
        rows: bool,
    },
    Compare {
        lhs: CountExpr,
        op: Spanned<CmpOp>,
        rhs: CountExpr,
    },
}

#[derive(Debug, Clone)]
pub enum CountExpr {
    Int(Int),
    /// `count(WHAT in SCOPE)`, or `run(WHAT in SCOPE)` with `run: true`.
    Count {
        run: bool,
        whose: Ident,
        scope: Option<ScopeRef>,
        span: Span,
    },
}

/// Where a count looks: `each row`, `each column`, or a region's name.
#[derive(Debug, Clone)]
pub enum ScopeRef {
    EachRow(Span),
    EachColumn(Span),
    Region(Ident),
}

#[derive(Debug, Clone)]
pub enum EndResult {
    Draw,
    /// `most pieces wins` (`most: true`) or `fewest pieces loses`...
    Most {
        most: bool,
        wins: bool,
    },
    /// `mover wins`, `next loses`, `black wins`, `last mover wins`.
    Who {
        who: Ident,
        wins: bool,
    },
}

#[derive(Debug, Clone)]
pub enum ControlItem {
    Bind { name: Ident, index: Option<Ident>, action: ControlAction },
    Idle { after: Spanned<u32>, wake: Option<Ident> },
}

#[derive(Debug, Clone)]
pub enum ControlAction {
    Extend {
        action: Ident,
        piece: Ident,
        index: Ident,
    },
    Commit,
    /// `cursor across` or `cursor down`.
    Cursor {
        across: bool,
    },
    Restart,
}

#[derive(Debug, Clone)]
pub enum FeedbackItem {
    Show {
        view: Ident,
        source: Ident,
    },
    /// `show cells = colours { red = red, ... }`: (state or player, colour).
    ShowColours {
        view: Ident,
        colours: Vec<(Ident, Ident)>,
    },
    /// `cursor blinks 250 ms, given yellow`.
    Cursor {
        blink: Spanned<u32>,
        given: Ident,
    },
    Intro(Vec<Spanned<Scene>>),
    On {
        event: Spanned<Event>,
        response: Response,
        flash: Option<(Ident, Spanned<u32>)>,
    },
}

/// A scene of the start-up show.
#[derive(Debug, Clone)]
pub enum Scene {
    Starburst { step: Spanned<u32>, colours: [Ident; 2] },
    Scroll { text: Spanned<String>, step: Spanned<u32>, colours: [Ident; 2] },
}

/// A card attribute: its values and the bits of the code that hold one.
#[derive(Debug, Clone)]
pub struct Attribute {
    pub name: Ident,
    pub values: Vec<Ident>,
    pub bits: (Int, Int),
    pub span: Span,
}

/// `every attribute is all same or all different`, or one attribute's rule.
#[derive(Debug, Clone)]
pub struct GroupRule {
    /// `None` for every attribute.
    pub attribute: Option<Ident>,
    pub relation: Relation,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    AllSame,
    AllDifferent,
    SameOrDifferent,
}

/// `glyph "B" { "###." ... }`: a letter's rows from the top.
#[derive(Debug, Clone)]
pub struct Glyph {
    pub name: Spanned<String>,
    pub rows: Vec<Spanned<String>>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum Event {
    Attract,
    Denied,
    Accepted,
    Win(Ident),
    Start,
    Choosing,
}

#[derive(Debug, Clone)]
pub enum Response {
    Tune(Ident),
    Animate(Ident),
    /// Blink the whole display with this half-period.
    Blink(Spanned<u32>),
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
    /// A column letter, for actions that drop into a column.
    Column,
    Cell,
    /// A move as the cells it goes through.
    Move,
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
    MoveTime {
        default: Int,
    },
    /// `play NAME`, or `play` for any move.
    Play(Option<Ident>),
    Pass,
}

#[derive(Debug, Clone)]
pub enum SerialFeedbackItem {
    /// `on EVENT -> ITEM, ...`; the event as written, words separated by single spaces.
    Say { event: Spanned<String>, items: Vec<Spanned<SayItem>> },
    /// `show board = text { black "B", ... }`
    /// Who (and, for a further kind of piece, which kind), and the glyph.
    BoardText(Vec<(Ident, Option<Ident>, Spanned<String>)>),
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
    Serial { port: Ident, baud: Int, role: Option<Ident>, suffix: Vec<Spanned<u32>> },
    Tick(Ident),
    Led { name: Ident, pin: Ident, active_low: bool },
    Matrix(Matrix),
    Encoder { name: Ident, a: Ident, b: Ident },
    Eeprom { name: Ident, cs: Ident, sk: Ident, di: Ident, dout: Ident },
    Programmer { name: Spanned<String>, port: Option<Spanned<String>> },
}

/// `display NAME = matrix rows ..., red ..., green ..., refresh N Hz, TIMER`.
#[derive(Debug, Clone)]
pub struct Matrix {
    pub name: Ident,
    pub rows: Vec<Ident>,
    pub red: Vec<Ident>,
    pub green: Vec<Ident>,
    pub columns_high: bool,
    pub refresh: Int,
    pub refresh_unit: Ident,
    pub timer: Ident,
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
