//! Binario's firmware on a simulated ATmega128, played as a person plays the seed's board:
//! encoders turned by driving their contacts in quadrature, switches pressed, the matrix read
//! from its row and column pins into a picture of clear, red, green and yellow, the speaker's
//! pitch measured, and the tableaux served by an emulated 93C46 holding the image `gamec
//! build` wrote. The same matrix wired to an LM3S6965 in QEMU plays the same way, its tableaux
//! in flash; wired to an AT32F437, it shows the intro and the first tableau there.

mod device;

use device::cursor_duel::CursorPins;
use device::{cortex_pins, show, Device, Lit, GREEN, OFF, RED, YELLOW};
use gamec::engine::puzzle::Puzzle;
use gamec::engine::{Engine, State, STRIDE};
use gamec::sim::eeprom::Eeprom93c46;
use gamec_dsl::{content, GameDef, Pin};

const GAME: &str = "games/binario.game";
const BOARD: &str = "boards/binario_atmega128.board";
const LM3S6965: &str = "boards/binario_lm3s6965.board";
/// The same on an AT32F437, its image on QEMU's STM32F405 with gamec's model of the ports.
const AT32F437: &str = "boards/binario_at32f437.board";
/// The tunes' first notes, from the game file: start C5, denied G3, victory G5; click E6.
const C5: f64 = 523.25;
const G3: f64 = 196.0;
const G5: f64 = 783.99;
const E6: f64 = 1318.5;

struct Binario<D: CursorPins = Device> {
    dev: D,
    engine: Engine,
    starts: Vec<State>,
    solutions: Vec<State>,
    across: (Pin, Pin),
    down: (Pin, Pin),
    select: Pin,
    reset: Pin,
    /// Where the test has moved the cursor (it starts at the top left).
    at: (usize, usize),
}

/// Binario's rules written out plainly, to check the compiler's solutions by: half red in
/// every line, no three alike in a row, no two lines alike.
fn plainly_solved(s: &State) -> bool {
    let cell = |r: usize, c: usize| s.cells[r * STRIDE + c];
    let lines: Vec<Vec<u8>> = (0..8)
        .map(|r| (0..8).map(|c| cell(r, c)).collect())
        .chain((0..8).map(|c| (0..8).map(|r| cell(r, c)).collect()))
        .collect();
    let ok = |l: &Vec<u8>| {
        l.iter().filter(|&&v| v == content::state(0)).count() == 4
            && l.iter().filter(|&&v| v == content::state(1)).count() == 4
            && !l.windows(3).any(|w| w[0] == w[1] && w[1] == w[2])
    };
    let distinct = |ls: &[Vec<u8>]| ls.iter().enumerate().all(|(i, a)| ls[..i].iter().all(|b| a != b));
    lines.iter().all(ok) && distinct(&lines[..8]) && distinct(&lines[8..])
}

fn picture(s: &State) -> [[Lit; 8]; 8] {
    let mut p = [[OFF; 8]; 8];
    for (r, row) in p.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = match s.cells[r * STRIDE + c] {
                x if x == content::state(0) => RED,
                x if x == content::state(1) => GREEN,
                _ => OFF,
            };
        }
    }
    p
}

impl Binario<Device> {
    fn boot() -> Self {
        Binario::boot_on(BOARD)
    }

    /// In simavr, the tableaux served by an emulated 93C46 holding the image the build wrote.
    fn boot_on(board: &str) -> Self {
        Binario::boot_with(board, |elf, target| {
            // The EEPROM image the build wrote beside the firmware.
            let image = std::fs::read(elf.with_extension("eeprom.bin")).expect("gamec build writes the 93C46 image");
            assert_eq!(image.len(), 128);
            let [cs, sk, di, dout] = target.cursor.clone().unwrap().eeprom.unwrap();
            let mut dev = Device::boot(elf, target);
            let pin = |p: Pin| (p.port, p.bit);
            dev.eeprom = Some(Eeprom93c46::new(image, pin(cs), pin(sk), pin(di), pin(dout)));
            dev
        })
    }
}

