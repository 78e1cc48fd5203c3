//! A person at the pins of a simulated AVR (simavr, through avr-simulator): holds buttons and
//! turns encoders, reads charlieplexed LEDs and the bicolour matrix across their multiplexing,
//! listens to the speaker pin, types on the UART and reads its lines, and follows the chip
//! into sleep and out. `gamec play` plays a board's firmware through it, and the device tests
//! play every game through it.
//!
//! avr-simulator rather than avr-tester: avr-tester panics when the chip sleeps, and buttons
//! on pulled-up pins must be re-asserted after every instruction (simavr re-applies pull-ups on
//! each write to the port). [`cortex`] is the same person at a Cortex-M's pins, in QEMU.

pub mod cortex;
pub mod eeprom;

use crate::bind::Target;
use avr_simulator::{ffi, AvrSimulator, AvrState, PinMode};
use std::path::Path;

pub struct Device {
    sim: AvrSimulator,
    pub target: Target,
    clock_hz: u64,
    pub cycles: u64,
    /// Pins the player holds at a level, re-asserted after every instruction.
    held: Vec<(char, u8, bool)>,
    pub slept: bool,
    /// simavr's `avr_t`, read once at boot (see [`Device::raw`]).
    avr: *mut ffi::avr_t,
    /// When tracking: the deepest stack pointer seen and the last three samples.
    stack: Option<(u16, [u16; 3])>,
    /// Where the program was when the stack was deepest (a byte address).
    pub deepest_pc: u32,
    /// When profiling: a program-counter sample every this many cycles, and the samples.
    pub profile: Option<(u64, Vec<u32>)>,
    /// Bytes of the line the chip is sending, and the cycle its first byte came.
    rx: Vec<u8>,
    rx_start: u64,
    /// A 93C46 on the chip's pins, if the board has one.
    pub eeprom: Option<eeprom::Eeprom93c46>,
}

/// A line the chip sent on its UART, and when.
#[derive(Debug, Clone)]
pub struct Received {
    pub text: String,
    /// The cycle its first byte arrived.
    pub start: u64,
    /// The cycle its end arrived.
    pub end: u64,
}

impl Device {
    pub fn boot(elf: &Path, target: &Target) -> Device {
        let sim = AvrSimulator::new(target.chip.avr().simavr, target.clock_hz, elf);
        let avr = raw(&sim);
        let mut d = Device {
            sim,
            avr,
            stack: None,
            deepest_pc: 0,
            rx: Vec::new(),
            rx_start: 0,
            eeprom: None,
            profile: None,
            target: target.clone(),
            clock_hz: target.clock_hz as u64,
            cycles: 0,
            held: Vec::new(),
            slept: false,
        };
        // Every button starts released.
        for p in d.target.inputs.clone() {
            d.hold(p.port, p.bit, true);
        }
        d
    }

    pub fn hold(&mut self, port: char, bit: u8, level: bool) {
        self.held.retain(|&(p, b, _)| (p, b) != (port, bit));
        self.held.push((port, bit, level));
        self.sim.set_digital_pin(port, bit, level);
    }

    fn step(&mut self) -> AvrState {
        let s = self.sim.step();
        self.cycles += s.tt.as_cycles();
        for &(p, b, l) in &self.held {
            self.sim.set_digital_pin(p, b, l);
        }
        if let Some(e) = &mut self.eeprom {
            let (cs, sk, di, dout) = (e.cs, e.sk, e.di, e.dout);
            let level = e.observe(
                self.sim.get_digital_pin(cs.0, cs.1),
                self.sim.get_digital_pin(sk.0, sk.1),
                self.sim.get_digital_pin(di.0, di.1),
            );
            self.sim.set_digital_pin(dout.0, dout.1, level);
        }
        if let Some((every, samples)) = &mut self.profile {
            if self.cycles / *every != (self.cycles - s.tt.as_cycles()) / *every {
                // SAFETY: as in `peek`.
                samples.push(unsafe { (*self.avr).pc });
            }
        }
        let sp = if self.stack.is_some() { self.sp() } else { 0 };
        if let Some((low, recent)) = &mut self.stack {
            // SP changes in two byte writes with instructions between them; a value that did
            // not hold for three instructions is such a half-written one.
            *recent = [recent[1], recent[2], sp];
            let held = *recent.iter().max().unwrap();
            if held < *low {
                *low = held;
                // SAFETY: as in `peek`.
                self.deepest_pc = unsafe { (*self.avr).pc };
            }
        }
        match s.state {
            AvrState::Running => {}
            AvrState::Sleeping => self.slept = true,
            other => panic!("the chip stopped: {other:?} at cycle {}", self.cycles),
        }
        s.state
    }

