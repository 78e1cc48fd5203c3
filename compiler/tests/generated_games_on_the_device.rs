//! Generated games of moving pieces (tests/support/random_games.rs: steps, jumps, rides,
//! captures, chains, promotion, cut corners, drawn at random) that `check` accepts, given a
//! cursor and built for the Binario board: played in simavr as a person would, every move the
//! engine allows entered a cell at a time and accepted, cells that start no move denied, and
//! every position the device shows one the engine reaches. A file whose rules and firmware
//! disagree fails here.

mod device;
#[path = "support/random_games.rs"]
#[allow(dead_code)]
mod random_games;

use device::cursor_duel::{self, CursorDuel};
use gamec_dsl::Sources;
use std::path::{Path, PathBuf};

/// The same seed as the host's property test of these games (rule_core_games.rs).
const SEED: u64 = 0x00C0_2E5A;
/// Games of this many accepted files are built and played.
const GAMES: usize = 6;

/// The cursor's interface for a generated game: the person white, the device black at random.
const INTERFACE: &str = "
  strategy black = random
  controls {
    across -> cursor across
    down -> cursor down
    select -> commit
    reset -> restart
  }
  feedback {
    show cells = colours { white = red, black = green }
    cursor blinks 200 ms, given yellow
    on denied -> tune denied
  }
  tune denied { G3/90 rest/50 G3/90 }
}
";

/// The first `GAMES` generated games `check` accepts, with the interface, written beside the
/// test's firmware with a Binario board each: (game path, board path).
fn accepted_games() -> Vec<(PathBuf, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/gamec-tests/generated");
    std::fs::create_dir_all(&root).unwrap();
    let wiring =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../boards/breakthrough_atmega128.board"))
            .unwrap();
    let wiring = &wiring[wiring.find("\nboard ").unwrap() + 1..];
    let mut out = Vec::new();
    for i in 0.. {
        let g = random_games::generate_moving(SEED, i);
        let text = format!("{}{INTERFACE}", g.game.trim_end().strip_suffix('}').unwrap());
        let mut sources = Sources::new();
        let gf = sources.add("gen.game", text.clone());
        if gamec::check(&sources, &[gf]).is_err() {
            continue;
        }
        let name = format!("moving{i}");
        let board = wiring.replacen("board breakthrough_atmega128", &format!("board {name}_atmega128"), 1);
        let (game_path, board_path) = (root.join(format!("{name}.game")), root.join(format!("{name}_atmega128.board")));
        std::fs::write(&game_path, &text).unwrap();
        std::fs::write(&board_path, board).unwrap();
        out.push((game_path, board_path));
        if out.len() == GAMES {
            return out;
        }
    }
    unreachable!()
}

/// One game from the start: the person's moves at random from `seed`, a denied press before
/// each; how many moves were entered and presses denied.
fn play_round(p: &mut CursorDuel, mut seed: u64, text: &str) -> (usize, usize) {
    let (mut entered, mut denied) = (0, 0);
    for ply in 0..40 {
        if p.engine.outcome(&p.state).is_some() || p.state.to_move != 0 {
            break;
        }
        // A cell that starts none of the person's moves is denied, the board unchanged.
        let starts: Vec<usize> = p.legal().into_iter().map(|m| device::cursor_duel::cells_of(m)[0]).collect();
        let cells = p.engine.with_game(|g| {
            let geo = g.rules.geometry;
            (0..geo.rows as usize * geo.stride as usize).filter(|&c| geo.on_board(c as u8)).collect::<Vec<_>>()
        });
        if let Some(&idle) = cells.iter().find(|c| !starts.contains(c)) {
            let pitch = p.press_at(idle);
            denied += 1;
            assert!(cursor_duel::denied(pitch), "ply {ply}: a press on {idle} is denied ({pitch} Hz) in\n{text}");
            let picture = p.picture(&p.state);
            p.assert_shows(&picture, &format!("ply {ply}: unchanged after a denied press, in\n{text}"));
        }
        // One of the engine's moves at random, entered a cell at a time.
        let legal = p.legal();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let m = legal[(seed % legal.len() as u64) as usize];
        p.enter(m);
        entered += 1;
        if p.engine.outcome(&p.state).is_none() {
            p.device_answers();
        }
    }
    // The end: the grid blinks to the winner's colour (yellow for a draw).
    if let Some(o) = p.engine.outcome(&p.state) {
        let winner = p.result_colour();
        assert!(p.shows_the_result(winner), "the result ({o:?}) shows, in\n{text}");
    }
    (entered, denied)
}

#[test]
fn generated_games_play_on_the_device_as_the_engine_reads_them() {
    let (mut entered, mut denied) = (0, 0);
    for (game, board) in accepted_games() {
        let (game, board) = (game.to_str().unwrap(), board.to_str().unwrap());
        let text = std::fs::read_to_string(game).unwrap();
        let mut p = CursorDuel::boot(game, board);
        let start = p.picture(&p.state);
        p.assert_shows(&start, &format!("the start of\n{text}"));
        // Two games a file: after the end a press plays again from the start.
        for round in 0..2u64 {
            if round > 0 {
                if p.engine.outcome(&p.state).is_none() {
                    break;
                }
                p.play_again();
                p.state = p.engine.fixed_start(&device::grid_host::load(game));
                p.assert_shows(&start, &format!("the start again of\n{text}"));
            }
            let (e, d) = play_round(&mut p, 0x5EED + round, &text);
            (entered, denied) = (entered + e, denied + d);
        }
    }
    eprintln!("{GAMES} generated games: {entered} moves entered, {denied} presses denied");
    assert!(entered >= 2 * GAMES, "the games were played: {entered} moves entered");
}
