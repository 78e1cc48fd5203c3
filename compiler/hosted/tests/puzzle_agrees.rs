//! Binario's generated module on the host, with the runtime's puzzle: each tableau as the
//! 93C46 image holds it starts as the game file gives it, entering the compiler's solution wins,
//! and a full grid the engine does not call solved is refused.

use gamec::bind::cursor::eeprom_image;
use gamec::engine::puzzle::Puzzle as Solver;
use gamec::engine::{Engine, Outcome, State, STRIDE};
use gamec_dsl::content;
use gamec_hosted::binario::CONFIG;
use gamec_runtime::puzzle::{Input, Phase, Puzzle, Sound, Start};

fn game() -> gamec_dsl::GameDef {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/binario.game")).unwrap();
    let mut sources = gamec_dsl::Sources::new();
    let id = sources.add("binario.game", text);
    gamec_dsl::load_game(&sources, id).unwrap()
}

/// The runtime's content code of an engine cell.
fn code(v: u8) -> u8 {
    match v {
        v if v == content::state(0) => 1,
        v if v == content::state(1) => 2,
        _ => 0,
    }
}

/// Cycles cell (r, c) until it holds `want`; returns the last sound.
fn enter(p: &mut Puzzle, load: &mut impl FnMut(u8, &mut Start), r: u8, c: u8, want: u8) -> Option<Sound> {
    while p.cursor.row < r {
        p.input(Input::Down(1), &CONFIG, load);
    }
    while p.cursor.row > r {
        p.input(Input::Down(-1), &CONFIG, load);
    }
    while p.cursor.col < c {
        p.input(Input::Across(1), &CONFIG, load);
    }
    while p.cursor.col > c {
        p.input(Input::Across(-1), &CONFIG, load);
    }
    let mut sound = None;
    while p.grid.get(r * 8 + c) != want {
        sound = p.input(Input::Commit, &CONFIG, load);
    }
    sound
}

#[test]
fn every_tableau_starts_as_given_and_its_solution_wins() {
    let game = game();
    let engine = Engine::new(&game);
    let solver = Solver::new(&engine).unwrap();
    let image = eeprom_image(&game);
    let mut load = |i: u8, s: &mut Start| *s = Start::from_columns(image[i as usize * 16..][..16].try_into().unwrap());
    for (i, setup) in game.rules.setup.fixed().iter().enumerate() {
        let start = engine.start_of(&game, setup);
        let solution = solver.solutions(&start, 1).remove(0);
        let mut p = Puzzle::new();
        p.choose(0, &mut load);
        for _ in 0..i {
            p.input(Input::Across(1), &CONFIG, &mut load);
        }
        assert_eq!(p.input(Input::Commit, &CONFIG, &mut load), Some(Sound::Start));
        for cell in 0..64u8 {
            let engine_cell = (cell / 8) as usize * STRIDE + (cell % 8) as usize;
            assert_eq!(p.grid.get(cell), code(start.cells[engine_cell]), "tableau {} cell {cell}", i + 1);
        }
        let open: Vec<u8> =
            (0..64u8).filter(|&c| start.given >> ((c / 8) as usize * STRIDE + (c % 8) as usize) & 1 == 0).collect();
        let mut last = None;
        for &c in &open {
            let want = code(solution.cells[(c / 8) as usize * STRIDE + (c % 8) as usize]);
            last = enter(&mut p, &mut load, c / 8, c % 8, want).or(last);
        }
        assert_eq!(last, Some(Sound::Victory), "tableau {}", i + 1);
        assert_eq!(p.phase, Phase::Victory);
    }
}

#[test]
fn a_full_grid_the_engine_calls_unsolved_is_refused() {
    let game = game();
    let engine = Engine::new(&game);
    let solver = Solver::new(&engine).unwrap();
    let image = eeprom_image(&game);
    let mut load = |i: u8, s: &mut Start| *s = Start::from_columns(image[i as usize * 16..][..16].try_into().unwrap());
    let start = engine.start_of(&game, &game.rules.setup.fixed()[0]);
    let solution = solver.solutions(&start, 1).remove(0);
    // The solution with two open cells of different colours swapped: full, and wrong.
    let open: Vec<usize> =
        engine.cell_list.iter().map(|&c| c as usize).filter(|&c| start.given >> c & 1 == 0).collect();
    let a = open[0];
    let b = *open.iter().find(|&&c| solution.cells[c] != solution.cells[a]).unwrap();
    let mut wrong: State = solution.clone();
    wrong.cells.swap(a, b);
    assert_ne!(engine.outcome(&wrong), Some(Outcome::Win(0)), "the engine refuses it too");
    let mut p = Puzzle::new();
    p.choose(0, &mut load);
    p.input(Input::Commit, &CONFIG, &mut load);
    let mut sounds = Vec::new();
    for &c in &open {
        let (r, col) = ((c / STRIDE) as u8, (c % STRIDE) as u8);
        sounds.push(enter(&mut p, &mut load, r, col, code(wrong.cells[c])));
    }
    assert_eq!(sounds.last(), Some(&Some(Sound::Denied)));
    assert_eq!(p.phase, Phase::Playing);
}
