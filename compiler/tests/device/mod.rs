//! A player at the pins of a simulated AVR: holds buttons, reads charlieplexed LEDs across
//! multiplex cycles, listens to the speaker pin, and follows the chip into sleep and out; and
//! the same at a Cortex-M's pins in QEMU (`gamec::sim::cortex`), both behind [`Pins`].
//!
//! It drives simavr through avr-simulator, the simulation layer of avr-tester, because
//! avr-tester panics when the chip sleeps and buttons on pulled-up pins must be re-asserted
//! after every instruction (simavr re-applies pull-ups on each write to the port).
#![allow(dead_code)]

pub mod buttons_and_lights;
pub mod cursor_duel;

/// The player at a Cortex-M's pins, from the compiler's `sim`.
pub use gamec::sim::cortex as cortex_pins;

/// The test functions named, each run on each board as a test of its own: `$module::name`
/// calls `name(BOARD)` with the board's path, a constant of the test file.
/// `on_each_board!([a_test, another]; attiny84a => ATTINY84A, atmega16 => ATMEGA16)`.
#[allow(unused_macros)]
macro_rules! on_each_board {
    ($tests:tt; $($module:ident => $board:ident),+ $(,)?) => {
        $($crate::device::on_each_board!(@board $module $board $tests);)+
    };
    (@board $module:ident $board:ident [$($test:ident),+ $(,)?]) => {
        mod $module {
            $(#[test]
            fn $test() {
                super::$test(super::$board)
            })+
        }
    };
}
#[allow(unused_imports)]
pub(crate) use on_each_board;

use gamec::bind::Target;
pub use gamec::sim::*;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The stack's bound that `gamec build` checks for a game's firmware (`elf`, as [`firmware`]
/// built it), with what the runtime vouches for about its search's recursion.
pub fn stack_bound(game: &str, board: &str, elf: &Path) -> gamec::stack_depth::StackDepth {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (def, _, target, _) =
        gamec::driver::load_pair(&mut gamec_dsl::Sources::new(), &root.join(game), &root.join(board)).unwrap();
    let limits = gamec::driver::recursion_limits(&def, &target);
    gamec::stack_depth::avr_stack_depth(&std::fs::read(elf).unwrap(), 2, target.chip.avr().sp_bytes, &limits)
        .unwrap_or_else(|why| panic!("no bound for {game} on {board}: {why}"))
}

/// Builds a game's firmware once per test binary and returns the ELF and its target.
pub fn firmware(game: &str, board: &str) -> (PathBuf, Target) {
    static BUILT: OnceLock<Mutex<Vec<(String, PathBuf, Target)>>> = OnceLock::new();
    let key = format!("{game}+{board}");
    let cache = BUILT.get_or_init(|| Mutex::new(Vec::new()));
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, elf, t)) = cache.iter().find(|(k, _, _)| *k == key) {
        return (elf.clone(), t.clone());
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = root.join("target/gamec-tests");
    let built = gamec::driver::build(&mut gamec_dsl::Sources::new(), &root.join(game), &root.join(board), &out)
        .unwrap_or_else(|e| panic!("building {game} on {board}: {e}"));
    eprintln!("{}", built.report);
    // A Cortex-M's image as its QEMU machine runs it (an AT32F437's, its stack moved).
    let elf = match built.target.chip.arch {
        gamec::chips::Arch::Avr(_) => built.elf.clone(),
        gamec::chips::Arch::CortexM(_) => {
            gamec::driver::sim_image(&built).unwrap_or_else(|e| panic!("{game} on {board} in QEMU: {e}")).0
        }
    };
    let target = built.target;
    cache.push((key, elf.clone(), target.clone()));
    (elf, target)
}

