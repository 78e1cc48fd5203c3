//! Dawson's Kayles on a simulated ATmega128, buttons and lights over the rule core, played
//! through its pins as a person would: a pin's button knocks down the pair it begins (the
//! LEDs show it before GO), a second press or a pin with no neighbour standing is denied
//! with a beep and the LEDs unchanged, GO ends the turn and the device answers from the
//! solved game; whole games to the end tune, and a sleep woken by GO. The rules are the
//! compiler's reading of games/dawsons_kayles.game, checked against the engine. The player's
//! tests run on the same wiring on a Cortex-M3, the LM3S6965 in QEMU, too.

mod device;

use device::grid_host::load;
use device::{heard, Device, Pins};
use gamec::engine::solve::{explore, Solved, Value, MAX_STATES};
use gamec::engine::{Engine, State};

const GAME: &str = "games/dawsons_kayles.game";
const BOARD: &str = "boards/dawsons_kayles_atmega128.board";
/// The same wiring on a Cortex-M3, in QEMU.
const LM3S6965: &str = "boards/dawsons_kayles_lm3s6965.board";

device::on_each_board!(
    [
        a_press_knocks_a_pair_and_a_second_press_or_a_lone_pin_is_denied,
        perfect_play_beats_the_device_and_the_celebrate_tune_plays,
        the_device_wins_every_game_opened_badly,
    ];
    atmega128 => BOARD,
    lm3s6965 => LM3S6965,
);
const PINS: usize = 7;
const BEEP: f64 = 440.0; // A4, the denied tune
const CELEBRATE: f64 = 1046.5; // C6, only in the person's win
const COMMISERATE: f64 = 739.99; // F#5, only in the device's win

struct Game {
    engine: Engine,
    solved: Solved,
    start: State,
    d: Box<dyn Pins>,
}

fn boot(board: &str) -> Game {
    let def = load(GAME);
    let engine = Engine::new(&def);
    let start = engine.fixed_start(&def);
    let solved = explore(&engine, std::slice::from_ref(&start), MAX_STATES).unwrap();
    let mut d = device::boot_pins(GAME, board);
    d.run_ms(5.0);
    Game { engine, solved, start, d }
}

impl Game {
    /// The position the LEDs show, `to_move` to move: a lit LED a standing pin.
    fn seen(&mut self, to_move: u8) -> State {
        let leds = self.d.leds();
        let cells = (0..PINS).map(|i| if leds >> i & 1 == 1 { self.start.cells[i] } else { 0 }).collect();
        State { cells, to_move, ..self.start.clone() }
    }

    /// Presses button `n`, listening; the notes heard.
    fn press_listening(&mut self, n: usize) -> Vec<f64> {
        self.d.hold_input(n, true);
        let sound = self.d.listen(250.0, 50.0);
        self.d.hold_input(n, false);
        self.d.run_ms(50.0);
        sound
    }

    /// Enters the person's move from `pos` to `after` (one pair down) with the button of the
    /// pin that begins the pair, counted among the standing pins from the left; checks the
    /// LEDs show it before GO, then presses GO and returns what the speaker played.
    fn knock(&mut self, pos: &State, after: &State) -> Vec<f64> {
        let first = (0..PINS).find(|&i| pos.cells[i] != 0 && after.cells[i] == 0).expect("a pin falls");
        let button = (0..first).filter(|&i| pos.cells[i] != 0).count();
        self.d.press(button);
        assert_eq!(self.seen(pos.to_move).cells, after.cells, "the LEDs show the pair down before GO");
        let go = self.d.target().commit as usize;
        self.press_listening(go)
    }

    /// Checks the device's answer to `pos` (the device to move): one legal move, and one that
    /// keeps a won game won.
    fn check_answer(&self, pos: &State, answer: &State) {
        let legal: Vec<Vec<u8>> = self.engine.plies(pos).into_iter().map(|m| self.engine.play(pos, m).cells).collect();
        assert!(legal.contains(&answer.cells), "the device's answer {:?} to {:?} is legal", answer.cells, pos.cells);
        if matches!(self.solved.value(&self.engine, pos), Some(Value::Win(_))) {
            let after = State { to_move: 0, ..answer.clone() };
            assert!(
                matches!(self.solved.value(&self.engine, &after), Some(Value::Loss(_))),
                "the device keeps its win"
            );
        }
    }
}

