//! Nim's firmware on a simulated ATtiny84A (the Silver Dollar board), played through its pins
//! as a person would: the LEDs show the heaps, a heap's button takes one more counter per
//! press, GO ends the turn; a whole game to the end, a denied press with the LEDs unchanged,
//! and the tune of the result. The rules are the compiler's general reading of games/nim.game.

mod device;

use device::grid_host::load;
use device::{heard, Device};
use gamec::engine::solve::{explore, Solved, Value, MAX_STATES};
use gamec::engine::{Engine, Move, State};

const GAME: &str = "games/nim.game";
const BOARD: &str = "boards/nim_silver_dollar_attiny84.board";
/// Heaps of 3, 4 and 5 on LEDs 1-3, 4-7 and 8-12, counters lit from a heap's first LED.
const FIRST: [u8; 3] = [0, 3, 7];
const SIZES: [u8; 3] = [3, 4, 5];
const BEEP: f64 = 440.0; // A4, the denied tune
const BEEP_MS: f64 = 150.0;
const CELEBRATE: f64 = 1318.5; // E6, only in the player's win
const COMMISERATE: f64 = 493.88; // B4, only in the device's win

fn leds_of(s: &State) -> u16 {
    (0..3).fold(0, |m, h| m | (((1u16 << s.cells[h]) - 1) << FIRST[h]))
}

fn state_of(leds: u16, to_move: u8) -> State {
    let cells = (0..3).map(|h| (leds >> FIRST[h] & ((1 << SIZES[h]) - 1)).count_ones() as u8).collect();
    State { cells, to_move, passed: false, given: 0 }
}

struct Game {
    engine: Engine,
    solved: Solved,
    d: Device,
}

fn boot() -> Game {
    let def = load(GAME);
    let engine = Engine::new(&def);
    let solved = explore(&engine, &[engine.fixed_start(&def)], MAX_STATES).unwrap();
    let (elf, target) = device::firmware(GAME, BOARD);
    let mut d = Device::boot(&elf, &target);
    d.run_ms(5.0);
    Game { engine, solved, d }
}

impl Game {
    /// Takes `count` from heap `heap` (from 0) with the heap's button, then GO; returns what
    /// the speaker played after GO.
    fn take(&mut self, heap: usize, count: u8, before: &State) -> Vec<f64> {
        for _ in 0..count {
            self.d.press(heap);
        }
        let mut entered = before.clone();
        entered.cells[heap] -= count;
        assert_eq!(self.d.leds(), leds_of(&entered), "the LEDs show the counters taken before GO");
        let go = self.d.target.commit as usize;
        let p = self.d.target.inputs[go];
        self.d.hold(p.port, p.bit, false);
        let sound = self.d.listen(300.0, 50.0);
        self.d.hold(p.port, p.bit, true);
        self.d.run_ms(50.0);
        sound
    }
}

#[test]
fn a_whole_game_against_the_solved_device_and_a_denied_press() {
    let mut g = boot();
    g.d.press_commit();
    let mut pos = state_of(g.d.leds(), 0);
    assert_eq!(pos.cells, vec![3, 4, 5], "the heaps start full");

    // A press on a heap already emptied in this turn is denied with a beep, nothing changes.
    g.d.press(0);
    g.d.press(0);
    g.d.press(0);
    let emptied = g.d.leds();
    let p = g.d.target.inputs[0];
    g.d.hold(p.port, p.bit, false);
    let sound = g.d.listen(200.0, 25.0);
    g.d.hold(p.port, p.bit, true);
    g.d.run_ms(50.0);
    assert!(heard(&sound, BEEP), "a fourth counter from a heap of three beeps: {sound:?}");
    assert_eq!(g.d.leds(), emptied, "and changes nothing");
    // A second heap in the same turn is denied too.
    g.d.press(1);
    assert_eq!(g.d.leds(), emptied);

    // GO takes the three; from here the player plays badly and the device must win.
    let mut sound = {
        let go = g.d.target.commit as usize;
        let p = g.d.target.inputs[go];
        g.d.hold(p.port, p.bit, false);
        let s = g.d.listen(300.0, 50.0);
        g.d.hold(p.port, p.bit, true);
        g.d.run_ms(50.0);
        s
    };
    pos.cells[0] = 0;
    loop {
        let answer = state_of(g.d.leds(), 0);
        let legal: Vec<State> = g
            .engine
            .plies(&State { to_move: 1, ..pos.clone() })
            .into_iter()
            .map(|m| {
                let mut s = g.engine.play(&State { to_move: 1, ..pos.clone() }, m);
                s.to_move = 0;
                s
            })
            .collect();
        assert!(
            legal.contains(&answer),
            "the device's answer {:?} from {:?} is one legal move",
            answer.cells,
            pos.cells
        );
        let before = g.solved.value(&g.engine, &State { to_move: 1, ..pos.clone() });
        if matches!(before, Some(Value::Win(_))) {
            let after = g.solved.value(&g.engine, &answer);
            assert!(matches!(after, Some(Value::Loss(_))), "the device keeps its win: {:?}", answer.cells);
        }
        pos = answer;
        if pos.cells.iter().all(|&c| c == 0) {
            sound.extend(g.d.listen(1500.0, 50.0));
            assert!(heard(&sound, COMMISERATE) && !heard(&sound, CELEBRATE), "the device's win: {sound:?}");
            break;
        }
        // The player takes one counter from the fullest heap.
        let h = (0..3).max_by_key(|&h| pos.cells[h]).unwrap();
        sound = g.take(h, 1, &pos);
        pos.cells[h] -= 1;
        if pos.cells.iter().all(|&c| c == 0) {
            sound.extend(g.d.listen(1500.0, 50.0));
            assert!(heard(&sound, CELEBRATE), "the player's win: {sound:?}");
            panic!("the device lost a won game");
        }
    }
}

