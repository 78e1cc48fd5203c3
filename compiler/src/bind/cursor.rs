//! Binding a game played with a cursor: its cursor controls to the board's encoders, its
//! other controls to buttons, its colours to a bicolour matrix ticked by a timer, its tunes to
//! the speaker, and its setups to the board's EEPROM. The cursor plays puzzles, and grid games
//! of two players against the device (the same rules the serial firmware plays: placements
//! by their fast reading, any other on the rule core, a move entered a cell at a time).

use super::{
    bind_core_moves, bind_core_table, bind_speaker, grid_firmware_gap, max_moves, periodic_tick, tune_divisors,
    CoreStack, Ctx, Target,
};
use crate::chips::Chip;
use crate::engine::puzzle::Puzzle;
use crate::engine::Engine;
use gamec_dsl::Code;
use gamec_dsl::{
    content, BoardDef, Condition, ControlAction, Diagnostic, EndResult, GameDef, Label, MoveKind, Pin, ViewSource,
};

/// The most setups a 93C46 holds: 128 bytes, 16 a setup.
pub const MAX_EEPROM_SETUPS: usize = 8;

/// A game played with a cursor, bound.
#[derive(Debug, Clone)]
pub struct CursorTarget {
    pub matrix: Matrix,
    /// Per cursor control: whether it moves across, and its encoder's A and B pins.
    pub encoders: Encoders,
    pub commit: Pin,
    pub restart: Option<Pin>,
    /// Chip select, clock, data in and data out of a 93C46 holding the setups; without one,
    /// the setups are in flash.
    pub eeprom: Option<[Pin; 4]>,
    /// A game on the cursor's move entry (two players, the device one of them, or a puzzle
    /// on the rule core); `None` for a puzzle of the puzzle app.
    pub duel: Option<Duel>,
}

/// A grid game whose moves the cursor enters a cell at a time: against the device, or alone.
#[derive(Debug, Clone)]
pub struct Duel {
    /// The device's player index; `None` for a puzzle played alone.
    pub device: Option<usize>,
}

#[derive(Debug, Clone)]
pub struct Matrix {
    pub rows: Vec<Pin>,
    pub red: Vec<Pin>,
    pub green: Vec<Pin>,
    pub columns_active_high: bool,
    pub tick_clock: u8,
    pub tick_top: u16,
    /// As [`super::Display::tick_millis`].
    pub tick_millis: (u16, u16, u16),
    pub tick_vector: &'static str,
}

/// Whether the game is played with a cursor.
pub fn uses_cursor(game: &GameDef) -> bool {
    game.interface.controls.iter().any(|c| matches!(c.action, ControlAction::Cursor { .. }))
}

/// Why the puzzle app cannot play a game of one player, if it cannot (the rule core then does).
pub fn puzzle_gap(game: &GameDef) -> Option<String> {
    let engine = Engine::new(game);
    let Some(_) = Puzzle::new(&engine) else {
        return Some(
            "the cursor plays puzzles that fill cells (one player, a `cycle` of one cell, an ending the player wins)"
                .into(),
        );
    };
    // A line is a grid of one row.
    let Some((cols, rows)) = game.rules.columns_and_rows() else {
        return Some("a cursor moves over the cells of a line or a grid".into());
    };
    if cols > 8 || rows > 8 {
        return Some("the puzzle app's grid is at most 8 x 8".into());
    }
    if game.rules.grid().is_some_and(|g| !g.cut.is_empty()) {
        return Some("the grid has cells cut away".into());
    }
    if game.rules.states.len() != 2 {
        return Some("the cursor's puzzles have two states a cell".into());
    }
    let cycle_ok = game.rules.moves.iter().all(|m| match m.kind {
        MoveKind::Cycle { order, .. } => order.values().iter().all(|&v| v <= content::state(1)),
        _ => false,
    });
    if !cycle_ok {
        return Some("a puzzle's only action is one `cycle` of its states and `empty`".into());
    }
    // The firmware judges a grid by the solution the compiler proved unique, which holds no
    // empty cell when the winning ending asks for a full grid.
    let full = game
        .rules
        .endings
        .iter()
        .any(|e| matches!(e.result, EndResult::Wins(_)) && e.conditions.contains(&Condition::Full));
    if !full {
        return Some("the puzzle's winning ending must include `full`".into());
    }
    if game.rules.setup.fixed().is_empty() {
        return Some("a puzzle played on a board needs at least one `setup fixed`".into());
    }
    None
}