impl Binario<cortex_pins::Board> {
    /// In QEMU, in virtual time: the tableaux in the firmware's flash.
    fn boot_in_qemu(board: &str) -> Self {
        Binario::boot_with(board, |elf, target| {
            assert!(target.cursor.as_ref().unwrap().eeprom.is_none(), "no 93C46 on a Cortex-M");
            cortex_pins::Board::boot(elf, target, cortex_pins::Pace::Virtual).unwrap_or_else(|e| panic!("{e}"))
        })
    }
}

impl<D: CursorPins> Binario<D> {
    fn boot_with(board: &str, boot: impl FnOnce(&std::path::Path, &gamec::bind::Target) -> D) -> Self {
        let (elf, target) = device::firmware(GAME, board);
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let text = std::fs::read_to_string(root.join(GAME)).unwrap();
        let mut sources = gamec_dsl::Sources::new();
        let id = sources.add(GAME, text);
        let game: GameDef = gamec_dsl::load_game(&sources, id).unwrap();
        let engine = Engine::new(&game);
        let puzzle = Puzzle::new(&engine).unwrap();
        let starts: Vec<State> = game.rules.setup.fixed().iter().map(|s| engine.start_of(&game, s)).collect();
        let solutions: Vec<State> = starts.iter().map(|s| puzzle.solutions(s, 1).remove(0)).collect();
        assert!(solutions.iter().all(plainly_solved), "the compiler's solutions meet the rules written out");
        let c = target.cursor.clone().unwrap();
        let mut dev = boot(&elf, &target);
        let enc = |across: bool| c.encoders.iter().find(|e| e.0 == across).map(|e| (e.1, e.2)).unwrap();
        for p in [enc(true).0, enc(true).1, enc(false).0, enc(false).1, c.commit, c.restart.unwrap()] {
            dev.hold(p.port, p.bit, true);
        }
        Binario {
            dev,
            engine,
            starts,
            solutions,
            across: enc(true),
            down: enc(false),
            select: c.commit,
            reset: c.restart.unwrap(),
            at: (0, 0),
        }
    }

    fn across(&mut self, forward: bool) {
        self.dev.turn(self.across.0, self.across.1, forward);
    }

    fn down(&mut self, forward: bool) {
        self.dev.turn(self.down.0, self.down.1, forward);
    }

    /// Presses the select switch; returns the pitch heard in the 40 ms after the press counts,
    /// 0 for silence.
    fn select(&mut self) -> f64 {
        self.dev.press_listening_for(self.select, 40.0)
    }

    fn reset(&mut self) {
        let r = self.reset;
        self.dev.hold(r.port, r.bit, false);
        self.dev.run_ms(40.0);
        self.dev.hold(r.port, r.bit, true);
        self.dev.run_ms(40.0);
    }

    /// What choosing shows over `looks` looks 100 ms apart: whether it went dark (the blink),
    /// and the picture when lit.
    fn choosing(&mut self, looks: usize) -> (bool, [[Lit; 8]; 8]) {
        let (mut dark, mut on) = (false, [[OFF; 8]; 8]);
        for _ in 0..looks {
            let p = self.dev.matrix_over(17.0);
            if p.iter().flatten().all(|&v| v == OFF) {
                dark = true;
            } else {
                on = p;
            }
            self.dev.run_ms(100.0);
        }
        (dark, on)
    }

    /// Moves the cursor to (row, col) by turning the encoders.
    fn go(&mut self, row: usize, col: usize) {
        while self.at.1 < col {
            self.across(true);
            self.at.1 += 1;
        }
        while self.at.1 > col {
            self.across(false);
            self.at.1 -= 1;
        }
        while self.at.0 < row {
            self.down(true);
            self.at.0 += 1;
        }
        while self.at.0 > row {
            self.down(false);
            self.at.0 -= 1;
        }
    }

