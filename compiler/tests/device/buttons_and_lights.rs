//! A player meeting a buttons-and-lights game's app loop around its tunes and its sleep: a
//! short press right after a tune, the idle time after the end tune, the attract sweep after
//! the end tune and after a wake, and a release and re-press while the press's own tune plays.
//! Written once for every game on such a board; each game's test file supplies the moves.
//! Every time is simulator time (cycles).

use super::{heard, Device};

/// Longest silence inside one tune (a rest), shorter than this.
const QUIET_MS: f64 = 200.0;

/// The attract sweep's lights seen so far, one LED each step: where it is and where it was.
#[derive(Clone, Copy, Debug, Default)]
struct Sweep {
    before: Option<u16>,
    at: Option<u16>,
}

impl Sweep {
    /// Takes in one glance; whether the sweep stepped. Glances of other than one LED (a step
    /// inside the window, a position, darkness) tell nothing of the sweep.
    fn see(&mut self, lit: u16) -> bool {
        if lit.count_ones() != 1 || self.at == Some(lit) {
            return false;
        }
        self.before = self.at.replace(lit);
        self.before.is_some()
    }

    /// The LED the sweep lights after `at`, coming from `before`, on a row of `cells`: out and
    /// back, turning at the ends.
    fn next(&self, cells: u32) -> u16 {
        let (before, at) = (self.before.unwrap().trailing_zeros() as i32, self.at.unwrap().trailing_zeros() as i32);
        let way = at - before;
        assert_eq!(way.abs(), 1, "the sweep moves one LED a step: {before} to {at}");
        let next = if (0..cells as i32).contains(&(at + way)) { at + way } else { at - way };
        1 << next
    }
}

/// Watches the sweep until it steps, then holds input `n` until a glance shows other than the
/// sweep (or `hold_ms` passed) and lets go: a press landing a quarter into a step, so that no
/// step falls near the moment it counts. The sweep as it was when the press counted.
fn press_mid_step(d: &mut Device, n: usize, hold_ms: f64) -> Sweep {
    let mut sweep = Sweep::default();
    let mut glances = 0;
    while !sweep.see(d.glance()) {
        glances += 1;
        assert!(glances < 200, "the attract sweep steps: {sweep:?}");
    }
    d.hold_input(n, true);
    let until = d.cycles + d.ms_to_cycles(hold_ms);
    while d.cycles < until {
        let lit = d.glance();
        if lit.count_ones() > 2 {
            break;
        }
        assert!(!sweep.see(lit), "the sweep stepped before the press counted: {sweep:?}");
    }
    d.hold_input(n, false);
    sweep
}

/// The display's cells, over which the sweep goes.
fn cells(d: &Device) -> u32 {
    d.target.display.as_ref().expect("a display").rows.iter().map(|(_, leds)| leds.len() as u32).sum()
}

/// The first two steps of the sweep seen from now on, at most `ms`.
fn sweep_resumes(d: &mut Device, ms: f64) -> (u16, u16) {
    let mut seen = Vec::new();
    let until = d.cycles + d.ms_to_cycles(ms);
    while seen.len() < 2 && d.cycles < until {
        let lit = d.glance();
        if lit.count_ones() == 1 && seen.last() != Some(&lit) {
            seen.push(lit);
        }
    }
    assert_eq!(seen.len(), 2, "the sweep goes on: {seen:?}");
    (seen[0], seen[1])
}

/// With the move of `legal` (a per-piece input whose first press is accepted) entered, a press
/// of `other` is denied with `beep` (`beep_ms` long); a 5 ms tap of the commit input at times
/// around the beep's end is no press (debouncing wants the input held 20 ms), so the move
/// stays uncommitted; a real press of it commits. The game has just started.
pub fn a_tap_right_after_a_tune_is_no_press(d: &mut Device, legal: usize, other: usize, beep: f64, beep_ms: f64) {
    let go = d.target.commit as usize;
    d.press(legal);
    let entered = d.leds();
    for after_ms in [1.0, 2.0, 0.0, 0.5, 3.0, -1.0] {
        d.hold_input(other, true);
        // The speaker's first edge comes half a period after the tune starts.
        let start = d.until_sound(100.0).expect("the second piece is denied with a tune");
        let mut sound = d.listen(30.0, 10.0);
        d.hold_input(other, false);
        assert!(heard(&sound, beep), "denied: {sound:?}");
        let half_period = d.ms_to_cycles(500.0 / beep);
        d.run_to(start - half_period + d.ms_to_cycles(beep_ms + after_ms));
        d.hold_input(go, true);
        d.run_ms(5.0);
        d.hold_input(go, false);
        sound = d.listen(200.0, 10.0);
        assert_eq!(
            d.leds(),
            entered,
            "a 5 ms tap of GO {after_ms} ms after the beep's end committed the move; then {sound:?}"
        );
    }
    d.press_commit();
    assert_ne!(d.leds(), entered, "a real press of GO commits");
}