pub(super) fn bind(ctx: &mut Ctx, game: &GameDef, board: &BoardDef, chip: &'static Chip) -> Option<Target> {
    // The matrix app's picture is 8 x 8 cells, a byte a column of a colour.
    if let Some((cols, rows)) = game.rules.columns_and_rows().filter(|&(c, r)| c > 8 || r > 8) {
        let what = match rows {
            1 => format!("a line of {cols} cells is more than the 8 a row of the matrix shows"),
            _ => format!("a grid of {cols} x {rows} cells is more than the 8 x 8 the matrix shows"),
        };
        let d = Diagnostic::error(Code::E0118, what)
            .with_label(Label::primary(ctx.game_file, game.name.span, "this game"))
            .with_help("play it over a serial line (`controls serial`), which shows grids up to 15 x 15");
        ctx.diags.push(d);
        return None;
    }
    let players = game.rules.players.len();
    // A puzzle of one player that the puzzle app cannot play is played alone on the rule core,
    // a move a press; a game of two against the device, without a `strategy` searching with
    // the default evaluation on the rule core, at random on the placements' reading.
    let alone = players == 1 && puzzle_gap(game).is_some();
    let duel = players == 2 || alone;
    let matrix = bind_matrix(ctx, game, board, chip);
    let (encoders, commit, restart) = bind_inputs(ctx, game, board);
    let eeprom = if duel { None } else { bind_eeprom(ctx, game, board, chip) };
    // What the placements' fast reading cannot play, the rule core does.
    let rules_core = (alone || (players == 2 && grid_firmware_gap(game).is_some())).then(|| CoreStack::of(game));
    let max_moves = match (duel, rules_core.is_some()) {
        (true, true) => bind_core_moves(ctx, game),
        (true, false) => max_moves(game),
        (false, _) => 0,
    };
    // A strategy for `device` in a game where the host picks a side: with a cursor, the person
    // plays the first player.
    let device = game.device.strategy.as_ref().and_then(|s| s.player).unwrap_or(1 - game.rules.first);
    let duel = duel.then_some(Duel { device: (!alone).then_some(device) });
    let speaker = bind_speaker(ctx, game, board, chip);
    let tunes = speaker.as_ref().map(|s| tune_divisors(ctx, game, board, s)).unwrap_or_default();
    let core_table = match (rules_core, alone) {
        (Some(_), false) => bind_core_table(ctx, game),
        _ => None,
    };
    let (matrix, commit) = (matrix?, commit?);
    Some(Target {
        speaker,
        tunes,
        max_moves,
        rules_core,
        core_table,
        cursor: Some(CursorTarget { matrix, encoders, commit, restart, eeprom, duel }),
        ..Target::bare(chip, board)
    })
}

fn bind_matrix(ctx: &mut Ctx, game: &GameDef, board: &BoardDef, chip: &'static Chip) -> Option<Matrix> {
    let view = game.interface.views.iter().find(|v| matches!(v.source, ViewSource::Colours(_)));
    let Some(view) = view else {
        let d = Diagnostic::error(Code::E0105, "a game played with a cursor shows its cells in colours")
            .with_label(Label::primary(ctx.game_file, game.name.span, "this game"))
            .with_help("add `show cells = colours { STATE = red, ... }` to the feedback");
        ctx.diags.push(d);
        return None;
    };
    let Some(m) = board.matrix.as_ref().filter(|m| m.name.node == view.name.node) else {
        let d = Diagnostic::error(
            Code::E0105,
            format!("the game shows `{}` but the board has no matrix of that name", view.name.node),
        )
        .with_label(Label::primary(ctx.game_file, view.name.span, "shown here"))
        .with_label(Label::secondary(ctx.board_file, board.name.span, "this board"))
        .with_help(format!(
            "add `display {} = matrix rows ..., red ..., green ..., refresh 1000 Hz, timer0`",
            view.name.node
        ));
        ctx.diags.push(d);
        return None;
    };
    let Some((cols, rows)) = game.rules.columns_and_rows() else {
        ctx.diags.push(
            Diagnostic::error(Code::E0006, "a cursor moves over the cells of a line or a grid, and heaps have none")
                .with_label(Label::primary(ctx.game_file, game.name.span, "this game")),
        );
        return None;
    };
    if (m.rows.len() as u32) < rows || (m.red.len() as u32) < cols {
        ctx.board_err(
            Code::E0109,
            m.name.span,
            format!(
                "the matrix has {} rows and {} columns but the grid is {} x {}",
                m.rows.len(),
                m.red.len(),
                cols,
                rows
            ),
            "too small",
            "give the matrix a row pin per grid row and a red and a green pin per column",
        );
        return None;
    }
    let tick = periodic_tick(ctx, chip, board.clock_hz, (&m.timer, chip.tick_vectors), m.refresh_hz, m.span)?;
    let pins = |list: &[gamec_dsl::ast::Spanned<Pin>], n: u32| list.iter().take(n as usize).map(|p| p.node).collect();
    Some(Matrix {
        rows: pins(&m.rows, rows),
        red: pins(&m.red, cols),
        green: pins(&m.green, cols),
        columns_active_high: m.columns_active_high,
        tick_clock: tick.clock,
        tick_top: tick.top,
        tick_millis: tick.tick_millis,
        tick_vector: tick.vector,
    })
}

/// Per cursor control: whether it moves across, and its encoder's pins.
type Encoders = Vec<(bool, Pin, Pin)>;

