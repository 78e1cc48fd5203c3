//! The pest parser and the walk from pest's pairs to the spanned syntax tree.

use crate::ast::*;
use crate::Code;
use crate::{Diagnostic, FileId, Label, Span};
use pest::iterators::{Pair, Pairs};
use pest::Parser;

#[derive(pest_derive::Parser)]
#[grammar = "gamec.pest"]
struct GamecParser;

/// The most syntax errors one file reports: past them, the rest is likely their echo.
const MAX_SYNTAX_ERRORS: usize = 10;

/// The words a statement of a game or board file begins with.
const STATEMENTS: &[&str] = &[
    "players",
    "first",
    "board",
    "region",
    "pieces",
    "states",
    "setup",
    "action",
    "promote",
    "pass",
    "end",
    "strategy",
    "eval",
    "controls",
    "feedback",
    "tune",
    "test",
    "cards",
    "table",
    "group",
    "font",
    "chip",
    "clock",
    "budget",
    "display",
    "button",
    "speaker",
    "serial",
    "eeprom",
    "encoder",
    "lamp",
    "tick",
    "programmer",
];

/// Parses the text of a game or board file; on syntax errors, every one it can find (up to
/// [`MAX_SYNTAX_ERRORS`]): after each, the statement holding it is set aside (blanked, so
/// that every position stays where it was) and the rest parsed again.
pub fn parse(file: FileId, text: &str) -> Result<File, Vec<Diagnostic>> {
    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut rest = text.to_string();
    loop {
        match GamecParser::parse(Rule::file, &rest) {
            Ok(mut pairs) if errors.is_empty() => return Ok(tree(pairs.next().expect("grammar: file"))),
            Ok(_) => return Err(errors),
            Err(e) => {
                let d = syntax_error(file, &rest, e);
                let at = d.labels.first().map_or(0, |l| l.span.start);
                // Each pass must get past the last error, or the rest is its echo; and a file
                // that ends where a statement was set aside has nothing more to say.
                let stuck = errors.last().and_then(|l| l.labels.first()).is_some_and(|l| l.span.start >= at);
                if stuck || (!errors.is_empty() && rest[at..].trim().is_empty()) {
                    return Err(errors);
                }
                // A statement's keyword where the grammar wanted something else: the block
                // before it is still open, and every later statement would be its echo.
                let word = rest[at..].split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or("");
                let expected = d.message.rsplit_once(", found").map_or(d.message.as_str(), |(e, _)| e);
                let unclosed = STATEMENTS.contains(&word) && !expected.contains(&format!("`{word}`"));
                errors.push(d);
                let (from, to) = statement_around(&rest, at);
                if unclosed || errors.len() == MAX_SYNTAX_ERRORS || from == to {
                    return Err(errors);
                }
                // A space a byte (a character a byte or more), so that every later position
                // stays where it was in the file.
                let blank: String = rest[from..to]
                    .chars()
                    .map(|c| if c == '\n' { "\n".to_string() } else { " ".repeat(c.len_utf8()) })
                    .collect();
                rest.replace_range(from..to, &blank);
            }
        }
    }
}

/// The statement around byte `at`, to set aside after an error there: from its line's start
/// to its end, or, where that line opens a block it does not close, to the block's end.
fn statement_around(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let from = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let mut depth = 0i32;
    for (i, c) in text[from..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            // A `}` closing a block the line did not open ends the statement before it.
            '}' => return (from, from + i),
            '\n' if depth == 0 => return (from, from + i),
            _ => {}
        }
    }
    (from, text.len())
}

fn tree(file_pair: Pair<Rule>) -> File {
    let top = file_pair.into_inner().next().expect("grammar: game or board");
    match top.as_rule() {
        Rule::game => File::Game(game(top)),
        _ => File::Board(board(top)),
    }
}

fn syntax_error(file: FileId, text: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span(s) => s,
    };
    // Point at the offending token, not at an empty position.
    let end = if end > start { end } else { token_end(text, start) };
    let (message, help) = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            // A grammar rule without a description stays unnamed: its name is the grammar's
            // word, not the language's.
            let mut names: Vec<String> = positives.iter().filter_map(|r| describe(*r)).map(String::from).collect();
            names.sort_unstable();
            names.dedup();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let found = &text[start..end];
            let found = if found.is_empty() { "end of file".to_string() } else { format!("`{found}`") };
            let expected = match names.len() {
                0 => "the end of the statement".to_string(),
                1 => names[0].to_string(),
                _ => format!("{} or {}", names[..names.len() - 1].join(", "), names[names.len() - 1]),
            };
            // A misspelt keyword: the nearest of those valid here.
            let keywords = names.iter().filter_map(|n| n.strip_prefix('`')?.split('`').next());
            let word = &text[start..end];
            let near = crate::suggest::closest(word, keywords).map(|k| format!("did you mean `{k}`?"));
            // The right word with the wrong rest (`grid 3 3`): how the form is written.
            let forms = names.iter().flat_map(|n| n.split('`').skip(1).step_by(2));
            let form = forms.clone().find(|f| f.strip_prefix(word).is_some_and(|r| r.starts_with(' ')));
            let near = form.map(|f| format!("`{word}` is written `{f}`")).or(near);
            (format!("expected {expected}, found {found}"), near.or_else(|| hint_for(&names)))
        }
        pest::error::ErrorVariant::CustomError { message } => (message.clone(), None),
    };
    let mut d = Diagnostic::error(Code::E0001, format!("syntax error: {message}")).with_label(Label::primary(
        file,
        Span::new(start, end),
        "unexpected here",
    ));
    d.help = Some(help.unwrap_or_else(|| "see docs/language.md for the statements each file may hold".into()));
    d
}

fn token_end(text: &str, start: usize) -> usize {
    let rest = &text[start.min(text.len())..];
    let len = rest.char_indices().find(|(_, c)| c.is_whitespace()).map(|(i, _)| i).unwrap_or(rest.len());
    start + len.max(rest.chars().next().map(char::len_utf8).unwrap_or(0))
}

/// Human names of the rules pest reports as expected; `None` hides grammar internals.
fn describe(rule: Rule) -> Option<&'static str> {
    describe_board(rule).or_else(|| describe_game(rule))
}

