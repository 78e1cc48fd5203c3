//! Othello's firmware on a simulated ATmega16 at 10 MHz, played over its UART as a host
//! would: every board dump, every device move and the result are checked against the
//! compiler's own reading of the rules in games/othello.game.

mod device;

use device::{firmware, Device, Received};
use gamec::grid_rules::{GridRules, Ply, Position};
use std::path::Path;

const GAME: &str = "games/othello.game";
const BOARD: &str = "boards/othello_stk500_atmega16.board";

/// Othello on a 6 x 6 grid with the same protocol, where passes come often.
const SMALL_GAME: &str = "compiler/tests/games/othello_6x6.game";

fn rules() -> GridRules {
    rules_of(GAME)
}

fn rules_of(game: &str) -> GridRules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(game);
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add(game.to_string(), std::fs::read_to_string(path).unwrap());
    GridRules::new(&gamec_dsl::load_game(&sources, id).unwrap()).unwrap()
}

fn cell_name(cell: u8) -> String {
    format!("{}{}", (b'A' + cell % 8) as char, cell / 8 + 1)
}

fn parse_cell(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[1] - b'1') * 8 + (b[0] - b'A')
}

/// A host at the other end of the line, keeping the game by the rules as it goes.
struct Host {
    dev: Device,
    rules: GridRules,
    pos: Position,
    /// Player index the host plays (0 black, 1 white).
    side: usize,
    rng: u64,
    /// Cycle of the host's last line, for timing the device's answers.
    sent_at: u64,
    /// When the line before the last one ended: the device's turn begins once it has sent it.
    prev_end: u64,
    last_end: u64,
    /// The longest the device took for a move, in milliseconds.
    slowest_ms: f64,
    saw_device_pass: bool,
    saw_host_pass: bool,
    /// Plays to leave the device as few moves as possible (to make it pass), not at random.
    squeeze: bool,
    /// Where the firmware keeps its last search's node count and depth, when measuring.
    search_stats: Option<(u16, u16)>,
    /// Per device move: nodes, depth reached, milliseconds.
    searches: Vec<(u32, u8, f64)>,
}

impl Host {
    fn boot() -> Host {
        Host::boot_with(GAME)
    }

    /// A host of the firmware of `game` (Othello's protocol) on the ATmega16 board.
    fn boot_with(game: &str) -> Host {
        let (elf, target) = firmware(game, BOARD);
        let rules = rules_of(game);
        let mut dev = Device::boot(&elf, &target);
        let first = dev.read_line(100.0).expect("a prompt at power-up");
        assert_eq!(first.text, "Pick Black/White");
        let pos = rules.start;
        Host {
            dev,
            rules,
            pos,
            side: 0,
            rng: 0x2545_F491_4F6C_DD1D,
            sent_at: 0,
            prev_end: 0,
            last_end: 0,
            slowest_ms: 0.0,
            saw_device_pass: false,
            saw_host_pass: false,
            squeeze: false,
            search_stats: None,
            searches: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.dev.send(line);
        self.sent_at = self.dev.cycles;
    }

    fn line(&mut self) -> Received {
        let l = self
            .dev
            .read_line(3000.0)
            .unwrap_or_else(|| panic!("the device answers within 3 s; position {:?}", self.pos));
        self.prev_end = self.last_end;
        self.last_end = l.end;
        l
    }

    fn expect(&mut self, text: &str) {
        let l = self.line();
        assert_eq!(l.text, text);
    }

    /// Reads a board dump (header and rows) and checks it against the host's position;
    /// returns the cells marked legal.
    fn board(&mut self, header: &str) -> u64 {
        let (cols, rows) = (self.rules.grid.cols, self.rules.grid.rows);
        let letters: String = (0..cols).map(|c| format!(" {}", (b'A' + c) as char)).collect();
        assert_eq!(header, format!(" {letters}"));
        let mut legal = 0u64;
        for row in 0..rows {
            let l = self.line().text;
            assert_eq!(&l[..1], &(row + 1).to_string(), "row label in {l:?}");
            assert_eq!(l.len(), 1 + 2 * cols as usize, "a cell a column in {l:?}");
            for col in 0..cols {
                let glyph = l.as_bytes().get(2 + 2 * col as usize).copied().unwrap_or(b' ');
                let bit = 1u64 << (row * 8 + col);
                let want = if self.pos.pieces[0] & bit != 0 {
                    b'B'
                } else if self.pos.pieces[1] & bit != 0 {
                    b'W'
                } else if glyph == b'V' {
                    legal |= bit;
                    b'V'
                } else {
                    b' '
                };
                assert_eq!(glyph as char, want as char, "cell {} in row {l:?}", cell_name(row * 8 + col));
            }
        }
        legal
    }

    fn host_moves(&self) -> Vec<u8> {
        self.rules
            .plies(&self.pos)
            .into_iter()
            .filter_map(|p| if let Ply::Place(c) = p { Some(c) } else { None })
            .collect()
    }

    fn random(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n as u64) as usize
    }

