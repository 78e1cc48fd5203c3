//! Binding a game to a board: every control, view and sound of the game must find hardware
//! on the board, and the board must make sense for its chip. The result is the [`Target`]
//! that code generation renders.

pub mod cards;
pub mod cursor;

use crate::chips::{self, Chip, Timer};
use crate::engine::table::{keyed_table, KeyedTable};
use gamec_dsl::Code;
use gamec_dsl::{BoardDef, ControlAction, Diagnostic, FileId, GameDef, InterfaceDef, Label, Pin, Response, Span};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Largest pitch error a note may have, in cents.
pub const MAX_CENTS: f64 = 10.0;
/// Largest error of the display refresh rate, as a fraction.
const MAX_REFRESH_ERROR: f64 = 0.01;
/// Largest error of a serial line's rate, as a fraction: beyond it the far end misreads bytes.
pub(crate) const MAX_BAUD_ERROR: f64 = 0.02;

/// A game bound to a board, with everything code generation needs computed.
#[derive(Debug, Clone)]
pub struct Target {
    /// Warnings about the pairing, for the caller to show.
    pub warnings: Vec<Diagnostic>,
    pub chip: &'static Chip,
    pub clock_hz: u32,
    pub display: Option<Display>,
    /// Inputs in control order: per-piece controls first, then the commit control.
    pub inputs: Vec<Pin>,
    /// Index into `inputs` of the commit control.
    pub commit: u8,
    pub wake: Option<Pin>,
    pub speaker: Option<Speaker>,
    /// Per game tune: (clock select, top, milliseconds); top 0 is a rest.
    pub tunes: Vec<Vec<(u8, u16, u16)>>,
    pub budget_flash: Option<u32>,
    pub budget_ram: Option<u32>,
    /// The deepest stack allowed, on top of the RAM budget's share of it.
    pub budget_stack: Option<u32>,
    pub serial: Option<Serial>,
    /// The millisecond tick of a game without a display.
    pub tick: Option<Tick>,
    /// Lamps in the order the game's feedback first lights them: pin and active-low.
    pub lamps: Vec<(Pin, bool)>,
    /// The most moves a position of the game can offer (grid games), which bounds the
    /// search's move buffers.
    pub max_moves: usize,
    /// The programmer and its port, where the board file names them (`gamec flash`).
    pub programmer: Option<(String, Option<String>)>,
    /// A game played with a cursor on a matrix.
    pub cursor: Option<cursor::CursorTarget>,
    /// A game of cards on a table fed by a scanner and served on a console.
    pub cards: Option<cards::CardsTarget>,
    /// The firmware plays the game's rule core (`gamec_runtime::rules`), not one of the fast
    /// readings of placements, slides and heaps: what its search's stack takes.
    pub rules_core: Option<CoreStack>,
    /// The solved table of a game on the rule core whose device plays `perfect`.
    pub core_table: Option<Arc<KeyedTable>>,
}

/// The stack a search over a game on the rule core takes on an AVR chip, beside its move
/// lists: bytes a ply (a position copied and made, the negamax's frame) and bytes the rest
/// (the walk's frames as deep as it nests, the main loop, the interrupts). Fitted to the
/// bounds `gamec build` reads from a 36-cell duel's machine code on the ATmega128 (5,126 B at 21
/// plies of 60 moves, 4,807 B at 9 of 255, walks 5 deep), with room; a Cortex-M's frames
/// are larger, and its RAM larger still.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoreStack {
    pub ply: u32,
    pub rest: u32,
}

impl CoreStack {
    fn of(game: &GameDef) -> CoreStack {
        let engine = crate::engine::Engine::new(game);
        let cells = engine.fixed_start(game).cells.len() as u32;
        let nesting = engine.with_game(|g| gamec_runtime::rules::run_nesting(g.rules.actions)).unwrap_or(1);
        CoreStack { ply: 80 + cells, rest: 450 + 220 * nesting }
    }
}

#[derive(Debug, Clone)]
pub struct Serial {
    /// The baud-rate register's value: UBRR on an AVR (with U2X doubling the speed), BRR on a
    /// Cortex-M's USART.
    pub ubrr: u16,
    pub u2x: bool,
    pub rx_vector: &'static str,
    /// The glue's name of the port (`Usart1`), for chips with several.
    pub glue: &'static str,
}

#[derive(Debug, Clone)]
pub struct Tick {
    pub clock: u8,
    pub top: u16,
    pub vector: &'static str,
}

#[derive(Debug, Clone)]
pub struct Display {
    pub port: char,
    pub pins: u8,
    /// Per cathode pin: its mask and the (cell index, anode mask) of its LEDs.
    pub rows: Vec<(u8, Vec<(u8, u8)>)>,
    pub timer: &'static Timer,
    pub tick_clock: u8,
    pub tick_top: u16,
    /// How far each tick advances the firmware's millisecond count, whole milliseconds and a
    /// fraction `(whole, num, den)`, so that time is right at any refresh rate.
    pub tick_millis: (u16, u16, u16),
    pub tick_vector: &'static str,
}

#[derive(Debug, Clone)]
pub struct Speaker {
    pub timer: &'static Timer,
    pub channel: char,
    pub pin: Pin,
}

impl Target {
    /// A target on `board`'s chip, clock and budgets with nothing else bound: what a
    /// frontend's binding fills in.
    fn bare(chip: &'static Chip, board: &BoardDef) -> Target {
        Target {
            warnings: Vec::new(),
            chip,
            clock_hz: board.clock_hz,
            display: None,
            inputs: Vec::new(),
            commit: 0,
            wake: None,
            speaker: None,
            tunes: Vec::new(),
            budget_flash: board.budget.flash.as_ref().map(|b| b.node),
            budget_ram: board.budget.ram.as_ref().map(|b| b.node),
            budget_stack: board.budget.stack.as_ref().map(|b| b.node),
            serial: None,
            tick: None,
            lamps: Vec::new(),
            max_moves: 0,
            programmer: board
                .programmer
                .as_ref()
                .map(|p| (p.name.node.clone(), p.port.as_ref().map(|s| s.node.clone()))),
            cursor: None,
            cards: None,
            rules_core: None,
            core_table: None,
        }
    }
}