/// [`describe`] for a board file's words, and a game of cards' (a board's kind of table).
fn describe_board(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::pin => "a pin such as `PA0`",
        Rule::board => "`board`",
        Rule::chip => "`chip`",
        Rule::clock => "`clock`",
        Rule::budget => "`budget`",
        Rule::budget_kind => "`flash`, `ram` or `stack`",
        Rule::display => "`display`",
        Rule::button => "`button`",
        Rule::speaker => "`speaker`",
        Rule::serial_port => "`serial`",
        Rule::tick => "`tick`",
        Rule::programmer => "`programmer NAME, port \"PORT\"`",
        Rule::led_lamp => "`led`",
        Rule::encoder => "`encoder NAME = PIN PIN`",
        Rule::eeprom => "`eeprom NAME = 93c46 cs PIN, sk PIN, di PIN, do PIN`",
        Rule::matrix | Rule::pin_list => "`matrix rows ..., red ..., green ..., refresh N Hz, TIMER`",
        Rule::columns_high => "`columns active high`",
        Rule::font => "`font`",
        Rule::cards => "`cards`",
        Rule::attribute => "an attribute such as `NAME = VALUE, VALUE, VALUE at bits 1..0`",
        Rule::card_table => "`table`",
        Rule::group => "`group`",
        Rule::group_rule | Rule::every_attribute => "`every attribute is ...` or `ATTRIBUTE is ...`",
        Rule::relation | Rule::same_or_different | Rule::all_same | Rule::all_different => {
            "`all same`, `all different` or `all same or all different`"
        }
        Rule::glyph_def => "`glyph \"A\" { \"#..#\" ... }`",
        Rule::led => "an LED such as `1 = PA1 > PA3`",
        Rule::freq_unit => "`MHz`, `kHz` or `Hz`",
        _ => return None,
    })
}

/// [`describe`] for a game file's words.
fn describe_game(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::ident => "a name",
        Rule::int => "a number",
        Rule::game => "`game`",
        Rule::players => "`players`",
        Rule::first => "`first`",
        Rule::board_shape => "`board`",
        Rule::pieces => "`pieces`",
        Rule::setup => "`setup`",
        Rule::action => "`action`",
        Rule::end_rule => "`end`",
        Rule::strategy => "`strategy`",
        Rule::controls => "`controls`",
        Rule::feedback => "`feedback`",
        Rule::tune => "`tune`",
        Rule::cursor_move | Rule::across | Rule::down => "`cursor across` or `cursor down`",
        Rule::restart => "`restart`",
        Rule::colours_view | Rule::colour_map => "`colours { STATE = COLOUR, ... }`",
        Rule::colour => "a colour: `off`, `red`, `green` or `yellow`",
        Rule::cursor_blink => "`cursor blinks N ms, given COLOUR`",
        Rule::intro | Rule::scene | Rule::starburst_scene | Rule::scroll_scene => {
            "a scene: `starburst N ms in COLOUR and COLOUR` or `scroll \"TEXT\" N ms in COLOUR and COLOUR`"
        }
        Rule::flash => "`, flash COLOUR N ms`",
        Rule::start_event | Rule::choosing_event => "an event",
        Rule::blink => "`blink N ms`",
        Rule::string => "a string in double quotes",
        Rule::command => "a command such as `\"AT\" -> ping`",
        Rule::session_action => "a session action such as `ping`, `play ACTION` or `pass`",
        Rule::session_event => "an event such as `your turn` or `device moves`",
        Rule::say_item => "a string, `board`, `await` or `light NAME`",
        Rule::board_text => "`show board = text { ... }`",
        Rule::require => "`require`",
        Rule::control | Rule::control_name => "a control name",
        Rule::idle => "`idle`",
        Rule::show => "`show`",
        Rule::on_event => "`on`",
        Rule::note | Rule::pitch => "a note such as `A5/100`",
        Rule::side => "`left` or `right`",
        Rule::verdict => "`wins` or `loses`",
        Rule::cmp_op => "a comparison",
        Rule::time_unit => "`ms` or `s`",
        Rule::slide
        | Rule::place
        | Rule::drop
        | Rule::remove
        | Rule::cycle
        | Rule::sow
        | Rule::travel
        | Rule::travel_kind
        | Rule::must => "a move: `place`, `drop`, `slide`, `remove`, `cycle`, `sow`, `step`, `jump` or `ride`",
        Rule::sow_opt
        | Rule::into_store
        | Rule::again_in_store
        | Rule::capture_opposite
        | Rule::capture_making
        | Rule::skipping_origin => {
            "`, into own store`, `, again when last in own store`, `, capturing opposite`, `, capturing 2..3` or `, skipping origin`"
        }
        Rule::opposite_word => "`opposite`",
        // pest names the last shape it tried where a shape went wrong: say them all.
        Rule::line_shape | Rule::grid_shape | Rule::heaps_shape | Rule::pits_shape => {
            "a board's shape: `line N`, `grid COLUMNS x ROWS`, `heaps N` or `pits N per side`"
        }
        Rule::with_stores => "`with stores`",
        Rule::pit_sizes => "`pits` and the counters in each",
        Rule::directions | Rule::direction | Rule::direction_word | Rule::diagonally | Rule::any_direction => {
            "a direction: `forward`, `backward`, `sideways`, `left`, `right`, `orthogonally`, `diagonally`, `diagonally forward` or `in any direction`"
        }
        Rule::target | Rule::target_word | Rule::empty_or_enemy => "`empty`, `enemy`, `own`, `any` or `empty or enemy`",
        Rule::jump_over => "`over` and what is jumped over",
        Rule::travel_opt | Rule::capturing_jump | Rule::chained => "`, capturing` or `, chained`",
        Rule::neighbours => "`and its neighbours` and their directions",
        Rule::cut => "`without` and the cells cut away",
        Rule::from_heap | Rule::adjacent => "`from heap` or `adjacent` and a piece",
        Rule::promote => "`promote`",
        Rule::far_row => "`far row` or a region",
        Rule::where_clause => "`where` and a condition",
        Rule::free => "`free`",
        Rule::states => "`states`",
        Rule::scope | Rule::each_row | Rule::each_column => "`each row`, `each column` or a region",
        Rule::count_kind => "`count` or `run`",
        Rule::distinct | Rule::rows_word | Rule::columns_word => "`rows distinct` or `columns distinct`",
        Rule::capturing => "`capturing flanked lines in N directions`",
        Rule::region => "`region`",
        Rule::cell_ref => "a cell such as `D5` or `3`",
        Rule::heap_sizes => "`heaps` and their sizes",
        Rule::ending => "an ending such as `no moves -> mover wins`",
        Rule::condition
        | Rule::in_a_row
        | Rule::full_board
        | Rule::no_moves
        | Rule::neither_moves
        | Rule::count_cmp => {
            "a condition: `line of K`, `full`, `no moves`, `neither can move`, `rows distinct` or `count(...) > ...`"
        }
        Rule::count => "`count(WHAT)`, `count(WHAT in SCOPE)` or `run(WHAT in SCOPE)`",
        Rule::end_result | Rule::draw_result | Rule::most_result | Rule::who_result => {
            "a result: `mover wins`, `next loses`, `PLAYER wins`, `draw` or `most pieces wins`"
        }
        Rule::who => "`mover`, `next` or a player",
        Rule::test_block => "`test`",
        Rule::test_from | Rule::test_moves | Rule::test_expect => "`from`, `moves` or `expect`",
        Rule::move_text => "a move such as `B2`, `C`, `12-9` or `2:3`",
        Rule::expect_legal | Rule::expect_illegal | Rule::expect_ongoing | Rule::expect_device => {
            "`legal`, `illegal`, `not over`, `device plays` or a result such as `PLAYER wins`"
        }
        Rule::pass_rule => "`pass`",
        Rule::cell_name => "a cell such as `D5`",
        Rule::steps => "a step range such as `1..`",
        Rule::strategy_kind => "`perfect`, `random` or `search`",
        Rule::feature | Rule::lines_feature => {
            "a feature: `pieces`, `mobility`, `empty`, `lines(K of N)` or a region's name"
        }
        Rule::eval => "`eval`",
        Rule::event => "an event",
        Rule::response => "`tune` or `animate`",
        Rule::extend | Rule::commit => "`extend` or `commit`",
        Rule::EOI => "end of file",

        _ => return None,
    })
}