/// Encoders for the cursor controls, buttons for the commit and the restart.
fn bind_inputs(ctx: &mut Ctx, game: &GameDef, board: &BoardDef) -> (Encoders, Option<Pin>, Option<Pin>) {
    let (mut encoders, mut commit, mut restart) = (Vec::new(), None, None);
    for c in &game.interface.controls {
        let missing = |ctx: &mut Ctx, what: &str, example: String| {
            let d = Diagnostic::error(
                Code::E0105,
                format!("the game's control `{}` has no {what} on this board", c.name.node),
            )
            .with_label(Label::primary(ctx.game_file, c.name.span, "this control"))
            .with_label(Label::secondary(ctx.board_file, board.name.span, "this board"))
            .with_help(format!("add `{example}` to the board"));
            ctx.diags.push(d);
        };
        match c.action {
            ControlAction::Cursor { across } => match board.encoders.iter().find(|e| e.name.node == c.name.node) {
                Some(e) => encoders.push((across, e.a.node, e.b.node)),
                None => missing(ctx, "encoder", format!("encoder {} = PE7 PE6", c.name.node)),
            },
            ControlAction::Commit | ControlAction::Restart => {
                match board.buttons.iter().find(|b| b.control.node == c.name.node) {
                    Some(b) => {
                        if !b.pullup {
                            ctx.board_err(
                                Code::E0112,
                                b.span,
                                "a button needs its pull-up",
                                "no pull-up",
                                "add `pullup`",
                            );
                        }
                        if c.action == ControlAction::Commit {
                            commit = Some(b.pin.node);
                        } else {
                            restart = Some(b.pin.node);
                        }
                    }
                    None => missing(ctx, "button", format!("button {} = PE5 pullup", c.name.node)),
                }
            }
            ControlAction::Extend { .. } => {
                let d = Diagnostic::error(Code::E0009, "a game played with a cursor has no per-piece controls")
                    .with_label(Label::primary(ctx.game_file, c.name.span, "this control"))
                    .with_help("move the cursor with `cursor across` and `cursor down`, act with `commit`");
                ctx.diags.push(d);
            }
        }
    }
    (encoders, commit, restart)
}

fn bind_eeprom(ctx: &mut Ctx, game: &GameDef, board: &BoardDef, chip: &Chip) -> Option<[Pin; 4]> {
    let e = board.eeprom.as_ref()?;
    // Only the AVR glue drives a 93C46; a Cortex-M's flash holds the setups many times over.
    if matches!(chip.arch, crate::chips::Arch::CortexM(_)) {
        let d = Diagnostic::warning(
            Code::W0026,
            format!("gamec's glue for the {} drives no 93C46: the setups are kept in flash", chip.name),
        )
        .with_label(Label::primary(ctx.board_file, e.span, "not used"))
        .with_help("take the `eeprom` off the board, or build for an AVR chip to read the setups from it");
        ctx.diags.push(d);
        return None;
    }
    if game.rules.setup.fixed().len() > MAX_EEPROM_SETUPS {
        let d = Diagnostic::error(
            Code::E0116,
            format!("{} setups do not fit the 93C46: it holds {MAX_EEPROM_SETUPS}", game.rules.setup.fixed().len()),
        )
        .with_label(Label::primary(
            ctx.game_file,
            game.rules.setup.fixed()[MAX_EEPROM_SETUPS].span,
            "the first that does not fit",
        ))
        .with_label(Label::secondary(ctx.board_file, e.span, "16 bytes a setup, 128 in all"))
        .with_help("keep at most eight setups, or take the `eeprom` off the board to keep them in flash");
        ctx.diags.push(d);
        return None;
    }
    Some([e.cs.node, e.sk.node, e.di.node, e.dout.node])
}

/// The 93C46 image: per setup, the solution's first state by columns (a byte a column, row r
/// in bit 7 - r, as a board that wires its top row to a port's high bit reads it) and then
/// its given cells the same way; unused setups read as 0xFF, as an erased chip does. Each
/// solution is searched within `check`'s budget, which proved every start of a file it
/// accepts within it; a start it would not have accepted (no solution, or none found within
/// the budget) is left erased, so that rendering takes bounded time on any file.
pub fn eeprom_image(game: &GameDef) -> Vec<u8> {
    let engine = Engine::new(game);
    let mut image = vec![0xFF; MAX_EEPROM_SETUPS * 16];
    let Some(puzzle) = Puzzle::new(&engine) else { return image };
    for (i, setup) in game.rules.setup.fixed().iter().enumerate().take(MAX_EEPROM_SETUPS) {
        let start = engine.start_of(game, setup);
        let Some(solution) = puzzle.try_solutions(&start, 1).ok().and_then(|mut s| s.pop()) else { continue };
        for col in 0..8usize {
            let (mut first, mut given) = (0u8, 0u8);
            for row in 0..8usize {
                let cell = row * crate::engine::STRIDE + col;
                if solution.cells.get(cell) == Some(&content::state(0)) {
                    first |= 0x80 >> row;
                }
                if start.given >> cell & 1 == 1 {
                    given |= 0x80 >> row;
                }
            }
            image[i * 16 + col] = first;
            image[i * 16 + 8 + col] = given;
        }
    }
    image
}
