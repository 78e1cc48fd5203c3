//! The Set solver as a person uses it, in qemu-system-arm: cards scanned one by one on the
//! scanner's USART (USART2, QEMU's second serial port), the console on USART1 (its first),
//! and every set printed checked against a reference written here, over random tables of 3
//! to 21 cards; then what must be refused and change nothing, and the console's commands.
//! The AT-START-F437's image runs the random tables too, on the same STM32F405 with only its
//! initial stack pointer moved into the 128 KB of RAM QEMU maps (`driver::sim_image`).

mod qemu;

use qemu::{Machine, Port};
use std::collections::BTreeSet;
use std::time::Duration;

const GAME: &str = "games/set.game";
const BOARD: &str = "boards/set_netduinoplus2.board";
/// The AT32F437's board: its USARTs are the STM32F405's, at the same addresses.
const AT32F437: &str = "boards/set_at_start_f437.board";
/// A third chip with its own serial ports: the LM3S6965's UARTs.
const LM3S6965: &str = "boards/set_lm3s6965.board";
/// Only a machine that never answers waits this long: the guest runs in virtual time (see
/// `qemu::Machine::boot`), so how soon it answers in the host's time depends on the load, and
/// what it answers does not.
const WAIT: Duration = Duration::from_secs(120);

/// The reference: a card's four attributes are two bits each of its byte, values 0 to 2, and
/// three cards are a set when every attribute sums to a multiple of three (all the same or
/// all different).
fn is_set(a: u8, b: u8, c: u8) -> bool {
    (0..4).all(|i| {
        let v = |x: u8| (x >> (2 * i)) & 3;
        (v(a) + v(b) + v(c)) % 3 == 0
    })
}

fn deck() -> Vec<u8> {
    (0..=255u8).filter(|&c| (0..4).all(|i| (c >> (2 * i)) & 3 < 3)).collect()
}

/// The sets on a table, as places from 1.
fn sets(table: &[u8]) -> BTreeSet<[usize; 3]> {
    let mut out = BTreeSet::new();
    for i in 0..table.len() {
        for j in i + 1..table.len() {
            for k in j + 1..table.len() {
                if is_set(table[i], table[j], table[k]) {
                    out.insert([i + 1, j + 1, k + 1]);
                }
            }
        }
    }
    out
}

/// The sets a reply prints (`set N: cards a b c`).
fn printed(reply: &str) -> BTreeSet<[usize; 3]> {
    reply
        .lines()
        .filter_map(|l| l.strip_prefix("set "))
        .map(|l| {
            let places: Vec<usize> = l.split("cards ").nth(1).unwrap().split(' ').map(|n| n.parse().unwrap()).collect();
            [places[0], places[1], places[2]]
        })
        .collect()
}

struct Solver {
    _machine: Machine,
    console: Port,
    scanner: Port,
}

impl Solver {
    fn boot() -> Solver {
        Solver::boot_on(BOARD)
    }

    fn boot_on(board: &str) -> Solver {
        let (elf, machine) = qemu::firmware_in(GAME, board);
        let mut machine = Machine::boot_in(machine, &elf, 2);
        let scanner = machine.ports.pop().unwrap();
        let mut console = machine.ports.pop().unwrap();
        let banner = console.until("> ", WAIT);
        assert!(banner.contains("scan the cards"), "{banner}");
        Solver { _machine: machine, console, scanner }
    }

    /// Scans a frame (the scanner adds its carriage return) and returns the console's reply.
    fn scan(&mut self, frame: &[u8]) -> String {
        self.scanner.send(frame);
        self.console.until("> ", WAIT)
    }

    /// Scans a card, and again where QEMU split its frame: QEMU hands the USART a frame's
    /// bytes one at a time, each as soon as the host's I/O thread gets to it, and on a busy
    /// host the guest may run past the card table's frame gap between two (an AT32F437
    /// image's 30 ms are QEMU's 1.4, its SysTick reloads made for 8 MHz run at 168). No
    /// scanner leaves such a gap inside a frame. A split frame is answered as a malformed one,
    /// then as an empty one, and changes nothing.
    fn card(&mut self, code: u8) -> String {
        for _ in 0..5 {
            let reply = self.scan(&[code, b'\r']);
            if !reply.contains("malformed frame") {
                return reply;
            }
            let rest = self.console.until("> ", WAIT);
            assert!(rest.contains("a frame of 0 bytes"), "the split frame's suffix alone: {rest}");
        }
        panic!("card {code}'s frame split five times");
    }