fn hint_for(expected: &[&str]) -> Option<String> {
    if expected.iter().any(|e| e.contains("note")) {
        return Some("a note is a pitch, a slash and milliseconds: `C5/125`, or `rest/60`".into());
    }
    if expected.contains(&"a pin such as `PA0`") {
        return Some("pins are written as port and bit: `PA0`, `PB3`".into());
    }
    if expected.contains(&"`players`") {
        return Some("a game holds players, first, board, region, pieces, setup, action, pass, end, strategy, eval, controls, feedback, tune and test statements".into());
    }
    if expected.contains(&"`chip`") {
        return Some("a board holds chip, clock (`clock 8 MHz internal` or `external`), budget, display, button, encoder, speaker, serial, tick, eeprom and programmer statements".into());
    }
    None
}

/// A pair's span without the whitespace pest lets a rule swallow at its end.
fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.start() + p.as_str().trim_end().len())
}

fn ident(p: Pair<Rule>) -> Ident {
    Spanned::new(p.as_str().to_string(), span(&p))
}

/// `black at D5`, `white king at B8`.
fn placement(p: Pair<Rule>) -> Placement {
    let mut parts = p.into_inner().peekable();
    let owner = ident(parts.next().unwrap());
    let kind = parts.next_if(|q| q.as_rule() == Rule::ident).map(ident);
    Placement { owner, kind, cells: parts.map(ident).collect() }
}

/// A move form: `place`, `cycle`, `step`/`jump`/`ride`, `sow`, `drop`, `remove` or `slide`.
fn mechanic(m: Pair<Rule>) -> Mechanic {
    match m.as_rule() {
        Rule::place => {
            let mut m = m.into_inner();
            let piece = ident(m.next().unwrap());
            let (mut capturing, mut condition) = (None, Vec::new());
            for part in m {
                if part.as_rule() == Rule::capturing {
                    capturing = Some(int(part.into_inner().next().unwrap()));
                } else {
                    condition.extend(part.into_inner().map(|c| {
                        let sp = span(&c);
                        Spanned::new(self::condition(c.into_inner().next().unwrap()), sp)
                    }));
                }
            }
            Mechanic::Place { piece, capturing, condition }
        }
        Rule::cycle => {
            let (mut free, mut neighbours) = (false, None);
            let mut through = Vec::new();
            for part in m.into_inner() {
                match part.as_rule() {
                    Rule::free => free = true,
                    Rule::neighbours => neighbours = part.into_inner().next().map(directions),
                    _ => through.push(ident(part)),
                }
            }
            Mechanic::Cycle { free, neighbours, through }
        }
        Rule::travel => travel(m),
        Rule::sow => sow(m),
        Rule::drop => Mechanic::Drop { piece: ident(m.into_inner().next().unwrap()) },
        Rule::remove => {
            let mut parts = m.into_inner();
            let (min, max) = steps(parts.next().unwrap());
            let adjacent =
                parts.next().filter(|p| p.as_rule() == Rule::adjacent).map(|p| ident(p.into_inner().next().unwrap()));
            Mechanic::Remove { min, max, adjacent }
        }
        _ => {
            let mut m = m.into_inner();
            let piece = ident(m.next().unwrap());
            let toward = ident(m.next().unwrap());
            let (min, max) = steps(m.next().unwrap());
            let over_empty = m.next().is_some();
            Mechanic::Slide { piece, toward, min, max, over_empty }
        }
    }
}

/// `sow from own pit` and its options, each kept with its span.
fn sow(m: Pair<Rule>) -> Mechanic {
    let (mut into_store, mut again, mut capture, mut skipping_origin) = (None, None, None, None);
    for opt in m.into_inner() {
        let part = opt.into_inner().next().unwrap();
        let sp = span(&part);
        match part.as_rule() {
            Rule::into_store => into_store = Some(sp),
            Rule::again_in_store => again = Some(sp),
            Rule::capture_opposite => capture = Some(Spanned::new(SowCapture::Opposite, sp)),
            Rule::capture_making => {
                let (min, max) = steps(part.into_inner().next().unwrap());
                capture = Some(Spanned::new(SowCapture::Making { min, max }, sp));
            }
            _ => skipping_origin = Some(sp),
        }
    }
    Mechanic::Sow { into_store, again, capture, skipping_origin }
}

