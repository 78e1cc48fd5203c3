//! A person at the pins of a Cortex-M in qemu-system-arm: the LM3S6965 in QEMU's
//! `lm3s6965evb` (its PL061 ports), the STM32F405 and the AT32F437 in `netduinoplus2` (built
//! by gamec with a model of the STM32F4's ports: `xtask/qemu/`). It holds buttons, reads
//! charlieplexed LEDs and a matrix, listens to the speaker, and follows the chip into sleep and
//! out. `gamec play` plays such a board through it, and the device tests play games on it as
//! on an AVR.
//!
//! The guest runs freely under TCG (in virtual time for the tests, at the wall clock's pace
//! for a person), and QEMU traces what the pins see, in order, to a log: every write to a
//! GPIO port's direction and data registers, every input that changes, every SysTick reload
//! (a millisecond of the board's clock), every write to SysTick's control (the glue pauses
//! its tick to sleep) and to the general-purpose timers (a note). The player reads that log as the
//! firmware's timeline: an LED lit, a toggle of the speaker's pin or a sleep is placed at the
//! millisecond it happened, however busy the host was. Buttons are set through QEMU's qtest
//! protocol, and each press is placed on the timeline where QEMU traced the input change.

mod matrix;

use crate::bind::Target;
use crate::chips::PinModel;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The machine's GPIO ports from A, as QEMU's object tree names them: the LM3S6965's
/// `pl061_luminary` devices, the STM32F4 model's children of the SoC.
const FIRST_PORT_DEVICE: usize = 8;

fn port_device(model: PinModel, port: char) -> String {
    let n = (port as u8 - b'A') as usize;
    match model {
        PinModel::Pl061 => format!("/machine/unattached/device[{}]", FIRST_PORT_DEVICE + n),
        PinModel::Stm32f4 => format!("/machine/soc/gpio[{n}]"),
    }
}

/// Virtual time an instruction takes, `2^shift` ns: about a clock of the machine's core, whose
/// clock SysTick counts (the lm3s6965evb's 50 MHz, 20 ns; netduinoplus2's 168 MHz, 6 ns), so
/// that a tick gives the firmware about the instructions it has on the chip.
fn icount_shift(model: PinModel) -> u8 {
    match model {
        PinModel::Pl061 => 4,
        PinModel::Stm32f4 => 3,
    }
}

/// The most ports a modelled chip has (the STM32F4's A to I).
const PORTS: usize = 9;

/// The qemu-system-arm that models `model`'s ports: Debian's for the PL061, gamec's own build
/// for the STM32F4's (`GAMEC_QEMU` names another).
pub fn qemu_binary(model: PinModel) -> Result<PathBuf, String> {
    if model == PinModel::Pl061 {
        return Ok(PathBuf::from("qemu-system-arm"));
    }
    let built = std::env::var_os("GAMEC_QEMU")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/gamec-qemu/qemu-system-arm"));
    if built.is_file() {
        Ok(built)
    } else {
        Err(format!(
            "the STM32F4's pins play in gamec's own build of QEMU, with a model of its GPIO ports, not found at {}: \
             `cargo xtask setup` builds it",
            built.display()
        ))
    }
}
/// Bounds real time on anything the guest is waited for: only a machine that stopped
/// running reaches it.
const STUCK: Duration = Duration::from_secs(60);

/// What QEMU traces: the ports' registers and inputs, SysTick's reloads and control, and the
/// writes to any device's registers, of which the player reads the general-purpose timers'.
const TRACED: &str = "trace:pl061_write,trace:pl061_input_change,trace:stm32f4_gpio_pins,trace:stm32f4_gpio_input,\
trace:systick_timer_tick,trace:systick_write,trace:memory_region_ops_write";

/// The LM3S6965's general-purpose timers: timer n's registers at `TIMER0 + n * 0x1000`, its
/// control (bit 0 runs timer A) and its 32-bit reload.
const TIMER0: u32 = 0x4003_0000;
const GPTMCTL: u32 = 0x00C;
const GPTMTAILR: u32 = 0x028;