    /// The colours the cell at (row, col) shows over a whole blink.
    fn blink_colours(&mut self, row: usize, col: usize) -> Vec<Lit> {
        let mut seen = Vec::new();
        for _ in 0..8 {
            let v = self.dev.matrix_over(17.0)[row][col];
            if !seen.contains(&v) {
                seen.push(v);
            }
            self.dev.run_ms(60.0);
        }
        seen.sort();
        seen
    }

    /// Waits out the start-up show, watching it; returns the colours it showed.
    fn watch_intro(&mut self) -> Vec<Lit> {
        let mut colours = Vec::new();
        let mut centre_first = false;
        for i in 0..60 {
            let p = self.dev.matrix_over(17.0);
            if i == 0 {
                // The starburst starts at the centre.
                centre_first = p[3][3] != OFF && p[0][0] == OFF;
            }
            for v in p.iter().flatten() {
                if *v != OFF && !colours.contains(v) {
                    colours.push(*v);
                }
            }
            self.dev.run_ms(80.0);
        }
        assert!(centre_first, "the show opens with a starburst from the centre");
        colours.sort();
        colours
    }
}

#[test]
fn intro_then_tableaux_chosen_with_wrap_around_and_the_game_starts_at_the_top_left() {
    intro_then_tableaux_chosen(Binario::boot());
}

#[test]
fn on_the_lm3s6965_the_intro_then_tableaux_chosen_and_the_game_starts() {
    intro_then_tableaux_chosen(Binario::boot_in_qemu(LM3S6965));
}

/// On the AT32F437 the intro and the first tableau, which no input asks for. The person's
/// presses stay with the other chips: the board runs at the 8 MHz reset leaves, so on the
/// netduinoplus2's 168 MHz SysTick a millisecond of the firmware is 48 us of QEMU's time, and
/// a press, set while the guest runs on, lasts as long as the host takes to let go: under a
/// loaded host, tens of the firmware's milliseconds more, enough to turn a test's press into
/// another gesture (seen once in three runs of the suite).
#[test]
fn on_the_at32f437_the_intro_plays_and_the_first_tableau_blinks() {
    let mut b = Binario::boot_in_qemu(AT32F437);
    let colours = b.watch_intro();
    assert!(colours.contains(&RED) && colours.contains(&GREEN), "red and green in the show: {colours:?}");
    let (dark, on) = b.choosing(10);
    assert!(dark, "the chosen tableau blinks");
    assert_eq!(show(&on), show(&picture(&b.starts[0])), "tableau 1 from the firmware's flash");
}

fn intro_then_tableaux_chosen<D: CursorPins>(mut b: Binario<D>) {
    let colours = b.watch_intro();
    assert!(colours.contains(&RED) && colours.contains(&GREEN), "red and green in the show: {colours:?}");
    // Choosing: tableau 1, blinking.
    let (dark, on) = b.choosing(10);
    assert!(dark, "the chosen tableau blinks");
    assert_eq!(show(&on), show(&picture(&b.starts[0])), "tableau 1 as the EEPROM holds it");
    // Left from the first wraps to the last; right twice from there is the second.
    let seen_for = |b: &mut Binario<D>| b.choosing(5).1;
    b.across(false);
    assert_eq!(show(&seen_for(&mut b)), show(&picture(&b.starts[7])), "wrapped to tableau 8");
    b.across(true);
    b.across(true);
    assert_eq!(show(&seen_for(&mut b)), show(&picture(&b.starts[1])), "tableau 2");
    // Turning down and pressing reset do nothing while choosing.
    b.down(true);
    b.reset();
    assert_eq!(show(&seen_for(&mut b)), show(&picture(&b.starts[1])));
    let pitch = b.select();
    assert!((pitch - C5).abs() < 10.0, "the start tune: {pitch} Hz");
    b.dev.run_ms(400.0);
    // Playing: the grid steady, the cursor blinking at the top left.
    let p = b.dev.matrix_over(600.0);
    let mut want = picture(&b.starts[1]);
    let cursor = want[0][0];
    want[0][0] = p[0][0];
    assert_eq!(show(&p), show(&want), "the tableau, with the cursor at the top left");
    assert_ne!(p[0][0], cursor, "the top-left cell blinks");
}

