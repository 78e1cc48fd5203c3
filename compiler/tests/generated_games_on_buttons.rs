//! Generated games (tests/support/random_games.rs) that no app of their own serves, so that
//! buttons and lights play them on the rule core: lines of slides from fixed or dealt starts
//! with endings of `no moves` and `line of 2`, and heaps of removals given a searching device.
//! Each is built for an ATmega128 wired as the Silver Dollar PCB is, and played in simavr as a
//! person would. Every move of the person is one the engine allows, entered by a coin's (or a
//! heap's) button pressed until the LEDs show it, each press another move from there; a coin
//! with no move, or an empty heap, is denied with the LEDs unchanged; every device answer is
//! one the engine allows.

mod device;
#[path = "support/random_games.rs"]
#[allow(dead_code)]
mod random_games;

use device::{heard, Device};
use gamec::engine::{Engine, State};
use gamec_dsl::Sources;
use random_games::Kind;
use std::path::{Path, PathBuf};

/// The seed of the host's property test (generated_games.rs).
const SEED: u64 = 0x005E_ED0F_6A3E;
/// Games built and played.
const GAMES: usize = 8;
const BEEP: f64 = 440.0; // A4, the generated files' denied tune

/// The generated button board moved to an ATmega128: the same LEDs on PA0-PA3, the buttons on
/// port C, GO on PD0 (INT0), the piezo on OC1A.
fn on_atmega128(board: &str) -> String {
    let mut b = board.replace("chip attiny84a\n  clock 8 MHz internal", "chip atmega128\n  clock 8 MHz external");
    for (from, to) in [("PB0", "PC0"), ("PB1", "PC1"), ("PB2", "PC2"), ("PA4", "PC3"), ("PA7", "PC4")] {
        b = b.replace(&format!("= {from} pullup"), &format!("= {to} pullup"));
    }
    b.replace("go = PA6 pullup", "go = PD0 pullup").replace("speaker = PA5, timer1", "speaker = PB5, timer1")
}

/// The first `GAMES` generated games of `kind` played on the core with buttons, written beside
/// the test's firmware: (game path, board path). Heaps are given a searching device, which the
/// heaps app does not have.
fn core_games(kind: Kind) -> Vec<(PathBuf, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/gamec-tests/generated-buttons");
    std::fs::create_dir_all(&root).unwrap();
    let mut out = Vec::new();
    for i in 0..2000 {
        let mut g = random_games::generate(SEED, i);
        if kind == Kind::Heaps {
            let strategy = g.game.lines().find(|l| l.trim_start().starts_with("strategy")).unwrap_or("").to_string();
            g.game = g.game.replacen(&strategy, "  strategy b = search", 1);
        }
        // A second action (`back`) has no button in the generated controls; a single coin
        // makes a game of a move or two; the person moves first, so that the LEDs read at the
        // start show the start (a device's first move may end the game, and the attract sweep
        // follow its tune).
        let skip = ["action back", "coin x 1\n", "first b"];
        if g.kind != kind || skip.iter().any(|s| g.game.contains(s)) {
            continue;
        }
        let board = on_atmega128(&g.board);
        let mut sources = Sources::new();
        let gf = sources.add("gen.game", g.game.clone());
        let bf = sources.add("gen.board", board.clone());
        if gamec::check(&sources, &[gf, bf]).is_err() {
            continue;
        }
        let game = gamec_dsl::load_game(&sources, gf).unwrap();
        if !gamec::bind::buttons_on_the_core(&game) {
            continue;
        }
        let name = format!("{kind:?}{i}").to_lowercase();
        let (game_path, board_path) = (root.join(format!("{name}.game")), root.join(format!("{name}_board.board")));
        std::fs::write(&game_path, &g.game).unwrap();
        std::fs::write(&board_path, board).unwrap();
        out.push((game_path, board_path));
        if out.len() == GAMES {
            return out;
        }
    }
    panic!("only {} generated games of {kind:?} play on the core: {out:?}", out.len())
}

struct Play {
    engine: Engine,
    d: Device,
    /// The line's cells, or the heaps' sizes at the start (each a run of LEDs).
    cells: usize,
    heaps: Option<Vec<u32>>,
    text: String,
}

impl Play {
    /// The position the LEDs show, player 0 (the person) to move: a lit LED a coin, or on
    /// heaps a counter, a heap's lit from the first LED of its run.
    fn seen(&mut self) -> State {
        let leds = self.d.leds();
        let cells = match &self.heaps {
            None => (0..self.cells).map(|i| (leds >> i & 1) as u8).collect(),
            Some(sizes) => {
                let firsts = sizes.iter().scan(0, |first, &n| Some(std::mem::replace(first, *first + n)));
                firsts.zip(sizes).map(|(first, &n)| (leds >> first & ((1 << n) - 1)).count_ones() as u8).collect()
            }
        };
        State { cells, to_move: 0, passed: false, given: 0 }
    }

    /// The button of the coin on `cell` (counted among the coins from cell 1), or of heap `cell`.
    fn button(&self, pos: &State, cell: usize) -> usize {
        match self.heaps {
            None => (0..cell).filter(|&i| pos.cells[i] != 0).count(),
            Some(_) => cell,
        }
    }