/// The STM32F4's timers 2 to 5: timer n's registers at `TIM2 + (n - 2) * 0x400`, its control
/// (bit 0 counts), prescaler and reload.
const TIM2: u32 = 0x4000_0000;
const TIM_CR1: u32 = 0x00;
const TIM_PSC: u32 = 0x28;
const TIM_ARR: u32 = 0x2C;

/// Whose turn it is to run a machine: one at a time in a process (a test binary's tests run
/// in parallel).
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A GPIO port's registers as the firmware wrote them.
#[derive(Clone, Copy, Default)]
struct PortState {
    dir: u8,
    data: u8,
}

/// One line of the trace, as the player reads it.
enum Event {
    /// SysTick reloaded: a millisecond passed.
    Tick,
    /// A port's direction or data changed (port index, its registers now).
    Port(usize),
    /// An input of a port changed to a level (port index, pin, level).
    Input(usize, u8, bool),
    /// The glue paused (true) or resumed (false) its tick.
    Sleep(bool),
    /// A general-purpose timer's register written.
    Timer,
    Other,
}

/// A general-purpose timer as the firmware set it.
#[derive(Clone, Copy, Default)]
struct TimerState {
    running: bool,
    /// Clocks a count, less one (the STM32F4's prescaler; 0 on the LM3S6965).
    prescale: u32,
    reload: u32,
}

impl TimerState {
    /// The note it sounds toggling a pin at each time-out, from the chip's clock.
    fn hz(&self, clock: f64) -> f64 {
        if self.running {
            clock / (2.0 * (f64::from(self.prescale) + 1.0) * (f64::from(self.reload) + 1.0))
        } else {
            0.0
        }
    }
}

/// Where a model keeps timer `number` (as boards name it) among the traced ones.
fn timer_index(model: PinModel, number: u8) -> usize {
    match model {
        PinModel::Pl061 => usize::from(number),
        PinModel::Stm32f4 => usize::from(number.saturating_sub(2)),
    }
}

/// Bytes of log after which the player has QEMU start a new file: the trace grows by about
/// 300 KB a second of the firmware's time, and a person may play for an hour.
const LOG_BYTES: u64 = 16 << 20;

/// The log QEMU writes, read as it grows, and the machine's state at the line last read.
struct Trace {
    lines: BufReader<File>,
    /// The log files: the one being read is number `file`; QEMU may already write the next.
    dir: PathBuf,
    file: u32,
    /// Bytes read of the current file.
    read: u64,
    /// Whether QEMU was told to write the next file.
    rotating: bool,
    partial: String,
    ticks: u64,
    ports: [PortState; PORTS],
    timers: [TimerState; 4],
    asleep: bool,
}

impl Trace {
    fn log(dir: &Path, n: u32) -> PathBuf {
        dir.join(format!("trace.{n}.log"))
    }

    /// The next whole line, if QEMU has written one. At the end of a file QEMU has moved on
    /// from (its next file has begun: QEMU closed this one first), the next file is read and
    /// this one deleted.
    fn next_line(&mut self) -> Option<String> {
        loop {
            let mut chunk = String::new();
            let n = self.lines.read_line(&mut chunk).unwrap();
            self.read += n as u64;
            if n == 0 {
                let next = Trace::log(&self.dir, self.file + 1);
                if !self.rotating || std::fs::metadata(&next).map_or(true, |m| m.len() == 0) {
                    return None;
                }
                let _ = std::fs::remove_file(Trace::log(&self.dir, self.file));
                self.lines = BufReader::new(File::open(&next).unwrap());
                (self.file, self.read, self.rotating) = (self.file + 1, 0, false);
                continue;
            }
            self.partial.push_str(&chunk);
            if self.partial.ends_with('\n') {
                return Some(std::mem::take(&mut self.partial));
            }
        }
    }