/// `[must] step|jump|ride PIECE DIRECTIONS [over TARGET] to TARGET [, capturing] [, chained]`.
fn travel(m: Pair<Rule>) -> Mechanic {
    let mut parts = m.into_inner().peekable();
    let must = parts.next_if(|q| q.as_rule() == Rule::must).is_some();
    let how = parts.next().unwrap();
    let how = Spanned::new(
        match how.as_str() {
            "step" => Travel::Step,
            "jump" => Travel::Jump,
            _ => Travel::Ride,
        },
        span(&how),
    );
    let piece = ident(parts.next().unwrap());
    let directions = directions(parts.next().unwrap());
    let over = parts.next_if(|q| q.as_rule() == Rule::jump_over).map(|o| target(o.into_inner().next().unwrap()));
    let to = target(parts.next().unwrap());
    let (mut capturing, mut chained) = (None, None);
    for opt in parts {
        let o = opt.into_inner().next().unwrap();
        match o.as_rule() {
            Rule::capturing_jump => capturing = Some(span(&o)),
            _ => chained = Some(span(&o)),
        }
    }
    Mechanic::Travel { must, how, piece, directions, over, to, capturing, chained }
}

fn target(p: Pair<Rule>) -> Spanned<Target> {
    let sp = span(&p);
    let t = match p.as_str().split_whitespace().collect::<Vec<_>>().as_slice() {
        ["empty"] => Target::Empty,
        ["enemy"] => Target::Enemy,
        ["own"] => Target::Own,
        ["any"] => Target::Any,
        _ => Target::EmptyOrEnemy,
    };
    Spanned::new(t, sp)
}

fn directions(p: Pair<Rule>) -> Spanned<Vec<Direction>> {
    let sp = span(&p);
    let words = p.into_inner().map(|d| match d.as_str().split_whitespace().collect::<Vec<_>>().as_slice() {
        ["forward"] => Direction::Forward,
        ["backward"] => Direction::Backward,
        ["sideways"] => Direction::Sideways,
        ["left"] => Direction::Left,
        ["right"] => Direction::Right,
        ["orthogonally"] => Direction::Orthogonally,
        ["diagonally"] => Direction::Diagonally,
        ["diagonally", "forward"] => Direction::DiagonallyForward,
        ["diagonally", "backward"] => Direction::DiagonallyBackward,
        _ => Direction::Any,
    });
    Spanned::new(words.collect(), sp)
}

fn int(p: Pair<Rule>) -> Int {
    // The grammar admits only digits; an absurdly long number saturates and is range-checked later.
    Spanned::new(p.as_str().parse().unwrap_or(u32::MAX), span(&p))
}

fn game(p: Pair<Rule>) -> Game {
    let mut inner = p.into_inner();
    let name = ident(inner.next().expect("grammar: game name"));
    let items = inner.map(|item| Spanned::new(game_item(item.clone()), span(&item))).collect();
    Game { name, items }
}

fn game_item(p: Pair<Rule>) -> GameItem {
    let rule = p.as_rule();
    let mut inner = p.into_inner();
    match rule {
        Rule::players => GameItem::Players(inner.map(ident).collect()),
        Rule::states => GameItem::States(inner.map(ident).collect()),
        Rule::first => GameItem::First(ident(inner.next().unwrap())),
        Rule::board_shape => GameItem::Board(board_shape(inner.next().unwrap())),
        Rule::region => {
            let name = ident(inner.next().unwrap());
            GameItem::Region { name, cells: inner.map(ident).collect() }
        }
        Rule::pieces => {
            let kind = ident(inner.next().unwrap());
            let (mut kinds, mut supply) = (Vec::new(), Supply::Counters);
            for part in inner {
                match part.as_rule() {
                    Rule::ident => kinds.push(ident(part)),
                    Rule::int => supply = Supply::Shared(int(part)),
                    _ => supply = Supply::PerPlayer,
                }
            }
            GameItem::Pieces { kind, kinds, supply }
        }
        Rule::promote => {
            let (from, to) = (ident(inner.next().unwrap()), ident(inner.next().unwrap()));
            let on = inner.next().filter(|p| p.as_rule() == Rule::ident).map(ident);
            GameItem::Promote { from, to, on }
        }
        Rule::pass_rule => GameItem::Pass,
        Rule::setup => setup(inner),
        Rule::action => {
            let name = ident(inner.next().unwrap());
            GameItem::Action { name, mechanic: mechanic(inner.next().unwrap()) }
        }
        Rule::end_rule => GameItem::End(inner.map(ending).collect()),
        Rule::strategy => strategy(inner),
        Rule::eval => GameItem::Eval(inner.map(eval_case).collect()),
        Rule::controls => GameItem::Controls(inner.map(|c| Spanned::new(control_item(c.clone()), span(&c))).collect()),
        Rule::feedback => GameItem::Feedback(inner.map(|f| Spanned::new(feedback_item(f.clone()), span(&f))).collect()),
        Rule::serial_controls => GameItem::SerialControls(inner.map(command).collect()),
        Rule::serial_feedback => {
            GameItem::SerialFeedback(inner.map(|f| Spanned::new(serial_feedback_item(f.clone()), span(&f))).collect())
        }
        Rule::tune => {
            let name = ident(inner.next().unwrap());
            GameItem::Tune { name, notes: inner.map(note).collect() }
        }
        Rule::test_block => GameItem::Test(test(inner)),
        Rule::cards => GameItem::Cards(inner.map(attribute).collect()),
        Rule::card_table => {
            let capacity = int(inner.next().unwrap());
            GameItem::Table { capacity, rows: int(inner.next().unwrap()), cols: int(inner.next().unwrap()) }
        }
        Rule::group => {
            let name = ident(inner.next().unwrap());
            let size = int(inner.next().unwrap());
            GameItem::Group { name, size, rules: inner.map(group_rule).collect() }
        }
        Rule::font => GameItem::Font(inner.map(glyph).collect()),
        other => unreachable!("grammar: unexpected game item {other:?}"),
    }
}

