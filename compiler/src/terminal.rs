//! `gamec play --board`: the board's built firmware run in a simulator, the board drawn in the
//! terminal from its file (the LEDs where they are numbered, the bicolour matrix in colour, the
//! note the speaker plays, the serial line as a console) and played from the keyboard (a key a
//! button, the arrows for the encoders, typed lines for the serial line). AVR firmware runs in
//! simavr through `gamec::sim`, at the pace of the wall clock; a Cortex-M board's in the
//! qemu-system-arm machine its chip names (`chips::CortexM::sim`): buttons and lights through
//! `gamec::sim::cortex` (the LM3S6965's), a serial line on the terminal itself (the
//! STM32F405's USARTs, on which the AT32F437's image runs too).

use crate::host_helper::Speaker;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{Color, Print, ResetColor, SetForegroundColor};
use crossterm::{cursor, execute, queue, terminal};
use gamec::bind::Target;
use gamec::chips::Qemu;
use gamec::sim::Device;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Simulated time a screen covers: the LEDs and the speaker are sampled over it.
const FRAME_MS: f64 = 40.0;
/// How long a key holds its button down, then lets it go (past the runtime's 20 ms debounce).
const PRESS_MS: f64 = 60.0;
/// How long a turned encoder holds each contact state on a Cortex-M in QEMU at the wall
/// clock's pace, where a loaded host can delay the firmware's samples.
const TURN_HOLD_MS: f64 = 10.0;
/// Lines of the serial console kept on screen.
const CONSOLE_LINES: usize = 12;

/// What a key asked of the board.
#[derive(Clone)]
enum Act {
    Press(gamec_dsl::Pin),
    Turn { a: gamec_dsl::Pin, b: gamec_dsl::Pin, forward: bool },
    Send(String),
}

/// Runs `elf` on the board `target` describes until the person quits: Ok on a clean quit, Err
/// with what happened if the firmware stopped. A Cortex-M board's `sim` is the image its
/// QEMU machine runs (`driver::sim_image`) and that machine; an AVR board has none. With
/// `host`, gamec speaks a serial game's protocol for the person (`crate::host_helper`).
pub fn play(
    elf: &Path,
    sim: Option<&(PathBuf, Qemu)>,
    target: &Target,
    title: &str,
    host: Option<Speaker>,
) -> Result<(), String> {
    let Some((image, qemu)) = sim else {
        return in_simavr(elf, target, title, host.as_ref());
    };
    let buttons = target.serial.is_none() && !target.inputs.is_empty();
    match (host, &target.serial) {
        (Some(host), Some(serial)) if qemu.usarts => crate::host_helper::in_qemu(image, qemu, serial.glue, host),
        (_, Some(_)) if qemu.usarts => in_qemu(image, qemu, target),
        (_, None) if qemu.pins.is_some() && (buttons || target.cursor.is_some()) => in_qemu_pins(image, target, title),
        (_, Some(_)) => Err(format!("QEMU's {} plays no serial line of the {}", qemu.machine, target.chip.name)),
        (_, None) => Err(format!(
            "this board of the {} has no serial line, buttons or cursor for QEMU's {} to play",
            target.chip.name, qemu.machine
        )),
    }
}

/// A Cortex-M board of buttons and lights, or of a cursor on a matrix, in its QEMU machine
/// (the LM3S6965's), at the wall clock's pace.
fn in_qemu_pins(elf: &Path, target: &Target, title: &str) -> Result<(), String> {
    use gamec::sim::cortex::{Board, Pace};
    let mut board = Board::boot(elf, target, Pace::WallClock)?;
    let keys = keys(target);
    on_screen(|out| {
        let mut seen = Seen::default();
        loop {
            while let Some(code) = next_key()? {
                match code {
                    KeyCode::Char('q') | KeyCode::Esc => return Ok(()),
                    code => match keys.iter().find(|k| k.0 == code).map(|k| &k.1) {
                        Some(Act::Press(p)) => board.press_pin(*p, PRESS_MS / 2.0),
                        Some(&Act::Turn { a, b, forward }) => board.turn_holding(a, b, forward, TURN_HOLD_MS),
                        _ => {}
                    },
                }
            }
            // The player waits for QEMU's trace to cover the frame: the wall clock's pace.
            let half = FRAME_MS / 2.0;
            match target.cursor {
                Some(_) => seen.matrix = Some(board.matrix_over(half)),
                None => seen.lights = board.leds_over(half),
            }
            seen.hz = if target.speaker.is_some() { board.speaker_hz(half) } else { 0.0 };
            draw(out, target, &keys, &seen, title).map_err(|e| e.to_string())?;
        }
    })
}