    /// The move after which the device has the fewest replies (random among equals).
    /// A move that squeezes the device: one after which it must pass if there is one; else
    /// one after which as many of its replies as possible let the host make it pass next; then
    /// one leaving it the fewest replies.
    fn squeezing(&mut self, moves: &[u8]) -> u8 {
        let rules = &self.rules;
        let stuck = |p: &Position| matches!(rules.plies(p).as_slice(), [Ply::Pass]);
        let score = |c: u8| {
            let after = rules.play(&self.pos, Ply::Place(c));
            let replies = rules.plies(&after);
            if stuck(&after) {
                return (usize::MAX, 0);
            }
            // Replies after which the host has a move that leaves the device stuck.
            let trapped = replies
                .iter()
                .filter(|&&r| {
                    let next = rules.play(&after, r);
                    rules.plies(&next).iter().any(|&m| m != Ply::Pass && stuck(&rules.play(&next, m)))
                })
                .count();
            (trapped, usize::MAX - replies.len())
        };
        let scores: Vec<_> = moves.iter().map(|&c| score(c)).collect();
        let top = *scores.iter().max().unwrap();
        let best: Vec<u8> = moves.iter().zip(&scores).filter(|(_, &s)| s == top).map(|(&c, _)| c).collect();
        best[self.random(best.len())]
    }

    /// Plays a whole game from the side-choice on, the host picking random legal moves.
    fn play_game(&mut self, side: usize) {
        self.side = side;
        self.pos = self.rules.start;
        self.send(if side == 0 { "SP B" } else { "SP W" });
        self.expect("OK");
        let mut legal_marked = 0;
        loop {
            let l = self.line();
            let text = l.text.clone();
            match text.as_str() {
                t if t.starts_with("  A") => legal_marked = self.board(t),
                "Type your move" => {
                    assert_eq!(self.pos.to_move, side);
                    let moves = self.host_moves();
                    let want = moves.iter().fold(0u64, |m, &c| m | 1 << c);
                    assert_eq!(legal_marked, want, "the dump marks exactly the legal cells");
                    let cell = if self.squeeze { self.squeezing(&moves) } else { moves[self.random(moves.len())] };
                    self.send(&format!("MV {}", cell_name(cell)));
                    self.pos = self.rules.play(&self.pos, Ply::Place(cell));
                    // The board after the move, then OK.
                    let header = self.line().text;
                    self.board(&header);
                    self.expect("OK");
                }
                "You have to pass" => {
                    assert_eq!(self.rules.plies(&self.pos), vec![Ply::Pass]);
                    self.saw_host_pass = true;
                    self.send("PS");
                    self.pos = self.rules.play(&self.pos, Ply::Pass);
                    self.expect("OK");
                }
                t if t.starts_with("MM ") => {
                    // The device's turn starts when it has answered the host's last line (its
                    // move's board and OK) or has the host's acknowledgement, whichever is later.
                    let since = self.sent_at.max(self.prev_end);
                    let ms = (l.start - since) as f64 / 10_000.0;
                    self.slowest_ms = self.slowest_ms.max(ms);
                    if let Some((nodes_at, depth_at)) = self.search_stats {
                        let nodes = u32::from_le_bytes([0, 1, 2, 3].map(|i| self.dev.peek(nodes_at + i)));
                        self.searches.push((nodes, self.dev.peek(depth_at), ms));
                    }
                    assert_eq!(self.pos.to_move, 1 - side, "the device moves in its turn");
                    let cell = parse_cell(&t[3..]);
                    assert!(self.rules.plies(&self.pos).contains(&Ply::Place(cell)), "the device's move {t} is legal");
                    self.pos = self.rules.play(&self.pos, Ply::Place(cell));
                    self.send("OK");
                }
                "MP" => {
                    assert_eq!(self.rules.plies(&self.pos), vec![Ply::Pass], "the device passes only without a move");
                    self.saw_device_pass = true;
                    self.pos = self.rules.play(&self.pos, Ply::Pass);
                    self.send("OK");
                }
                "Neither of us have available move, game over" => {
                    assert!(self.rules.plies(&self.pos).is_empty(), "the game is over by the rules");
                }
                t if t.starts_with("The final score is:") => {
                    let (device, host) = (self.pos.pieces[1 - side].count_ones(), self.pos.pieces[side].count_ones());
                    assert_eq!(t, format!("The final score is:AVR: {device} User: {host}"));
                }
                " WN" | " LS" | " TE" => {
                    let want = match self.rules.winner(&self.pos) {
                        Some(w) if w == side => " LS",
                        Some(_) => " WN",
                        None => " TE",
                    };
                    assert_eq!(text, want);
                    self.send("OK");
                    self.dev.run_ms(5.0);
                    let lit: Vec<bool> = (1..=3).map(|b| !self.dev.pin_level('B', b)).collect();
                    let expected = match want {
                        " WN" => [true, false, false],
                        " LS" => [false, true, false],
                        _ => [false, false, true],
                    };
                    assert_eq!(lit, expected, "LEDs PB1 device won, PB2 player won, PB3 draw (active low)");
                    return;
                }
                other => panic!("unexpected line {other:?}"),
            }
        }
    }
}