/// `board line N`, `board heaps N`, `board pits N per side [with stores]`, `board grid C x R
/// [without ...]`.
fn board_shape(shape: Pair<Rule>) -> BoardShape {
    let rule = shape.as_rule();
    let mut s = shape.into_inner();
    match rule {
        Rule::line_shape => {
            let cells = int(s.next().unwrap());
            let numbered_from = s.next().map(|n| ident(n.into_inner().next().unwrap()));
            BoardShape::Line { cells, numbered_from }
        }
        Rule::heaps_shape => BoardShape::Heaps { heaps: int(s.next().unwrap()) },
        Rule::pits_shape => {
            let per_side = int(s.next().unwrap());
            BoardShape::Pits { per_side, stores: s.next().is_some() }
        }
        _ => {
            let (cols, rows) = (int(s.next().unwrap()), int(s.next().unwrap()));
            let cut = s.next().map(|c| c.into_inner().map(ident).collect()).unwrap_or_default();
            BoardShape::Grid { cols, rows, cut }
        }
    }
}

/// `setup fixed { ... }` or `setup random { require ... }`.
fn setup(mut inner: Pairs<Rule>) -> GameItem {
    let first = inner.next().unwrap();
    if first.as_rule() == Rule::fixed_setup {
        let span = span(&first);
        let (mut placements, mut heaps, mut name, mut pits) = (Vec::new(), Vec::new(), None, None);
        for item in first.into_inner() {
            if item.as_rule() == Rule::heap_sizes {
                heaps.extend(item.into_inner().map(int));
            } else if item.as_rule() == Rule::pit_sizes {
                pits = item.into_inner().next().map(int);
            } else if item.as_rule() == Rule::string {
                name = Some(string(item));
            } else {
                placements.push(placement(item));
            }
        }
        return GameItem::FixedSetup { name, placements, heaps, pits, span };
    }
    let kind = ident(first);
    let requires = inner.map(|r| Spanned::new(require(r.clone()), span(&r))).collect();
    GameItem::Setup { kind, requires }
}

/// `strategy PLAYER = KIND[, ties ...][, deepening][, order by eval]`.
fn strategy(mut inner: Pairs<Rule>) -> GameItem {
    let player = ident(inner.next().unwrap());
    let kind = ident(inner.next().unwrap());
    let (mut ties, mut deepening, mut order_by_eval) = (None, false, false);
    for opt in inner {
        match opt.as_rule() {
            Rule::ties => ties = Some(ident(opt.into_inner().next().unwrap())),
            _ => match opt.into_inner().next().unwrap().as_rule() {
                Rule::deepening => deepening = true,
                _ => order_by_eval = true,
            },
        }
    }
    GameItem::Strategy { player, kind, ties, deepening, order_by_eval }
}

/// A tune's note: `C5/100`.
fn note(n: Pair<Rule>) -> Spanned<Note> {
    let sp = span(&n);
    let mut n = n.into_inner();
    let pitch = n.next().unwrap();
    let pitch = Spanned::new(pitch.as_str().to_string(), span(&pitch));
    Spanned::new(Note { pitch, millis: int(n.next().unwrap()) }, sp)
}

/// A card attribute: `NAME { VALUE, ... } bits HI..LO`.
fn attribute(a: Pair<Rule>) -> Attribute {
    let sp = span(&a);
    let mut parts: Vec<Pair<Rule>> = a.into_inner().collect();
    let lo = int(parts.pop().unwrap());
    let hi = int(parts.pop().unwrap());
    let mut parts = parts.into_iter();
    let name = ident(parts.next().unwrap());
    Attribute { name, values: parts.map(ident).collect(), bits: (hi, lo), span: sp }
}

/// A group's rule: an attribute (or every one) all the same, all different, or either.
fn group_rule(r: Pair<Rule>) -> Spanned<GroupRule> {
    let sp = span(&r);
    let mut r = r.into_inner();
    let who = r.next().unwrap();
    let attribute = (who.as_rule() != Rule::every_attribute).then(|| ident(who));
    let relation = match r.next().unwrap().into_inner().next().unwrap().as_rule() {
        Rule::all_same => Relation::AllSame,
        Rule::all_different => Relation::AllDifferent,
        _ => Relation::SameOrDifferent,
    };
    Spanned::new(GroupRule { attribute, relation }, sp)
}

/// A font's glyph: its name and its rows.
fn glyph(g: Pair<Rule>) -> Glyph {
    let sp = span(&g);
    let mut g = g.into_inner();
    let name = string(g.next().unwrap());
    Glyph { name, rows: g.map(string).collect(), span: sp }
}

fn cmp_op(p: &Pair<Rule>) -> CmpOp {
    match p.as_str() {
        ">=" => CmpOp::Ge,
        "<=" => CmpOp::Le,
        "==" => CmpOp::Eq,
        "!=" => CmpOp::Ne,
        ">" => CmpOp::Gt,
        _ => CmpOp::Lt,
    }
}

fn eval_case(p: Pair<Rule>) -> EvalCase {
    let sp = span(&p);
    let mut inner = p.into_inner();
    let head = inner.next().unwrap();
    let when = (head.as_rule() == Rule::eval_when).then(|| {
        let mut w = head.into_inner();
        let feature = feature_ref(w.next().unwrap());
        let op = w.next().unwrap();
        let op = Spanned::new(cmp_op(&op), span(&op));
        (feature, op, int(w.next().unwrap()))
    });
    let mut terms = Vec::new();
    let mut negative = false;
    for part in inner.next().unwrap().into_inner() {
        match part.as_rule() {
            Rule::sign => negative = part.as_str() == "-",
            _ => {
                let mut t = part.into_inner();
                let first = t.next().unwrap();
                let (weight, feature) = match t.next() {
                    Some(f) => (first.as_str().parse::<i64>().unwrap_or(i64::MAX), feature_ref(f)),
                    None => (1, feature_ref(first)),
                };
                terms.push((if negative { -weight } else { weight }, feature));
                negative = false;
            }
        }
    }
    EvalCase { when, terms, span: sp }
}

fn feature_ref(p: Pair<Rule>) -> FeatureRef {
    if p.as_rule() == Rule::lines_feature {
        let sp = span(&p);
        let mut i = p.into_inner();
        return FeatureRef::Lines { have: int(i.next().unwrap()), of: int(i.next().unwrap()), span: sp };
    }
    FeatureRef::Named(ident(p))
}

