//! `gamec draw BOARD -o FILE`: for every board in boards/, the SVG is well-formed XML and
//! names the chip, every pin the board file uses, and each device with its pins (read back
//! from the picture's texts and tooltips, against the board file read here word by word, not
//! by gamec's parser). A malformed board gives its diagnostic and exit code 1, never a panic.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamec-draw-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `gamec ARGS`: exit code, standard output, standard error.
fn gamec(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gamec")).args(args).current_dir(root()).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// The texts and the tooltips of a drawing, parsed as XML (which fails on any unbalanced tag).
struct Drawing {
    texts: Vec<String>,
    titles: Vec<String>,
}

impl Drawing {
    fn parse(svg: &str) -> Drawing {
        let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{svg}"));
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let of = |tag: &str| -> Vec<String> {
            doc.descendants()
                .filter(|n| n.has_tag_name(tag))
                .map(|n| n.descendants().filter(|d| d.is_text()).filter_map(|d| d.text()).collect::<String>())
                .collect()
        };
        Drawing { texts: of("text"), titles: of("title") }
    }

    fn has_text(&self, text: &str) -> bool {
        self.texts.iter().any(|t| t == text)
    }

    fn has_title(&self, prefix: &str) -> bool {
        self.titles.iter().any(|t| t.starts_with(prefix))
    }
}

/// A board file's words, comments dropped, punctuation on its own.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut word = String::new();
        for c in line.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
        }
        if !word.is_empty() {
            out.push(word);
        }
    }
    out
}

fn is_pin(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() >= 3 && b[0] == b'P' && b[1].is_ascii_uppercase() && b[2..].iter().all(u8::is_ascii_digit)
}

/// What the drawing of a board must say: (what, found) pairs, from the board file's words.
fn expectations(board: &str, d: &Drawing) -> Vec<(String, bool)> {
    let w = words(board);
    let mut out: Vec<(String, bool)> = Vec::new();
    let title = |prefix: String| (format!("a tooltip `{prefix}...`"), d.has_title(&prefix));
    let pins_from = |i: usize| w[i..].iter().take_while(|t| is_pin(t)).cloned().collect::<Vec<_>>();
    for i in 0..w.len() {
        let at = |k: usize| w.get(i + k).map_or("", String::as_str);
        match w[i].as_str() {
            "display" if at(3) == "charlieplex" => {
                let end = i + w[i..].iter().position(|t| t == "}").unwrap();
                let open = i + w[i..].iter().position(|t| t == "{").unwrap();
                for led in w[open + 1..end].chunks(5) {
                    // N = ANODE > CATHODE
                    out.push(title(format!("LED {}: {} > {}", led[0], led[2], led[4])));
                }
            }
            "display" if at(3) == "matrix" => {
                let name = at(1);
                let rows = pins_from(i + 5);
                let red_at = i + w[i..].iter().position(|t| t == "red").unwrap() + 1;
                let green_at = i + w[i..].iter().position(|t| t == "green").unwrap() + 1;
                for (r, p) in rows.iter().enumerate() {
                    out.push(title(format!("{p}: display {name} row {}", r + 1)));
                }
                for (colour, at) in [("red", red_at), ("green", green_at)] {
                    for (c, p) in pins_from(at).iter().enumerate() {
                        out.push(title(format!("{p}: display {name} {colour} column {}", (b'A' + c as u8) as char)));
                    }
                }
            }
            "button" => {
                let (name, pin) = match at(2) {
                    "[" => (format!("{}[{}]", at(1), at(3)), at(6)),
                    _ => (at(1).to_string(), at(3)),
                };
                out.push(title(format!("{pin}: button {name}")));
            }
            "encoder" => {
                out.push(title(format!("{}: encoder {} contact A", at(3), at(1))));
                out.push(title(format!("{}: encoder {} contact B", at(4), at(1))));
            }
            "speaker" => out.push(title(format!("{}: speaker", at(2)))),
            "led" => out.push(title(format!("{}: led {}", at(3), at(1)))),
            "serial" => {
                let port = at(1);
                for line in ["TX", "RX"] {
                    let found = d.titles.iter().any(|t| t.contains(&format!("{port} {line}")));
                    out.push((format!("the serial port's `{port} {line}`"), found));
                }
            }
            "eeprom" => {
                // eeprom NAME = 93c46 cs PIN , sk PIN , di PIN , do PIN
                for (k, signal) in [(5, "CS"), (8, "SK"), (11, "DI"), (14, "DO")] {
                    out.push(title(format!("{}: eeprom {} {signal}", at(k), at(1))));
                }
            }
            "clock" if matches!(at(3), "crystal" | "external") => {
                let what = if at(3) == "crystal" { "crystal" } else { "external clock" };
                let text = format!("{what} {} {}", at(1), at(2));
                let found = d.texts.iter().any(|t| t.contains(&text));
                out.push((format!("`{text}`"), found));
            }
            _ => {}
        }
    }
    out
}

fn boards() -> Vec<PathBuf> {
    let mut boards: Vec<PathBuf> = std::fs::read_dir(root().join("boards"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "board"))
        .collect();
    boards.sort();
    boards
}