    /// Types a line on the chip's UART, ended by `\r`.
    pub fn send(&mut self, line: &str) {
        for b in line.bytes().chain([b'\r']) {
            self.sim.write_uart('0', b);
        }
    }

    /// Runs until the chip has sent a whole line (ended by `\r\n`), at most `ms`.
    pub fn read_line(&mut self, ms: f64) -> Option<Received> {
        let end = self.cycles + self.ms_to_cycles(ms);
        while self.cycles < end {
            self.step();
            while let Some(b) = self.sim.read_uart('0') {
                if self.rx.is_empty() {
                    self.rx_start = self.cycles;
                }
                match b {
                    b'\r' => {}
                    b'\n' => {
                        let text = String::from_utf8_lossy(&self.rx).into_owned();
                        self.rx.clear();
                        return Some(Received { text, start: self.rx_start, end: self.cycles });
                    }
                    _ => self.rx.push(b),
                }
            }
        }
        None
    }

    /// The bytes the chip has sent on its UART since the last look, without running it.
    pub fn uart_sent(&mut self) -> Vec<u8> {
        std::iter::from_fn(|| self.sim.read_uart('0')).collect()
    }

    /// The level a pin is driven to.
    pub fn pin_level(&mut self, port: char, bit: u8) -> bool {
        self.sim.get_digital_pin(port, bit)
    }

    pub fn ms_to_cycles(&self, ms: f64) -> u64 {
        (ms * self.clock_hz as f64 / 1000.0) as u64
    }

    pub fn run_cycles(&mut self, n: u64) {
        let end = self.cycles + n;
        while self.cycles < end {
            self.step();
        }
    }

    pub fn run_ms(&mut self, ms: f64) {
        self.run_cycles(self.ms_to_cycles(ms));
    }

    /// Runs until the chip is asleep, at most `ms`; returns whether it slept.
    pub fn run_until_sleep(&mut self, ms: f64) -> bool {
        let end = self.cycles + self.ms_to_cycles(ms);
        while self.cycles < end {
            if self.step() == AvrState::Sleeping {
                return true;
            }
        }
        false
    }

    /// Starts tracking the deepest point of the stack.
    pub fn track_stack(&mut self) {
        let sp = self.sp();
        self.stack = Some((sp, [sp; 3]));
    }

    /// The deepest stack pointer seen since `track_stack`.
    pub fn lowest_sp(&self) -> Option<u16> {
        self.stack.map(|(low, _)| low)
    }

    /// The byte at a data-space address (registers, I/O and SRAM).
    pub fn peek(&self, addr: u16) -> u8 {
        // SAFETY: the pointer is simavr's live avr_t and addr is within its data space.
        unsafe {
            let avr = self.avr;
            assert!(addr <= (*avr).ramend);
            *(*avr).data.add(addr as usize)
        }
    }

    /// The stack pointer (SPH:SPL).
    pub fn sp(&self) -> u16 {
        u16::from_le_bytes([self.peek(0x5D), self.peek(0x5E)])
    }

    /// The program counter, as a byte address.
    pub fn pc(&self) -> u32 {
        // SAFETY: as in `peek`.
        unsafe { (*self.avr).pc }
    }

    pub fn ramend(&self) -> u16 {
        // SAFETY: as in `peek`.
        unsafe { (*self.avr).ramend }
    }

    /// Steps one instruction; for measurements.
    pub fn step_once(&mut self) {
        self.step();
    }

    /// Presses input `n` (in control order) for 50 ms and lets go for 50 ms.
    pub fn press(&mut self, n: usize) {
        let p = self.target.inputs[n];
        self.hold(p.port, p.bit, false);
        self.run_ms(50.0);
        self.hold(p.port, p.bit, true);
        self.run_ms(50.0);
    }

    pub fn press_commit(&mut self) {
        self.press(self.target.commit as usize);
    }

    fn pin(&mut self, port: char, mask: u8) -> (bool, bool) {
        let bit = mask.trailing_zeros() as u8;
        (self.sim.get_digital_pin_mode(port, bit) == PinMode::Output, self.sim.get_digital_pin(port, bit))
    }

    /// The LEDs lit at this instant, as cells (bit i = cell number i + 1).
    pub fn lit_now(&mut self) -> u64 {
        let d = self.target.display.clone().expect("a display");
        let mut lit = 0u64;
        for (cathode, leds) in &d.rows {
            let (c_out, c_high) = self.pin(d.port, *cathode);
            if !c_out || c_high {
                continue;
            }
            for (cell, anode) in leds {
                let (a_out, a_high) = self.pin(d.port, *anode);
                if a_out && a_high {
                    lit |= 1 << cell;
                }
            }
        }
        lit
    }

    /// Every LED lit at some point in `ms` milliseconds, sampled every 50 µs.
    pub fn leds_over(&mut self, ms: f64) -> u16 {
        u16::try_from(self.leds_over_wide(ms)).expect("more than 16 LEDs lit: read them with leds_wide")
    }