#[test]
fn perfect_play_by_the_player_beats_the_device() {
    let mut g = boot();
    g.d.press_commit();
    let mut pos = state_of(g.d.leds(), 0);
    loop {
        // The player's best move by the compiler's solution: always a win from 3, 4, 5.
        let best = g.engine.best_plies(&g.solved, &pos);
        let Move::Take { heap, count } = best[0] else { panic!("a removal") };
        let sound = g.take(heap as usize, count, &pos);
        pos = g.engine.play(&pos, best[0]);
        if pos.cells.iter().all(|&c| c == 0) {
            let mut sound = sound;
            sound.extend(g.d.listen(1500.0, 50.0));
            assert!(heard(&sound, CELEBRATE) && !heard(&sound, COMMISERATE), "the player's win: {sound:?}");
            return;
        }
        let answer = state_of(g.d.leds(), 0);
        assert!(matches!(g.solved.value(&g.engine, &answer), Some(Value::Win(_))), "a lost device cannot escape");
        pos = answer;
        assert!(pos.cells.iter().any(|&c| c > 0), "the device never takes the last counter here");
    }
}

/// Plays perfectly from the start up to the player's winning move (the last counters),
/// entered but not committed.
fn to_the_winning_move(d: &mut Device, engine: &Engine, solved: &Solved) {
    let mut pos = state_of(d.leds(), 0);
    loop {
        let best = engine.best_plies(solved, &pos);
        let Move::Take { heap, count } = best[0] else { panic!("a removal") };
        for _ in 0..count {
            d.press(heap as usize);
        }
        if engine.play(&pos, best[0]).cells.iter().all(|&c| c == 0) {
            return;
        }
        d.press_commit();
        pos = state_of(d.leds(), 0);
    }
}

#[test]
fn a_tap_right_after_a_tune_is_no_press() {
    let mut g = boot();
    g.d.press_commit();
    // A counter from the first heap, then the second heap: denied.
    device::buttons_and_lights::a_tap_right_after_a_tune_is_no_press(&mut g.d, 0, 1, BEEP, BEEP_MS);
}

#[test]
fn idle_time_counts_from_the_end_tune() {
    let Game { engine, solved, mut d } = boot();
    device::buttons_and_lights::idle_time_counts_from_the_end_tune(&mut d, |d| {
        to_the_winning_move(d, &engine, &solved)
    });
}

#[test]
fn the_sweep_goes_on_after_the_end_tune() {
    let Game { engine, solved, mut d } = boot();
    device::buttons_and_lights::the_sweep_goes_on_after_the_end_tune(&mut d, |d| {
        to_the_winning_move(d, &engine, &solved)
    });
}

#[test]
fn the_sweep_goes_on_after_a_wake() {
    let mut g = boot();
    device::buttons_and_lights::the_sweep_goes_on_after_a_wake(&mut g.d, 0);
}

#[test]
fn a_re_press_during_its_own_beep_counts() {
    let mut g = boot();
    g.d.press_commit();
    device::buttons_and_lights::a_re_press_during_its_own_beep_counts(&mut g.d, BEEP, BEEP_MS);
}

#[test]
#[ignore = "a benchmark: cargo xtask bench"]
fn bench_sizes_and_stack() {
    let mut g = boot();
    g.d.track_stack();
    g.d.press_commit();
    let mut pos = state_of(g.d.leds(), 0);
    loop {
        let best = g.engine.best_plies(&g.solved, &pos);
        let Move::Take { heap, count } = best[0] else { panic!("a removal") };
        g.take(heap as usize, count, &pos);
        pos = g.engine.play(&pos, best[0]);
        if pos.cells.iter().all(|&c| c == 0) {
            break;
        }
        pos = state_of(g.d.leds(), 0);
    }
    g.d.run_ms(1500.0);
    let (elf, _) = device::firmware(GAME, BOARD);
    let sizes = gamec::driver::sizes(&std::fs::read(elf).unwrap()).unwrap();
    let stack = g.d.ramend() - g.d.lowest_sp().unwrap();
    println!("nim on attiny84a @ 8 MHz, a game won by perfect play:");
    println!(
        "  flash {} B, static RAM {} B, deepest stack {stack} B, RAM with stack {} B",
        sizes.flash(),
        sizes.ram(),
        sizes.ram() + stack as u32
    );
    // The README's figures (`cargo xtask bench` reads these lines).
    println!("FIGURE nim.deepest_stack={stack} B");
    println!("FIGURE nim.ram_with_stack={} B", sizes.ram() + stack as u32);
}
