//! Resolution of a board's syntax tree into a [`BoardDef`]. Chip facts are checked later, by
//! the compiler; here only what the file itself says is checked.

use crate::ast::{self, Spanned};
use crate::model::*;
use crate::Code;
use crate::{Diagnostic, FileId, Label, Span};

pub fn lower(file: FileId, board: &ast::Board) -> Result<BoardDef, Vec<Diagnostic>> {
    let mut b = Lowering::new(file);
    for item in &board.items {
        b.item(item);
    }
    b.finish(board)
}

/// What a board's statements gave so far, a slot a statement kind, and the diagnostics.
struct Lowering<'b> {
    file: FileId,
    diags: Vec<Diagnostic>,
    chip: Option<&'b ast::Ident>,
    clock: Option<(u32, Span)>,
    budget: Budget,
    displays: Vec<DisplayDef>,
    buttons: Vec<ButtonDef>,
    speaker: Option<SpeakerDef>,
    serial: Option<SerialPortDef>,
    serial_roles: Vec<SerialPortDef>,
    tick: Option<ast::Ident>,
    leds: Vec<LampDef>,
    matrix: Option<MatrixDef>,
    encoders: Vec<EncoderDef>,
    eeprom: Option<EepromDef>,
    programmer: Option<ProgrammerDef>,
}

/// A rate as written (`1000 Hz`, `1 kHz`) in hertz.
fn hertz(n: &ast::Int, unit: &ast::Ident) -> u32 {
    match unit.node.as_str() {
        "MHz" => n.node.saturating_mul(1_000_000),
        "kHz" => n.node.saturating_mul(1_000),
        _ => n.node,
    }
}

impl<'b> Lowering<'b> {
    fn new(file: FileId) -> Self {
        Lowering {
            file,
            diags: Vec::new(),
            chip: None,
            clock: None,
            budget: Budget::default(),
            displays: Vec::new(),
            buttons: Vec::new(),
            speaker: None,
            serial: None,
            serial_roles: Vec::new(),
            tick: None,
            leds: Vec::new(),
            matrix: None,
            encoders: Vec::new(),
            eeprom: None,
            programmer: None,
        }
    }

    fn err(&mut self, code: Code, span: Span, msg: impl Into<String>, label: &str, help: impl Into<String>) {
        let d = Diagnostic::error(code, msg).with_label(Label::primary(self.file, span, label)).with_help(help);
        self.diags.push(d);
    }

    /// A statement that may appear once given again, or a device of one name twice.
    fn twice(&mut self, what: &str, first: Span, again: Span) {
        self.diags.push(
            Diagnostic::error(Code::E0002, format!("`{what}` is given twice"))
                .with_label(Label::primary(self.file, again, "given again here"))
                .with_label(Label::secondary(self.file, first, "first given here"))
                .with_help(format!("keep one `{what}` statement")),
        );
    }

    /// A pin as written (`PA3`), its bit checked.
    fn pin(&mut self, p: &ast::Ident) -> Pin {
        let s = p.node.as_bytes();
        let bit: u32 = p.node[2..].parse().unwrap_or(u32::MAX);
        if bit > 7 {
            let msg = format!("`{}` is not a pin: a port has bits 0 to 7", p.node);
            self.err(Code::E0005, p.span, msg, "bit out of range", "write a port and a bit such as `PA3`");
        }
        Pin { port: s[1] as char, bit: bit.min(7) as u8 }
    }

    fn spanned_pin(&mut self, p: &ast::Ident) -> Spanned<Pin> {
        Spanned::new(self.pin(p), p.span)
    }