    /// Every LED lit at some point in `ms` milliseconds, of a display of up to 64.
    pub fn leds_over_wide(&mut self, ms: f64) -> u64 {
        let mut lit = 0;
        let step = self.ms_to_cycles(0.05);
        let end = self.cycles + self.ms_to_cycles(ms);
        while self.cycles < end {
            lit |= self.lit_now();
            self.run_cycles(step);
        }
        lit
    }

    /// The LEDs as a person sees them: everything lit across two full scans.
    pub fn leds(&mut self) -> u16 {
        u16::try_from(self.leds_wide()).expect("more than 16 LEDs lit: read them with leds_wide")
    }

    /// The LEDs as a person sees them, of a display of up to 64.
    pub fn leds_wide(&mut self) -> u64 {
        let rows = self.target.display.as_ref().map_or(1, |d| d.rows.len()) as f64;
        self.leds_over_wide(2.0 * rows + 1.0)
    }

    /// The speaker's frequency over the next `ms` (0 when silent): the median over its
    /// half-periods, so a window that straddles two notes reports the longer one, and the
    /// odd glitch simavr's port emulation puts on a timer output does not count.
    pub fn speaker_hz(&mut self, ms: f64) -> f64 {
        let s = self.target.speaker.clone().expect("a speaker");
        let step = self.ms_to_cycles(0.01).max(1);
        let end = self.cycles + self.ms_to_cycles(ms);
        let mut last = self.sim.get_digital_pin(s.pin.port, s.pin.bit);
        let mut edges = Vec::new();
        while self.cycles < end {
            self.run_cycles(step);
            let now = self.sim.get_digital_pin(s.pin.port, s.pin.bit);
            if now != last {
                edges.push(self.cycles);
                last = now;
            }
        }
        let mut halves: Vec<u64> = edges.windows(2).map(|w| w[1] - w[0]).collect();
        if halves.len() < 4 {
            return 0.0;
        }
        halves.sort_unstable();
        self.clock_hz as f64 / (2.0 * halves[halves.len() / 2] as f64)
    }

    /// The frequencies heard in consecutive windows of `window_ms`, until `total_ms` passed.
    pub fn listen(&mut self, total_ms: f64, window_ms: f64) -> Vec<f64> {
        let mut out = Vec::new();
        let mut t = 0.0;
        while t < total_ms {
            out.push(self.speaker_hz(window_ms));
            t += window_ms;
        }
        out
    }
}

/// simavr's own `avr_t`, for measurements the pins cannot give (stack pointer, program counter,
/// RAM). avr-simulator keeps the pointer private; its derived `Debug` prints it, so it is read
/// from there, once per simulator.
fn raw(sim: &AvrSimulator) -> *mut ffi::avr_t {
    let dbg = format!("{sim:?}");
    let at = dbg.find("inner: 0x").expect("avr-simulator's Debug shows the avr_t pointer") + "inner: 0x".len();
    let hex: String = dbg[at..].chars().take_while(|c| c.is_ascii_hexdigit()).collect();
    usize::from_str_radix(&hex, 16).unwrap() as *mut ffi::avr_t
}

impl Device {
    /// Runs until the speaker's pin changes level, at most `ms`; the cycle it changed at.
    pub fn until_sound(&mut self, ms: f64) -> Option<u64> {
        let s = self.target.speaker.clone().expect("a speaker");
        let step = self.ms_to_cycles(0.01).max(1);
        let end = self.cycles + self.ms_to_cycles(ms);
        let last = self.pin_level(s.pin.port, s.pin.bit);
        while self.cycles < end {
            self.run_cycles(step);
            if self.pin_level(s.pin.port, s.pin.bit) != last {
                return Some(self.cycles);
            }
        }
        None
    }

    /// Runs until the speaker has kept still for `quiet_ms`, at most `ms`; the cycle of its last
    /// change: a tune's end, within half a period of its last note.
    pub fn until_quiet(&mut self, quiet_ms: f64, ms: f64) -> u64 {
        let end = self.cycles + self.ms_to_cycles(ms);
        let mut last_change = self.cycles;
        while self.cycles < end {
            match self.until_sound(quiet_ms) {
                Some(at) => last_change = at,
                None => return last_change,
            }
        }
        panic!("the speaker still sounded after {ms} ms");
    }

    /// Runs on to simulator cycle `at` (at once if it has passed).
    pub fn run_to(&mut self, at: u64) {
        self.run_cycles(at.saturating_sub(self.cycles));
    }

    /// Milliseconds of simulator time from cycle `from` to cycle `to`.
    pub fn ms_between(&self, from: u64, to: u64) -> f64 {
        (to as f64 - from as f64) * 1000.0 / self.clock_hz as f64
    }

