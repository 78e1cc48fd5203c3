//! A `perfect` device in a game whose positions repeat (compiler/tests/games/kings_walk.game:
//! two kings walking a 3 x 3 board), served over the serial line of qemu-system-arm's
//! netduinoplus2. Its table keeps how far each lost position is from its end; played against
//! random moves, every device answer is one the engine ranks best, and once the device stands
//! to win, the game ends within the plies the solver gives, whatever the person does: the
//! device never walks round a cycle. The same kings on 8 x 8 (kings_walk_wide.game) key a
//! position in 17 bytes, a key buffer as long as the game's own; in a corridor of 135 cells
//! (corridor_chase.game) a loss takes 252 plies from the start and more from elsewhere, its
//! distance a word.

#[allow(dead_code)]
mod qemu;
#[allow(dead_code)]
#[path = "support/serial_host.rs"]
mod serial_host;

use gamec::analyze::starts;
use gamec::engine::solve::{explore, Value, MAX_STATES};
use gamec::engine::Outcome;
use serial_host::Host;

const BOARD: &str = "compiler/tests/boards/serial_netduinoplus2.board";

fn glyph(content: u8) -> char {
    match content {
        0 => '.',
        1 => 'w',
        2 => 'b',
        other => panic!("content {other}"),
    }
}

#[test]
fn a_winning_device_ends_a_game_of_repeating_positions_within_its_distance() {
    plays_to_its_distance("compiler/tests/games/kings_walk.game", "  A B C", 12);
}

#[test]
fn a_key_of_seventeen_bytes_plays_the_same() {
    plays_to_its_distance("compiler/tests/games/kings_walk_wide.game", "  A B C D E F G H", 3);
}

#[test]
fn a_loss_of_more_than_255_plies_is_chased_to_its_end() {
    plays_to_its_distance("compiler/tests/games/corridor_chase.game", "   A B C D E F G H I J K L M N O P", 1);
}

/// Plays `games` games of the game at `path` against random moves, checking every device answer against
/// the engine's best and every device win against the solver's count.
fn plays_to_its_distance(path: &str, header: &str, games: usize) {
    let def = serial_host::load(path);
    let mut h = Host::boot(path, BOARD, header);
    let solved = explore(&h.engine, &starts(&h.engine, &def), MAX_STATES).unwrap();
    assert!(solved.repeats, "kings can walk round");
    let (mut device_wins, mut checked) = (0, 0);
    for game in 0..games {
        if game > 0 {
            h.send("NG");
            h.state = serial_host::engine(path).1;
            h.expect(header);
        }
        h.board(header, glyph);
        h.expect("Your move");
        // The plies left by the solver's count once the device stood to win.
        let mut deadline: Option<u16> = None;
        for ply in 0u16.. {
            assert!(ply < 400, "game {game} goes on for ever");
            h.move_at_random();
            if let Some(left) = deadline.as_mut() {
                *left = left.checked_sub(1).expect("the device's win came later than the solver's count");
            }
            let line = h.line();
            if line == "LS" {
                assert_eq!(h.engine.outcome(&h.state), Some(Outcome::Win(0)), "the person won");
                h.send("OK");
                break;
            }
            let before = h.state.clone();
            let best = h.engine.best_plies(&solved, &before);
            let m = h.device_move(&line);
            assert!(best.contains(&m), "the device's {line} is not among the best in\n{}", h.engine.show(&before));
            checked += 1;
            if let (None, Some(Value::Win(d))) = (deadline, solved.value(&h.engine, &before)) {
                deadline = Some(d);
            }
            if let Some(left) = deadline.as_mut() {
                *left = left.checked_sub(1).expect("the device's win came later than the solver's count");
            }
            h.send("OK");
            match h.line().as_str() {
                line if line == header => {
                    h.board(header, glyph);
                    h.expect("Your move");
                }
                "WN" => {
                    assert_eq!(h.engine.outcome(&h.state), Some(Outcome::Win(1)), "the device won");
                    device_wins += 1;
                    h.send("OK");
                    break;
                }
                other => panic!("{other}"),
            }
        }
    }
    assert!(device_wins > 0 && checked >= games, "{device_wins} device wins, {checked} answers");
}