#[test]
fn a_whole_game_as_black_against_random_moves() {
    let mut h = Host::boot();
    h.send("ST 1");
    h.expect("OK");
    h.play_game(0);
    assert!(h.slowest_ms <= 1000.0, "the device took {} ms with a 1 s clock", h.slowest_ms);
    eprintln!(
        "slowest device move: {:.0} ms; passes: host {}, device {}",
        h.slowest_ms, h.saw_host_pass, h.saw_device_pass
    );
}

#[test]
fn a_whole_game_as_white_against_random_moves() {
    let mut h = Host::boot();
    h.rng = 0x9E37_79B9_7F4A_7C15;
    h.send("ST 1");
    h.expect("OK");
    h.play_game(1);
    assert!(h.slowest_ms <= 1000.0, "the device took {} ms with a 1 s clock", h.slowest_ms);
    eprintln!(
        "slowest device move: {:.0} ms; passes: host {}, device {}",
        h.slowest_ms, h.saw_host_pass, h.saw_device_pass
    );
    // A new game after the end, on the same power-up.
    h.send("NG");
    h.expect("OK");
    h.expect("Pick Black/White");
}

#[test]
fn bad_input_is_answered_and_changes_nothing() {
    let mut h = Host::boot();
    h.send("AT");
    h.expect("OK");
    h.send("HELLO");
    h.expect("ER");
    h.send(&"X".repeat(40));
    h.expect("ER");
    h.send("AT");
    h.expect("OK");
    h.send("ST 0");
    h.expect("WRONG VALUE set default");
    h.send("ST 12");
    h.expect("WRONG VALUE set default");
    h.send("ST 1");
    h.expect("OK");

    h.send("SP B");
    h.expect("OK");
    let header = h.line().text;
    h.board(&header);
    h.expect("Type your move");
    for bad in ["MV A1", "MV Z9", "MV D9", "MV D0", "PS"] {
        h.send(bad);
        h.expect("IL");
    }
    h.send("MV");
    h.expect("ER");

    // Too late: after the clock's second, D3 is refused and the board is unchanged.
    h.dev.run_ms(1100.0);
    h.send("MV D3");
    h.expect("IT");
    h.send("PL");
    let header = h.line().text;
    let legal = h.board(&header);
    assert_eq!(legal.count_ones(), 4, "the start position, still");
    h.expect("Type your move");
    h.send("MV D3");
    h.pos = h.rules.play(&h.pos, Ply::Place(parse_cell("D3")));
    let header = h.line().text;
    h.board(&header);
    h.expect("OK");
    let mm = h.line().text;
    assert!(mm.starts_with("MM "), "{mm}");
    h.pos = h.rules.play(&h.pos, Ply::Place(parse_cell(&mm[3..])));

    // Out of time again; OK gives the turn up and the device moves.
    h.send("OK");
    let header = h.line().text;
    h.board(&header);
    h.expect("Type your move");
    h.dev.run_ms(1100.0);
    h.send("MV C4");
    h.expect("IT");
    h.send("OK");
    h.pos = h.rules.play(&h.pos, Ply::Pass);
    let mm = h.line().text;
    assert!(mm.starts_with("MM "), "the device moves after a forfeit: {mm}");
    assert!(h.rules.plies(&h.pos).contains(&Ply::Place(parse_cell(&mm[3..]))));

    // A new game mid-game, the host as white this time, ended early.
    h.send("NG");
    h.expect("OK");
    h.expect("Pick Black/White");
    h.send("SP W");
    h.expect("OK");
    h.pos = h.rules.start;
    let mm = h.line().text;
    assert!(mm.starts_with("MM "), "{mm}");
    h.pos = h.rules.play(&h.pos, Ply::Place(parse_cell(&mm[3..])));
    h.send("RST");
    h.expect("OK");
    h.pos = h.rules.start;
    let header = h.line().text;
    h.board(&header);
    let mm = h.line().text;
    assert!(mm.starts_with("MM "), "the device, black, opens again after RST: {mm}");
    h.pos = h.rules.play(&h.pos, Ply::Place(parse_cell(&mm[3..])));
    h.send("OK");
    let header = h.line().text;
    h.board(&header);
    h.expect("Type your move");
    h.send("EG");
    h.expect("OK");
    h.expect("The final score is:AVR: 4 User: 1");
    h.expect(" WN");
    h.send("OK");
    h.dev.run_ms(5.0);
    assert!(!h.dev.pin_level('B', 1), "PB1 (device won) is lit");
    assert!(h.dev.pin_level('B', 2) && h.dev.pin_level('B', 3));
}