/// What a test does at a board's pins, whatever runs the firmware: simavr for an AVR, QEMU
/// for a Cortex-M. Time is the firmware's, LEDs are cells (bit i = cell i + 1).
pub trait Pins {
    fn target(&self) -> &Target;
    fn run_ms(&mut self, ms: f64);
    /// Holds pin `bit` of `port` at `level`: low is a press of a button to ground.
    fn hold(&mut self, port: char, bit: u8, level: bool);
    /// Presses input `n` (in control order) for 50 ms and lets go for 50 ms.
    fn press(&mut self, n: usize) {
        let p = self.target().inputs[n];
        self.hold(p.port, p.bit, false);
        self.run_ms(50.0);
        self.hold(p.port, p.bit, true);
        self.run_ms(50.0);
    }
    /// The LEDs as a person sees them.
    fn leds(&mut self) -> u16;
    /// Every LED lit at some point in `ms` milliseconds.
    fn leds_over(&mut self, ms: f64) -> u16;
    /// The speaker's note per window of `window_ms` over `total_ms`, 0 for silence.
    fn listen(&mut self, total_ms: f64, window_ms: f64) -> Vec<f64>;
    /// Runs until the chip sleeps or `ms` pass: whether it slept.
    fn run_until_sleep(&mut self, ms: f64) -> bool;
    fn press_commit(&mut self) {
        self.press(self.target().commit as usize);
    }
    /// Holds input `n` (in control order) down (`true`) or lets it go.
    fn hold_input(&mut self, n: usize, down: bool) {
        let p = self.target().inputs[n];
        self.hold(p.port, p.bit, !down);
    }
}

impl Pins for Device {
    fn target(&self) -> &Target {
        &self.target
    }
    fn run_ms(&mut self, ms: f64) {
        Device::run_ms(self, ms)
    }
    fn press(&mut self, n: usize) {
        Device::press(self, n)
    }
    fn hold(&mut self, port: char, bit: u8, level: bool) {
        Device::hold(self, port, bit, level)
    }
    fn leds(&mut self) -> u16 {
        Device::leds(self)
    }
    fn leds_over(&mut self, ms: f64) -> u16 {
        Device::leds_over(self, ms)
    }
    fn listen(&mut self, total_ms: f64, window_ms: f64) -> Vec<f64> {
        Device::listen(self, total_ms, window_ms)
    }
    fn run_until_sleep(&mut self, ms: f64) -> bool {
        Device::run_until_sleep(self, ms)
    }
}

impl Pins for cortex_pins::Board {
    fn target(&self) -> &Target {
        &self.target
    }
    fn run_ms(&mut self, ms: f64) {
        cortex_pins::Board::run_ms(self, ms)
    }
    fn hold(&mut self, port: char, bit: u8, level: bool) {
        cortex_pins::Board::hold(self, port, bit, level)
    }
    fn leds(&mut self) -> u16 {
        u16::try_from(cortex_pins::Board::leds(self)).expect("at most 16 LEDs")
    }
    fn leds_over(&mut self, ms: f64) -> u16 {
        u16::try_from(cortex_pins::Board::leds_over(self, ms)).expect("at most 16 LEDs")
    }
    fn listen(&mut self, total_ms: f64, window_ms: f64) -> Vec<f64> {
        cortex_pins::Board::listen(self, total_ms, window_ms)
    }
    fn run_until_sleep(&mut self, ms: f64) -> bool {
        cortex_pins::Board::run_until_sleep(self, ms)
    }
}

/// Boots a game's firmware on `board` in the simulator its chip needs.
pub fn boot_pins(game: &str, board: &str) -> Box<dyn Pins> {
    let (elf, target) = firmware(game, board);
    match target.chip.arch {
        gamec::chips::Arch::Avr(_) => Box::new(Device::boot(&elf, &target)),
        gamec::chips::Arch::CortexM(_) => Box::new(
            cortex_pins::Board::boot(&elf, &target, cortex_pins::Pace::Virtual).unwrap_or_else(|e| panic!("{e}")),
        ),
    }
}

/// The address and size of the first symbol of the ELF whose mangled name contains `part`
/// (data symbols as data-space addresses).
pub fn symbol(elf: &Path, part: &str) -> (u32, u32) {
    find_symbol(elf, part).unwrap_or_else(|| panic!("no symbol {part}"))
}

/// A symbol's address and size, if the image has it (the linker drops what nothing uses).
pub fn find_symbol(elf: &Path, part: &str) -> Option<(u32, u32)> {
    elf_symbol(elf, part).map(|(address, size)| ((address & 0x7F_FFFF) as u32, size as u32))
}

/// A symbol's address as the ELF has it (an AVR's data at 0x800000 up) and its size.
pub fn elf_symbol(elf: &Path, part: &str) -> Option<(u64, u64)> {
    use object::{Object, ObjectSymbol};
    let bytes = std::fs::read(elf).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let sym = file.symbols().find(|s| s.name().is_ok_and(|n| n.contains(part)))?;
    Some((sym.address(), sym.size()))
}

