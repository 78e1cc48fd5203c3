//! Silver Dollar firmware on a simulated ATtiny84A and ATtiny24A, and on an ATmega16 and an
//! ATmega128 wired the same way, and on Cortex-Ms in QEMU, played through its pins as a person would: read the LEDs,
//! press the dollar buttons and GO, listen to the piezo.

mod device;

use device::{heard, Device, Pins};
use gamec::rules::{Move, Pos, Rules};
use gamec::solve::Solution;

const GAME: &str = "games/silver_dollar.game";
/// The Silver Dollar PCB with the chip it was built with, and with its smallest sibling (2 KB
/// of flash, 128 B of RAM), the one the seed's C build fits.
const ATTINY84A: &str = "boards/silver_dollar_attiny84.board";
const ATTINY24A: &str = "boards/silver_dollar_attiny24a.board";
/// The same game on another chip's glue: its tick, tone, and sleep woken by an external
/// interrupt rather than a pin change.
const ATMEGA128: &str = "boards/silver_dollar_atmega128.board";
const ATMEGA16: &str = "boards/silver_dollar_atmega16.board";
/// On Cortex-Ms in QEMU, whose glue drives the same buttons, LEDs, piezo and sleep: the
/// LM3S6965's and the STM32F405's (in gamec's build of QEMU, with the STM32F4's ports).
const LM3S6965: &str = "boards/silver_dollar_lm3s6965.board";
const STM32F405: &str = "boards/silver_dollar_stm32f405.board";

device::on_each_board!(
    [
        attract_mode_sweeps_one_led_until_go,
        the_start_is_a_winnable_deal_with_the_leftmost_dollar_on_11_or_12,
        perfect_play_wins_and_the_celebrate_tune_plays,
        bad_play_loses_and_the_commiserate_tune_plays,
        the_stack_bound_from_the_machine_code_covers_a_played_game,
        illegal_presses_and_an_early_go_beep_and_change_nothing,
        the_device_answers_every_position_with_a_legal_and_if_possible_winning_move,
        idle_for_30_s_sleeps_and_go_wakes,
        a_tap_right_after_a_tune_is_no_press,
        idle_time_counts_from_the_end_tune,
        the_sweep_goes_on_after_the_end_tune,
        the_sweep_goes_on_after_a_wake,
        a_re_press_during_its_own_beep_counts,
    ];
    attiny84a => ATTINY84A,
    attiny24a => ATTINY24A,
    atmega16 => ATMEGA16,
    atmega128 => ATMEGA128,
);

// What a player does at the pins, on the Cortex-M: the simulator-only tests (the stack
// measured by simavr, timings to the cycle) stay with the AVRs.
device::on_each_board!(
    [
        attract_mode_sweeps_one_led_until_go,
        the_start_is_a_winnable_deal_with_the_leftmost_dollar_on_11_or_12,
        perfect_play_wins_and_the_celebrate_tune_plays,
        bad_play_loses_and_the_commiserate_tune_plays,
        illegal_presses_and_an_early_go_beep_and_change_nothing,
        the_device_answers_every_position_with_a_legal_and_if_possible_winning_move,
        idle_for_30_s_sleeps_and_go_wakes,
    ];
    lm3s6965 => LM3S6965,
    stm32f405 => STM32F405,
);

/// Notes of the game file's tunes, in hertz: each tune is told apart by notes only it has.
const BEEP: f64 = 440.0; // A4
const BEEP_MS: f64 = 150.0;
const CELEBRATE: [f64; 2] = [523.25, 1046.5]; // C5 and C6
const COMMISERATE: [f64; 2] = [783.99, 739.99]; // G5 and F#5

struct Host {
    rules: Rules,
    solution: Solution,
}

fn host() -> Host {
    let path = format!("{}/../{GAME}", env!("CARGO_MANIFEST_DIR"));
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(path.clone(), std::fs::read_to_string(&path).unwrap());
    let rules = Rules::new(&gamec_dsl::load_game(&sources, id).unwrap()).unwrap();
    let solution = Solution::solve(&rules);
    Host { rules, solution }
}

fn boot(board: &str) -> Device {
    let (elf, target) = device::firmware(GAME, board);
    let mut d = Device::boot(&elf, &target);
    d.run_ms(5.0);
    d
}

/// Boots the firmware on `board` in the simulator its chip needs.
fn boot_any(board: &str) -> Box<dyn Pins> {
    let mut d = device::boot_pins(GAME, board);
    d.run_ms(5.0);
    d
}

/// Starts a game with GO and returns the start position read off the LEDs.
fn start(d: &mut dyn Pins) -> Pos {
    d.press_commit();
    d.leds()
}