    /// The cell (or heap) a move from `pos` to `after` is made from: where a coin left, or
    /// the heap that lost counters.
    fn moved_from(&self, pos: &State, after: &State) -> Option<usize> {
        (0..pos.cells.len()).find(|&i| after.cells[i] < pos.cells[i] && (self.heaps.is_some() || after.cells[i] == 0))
    }

    /// Presses button `n` listening; the notes heard.
    fn press_listening(&mut self, n: usize) -> Vec<f64> {
        self.d.hold_input(n, true);
        let sound = self.d.listen(200.0, 50.0);
        self.d.hold_input(n, false);
        self.d.run_ms(50.0);
        sound
    }

    /// Enters `target`, one of `options` (the positions the person's legal moves leave from
    /// `pos`): the button of the coin that moves (counted from cell 1), pressed until the
    /// LEDs show it, each press showing another of the coin's moves.
    fn enter(&mut self, pos: &State, options: &[State], target: &State) {
        let from = self.moved_from(pos, target).expect("a coin leaves a cell, or a heap loses counters");
        let button = self.button(pos, from);
        let mut shown = Vec::new();
        for _ in 0..self.cells {
            self.d.press(button);
            let now = self.seen().cells;
            assert!(
                options.iter().any(|o| o.cells == now && self.moved_from(pos, o) == Some(from))
                    && !shown.contains(&now),
                "press {} of coin {button} from {:?} shows {now:?}: not another of its moves, in\n{}",
                shown.len() + 1,
                pos.cells,
                self.text
            );
            if now == target.cells {
                return;
            }
            shown.push(now);
        }
        panic!("coin {button}'s presses never showed {:?} from {:?}, in\n{}", target.cells, pos.cells, self.text);
    }
}

#[test]
fn generated_line_games_play_on_buttons_as_the_engine_reads_them() {
    play_generated(Kind::Line);
}

#[test]
fn generated_heap_games_play_on_buttons_as_the_engine_reads_them() {
    play_generated(Kind::Heaps);
}

fn play_generated(kind: Kind) {
    let (mut entered, mut denied) = (0, 0);
    for (game_path, board_path) in core_games(kind) {
        let (game, board) = (game_path.to_str().unwrap(), board_path.to_str().unwrap());
        let text = std::fs::read_to_string(game).unwrap();
        let def = device::grid_host::load(game);
        let (elf, target) = device::firmware(game, board);
        let heaps = def.rules.heaps().map(|_| def.rules.fixed_heaps().to_vec());
        let cells = def.rules.lights() as usize;
        let mut p = Play { engine: Engine::new(&def), d: Device::boot(&elf, &target), cells, heaps, text };
        p.d.run_ms(5.0);
        // Three games a file: after the end, GO plays again.
        for round in 0..3 {
            entered += play_round(&mut p, round, &mut denied);
        }
    }
    eprintln!("{GAMES} generated games of {kind:?}: {entered} moves entered, {denied} presses denied");
    assert!(entered >= 3 * GAMES && denied >= 3, "the games were played: {entered} moves, {denied} denials");
}

/// One game from the start, the person choosing among the engine's moves by `round`; the
/// moves entered.
fn play_round(p: &mut Play, round: usize, denied: &mut usize) -> usize {
    // The last game's end tune plays out first.
    p.d.run_ms(1000.0);
    p.d.press_commit();
    let mut pos = p.seen();
    for ply in 0..30 {
        if p.engine.outcome(&pos).is_some() {
            return ply;
        }
        let options: Vec<State> = p.engine.plies(&pos).into_iter().map(|m| p.engine.play(&pos, m)).collect();
        // A coin (or a heap) none of whose moves the engine allows is denied, the LEDs unchanged.
        let places: Vec<usize> = match p.heaps {
            None => (0..p.cells).filter(|&i| pos.cells[i] != 0).collect(),
            Some(_) => (0..pos.cells.len()).collect(),
        };
        let stuck = places.into_iter().find(|&c| options.iter().all(|o| p.moved_from(&pos, o) != Some(c)));
        if let Some(button) = stuck.map(|c| p.button(&pos, c)) {
            let sound = p.press_listening(button);
            assert!(heard(&sound, BEEP), "a coin without a move beeps: {sound:?}, in\n{}", p.text);
            assert_eq!(p.seen().cells, pos.cells, "and changes nothing, in\n{}", p.text);
            *denied += 1;
        }
        let after = options[(ply + round) % options.len()].clone();
        p.enter(&pos, &options, &after);
        // The LEDs read as soon as they change: at the end the last position shows while the
        // end tune plays, and the attract sweep after it; a searching device thinks first.
        p.d.press_commit();
        let after = State { to_move: 1, ..after };
        if p.engine.outcome(&after).is_some() {
            assert_eq!(p.seen().cells, after.cells, "the game ends on the person's move, in\n{}", p.text);
            return ply + 1;
        }
        let mut answer = p.seen();
        for _ in 0..300 {
            if answer.cells != after.cells {
                break;
            }
            p.d.run_ms(10.0);
            answer = p.seen();
        }
        let replies: Vec<Vec<u8>> =
            p.engine.plies(&after).into_iter().map(|m| p.engine.play(&after, m).cells).collect();
        assert!(
            replies.contains(&answer.cells),
            "the device's answer {:?} to {:?} is one the engine allows, in\n{}",
            answer.cells,
            after.cells,
            p.text
        );
        pos = answer;
    }
    30
}
