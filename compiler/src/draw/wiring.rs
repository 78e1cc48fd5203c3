//! What each of the chip's pins drives and what each device is wired to: the drawing's facts,
//! read from the board's definition and the chip's table, before anything has a position.

use crate::chips::{Arch, Chip};
use gamec_dsl::{BoardDef, Pin};
use std::collections::BTreeMap;

/// How the chip is clocked, as the board's `clock` statement says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockSource {
    Internal,
    Crystal,
    External,
}

/// One terminal on the chip's box: a port's pin, or a pin of its own (a crystal's, or a serial
/// port's where the chip's table names no pins).
#[derive(Debug, Clone)]
pub struct Terminal {
    pub name: String,
    /// What it is wired to, one entry a device.
    pub uses: Vec<String>,
    /// Why it is not a pin to wire (the chip's reset), or that the chip has no such pin.
    pub note: Option<String>,
    /// The port it belongs to: a gap is left between ports.
    pub port: Option<char>,
}

impl Terminal {
    /// The tooltip and the row's words: `PD1: usart TX, to the host's RX`.
    pub fn title(&self) -> String {
        let what: Vec<&str> = self.uses.iter().map(String::as_str).chain(self.note.as_deref()).collect();
        match what.is_empty() {
            true => format!("{}: free", self.name),
            false => format!("{}: {}", self.name, what.join("; ")),
        }
    }
}

/// A device drawn beside the chip.
#[derive(Debug, Clone)]
pub enum Device {
    /// LEDs between pairs of pins, each by its cell number: (cell, anode, cathode).
    Charlieplex { name: String, pins: Vec<Pin>, leds: Vec<(u32, Pin, Pin)>, refresh_hz: u32, timer: String },
    /// A bicolour matrix: row pins, then each colour's column pins.
    Matrix {
        name: String,
        rows: Vec<Pin>,
        red: Vec<Pin>,
        green: Vec<Pin>,
        active_high: bool,
        refresh_hz: u32,
        timer: String,
    },
    /// Anything else: a title, its connections (the chip's terminal, or a supply, and what is
    /// wired there) and a note on how.
    Part { title: String, lines: Vec<(String, String)>, note: String },
}

impl Device {
    /// What the device is, in a word or two: `display cells`, `encoder across`, `buttons`.
    pub fn name(&self) -> String {
        match self {
            Device::Charlieplex { name, .. } | Device::Matrix { name, .. } => format!("display {name}"),
            Device::Part { title, .. } => title.split(':').next().unwrap_or(title).to_string(),
        }
    }
}

/// Everything the drawing shows.
#[derive(Debug, Clone)]
pub struct Wiring {
    pub board: String,
    /// The chip, its clock and memories, on one line.
    pub summary: String,
    pub chip: String,
    pub terminals: Vec<Terminal>,
    pub devices: Vec<Device>,
}

/// A rate as a person writes it: `8 MHz`, `7.3728 MHz`, `1000 Hz`.
pub fn rate(hz: u32) -> String {
    match hz {
        h if h >= 1_000_000 => format!("{} MHz", h as f64 / 1e6),
        h if h >= 10_000 => format!("{} kHz", h as f64 / 1e3),
        h => format!("{h} Hz"),
    }
}

fn bytes(n: u32) -> String {
    match n {
        n if n >= 1024 && n % 1024 == 0 => format!("{} KB", n / 1024),
        n => format!("{n} B"),
    }
}

/// Column letters as the game names them: A, B, C ...
fn column(i: usize) -> char {
    (b'A' + (i % 26) as u8) as char
}

