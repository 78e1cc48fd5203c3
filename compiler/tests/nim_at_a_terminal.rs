//! Nim (games/nim.game) over the serial line of qemu-system-arm's netduinoplus2 (and of its
//! lm3s6965evb, an LM3S6965's UART0), played as a
//! person at a terminal would: the same file the Silver Dollar board plays with buttons and
//! lights, built here for a board with a serial port, where the firmware plays the rule core's
//! heaps. Every board the device prints is held to the compiler's engine, every device move is
//! one the solved game ranks best, and moves that are garbage or illegal change nothing.

#[allow(dead_code)]
mod qemu;
#[allow(dead_code)]
#[path = "support/serial_host.rs"]
mod serial_host;

use gamec::engine::Outcome;
use serial_host::Host;

const GAME: &str = "games/nim.game";
const BOARD: &str = "boards/nim_netduinoplus2.board";
/// The same over an LM3S6965's UART0, in QEMU's lm3s6965evb.
const LM3S6965: &str = "boards/nim_lm3s6965.board";

/// Reads the heaps, a line each (`2 oooo`), and checks them against the host's game.
fn heaps(h: &mut Host, first: Option<String>) {
    for heap in 0..h.state.cells.len() {
        let line = if heap == 0 { first.clone().unwrap_or_else(|| h.line()) } else { h.line() };
        let want = format!("{} {}", heap + 1, "o".repeat(h.state.cells[heap] as usize));
        assert_eq!(line.trim_end(), want.trim_end(), "heap {}", heap + 1);
    }
}

#[test]
fn nim_at_a_terminal_the_device_plays_the_solved_game_and_refuses_what_is_not_a_move() {
    plays_the_solved_game_and_refuses_what_is_not_a_move(BOARD);
}

#[test]
fn on_the_lm3s6965_the_device_plays_the_solved_game_and_refuses_what_is_not_a_move() {
    plays_the_solved_game_and_refuses_what_is_not_a_move(LM3S6965);
}

fn plays_the_solved_game_and_refuses_what_is_not_a_move(board: &str) {
    let mut h = Host::boot(GAME, board, "1 ooo");
    heaps(&mut h, Some("1 ooo".into()));
    h.expect("Your move");
    // No heap 4, no ninth counter, no counter at all; a move that is not `HEAP:COUNT`.
    for (line, answer) in [("MV 4:1", "IL"), ("MV 1:9", "IL"), ("MV 2:0", "IL"), ("MV 1-2", "ER"), ("MV x", "ER")] {
        h.send(line);
        h.expect(answer);
    }
    // Normal play: a position is won for the side to move where the heaps' nim-sum is not 0.
    let nim_sum = |s: &gamec::engine::State| s.cells.iter().fold(0, |x, &c| x ^ c);
    for game in 0..3 {
        if game > 0 {
            h.send("NG");
            h.state = serial_host::engine(GAME).1;
            heaps(&mut h, None);
            h.expect("Your move");
        }
        loop {
            h.move_at_random();
            let line = h.line();
            let Some(text) = line.strip_prefix("MM ") else {
                // The person took the last counter.
                heaps(&mut h, Some(line));
                h.expect("LS");
                assert_eq!(h.engine.outcome(&h.state), Some(Outcome::Win(0)));
                h.send("OK");
                break;
            };
            let won = nim_sum(&h.state) != 0;
            h.device_move(&format!("MM {text}"));
            if won {
                assert_eq!(nim_sum(&h.state), 0, "the device's {text} leaves a nim-sum of 0");
            }
            h.send("OK");
            heaps(&mut h, None);
            match h.line().as_str() {
                "Your move" => continue,
                "WN" => {
                    assert_eq!(h.engine.outcome(&h.state), Some(Outcome::Win(1)));
                    h.send("OK");
                    break;
                }
                other => panic!("{other} after the device's move"),
            }
        }
    }
}
