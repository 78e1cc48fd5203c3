//! Lights Out (games/lights_out.game, a puzzle of one player on the rule core) over the serial
//! line of qemu-system-arm's netduinoplus2, played as a person at a terminal would: the same
//! file the Binario board plays with a cursor, built here for a board with a serial port. Every
//! board the device prints is held to the compiler's engine; each start, picked by number, is
//! solved by the fewest presses `gamec analyze` finds; garbage, a cell off the grid and a
//! start that does not exist are refused and change nothing.

// Shared with set_device.rs, which uses more of it.
#[path = "support/checking.rs"]
mod checking;
#[allow(dead_code)]
mod qemu;
#[allow(dead_code)]
#[path = "support/serial_host.rs"]
mod serial_host;

use gamec::engine::one_player::Toggles;
use gamec::engine::Outcome;
use serial_host::Host;

const GAME: &str = "games/lights_out.game";
const BOARD: &str = "boards/lights_out_netduinoplus2.board";
const HEADER: &str = "  A B C D E";

/// A cell's glyph: a lit cell `O`, any other `.` (the file gives empty and legal cells both).
fn glyph(content: u8) -> char {
    match content {
        0 => '.',
        3 => 'O',
        other => panic!("content {other}"),
    }
}

/// Reads a board and the prompt that follows it, checking the board against the host's game.
fn board_then(h: &mut Host, prompt: &str) {
    h.expect(HEADER);
    h.board(HEADER, glyph);
    h.expect(prompt);
}

/// Presses `cell` (the engine's numbering) at the terminal, and on the host's game.
fn press(h: &mut Host, cell: usize) {
    let stride = h.engine.stride;
    let name = format!("{}{}", (b'A' + (cell % stride) as u8) as char, cell / stride + 1);
    let m = h.engine.parse_move(&h.state, &name).expect("a press is a move");
    h.send(&format!("MV {name}"));
    h.play(m);
}

#[test]
fn each_start_picked_by_number_is_solved_at_a_terminal_and_garbage_changes_nothing() {
    let def = serial_host::load(GAME);
    let mut h = Host::boot(GAME, BOARD, HEADER);
    let starts = gamec::analyze::starts(&h.engine, &def);
    assert_eq!(starts.len(), 3, "cross, corners, ring");
    // The first start is dealt at power-up.
    h.state = starts[0].clone();
    h.board(HEADER, glyph);
    h.expect("Press a cell");

    // Refused, and the board unchanged: a line that is no command, a press with no cell, a
    // cell off the grid, a start the game does not have.
    for (line, answer) in [("XYZZY", "ER"), ("MV", "ER"), ("MV F1", "IL"), ("MV A6", "IL"), ("NG 4", "WRONG VALUE")] {
        h.send(line);
        h.expect(answer);
    }
    // A few presses, each board held to the engine, then the start again.
    for cell in [0, h.engine.stride + 1, 4 * h.engine.stride + 4] {
        press(&mut h, cell);
        board_then(&mut h, "Press a cell");
    }
    assert_ne!(h.state.cells, starts[0].cells);
    h.send("RST");
    h.expect("OK");
    h.state = starts[0].clone();
    board_then(&mut h, "Press a cell");

    let toggles = Toggles::new(&h.engine).expect("a toggle puzzle");
    for (k, start) in starts.iter().enumerate() {
        if k > 0 {
            h.send(&format!("NG {}", k + 1));
            h.expect("OK");
            h.state = start.clone();
            board_then(&mut h, "Press a cell");
        }
        let solution = toggles.solve(start).expect("solvable").cells;
        for (i, &cell) in solution.iter().enumerate() {
            press(&mut h, cell as usize);
            if i + 1 < solution.len() {
                board_then(&mut h, "Press a cell");
            }
        }
        assert_eq!(h.engine.outcome(&h.state), Some(Outcome::Win(0)), "start {k} solved");
        board_then(&mut h, "SOLVED");
        // Over: a press is refused.
        h.send("MV C3");
        h.expect("IL");
    }
}

/// The file's text with `from` replaced by `to`, checked: its diagnostics.
fn edited(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(GAME)).unwrap();
    assert!(text.contains(from), "{from}");
    let (ok, out) = checking::check(&text.replacen(from, to, 1));
    assert!(!ok, "{out}");
    out
}

#[test]
fn a_state_without_a_glyph_and_a_setup_past_the_last_are_errors_at_their_lines() {
    let out = edited(r#"lit "O", "#, "");
    assert!(
        out.contains("error[E0012]: every player with pieces, every state")
            && out.contains("give a glyph to each of: lit, empty, legal"),
        "{out}"
    );
    let out = edited("number 1..3 -> new game", "number 1..4 -> new game");
    assert!(
        out.contains("error[E0005]: the game has 3 setup(s), numbered from 1") && out.contains("game.game:38:"),
        "{out}"
    );
}