fn test(mut inner: pest::iterators::Pairs<Rule>) -> Test {
    let name = string(inner.next().unwrap());
    let (mut from, mut moves, mut expects) = (None, Vec::new(), Vec::new());
    for item in inner {
        let sp = span(&item);
        match item.as_rule() {
            Rule::test_from => {
                let (mut placements, mut heaps, mut to_move) = (Vec::new(), Vec::new(), None);
                for part in item.into_inner() {
                    match part.as_rule() {
                        Rule::heap_sizes => heaps.extend(part.into_inner().map(int)),
                        Rule::placement => {
                            placements.push(placement(part));
                        }
                        _ => to_move = Some(ident(part)),
                    }
                }
                from = Some(TestFrom { placements, heaps, to_move, span: sp });
            }
            Rule::test_moves => moves.extend(item.into_inner().map(ident)),
            _ => {
                let e = item.into_inner().next().unwrap();
                let expect = match e.as_rule() {
                    Rule::expect_legal => Expect::Legal(e.into_inner().map(ident).collect()),
                    Rule::expect_illegal => Expect::Illegal(e.into_inner().map(ident).collect()),
                    Rule::expect_ongoing => Expect::NotOver,
                    Rule::expect_device => Expect::Device(e.into_inner().map(ident).collect()),
                    _ => Expect::Result(end_result(e.into_inner().next().unwrap())),
                };
                expects.push(Spanned::new(expect, sp));
            }
        }
    }
    Test { name, from, moves, expects }
}

/// `1..` is (1, None), `1..3` is (1, Some(3)), and `2` is (2, Some(2)).
fn steps(p: Pair<Rule>) -> (Int, Option<Int>) {
    let mut s = p.into_inner();
    let min = int(s.next().unwrap());
    let max = match s.next() {
        Some(_dots) => s.next().map(int),
        None => Some(min.clone()),
    };
    (min, max)
}

fn ending(p: Pair<Rule>) -> Ending {
    let sp = span(&p);
    let mut conditions = Vec::new();
    let mut result = None;
    for part in p.into_inner() {
        let psp = span(&part);
        if part.as_rule() == Rule::condition {
            conditions.push(Spanned::new(condition(part.into_inner().next().unwrap()), psp));
        } else {
            result = Some(Spanned::new(end_result(part.into_inner().next().unwrap()), psp));
        }
    }
    Ending { conditions, result: result.expect("grammar: an ending has a result"), span: sp }
}

fn condition(c: Pair<Rule>) -> Condition {
    match c.as_rule() {
        Rule::in_a_row => {
            let mut i = c.into_inner();
            Condition::InARow { k: int(i.next().unwrap()), directions: i.next().map(int) }
        }
        Rule::full_board => Condition::Full,
        Rule::no_moves => Condition::NoMoves,
        Rule::neither_moves => Condition::NeitherCanMove,
        Rule::distinct => Condition::Distinct { rows: c.into_inner().next().unwrap().as_rule() == Rule::rows_word },
        _ => {
            let mut i = c.into_inner();
            let lhs = count_expr(i.next().unwrap());
            let op_pair = i.next().unwrap();
            let op = Spanned::new(cmp_op(&op_pair), span(&op_pair));
            let rhs = count_expr(i.next().unwrap());
            Condition::Compare { lhs, op, rhs }
        }
    }
}

fn count_expr(p: Pair<Rule>) -> CountExpr {
    if p.as_rule() == Rule::int {
        return CountExpr::Int(int(p));
    }
    let sp = span(&p);
    let mut i = p.into_inner();
    let run = i.next().unwrap().as_str() == "run";
    let whose = ident(i.next().unwrap());
    let scope = i.next().map(|s| {
        let s = s.into_inner().next().unwrap();
        match s.as_rule() {
            Rule::each_row => ScopeRef::EachRow(span(&s)),
            Rule::each_column => ScopeRef::EachColumn(span(&s)),
            _ => ScopeRef::Region(ident(s)),
        }
    });
    CountExpr::Count { run, whose, scope, span: sp }
}

fn end_result(r: Pair<Rule>) -> EndResult {
    match r.as_rule() {
        Rule::draw_result => EndResult::Draw,
        Rule::most_result => {
            let mut i = r.into_inner();
            let most = i.next().unwrap().as_str() == "most";
            EndResult::Most { most, wins: i.next().unwrap().as_str() == "wins" }
        }
        _ => {
            let mut i = r.into_inner();
            let who = i.next().unwrap();
            // `last mover` is the same player as `mover`.
            let name = if who.as_str().starts_with("last") { "mover".to_string() } else { who.as_str().to_string() };
            let who = Spanned::new(name, span(&who));
            EndResult::Who { who, wins: i.next().unwrap().as_str() == "wins" }
        }
    }
}

fn require(p: Pair<Rule>) -> Require {
    let r = p.into_inner().next().unwrap();
    match r.as_rule() {
        Rule::winnable => Require::Winnable { player: ident(r.into_inner().next().unwrap()) },
        _ => {
            let mut c = r.into_inner();
            let lhs = expr(c.next().unwrap());
            let op_pair = c.next().unwrap();
            let op = cmp_op(&op_pair);
            let rhs = expr(c.next().unwrap());
            Require::Compare { lhs, op: Spanned::new(op, span(&op_pair)), rhs }
        }
    }
}

fn expr(p: Pair<Rule>) -> Expr {
    match p.as_rule() {
        Rule::int => Expr::Int(int(p)),
        _ => {
            let sp = span(&p);
            let mut c = p.into_inner();
            Expr::Call { func: ident(c.next().unwrap()), arg: ident(c.next().unwrap()), span: sp }
        }
    }
}

fn control_item(p: Pair<Rule>) -> ControlItem {
    let rule = p.as_rule();
    let mut inner = p.into_inner();
    if rule == Rule::idle {
        let mut d = inner.next().unwrap().into_inner();
        let n = int(d.next().unwrap());
        let scale = if d.next().unwrap().as_str() == "s" { 1000 } else { 1 };
        let after = Spanned::new(n.node.saturating_mul(scale), n.span);
        return ControlItem::Idle { after, wake: inner.next().map(ident) };
    }
    let mut name = inner.next().unwrap().into_inner();
    let ctl = ident(name.next().unwrap());
    let index = name.next().map(|i| ident(i.into_inner().next().unwrap()));
    let act = inner.next().unwrap();
    let action = match act.as_rule() {
        Rule::commit => ControlAction::Commit,
        Rule::restart => ControlAction::Restart,
        Rule::cursor_move => {
            ControlAction::Cursor { across: act.into_inner().next().unwrap().as_rule() == Rule::across }
        }
        _ => {
            let mut a = act.into_inner();
            let action = ident(a.next().unwrap());
            let piece = ident(a.next().unwrap());
            let index = ident(a.next().unwrap().into_inner().next().unwrap());
            ControlAction::Extend { action, piece, index }
        }
    };
    ControlItem::Bind { name: ctl, index, action }
}