/// Enters a move: the button of the dollar on `from`, once per cell.
fn enter(d: &mut dyn Pins, pos: Pos, m: Move) {
    // Buttons count dollars from the left, i.e. from the highest cell.
    let piece = (pos >> (m.from + 1)).count_ones() as usize;
    for _ in 0..(m.from - m.to) {
        d.press(piece);
    }
}

/// The device's answer to `before` is legal, and winning whenever it had a win.
fn check_device_move(h: &Host, before: Pos, after: Pos) {
    let legal: Vec<Pos> = h.rules.moves(before).iter().map(|&m| Rules::apply(before, m)).collect();
    assert!(legal.contains(&after), "device went from {before:012b} to {after:012b}, not a legal move");
    if h.solution.mover_wins(before) {
        assert!(!h.solution.mover_wins(after), "device missed a win from {before:012b}");
    }
}

/// Plays one game choosing moves with `choose`; returns who won and what the speaker played.
fn play(d: &mut dyn Pins, h: &Host, mut choose: impl FnMut(Pos) -> Move) -> (bool, Vec<f64>) {
    let mut pos = start(d);
    loop {
        let m = choose(pos);
        enter(d, pos, m);
        let mine = Rules::apply(pos, m);
        assert_eq!(d.leds(), mine, "the LEDs show the entered move before GO");
        let go = d.target().commit as usize;
        let mut sound = press_listening(d, go);
        if h.rules.moves(mine).is_empty() {
            // The device cannot move: the player has won; the final position stays lit.
            assert_eq!(d.leds(), mine);
            sound.extend(d.listen(1000.0, 50.0));
            return (true, sound);
        }
        let answer = d.leds();
        check_device_move(h, mine, answer);
        if h.rules.moves(answer).is_empty() {
            sound.extend(d.listen(1000.0, 50.0));
            return (false, sound);
        }
        pos = answer;
    }
}

fn attract_mode_sweeps_one_led_until_go(board: &str) {
    let mut d = boot_any(board);
    let d = &mut *d;
    let mut seen = 0u16;
    for _ in 0..30 {
        // Longer than one scan of the rows, shorter than one step of the sweep.
        let now = d.leds_over(5.0);
        assert!(now.count_ones() <= 1, "attract lights one LED at a time, saw {now:012b}");
        seen |= now;
        d.run_ms(35.0);
    }
    assert!(seen.count_ones() >= 10, "the light sweeps along the row: {seen:012b}");
}

fn the_start_is_a_winnable_deal_with_the_leftmost_dollar_on_11_or_12(board: &str) {
    let h = host();
    let mut d = boot_any(board);
    let d = &mut *d;
    for _ in 0..3 {
        let pos = start(d);
        assert_eq!(pos.count_ones(), 5, "five dollars: {pos:012b}");
        assert!(pos >> 10 != 0, "leftmost dollar on cell 11 or 12: {pos:012b}");
        assert!(h.solution.mover_wins(pos), "the player can win {pos:012b}");
        // Throw the game quickly to get a new deal: move the leftmost dollar one cell per turn.
        loop {
            let here = d.leds();
            if here.count_ones() != 5 || h.rules.moves(here).is_empty() {
                break;
            }
            let m = *h.rules.moves(here).iter().min_by_key(|m| m.from - m.to).unwrap();
            enter(d, here, m);
            d.press_commit();
            let after = d.leds();
            if after.count_ones() != 5
                || h.rules.moves(after).is_empty()
                || h.rules.moves(Rules::apply(here, m)).is_empty()
            {
                d.run_ms(1500.0);
                break;
            }
        }
    }
}

fn perfect_play_wins_and_the_celebrate_tune_plays(board: &str) {
    let h = host();
    let mut d = boot_any(board);
    let d = &mut *d;
    let (won, sound) = play(d, &h, |pos| {
        *h.rules
            .moves(pos)
            .iter()
            .find(|&&m| !h.solution.mover_wins(Rules::apply(pos, m)))
            .expect("a winning move exists from every position perfect play reaches")
    });
    assert!(won, "perfect play beats the device");
    assert!(CELEBRATE.iter().all(|&f| heard(&sound, f)), "celebrate tune: {sound:?}");
    assert!(!heard(&sound, COMMISERATE[1]), "not commiserate: {sound:?}");
    d.run_ms(1000.0);
    assert!(d.leds().count_ones() <= 1, "back to attract mode");
}