/// The key pressed since the last look, if any; Ctrl-C as Esc.
fn next_key() -> Result<Option<KeyCode>, String> {
    while event::poll(Duration::ZERO).map_err(|e| e.to_string())? {
        if let Ok(Event::Key(KeyEvent { code, modifiers, kind: KeyEventKind::Press, .. })) = event::read() {
            if modifiers.contains(KeyModifiers::CONTROL) && code == KeyCode::Char('c') {
                return Ok(Some(KeyCode::Esc));
            }
            return Ok(Some(code));
        }
    }
    Ok(None)
}

/// Runs `body` on the alternate screen in raw mode and restores the terminal whatever
/// happens: a panic of the simulator's comes back as the firmware having stopped answering.
fn on_screen(body: impl FnOnce(&mut std::io::Stdout) -> Result<(), String>) -> Result<(), String> {
    let mut stdout = std::io::stdout();
    terminal::enable_raw_mode().map_err(|e| format!("the terminal: {e}"))?;
    let _ = execute!(stdout, terminal::EnterAlternateScreen, cursor::Hide);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(&mut stdout)));
    std::panic::set_hook(hook);
    let _ = execute!(stdout, cursor::Show, terminal::LeaveAlternateScreen);
    let _ = terminal::disable_raw_mode();
    run.unwrap_or_else(|p| {
        let why = p.downcast_ref::<String>().map(String::as_str).or(p.downcast_ref::<&str>().copied());
        Err(format!("the firmware stopped answering: {}", why.unwrap_or("the simulator gave up")))
    })
}

/// A serial board's firmware in its QEMU machine (the STM32F405's `netduinoplus2`), the
/// board's USART on the terminal.
fn in_qemu(elf: &Path, qemu: &Qemu, target: &Target) -> Result<(), String> {
    let Some(serial) = &target.serial else {
        return Err("this board has no serial line to play on in QEMU".into());
    };
    // QEMU's `-serial` options are the chip's ports in order from its first (USART1, UART0).
    let number: usize = serial.glue.trim_start_matches(|c: char| !c.is_ascii_digit()).parse().unwrap_or(1);
    let n = number + 1 - qemu.first_serial;
    eprintln!("the firmware runs in qemu-system-arm; type the protocol's lines, Ctrl-C quits");
    let mut cmd = std::process::Command::new("qemu-system-arm");
    cmd.args(["-M", qemu.machine, "-nographic", "-monitor", "none", "-kernel"]).arg(elf);
    for _ in 1..n {
        cmd.args(["-serial", "null"]);
    }
    cmd.args(["-serial", "stdio"]);
    let status =
        cmd.status().map_err(|e| format!("cannot run qemu-system-arm: {e} (`cargo xtask setup` installs it)"))?;
    match status.success() {
        true => Ok(()),
        false => Err(format!("qemu-system-arm exited with {status}")),
    }
}