/// Draws `board` into the scratch folder: the SVG's text.
fn draw(board: &Path, dir: &Path) -> String {
    let out = dir.join(board.file_stem().unwrap()).with_extension("svg");
    let (code, stdout, stderr) = gamec(&["draw".as_ref(), board.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    assert_eq!(code, Some(0), "{}: {stdout}{stderr}", board.display());
    assert!(stdout.contains("wrote"), "{stdout}");
    std::fs::read_to_string(&out).unwrap()
}

#[test]
fn every_board_is_drawn_with_its_chip_pins_and_devices() {
    let dir = scratch("boards");
    let boards = boards();
    assert!(boards.len() >= 20, "{boards:?}");
    for board in &boards {
        let text = std::fs::read_to_string(board).unwrap();
        let svg = draw(board, &dir);
        let d = Drawing::parse(&svg);
        let name = board.display();
        let w = words(&text);
        let chip = &w[w.iter().position(|t| t == "chip").unwrap() + 1];
        assert!(d.has_text(chip), "{name}: the chip `{chip}` is not named");
        let pins: Vec<&String> = w.iter().filter(|t| is_pin(t)).collect();
        for pin in &pins {
            assert!(d.has_text(pin), "{name}: the pin {pin} is not drawn");
        }
        let expected = expectations(&text, &d);
        let missing: Vec<&String> = expected.iter().filter(|(_, found)| !found).map(|(what, _)| what).collect();
        assert!(missing.is_empty(), "{name}: the drawing lacks {missing:?}\ntooltips: {:#?}", d.titles);
        // The boards name devices: every device statement gave at least one expectation.
        let devices = ["display", "button", "encoder", "speaker", "led", "serial", "eeprom"];
        let statements = w.iter().filter(|t| devices.contains(&t.as_str())).count();
        assert!(expected.len() >= statements, "{name}: {expected:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_charlieplexed_board_shows_every_led_by_its_cell_number() {
    let board = root().join("boards/nim_silver_dollar_attiny84.board");
    let dir = scratch("charlieplex");
    let d = Drawing::parse(&draw(&board, &dir));
    for cell in 1..=12 {
        assert!(d.has_text(&cell.to_string()), "LED {cell}'s number");
        assert!(d.has_title(&format!("LED {cell}: PA")), "LED {cell}'s pins");
    }
    assert!(d.has_title("LED 10: PA1 > PA0"), "{:#?}", d.titles);
    // Each display pin says which LEDs it is the anode and the cathode of.
    assert!(d.has_title("PA0: display cells: anode of LEDs 2 5 9; cathode of LEDs 10 11 12"), "{:#?}", d.titles);
    // The speaker's pin is Timer/Counter1's output B; the reset pin is not for wiring.
    assert!(d.has_title("PA5: speaker, timer1 output B"), "{:#?}", d.titles);
    assert!(d.has_title("PB3: RESET (reserved)"), "{:#?}", d.titles);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_serial_board_shows_tx_and_rx_on_their_pins() {
    let board = root().join("boards/othello_stk500_atmega16.board");
    let dir = scratch("serial");
    let d = Drawing::parse(&draw(&board, &dir));
    assert!(d.has_title("PD1: usart TX, to the host's RX"), "{:#?}", d.titles);
    assert!(d.has_title("PD0: usart RX, from the host's TX"), "{:#?}", d.titles);
    assert!(d.has_title("XTAL1: crystal 10 MHz") && d.has_title("XTAL2: crystal 10 MHz"), "{:#?}", d.titles);
    assert!(d.has_title("PB1: led won, lit when low"), "{:#?}", d.titles);
    // A Cortex-M chip's table names no serial pins: the ports are terminals of their own.
    let d = Drawing::parse(&draw(&root().join("boards/set_at_start_f437.board"), &dir));
    assert!(d.has_title("usart1 TX: usart1 TX, to the console's RX"), "{:#?}", d.titles);
    assert!(d.has_title("usart2 RX: usart2 RX, from the scanner's TX"), "{:#?}", d.titles);
    assert!(d.has_text("serial usart2 9600 baud for scanner"), "{:#?}", d.texts);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn without_an_output_file_the_drawing_goes_to_standard_output() {
    let (code, stdout, stderr) = gamec(&["draw".as_ref(), "boards/binario_atmega128.board".as_ref()]);
    assert_eq!(code, Some(0), "{stderr}");
    let d = Drawing::parse(&stdout);
    assert!(d.has_title("PB0: eeprom tableaux CS"), "{:#?}", d.titles);
    assert!(d.has_title("PC7: display cells row 1"), "{:#?}", d.titles);
}

#[test]
fn a_malformed_board_gives_its_diagnostics_and_exit_code_1() {
    let dir = scratch("malformed");
    let cases = [
        // A bit a port does not have.
        (
            "bit.board",
            "board b {\n  chip attiny84a\n  clock 8 MHz internal\n  button go = PA9 pullup\n}\n",
            "bit.board:4:15",
        ),
        // A statement missing its `=`.
        ("syntax.board", "board b {\n  chip attiny84a\n  clock 8 MHz internal\n  speaker PA5\n}\n", "syntax.board:4:3"),
        // A pin the chip does not have, which only the chip's table knows.
        (
            "chip.board",
            "board b {\n  chip attiny84a\n  clock 8 MHz internal\n  button go = PD0 pullup\n}\n",
            "chip.board:4:",
        ),
        // An empty file.
        ("empty.board", "", "empty.board:1:1"),
    ];
    for (file, text, place) in cases {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        let out = dir.join(file).with_extension("svg");
        let (code, stdout, stderr) = gamec(&["draw".as_ref(), path.as_os_str(), "-o".as_ref(), out.as_os_str()]);
        assert_eq!(code, Some(1), "{file}: {stdout}{stderr}");
        assert!(stderr.contains(place), "{file}: no diagnostic at {place}: {stderr}");
        assert!(stderr.contains("error["), "{file}: {stderr}");
        assert!(!stderr.contains("panicked"), "{file}: {stderr}");
        assert!(!out.exists(), "{file}: a drawing was written all the same");
    }
    // A game is not a board.
    let (code, _, stderr) = gamec(&["draw".as_ref(), "games/nim.game".as_ref()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("E0007") && stderr.contains("nim.game:5:6"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