    fn command(&mut self, line: &str) -> String {
        self.console.send(format!("{line}\r").as_bytes());
        self.console.until("> ", WAIT)
    }

    /// The table as `list` tells it: the cards' names in order.
    fn list(&mut self) -> Vec<String> {
        let reply = self.command("list");
        reply
            .lines()
            .filter_map(|l| l.split_once(": ").filter(|(k, _)| k.starts_with("card ")).map(|(_, v)| v.to_string()))
            .collect()
    }
}

#[test]
fn every_set_of_random_tables_is_printed_as_each_card_is_scanned() {
    random_tables(Solver::boot());
}

/// The AT32F437's own image, not the STM32F405's: its glue's registers, clocks and pins.
#[test]
fn the_at32f437_image_prints_every_set_of_random_tables() {
    random_tables(Solver::boot_on(AT32F437));
}

/// On an LM3S6965, its UARTs (PL011s) the console and the scanner, in QEMU's lm3s6965evb.
#[test]
fn the_lm3s6965_image_prints_every_set_of_random_tables() {
    random_tables(Solver::boot_on(LM3S6965));
}

/// The copy QEMU runs differs from the built ELF in the vector table's first word alone, and
/// an image holding the stack's top anywhere else is refused: its start-up code would load it.
#[test]
fn the_at32f437_image_is_moved_in_a_copy_by_its_initial_stack_pointer_alone() {
    let copy = qemu::firmware(GAME, AT32F437);
    let elf = copy.with_extension("").with_extension("elf");
    assert_ne!(copy, elf, "a copy beside the built ELF");
    let (built, moved) = (std::fs::read(&elf).unwrap(), std::fs::read(&copy).unwrap());
    let word = |image: &[u8]| u32::from_le_bytes(gamec::driver::flash_image(image).unwrap()[..4].try_into().unwrap());
    assert_eq!(word(&built), 0x2000_0000 + 384 * 1024, "the chip's own stack top in what is flashed");
    assert_eq!(word(&moved), 0x2000_0000 + 128 * 1024, "the top of QEMU's RAM in the copy");
    let differ: Vec<usize> = (0..built.len()).filter(|&i| built[i] != moved[i]).collect();
    assert!(built.len() == moved.len() && !differ.is_empty() && differ[differ.len() - 1] - differ[0] < 4, "{differ:?}");
    // The stack's top in another word the image loads too (here a vector's), as the
    // literal that `set-sp` or `paint-stack` loads would hold it: refused.
    let mut twice = built.clone();
    let at = differ[0] / 4 * 4 + 64;
    twice[at..at + 4].copy_from_slice(&0x2006_0000u32.to_le_bytes());
    let refused = gamec::driver::initial_sp_moved(&twice, 0x0800_0000, 0x2006_0000, 0x2002_0000).unwrap_err();
    assert!(refused.contains("besides its vector table"), "{refused}");
    assert!(gamec::driver::initial_sp_moved(&built, 0x0800_0000, 0x2006_0000, 0x2002_0000).unwrap() == moved);
}

fn random_tables(mut s: Solver) {
    let deck = deck();
    assert_eq!(deck.len(), 81);
    let mut seed = 0x5E7_5EEDu64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..6 {
        let size = [3, 7, 12, 15, 20, 21][round];
        let mut pool = deck.clone();
        let mut table = Vec::new();
        for _ in 0..size {
            let card = pool.swap_remove(next(pool.len()));
            table.push(card);
            let reply = s.card(card);
            assert!(reply.starts_with(&format!("+ card {}:", table.len())), "{reply}");
            let want = sets(&table);
            assert_eq!(printed(&reply), want, "table {table:?}: {reply}");
            if want.is_empty() {
                assert!(reply.contains("no set on the table"), "{reply}");
            }
        }
        // `groups` says the same again.
        assert_eq!(printed(&s.command("groups")), sets(&table));
        assert!(s.command("clear").contains("the table is empty"));
    }
}