/// A host that types while the device thinks, more than the receive queue holds (simavr
/// delivers the bytes at the line's 9600 baud while the search runs): every line is answered
/// once the device has moved, as itself or as lost, none is read as another, and the game goes
/// on from the same position.
#[test]
fn a_burst_typed_while_the_device_thinks_is_answered_and_changes_nothing() {
    let mut h = Host::boot();
    h.send("SP B");
    h.expect("OK");
    let header = h.line().text;
    h.board(&header);
    h.expect("Type your move");
    h.send("MV D3");
    h.pos = h.rules.play(&h.pos, Ply::Place(parse_cell("D3")));
    let header = h.line().text;
    h.board(&header);
    h.expect("OK");
    // Ten lines of six bytes while the device searches; its queue holds 31 bytes.
    for _ in 0..10 {
        h.dev.send("MV C5");
    }
    let mm = h.line().text;
    assert!(mm.starts_with("MM "), "{mm}");
    h.pos = h.rules.play(&h.pos, Ply::Place(parse_cell(&mm[3..])));
    // The host's own turn has not come: a move out of turn is refused, and a line that lost
    // bytes is answered as an error, never read as a move. `AT` closes the burst; a line lost
    // whole, its line end too, is answered only when the next comes, so a quiet device is
    // asked again.
    let (mut answers, mut sent) = (Vec::new(), 10);
    h.send("AT");
    loop {
        match h.dev.read_line(3000.0).map(|l| l.text) {
            Some(l) if l == "OK" => break,
            Some(l) => answers.push(l),
            None => {
                h.send("AT");
                sent += 1;
            }
        }
    }
    assert!(!answers.is_empty() && answers.len() <= sent, "{answers:?}");
    assert!(answers.iter().all(|a| a == "IL" || a == "ER"), "{answers:?}");
    assert!(answers.contains(&"ER".to_string()), "some of the burst was lost: {answers:?}");
    // The device's move stands and nothing else changed: the game goes on from there.
    h.send("OK");
    let header = h.line().text;
    h.board(&header);
    h.expect("Type your move");
}

/// The device's search on the simulated ATmega16 with the default 2 s clock, over the
/// midgame positions of a fixed game (device moves 6 to 15, plies 11 to 30), and the
/// deepest the stack went. Run by `cargo xtask bench`.
#[test]
#[ignore = "a benchmark: cargo xtask bench"]
fn bench_search_on_the_device() {
    let mut h = Host::boot();
    let (elf, _) = firmware(GAME, BOARD);
    let nodes = device::symbol(&elf, "LAST_SEARCH_NODES").0 as u16;
    let depth = device::symbol(&elf, "LAST_SEARCH_DEPTH").0 as u16;
    h.search_stats = Some((nodes, depth));
    h.dev.track_stack();
    if std::env::var("PROFILE").is_ok() {
        h.dev.profile = Some((997, Vec::new()));
    }
    if let Ok(t) = std::env::var("MOVE_TIME") {
        h.send(&format!("ST {t}"));
        h.expect("OK");
    }
    h.play_game(0);
    let mid = &h.searches[6..16];
    let nodes: u32 = mid.iter().map(|s| s.0).sum();
    let ms: f64 = mid.iter().map(|s| s.2).sum();
    let depths: Vec<u8> = mid.iter().map(|s| s.1).collect();
    let low = h.dev.lowest_sp().unwrap();
    let stack = h.dev.ramend() - low;
    let sizes = gamec::driver::sizes(&std::fs::read(&elf).unwrap()).unwrap();
    // The bound `gamec build` checks against the board's stack budget covers what was measured.
    let bound = device::stack_bound(GAME, BOARD, &elf);
    assert!(bound.bytes >= u32::from(stack), "bound {} B under the measured {stack} B: {:?}", bound.bytes, bound.path);
    println!("othello on atmega16 @ 10 MHz, a game at the 2 s move clock (device moves 6 to 15):");
    println!("  nodes per second: {:.0} ({nodes} nodes in {ms:.0} ms)", nodes as f64 * 1000.0 / ms);
    println!("  depth reached per move: {depths:?}");
    println!("  slowest move: {:.0} ms", h.slowest_ms);
    println!(
        "  flash {} B, static RAM {} B, deepest stack {stack} B (bound {} B), RAM with stack {} B",
        sizes.flash(),
        sizes.ram(),
        bound.bytes,
        sizes.ram() + stack as u32
    );
    println!("  nodes in 2 s (for the strength benchmark): {:.0}", nodes as f64 * 2000.0 / ms);
    // The README's figures (`cargo xtask bench` reads these lines).
    println!("FIGURE othello.game.nodes_per_s={:.0} nodes/s ({nodes} nodes in {ms:.0} ms)", nodes as f64 * 1000.0 / ms);
    println!("FIGURE othello.game.depth_min={} plies", depths.iter().min().unwrap());
    println!("FIGURE othello.game.depth_max={} plies", depths.iter().max().unwrap());
    println!("FIGURE othello.game.slowest_move_ms={:.0} ms", h.slowest_ms);
    println!("FIGURE othello.game.nodes_in_2s={:.0} nodes", nodes as f64 * 2000.0 / ms);
    println!("FIGURE othello.game.deepest_stack={stack} B (the bound: {} B)", bound.bytes);
    println!("FIGURE othello.game.ram_with_stack={} B", sizes.ram() + stack as u32);
    if let Some((_, samples)) = &h.dev.profile {
        let profile = device::profile_by_symbol(&elf, samples);
        for (name, share) in profile.iter().take(15) {
            println!("  {:5.1}% {name}", share * 100.0);
        }
        for (i, (name, share)) in profile.iter().take(7).enumerate() {
            println!("FIGURE othello.game.profile.{}={:.1}% `{}`", i + 1, share * 100.0, device::short_symbol(name));
        }
    }
}