    /// Applies a line to the state and says what it was.
    fn apply(&mut self, line: &str) -> Event {
        let words: Vec<&str> = line.split_whitespace().collect();
        let port = |w: &str| -> Option<usize> {
            let n: usize = w.rsplit('[').next()?.trim_end_matches(']').parse().ok()?;
            n.checked_sub(FIRST_PORT_DEVICE).filter(|&p| p < 7)
        };
        let hex = |w: &str| u32::from_str_radix(w.trim_start_matches("0x"), 16).unwrap();
        match words.as_slice() {
            ["systick_timer_tick", ..] => {
                self.ticks += 1;
                Event::Tick
            }
            // `systick write addr 0x0 data 0x5 size 4`: the control register.
            ["systick_write", _, _, "addr", "0x0", "data", value, ..] => Event::Sleep(hex(value) & 0b10 == 0),
            ["pl061_write", path, "offset", offset, "value", value] => {
                let Some(p) = port(path) else { return Event::Other };
                let (offset, value) = (hex(offset), hex(value) as u8);
                let s = &mut self.ports[p];
                match offset {
                    // The data window: the address's bits 9:2 mask the write, and an input's
                    // bit keeps its level (PL061).
                    0..=0x3FF => {
                        let mask = (offset >> 2) as u8 & s.dir;
                        s.data = (s.data & !mask) | (value & mask);
                    }
                    0x400 => s.dir = value,
                    _ => return Event::Other,
                }
                Event::Port(p)
            }
            ["memory_region_ops_write", .., "addr", addr, "value", value, "size", _, "name", "'gptm'"] => {
                let (addr, value) = (hex(addr), hex(value));
                let n = ((addr - TIMER0) / 0x1000) as usize;
                match (addr - TIMER0) % 0x1000 {
                    GPTMCTL => self.timers[n].running = value & 1 == 1,
                    GPTMTAILR => self.timers[n].reload = value,
                    _ => {}
                }
                Event::Timer
            }
            ["pl061_input_change", path, "input", pin, "changed", "to", level] => match port(path) {
                Some(p) => Event::Input(p, pin.parse().unwrap(), *level == "1"),
                None => Event::Other,
            },
            // `stm32f4_gpio_pins port A moder 0xa8000000 odr 0x0000`: the low eight pins' modes
            // (01 an output) and levels.
            ["stm32f4_gpio_pins", "port", port, "moder", moder, "odr", odr] => {
                let p = (port.as_bytes()[0] - b'A') as usize;
                let (moder, odr) = (hex(moder), hex(odr));
                let dir = (0..8).filter(|i| moder >> (2 * i) & 0b11 == 0b01).fold(0u8, |d, i| d | 1 << i);
                self.ports[p] = PortState { dir, data: odr as u8 };
                Event::Port(p)
            }
            ["stm32f4_gpio_input", "port", port, "pin", pin, "level", level] => {
                Event::Input((port.as_bytes()[0] - b'A') as usize, pin.parse().unwrap(), *level == "1")
            }
            ["memory_region_ops_write", .., "addr", addr, "value", value, "size", _, "name", "'stm32f2xx_timer'"] => {
                let (addr, value) = (hex(addr), hex(value));
                let n = ((addr - TIM2) / 0x400) as usize;
                match (addr - TIM2) % 0x400 {
                    TIM_CR1 => self.timers[n].running = value & 1 == 1,
                    TIM_PSC => self.timers[n].prescale = value,
                    TIM_ARR => self.timers[n].reload = value,
                    _ => {}
                }
                Event::Timer
            }
            _ => Event::Other,
        }
    }
}

pub struct Board {
    child: Child,
    qtest: BufReader<UnixStream>,
    trace: Trace,
    /// The millisecond of the firmware's timeline the test has come to.
    now: u64,
    dir: PathBuf,
    pub target: Target,
    /// The level the player holds each port's inputs at, a bit a pin (QEMU's start: low).
    held: [u8; PORTS],
    model: PinModel,
    _turn: std::sync::MutexGuard<'static, ()>,
}

/// How the guest's clock runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Pace {
    /// In virtual time, a fixed time an instruction (about a clock of the core: `icount_shift`), idle time
    /// jumping to the next timer: what the firmware does does not depend on the host's load,
    /// and a test waits for nothing.
    Virtual,
    /// At the wall clock's pace, for a person at the keyboard: the same time an instruction,
    /// QEMU holding the guest back to the host's clock, and late where the host is too busy to
    /// keep up (never faster, and no tick skipped).
    WallClock,
}

