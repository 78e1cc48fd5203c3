//! Kalah and Oware (games/kalah.game, games/oware.game) over the serial line of
//! qemu-system-arm's netduinoplus2, played as a person at a terminal would: every board the
//! device prints is held to the compiler's engine, every device move must be legal there, a
//! Kalah move that ends in the mover's store gives the same side the next move (the host is
//! asked again; the device answers twice), and garbage and illegal moves change nothing. A
//! small Kalah with a `perfect` device (compiler/tests/games/kalah_small.game) answers each
//! move with one the solver ranks best, reading a move that keeps its turn as its own.

#[path = "support/pits_board.rs"]
mod pits_board;
#[allow(dead_code)]
mod qemu;
#[path = "support/random_games.rs"]
#[allow(dead_code)]
mod random_games;
#[allow(dead_code)]
#[path = "support/serial_host.rs"]
mod serial_host;

use gamec::engine::solve::{explore, Solved, MAX_STATES};
use gamec::engine::Outcome;
use serial_host::Host;

const TOP: &str = "    13 12 11 10  9  8";

/// Reads the board, its first line `first` if already read, and checks it against the host's
/// game.
fn board(h: &mut Host, first: Option<String>) {
    let top = first.unwrap_or_else(|| h.line());
    let (engine, state) = (h.engine.clone(), h.state.clone());
    pits_board::check(&engine, &state, &top, || h.line());
}

/// The device's turn: one move or more (each `MM n` acknowledged), then the board and the
/// host's prompt, or the end. Returns the last line read, and how many moves it made. With
/// the game `solved`, each move must be among those the solver ranks best.
fn device_turn(h: &mut Host, mut line: String, solved: Option<&Solved>) -> (String, u32) {
    let mut moves = 0;
    while let Some(text) = line.strip_prefix("MM ") {
        let mover = h.state.to_move;
        assert_eq!(mover, 1, "the device moves on north's turn only");
        let before = h.state.clone();
        let m = h.device_move(&format!("MM {text}"));
        if let Some(solved) = solved {
            let best = h.engine.best_plies(solved, &before);
            assert!(best.contains(&m), "MM {text} is not among the best in\n{}", h.engine.show(&before));
        }
        moves += 1;
        h.send("OK");
        line = h.line();
        if h.state.to_move == 1 && h.engine.outcome(&h.state).is_none() {
            // A seed in its own store: the device moves again, with no board between.
            assert!(line.starts_with("MM "), "north is to move again, got {line:?}");
        }
    }
    assert!(moves > 0 || h.engine.outcome(&h.state).is_some(), "the device made no move: {line:?}");
    (line, moves)
}

/// Plays `games` games at random against the device from the start (the first already on
/// screen, its prompt read), and returns their results (`WN`, `LS`, `TE`) and how many of the
/// device's turns took more than one move.
fn play_games(h: &mut Host, game_file: &str, games: usize, solved: Option<&Solved>) -> (Vec<String>, u32) {
    let (mut outcomes, mut twice) = (Vec::new(), 0);
    for game in 0..games {
        if game > 0 {
            h.send("NG");
            h.state = serial_host::engine(game_file).1;
            let first = h.line();
            let first = if first.starts_with("MM ") { device_turn(h, first, solved).0 } else { first };
            board_or_end(h, first);
        }
        loop {
            h.move_at_random();
            let mut line = h.line();
            if line.starts_with("MM ") {
                let moves;
                (line, moves) = device_turn(h, line, solved);
                twice += u32::from(moves > 1);
            }
            // At the end, the score first where the game says it: each side's store and pits.
            if let Some(score) = line.strip_prefix("Final score: device ") {
                let c = &h.state.cells;
                let half = c.len() / 2;
                let (north, south) = (c[half..].iter().sum::<u8>(), c[..half].iter().sum::<u8>());
                assert_eq!(score, format!("{north}, you {south}"), "{}", h.engine.show(&h.state));
                line = h.line();
            }
            // The board, then the prompt or the result.
            board(h, Some(line));
            let verdict = h.line();
            match verdict.as_str() {
                "Your move" => {
                    assert_eq!(h.state.to_move, 0, "south's turn");
                    continue;
                }
                "WN" | "LS" | "TE" => {
                    let want = match verdict.as_str() {
                        "WN" => Some(Outcome::Win(1)),
                        "LS" => Some(Outcome::Win(0)),
                        _ => Some(Outcome::Draw),
                    };
                    assert_eq!(h.engine.outcome(&h.state), want, "{}", h.engine.show(&h.state));
                    outcomes.push(verdict);
                    h.send("OK");
                    break;
                }
                other => panic!("{other:?} after the board"),
            }
        }
    }
    (outcomes, twice)
}