fn near(pitch: f64, hz: f64) -> bool {
    (pitch / hz - 1.0).abs() < 0.03
}

/// Every cell but (row, col) as in `p` and `q` alike.
fn same_but(p: &[[Lit; 8]; 8], q: &[[Lit; 8]; 8], row: usize, col: usize) -> bool {
    (0..8).all(|r| (0..8).all(|c| (r, c) == (row, col) || p[r][c] == q[r][c]))
}

#[test]
fn a_tableau_played_to_victory_with_every_cursor_pattern_denials_and_the_lock() {
    a_tableau_played_to_victory(Binario::boot());
}

#[test]
fn on_the_lm3s6965_a_tableau_played_to_victory_with_denials_and_the_lock() {
    a_tableau_played_to_victory(Binario::boot_in_qemu(LM3S6965));
}

fn a_tableau_played_to_victory<D: CursorPins>(mut b: Binario<D>) {
    b.dev.run_ms(5600.0);
    assert!(near(b.select(), C5), "tableau 1 starts");
    b.dev.run_ms(300.0);
    let (start, solution) = (b.starts[0].clone(), b.solutions[0].clone());
    let given = |r: usize, c: usize| start.given >> (r * STRIDE + c) & 1 == 1;
    let colour_of = |s: &State, r: usize, c: usize| picture(s)[r][c];

    // The cursor stops at the edges: turning left and up from the top left leaves it there.
    b.across(false);
    b.down(false);
    assert_eq!(b.blink_colours(0, 0).len(), 2, "still blinking at the top left");
    assert_eq!(b.blink_colours(0, 1).len(), 1, "and not beside it");

    // A given cell blinks its colour and yellow, and a press there is denied, changing nothing.
    for want in [RED, GREEN] {
        let (r, c) =
            (0..64).map(|i| (i / 8, i % 8)).find(|&(r, c)| given(r, c) && colour_of(&start, r, c) == want).unwrap();
        b.go(r, c);
        assert_eq!(b.blink_colours(r, c), vec![want, YELLOW], "given {want} at {r},{c}");
        let before = b.dev.matrix_over(17.0);
        assert!(near(b.select(), G3), "denied");
        assert!(same_but(&before, &b.dev.matrix_over(17.0), r, c), "the grid is unchanged");
        assert_eq!(b.blink_colours(r, c), vec![want, YELLOW], "the given cell kept its colour");
    }

    // A free cell blinks toward what a press would make it: clear -> red -> green -> clear.
    let (r, c) = (0..64).map(|i| (i / 8, i % 8)).find(|&(r, c)| !given(r, c)).unwrap();
    b.go(r, c);
    for (now, next) in [(OFF, RED), (RED, GREEN), (GREEN, OFF)] {
        let mut want = vec![now, next];
        want.sort();
        assert_eq!(b.blink_colours(r, c), want, "free {now} at {r},{c}");
        assert!(b.select() > 1000.0, "a click");
    }

    // Fill in the solution cell by cell, snaking along the rows, but put red in the last free
    // cell that should be green: the full, wrong grid is denied.
    let mut free: Vec<(usize, usize)> = Vec::new();
    for r in 0..8 {
        let cols: Vec<usize> = if r % 2 == 0 { (0..8).collect() } else { (0..8).rev().collect() };
        free.extend(cols.into_iter().filter(|&c| !given(r, c)).map(|c| (r, c)));
    }
    let greenest = free.iter().rposition(|&(r, c)| colour_of(&solution, r, c) == GREEN).unwrap();
    let last = free.remove(greenest);
    let others = &free;
    for &(r, c) in others {
        b.go(r, c);
        let presses = if colour_of(&solution, r, c) == RED { 1 } else { 2 };
        for _ in 0..presses {
            let pitch = b.select();
            assert!(pitch > 1000.0, "a click at {r},{c}: {pitch} Hz");
        }
    }
    let (lr, lc) = last;
    b.go(lr, lc);
    let pitch = b.select();
    assert!(near(pitch, G3), "the full, wrong grid is denied: {pitch} Hz");

    // Changed again while still full and wrong: no second denial; cleared and filled
    // wrong again: denied again.
    let &(mr, mc) = others.iter().rev().find(|&&(r, c)| colour_of(&solution, r, c) == RED).unwrap();
    b.go(mr, mc);
    assert!(b.select() > 1000.0, "red to green, still full and wrong: only a click");
    assert!(b.select() > 1000.0, "green to clear: a click");
    let pitch = b.select();
    assert!(near(pitch, G3), "clear to red: full and wrong again, denied again: {pitch} Hz");

    // Put the last cell right (red to green): victory, the display flashing green while the
    // tune plays.
    b.go(lr, lc);
    let pitch = b.select();
    assert!(near(pitch, G5), "the victory tune: {pitch} Hz");
    let (mut all_green, mut all_dark) = (false, false);
    for _ in 0..12 {
        let p = b.dev.matrix_over(17.0);
        all_green |= p.iter().flatten().all(|&v| v == GREEN);
        all_dark |= p.iter().flatten().all(|&v| v == OFF);
        b.dev.run_ms(40.0);
    }
    assert!(all_green && all_dark, "the display blinks solid green during the tune");
    b.dev.run_ms(800.0);

    // Then the solution stays on show without a cursor, and the grid is locked.
    let shown = b.dev.matrix_over(300.0);
    assert_eq!(show(&shown), show(&picture(&solution)), "the solution, no cursor");
    let pitch = b.select();
    assert_eq!(pitch, 0.0, "a press after victory is silent");
    assert_eq!(show(&b.dev.matrix_over(300.0)), show(&picture(&solution)), "and changes nothing");

    // The reset switch goes back to choosing: the first tableau, blinking.
    b.reset();
    let (dark, on) = b.choosing(8);
    assert!(dark);
    assert_eq!(show(&on), show(&picture(&b.starts[0])));
    let _ = (&b.engine, E6, b.at);
}