    /// Holds input `n` down (`true`) or lets it go.
    pub fn hold_input(&mut self, n: usize, down: bool) {
        let p = self.target.inputs[n];
        self.hold(p.port, p.bit, !down);
    }

    /// The next LEDs as a person sees them in 5 ms (every row of the display scanned at least
    /// once): one LED while the sweep attracts, two when its step fell inside the window.
    pub fn glance(&mut self) -> u16 {
        self.leds_over(5.0)
    }
}

/// One detent of a quadrature encoder: the levels of its A and B contacts, in turn, from the
/// shaft at rest (both open, high), `forward` with A leading. A player holds each for 2 ms,
/// then the shaft at rest for 4 ms.
pub fn detent(forward: bool) -> [(bool, bool); 4] {
    [(false, true), (false, false), (true, false), (true, true)].map(|(x, y)| if forward { (x, y) } else { (y, x) })
}

/// What a bicolour cell shows: bit 0 red, bit 1 green.
pub type Lit = u8;
pub const OFF: Lit = 0;
pub const RED: Lit = 1;
pub const GREEN: Lit = 2;
pub const YELLOW: Lit = 3;

/// A matrix picture as text, a row a line: `.` off, `r`, `g`, `y`.
pub fn show(p: &[[Lit; 8]; 8]) -> String {
    p.iter().map(|r| r.iter().map(|&v| ['.', 'r', 'g', 'y'][v as usize & 3]).collect::<String>() + "\n").collect()
}

impl Device {
    /// The matrix cells lit at this instant, `[row][col]`, from the pins: a column is lit while
    /// its pin is an output at its active level, and its lit rows are outputs driven high.
    pub fn matrix_now(&mut self) -> [[Lit; 8]; 8] {
        let m = self.target.cursor.clone().expect("a cursor board").matrix;
        let mut out = [[0; 8]; 8];
        let active = |d: &mut Device, p: gamec_dsl::Pin| {
            let (o, level) = d.pin(p.port, 1 << p.bit);
            o && level == m.columns_active_high
        };
        for (colour, columns) in [(1u8, &m.red), (2u8, &m.green)] {
            for (c, &p) in columns.iter().enumerate() {
                if !active(self, p) {
                    continue;
                }
                for (r, &rp) in m.rows.iter().enumerate() {
                    let (o, high) = self.pin(rp.port, 1 << rp.bit);
                    if o && high {
                        out[r][c] |= colour;
                    }
                }
            }
        }
        out
    }

    /// Everything lit at some point in `ms` milliseconds, sampled every 50 µs: the picture as
    /// an eye sees it over that time.
    pub fn matrix_over(&mut self, ms: f64) -> [[Lit; 8]; 8] {
        let mut seen = [[0; 8]; 8];
        let step = self.ms_to_cycles(0.05);
        let end = self.cycles + self.ms_to_cycles(ms);
        while self.cycles < end {
            let now = self.matrix_now();
            for r in 0..8 {
                for c in 0..8 {
                    seen[r][c] |= now[r][c];
                }
            }
            self.run_cycles(step);
        }
        seen
    }

    /// One detent of an encoder on pins `a` and `b` ([`detent`]).
    pub fn turn(&mut self, a: gamec_dsl::Pin, b: gamec_dsl::Pin, forward: bool) {
        for (la, lb) in detent(forward) {
            self.hold(a.port, a.bit, la);
            self.hold(b.port, b.bit, lb);
            self.run_ms(2.0);
        }
        self.run_ms(4.0);
    }

    /// Presses a button on `p`; returns the pitch heard in the 40 ms after the press counts,
    /// 0 for silence. The press counts after 20 ms of debouncing, give or take the loop's
    /// pace; 40 ms of listening then hears even a low note's few periods.
    pub fn press_listening(&mut self, p: gamec_dsl::Pin) -> f64 {
        self.press_listening_for(p, 40.0)
    }

    /// [`Device::press_listening`], listening for `ms` after the first 20 ms: for firmware that
    /// takes a while to judge a press (a game on the rule core lists its moves, tens of
    /// milliseconds on an 8 MHz AVR).
    pub fn press_listening_for(&mut self, p: gamec_dsl::Pin, ms: f64) -> f64 {
        self.hold(p.port, p.bit, false);
        self.run_ms(20.0);
        let pitch = self.speaker_hz(ms);
        self.hold(p.port, p.bit, true);
        self.run_ms(25.0);
        pitch
    }

    /// Holds a button on `p` down for `ms` and lets it go for as long.
    pub fn press_pin(&mut self, p: gamec_dsl::Pin, ms: f64) {
        self.hold(p.port, p.bit, false);
        self.run_ms(ms);
        self.hold(p.port, p.bit, true);
        self.run_ms(ms);
    }
}