#[test]
fn generated_sowing_games_play_at_a_terminal_as_their_engine_does() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/gamec-tests/generated");
    std::fs::create_dir_all(&root).unwrap();
    for i in 0..3 {
        let (g, _) = random_games::generate_sowing(0x50_77, i);
        let (game, board) = (root.join(format!("sowing{i}.game")), root.join(format!("sowing{i}_netduinoplus2.board")));
        std::fs::write(&game, &g.game).unwrap();
        std::fs::write(&board, &g.board).unwrap();
        let game = game.display().to_string();
        let (mut h, first) = Host::start(&game, &board.display().to_string());
        // North, the device, may move first.
        let first = if first.starts_with("MM ") { device_turn(&mut h, first, None).0 } else { first };
        board_or_end(&mut h, first);
        let (outcomes, _) = play_games(&mut h, &game, 1, None);
        assert_eq!(outcomes.len(), 1, "{}", g.game);
    }
}

/// After the device's opening: the board and the host's prompt.
fn board_or_end(h: &mut Host, line: String) {
    board(h, Some(line));
    h.expect("Your move");
}

#[test]
fn kalah_at_a_terminal_turns_pass_or_stay_as_the_last_seed_lands() {
    const GAME: &str = "games/kalah.game";
    let mut h = Host::boot(GAME, "boards/kalah_netduinoplus2.board", TOP);
    board(&mut h, Some(TOP.into()));
    h.expect("Your move");
    // North's pit, a store, no pit at all, pit zero, not a number: nothing changes.
    for (line, answer) in [("MV 8", "IL"), ("MV 7", "IL"), ("MV 29", "IL"), ("MV 0", "ER"), ("MV x", "ER")] {
        h.send(line);
        h.expect(answer);
    }
    // Pit 3's four seeds end in the store: the host is asked again, with the board.
    h.send("MV 3");
    h.play(h.engine.parse_move(&h.state, "3").unwrap());
    h.expect("OK");
    board(&mut h, None);
    h.expect("Your move");
    let (outcomes, twice) = play_games(&mut h, GAME, 2, None);
    // The device's search beats a person who moves at random, and took its extra moves.
    assert!(outcomes.iter().all(|o| o == "WN"), "{outcomes:?}");
    assert!(twice > 0, "the device never moved twice in a turn");
}

#[test]
fn oware_at_a_terminal_captures_back_along_a_side_and_never_moves_twice() {
    const GAME: &str = "games/oware.game";
    let mut h = Host::boot(GAME, "boards/oware_netduinoplus2.board", TOP);
    board(&mut h, Some(TOP.into()));
    h.expect("Your move");
    for (line, answer) in [("MV 9", "IL"), ("MV 14", "IL"), ("MV 6:1", "ER")] {
        h.send(line);
        h.expect(answer);
    }
    let (outcomes, twice) = play_games(&mut h, GAME, 1, None);
    assert_eq!(twice, 0, "an Oware move never keeps the turn");
    assert_eq!(outcomes, ["WN"], "the device's search beats a person who moves at random");
}

#[test]
fn a_perfect_device_reads_a_move_that_keeps_its_turn_as_its_own() {
    const GAME: &str = "compiler/tests/games/kalah_small.game";
    let def = serial_host::load(GAME);
    let (mut h, top) = Host::start(GAME, "compiler/tests/boards/serial_netduinoplus2.board");
    let solved = explore(&h.engine, &gamec::analyze::starts(&h.engine, &def), MAX_STATES).unwrap();
    board(&mut h, Some(top));
    h.expect("Your move");
    let (outcomes, twice) = play_games(&mut h, GAME, 6, Some(&solved));
    assert!(outcomes.iter().any(|o| o == "WN"), "the device never won against random moves: {outcomes:?}");
    assert!(twice > 0, "the device never moved twice in a turn");
}