impl Board {
    /// Boots `elf`, every button released: QEMU models no pull-up on an input it is told the
    /// level of, so the player holds each high, as the pull-up would. Errors if QEMU does not
    /// start.
    pub fn boot(elf: &Path, target: &Target, pace: Pace) -> Result<Board, String> {
        // The chip's machine, which models the pins this player sets and reads.
        let Some((qemu, model)) = target.chip.qemu().and_then(|q| Some((q, q.pins?))) else {
            return Err(format!("no QEMU machine models the {}'s pins", target.chip.name));
        };
        let binary = qemu_binary(model)?;
        let turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        let dir = std::env::temp_dir().join(format!("gamec-qemu-pins-{}-{}", std::process::id(), elf_stem(elf)));
        std::fs::create_dir_all(&dir).unwrap();
        let (socket, log) = (dir.join("qtest.sock"), Trace::log(&dir, 0));
        let _ = std::fs::remove_file(&socket);
        File::create(&log).unwrap();
        let listener = UnixListener::bind(&socket).unwrap();
        let mut cmd = Command::new(&binary);
        cmd.args(["-M", qemu.machine, "-display", "none", "-serial", "none", "-monitor", "stdio", "-S"]);
        // Time counted in instructions either way, so that a tick never passes unserved: on
        // the wall clock (sleep on, aligned to the host's), a vCPU a loaded host holds back
        // runs late rather than have QEMU's timers fire past it, their interrupts merged.
        cmd.args([
            "-icount",
            &format!(
                "shift={},{}",
                icount_shift(model),
                match pace {
                    Pace::Virtual => "align=off,sleep=off",
                    Pace::WallClock => "align=on,sleep=on",
                }
            ),
        ]);
        let child = cmd
            .args(["-d", TRACED, "-D"])
            .arg(&log)
            .args(["-qtest", &format!("unix:{}", socket.display()), "-qtest-log", "/dev/null", "-kernel"])
            .arg(elf)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e} (`cargo xtask setup` installs it)", binary.display()))?;
        let (stream, _) = listener.accept().map_err(|e| format!("QEMU's qtest socket: {e}"))?;
        stream.set_read_timeout(Some(STUCK)).unwrap();
        let trace = Trace {
            lines: BufReader::new(File::open(&log).unwrap()),
            dir: dir.clone(),
            file: 0,
            read: 0,
            rotating: false,
            partial: String::new(),
            ticks: 0,
            ports: [PortState::default(); PORTS],
            timers: [TimerState::default(); 4],
            asleep: false,
        };
        let mut board = Board {
            child,
            qtest: BufReader::new(stream),
            trace,
            now: 0,
            dir,
            target: target.clone(),
            held: [0; PORTS],
            model,
            _turn: turn,
        };
        for p in target.inputs.clone().into_iter().chain(Board::cursor_inputs(target)) {
            board.set_input(p.port, p.bit, true);
        }
        // The machine was held at reset (-S) while the inputs were set: now it runs.
        let stdin = board.child.stdin.as_mut().unwrap();
        stdin.write_all(b"cont\n").unwrap();
        stdin.flush().unwrap();
        Ok(board)
    }

    /// Has QEMU write its trace to the next file (the monitor's `logfile`), so that the player
    /// can delete the one it has read.
    fn rotate_log(&mut self) {
        let next = Trace::log(&self.trace.dir, self.trace.file + 1);
        let stdin = self.child.stdin.as_mut().expect("the monitor's input");
        writeln!(stdin, "logfile {}", next.display()).unwrap();
        stdin.flush().unwrap();
        self.trace.rotating = true;
    }

    /// Sends one qtest command; panics unless QEMU answers OK.
    fn qtest(&mut self, line: &str) {
        writeln!(self.qtest.get_mut(), "{line}").unwrap();
        let mut answer = String::new();
        let n = self.qtest.read_line(&mut answer).unwrap_or_else(|e| panic!("qtest `{line}`: {e}"));
        assert!(n > 0 && answer.starts_with("OK"), "qtest `{line}` answered {answer:?}");
    }

    fn set_input(&mut self, port: char, bit: u8, level: bool) {
        self.qtest(&format!("set_irq_in {} unnamed-gpio-in {bit} {}", port_device(self.model, port), level as u8));
        let held = &mut self.held[(port as u8 - b'A') as usize];
        *held = (*held & !(1 << bit)) | (u8::from(level) << bit);
    }

    /// Reads the trace on until `done` holds, calling `seen` with each event and the state
    /// after it. Asleep, once QEMU has written nothing for a while, the firmware waits on a
    /// pin: `done` is asked with `idle` set, and may end the wait there.
    fn follow(&mut self, mut done: impl FnMut(&Trace, bool) -> bool, mut seen: impl FnMut(&Trace, &Event)) {
        let mut quiet_since = None::<Instant>;
        loop {
            if done(&self.trace, false) {
                return;
            }
            if self.trace.read > LOG_BYTES && !self.trace.rotating {
                self.rotate_log();
            }
            match self.trace.next_line() {
                Some(line) => {
                    quiet_since = None;
                    let event = self.trace.apply(&line);
                    if let Event::Sleep(asleep) = event {
                        self.trace.asleep = asleep;
                    }
                    seen(&self.trace, &event);
                }
                None => {
                    let quiet = *quiet_since.get_or_insert_with(Instant::now);
                    if quiet.elapsed() > Duration::from_millis(100) && done(&self.trace, true) {
                        return;
                    }
                    if let Ok(Some(status)) = self.child.try_wait() {
                        panic!("QEMU ended ({status})");
                    }
                    // Quiet this long, the machine stopped: one that runs slowly on a busy host
                    // still writes its ticks.
                    assert!(quiet.elapsed() < STUCK, "the firmware's timeline stopped at {} ms", self.trace.ticks);
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        }
    }

    /// Lets `ms` milliseconds of the board's time pass, calling `seen` with what happens.
    fn pass(&mut self, ms: f64, seen: impl FnMut(&Trace, &Event)) {
        let until = self.now + ms.round() as u64;
        self.follow(|t, idle| t.ticks >= until || (idle && t.asleep), seen);
        self.now = until;
    }

    pub fn run_ms(&mut self, ms: f64) {
        self.pass(ms, |_, _| {});
    }

    /// Holds pin `bit` of `port` at `level` (low is a press of a button to ground), from the
    /// millisecond QEMU traces the change at.
    pub fn hold(&mut self, port: char, bit: u8, level: bool) {
        let p = (port as u8 - b'A') as usize;
        // A level already held changes nothing, and QEMU traces no change to wait for.
        if (self.held[p] >> bit & 1 == 1) == level {
            return;
        }
        self.set_input(port, bit, level);
        let changed = std::cell::Cell::new(false);
        self.follow(
            |_, _| changed.get(),
            |_, e| changed.set(matches!(*e, Event::Input(q, b, l) if q == p && b == bit && l == level)),
        );
        self.now = self.now.max(self.trace.ticks);
    }

    /// Presses pin `p` for `ms` milliseconds and lets go for as long.
    pub fn press_pin(&mut self, p: gamec_dsl::Pin, ms: f64) {
        self.hold(p.port, p.bit, false);
        self.run_ms(ms);
        self.hold(p.port, p.bit, true);
        self.run_ms(ms);
    }

    /// Every LED lit at some point in the next `ms` milliseconds.
    pub fn leds_over(&mut self, ms: f64) -> u64 {
        let display = self.target.display.as_ref().map(|d| (d.port as u8 - b'A') as usize);
        let target = self.target.clone();
        let lit_in = Board::lit_in(&target);
        let mut lit = lit_in(&self.trace);
        self.pass(ms, |t, e| {
            if matches!(*e, Event::Port(p) if Some(p) == display) {
                lit |= lit_in(t);
            }
        });
        lit
    }

    /// The LEDs a board's display lights in a state of the machine, as cells (bit i = cell
    /// number i + 1): an anode driven high into a cathode driven low. A closure that borrows
    /// nothing of the player, which follows the trace meanwhile.
    fn lit_in(target: &Target) -> impl Fn(&Trace) -> u64 + '_ {
        move |state| {
            let d = target.display.as_ref().expect("a display");
            let s = state.ports[(d.port as u8 - b'A') as usize];
            let mut lit = 0u64;
            for (cathode, leds) in &d.rows {
                if s.dir & cathode != 0 && s.data & cathode == 0 {
                    for (cell, anode) in leds {
                        if s.dir & anode != 0 && s.data & anode != 0 {
                            lit |= 1 << cell;
                        }
                    }
                }
            }
            lit
        }
    }

    /// The LEDs as a person sees them: everything lit across two full scans.
    pub fn leds(&mut self) -> u64 {
        let rows = self.target.display.as_ref().map_or(1, |d| d.rows.len()) as f64;
        self.leds_over(2.0 * rows + 1.0)
    }

    /// The speaker over `total_ms`, a window at a time: per window the note its timer was
    /// set to for the most of the window's milliseconds (its clock over two counts of its
    /// reload), where the pin toggled in the window, or 0 for silence.
    pub fn listen(&mut self, total_ms: f64, window_ms: f64) -> Vec<f64> {
        let s = self.target.speaker.clone().expect("a speaker");
        let timer = timer_index(self.model, s.timer.number());
        let (port, mask) = ((s.pin.port as u8 - b'A') as usize, 1u8 << s.pin.bit);
        let clock = f64::from(self.target.clock_hz);
        let (start, mut level) = (self.now, self.trace.ports[port].data & mask);
        let (mut edges, mut notes): (Vec<u64>, Vec<f64>) = (Vec::new(), Vec::new());
        self.pass(total_ms, |t, e| match *e {
            Event::Port(p) if p == port && t.ports[port].data & mask != level => {
                level ^= mask;
                edges.push(t.ticks);
            }
            Event::Tick => {
                notes.push(t.timers[timer].hz(clock));
            }
            _ => {}
        });
        let window = window_ms.round().max(1.0) as usize;
        notes
            .chunks(window)
            .enumerate()
            .map(|(w, ms)| {
                let from = start + (w * window) as u64;
                let toggled = edges.iter().any(|&e| e >= from && e < from + window as u64);
                let mut counts: Vec<(f64, usize)> = Vec::new();
                for &hz in ms {
                    match counts.iter_mut().find(|(f, _)| *f == hz) {
                        Some((_, n)) => *n += 1,
                        None => counts.push((hz, 1)),
                    }
                }
                let commonest = counts.iter().max_by_key(|(_, n)| *n).map_or(0.0, |(f, _)| *f);
                if toggled {
                    commonest
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// The note the speaker plays over the next `ms` milliseconds, 0 when quiet.
    pub fn speaker_hz(&mut self, ms: f64) -> f64 {
        self.listen(ms, ms).first().copied().unwrap_or(0.0)
    }

    /// Runs until the chip sleeps or `ms` milliseconds pass: whether it slept.
    pub fn run_until_sleep(&mut self, ms: f64) -> bool {
        // Asleep from the first millisecond after the glue paused its tick: by then it has
        // darkened the display and waits on the wake pin.
        let until = self.now + ms.round() as u64;
        let paused_at = std::cell::Cell::new(None::<u64>);
        self.follow(
            |t, _| paused_at.get().is_some_and(|at| t.ticks > at) || t.ticks >= until,
            |t, e| match *e {
                Event::Sleep(true) => paused_at.set(Some(t.ticks)),
                Event::Sleep(false) => paused_at.set(None),
                _ => {}
            },
        );
        self.now = self.trace.ticks.min(until);
        paused_at.get().is_some()
    }
}

/// The ELF's file name without its extension, to name a machine's folder.
fn elf_stem(elf: &Path) -> String {
    elf.file_stem().map_or_else(|| "firmware".into(), |s| s.to_string_lossy().into_owned())
}

impl Drop for Board {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
