//! A game on a 16 x 16 grid (compiler/tests/games/five_on_sixteen.game, on the rule core) in
//! qemu-system-arm's netduinoplus2, played over its USART: the far corner is cell 255, a byte's
//! last value, and the empty board's 256 moves are as many as a move's byte numbers. The host
//! takes the corners, types cells off the grid, and checks every board and every device move
//! against the engine.

// Shared with set_device.rs, which uses more of it.
#[allow(dead_code)]
mod qemu;
#[allow(dead_code)]
#[path = "support/serial_host.rs"]
mod serial_host;

use serial_host::Host;

const GAME: &str = "compiler/tests/games/five_on_sixteen.game";
const BOARD: &str = "compiler/tests/boards/wide_serial_netduinoplus2.board";

fn glyph(content: u8) -> char {
    match content {
        0 => '.',
        1 => 'x',
        2 => 'o',
        other => panic!("content {other}"),
    }
}

/// Reads the board the device prints and checks it cell by cell.
fn read_board(h: &mut Host) {
    let header = h.line();
    assert!(header.ends_with(" P"), "sixteen columns, A to P: {header:?}");
    h.board(&header, glyph);
}

/// Types `cell` as the host's move and reads the board and the `OK` it is answered with.
fn host_plays(h: &mut Host, cell: &str) {
    let m = h.engine.parse_move(&h.state, cell).unwrap_or_else(|e| panic!("{cell}: {}", e.message));
    h.send(&format!("MV {cell}"));
    h.play(m);
    read_board(h);
    h.expect("OK");
}

#[test]
fn the_far_corner_is_played_and_every_device_move_is_legal() {
    let mut h = Host::boot(GAME, BOARD, "Pick Black/White");
    h.send("SP B");
    h.expect("OK");
    for turn in 0..4 {
        read_board(&mut h);
        h.expect("Your move");
        // Off the grid, a seventeenth column or row: denied, and the board is unchanged.
        if turn == 0 {
            for off in ["Q1", "A17", "P0"] {
                h.send(&format!("MV {off}"));
                h.expect("IL");
            }
        }
        // The first corner still open, P16 (cell 255) first.
        let open = |h: &Host, c: &&str| h.engine.parse_move(&h.state, c).is_ok();
        let corner = *["P16", "A1", "P1", "A16", "O16", "P15"].iter().find(|c| open(&h, c)).unwrap();
        host_plays(&mut h, corner);
        let reply = h.line();
        h.device_move(&reply);
        h.send("OK");
    }
    read_board(&mut h);
    h.expect("Your move");
    assert_eq!(h.state.cells[255], 1, "P16, cell 255, holds the host's stone");
}