    fn item(&mut self, item: &'b Spanned<ast::BoardItem>) {
        let sp = item.span;
        match &item.node {
            ast::BoardItem::Chip(c) => match self.chip {
                Some(first) => self.twice("chip", first.span, c.span),
                None => self.chip = Some(c),
            },
            ast::BoardItem::Clock { value, unit, .. } => self.clock(value, unit, sp),
            ast::BoardItem::Budget(items) => self.budget(items),
            ast::BoardItem::Display(d) => self.display(d, sp),
            ast::BoardItem::Button { control, index, pin, pullup } => self.button(control, index, pin, *pullup, sp),
            ast::BoardItem::Speaker { pin, timer } => match &self.speaker {
                Some(prev) => self.twice("speaker", prev.span, sp),
                None => {
                    let pin = self.spanned_pin(pin);
                    self.speaker = Some(SpeakerDef { pin, timer: timer.clone(), span: sp });
                }
            },
            ast::BoardItem::Serial { port, baud, role, suffix } => self.serial(port, baud, role, suffix, sp),
            ast::BoardItem::Programmer { name, port } => match &self.programmer {
                Some(first) => self.twice("programmer", first.span, sp),
                None => self.programmer = Some(ProgrammerDef { name: name.clone(), port: port.clone(), span: sp }),
            },
            ast::BoardItem::Tick(t) => match &self.tick {
                Some(first) => self.twice("tick", first.span, t.span),
                None => self.tick = Some(t.clone()),
            },
            ast::BoardItem::Matrix(m) => self.matrix(m, sp),
            ast::BoardItem::Encoder { name, a, b } => match self.encoders.iter().find(|e| e.name.node == name.node) {
                Some(prev) => self.twice(&format!("encoder {}", name.node), prev.span, sp),
                None => {
                    let (a, b) = (self.spanned_pin(a), self.spanned_pin(b));
                    self.encoders.push(EncoderDef { name: name.clone(), a, b, span: sp });
                }
            },
            ast::BoardItem::Eeprom { name, cs, sk, di, dout } => match &self.eeprom {
                Some(prev) => self.twice("eeprom", prev.span, sp),
                None => {
                    let (cs, sk) = (self.spanned_pin(cs), self.spanned_pin(sk));
                    let (di, dout) = (self.spanned_pin(di), self.spanned_pin(dout));
                    self.eeprom = Some(EepromDef { name: name.clone(), cs, sk, di, dout, span: sp });
                }
            },
            ast::BoardItem::Led { name, pin, active_low } => {
                match self.leds.iter().find(|l| l.name.node == name.node) {
                    Some(prev) => self.twice(&format!("led {}", name.node), prev.span, sp),
                    None => {
                        let pin = self.spanned_pin(pin);
                        self.leds.push(LampDef { name: name.clone(), pin, active_low: *active_low, span: sp });
                    }
                }
            }
        }
    }

    /// `clock N MHz|kHz|Hz SOURCE`.
    fn clock(&mut self, value: &ast::Int, unit: &ast::Ident, sp: Span) {
        if let Some((_, first)) = self.clock {
            return self.twice("clock", first, sp);
        }
        let scale = match unit.node.as_str() {
            "MHz" => 1_000_000u64,
            "kHz" => 1_000,
            _ => 1,
        };
        let hz = value.node as u64 * scale;
        if hz == 0 || hz > 1_000_000_000 {
            let help = "for example `clock 8 MHz internal`";
            self.err(Code::E0005, value.span, "the clock must be between 1 Hz and 1 GHz", "out of range", help);
        }
        self.clock = Some((hz.clamp(1, 1_000_000_000) as u32, sp));
    }

    /// `budget flash N, ram N, stack N`: each at most once over the board's budget statements.
    fn budget(&mut self, items: &[(ast::Ident, ast::Int)]) {
        for (kind, n) in items {
            let slot = match kind.node.as_str() {
                "flash" => &mut self.budget.flash,
                "ram" => &mut self.budget.ram,
                _ => &mut self.budget.stack,
            };
            match slot {
                Some(first) => {
                    let first = first.span;
                    self.twice(&format!("budget {}", kind.node), first, kind.span);
                }
                None => *slot = Some(Spanned::new(n.node, n.span)),
            }
        }
    }