fn a_press_knocks_a_pair_and_a_second_press_or_a_lone_pin_is_denied(board: &str) {
    let mut g = boot(board);
    g.d.press_commit();
    let pos = g.seen(0);
    assert_eq!(pos.cells, g.start.cells, "every pin stands at the start");
    // The seventh pin has no neighbour to its right: its button knocks nothing down.
    let sound = g.press_listening(6);
    assert!(heard(&sound, BEEP), "a pin with no pair to begin beeps: {sound:?}");
    assert_eq!(g.d.leds(), 0b111_1111, "and changes nothing");
    // The third pin's button: pins 3 and 4 fall, shown before GO.
    g.d.press(2);
    assert_eq!(g.d.leds(), 0b111_0011);
    // Again: no second move begins there; another pin in the same turn: denied too.
    let sound = g.press_listening(2);
    assert!(heard(&sound, BEEP), "a second press beeps: {sound:?}");
    assert_eq!(g.d.leds(), 0b111_0011, "and changes nothing");
    let sound = g.press_listening(0);
    assert!(heard(&sound, BEEP), "another pin beeps: {sound:?}");
    assert_eq!(g.d.leds(), 0b111_0011);
    // GO: the device answers with a legal move.
    let go = g.d.target().commit as usize;
    g.press_listening(go);
    let after = g.engine.plies(&pos).into_iter().map(|m| g.engine.play(&pos, m)).nth(2).unwrap();
    assert_eq!(after.cells.iter().map(|&c| (c != 0) as u8).collect::<Vec<_>>(), [1, 1, 0, 0, 1, 1, 1], "3-4");
    let answer = g.seen(0);
    g.check_answer(&after, &answer);
}

/// Plays whole games, the person choosing by `choose` among the positions its legal moves
/// leave; returns whether the person won, after checking the end tune says so.
fn play(g: &mut Game, mut choose: impl FnMut(&Game, &State, Vec<State>) -> State) -> bool {
    g.d.press_commit();
    let mut pos = g.seen(0);
    loop {
        let options: Vec<State> = g.engine.plies(&pos).into_iter().map(|m| g.engine.play(&pos, m)).collect();
        assert!(!options.is_empty(), "the game goes on while the person has a move");
        let after = choose(g, &pos, options);
        let mut sound = g.knock(&pos, &after);
        if g.engine.plies(&after).is_empty() {
            sound.extend(g.d.listen(1500.0, 50.0));
            assert!(heard(&sound, CELEBRATE) && !heard(&sound, COMMISERATE), "the person's win: {sound:?}");
            return true;
        }
        let answer = g.seen(0);
        g.check_answer(&after, &answer);
        if g.engine.plies(&answer).is_empty() {
            sound.extend(g.d.listen(1500.0, 50.0));
            assert!(heard(&sound, COMMISERATE) && !heard(&sound, CELEBRATE), "the device's win: {sound:?}");
            return false;
        }
        pos = answer;
    }
}

fn perfect_play_beats_the_device_and_the_celebrate_tune_plays(board: &str) {
    let mut g = boot(board);
    let won = play(&mut g, |g, pos, options| {
        let best = g.engine.play(pos, g.engine.best_plies(&g.solved, pos)[0]);
        assert!(options.contains(&best));
        best
    });
    assert!(won, "the first player wins a row of seven");
}

fn the_device_wins_every_game_opened_badly(board: &str) {
    // The openings that lose, 2-3 and 5-6, each then played by the first move left.
    for opening in [1, 4] {
        let mut g = boot(board);
        let mut first = true;
        let won = play(&mut g, |_, _, options| {
            let pick = if first { opening } else { 0 };
            first = false;
            options[pick.min(options.len() - 1)].clone()
        });
        assert!(!won, "opened with the pair at {}, the person lost", opening + 1);
    }
}

#[test]
fn the_sweep_goes_on_after_a_wake() {
    let (elf, target) = device::firmware(GAME, BOARD);
    let mut d = Device::boot(&elf, &target);
    d.run_ms(5.0);
    device::buttons_and_lights::the_sweep_goes_on_after_a_wake(&mut d, 0);
}