#[test]
fn what_is_refused_changes_nothing() {
    let mut s = Solver::boot();
    for c in [0b00_00_00_00, 0b01_01_01_01, 0b10_10_10_10] {
        s.card(c);
    }
    let before = s.list();
    assert_eq!(before.len(), 3);
    let refusals: [(&[u8], &str); 5] = [
        (&[0b01_01_01_01, b'\r'], "already on the table"),
        (&[0b00_00_00_11, b'\r'], "no card of this deck"),
        (&[1, 2, b'\r'], "a frame of 2 bytes is no card"),
        (&[5], "malformed frame"),
        (b"\r", "a frame of 0 bytes"),
    ];
    for (frame, why) in refusals {
        let reply = s.scan(frame);
        assert!(reply.contains("error") && reply.contains(why), "{frame:?}: {reply}");
        assert_eq!(s.list(), before, "after {frame:?}");
    }
    // A full table refuses the next card.
    s.command("clear");
    let deck = deck();
    let no_set_at_all: Vec<u8> = {
        // Greedily: cards that make no set with two already taken (a cap of 20 exists; 16 suffice here).
        let mut cap = Vec::new();
        for &c in &deck {
            if cap.len() < 16 && !(0..cap.len()).any(|i| (i + 1..cap.len()).any(|j| is_set(cap[i], cap[j], c))) {
                cap.push(c);
            }
        }
        cap
    };
    let mut table: Vec<u8> = no_set_at_all.clone();
    table.extend(deck.iter().filter(|c| !no_set_at_all.contains(c)).take(21 - table.len()));
    for &c in &table {
        s.card(c);
    }
    let full = s.list();
    assert_eq!(full.len(), 21);
    let extra = *deck.iter().find(|c| !table.contains(c)).unwrap();
    let reply = s.card(extra);
    assert!(reply.contains("error: the table holds 21 cards"), "{reply}");
    assert_eq!(s.list(), full);
}

#[test]
fn the_console_answers_garbage_and_long_lines_and_keeps_serving() {
    let mut s = Solver::boot();
    assert!(s.command("help").contains("commands:"));
    assert!(s.command("fly away").contains("error: not a command"));
    assert!(s.command("remove 9").contains("error: no card"));
    assert!(s.command("show 1").contains("error: no set"));
    let long = "x".repeat(300);
    assert!(s.command(&long).contains("error: the line is too long"));
    // The next line is read whole: nothing of the long one is left in it.
    assert!(s.command("list").contains("0 cards"));
    s.console.send(&[0xFF, 0xFE, b'\r']);
    assert!(s.console.until("> ", WAIT).contains("error"));
    assert!(s.command("list").contains("0 cards"));
}

/// A host that types faster than the console reads (QEMU hands the chip bytes with no baud
/// rate, as fast as its receive interrupt takes them): every line is answered as itself or as
/// one the firmware could not take whole, never as a different command, and it serves on.
#[test]
fn a_burst_of_lines_is_answered_line_by_line_or_as_lost_and_the_console_serves_on() {
    let mut s = Solver::boot();
    let burst = "list\r".repeat(100);
    s.console.send(format!("{burst}remove 77\r").as_bytes());
    // `remove 77` closes the burst; a line lost whole, its line end with it, is never
    // answered, so a quiet console is asked again. Only the time to send again depends on
    // the host's speed, never a reply.
    let (mut replies, mut sent_again) = (0, 0);
    loop {
        match s.console.within("> ", Duration::from_secs(5)) {
            Ok(reply) if reply.contains("error: no card") => break,
            Ok(reply) => {
                let lost = reply.contains("error: the line is too long");
                assert!(reply.contains("0 cards") || lost, "{reply:?}");
                replies += 1;
            }
            Err(_) => {
                s.console.send(b"remove 77\r");
                sent_again += 1;
            }
        }
    }
    // Each reply answers a line of its own, or several lost together.
    assert!(replies <= 100 + sent_again, "{replies} replies to {} lines", 100 + sent_again);
    loop {
        let reply = s.command("list");
        if reply.contains("0 cards") {
            break;
        }
        // A `remove 77` sent again while the first was on its way.
        assert!(reply.contains("error: no card"), "{reply:?}");
    }
}

#[test]
fn sets_are_shown_removed_and_taken_away() {
    let mut s = Solver::boot();
    // 1, 2 and 3 of the same purple empty waves make a set; a red card makes none with them.
    let table = [0b00_00_00_00, 0b00_00_00_01, 0b00_00_00_10, 0b00_01_00_00];
    for c in table {
        s.card(c);
    }
    assert_eq!(printed(&s.command("groups")), BTreeSet::from([[1, 2, 3]]));
    // The picture: three rows of seven places, the set's cards bracketed.
    let picture = s.command("show 1");
    let first_row = picture.lines().next().unwrap();
    assert!(first_row.contains("[  1]") && first_row.contains("[  3]") && first_row.contains("  4 "), "{picture}");
    assert_eq!(picture.lines().filter(|l| l.contains('.') || l.contains('[')).count(), 3, "{picture}");
    // Taking the set away leaves the red card alone, numbered 1.
    let reply = s.command("take 1");
    assert!(reply.contains("set taken; 1 cards left"), "{reply}");
    assert_eq!(s.list().len(), 1);
    s.card(0b00_00_00_00);
    let reply = s.command("remove 1");
    assert!(reply.contains("- card 1; 1 cards left"), "{reply}");
    assert_eq!(s.list(), vec!["one empty purple wave".to_string()]);
}

