//! Cortex-M firmware run in qemu-system-arm's netduinoplus2 machine (an STM32F405) or
//! lm3s6965evb (an LM3S6965), its serial ports on TCP sockets the test listens on: QEMU's n-th
//! `-serial` is the STM32F405's USART1, 2, 3, UART4, 5, USART6 in that order, the LM3S6965's
//! UART0, 1, 2.

pub mod counting;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Builds `game` on `board` (paths from the repository's root) into the tests' build folder,
/// once for all the tests of a binary, which run in parallel, and returns the image the
/// netduinoplus2 runs (`gamec::driver::sim_image`: the ELF itself for an STM32F405, a copy
/// with its stack moved for an AT32F437).
pub fn firmware(game: &str, board: &str) -> PathBuf {
    let (elf, machine) = firmware_in(game, board);
    assert_eq!(machine, "netduinoplus2", "the machine these tests boot runs {board}'s chip");
    elf
}

/// As [`firmware`], on any Cortex-M board: the image and the QEMU machine that runs it.
pub fn firmware_in(game: &str, board: &str) -> (PathBuf, &'static str) {
    static BUILT: std::sync::Mutex<Vec<(String, PathBuf, &'static str)>> = std::sync::Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    let key = format!("{game}+{board}");
    if let Some((_, elf, machine)) = built.iter().find(|(k, ..)| *k == key) {
        return (elf.clone(), machine);
    }
    let (elf, machine) = build(game, board);
    built.push((key, elf.clone(), machine));
    (elf, machine)
}

fn build(game: &str, board: &str) -> (PathBuf, &'static str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = root.join("target/gamec-tests");
    let built = gamec::driver::build(&mut gamec_dsl::Sources::new(), &root.join(game), &root.join(board), &out)
        .unwrap_or_else(|e| panic!("building {game} on {board}: {e}"));
    eprintln!("{}", built.report);
    let (image, qemu) = gamec::driver::sim_image(&built).unwrap_or_else(|e| panic!("{game} on {board} in QEMU: {e}"));
    (image, qemu.machine)
}

/// A booted machine and its first serial ports, in order.
pub struct Machine {
    child: Child,
    pub ports: Vec<Port>,
    /// The machine's turn: one runs at a time in a test binary, whose tests run in parallel,
    /// so that machines do not compete for the cores with each other.
    _turn: std::sync::MutexGuard<'static, ()>,
}

/// The guest runs in virtual time: its clock counts the instructions it executes (2^3 ns each,
/// about the 168 MHz core's pace), not the host's time, so what the firmware does between two
/// inputs does not depend on how busy the machine is. When the guest waits (`wfi`) its clock
/// jumps to the next timer, so idle time costs nothing. The tests' time-outs only catch a
/// machine that never answers.
const VIRTUAL_TIME: [&str; 2] = ["-icount", "shift=3,align=off,sleep=off"];

/// Whose turn it is to run a machine.
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// One serial port: what the firmware sent and the test has not read yet, without the
/// carriage returns that end its lines.
pub struct Port {
    stream: TcpStream,
    pending: Vec<u8>,
}

impl Machine {
    /// Boots `elf` in QEMU's `machine` with its first `ports` serial ports connected.
    pub fn boot_in(machine: &str, elf: &Path, ports: usize) -> Machine {
        Machine::boot_in_with(machine, elf, ports, &[])
    }

    /// Boots `elf` in netduinoplus2 with `ports` serial ports connected and QEMU's further
    /// arguments `args`. Semihosting is on, so that a program can end the run.
    pub fn boot_with(elf: &Path, ports: usize, args: &[String]) -> Machine {
        Machine::boot_in_with("netduinoplus2", elf, ports, args)
    }

    fn boot_in_with(machine: &str, elf: &Path, ports: usize, args: &[String]) -> Machine {
        // A test that failed with a machine running poisons the lock, not the others' turns.
        let turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        let listeners: Vec<TcpListener> = (0..ports).map(|_| TcpListener::bind("127.0.0.1:0").unwrap()).collect();
        let mut cmd = Command::new("qemu-system-arm");
        cmd.args(["-M", machine, "-nographic", "-monitor", "none", "-kernel"]).arg(elf);
        cmd.args(VIRTUAL_TIME);
        cmd.args(["-semihosting-config", "enable=on,target=native"]).args(args);
        for l in &listeners {
            cmd.args(["-serial", &format!("tcp:127.0.0.1:{}", l.local_addr().unwrap().port())]);
        }
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("qemu-system-arm runs (`cargo xtask setup` installs it)");
        let ports = listeners
            .iter()
            .map(|l| {
                let (stream, _) = l.accept().unwrap();
                stream.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
                Port { stream, pending: Vec::new() }
            })
            .collect();
        Machine { child, ports, _turn: turn }
    }
}

impl Machine {
    /// Waits for the program to end the run (through semihosting), at most `timeout`.
    pub fn wait(&mut self, timeout: Duration) {
        let started = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            assert!(started.elapsed() < timeout, "the program did not end within {timeout:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Ends the run as a terminal would (SIGTERM), so that QEMU writes out its log.
    pub fn stop(&mut self) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        self.wait(Duration::from_secs(10));
    }
}

impl Drop for Machine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Port {
    pub fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
        self.stream.flush().unwrap();
    }

    /// What the firmware sends up to and including `end`, waiting at most `timeout`; panics
    /// with what came if `end` never does. Lines end in `\n` (the `\r` before it is dropped).
    pub fn until(&mut self, end: &str, timeout: Duration) -> String {
        self.within(end, timeout).unwrap_or_else(|text| panic!("waited {timeout:?} for {end:?}; got {text:?}"))
    }

    /// As [`Self::until`], but what has come so far, as an error, if `end` has not come
    /// within `timeout`.
    pub fn within(&mut self, end: &str, timeout: Duration) -> Result<String, String> {
        let started = Instant::now();
        loop {
            let text = String::from_utf8_lossy(&self.pending).into_owned();
            if let Some(at) = text.find(end) {
                let upto = at + end.len();
                self.pending.drain(..upto);
                return Ok(text[..upto].to_string());
            }
            if started.elapsed() >= timeout {
                return Err(text);
            }
            let mut buf = [0u8; 512];
            match self.stream.read(&mut buf) {
                Ok(0) => panic!("the machine closed the port; got {text:?}"),
                Ok(n) => self.pending.extend(buf[..n].iter().filter(|&&b| b != b'\r')),
                Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
                Err(e) => panic!("{e}"),
            }
        }
    }
}