/// The end tune over, the device keeps awake for the idle time (30 s) and sleeps then: the
/// idle time counts from when the device stops talking. `to_the_last_move` plays a game
/// just started up to the player's last move, entered but not committed.
pub fn idle_time_counts_from_the_end_tune(d: &mut Device, to_the_last_move: impl FnOnce(&mut Device)) {
    let go = d.target.commit as usize;
    d.press_commit();
    to_the_last_move(d);
    d.hold_input(go, true);
    let start = d.until_sound(100.0).expect("GO ends the game with a tune");
    d.run_ms(50.0);
    d.hold_input(go, false);
    let end = d.until_quiet(QUIET_MS, 5000.0);
    let tune_ms = d.ms_between(start, end);
    assert!(tune_ms > 300.0, "an end tune played: {tune_ms} ms");
    assert!(d.run_until_sleep(31_000.0), "asleep within 31 s of the end tune");
    let idle = d.ms_between(end, d.cycles);
    assert!(
        (29_950.0..=30_100.0).contains(&idle),
        "slept {idle:.1} ms after the {tune_ms:.0} ms end tune ended, not 30 s"
    );
}

/// The sweep, stopped while a game was played, goes on after the end tune from the LED it
/// stopped on, with the step it would have taken: the tune's length does not move it.
pub fn the_sweep_goes_on_after_the_end_tune(d: &mut Device, to_the_last_move: impl FnOnce(&mut Device)) {
    let go = d.target.commit as usize;
    let sweep = press_mid_step(d, go, 100.0);
    d.run_ms(50.0);
    to_the_last_move(d);
    d.hold_input(go, true);
    d.until_sound(100.0).expect("GO ends the game with a tune");
    d.run_ms(50.0);
    d.hold_input(go, false);
    let resumed = sweep_resumes(d, 3000.0);
    assert_eq!(
        resumed,
        (sweep.at.unwrap(), sweep.next(cells(d))),
        "the sweep stopped on {:012b} coming from {:012b}; after the end tune it showed {:012b} then {:012b}",
        sweep.at.unwrap(),
        sweep.before.unwrap(),
        resumed.0,
        resumed.1
    );
}

/// The sweep, asleep, goes on after the wake from the LED it slept on: the time the wake
/// control is held does not move it. `piece` is an input that does nothing while attracting.
pub fn the_sweep_goes_on_after_a_wake(d: &mut Device, piece: usize) {
    let go = d.target.commit as usize;
    // A press (ignored, but a press) a quarter into a step: idle times are whole steps of the
    // sweep, so the sleep also falls a quarter into a step, well apart from the last one.
    press_mid_step(d, piece, 50.0);
    assert!(!d.run_until_sleep(29_500.0), "awake in the first 29.5 s");
    let mut sweep = Sweep::default();
    d.slept = false;
    let until = d.cycles + d.ms_to_cycles(1000.0);
    while !d.slept {
        assert!(d.cycles < until, "asleep 30 s after the last press");
        sweep.see(d.glance());
    }
    assert_eq!(d.leds_over(20.0), 0, "dark asleep");
    assert!(sweep.before.is_some(), "the sweep stepped before the sleep: {sweep:?}");
    d.hold_input(go, true);
    d.run_ms(500.0);
    d.hold_input(go, false);
    let resumed = sweep_resumes(d, 1000.0);
    assert_eq!(
        resumed,
        (sweep.at.unwrap(), sweep.next(cells(d))),
        "the sweep slept on {:012b} coming from {:012b}; awake it showed {:012b} then {:012b}",
        sweep.at.unwrap(),
        sweep.before.unwrap(),
        resumed.0,
        resumed.1
    );
}

/// GO with no move entered is denied with `beep` (`beep_ms` long); let go and pressed again
/// while that beep plays, and held past its end, it is a second press: a second beep. The game
/// has just started.
pub fn a_re_press_during_its_own_beep_counts(d: &mut Device, beep: f64, beep_ms: f64) {
    let go = d.target.commit as usize;
    // Pressed again early enough to settle in the beep, and late enough to settle after it.
    for again_ms in [80.0, beep_ms - 10.0] {
        d.hold_input(go, true);
        d.until_sound(100.0).expect("GO with no move beeps");
        let mut sound = d.listen(40.0, 10.0);
        d.hold_input(go, false);
        sound.extend(d.listen(again_ms - 40.0, 10.0));
        d.hold_input(go, true);
        sound.extend(d.listen(2.0 * beep_ms + 100.0 - again_ms, 10.0));
        d.hold_input(go, false);
        sound.extend(d.listen(200.0, 10.0));
        let beeping = sound.iter().filter(|&&f| heard(&[f], beep)).count() as f64 * 10.0;
        assert!(
            (2.0 * beep_ms - 30.0..=2.0 * beep_ms + 20.0).contains(&beeping),
            "GO let go and pressed again {again_ms} ms into its beep: {beeping} ms of beeping, not two beeps; {sound:?}"
        );
    }
}