fn bad_play_loses_and_the_commiserate_tune_plays(board: &str) {
    let h = host();
    let mut d = boot_any(board);
    let d = &mut *d;
    // Hand the device a winning position whenever possible, else creep one cell.
    let (won, sound) = play(d, &h, |pos| {
        let moves = h.rules.moves(pos);
        moves
            .iter()
            .copied()
            .find(|&m| h.solution.mover_wins(Rules::apply(pos, m)))
            .unwrap_or_else(|| *moves.iter().min_by_key(|m| m.from - m.to).unwrap())
    });
    assert!(!won, "the device punishes bad play");
    assert!(COMMISERATE.iter().all(|&f| heard(&sound, f)), "commiserate tune: {sound:?}");
    assert!(!heard(&sound, CELEBRATE[1]), "not celebrate: {sound:?}");
}

/// The stack's bound from the machine code, which `gamec build` counts against the board's
/// RAM budget, covers the deepest stack of a game played here (the device's replies, a tune,
/// the display's interrupt on top), and not by much.
fn the_stack_bound_from_the_machine_code_covers_a_played_game(board: &str) {
    let h = host();
    let (elf, target) = device::firmware(GAME, board);
    let bound = gamec::stack_depth::avr_stack_depth(&std::fs::read(&elf).unwrap(), 2, target.chip.avr().sp_bytes, &[])
        .unwrap_or_else(|why| panic!("no bound: {why}"));
    let mut d = boot(board);
    assert_eq!(bound.initial_sp, Some(d.ramend()), "the start-up code sets SP to RAMEND");
    d.track_stack();
    play(&mut d, &h, |pos| *h.rules.moves(pos).iter().min_by_key(|m| m.from - m.to).unwrap());
    let measured = (d.ramend() - d.lowest_sp().unwrap()) as u32;
    assert!(
        (measured..=measured + 64).contains(&bound.bytes),
        "bound {} B, measured {measured} B; deepest path {:?}",
        bound.bytes,
        bound.path
    );
}

/// Holds input `n` down while listening, then lets go; returns what the speaker played.
fn press_listening(d: &mut dyn Pins, n: usize) -> Vec<f64> {
    let p = d.target().inputs[n];
    d.hold(p.port, p.bit, false);
    let mut sound = d.listen(100.0, 50.0);
    d.hold(p.port, p.bit, true);
    sound.extend(d.listen(100.0, 50.0));
    sound
}

fn illegal_presses_and_an_early_go_beep_and_change_nothing(board: &str) {
    let h = host();
    let mut d = boot_any(board);
    let d = &mut *d;
    let pos = start(d);

    // GO before any move.
    let go = d.target().commit as usize;
    let sound = press_listening(d, go);
    assert!(heard(&sound, BEEP), "early GO beeps: {sound:?}");
    assert_eq!(d.leds(), pos, "early GO changes nothing");

    // The rightmost dollar against the wall or a dollar right behind another cannot move.
    let blocked = (0..5).find(|&i| {
        let cell = (0..12).rev().filter(|c| pos & (1 << c) != 0).nth(i).unwrap();
        cell == 0 || pos & (1 << (cell - 1)) != 0
    });
    if let Some(i) = blocked {
        let sound = press_listening(d, i);
        assert!(heard(&sound, BEEP), "a blocked dollar beeps: {sound:?}");
        assert_eq!(d.leds(), pos, "a blocked dollar stays put");
    }

    // Move one dollar, then try another one in the same turn.
    let m = h.rules.moves(pos)[0];
    enter(d, pos, m);
    let moved = Rules::apply(pos, m);
    assert_eq!(d.leds(), moved);
    let moved_piece = (pos >> (m.from + 1)).count_ones() as usize;
    let other = (0..5).find(|&i| i != moved_piece).unwrap();
    let sound = press_listening(d, other);
    assert!(heard(&sound, BEEP), "a second dollar in one turn beeps: {sound:?}");
    assert_eq!(d.leds(), moved, "and leaves the board as it was");

    // Pushing the moved dollar onto its neighbour or past the end is refused too.
    let mut at = moved;
    loop {
        let from = (0..12).rev().filter(|c| at & (1 << c) != 0).nth(moved_piece).unwrap();
        if from == 0 || at & (1 << (from - 1)) != 0 {
            let sound = press_listening(d, moved_piece);
            assert!(heard(&sound, BEEP), "onto a dollar or off the end beeps: {sound:?}");
            assert_eq!(d.leds(), at);
            break;
        }
        d.press(moved_piece);
        at = Rules::apply(at, Move { from, to: from - 1 });
        assert_eq!(d.leds(), at);
    }
}