#[test]
fn passes_on_both_sides() {
    // A 6 x 6 Othello whose device seeks few moves of its own: squeezed by the host it soon
    // has none and must pass, then random play runs the host out too; both checked against
    // the rules. The same session and byte board as the 8 x 8 game's, where the device,
    // searching four plies for mobility, took 22 to 30 squeezed games to be made to pass.
    let mut h = Host::boot_with(SMALL_GAME);
    h.send("ST 1");
    h.expect("OK");
    for game in 0..12 {
        h.squeeze = !h.saw_device_pass;
        h.play_game(game % 2);
        if h.saw_device_pass && h.saw_host_pass {
            eprintln!("passes on both sides after {} games", game + 1);
            return;
        }
        h.send("NG");
        h.expect("OK");
        h.expect("Pick Black/White");
    }
    panic!("no game had passes on both sides: host {}, device {}", h.saw_host_pass, h.saw_device_pass);
}

#[test]
fn ending_the_game_lights_the_lamp_of_the_result() {
    // The device plays for mobility early and often trails in discs: ending the game (EG)
    // while the host leads is a host win, and when level a draw.
    let mut h = Host::boot();
    h.send("ST 1");
    h.expect("OK");
    let mut pending = vec![(" LS", [false, true, false]), (" TE", [false, false, true])];
    for _ in 0..6 {
        let Some(&(want, lamps)) = pending.first() else { return };
        h.pos = h.rules.start;
        h.send("SP B");
        h.expect("OK");
        loop {
            let l = h.line().text;
            if l.starts_with("  A") {
                h.board(&l);
                continue;
            }
            let (device, host) = (h.pos.pieces[1].count_ones(), h.pos.pieces[0].count_ones());
            let ending = match want {
                " LS" => host > device,
                _ => host == device && h.pos.pieces[0] != h.rules.start.pieces[0],
            };
            if l == "Type your move" && ending {
                h.send("EG");
                h.expect("OK");
                h.expect(&format!("The final score is:AVR: {device} User: {host}"));
                h.expect(want);
                h.send("OK");
                h.dev.run_ms(5.0);
                let lit: Vec<bool> = (1..=3).map(|b| !h.dev.pin_level('B', b)).collect();
                assert_eq!(lit, lamps, "after {want}");
                pending.remove(0);
                break;
            }
            match l.as_str() {
                "Type your move" => {
                    let moves = h.host_moves();
                    let cell = moves[h.random(moves.len())];
                    h.send(&format!("MV {}", cell_name(cell)));
                    h.pos = h.rules.play(&h.pos, Ply::Place(cell));
                }
                "OK" => {}
                t if t.starts_with("MM ") => {
                    h.pos = h.rules.play(&h.pos, Ply::Place(parse_cell(&t[3..])));
                    h.send("OK");
                }
                // Any other turn of events (passes, the end): start over.
                _ => {
                    h.send("NG");
                    while h.line().text != "Pick Black/White" {}
                    break;
                }
            }
        }
        if pending.first().map(|p| p.0) != Some(want) {
            h.send("NG");
            h.expect("OK");
            h.expect("Pick Black/White");
        }
    }
    assert!(pending.is_empty(), "not reached: {:?}", pending.iter().map(|p| p.0).collect::<Vec<_>>());
}

