//! Files `check` accepts on which a command once ran without end or panicked in a build with
//! overflow checks: perft past the end of every game, a deck's groups of eight counted one
//! combination at a time, a card attribute as wide as the code. Each command is run as a user
//! runs it (the `gamec` binary) under a time limit.

use gamec::codegen::{self, Origin};
use gamec_dsl::Sources;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root(rel: &str) -> String {
    format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// What a run of `gamec` gave: its exit code, standard output and standard error.
struct Run {
    code: Option<i32>,
    out: String,
    err: String,
}

/// Runs `gamec ARGS`, killing it and failing the test if it is still running after `limit`.
fn gamec(args: &[&str], limit: Duration) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamec"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read both pipes on threads, so that a chatty run cannot block on a full pipe.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || std::io::read_to_string(&mut stdout).unwrap());
    let err = std::thread::spawn(move || std::io::read_to_string(&mut stderr).unwrap());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("`gamec {}` was still running after {limit:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Run { code: status.code(), out: out.join().unwrap(), err: err.join().unwrap() }
}

/// A directory of this test's own for written files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamec-overflow-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A shipped game with one edit, written where the CLI can read it.
fn edited(game: &str, from: &str, to: &str, dir: &Path) -> String {
    let text = std::fs::read_to_string(root(game)).unwrap();
    assert!(text.contains(from), "fixture: {from}");
    let path = dir.join(Path::new(game).file_name().unwrap());
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    path.to_str().unwrap().to_string()
}

const MINUTE: Duration = Duration::from_secs(60);

#[test]
fn perft_stops_once_every_game_is_over_whatever_depth_is_asked() {
    // Tic-tac-toe's games end by the ninth ply; the depths after it count the same leaves
    // again, so the asked 4,294,967,295 depths once ran for ever.
    let tictactoe = root("games/tictactoe.game");
    let run = gamec(&["perft", &tictactoe, "--depth", "4294967295"], MINUTE);
    assert_eq!(run.code, Some(0), "{}", run.err);
    let depths: Vec<&str> = run.out.lines().filter(|l| l.starts_with("depth")).collect();
    assert_eq!(depths.len(), 9, "{}", run.out);
    assert_eq!(depths[8], "depth  9: 255168", "{}", run.out);
    assert!(run.out.contains("every game is over within 9 plies"), "{}", run.out);
    // Asked for less, it counts what was asked.
    let run = gamec(&["perft", &tictactoe, "--depth", "3"], MINUTE);
    assert_eq!(run.out.lines().filter(|l| l.starts_with("depth")).count(), 3, "{}", run.out);
    assert!(!run.out.contains("every game is over"), "{}", run.out);
}

#[test]
fn every_command_finishes_on_groups_of_eight_cards() {
    // C(81, 8) = 32,164,253,550 combinations: `analyze` was still counting after 600 s.
    let dir = scratch("eight");
    let set = edited("games/set.game", "group set = 3 cards", "group set = 8 cards", &dir);
    let check = gamec(&["check", &set], MINUTE);
    assert_eq!(check.code, Some(0), "{}", check.err);

    let analyze = gamec(&["analyze", &set], MINUTE);
    assert_eq!(analyze.code, Some(0), "{}", analyze.err);
    assert!(analyze.out.contains("deck:                               81 cards"), "{}", analyze.out);
    assert!(
        analyze.out.contains(
            "sets of 8 in the deck:              not counted: 32,164,253,550 combinations of 8 of the 81 cards, \
             more than the 10,000,000 `analyze` tries"
        ),
        "{}",
        analyze.out
    );

    let perft = gamec(&["perft", &set], MINUTE);
    assert_eq!(perft.code, Some(1));
    assert!(perft.err.contains("error[E0006]: perft counts move paths; a game of cards has no moves"), "{}", perft.err);

    let test = gamec(&["test", &set], MINUTE);
    assert_eq!(test.code, Some(0), "{}", test.err);
    assert!(test.out.contains("0 passed, 0 failed"), "{}", test.out);

    let generate = gamec(&["generate", &set], MINUTE);
    assert_eq!(generate.code, Some(1));
    assert!(generate.err.contains("error[E0022]"), "{}", generate.err);

    let out = dir.join("stickers");
    let stickers = gamec(&["stickers", &set, "-o", out.to_str().unwrap()], MINUTE);
    assert_eq!(stickers.code, Some(0), "{}", stickers.err);
    assert!(stickers.out.contains("wrote 81 stickers"), "{}", stickers.out);

    // Set's own groups of three are still counted: 1,080 in the deck.
    let analyze = gamec(&["analyze", &root("games/set.game")], MINUTE);
    assert!(analyze.out.contains("sets of 3 in the deck:              1080"), "{}", analyze.out);
}

#[test]
fn a_card_attribute_as_wide_as_the_code_is_read_and_rendered() {
    // `bits 31..0` is a 32-bit field: its mask was `(1 << 32) - 1`, which overflows.
    let dir = scratch("wide");
    let attributes = "        quantity = one, two, three at bits 1..0
        filling = empty, solid, striped at bits 3..2
        colour = purple, red, green at bits 5..4
        shape = wave, rhombus, oval at bits 7..6";
    let set = edited("games/set.game", attributes, "        quantity = one, two, three at bits 31..0", &dir);
    let analyze = gamec(&["analyze", &set], MINUTE);
    assert_eq!(analyze.code, Some(0), "{}", analyze.err);
    assert!(analyze.out.contains("deck:                               3 cards"), "{}", analyze.out);
    assert!(analyze.out.contains("sets of 3 in the deck:              1"), "{}", analyze.out);
    let out = dir.join("stickers");
    let stickers = gamec(&["stickers", &set, "-o", out.to_str().unwrap()], MINUTE);
    assert_eq!(stickers.code, Some(0), "{}", stickers.err);
    assert!(stickers.out.contains("wrote 3 stickers"), "{}", stickers.out);

    // The firmware's fields: the whole code is the attribute.
    let mut sources = Sources::new();
    let gf = sources.add("set.game", std::fs::read_to_string(&set).unwrap());
    let game = gamec_dsl::load_game(&sources, gf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let code = codegen::cards_module(&game, Origin::of(&sources, gf));
    assert!(code.contains("(0, 4294967295, 3)"), "{code}");
}

#[test]
fn the_evaluations_limit_is_one_below_the_searchs_win() {
    // The limit the compiler checks an `eval` against, and the score the runtime's search gives
    // a finished game, must move together.
    assert_eq!(gamec_dsl::EVAL_LIMIT + 1, gamec_runtime::search::WIN as u32);
}

#[test]
fn an_eval_comparison_at_its_features_reach_is_generated_as_written() {
    // At the most each feature reaches on 8 x 8: 64 empty cells, 4 corners. Out of range they are refused (dsl/tests/numbers_and_names.rs); in
    // range the 16-bit comparison is the file's own, on both representations.
    let text = std::fs::read_to_string(root("games/othello.game"))
        .unwrap()
        .replacen("when empty > 40", "when empty >= 64", 1)
        .replacen("when empty > 12", "when corners >= 4", 1);
    let mut sources = Sources::new();
    let gf = sources.add("othello.game", text);
    let game = gamec_dsl::load_game(&sources, gf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let bits = codegen::grid_module(&game, Origin::of(&sources, gf), codegen::Representation::Bitboards);
    assert!(bits.contains("if pos.empty(&GRID) >= 64 {"), "{bits}");
    assert!(bits.contains("else if pos.diff(REGION_CORNERS) >= 4 {"), "{bits}");
    let bytes = codegen::grid_module(
        &game,
        Origin::of(&sources, gf),
        codegen::Representation::ByteBoard { roomy: false, multiplies: true },
    );
    assert!(bytes.contains("(b.empties as i16) >= 64"), "{bytes}");
}

#[test]
fn generate_refuses_a_count_past_its_limit_instead_of_overflowing() {
    // `--count 18446744073709551615` times 40 tries a start overflowed (a panic with overflow
    // checks) and would have run for ever without them.
    let binario = root("games/binario.game");
    let run = gamec(&["generate", &binario, "--count", "18446744073709551615"], MINUTE);
    assert_eq!(run.code, Some(2), "{}", run.err);
    assert!(!run.err.contains("panicked"), "{}", run.err);
    assert!(run.err.contains("--count"), "{}", run.err);
    let run = gamec(&["generate", &binario, "--count", "10001"], MINUTE);
    assert_eq!(run.code, Some(2), "{}", run.err);
    let run = gamec(&["generate", &binario, "--count", "2"], MINUTE);
    assert_eq!(run.code, Some(0), "{}", run.err);
    assert_eq!(run.out.matches("setup fixed").count(), 2, "{}", run.out);
}

#[test]
fn a_display_tick_on_a_timer_the_chips_glue_does_not_drive_is_refused() {
    // The ATtiny84A's glue ticks on Timer/Counter0 with a byte's top. A display on timer1 at
    // 100 Hz was accepted: its top of 9,999 became 15 in the generated board (`as u8`), timer0
    // was programmed with it, and the handler sat on timer1's interrupt, never enabled.
    let game: String = std::fs::read_to_string(root("games/silver_dollar.game"))
        .unwrap()
        .lines()
        .filter(|l| !l.contains("tune"))
        .map(|l| format!("{l}\n"))
        .collect();
    let board = std::fs::read_to_string(root("boards/silver_dollar_attiny84.board")).unwrap();
    let speaker = board.lines().find(|l| l.trim_start().starts_with("speaker")).unwrap().to_string();
    let board = board.replacen(&speaker, "", 1);
    let check = |board: &str| check_pair(&game, board);
    assert!(check(&board).0, "{}", check(&board).1);
    let on_timer1 = board.replacen("refresh 1000 Hz, timer0", "refresh 100 Hz, timer1", 1);
    let (ok, out) = check(&on_timer1);
    assert!(!ok, "{out}");
    assert!(out.contains("error[E0108]: timer1 cannot drive a tick on the attiny84a"), "{out}");
    assert!(out.contains("help: use timer0"), "{out}");
}

/// `gamec perft ... | head -2`: the reader goes away after two lines, and the command ends
/// quietly instead of panicking on the closed pipe (as `println!` does).
#[test]
fn output_into_a_closed_pipe_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamec"))
        .args(["perft", &root("games/connect_four.game"), "--depth", "9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "depth  1: 7");
    drop(lines);
    let status = child.wait().unwrap();
    let err = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(status.code(), Some(0), "{err}");
}

/// The ATmega128 wakes from power-down only on its external interrupts' pins: a wake control
/// elsewhere is refused at its pin, the help naming the pins that would do; on an INT pin it
/// checks.
#[test]
fn a_wake_control_on_a_pin_without_a_wake_interrupt_is_refused_naming_those_with_one() {
    let game = std::fs::read_to_string(root("games/silver_dollar.game")).unwrap();
    let board = std::fs::read_to_string(root("boards/silver_dollar_atmega128.board")).unwrap();
    let check = |board: &str| check_pair(&game, board);
    assert!(check(&board).0, "{}", check(&board).1);
    assert!(check(&board.replacen("go = PD0", "go = PE7", 1)).0, "INT7 wakes it too");
    let (ok, out) = check(&board.replacen("go = PD0", "go = PD4", 1));
    assert!(!ok, "{out}");
    assert!(out.contains("error[E0110]: PD4 cannot wake the atmega128 from sleep"), "{out}");
    assert!(out.contains("PD0, PD1, PD2, PD3, PE4, PE5, PE6, PE7"), "{out}");
}

/// Buttons and one-colour lights show whether a cell holds anything: a game whose cells hold
/// either player's pieces is refused with E0118 at the game, saying why; the same rules with
/// a cursor on the bicolour matrix build (hexapawn_device.rs).
#[test]
fn a_game_of_two_players_pieces_on_one_colour_lights_is_refused() {
    let game = std::fs::read_to_string(root("games/hexapawn.game")).unwrap();
    let controls = &game[game.find("  controls {").unwrap()..game.find("  tune denied").unwrap()];
    let buttons = "  controls {\n    pawn_button[i] -> extend advance(pawn[i])\n    go -> commit\n  }\n  feedback {\n    show cells = occupied\n    on denied -> tune denied\n  }\n";
    let game = game.replacen(controls, buttons, 1);
    let board = std::fs::read_to_string(root("boards/silver_dollar_atmega128.board")).unwrap();
    let board: String = board
        .lines()
        .filter(|l| {
            !l.contains("= PA")
                || l.contains("charlieplex")
                || (1..=9).any(|n| l.trim_start().starts_with(&format!("{n} =")))
        })
        .map(|l| l.replace("move[", "pawn_button[").replace("budget flash 2400, ram 128, stack 64", "") + "\n")
        .filter(|l| !l.contains("pawn_button[4]") && !l.contains("pawn_button[5]"))
        .collect();
    let mut sources = Sources::new();
    let gf = sources.add("hexapawn.game", game);
    let bf = sources.add("board.board", board);
    let out = match gamec::check(&sources, &[gf, bf]) {
        Ok(d) => panic!("accepted: {}", sources.render(&d)),
        Err(d) => sources.render(&d),
    };
    assert!(out.contains("error[E0118]") && out.contains("holds anything"), "{out}");
    assert!(out.contains("help: play it over a serial line"), "{out}");
}

/// The matrix shows 8 x 8 cells: a row of nine pins with a cursor is refused with E0118 at the
/// game, saying so and where it plays; eight check.
#[test]
fn a_line_longer_than_the_matrix_is_refused_by_what_the_display_shows() {
    let game = std::fs::read_to_string(root("games/kayles.game")).unwrap();
    let board = std::fs::read_to_string(root("boards/kayles_atmega128.board")).unwrap();
    let check = |game: &str| check_pair(game, &board);
    assert!(check(&game).0, "{}", check(&game).1);
    let nine = game.replacen("board line 8", "board line 9", 1);
    let (ok, out) = check(&nine);
    assert!(!ok, "{out}");
    assert!(out.contains("error[E0118]: a line of 9 cells is more than the 8 a row of the matrix shows"), "{out}");
    assert!(out.contains("help: play it over a serial line"), "{out}");
}

/// A game of two players with a cursor and no `strategy` builds: the device plays the side
/// that does not move first, searching with the default evaluation (it was once refused: "the
/// device needs a strategy").
#[test]
fn a_cursor_game_without_a_strategy_has_the_device_search() {
    let game = std::fs::read_to_string(root("games/hexapawn.game")).unwrap();
    let game = game.replacen("  strategy black = perfect, ties random\n", "", 1);
    let board = std::fs::read_to_string(root("boards/hexapawn_atmega128.board")).unwrap();
    let mut sources = Sources::new();
    let gf = sources.add("hexapawn.game", game);
    let bf = sources.add("board.board", board);
    let (gd, bd) = (gamec_dsl::load_game(&sources, gf).unwrap(), gamec_dsl::load_board(&sources, bf).unwrap());
    let target = gamec::bind::bind(&gd, gf, &bd, bf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let duel = target.cursor.as_ref().and_then(|c| c.duel.as_ref()).expect("a duel");
    assert_eq!(duel.device, Some(1), "black, who moves second");
    assert!(target.rules_core.is_some() && target.core_table.is_none(), "searched on the core, no table");
}

/// `gamec check` of a game and a board given as text: whether it passed, and what it said.
fn check_pair(game: &str, board: &str) -> (bool, String) {
    let mut sources = Sources::new();
    let gf = sources.add("game.game", game.to_string());
    let bf = sources.add("board.board", board.to_string());
    let result = gamec::check(&sources, &[gf, bf]);
    let out = match &result {
        Ok(d) | Err(d) => sources.render(d),
    };
    (result.is_ok(), out)
}

/// Five on sixteen with its stones riding like rooks from a row a side, on the `columns`
/// given, a player without a move losing; its tests left out (they place stones).
fn riders_on_sixteen(columns: &str) -> String {
    let game = std::fs::read_to_string(root("compiler/tests/games/five_on_sixteen.game")).unwrap();
    let game = &game[..game.find("  test \"").unwrap()];
    let setup = |row: u8| columns.chars().map(|c| format!("{c}{row}")).collect::<Vec<_>>().join(", ");
    let rides = format!(
        "setup fixed {{\n    black at {}\n    white at {}\n  }}\n  action go = ride stone orthogonally to empty\n  \
         action take = ride stone orthogonally to enemy",
        setup(1),
        setup(16)
    );
    let game = game.replacen("action place = place stone on empty", &rides, 1);
    format!("{}}}\n", game.replacen("line of 5 -> mover wins", "no moves -> mover loses", 1))
}

/// A position with more moves than a move's byte indexes is refused with what random play
/// met, and rules whose bound passes it where play never does build with a warning: the
/// moves past the 256th were once dropped without a word.
#[test]
fn moves_past_the_firmwares_count_are_refused_or_warned_of() {
    let board = std::fs::read_to_string(root("compiler/tests/boards/wide_serial_netduinoplus2.board")).unwrap();
    let (ok, out) = check_pair(&riders_on_sixteen("ABCDEFGHIJKLMNOP"), &board);
    assert!(!ok, "{out}");
    let seen: usize = out
        .split("random play offers ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("E0120 with the count: {out}"));
    assert!(out.contains("error[E0120]") && seen > 256, "{out}");

    let (ok, out) = check_pair(&riders_on_sixteen("AFKP"), &board);
    assert!(ok, "{out}");
    assert!(out.contains("warning[W0025]: the rules give a bound of 512 on a position's moves"), "{out}");
    // Four rooks a side never offer more than 4 x 30 moves, captures included.
    assert!(out.contains("100 random games offered at most 1"), "{out}");
}

/// A solved table past the solver's limit is refused with the figure, as a measurement
/// (E0122, beside the rule lints' E0018 for a `perfect` device), and nothing else.
#[test]
fn a_solved_table_too_large_is_refused_with_its_figure() {
    let game = std::fs::read_to_string(root("compiler/tests/games/five_on_sixteen.game")).unwrap();
    let game = game.replacen("strategy device = search, deepening", "strategy device = perfect", 1);
    let board = std::fs::read_to_string(root("compiler/tests/boards/wide_serial_netduinoplus2.board")).unwrap();
    let (ok, out) = check_pair(&game, &board);
    assert!(!ok, "{out}");
    assert!(out.contains("error[E0122]: the solved table does not fit: a solved table needs every reachable position, and this game has more than 200,000"), "{out}");
    assert_eq!(out.matches("error[").count(), out.matches("error[E0018]").count() + 1, "{out}");
}