fn the_device_answers_every_position_with_a_legal_and_if_possible_winning_move(board: &str) {
    let h = host();
    let mut d = boot_any(board);
    let d = &mut *d;
    // Random-ish human play over a few games; every device answer is checked in `play`.
    for game in 0..3u64 {
        let mut n = game * 7 + 3;
        let (_won, _) = play(d, &h, |pos| {
            let moves = h.rules.moves(pos);
            n = n.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            moves[(n >> 33) as usize % moves.len()]
        });
        d.run_ms(1500.0);
    }
}

fn idle_for_30_s_sleeps_and_go_wakes(board: &str) {
    let mut d = boot_any(board);
    let d = &mut *d;
    let pos = start(d);
    assert!(!d.run_until_sleep(29_000.0), "awake before 30 s");
    assert!(d.run_until_sleep(2_000.0), "asleep by 31 s");
    assert_eq!(d.leds_over(20.0), 0, "the display is dark in sleep");
    let go_pin = d.target().inputs[d.target().commit as usize];
    d.hold(go_pin.port, go_pin.bit, false);
    d.run_ms(100.0);
    d.hold(go_pin.port, go_pin.bit, true);
    d.run_ms(100.0);
    assert_eq!(d.leds(), pos, "awake again, showing the game as it was");
    // The wake press is not taken as a commit: the game goes on with nothing entered.
    let go = d.target().commit as usize;
    let sound = press_listening(d, go);
    assert!(heard(&sound, BEEP), "GO with no move still beeps after waking: {sound:?}");
}

/// Plays perfectly from the start up to the player's winning move, entered but not committed.
fn to_the_winning_move(d: &mut dyn Pins, h: &Host) {
    let mut pos = d.leds();
    loop {
        let m = *h
            .rules
            .moves(pos)
            .iter()
            .find(|&&m| !h.solution.mover_wins(Rules::apply(pos, m)))
            .expect("a winning move exists from every position perfect play reaches");
        enter(d, pos, m);
        let mine = Rules::apply(pos, m);
        if h.rules.moves(mine).is_empty() {
            return;
        }
        d.press_commit();
        pos = d.leds();
    }
}

fn a_tap_right_after_a_tune_is_no_press(board: &str) {
    let h = host();
    let mut d = boot(board);
    let pos = start(&mut d);
    // The dollar of a legal move (one cell on is legal too), and another one.
    let m = h.rules.moves(pos)[0];
    let legal = (pos >> (m.from + 1)).count_ones() as usize;
    device::buttons_and_lights::a_tap_right_after_a_tune_is_no_press(&mut d, legal, (legal + 1) % 5, BEEP, BEEP_MS);
}

fn idle_time_counts_from_the_end_tune(board: &str) {
    let h = host();
    let mut d = boot(board);
    device::buttons_and_lights::idle_time_counts_from_the_end_tune(&mut d, |d| to_the_winning_move(d, &h));
}

fn the_sweep_goes_on_after_the_end_tune(board: &str) {
    let h = host();
    let mut d = boot(board);
    device::buttons_and_lights::the_sweep_goes_on_after_the_end_tune(&mut d, |d| to_the_winning_move(d, &h));
}

fn the_sweep_goes_on_after_a_wake(board: &str) {
    let mut d = boot(board);
    device::buttons_and_lights::the_sweep_goes_on_after_a_wake(&mut d, 0);
}

fn a_re_press_during_its_own_beep_counts(board: &str) {
    let mut d = boot(board);
    start(&mut d);
    device::buttons_and_lights::a_re_press_during_its_own_beep_counts(&mut d, BEEP, BEEP_MS);
}

/// A display refreshed at 500 Hz ticks every 2 ms, and each tick counts 2 ms: the firmware's
/// millisecond count keeps pace with the clock, and an early GO's 150 ms beep lasts 150 ms,
/// not 300 (the idle time is counted the same way; the app loop's test in the runtime shows it).
/// On the ATtiny84A board: the ATtiny24A's glue and tick are the same.
#[test]
fn at_a_500_hz_refresh_milliseconds_are_still_milliseconds() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join(ATTINY84A)).unwrap();
    assert!(text.contains("refresh 1000 Hz") && text.contains("board silver_dollar_attiny84 {"));
    // Its own name, so its crate and ELF do not overwrite the 1000 Hz board's.
    let text = text.replacen("refresh 1000 Hz", "refresh 500 Hz", 1).replacen(
        "board silver_dollar_attiny84 {",
        "board silver_dollar_attiny84_500hz {",
        1,
    );
    let dir = root.join("target/gamec-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let board = dir.join("silver_dollar_attiny84_500hz.board");
    std::fs::write(&board, text).unwrap();
    let (elf, target) = device::firmware(GAME, board.to_str().unwrap());
    // The glue's millisecond count comes first in its static (`#[repr(C)]`).
    let (millis, _) = device::symbol(&elf, "attiny84a6MILLIS");
    let mut d = Device::boot(&elf, &target);
    d.run_ms(5.0);
    let count = |d: &Device| u16::from_le_bytes([d.peek(millis as u16), d.peek(millis as u16 + 1)]);
    let before = count(&d);
    d.run_ms(1000.0);
    let counted = count(&d).wrapping_sub(before);
    assert!((998..=1002).contains(&counted), "{counted} ms counted in a simulated second");
    start(&mut d);
    let go = d.target.inputs[d.target.commit as usize];
    d.hold(go.port, go.bit, false);
    let windows = d.listen(400.0, 10.0);
    d.hold(go.port, go.bit, true);
    let beeping = windows.iter().filter(|&&f| heard(&[f], BEEP)).count();
    assert!((14..=16).contains(&beeping), "the 150 ms beep sounded for {beeping} windows of 10 ms: {windows:?}");
}