/// `N ms` or `N s`, in milliseconds.
fn duration(p: Pair<Rule>) -> Spanned<u32> {
    let mut d = p.into_inner();
    let n = int(d.next().unwrap());
    let scale = if d.next().unwrap().as_str() == "s" { 1000 } else { 1 };
    Spanned::new(n.node.saturating_mul(scale), n.span)
}

fn two_colours(a: Pair<Rule>, b: Pair<Rule>) -> [Ident; 2] {
    [ident(a), ident(b)]
}

fn feedback_item(p: Pair<Rule>) -> FeedbackItem {
    let rule = p.as_rule();
    let mut inner = p.into_inner();
    match rule {
        Rule::show => {
            let view = ident(inner.next().unwrap());
            let source = inner.next().unwrap();
            if let Some(colours) = source.clone().into_inner().next() {
                let colours = colours
                    .into_inner()
                    .map(|m| {
                        let mut m = m.into_inner();
                        (ident(m.next().unwrap()), ident(m.next().unwrap()))
                    })
                    .collect();
                return FeedbackItem::ShowColours { view, colours };
            }
            return FeedbackItem::Show { view, source: ident(source) };
        }
        Rule::cursor_blink => {
            let blink = duration(inner.next().unwrap());
            return FeedbackItem::Cursor { blink, given: ident(inner.next().unwrap()) };
        }
        Rule::intro => {
            let scenes = inner
                .map(|sc| {
                    let sp = span(&sc);
                    let sc = sc.into_inner().next().unwrap();
                    let rule = sc.as_rule();
                    let mut i = sc.into_inner();
                    let scene = if rule == Rule::scroll_scene {
                        let text = string(i.next().unwrap());
                        let step = duration(i.next().unwrap());
                        Scene::Scroll { text, step, colours: two_colours(i.next().unwrap(), i.next().unwrap()) }
                    } else {
                        let step = duration(i.next().unwrap());
                        Scene::Starburst { step, colours: two_colours(i.next().unwrap(), i.next().unwrap()) }
                    };
                    Spanned::new(scene, sp)
                })
                .collect();
            return FeedbackItem::Intro(scenes);
        }
        _ => {}
    }
    let ev = inner.next().unwrap();
    let ev_span = span(&ev);
    let ev = ev.into_inner().next().unwrap();
    let event = match ev.as_rule() {
        Rule::attract_event => Event::Attract,
        Rule::denied_event => Event::Denied,
        Rule::accepted_event => Event::Accepted,
        Rule::start_event => Event::Start,
        Rule::choosing_event => Event::Choosing,
        _ => Event::Win(ident(ev.into_inner().next().unwrap())),
    };
    let resp = inner.next().unwrap().into_inner().next().unwrap();
    let response = match resp.as_rule() {
        Rule::play_tune => Response::Tune(ident(resp.into_inner().next().unwrap())),
        Rule::blink => Response::Blink(duration(resp.into_inner().next().unwrap())),
        _ => Response::Animate(ident(resp.into_inner().next().unwrap())),
    };
    let flash = inner.next().map(|f| {
        let mut f = f.into_inner();
        (ident(f.next().unwrap()), duration(f.next().unwrap()))
    });
    FeedbackItem::On { event: Spanned::new(event, ev_span), response, flash }
}

/// The text between a string's quotes.
fn string(p: Pair<Rule>) -> Spanned<String> {
    let s = p.as_str();
    Spanned::new(s[1..s.len() - 1].to_string(), span(&p))
}

fn command(p: Pair<Rule>) -> Command {
    let sp = span(&p);
    let mut inner = p.into_inner();
    let word = string(inner.next().unwrap());
    let mut next = inner.next().unwrap();
    let arg = (next.as_rule() == Rule::command_arg).then(|| {
        let a = next.clone().into_inner().next().unwrap();
        let a_span = span(&a);
        let arg = match a.as_rule() {
            Rule::cell_arg => CommandArg::Cell,
            Rule::move_arg => CommandArg::Move,
            Rule::column_arg => CommandArg::Column,
            Rule::side_arg => CommandArg::Side(
                a.into_inner()
                    .map(|c| {
                        let mut c = c.into_inner();
                        (string(c.next().unwrap()), ident(c.next().unwrap()))
                    })
                    .collect(),
            ),
            _ => {
                let mut n = a.into_inner();
                CommandArg::Number { min: int(n.next().unwrap()), max: int(n.next().unwrap()) }
            }
        };
        Spanned::new(arg, a_span)
    });
    if arg.is_some() {
        next = inner.next().unwrap();
    }
    let act = next.into_inner().next().unwrap();
    let act_span = span(&act);
    let action = match act.as_rule() {
        Rule::ping_action => SessionAction::Ping,
        Rule::ack_action => SessionAction::Ack,
        Rule::retry_action => SessionAction::Retry,
        Rule::restart_action => SessionAction::Restart,
        Rule::host_plays => SessionAction::HostPlaysSide,
        Rule::new_game => SessionAction::NewGame,
        Rule::end_game => SessionAction::EndGame,
        Rule::move_time => SessionAction::MoveTime { default: int(act.into_inner().next().unwrap()) },
        Rule::play_action => SessionAction::Play(act.into_inner().next().map(ident)),
        _ => SessionAction::Pass,
    };
    Command { word, arg, action: Spanned::new(action, act_span), span: sp }
}

fn serial_feedback_item(p: Pair<Rule>) -> SerialFeedbackItem {
    let rule = p.as_rule();
    let mut inner = p.into_inner();
    if rule == Rule::board_text {
        return SerialFeedbackItem::BoardText(
            inner
                .map(|g| {
                    let parts: Vec<_> = g.into_inner().collect();
                    let kind = (parts.len() == 3).then(|| ident(parts[1].clone()));
                    (ident(parts[0].clone()), kind, string(parts[parts.len() - 1].clone()))
                })
                .collect(),
        );
    }
    let ev = inner.next().unwrap();
    // The event's words, without the spaces and comments between them.
    let text: String = ev.as_str().lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join(" ");
    let words: Vec<&str> = text.split_whitespace().collect();
    let event = Spanned::new(words.join(" "), span(&ev));
    let items = inner
        .map(|i| {
            let i_span = span(&i);
            let i = i.into_inner().next().unwrap();
            let item = match i.as_rule() {
                Rule::string => SayItem::Text(string(i).node),
                Rule::board_item_ref => SayItem::Board,
                Rule::await_ack => SayItem::Await,
                _ => SayItem::Light(ident(i.into_inner().next().unwrap())),
            };
            Spanned::new(item, i_span)
        })
        .collect();
    SerialFeedbackItem::Say { event, items }
}