impl Target {
    /// Whether the firmware is the line app over slides, whose win table the line games'
    /// own solver (`analyze::Analysis`) makes; any other firmware carries its rules in its
    /// own module. The build and the fuzz target that holds it to `check` ask here alike.
    pub fn plays_slides(&self, game: &GameDef) -> bool {
        game.rules.line().is_some() && game.cards.is_none() && self.rules_core.is_none() && self.cursor.is_none()
    }
}

struct Ctx {
    game_file: FileId,
    board_file: FileId,
    diags: Vec<Diagnostic>,
}

impl Ctx {
    fn board_err(
        &mut self,
        code: Code,
        span: Span,
        msg: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.diags.push(
            Diagnostic::error(code, msg).with_label(Label::primary(self.board_file, span, label)).with_help(help),
        );
    }
}

pub fn bind(
    game: &GameDef,
    game_file: FileId,
    board: &BoardDef,
    board_file: FileId,
) -> Result<Target, Vec<Diagnostic>> {
    let mut ctx = Ctx { game_file, board_file, diags: Vec::new() };
    let Some(chip) = check_chip(&mut ctx, board) else {
        return Err(ctx.diags);
    };
    // A frontend's target, with the warnings its binding gave, unless it gave errors.
    let finish = |ctx: Ctx, target: Option<Target>| match target {
        Some(t) if !ctx.diags.iter().any(Diagnostic::is_error) => Ok(Target { warnings: ctx.diags, ..t }),
        _ => Err(ctx.diags),
    };
    if game.cards.is_some() {
        let target = cards::bind(&mut ctx, board, chip);
        return finish(ctx, target);
    }
    if cursor::uses_cursor(game) && board.matrix.is_some() {
        let target = cursor::bind(&mut ctx, game, board, chip);
        return finish(ctx, target);
    }
    // A game with several interfaces: a board with a serial port plays the serial one, and so
    // does a board with neither port nor matrix when the other interface is the cursor's (so
    // the missing port is what the diagnostics speak of).
    let serial_only;
    let cursor_only =
        !game.interface.controls.is_empty()
            && game.interface.controls.iter().all(|c| {
                matches!(c.action, ControlAction::Cursor { .. } | ControlAction::Commit | ControlAction::Restart)
            })
            && cursor::uses_cursor(game);
    let use_serial = game.interface.serial.is_some() && (board.serial.is_some() || cursor_only);
    let game = if use_serial && !game.interface.controls.is_empty() {
        let interface = InterfaceDef {
            controls: Vec::new(),
            idle: None,
            views: Vec::new(),
            events: Vec::new(),
            cursor: None,
            intro: Vec::new(),
            ..game.interface.clone()
        };
        serial_only = GameDef { interface, ..game.clone() };
        &serial_only
    } else if game.interface.serial.is_some() && !use_serial && !game.interface.controls.is_empty() {
        // Buttons on a board without a serial port: the serial interface is another board's.
        serial_only = GameDef { interface: InterfaceDef { serial: None, ..game.interface.clone() }, ..game.clone() };
        &serial_only
    } else {
        game
    };
    check_frontend(&mut ctx, game, board);
    let display = bind_display(&mut ctx, game, board, chip);
    let (inputs, commit, wake) = bind_buttons(&mut ctx, game, board, chip);
    let speaker = bind_speaker(&mut ctx, game, board, chip);
    let tunes = speaker.as_ref().map(|s| tune_divisors(&mut ctx, game, board, s)).unwrap_or_default();
    let serial = bind_serial(&mut ctx, game, board, chip);
    // A Cortex-M counts milliseconds on its SysTick; an AVR on a timer the board names.
    let systick = matches!(chip.arch, chips::Arch::CortexM(_));
    // A board for a serial game ticks for its session, on the timer the session's glue uses.
    let session = board.serial.is_some() || game.interface.serial.is_some();
    let tick = if display.is_none() && !systick { bind_tick(&mut ctx, board, chip, session) } else { None };
    let lamps = bind_lamps(&mut ctx, game, board);

    let core = (serial.is_some() && on_the_rule_core(game)) || buttons_on_the_core(game);
    let rules_core = core.then(|| CoreStack::of(game));
    let max_moves = if rules_core.is_some() { bind_core_moves(&mut ctx, game) } else { max_moves(game) };
    let core_table = rules_core.and_then(|_| bind_core_table(&mut ctx, game));
    if ctx.diags.iter().any(Diagnostic::is_error) {
        return Err(ctx.diags);
    }
    Ok(Target {
        warnings: ctx.diags,
        display,
        inputs,
        commit,
        wake,
        speaker,
        tunes,
        serial,
        tick,
        lamps,
        max_moves,
        rules_core,
        core_table,
        ..Target::bare(chip, board)
    })
}

/// The solved table of a game on the rule core whose device plays `perfect` (none for any
/// other strategy), or, where it does not fit, the refusal with its figures.
fn bind_core_table(ctx: &mut Ctx, game: &GameDef) -> Option<Arc<KeyedTable>> {
    let strategy = game.device.strategy.as_ref().filter(|s| s.kind == gamec_dsl::StrategyKind::Perfect)?;
    let engine = crate::engine::Engine::new(game);
    let why = match keyed_table(&engine, &crate::analyze::dealt_starts(&engine, game)) {
        Ok(table) => return Some(Arc::new(table)),
        Err(why) => why,
    };
    let d = Diagnostic::error(Code::E0122, format!("the solved table does not fit: {why}"))
        .with_help("`search` plays without a table; `gamec analyze` counts the positions")
        .with_label(Label::primary(ctx.game_file, strategy.span, "a solved table"));
    ctx.diags.push(d);
    None
}

/// The most cells a solved grid game's table covers (3^10 positions, 14,763 bytes). Bound
/// here, where a game is refused past it, and read by the code generator that writes the
/// table: bind never imports codegen.
pub const MAX_SOLVED_CELLS: u32 = 10;