/// Benchmark, not a test: the device's worst reply in simulator cycles and the stack's deepest
/// point, over several games. Run with `cargo xtask bench`.
#[test]
#[ignore = "benchmark; run with cargo xtask bench"]
fn bench_device_reply_cycles_and_stack_depth() {
    let h = host();
    let (elf, _) = device::firmware(GAME, ATTINY84A);
    let (table_fn, table_fn_len) = device::symbol(&elf, "10mover_wins");
    // The frame the main loop works out for the display from the cells it hands over.
    let (frame, frame_len) = device::symbol(&elf, "5FRAME");
    let shown_frame = |d: &Device| (frame..frame + frame_len).map(|a| d.peek(a as u16)).collect::<Vec<_>>();
    let mut d = boot(ATTINY84A);
    let ramend = d.ramend();
    d.track_stack();
    let mut worst = 0u64;
    let mut replies = 0;
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for _game in 0..4 {
        let mut pos = start(&mut d);
        loop {
            let moves = h.rules.moves(pos);
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let m = moves[(rng % moves.len() as u64) as usize];
            enter(&mut d, pos, m);
            let mine = Rules::apply(pos, m);
            if h.rules.moves(mine).is_empty() {
                d.press_commit();
                d.run_ms(1500.0);
                break;
            }
            // Hold GO and watch: the reply starts at the first look-up in the solved table and
            // ends when the new position is handed to the display.
            let go = d.target.inputs[d.target.commit as usize];
            let shown = shown_frame(&d);
            d.hold(go.port, go.bit, false);
            let deadline = d.cycles + d.ms_to_cycles(200.0);
            let mut began = None;
            while d.cycles < deadline {
                d.step_once();
                let pc = d.pc();
                if began.is_none() && (table_fn..table_fn + table_fn_len).contains(&pc) {
                    began = Some(d.cycles);
                }
                let now = shown_frame(&d);
                if let (Some(began), true) = (began, now != shown) {
                    worst = worst.max(d.cycles - began);
                    replies += 1;
                    break;
                }
            }
            d.hold(go.port, go.bit, true);
            d.run_ms(50.0);
            pos = d.leds();
            if h.rules.moves(pos).is_empty() {
                d.run_ms(1500.0);
                break;
            }
        }
    }
    println!("device replies measured: {replies}");
    println!("worst device reply: {worst} cycles ({:.2} ms at 8 MHz)", worst as f64 / 8000.0);
    let lowest_sp = d.lowest_sp().unwrap();
    let stack = ramend - lowest_sp;
    println!("stack: lowest SP {lowest_sp:#x}, RAMEND {ramend:#x}: {stack} bytes deep");
    let (elf, _) = device::firmware(GAME, ATTINY84A);
    let deepest = device::profile_by_symbol(&elf, &[d.deepest_pc]);
    println!("deepest in: {}", deepest.first().map_or("?", |(name, _)| name.as_str()));
    let ram = gamec::driver::sizes(&std::fs::read(&elf).unwrap()).unwrap().ram();
    // The README's figures (`cargo xtask bench` reads these lines).
    println!("FIGURE silver_dollar.worst_reply_cycles={worst} cycles");
    println!("FIGURE silver_dollar.worst_reply_ms={:.2} ms", worst as f64 / 8000.0);
    println!("FIGURE silver_dollar.replies={replies} replies");
    println!("FIGURE silver_dollar.deepest_stack={stack} B");
    println!("FIGURE silver_dollar.ram_with_stack={} B", ram + u32::from(stack));
    assert!(replies > 0);
}
