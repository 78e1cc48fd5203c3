//! `gamec play --board` as a person at a terminal uses it (a pseudo-terminal from `script`):
//! the firmware built and run in simavr, the board drawn, keys pressing its buttons and typing
//! on its serial line, and a clean quit; a chip no simulator runs is refused with a message;
//! an LM3S6965 board's buttons and lights in QEMU, drawn and pressed the same way;
//! an STM32F405 board's firmware in QEMU with the terminal as its serial line, and a game of
//! cards there with its console on the terminal and cards scanned by typing them.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What `stdout` gives, a byte at a time as it comes, read on a thread of its own.
fn bytes_of(mut stdout: std::process::ChildStdout) -> mpsc::Receiver<u8> {
    let (tx, out) = mpsc::channel();
    std::thread::spawn(move || {
        let mut byte = [0u8];
        while stdout.read(&mut byte).is_ok_and(|n| n == 1) {
            if tx.send(byte[0]).is_err() {
                break;
            }
        }
    });
    out
}

/// `gamec play GAME --board BOARD` in a pseudo-terminal, its screens read as they come.
struct Screen {
    child: std::process::Child,
    keys: std::process::ChildStdin,
    out: mpsc::Receiver<u8>,
    text: String,
}

impl Screen {
    fn start(game: &str, board: &str) -> Screen {
        let out_dir = root().join("target/gamec-tests/play");
        let command = format!(
            "{} play {} --board {} -o {}",
            env!("CARGO_BIN_EXE_gamec"),
            root().join(game).display(),
            root().join(board).display(),
            out_dir.display()
        );
        let mut child = Command::new("script")
            .args(["-qefc", &command, "/dev/null"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("script (util-linux) runs");
        let keys = child.stdin.take().unwrap();
        let out = bytes_of(child.stdout.take().unwrap());
        Screen { child, keys, out, text: String::new() }
    }

    /// Reads until the output holds `what` after what was read before, at most `secs` (the
    /// first screen waits for the build).
    fn until(&mut self, what: &str, secs: u64) -> String {
        let from = self.text.len();
        let end = Instant::now() + Duration::from_secs(secs);
        let mut bytes = Vec::new();
        while Instant::now() < end {
            if let Ok(b) = self.out.recv_timeout(Duration::from_millis(100)) {
                bytes.push(b);
                self.text = format!("{}{}", &self.text[..from], String::from_utf8_lossy(&bytes));
                if self.text[from..].contains(what) {
                    return self.text[from..].to_string();
                }
            }
        }
        panic!("no {what:?} within {secs} s; the screen showed:\n{}", plain(&self.text[from..]));
    }

    fn press(&mut self, keys: &str) {
        self.keys.write_all(keys.as_bytes()).unwrap();
        self.keys.flush().unwrap();
    }

    fn exit_code(&mut self) -> Option<i32> {
        let end = Instant::now() + Duration::from_secs(30);
        while Instant::now() < end {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        None
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        // The pseudo-terminal closes with `script`, and gamec with it (a hang-up).
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A screen without its escape sequences.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                while chars.next().is_some_and(|c| !c.is_ascii_alphabetic()) {}
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// The LED row of the last whole screen in `text`: lit and dark, in LED order.
fn leds(text: &str) -> Vec<bool> {
    let whole = text.split("\u{1b}[2J").filter(|s| s.contains("q or esc quits")).last().unwrap_or("");
    let last = plain(whole);
    let row = last.lines().find(|l| l.contains('●') || l.contains('○')).unwrap_or("");
    row.chars().filter(|c| matches!(c, '●' | '○')).map(|c| c == '●').collect()
}

#[test]
fn silver_dollar_is_dealt_on_the_drawn_leds_when_go_is_pressed() {
    dealt_when_go_is_pressed("boards/silver_dollar_attiny84.board");
}

/// The same on a Cortex-M, the LM3S6965 in QEMU at the wall clock's pace.
#[test]
fn silver_dollar_on_a_cortex_m_is_dealt_when_go_is_pressed() {
    dealt_when_go_is_pressed("boards/silver_dollar_lm3s6965.board");
}

fn dealt_when_go_is_pressed(board: &str) {
    let mut s = Screen::start("games/silver_dollar.game", board);
    s.until("q or esc quits", 600);
    // GO (6, or enter) deals five dollars on the twelve LEDs, where the attract sweep lit one.
    s.press("\r");
    let mut dealt = Vec::new();
    for _ in 0..40 {
        let text = s.until("q or esc quits", 10);
        dealt = leds(&text);
        if dealt.iter().filter(|&&l| l).count() == 5 {
            break;
        }
    }
    assert_eq!(dealt.len(), 12, "twelve LEDs drawn");
    assert_eq!(dealt.iter().filter(|&&l| l).count(), 5, "five dollars dealt: {dealt:?}");
    s.press("q");
    assert_eq!(s.exit_code(), Some(0), "a clean quit");
}

#[test]
fn othello_over_the_serial_line_answers_a_typed_command() {
    let mut s = Screen::start("games/othello.game", "boards/othello_stk500_atmega16.board");
    s.until("Pick Black/White", 600);
    s.press("SP B\r");
    let text = plain(&s.until("Type your move", 60));
    assert!(text.contains("> SP B"), "the line typed is shown: {text}");
    // Garbage gets the protocol's error reply, and the firmware keeps serving.
    s.press("XYZZY\r");
    s.until("ER", 60);
    s.press("\u{1b}");
    assert_eq!(s.exit_code(), Some(0));
}

/// The AT-START-F437's image would fault in QEMU's STM32F405: refused with a message, where it
/// once died in QEMU with a register dump.
#[test]
fn a_chip_no_simulator_runs_is_refused_with_a_message() {
    let out = Command::new(env!("CARGO_BIN_EXE_gamec"))
        .args(["play", "games/set.game", "--board", "boards/set_at_start_f437.board", "-o"])
        .arg(root().join("target/gamec-tests/play"))
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("no simulator runs the at32f437"), "{err}");
}

/// `gamec play ARGS` with its standard input and output piped, as a person at a plain
/// terminal, or a script, uses it.
struct Piped {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    out: mpsc::Receiver<u8>,
}

impl Piped {
    fn start(args: &[&str], group: bool) -> Piped {
        use std::os::unix::process::CommandExt;
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_gamec"));
        // In a process group of its own, as a terminal's foreground job is: Ctrl-C reaches
        // gamec and QEMU both.
        if group {
            cmd.process_group(0);
        }
        let mut child = cmd
            .arg("play")
            .args(args)
            .arg("-o")
            .arg(root().join("target/gamec-tests/play"))
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let out = bytes_of(child.stdout.take().unwrap());
        Piped { child, stdin, out }
    }

    /// Reads until the output holds `what` (the first build included), and forgets it.
    fn until(&mut self, what: &str) {
        let (mut seen, end) = (String::new(), Instant::now() + Duration::from_secs(600));
        while !seen.contains(what) && Instant::now() < end {
            if let Ok(b) = self.out.recv_timeout(Duration::from_millis(100)) {
                seen.push(b as char);
            }
        }
        assert!(seen.contains(what), "no {what:?}: {seen:?}");
    }

    fn type_line(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Types `quit` and checks that play ends cleanly.
    fn quit(mut self) {
        self.type_line("quit\n");
        assert!(self.child.wait().unwrap().success(), "quit ends the play cleanly");
    }
}

impl Drop for Piped {
    /// A test that failed leaves no gamec, and so no QEMU, running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn nim_on_an_stm32f405_answers_on_the_terminal_as_its_serial_line() {
    let mut p = Piped::start(&["games/nim.game", "--board", "boards/nim_netduinoplus2.board"], true);
    p.until("Your move");
    // No ninth heap: the protocol's denial, and the firmware goes on serving.
    p.type_line("MV 9:1\r");
    p.until("IL");
    p.type_line("MV 1:1\r");
    p.until("MM ");
    // Ctrl-C at the terminal: the whole job interrupted, QEMU with gamec.
    let _ = Command::new("sh").args(["-c", &format!("kill -s INT -- -{}", p.child.id())]).status();
    let status = p.child.wait().unwrap();
    assert!(!status.success(), "interrupted");
}

#[test]
fn cards_typed_as_scans_reach_the_scanner_and_the_console_answers() {
    let mut p = Piped::start(&["games/set.game", "--board", "boards/set_netduinoplus2.board"], false);
    p.until("scan the cards");
    // A card by its values in any order, one by its code, one by its code in hex: one, two
    // and three of the same colour, shading and shape make a set.
    for (line, answer) in [
        ("scan wave purple empty one", "card 1: one empty purple wave"),
        ("scan 1", "card 2: two empty purple wave"),
        ("scan 0x2", "card 3: three empty purple wave"),
    ] {
        p.type_line(&format!("{line}\n"));
        p.until(answer);
    }
    p.until("set 1: cards 1 2 3");
    // A line that is no scan goes to the console.
    p.type_line("list\n");
    p.until("3 cards");
    p.quit();
}

#[test]
fn with_host_gamec_speaks_the_protocol_and_the_person_types_moves_alone() {
    let args = ["games/nim.game", "--board", "boards/nim_netduinoplus2.board", "--host"];
    let mut p = Piped::start(&args, false);
    p.until("Your move");
    // A person thinks: the game says nothing of a late move, so there is no clock to beat.
    std::thread::sleep(Duration::from_secs(3));
    // The move alone: gamec sends the protocol's play command, and acknowledges the device's
    // answer itself, so that the next prompt comes without the person typing `OK`.
    p.type_line("1:1\n");
    p.until("> MV 1:1");
    p.until("MM ");
    p.until("> OK");
    p.until("Your move");
    // A protocol command is still sent as typed.
    p.type_line("MV 9:1\n");
    p.until("IL");
    p.quit();
}