    /// `display NAME = charlieplex PINS, refresh N Hz, TIMER { CELL = ANODE > CATHODE ... }`.
    fn display(&mut self, d: &ast::Display, sp: Span) {
        let pins: Vec<Spanned<Pin>> = d.pins.iter().map(|p| self.spanned_pin(p)).collect();
        let refresh_hz = hertz(&d.refresh, &d.refresh_unit);
        if refresh_hz == 0 {
            let help = "for example `refresh 1000 Hz`";
            self.err(Code::E0005, d.refresh.span, "a display refreshes at least once a second", "zero", help);
        }
        let mut leds: Vec<LedDef> = Vec::new();
        for l in &d.leds {
            if let Some(led) = self.led(l, &pins, &leds) {
                leds.push(led);
            }
        }
        leds.sort_by_key(|l| l.cell);
        if let Some((i, l)) = leds.iter().enumerate().find(|(i, l)| l.cell != *i as u32 + 1) {
            let msg = format!("LEDs must be numbered 1, 2, 3 ... without gaps; LED {} is missing", i + 1);
            let span = l.span;
            self.err(Code::E0011, span, msg, "after a gap", "number the LEDs as the game numbers its cells");
        }
        let (name, timer) = (d.name.clone(), d.timer.clone());
        self.displays.push(DisplayDef { name, pins, refresh_hz: refresh_hz.max(1), timer, leds, span: sp });
    }

    /// One charlieplexed LED, on two of the display's pins, not on another LED's pins nor
    /// numbered as another; `None` for a number given twice.
    fn led(&mut self, l: &ast::Led, pins: &[Spanned<Pin>], leds: &[LedDef]) -> Option<LedDef> {
        let anode = self.pin(&l.anode);
        let cathode = self.pin(&l.cathode);
        for (p, id) in [(anode, &l.anode), (cathode, &l.cathode)] {
            if !pins.iter().any(|q| q.node == p) {
                let help = format!("add {p} to `charlieplex ...` or use one of its pins");
                let msg = format!("{p} is not one of this display's pins");
                self.err(Code::E0011, id.span, msg, "not in the pin list", help);
            }
        }
        if anode == cathode {
            let msg = "an LED's anode and cathode must be different pins";
            self.err(Code::E0011, l.span, msg, "same pin twice", "charlieplexed LEDs sit between two pins");
        }
        if let Some(prev) = leds.iter().find(|p| p.cell == l.cell.node) {
            self.twice(&format!("LED {}", l.cell.node), prev.span, l.span);
            return None;
        }
        if let Some(prev) = leds.iter().find(|p| p.anode == anode && p.cathode == cathode) {
            self.diags.push(
                Diagnostic::error(Code::E0011, format!("two LEDs sit between {anode} and {cathode}"))
                    .with_label(Label::primary(self.file, l.span, "same pins as another LED"))
                    .with_help("each ordered pin pair lights one LED")
                    .with_label(Label::secondary(self.file, prev.span, "the other LED")),
            );
        }
        Some(LedDef { cell: l.cell.node, anode, cathode, span: l.span })
    }

    /// `button CONTROL[N] = PIN pullup`: one a control and index.
    fn button(&mut self, control: &ast::Ident, index: &Option<ast::Int>, p: &ast::Ident, pullup: bool, sp: Span) {
        let pin = self.spanned_pin(p);
        let index = index.as_ref().map(|i| i.node);
        if let Some(prev) = self.buttons.iter().find(|b| b.control.node == control.node && b.index == index) {
            return self.twice(&format!("button {}", control.node), prev.span, sp);
        }
        self.buttons.push(ButtonDef { control: control.clone(), index, pin, pullup, span: sp });
    }