/// Whether a sequence of windows heard a tone near `hz` (within 1.5%, well under a semitone).
pub fn heard(windows: &[f64], hz: f64) -> bool {
    windows.iter().any(|&f| (f - hz).abs() / hz < 0.015)
}

/// A function's symbol as a person reads it: the last two names of its path (`game::mobility`,
/// `Usart::send`), read from Rust's v0 mangling (`_RNvNtCs…_4game8mobility`) or the legacy one
/// (`_ZN4game8mobility17h…E`), without hashes, crates' disambiguators or generic arguments; any
/// other symbol as it is.
pub fn short_symbol(symbol: &str) -> String {
    let names = if let Some(rest) = symbol.strip_prefix("_ZN") {
        legacy_names(rest)
    } else if symbol.starts_with("_R") {
        V0 { s: symbol.as_bytes() }.path(2, 0).map(|(names, _)| names).unwrap_or_default()
    } else {
        Vec::new()
    };
    if names.is_empty() {
        return symbol.to_string();
    }
    names[names.len().saturating_sub(2)..].join("::")
}

/// The names of a legacy-mangled path, less its hash.
fn legacy_names(mut rest: &str) -> Vec<String> {
    let mut parts = Vec::new();
    while let Some(digits) = rest.find(|c: char| !c.is_ascii_digit()).filter(|&n| n > 0) {
        let Ok(len) = rest[..digits].parse::<usize>() else { break };
        let Some(part) = rest.get(digits..digits + len) else { break };
        parts.push(part);
        rest = &rest[digits + len..];
    }
    if parts.last().is_some_and(|p| p.len() == 17 && p.starts_with('h')) {
        parts.pop();
    }
    let readable = |p: &str| {
        [("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("$RF$", "&"), ("$C$", ","), ("$u7b$", "{"), ("$u7d$", "}")]
            .iter()
            .fold(p.replace("..", "::"), |p, (from, to)| p.replace(from, to))
    };
    parts.into_iter().map(readable).collect()
}

/// Enough of Rust's v0 symbol grammar to name a function: paths (crate roots, nested names,
/// impls, generic arguments skipped) and the types an impl is for; back-references followed.
struct V0<'a> {
    s: &'a [u8],
}

impl V0<'_> {
    fn at(&self, i: usize) -> Option<u8> {
        self.s.get(i).copied()
    }

    /// A base-62 number ended by `_` (`_` alone is 0): its value and the index after it.
    fn base62(&self, mut i: usize) -> Option<(u64, usize)> {
        if self.at(i)? == b'_' {
            return Some((0, i + 1));
        }
        let mut n = 0u64;
        while let Some(c) = self.at(i).filter(|&c| c != b'_') {
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'z' => c - b'a' + 10,
                b'A'..=b'Z' => c - b'A' + 36,
                _ => return None,
            };
            n = n.checked_mul(62)?.checked_add(u64::from(d))?;
            i += 1;
        }
        Some((n + 1, i + 1))
    }

    /// An optional disambiguator, `s` and a base-62 number.
    fn disambiguator(&self, i: usize) -> Option<usize> {
        if self.at(i)? == b's' {
            Some(self.base62(i + 1)?.1)
        } else {
            Some(i)
        }
    }

    /// An identifier (its disambiguator skipped): its text and the index after it.
    fn identifier(&self, i: usize) -> Option<(String, usize)> {
        let mut i = self.disambiguator(i)?;
        if self.at(i)? == b'u' {
            i += 1;
        }
        let start = i;
        while self.at(i)?.is_ascii_digit() {
            i += 1;
        }
        let len: usize = std::str::from_utf8(&self.s[start..i]).ok()?.parse().ok()?;
        if self.at(i) == Some(b'_') {
            i += 1;
        }
        let text = std::str::from_utf8(self.s.get(i..i + len)?).ok()?.to_string();
        Some((text, i + len))
    }

    /// A back-reference's target: the index it names, counted after `_R`.
    fn backref(&self, i: usize) -> Option<(usize, usize)> {
        let (pos, next) = self.base62(i + 1)?;
        Some((2 + usize::try_from(pos).ok()?, next))
    }

    /// A path: its names and the index after it; `depth` bounds the back-references followed.
    fn path(&self, i: usize, depth: u32) -> Option<(Vec<String>, usize)> {
        if depth > 64 {
            return None;
        }
        match self.at(i)? {
            b'C' => self.identifier(i + 1).map(|(name, next)| (vec![name], next)),
            b'N' => {
                let (mut names, next) = self.path(i + 2, depth + 1)?;
                let (name, next) = self.identifier(next)?;
                names.push(if name.is_empty() { "{closure}".to_string() } else { name });
                Some((names, next))
            }
            b'M' => {
                let (_, next) = self.path(self.disambiguator(i + 1)?, depth + 1)?;
                self.type_(next, depth + 1)
            }
            b'X' => {
                let (_, next) = self.path(self.disambiguator(i + 1)?, depth + 1)?;
                let (names, next) = self.type_(next, depth + 1)?;
                let (_, next) = self.path(next, depth + 1)?;
                Some((names, next))
            }
            b'Y' => {
                let (names, next) = self.type_(i + 1, depth + 1)?;
                let (_, next) = self.path(next, depth + 1)?;
                Some((names, next))
            }
            b'I' => {
                let (names, mut next) = self.path(i + 1, depth + 1)?;
                while self.at(next)? != b'E' {
                    next = self.generic_arg(next, depth + 1)?;
                }
                Some((names, next + 1))
            }
            b'B' => {
                let (target, next) = self.backref(i)?;
                Some((self.path(target, depth + 1)?.0, next))
            }
            _ => None,
        }
    }

    fn generic_arg(&self, i: usize, depth: u32) -> Option<usize> {
        match self.at(i)? {
            b'L' => Some(self.base62(i + 1)?.1),
            b'K' => self.const_(i + 1),
            _ => Some(self.type_(i, depth)?.1),
        }
    }

    fn const_(&self, i: usize) -> Option<usize> {
        match self.at(i)? {
            b'p' => Some(i + 1),
            b'B' => Some(self.backref(i)?.1),
            _ => {
                let mut i = i + 1;
                if self.at(i)? == b'n' {
                    i += 1;
                }
                while self.at(i)?.is_ascii_hexdigit() {
                    i += 1;
                }
                (self.at(i)? == b'_').then_some(i + 1)
            }
        }
    }

    /// A type: the names of a path type (others named by their kind) and the index after it.
    fn type_(&self, i: usize, depth: u32) -> Option<(Vec<String>, usize)> {
        if depth > 64 {
            return None;
        }
        let named = |name: &str, next| Some((vec![name.to_string()], next));
        match self.at(i)? {
            c @ b'a'..=b'z' => named(&(c as char).to_string(), i + 1),
            b'A' => named("[_; N]", self.const_(self.type_(i + 1, depth + 1)?.1)?),
            b'S' => named("[_]", self.type_(i + 1, depth + 1)?.1),
            b'T' => {
                let mut next = i + 1;
                while self.at(next)? != b'E' {
                    next = self.type_(next, depth + 1)?.1;
                }
                named("(..)", next + 1)
            }
            b'R' | b'Q' => {
                let next = if self.at(i + 1)? == b'L' { self.base62(i + 2)?.1 } else { i + 1 };
                self.type_(next, depth + 1)
            }
            b'P' | b'O' => self.type_(i + 1, depth + 1),
            b'B' => {
                let (target, next) = self.backref(i)?;
                Some((self.type_(target, depth + 1)?.0, next))
            }
            b'C' | b'N' | b'M' | b'X' | b'Y' | b'I' => self.path(i, depth),
            _ => None,
        }
    }
}

/// Program-counter samples by function: the share of samples in each, largest first.
pub fn profile_by_symbol(elf: &Path, samples: &[u32]) -> Vec<(String, f64)> {
    use object::{Object, ObjectSymbol};
    let bytes = std::fs::read(elf).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let mut syms: Vec<(u64, u64, String)> = file
        .symbols()
        .filter(|s| s.size() > 0 && s.address() < 0x80_0000)
        .map(|s| (s.address(), s.size(), s.name().unwrap_or("?").to_string()))
        .collect();
    syms.sort();
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for &pc in samples {
        let addr = pc as u64;
        let name =
            syms.iter().find(|(a, n, _)| addr >= *a && addr < a + n).map_or("?".to_string(), |(_, _, n)| n.clone());
        *counts.entry(name).or_default() += 1;
    }
    let mut out: Vec<(String, f64)> =
        counts.into_iter().map(|(n, c)| (n, c as f64 / samples.len().max(1) as f64)).collect();
    out.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap());
    out
}

pub mod grid_host;
