//! Puzzles of one player on the rule core, served over the serial line of qemu-system-arm's
//! netduinoplus2 and played as a person at a terminal would: Lights Out (games/lights_out.game)
//! and Binario (games/binario.game), the same files the Binario board plays with a cursor,
//! built here for a board with a serial port. Every board the device prints is held to the
//! compiler's engine; each start, picked by number, is solved; garbage, a cell off the grid, a
//! given cell and a start that does not exist are refused and change nothing.

// Shared with set_device.rs, which uses more of it.
#[path = "support/checking.rs"]
mod checking;
#[allow(dead_code)]
mod qemu;
#[allow(dead_code)]
#[path = "support/serial_host.rs"]
mod serial_host;

use gamec::engine::one_player::Toggles;
use gamec::engine::puzzle::Puzzle;
use gamec::engine::Outcome;
use serial_host::Host;

/// A puzzle at the terminal: its board's header, each content's glyph, and the prompt.
struct Terminal {
    host: Host,
    header: &'static str,
    glyph: fn(u8) -> char,
    prompt: &'static str,
}

impl Terminal {
    /// Boots `game` on `board`: its first start is dealt at power-up.
    fn boot(game: &str, board: &str, header: &'static str, glyph: fn(u8) -> char, prompt: &'static str) -> Self {
        let host = Host::boot(game, board, header);
        let mut t = Terminal { host, header, glyph, prompt };
        t.host.board(header, glyph);
        t.host.expect(prompt);
        t
    }

    /// Reads a board and the line that follows it, the board held to the host's game.
    fn board_then(&mut self, then: &str) {
        self.host.expect(self.header);
        self.host.board(self.header, self.glyph);
        self.host.expect(then);
    }

    /// Presses `cell` (the engine's numbering) at the terminal, and on the host's game.
    fn press(&mut self, cell: usize) {
        let stride = self.host.engine.stride;
        let name = format!("{}{}", (b'A' + (cell % stride) as u8) as char, cell / stride + 1);
        let m = self.host.engine.parse_move(&self.host.state, &name).expect("a press is a move");
        self.host.send(&format!("MV {name}"));
        self.host.play(m);
    }

    /// `NG k`: start `k` (from 1) dealt, as `start`.
    fn deal(&mut self, k: usize, start: &gamec::engine::State) {
        self.host.send(&format!("NG {k}"));
        self.host.expect("OK");
        self.host.state = start.clone();
        let prompt = self.prompt;
        self.board_then(prompt);
    }

    /// Lines that are refused with `answer` each, changing nothing.
    fn refused(&mut self, lines: &[(&str, &str)]) {
        for (line, answer) in lines {
            self.host.send(line);
            self.host.expect(answer);
        }
    }
}

const LIGHTS_OUT: &str = "games/lights_out.game";

/// A Lights Out cell's glyph: a lit cell `O`, any other `.` (the file gives empty and legal
/// cells both).
fn lights(content: u8) -> char {
    match content {
        0 => '.',
        3 => 'O',
        other => panic!("content {other}"),
    }
}

#[test]
fn lights_out_at_a_terminal_each_start_picked_by_number_and_solved() {
    let def = serial_host::load(LIGHTS_OUT);
    let mut t =
        Terminal::boot(LIGHTS_OUT, "boards/lights_out_netduinoplus2.board", "  A B C D E", lights, "Press a cell");
    let starts = gamec::analyze::starts(&t.host.engine, &def);
    assert_eq!(starts.len(), 3, "cross, corners, ring");
    assert_eq!(t.host.state.cells, starts[0].cells, "the first start at power-up");
    // Refused, and the board unchanged: a line that is no command, a press with no cell, a
    // cell off the grid, a start the game does not have.
    t.refused(&[("XYZZY", "ER"), ("MV", "ER"), ("MV F1", "IL"), ("MV A6", "IL"), ("NG 4", "WRONG VALUE")]);
    // A few presses, each board held to the engine, then the start again.
    let stride = t.host.engine.stride;
    for cell in [0, stride + 1, 4 * stride + 4] {
        t.press(cell);
        t.board_then("Press a cell");
    }
    assert_ne!(t.host.state.cells, starts[0].cells);
    t.host.send("RST");
    t.host.expect("OK");
    t.host.state = starts[0].clone();
    t.board_then("Press a cell");

    let toggles = Toggles::new(&t.host.engine).expect("a toggle puzzle");
    for (k, start) in starts.iter().enumerate() {
        if k > 0 {
            t.deal(k + 1, start);
        }
        let solution = toggles.solve(start).expect("solvable").cells;
        for (i, &cell) in solution.iter().enumerate() {
            t.press(cell as usize);
            if i + 1 < solution.len() {
                t.board_then("Press a cell");
            }
        }
        assert_eq!(t.host.engine.outcome(&t.host.state), Some(Outcome::Win(0)), "start {k} solved");
        t.board_then("SOLVED");
        // Over: a press is refused.
        t.refused(&[("MV C3", "IL")]);
    }
}