/// Checks a board on its own: its chip, pins and timers.
pub fn check_board(board: &BoardDef, board_file: FileId) -> Vec<Diagnostic> {
    let mut ctx = Ctx { game_file: board_file, board_file, diags: Vec::new() };
    check_chip(&mut ctx, board);
    ctx.diags
}

/// The board's chip, with its pins and timers checked; `None` if gamec does not know it.
fn check_chip(ctx: &mut Ctx, board: &BoardDef) -> Option<&'static Chip> {
    let Some(chip) = chips::find(&board.chip.node) else {
        let known: Vec<&str> = chips::CHIPS.iter().map(|c| c.name).collect();
        ctx.board_err(
            Code::E0101,
            board.chip.span,
            format!("unknown chip `{}`", board.chip.node),
            "not a chip gamec knows",
            format!("the chips gamec knows are: {}", known.join(", ")),
        );
        return None;
    };
    check_pins(ctx, board, chip);
    check_timers(ctx, board);
    check_clock(ctx, board, chip);
    Some(chip)
}

/// A chip whose glue runs it from a PLL runs at the PLL's output over a divider of 4 to 16:
/// any other clock the board names would be a clock the firmware never runs at.
fn check_clock(ctx: &mut Ctx, board: &BoardDef, chip: &'static Chip) {
    let chips::Arch::CortexM(chips::CortexM { pll_hz: Some(pll), .. }) = chip.arch else { return };
    if (4..=16).any(|n| pll / n * n == pll && pll / n == board.clock_hz) {
        return;
    }
    let made: Vec<String> =
        (4..=16u32).filter(|n| pll % n == 0).map(|n| format!("{} MHz", f64::from(pll / n) / 1e6)).collect();
    ctx.board_err(
        Code::E0121,
        board.clock_span,
        format!("the {}'s glue runs it at its PLL's {} MHz over a divider of 4 to 16", chip.name, pll / 1_000_000),
        "a clock it does not make",
        format!("the clocks it makes are {}", made.join(", ")),
    );
}

/// Every pin named on the board, with the device that claims it.
fn claimed_pins(board: &BoardDef) -> Vec<(Pin, Span, String)> {
    let mut out = Vec::new();
    for d in &board.displays {
        for p in &d.pins {
            out.push((p.node, p.span, format!("display `{}`", d.name.node)));
        }
    }
    for b in &board.buttons {
        let name = match b.index {
            Some(i) => format!("button `{}[{i}]`", b.control.node),
            None => format!("button `{}`", b.control.node),
        };
        out.push((b.pin.node, b.pin.span, name));
    }
    if let Some(s) = &board.speaker {
        out.push((s.pin.node, s.pin.span, "the speaker".to_string()));
    }
    for l in &board.leds {
        out.push((l.pin.node, l.pin.span, format!("led `{}`", l.name.node)));
    }
    if let Some(m) = &board.matrix {
        for p in m.rows.iter().chain(&m.red).chain(&m.green) {
            out.push((p.node, p.span, format!("display `{}`", m.name.node)));
        }
    }
    for e in &board.encoders {
        for p in [&e.a, &e.b] {
            out.push((p.node, p.span, format!("encoder `{}`", e.name.node)));
        }
    }
    if let Some(e) = &board.eeprom {
        for p in [&e.cs, &e.sk, &e.di, &e.dout] {
            out.push((p.node, p.span, format!("eeprom `{}`", e.name.node)));
        }
    }
    out
}

fn check_pins(ctx: &mut Ctx, board: &BoardDef, chip: &Chip) {
    let mut pins = claimed_pins(board);
    // A serial port's pins are the chip's; they count as claimed by the port.
    for s in board.serial.iter().chain(&board.serial_roles) {
        if let Some((rx, tx)) = chip.serial_port(&s.port.node).and_then(|p| p.pins) {
            for (port, bit) in [rx, tx] {
                pins.insert(0, (Pin { port, bit }, s.span, "the serial port".to_string()));
            }
        }
    }
    let mut first: BTreeMap<Pin, (Span, String)> = BTreeMap::new();
    for (pin, span, who) in pins {
        if !chip.has_pin(pin.port, pin.bit) {
            let ports: Vec<String> =
                chip.ports.iter().map(|(p, bits)| format!("P{p}0-P{p}{}", 7 - bits.leading_zeros())).collect();
            ctx.board_err(
                Code::E0102,
                span,
                format!("the {} has no pin {pin}", chip.name),
                "no such pin",
                format!("its pins are {}", ports.join(", ")),
            );
            continue;
        }
        if let Some((_, _, what)) = chip.reserved.iter().find(|(p, b, _)| *p == pin.port && *b == pin.bit) {
            ctx.board_err(
                Code::E0102,
                span,
                format!("{pin} is the {}'s {what} pin", chip.name),
                "reserved",
                "pick a general-purpose pin",
            );
        }
        match first.get(&pin) {
            Some((prev, prev_who)) => {
                let d = Diagnostic::error(Code::E0103, format!("pin {pin} is used twice"))
                    .with_label(Label::primary(ctx.board_file, span, format!("used by {who}")))
                    .with_label(Label::secondary(ctx.board_file, *prev, format!("already used by {prev_who}")))
                    .with_help("give each device its own pin");
                ctx.diags.push(d);
            }
            None => {
                first.insert(pin, (span, who));
            }
        }
    }
}

fn check_timers(ctx: &mut Ctx, board: &BoardDef) {
    let mut claims: Vec<(&gamec_dsl::ast::Ident, &str)> = Vec::new();
    for d in &board.displays {
        claims.push((&d.timer, "the display"));
    }
    if let Some(m) = &board.matrix {
        claims.push((&m.timer, "the display"));
    }
    if let Some(s) = &board.speaker {
        claims.push((&s.timer, "the speaker"));
    }
    if let Some(t) = &board.tick {
        claims.push((t, "the tick"));
    }
    for (i, (t, who)) in claims.iter().enumerate() {
        if let Some((prev, prev_who)) = claims[..i].iter().find(|(p, _)| p.node == t.node) {
            let d = Diagnostic::error(Code::E0104, format!("{} is claimed by two devices", t.node))
                .with_label(Label::primary(ctx.board_file, t.span, format!("claimed by {who}")))
                .with_label(Label::secondary(ctx.board_file, prev.span, format!("already claimed by {prev_who}")))
                .with_help("give each device its own timer");
            ctx.diags.push(d);
        }
    }
}

