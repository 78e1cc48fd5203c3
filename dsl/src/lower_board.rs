//! Resolution of a board's syntax tree into a [`BoardDef`]. Chip facts are checked later, by
//! the compiler; here only what the file itself says is checked.

use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
use crate::{Diagnostic, FileId, Label, Span};

fn err(
    file: FileId,
    code: Code,
    span: Span,
    msg: impl Into<String>,
    label: &str,
    help: impl Into<String>,
) -> Diagnostic {
    Diagnostic::error(code, msg).with_label(Label::primary(file, span, label)).with_help(help)
}

fn pin(file: FileId, p: &ast::Ident, diags: &mut Vec<Diagnostic>) -> Pin {
    let s = p.node.as_bytes();
    let bit: u32 = p.node[2..].parse().unwrap_or(u32::MAX);
    if bit > 7 {
        diags.push(err(
            file,
            Code::E0005,
            p.span,
            format!("`{}` is not a pin: a port has bits 0 to 7", p.node),
            "bit out of range",
            "write a port and a bit such as `PA3`",
        ));
    }
    Pin { port: s[1] as char, bit: bit.min(7) as u8 }
}

pub fn lower(file: FileId, board: &ast::Board) -> Result<BoardDef, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut chip: Option<&ast::Ident> = None;
    let mut clock: Option<(u32, Span)> = None;
    let mut budget = Budget::default();
    let mut displays = Vec::new();
    let mut buttons: Vec<ButtonDef> = Vec::new();
    let mut speaker: Option<SpeakerDef> = None;
    let mut serial: Option<SerialPortDef> = None;
    let mut serial_roles: Vec<SerialPortDef> = Vec::new();
    let mut tick: Option<ast::Ident> = None;
    let mut leds: Vec<LampDef> = Vec::new();
    let mut matrix: Option<MatrixDef> = None;
    let mut encoders: Vec<EncoderDef> = Vec::new();
    let mut eeprom: Option<EepromDef> = None;

    let twice = |what: &str, first: Span, again: Span| {
        Diagnostic::error(Code::E0002, format!("`{what}` is given twice"))
            .with_label(Label::primary(file, again, "given again here"))
            .with_label(Label::secondary(file, first, "first given here"))
            .with_help(format!("keep one `{what}` statement"))
    };

    for item in &board.items {
        let sp = item.span;
        match &item.node {
            ast::BoardItem::Chip(c) => match chip {
                Some(first) => diags.push(twice("chip", first.span, c.span)),
                None => chip = Some(c),
            },
            ast::BoardItem::Clock { value, unit, .. } => {
                if let Some((_, first)) = clock {
                    diags.push(twice("clock", first, sp));
                    continue;
                }
                let scale = match unit.node.as_str() {
                    "MHz" => 1_000_000u64,
                    "kHz" => 1_000,
                    _ => 1,
                };
                let hz = value.node as u64 * scale;
                if hz == 0 || hz > 1_000_000_000 {
                    diags.push(err(
                        file,
                        Code::E0005,
                        value.span,
                        "the clock must be between 1 Hz and 1 GHz",
                        "out of range",
                        "for example `clock 8 MHz internal`",
                    ));
                }
                clock = Some((hz.clamp(1, 1_000_000_000) as u32, sp));
            }
            ast::BoardItem::Budget(items) => {
                for (kind, n) in items {
                    let slot = match kind.node.as_str() {
                        "flash" => &mut budget.flash,
                        "ram" => &mut budget.ram,
                        _ => &mut budget.stack,
                    };
                    if let Some(first) = slot {
                        diags.push(twice(&format!("budget {}", kind.node), first.span, kind.span));
                    } else {
                        *slot = Some(Spanned::new(n.node, n.span));
                    }
                }
            }
            ast::BoardItem::Display(d) => {
                let pins: Vec<Spanned<Pin>> =
                    d.pins.iter().map(|p| Spanned::new(pin(file, p, &mut diags), p.span)).collect();
                let refresh_hz = match d.refresh_unit.node.as_str() {
                    "MHz" => d.refresh.node.saturating_mul(1_000_000),
                    "kHz" => d.refresh.node.saturating_mul(1_000),
                    _ => d.refresh.node,
                };
                if refresh_hz == 0 {
                    diags.push(err(
                        file,
                        Code::E0005,
                        d.refresh.span,
                        "a display refreshes at least once a second",
                        "zero",
                        "for example `refresh 1000 Hz`",
                    ));
                }
                let mut leds: Vec<LedDef> = Vec::new();
                for l in &d.leds {
                    let anode = pin(file, &l.anode, &mut diags);
                    let cathode = pin(file, &l.cathode, &mut diags);
                    for (p, id) in [(anode, &l.anode), (cathode, &l.cathode)] {
                        if !pins.iter().any(|q| q.node == p) {
                            diags.push(err(
                                file,
                                Code::E0011,
                                id.span,
                                format!("{p} is not one of this display's pins"),
                                "not in the pin list",
                                format!("add {p} to `charlieplex ...` or use one of its pins"),
                            ));
                        }
                    }
                    if anode == cathode {
                        diags.push(err(
                            file,
                            Code::E0011,
                            l.span,
                            "an LED's anode and cathode must be different pins",
                            "same pin twice",
                            "charlieplexed LEDs sit between two pins",
                        ));
                    }
                    if let Some(prev) = leds.iter().find(|p| p.cell == l.cell.node) {
                        diags.push(twice(&format!("LED {}", l.cell.node), prev.span, l.span));
                        continue;
                    }
                    if let Some(prev) = leds.iter().find(|p| p.anode == anode && p.cathode == cathode) {
                        diags.push(
                            err(
                                file,
                                Code::E0011,
                                l.span,
                                format!("two LEDs sit between {anode} and {cathode}"),
                                "same pins as another LED",
                                "each ordered pin pair lights one LED",
                            )
                            .with_label(Label::secondary(file, prev.span, "the other LED")),
                        );
                    }
                    leds.push(LedDef { cell: l.cell.node, anode, cathode, span: l.span });
                }
                leds.sort_by_key(|l| l.cell);
                for (i, l) in leds.iter().enumerate() {
                    if l.cell != i as u32 + 1 {
                        diags.push(err(
                            file,
                            Code::E0011,
                            l.span,
                            format!("LEDs must be numbered 1, 2, 3 ... without gaps; LED {} is missing", i + 1),
                            "after a gap",
                            "number the LEDs as the game numbers its cells",
                        ));
                        break;
                    }
                }
                displays.push(DisplayDef {
                    name: d.name.clone(),
                    pins,
                    refresh_hz: refresh_hz.max(1),
                    timer: d.timer.clone(),
                    leds,
                    span: sp,
                });
            }
            ast::BoardItem::Button { control, index, pin: p, pullup } => {
                let pn = pin(file, p, &mut diags);
                if let Some(prev) =
                    buttons.iter().find(|b| b.control.node == control.node && b.index == index.as_ref().map(|i| i.node))
                {
                    diags.push(twice(&format!("button {}", control.node), prev.span, sp));
                    continue;
                }
                buttons.push(ButtonDef {
                    control: control.clone(),
                    index: index.as_ref().map(|i| i.node),
                    pin: Spanned::new(pn, p.span),
                    pullup: *pullup,
                    span: sp,
                });
            }
            ast::BoardItem::Speaker { pin: p, timer } => {
                if let Some(prev) = &speaker {
                    diags.push(twice("speaker", prev.span, sp));
                    continue;
                }
                let pn = pin(file, p, &mut diags);
                speaker = Some(SpeakerDef { pin: Spanned::new(pn, p.span), timer: timer.clone(), span: sp });
            }
            ast::BoardItem::Serial { port, baud, role, suffix } => {
                let first = match role {
                    Some(r) => serial_roles.iter().find(|s| s.role.as_ref().is_some_and(|o| o.node == r.node)),
                    None => serial.as_ref(),
                };
                if let Some(prev) = first {
                    let what = role.as_ref().map_or("serial".to_string(), |r| format!("serial ... for {}", r.node));
                    diags.push(twice(&what, prev.span, sp));
                    continue;
                }
                if !(300..=1_000_000).contains(&baud.node) {
                    diags.push(err(
                        file,
                        Code::E0005,
                        baud.span,
                        "a serial line runs at 300 to 1000000 baud",
                        "out of range",
                        "for example `serial usart 9600 baud`",
                    ));
                }
                for b in suffix.iter().filter(|b| b.node > 255) {
                    diags.push(err(
                        file,
                        Code::E0005,
                        b.span,
                        "a suffix byte is 0 to 255",
                        "not a byte",
                        "name bytes as `cr`, `lf`, `tab` or a number, e.g. `suffix cr lf`",
                    ));
                }
                let def = SerialPortDef {
                    port: port.clone(),
                    baud: baud.node,
                    role: role.clone(),
                    suffix: suffix.iter().map(|b| b.node as u8).collect(),
                    span: sp,
                };
                match role {
                    Some(_) => serial_roles.push(def),
                    None => serial = Some(def),
                }
            }
            ast::BoardItem::Tick(t) => match &tick {
                Some(first) => diags.push(twice("tick", first.span, t.span)),
                None => tick = Some(t.clone()),
            },
            ast::BoardItem::Matrix(m) => {
                if let Some(prev) = &matrix {
                    diags.push(twice("display", prev.span, sp));
                    continue;
                }
                let mut pins = |list: &[ast::Ident]| -> Vec<Spanned<Pin>> {
                    list.iter().map(|p| Spanned::new(pin(file, p, &mut diags), p.span)).collect()
                };
                let (rows, red, green) = (pins(&m.rows), pins(&m.red), pins(&m.green));
                if rows.len() > 8 || red.len() > 8 || red.len() != green.len() {
                    diags.push(err(
                        file,
                        Code::E0005,
                        sp,
                        format!(
                            "a matrix has up to 8 rows and as many red as green columns, up to 8; found {} rows, {} red and {} green",
                            rows.len(),
                            red.len(),
                            green.len()
                        ),
                        "this matrix",
                        "give one pin per row and per column of each colour",
                    ));
                }
                let refresh_hz = match m.refresh_unit.node.as_str() {
                    "MHz" => m.refresh.node.saturating_mul(1_000_000),
                    "kHz" => m.refresh.node.saturating_mul(1_000),
                    _ => m.refresh.node,
                };
                matrix = Some(MatrixDef {
                    name: m.name.clone(),
                    rows,
                    red,
                    green,
                    columns_active_high: m.columns_high,
                    refresh_hz: refresh_hz.max(1),
                    timer: m.timer.clone(),
                    span: sp,
                });
            }
            ast::BoardItem::Encoder { name, a, b } => {
                if let Some(prev) = encoders.iter().find(|e| e.name.node == name.node) {
                    diags.push(twice(&format!("encoder {}", name.node), prev.span, sp));
                    continue;
                }
                let (pa, pb) = (pin(file, a, &mut diags), pin(file, b, &mut diags));
                encoders.push(EncoderDef {
                    name: name.clone(),
                    a: Spanned::new(pa, a.span),
                    b: Spanned::new(pb, b.span),
                    span: sp,
                });
            }
            ast::BoardItem::Eeprom { name, cs, sk, di, dout } => {
                if let Some(prev) = &eeprom {
                    diags.push(twice("eeprom", prev.span, sp));
                    continue;
                }
                let mut p = |i: &ast::Ident| Spanned::new(pin(file, i, &mut diags), i.span);
                eeprom =
                    Some(EepromDef { name: name.clone(), cs: p(cs), sk: p(sk), di: p(di), dout: p(dout), span: sp });
            }
            ast::BoardItem::Led { name, pin: p, active_low } => {
                if let Some(prev) = leds.iter().find(|l| l.name.node == name.node) {
                    diags.push(twice(&format!("led {}", name.node), prev.span, sp));
                    continue;
                }
                let pn = pin(file, p, &mut diags);
                leds.push(LampDef {
                    name: name.clone(),
                    pin: Spanned::new(pn, p.span),
                    active_low: *active_low,
                    span: sp,
                });
            }
        }
    }

    let missing = |what: &str, example: &str| {
        Diagnostic::error(Code::E0003, format!("board `{}` has no `{what}` statement", board.name.node))
            .with_label(Label::primary(file, board.name.span, format!("`{what}` is required")))
            .with_help(format!("add, for example: `{example}`"))
    };
    if chip.is_none() {
        diags.push(missing("chip", "chip attiny84a"));
    }
    if clock.is_none() {
        diags.push(missing("clock", "clock 8 MHz internal"));
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let (clock_hz, clock_span) = clock.unwrap();
    Ok(BoardDef {
        name: board.name.clone(),
        chip: chip.unwrap().clone(),
        clock_hz,
        clock_span,
        budget,
        displays,
        buttons,
        speaker,
        serial,
        serial_roles,
        tick,
        leds,
        matrix,
        encoders,
        eeprom,
    })
}