fn board(p: Pair<Rule>) -> Board {
    let mut inner = p.into_inner();
    let name = ident(inner.next().unwrap());
    let items = inner.map(|item| Spanned::new(board_item(item.clone()), item_span(&item))).collect();
    Board { name, items }
}

/// A board item's span without the blank lines and comments that an optional ending it lacks
/// (`serial ... baud` without `for`) leaves inside it.
fn item_span(p: &Pair<Rule>) -> Span {
    let mut text = p.as_str();
    loop {
        let t = text.trim_end();
        let line = t.rfind('\n').map_or(0, |i| i + 1);
        match t[line..].find("//") {
            Some(c) if line + c > 0 => text = &t[..line + c],
            _ => {
                text = t;
                break;
            }
        }
    }
    let sp = span(p);
    Span { start: sp.start, end: sp.start + text.len() }
}

/// Whether a `display`'s second part is a matrix (its first is the name).
fn p_is_matrix(inner: &pest::iterators::Pairs<Rule>) -> bool {
    inner.clone().nth(1).is_some_and(|p| p.as_rule() == Rule::matrix)
}

fn board_item(p: Pair<Rule>) -> BoardItem {
    let rule = p.as_rule();
    let mut inner = p.into_inner();
    match rule {
        Rule::chip => BoardItem::Chip(ident(inner.next().unwrap())),
        Rule::clock => BoardItem::Clock {
            value: int(inner.next().unwrap()),
            unit: ident(inner.next().unwrap()),
            source: inner.next().map(ident),
        },
        Rule::budget => BoardItem::Budget(
            inner
                .map(|b| {
                    let mut b = b.into_inner();
                    (ident(b.next().unwrap()), int(b.next().unwrap()))
                })
                .collect(),
        ),
        Rule::display if p_is_matrix(&inner) => {
            let name = ident(inner.next().unwrap());
            let mut m = inner.next().unwrap().into_inner().peekable();
            let pins = |m: &mut std::iter::Peekable<pest::iterators::Pairs<Rule>>| -> Vec<Ident> {
                m.next().unwrap().into_inner().map(ident).collect()
            };
            let rows = pins(&mut m);
            let red = pins(&mut m);
            let green = pins(&mut m);
            let columns_high = m.peek().is_some_and(|p| p.as_rule() == Rule::columns_high);
            if columns_high {
                m.next();
            }
            let refresh = int(m.next().unwrap());
            let refresh_unit = ident(m.next().unwrap());
            let timer = ident(m.next().unwrap());
            BoardItem::Matrix(Matrix { name, rows, red, green, columns_high, refresh, refresh_unit, timer })
        }
        Rule::display => {
            let name = ident(inner.next().unwrap());
            let cp = inner.next().unwrap().into_inner();
            let mut pins = Vec::new();
            let mut rest = Vec::new();
            for c in cp {
                if c.as_rule() == Rule::pin && rest.is_empty() {
                    pins.push(ident(c));
                } else {
                    rest.push(c);
                }
            }
            let mut rest = rest.into_iter();
            let refresh = int(rest.next().unwrap());
            let refresh_unit = ident(rest.next().unwrap());
            let timer = ident(rest.next().unwrap());
            let leds = rest
                .map(|l| {
                    let sp = span(&l);
                    let mut l = l.into_inner();
                    Led {
                        cell: int(l.next().unwrap()),
                        anode: ident(l.next().unwrap()),
                        cathode: ident(l.next().unwrap()),
                        span: sp,
                    }
                })
                .collect();
            BoardItem::Display(Display { name, pins, refresh, refresh_unit, timer, leds })
        }
        Rule::button => {
            let mut cref = inner.next().unwrap().into_inner();
            let control = ident(cref.next().unwrap());
            let index = cref.next().map(int);
            let pin = ident(inner.next().unwrap());
            BoardItem::Button { control, index, pin, pullup: inner.next().is_some() }
        }
        Rule::speaker => BoardItem::Speaker { pin: ident(inner.next().unwrap()), timer: ident(inner.next().unwrap()) },
        Rule::serial_port => {
            let (port, baud) = (ident(inner.next().unwrap()), int(inner.next().unwrap()));
            let (mut role, mut suffix) = (None, Vec::new());
            if let Some(r) = inner.next() {
                let mut r = r.into_inner();
                role = Some(ident(r.next().unwrap()));
                suffix = r
                    .map(|b| {
                        let byte = match b.as_str() {
                            "cr" => 13,
                            "lf" => 10,
                            "tab" => 9,
                            n => n.parse().unwrap_or(u32::MAX),
                        };
                        Spanned::new(byte, span(&b))
                    })
                    .collect();
            }
            BoardItem::Serial { port, baud, role, suffix }
        }
        Rule::tick => BoardItem::Tick(ident(inner.next().unwrap())),
        Rule::led_lamp => {
            let name = ident(inner.next().unwrap());
            let pin = ident(inner.next().unwrap());
            BoardItem::Led { name, pin, active_low: inner.next().is_some() }
        }
        Rule::encoder => {
            let name = ident(inner.next().unwrap());
            BoardItem::Encoder { name, a: ident(inner.next().unwrap()), b: ident(inner.next().unwrap()) }
        }
        Rule::eeprom => {
            let name = ident(inner.next().unwrap());
            let mut pin = || ident(inner.next().unwrap());
            let (cs, sk, di, dout) = (pin(), pin(), pin(), pin());
            BoardItem::Eeprom { name, cs, sk, di, dout }
        }
        Rule::programmer => {
            let name = inner.next().unwrap();
            let name = match name.as_rule() {
                Rule::string => string(name),
                _ => {
                    let id = ident(name);
                    Spanned::new(id.node, id.span)
                }
            };
            BoardItem::Programmer { name, port: inner.next().map(string) }
        }
        other => unreachable!("grammar: unexpected board item {other:?}"),
    }
}