fn bind_display(ctx: &mut Ctx, game: &GameDef, board: &BoardDef, chip: &'static Chip) -> Option<Display> {
    let view = game.interface.views.first()?;
    let Some(d) = board.displays.iter().find(|d| d.name.node == view.name.node) else {
        let d = Diagnostic::error(
            Code::E0105,
            format!("the game shows `{}` but the board has no display of that name", view.name.node),
        )
        .with_label(Label::primary(ctx.game_file, view.name.span, "shown here"))
        .with_label(Label::secondary(ctx.board_file, board.name.span, "this board"))
        .with_help(format!("add `display {} = charlieplex ...` to the board", view.name.node));
        ctx.diags.push(d);
        return None;
    };
    if d.leds.len() as u32 != game.rules.lights() {
        ctx.board_err(
            Code::E0109,
            d.name.span,
            format!(
                "display `{}` has {} LEDs but the game shows {} (a cell or a counter each)",
                d.name.node,
                d.leds.len(),
                game.rules.lights()
            ),
            "LED count",
            format!("give one LED per cell or counter, numbered 1 to {}", game.rules.lights()),
        );
    }
    let port = d.pins[0].node.port;
    if let Some(p) = d.pins.iter().find(|p| p.node.port != port) {
        ctx.board_err(
            Code::E0111,
            p.span,
            "a charlieplexed display must sit on one port",
            format!("not on port {port}"),
            format!("use pins of port {port} only"),
        );
        return None;
    }
    // The tick interrupt fires once per refresh; one row is shown per tick.
    let PeriodicTick { timer, clock, top, tick_millis, vector } =
        periodic_tick(ctx, chip, board.clock_hz, (&d.timer, chip.tick_vectors), d.refresh_hz, d.span)?;
    let mask = |p: Pin| 1u8 << p.bit;
    let mut rows: Vec<(u8, Vec<(u8, u8)>)> = Vec::new();
    for l in &d.leds {
        let cat = mask(l.cathode);
        let cell = (l.cell - 1) as u8;
        match rows.iter_mut().find(|(c, _)| *c == cat) {
            Some((_, leds)) => leds.push((cell, mask(l.anode))),
            None => rows.push((cat, vec![(cell, mask(l.anode))])),
        }
    }
    rows.sort_by_key(|(c, _)| *c);
    let pins = d.pins.iter().fold(0u8, |m, p| m | mask(p.node));
    Some(Display { port, pins, rows, timer, tick_clock: clock, tick_top: top, tick_millis, tick_vector: vector })
}

/// A periodic tick (a display's refresh, or a serial board's millisecond): its timer, clock
/// select and compare value, how far it advances the millisecond count, and its interrupt.
struct PeriodicTick {
    pub timer: &'static Timer,
    pub clock: u8,
    pub top: u16,
    pub tick_millis: (u16, u16, u16),
    pub vector: &'static str,
}

