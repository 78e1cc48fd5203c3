//! Gomoku's firmware (games/gomoku.game, 15 x 15 on the rule core) in qemu-system-arm's
//! netduinoplus2, played over its USART: a host that only attacks, along one line after
//! another, and a device that must never let a five stand that it could block.

// Shared with set_device.rs, which uses more of it.
#[allow(dead_code)]
mod qemu;
// Shared with checkers_device.rs, whose host also plays at random.
#[allow(dead_code)]
#[path = "support/serial_host.rs"]
mod serial_host;

use gamec::engine::{Move, Outcome, State};
use serial_host::Host;

const GAME: &str = "games/gomoku.game";
const BOARD: &str = "boards/gomoku_netduinoplus2.board";

fn glyph(content: u8) -> char {
    match content {
        0 => '.',
        1 => 'x',
        2 => 'o',
        other => panic!("content {other}"),
    }
}

/// The cells where `player`, if it moved now, would make five.
fn winning_cells(h: &Host, player: u8) -> Vec<Move> {
    let s = State { to_move: player, ..h.state.clone() };
    h.engine
        .plies(&s)
        .into_iter()
        .filter(|&m| h.engine.outcome(&h.engine.play(&s, m)) == Some(Outcome::Win(player)))
        .collect()
}

/// The host's attack: the stone that makes its longest run in a row the longest (the first
/// such cell in the engine's order): a four as soon as it can.
fn attack(h: &Host) -> Move {
    let moves = h.engine.plies(&h.state);
    let run = |m: Move| longest_run(&h.engine.play(&h.state, m).cells, h.engine.stride, 1);
    let best = moves.iter().map(|&m| run(m)).max().unwrap();
    *moves.iter().find(|&&m| run(m) == best).unwrap()
}

/// The longest run in a row of `piece` on a board of `stride` cells a row.
fn longest_run(cells: &[u8], stride: usize, piece: u8) -> usize {
    const SIDE: i32 = 15;
    let at = |c: i32, r: i32| -> bool {
        (0..SIDE).contains(&c) && (0..SIDE).contains(&r) && cells[r as usize * stride + c as usize] == piece
    };
    let mut best = 0;
    for r in 0..SIDE {
        for c in 0..SIDE {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let n = (0..).take_while(|&i| at(c + dc * i, r + dr * i)).count();
                best = best.max(n);
            }
        }
    }
    best
}

#[test]
fn the_device_blocks_every_five_it_can_and_the_attacker_does_not_win() {
    let mut h = Host::boot(GAME, BOARD, "Pick Black/White");
    // A longer clock than the default 2 s: the host works out its attack while the guest's
    // clock runs.
    h.send("ST 4");
    h.expect("OK");
    h.send("SP B");
    h.expect("OK");
    let mut blocked = 0;
    for _ in 0..30 {
        let header = h.line();
        h.board(&header, glyph);
        h.expect("Your move");
        let m = attack(&h);
        h.send(&format!("MV {}", h.engine.move_name(m)));
        h.play(m);
        let header = h.line();
        h.board(&header, glyph);
        h.expect("OK");
        if h.engine.outcome(&h.state).is_some() {
            break;
        }
        // Where the host would make five next, and whether the device can make five itself.
        let threats = winning_cells(&h, 0);
        let wins = winning_cells(&h, 1);
        let reply = h.line();
        let d = h.device_move(&reply);
        if wins.is_empty() && threats.len() == 1 {
            assert_eq!(d, threats[0], "the device let a five stand:\n{}", h.engine.show(&h.state));
            blocked += 1;
        }
        h.send("OK");
        if h.engine.outcome(&h.state).is_some() {
            break;
        }
    }
    assert_ne!(h.engine.outcome(&h.state), Some(Outcome::Win(0)), "{}", h.engine.show(&h.state));
    assert!(blocked > 0, "the attack never made a four for the device to block");
}
