//! `gamec play --board` as a person at a terminal uses it (a pseudo-terminal from `script`):
//! the firmware built and run in simavr, the board drawn, keys pressing its buttons and typing
//! on its serial line, and a clean quit; an LM3S6965 board's buttons and lights in QEMU, drawn
//! and pressed the same way; an STM32F405 board's firmware in QEMU with the terminal as its
//! serial line, and a game of cards there with its console on the terminal and cards scanned
//! by typing them; the AT32F437's image on the same machine, its stack moved into the RAM QEMU
//! maps, and refused with the figures where its RAM would not fit there.

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
        Screen::start_in(game, board, &root().join("target/gamec-tests/play"))
    }

    /// `gamec play` building into `out_dir`.
    fn start_in(game: &str, board: &str, out_dir: &std::path::Path) -> Screen {
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

/// The lit cells of the matrix in the last whole screen of `text`: `●` drawn in a colour, `·`
/// dark.
fn matrix_lit(text: &str) -> Vec<usize> {
    let whole = text.split("\u{1b}[2J").filter(|s| s.contains("q or esc quits")).last().unwrap_or("");
    let rows = plain(whole);
    let cells = rows
        .lines()
        .filter(|l| l.contains('·') || l.contains('●'))
        .flat_map(|l| l.chars().filter(|c| matches!(c, '·' | '●')).map(|c| c == '●').collect::<Vec<_>>());
    cells.enumerate().filter(|&(_, lit)| lit).map(|(i, _)| i).collect()
}

/// A cursor board in simavr: the matrix drawn in colour, the arrow keys turning the encoders
/// and enter pressing select (see [`the_matrix_is_drawn_and_the_keys_play_it`]).
#[test]
fn a_cursor_game_shows_its_matrix_and_the_keys_play_it() {
    the_matrix_is_drawn_and_the_keys_play_it("boards/lights_out_atmega128.board");
}

/// The same on a Cortex-M, the LM3S6965 in QEMU at the wall clock's pace.
#[test]
fn a_cursor_game_on_a_cortex_m_shows_its_matrix_and_the_keys_play_it() {
    the_matrix_is_drawn_and_the_keys_play_it("boards/lights_out_lm3s6965.board");
}

/// Lights Out's first start lights a cross of five (and the cursor blinks at the top left);
/// the cursor moved to its centre with the arrow keys, enter presses there and puts out all
/// five.
fn the_matrix_is_drawn_and_the_keys_play_it(board: &str) {
    let mut s = Screen::start("games/lights_out.game", board);
    s.until("q or esc quits", 600);
    // A cell's place on the 8-wide matrix, by its column from 0 (A) and its row from 1.
    let at = |col: usize, row: usize| (row - 1) * 8 + col;
    let cross = [at(2, 2), at(1, 3), at(2, 3), at(3, 3), at(2, 4)];
    let mut lit = Vec::new();
    for _ in 0..40 {
        lit = matrix_lit(&s.until("q or esc quits", 10));
        if cross.iter().all(|c| lit.contains(c)) {
            break;
        }
    }
    assert!(cross.iter().all(|c| lit.contains(c)), "the cross of C2, B3, C3, D3 and C4 lit: {lit:?}");
    assert!(lit.len() <= 6, "the cross, and at most the cursor: {lit:?}");
    // Two right and two down: C3, the cross's centre; enter presses it.
    s.press("\u{1b}[C\u{1b}[C\u{1b}[B\u{1b}[B");
    s.until("q or esc quits", 10);
    s.press("\r");
    for _ in 0..40 {
        lit = matrix_lit(&s.until("q or esc quits", 10));
        if cross.iter().all(|c| !lit.contains(c)) {
            break;
        }
    }
    assert!(cross.iter().all(|c| !lit.contains(c)), "the press put the cross out: {lit:?}");
    s.press("q");
    assert_eq!(s.exit_code(), Some(0), "a clean quit");
}

/// An image whose static RAM and stack's bound do not fit in the RAM QEMU maps, or whose stack
/// has no bound, is refused with the figures: the AT32F437's board as `gamec build` would
/// report a firmware of 130 KB of statics.
#[test]
fn an_image_too_large_for_the_ram_qemu_maps_is_refused_with_its_figures() {
    let mut sources = gamec_dsl::Sources::new();
    let (game, board) = (root().join("games/set.game"), root().join("boards/set_at_start_f437.board"));
    let (_, _, target, _) = gamec::driver::load_pair(&mut sources, &game, &board).unwrap();
    let built = |bss: u32, stack: Option<u32>| gamec::driver::Built {
        elf: root().join("target/gamec-tests/play/never-built.elf"),
        hex: root().join("target/gamec-tests/play/never-built.hex"),
        eeprom: None,
        sizes: gamec::driver::Sizes { text: 12_000, data: 0, bss },
        stack,
        target: target.clone(),
        report: String::new(),
    };
    let refused = gamec::driver::sim_image(&built(130 * 1024, Some(1496))).unwrap_err().to_string();
    for figure in ["netduinoplus2", "128 KB", "at32f437", "384 KB", "131072 B", "134616 B", "133120 B", "1496 B"] {
        assert!(refused.contains(figure), "{figure} in: {refused}");
    }
    let refused = gamec::driver::sim_image(&built(280, None)).unwrap_err().to_string();
    assert!(refused.contains("no bound"), "{refused}");
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
        Piped::start_in(args, group, &root().join("target/gamec-tests/play"))
    }

    /// `gamec play ARGS` building into `out_dir`.
    fn start_in(args: &[&str], group: bool, out_dir: &std::path::Path) -> Piped {
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
            .arg(out_dir)
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
        self.seen_until(what);
    }

    /// Reads until the output holds one of `texts`.
    fn until_any(&mut self, texts: &[String]) {
        let (mut seen, end) = (Vec::new(), Instant::now() + Duration::from_secs(600));
        let holds = |seen: &[u8]| texts.iter().any(|t| String::from_utf8_lossy(seen).contains(t.as_str()));
        while !holds(&seen) && Instant::now() < end {
            if let Ok(b) = self.out.recv_timeout(Duration::from_millis(100)) {
                seen.push(b);
            }
        }
        assert!(holds(&seen), "none of {texts:?}: {:?}", String::from_utf8_lossy(&seen));
    }

    /// Reads until the output holds `what`, and returns what was read.
    fn seen_until(&mut self, what: &str) -> String {
        let (mut seen, end) = (Vec::new(), Instant::now() + Duration::from_secs(600));
        while !String::from_utf8_lossy(&seen).contains(what) && Instant::now() < end {
            if let Ok(b) = self.out.recv_timeout(Duration::from_millis(100)) {
                seen.push(b);
            }
        }
        let seen = String::from_utf8_lossy(&seen).into_owned();
        assert!(seen.contains(what), "no {what:?}: {seen:?}");
        seen
    }

    /// Types `scan CARD` and returns the console's reply; again where QEMU split the frame:
    /// it hands the USART a frame's bytes one at a time, as the host's I/O thread gets to
    /// them, and on a busy host the guest may run past the card table's frame gap between two
    /// (an AT32F437 image's 30 ms are 1.4 ms of QEMU's, its SysTick reloads made for 8 MHz run
    /// at 168), where no scanner leaves one. A split frame is answered as a malformed one, then
    /// as an empty one, and changes nothing.
    fn scan(&mut self, card: &str) -> String {
        for _ in 0..5 {
            self.type_line(&format!("scan {card}\n"));
            let reply = self.seen_until("\n> ");
            if !reply.contains("malformed frame") {
                return reply;
            }
            let rest = self.seen_until("\n> ");
            assert!(rest.contains("a frame of 0 bytes"), "the split frame's suffix alone: {rest}");
        }
        panic!("the frame of {card} split five times");
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

/// The AT-START-F437's own image (its glue's registers, clocks and pins), played as the
/// netduinoplus2's is: QEMU's STM32F405 has its USARTs at the same addresses, and gamec hands
/// it a copy with the initial stack pointer moved into the 128 KB it maps. Cards of the deck,
/// typed by their values, each answered with its place and the groups the table then holds, as
/// `gamec::cards` finds them.
#[test]
fn the_at32f437_board_plays_in_qemu_and_its_console_answers_every_group() {
    let text = std::fs::read_to_string(root().join("games/set.game")).unwrap();
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add("set.game", text);
    let cards = gamec_dsl::load_game(&sources, id).unwrap().cards.unwrap();
    let deck = gamec::cards::Deck::new(&cards);
    let group = cards.group.name.node.as_str();
    // Cards a fixed stride apart through the deck (the stride prime to its size, so each once).
    let all = deck.cards();
    let table: Vec<u32> = (0..9).map(|i| all[(i * 31 + 4) % all.len()]).collect();
    assert!(!deck.groups(&table).is_empty(), "a table that holds a {group}");
    let mut p = Piped::start(&["games/set.game", "--board", "boards/set_at_start_f437.board"], false);
    p.until("\n> ");
    for (i, &card) in table.iter().enumerate() {
        let name = deck.name(card);
        let reply = p.scan(&name);
        assert!(reply.contains(&format!("card {}: {name}", i + 1)), "{reply}");
        let printed: Vec<Vec<usize>> = reply
            .lines()
            .filter_map(|l| l.strip_prefix(&format!("{group} ")))
            .filter_map(|l| l.split_once(": cards "))
            .map(|(_, places)| places.split(' ').map(|n| n.trim().parse::<usize>().unwrap() - 1).collect())
            .collect();
        assert_eq!(printed, deck.groups(&table[..=i]), "after {} cards: {reply}", i + 1);
    }
    p.quit();
    // What a person flashes keeps the chip's own stack top: only the copy QEMU ran moved it.
    let elf = std::fs::read(root().join("target/gamec-tests/play/set-set_at_start_f437.elf")).unwrap();
    let sp = u32::from_le_bytes(gamec::driver::flash_image(&elf).unwrap()[..4].try_into().unwrap());
    assert_eq!(sp, 0x2000_0000 + 384 * 1024);
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

/// The texts a serial game's firmware may print first, from its file: every literal of its
/// responses long enough to tell apart from a board's glyphs.
fn response_texts(serial: &gamec_dsl::SerialDef) -> Vec<String> {
    let parts = serial.says.iter().flat_map(|s| &s.parts);
    let lines = parts.filter_map(|p| match p {
        gamec_dsl::SayPart::Line(l) => Some(l),
        _ => None,
    });
    let texts = lines.flatten().filter_map(|t| match t {
        gamec_dsl::TextPart::Text(s) if s.trim().len() >= 3 => Some(s.trim().to_string()),
        _ => None,
    });
    texts.collect()
}

/// Every board in boards/ plays in the terminal: its game (`boards/<game>_*.board`) built,
/// the firmware booted in the simulator its chip needs, and what it shows first seen on the
/// screen: lit LEDs or matrix cells on a board of buttons or a cursor, one of the game's own
/// responses on a serial line, the console's prompt of a game of cards. Then a clean quit.
/// `BOARDS=kalah,nim` plays only the boards whose names hold one of those.
#[test]
fn every_board_plays_in_the_terminal() {
    let out = root().join("target/gamec-tests");
    let mut boards: Vec<String> = std::fs::read_dir(root().join("boards"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".board"))
        .collect();
    boards.sort();
    let games: Vec<String> = std::fs::read_dir(root().join("games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().trim_end_matches(".game").to_string())
        .collect();
    let mut failed = Vec::new();
    let only = std::env::var("BOARDS").unwrap_or_default();
    for board in boards.iter().filter(|b| only.split(',').any(|o| b.contains(o))) {
        eprintln!("{board}");
        // The longest game name the board's name starts with: `nim_silver_dollar_...` is Nim's.
        let game = games.iter().filter(|g| board.starts_with(&format!("{g}_"))).max_by_key(|g| g.len());
        let game = format!("games/{}.game", game.unwrap_or_else(|| panic!("no game for {board}")));
        let board = format!("boards/{board}");
        let mut sources = gamec_dsl::Sources::new();
        let (def, _, target, _) =
            gamec::driver::load_pair(&mut sources, &root().join(&game), &root().join(&board)).unwrap();
        // The interface the board binds: a game may carry a serial one beside its buttons.
        let serial = def.interface.serial.as_ref().filter(|_| target.serial.is_some());
        let seen = std::panic::catch_unwind(|| match (&target.cards, serial, &target.chip.arch) {
            (Some(_), ..) => {
                let mut p = Piped::start_in(&[&game, "--board", &board], false, &out);
                p.until("\n> ");
                p.quit();
            }
            (None, Some(serial), gamec::chips::Arch::CortexM(_)) => {
                let mut p = Piped::start_in(&[&game, "--board", &board], true, &out);
                let texts = response_texts(serial);
                p.until_any(&texts);
                let _ = Command::new("sh").args(["-c", &format!("kill -s INT -- -{}", p.child.id())]).status();
                let _ = p.child.wait();
            }
            (None, serial, _) => {
                let mut s = Screen::start_in(&game, &board, &out);
                s.until("esc quits", 600);
                let texts = serial.map(response_texts);
                let mut shown = false;
                for _ in 0..200 {
                    let screen = plain(&s.until("esc quits", 10));
                    shown = match &texts {
                        Some(texts) => texts.iter().any(|t| screen.contains(t.as_str())),
                        None => screen.contains('●'),
                    };
                    if shown {
                        break;
                    }
                }
                assert!(shown, "nothing the firmware shows");
                s.press("\u{1b}");
                assert_eq!(s.exit_code(), Some(0), "a clean quit");
            }
        });
        if seen.is_err() {
            failed.push(board);
        }
    }
    assert!(failed.is_empty(), "boards that do not play in the terminal: {failed:?}");
}
