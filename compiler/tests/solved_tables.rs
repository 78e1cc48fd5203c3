//! The solved tables of games on the rule core (`gamec::engine::table`), read back through the
//! runtime's own lookup (`gamec_runtime::rules::solved`) as the device reads them: every
//! reachable position gets the value the solver gave it, for games of pieces that move, of
//! placements, on a line, impartial or not; and a game whose positions repeat gets no table.

use gamec::analyze::starts;
use gamec::engine::solve::{explore, Value, MAX_STATES};
use gamec::engine::table::keyed_table;
use gamec::engine::Engine;
use gamec_dsl::{GameDef, Sources};
use gamec_runtime::rules::solved::{Layout, Table, Value as Read};

fn load(text: &str) -> GameDef {
    let mut sources = Sources::new();
    let id = sources.add("game.game", text.to_string());
    gamec_dsl::load_game(&sources, id).unwrap_or_else(|d| panic!("{}", sources.render(&d)))
}

fn file(path: &str) -> String {
    std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Every position the solver reached reads back from the table as it was valued: lost and
/// drawn unfinished positions from their lists, the rest as won (a finished position is read
/// from the endings, not the table). How many keys the table holds.
fn reads_back(path: &str) -> usize {
    let game = load(&file(path));
    let engine = Engine::new(&game);
    let starts = starts(&engine, &game);
    let t = keyed_table(&engine, &starts).unwrap_or_else(|why| panic!("{path}: {why}"));
    let solved = explore(&engine, &starts, MAX_STATES).unwrap();
    let layout = Layout { alphabet: &t.alphabet, bits: t.bits, turn_bits: t.turn_bits, pass: t.pass, len: t.len };
    let table = Table { layout, lost: &t.lost, drawn: &t.drawn, ties_random: false };
    engine.with_game(|g| {
        for (i, s) in solved.states.iter().enumerate() {
            let read = table.value(&layout.key(&g.rules.geometry, &s.cells, s.to_move, s.passed));
            let want = match solved.values[i] {
                Value::Loss(_) if !solved.terminal[i] => Read::Lost,
                Value::Draw => Read::Drawn,
                _ => Read::Won,
            };
            assert_eq!(read, want, "{path}: position {i} {:?}", s.cells);
        }
    });
    (t.lost.len() + t.drawn.len()) / t.len as usize
}

#[test]
fn every_position_reads_back_as_the_solver_valued_it() {
    assert_eq!(reads_back("games/hexapawn.game"), 15, "Hexapawn's unfinished lost positions");
    // Placements with draws, on a grid; an impartial game on a line, whose keys leave out the
    // turn; slides from many dealt starts.
    assert!(reads_back("games/tictactoe.game") > 1000);
    assert!(reads_back("compiler/tests/games/kayles_thirteen.game") > 0);
    assert!(reads_back("games/silver_dollar.game") > 0);
    // Heaps: a key of their counts.
    assert!(reads_back("games/nim.game") > 0);
}

#[test]
fn an_impartial_game_keys_no_turn_and_a_partisan_one_does() {
    let turn_bits = |path: &str| {
        let game = load(&file(path));
        let engine = Engine::new(&game);
        keyed_table(&engine, &starts(&engine, &game)).unwrap().turn_bits
    };
    assert_eq!(turn_bits("compiler/tests/games/kayles_thirteen.game"), 0);
    assert_eq!(turn_bits("games/hexapawn.game"), 1);
}

/// Kings that step back and forth: play can go round for ever, and a table of values alone
/// could send a winning device round a cycle, so there is none.
const KINGS: &str = "game kings {
  players white, black
  first white
  board grid 3 x 3
  pieces king per player
  setup fixed { white at A1  black at C3 }
  action walk = step king orthogonally to empty
  action take = step king diagonally to enemy
  end { no moves -> mover wins }
  strategy black = perfect
}";

#[test]
fn a_game_whose_positions_repeat_gets_no_table() {
    let game = load(KINGS);
    let engine = Engine::new(&game);
    let why = keyed_table(&engine, &starts(&engine, &game)).expect_err("kings can walk round");
    assert!(why.contains("repeat"), "{why}");
}

#[test]
fn a_board_refuses_a_perfect_device_whose_game_repeats_at_its_strategy() {
    let kings = KINGS.replace(
        "  strategy black = perfect\n",
        "  strategy black = perfect\n  controls { across -> cursor across\n down -> cursor down\n select -> commit }\n  \
         feedback { show cells = colours { white = red, black = green }\n cursor blinks 200 ms, given yellow }\n",
    );
    let mut sources = Sources::new();
    let gf = sources.add("kings.game", kings);
    let bf = sources.add("hexapawn_atmega128.board", file("boards/hexapawn_atmega128.board"));
    let game = gamec_dsl::load_game(&sources, gf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let board = gamec_dsl::load_board(&sources, bf).unwrap();
    let d = gamec::bind::bind(&game, gf, &board, bf).expect_err("refused");
    let shown = sources.render(&d);
    assert!(shown.contains("error[E0115]") && shown.contains("repeat"), "{shown}");
    assert!(shown.contains("kings.game:10:"), "at the strategy's line: {shown}");
}
