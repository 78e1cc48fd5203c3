//! Binding a game of cards: its scanner and its console to the serial ports the board gives
//! them by role, at rates the chip's clock can make.

use super::{Ctx, Target, MAX_BAUD_ERROR};
use crate::chips::{Chip, SerialPort};
use gamec_dsl::Code;
use gamec_dsl::{BoardDef, Diagnostic, Label};

/// A game of cards, bound.
#[derive(Debug, Clone)]
pub struct CardsTarget {
    pub console: BoundPort,
    pub scanner: BoundPort,
}

/// A serial port given to one of the game's devices.
#[derive(Debug, Clone)]
pub struct BoundPort {
    pub port: SerialPort,
    /// The baud-rate register's value: the clock over the rate.
    pub divisor: u16,
    /// Bytes that end each frame (the scanner's suffix).
    pub suffix: Vec<u8>,
}

/// The serial devices a game of cards has, by role.
const ROLES: [(&str, &str); 2] =
    [("console", "where the person types commands and reads the sets"), ("scanner", "the barcode scanner")];

/// A game of cards on the board's serial ports: a console and a scanner, each on its own.
pub(super) fn bind(ctx: &mut Ctx, board: &BoardDef, chip: &'static Chip) -> Option<Target> {
    let [(console_role, console_what), (scanner_role, scanner_what)] = ROLES;
    let console = bind_port(ctx, board, chip, console_role, console_what);
    let scanner = bind_port(ctx, board, chip, scanner_role, scanner_what);
    for extra in
        board.serial_roles.iter().filter(|s| !ROLES.iter().any(|(r, _)| s.role.as_ref().is_some_and(|o| o.node == *r)))
    {
        let role = extra.role.as_ref().expect("a role");
        ctx.board_err(
            Code::E0117,
            role.span,
            format!("a game of cards has no serial device `{}`", role.node),
            "no such device",
            "a game of cards has a `console` and a `scanner`",
        );
    }
    let (console, scanner) = (console?, scanner?);
    if console.port.name == scanner.port.name {
        let s = board.serial_roles.iter().find(|s| s.role.as_ref().is_some_and(|r| r.node == "scanner"));
        ctx.board_err(
            Code::E0117,
            s.map_or(board.name.span, |s| s.span),
            "the scanner and the console share a serial port",
            "the console's port too",
            "give each its own port",
        );
    }
    Some(Target { cards: Some(CardsTarget { console, scanner }), ..Target::bare(chip, board) })
}

fn bind_port(ctx: &mut Ctx, board: &BoardDef, chip: &Chip, role: &str, what: &str) -> Option<BoundPort> {
    let Some(def) = board.serial_roles.iter().find(|s| s.role.as_ref().is_some_and(|r| r.node == role)) else {
        ctx.board_err(
            Code::E0117,
            board.name.span,
            format!("the board gives no serial port to the game's {role}, {what}"),
            "this board",
            format!("add `serial PORT RATE baud for {role}`{}", if role == "scanner" { " [suffix cr]" } else { "" }),
        );
        return None;
    };
    let Some(port) = chip.serial_port(&def.port.node) else {
        super::unknown_serial_port(ctx, chip, &def.port);
        return None;
    };
    let divisor = (board.clock_hz as f64 / def.baud as f64).round();
    let actual = board.clock_hz as f64 / divisor;
    if !(16.0..=65535.0).contains(&divisor) || (actual / def.baud as f64 - 1.0).abs() > MAX_BAUD_ERROR {
        let d = Diagnostic::error(
            Code::E0113,
            format!("{} baud cannot be made from a {} Hz clock", def.baud, board.clock_hz),
        )
        .with_label(Label::primary(ctx.board_file, def.span, "this rate"))
        .with_label(Label::secondary(ctx.board_file, board.clock_span, "from this clock"))
        .with_help("pick a rate within 2 % of the clock divided by 16 to 65535");
        ctx.diags.push(d);
        return None;
    }
    Some(BoundPort { port: *port, divisor: divisor as u16, suffix: def.suffix.clone() })
}