    /// `serial PORT RATE baud [for ROLE [suffix ...]]`: one without a role, one a role.
    fn serial(
        &mut self,
        port: &ast::Ident,
        baud: &ast::Int,
        role: &Option<ast::Ident>,
        suffix: &[Spanned<u32>],
        sp: Span,
    ) {
        let first = match role {
            Some(r) => self.serial_roles.iter().find(|s| s.role.as_ref().is_some_and(|o| o.node == r.node)),
            None => self.serial.as_ref(),
        };
        if let Some(prev) = first {
            let what = role.as_ref().map_or("serial".to_string(), |r| format!("serial ... for {}", r.node));
            let prev = prev.span;
            return self.twice(&what, prev, sp);
        }
        if !(300..=1_000_000).contains(&baud.node) {
            let help = "for example `serial usart 9600 baud`";
            self.err(Code::E0005, baud.span, "a serial line runs at 300 to 1000000 baud", "out of range", help);
        }
        for b in suffix.iter().filter(|b| b.node > 255) {
            let help = "name bytes as `cr`, `lf`, `tab` or a number, e.g. `suffix cr lf`";
            self.err(Code::E0005, b.span, "a suffix byte is 0 to 255", "not a byte", help);
        }
        let suffix = suffix.iter().map(|b| b.node as u8).collect();
        let def = SerialPortDef { port: port.clone(), baud: baud.node, role: role.clone(), suffix, span: sp };
        match role {
            Some(_) => self.serial_roles.push(def),
            None => self.serial = Some(def),
        }
    }

    /// `display NAME = matrix rows PINS, red PINS, green PINS, refresh N Hz, TIMER`.
    fn matrix(&mut self, m: &ast::Matrix, sp: Span) {
        if let Some(prev) = &self.matrix {
            return self.twice("display", prev.span, sp);
        }
        let rows: Vec<Spanned<Pin>> = m.rows.iter().map(|p| self.spanned_pin(p)).collect();
        let red: Vec<Spanned<Pin>> = m.red.iter().map(|p| self.spanned_pin(p)).collect();
        let green: Vec<Spanned<Pin>> = m.green.iter().map(|p| self.spanned_pin(p)).collect();
        if rows.len() > 8 || red.len() > 8 || red.len() != green.len() {
            let msg = format!(
                "a matrix has up to 8 rows and as many red as green columns, up to 8; found {} rows, {} red and {} green",
                rows.len(),
                red.len(),
                green.len()
            );
            self.err(Code::E0005, sp, msg, "this matrix", "give one pin per row and per column of each colour");
        }
        self.matrix = Some(MatrixDef {
            name: m.name.clone(),
            rows,
            red,
            green,
            columns_active_high: m.columns_high,
            refresh_hz: hertz(&m.refresh, &m.refresh_unit).max(1),
            timer: m.timer.clone(),
            span: sp,
        });
    }

    /// The board, or every diagnostic found (a missing `chip` or `clock` among them).
    fn finish(mut self, board: &ast::Board) -> Result<BoardDef, Vec<Diagnostic>> {
        let missing = |what: &str, example: &str| {
            Diagnostic::error(Code::E0003, format!("board `{}` has no `{what}` statement", board.name.node))
                .with_label(Label::primary(self.file, board.name.span, format!("`{what}` is required")))
                .with_help(format!("add, for example: `{example}`"))
        };
        let (chip, clock) = match (self.chip, self.clock) {
            (Some(chip), Some(clock)) if self.diags.is_empty() => (chip, clock),
            (chip, clock) => {
                let mut diags = std::mem::take(&mut self.diags);
                if chip.is_none() {
                    diags.push(missing("chip", "chip attiny84a"));
                }
                if clock.is_none() {
                    diags.push(missing("clock", "clock 8 MHz internal"));
                }
                return Err(diags);
            }
        };
        Ok(BoardDef {
            name: board.name.clone(),
            chip: chip.clone(),
            clock_hz: clock.0,
            clock_span: clock.1,
            budget: self.budget,
            displays: self.displays,
            buttons: self.buttons,
            speaker: self.speaker,
            serial: self.serial,
            serial_roles: self.serial_roles,
            tick: self.tick,
            leds: self.leds,
            matrix: self.matrix,
            encoders: self.encoders,
            eeprom: self.eeprom,
            programmer: self.programmer,
        })
    }
}