#[test]
fn the_authors_atmega64_image_runs_its_intro_and_shows_tableau_1() {
    // simavr has no ATmega64: the author's chip's image, which `gamec build` checks against
    // its flash and RAM, runs on simavr's ATmega128, whose registers, vectors and RAM are the
    // ATmega64's.
    let (elf, target) = device::firmware(GAME, "boards/binario_atmega64.board");
    assert_eq!(target.chip.name, "atmega64");
    assert!(elf.with_extension("eeprom.bin").exists(), "its 93C46 image beside it");
    let mut b = Binario::boot_on("boards/binario_atmega64.board");
    let colours = b.watch_intro();
    assert!(colours.contains(&RED) && colours.contains(&GREEN), "red and green in the show: {colours:?}");
    let (dark, on) = b.choosing(10);
    assert!(dark, "the chosen tableau blinks");
    assert_eq!(show(&on), show(&picture(&b.starts[0])), "tableau 1 as the EEPROM holds it");
    let pitch = b.select();
    assert!((pitch - C5).abs() < 10.0, "the start tune: {pitch} Hz");
}

/// The main loop never returns, so nothing may lie under it: the start-up code falls into it
/// on the stack it set up, with no return address of a `call main` pushed first.
#[test]
fn the_main_loop_starts_on_an_empty_stack() {
    use object::{Object, ObjectSymbol};
    let (elf, target) = device::firmware(GAME, BOARD);
    let bytes = std::fs::read(&elf).unwrap();
    let file = object::File::parse(&*bytes).unwrap();
    let main = file.symbols().find(|s| s.name() == Ok("main")).expect("a main symbol").address() as u32;
    let mut dev = Device::boot(&elf, &target);
    let mut steps = 0;
    while dev.pc() != main {
        dev.step_once();
        steps += 1;
        assert!(steps < 100_000, "main never reached");
    }
    assert_eq!(dev.sp(), dev.ramend(), "SP on entering main");
}

