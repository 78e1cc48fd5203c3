//! Checkers' firmware (games/checkers.game, on the rule core) in qemu-system-arm's
//! netduinoplus2, played over its USART as a person at a terminal would: every board the
//! device prints, every move it makes and the result are checked against the compiler's engine
//! reading the same file; then what must be refused, and the board unchanged by it.

// Shared with set_device.rs, which uses more of it.
#[allow(dead_code)]
mod qemu;
#[allow(dead_code)]
#[path = "support/serial_host.rs"]
mod serial_host;

use gamec::engine::Outcome;
use serial_host::Host;

const GAME: &str = "games/checkers.game";
const BOARD: &str = "boards/checkers_netduinoplus2.board";
/// A game that has not ended in this many lines is the firmware going round in circles.
const LONGEST: usize = 2000;

fn boot() -> Host {
    Host::boot(GAME, BOARD, "Pick Black/White")
}

/// A cell's glyph on checkers' board: men and kings of each side.
fn glyph(content: u8) -> char {
    match content {
        0 => '.',
        1 => 'b',
        2 => 'w',
        9 => 'B',
        10 => 'W',
        other => panic!("content {other}"),
    }
}

/// Plays a whole game as `side` ("B" or "W"), the host's moves at random; the result the
/// device announced, and the turns the host lost to the move clock (the guest's clock runs on
/// while this thread is not scheduled).
fn play_game(h: &mut Host, side: &str) -> (&'static str, usize) {
    let me = if side == "B" { 0 } else { 1 };
    let mut late = 0;
    h.send(&format!("SP {side}"));
    h.expect("OK");
    for _ in 0..LONGEST {
        let line = h.line();
        match line.as_str() {
            t if t.starts_with("  A") => h.board(t, glyph),
            "Your move" => {
                assert_eq!(h.state.to_move, me, "the host's turn");
                let moves = h.engine.plies(&h.state);
                let m = moves[h.random(moves.len())];
                h.send(&format!("MV {}", h.engine.move_name(m)));
                // The board after the move, then OK; or the clock ran out first, and the turn
                // is lost, not the move made.
                let next = h.line();
                if next == "IT" {
                    late += 1;
                    h.state.to_move = 1 - me;
                    h.send("OK");
                    continue;
                }
                h.play(m);
                h.board(&next, glyph);
                h.expect("OK");
            }
            t if t.starts_with("MM ") => {
                assert_eq!(h.state.to_move, 1 - me, "the device moves in its turn");
                h.device_move(t);
                h.send("OK");
            }
            t if t.starts_with("Game over") => assert!(h.engine.outcome(&h.state).is_some(), "{t}"),
            "WN" | "LS" | "TE" => {
                let want = match h.engine.outcome(&h.state) {
                    Some(Outcome::Win(w)) if w == me => "LS",
                    Some(Outcome::Win(_)) => "WN",
                    Some(Outcome::Draw) => "TE",
                    None => panic!("{line} before the game is over:\n{}", h.engine.show(&h.state)),
                };
                assert_eq!(line, want);
                h.send("OK");
                return (want, late);
            }
            other => panic!("unexpected line {other:?}"),
        }
    }
    panic!("no result after {LONGEST} lines:\n{}", h.engine.show(&h.state));
}

#[test]
fn whole_games_against_random_moves_are_played_by_the_rules_and_won() {
    let mut h = boot();
    let (first, late_first) = play_game(&mut h, "B");
    // The result acknowledged (OK), a new game chooses sides again.
    h.send("NG");
    h.expect("OK");
    h.expect("Pick Black/White");
    h.state = serial_host::engine(GAME).1;
    let (second, late_second) = play_game(&mut h, "W");
    assert!(late_first + late_second <= 2, "the host lost {} turns to the clock", late_first + late_second);
    // The device searches; a random player should not beat it.
    assert_eq!([first, second], ["WN", "WN"]);
}

#[test]
fn what_is_refused_is_answered_and_leaves_the_board_as_it_was() {
    let mut h = boot();
    h.send("HELLO");
    h.expect("ER");
    h.send("ST 0");
    h.expect("WRONG VALUE set default");
    // The longest clock: the refusals below take the host's turn's time.
    h.send("ST 9");
    h.expect("OK");
    h.send("SP B");
    h.expect("OK");
    let header = h.line();
    h.board(&header, glyph);
    h.expect("Your move");
    // Onto an own man, two rows at once, backwards, off the board, a cell alone: each is
    // denied, and the next legal move is made on the board as it was.
    for bad in ["MV A1-B2", "MV C3-E5", "MV B2-A1", "MV H2-I3", "MV C3"] {
        h.send(bad);
        h.expect("IL");
    }
    // Not cells at all: not understood.
    for bad in ["MV 42", "MV"] {
        h.send(bad);
        h.expect("ER");
    }
    let m = h.engine.parse_move(&h.state, "C3-D4").unwrap();
    h.send("MV C3-D4");
    h.play(m);
    let header = h.line();
    h.board(&header, glyph);
    h.expect("OK");
    // The device's reply, legal: still serving.
    let reply = h.line();
    h.device_move(&reply);
}
