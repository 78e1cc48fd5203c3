//! Peg solitaire (games/peg_solitaire.game, a puzzle on the rule core with cells cut away) on
//! the Binario board, a simulated ATmega128, played as a person would: select picks a peg and
//! then the hole it jumps to. A press that starts or ends no jump is denied with the board
//! unchanged; then the line `gamec analyze` finds is played jump by jump to one peg in the
//! centre, every picture held to the compiler's engine reading the same file.

mod device;

use device::cursor_duel::{denied, CursorDuel};
use device::RED;
use gamec::engine::one_player::winning_line;
use gamec::engine::Outcome;

const GAME: &str = "games/peg_solitaire.game";
const BOARD: &str = "boards/peg_solitaire_atmega128.board";
#[test]
fn wrong_presses_are_denied_and_the_line_analyze_finds_solves_it() {
    let mut p = CursorDuel::boot(GAME, BOARD);
    let start = p.picture(&p.state);
    p.assert_shows(&start, "every hole filled but the centre");
    let stride = p.engine.with_game(|g| g.rules.geometry.stride as usize);
    let at = |name: &str| (name.as_bytes()[1] - b'1') as usize * stride + (name.as_bytes()[0] - b'A') as usize;
    // The empty centre starts no jump; nor does a peg with no jump (C1), nor a corner cut away.
    for cell in ["D4", "C1", "A1"] {
        let pitch = p.press_at(at(cell));
        assert!(denied(pitch), "a press on {cell} is denied: {pitch} Hz");
    }
    p.assert_shows(&start, "unchanged");
    // D2 picked, then a hole it cannot reach.
    assert_eq!(p.press_at(at("D2")), 0.0, "a pick is silent");
    let pitch = p.press_at(at("D5"));
    assert!(denied(pitch), "D2 to D5 is denied: {pitch} Hz");
    p.press_at(at("D2"));
    p.assert_shows(&start, "the pick let go, the board unchanged");
    // The line the compiler's search finds, a jump at a time.
    let line = winning_line(&p.engine, &p.state.clone(), 1_000_000).unwrap().expect("a solution");
    assert_eq!(line.len(), 31);
    for m in line {
        p.enter(m);
        if p.engine.outcome(&p.state).is_none() {
            let picture = p.picture(&p.state);
            p.assert_shows(&picture, &format!("after {}", p.engine.move_name(m)));
        }
    }
    assert_eq!(p.engine.outcome(&p.state), Some(Outcome::Win(0)), "one peg, in the centre");
    assert!(p.shows_the_result(RED), "solved: the board fills with the pegs' red");
}