fn numbers(cells: impl Iterator<Item = u32>) -> String {
    cells.map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

/// The pins a board names, the uses of each, and the devices, gathered device by device.
struct Gather {
    uses: BTreeMap<Pin, Vec<String>>,
    own: Vec<Terminal>,
    devices: Vec<Device>,
}

impl Gather {
    fn wire(&mut self, pin: Pin, what: String) {
        self.uses.entry(pin).or_default().push(what);
    }

    fn own(&mut self, name: String, what: String) {
        self.own.push(Terminal { name, uses: vec![what], note: None, port: None });
    }

    fn part(&mut self, title: String, lines: Vec<(String, String)>, note: impl Into<String>) {
        self.devices.push(Device::Part { title, lines, note: note.into() });
    }

    /// The charlieplexed displays: each pin an anode of some LEDs and a cathode of others.
    fn displays(&mut self, board: &BoardDef) {
        for d in &board.displays {
            for p in &d.pins {
                let anode = numbers(d.leds.iter().filter(|l| l.anode == p.node).map(|l| l.cell));
                let cathode = numbers(d.leds.iter().filter(|l| l.cathode == p.node).map(|l| l.cell));
                let what = format!("display {}: anode of LEDs {anode}; cathode of LEDs {cathode}", d.name.node);
                self.wire(p.node, what);
            }
            self.devices.push(Device::Charlieplex {
                name: d.name.node.clone(),
                pins: d.pins.iter().map(|p| p.node).collect(),
                leds: d.leds.iter().map(|l| (l.cell, l.anode, l.cathode)).collect(),
                refresh_hz: d.refresh_hz,
                timer: d.timer.node.clone(),
            });
        }
    }

    /// The bicolour matrix: its rows and its red and green columns.
    fn matrix(&mut self, board: &BoardDef) {
        if let Some(m) = &board.matrix {
            let name = &m.name.node;
            for (i, p) in m.rows.iter().enumerate() {
                self.wire(p.node, format!("display {name} row {}", i + 1));
            }
            for (colour, pins) in [("red", &m.red), ("green", &m.green)] {
                for (i, p) in pins.iter().enumerate() {
                    self.wire(p.node, format!("display {name} {colour} column {}", column(i)));
                }
            }
            self.devices.push(Device::Matrix {
                name: name.clone(),
                rows: m.rows.iter().map(|p| p.node).collect(),
                red: m.red.iter().map(|p| p.node).collect(),
                green: m.green.iter().map(|p| p.node).collect(),
                active_high: m.columns_active_high,
                refresh_hz: m.refresh_hz,
                timer: m.timer.node.clone(),
            });
        }
    }

    /// The buttons, each between its pin and ground.
    fn buttons(&mut self, board: &BoardDef) {
        if !board.buttons.is_empty() {
            let mut lines = Vec::new();
            for b in &board.buttons {
                let name = match b.index {
                    Some(i) => format!("{}[{i}]", b.control.node),
                    None => b.control.node.clone(),
                };
                let pull = if b.pullup { "the chip's pull-up" } else { "a pull-up resistor to fit" };
                self.wire(b.pin.node, format!("button {name}, to ground, {pull}"));
                lines.push((b.pin.node.to_string(), format!("button {name}")));
            }
            self.part("buttons".into(), lines, "each between its pin and ground: a press reads low");
        }
    }

    /// The rotary encoders' two contacts.
    fn encoders(&mut self, board: &BoardDef) {
        for e in &board.encoders {
            let name = &e.name.node;
            self.wire(e.a.node, format!("encoder {name} contact A"));
            self.wire(e.b.node, format!("encoder {name} contact B"));
            let lines = vec![
                (e.a.node.to_string(), "contact A".into()),
                (e.b.node.to_string(), "contact B".into()),
                ("GND".into(), "common".into()),
            ];
            self.part(format!("encoder {name}"), lines, "the contacts pulled up by the chip");
        }
    }

    /// The speaker, on the output of its timer where the chip has one there.
    fn speaker(&mut self, board: &BoardDef, chip: &Chip) {
        if let Some(s) = &board.speaker {
            let timer = &s.timer.node;
            let output = chip.timer(timer).and_then(|t| {
                t.outputs.iter().find(|&&(_, port, bit)| port == s.pin.node.port && bit == s.pin.node.bit)
            });
            let driven = match output {
                Some((channel, ..)) => format!("{timer} output {channel}"),
                None => timer.clone(),
            };
            self.wire(s.pin.node, format!("speaker, {driven}"));
            let lines = vec![(s.pin.node.to_string(), "piezo +".into()), ("GND".into(), "piezo -".into())];
            self.part("speaker".into(), lines, format!("a piezo, driven by {driven}"));
        }
    }

    /// Single LEDs lit by name.
    fn leds(&mut self, board: &BoardDef) {
        if !board.leds.is_empty() {
            let mut lines = Vec::new();
            for l in &board.leds {
                let (lit, how) = match l.active_low {
                    true => ("lit when low", "VCC, resistor, LED, pin"),
                    false => ("lit when high", "pin, resistor, LED, ground"),
                };
                self.wire(l.pin.node, format!("led {}, {lit}", l.name.node));
                lines.push((l.pin.node.to_string(), format!("led {}: {how}", l.name.node)));
            }
            self.part("leds".into(), lines, "single LEDs the game lights by name");
        }
    }

    /// The serial ports, on the chip's pins for them where it names them.
    fn serial(&mut self, board: &BoardDef, chip: &Chip) {
        for s in board.serial.iter().chain(&board.serial_roles) {
            let port = &s.port.node;
            let other = s.role.as_ref().map_or("the host".to_string(), |r| format!("the {}", r.node));
            let (tx_what, rx_what) = (format!("{port} TX, to {other}'s RX"), format!("{port} RX, from {other}'s TX"));
            let (tx, rx) = match chip.serial_port(port).and_then(|p| p.pins) {
                Some(((rx_port, rx_bit), (tx_port, tx_bit))) => {
                    let (rx, tx) = (Pin { port: rx_port, bit: rx_bit }, Pin { port: tx_port, bit: tx_bit });
                    self.wire(tx, tx_what);
                    self.wire(rx, rx_what);
                    (tx.to_string(), rx.to_string())
                }
                None => {
                    let (tx, rx) = (format!("{port} TX"), format!("{port} RX"));
                    self.own(tx.clone(), tx_what);
                    self.own(rx.clone(), rx_what);
                    (tx, rx)
                }
            };
            let lines = vec![
                (tx, format!("TX, to {other}'s RX")),
                (rx, format!("RX, from {other}'s TX")),
                ("GND".into(), format!("{other}'s ground")),
            ];
            let mut note = "8 data bits, no parity, 1 stop bit".to_string();
            if !s.suffix.is_empty() {
                let suffix: Vec<String> = s.suffix.iter().map(|b| format!("0x{b:02X}")).collect();
                note = format!("{note}; frames end in {}", suffix.join(" "));
            }
            let role = s.role.as_ref().map_or(String::new(), |r| format!(" for {}", r.node));
            self.part(format!("serial {port} {} baud{role}", s.baud), lines, note);
        }
    }

    /// The 93C46 on its four pins.
    fn eeprom(&mut self, board: &BoardDef) {
        if let Some(e) = &board.eeprom {
            let name = &e.name.node;
            let mut lines = Vec::new();
            for (pin, signal) in [(&e.cs, "CS"), (&e.sk, "SK"), (&e.di, "DI"), (&e.dout, "DO")] {
                self.wire(pin.node, format!("eeprom {name} {signal}"));
                lines.push((pin.node.to_string(), signal.to_string()));
            }
            lines.push(("GND".into(), "ORG (8-bit words)".into()));
            lines.push(("VCC".into(), "VCC".into()));
            lines.push(("GND".into(), "GND".into()));
            self.part(format!("eeprom {name}: 93C46"), lines, "a serial EEPROM holding the setups");
        }
    }

    /// The crystal or external clock on the clock's pins.
    fn clock(&mut self, clock: Option<ClockSource>, (xtal1, xtal2): (&str, &str), clock_rate: &str) {
        match clock {
            Some(ClockSource::Crystal) => {
                self.own(xtal1.into(), format!("crystal {clock_rate}"));
                self.own(xtal2.into(), format!("crystal {clock_rate}"));
                let lines = vec![(xtal1.to_string(), "one lead".into()), (xtal2.to_string(), "the other lead".into())];
                self.part(format!("crystal {clock_rate}"), lines, "a load capacitor from each lead to ground");
            }
            Some(ClockSource::External) => {
                self.own(xtal1.into(), format!("external clock {clock_rate}"));
                let lines = vec![(xtal1.to_string(), "the clock's output".into()), ("GND".into(), "its ground".into())];
                self.part(format!("external clock {clock_rate}"), lines, "an oscillator drives the clock input");
            }
            Some(ClockSource::Internal) | None => {}
        }
    }

    /// Every port pin of the chip with what it drives, then the pins the board names that
    /// the chip lacks, then the terminals of the chip's own (a serial port without pins, the
    /// clock's).
    fn terminals(&mut self, chip: &Chip) -> Vec<Terminal> {
        let mut terminals = Vec::new();
        for &(port, mask) in chip.ports {
            for bit in (0..8u8).filter(|b| mask >> b & 1 == 1) {
                let pin = Pin { port, bit };
                let reserved = chip.reserved.iter().find(|&&(p, b, _)| p == port && b == bit);
                terminals.push(Terminal {
                    name: pin.to_string(),
                    uses: self.uses.remove(&pin).unwrap_or_default(),
                    note: reserved.map(|(_, _, what)| format!("{what} (reserved)")),
                    port: Some(port),
                });
            }
        }
        // Pins the chip does not have (the board's check refuses them; drawn all the same).
        for (pin, uses) in std::mem::take(&mut self.uses) {
            let note = Some(format!("not a pin of the {}", chip.name));
            terminals.push(Terminal { name: pin.to_string(), uses, note, port: Some(pin.port) });
        }
        terminals.append(&mut self.own);
        terminals
    }
}

impl Wiring {
    pub fn new(board: &BoardDef, chip: &Chip, clock: Option<ClockSource>) -> Wiring {
        let mut g = Gather { uses: BTreeMap::new(), own: Vec::new(), devices: Vec::new() };
        let xtals = match chip.arch {
            Arch::Avr(_) => ("XTAL1", "XTAL2"),
            Arch::CortexM(_) => ("OSC_IN", "OSC_OUT"),
        };
        let clock_rate = rate(board.clock_hz);
        g.displays(board);
        g.matrix(board);
        g.buttons(board);
        g.encoders(board);
        g.speaker(board, chip);
        g.leds(board);
        g.serial(board, chip);
        g.eeprom(board);
        g.clock(clock, xtals, &clock_rate);
        let terminals = g.terminals(chip);

        let source = match clock {
            Some(ClockSource::Internal) => " internal",
            Some(ClockSource::Crystal) => " crystal",
            Some(ClockSource::External) => " external",
            None => "",
        };
        let mut summary = format!(
            "chip {}, clock {clock_rate}{source}, {} flash, {} RAM",
            chip.name,
            bytes(chip.flash),
            bytes(chip.ram)
        );
        if let Some(t) = &board.tick {
            summary.push_str(&format!(", tick {}", t.node));
        }
        Wiring { board: board.name.node.clone(), summary, chip: chip.name.to_string(), terminals, devices: g.devices }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_as_written() {
        assert_eq!(rate(8_000_000), "8 MHz");
        assert_eq!(rate(7_372_800), "7.3728 MHz");
        assert_eq!(rate(32_768), "32.768 kHz");
        assert_eq!(rate(1000), "1000 Hz");
        assert_eq!(bytes(16384), "16 KB");
        assert_eq!(bytes(100), "100 B");
        assert_eq!(column(2), 'C');
    }
}