/// Tables of `size` distinct cards drawn from the deck, the same ones every run.
fn fixed_tables(size: usize, count: usize, mut seed: u64) -> Vec<Vec<u8>> {
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    (0..count)
        .map(|_| {
            let mut pool = deck();
            (0..size).map(|_| pool.swap_remove(next(pool.len()))).collect()
        })
        .collect()
}

/// The bench firmware's entry point: for each table, an empty window (what the markers cost),
/// then the generated search and the seed's solver at -Os and -O2, each alone in a window
/// with interrupts off; each table's counts of sets on the console; then the run ends.
fn search_bench_main(tables: &[Vec<u8>]) -> String {
    let rows: Vec<String> = tables
        .iter()
        .map(|t| format!("&[{}]", t.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")))
        .collect();
    format!(
        r#"#![no_std]
#![no_main]
// The bench reads the console's port of the board and the search of the game, no more.
#[allow(dead_code)]
mod board;
#[allow(dead_code)]
mod game;
use core::fmt::Write as _;
use core::hint::black_box;
use cortex_m_rt::entry;
use gamec_runtime::chip::stm32f405::serial::Chip;
use gamec_runtime::serial::TextOut;
static TABLES: [&[u8]; {n}] = [{rows}];
extern "C" {{
    fn seed_load_s(codes: *const u8, n: u8);
    fn seed_seek_s() -> u32;
    fn seed_load_2(codes: *const u8, n: u8);
    fn seed_seek_2() -> u32;
}}
#[no_mangle]
#[inline(never)]
extern "C" fn bench_window_open(x: u32) -> u32 {{ black_box(x.wrapping_add(1)) }}
#[no_mangle]
#[inline(never)]
extern "C" fn bench_window_close(x: u32) -> u32 {{ black_box(x ^ 0x5a5a) }}
#[entry]
fn main() -> ! {{
    let chip = Chip::new(&board::CONFIG);
    let mut out = TextOut(chip.usart(board::CONSOLE));
    unsafe {{ core::arch::asm!("cpsid i") }};
    bench_window_close(bench_window_open(0));
    for table in TABLES.iter() {{
        let mut codes = [0u32; game::CAPACITY];
        for (c, &t) in codes.iter_mut().zip(table.iter()) {{ *c = u32::from(t); }}
        let codes = black_box(&codes[..table.len()]);
        let mut places = [[0u8; 3]; 81];
        let mut found = 0usize;
        bench_window_open(1);
        game::search(codes, &mut |g| {{
            if let Some(p) = places.get_mut(found) {{ p.copy_from_slice(g); }}
            found += 1;
        }});
        bench_window_close(found as u32);
        black_box(&places);
        unsafe {{ seed_load_s(table.as_ptr(), table.len() as u8) }};
        bench_window_open(2);
        let s = unsafe {{ seed_seek_s() }};
        bench_window_close(s);
        unsafe {{ seed_load_2(table.as_ptr(), table.len() as u8) }};
        bench_window_open(3);
        let o2 = unsafe {{ seed_seek_2() }};
        bench_window_close(o2);
        let _ = writeln!(out, "{{}} {{found}} {{s}} {{o2}}", table.len());
    }}
    let _ = writeln!(out, "done");
    // Semihosting's SYS_EXIT, application exit: QEMU ends and writes out the plugin's log.
    unsafe {{ core::arch::asm!("bkpt 0xab", in("r0") 0x18, in("r1") 0x20026) }};
    loop {{}}
}}
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {{ loop {{}} }}
"#,
        n = tables.len(),
        rows = rows.join(", ")
    )
}

/// Instructions per search, counted by QEMU: the generated search (every pair completed and
/// the third card looked up) beside the seed's triple loop built with arm-none-eabi-gcc for
/// the same core, on the same tables of 12 and 21 cards. Run by `cargo xtask bench`.
#[test]
#[ignore = "a benchmark: cargo xtask bench"]
fn bench_instructions_per_search() {
    use qemu::counting::{cortex_m4_libc, cortex_m4_object, out_dir, plugin_args, symbol, windows};
    let elf = qemu::firmware(GAME, BOARD);
    let built = elf.parent().unwrap().join("crates/set-set-netduinoplus2");
    let bench = out_dir().join("crates/set-search-bench");
    for dir in ["src", ".cargo"] {
        std::fs::create_dir_all(bench.join(dir)).unwrap();
    }
    for f in ["src/game.rs", "src/board.rs", "memory.x", "Cargo.lock"] {
        std::fs::copy(built.join(f), bench.join(f)).unwrap();
    }
    let toml = std::fs::read_to_string(built.join("Cargo.toml")).unwrap();
    std::fs::write(bench.join("Cargo.toml"), toml.replace("set-set-netduinoplus2", "set-search-bench")).unwrap();
    // The seed's solver at two optimisation levels, and newlib for its qsort.
    let seed_c = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/qemu/seed_set_solver.c");
    let mut link = String::new();
    for level in ["s", "2"] {
        let obj = cortex_m4_object(&seed_c, level, &["seed_load", "seed_seek"]);
        link += &format!(r#", "-C", "link-arg={}""#, obj.display());
    }
    link += &format!(r#", "-C", "link-arg={}""#, cortex_m4_libc().display());
    let config = std::fs::read_to_string(built.join(".cargo/config.toml")).unwrap();
    let config = config.replace(r#""link-arg=-Tlink.x""#, &format!(r#""link-arg=-Tlink.x"{link}"#));
    assert!(config.contains("seed_set_solver"), "the C objects are linked: {config}");
    std::fs::write(bench.join(".cargo/config.toml"), config).unwrap();
    let mut tables = fixed_tables(12, 8, 0x12_CA4D5);
    tables.extend(fixed_tables(21, 8, 0x21_CA4D5));
    std::fs::write(bench.join("src/main.rs"), search_bench_main(&tables)).unwrap();
    let target_dir = out_dir().join("target");
    gamec::driver::cargo_build(&bench, &target_dir).unwrap_or_else(|e| panic!("the bench firmware builds: {e}"));
    let bench_elf = target_dir.join("thumbv7em-none-eabihf/release/set-search-bench");

    let log = out_dir().join("set-search-bench.log");
    let _ = std::fs::remove_file(&log);
    let marks =
        [("open", symbol(&bench_elf, "bench_window_open")), ("close", symbol(&bench_elf, "bench_window_close"))];
    let mut machine = Machine::boot_with(&bench_elf, 1, &plugin_args(&marks, &log));
    let mut console = machine.ports.pop().unwrap();
    let reports = console.until("done\n", Duration::from_secs(60));
    machine.wait(Duration::from_secs(10));
    // Each table's sets, found by both, agree with the reference.
    let lines: Vec<Vec<usize>> =
        reports.lines().take(tables.len()).map(|l| l.split(' ').map(|n| n.parse().unwrap()).collect()).collect();
    for (table, line) in tables.iter().zip(&lines) {
        let want = sets(table).len();
        assert_eq!(line[1..], [want, want, want], "sets found on {table:?}");
    }
    let counts = windows(&log);
    assert_eq!(counts.len(), 1 + 3 * tables.len(), "one window for the markers and three per table");
    let markers = counts[0];
    println!(
        "Set search on the Cortex-M4 (QEMU netduinoplus2), instructions per search, markers' {markers} taken off:"
    );
    println!("  cards  sets (mean)  gamec (mean, min-max)  seed -Os  seed -O2  seed -Os / gamec");
    for size in [12, 21] {
        let at: Vec<usize> = (0..tables.len()).filter(|&i| tables[i].len() == size).collect();
        let per = |k: usize| -> Vec<u64> { at.iter().map(|&i| counts[1 + 3 * i + k] - markers).collect() };
        let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / v.len() as f64;
        let (ours, os, o2) = (per(0), per(1), per(2));
        let found = at.iter().map(|&i| lines[i][1]).sum::<usize>() as f64 / at.len() as f64;
        println!(
            "  {size:>5}  {found:>11.1}  {:>8.0} ({}-{})  {:>9.0}  {:>8.0}  {:>6.1}x",
            mean(&ours),
            ours.iter().min().unwrap(),
            ours.iter().max().unwrap(),
            mean(&os),
            mean(&o2),
            mean(&os) / mean(&ours)
        );
        // The README's figures (`cargo xtask bench` reads these lines).
        println!("FIGURE set.search{size}.gamec={:.0} instructions", mean(&ours));
        println!("FIGURE set.search{size}.seed_os={:.0} instructions", mean(&os));
        println!("FIGURE set.search{size}.seed_o2={:.0} instructions", mean(&o2));
        println!(
            "FIGURE set.search{size}.fewer={:.1}x fewer (-O2: {:.1}x)",
            mean(&os) / mean(&ours),
            mean(&o2) / mean(&ours)
        );
    }
}

/// Flash and RAM of both boards' images, and the deepest stack of a person's session on the
/// netduinoplus2 image beside the bound `gamec build` reads from its machine code. Run by
/// `cargo xtask bench`.
#[test]
#[ignore = "a benchmark: cargo xtask bench"]
fn bench_sizes_and_stack() {
    for board in ["boards/set_at_start_f437.board", BOARD] {
        let elf = qemu::firmware(GAME, board);
        let s = gamec::driver::sizes(&std::fs::read(&elf).unwrap()).unwrap();
        println!("{board}: flash {} B, static RAM {} B", s.flash(), s.ram());
    }
    let elf = qemu::firmware(GAME, BOARD);
    let deepest = deepest_stack_of_a_session(&elf);
    let bound = stack_bound(&elf).bytes;
    println!("{BOARD}: deepest stack {deepest} B over a session of 21 cards and every command; bound {bound} B");
    // The README's figures (`cargo xtask bench` reads these lines).
    let ram = gamec::driver::sizes(&std::fs::read(&elf).unwrap()).unwrap().ram();
    println!("FIGURE set.deepest_stack={deepest} B (the bound: {bound} B)");
    println!("FIGURE set.ram_with_stack={} B", u64::from(ram) + deepest);
}

/// The bound on the stack that `gamec build` reads from the firmware's machine code.
fn stack_bound(elf: &std::path::Path) -> gamec::stack_depth::StackDepth {
    use gamec::stack_depth::{thumb_stack_depth, Priorities, Reentry};
    thumb_stack_depth(&std::fs::read(elf).unwrap(), Priorities::Shared, true, Reentry::Never, &[])
        .unwrap_or_else(|why| panic!("no stack bound: {why}"))
}

/// The deepest stack of a person's session on the netduinoplus2 image: the lowest address the
/// firmware writes below its statics, seen by the QEMU plugin (the eight words the core pushes
/// on an interrupt are written by QEMU, not by an instruction; the handler's own pushes lie
/// below them).
fn deepest_stack_of_a_session(elf: &std::path::Path) -> u64 {
    use qemu::counting::{out_dir, plugin_args, stack_low, symbol};
    let (lo, hi) = (symbol(elf, "_stack_end"), symbol(elf, "_stack_start"));
    let log = out_dir().join("set-stack.log");
    let _ = std::fs::remove_file(&log);
    let mut machine = Machine::boot_with(elf, 2, &plugin_args(&[("stack_lo", lo), ("stack_hi", hi)], &log));
    let scanner = machine.ports.pop().unwrap();
    let mut console = machine.ports.pop().unwrap();
    console.until("> ", WAIT);
    let mut s = Solver { _machine: machine, console, scanner };
    // A full table, every command on it, and what is refused.
    let table = &fixed_tables(21, 1, 0x57ACC)[0];
    for &c in table {
        s.card(c);
    }
    let groups = sets(table).len();
    for line in ["list", "groups", "help", "show 1", &format!("show {groups}"), "take 1", "remove 1", "nonsense"] {
        s.command(line);
    }
    s.card(table[1]);
    s.scan(&[1, 2, 3, b'\r']);
    s.command(&"x".repeat(300));
    s.command("clear");
    s._machine.stop();
    let low = stack_low(&log).expect("the plugin saw the stack written");
    hi - low
}

/// The bound `gamec build` reads from the machine code (and checks against the board's stack
/// budget) holds the deepest stack a session with every command reaches.
#[test]
fn the_deepest_stack_of_a_session_is_within_the_bound_from_the_machine_code() {
    let elf = qemu::firmware(GAME, BOARD);
    let bound = stack_bound(&elf);
    let deepest = deepest_stack_of_a_session(&elf);
    eprintln!("deepest stack {deepest} B, bound {} B", bound.bytes);
    assert!(deepest <= u64::from(bound.bytes), "a session reached {deepest} B, over the bound: {bound:#?}");
}