/// The keys of a board, each with what it does and its label on screen.
fn keys(target: &Target) -> Vec<(KeyCode, Act, String)> {
    let mut keys = Vec::new();
    if let Some(c) = &target.cursor {
        for &(across, a, b) in &c.encoders {
            let (back, on, what) = match across {
                true => (KeyCode::Left, KeyCode::Right, "left/right: the across encoder"),
                false => (KeyCode::Up, KeyCode::Down, "up/down: the down encoder"),
            };
            keys.push((back, Act::Turn { a, b, forward: false }, what.to_string()));
            keys.push((on, Act::Turn { a, b, forward: true }, String::new()));
        }
        keys.push((KeyCode::Enter, Act::Press(c.commit), "enter: select".into()));
        if let Some(r) = c.restart {
            keys.push((KeyCode::Char('r'), Act::Press(r), "r: restart".into()));
        }
        return keys;
    }
    for (i, &pin) in target.inputs.iter().enumerate() {
        let key = char::from_digit(i as u32 + 1, 10).unwrap_or('0');
        let label = match i == target.commit as usize {
            true => format!("{key} or enter: GO"),
            false => format!("{key}: button {}", i + 1),
        };
        keys.push((KeyCode::Char(key), Act::Press(pin), label));
        if i == target.commit as usize {
            keys.push((KeyCode::Enter, Act::Press(pin), String::new()));
        }
    }
    keys
}

/// What the screen shows of the board, gathered over a frame.
#[derive(Default)]
struct Seen {
    lights: u64,
    matrix: Option<[[u8; 8]; 8]>,
    hz: f64,
    console: Vec<String>,
    line: String,
    typing: String,
}

fn in_simavr(elf: &Path, target: &Target, title: &str, host: Option<&Speaker>) -> Result<(), String> {
    // The simulator's panics (a chip it does not know, the chip stopping) come back as errors,
    // once the screen is restored, not printed over the board.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let booted = std::panic::catch_unwind(|| Device::boot(elf, target));
    let Ok(mut d) = booted else {
        std::panic::set_hook(hook);
        return Err(format!(
            "simavr does not run the {} (it runs the ATtiny84A and ATtiny24A, the ATmega16, and the ATmega128 and the ATmega64's image on it)",
            target.chip.name
        ));
    };
    std::panic::set_hook(hook);
    let keys = keys(target);
    let serial = target.serial.is_some();
    on_screen(|out| run(&mut d, target, &keys, (serial, host), title, out))
}

fn run(
    d: &mut Device,
    target: &Target,
    keys: &[(KeyCode, Act, String)],
    (serial, host): (bool, Option<&Speaker>),
    title: &str,
    out: &mut impl Write,
) -> Result<(), String> {
    let mut seen = Seen::default();
    let start = Instant::now();
    let mut simulated_ms = 0.0;
    loop {
        while let Some(code) = next_key()? {
            if code == KeyCode::Esc {
                return Ok(());
            }
            let act = match (serial, code) {
                (true, KeyCode::Enter) => Some(Act::Send(std::mem::take(&mut seen.typing))),
                (true, KeyCode::Backspace) => {
                    seen.typing.pop();
                    None
                }
                (true, KeyCode::Char(c)) => {
                    seen.typing.push(c);
                    None
                }
                (false, KeyCode::Char('q')) => return Ok(()),
                _ => keys.iter().find(|k| k.0 == code).map(|k| k.1.clone()),
            };
            match act {
                Some(Act::Press(p)) => {
                    d.press_pin(p, PRESS_MS / 2.0);
                    simulated_ms += PRESS_MS;
                }
                Some(Act::Turn { a, b, forward }) => {
                    d.turn(a, b, forward);
                    simulated_ms += 12.0;
                }
                Some(Act::Send(line)) => {
                    let line = host.map_or(line.clone(), |h| h.typed(&line));
                    seen.console.push(format!("> {line}"));
                    d.send(&line);
                }
                None => {}
            }
        }
        sample(d, target, &mut seen, host);
        simulated_ms += FRAME_MS;
        draw(out, target, keys, &seen, title).map_err(|e| e.to_string())?;
        // At the pace of the wall clock: wait for it when the simulator runs ahead.
        let ahead = simulated_ms / 1000.0 - start.elapsed().as_secs_f64();
        if ahead > 0.0 {
            std::thread::sleep(Duration::from_secs_f64(ahead));
        }
    }
}