/// The active column of the matrix now (0..8 red, 8..16 green), if any.
fn active_column(b: &mut Binario) -> Option<usize> {
    let now = b.dev.target.cursor.clone().unwrap().matrix;
    let all: Vec<Pin> = now.red.iter().chain(&now.green).copied().collect();
    all.iter().position(|p| b.dev.pin_level(p.port, p.bit) == now.columns_active_high)
}

#[test]
#[ignore]
fn bench_sizes_stack_and_refresh() {
    let mut b = Binario::boot();
    b.dev.track_stack();
    // The refresh over the intro, a tableau chosen (an EEPROM read), presses and turns: the
    // cycles between one column and the next, at 10 µs resolution.
    let step = b.dev.ms_to_cycles(0.01);
    let (mut last_change, mut last_col, mut gaps) = (b.dev.cycles, None, Vec::new());
    let mut watch = |b: &mut Binario, ms: f64| {
        // Only what is watched counts: the gap since the last look is not a gap.
        last_col = None;
        let end = b.dev.cycles + b.dev.ms_to_cycles(ms);
        while b.dev.cycles < end {
            b.dev.run_cycles(step);
            // A column lit after another: the time since the last one was lit.
            match active_column(b) {
                Some(col) if Some(col) != last_col => {
                    if last_col.is_some() {
                        gaps.push(b.dev.cycles - last_change);
                    }
                    last_col = Some(col);
                    last_change = b.dev.cycles;
                }
                _ => {}
            }
        }
    };
    watch(&mut b, 5600.0);
    b.across(true);
    watch(&mut b, 200.0);
    b.select();
    watch(&mut b, 300.0);
    for _ in 0..4 {
        b.across(true);
        b.select();
        watch(&mut b, 100.0);
    }
    let sizes = |board: &str| {
        let (elf, _) = device::firmware(GAME, board);
        gamec::driver::sizes(&std::fs::read(elf).unwrap()).unwrap()
    };
    let (m64, m128) = (sizes("boards/binario_atmega64.board"), sizes(BOARD));
    let stack = b.dev.ramend() - b.dev.lowest_sp().unwrap();
    gaps.sort_unstable();
    let hz = 8_000_000.0;
    let median = gaps[gaps.len() / 2] as f64;
    let longest = *gaps.last().unwrap() as f64;
    println!("binario @ 8 MHz (the author's assembly: 3,372 B flash, 211 B RAM with its stack):");
    println!(
        "  atmega64: flash {} B, static RAM {} B, deepest stack {stack} B, RAM with stack {} B",
        m64.flash(),
        m64.ram(),
        m64.ram() + stack as u32
    );
    println!("  atmega128 (the simulated one): flash {} B, static RAM {} B", m128.flash(), m128.ram());
    println!(
        "  refresh: a column every {:.3} ms ({:.0} Hz, {:.1} full pictures a second); the longest between two columns: {:.3} ms, over {} column changes watched",
        median / hz * 1e3,
        hz / median,
        hz / median / 16.0,
        longest / hz * 1e3,
        gaps.len()
    );
    // The README's figures (`cargo xtask bench` reads these lines).
    println!("FIGURE binario.deepest_stack={stack} B");
    println!("FIGURE binario.ram_with_stack={} B", m64.ram() + stack as u32);
    println!("FIGURE binario.column_ms={:.3} ms", median / hz * 1e3);
    println!("FIGURE binario.column_hz={:.0} Hz", hz / median);
    println!("FIGURE binario.pictures_per_s={:.1} pictures/s", hz / median / 16.0);
    println!("FIGURE binario.longest_column_ms={:.3} ms (over {} column changes)", longest / hz * 1e3, gaps.len());
}
