//! The solved tables of games on the rule core (`gamec::engine::table`), read back through the
//! runtime's own lookup (`gamec_runtime::rules::solved`) as the device reads them: every
//! reachable position gets the value the solver gave it, for games of pieces that move, of
//! placements, on a line, impartial or not; and a game whose positions repeat keeps, per lost
//! position, how far it is from its end.

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
    reads_back_from(path, &Engine::new(&game), &game)
}

fn reads_back_from(path: &str, engine: &Engine, game: &GameDef) -> usize {
    let engine = engine.clone();
    let starts = starts(&engine, game);
    let t = keyed_table(&engine, &starts).unwrap_or_else(|why| panic!("{path}: {why}"));
    let solved = explore(&engine, &starts, MAX_STATES).unwrap();
    let layout = Layout { alphabet: &t.alphabet, bits: t.bits, turn_bits: t.turn_bits, pass: t.pass, len: t.len };
    let table = Table {
        layout,
        lost: &t.lost,
        lost_plies: &t.lost_plies,
        won: &t.won,
        won_plies: &t.won_plies,
        drawn: &t.drawn,
        ties_random: false,
    };
    engine.with_game(|g| {
        for (i, s) in solved.states.iter().enumerate() {
            let mut key = vec![0; t.len as usize];
            layout.key(&g.rules.geometry, &s.cells, s.to_move, s.passed, &mut key);
            let read = table.value(&key);
            let want = match solved.values[i] {
                // The distance where play repeats, 0 where the table keeps none.
                Value::Loss(n) if !solved.terminal[i] => Read::Lost(if solved.repeats { n } else { 0 }),
                Value::Draw => Read::Drawn,
                // A won position's distance only where play repeats and a move keeps the turn.
                Value::Win(n) if !solved.terminal[i] && solved.repeats && engine.again => Read::Won(n),
                _ => Read::Won(0),
            };
            assert_eq!(read, want, "{path}: position {i} {:?}", s.cells);
        }
    });
    (t.lost.len() + t.won.len() + t.drawn.len()) / t.len as usize
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

/// Kings that step back and forth: play can go round for ever, so the table keeps each lost
/// position's distance from its end, and reads back with it.
#[test]
fn a_game_whose_positions_repeat_keeps_its_lost_positions_distances() {
    assert!(reads_back("compiler/tests/games/kings_walk.game") > 0);
    let game = load(&file("compiler/tests/games/kings_walk.game"));
    let engine = Engine::new(&game);
    let t = keyed_table(&engine, &starts(&engine, &game)).unwrap();
    assert_eq!(t.lost_plies.len(), 2 * t.lost.len() / t.len as usize, "a distance a lost key, in a word");
    let plies: Vec<u16> = t.lost_plies.chunks(2).map(|p| u16::from_le_bytes([p[0], p[1]])).collect();
    assert!(plies.iter().any(|&p| p > 1), "{plies:?}");
    // Kings on 8 x 8: 64 cells of three contents and the turn, a key of 17 bytes.
    assert!(reads_back("compiler/tests/games/kings_walk_wide.game") > 0);
    let wide = load(&file("compiler/tests/games/kings_walk_wide.game"));
    let engine = Engine::new(&wide);
    assert_eq!(keyed_table(&engine, &starts(&engine, &wide)).unwrap().len, 17);
    // Kings in a corridor of 135 cells: losses of more than 255 plies, their distances words.
    assert!(reads_back("compiler/tests/games/corridor_chase.game") > 0);
    let corridor = load(&file("compiler/tests/games/corridor_chase.game"));
    let engine = Engine::new(&corridor);
    let t = keyed_table(&engine, &starts(&engine, &corridor)).unwrap();
    let longest = t.lost_plies.chunks(2).map(|p| u16::from_le_bytes([p[0], p[1]])).max();
    assert!(longest > Some(255), "{longest:?}");
    // A game that never repeats keeps none.
    let hexapawn = load(&file("games/hexapawn.game"));
    let engine = Engine::new(&hexapawn);
    assert!(keyed_table(&engine, &starts(&engine, &hexapawn)).unwrap().lost_plies.is_empty());
}

/// Where play repeats and a move can keep the turn, a winner moving again moves to a position
/// won for itself, so the table keeps the won positions' distances too. No move form both
/// repeats and keeps the turn today (a sowing that gives another move fills a store, which
/// never empties), so the kings' engine is told that a move may keep the turn.
#[test]
fn where_a_move_can_keep_the_turn_a_repeating_game_keeps_its_won_positions_distances() {
    let path = "compiler/tests/games/kings_walk.game";
    let game = load(&file(path));
    let mut engine = Engine::new(&game);
    assert!(keyed_table(&engine, &starts(&engine, &game)).unwrap().won.is_empty(), "no move keeps the turn");
    engine.again = true;
    let t = keyed_table(&engine, &starts(&engine, &game)).unwrap();
    assert!(!t.won.is_empty());
    assert_eq!(t.won_plies.len(), 2 * t.won.len() / t.len as usize, "a distance a won key, in a word");
    let plies: Vec<u16> = t.won_plies.chunks(2).map(|p| u16::from_le_bytes([p[0], p[1]])).collect();
    assert!(plies.iter().any(|&p| p > 1), "{plies:?}");
    assert!(reads_back_from(path, &engine, &game) > 0);
}

/// The same kings on the Binario board with a cursor: the board builds the table.
#[test]
fn a_board_binds_a_perfect_device_whose_game_repeats() {
    let kings = file("compiler/tests/games/kings_walk.game");
    let (from, to) = (kings.find("  controls serial").unwrap(), kings.find("  test ").unwrap());
    let kings = format!(
        "{}  controls {{ across -> cursor across\n down -> cursor down\n select -> commit }}\n  \
         feedback {{ show cells = colours {{ white = red, black = green }}\n cursor blinks 200 ms, given yellow }}\n\n{}",
        &kings[..from],
        &kings[to..]
    );
    let mut sources = Sources::new();
    let gf = sources.add("kings.game", kings);
    let bf = sources.add("hexapawn_atmega128.board", file("boards/hexapawn_atmega128.board"));
    let game = gamec_dsl::load_game(&sources, gf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    let board = gamec_dsl::load_board(&sources, bf).unwrap();
    let target = gamec::bind::bind(&game, gf, &board, bf).unwrap_or_else(|d| panic!("{}", sources.render(&d)));
    assert!(target.core_table.is_some_and(|t| !t.lost_plies.is_empty()));
}

/// A sowing game whose last seed in the mover's store moves again: the solver's value of every
/// position is the one a plain search finds that reads such a move's position as the mover's
/// own (win, loss or draw, and in how many plies with the winner fastest and the loser
/// slowest).
#[test]
fn a_move_that_keeps_the_turn_is_valued_for_the_mover() {
    use gamec::engine::{Outcome, State};
    use std::collections::HashMap;
    let game = load(&file("compiler/tests/games/kalah_small.game"));
    let engine = Engine::new(&game);
    let starts = starts(&engine, &game);
    let solved = explore(&engine, &starts, MAX_STATES).unwrap();
    assert!(!solved.repeats, "sowing into stores never comes back");
    // Negamax by plies, memoised: +(1000 - d) a win in d plies, -(1000 - d) a loss, 0 a draw.
    fn search(e: &Engine, s: &State, memo: &mut HashMap<State, i32>) -> i32 {
        if let Some(&v) = memo.get(s) {
            return v;
        }
        let plies = e.plies(s);
        let v = if plies.is_empty() {
            match e.outcome(s) {
                Some(Outcome::Win(w)) if w == s.to_move => 1000,
                Some(Outcome::Win(_)) => -1000,
                _ => 0,
            }
        } else {
            plies
                .iter()
                .map(|&m| {
                    let t = e.play(s, m);
                    let v = search(e, &t, memo);
                    let v = if t.to_move == s.to_move { v } else { -v };
                    // A ply further from the end.
                    v - v.signum()
                })
                .max()
                .unwrap()
        };
        memo.insert(s.clone(), v);
        v
    }
    let mut memo = HashMap::new();
    let mut kept = 0;
    for (i, s) in solved.states.iter().enumerate() {
        let want = match search(&engine, s, &mut memo) {
            0 => Value::Draw,
            v if v > 0 => Value::Win((1000 - v) as u16),
            v => Value::Loss((1000 + v) as u16),
        };
        assert_eq!(solved.values[i], want, "{}", engine.show(s));
        kept += solved.keeps[i].iter().filter(|&&k| k).count();
    }
    assert!(kept > 100, "moves that keep the turn: {kept}");
}