/// Ten midgame positions (plies 20 to 38 of a seeded random game), seen from the mover.
fn midgame_positions() -> Vec<(u64, u64)> {
    let rules = rules();
    let mut pos = rules.start;
    let mut rng = 0x0DDB_1A5E_5BAD_5EEDu64;
    let mut out = Vec::new();
    for ply in 0..40 {
        let plies = rules.plies(&pos);
        if plies.is_empty() {
            break;
        }
        if ply >= 20 && ply % 2 == 0 && plies != vec![Ply::Pass] {
            out.push((pos.pieces[pos.to_move], pos.pieces[1 - pos.to_move]));
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        pos = rules.play(&pos, plies[(rng % plies.len() as u64) as usize]);
    }
    out
}

/// The bench's entry point: each fixed position searched for 2 s, then its nodes, depth and
/// milliseconds.
const BENCH_MAIN: &str = r#"#[avr_device::entry]
fn main() -> ! {
    let chip = Chip::new(&board::CONFIG);
    let mut line = chip.usart();
    // As the game holds positions on this chip, in a static as the session does; the search
    // alone is timed.
    static mut HELD: <game::Rules as Placement>::Pos = <game::Rules as Placement>::CLEARED;
    // SAFETY: the only reference to it, in a program with no other thread.
    let held = unsafe { &mut *core::ptr::addr_of_mut!(HELD) };
    for pos in POSITIONS.iter() {
        held.load(pos);
        let start = chip.millis();
        let (nodes, depth) = {
            let mut out = || chip.millis().wrapping_sub(start) >= 2000;
            let mut budget = Budget::new(u32::MAX, &mut out);
            let c = <game::Rules as Placement>::search::<{ board::SEARCH_MOVES }>(held, 1, board::SEARCH_DEPTH, true, &mut budget);
            (budget.nodes(), c.map_or(0, |c| c.depth))
        };
        let ms = chip.millis().wrapping_sub(start);
        number(&mut line, nodes);
        number(&mut line, depth as u32);
        number(&mut line, ms);
        line.send(b'\r');
        line.send(b'\n');
    }
    loop {}
}
"#;

/// A firmware beside Othello's on the ATmega16: the generated game and board with `main`
/// (format-escaped Rust: the entry point and anything it needs), which may read the fixed
/// midgame positions (`POSITIONS`) and report numbers over the UART (`number`). Returns the
/// ELF, and the target to boot it on.
fn firmware_beside(name: &str, main: &str) -> (std::path::PathBuf, gamec::bind::Target) {
    let (elf, target) = firmware(GAME, BOARD);
    let built = elf.parent().unwrap().join("crates/othello-othello-stk500-atmega16");
    let dir = elf.parent().unwrap().join("crates").join(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join(".cargo")).unwrap();
    for f in ["src/game.rs", "src/board.rs", ".cargo/config.toml"] {
        std::fs::copy(built.join(f), dir.join(f)).unwrap();
    }
    let toml = std::fs::read_to_string(built.join("Cargo.toml")).unwrap();
    std::fs::write(dir.join("Cargo.toml"), toml.replace("othello-othello-stk500-atmega16", name)).unwrap();
    let positions = midgame_positions();
    let table: Vec<String> =
        positions.iter().map(|(me, opp)| format!("Duel {{ me: {me:#x}, opp: {opp:#x} }}")).collect();
    let source = format!(
        r#"#![no_std]
#![no_main]
#![feature(abi_avr_interrupt)]
#![feature(asm_experimental_arch)]
#![allow(dead_code)]
mod board;
mod game;
use gamec_runtime::chip::atmega16::serial::{{on_receive, on_tick, Chip, Usart}};
use gamec_runtime::grid::Duel;
use gamec_runtime::search::Budget;
use gamec_runtime::session::Placement;
static POSITIONS: [Duel; {n}] = [{table}];
fn number(line: &mut Usart, n: u32) {{
    let mut digits = [0u8; 10];
    let mut i = 0;
    let mut n = n;
    loop {{
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        i += 1;
        if n == 0 {{ break; }}
    }}
    while i > 0 {{ i -= 1; line.send(digits[i]); }}
    line.send(b' ');
}}
{main}
#[avr_device::interrupt(atmega16)]
fn TIMER1_COMPA() {{ on_tick(); }}
#[avr_device::interrupt(atmega16)]
fn USART_RXC() {{ on_receive(); }}
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {{ loop {{}} }}
"#,
        n = positions.len(),
        table = table.join(", ")
    );
    std::fs::write(dir.join("src/main.rs"), source).unwrap();
    let target_dir = elf.parent().unwrap().join("target");
    gamec::driver::cargo_build(&dir, &target_dir).unwrap_or_else(|e| panic!("{name} builds: {e}"));
    (target_dir.join(format!("avr-none/release/{name}.elf")), target)
}

/// The byte board's passes in assembly do what the portable passes do, on the device: both
/// sides' moves (`mobility`), the mover's moves one by one (`next_move`), each region's difference (`region_corners` and the others), making a move and
/// taking it back (`play`, `unplay`: the same cells turned, counts, list of
/// empty cells and record of the move), the neighbours' records that make and undo keep at
/// constant offsets, and the evaluation's byte products (`weigh`), over the fixed midgame
/// positions, every position a move from them and every position a reply from those (each
/// undone), with either side to move.
#[test]
fn the_assembly_passes_count_as_the_portable_ones() {
    let (elf, target) = firmware_beside(
        "othello-mobility-check",
        r#"
/// A digest of the whole position: the cells, the side to move, the counts and the list of
/// empty cells (FNV-1a): the chip has no room for a second copy of the board to compare.
fn digest(b: &game::Board) -> u32 {
    let mut h = 0x811c_9dc5u32;
    let counts = [b.colour, b.empties, b.pieces[1], b.pieces[2]];
    for &x in b.cells.iter().chain(counts.iter()) {
        h = (h ^ x as u32).wrapping_mul(0x0100_0193);
    }
    for x in b.empty_cells() {
        h = (h ^ x as u32).wrapping_mul(0x0100_0193);
    }
    h
}
fn check(ok: bool, counts: &mut (u32, u32)) {
    counts.0 += 1;
    if !ok {
        counts.1 += 1;
    }
}
fn agree(b: &game::Board, counts: &mut (u32, u32)) {
    let regions: [(fn(&game::Board) -> i16, &[u8]); 3] = [
        (game::region_corners, &game::REGION_CORNERS_CELLS),
        (game::region_x_squares, &game::REGION_X_SQUARES_CELLS),
        (game::region_edges, &game::REGION_EDGES_CELLS),
    ];
    // The side to move's moves one by one, as the search walks them.
    let mut after = 0;
    loop {
        let at = game::next_move(b, after);
        check(at == game::next_move_portable(b, after), counts);
        if at == 0 {
            break;
        }
        after = at;
    }
    check(
        game::mobility(b) == game::mobility_portable(b)
            && regions.iter().all(|(diff, cells)| diff(b) == b.diff(cells))
            && b.records_hold(&game::OFFSETS),
        counts,
    );
}
/// Makes `m` in assembly (the search's `make`), goes on with `then`, and takes it back in
/// assembly; then makes and takes back `m` by the board's own loops, and checks both ways
/// reach the same positions and record the same move.
fn both_ways(held: &mut game::Searched, m: u8, counts: &mut (u32, u32), then: impl FnOnce(&mut game::Searched, &mut (u32, u32))) {
    use gamec_runtime::search::InPlace;
    let before = digest(&held.0);
    let u = held.make(m);
    let after = digest(&held.0);
    agree(&held.0, counts);
    then(held, counts);
    held.undo(u);
    check(digest(&held.0) == before, counts);
    let want = held.0.play(m, &game::OFFSETS, &game::REGIONS);
    check(u == want && digest(&held.0) == after, counts);
    held.0.undo(want, &game::OFFSETS, &game::REGIONS);
    check(digest(&held.0) == before, counts);
}
#[avr_device::entry]
fn main() -> ! {
    use gamec_runtime::search::InPlace;
    let chip = Chip::new(&board::CONFIG);
    let mut line = chip.usart();
    static mut HELD: <game::Rules as Placement>::Pos = <game::Rules as Placement>::CLEARED;
    // SAFETY: the only reference to it, in a program with no other thread.
    let held = unsafe { &mut *core::ptr::addr_of_mut!(HELD) };
    let mut counts = (0u32, 0u32);
    for x in -64i16..=64 {
        for w in [-128i8, -15, -10, 3, 6, 40, 127] {
            let p = game::weigh(core::hint::black_box(x), core::hint::black_box(w));
            check(p == x * w as i16, &mut counts);
        }
    }
    for pos in POSITIONS.iter() {
        held.load(pos);
        agree(&held.0, &mut counts);
        let mut moves = [0u8; 32];
        let n = held.moves(&mut moves);
        for &m in &moves[..n] {
            both_ways(held, m, &mut counts, |held, counts| {
                let mut replies = [0u8; 32];
                let k = held.moves(&mut replies);
                for &r in &replies[..k] {
                    both_ways(held, r, counts, |_, _| {});
                }
            });
        }
    }
    number(&mut line, counts.0);
    number(&mut line, counts.1);
    line.send(b'\r');
    line.send(b'\n');
    loop {}
}
"#,
    );
    // The passes in assembly are functions of their own; the portable ones would be inlined.
    assert!(device::find_symbol(&elf, "game8mobility").is_some(), "the check runs the assembly pass");
    let passes = ["game9next_move", "game4play", "game6unplay", "game12region_edges", "game14region_corners"];
    for pass in passes {
        assert!(device::find_symbol(&elf, pass).is_some(), "the check runs the assembly {pass}");
    }
    let mut dev = Device::boot(&elf, &target);
    let l = dev.read_line(20_000.0).expect("a report").text;
    let f: Vec<u32> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
    println!("checks, differences: {l}");
    assert!(f[0] > 5_000, "checks made: {l}");
    assert_eq!(f[1], 0, "checks that failed, of {}", f[0]);
}

/// The profile's functions, as the README's table names them, from the symbols of the
/// benchmark's firmware (Rust's v0 mangling) and of the legacy mangling.
#[test]
fn the_profile_names_functions_by_the_last_two_names_of_their_paths() {
    for (symbol, name) in [
        ("_RNvNtCsjQe1I4W9zvc_20othello_search_bench4game8mobility", "game::mobility"),
        (
            "_RINvNtCs3TKn063kQvx_13gamec_runtime6search7negamaxNtNtCsjQe1I4W9zvc_20othello_search_bench4game8\
             SearchedKj3c_EBQ_",
            "search::negamax",
        ),
        ("_RNvMs3_NtNtNtCs3TKn063kQvx_13gamec_runtime4chip8atmega166serialNtB5_5Usart4send", "Usart::send"),
        (
            "_RNvMs1_NtCs3TKn063kQvx_13gamec_runtime7mailboxINtB5_7MailboxKj64_Kj0_E10piece_diff\
             CsjQe1I4W9zvc_20othello_search_bench",
            "Mailbox::piece_diff",
        ),
        ("_ZN4game8mobility17h0123456789abcdefE", "game::mobility"),
        ("__vector_15", "__vector_15"),
    ] {
        assert_eq!(device::short_symbol(symbol), name, "{symbol}");
    }
}

/// The device's search on fixed midgame positions, 2 s each, on the simulated ATmega16: the
/// firmware's own generated game and board with an entry point that searches each position
/// and reports nodes, depth and milliseconds over the UART. Run by `cargo xtask bench`.
#[test]
#[ignore = "a benchmark: cargo xtask bench"]
fn bench_search_on_fixed_positions() {
    let (bench_elf, target) = firmware_beside("othello-search-bench", BENCH_MAIN);
    let positions = midgame_positions();
    let bench = bench_elf.parent().unwrap().join("../../../crates/othello-search-bench");
    let mut dev = Device::boot(&bench_elf, &target);
    if std::env::var("PROFILE").is_ok() {
        dev.profile = Some((997, Vec::new()));
    }
    let board_rs = std::fs::read_to_string(bench.join("src/board.rs")).unwrap();
    let cap = board_rs.split("SEARCH_DEPTH: u8 = ").nth(1).and_then(|r| r.split([';', 'u']).next()).unwrap_or("?");
    println!("othello search on atmega16 @ 10 MHz, {} fixed midgame positions, 2 s each:", positions.len());
    println!("  position  empty  nodes    ms  nodes/s  depth (cap {cap})");
    let (mut nodes, mut ms, mut depths) = (0u64, 0u64, Vec::new());
    for (i, (me, opp)) in positions.iter().enumerate() {
        let l = dev.read_line(2500.0).expect("a report per position").text;
        let f: Vec<u64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
        let empty = 64 - (me | opp).count_ones();
        println!(
            "  {:>8}  {empty:>5}  {:>5}  {:>4}  {:>7.0}  {}",
            i + 1,
            f[0],
            f[2],
            f[0] as f64 * 1000.0 / f[2].max(1) as f64,
            f[1]
        );
        nodes += f[0];
        depths.push(f[1]);
        ms += f[2];
    }
    println!("  {:.0} nodes per second ({nodes} nodes in {ms} ms)", nodes as f64 * 1000.0 / ms as f64);
    println!("  depth reached per position (the firmware's cap is {cap}): {depths:?}");
    // The README's figures (`cargo xtask bench` reads these lines).
    println!(
        "FIGURE othello.fixed.nodes_per_s={:.0} nodes/s ({nodes} nodes in {ms} ms over {} positions)",
        nodes as f64 * 1000.0 / ms as f64,
        positions.len()
    );
    let mean = depths.iter().sum::<u64>() as f64 / depths.len() as f64;
    println!("FIGURE othello.fixed.depth_mean={mean:.1} plies (the firmware's cap {cap})");
    println!("FIGURE othello.fixed.depth_min={} plies", depths.iter().min().unwrap());
    println!("FIGURE othello.fixed.depth_max={} plies", depths.iter().max().unwrap());
    if let Some((_, samples)) = &dev.profile {
        let profile = device::profile_by_symbol(&bench_elf, samples);
        for (name, share) in profile.iter().take(15) {
            println!("  {:5.1}% {name}", share * 100.0);
        }
        for (i, (name, share)) in profile.iter().take(7).enumerate() {
            println!("FIGURE othello.fixed.profile.{}={:.1}% `{}`", i + 1, share * 100.0, device::short_symbol(name));
        }
    }
}