/// The tick `refresh_hz` times a second from `timer`: a timer with a tick interrupt that
/// divides the clock down to within 1% of the rate, one of those the glue ticks on (`ticks`,
/// the chip's `tick_vectors`, or its `session_tick` for a serial session).
fn periodic_tick(
    ctx: &mut Ctx,
    chip: &'static Chip,
    clock_hz: u32,
    (timer, ticks): (&gamec_dsl::ast::Ident, &[(&str, &'static str)]),
    refresh_hz: u32,
    span: Span,
) -> Option<PeriodicTick> {
    let Some(t) = chip.timer(&timer.node) else {
        unknown_timer(ctx, chip, timer);
        return None;
    };
    let Some(&(_, vector)) = ticks.iter().find(|(n, _)| *n == t.name) else {
        let can: Vec<&str> = ticks.iter().map(|(n, _)| *n).collect();
        ctx.board_err(
            Code::E0108,
            timer.span,
            format!("{} cannot drive a tick on the {}", t.name, chip.name),
            "no tick interrupt",
            format!("use {}", can.join(" or ")),
        );
        return None;
    };
    let hz = refresh_hz as f64;
    let Some((clock, top, _)) =
        chips::nearest_divisor(clock_hz, t, hz, 1.0).filter(|(_, _, a)| (a / hz - 1.0).abs() <= MAX_REFRESH_ERROR)
    else {
        ctx.board_err(
            Code::E0111,
            span,
            format!("{} cannot tick at {refresh_hz} Hz from a {clock_hz} Hz clock", t.name),
            "refresh rate",
            "pick a refresh rate the timer can divide the clock down to within 1%",
        );
        return None;
    };
    let tick_millis = chips::millis_per_tick(clock_hz, t.prescalers[clock as usize - 1], top);
    Some(PeriodicTick { timer: t, clock, top, tick_millis, vector })
}

/// The game must have a way to be played that the board serves: buttons and lights, a serial
/// line (or a cursor, bound in [`cursor`]). Every chip's glue serves each of them.
fn check_frontend(ctx: &mut Ctx, game: &GameDef, board: &BoardDef) {
    let label = |ctx: &mut Ctx, code: Code, msg: String, help: &str| {
        let d = Diagnostic::error(code, msg)
            .with_label(Label::primary(ctx.game_file, game.name.span, "this game"))
            .with_label(Label::secondary(ctx.board_file, board.name.span, "on this board"))
            .with_help(help.to_string());
        ctx.diags.push(d);
    };
    let refuse = |ctx: &mut Ctx, why: String| {
        let d = Diagnostic::error(Code::E0118, why)
            .with_label(Label::primary(ctx.game_file, game.name.span, "this game"))
            .with_help("play it over a serial line (`controls serial`) or with a cursor on a bicolour matrix");
        ctx.diags.push(d);
    };
    if buttons_game(game) {
        // A line of slides has its own reading, heaps of removals the heaps app; everything
        // else is played on the rule core.
        if let Some(why) = (!own_buttons_app(game)).then(|| unshown_on_lights(game)).flatten() {
            refuse(ctx, why);
        }
        return;
    }
    // A serial game is played by the placements' fast reading where it covers the rules, else
    // on the rule core, which plays every game.
    match &game.interface.serial {
        None if game.interface.controls.is_empty() => label(
            ctx,
            Code::E0119,
            "the game has no controls to build firmware for".into(),
            "add `controls { ... }` with the buttons that make a move, or `controls serial { ... }`",
        ),
        None => label(
            ctx,
            Code::E0105,
            "a game with a cursor is played on a board with a `matrix` display".into(),
            "build it for a board with a matrix, or give the game buttons or `controls serial { ... }`",
        ),
        Some(_) => {}
    }
}

/// A game played with buttons and lights: `controls` of buttons (no cursor), no serial line.
fn buttons_game(game: &GameDef) -> bool {
    game.interface.serial.is_none() && !game.interface.controls.is_empty() && !cursor::uses_cursor(game)
}

/// A line game of slides of shared pieces, which the line firmware reads by its own tables.
fn own_line_reading(game: &GameDef) -> bool {
    crate::rules::Rules::new(game).is_some() && game.rules.fixed_shared().is_empty()
}

/// A game of buttons and lights that an app of its own plays: slides on a line by the line
/// firmware's reading, heaps by the heaps app.
fn own_buttons_app(game: &GameDef) -> bool {
    match game.rules.heaps() {
        Some(_) => heaps_firmware_gap(game).is_none(),
        None => own_line_reading(game),
    }
}

/// A game of buttons and lights played on the rule core: one that no app of its own plays.
pub fn buttons_on_the_core(game: &GameDef) -> bool {
    buttons_game(game) && !own_buttons_app(game) && unshown_on_lights(game).is_none()
}

/// The most lights a display of buttons and lights drives: a charlieplex on one port of eight
/// pins, 8 x 7 LEDs (the rule core's lights are a 64-bit word, room for them all).
const MAX_LIGHTS: u32 = 56;

/// Why one-colour lights cannot show a game's position, if they cannot (E0118): a light shows
/// whether its cell holds anything, so every cell must hold one thing or nothing.
fn unshown_on_lights(game: &GameDef) -> Option<String> {
    if game.rules.lights() > MAX_LIGHTS {
        return Some(format!(
            "the game shows {} lights, more than the {MAX_LIGHTS} a charlieplexed display on one port drives",
            game.rules.lights()
        ));
    }
    // A heap's lights show its counts up to its start; sowing grows a pit past its start.
    if game.rules.heaps().is_some() {
        return game
            .rules
            .moves
            .iter()
            .any(|m| matches!(m.kind, gamec_dsl::MoveKind::Sow(_)))
            .then(|| "a pit's lights show the counters it starts with, and sowing adds more".to_string());
    }
    let kinds = game.rules.piece.kinds.len().max(1);
    let contents = match game.rules.piece.per_player {
        true => game.rules.players.len() * kinds,
        false => kinds,
    } + game.rules.states.len();
    (contents > 1).then(|| {
        format!(
            "a light shows whether its cell holds anything, and this game's cells hold {contents} things \
             (pieces of each player and kind, and states)"
        )
    })
}

/// A group of wake pins as a board names them: `PA0-PA7` for a port's pins, `PD2` for one.
fn wake_pins_named(w: &chips::WakePin) -> String {
    let (lo, hi) = (w.mask.trailing_zeros(), 7 - w.mask.leading_zeros());
    match lo == hi {
        true => format!("P{}{lo}", w.port),
        false => format!("P{}{lo}-P{}{hi}", w.port, w.port),
    }
}

/// A bound on the moves of any position: a drop per column, a placement per empty cell (the
/// start has the most: pieces are only ever added).
fn max_moves(game: &GameDef) -> usize {
    use gamec_dsl::MoveKind;
    let Some(g) = game.rules.grid() else { return 0 };
    let placed: usize = game.rules.fixed_pieces().iter().map(|(_, cells)| cells.len()).sum();
    let empty = (g.cols * g.rows) as usize - placed;
    let drops = game.rules.moves.iter().any(|m| m.kind == MoveKind::Drop);
    let places = game.rules.moves.iter().any(|m| matches!(m.kind, MoveKind::Place { .. }));
    // Several actions offer the same cells at most once each: the legal set is their union.
    match (places, drops) {
        (true, _) => empty,
        (false, true) => g.cols as usize,
        (false, false) => 0,
    }
}

/// Why the heaps firmware (the line games' machinery, a heap a run of lights) cannot play a
/// game, if it cannot.
fn heaps_firmware_gap(game: &GameDef) -> Option<String> {
    use crate::rules::EndDef;
    use gamec_dsl::MoveKind;
    if !matches!(EndDef::of(&game.rules.endings), Some(EndDef::NoMoves { .. })) {
        return Some("heap games end when the player to move has no move (`no moves -> ...`)".into());
    }
    if game.rules.pass {
        return Some("heap games do not pass".into());
    }
    if let Some(m) = game.rules.moves.iter().find(|m| !matches!(m.kind, MoveKind::Remove { .. })) {
        return Some(format!("the action `{}` is not a removal", m.name.node));
    }
    if game.rules.lights() > 16 {
        return Some(format!("{} counters are more than the 16 lights a position holds", game.rules.lights()));
    }
    if game.device.strategy.as_ref().is_some_and(|s| s.kind == gamec_dsl::StrategyKind::Search) {
        return Some("heap games are solved, not searched: use `perfect` or `random`".into());
    }
    None
}

/// The most moves of a position the firmware of a game on the rule core counts: a move is a
/// byte, its index among the position's moves (256, the placements of a 16 x 16 grid).
pub const CORE_MOVES: usize = gamec_runtime::rules::as_placement::MOVES as usize;

/// The room a game on the rule core's firmware keeps for a position's moves: the core's bound
/// on its moves from the start, where it sets one below [`CORE_MOVES`].
pub fn core_moves(game: &GameDef) -> usize {
    room(core_bound(&crate::engine::Engine::new(game), game))
}

/// The room the firmware keeps for a bound (none: the most it counts).
fn room(bound: Option<usize>) -> usize {
    bound.map_or(CORE_MOVES, |n| n.clamp(1, CORE_MOVES))
}

/// The core's bound on the moves of any position from the start, if it can set one (a chain
/// of jumps has none).
fn core_bound(engine: &crate::engine::Engine, game: &GameDef) -> Option<usize> {
    let start = engine.fixed_start(game);
    engine.with_game(|g| g.rules.most_moves(&start.cells))
}

/// Random games played to measure a game whose bound passes [`CORE_MOVES`].
const ROOM_PLAYOUTS: usize = 100;

/// [`core_moves`], and where a position may offer more moves than the firmware indexes, what
/// random play measures: an error if a position it reaches offers more, else a warning. A
/// move past the last the firmware counts would never be played nor accepted.
fn bind_core_moves(ctx: &mut Ctx, game: &GameDef) -> usize {
    let engine = crate::engine::Engine::new(game);
    let bound = core_bound(&engine, game);
    if bound.is_some_and(|n| n <= CORE_MOVES) {
        return room(bound);
    }
    let starts = crate::analyze::dealt_starts(&engine, game);
    let seen = crate::analyze::playouts(&engine, &starts, ROOM_PLAYOUTS).most_moves;
    let label = Label::primary(ctx.game_file, game.name.span, "this game");
    let bound_text = bound.map_or("no bound (its jumps chain)".into(), |n| format!("a bound of {n}"));
    if seen > CORE_MOVES {
        let d = Diagnostic::error(
            Code::E0120,
            format!(
                "a position reached in random play offers {seen} moves, more than the {CORE_MOVES} the firmware counts"
            ),
        )
        .with_label(label)
        .with_help(
            "`gamec analyze` plays the game without a board; a smaller board or fewer directions offer fewer moves",
        );
        ctx.diags.push(d);
    } else if bound.is_some() || seen > CORE_MOVES / 2 {
        // A chain of jumps has no bound: there random play alone decides, and warns when it
        // comes within a factor of two of the limit.
        let d = Diagnostic::warning(
            Code::W0025,
            format!(
                "the rules give {bound_text} on a position's moves, more than the {CORE_MOVES} the firmware counts; \
                 {ROOM_PLAYOUTS} random games offered at most {seen}"
            ),
        )
        .with_label(label)
        .with_help("a position past the bound would have its moves past the 256th never played nor accepted");
        ctx.diags.push(d);
    }
    room(bound)
}

/// Whether a game's firmware (a serial session, a duel with a cursor) plays it on the rule
/// core: a grid game of two players that the placements' fast reading does not cover.
pub fn on_the_rule_core(game: &GameDef) -> bool {
    grid_firmware_gap(game).is_some()
}

/// Why the grid firmware cannot play a game, if it cannot.
fn grid_firmware_gap(game: &GameDef) -> Option<String> {
    use gamec_dsl::{Condition, Count, EndResult, MoveKind, StrategyKind, Whose};
    let Some(g) = game.rules.grid() else {
        return Some("it is neither a line game of slides nor a grid game".into());
    };
    if !g.cut.is_empty() {
        return Some("the grid has cells cut away".into());
    }
    if g.cols > 8 || g.rows > 8 {
        return Some("the grid firmware plays grids of at most 8 x 8".into());
    }
    if game.rules.players.len() != 2 || !game.rules.states.is_empty() || game.rules.setup.fixed().len() > 1 {
        return Some("puzzles (one player, cell states, several setups) have no firmware runtime yet".into());
    }
    if !game.rules.piece.per_player {
        return Some("grid pieces must belong to the players".into());
    }
    if let Some(m) = game.rules.moves.iter().find(|m| !m.condition.is_empty()) {
        return Some(format!("the action `{}` has a `where` clause", m.name.node));
    }
    let mut capture_dirs = None;
    for m in &game.rules.moves {
        match m.kind {
            MoveKind::Place { capture: Some(d) } => {
                if capture_dirs.is_some_and(|c| c != d) {
                    return Some("two capturing placements with different directions".into());
                }
                capture_dirs = Some(d);
            }
            MoveKind::Place { capture: None } | MoveKind::Drop => {}
            _ => return Some(format!("the action `{}` is not a placement or a drop", m.name.node)),
        }
    }
    let names_a_player = |w: Whose| matches!(w, Whose::Player(_));
    for e in &game.rules.endings {
        let counts_a_player = e.conditions.iter().any(|c| {
            matches!(c, Condition::Compare { lhs, rhs, .. }
                if [lhs, rhs].iter().any(|x| matches!(x, Count::Pieces { whose, .. } if names_a_player(*whose))))
        });
        if counts_a_player || matches!(e.result, EndResult::Wins(w) | EndResult::Loses(w) if names_a_player(w)) {
            return Some("an ending names a player; write it with `mover` and `next`".into());
        }
        let by_line = e.conditions.iter().any(|c| {
            matches!(c, Condition::Distinct { .. })
                || matches!(c, Condition::Compare { lhs, rhs, .. } if [lhs, rhs].iter().any(|x| matches!(x, Count::Cells { .. })))
        });
        if by_line {
            return Some("an ending counts by row, column, state or run, or tells rows apart".into());
        }
    }
    let perfect = game.device.strategy.as_ref().is_some_and(|s| s.kind == StrategyKind::Perfect);
    let most = MAX_SOLVED_CELLS;
    if perfect && g.cols * g.rows > most {
        return Some(format!("a solved table for {} cells would not fit in flash (at most {most})", g.cols * g.rows));
    }
    None
}

fn bind_serial(ctx: &mut Ctx, game: &GameDef, board: &BoardDef, chip: &Chip) -> Option<Serial> {
    let proto = game.interface.serial.as_ref()?;
    let Some(port) = &board.serial else {
        let d =
            Diagnostic::error(Code::E0105, "the game is played over a serial line but the board has no serial port")
                .with_label(Label::primary(ctx.game_file, proto.span, "serial controls"))
                .with_label(Label::secondary(ctx.board_file, board.name.span, "this board"))
                .with_help("add, for example, `serial usart 9600 baud` to the board");
        ctx.diags.push(d);
        return None;
    };
    let Some(usart) = chip.serial_port(&port.port.node) else {
        unknown_serial_port(ctx, chip, &port.port);
        return None;
    };
    let (ubrr, u2x, error) = match chip.arch {
        chips::Arch::Avr(_) => chips::baud_divisor(board.clock_hz, port.baud),
        chips::Arch::CortexM(_) => {
            let (divisor, error) = chips::usart_brr(board.clock_hz, port.baud);
            (divisor, false, error)
        }
    };
    if error > MAX_BAUD_ERROR {
        let d = Diagnostic::error(
            Code::E0113,
            format!(
                "{} baud is {:.1}% off at {} Hz, more than a serial line tolerates ({}%)",
                port.baud,
                error * 100.0,
                board.clock_hz,
                MAX_BAUD_ERROR * 100.0
            ),
        )
        .with_label(Label::primary(ctx.board_file, port.span, "this rate"))
        .with_label(Label::secondary(ctx.board_file, board.clock_span, "from this clock"))
        .with_help("pick a rate the clock divides closely, or a crystal such as 7.3728 MHz");
        ctx.diags.push(d);
    }
    Some(Serial { ubrr, u2x, rx_vector: usart.vector, glue: usart.glue })
}

/// E0108 for a serial port the chip does not have, naming those it has.
fn unknown_serial_port(ctx: &mut Ctx, chip: &Chip, port: &gamec_dsl::ast::Ident) {
    let names: Vec<String> = chip.serial_ports.iter().map(|p| format!("`{}`", p.name)).collect();
    let help = match names.len() {
        0 => format!("the {} has no serial port gamec can drive", chip.name),
        1 => format!("the {}'s serial port is {}", chip.name, names[0]),
        _ => format!("the {}'s serial ports are {}", chip.name, names.join(", ")),
    };
    ctx.board_err(
        Code::E0108,
        port.span,
        format!("the {} has no serial port `{}`", chip.name, port.node),
        "no such port",
        help,
    );
}

/// A millisecond tick for a board whose game has no display to tick for it: the serial
/// session's (`serial`), or the buttons' glue's.
fn bind_tick(ctx: &mut Ctx, board: &BoardDef, chip: &'static Chip, serial: bool) -> Option<Tick> {
    let ticks = if serial { chip.session_tick } else { chip.tick_vectors };
    let Some(t) = &board.tick else {
        if board.serial.is_some() {
            ctx.board_err(
                Code::E0108,
                board.name.span,
                "a board with a serial game needs a timer for its move clock",
                "no `tick`",
                format!("add `tick {}`", ticks.first().map_or("timer1", |(t, _)| t)),
            );
        }
        return None;
    };
    // The move clock's tick: once a millisecond, from any timer with a tick interrupt.
    let tick = periodic_tick(ctx, chip, board.clock_hz, (t, ticks), 1000, t.span)?;
    Some(Tick { clock: tick.clock, top: tick.top, vector: tick.vector })
}

/// The board's LEDs for every lamp the game lights, in the order it first lights them.
fn bind_lamps(ctx: &mut Ctx, game: &GameDef, board: &BoardDef) -> Vec<(Pin, bool)> {
    let mut out = Vec::new();
    for name in gamec_dsl::lamp_names(game) {
        match board.leds.iter().find(|l| l.name.node == name.node) {
            Some(l) => out.push((l.pin.node, l.active_low)),
            None => {
                let d = Diagnostic::error(
                    Code::E0105,
                    format!("the game lights `{}` but the board has no such led", name.node),
                )
                .with_label(Label::primary(ctx.game_file, name.span, "lit here"))
                .with_label(Label::secondary(ctx.board_file, board.name.span, "this board"))
                .with_help(format!("add `led {} = <pin>` (with `active low` if it lights on a low pin)", name.node));
                ctx.diags.push(d);
            }
        }
    }
    out
}

fn unknown_timer(ctx: &mut Ctx, chip: &Chip, t: &gamec_dsl::ast::Ident) {
    let names: Vec<&str> = chip.timers.iter().map(|t| t.name).collect();
    ctx.board_err(
        Code::E0108,
        t.span,
        format!("the {} has no timer `{}`", chip.name, t.node),
        "no such timer",
        format!("its timers are: {}", names.join(", ")),
    );
}

fn bind_buttons(ctx: &mut Ctx, game: &GameDef, board: &BoardDef, chip: &Chip) -> (Vec<Pin>, u8, Option<Pin>) {
    // Buttons a board offers but the game has no control for.
    for b in &board.buttons {
        match game.interface.controls.iter().find(|c| c.name.node == b.control.node) {
            None => {
                let names: Vec<&str> = game.interface.controls.iter().map(|c| c.name.node.as_str()).collect();
                let help = if names.is_empty() {
                    "the game declares no controls".to_string()
                } else {
                    format!("the game's controls are: {}", names.join(", "))
                };
                ctx.board_err(
                    Code::E0106,
                    b.control.span,
                    format!("the game has no control `{}`", b.control.node),
                    "unknown control",
                    help,
                );
            }
            Some(c) => {
                let arity = c.arity(game);
                match (c.per_piece, b.index) {
                    (true, Some(i)) if i >= 1 && i <= arity => {}
                    (true, _) => ctx.board_err(
                        Code::E0106,
                        b.span,
                        format!("`{}` needs an index from 1 to {arity}", c.name.node),
                        "index",
                        format!("write `button {}[1] = ...` up to `[{arity}]`", c.name.node),
                    ),
                    (false, Some(_)) => ctx.board_err(
                        Code::E0106,
                        b.span,
                        format!("`{}` is a single control and takes no index", c.name.node),
                        "index",
                        format!("write `button {} = ...`", c.name.node),
                    ),
                    (false, None) => {}
                }
            }
        }
        if !b.pullup {
            ctx.board_err(
                Code::E0112,
                b.span,
                "a button to ground needs a pull-up",
                "no `pullup`",
                "add `pullup` after the pin, or wire a resistor and say so in a comment",
            );
        }
    }
    // Controls the game has but the board does not wire.
    let mut inputs = Vec::new();
    let mut commit = 0u8;
    let mut ordered: Vec<&gamec_dsl::ControlDef> = game.interface.controls.iter().filter(|c| c.per_piece).collect();
    ordered.extend(game.interface.controls.iter().filter(|c| !c.per_piece));
    for c in ordered {
        if c.action == ControlAction::Commit {
            commit = inputs.len() as u8;
        }
        let indices: Vec<Option<u32>> = if c.per_piece { (1..=c.arity(game)).map(Some).collect() } else { vec![None] };
        for idx in indices {
            match board.buttons.iter().find(|b| b.control.node == c.name.node && b.index == idx) {
                Some(b) => inputs.push(b.pin.node),
                None => {
                    let name = idx.map_or(c.name.node.clone(), |i| format!("{}[{i}]", c.name.node));
                    let d = Diagnostic::error(
                        Code::E0105,
                        format!("the game's control `{name}` has no button on this board"),
                    )
                    .with_label(Label::primary(ctx.game_file, c.name.span, "control declared here"))
                    .with_label(Label::secondary(ctx.board_file, board.name.span, "this board"))
                    .with_help(format!("add `button {name} = <pin> pullup` to the board"));
                    ctx.diags.push(d);
                }
            }
        }
    }
    let wake = game.interface.idle.as_ref().and_then(|idle| {
        let w = &game.interface.controls[idle.wake?];
        let b = board.buttons.iter().find(|b| b.control.node == w.name.node)?;
        if !chip.wake_pins.iter().any(|w| w.covers(b.pin.node)) {
            let pins: Vec<String> = chip.wake_pins.iter().map(wake_pins_named).collect();
            let help = match pins.is_empty() {
                true => format!("the {} has no pin that wakes it: leave out `idle ... -> sleep`", chip.name),
                false => format!("wire the wake control to one of {}", pins.join(", ")),
            };
            ctx.board_err(
                Code::E0110,
                b.pin.span,
                format!("{} cannot wake the {} from sleep", b.pin.node, chip.name),
                "no interrupt here wakes the chip",
                &help,
            );
        }
        Some(b.pin.node)
    });
    if inputs.len() > 8 {
        ctx.board_err(
            Code::E0106,
            board.name.span,
            "a board may wire at most 8 buttons",
            "too many buttons",
            "use fewer controls",
        );
    }
    (inputs, commit, wake)
}

fn bind_speaker(ctx: &mut Ctx, game: &GameDef, board: &BoardDef, chip: &'static Chip) -> Option<Speaker> {
    let uses_tunes = game.interface.events.iter().any(|e| matches!(e.response, Response::Tune(_)));
    let Some(s) = &board.speaker else {
        if uses_tunes {
            let first = game.interface.events.iter().find(|e| matches!(e.response, Response::Tune(_))).unwrap();
            let d = Diagnostic::error(Code::E0105, "the game plays tunes but the board has no speaker")
                .with_label(Label::primary(ctx.game_file, first.span, "a tune is played here"))
                .with_label(Label::secondary(ctx.board_file, board.name.span, "this board"))
                .with_help("add `speaker = <pin>, <timer>` to the board");
            ctx.diags.push(d);
        }
        return None;
    };
    let Some(timer) = chip.timer(&s.timer.node) else {
        unknown_timer(ctx, chip, &s.timer);
        return None;
    };
    let pin = s.pin.node;
    if timer.any_pin {
        return Some(Speaker { timer, channel: 'A', pin });
    }
    let Some(&(channel, _, _)) = timer.outputs.iter().find(|(_, port, bit)| *port == pin.port && *bit == pin.bit)
    else {
        let outs: Vec<String> = timer.outputs.iter().map(|(_, p, b)| format!("P{p}{b}")).collect();
        ctx.board_err(
            Code::E0108,
            s.pin.span,
            format!("{pin} is not an output of {}", timer.name),
            "not a timer output",
            format!("{}'s output pins are {}", timer.name, outs.join(", ")),
        );
        return None;
    };
    Some(Speaker { timer, channel, pin })
}

fn tune_divisors(ctx: &mut Ctx, game: &GameDef, board: &BoardDef, s: &Speaker) -> Vec<Vec<(u8, u16, u16)>> {
    let mut out = Vec::new();
    for t in &game.interface.tunes {
        let mut notes = Vec::new();
        for n in &t.notes {
            let Some(midi) = n.midi else {
                notes.push((0, 0, n.millis as u16));
                continue;
            };
            let hz = gamec_dsl::NoteDef::frequency(midi);
            // Toggling the pin on every compare match: two matches per period.
            match chips::nearest_divisor(board.clock_hz, s.timer, hz, 2.0) {
                Some((clock, top, actual)) if chips::cents(actual, hz).abs() <= MAX_CENTS => {
                    notes.push((clock, top, n.millis as u16))
                }
                found => {
                    let why = match found {
                        Some((_, _, actual)) => format!(
                            "the nearest it can play is {actual:.1} Hz, {:+.0} cents off",
                            chips::cents(actual, hz)
                        ),
                        None => "no prescaler and compare value reach it".to_string(),
                    };
                    let d = Diagnostic::error(
                        Code::E0107,
                        format!(
                            "{} cannot play this note ({hz:.1} Hz) within {MAX_CENTS} cents at {} Hz: {why}",
                            s.timer.name, board.clock_hz
                        ),
                    )
                    .with_label(Label::primary(ctx.game_file, n.span, "this note"))
                    .with_label(Label::secondary(ctx.board_file, board.clock_span, "the board's clock"))
                    .with_help("move the note an octave, or give the speaker a 16-bit timer");
                    ctx.diags.push(d);
                }
            }
        }
        out.push(notes);
    }
    out
}