/// Runs a frame, looking at the lights, the matrix, the speaker and the serial line; with
/// `host`, answering what the firmware asks of the person.
fn sample(d: &mut Device, target: &Target, seen: &mut Seen, host: Option<&Speaker>) {
    let half = FRAME_MS / 2.0;
    if target.display.is_some() {
        seen.lights = d.leds_over_wide(half);
    } else if target.cursor.is_some() {
        seen.matrix = Some(d.matrix_over(half));
    } else {
        d.run_ms(half);
    }
    seen.hz = if target.speaker.is_some() {
        d.speaker_hz(half)
    } else {
        d.run_ms(half);
        0.0
    };
    let sent = if target.serial.is_some() { d.uart_sent() } else { Vec::new() };
    for b in sent {
        match b {
            b'\n' => {
                let line = std::mem::take(&mut seen.line);
                let answer = host.and_then(|h| h.heard(&line));
                seen.console.push(line);
                if let Some(answer) = answer {
                    seen.console.push(format!("> {answer}"));
                    d.send(&answer);
                }
            }
            b'\r' => {}
            b => seen.line.push(b as char),
        }
    }
    let excess = seen.console.len().saturating_sub(CONSOLE_LINES);
    seen.console.drain(..excess);
}

/// The note nearest a frequency: `A4`.
fn note_name(hz: f64) -> String {
    const NAMES: [&str; 12] = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"];
    let midi = (69.0 + 12.0 * (hz / 440.0).log2()).round() as i32;
    format!("{}{}", NAMES[midi.rem_euclid(12) as usize], midi / 12 - 1)
}

fn draw(
    out: &mut impl Write,
    target: &Target,
    keys: &[(KeyCode, Act, String)],
    seen: &Seen,
    title: &str,
) -> std::io::Result<()> {
    queue!(out, terminal::Clear(terminal::ClearType::All), cursor::MoveTo(0, 0), Print(title), Print("\r\n\r\n"))?;
    if let Some(display) = &target.display {
        let n = display.rows.iter().map(|(_, leds)| leds.len()).sum::<usize>();
        for i in 0..n {
            let lit = seen.lights >> i & 1 == 1;
            queue!(
                out,
                SetForegroundColor(if lit { Color::Red } else { Color::DarkGrey }),
                Print(if lit { "●" } else { "○" }),
                ResetColor,
                Print("  ")
            )?;
        }
        queue!(out, Print("\r\n"))?;
        for i in 0..n {
            queue!(out, Print(format!("{:<3}", i + 1)))?;
        }
        queue!(out, Print("\r\n\r\n"))?;
    }
    if let Some(m) = &seen.matrix {
        for row in m {
            for &cell in row {
                let colour = match cell & 3 {
                    1 => Color::Red,
                    2 => Color::Green,
                    3 => Color::Yellow,
                    _ => Color::DarkGrey,
                };
                queue!(out, SetForegroundColor(colour), Print(if cell & 3 == 0 { "· " } else { "● " }), ResetColor)?;
            }
            queue!(out, Print("\r\n"))?;
        }
        queue!(out, Print("\r\n"))?;
    }
    if target.speaker.is_some() {
        let sound = match seen.hz > 0.0 {
            true => format!("speaker: ♪ {} ({:.0} Hz)", note_name(seen.hz), seen.hz),
            false => "speaker: quiet".to_string(),
        };
        queue!(out, Print(sound), Print("\r\n\r\n"))?;
    }
    if target.serial.is_some() {
        for line in &seen.console {
            queue!(out, Print(line), Print("\r\n"))?;
        }
        queue!(out, Print(&seen.line), Print("\r\n"), Print(format!("> {}_", seen.typing)), Print("\r\n\r\n"))?;
        queue!(out, Print("type a line and enter to send it; esc quits\r\n"))?;
    } else {
        let labels: Vec<&str> = keys.iter().map(|k| k.2.as_str()).filter(|l| !l.is_empty()).collect();
        queue!(out, Print(labels.join("   ")), Print("\r\n"), Print("q or esc quits\r\n"))?;
    }
    out.flush()
}