const BINARIO: &str = "games/binario.game";

/// A Binario cell's glyph.
fn binario(content: u8) -> char {
    match content {
        0 => '.',
        3 => 'R',
        4 => 'G',
        other => panic!("content {other}"),
    }
}

#[test]
fn binario_at_a_terminal_a_given_cell_refused_and_tableaux_solved() {
    let def = serial_host::load(BINARIO);
    let mut t =
        Terminal::boot(BINARIO, "boards/binario_netduinoplus2.board", "  A B C D E F G H", binario, "Your move");
    let starts = gamec::analyze::starts(&t.host.engine, &def);
    assert_eq!(starts.len(), 8);
    assert_eq!(t.host.state.cells, starts[0].cells, "the first tableau at power-up");
    // Tableau 1 gives A1 (red) and E2 (green): a press on either is refused, the cell kept.
    t.refused(&[("MV A1", "IL"), ("MV E2", "IL"), ("MV I1", "IL"), ("NG 9", "WRONG VALUE"), ("NG 0", "WRONG VALUE")]);
    // A free cell steps red, green, then clear.
    for _ in 0..3 {
        t.press(7);
        t.board_then("Your move");
    }
    assert_eq!(t.host.state.cells, starts[0].cells, "back to the start after three presses");

    let tableaux = [0, 4, 7];
    let solutions: Vec<_> = {
        let puzzle = Puzzle::new(&t.host.engine).expect("a puzzle");
        tableaux
            .iter()
            .map(|&k| puzzle.try_solutions(&starts[k], 1).expect("decided").pop().expect("solvable"))
            .collect()
    };
    for (k, solution) in tableaux.into_iter().zip(solutions) {
        if k > 0 {
            t.deal(k + 1, &starts[k]);
        }
        // Each free cell pressed once for red, twice for green.
        let presses: Vec<usize> = (0..solution.cells.len())
            .filter(|&c| starts[k].cells[c] == 0)
            .flat_map(|c| std::iter::repeat_n(c, solution.cells[c] as usize - 2))
            .collect();
        for (i, &cell) in presses.iter().enumerate() {
            t.press(cell);
            if i + 1 < presses.len() {
                t.board_then("Your move");
            }
        }
        assert_eq!(t.host.state.cells, solution.cells);
        assert_eq!(t.host.engine.outcome(&t.host.state), Some(Outcome::Win(0)), "tableau {} solved", k + 1);
        t.board_then("SOLVED");
    }
}

/// Lights Out's text with `from` replaced by `to`, checked: its diagnostics.
fn edited(from: &str, to: &str) -> String {
    let text =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(LIGHTS_OUT)).unwrap();
    assert!(text.contains(from), "{from}");
    let (ok, out) = checking::check(&text.replacen(from, to, 1));
    assert!(!ok, "{out}");
    out
}

#[test]
fn a_state_without_a_glyph_and_a_setup_past_the_last_are_errors_at_their_lines() {
    let out = edited(r#"lit "O", "#, "");
    assert!(
        out.contains("error[E0012]: every player with pieces (or the shared piece), every state")
            && out.contains("give a glyph to each of: lit, empty, legal"),
        "{out}"
    );
    let out = edited("number 1..3 -> new game", "number 1..4 -> new game");
    assert!(
        out.contains("error[E0005]: the game has 3 setup(s), numbered from 1") && out.contains("game.game:38:"),
        "{out}"
    );
}
